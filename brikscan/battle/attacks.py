"""Attack options: who can hit whom, with which weapon, needing what roll [000 §5.1 Making Attacks].

For every unit and creation with a weapon, against every target:

1. **Aim.** The barrel end and axis come from the weapon's geometry (``units.weapon_barrel``); the mount from
   the connectivity graph: *fixed* (the 45° fudge cone about the barrel axis), on a *turntable* (its rotation
   plus the fudge), on a *hinge* or *arm* (each joint's sweep plus the fudge), *held* by a minifig (he turns: any
   bearing) [000 §8.2 Ranged Weapons]. Joints that spin about the barrel's own axis do not aim it.
2. **Sight and range from the barrel end** (the weapon's own creation never blocks), Range plus height
   advantage (≤ +5") and inches Out of Range [000 §5.1 Other Modifiers]; Close Combat: the striking surface's
   reach plus the Angry Inch [000 §5.2].
3. **The roll.** Target Size (sections for minifigs, the visible Structural part of a creation), firing blind
   -5, the natural roll needed on the Skill die, the chance to hit with Critical Failure / Overskill as the rules
   give them, and the chance that the Damage beats the Armor.

Every number comes from ``rules/sight_2010.toml`` or the stat cards (Use, Range, Damage, Armor).
"""
from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from ..errors import NotFoundError
from ..forked import Forked
from ..geometry.boxes import elements_box
from ..rules.sight_tables import SightRules, load_sight_rules
from .sight import _box_exit, _head_box, face_owners, get_engine, march, target_samples_with_elements
from .support import bbox_arrays, supported_by
from .target_size import SCENERY_KINDS, creation_target_size, is_scenery
from .units import SECTIONS, Unit, creation_unit, select, weapon_anchor, weapon_barrel

RANGED = ("gun", "cannon", "rocket", "flamethrower", "launcher", "blastgun", "machinegun", "explosive")
MELEE = ("melee",)
AIM_POINTS = 24  # target sample points used to find the best aim (all of them are used for sight)
MAX_JOINTS = 3
SAMPLE_SLACK_IN = 0.5  # how much farther than the target's surface its nearest sample point may be
FORK_MIN_OPTIONS = 200  # from this many options on, half of them are worked out by a forked child
RAY_POOLS = ("brikscan-rays", "brikscan-instanced")  # the ray engines' worker threads (battle/raycast, instanced)


# ------------------------------------------------------------------------------------------ data

@dataclass
class Joint:
    kind: str  # turntable, hinge, technic, clip, ball
    point: np.ndarray  # a point on the rotation axis (battlefield LDU)
    axis: np.ndarray  # unit rotation axis
    sweep_deg: float  # whole sweep, centred on the built position

    def to_json(self) -> dict:
        return {"kind": self.kind, "point_ldu": _r(self.point), "axis": _r(self.axis, 4),
                "sweep_deg": self.sweep_deg}


@dataclass
class Mount:
    kind: str  # fixed | turntable | hinge | arm | held
    joints: list[Joint]
    reason: str


class Barrel:
    """A weapon's (barrel end, axis), worked out when first asked for: the oriented box behind it is the dearest
    step of finding weapons, and a held Close Combat weapon's barrel is only ever reported, never aimed."""

    def __init__(self, find=None, value: tuple | None = None):
        self._find, self._value = find, value

    def get(self) -> tuple[np.ndarray | None, np.ndarray | None]:
        if self._find is not None:
            b = self._find()
            self._value, self._find = ((b[0], b[1]) if b is not None else (None, None)), None
        return self._value or (None, None)


@dataclass
class Weapon:
    """One weapon of one attacker, in battlefield coordinates."""

    attacker: Unit
    name: str  # short name a player types: "bow", "cannon", "right arm gun"
    part: str  # the stat card's weapon name
    type: str
    melee: bool
    elements: list[int]
    use: float | None
    range_in: float | None
    damage: str
    size: float
    barrel: Barrel  # .tip / .axis
    mount: Mount
    skill_die: int
    mount_y: float  # the surface the weapon is mounted on / the unit stands on (LDU, -Y up)
    crewed: bool = True
    warnings: list[str] = field(default_factory=list)

    @property
    def tip(self) -> np.ndarray | None:
        """The barrel end (battlefield LDU), None without barrel geometry."""
        return self.barrel.get()[0]

    @property
    def axis(self) -> np.ndarray | None:
        """The unit axis pointing out of the barrel, None without barrel geometry."""
        return self.barrel.get()[1]


@dataclass
class Modifier:
    name: str
    value: int
    section: str
    detail: str = ""

    def to_json(self) -> dict:
        return {"name": self.name, "value": self.value, "section": self.section, "detail": self.detail}


@dataclass
class AttackOption:
    attacker: str
    weapon: str
    weapon_type: str
    target: str
    target_kind: str
    mount: str
    in_arc: bool
    aim_off_deg: float  # angle from the nearest direction the mount can point the barrel to the target
    visible: bool
    sections_visible: list[str]
    visible_fraction: float
    distance_in: float
    range_in: float | None
    height_advantage_in: float
    out_of_range_in: float
    range_penalty: int
    modifiers: list[Modifier]
    use: float | None
    skill_die: int
    needed_roll: int | None
    needed_in_range: int | None
    p_hit: float
    p_kill: float | None
    damage: str
    armor: str
    possible: bool
    melee: bool
    origin_ldu: np.ndarray
    aim_ldu: np.ndarray  # the barrel direction the mount is turned to (unit)
    notes: list[str] = field(default_factory=list)
    rays: slice = field(default_factory=lambda: slice(0, 0))

    def to_json(self) -> dict:
        return {"attacker": self.attacker, "weapon": self.weapon, "target": self.target,
                "in_arc": self.in_arc, "visible": self.visible, "distance_in": round(self.distance_in, 2),
                "range_in": None if self.range_in is None else round(self.range_in, 2),
                "out_of_range_in": round(self.out_of_range_in, 2),
                "modifiers": [m.to_json() for m in self.modifiers],
                "use": self.use, "needed_roll": self.needed_roll, "p_hit": round(self.p_hit, 4),
                "p_kill": None if self.p_kill is None else round(self.p_kill, 4),
                "weapon_type": self.weapon_type, "target_kind": self.target_kind, "mount": self.mount,
                "melee": self.melee, "aim_off_deg": round(self.aim_off_deg, 1),
                "sections_visible": self.sections_visible, "visible_fraction": round(self.visible_fraction, 4),
                "height_advantage_in": self.height_advantage_in, "range_penalty": self.range_penalty,
                "needed_in_range": self.needed_in_range, "skill_die": f"d{self.skill_die}",
                "damage": self.damage, "armor": self.armor, "possible": self.possible,
                "origin_ldu": _r(self.origin_ldu), "aim": _r(self.aim_ldu, 4), "notes": self.notes}


