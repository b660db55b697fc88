"""Core Rules units: minifig weapons by length [000 ch.3], Specialists [000 §11.2], Horses [000 ch.H], Vermin
[000 §10.3], Minds by annotation [000 §10.1] and the purchasable extras a model cannot show (cannon ammunition,
turrets, Armor Plating, Energy Shields) [000 ch.8].

Every number is read from the edition's rule tables (``Rules.minifig_weapons``, ``specialists``, ``creatures``,
``extras``); this module measures the model, decides which row applies and says why.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import numpy as np

from ..geometry.boxes import box_gaps
from .connectivity import TOUCH_KINDS
from .creation import Creation
from .measure import _element_points, element_boxes
from .naming import _unit_notes
from .roles import classify_part, is_hitching, is_steed_part, lone_steed, words as _words

CLASSES = ("S", "M", "L")
CONTROL_REACH_LDU = 12.0  # a minifig's hand or body this close to a vehicle's Controls is at them
GUN_REACH_LDU = 24.0  # ... this close to a mounted weapon mans it [000 §8.6 Manning Guns]


@dataclass
class Specialty:
    """One Specialty of a unit, costed from ``rules.specialists`` [000 §11.2]."""

    key: str
    label: str
    specialty: str
    cost: float
    reason: str
    unit_inches: float | None = None  # None: the minifig's own; 0: included with the Vehicle / Horse
    unit_inches_add: float = 0.0

    def to_json(self) -> dict:
        return {"key": self.key, "label": self.label, "specialty": self.specialty, "cost": self.cost,
                "reason": self.reason, "unit_inches": self.unit_inches, "unit_inches_add": self.unit_inches_add}


@dataclass
class Extra:
    """A purchasable extra (an annotation): cannon ammunition, a turret, Armor Plating, Energy Shield dice."""

    kind: str
    name: str
    cost: float | None
    reason: str
    damage: str = ""

    def to_json(self) -> dict:
        return {"kind": self.kind, "name": self.name, "cost": self.cost, "reason": self.reason,
                "damage": self.damage}


@dataclass
class UnitProfile:
    """What a minifig or Creature is beyond its Structure: Skill, Move, Armor, Minds, Specialties, Unit Inches."""

    skill: str = "d6"
    move_in: float | None = None
    armor: str | None = None
    mind_cost: float = 0.0
    mind_reason: str = ""
    specialties: list[Specialty] = field(default_factory=list)
    unit_inches: float | None = None
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    fixed_cost: float | None = None  # a table price (the Horse's 7 CP) that replaces the sum of the parts
    cost_reason: str = ""
    flies: float | None = None  # a Flying Horse: its Move is Flight, for this variety price [000 ch.H Horse Varieties]


def item_length_ldu(model, idx, hulls=None) -> float:
    """Tip-to-tip length of a held item: the largest distance between two of its hull points (a curved bow
    is as long as its string, whichever way it is turned)."""
    pts = _element_points(model, list(idx), hulls)
    if len(pts) < 2:
        return 0.0
    if len(pts) > 1500:
        pts = pts[np.linspace(0, len(pts) - 1, 1500).astype(int)]
    from scipy.spatial.distance import pdist

    return float(pdist(pts).max())


def length_class(length_ldu: float, holder_ldu: float, t) -> str:
    """S, M or L of an item ``length_ldu`` long held by a figure ``holder_ldu`` tall [000 ch.3]."""
    r = length_ldu / holder_ldu
    return "S" if r < t.short_below else ("M" if r <= t.minifig_up_to else "L")


def large_hand_held_class(weapon_size: float, holder_size: float, t) -> str | None:
    """S, M or L of a weapon in a bigger Creation's hands, against the holder's Size; None: too big
    [000 §8.1 Large Hand-Held Weapon Equivalents]."""
    if holder_size <= 0:
        return None
    r = weapon_size / holder_size
    return "S" if r <= t.short_up_to else "M" if r <= t.bastard_up_to else "L" if r <= t.long_up_to else None


def _group_of(creation: Creation, i: int, desc: str, t) -> str | None:
    """The weapon-table group of a held element: melee, ranged, explosive, shield, tool (None: free gear)."""
    r = creation.roles[i]
    wtype = (r.params.get("type") or "").lower()
    if r.role == "weapon":
        if wtype in ("melee", "shield", "explosive"):
            return wtype
        return "ranged"  # guns, bows, rockets, cannons ... in a minifig's hands [000 §3.2]
    words = set(_words(desc))
    if r.role in ("device", "decoration") and words & set(t.tools.words):
        return "tool"
    return None


SIEGE_TYPES = ("cannon", "launcher")  # Vehicle weapons: on a Turret or a carriage, never in hand [000 §8.1 Turrets]


def is_siege_weapon(creation: Creation, i: int) -> bool:
    """A cannon or launcher next to a minifig is a Vehicle weapon he mans, not one of his minifig weapons."""
    r = creation.roles[i]
    return r.role == "weapon" and (r.params.get("type") or "").lower() in SIEGE_TYPES


@dataclass
class HeldItem:
    key: str  # row of rules.minifig_weapons.items
    elements: list[int]
    name: str
    size_class: str
    length_ldu: float
    hands: int
    reason: str
    warnings: list[str] = field(default_factory=list)
    wielded_as: str = ""  # Compensating: the lighter row whose hands and pairing it takes [000 §8.1 The Heavy]


def compensating(specialties, rules):
    """The Specialist row among ``specialties`` that Compensates (the Heavy [000 §8.1 The Heavy]), or None."""
    for s in specialties or []:
        row = rules.specialists.kinds.get(s.key) if rules.specialists is not None else None
        if row is not None and row.wields_as:
            return row
    return None


def held_items(model, creation: Creation, rules, ldu_per_inch: float, hulls=None, *,
               mounted: bool = False, heavy=None) -> list[HeldItem]:
    """The minifig's held equipment as rows of the Core Rules weapon table, measured against its height.

    ``heavy``: the Compensating Specialist row (``compensating``) when the figure is a Heavy: Heavy Weapons are
    wielded as Hand Weapons, Two-Handed as Heavy, Melee Weapons up to Size 4" as Two-Handed and a Size 2" Ranged
    Weapon by hand, when standing still [000 §8.1 The Heavy]."""
    t = rules.minifig_weapons
    examples = t.examples.mapping()
    wields = dict(w.split("=", 1) for w in heavy.wields_as) if heavy is not None else {}
    equipment = creation.sections.get("equipment", [])
    out: list[HeldItem] = []
    parts: dict[str, list[int]] = {}  # a held weapon of several pieces (a hilt and its blade): one item
    for i in sorted(equipment):
        g = creation.roles[i].group if i in creation.roles else ""
        if g.startswith("held:"):
            parts.setdefault(g, []).append(i)
    for i in sorted(equipment):
        g = creation.roles[i].group if i in creation.roles else ""
        pieces = parts.get(g, [i]) if g.startswith("held:") else [i]
        if g.startswith("held:") and g != f"held:{i}":
            continue  # measured with the weapon it is set in
        desc = (model.elements[i].description or model.elements[i].part).strip("~ ")
        group = _group_of(creation, i, desc, t)
        if group is None or is_siege_weapon(creation, i):
            continue
        length = item_length_ldu(model, pieces, hulls)
        cls = length_class(length, t.holder_height_ldu, t)
        ratio = length / t.holder_height_ldu
        why = [f"{length:.0f} LDU long = {ratio:.2f} minifig heights: {cls} [000 ch.3 Minifig Weapons]"]
        warns: list[str] = []
        big_melee = heavy is not None and group == "melee" and length / ldu_per_inch <= heavy.melee_max_size_in
        if ratio > t.too_big_over and big_melee:
            why.append(f"{length / ldu_per_inch:.1f}\" Melee Weapon: a Heavy wields it as a Two-Handed Weapon "
                       "(Compensating, standing still) [000 §8.1 The Heavy]")
        elif ratio > t.too_big_over:
            warns.append(f"{desc}: longer than two minifigs, too big to pick up [000 §3.4 Random Objects]")
        key = t.item(group, cls)
        if group in ("explosive", "tool"):
            key = t.item(group, "S")  # one Explosive row; Minifig-Sized Tools share the Tool's stats [000 §3.4]
        elif group == "shield" and cls == "L":
            key = "heavy_shield"
        elif group == "ranged" and cls == "L":
            key = "long_ranged_weapon"
            if heavy is not None and t.size_of("L") <= rules.minifig.size_in + heavy.larger_by_in:
                why.append(f"a Size {t.size_of('L'):g}\" Ranged Weapon by hand: the Heavy's Compensating "
                           "(standing still) [000 §8.1 The Heavy]")
            elif not rules.large_hand_held.ranged_long_allowed:
                warns.append(f"{desc}: a ranged weapon longer than its holder is not allowed "
                             "[000 §8.1 Large Hand-Held Weapon Equivalents]; priced as a Long-Ranged Weapon")
        ex = next((examples[w] for w in _words(desc) if w in examples), None)
        if ex and ex != key and t.items[ex].group == group:
            step = abs(CLASSES.index(t.items[ex].size_class) - CLASSES.index(cls))
            if step <= 1:
                why.append(f"the rulebook names it a {t.items[ex].label} ({t.items[ex].source}): tie-breaker")
                key = ex
            else:
                why.append(f"the rulebook's {t.items[ex].label} example is {step} classes off: length decides")
        item = t.items[key]
        hands = item.hands
        if key == "short_ranged_weapon" and set(_words(desc)) & set(item.two_handed_words):
            hands = 2
        if group == "tool" and cls != "S":
            hands = 2  # Minifig-Sized Tools need two hands [000 §3.4 Minifig Tools]
        if key == "two_handed_weapon" and mounted and item.mounted_pairs_with and jousts(desc, item):
            hands = 1  # Jousting: a lance in one hand from a mount [000 §3.1], [000 ch.H]
            why.append("mounted: used one-handed as a lance (Jousting)")
        as_key = wields.get(key, "")
        if as_key:  # Compensating: one class lighter in the hands [000 §8.1 The Heavy]
            hands = t.items[as_key].hands
            why.append(f"a Heavy wields a {item.label} as a {t.items[as_key].label} (Compensating, standing "
                       "still) [000 §8.1 The Heavy]")
        out.append(HeldItem(key, pieces, desc, item.size_class if group != "tool" else cls, length, hands,
                            "; ".join(why), warns, as_key))
    return out


def jousts(name: str, item) -> bool:
    """A rider may hold this Two-Handed Weapon in one hand: it has a pointy tip (a lance, a pike), as the rule
    table's words say; a table that names none lets every one [000 §3.1; H.3 Fighting From Horseback]."""
    return not item.jousting_words or bool(set(_words(name)) & set(item.jousting_words))


