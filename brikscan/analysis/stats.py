"""Stat cards: Size, Structure Level, Armor, Base Cost, weapons, propulsion, Power and total cost per Creation.

All rule numbers come from ``brikscan.rules`` (``load_rules`` + ``formulas``); this module measures the model,
decides which elements count for what, and hands the numbers to the formulas.
"""
from __future__ import annotations

import math
import re
import time
from collections import Counter
from dataclasses import dataclass, field

import networkx as nx

from ..errors import BrikscanError, Diagnostic, UsageError
from ..geometry.units import SCALES, ldu_per_inch as _ldu_per_inch
from ..rules import formulas as F
from ..rules.tables import load_rules
from .annotations import parse_annotations
from .connectivity import build_graph
from .creations import Creation, find_creations
from .measure import measure_size

ROUND_MODES = ("nearest", "up", "down")


def scale_ldu_per_inch(scale: str, rules) -> float:
    """LDU per inch of a scale under ``rules`` (see ``geometry.units``)."""
    return _ldu_per_inch(scale, rules.size.studs_per_inch)


@dataclass
class AnalysisCache:
    """Per-part results that depend only on a loaded model's geometry, passed explicitly between analyses.

    ``hulls``: part name -> indices of its convex-hull vertices (``measure.measure_size``). Reuse one cache for
    several analyses of the same loaded model (other scales, rules, overrides); never share it between models.
    """

    hulls: dict = field(default_factory=dict)
    interiors: dict = field(default_factory=dict)  # interior.enclosure results and sampled parts


@dataclass
class WeaponCard:
    name: str
    type: str
    elements: list[int]
    size: float  # Weapon Size used for the stats (XSize for explosives and rockets)
    size_in: float  # measured longest extent, inches
    cost: float | None
    use: float | None
    range_in: float | None
    damage: str
    reason: str
    notes: str = ""

    def to_json(self) -> dict:
        return {"name": self.name, "type": self.type, "elements": self.elements, "size": self.size,
                "size_in": round(self.size_in, 3), "cost": self.cost, "use": self.use, "range_in": self.range_in,
                "damage": self.damage, "reason": self.reason, "notes": self.notes}


@dataclass
class PropulsionCard:
    type: str  # ground, water, flight, forward_flight, thrust
    elements: list[int]
    move_in: float | None
    cost: float | None
    reason: str
    rule_kind: str = ""
    warnings: list[str] = field(default_factory=list)
    thrust_in: float | None = None  # Thrusters: inches of Thrust [000 §9.3]
    power_in: float = 0.0  # Power a Thruster uses

    def to_json(self) -> dict:
        d = {"type": self.type, "elements": self.elements, "move_in": self.move_in, "cost": self.cost,
             "rule_kind": self.rule_kind, "reason": self.reason, "warnings": self.warnings}
        if self.thrust_in is not None:
            d.update(thrust_in=self.thrust_in, power_in=self.power_in)
        return d


@dataclass
class StatCard:
    creation: Creation
    size_in: float
    size: int
    size_method: str
    structure_level: float
    sl_reason: str
    armor: str
    weak_point_sl: float | None
    weak_point_armor: str
    base_cost: float | None
    weapons: list[WeaponCard]
    propulsion: list[PropulsionCard]
    power: float | None
    flying: bool
    weapons_fit: bool | None
    mind_cost: float
    total_cost: float
    total_cost_rounded: int
    warnings: list[str] = field(default_factory=list)
    space: bool = False  # a spacecraft / on antigravity: full Power while flying [000 §8.1]
    space_reason: str = ""


