"""After the damage: each creation splits into the connected sections that are left [000 §7.2 Applications].

Each section gets a newly measured Size and inherits all of the creation's Size Damage, so a small piece can be
destroyed at once [000 §7.3 Wrecked Catapult]. Non-Structural elements that lost their mount become loose objects.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..rules.formulas import SizeDamageState, power_limit, round_size, size_damage
from .scene import DamageScene, _components

GROUND_TOL_LDU = 2.0


@dataclass
class Section:
    creation: str  # the creation it came from
    name: str
    elements: list[int]
    structural: list[int]
    size_in: float
    size: int
    size_damage: int
    effective_size: float
    destroyed: bool
    loose: bool  # broken free (not standing on the creation's ground level): KnockBack moves it
    kind: str  # "section" or "loose object"
    state: SizeDamageState | None
    weapons: list[dict] = field(default_factory=list)  # weapons still attached: name, type, size, elements
    weapons_disabled: list[dict] = field(default_factory=list)  # ... that this section cannot power (or lost)
    power: float | None = None  # weapon inches per turn: 2 × ES, 1 × ES flying [000 §8.1 Power Limits]

    def to_json(self) -> dict:
        d = {"creation": self.creation, "name": self.name, "elements": self.elements, "size_in": round(self.size_in, 3),
             "size": self.size, "size_damage": self.size_damage, "effective_size": self.effective_size,
             "destroyed": self.destroyed, "loose": self.loose, "kind": self.kind}
        if self.state is not None:
            d.update(sl=self.state.sl, armor=self.state.armor, half_speed=self.state.half_speed,
                     power_limit=self.state.power_limit)
        d.update(power=self.power, weapons=self.weapons, weapons_disabled=self.weapons_disabled)
        return d


def split_after(scene: DamageScene, destroyed: np.ndarray, touched_only: bool = False) -> list[Section]:
    """Sections of every creation once ``destroyed`` (bool per element) are gone."""
    rules = scene.rules
    model = scene.model
    n = scene.n_elements
    alive = ~np.asarray(destroyed, dtype=bool)
    labels = _components(n, scene.edges, alive)
    ymax = np.array([e.bbox_max[1] for e in model.elements]) if n else np.zeros(0)  # -Y is up: max Y = lowest
    sections: list[Section] = []
    for b, body in enumerate(scene.bodies):
        idx = np.asarray(body.elements, dtype=np.int64)
        hit = not alive[idx].all()
        if touched_only and not hit:
            continue
        left = idx[alive[idx]]
        if not hit:
            sections.append(_section(scene, body, body.name, left.tolist(), list(body.structural) or left.tolist(),
                                     body.size, loose=False, kind="section"))
            continue
        ground = ymax[idx].max() if len(idx) else 0.0
        groups: dict[int, list[int]] = {}
        for i in left.tolist():
            groups.setdefault(int(labels[i]), []).append(i)
        structural = body.structural or frozenset(body.elements)
        parts = []
        loose_bits = []
        for members in groups.values():
            st = [i for i in members if i in structural]
            (parts if st else loose_bits).append((members, st))
        parts.sort(key=lambda p: (-len(p[1]), p[0][0]))  # the biggest piece keeps the name
        for k, (members, st) in enumerate(parts):
            name = body.name if k == 0 else f"{body.name}/{k + 1}"
            anchored = bool((ymax[members] >= ground - GROUND_TOL_LDU).any())
            size_in = scene.measure(st)
            size = round_size(size_in, rules.size.default_mode, rules)
            sections.append(_section(scene, body, name, members, st, size, loose=not anchored, kind="section",
                                     size_in=size_in))
        for k, (members, _) in enumerate(loose_bits):
            size_in = scene.measure(members)
            size = round_size(size_in, rules.size.default_mode, rules)
            sections.append(Section(body.name, f"{body.name}/loose {k + 1}", members, [], size_in, size, 0,
                                    float(size), False, True, "loose object", None))
    for s in sections:
        _weapons(scene, s, alive)
    return sections


def _weapons(scene: DamageScene, s: Section, alive: np.ndarray) -> None:
    """Which of the creation's weapons this section still carries, and which it can no longer use.

    [000 §7.2 Applications / §7.3 Wrecked Catapult] each piece only uses the weapons still attached to it, and
    only if its Effective Size gives enough Power: Power = 2 × ES (1 × ES flying in air) [000 §8.1 Power Limits].
    A weapon larger than that Power cannot fire at all: it is deactivated (Diverting Power aside). A weapon that
    lost elements to the damage is still listed with the section holding what is left of it, marked ``damaged``.
    A loose object cannot power anything: every weapon on it is disabled.
    """
    body = scene.bodies[scene.owner[s.elements[0]]] if s.elements else None
    if body is None or not body.weapons:
        return
    members = set(s.elements)
    es = max(float(s.effective_size), 0.0)
    if s.kind == "loose object" or s.destroyed:
        s.power = 0.0
    else:
        s.power = float(power_limit(es, body.flying, scene.rules))
    for w in body.weapons:
        here = [i for i in w.elements if i in members]
        if not here:
            continue
        info = {"name": w.name, "type": w.type, "size": w.size, "elements": sorted(here),
                "damaged": len(here) < len(w.elements)}
        s.weapons.append(info)
        if s.kind == "loose object":
            why = "broken loose: no longer mounted on a creation"
        elif s.destroyed:
            why = "the section is destroyed (ES <= 0)"
        elif w.size > s.power + 1e-9:
            why = (f"Weapon Size {w.size:g}\" needs more Power than {s.power:g}\" "
                   f"({'1' if body.flying else '2'} × ES {es:g}) [000 §8.1 Power Limits]")
        else:
            continue
        s.weapons_disabled.append({**info, "reason": why})


def _section(scene: DamageScene, body, name: str, members: list[int], st: list[int], size: int, *, loose: bool,
             kind: str, size_in: float | None = None) -> Section:
    if size_in is None:
        size_in = scene.measure(st)
    # [000 §7.2 Effective Size] ES = Size - Size Damage; ES <= 0 destroys it
    state = size_damage(size, body.sl, body.size_damage, scene.rules)
    return Section(body.name, name, sorted(members), sorted(st), float(size_in), int(size), body.size_damage,
                   state.effective_size, state.destroyed, loose, kind, state)
