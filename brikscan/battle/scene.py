"""What damage needs to know about a model, read from its one ``Analysis``.

Every creation becomes a ``Body`` with the stat card's Size, Structure Level, Armor, weapons and flying state, and
the connections are the analysis graph's, so a blast, a hit and ``stats`` always agree on the same creation.
"""
from __future__ import annotations

import re

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

import numpy as np

from ..errors import UsageError
from ..rules.formulas import lower_sl
from ..rules.tables import Rules

if TYPE_CHECKING:
    from ..geometry.model import Model


@dataclass(frozen=True)
class Weapon:
    """A weapon mounted on a creation: its elements and Weapon Size (inches, XSize for explosives)."""

    name: str
    type: str
    elements: tuple[int, ...]
    size: float


@dataclass
class Body:
    """One creation as damage sees it."""

    name: str
    kind: str
    elements: list[int]
    structural: frozenset[int]
    sl: float
    size: int
    size_damage: int = 0
    armor_fixed: int | None = None  # minifigs: a fixed 4 instead of 1d6 [000 §9.5 The Minifig]
    weapons: list["Weapon"] = field(default_factory=list)  # from the analysis' stat card
    flying: bool = False  # flying in air: Power is 1 × ES instead of 2 × ES [000 §8.1 Power Limits]

    def element_sl(self, i: int, rules: Rules) -> float:
        """Structure is at the creation's SL; everything else one lower [000 §7.1 Structure]."""
        if not self.structural or i in self.structural:
            return self.sl
        return lower_sl(self.sl, rules)


@dataclass
class DamageScene:
    model: Model
    rules: Rules
    bodies: list[Body]
    owner: np.ndarray  # (E,) body index of each element
    edges: np.ndarray  # (M,2) int: connections between element indices
    ldu_per_inch: float
    measure: Callable[[list[int]], float] = field(repr=False, default=None)  # element indices -> Size in inches
    source: str = "analysis"  # where the graph and the creations came from
    analysis: object = field(default=None, repr=False)  # the Analysis it was built from
    _rays: object = field(default=None, repr=False)
    _nbrs: dict[int, set[int]] | None = field(default=None, repr=False)

    def ray_engine(self):
        """A ray engine over the whole model (one Embree tree per distinct part, instanced per element; else a
        flat tree), built on first use and kept: like the graph, it is part of the warm scene (cover checks cast
        rays into it for every blast)."""
        if self._rays is None:
            from .raycast import RayEngine

            els = self.model.elements
            self._rays = RayEngine.for_model(self.model.mesh, np.array([e.transform for e in els]).reshape(-1, 4, 4),
                                             [e.part for e in els])
        return self._rays

    def neighbours(self) -> dict[int, set[int]]:
        """Element -> the elements it is connected to (from ``edges``), built once."""
        if self._nbrs is None:
            nbrs: dict[int, set[int]] = {}
            for a, b in self.edges.tolist():
                nbrs.setdefault(a, set()).add(b)
                nbrs.setdefault(b, set()).add(a)
            self._nbrs = nbrs
        return self._nbrs

    @property
    def n_elements(self) -> int:
        return len(self.model.elements)

    def boxes(self) -> tuple[np.ndarray, np.ndarray]:
        """(E,3) world box corners of every element: the model's own table (``Model.element_boxes``)."""
        return self.model.element_boxes()


def _components(n: int, edges: np.ndarray, alive: np.ndarray | None = None) -> np.ndarray:
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    e = edges
    if alive is not None and len(e):
        e = e[alive[e[:, 0]] & alive[e[:, 1]]]
    m = coo_matrix((np.ones(len(e), dtype=np.int8), (e[:, 0], e[:, 1])), shape=(n, n))
    return connected_components(m, directed=False)[1]


def _body(card, rules: Rules) -> Body:
    c = card.creation
    fixed = int(rules.minifig.armor_fixed) if c.kind == "minifig" else None  # [000 §9.5 The Minifig]
    lead = re.match(r"\d+", str(card.armor or ""))
    if fixed is not None and lead:  # the card's fixed Armor: Body Armor +2 [000 §3.3 Bodily Protection]
        fixed = int(lead.group())
    weapons = [Weapon(str(w.name), str(w.type), tuple(int(i) for i in w.elements), float(w.size))
               for w in card.weapons]
    return Body(str(c.name), c.kind, sorted(int(i) for i in c.elements),
                frozenset(int(i) for i in (c.structural_elements or c.elements)), float(card.structure_level),
                int(card.size), armor_fixed=fixed, weapons=weapons, flying=bool(card.flying))


def build_scene(analysis, *, size_damage: int | dict[str, int] = 0,
                armor_fixed: int | None = None) -> DamageScene:
    """The damage view of an analysis: one Body per creation (its stat card), the analysis graph's edges.

    ``size_damage``: Size Damage every creation (or, as a dict, each named creation) already has.
    """
    model = analysis.model
    rules = analysis.rules_table
    n = len(model.elements)
    bodies = [_body(card, rules) for card in analysis.cards]
    owner = np.full(n, -1, dtype=np.int64)
    for b, body in enumerate(bodies):
        owner[body.elements] = b
    orphans = np.flatnonzero(owner < 0).tolist()
    if orphans:  # missing parts: in no creation; unaligned scenery defaults to SL 1 [000 §11.1 Unit Inches]
        bodies.append(Body("missing parts", "scenery", orphans, frozenset(orphans), 1.0, 0))
        owner[orphans] = len(bodies) - 1
    for body in bodies:
        if armor_fixed is not None:
            body.armor_fixed = armor_fixed
        body.size_damage = int(size_damage.get(body.name, 0)) if isinstance(size_damage, dict) else int(size_damage)
        if body.size_damage < 0:
            raise UsageError("Size Damage must be 0 or more")
    memo: dict[tuple[int, ...], float] = {}

    def measure(idx) -> float:  # sections repeat across trials and previews: measure each set once
        key = tuple(sorted(int(i) for i in idx))
        if key not in memo:
            memo[key] = analysis.measure(key)
        return memo[key]
    return DamageScene(model, rules, bodies, owner, analysis.edges(), analysis.ldu_per_inch, measure,
                       "analysis" + (" (cached)" if analysis.cached else ""), analysis=analysis)
