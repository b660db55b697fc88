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
from typing import TYPE_CHECKING

from ..errors import BrikscanError, Diagnostic, UsageError
from ..geometry.units import SCALES, ldu_per_inch as _ldu_per_inch
from ..lazy import lazy
from ..rules import formulas as F
from .annotations import SUBMODEL_GROUP, parse_annotations
from .connectivity import build_graph, components_in, connections_only
from .creation import Creation
from .creations import find_creations
from .element_shape import brick_count
from .kinds import on_rails
from .measure import import_box_library, measure_size
from .missing import held_by_missing
from .roles import RoleDecision, describe, words
from .store import code_stamp

code_stamp()  # pinned now, with the code this process imports (see its docstring)

if TYPE_CHECKING:
    import numpy as np

nx = lazy("networkx")  # imported on first use: a cached analysis needs none of it
_tables = lazy("brikscan.rules.tables")  # the pydantic rule tables: a cached analysis needs none of them

ROUND_MODES = ("nearest", "up", "down")

FORK_MIN_ELEMENTS = 1000  # below this the connections take a few ms: no child is worth starting


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
    category: str = ""  # a minifig weapon's Core Rules row: hand_weapon, long_ranged_weapon, ... [000 ch.3]
    hands: int | None = None

    def to_json(self) -> dict:
        d = {"name": self.name, "type": self.type, "elements": self.elements, "size": self.size,
             "size_in": round(self.size_in, 3), "cost": self.cost, "use": self.use, "range_in": self.range_in,
             "damage": self.damage, "reason": self.reason, "notes": self.notes}
        if self.category:
            d.update(category=self.category, hands=self.hands)
        return d


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
    # Core Rules units (issue #11): Skill, Move, Specialties, extras, Unit Inches [000 ch.2-3, §10.1, §11.1-2]
    skill: str = ""
    move_in: float | None = None
    specialties: list = field(default_factory=list)  # minifig_rules.Specialty
    extras: list = field(default_factory=list)  # minifig_rules.Extra: ammunition, turrets, plating, shields
    unit_inches: float | None = None
    notes: list[str] = field(default_factory=list)
    mounted_on: str = ""
    cost_reason: str = ""
    riders: list[str] = field(default_factory=list)  # minifigs in this mount's saddle or seats [000 ch.H]

    def loadout_key(self) -> tuple:
        """Identical minifigs (same weapons, armour, Specialties, Skill, cost) group as one card (×N)."""
        return (self.creation.kind, self.armor, self.skill, self.move_in, round(self.total_cost, 4),
                tuple((w.type, w.name, w.size) for w in self.weapons),
                tuple(s.key for s in self.specialties), tuple(e.name for e in self.extras), self.mounted_on != "")


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
        import pickle

        state = dict(self.__dict__)
        state["_hulls"] = {}
        # the graph travels as its own pickle, read back on first use: reading a cached analysis to print its
        # cards then needs no networkx (0.15-0.4 s of imports)
        blob = state.pop("_graph_pickle", None)
        if "graph" in state:
            blob = pickle.dumps(state.pop("graph"), protocol=pickle.HIGHEST_PROTOCOL)
        state["_graph_pickle"] = blob
        return state

    def __getattr__(self, name: str):
        # only reached when normal lookup fails: ``graph`` of an analysis read back from the cache
        blob = self.__dict__.get("_graph_pickle") if name == "graph" else None
        if blob is None:
            raise AttributeError(name)
        import pickle

        self.graph = pickle.loads(blob)
        del self.__dict__["_graph_pickle"]
        return self.graph

    @property
    def rules_table(self):
        return _tables.load_rules(self.rules)

    def creation_index(self) -> np.ndarray:
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
        from ..geometry.boxes import elements_box

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
                lo, hi = elements_box(self.model.elements, c.elements)
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
    rules = rules if rules is not None else _tables.load_rules("2010")
    t = rules.sl_suggestion
    idx = creation.structural_elements or creation.elements
    classes = Counter(_material(model.colours.name(model.elements[i].colour), rules).name for i in idx)
    if not classes:
        return float(t.empty_sl), t.empty_reason.format(sl=F.sl_text(t.empty_sl))
    total = sum(classes.values())
    ranked = [(next(m for m in t.materials if m.name == c), n) for c, n in classes.most_common()]
    # (a group with a min_share, glass, decides only as more than that share: panes are the frame's windows)
    mat, n = next(((m, k) for m, k in ranked if k / total > m.min_share), ranked[0])
    share = n / total
    if creation.kind == "creature" and mat.creature_sl is not None:
        sl, why = float(mat.creature_sl), (mat.creature_reason or mat.reason).format(sl=F.sl_text(mat.creature_sl))
    else:
        sl, why = float(mat.sl), mat.reason.format(sl=F.sl_text(mat.sl))
    why = f"{why}: {share:.0%} of the structural elements"
    skipped = [(m, k) for m, k in ranked if m.min_share and k > n]
    if skipped:
        why += "; the " + ", ".join(f"{k / total:.0%} {m.name}" for m, k in skipped) + \
            " are its windows, not its material"
    # its own propulsion, the oars its crew row it with and a motorboat's hull (``Creation.rowed``, ``.motor``)
    moving = {r.params.get("type") for r in [*creation.roles.values(), *creation.rowed.values(),
                                             *creation.motor.values()] if r.role == "propulsion"}
    craft = moving & set(t.brick_bonus_not_with)
    if craft == {"thrust"} and "ground" in moving:
        craft = set()  # a car with a jet booster still drives like a tank
    if mat.brick_bonus and creation.kind in t.brick_bonus_kinds and not craft and share > t.brick_bonus_min_share:
        # "grey or black tanks and bunkers" (digest §13.1): a black-hulled ship or a jet is no tank, and a build
        # the material is not most of (a coach, 49 % grey chassis and roof) is not grey or black
        bricks = sum(1 for i in idx if model.elements[i].description.lower().lstrip("~").startswith("brick"))
        plates = sum(1 for i in idx if model.elements[i].description.lower().lstrip("~").startswith("plate"))
        if bricks > plates and bricks >= t.brick_bonus_min_bricks:
            sl += mat.brick_bonus
            why += f"; +{F.sl_text(mat.brick_bonus)}: built mostly from bricks rather than plates"
    sl = min(sl, float(t.max_sl))
    return sl, f"suggested from the colours, the players decide [000 §7.1]: {why} (digest §13.1)"