@dataclass
class Analysis:
    """Everything brikscan decides about one model: the single source for stats, sight, blasts, hits and views.

    ``creations[k]`` has the stat card ``cards[k]``. Built by ``analyse`` (or read back from the disk cache);
    battle, render, web and CLI read it and never re-derive any of it.
    """

    model: object
    graph: nx.Graph
    creations: list[Creation]
    cards: list[StatCard]
    rules: str
    scale: str
    ldu_per_inch: float
    round_mode: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    key: str = ""
    cached: bool = False  # read back from the disk cache
    _hulls: dict = field(default_factory=dict, repr=False)

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_hulls"] = {}
        return state

    @property
    def rules_table(self):
        return load_rules(self.rules)

    def creation_index(self) -> "np.ndarray":
        """(E,) index into ``creations`` of every element (-1: in none, e.g. a missing part)."""
        import numpy as np

        owner = np.full(len(self.model.elements), -1, dtype=np.int64)
        for k, c in enumerate(self.creations):
            owner[c.elements] = k
        return owner

    def card_named(self, name: str) -> StatCard:
        for card in self.cards:
            if card.creation.name.lower() == name.lower():
                return card
        from ..errors import NotFoundError

        names = ", ".join(c.creation.name for c in self.cards[:12])
        raise NotFoundError(f"no creation named {name!r} (creations: {names})")

    def resolve_element(self, text: str | int, what: str = "--at-element") -> int:
        """An element from an index, a part id (``3700.dat``, when one element has it) or a creation or unit name
        (its element nearest the middle of its box); anything else is a NotFoundError listing what exists."""
        import numpy as np

        from ..errors import NotFoundError

        t = str(text).strip()
        n = len(self.model.elements)
        if t.lstrip("-").isdigit():
            i = int(t)
            if not 0 <= i < n:
                raise NotFoundError(f"{what} {i}: element index out of range (the model has {n}: 0-{n - 1})")
            return i
        low = t.lower()
        parts = [e.index for e in self.model.elements if e.part.lower() in (low, low + ".dat")]
        if len(parts) == 1:
            return parts[0]
        if len(parts) > 1:
            raise NotFoundError(f"{what} {t!r}: {len(parts)} elements are {parts[0] and self.model.elements[parts[0]].part}"
                                f" (e.g. {', '.join(map(str, parts[:8]))}): give an index")
        for c in self.creations:
            if c.name.lower() == low:
                lo = np.min([self.model.elements[i].bbox_min for i in c.elements], axis=0)
                hi = np.max([self.model.elements[i].bbox_max for i in c.elements], axis=0)
                mid = (lo + hi) / 2
                return min(c.elements, key=lambda i: float(np.linalg.norm(
                    (self.model.elements[i].bbox_min + self.model.elements[i].bbox_max) / 2 - mid)))
        names = ", ".join(c.name for c in self.creations[:12]) + (" …" if len(self.creations) > 12 else "")
        raise NotFoundError(f"{what} {t!r}: not an element index, a part id or a creation (creations: {names})")

    def measure(self, idx) -> float:
        """Size in inches of some elements, measured as the stat card measures (for re-split sections)."""
        idx = sorted(int(i) for i in idx)
        return float(measure_size(self.model, idx, self.ldu_per_inch, self._hulls).size_in) if idx else 0.0

    def edges(self) -> "np.ndarray":
        """(M, 2) connected element pairs of the graph."""
        import numpy as np

        return np.array([(int(a), int(b)) for a, b in self.graph.edges()], dtype=np.int64).reshape(-1, 2)


# ------------------------------------------------------------------ Structure Level suggestion

def _material(name: str, rules):
    """The ``rules.sl_suggestion`` material of a colour name: the first whose keyword it contains."""
    n = name.lower()
    materials = rules.sl_suggestion.materials
    return next((m for m in materials[:-1] if any(k in n for k in m.keywords)), materials[-1])