@dataclass
class AttackResult:
    options: list[AttackOption]
    weapons: list[Weapon]
    warnings: list[str]
    origins: np.ndarray  # (R,3) ray starts, for pictures
    points: np.ndarray  # (R,3) target sample points
    blocked: np.ndarray  # (R,) bool
    engine: str
    timings: dict = field(default_factory=dict)

    def option(self, attacker: str, target: str, weapon: str | None = None) -> AttackOption:
        for o in self.options:
            if o.attacker.lower() == attacker.lower() and o.target.lower() == target.lower() and \
                    (weapon is None or weapon.lower() in (o.weapon.lower(), o.weapon_type.lower())):
                return o
        raise KeyError((attacker, target, weapon))


def _r(v, nd: int = 2):
    return None if v is None else [round(float(x), nd) for x in v]


# ------------------------------------------------------------------------------------------ dice

@lru_cache(maxsize=4096)
def _die_dist(sides: int, penalty: int, bonus_sides: int, depth: int = 3, bonus_same: tuple = (4,)
              ) -> tuple[tuple[int, float], ...]:
    """Distribution of one die's contribution after the Out of Range penalty, with its Bonus Dice chain.

    The top face earns a Bonus die (a d6; a d4 for a d4), which chains; every die, bonus dice too, loses the
    penalty; Criticals are read on the natural face [000 §1.2 Critical Rolls] [000 §5.1 Other Modifiers]. Values
    may go negative: only the roll's total is held at 0 (2 + 1 - 3 = 0 in [000 §4.2 Action])."""
    out: dict[int, float] = {}
    for v in range(1, sides + 1):
        val = v - penalty
        if v == sides and depth > 0:
            nxt = _die_dist(sides if sides in bonus_same else bonus_sides, penalty, bonus_sides, depth - 1,
                            bonus_same)
            for x, p in nxt:
                out[val + x] = out.get(val + x, 0.0) + p / sides
        else:
            out[val] = out.get(val, 0.0) + 1.0 / sides
    return tuple(sorted(out.items()))


def _sum_dist(n: int, sides: int, add: int, penalty: int, bonus_sides: int) -> dict[int, float]:
    """Distribution of NdS + add, every die reduced by ``penalty``; the total never below 0 [000 §1.2]."""
    dist = {add: 1.0}
    one = _die_dist(sides, penalty, bonus_sides) if n else ()
    for _ in range(n):
        nxt: dict[int, float] = {}
        for a, pa in dist.items():
            for b, pb in one:
                nxt[a + b] = nxt.get(a + b, 0.0) + pa * pb
        dist = nxt
    out: dict[int, float] = {}
    for v, p in dist.items():
        out[max(0, v)] = out.get(max(0, v), 0.0) + p
    return out


def p_hit(use: float, skill_mod: int, penalty: int, skill_die: int, rules: SightRules,
          bonus_sides: int = 6) -> float:
    """Chance that Skill die + modifiers reaches the Use [000 §5.1 Skill and Damage Rolls].

    A natural 1 always fails [000 §1.2 Critical Rolls]; a natural ``overskill_min`` or more earns an Overskill
    Benny, spent on +1d6 to the roll (a d4 earns a Bonus d4 on a 4) [000 §4.2 Action]; every die loses the Out of
    Range penalty [000 §5.1 Other Modifiers]."""
    ar = rules.attack_roll
    return _p_hit(float(use), float(skill_mod), int(penalty), int(skill_die), int(bonus_sides),
                  int(ar.critical_failure), int(ar.overskill_min), int(ar.minimum_result), int(ar.benny_die))


@lru_cache(maxsize=8192)  # thirty attackers against thirty targets ask the same few questions
def _p_hit(use: float, skill_mod: float, penalty: int, skill_die: int, bonus_sides: int, critical_failure: int,
           overskill_min: int, minimum_result: int, benny_die: int) -> float:
    need = use - skill_mod
    total = 0.0
    for v in range(1, skill_die + 1):
        if v <= critical_failure:
            continue
        val = v - penalty
        bonus = v >= overskill_min if skill_die >= overskill_min else v == skill_die
        if max(minimum_result, val) >= need - 1e-9:
            total += 1.0 / skill_die
        elif bonus:
            extra = _die_dist(benny_die if skill_die >= overskill_min else skill_die, penalty, bonus_sides)
            total += sum(p for x, p in extra if max(minimum_result, val + x) >= need - 1e-9) / skill_die
    return min(1.0, total)


def needed_roll(use: float, skill_mod: int, penalty: int, rules: SightRules) -> int:
    """The natural Skill roll needed: Use - modifiers + the Out of Range penalty; never a 1 (Critical Failure)."""
    return max(rules.attack_roll.critical_failure + 1, int(math.ceil(use - skill_mod + penalty - 1e-9)))


_DICE = re.compile(r"^\s*(\d+)?\s*(?:d\s*(\d+)|x?\s*skill(?:\s*dice?)?)\s*([+-]\s*\d+)?", re.I)


def parse_damage(damage: str, skill_die: int, size: float, rules: SightRules) -> tuple[int, int, int, bool] | None:
    """(dice, sides, add, explosive) of a stat card's Damage: "1d6+1", "2xSkill", "3d10 Exp", "ammo"; else None.

    A Cannon's or Launcher's ammunition: the largest Explosive it can fire [000 §8.4] (``rules.ammunition``)."""
    d = (damage or "").strip()
    low = d.lower()
    if low in ("ammo", "payload"):
        am = rules.ammunition
        return max(1, int(round(size * am.xsize_per_size))), am.die, 0, True
    m = _DICE.match(d)
    if not m or (m.group(1) is None and m.group(2) is None and "skill" not in low):
        return None
    n = int(m.group(1) or 1)
    sides = int(m.group(2)) if m.group(2) else skill_die
    add = int(m.group(3).replace(" ", "")) if m.group(3) else 0
    return n, sides, add, "exp" in low