def pairing_warnings(items: list[HeldItem], rules, mounted: bool = False) -> list[str]:
    """What may be carried together [000 ch.3]: two items pair when either one allows the other. On foot, a lance
    and a shield that would pair on a mount get one warning that says so (Jousting [000 H.3])."""
    t = rules.minifig_weapons
    if not mounted:
        lances = {id(h) for h in items if h.key == "two_handed_weapon" and not h.wielded_as and
                  t.items[h.key].mounted_pairs_with and jousts(h.name, t.items[h.key])}
        if lances and not pairing_warnings([replace(h, hands=1) if id(h) in lances else h for h in items], rules,
                                           True):
            held = " and ".join(f"a {t.items[h.key].label} ({h.name})" for h in items)
            return [f"{held} cannot be carried together on foot (a Two-Handed Weapon takes both hands); a rider "
                    "jousts with the lance in one hand and may hold them together [000 ch.3 Minifig Weapons; H.3 "
                    "Fighting From Horseback]"]
    warns: list[str] = []
    hands = sum(h.hands for h in items)
    if hands > t.max_hands:
        warns.append(f"{len(items)} held items need {hands} hands, a minifig has {t.max_hands} "
                     "(only Zahru Trollarm wields more) [000 ch.3 Minifig Weapons]")

    def allows(a: HeldItem, b: HeldItem) -> bool:
        ia = t.items[a.wielded_as or a.key]  # a Heavy pairs what he wields as the lighter row [000 §8.1]
        ok = list(ia.pairs_with) + (list(ia.mounted_pairs_with) if mounted and jousts(a.name, ia) else [])
        kb = b.wielded_as or b.key
        return kb in ok or t.items[kb].size_class in ok

    for k, a in enumerate(items):
        for b in items[k + 1:]:
            if not (allows(a, b) or allows(b, a)):
                la, lb = t.items[a.key].label, t.items[b.key].label
                warns.append(f"a {la} ({a.name}) and a {lb} ({b.name}) cannot be paired [000 ch.3 Minifig Weapons]")
    return warns


