"""What damage needs to know about a model: the connection graph and the creations ("bodies") in it.

Damage only needs the graph, each creation's elements, Structural elements, Structure Level and Size, and the
mesh. These come from ``brikscan.analysis`` when it is installed; otherwise a small local stand-in is used
(elements whose boxes interpenetrate are connected, each connected cluster is one all-Structural creation),
so the damage code never depends on how creations were found.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..errors import UsageError
from ..geometry.model import Model
from ..rules.formulas import check_sl, lower_sl, round_size
from ..rules.tables import Rules, load_rules

LDU_PER_RULES_INCH = 60.0  # the rules' "3 studs per inch" measuring stick [000 §1.2 Taking Measurements]


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
    source: str = "local graph"  # where the graph and the creations came from
    _boxes: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False)
    _rays: object = field(default=None, repr=False)
    _nbrs: dict[int, set[int]] | None = field(default=None, repr=False)

    def ray_engine(self):
        """A ray engine (Embree, else open3d) over the whole model's triangles, built on first use and kept:
        like the graph, it is part of the warm scene (cover checks cast rays into it for every blast)."""
        if self._rays is None:
            from .raycast import RayEngine

            self._rays = RayEngine.build(self.model.mesh.triangles)
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
        """(E,3) world box corners of every element, built once."""
        if self._boxes is None:
            lo = np.array([e.bbox_min for e in self.model.elements], dtype=np.float64).reshape(-1, 3)
            hi = np.array([e.bbox_max for e in self.model.elements], dtype=np.float64).reshape(-1, 3)
            self._boxes = (lo, hi)
        return self._boxes


def _aabb_edges(model: Model, tol: float = 0.5) -> np.ndarray:
    """Elements connect when their boxes interpenetrate (studs sit inside the brick above), not when they only touch."""
    n = len(model.elements)
    if n < 2:
        return np.zeros((0, 2), dtype=np.int64)
    lo = np.array([e.bbox_min for e in model.elements], dtype=np.float64)
    hi = np.array([e.bbox_max for e in model.elements], dtype=np.float64)
    order = np.argsort(lo[:, 0])
    lo_s, hi_s = lo[order], hi[order]
    pairs = []
    # sweep along x: candidates are the elements whose x-start lies before this one's x-end
    ends = np.searchsorted(lo_s[:, 0], hi_s[:, 0] - tol, side="left")
    for a in range(n):
        b = np.arange(a + 1, max(a + 1, ends[a]))
        if not len(b):
            continue
        ov = np.minimum(hi_s[a], hi_s[b]) - np.maximum(lo_s[a], lo_s[b])
        ok = (ov > tol).all(axis=1)
        for j in b[ok]:
            pairs.append((order[a], order[j]))
    return np.array(pairs, dtype=np.int64).reshape(-1, 2)


def _aabb_size_in(model: Model, idx: list[int], ldu_per_inch: float) -> float:
    if not idx:
        return 0.0
    lo = np.min([model.elements[i].bbox_min for i in idx], axis=0)
    hi = np.max([model.elements[i].bbox_max for i in idx], axis=0)
    return float((hi - lo).max()) / ldu_per_inch


def _components(n: int, edges: np.ndarray, alive: np.ndarray | None = None) -> np.ndarray:
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    e = edges
    if alive is not None and len(e):
        e = e[alive[e[:, 0]] & alive[e[:, 1]]]
    m = coo_matrix((np.ones(len(e), dtype=np.int8), (e[:, 0], e[:, 1])), shape=(n, n))
    return connected_components(m, directed=False)[1]


def _analysis_graph(model: Model):
    """(edges, graph) from brikscan.analysis's connection graph, or None when it is not importable."""
    try:
        from ..analysis.connectivity import build_graph
    except Exception:
        return None
    graph = build_graph(model)
    return np.array([(int(a), int(b)) for a, b in graph.edges()], dtype=np.int64).reshape(-1, 2), graph


def _analysis_bodies(model: Model, graph, rules: Rules, measure,
                     ldu_per_inch: float = LDU_PER_RULES_INCH) -> list[Body] | None:
    """Creations from brikscan.analysis, or None when it is not there (yet)."""
    try:
        from ..analysis.creations import find_creations
    except Exception:
        return None
    bodies = []
    for c in find_creations(model, graph):
        kind = str(getattr(c, "kind", "structure"))
        sl = getattr(c, "structure_level", 1)
        size = getattr(c, "size", None)
        if "minifig" in kind.lower():
            size = int(rules.minifig.size_in)  # a standard minifig is Size 1" [000 §5.1 Target Size]
        elif hasattr(size, "size_in"):  # a SizeMeasure
            size = round_size(float(size.size_in), rules.size.default_mode, rules)
        elif size is None:  # not measured by the analysis: measure the Structure here
            st = list(getattr(c, "structural_elements", None) or c.elements)
            size = round_size(measure(st), rules.size.default_mode, rules)
        if sl is None and "minifig" in kind.lower():
            sl = rules.minifig.sl  # [000 §9.5 The Minifig] SL 1/2, Armor a fixed 4
        fixed = rules.minifig.armor_fixed if "minifig" in kind.lower() else None
        weapons, flying = _analysis_weapons(model, c, graph, rules, measure, ldu_per_inch)
        bodies.append(Body(str(c.name), kind, sorted(int(i) for i in c.elements),
                           frozenset(int(i) for i in (getattr(c, "structural_elements", None) or c.elements)),
                           float(sl if sl is not None else 1), int(round(float(size))), armor_fixed=fixed,
                           weapons=weapons, flying=flying))
    return bodies