def parse_armor(armor: str) -> tuple[int, int, int]:
    """"2d10" -> (2, 10, 0); "4" -> (0, 0, 4)."""
    a = (armor or "0").strip().lower()
    m = re.match(r"^(\d*)d(\d+)\s*([+-]\s*\d+)?$", a)
    if m:
        return int(m.group(1) or 1), int(m.group(2)), int((m.group(3) or "0").replace(" ", ""))
    try:
        return 0, 0, int(float(a))
    except ValueError:
        return 0, 0, 0


def p_beats_armor(damage: tuple[int, int, int, bool], armor: str, penalty: int, rules: SightRules,
                  extra: int = 0, bonus_sides: int = 6) -> float:
    pen = 0 if damage[3] and rules.out_of_range.explosive_damage_ignores else penalty
    return _p_beats(tuple(damage), str(armor), int(pen), int(extra), int(bonus_sides))


@lru_cache(maxsize=8192)
def _p_beats(damage: tuple[int, int, int, bool], armor: str, pen: int, extra: int, bonus_sides: int) -> float:
    """Chance the Damage roll is strictly greater than the Armor roll [000 §5.1 Making Attacks]; Out of Range
    takes 1 per inch off every damage die except an Explosion's [000 §5.1 Other Modifiers]."""
    n, sides, add, _ = damage
    dmg = _sum_dist(n, sides, add + extra, pen, bonus_sides)
    an, asides, aadd = parse_armor(armor)
    arm = _sum_dist(an, asides, aadd, 0, bonus_sides) if an else {aadd: 1.0}
    dv = np.array(list(dmg.keys()), float)
    dp = np.array(list(dmg.values()), float)
    av = np.array(list(arm.keys()), float)
    ap = np.array(list(arm.values()), float)
    p = float(ap @ ((dv[None, :] > av[:, None]) @ dp))  # the Damage strictly above the Armor [000 §5.1]
    return float(min(1.0, p))


# ------------------------------------------------------------------------------------------ weapons

def short_name(name: str) -> str:
    """What a player calls a weapon: "Minifig Gun Rifle" -> "rifle", "Minifig Bow with Arrow" -> "bow"."""
    n = re.sub(r"\.(ldr|dat|mpd)$", "", name.strip("~ "), flags=re.I)
    n = re.split(r"\s+with\s+|\s*\(", n, flags=re.I)[0]
    words = [w for w in n.split() if w.lower() not in ("minifig", "minifigure")]
    if len(words) > 1 and words[0].lower() in ("gun", "sword", "polearm", "weapon", "tool", "utensil"):
        words = words[1:]
    return " ".join(words).lower() or name.lower()


def _skill_die(creation, rules: SightRules, an) -> int:
    """A unit's Skill die: a ``skill=d10`` annotation (a Hero [000 ch.6]), else the rules' default d6."""
    s = str((creation.annotation or {}).get("skill", "")).lower().lstrip("d")
    if s.isdigit():
        return int(s)
    try:
        return int(str(an.rules_table.minds.default_die).lstrip("d"))
    except Exception:
        return rules.attack_roll.default_skill_die


def _unit_for(units: list[Unit], gids: set[int], minifig: bool) -> Unit | None:
    best, score = None, 0
    for u in units:
        if u.is_minifig != minifig:
            continue
        k = len(gids.intersection(u.elements))
        if k > score:
            best, score = u, k
    return best


def find_weapons(battlefield, rules: SightRules | None = None) -> list[Weapon]:
    """Every weapon of every unit and creation on the battlefield, with its barrel, axis and mount."""
    rules = rules or load_sight_rules()
    cache = getattr(battlefield, "cache", None)
    if cache is not None and "weapons" in cache:
        return cache["weapons"]
    out: list[Weapon] = []
    els = battlefield.elements
    extra_units: list[Unit] = []
    for pl, an in zip(battlefield.placements, battlefield.analyses):
        base = pl.first_element
        xf = np.asarray(pl.transform, dtype=float)
        minifig_creations = [c for c in an.creations if c.kind == "minifig"]
        for c, card in zip(an.creations, an.cards):
            if not card.weapons or c.kind in SCENERY_KINDS:
                continue
            gids = {base + i for i in c.elements}
            is_fig = c.kind == "minifig"
            unit = _unit_for(battlefield.units + extra_units, gids, is_fig)
            if unit is None:
                unit = creation_unit(els, c.name, c.kind, sorted(gids))
                extra_units.append(unit)
            skill = _skill_die(c, rules, an)
            crewed = True
            warn: list[str] = []
            if not is_fig:
                crewed = _crewed(an, c, minifig_creations, battlefield, base)
                if not crewed:
                    skill = rules.controls.operator_skill_die
                    warn.append(f"{unit.name}: no minifig at the controls [000 §9.4 Piloting]: its weapons need an "
                                f"operator (reported with a d{skill} Skill die)")
            c_edges: list | None = None  # the creation's edges, gathered for its first mounted weapon
            for w in card.weapons:
                if w.type not in RANGED + MELEE:
                    continue  # shields parry, they do not attack [000 §3.3]
                wids = [base + i for i in w.elements]
                melee = w.type in MELEE or w.range_in is None
                barrel = Barrel(lambda unit=unit, wids=wids: weapon_barrel(els, battlefield.mesh, unit, wids))
                if is_fig:  # held: the barrel is found when the weapon aims or is reported
                    mount = Mount("held", [], "held by a minifig: he turns to face any bearing [000 §5.1]")
                    mount_y = float(unit.position_ldu[1])
                elif barrel.get()[1] is None:
                    mount = Mount("fixed", [], "no barrel geometry")
                    mount_y = float(unit.position_ldu[1])
                else:
                    c_edges = creation_edges(an, c) if c_edges is None else c_edges
                    mount = creation_mount(an, c, w.elements, barrel.get()[1], xf, els, base, rules, c_edges)
                    lo, hi = elements_box(els, wids)
                    mount_y = float(hi[1])  # the surface the weapon sits on [000 §5.1 Other Modifiers]
                out.append(Weapon(unit, short_name(w.name), w.name, w.type, melee, wids, w.use, w.range_in,
                                  w.damage, float(w.size), barrel, mount, skill, mount_y, crewed, list(warn)))
    if cache is not None:
        cache["weapons"] = out
    return out