# ------------------------------------------------------------------ the card

def _weapon_groups(graph: nx.Graph, creation: Creation) -> list[list[int]]:
    """The elements of each weapon: an annotated or editor group, else the connected pieces. A piece whose group
    names another element ("carriage:N": a wheel of a gun carriage; "with:N": a muzzle or casing strung on
    barrel N, which no connector may join to it, or the mount of N) is also part of the weapon N is in."""
    w = creation.elements_with("weapon")
    by_group: dict[str, list[int]] = {}
    loose, ties = [], []
    for i in w:
        g = creation.roles[i].group
        head, _, ref = g.partition(":")
        if head in ("carriage", "with") and ref.isdigit():
            ties.append((i, int(ref)))
            if head == "with":
                loose.append(i)  # still joined to what it touches, as any loose piece
                continue
            by_group.setdefault(g, []).append(i)
        elif g:
            by_group.setdefault(g, []).append(i)
        else:
            loose.append(i)
    groups = [sorted(c) for c in components_in(graph, loose)]
    for g, members in by_group.items():
        if g.startswith("group:"):  # a LeoCAD/MLCad/LDCad group: one weapon per body it spans
            groups += [sorted(c) for c in components_in(graph, members)]
        else:
            groups.append(members)
    for i, ref in ties:  # merge the weapon holding i with the one holding ref
        a = next((grp for grp in groups if i in grp), None)
        b = next((grp for grp in groups if ref in grp), None)
        if a is not None and b is not None and a is not b:
            b.extend(a)
            groups.remove(a)
    groups = [sorted(set(grp)) for grp in groups]
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
    auto, measured, auto_note = _measured_weapon_size(model, idx, rules, ldu_per_inch, cache, "its")
    if "size" in params:
        size = float(params["size"])
        size_note = f"Weapon Size {size:g} annotated"
    elif wtype in ("explosive", "rocket"):
        size = float(params.get("xsize") or brick_count(model, idx))
        size_note = f"XSize {size:g} = bricks in it (plates a third, axles and pins none) [000 §8.1 Explosive " \
                    "Size]"
    else:
        size, size_note = auto, auto_note
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
    return WeaponCard(name, wtype, sorted(idx), size, measured, cost, use, rng, dmg, f"{reason}; {size_note}",
                      notes)


def _measured_weapon_size(model, idx: list[int], rules, ldu_per_inch: float, cache, whose: str
                          ) -> tuple[float, float, str]:
    """A weapon's Size from its longest dimension, rounded [000 §8.1 Weapon Size]: (Size, the measured inches, the
    card's note); ``whose`` names what was measured ("its", "its head's")."""
    m = measure_size(model, idx, ldu_per_inch, cache)
    size = F.round_weapon_size(m.size_in, rules)
    return size, m.size_in, f"Weapon Size {size:g} from {whose} longest dimension {m.size_in:.2f}\" " \
                            "[000 §8.1 Weapon Size]"


def _breath_card(model, head: list[int], rules, ldu_per_inch: float, cache) -> WeaponCard:
    """A dragon's breath: its face is the FlameThrower, Sized as its head measures ("the dragon's face is a Size 3\"
    Flamethrower" [000 §8.3 FlameThrowers]; "a Flying Horse with a FlameThrower in its mouth" [000 §10.3])."""
    d = rules.creatures.dragon
    size, measured, size_note = _measured_weapon_size(model, head, rules, ldu_per_inch, cache, "its head's")
    ws = F.weapon_stats(d.breath, size, rules)
    return WeaponCard("breath", d.breath, sorted(head), size, measured, ws.cost, ws.use, ws.range_in, ws.damage,
                      f"its face breathes fire: a {d.breath} in its mouth {d.source}; {size_note}", ws.notes)


def _hauled_props(props: list[PropulsionCard], team: tuple[list[str], float | None], size: int, rules,
                  warnings: list[str]) -> None:
    """A cart with Horses harnessed to it moves with its team: its wheels roll but buy no Move of their own
    [000 ch.H The Horse: a harnessed team hauls a wheeled cart up to twice its number of Horses in Size]."""
    names, move_in = team
    who = ", ".join(repr(n) for n in names)
    per = rules.creatures.horse.haul_size_per_horse
    if not any(p.type == "ground" for p in props):
        return
    _wheels_buy_no_move(props, move_in, f"hauled by {who} harnessed at its hitching: it moves with its team, the "
                                        "wheels buy no Move of their own [000 ch.H The Horse]")
    if size > per * len(names):
        warnings.append(f"hauled by {len(names)} Horse(s): a team hauls a cart up to {per:g}\" of Size per Horse, "
                        f"this one is Size {size} [000 ch.H The Horse]")


def _rolls(creation: Creation) -> bool:
    """It has wheels (ground propulsion) of its own: the card's ground Move would come from them."""
    return any(propulsion_kind(creation.roles[i].params.get("type")) == "ground"
               for i in creation.elements_with("propulsion"))