def suggest_sl(model, creation: Creation, rules=None) -> tuple[float, str]:
    """A Structure Level suggestion from the material the colours show (``rules.sl_suggestion``, digest §13.1;
    the players decide). ``rules``: a Rules object, the 2010 tables when None.

    Minifigs never get here: ``stat_card`` takes their SL from ``rules.minifig.sl``.
    """
    rules = rules if rules is not None else load_rules("2010")
    t = rules.sl_suggestion
    idx = creation.structural_elements or creation.elements
    classes = Counter(_material(model.colours.name(model.elements[i].colour), rules).name for i in idx)
    if not classes:
        return float(t.empty_sl), t.empty_reason.format(sl=F.sl_text(t.empty_sl))
    cls, n = classes.most_common(1)[0]
    share = n / sum(classes.values())
    mat = next(m for m in t.materials if m.name == cls)
    if creation.kind == "creature" and mat.creature_sl is not None:
        sl, why = float(mat.creature_sl), (mat.creature_reason or mat.reason).format(sl=F.sl_text(mat.creature_sl))
    else:
        sl, why = float(mat.sl), mat.reason.format(sl=F.sl_text(mat.sl))
    why = f"{why}: {share:.0%} of the structural elements"
    if mat.brick_bonus and creation.kind in t.brick_bonus_kinds:
        bricks = sum(1 for i in idx if model.elements[i].description.lower().lstrip("~").startswith("brick"))
        plates = sum(1 for i in idx if model.elements[i].description.lower().lstrip("~").startswith("plate"))
        if bricks > plates and bricks >= t.brick_bonus_min_bricks:
            sl += mat.brick_bonus
            why += f"; +{F.sl_text(mat.brick_bonus)}: built mostly from bricks rather than plates"
    sl = min(sl, float(t.max_sl))
    return sl, f"suggested from the colours, the players decide [000 §7.1]: {why} (digest §13.1)"


# ------------------------------------------------------------------ the card

def _weapon_groups(graph: nx.Graph, creation: Creation) -> list[list[int]]:
    w = creation.elements_with("weapon")
    by_group: dict[str, list[int]] = {}
    loose = []
    for i in w:
        g = creation.roles[i].group
        if g:
            by_group.setdefault(g, []).append(i)
        else:
            loose.append(i)
    comps = [sorted(c) for c in nx.connected_components(graph.subgraph(loose))]
    where = {i: k for k, c in enumerate(comps) for i in c}
    groups = []
    for g, members in by_group.items():
        if g.startswith("carriage:") and int(g.split(":")[1]) in where:  # wheels of a gun carriage
            comps[where[int(g.split(":")[1])]].extend(members)
        elif g.startswith("group:"):  # a LeoCAD/MLCad/LDCad group: one weapon per body it spans
            groups += [sorted(c) for c in nx.connected_components(graph.subgraph(members))]
        else:
            groups.append(members)
    groups += [sorted(c) for c in comps]
    groups.sort(key=lambda g: min(g))
    return groups


def _weapon_card(model, creation: Creation, idx: list[int], k: int, rules, ldu_per_inch: float, cache) -> WeaponCard:
    params: dict[str, str] = {}
    for i in idx:
        params.update({kk: v for kk, v in creation.roles[i].params.items() if v})
    types = Counter(creation.roles[i].params.get("type") for i in idx if creation.roles[i].params.get("type"))
    wtype = params.get("type") if params.get("type") and len(types) <= 1 else \
        (types.most_common(1)[0][0] if types else "")
    reason = creation.roles[idx[0]].reason
    notes = ""
    if not wtype:
        wtype = "gun"
        notes = "type not given: assumed a Gun (annotate type=…)"
    m = measure_size(model, idx, ldu_per_inch, cache)
    if "size" in params:
        size = float(params["size"])
        size_note = f"Weapon Size {size:g} annotated"
    elif wtype in ("explosive", "rocket"):
        size = float(params.get("xsize") or len(idx))
        size_note = f"XSize {size:g} = bricks in it [000 §8.1 Explosive Size]"
    else:
        size = F.round_weapon_size(m.size_in, rules)
        size_note = f"Weapon Size {size:g} from its longest dimension {m.size_in:.2f}\" [000 §8.1 Weapon Size]"
        longest = rules.minifig.hand_weapon_max_size
        if creation.kind == "minifig" and size > longest:
            size = float(longest)  # hand-held weapons are Short (1") or Long (2") [000 §8.1 Hand-Held Weapons]
            size_note += f"; a minifig's Long weapon is Size {longest:g} [000 §8.1 Hand-Held Weapons]"
    name = params.get("name") or (model.elements[idx[0]].description.strip("~ ") if len(idx) == 1 else
                                  f"{wtype} {k}")
    try:
        ws = F.weapon_stats(wtype, size, rules)
        cost, use, rng, dmg = ws.cost, ws.use, ws.range_in, ws.damage
        notes = "; ".join(x for x in (notes, ws.notes) if x)
    except BrikscanError as exc:
        cost, use, rng, dmg = None, None, None, ""
        notes = "; ".join(x for x in (notes, exc.message) if x)
    return WeaponCard(name, wtype, sorted(idx), size, m.size_in, cost, use, rng, dmg, f"{reason}; {size_note}",
                      notes)