def _crewed(an, creation, minifigs, battlefield, base) -> bool:
    """A minifig is at the controls: joined to the creation in the graph, or standing inside its box."""
    mine = set(creation.elements)
    for f in minifigs:
        if any(n in mine for i in f.elements for n in an.graph.neighbors(i)):
            return True
    lo, hi = elements_box(battlefield.elements, [base + i for i in creation.elements])
    for u in battlefield.units:
        if u.is_minifig and np.all(u.position_ldu >= lo - 10) and np.all(u.position_ldu <= hi + 10):
            return True
    return False


def creation_edges(an, creation) -> list[tuple[int, int, dict]]:
    """The connectivity graph's edges among a creation's elements, in the graph's order: what
    ``creation_mount`` reads for each of the creation's weapons (gathered once per creation: speed only)."""
    return list(an.graph.subgraph(creation.elements).edges(data=True))


def creation_mount(an, creation, w_local: list[int], axis_world: np.ndarray, xf: np.ndarray, els, base: int,
                   rules: SightRules, edges: list[tuple[int, int, dict]] | None = None) -> Mount:
    """How a creation's weapon is mounted, from the connectivity graph [000 §8.2 Ranged Weapons].

    Rigid bodies are the creation's elements joined by rigid edges (turntable parts and joints that turn the
    weapon cut them); the main body holds the most Structure. The joints on the way from the weapon's body to the
    main body are the mount: none = fixed, a turntable = turret, hinges / pins = hinge or arm. ``edges``:
    ``creation_edges(an, creation)`` when the caller already has them."""
    import networkx as nx  # only mounted weapons need it: held ones (every minifig) never do

    jr = rules.joints
    g = an.graph
    members = set(creation.elements)
    w_set = set(w_local)
    rot = xf[:3, :3]
    spin_cos = math.cos(math.radians(jr.spin_parallel_deg))
    turn = {i for i in members - w_set if "turntable" in (an.model.elements[i].description or "").lower()}
    rigid = nx.Graph()
    rigid.add_nodes_from(members - turn)
    moving = []
    for a, b, d in (edges if edges is not None else creation_edges(an, creation)):
        if a in turn or b in turn:
            continue
        if d.get("movable") and d.get("kind") != "stud":
            joints = d.get("joints") or []
            ax = np.asarray(joints[0][1], dtype=float) if joints else None
            if ax is not None and np.linalg.norm(ax) > 0:
                axw = rot @ (ax / np.linalg.norm(ax))
                if abs(float(axw @ axis_world)) >= spin_cos:
                    rigid.add_edge(a, b)  # spins about the barrel's own axis: does not aim it
                    continue
            moving.append((a, b, d))
        else:
            rigid.add_edge(a, b)
    comp: dict[int, int] = {}
    for k, cc in enumerate(nx.connected_components(rigid)):
        for i in cc:
            comp[i] = k
    structural = set(creation.structural_elements)
    score: dict[int, tuple[int, int]] = {}
    for i, k in comp.items():
        s, n = score.get(k, (0, 0))
        score[k] = (s + (i in structural), n + 1)
    main = max(score, key=lambda k: score[k])
    wc = [comp[i] for i in w_local if i in comp]
    if not wc:
        return Mount("fixed", [], "weapon not in the creation's graph")
    wbody = max(set(wc), key=wc.count)
    if wbody == main:
        return Mount("fixed", [], "rigidly built into the main body: the 45° fudge about the barrel [000 §8.2]")
    bg = nx.Graph()
    for a, b, d in moving:
        ca, cb = comp[a], comp[b]
        if ca != cb:
            bg.add_edge(("c", ca), ("c", cb), edge=(a, b, d))
    for t in turn:
        for n in g.neighbors(t):
            if n in comp:
                bg.add_edge(("t", t), ("c", comp[n]))
    try:
        path = nx.shortest_path(bg, ("c", main), ("c", wbody))
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return Mount("fixed", [], "not joined to the main body by a joint: fixed")
    joints: list[Joint] = []
    for u, v in zip(path[:-1], path[1:]):
        if u[0] == "t" or v[0] == "t":
            t = u[1] if u[0] == "t" else v[1]
            if any(j.kind == "turntable" and j.point is not None and getattr(j, "_el", None) == t for j in joints):
                continue
            e = els[base + t]
            up = rot @ np.asarray(an.model.elements[t].transform, dtype=float)[:3, 1]
            j = Joint("turntable", (np.asarray(e.bbox_min) + np.asarray(e.bbox_max)) / 2,
                      up / (np.linalg.norm(up) or 1.0), jr.sweep_deg("turntable"))
            j._el = t  # type: ignore[attr-defined]
            joints.append(j)
            continue
        a, b, d = bg.edges[u, v]["edge"]
        jj = d.get("joints") or []
        if jj:
            pos = xf[:3, :3] @ np.asarray(jj[0][0], dtype=float) + xf[:3, 3]
            ax = rot @ np.asarray(jj[0][1], dtype=float)
        else:
            ea, eb = els[base + a], els[base + b]
            pos = (np.asarray(ea.bbox_min) + np.asarray(ea.bbox_max) + np.asarray(eb.bbox_min)
                   + np.asarray(eb.bbox_max)) / 4
            ax = np.cross(axis_world, [0.0, -1.0, 0.0])
        kind = str(d.get("kind") or "hinge")
        joints.append(Joint(kind, pos, ax / (np.linalg.norm(ax) or 1.0), jr.sweep_deg(kind)))
    if not joints:
        return Mount("fixed", [], "fixed")
    kinds = [j.kind for j in joints]
    if "turntable" in kinds:
        mk, why = "turntable", "on a turntable: its rotation plus the 45° fudge [000 §8.2]"
    elif len(joints) == 1:
        mk, why = "hinge", f"on a {kinds[0]} joint: its sweep plus the 45° fudge [000 §8.2]"
    else:
        mk, why = "arm", f"on an arm ({' + '.join(kinds)}): the joints' sweeps plus the 45° fudge [000 §8.2]"
    return Mount(mk, joints, why)


# ------------------------------------------------------------------------------------------ aiming

def _rotate(v: np.ndarray, axis: np.ndarray, ang: np.ndarray) -> np.ndarray:
    """Rodrigues: rotate vectors v (M,3) about a unit axis by angles ang (M,) radians."""
    c, s = np.cos(ang)[:, None], np.sin(ang)[:, None]
    k = axis[None, :]
    return v * c + np.cross(k, v) * s + k * (v @ axis)[:, None] * (1 - c)