PLATE_WORDS = ["plate", "breastplate", "cuirass"]  # torso armour filed with the head: "Minifig Armour Plate"


def body_armor(model, creation: Creation, rules) -> tuple[str | None, str]:
    """Body Armor from a torso accessory, Heavy Armor with a visored helmet too [000 §3.3 Bodily Protection]."""
    t = rules.minifig_weapons.armor

    def has(section: str, words: list[str]) -> str:
        for i in creation.sections.get(section, []):
            d = model.elements[i].description or ""
            if set(_words(d)) & set(words) and creation.roles[i].role == "crew" and \
                    not model.elements[i].description.lower().lstrip("~").startswith(("minifig torso",
                                                                                      "minifig head ")):
                return d.strip("~ ")
        return ""

    # an armour plate hangs from the neck: the figure finder may file it with the head's gear (shoulder pads
    # there stay free, like epaulettes)
    body = has("torso", t.body_words) or (has("head", t.body_words) if has("head", PLATE_WORDS) else "")
    if not body:
        return None, ""
    visor = has("head", t.visor_words)
    if visor:
        return "heavy_armor", f"'{body}' on the torso with a visored helmet '{visor}': Heavy Armor [000 §3.3]"
    return "body_armor", f"'{body}' on the torso: Body Armor [000 §3.3 Bodily Protection]"


# ------------------------------------------------------------------ annotations: Minds, Specialties, extras

def _split(v: str | None) -> list[str]:
    return [x.strip().lower() for x in re.split(r"[,+/ ]+", v or "") if x.strip()]


def mind_profile(creation: Creation, rules, default_die: str | None = None, half: str | None = None,
                 ) -> tuple[str, float, str, list[str]]:
    """(Skill die, Mind CP, reason, warnings) from ``skill=``/``mind=``, ``minds=N`` or ``minds=d8,d6`` and
    ``half=…`` [000 §10.1 Minds]; without them the edition's default Mind (d6)."""
    ann = creation.annotation
    src = creation.annotation_source or "annotation"
    minds = rules.minds
    default_die = (default_die or minds.default_die).strip().lower()
    warns: list[str] = []
    die = (ann.get("mind") or ann.get("skill") or default_die).strip().lower()
    if die not in minds.dice:
        warns.append(f"{src}: unknown mind die {die!r} (choose {', '.join(minds.dice)}): {default_die} used")
        die = default_die
    half = (ann.get("half") or half or "").strip().lower() or None
    if half and half not in rules.creatures.half_mind_kinds + ["yes", "true", "1"]:
        warns.append(f"{src}: unknown Half Mind {half!r} (choose {', '.join(rules.creatures.half_mind_kinds)})")
        half = None
    if half == "incompetent":
        die = "d4"
    factor = minds.half_mind_factor if half else 1.0
    cost = minds.cost(die) * factor
    why = [f"Mind {die} {minds.cost(die):g} CP" + (f" × {factor:g} (Half Mind: {half})" if half else "")]
    extra = ann.get("minds")
    if extra:
        dice: list[str] = []
        if extra.strip().isdigit():
            dice = [die] * max(0, int(extra) - 1)
        else:
            for d in _split(extra):
                if d in minds.dice:
                    dice.append(d)
                else:
                    warns.append(f"{src}: unknown mind die {d!r} in minds= (choose {', '.join(minds.dice)})")
        for d in dice:
            cost += minds.cost(d)
        if dice:
            why.append("extra Minds " + " + ".join(f"{d} {minds.cost(d):g} CP" for d in dice) +
                       " (one more Action each)")
    arms = ann.get("arms")
    if arms:
        try:
            pairs = float(arms)
            c = pairs * 2 * rules.creatures.minifig_arm_in * rules.creatures.arm_pair_cost_per_in
            cost += c
            why.append(f"{pairs:g} extra pair(s) of minifig arms {c:g} CP")
        except ValueError:
            warns.append(f"{src}: arms={arms!r} is not a number of extra arm pairs")
    return die, cost, "; ".join(why) + " [000 §10.1 Minds]", warns