def _minifig_walk(creation: Creation, rules) -> PropulsionCard:
    """A minifig walks ``rules.minifig.move_in`` on its legs, at the ground propulsion price [000 §9.5]."""
    move = float(rules.minifig.move_in)
    legs = creation.sections.get("legs", [])
    why = f"a minifig walks {move:g}\" [000 §9.5 The Minifig]"
    try:
        ps = F.propulsion_stats("ground", float(rules.minifig.size_in), float(rules.minifig.sl), rules, move,
                                legs_or_treads=True)
        return PropulsionCard("ground", legs, ps.move_in, ps.cost, why + " at the ground price [000 §9.1]",
                              "ground", list(ps.warnings))
    except BrikscanError as exc:
        return PropulsionCard("ground", legs, move, None, why, "ground", [exc.message])


MOVE_MODES = ("default", "formula")  # [000 §9.1] default speeds, or the [004 §9.1] Size/SL formula
PROPULSION_KINDS = ("ground", "water", "flight", "forward_flight", "thrust")  # [000 §9.1], [000 §9.3]
_KIND_ALIASES = {"flying": "flight", "hover": "flight", "antigravity": "flight", "forward_flying": "forward_flight",
                 "forward flight": "forward_flight", "wings": "forward_flight", "wing": "forward_flight",
                 "standard": "ground", "underwater": "water", "boat": "water", "thruster": "thrust",
                 "jet": "thrust", "rocket": "thrust", "propeller": "thrust", "sail": "thrust"}
_RULE_KIND = {"ground": "ground", "water": "water", "flight": "flying", "forward_flight": "forward_flying"}


def propulsion_kind(t: str | None) -> str:
    """The 2010 propulsion kind of an annotated or classified type ("flying" -> "flight", "wings" -> ...)."""
    t = (t or "ground").strip().lower()
    return _KIND_ALIASES.get(t, t)


def _thruster_cards(model, creation: Creation, idx: list[int], graph, rules, ldu_per_inch, hulls,
                    warnings) -> list[PropulsionCard]:
    """Thrusters (jets, rockets, propellers, sails): (Size × 2) CP for Size × 5" of Thrust, using Size Power
    [000 §9.3 Thrust Vectors]; each connected group of thrust elements is one Thruster measured like a weapon."""
    t = rules.thruster
    if t is None or t.unsupported:
        warnings.append(f"thrust: {t.unsupported if t else 'no Thruster rule in this edition'}")
        return [PropulsionCard("thrust", sorted(idx), None, None, "thrust elements (not costed)", "thrust")]
    g = graph if graph is not None else nx.Graph()
    cards = []
    for comp in sorted((sorted(c) for c in nx.connected_components(g.subgraph(idx))), key=min):
        params = creation.roles[comp[0]].params
        m = measure_size(model, comp, ldu_per_inch, hulls)
        size = float(params["size"]) if params.get("size") else F.round_weapon_size(m.size_in, rules)
        card = PropulsionCard("thrust", comp, None, t.cost_per_size * size,
                              f"{len(comp)} element(s): {creation.roles[comp[0]].reason}; a Size {size:g} Thruster "
                              f"({m.size_in:.2f}\") [000 §9.3 Thrust Vectors]", "thrust")
        card.thrust_in = t.thrust_per_size * size
        card.power_in = t.power_per_size * size
        cards.append(card)
    return cards