def _poses(weapon: Weapon) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sampled barrel poses (tips (M,3), axes (M,3), |turn| (M,)) the mount can reach."""
    cached = getattr(weapon, "_poses", None)
    if cached is not None:
        return cached
    tip, axis = np.asarray(weapon.tip, float), np.asarray(weapon.axis, float)
    joints = weapon.mount.joints[-MAX_JOINTS:]
    if not joints:
        return tip[None], axis[None], np.zeros(1)
    step = {1: 1.0, 2: 6.0}.get(len(joints), 15.0)
    grids = []
    for j in joints:
        half = min(180.0, j.sweep_deg / 2)
        n = max(1, int(round(2 * half / step)))
        grids.append(np.radians(np.linspace(-half, half, n + 1 if half < 180 else n, endpoint=half < 180)))
    mesh = np.meshgrid(*grids, indexing="ij")
    angles = np.stack([m.ravel() for m in mesh], axis=1)  # (M, J)
    tips = np.broadcast_to(tip, (len(angles), 3)).copy()
    axes = np.broadcast_to(axis, (len(angles), 3)).copy()
    for k in range(len(joints) - 1, -1, -1):  # outermost first, about the built-pose axes
        j = joints[k]
        tips = _rotate(tips - j.point, j.axis, angles[:, k]) + j.point
        axes = _rotate(axes, j.axis, angles[:, k])
    weapon._poses = (tips, axes, np.abs(angles).sum(axis=1))  # type: ignore[attr-defined]
    return weapon._poses  # type: ignore[attr-defined]


def aim(weapon: Weapon, target_pts: np.ndarray, centre: np.ndarray, fudge_deg: float, battlefield=None
        ) -> tuple[bool, float, np.ndarray, np.ndarray]:
    """(in arc, degrees off the arc's nearest barrel direction, barrel end, barrel direction) against a target.

    A held weapon turns with its minifig (any bearing; the barrel end swings round his body). Mounted weapons try
    every pose their joints allow; the target is in arc when some part of it lies within the fudge of the barrel
    axis [000 §8.2 Ranged Weapons]."""
    if weapon.tip is None:
        o = np.asarray(weapon.attacker.eye_ldu, float)
        d = centre - o
        return True, 0.0, o, d / (np.linalg.norm(d) or 1.0)
    if weapon.mount.kind == "held":
        tip = _turned_tip(weapon, centre, battlefield)
        d = centre - tip
        return True, 0.0, tip, d / (np.linalg.norm(d) or 1.0)
    tips, axes, turn = _poses(weapon)
    pts = np.vstack([centre[None], target_pts])
    v = pts[None, :, :] - tips[:, None, :]  # (M, K, 3)
    v /= np.linalg.norm(v, axis=2, keepdims=True).clip(1e-9)
    cos = np.einsum("mkc,mc->mk", v, axes).clip(-1, 1)
    best_k = cos.max(axis=1)  # per pose: the target point nearest the axis
    off = np.degrees(np.arccos(best_k))
    m = int(np.lexsort((turn, -np.round(best_k, 6)))[0])
    return bool(off[m] <= fudge_deg + 1e-9), float(off[m]), tips[m], axes[m]


def _turned_tip(weapon: Weapon, centre: np.ndarray, battlefield) -> np.ndarray:
    """The barrel end after the minifig turns about his vertical axis to face the target."""
    u = weapon.attacker
    tip = np.asarray(weapon.tip, float)
    torso = u.sections.get("torso") or u.elements
    if battlefield is None or not torso:
        return tip
    turn = getattr(weapon, "_turn", None)  # the same for every target: once per weapon
    if turn is None:
        e = battlefield.elements[torso[0]]
        face = np.asarray(e.transform, float)[:3, :3] @ np.array([0.0, 0.0, -1.0])  # a minifig faces -Z
        lo, hi = elements_box(battlefield.elements, torso)
        turn = weapon._turn = (face, (lo + hi) / 2)  # type: ignore[attr-defined]
    face, pivot = turn
    f = np.array([face[0], face[2]])
    t = np.array([centre[0] - pivot[0], centre[2] - pivot[2]])
    if np.linalg.norm(f) < 1e-6 or np.linalg.norm(t) < 1e-6:
        return tip
    ang = math.atan2(f[0] * t[1] - f[1] * t[0], f @ t)
    # rotation about -Y (up) by the signed angle in the x-z plane
    r = tip - pivot
    c, s = math.cos(ang), math.sin(ang)
    x, z = r[0] * c - r[2] * s, r[0] * s + r[2] * c
    return pivot + np.array([x, r[1], z])


# ------------------------------------------------------------------------------------------ the matrix

def select_weapons(weapons: list[Weapon], name: str | None) -> list[Weapon]:
    """Weapons by short name, stat card name or type; unknown: a one-line NotFoundError listing the choices."""
    if not name:
        return weapons
    want = [n.strip().lower() for n in name.split(",") if n.strip()]
    out = [w for w in weapons if any(x in (w.name.lower(), w.part.lower(), w.type.lower()) for x in want)]
    missing = [x for x in want if not any(x in (w.name.lower(), w.part.lower(), w.type.lower()) for w in weapons)]
    if missing or not out:
        names = sorted({w.name for w in weapons})
        raise NotFoundError(f"no weapon named {missing[0] if missing else name!r} (weapons: {', '.join(names)})")
    return out


def pick_units(bf, from_: str | None, to: str | None):
    """--from / --to by name; an unknown name is one line listing the ones that exist (exit 5)."""
    armed = []
    for w in find_weapons(bf):
        if w.attacker not in armed:
            armed.append(w.attacker)
    attackers = None
    if from_:
        attackers = select(armed, from_, None, noun="attacker", shown=20)
    targets = select(bf.units, to, None, noun="target", shown=20) if to else None
    if attackers is not None and not attackers:
        raise NotFoundError("no attacker")
    return attackers, targets


def _target_centre(battlefield, t: Unit) -> np.ndarray:
    ids = (t.sections.get("torso") or t.elements) if t.is_minifig else t.elements
    lo, hi = elements_box(battlefield.elements, ids)
    return (lo + hi) / 2


def attack_options(battlefield, attackers: list[Unit] | None = None, targets: list[Unit] | None = None,
                   weapon: str | None = None, *, samples: int = 200, seed: int = 0, scenery: bool = False,
                   engine: str | None = None, rules: SightRules | None = None,
                   skill_dice: dict[str, int] | None = None) -> AttackResult:
    """Every weapon of ``attackers`` (default: every unit and creation with one) against every target (default:
    every unit and creation but scenery, the attacker itself and what it stands on)."""
    t0 = time.perf_counter()
    rules = rules or load_sight_rules()
    lpi = battlefield.ldu_per_inch
    weapons = find_weapons(battlefield, rules)
    if attackers is not None:
        ids = {id(u) for u in attackers}
        names = {u.name.lower() for u in attackers}
        weapons = [w for w in weapons if id(w.attacker) in ids or w.attacker.name.lower() in names]
    weapons = select_weapons(weapons, weapon)
    targets = list(battlefield.units) if targets is None else list(targets)
    if not scenery:
        targets = [t for t in targets if not is_scenery(battlefield, t)]
    warnings = sorted({m for w in weapons for m in w.warnings})
    eng = get_engine(battlefield, engine)

    # actors: every unit that owns elements, so its own faces never block its own rays
    actors: list[Unit] = []
    for u in [w.attacker for w in weapons] + targets:
        if not any(a is u for a in actors):
            actors.append(u)
    aid = {id(u): k for k, u in enumerate(actors)}
    face_owner = face_owners(battlefield, actors)
    fe = battlefield.mesh.face_element
    samp = {id(t): target_samples_with_elements(battlefield, t, samples, seed) for t in targets}
    centres = {id(t): _target_centre(battlefield, t) for t in targets}
    support = {id(w.attacker): supported_by(battlefield, w.attacker) for w in weapons}
    fudge = rules.firing_arc.fudge_deg
    aim_pts = {}  # per target: the sample points that find the best aim
    for t in targets:
        pts = samp[id(t)][0]
        aim_pts[id(t)] = pts[np.linspace(0, len(pts) - 1, min(AIM_POINTS, len(pts))).astype(int)]
    head_box = {id(w.attacker): _head_box(battlefield, w.attacker) if w.attacker.is_minifig else None
                for w in weapons if w.melee}

    plans = []  # (weapon, target, in_arc, off, origin, aim_dir, head_box or None)
    for w in weapons:
        for t in targets:
            if t is w.attacker or t.name in support[id(w.attacker)] or not samp[id(t)][0].size:
                continue  # itself, or what it stands on
            if t.is_minifig:
                if id(t) not in support:
                    support[id(t)] = supported_by(battlefield, t)
                if w.attacker.name in support[id(t)]:
                    continue  # its own crew or riders
            if w.melee:
                o = np.asarray(w.attacker.eye_ldu, float)  # Close Combat: he must see it [000 §5.1 Checking Range]
                d = centres[id(t)] - o
                plans.append((w, t, True, 0.0, o, d / (np.linalg.norm(d) or 1.0), head_box[id(w.attacker)]))
            else:
                ok, off, o, d = aim(w, aim_pts[id(t)], centres[id(t)], fudge, battlefield)
                plans.append((w, t, ok, off, o, d, None))
    O, P, RV, RT, slices, boxed = [], [], [], [], [], []
    pos = 0
    for w, t, ok, off, o, d, box in plans:
        pts = samp[id(t)][0]
        n = len(pts)
        O.append(np.broadcast_to(o, (n, 3)))
        P.append(pts)
        RV.append(np.full(n, aid[id(w.attacker)], np.int64))
        RT.append(np.full(n, aid[id(t)], np.int64))
        if box is not None:
            boxed.append((pos, n, box))
        slices.append(slice(pos, pos + n))
        pos += n
    O = np.concatenate(O) if O else np.zeros((0, 3))
    P = np.concatenate(P) if P else np.zeros((0, 3))
    D = P - O
    L = np.linalg.norm(D, axis=1)
    Dn = D / np.where(L > 0, L, 1.0)[:, None]
    ST = np.zeros(len(O))
    if boxed:  # rays from the eyes start where they leave the viewer's head, all at once [000 §5.1]
        rows = np.concatenate([np.arange(a, a + n) for a, n, _ in boxed])
        lo = np.repeat(np.array([b[0] for _, _, b in boxed], float), [n for _, n, _ in boxed], axis=0)
        hi = np.repeat(np.array([b[1] for _, _, b in boxed], float), [n for _, n, _ in boxed], axis=0)
        dd = P[rows] - O[rows]
        ln = np.linalg.norm(dd, axis=1).clip(1e-9)
        ST[rows] = np.minimum(_box_exit(O[rows], dd / ln[:, None], lo, hi), np.maximum(ln - 0.5, 0))
    t_setup = time.perf_counter()
    stop = np.zeros(len(actors), bool)
    # a ray ends where it meets its target: for a creation that part is seen; a minifig is in view there, in the
    # section the ray was aimed at (half the rays are no longer marched on through him to the sample point)
    for t in targets:
        stop[aid[id(t)]] = True
    if len(O):
        bface, _, tface, passes = march(eng, O, Dn, L, np.concatenate(RV), np.concatenate(RT), face_owner, ST,
                                        stop)
    else:
        bface, tface, passes = np.zeros(0, np.int64), np.zeros(0, np.int64), 0
    t_cast = time.perf_counter()
    blocked = bface >= 0
    seen_el = np.where(tface >= 0, fe[np.clip(tface, 0, None)], -1)

    def options_of(ks: list[int]) -> list[AttackOption]:
        return [_option(battlefield, rules, lpi, plans[k], samp[id(plans[k][1])], slices[k], blocked[slices[k]],
                        L[slices[k]], skill_dice, seen_el[slices[k]]) for k in ks]

    # every option is worked out on its own: every other one by a forked child on the other core (the ray pool's
    # threads are idle by now and the child never uses them)
    everyone = list(range(len(plans)))
    job = Forked(options_of, everyone[1::2], idle_pools=RAY_POOLS) if len(plans) >= FORK_MIN_OPTIONS else None
    if job is None:
        options = options_of(everyone)
    else:
        options = [None] * len(plans)  # type: ignore[list-item]
        options[0::2] = options_of(everyone[0::2])
        options[1::2] = job.result()
    t_end = time.perf_counter()
    timings = {"setup_s": t_setup - t0, "cast_s": t_cast - t_setup, "options_s": t_end - t_cast,
               "total_s": t_end - t0, "rays": int(len(O)), "passes": passes}
    return AttackResult(options, weapons, warnings, O, P, blocked, eng.name, timings)


def _option(battlefield, rules: SightRules, lpi: float, plan, samples, sl: slice, blocked, L, skill_dice,
            seen_el=None) -> AttackOption:
    w, t, in_arc, off, origin, aim_dir, _ = plan
    pts, sec, elem = samples
    if seen_el is not None and not t.is_minifig:
        elem = np.where(seen_el >= 0, seen_el, elem)  # the part the ray actually met
    vis = ~blocked
    any_vis = bool(vis.any())
    notes: list[str] = []
    skill = int((skill_dice or {}).get(w.attacker.name.lower(), (skill_dice or {}).get(w.attacker.name, w.skill_die)))
    # distance: from the barrel end (ranged) or the hand swinging the weapon (Close Combat) [000 §8.2] [000 §5.2]
    if w.melee:
        pivot, wpts, reach_ldu = _striking_surface(battlefield, w)
        tp = pts[vis] if any_vis else pts
        tel = elem[vis] if any_vis else elem
        if pivot is not None and len(wpts):
            dmin = float(np.linalg.norm(tp - pivot, axis=1).min())
            dist_ldu = dmin
            if dmin - SAMPLE_SLACK_IN * lpi <= reach_ldu + 2 * lpi:  # near enough for the exact answer to count
                dist_ldu = min(dmin, surface_distance(battlefield, pivot, tel[tel >= 0], upper=dmin))
        else:  # a creation's fixed striking surface must touch the target
            step = max(1, len(wpts) // 400)
            reach_ldu = 0.0
            dist_ldu = float(np.min(np.linalg.norm(wpts[::step, None, :] - tp[None, ::2, :], axis=2))) \
                if len(wpts) else float("inf")
        lunge = rules.melee.angry_inch_in if (w.attacker.is_minifig or rules.melee.creations_angry_inch) else 0.0
        range_in = reach_ldu / lpi + lunge
        distance_in = dist_ldu / lpi
        height = 0.0
    else:
        d = L[vis] if any_vis else L
        tel = elem[vis] if any_vis else elem
        dmin = float(d.min()) if len(d) else np.inf
        altitude = (float(t.position_ldu[1]) - w.mount_y) / lpi  # -Y is up: attacker higher -> positive
        height = rules.height_advantage_in(altitude)  # +1" per 1", at most +5" [000 §5.1 Other Modifiers]
        range_in = None if w.range_in is None else float(w.range_in) + height
        distance_in = float(dmin / lpi) if len(d) else 0.0
        if range_in is not None and len(d):
            # the nearest sample is at most a sliver farther than the target's surface: measure exactly only
            # when that could change the inches Out of Range
            lo_out = max(0.0, distance_in - SAMPLE_SLACK_IN - range_in)
            if rules.range_penalty(lo_out) != rules.range_penalty(max(0.0, distance_in - range_in)):
                near = surface_distance(battlefield, np.asarray(origin, float), tel[tel >= 0], upper=dmin)
                distance_in = float(min(dmin, near) / lpi)
    out_in = max(0.0, distance_in - range_in) if range_in is not None else 0.0
    penalty = 0 if w.melee else rules.range_penalty(out_in)
    mods: list[Modifier] = []
    seen: list[str] = []
    if t.is_minifig:
        in_view = np.bincount(sec[vis].astype(np.intp), minlength=len(SECTIONS))
        seen = [s for k, s in enumerate(SECTIONS) if in_view[k]]
        if seen:
            mods.append(Modifier("target size", rules.minifig_modifier(len(seen)), "[000 §5.1 Target Size]",
                                 f"{len(seen)} of 3 minifig sections visible ({'+'.join(seen)})"))
    elif any_vis:
        keep = vis.copy()
        if range_in is not None and not w.melee:  # only the part in range counts, when some is
            inr = L <= (range_in * lpi)
            if (vis & inr).any():
                keep &= inr
        ts = creation_target_size(battlefield, rules, pts[keep], elem[keep], t.position_ldu - origin)
        mods.append(Modifier("target size", ts.modifier, "[000 §5.1 Target Size]", ts.reason))
    visible = bool(seen) if t.is_minifig else any_vis
    if not visible:
        mods.append(Modifier("firing blind", rules.blind.modifier, "[000 §5.1 Other Modifiers]",
                             "no part of the target in sight from " + ("the eyes" if w.melee else "the barrel end")))
    skill_mod = sum(m.value for m in mods)
    if penalty:
        mods.append(Modifier("out of range", -penalty, "[000 §5.1 Other Modifiers]",
                             f'{out_in:.2f}" past {range_in:.2f}": -{penalty} on every Skill and Damage die'))
    possible = in_arc and w.use is not None and (not w.melee or out_in <= 1e-9)
    if not in_arc:
        notes.append(f"out of arc: {off:.0f}° off the barrel's reach ({w.mount.kind}; fudge "
                     f"{rules.firing_arc.fudge_deg:.0f}° [000 §8.2])")
    if w.melee and out_in > 1e-9:
        notes.append(f'out of reach: {distance_in:.2f}" > {range_in:.2f}" (reach + Angry Inch [000 §5.2])')
    if w.use is None:
        notes.append("no Use on the stat card")
    notes.extend(w.warnings)
    need = needed_roll(w.use, skill_mod, penalty, rules) if w.use is not None else None
    need_in = needed_roll(w.use, skill_mod, 0, rules) if w.use is not None else None
    ph = p_hit(w.use, skill_mod, penalty, skill, rules) if possible else 0.0
    armor = _armor_of(battlefield, t)
    dmg = parse_damage(w.damage, skill, w.size, rules)
    if dmg is None or armor is None:
        pk = None
        if dmg is None:
            notes.append(f"damage {w.damage!r} not in dice: p_kill unknown")
    else:
        extra = 0
        if "dist" in (w.damage or "").lower():  # BlastGun: -1 per full inch from the barrel [000 §8.3]
            extra = -int(math.floor(distance_in))
        pk = ph * p_beats_armor(dmg, armor, penalty, rules, extra) if possible else 0.0
    return AttackOption(w.attacker.name, w.name, w.type, t.name, t.kind, "melee" if w.melee else w.mount.kind,
                        bool(in_arc), float(off), visible, seen,
                        float(vis.sum() / len(vis)) if len(vis) else 0.0, distance_in,
                        None if range_in is None else float(range_in), float(height), float(out_in), int(penalty),
                        mods, w.use, skill, need if possible else None, need_in if possible else None, float(ph),
                        None if pk is None else float(pk), w.damage, armor or "", bool(possible), w.melee,
                        np.asarray(origin, float), np.asarray(aim_dir, float), notes, sl)


def _striking_surface(battlefield, w: Weapon) -> tuple[np.ndarray | None, np.ndarray, float]:
    """(the hand swinging a minifig's Close Combat weapon or None, the weapon's vertices, its reach from that hand
    in LDU): the same for every target, so worked out once per weapon [000 §5.2]."""
    cached = getattr(w, "_striking", None)
    if cached is None:
        pivot = weapon_anchor(battlefield.elements, w.attacker, w.elements) if w.attacker.is_minifig else None
        wpts = battlefield.mesh.triangles[battlefield.mesh.face_runs(w.elements)].reshape(-1, 3).astype(float)
        reach = float(np.linalg.norm(wpts - pivot, axis=1).max()) if pivot is not None and len(wpts) else 0.0
        cached = w._striking = (pivot, wpts, reach)  # type: ignore[attr-defined]
    return cached


def surface_distance(battlefield, point: np.ndarray, element_ids, nearest: int = 4,
                     upper: float = float("inf")) -> float:
    """Exact distance (LDU) from a point to the surface of some elements: the few nearest by bounding box,
    then point-to-triangle (Range is measured to the target itself, not to sample points) [000 §5.1]."""
    ids = np.unique(np.asarray(list(element_ids), dtype=np.int64))
    if not len(ids):
        return float("inf")
    box_lo, box_hi = bbox_arrays(battlefield)
    lo, hi = box_lo[ids], box_hi[ids]
    gap = np.linalg.norm(np.maximum(0.0, np.maximum(lo - point, point - hi)), axis=1)
    order = np.argsort(gap)
    best = float(upper)  # a sample point already this close: only nearer elements can do better
    from .explosion import point_triangle_distance

    p = np.asarray(point, dtype=np.float64)
    for k in order[:nearest]:
        if gap[k] >= best:
            break
        tris, t_lo, t_hi = _triangle_boxes(battlefield, int(ids[k]))
        if not len(tris):
            best = min(best, float(gap[k]))
            continue
        # a triangle's box is never farther than the triangle: only those nearer than the best so far can
        # lower it, and the nearest triangle is always among them (the same minimum, a fraction of the work)
        box = np.linalg.norm(np.maximum(0.0, np.maximum(t_lo - p, p - t_hi)), axis=1)
        near = box <= best + 1e-9 * (1.0 + best)  # a hair of slack: rounding never drops the nearest
        if near.any():
            best = min(best, float(point_triangle_distance(p, tris[near]).min()))
    return best


def _triangle_boxes(battlefield, i: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(triangles, their box minima, maxima) of element ``i``, kept per battlefield: thirty attackers measure
    to the same few target elements again and again."""
    cache = getattr(battlefield, "cache", None)
    key = ("triangle boxes", i)
    if cache is not None and key in cache:
        return cache[key]
    tris = battlefield.mesh.element_triangles(i)
    out = (tris, tris.min(axis=1), tris.max(axis=1))
    if cache is not None:
        cache[key] = out
    return out


def _armor_of(battlefield, t: Unit) -> str | None:
    """The target's Armor: its stat card's (a minifig's fixed 4 [000 §9.5]); a scene placement: its largest
    creation's."""
    cache = getattr(battlefield, "cache", None)
    key = ("armor", t.name, len(t.elements))
    if cache is not None and key in cache:
        return cache[key]
    best = None
    tset = set(t.elements)
    for pl, an in zip(battlefield.placements, battlefield.analyses):
        base = pl.first_element
        for c, card in zip(an.creations, an.cards):
            k = sum(1 for i in c.elements if base + i in tset)
            if k and (best is None or k > best[0]):
                best = (k, card.armor)
    out = None if best is None else str(best[1])
    if cache is not None:
        cache[key] = out
    return out


# ------------------------------------------------------------------------------------------ output

def attacks_json(battlefield, result: AttackResult) -> dict:
    """The ``attacks --json`` contract: ``{"attacks": [{attacker, weapon, target, in_arc, visible, distance_in,
    range_in, out_of_range_in, modifiers, use, needed_roll, p_hit, p_kill}, ...]}`` plus weapons and warnings."""
    return {"battlefield": str(battlefield.path),
            "attacks": [o.to_json() for o in result.options],
            "weapons": [{"attacker": w.attacker.name, "weapon": w.name, "part": w.part, "type": w.type,
                         "use": w.use, "range_in": w.range_in, "damage": w.damage, "mount": w.mount.kind,
                         "mount_reason": w.mount.reason, "joints": [j.to_json() for j in w.mount.joints],
                         "barrel_end_ldu": _r(w.tip), "axis": _r(w.axis, 4), "skill_die": f"d{w.skill_die}",
                         "crewed": w.crewed, "elements": w.elements} for w in result.weapons],
            "warnings": result.warnings, "engine": result.engine,
            "timings": {k: (round(v, 4) if isinstance(v, float) else v) for k, v in result.timings.items()}}


def percent(p: float) -> str:
    """A chance as a player reads it: "17 %", "<1 %" for a sliver, "0 %" for none."""
    if p <= 0:
        return "0 %"
    if p < 0.005:
        return "<1 %"
    return f"{p * 100:.0f} %"


def describe(o: AttackOption) -> str:
    """One line a player reads at the table: 'bowman → knight: bow, 8.96" of 6", 2.96" out of range, needs a
    natural 6, 17 %'."""
    head = f"{o.attacker} → {o.target}: {o.weapon}"
    if not o.in_arc:
        return f"{head}, out of arc ({o.aim_off_deg:.0f}° off), cannot fire"
    if o.melee:
        if not o.possible:
            return f'{head}, {o.distance_in:.2f}" away, out of reach ({o.range_in:.2f}")'
        reach = f'{o.distance_in:.2f}" of {o.range_in:.2f}" reach'
    else:
        reach = f'{o.distance_in:.2f}" of {o.range_in:g}"' if o.range_in is not None else f'{o.distance_in:.2f}"'
        if o.out_of_range_in > 0:
            reach += f', {o.out_of_range_in:.2f}" out of range'
    if not o.visible:
        reach += ", firing blind"
    if o.needed_roll is None:
        return f"{head}, {reach}, no attack roll"
    return f"{head}, {reach}, needs a natural {o.needed_roll}, {percent(o.p_hit)}"