def annotated_specialties(creation: Creation, rules) -> tuple[list[Specialty], list[str]]:
    """``specialty=hero,scout`` on a UNIT annotation, each costed from the table [000 §11.2]."""
    kinds = rules.specialists.kinds
    src = creation.annotation_source or "annotation"
    out, warns = [], []
    for name in _split(creation.annotation.get("specialty") or creation.annotation.get("specialist")):
        k = name.rstrip("s") if name not in kinds and name.rstrip("s") in kinds else name
        k = {"mechanic": "mechanik", "medic": "medik"}.get(k, k)
        if k not in kinds:
            warns.append(f"{src}: unknown specialty {name!r} (known: {', '.join(sorted(kinds))})")
            continue
        s = kinds[k]
        out.append(Specialty(k, s.label, s.specialty, s.cost, f"annotated ({src}) {s.source}", s.unit_inches,
                             s.unit_inches_add))
    return out, warns


def tool_specialties(model, creation: Creation, rules) -> list[Specialty]:
    """Specialists the rulebook ties to a tool in hand: Mechanik (wrench), Medik (syringe), Scout (optics)."""
    out = []
    held = creation.sections.get("equipment", [])
    for key, s in rules.specialists.kinds.items():
        if not s.tools:
            continue
        for i in held:
            desc = (model.elements[i].description or "").strip("~ ")
            hit = set(_words(desc)) & set(s.tools)
            if hit:
                out.append(Specialty(key, s.label, s.specialty, s.cost,
                                     f"holds '{desc}' ({sorted(hit)[0]}: a {s.label}'s tool) {s.source}",
                                     s.unit_inches, s.unit_inches_add))
                break
    return out


def apply_specialties(profile: UnitProfile, specs: list[Specialty], rules) -> None:
    """Add Specialties (no duplicates) to a minifig profile: Skill, Move, Armor and Unit Inches they change."""
    have = {s.key for s in profile.specialties}
    for s in specs:
        if s.key in have:
            continue
        have.add(s.key)
        profile.specialties.append(s)
        row = rules.specialists.kinds[s.key]
        if row.skill and rules.minds.dice.index(row.skill) > rules.minds.dice.index(profile.skill):
            old = rules.minds.cost(profile.skill)
            profile.mind_cost += rules.minds.cost(row.skill) - old
            profile.mind_reason += f"; {s.label}: Skill {row.skill} (+{rules.minds.cost(row.skill) - old:g} CP)"
            profile.skill = row.skill
        if row.move_in:
            profile.move_in = max(profile.move_in or 0, row.move_in)
        if row.armor:
            profile.armor = row.armor


def unit_inches_of(profile: UnitProfile, base: float) -> float:
    """Ű of a minifig: 1, or 0 when a Specialty is included with its Vehicle or Horse, plus Specialty extras."""
    ui = base
    for s in profile.specialties:
        if s.unit_inches is not None:
            ui = min(ui, s.unit_inches)
    return ui + sum(s.unit_inches_add for s in profile.specialties)


def is_horse(model, creation: Creation, rules) -> str:
    """The animal element's name when the Creature is in the Horse category [000 ch.H], else "": a horse, or a
    moulded dragon ("a Horse ... a small-sized dragon" [000 ch.H]; ``dragon_parts``)."""
    words = set(rules.creatures.horse.words)
    if creation.annotation.get("horse", "").lower() in ("yes", "true", "1"):
        return "annotated horse=yes"
    for i in creation.elements:
        d = model.elements[i].description or ""
        w = _words(d)
        if w[:1] == ["animal"] and words & set(w[:4]):
            return d.strip("~ ")
    dragon = dragon_parts(model, creation, rules)
    return (model.elements[dragon.body[0]].description or "").strip("~ ") if dragon else ""


@dataclass(frozen=True)
class DragonParts:
    """A moulded dragon's animal elements: its body (and limbs, tail), its wings, its head."""

    body: list[int]
    wings: list[int]
    head: list[int]


def dragon_parts(model, creation: Creation, rules) -> DragonParts | None:
    """A moulded dragon's elements, or None when the Creature is none: "a dragon, for instance, is statted as a
    Flying Horse with a FlameThrower in its mouth" [000 §10.3 Monsters]. Its animal parts name a dragon ("Animal
    Dragon Body", "Animal Dragon Wing")."""
    d = rules.creatures.dragon if rules.creatures is not None else None
    if d is None:
        return None
    parts = []
    for i in creation.elements:
        w = _words(model.elements[i].description or "")
        if w[:1] == ["animal"] and set(d.words) & set(w[:4]):
            parts.append((i, set(w)))
    wings = [i for i, w in parts if w & set(d.wing_words)]
    head = [i for i, w in parts if w & set(d.head_words)]
    if not any("body" in w for _, w in parts):
        return None  # a dragon's head and tail on a crocodile's body (6246's) make no dragon: its body does
    return DragonParts([i for i, _ in parts if i not in wings and i not in head], wings, head)