def _propulsion_cards(model, creation: Creation, size: int, sl: float, rules, warnings, *, move: str = "default",
                      graph=None, ldu_per_inch: float = 63.5, hulls=None) -> list[PropulsionCard]:
    """One card per propulsion kind; Move as annotated, else the [000 §9.1] default for the kind (or the
    [004 §9.1] formula with ``move="formula"``)."""
    by_type: dict[str, list[int]] = {}
    for i in creation.elements_with("propulsion"):
        by_type.setdefault(propulsion_kind(creation.roles[i].params.get("type")), []).append(i)
    cards = []
    for t, idx in sorted(by_type.items()):
        if t == "thrust":
            cards += _thruster_cards(model, creation, idx, graph, rules, ldu_per_inch, hulls, warnings)
            continue
        words = {creation.roles[i].reason.lower() for i in idx}
        names = " ".join(creation.roles[i].params.get("name", "") for i in idx).lower()
        treads = any("tread" in w or "a leg" in w or "'legs'" in w for w in words) or \
            bool(re.search(r"\b(legs?|treads?|tracks?)\b", names))
        rule_kind = _RULE_KIND.get(t, t)
        moves = [float(creation.roles[i].params["move"]) for i in idx if "move" in creation.roles[i].params]
        mv = max(moves) if moves else None
        reason = f"{len(idx)} element(s): {creation.roles[idx[0]].reason}"
        how = "" if moves else (" ; Move: the default formula by Size and SL [004 §9.1]" if move == "formula" else
                                f" ; Move: the {t.replace('_', ' ')} default [000 §9.1 Movement Speed Examples]")
        try:
            ps = F.propulsion_stats(rule_kind, max(size, 0), sl, rules, mv, winged=t == "forward_flight",
                                    legs_or_treads=treads, default="formula" if move == "formula" else "fixed")
            cards.append(PropulsionCard(t, sorted(idx), ps.move_in, ps.cost, reason + how, rule_kind,
                                        list(ps.warnings)))
        except BrikscanError as exc:
            cards.append(PropulsionCard(t, sorted(idx), mv, None, reason, rule_kind, [exc.message]))
            warnings.append(exc.message)
    return cards


_SPACE_WORDS = ("yes", "true", "1", "on")


def space_flag(creation: Creation, space: bool | None) -> tuple[bool, str]:
    """Whether a flyer is in space or on antigravity (full Power) rather than flying in air [000 §8.1]."""
    if space is not None:
        return space, "given with --space" if space else "given with --air"
    for key in ("space", "spacecraft", "antigravity"):
        v = creation.annotation.get(key)
        if v is not None:
            on = v.strip().lower() in _SPACE_WORDS
            return on, f"annotated {key}={v} ({creation.annotation_source})"
    return False, ""