def settle_towing(model, creations: list[Creation], riders: dict[int, list[str]], teams: dict[int, list[int]]
                  ) -> None:
    """Which wheeled creations roll only where they are hauled or towed, decided before any card is costed, so
    the cards read it: a cart with Horses harnessed to it moves with its team [000 ch.H The Horse]; a trailer or
    a wagon (``Creation.towed``) stays one unless a minifig is seated on it, its driver at its Control Area
    ("a Vehicle that lacks specific Control elements should still at least have a specified Control Area"
    [000 §9.4 Controls]); on rails, where no one aboard steers, those seated in a coach are its passengers."""
    for k, c in enumerate(creations):
        if k in teams:
            c.towed = ""  # (its team's Move, not none)
            if _rolls(c):
                who = ", ".join(repr(creations[h].name) for h in teams[k])
                c.kind_reason = f"a wheeled cart harnessed to {who}: it moves with its team, a Vehicle with no " \
                                "motor of its own [000 ch.H The Horse]"
        elif c.towed and c.kind == "vehicle" and riders.get(k) and on_rails(model, c.elements, c.roles):
            who = ", ".join(repr(n) for n in riders[k])
            c.towed += f"; on rails, those seated in it ({who}) are passengers, not its driver"
            c.kind_reason = f"a Vehicle with no drive of its own: {c.towed}"
        elif c.towed and (c.kind != "vehicle" or riders.get(k)):
            c.towed = ""
        elif c.towed:
            c.kind_reason = f"a Vehicle with no drive of its own: {c.towed}"


def _wheels_buy_no_move(props: list[PropulsionCard], move_in: float | None, why: str) -> None:
    """Wheels that roll but buy no Move of their own: a cart its Horses haul (``move_in`` theirs), a trailer or a
    wagon with nothing to drive or steer it (``Creation.towed``: Move 0, it goes where it is towed or pushed
    [000 §9.4 Controls])."""
    for p in props:
        if p.type == "ground":
            p.cost, p.move_in = 0.0, move_in
            p.reason = f"{p.reason.split(' ; Move:')[0]}; {why}"


def _unfireable_loads(creation: Creation, weapons: list[WeaponCard], size: int, rules,
                      notes: list[str]) -> list[WeaponCard]:
    """A rocket or a bomb found by its name whose Explosive Size (its bricks) is more than all the Power its
    carrier ever has cannot be fired or dropped by it: fired from the creation directly, "the points of Explosive
    Size count against the Power limit" [000 §8.1 Power Limits, ch.8 Heavy Explosives]. A player reads it as the
    load the creation carries (a launch rocket on its transporter), not its weapon: its pieces become cargo,
    free. One the player annotated stays a weapon (the Power warning tells)."""
    try:
        most = F.power_limit(size, False, rules)  # on the ground: twice the Size, the most it ever has
    except BrikscanError:  # an edition with no Size-based Power (2001) fires what it carries
        return weapons
    kept = []
    for w in weapons:
        # judged by brikscan: from a submodel's name or a part, never a ROLE line, a group or --role
        judged = all(r.source not in ("cli", "annotation") or r.group.startswith(SUBMODEL_GROUP)
                     for r in (creation.roles[i] for i in w.elements))
        if w.type not in ("rocket", "explosive") or not judged or w.size <= most:
            kept.append(w)
            continue
        why = (f"in {w.name!r}, a {w.type} of Explosive Size {w.size:g}, more than the {most:g}\" of Power its "
               "carrier ever has: it cannot be fired from it [000 §8.1 Power Limits, ch.8 Heavy Explosives], "
               "a load it carries, not its weapon; free [000 §7.1 Non-Structural Elements]")
        for i in w.elements:
            creation.roles[i] = RoleDecision("decoration", f"{creation.roles[i].reason.split(';')[0]}; {why}",
                                             "geometry")
        notes.append(f"{w.name!r} carried as a load, not a weapon: Explosive Size {w.size:g} exceeds the Power "
                     f"{most:g}\" [000 §8.1 Power Limits]")
    return kept


def _minifig_weapon_cards(model, creation: Creation, rules, ldu_per_inch: float, hulls, skill: str,
                          mounted: bool, warnings: list[str], graph: nx.Graph | None = None, heavy=None
                          ) -> tuple[list[WeaponCard], str | None, str]:
    """A minifig's held weapons priced from the Core Rules table by length [000 ch.3], not by the Chapter 8
    formulas; also its Body / Heavy Armor row from torso accessories [000 §3.3]. Returns (weapons, armour, why).

    ``type`` stays the weapon family (gun, melee, shield, explosive, tool) that sight and attacks read;
    ``category`` is the Core Rules row."""
    from .minifig_rules import body_armor, held_items, pairing_warnings

    t = rules.minifig_weapons
    items = held_items(model, creation, rules, ldu_per_inch, hulls, mounted=mounted, heavy=heavy)
    cards = []
    for it in items:
        row = t.items[it.key]
        name = it.name
        for i in it.elements:  # an annotated name wins
            name = creation.roles[i].params.get("name") or name
        family = creation.roles[it.elements[0]].params.get("type") or row.group
        if row.group == "ranged" and family not in ("gun", "cannon", "rocket", "flamethrower", "launcher"):
            family = "gun"
        cards.append(WeaponCard(name, family, it.elements, t.size_of(row.size_class),
                                it.length_ldu / ldu_per_inch, row.cost, row.use, row.range_in,
                                row.damage(skill), f"{row.label} ({row.size_class}): {it.reason} {row.source}",
                                row.notes, category=it.key, hands=it.hands))
        warnings.extend(it.warnings)
    warnings.extend(pairing_warnings(items, rules, mounted))
    from .minifig_rules import is_siege_weapon

    siege = [i for i in creation.sections.get("equipment", []) if is_siege_weapon(creation, i)]
    if siege:  # a cannon by a minifig is a Vehicle weapon he mans: Chapter 8 prices it [000 §8.1 Turrets]
        g = graph if graph is not None else nx.Graph()
        for k, comp in enumerate(sorted(components_in(g, siege), key=min), start=len(cards) + 1):
            w = _weapon_card(model, creation, sorted(comp), k, rules, ldu_per_inch, hulls)
            w.notes = "; ".join(x for x in (w.notes, "a Vehicle weapon by the minifig, not a minifig weapon "
                                                     "[000 §8.1 Turrets]") if x)
            cards.append(w)
    armor_key, armor_why = body_armor(model, creation, rules)
    return cards, armor_key, armor_why