def is_steed(model, creation: Creation) -> str:
    """The one-piece bicycle or motorcycle a Vehicle is (a Steel Horse [000 ch.H]), else "": the test the
    creation's kind was judged by (roles.lone_steed); a car carrying a bicycle is a car."""
    if creation.kind != "vehicle" or not any(is_steed_part(model.elements[i].description or "")
                                             for i in creation.elements):
        return ""  # (the parts are classed only where a bicycle is: speed only)
    classes = {i: classify_part(model.elements[i]) for i in creation.elements}
    steed = lone_steed(model, creation.elements, classes)
    r = creation.roles.get(steed) if steed is not None else None
    return (model.elements[steed].description or "").strip("~ ") if r is not None and r.role == "propulsion" else ""


VERMIN_MAX_OTHERS = 2  # a one-piece animal may rest on a tile or two and still be Vermin (brikscan's judgment)


def one_piece_animal(model, creation: Creation) -> bool:
    """A creature of one moulded animal (perhaps resting on a tile or two)."""
    animals = [i for i in creation.elements if _words(model.elements[i].description)[:1] == ["animal"]]
    return len(animals) == 1 and len(creation.elements) - 1 <= VERMIN_MAX_OTHERS


def is_vermin(model, creation: Creation, size_in: float, rules) -> bool:
    """A one-piece animal as small as the rules' Vermin (a parrot, a snake, a bat; measuring ``size_in``, under the
    table's ``max_in``): Vermin [000 §10.3 Monsters]. A crocodile or a pteranodon in one piece is a Creature."""
    return one_piece_animal(model, creation) and size_in < rules.creatures.vermin.max_in


def animal_profile(creation: Creation, rules) -> UnitProfile | None:
    """A one-piece animal fielded as a unit (``UNIT animal=vermin|venomous|flying``), from the Animals table
    [000 §11.2 The Animal], [000 §10.3 Monsters]; None when not annotated or the kind is unknown."""
    a = rules.creatures.animals
    name = creation.annotation.get("animal")
    if a is None or not name:
        return None
    key = a.kind(name)
    if key is None:
        return None
    row = a.kinds[key]
    src = creation.annotation_source or "annotation"
    p = UnitProfile(skill=row.skill, move_in=row.move_in, armor=row.armor,
                    unit_inches=float(rules.creatures.vermin.unit_inches))
    p.fixed_cost = float(row.cost)
    p.cost_reason = f"fielded as {row.label} (annotated animal={name}, {src}): {row.cost:g} CP {row.source}"
    p.notes.append(f"{row.label}: Skill {row.skill}, Move {row.move_in:g}\" ({row.movement}), Armor {row.armor}, "
                   f"{row.attack} Use {row.attack_use:g}, Damage {row.attack_damage} {row.source}")
    return p


def unknown_animal(creation: Creation, rules) -> str:
    """The warning for an ``animal=`` value the Animals table does not have ("" when fine)."""
    a = rules.creatures.animals
    name = creation.annotation.get("animal")
    if a is None or not name or a.kind(name):
        return ""
    return f"{creation.annotation_source or 'annotation'}: unknown animal {name!r} (choose {', '.join(a.kinds)})"


def animal_units(model, creations: list[Creation], ann) -> None:
    """``0 !BRIKSCAN UNIT animal=… name=… side=…`` before an animal's part: that Creature's annotation."""
    notes = _unit_notes(model, ann)
    if not notes:
        return
    for c in creations:
        if c.kind != "creature" or c.annotation:
            continue
        for i in c.structural_elements or c.elements:
            params = next((notes[link] for link in model.elements[i].refs[::-1] if link in notes), None)
            if params is None:
                continue
            c.annotation = dict(params)
            for fname, line, p in ann.units:
                if p == params:
                    f = model.files.get(fname)
                    c.annotation_source = f"{f.path if f is not None else fname}:{line}"
                    break
            c.name = params.get("name") or c.name
            c.side = params.get("side") or c.side
            break


def horse_barding(model, creation: Creation) -> str:
    """The Horse Armor a horse wears, from the annotation (``barding=body|heavy``) or else from its parts: a
    barding covers its body, Horse Body Armor; with a head armour too, body and head, Horse Heavy Armor
    [000 ch.H Horse Armor]. "" when it wears none."""
    said = (creation.annotation.get("barding") or "").lower()
    if said:
        return said
    worn = [set(_words(model.elements[i].description or "")) for i in creation.elements]
    if not any("barding" in w for w in worn):
        return ""
    return "heavy" if any("head" in w and w & {"armour", "armor"} for w in worn) else "body"