def stat_card(model, creation: Creation, rules, ldu_per_inch: float, round_mode: str = "nearest",
              sl: float | None = None, graph: nx.Graph | None = None, cache: AnalysisCache | None = None,
              *, space: bool | None = None, move: str = "default") -> StatCard:
    """The costing of one Creation under ``rules`` (a Rules object); ``cache`` reuses per-part hulls."""
    if round_mode not in ROUND_MODES:  # checked here too: the 2001 fallback below must not swallow it
        raise UsageError(f"unknown rounding {round_mode!r} (choose nearest, up or down)")
    warnings: list[str] = []
    hulls = (cache if cache is not None else AnalysisCache()).hulls
    struct = creation.structural_elements or creation.elements
    m = measure_size(model, struct, ldu_per_inch, hulls)
    creation.size = m
    if creation.kind == "minifig":
        size_in, size = m.size_in, int(rules.minifig.size_in)  # [000 §9.5 The Minifig] Size 1
    else:
        vermin = creation.kind == "creature" and len(creation.elements) == 1
        try:
            size = F.round_size(m.size_in, round_mode, rules, vermin=vermin)
        except BrikscanError as exc:  # 2001: Platform Size classes, no rounding rule: round here and say so
            size = max(1, {"up": math.ceil, "down": math.floor}.get(round_mode, lambda x: math.floor(x + 0.5))(
                round(m.size_in, 9)))
            warnings.append(f"{exc.message}; brikscan rounds the longest dimension ({round_mode}, minimum 1)")
        size_in = m.size_in
    # Structure Level: --sl, then the CREATION annotation, then a suggestion [000 §7.1]
    if creation.kind == "minifig":
        level, why = float(rules.minifig.sl), f"a minifig is SL {F.sl_text(rules.minifig.sl)} [000 §9.5 The Minifig]"
    elif sl is not None:
        level, why = float(sl), "given with --sl"
    elif creation.annotation.get("sl"):
        level, why = float(creation.annotation["sl"]), f"annotated ({creation.annotation_source})"
    else:
        level, why = suggest_sl(model, creation, rules)
    level = F.check_sl(level)
    if creation.kind != "minifig":
        capped, warn = F.clamp_sl(level, size, rules)
        if warn:
            warnings.append(warn)
            why += f"; clamped to Size {size}"
        level = capped
    creation.structure_level = level
    creation.sl_reason = why
    if creation.kind == "minifig":
        armor = str(rules.minifig.armor_fixed)  # minifig Armor is a fixed 4 [000 §9.5]
    else:
        armor = F.armor_for_sl(level, rules)
    wp_sl = F.lower_sl(level, rules)
    wp_armor = F.armor_for_sl(wp_sl, rules)
    try:
        base = F.base_cost(size, level, rules)
    except BrikscanError as exc:
        base = None
        warnings.append(exc.message)
    if creation.kind == "scenery":  # listed with Size and SL so it can be destroyed, but free [000 §7.1]
        return StatCard(creation, size_in, size, m.method, level, why, armor, F.lower_sl(level, rules),
                        F.armor_for_sl(F.lower_sl(level, rules), rules), 0.0, [], [], None, False, None, 0.0, 0.0,
                        0, ["scenery: not priced (annotate CREATION kind=… to cost it)"])
    g = graph if graph is not None else nx.Graph()
    weapons = [_weapon_card(model, creation, idx, k, rules, ldu_per_inch, hulls)
               for k, idx in enumerate(_weapon_groups(g, creation), start=1)]
    if creation.kind == "minifig":
        props = [_minifig_walk(creation, rules)]
    else:
        props = _propulsion_cards(model, creation, size, level, rules, warnings, move=move, graph=g,
                                  ldu_per_inch=ldu_per_inch, hulls=hulls)
    mind = 0.0
    if creation.kind in ("minifig", "creature"):  # a Creature has a Mind, Trained (d6) by default [000 §10.1]
        try:
            mind = rules.minds.cost()
        except BrikscanError as exc:
            warnings.append(exc.message)
    in_space, space_why = space_flag(creation, space)
    # Power is halved only for Creations flying in the air, not in space or on antigravity [000 §8.1 Power Limits]
    flying = any(p.type in ("flight", "forward_flight") for p in props) and not in_space
    try:
        power = F.power_limit(size, flying, rules)
        fit = F.weapons_fit([w.size for w in weapons] + [p.power_in for p in props if p.power_in], size, flying,
                            rules)
        if not fit:
            warnings.append(f"weapons total {sum(w.size for w in weapons):g}\" exceed Power {power:g}\": "
                            "not all can fire in one turn [000 §8.1 Power Limits]")
    except BrikscanError as exc:
        power, fit = None, None
        warnings.append(exc.message)
    total = (base or 0.0) + sum(w.cost or 0.0 for w in weapons) + sum(p.cost or 0.0 for p in props) + mind
    for p in props:
        warnings.extend(p.warnings)
    return StatCard(creation, size_in, size, m.method, level, why, armor, wp_sl, wp_armor, base, weapons, props,
                    power, flying, fit, mind, total, int(math.ceil(total - 1e-9)), warnings, in_space, space_why)