def _half_speed(prop: PropulsionCard, rules, why: str, notes: list[str]) -> float | None:
    """Half Speed on the card: the Move shown is ``half_speed_factor`` of the bought Move [000 §4.1 Half Speed]."""
    if prop.move_in is None:
        return None
    full = prop.move_in
    prop.move_in = full * rules.minifig_weapons.half_speed_factor
    prop.reason += f"; {why}: Half Speed, Move {full:g}\" → {prop.move_in:g}\" [000 §4.1 Half Speed]"
    notes.append(f"{why}: Half Speed, Move {full:g}\" → {prop.move_in:g}\" (every inch costs two Move inches) "
                 "[000 §3.3 Bodily Protection], [000 §4.1 Half Speed]")
    return prop.move_in


def _minifig_walk(creation: Creation, rules, move_in: float | None = None) -> PropulsionCard:
    """A minifig walks ``rules.minifig.move_in`` (a Hero 7") on its legs, at the ground price [000 §9.5]."""
    move = float(move_in or rules.minifig.move_in)
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


MAST_AXIS_LDU = 6.0  # mast sections stand on one upright axis (their centres within this across) ...
MAST_GAP_LDU = 2.0  # ... one plugged into the next (their boxes meet or overlap)


def _thruster_cards(model, creation: Creation, idx: list[int], graph, rules, ldu_per_inch, hulls,
                    warnings, roles: dict | None = None) -> list[PropulsionCard]:
    """Thrusters (jets, rockets, propellers, sails): (Size × 2) CP for Size × 5" of Thrust, using Size Power
    [000 §9.3 Thrust Vectors]; each connected group of thrust elements is one Thruster measured like a weapon, an
    engine pod with its nozzle (the pieces the judging grew round it) is one whatever its pieces touch."""
    roles = roles if roles is not None else creation.roles  # with the oars its crew hold (Creation.rowed)
    t = rules.thruster
    if t is None or t.unsupported:
        warnings.append(f"thrust: {t.unsupported if t else 'no Thruster rule in this edition'}")
        return [PropulsionCard("thrust", sorted(idx), None, None, "thrust elements (not costed)", "thrust")]
    g = graph if graph is not None else nx.Graph()
    cards = []
    # an engine pod's pieces ("with:N", round its nozzle N) are that nozzle's Thruster, touching it or not; two
    # pods whose casings touch (engines side by side) are two Thrusters
    pod: dict[int, int] = {}
    for i in idx:
        head, _, ref = roles[i].group.partition(":")
        if head == "with" and ref.isdigit():
            pod[i] = int(ref)
    engine = {i: pod.get(i, i) for i in idx}  # the nozzle each piece belongs to (itself when in no pod)
    pods = set(pod.values())
    links = nx.Graph()
    links.add_nodes_from(idx)
    inside = set(idx)
    for i in idx:
        for j in g.neighbors(i) if i in g else ():
            if j in inside and not (engine[i] in pods and engine[j] in pods and engine[i] != engine[j]):
                links.add_edge(i, j)
    for i, ref in pod.items():
        if ref in inside:
            links.add_edge(i, ref)
    # a mast is one Thruster with its yards and sails [000 §9.3]: its sections plug into each other on one upright
    # axis, a join the connector data may not know
    masts = [i for i in idx if "mast" in words(describe(model.elements[i])[1])]
    for a, i in enumerate(masts):
        for j in masts[a + 1:]:
            ei, ej = model.elements[i], model.elements[j]
            ci, cj = (ei.bbox_min + ei.bbox_max) / 2, (ej.bbox_min + ej.bbox_max) / 2
            gap = max(float(ei.bbox_min[1] - ej.bbox_max[1]), float(ej.bbox_min[1] - ei.bbox_max[1]))
            if abs(float(ci[0] - cj[0])) <= MAST_AXIS_LDU and abs(float(ci[2] - cj[2])) <= MAST_AXIS_LDU and \
                    gap <= MAST_GAP_LDU:
                links.add_edge(i, j)
    comps = [set(c) for c in nx.connected_components(links)]
    for comp in sorted((sorted(c) for c in comps), key=min):
        params = roles[comp[0]].params
        m = measure_size(model, comp, ldu_per_inch, hulls)
        size = float(params["size"]) if params.get("size") else F.round_weapon_size(m.size_in, rules)
        card = PropulsionCard("thrust", comp, None, t.cost_per_size * size,
                              f"{len(comp)} element(s): {roles[comp[0]].reason}; a Size {size:g} Thruster "
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
    # the oars its crew hold row it [000 §9.1 "manned oars"]; a motorboat's hull drives it
    roles = {**creation.roles, **creation.rowed, **creation.motor}
    for i in creation.elements_with("propulsion") + sorted(creation.rowed) + sorted(creation.motor):
        by_type.setdefault(propulsion_kind(roles[i].params.get("type")), []).append(i)
    cards = []
    for t, idx in sorted(by_type.items()):
        if t == "thrust":
            cards += _thruster_cards(model, creation, idx, graph, rules, ldu_per_inch, hulls, warnings, roles)
            continue
        words = {roles[i].reason.lower() for i in idx}
        names = " ".join(roles[i].params.get("name", "") for i in idx).lower()
        # treads by the part's deciding word ("'tread' is ground propulsion"), never a tyre's "Offset Tread"
        treads = any(re.search(r"'treads?' is", w) or "a leg" in w or "'legs'" in w for w in words) or \
            bool(re.search(r"\b(legs?|treads?|tracks?)\b", names))
        rule_kind = _RULE_KIND.get(t, t)
        moves = [float(roles[i].params["move"]) for i in idx if "move" in roles[i].params]
        mv = max(moves) if moves else None
        reason = f"{len(idx)} element(s): {roles[idx[0]].reason}"
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


def space_flag(creation: Creation, space: bool | None, theme: str = "") -> tuple[bool, str]:
    """Whether a flyer is in space or on antigravity (full Power) rather than flying in air [000 §8.1]: as given
    (``--space/--air``), as annotated, else as the model's ``!THEME`` files it: a Space set's craft are
    spacecraft ("antigravity spacefighters" [000 §9.2 Stationary Maneuvering]), any other flies in air."""
    if space is not None:
        return space, "given with --space" if space else "given with --air"
    for key in ("space", "spacecraft", "antigravity"):
        v = creation.annotation.get(key)
        if v is not None:
            on = v.strip().lower() in _SPACE_WORDS
            return on, f"annotated {key}={v} ({creation.annotation_source})"
    if theme.split("/")[0].strip().lower() == "space":
        return True, f"the model's !THEME is {theme!r}: a spacecraft; --air or space=no flies it in air"
    return False, ""


def stat_card(model, creation: Creation, rules, ldu_per_inch: float, round_mode: str = "nearest",
              sl: float | None = None, graph: nx.Graph | None = None, cache: AnalysisCache | None = None,
              *, space: bool | None = None, move: str = "default", crew: list | None = None,
              mounted_on: str = "", mount: tuple[str, str] | None = None, riders: list[str] | None = None,
              team: tuple[list[str], float | None] | None = None) -> StatCard:
    """The costing of one Creation under ``rules`` (a Rules object); ``cache`` reuses per-part hulls.

    Minifigs, Horses and Vermin follow the Core Rules tables when the edition has them [000 ch.2-3, ch.H,
    §10.3]; ``crew``: Specialties found at a Vehicle's Controls or guns; ``mounted_on``: the mount it sits on,
    ``mount``: (that mount's kind, how the seat was found); ``riders``: the minifigs sitting on this one;
    ``team``: the Horses harnessed to a cart and their Move."""
    from . import minifig_rules as MR

    if round_mode not in ROUND_MODES:  # checked here too: the 2001 fallback below must not swallow it
        raise UsageError(f"unknown rounding {round_mode!r} (choose nearest, up or down)")
    warnings: list[str] = []
    notes: list[str] = []
    hulls = (cache if cache is not None else AnalysisCache()).hulls
    struct = creation.structural_elements or creation.elements
    m = measure_size(model, struct, ldu_per_inch, hulls)
    creation.size = m
    core = rules.minifig_weapons is not None and rules.creatures is not None  # the Core Rules tables (2010)
    special = ""
    steed = MR.is_steed(model, creation) if core else ""
    if steed:
        special = "horse"  # a one-piece bicycle or motorcycle: a Steel Horse [000 ch.H Horse Varieties]
    elif core and creation.kind == "creature":
        if MR.is_horse(model, creation, rules):
            special = "horse"
        elif MR.is_vermin(model, creation, m.size_in, rules) and not creation.annotation.get("size"):
            special = "vermin"
        elif MR.one_piece_animal(model, creation):  # one piece, but no Vermin: say why
            notes.append(f"a one-piece animal of {m.size_in:.1f}\" ({rules.creatures.vermin.max_in:g}\" or more) is "
                         f"no Vermin, too big to round to Size 0: a Creature with its Size "
                         f"{rules.creatures.vermin.source}")
        elif rules.creatures.spine is not None and len(struct) > 1:
            # a brick-built Creature: Size over spine and cranium, tails, jaws and limbs excluded [000 §7.1 Size]
            from .creature_size import spine_size

            m, _, spine_why = spine_size(model, creation, graph, ldu_per_inch, rules, hulls)
            creation.size = m
            notes.append(f"Size over spine and cranium: {spine_why} [000 §7.1 Size]")
    if creation.kind == "minifig":
        size_in, size = m.size_in, int(rules.minifig.size_in)  # [000 §9.5 The Minifig] Size 1
    elif special == "horse":
        size_in, size = m.size_in, int(rules.creatures.horse.size)  # a Horse is Size 2 [000 ch.H]
    elif special == "vermin":
        size_in, size = m.size_in, int(rules.creatures.vermin.size)  # one-piece animals: Size 0 [000 §10.3]
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
    elif special == "horse":
        level, why = float(rules.creatures.horse.sl), f"a Horse is SL ½ {rules.creatures.horse.source}"
    elif special == "vermin":
        level, why = float(rules.creatures.vermin.sl), f"Vermin have no Structure Level {rules.creatures.vermin.source}"
    elif sl is not None:
        level, why = float(sl), "given with --sl"
    elif creation.annotation.get("sl"):
        level, why = float(creation.annotation["sl"]), f"annotated ({creation.annotation_source})"
    else:
        level, why = suggest_sl(model, creation, rules)
    level = F.check_sl(level)
    if creation.kind != "minifig" and not special:
        capped, warn = F.clamp_sl(level, size, rules)
        if warn:
            warnings.append(warn)
            why += f"; clamped to Size {size}"
        level = capped
    creation.structure_level = level
    creation.sl_reason = why
    if creation.kind == "minifig":
        armor = str(rules.minifig.armor_fixed)  # minifig Armor is a fixed 4 [000 §9.5]
    elif special == "horse":
        armor = rules.creatures.horse.armor
    elif special == "vermin":
        armor = rules.creatures.vermin.armor
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
                        0, ["scenery: not priced (annotate CREATION kind=… to cost it)"], unit_inches=0.0)
    g = graph if graph is not None else nx.Graph()
    profile = None
    extras: list = []
    skill = ""
    move_in = None
    if creation.kind == "minifig" and core:
        profile = MR.UnitProfile(move_in=float(rules.minifig.move_in))
        profile.skill, profile.mind_cost, profile.mind_reason, mw = MR.mind_profile(creation, rules)
        warnings.extend(mw)
        specs, sw = MR.annotated_specialties(creation, rules)
        warnings.extend(sw)
        MR.apply_specialties(profile, specs + MR.tool_specialties(model, creation, rules) + list(crew or []),
                             rules)
        heavy = MR.compensating(profile.specialties, rules)
        jousting = bool(mounted_on) and (mount is None or mount[0] == "creature")  # from a mount [000 ch.H]
        weapons, armor_key, armor_why = _minifig_weapon_cards(model, creation, rules, ldu_per_inch, hulls,
                                                              profile.skill, jousting, warnings, g, heavy)
        if heavy is not None:
            notes.append(f"{heavy.specialty}: Weapons {heavy.larger_by_in:g}\" larger than a minifig's, only on a "
                         "turn he stands still [000 §8.1 The Heavy]")
        if profile.armor:
            armor = profile.armor
        if armor_key:  # Body Armor +2, Heavy Armor Deflection and Half Speed [000 §3.3]
            row = rules.minifig_weapons.items[armor_key]
            extras.append(MR.Extra("armor", row.label, row.cost, f"{armor_why}; {row.effect}; {row.notes}"))
            armor = f"{armor}+{row.armor_add}" if not armor.isdigit() else str(int(armor) + row.armor_add)
            if row.deflection:
                armor += " + Deflection"
        if mounted_on and mount is not None and mount[0] == "vehicle":
            notes.append(f"seated in {mounted_on!r}: {mount[1]} [000 §9.4 Piloting]")
        elif mounted_on:
            how = f": {mount[1]}" if mount is not None else ""
            notes.insert(0, f"rides {mounted_on!r}{how} (any minifig may ride [000 §11.2 The Rider]) "
                            "[000 ch.H The Horse]")
        props = [_minifig_walk(creation, rules, profile.move_in)]
        skill, move_in = profile.skill, profile.move_in
        if armor_key and rules.minifig_weapons.items[armor_key].half_speed:
            # Heavy Armor: Half Speed, every inch moved costs two Move inches [000 §3.3], [000 §4.1 Half Speed];
            # the walk is still priced at the full Move (the armour's own 2 CP is its price)
            move_in = _half_speed(props[0], rules, rules.minifig_weapons.items[armor_key].label, notes)
    elif special == "horse":
        barding = MR.horse_barding(model, creation)
        dragon = MR.dragon_parts(model, creation, rules)
        profile = MR.horse_profile(creation, rules, steel=bool(steed), barding=barding,
                                   wings=bool(dragon and dragon.wings))
        warnings.extend(profile.warnings)
        armor = profile.armor or armor  # barding: 1d10, or Deflection [000 ch.H Horse Armor]
        stowed = [i for i in creation.elements if creation.roles[i].role == "weapon"]
        weapons = [_breath_card(model, dragon.head, rules, ldu_per_inch, hulls)] if dragon and dragon.head else []
        if dragon:
            variety = "Flying " if profile.flies is not None else ""
            notes.append(f"a dragon is statted as a {variety}Horse with a FlameThrower in its mouth "
                         f"{rules.creatures.dragon.source}")
        if stowed:  # a Horse cannot use equipment items [000 ch.H Horse Abilities]
            notes.append(f"{len(stowed)} weapon element(s) stowed on the Horse: free, a Horse cannot use "
                         "equipment [000 ch.H The Horse]")
        if profile.flies is not None:  # a Flying Horse flies its 10" for its variety's price [000 ch.H]
            props = [PropulsionCard("flight", dragon.wings if dragon else [], profile.move_in, profile.flies,
                                    f"a Flying Horse flies {profile.move_in:g}\" (+{profile.flies:g} CP) "
                                    f"{rules.creatures.horse.varieties['source']}", "flying", [])]
        else:
            try:
                ps = F.propulsion_stats("ground", size, level, rules, profile.move_in, legs_or_treads=True)
                props = [PropulsionCard("ground", creation.elements_with("propulsion"), ps.move_in, ps.cost,
                                        f"a Horse moves {profile.move_in:g}\" {rules.creatures.horse.source}",
                                        "ground", list(ps.warnings))]
            except BrikscanError as exc:
                props = [PropulsionCard("ground", [], profile.move_in, None, "a Horse", "ground", [exc.message])]
        notes.extend(profile.notes)
        notes.append("the saddle is the Controls, not Size [000 ch.H The Horse]")
        skill, move_in = profile.skill, profile.move_in
        if barding == "heavy" and props:
            # Horse Heavy Armor: Deflection "at the cost of reducing the Horse's Movement to Half Speed" [000 ch.H]
            move_in = _half_speed(props[0], rules, "Horse Heavy Armor", notes)
    elif special == "vermin":
        weapons, props = [], []
        profile = MR.animal_profile(creation, rules)  # fielded from the Animals table [000 §11.2 The Animal]
        if profile is not None:
            notes.append(profile.cost_reason)
            notes.extend(profile.notes)
            skill, move_in, armor = profile.skill, profile.move_in, profile.armor
            notes.append("the Animal's price includes its Mind and Move [000 §11.2 The Animal]")
        else:
            profile = MR.UnitProfile(move_in=None, unit_inches=float(rules.creatures.vermin.unit_inches))
            profile.fixed_cost = float(rules.creatures.vermin.cost)
            profile.cost_reason = (f"a one-piece animal under {rules.creatures.vermin.max_in:g}\" (this one "
                                   f"{m.size_in:.1f}\") is Vermin: Size 0, Armor 0, Base Cost 0 CP "
                                   f"{rules.creatures.vermin.source}; fielded as a unit: annotate "
                                   "UNIT animal=vermin|venomous|flying [000 §11.2 The Animal]")
            notes.append(profile.cost_reason)
    else:
        weapons = [_weapon_card(model, creation, idx, k, rules, ldu_per_inch, hulls)
                   for k, idx in enumerate(_weapon_groups(g, creation), start=1)]
        weapons = _unfireable_loads(creation, weapons, size, rules, notes)
        if core and creation.kind == "creature" and rules.large_hand_held is not None:
            for w in weapons:  # a Creature's hand-held weapons against its Size [000 §8.1 Large Hand-Held]
                cls = MR.large_hand_held_class(w.size, size, rules.large_hand_held)
                ranged = w.type not in ("melee", "shield")
                if cls is None:
                    warnings.append(f"{w.name}: Size {w.size:g} is more than twice the holder's Size {size}: too "
                                    "big to hold [000 §8.1 Large Hand-Held Weapon Equivalents]")
                elif cls == "L" and ranged and not rules.large_hand_held.ranged_long_allowed:
                    warnings.append(f"{w.name}: a Long ranged weapon (over 1.5x the holder's Size) is not "
                                    "allowed [000 §8.1 Large Hand-Held Weapon Equivalents]")
                if cls:
                    w.notes = "; ".join(x for x in (w.notes, f"held: {cls} for a Size {size} holder [000 §8.1 "
                                                                 "Large Hand-Held Weapon Equivalents]") if x)
        if creation.kind == "minifig":
            props = [_minifig_walk(creation, rules)]
        else:
            props = _propulsion_cards(model, creation, size, level, rules, warnings, move=move, graph=g,
                                      ldu_per_inch=ldu_per_inch, hulls=hulls)
            if team is not None:
                _hauled_props(props, team, size, rules, warnings)
            elif creation.towed:  # (settled by ``settle_towing`` before any card)
                _wheels_buy_no_move(props, 0.0, creation.towed)
            if creation.kind == "vehicle" and not props:  # on the card too, where the kind's reason is not shown
                warnings.append("no propulsion recognised, so it has no Move: annotate what drives it (0 !BRIKSCAN "
                                "ROLE propulsion type=ground|water|thrust|flight|forward_flight) [000 §9.1]")
    if core and rules.extras is not None and creation.kind not in ("minifig",) and not special:
        for w in weapons:  # ammunition: ROLE … type=cannon ammo=2,1 [000 §8.4 Cannons]
            spec = next((creation.roles[i].params.get("ammo") for i in w.elements
                         if creation.roles[i].params.get("ammo")), None)
            if spec and w.type == "cannon":
                ammo, aw = MR.cannon_ammo(w.size, spec, rules, creation.roles[w.elements[0]].source)
                for a in ammo:
                    a.name = f"{w.name}: {a.name}"
                extras.extend(ammo)
                warnings.extend(aw)
        more, ew = MR.creation_extras(creation, size, rules)
        extras.extend(more)
        warnings.extend(ew)
    mind = 0.0
    if profile is not None and creation.kind == "minifig" or special == "horse":
        mind = profile.mind_cost
    elif creation.kind == "creature" and not special:  # a Creature has a Mind, Trained (d6) by default [000 §10.1]
        try:
            if core:
                skill, mind, mwhy, mw = MR.mind_profile(creation, rules, half=creation.mind or None)
                warnings.extend(mw)
                if creation.mind:
                    notes.append(f"{mwhy}: a robot acting by itself follows its program [000 §10.1 Minds]")
            else:
                mind = rules.minds.cost()
        except BrikscanError as exc:
            warnings.append(exc.message)
        if core and not weapons:
            notes.append("a Creature without hands has one free natural attack, a Melee Weapon up to its Size "
                         "[000 §10.1 Manipulators]")
    elif creation.kind == "minifig":
        try:
            mind = rules.minds.cost()
        except BrikscanError as exc:
            warnings.append(exc.message)
    has_flight = any(p.type in ("flight", "forward_flight") for p in props)
    # (a Space set's theme makes its flyers spacecraft; its bases and rovers fly nowhere)
    in_space, space_why = space_flag(creation, space, model.main.header.theme if has_flight else "")
    # Power is halved only for Creations flying in the air, not in space or on antigravity [000 §8.1 Power Limits]
    flying = has_flight and not in_space
    try:
        power = F.power_limit(size, flying, rules)
        if creation.kind == "minifig" and core:
            fit = None  # a minifig's loadout follows the pairing rules of [000 ch.3], not Weapon inches
        else:
            fit = F.weapons_fit([w.size for w in weapons] + [p.power_in for p in props if p.power_in], size,
                                flying, rules)
        if fit is False:
            thrust = sum(p.power_in for p in props if p.power_in)
            used = sum(w.size for w in weapons) + thrust
            what = f"weapons and Thrusters ({thrust:g}\" of Thrusters [000 §9.3])" if thrust else "weapons"
            warnings.append(f"{what} total {used:g}\" exceed Power {power:g}\": not all can be used in one turn "
                            "[000 §8.1 Power Limits]")
    except BrikscanError as exc:
        power, fit = None, None
        warnings.append(exc.message)
    specs_cost = sum(s.cost for s in profile.specialties) if profile is not None else 0.0
    extras_cost = sum(e.cost or 0.0 for e in extras)
    if profile is not None and profile.fixed_cost is not None:  # the Horse's 7 CP, Vermin's 0 [000 ch.H, §10.3]
        total = profile.fixed_cost + sum(w.cost or 0.0 for w in weapons) + extras_cost
        cost_reason = profile.cost_reason
    else:
        total = (base or 0.0) + sum(w.cost or 0.0 for w in weapons) + sum(p.cost or 0.0 for p in props) + mind + \
            specs_cost + extras_cost
        cost_reason = ""
    for p in props:
        warnings.extend(p.warnings)
    if creation.kind == "minifig":
        ui = MR.unit_inches_of(profile, rules.army.minifig_unit_inches) if profile is not None and core else 1.0
    elif profile is not None and profile.unit_inches is not None:
        ui = float(profile.unit_inches)
    elif creation.kind in ("loose item", "scenery"):
        ui = 0.0
    else:
        ui = float(size)  # Unit Inches: a Creature's or Vehicle's Size [000 §11.1]
    if riders:
        who = ", ".join(repr(r) for r in riders)
        notes.insert(0, f"ridden by {who} [000 ch.H The Horse]" if creation.kind == "creature" else
                     f"seated: {who} [000 §9.4 Piloting]")
    return StatCard(creation, size_in, size, m.method, level, why, armor, wp_sl, wp_armor, base, weapons, props,
                    power, flying, fit, mind, total, int(math.ceil(total - 1e-9)), warnings, in_space, space_why,
                    skill=skill, move_in=move_in, specialties=list(profile.specialties) if profile else [],
                    extras=extras, unit_inches=ui, notes=notes, mounted_on=mounted_on, cost_reason=cost_reason,
                    riders=list(riders or []))