def horse_profile(creation: Creation, rules, steel: bool = False, barding: str | None = None,
                  wings: bool = False) -> UnitProfile:
    """The Horse: Size 2, SL ½, Move 10", Half Mind, free natural attack, 7 CP [000 ch.H], varieties and armour
    by annotation (``variety=steel|flying|gun``, ``barding=body|heavy``) or by what it wears (``barding``, from
    ``horse_barding``). ``steel``: a one-piece bicycle or motorcycle, a Steel Horse unless annotated otherwise;
    ``wings``: a dragon with its wings, a Flying Horse unless annotated otherwise [000 §10.3 Monsters]."""
    h = rules.creatures.horse
    src = creation.annotation_source or "annotation"
    p = UnitProfile(skill=h.mind_die, move_in=h.move_in, armor=h.armor,
                    mind_cost=rules.minds.cost(h.mind_die) * rules.minds.half_mind_factor,
                    mind_reason=f"Half Mind ({h.half_mind}) {h.mind_die} [000 §10.1 Minds]", unit_inches=h.size)
    cost = h.cost
    why = [f"a Horse is {h.cost:g} CP {h.source}"]
    variety = _split(creation.annotation.get("variety")) or (["steel"] if steel else []) or \
        (["flying"] if wings else [])
    key = "_".join(sorted(variety, key=lambda v: ("steel", "flying", "gun").index(v)
                          if v in ("steel", "flying", "gun") else 9))
    if variety:
        if "steel" in variety and "flying" in variety:
            add = float(h.varieties["steel_flying"]) + (float(h.varieties["gun"]) if "gun" in variety else 0)
        else:
            add = 0.0
            for v in variety:
                if v in h.varieties and v != "source":
                    add += float(h.varieties[v])
                else:
                    p.warnings.append(f"{src}: unknown Horse variety {v!r} (steel, flying, gun)")
        cost += add
        why.append(f"{key.replace('_', ' ')} Horse +{add:g} CP {h.varieties['source']}")
        if "steel" in variety:
            p.armor, p.mind_cost, p.mind_reason = "1d10", 0.0, "a Steel Horse has no Mind [000 ch.H]"
        if "flying" in variety:
            p.flies = float(h.varieties["steel_flying" if "steel" in variety else "flying"])
    if barding is None:
        barding = (creation.annotation.get("barding") or "").lower()
    if barding:
        if barding in h.armor_options and barding != "source":
            cost += float(h.armor_options[barding])
            worn = "" if creation.annotation.get("barding") else \
                " (it wears a barding" + (" and a head armour)" if barding == "heavy" else ")")
            why.append(f"Horse {barding.title()} Armor{worn} +{float(h.armor_options[barding]):g} CP "
                       f"{h.armor_options['source']}")
            p.armor = "1d10" if barding == "body" else p.armor + " + Deflection"
        else:
            p.warnings.append(f"{src}: unknown Horse armor {barding!r} (body, heavy)")
    p.fixed_cost = cost
    p.cost_reason = "; ".join(why)
    if "steel" not in variety:  # a machine has no kick or bite [000 ch.H Steel Horse]
        p.notes.append(f"Unarmed Attack: Use {h.attack_use:g}, CC, Damage {h.attack_damage}, free (kick or bite) "
                       "[000 ch.H Horse Weapons]")
    return p


def cannon_ammo(cannon_size: float, spec: str, rules, src: str = "annotation") -> tuple[list[Extra], list[str]]:
    """``ammo=2,1``: one Explosive ammunition type per XSize, each up to the cannon's Size [000 §8.4 Cannons]."""
    a = rules.extras.ammo
    out, warns = [], []
    for k, x in enumerate(_split(spec), start=1):
        try:
            xs = float(x)
        except ValueError:
            warns.append(f"{src}: ammo={spec!r}: {x!r} is not an XSize")
            continue
        top = a.max_xsize_per_cannon_size * cannon_size
        if xs > top:
            warns.append(f"ammunition XSize {xs:g} exceeds the cannon's Size {cannon_size:g} [000 §8.4 Cannons]")
            out.append(Extra("ammo", f"ammunition {k}", None, f"XSize {xs:g} > cannon Size {cannon_size:g}: not "
                             "allowed [000 §8.4 Cannons]"))
            continue
        out.append(Extra("ammo", f"ammunition {k}", a.cost_per_xsize * xs,
                         f"an Explosive of XSize {xs:g} ≤ the cannon's Size {cannon_size:g}: {xs:g} CP "
                         f"{a.source}", f"{xs:g}d{a.damage_die} Exp"))
    return out, warns


def creation_extras(creation: Creation, size: int, rules) -> tuple[list[Extra], list[str]]:
    """Turrets, Armor Plating and Energy Shields annotated on a CREATION (``turrets=small,large``,
    ``plating=3``, ``shields=2``), and paired mods (``mods=…``) [000 ch.8], [000 §11.1]."""
    e = rules.extras
    ann = creation.annotation
    src = creation.annotation_source or "annotation"
    out, warns = [], []
    for t in _split(ann.get("turrets") or ann.get("turret")):
        row = {"small": e.turret_small, "large": e.turret_large}.get(t)
        if row is None:
            warns.append(f"{src}: unknown turret {t!r} (small, large)")
            continue
        out.append(Extra("turret", f"{t} turret", row.cost, f"holds {row.max_weapon_in:g} weapon inches "
                                                             f"{row.source}"))
    if ann.get("plating"):
        try:
            s = float(ann["plating"])
            out.append(Extra("armor_plating", f"Armor Plating Size {s:g}",
                             e.armor_plating.cost_per_size * s + e.armor_plating.cost_add,
                             f"(Size)+1 CP; Deflection over the covered area, Half Speed {e.armor_plating.source}"))
        except ValueError:
            warns.append(f"{src}: plating={ann['plating']!r} is not a Size")
    if ann.get("shields"):
        try:
            n = float(ann["shields"])
            field_size = float(ann.get("shield_size") or size)
            out.append(Extra("energy_shield", f"{n:g} Energy Shield dice",
                             e.energy_shield.cost_per_die_per_field_size * field_size * n,
                             f"Field Size {field_size:g} × {n:g} dice CP; 1\" of Power per die "
                             f"{e.energy_shield.source}"))
        except ValueError:
            warns.append(f"{src}: shields={ann['shields']!r} is not a number of dice")
    mods = _split(ann.get("mods"))
    if mods:
        if len(mods) % 2:
            warns.append(f"{src}: mods={ann['mods']!r}: mods come in pairs, each negative pays for a positive "
                         f"{e.mods.source}")
        out.append(Extra("mods", ", ".join(mods), 0.0, f"paired mods cost nothing {e.mods.source}"))
    return out, warns