def analyse(model, rules: str = "2010", scale: str = "inch", round_mode: str = "nearest", sl: float | None = None,
            overrides: list[str] | None = None, graph: nx.Graph | None = None,
            cache: AnalysisCache | None = None, *, space: bool | None = None, move: str = "default",
            store=None, progress=None) -> Analysis:
    """Graph, creations, roles and a stat card for every creation of a loaded model.

    The result is read from (and written to) the on-disk analysis cache (``store``: an ``AnalysisStore``;
    default the user's cache folder, off with ``BRIKSCAN_NO_ANALYSIS_CACHE=1``) unless ``graph`` or ``cache``
    are given. ``space``: every flyer is a spacecraft (True) or flies in air (False); None: per annotation.
    ``move``: "default" (the [000 §9.1] default speeds) or "formula" (the [004 §9.1] formula).
    """
    from .store import AnalysisOptions, AnalysisStore, cache_disabled, model_key

    if scale not in SCALES:
        raise UsageError(f"unknown scale {scale!r} (choose inch or stud)")
    if round_mode not in ROUND_MODES:
        raise UsageError(f"unknown rounding {round_mode!r} (choose nearest, up or down)")
    if move not in MOVE_MODES:
        raise UsageError(f"unknown Move rule {move!r} (choose {' or '.join(MOVE_MODES)})")
    if sl is not None:
        F.check_sl(sl)
    r = load_rules(str(rules))
    opts = AnalysisOptions(str(rules), scale, round_mode, sl, tuple(overrides or ()), space, move)
    use_store = graph is None and cache is None and not cache_disabled()
    key = ""
    if use_store:
        store = store if store is not None else AnalysisStore.default()
        key = model_key(model, opts)
        hit = store.load(key)
        if hit is not None:
            hit.model = model
            hit.cached = True
            return hit
    cache = cache if cache is not None else AnalysisCache()
    t0 = time.perf_counter()
    g = graph if graph is not None else build_graph(model)
    t1 = time.perf_counter()
    ann = parse_annotations(model)
    diags = list(ann.diagnostics)
    ldu = scale_ldu_per_inch(scale, r)
    creations = find_creations(model, g, ann, overrides, hull_cache=cache.hulls, ldu_per_inch=ldu,
                               interior_cache=cache.interiors, rules=r, diagnostics=diags)
    t2 = time.perf_counter()
    cards = [stat_card(model, c, r, ldu, round_mode, sl, g, cache, space=space, move=move) for c in creations]
    t3 = time.perf_counter()
    a = Analysis(model, g, creations, cards, str(rules), scale, ldu, round_mode, diags,
                 {"graph": t1 - t0, "roles": t2 - t1, "stats": t3 - t2, "total": t3 - t0}, key, False,
                 cache.hulls)
    if use_store:
        store.store(key, a)
        a.diagnostics.extend(Diagnostic(str(model.path), 0, w) for w in store.warnings)
    return a


def _num(x):
    if x is None:
        return None
    x = float(x)
    return int(x) if x.is_integer() else round(x, 4)


def card_json(card: StatCard) -> dict:
    c = card.creation
    return {
        "name": c.name, "kind": c.kind, "kind_reason": c.kind_reason, "elements": c.elements,
        "structural_elements": c.structural_elements, "size_in": round(card.size_in, 4), "size": card.size,
        "size_method": card.size_method, "structure_level": _num(card.structure_level), "sl_reason": card.sl_reason,
        "armor": card.armor, "weak_point_structure_level": _num(card.weak_point_sl),
        "weak_point_armor": card.weak_point_armor, "base_cost": _num(card.base_cost),
        "weapons": [w.to_json() for w in card.weapons], "propulsion": [p.to_json() for p in card.propulsion],
        "power": _num(card.power), "flying": card.flying, "space": card.space, "weapons_fit": card.weapons_fit,
        "mind_cost": _num(card.mind_cost), "total_cost": _num(card.total_cost),
        "total_cost_rounded": card.total_cost_rounded, "warnings": card.warnings,
        "sections": c.sections, "roles": {str(i): c.roles[i].to_json() for i in c.elements},
    }


def analysis_json(analysis: Analysis) -> dict:
    """The ``stats --json`` contract."""
    return {"rules": analysis.rules, "scale": analysis.scale, "scale_ldu_per_inch": analysis.ldu_per_inch,
            "round": analysis.round_mode, "model": str(analysis.model.path),
            "creations": [card_json(c) for c in analysis.cards],
            "warnings": [str(d) for d in analysis.diagnostics]}
