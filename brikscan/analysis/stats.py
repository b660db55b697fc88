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
from ..geometry.model import LDU_PER_INCH, LDU_PER_STUD
from ..rules import formulas as F
from ..rules.tables import load_rules
from .annotations import parse_annotations
from .connectivity import build_graph
from .creations import Creation, find_creations
from .measure import measure_size

SCALES = ("inch", "stud")  # tape-measure inch; the rules' measuring-stick inch (rules.size.studs_per_inch)
ROUND_MODES = ("nearest", "up", "down")


def scale_ldu_per_inch(scale: str, rules) -> float:
    """LDU per inch of a scale: 63.5 (a real inch) or the rules' stud inch (3 studs = 60 LDU in 2010)."""
    if scale not in SCALES:
        raise UsageError(f"unknown scale {scale!r} (choose inch or stud)")
    return LDU_PER_INCH if scale == "inch" else rules.size.studs_per_inch * LDU_PER_STUD


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
    type: str
    elements: list[int]
    move_in: float | None
    cost: float | None
    reason: str
    rule_kind: str = ""
    warnings: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"type": self.type, "elements": self.elements, "move_in": self.move_in, "cost": self.cost,
                "rule_kind": self.rule_kind, "reason": self.reason, "warnings": self.warnings}


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


@dataclass
class Analysis:
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


def _propulsion_cards(model, creation: Creation, size: int, sl: float, rules, warnings) -> list[PropulsionCard]:
    by_type: dict[str, list[int]] = {}
    for i in creation.elements_with("propulsion"):
        t = creation.roles[i].params.get("type") or "ground"
        by_type.setdefault(t, []).append(i)
    cards = []
    for t, idx in sorted(by_type.items()):
        words = {creation.roles[i].reason.lower() for i in idx}
        names = " ".join(creation.roles[i].params.get("name", "") for i in idx).lower()
        treads = any("tread" in w or "'legs'" in w for w in words) or \
            bool(re.search(r"\b(legs?|treads?|tracks?)\b", names))
        winged = t == "flying" and any("'wing'" in w for w in words)
        rule_kind = "forward_flying" if winged else t
        moves = [float(creation.roles[i].params["move"]) for i in idx if "move" in creation.roles[i].params]
        move = max(moves) if moves else None
        reason = f"{len(idx)} element(s): {creation.roles[idx[0]].reason}"
        try:
            ps = F.propulsion_stats(rule_kind, max(size, 0), sl, rules, move, winged=winged, legs_or_treads=treads)
            cards.append(PropulsionCard(t, sorted(idx), ps.move_in, ps.cost, reason + (
                "" if moves else " ; Move: default formula by Size and SL [004 §9.1]"), rule_kind,
                                        list(ps.warnings)))
        except BrikscanError as exc:
            cards.append(PropulsionCard(t, sorted(idx), move, None, reason, rule_kind, [exc.message]))
            warnings.append(exc.message)
    return cards


def stat_card(model, creation: Creation, rules, ldu_per_inch: float, round_mode: str = "nearest",
              sl: float | None = None, graph: nx.Graph | None = None, cache: AnalysisCache | None = None
              ) -> StatCard:
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
    g = graph if graph is not None else nx.Graph()
    weapons = [_weapon_card(model, creation, idx, k, rules, ldu_per_inch, hulls)
               for k, idx in enumerate(_weapon_groups(g, creation), start=1)]
    if creation.kind == "minifig":
        props = [_minifig_walk(creation, rules)]
    else:
        props = _propulsion_cards(model, creation, size, level, rules, warnings)
    mind = 0.0
    if creation.kind in ("minifig", "creature"):  # a Creature has a Mind, Trained (d6) by default [000 §10.1]
        try:
            mind = rules.minds.cost()
        except BrikscanError as exc:
            warnings.append(exc.message)
    flying = any(p.type == "flying" for p in props)
    try:
        power = F.power_limit(size, flying, rules)
        fit = F.weapons_fit([w.size for w in weapons], size, flying, rules)
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
                    power, flying, fit, mind, total, int(math.ceil(total - 1e-9)), warnings)


def analyse(model, rules: str = "2010", scale: str = "inch", round_mode: str = "nearest", sl: float | None = None,
            overrides: list[str] | None = None, graph: nx.Graph | None = None,
            cache: AnalysisCache | None = None) -> Analysis:
    """Graph, creations, roles and a stat card for every creation of a loaded model.

    ``cache``: an ``AnalysisCache`` to reuse per-part results across analyses of the same loaded model.
    """
    if scale not in SCALES:
        raise UsageError(f"unknown scale {scale!r} (choose inch or stud)")
    cache = cache if cache is not None else AnalysisCache()
    if round_mode not in ROUND_MODES:
        raise UsageError(f"unknown rounding {round_mode!r} (choose nearest, up or down)")
    if sl is not None:
        F.check_sl(sl)
    r = load_rules(str(rules))
    t0 = time.perf_counter()
    g = graph if graph is not None else build_graph(model)
    t1 = time.perf_counter()
    ann = parse_annotations(model)
    diags = list(ann.diagnostics)
    ldu = scale_ldu_per_inch(scale, r)
    creations = find_creations(model, g, ann, overrides, hull_cache=cache.hulls, ldu_per_inch=ldu,
                               interior_cache=cache.interiors, rules=r)
    t2 = time.perf_counter()
    cards = [stat_card(model, c, r, ldu, round_mode, sl, g, cache) for c in creations]
    t3 = time.perf_counter()
    return Analysis(model, g, creations, cards, str(rules), scale, ldu, round_mode, diags,
                    {"graph": t1 - t0, "roles": t2 - t1, "stats": t3 - t2, "total": t3 - t0})


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
        "power": _num(card.power), "flying": card.flying, "weapons_fit": card.weapons_fit,
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