# ------------------------------------------------------------------ crew at the controls

def _gap(lo_a, hi_a, lo_b, hi_b) -> float:
    """Smallest box-to-box gap between two element sets (0 when touching)."""
    if not len(lo_a) or not len(lo_b):
        return float("inf")
    return float(box_gaps(lo_a[:, None], hi_a[:, None], lo_b[None], hi_b[None]).min())


def crew_specialties(model, creations: list[Creation], rules) -> dict[int, list[Specialty]]:
    """Minifigs at a Vehicle's Controls are Pilots, at a mounted weapon Gunners [000 §11.2], [000 §8.6]:
    index of the minifig creation -> its Specialties."""
    kinds = rules.specialists.kinds
    pilot = next((k for k, s in kinds.items() if s.controls == "vehicle"), None)
    gunner = next((k for k, s in kinds.items() if s.controls == "weapon"), None)
    hosts = []
    for c in creations:
        if c.kind not in ("vehicle", "building", "creature"):
            continue
        ctrl = [i for i in c.elements if c.roles[i].role == "device" and
                ("controls" in c.roles[i].reason.lower() or c.roles[i].params.get("type") == "controls")]
        guns = [i for i in c.elements if c.roles[i].role == "weapon"]
        hosts.append((c, element_boxes(model, ctrl) if ctrl and c.kind == "vehicle" else None,
                      element_boxes(model, guns) if guns else None))
    out: dict[int, list[Specialty]] = {}
    for k, c in enumerate(creations):
        if c.kind != "minifig":
            continue
        hands = c.sections.get("hands") or c.sections.get("torso") or c.elements
        lo, hi = element_boxes(model, hands)
        got = []
        for host, ctrl, guns in hosts:
            if pilot and ctrl is not None and _gap(lo, hi, *ctrl) <= CONTROL_REACH_LDU:
                s = kinds[pilot]
                got.append(Specialty(pilot, s.label, s.specialty, s.cost, f"at the Controls of {host.name!r} "
                                     f"{s.source}", s.unit_inches, s.unit_inches_add))
            elif gunner and guns is not None and _gap(lo, hi, *guns) <= GUN_REACH_LDU and host.kind != "creature":
                s = kinds[gunner]
                got.append(Specialty(gunner, s.label, s.specialty, s.cost, f"mans a mounted weapon of "
                                     f"{host.name!r} {s.source}", s.unit_inches, s.unit_inches_add))
            if got:
                break
        if got:
            out[k] = got
    return out


SEAT_WORDS = {"saddle", "seat"}  # the Controls a rider sits on: a Horse's saddle [000 ch.H], a vehicle seat
SEAT_CONTACT_LDU = 4.0  # the rider's hips or legs this close to the seat's surface sit on it
SEAT_MARGIN_LDU = 10.0  # ... with his hips above the seat, over its footprint (this much to spare)


def _vertices(model, idx) -> np.ndarray:
    """World vertices of the elements' triangles (their surfaces, for contact)."""
    chunks = [np.asarray(model.mesh.element_triangles(i), dtype=float).reshape(-1, 3) for i in idx]
    chunks = [c for c in chunks if len(c)]
    return np.concatenate(chunks) if chunks else np.zeros((0, 3))


def _seats(model, creations: list[Creation], rules) -> list[tuple[int, int, str]]:
    """(creation index, seat element, what it is) of every saddle or seat on a Creature or Vehicle; a Horse
    without a saddle is ridden bareback on its body."""
    out = []
    for k, c in enumerate(creations):
        if c.kind not in ("creature", "vehicle"):
            continue
        seats = [i for i in c.elements if set(_words(model.elements[i].description)) & SEAT_WORDS]
        if not seats and c.kind == "creature" and is_horse(model, c, rules):
            seats = list(c.structural_elements or c.elements)
        out += [(k, i, (model.elements[i].description or model.elements[i].part).strip("~ ")) for i in seats]
    return out


def _seated(model, legs: list[int]) -> bool:
    """A sitting minifig: its legs' long axis lies level (thighs forward), not upright [000 ch.2]."""
    for i in legs:
        d = (model.elements[i].description or "").lower()
        if "leg" in d and "hips" not in d:
            down = np.asarray(model.elements[i].transform, dtype=float)[:3, :3] @ np.array([0.0, 1.0, 0.0])
            return abs(float(down[1])) < 0.5
    return False