def _crew(model, creations: list[Creation], ann, rules, diags: list[Diagnostic], graph=None
          ) -> tuple[dict, dict]:
    """Core Rules crew facts that need more than one creation: Pilots at Controls, Gunners at mounted guns
    [000 §11.2], minifigs riding Horses [000 ch.H]; also the ``file:line`` of each minifig's UNIT annotation,
    and a warning there for an unknown specialty, mind die or side."""
    from . import minifig_rules as MR

    if rules.minifig_weapons is None or rules.specialists is None:
        return {}, {}
    MR.animal_units(model, creations, ann)  # UNIT animal=… before a one-piece animal [000 §11.2 The Animal]
    for c in creations:
        if c.kind == "minifig" and c.annotation and not c.annotation_source:
            for fname, line, params in ann.units:
                if params == c.annotation:
                    f = model.files.get(fname)
                    c.annotation_source = f"{f.path if f is not None else fname}:{line}"
                    break
    for c in creations:  # bad annotation values: warnings with file:line [issue #11 Bad input]
        if not c.annotation_source or c.kind not in ("minifig", "creature"):
            continue
        fl, _, ln = c.annotation_source.rpartition(":")
        msgs = MR.mind_profile(c, rules)[3] + (MR.annotated_specialties(c, rules)[1] if c.kind == "minifig" else [])
        if MR.unknown_animal(c, rules):
            msgs.append(MR.unknown_animal(c, rules))
        side = c.annotation.get("side")
        if side is not None and not side.strip():
            msgs.append(f"{c.annotation_source}: empty side=")
        for msg in msgs:
            diags.append(Diagnostic(fl, int(ln) if ln.isdigit() else 0, msg.split(": ", 1)[-1]))
    return MR.crew_specialties(model, creations, rules), MR.riders(model, creations, rules, graph)