def _analysis_weapons(model: Model, creation, graph, rules: Rules, measure,
                      ldu_per_inch: float) -> tuple[list[Weapon], bool]:
    """Weapons (with their Weapon Size) and whether the creation flies, from the analysis' stat card.

    Only creations with weapon-role elements get a card (costing every creation would slow big models down);
    the card is computed on a copy so the creation's own fields stay as the analysis left them.
    """
    roles = getattr(creation, "roles", None) or {}
    if not any(getattr(r, "role", "") == "weapon" for r in roles.values()):
        return [], False
    import copy

    try:
        from ..analysis.stats import stat_card

        card = stat_card(model, copy.copy(creation), rules, ldu_per_inch, graph=graph)
        return [Weapon(str(w.name), str(w.type), tuple(int(i) for i in w.elements), float(w.size))
                for w in card.weapons], bool(card.flying)
    except Exception:  # the analysis is being worked on: fall back to one weapon per weapon element
        idx = [int(i) for i, r in roles.items() if getattr(r, "role", "") == "weapon"]
        out = []
        for i in sorted(idx):
            p = getattr(roles[i], "params", {}) or {}
            size = float(p["size"]) if p.get("size") else max(1.0, float(np.floor(measure([i]) + 0.5)))
            out.append(Weapon(p.get("name") or model.elements[i].description, p.get("type") or "gun", (i,), size))
        return out, any((getattr(r, "params", {}) or {}).get("type") == "flying" for r in roles.values()
                        if getattr(r, "role", "") == "propulsion")


def _measure_fn(model: Model, ldu_per_inch: float) -> Callable[[list[int]], float]:
    try:
        from ..analysis.measure import measure_size

        cache: dict = {}

        def measure(idx: list[int]) -> float:
            return float(measure_size(model, list(idx), ldu_per_inch, cache).size_in) if idx else 0.0
        return measure
    except Exception:
        return lambda idx: _aabb_size_in(model, list(idx), ldu_per_inch)


def build_scene(model: Model, rules: Rules | str = "2010", *, ldu_per_inch: float = LDU_PER_RULES_INCH,
                sl: float | None = None, size_damage: int | dict[str, int] = 0,
                armor_fixed: int | None = None, use_analysis: bool = True) -> DamageScene:
    """Graph + creations for damage. ``sl``/``size_damage``/``armor_fixed`` override every creation."""
    rules = load_rules(rules) if isinstance(rules, str) else rules
    if ldu_per_inch <= 0:
        raise UsageError("inch length must be above 0 LDU")
    if sl is not None:
        sl = check_sl(sl)
    n = len(model.elements)
    raw_measure = _measure_fn(model, ldu_per_inch)
    memo: dict[tuple[int, ...], float] = {}

    def measure(idx) -> float:  # sections repeat across trials and previews: measure each set once
        key = tuple(sorted(int(i) for i in idx))
        if key not in memo:
            memo[key] = raw_measure(list(key))
        return memo[key]
    got = _analysis_graph(model) if use_analysis else None
    source = "analysis graph" if got is not None else "local graph"
    edges, graph = got if got is not None else (_aabb_edges(model), None)
    bodies = _analysis_bodies(model, graph, rules, measure, ldu_per_inch) if graph is not None else None
    if bodies is None:  # one all-Structural creation per connected cluster
        labels = _components(n, edges)
        bodies = []
        for k, lab in enumerate(dict.fromkeys(labels.tolist())):
            idx = np.flatnonzero(labels == lab).tolist()
            size = round_size(measure(idx), rules.size.default_mode, rules)
            bodies.append(Body(f"creation {k + 1}", "structure", idx, frozenset(idx), 1.0, size))
    else:
        source += ", analysis creations"
    owner = np.full(n, -1, dtype=np.int64)
    for b, body in enumerate(bodies):
        owner[body.elements] = b
    orphans = np.flatnonzero(owner < 0).tolist()
    if orphans:  # unaligned scenery defaults to SL 1 [000 §11.1 Unit Inches]
        size = round_size(measure(orphans), rules.size.default_mode, rules)
        bodies.append(Body("scenery", "scenery", orphans, frozenset(orphans), 1.0, size))
        owner[orphans] = len(bodies) - 1
    for body in bodies:
        if sl is not None:
            body.sl = sl
        if armor_fixed is not None:
            body.armor_fixed = armor_fixed
        if isinstance(size_damage, dict):
            body.size_damage = int(size_damage.get(body.name, 0))
        else:
            body.size_damage = int(size_damage)
        if body.size_damage < 0:
            raise UsageError("Size Damage must be 0 or more")
    return DamageScene(model, rules, bodies, owner, edges, ldu_per_inch, measure, source)