def riders(model, creations: list[Creation], rules, graph=None) -> dict[int, tuple[int, str]]:
    """Minifigs sitting in a saddle or a seat: minifig index -> (index of the mount, why).

    A rider's hips or legs touch the seat (a graph edge, or within ``SEAT_CONTACT_LDU`` of its surface) from
    above, over its footprint: the saddle is a Horse's Controls [000 ch.H The Horse], a seat a Vehicle's
    [000 §9.4 Piloting]. Any minifig may ride [000 §11.2 The Rider]: no Specialty is implied."""
    from scipy.spatial import cKDTree

    named = _seats(model, creations, rules)
    out: dict[int, tuple[int, str]] = {}
    # a seated figure (thighs level) on a Vehicle sits in it, on whatever its seat is built of (a bench plate)
    vehicle = [(k, i, (model.elements[i].description or model.elements[i].part).strip("~ ") + " (seated pose)")
               for k, c in enumerate(creations) if c.kind == "vehicle" for i in c.elements]
    if not named and not vehicle:
        return out
    trees: dict[int, object] = {}
    all_lo, all_hi = element_boxes(model, range(len(model.elements)))
    for k, c in enumerate(creations):
        if c.kind != "minifig":
            continue
        legs = c.sections.get("legs") or []
        if not legs:
            continue
        seats = named + (vehicle if _seated(model, legs) else [])
        if not seats:
            continue
        idx = [i for _, i, _ in seats]
        slo, shi = all_lo[idx], all_hi[idx]
        lo, hi = element_boxes(model, legs)
        llo, lhi = lo.min(axis=0), hi.max(axis=0)
        gaps = box_gaps(slo, shi, llo, lhi)
        hips = [i for i in legs if "hips" in (model.elements[i].description or "").lower()] or legs
        hc = np.mean([(np.asarray(model.elements[i].bbox_min) + np.asarray(model.elements[i].bbox_max)) / 2
                      for i in hips], axis=0)
        pts = None
        best = None
        for n in np.argsort(gaps):
            if gaps[n] > SEAT_CONTACT_LDU:
                break
            mk, seat, what = seats[n]
            # sitting: hips above the seat's middle (-Y is up), over its footprint
            mid = (slo[n] + shi[n]) / 2
            if hc[1] >= mid[1] or np.any(hc[[0, 2]] < slo[n][[0, 2]] - SEAT_MARGIN_LDU) or \
                    np.any(hc[[0, 2]] > shi[n][[0, 2]] + SEAT_MARGIN_LDU):
                continue
            if graph is not None and any(graph.has_edge(i, seat) for i in legs):
                best = (mk, f"hips/legs connected to '{what}'")
                break
            if pts is None:
                pts = _vertices(model, legs)
            if seat not in trees:
                v = _vertices(model, [seat])
                trees[seat] = cKDTree(v) if len(v) else None
            tree = trees[seat]
            if tree is None or not len(pts):
                continue
            d = float(tree.query(pts, k=1)[0].min())
            if d <= SEAT_CONTACT_LDU:
                best = (mk, f"sits on '{what}' (hips/legs {d:.1f} LDU from it)")
                break
        if best is not None:
            out[k] = best
    return out


def _yoked(model, graph, horse: list[int], cart: set[int]) -> bool:
    """A piece of the ``cart`` is built onto the Horse's back by a connector (a yoke plate on its studs): above the
    lower third of the piece of the Horse it joins (LDraw -Y is up; a horse's head stands higher than its back).
    A Horse standing on a trailer's deck is its load, joined at its hooves."""
    els = model.elements
    for i in horse:
        if i not in graph:
            continue
        low = float(els[i].bbox_max[1]) - (float(els[i].bbox_max[1]) - float(els[i].bbox_min[1])) / 3
        for j in graph.neighbors(i):
            if j in cart and graph.edges[i, j].get("kind") not in TOUCH_KINDS and \
                    (float(els[j].bbox_min[1]) + float(els[j].bbox_max[1])) / 2 < low:
                return True
    return False


HITCH_REACH_LDU = 4.0  # a Horse this close to a cart's hitching is harnessed to it


def hauled(model, creations: list[Creation], rules, graph=None) -> dict[int, list[int]]:
    """Carts and chariots a Horse is harnessed to: vehicle index -> the indices of the Horses touching its
    hitching (the shafts), or built onto it by a connector (a yoke plate on the team's backs, 6056's, not in
    ../shared; ``graph``: the model's connections). "A properly harnessed Horse or team of Horses can haul a
    wheeled cart or chariot" [000 ch.H The Horse]: the cart moves with its team, its wheels are no motor of its
    own."""
    if rules.creatures is None:
        return {}
    horses = [k for k, c in enumerate(creations) if c.kind == "creature" and is_horse(model, c, rules)]
    if not horses:
        return {}
    out: dict[int, list[int]] = {}
    for k, c in enumerate(creations):
        if c.kind != "vehicle":
            continue
        team = set()
        hitches = [i for i in c.elements if is_hitching(model.elements[i])]
        if hitches:
            lo, hi = element_boxes(model, hitches)
            team = {h for h in horses if _gap(lo, hi, *element_boxes(model, creations[h].elements)) <= HITCH_REACH_LDU}
        if graph is not None:
            team |= {h for h in horses if _yoked(model, graph, creations[h].elements, set(c.elements))}
        if team:
            out[k] = sorted(team)
    return out


def mounts(model, creations: list[Creation], rules, graph=None) -> dict[int, str]:
    """Minifigs sitting on a mount or in a seat: index of the minifig creation -> the mount's name."""
    return {k: creations[m].name for k, (m, _) in riders(model, creations, rules, graph).items()}