def analyse(model, rules: str = "2010", scale: str = "inch", round_mode: str = "nearest", sl: float | None = None,
            overrides: list[str] | None = None, graph: nx.Graph | None = None,
            cache: AnalysisCache | None = None, *, space: bool | None = None, move: str = "default",
            store=None, progress=None) -> Analysis:
    """Graph, creations, roles and a stat card for every creation of a loaded model.

    The result is read from (and written to) the on-disk analysis cache (``store``: an ``AnalysisStore``;
    default the user's cache folder, off with ``BRIKSCAN_NO_ANALYSIS_CACHE=1``) unless ``graph`` or ``cache``
    are given. ``space``: every flyer is a spacecraft (True) or flies in air (False); None: per annotation, else
    by the model's ``!THEME`` (``space_flag``).
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
    # a large model's connections are found by a forked child on the other core while this process loads the
    # rule tables and the box-fitting library the judging needs next (each about half a second of a fresh process)
    from ..forked import Forked

    t0 = time.perf_counter()
    pending = Forked(build_graph, model) if graph is None and len(model.elements) >= FORK_MIN_ELEMENTS else None
    try:
        r = _tables.load_rules(str(rules))  # after the cache: an entry exists only for an edition that loaded
        if pending is not None:
            import_box_library()
    except BaseException:
        if pending is not None:
            pending.cancel()
        raise
    from ..progress import current, phase, steps

    cb = current(progress)
    cache = cache if cache is not None else AnalysisCache()
    with phase("connectivity", cb):
        g = connections_only(graph) if graph is not None else \
            (pending.result() if pending is not None else build_graph(model))
    t1 = time.perf_counter()
    ann = parse_annotations(model)
    diags = list(ann.diagnostics)
    ldu = scale_ldu_per_inch(scale, r)
    with phase("creations and roles", cb):
        creations = find_creations(model, g, ann, overrides, hull_cache=cache.hulls, ldu_per_inch=ldu,
                                   interior_cache=cache.interiors, rules=r, diagnostics=diags)
    held_by_missing(model, creations, diags)
    t2 = time.perf_counter()
    crew, seated = _crew(model, creations, ann, r, diags, g)
    carried: dict[int, list[str]] = {}  # mount -> its riders [000 ch.H], [000 §9.4]
    for fig, (mount, _) in sorted(seated.items()):
        carried.setdefault(mount, []).append(creations[fig].name)
    from . import minifig_rules as MR

    teams = MR.hauled(model, creations, r, g)
    settle_towing(model, creations, carried, teams)
    by_k: dict[int, StatCard] = {}
    # the Horses' cards first: a cart harnessed to them moves with them [000 ch.H]
    for k, c in steps(sorted(enumerate(creations), key=lambda kc: kc[0] in teams), "stat cards", progress=cb):
        team = ([creations[h].name for h in teams[k]], min((by_k[h].move_in for h in teams[k]
                                                             if by_k[h].move_in is not None), default=None)) \
            if k in teams else None
        by_k[k] = stat_card(model, c, r, ldu, round_mode, sl, g, cache, space=space, move=move, crew=crew.get(k),
                            mounted_on=creations[seated[k][0]].name if k in seated else "",
                            mount=(creations[seated[k][0]].kind, seated[k][1]) if k in seated else None,
                            riders=carried.get(k), team=team)
    cards = [by_k[k] for k in range(len(creations))]
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
        "power": _num(card.power), "flying": card.flying, "space": card.space, "space_reason": card.space_reason,
        "weapons_fit": card.weapons_fit,
        "mind_cost": _num(card.mind_cost), "total_cost": _num(card.total_cost),
        "total_cost_rounded": card.total_cost_rounded, "warnings": card.warnings,
        "sections": c.sections, "roles": {str(i): c.roles[i].to_json() for i in c.elements},
        "skill": card.skill or None, "move_in": _num(card.move_in), "side": c.side,
        "specialties": [s.to_json() for s in card.specialties], "extras": [e.to_json() for e in card.extras],
        "unit_inches": _num(card.unit_inches), "notes": card.notes, "cost_reason": card.cost_reason,
        "mounted_on": card.mounted_on or None, "riders": list(getattr(card, "riders", [])),
    }


def analysis_json(analysis: Analysis) -> dict:
    """The ``stats --json`` contract."""
    return {"rules": analysis.rules, "scale": analysis.scale, "scale_ldu_per_inch": analysis.ldu_per_inch,
            "round": analysis.round_mode, "model": str(analysis.model.path),
            "creations": [card_json(c) for c in analysis.cards],
            "warnings": [str(d) for d in analysis.diagnostics]}
