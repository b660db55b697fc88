"""Core Rules units: every row of the Chapter 3 minifig weapon table, length classes with the rulebook's examples
as tie-breakers, pairing, armour, Specialists, Minds (Professor Monkeyhead), the Horse, Vermin and cannon
ammunition [000 ch.3, ch.H, §8.4, §10.1, §10.3, §11.2]."""
from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pytest

from brikscan.analysis import minifig_rules as MR
from brikscan.analysis.creation import Creation
from brikscan.analysis.roles import RoleDecision
from brikscan.rules.tables import load_rules
from conftest import EXAMPLES, LIBRARY_ZIP, MODELS_DIR, NO_SHARED, needs_shared

R = load_rules("2010")
T = R.minifig_weapons

# ------------------------------------------------------------------ the table itself [000 ch.3]

# (row, size class, cost, use, range, damage for a d6 minifig) as printed in Chapter Three
CHAPTER_3 = [
    ("hand_weapon", "S", 2, 2, None, "1d6"),
    ("heavy_weapon", "M", 3, 3, None, "1d6+2"),
    ("two_handed_weapon", "L", 4, 4, None, "2d6"),
    ("short_ranged_weapon", "S", 3, 3, 6, "1d6"),
    ("long_ranged_weapon", "M", 5, 3, 10, "1d6+1"),
    ("explosive", "S", 1, 1, 3, "1d10 Exp (2\" radius)"),
    ("shield", "S", 1, 2, None, "Deflecting Parry"),
    ("heavy_shield", "M", 1, 3, None, "Deflecting Parry"),
    ("minifig_tool", "S", 1, 3, None, "1d6-1"),
    ("random_object", "S", 0, 4, None, "1d6-2"),
    ("bare_hands", "S", 0, 0, None, "Shove 2\" or Grab"),
    ("body_armor", "S", 1, None, None, "Armor +2"),
    ("heavy_armor", "M", 2, None, None, "Deflection"),
]


@pytest.mark.parametrize("key,cls,cost,use,rng,dmg", CHAPTER_3, ids=[r[0] for r in CHAPTER_3])
def test_chapter_3_row(key, cls, cost, use, rng, dmg):
    row = T.items[key]
    assert (row.size_class, row.cost, row.use, row.range_in, row.damage("d6")) == (cls, cost, use, rng, dmg)
    assert row.source.startswith("[000 §3.")


def test_close_combat_damage_follows_the_holders_skill():
    # Close Combat damage is rated in the holder's Skill dice [000 §3.1]: a Hero (d10) swings 2d10
    assert T.items["two_handed_weapon"].damage("d10") == "2d10"
    assert T.items["heavy_weapon"].damage("d8") == "1d8+2"
    assert T.items["long_ranged_weapon"].damage("d10") == "1d6+1"  # ranged damage does not


def test_heavy_armor_gives_deflection_and_half_speed():
    h = T.items["heavy_armor"]
    assert h.deflection and h.half_speed and not T.items["body_armor"].deflection


# ------------------------------------------------------------------ held items on a stub figure

class _Mesh:
    def __init__(self, lengths):
        self.lengths = lengths

    def element_triangles(self, i):
        L = self.lengths.get(i, 0.0)
        if not L:
            return np.zeros((0, 3, 3))
        return np.array([[[0, 0, 0], [0, -L, 0], [2, -L / 2, 0]]], dtype=float)


def _figure(items: list[tuple[str, float, str, str]], worn: list[tuple[str, str]] = ()):
    """A stub model + minifig Creation holding ``items`` (description, length LDU, role, type) and wearing
    ``worn`` (description, section)."""
    els, lengths, roles, sections = [], {}, {}, {"equipment": [], "torso": [], "head": [], "hands": []}
    for desc, L, role, wtype in items:
        i = len(els)
        els.append(SimpleNamespace(index=i, description=desc, part=f"p{i}.dat", transform=np.eye(4),
                                   bbox_min=(0, -L, 0), bbox_max=(2, 0, 0)))
        lengths[i] = L
        roles[i] = RoleDecision(role, "carried by the minifig", "minifig", {"type": wtype} if wtype else {})
        sections["equipment"].append(i)
    for desc, sec in worn:
        i = len(els)
        els.append(SimpleNamespace(index=i, description=desc, part=f"p{i}.dat", transform=np.eye(4),
                                   bbox_min=(0, 0, 0), bbox_max=(1, 1, 1)))
        roles[i] = RoleDecision("crew", "worn by the minifig", "minifig")
        sections[sec].append(i)
    model = SimpleNamespace(elements=els, mesh=_Mesh(lengths))
    c = Creation("fig", "minifig", list(range(len(els))), [], roles, sections=sections)
    return model, c


# (description, length in LDU, role, type) -> the row, with the reason it gets there
HELD = [
    ("Minifig Sword Shortsword", 80, "weapon", "melee", "hand_weapon"),  # S: about a brick shorter [000 §3.1]
    ("Minifig Sword Cutlass", 76, "weapon", "melee", "hand_weapon"),
    ("Minifig Battleaxe", 122, "weapon", "melee", "heavy_weapon"),  # M by length, and by example
    ("Minifig Spear with Round End", 146, "weapon", "melee", "heavy_weapon"),  # L by length: example wins
    ("Minifig Sword Katana", 112, "weapon", "melee", "heavy_weapon"),
    ("Minifig Lance", 176, "weapon", "melee", "two_handed_weapon"),
    ("Minifig Chainsaw Blade", 70, "weapon", "melee", "heavy_weapon"),  # S by length, a Heavy Weapon by example
    ("Minifig Sword Greatsword", 150, "weapon", "melee", "two_handed_weapon"),  # longer than a minifig: L
    ("Minifig Gun Flintlock Pistol", 42, "weapon", "gun", "short_ranged_weapon"),
    ("Minifig Crossbow", 67, "weapon", "gun", "short_ranged_weapon"),
    ("Minifig Gun Musket", 110, "weapon", "gun", "long_ranged_weapon"),
    ("Minifig Bow with Arrow", 90, "weapon", "gun", "long_ranged_weapon"),  # the height of a minifig: a longbow
    ("Minifig Dynamite Sticks", 30, "weapon", "explosive", "explosive"),
    ("Minifig Shield Triangular", 46, "weapon", "shield", "shield"),
    ("Minifig Shield Riot", 100, "weapon", "shield", "heavy_shield"),
    ("Minifig Tool Mallet", 60, "device", "", "minifig_tool"),
    ("Minifig Frypan", 45, "decoration", "", "minifig_tool"),
]


@pytest.mark.parametrize("desc,L,role,wtype,row", HELD, ids=[h[0] for h in HELD])
def test_held_item_row(desc, L, role, wtype, row):
    model, c = _figure([(desc, L, role, wtype)])
    items = MR.held_items(model, c, R, 63.5)
    assert [it.key for it in items] == [row], items[0].reason if items else "not priced"
    assert "[000 ch.3" in items[0].reason


def test_tie_breaker_only_one_class_off():
    # a 150 LDU "knife" is L, two classes from the example's S: length decides
    model, c = _figure([("Minifig Knife Giant", 150, "weapon", "melee")])
    it = MR.held_items(model, c, R, 63.5)[0]
    assert it.key == "two_handed_weapon" and "length decides" in it.reason
    # a 250 LDU spear is still a spear (one class off) but longer than two minifigs: too big [000 §3.4]
    model, c = _figure([("Minifig Spear Giant", 250, "weapon", "melee")])
    it = MR.held_items(model, c, R, 63.5)[0]
    assert it.key == "heavy_weapon" and any("too big to pick up" in w for w in it.warnings)


def test_shortbow_and_minifig_sized_tools_take_two_hands():
    model, c = _figure([("Minifig Bow Short", 70, "weapon", "gun"), ("Minifig Tool Oar", 120, "device", "")])
    a, b = MR.held_items(model, c, R, 63.5)
    assert (a.key, a.hands) == ("short_ranged_weapon", 2)
    assert (b.key, b.hands) == ("minifig_tool", 2)


def test_a_long_ranged_weapon_longer_than_the_holder_is_not_allowed():
    model, c = _figure([("Minifig Gun Harpoon Cannon", 160, "weapon", "gun")])
    it = MR.held_items(model, c, R, 63.5)[0]
    assert it.key == "long_ranged_weapon" and any("not allowed" in w for w in it.warnings)


PAIRS = [
    (["Minifig Sword Shortsword", "Minifig Shield Triangular"], False, True),  # a sword and shield
    (["Minifig Crossbow", "Minifig Knife"], False, True),  # a crossbow and knife
    (["Minifig Gun Flintlock Pistol", "Minifig Gun Revolver"], False, True),  # a pair of revolvers
    (["Minifig Sword Shortsword", "Minifig Shield Riot"], False, True),  # Short + Heavy Shield
    (["Minifig Battleaxe", "Minifig Shield Triangular"], False, True),  # Heavy Weapon + Shield
    (["Minifig Battleaxe", "Minifig Sword Shortsword"], False, False),  # Heavy Weapon + a second weapon
    (["Minifig Gun Musket", "Minifig Knife"], False, False),  # Long-Ranged: two-handed
    (["Minifig Lance", "Minifig Shield Triangular"], False, False),  # L on foot: never paired
    (["Minifig Lance", "Minifig Shield Triangular"], True, True),  # Jousting from a mount
]
_LEN = {"Minifig Sword Shortsword": (80, "melee"), "Minifig Shield Triangular": (46, "shield"),
        "Minifig Crossbow": (67, "gun"), "Minifig Knife": (40, "melee"), "Minifig Gun Flintlock Pistol": (42, "gun"),
        "Minifig Gun Revolver": (40, "gun"), "Minifig Shield Riot": (100, "shield"),
        "Minifig Battleaxe": (122, "melee"), "Minifig Gun Musket": (110, "gun"), "Minifig Lance": (176, "melee")}


@pytest.mark.parametrize("names,mounted,ok", PAIRS, ids=[" + ".join(p[0]) + (" mounted" if p[1] else "")
                                                         for p in PAIRS])
def test_pairing_rules(names, mounted, ok):
    model, c = _figure([(n, _LEN[n][0], "weapon", _LEN[n][1]) for n in names])
    items = MR.held_items(model, c, R, 63.5, mounted=mounted)
    warns = MR.pairing_warnings(items, R, mounted)
    assert (not warns) == ok, warns


def test_a_lance_and_a_shield_on_foot_say_a_rider_may_hold_them():
    """6080's knights (not in ../shared) stand beside their horses with a lance and a shield: two warnings said
    they need three hands and "cannot be paired". On foot they cannot; a rider jousts with the lance in one hand
    and may hold a shield [000 ch.3; H.3 Fighting From Horseback]: one warning that says both."""
    model, c = _figure([(n, _LEN[n][0], "weapon", _LEN[n][1]) for n in ("Minifig Lance", "Minifig Shield Triangular")])
    warns = MR.pairing_warnings(MR.held_items(model, c, R, 63.5), R)
    assert len(warns) == 1 and "on foot" in warns[0] and "jousts" in warns[0] and "H.3" in warns[0], warns
    # a lance, a shield and a sword are too many even on a horse: the plain warnings
    model, c = _figure([(n, _LEN[n][0], "weapon", _LEN[n][1]) for n in
                        ("Minifig Lance", "Minifig Shield Triangular", "Minifig Sword Shortsword")])
    warns = MR.pairing_warnings(MR.held_items(model, c, R, 63.5), R)
    assert warns and not any("jousts" in w for w in warns), warns
    # only a pointy Two-Handed Weapon is a lance: a whip takes both hands on a horse too [000 §3.1]
    model, c = _figure([("Minifig Whip", 176, "weapon", "melee"), ("Minifig Gun Revolver", 40, "weapon", "gun")])
    for mounted in (False, True):
        items = MR.held_items(model, c, R, 63.5, mounted=mounted)
        assert [h.key for h in items] == ["two_handed_weapon", "short_ranged_weapon"], [h.key for h in items]
        warns = MR.pairing_warnings(items, R, mounted)
        assert warns and not any("jousts" in w for w in warns), (mounted, warns)


def test_three_hands_full_is_a_warning():
    model, c = _figure([("Minifig Sword Shortsword", 80, "weapon", "melee")] * 3)
    assert any("hands" in w for w in MR.pairing_warnings(MR.held_items(model, c, R, 63.5), R))


def test_body_and_heavy_armor_from_torso_accessories():
    model, c = _figure([], [("Minifig Armour Breastplate", "torso")])
    assert MR.body_armor(model, c, R)[0] == "body_armor"
    model, c = _figure([], [("Minifig Armour Breastplate", "torso"), ("Minifig Helmet Visor", "head")])
    assert MR.body_armor(model, c, R)[0] == "heavy_armor"
    model, c = _figure([], [("Minifig Helmet Visor", "head")])
    assert MR.body_armor(model, c, R)[0] is None  # a helmet alone is free


def test_large_hand_held_equivalents():
    # [000 §8.1]: up to 1x the holder's Size Short, 1.5x Bastard, 2x Long, beyond too big
    lh = R.large_hand_held
    assert [MR.large_hand_held_class(s, 4, lh) for s in (3, 4, 5, 6, 8, 9)] == ["S", "S", "M", "M", "L", None]


# ------------------------------------------------------------------ Minds, Specialists, creatures

def _annotated(**ann) -> Creation:
    return Creation("u", "minifig", [], annotation={k: str(v) for k, v in ann.items()},
                    annotation_source="army.ldr:7")


def test_professor_monkeyhead_is_10_cp():
    # a minifig (4 CP) with a d10 Mind (+3) and two extra Minds d8 (+2) and d6 (+1): 10 CP [000 §10.1]
    die, mind, why, warns = MR.mind_profile(_annotated(mind="d10", minds="d8,d6"), R)
    body = R.minifig.size_in * R.minifig.sl + R.minifig.move_in / 2
    assert (die, mind, warns) == ("d10", 7.0, [])
    assert body + mind == 10


def test_mind_dice_and_count():
    assert MR.mind_profile(_annotated(mind="d8", minds=2), R)[1] == 4.0  # two d8 Minds
    assert MR.mind_profile(_annotated(half="submissive"), R)[1] == 0.5
    assert MR.mind_profile(_annotated(half="incompetent"), R)[:2] == ("d4", 0.25)


def test_unknown_mind_die_and_specialty_warn_with_file_and_line():
    warns = MR.mind_profile(_annotated(mind="d7"), R)[3]
    assert warns and warns[0].startswith("army.ldr:7: unknown mind die")
    specs, warns = MR.annotated_specialties(_annotated(specialty="wizard"), R)
    assert not specs and warns[0].startswith("army.ldr:7: unknown specialty 'wizard'")


def test_hero_by_annotation_costs_11():
    # Hero: d10 Skill, Move 7", Armor 2d6, Heroic Ego +3 CP: 11 CP [000 §6.1], 2 Ű [000 §11.2]
    p = MR.UnitProfile(move_in=R.minifig.move_in)
    p.skill, p.mind_cost, p.mind_reason, _ = MR.mind_profile(_annotated(), R)
    specs, _ = MR.annotated_specialties(_annotated(specialty="hero"), R)
    MR.apply_specialties(p, specs, R)
    total = R.minifig.size_in * R.minifig.sl + p.move_in / 2 + p.mind_cost + sum(s.cost for s in p.specialties)
    assert (p.skill, p.move_in, p.armor, total) == ("d10", 7, "2d6", 11)
    assert MR.unit_inches_of(p, 1) == 2


def test_specialists_from_their_tools():
    model, c = _figure([("Minifig Tool Box Wrench", 48, "device", ""), ("Minifig Tool Binoculars", 30, "device", "")])
    keys = sorted(s.key for s in MR.tool_specialties(model, c, R))
    assert keys == ["mechanik", "scout"]
    costs = {s.key: s.cost for s in MR.tool_specialties(model, c, R)}
    assert costs == {"mechanik": 1, "scout": 2}  # [000 §11.2]: Mechanikal Aptitude +1, Pathfinding+Tracking +2


def test_the_horse_is_7_cp():
    h = R.creatures.horse
    # Size 2 x SL 1/2 = 1, Move 10" = 5, Half Mind 1/2: 6.5, listed as 7 CP [000 §10.1 Half-Mind Example]
    assert h.size * h.sl + h.move_in / 2 + R.minds.cost("d6") * R.minds.half_mind_factor == 6.5
    p = MR.horse_profile(Creation("h", "creature", []), R)
    assert (p.fixed_cost, p.move_in, p.armor, p.unit_inches, p.mind_cost) == (7, 10, "1d6", 2, 0.5)
    assert "Unarmed Attack" in p.notes[0]
    gun = MR.horse_profile(Creation("g", "creature", [], annotation={"variety": "gun"}), R)
    steel_fly = MR.horse_profile(Creation("s", "creature", [], annotation={"variety": "steel,flying"}), R)
    assert (gun.fixed_cost, steel_fly.fixed_cost) == (10, 17)  # Gun-Ceratops 10 CP; Steel Flying +10 [000 ch.H]


def test_vermin_table():
    v = R.creatures.vermin
    assert (v.size, v.sl, v.armor, v.cost, v.unit_inches) == (0, 0, "0", 0, 0)


def test_cannon_ammunition_up_to_the_cannon_size():
    ammo, warns = MR.cannon_ammo(3, "3,1", R)
    assert [(a.cost, a.damage) for a in ammo] == [(3, "3d10 Exp"), (1, "1d10 Exp")] and not warns
    ammo, warns = MR.cannon_ammo(2, "3", R)  # XSize 3 in a Size 2 cannon: not allowed [000 §8.4 Cannons]
    assert ammo[0].cost is None and "exceeds" in warns[0]


def test_creation_extras():
    c = Creation("t", "vehicle", [], annotation={"turrets": "small,large", "plating": "3", "shields": "2",
                                                 "mods": "fast,slow"})
    extras, warns = MR.creation_extras(c, 4, R)
    assert {e.kind: e.cost for e in extras} == {"turret": 1, "armor_plating": 4, "energy_shield": 8, "mods": 0}
    assert not warns
    _, warns = MR.creation_extras(Creation("t", "vehicle", [], annotation={"mods": "fast"}), 4, R)
    assert "pairs" in warns[0]


# ------------------------------------------------------------------ through the analysis (needs the library)

def _squad_with(tmp_path, line: str, before: str = "3626bp03.dat") -> str:
    text = (EXAMPLES / "squad.ldr").read_text()
    lines = text.splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.endswith(before))
    lines.insert(k, line)
    p = tmp_path / "squad_annotated.ldr"
    p.write_text("\n".join(lines) + "\n")
    return str(p)


@needs_shared
def test_annotated_hero_on_the_card(tmp_path, loaded, library_zip):
    from brikscan.analysis.stats import analyse

    m = loaded(_squad_with(tmp_path, '0 !BRIKSCAN UNIT name="Sir Robin" specialty=hero side=red'))
    card = analyse(m).card_named("Sir Robin")
    assert card.skill == "d10" and card.move_in == 7 and card.armor == "2d6"
    assert card.total_cost == 11 + 2  # the Hero and his shortsword (a Hand Weapon)
    assert card.unit_inches == 2 and card.creation.side == "red"
    assert [w.category for w in card.weapons] == ["hand_weapon"] and card.weapons[0].damage == "1d10"


@needs_shared
def test_unknown_specialty_is_a_warning_at_the_unit_line(tmp_path, loaded, library_zip):
    from brikscan.analysis.stats import analyse

    path = _squad_with(tmp_path, "0 !BRIKSCAN UNIT name=Odd specialty=wizard mind=d7")
    a = analyse(loaded(path))
    msgs = [str(d) for d in a.diagnostics]
    line = next(i for i, ln in enumerate(open(path).read().splitlines(), start=1) if "UNIT" in ln)
    assert any(f":{line}: unknown specialty 'wizard'" in m for m in msgs), msgs
    assert any(f":{line}: unknown mind die 'd7'" in m for m in msgs), msgs
    assert a.card_named("Odd").total_cost == 6  # still priced, as a plain minifig with a shortsword


# ------------------------------------------------------------------ the official sets, by hand (docs)

def _cards(loaded, name):
    from brikscan.analysis.stats import analyse

    path = MODELS_DIR / name
    if not path.exists():
        pytest.skip(NO_SHARED)
    return analyse(loaded(path))


@needs_shared
def test_6066_camouflaged_outpost_loadouts(loaded, library_zip):
    """docs/minifig-loadouts.md: five Forestmen longbowmen 9 CP, a spearman 7 CP, the Horse 7 CP."""
    a = _cards(loaded, "6066 - Camouflaged Outpost.mpd")
    figs = [c for c in a.cards if c.creation.kind == "minifig"]
    got = sorted((c.total_cost, tuple(w.category for w in c.weapons)) for c in figs)
    assert got == [(7, ("heavy_weapon",))] + [(9, ("long_ranged_weapon",))] * 5
    horse = [c for c in a.cards if c.creation.kind == "creature"]
    assert [(h.size, h.total_cost, h.move_in, h.unit_inches) for h in horse] == [(2, 7, 10, 2)]


@needs_shared
def test_6285_black_seas_barracuda_loadouts(loaded, library_zip):
    """docs/minifig-loadouts.md: the pirate crew of 6285 and the parrot (Vermin)."""
    a = _cards(loaded, "6285 - Black Seas Barracuda.mpd")
    figs = [c for c in a.cards if c.creation.kind == "minifig"]
    got = sorted((c.total_cost, tuple(sorted(w.category for w in c.weapons)),
                  tuple(s.key for s in c.specialties)) for c in figs)
    # no one stands within reach of a cannon; the racked muskets are stowed, not mounted weapons [000 §7.1, §11.2]
    # the figurehead (a torso without legs on the bow) is the ship's carving, not a fourth goblet pirate; pirate3
    # stands in the jolly boat with an oar in each hand: he rows it ("manned oars" [000 §9.1]), his oars are the
    # boat's water propulsion, not his tools, and he is a 4 CP minifig like the unarmed ones
    assert got == sorted([(4, (), ())] * 3 + [(6, ("hand_weapon",), ())] * 3 +
                         [(7, ("short_ranged_weapon",), ())] * 2), json.dumps(got)
    boat = next(c for c in a.cards if c.creation.name.endswith("jollyboat"))
    assert [(p.type, p.move_in, p.cost) for p in boat.propulsion] == [("water", 8, 4)]
    animals = [c for c in a.cards if c.creation.kind == "creature"]  # the parrot, the monkey in the rigging
    one_piece = [c for c in animals if len(c.creation.structural_elements) == 1]
    assert any("parrot" in a.model.elements[c.creation.elements[0]].description.lower() for c in one_piece)
    # one-piece animals are Vermin: Size 0, 0 CP, 0 Unit Inches [000 §10.3]
    assert one_piece and all((c.size, c.total_cost, c.unit_inches) == (0, 0, 0) for c in one_piece)


@needs_shared
def test_pilot_at_the_controls_of_1180_moon_buggy(loaded, library_zip):
    """A minifig at a Vehicle's Controls is its Pilot: +1 CP Stunt Driving, Ű included with the Vehicle
    [000 §11.2 The Pilot]; his radio is a Minifig Tool (1 CP) [000 §3.4]."""
    a = _cards(loaded, "1180-1 - Space Port Moon Buggy.mpd")
    fig = next(c for c in a.cards if c.creation.kind == "minifig")
    assert [s.key for s in fig.specialties] == ["pilot"] and "Controls" in fig.specialties[0].reason
    assert (fig.total_cost, fig.unit_inches) == (4 + 1 + 1, 0)
    assert [w.category for w in fig.weapons] == ["minifig_tool"]


@needs_shared
def test_6286_deck_cannons_are_the_ships_weapons(loaded, library_zip):
    """docs/minifig-loadouts.md, 6286 Skulls Eye Schooner: the four deck cannons are mounted on the ship - Vehicle
    Weapons on its card, Cannon Size 2 at (Size)x3 = 6 CP each [000 §8.4 Cannons]; "minifig Weapons are for
    minifigs, and Vehicle Weapons are for Vehicles" [000 §8.1 Turrets]. A pirate standing at one is its crew (the
    Gunner assigned to it, +1 CP Gunnery [000 §11.2], [000 §8.6]) and carries only his own weapons."""
    a = _cards(loaded, "6286 - Skulls Eye Schooner.mpd")
    ship = a.card_named("6286 - Skulls Eye Schooner")
    cannons = [w for w in ship.weapons if w.type == "cannon"]
    assert len(cannons) == 4 and all((w.size, w.cost, w.category) == (2, 6, "") for w in cannons)
    figs = {c.creation.name: c for c in a.cards if c.creation.kind == "minifig"}
    assert not any(w.type == "cannon" for c in figs.values() for w in c.weapons)
    gunners = {n: c for n, c in figs.items() if "gunner" in [s.key for s in c.specialties]}
    # pirate2 and pirate7 with cutlasses, minifig-3 with a flintlock pistol, at the cannons
    got = sorted((c.total_cost, tuple(w.category for w in c.weapons)) for c in gunners.values())
    assert got == [(4 + 2 + 1, ("hand_weapon",))] * 2 + [(4 + 3 + 1, ("short_ranged_weapon",))], got
    parrots = [c for c in a.cards if c.creation.kind == "creature" and c.size == 0]
    assert parrots and all(p.total_cost == 0 for p in parrots)  # Vermin, Base Cost 0 [000 §7.1]


@needs_shared
def test_a_horse_in_its_barding_wears_horse_body_armor(tmp_path):
    """6085's knights' horses (not in ../shared) wear an "Animal Horse Barding": Horse Body Armor, 2 CP, Armor
    1d10 [000 ch.H Horse Armor]; it was priced only when annotated. With a head armour too it covers body and
    head: Horse Heavy Armor, 3 CP, Deflection and Half Speed. Bare, the Horse is 7 CP."""
    from brikscan import analyse, load

    def horse(name: str, extra: list[str]):
        lines = ["1 15 0 -56 0 1 0 0 0 1 0 0 0 1 4493c02.dat"] + extra
        (tmp_path / name).write_text(f"0 {name}\n0 Name: {name}\n" + "\n".join(lines) + "\n")
        a = analyse(load(tmp_path / name, LIBRARY_ZIP))
        return next(k for k in a.cards if k.creation.kind == "creature")

    bare = horse("bare.ldr", [])
    body = horse("barding.ldr", ["1 4 0 -64 0 1 0 0 0 1 0 0 0 1 2490.dat"])
    assert (bare.total_cost, bare.armor) == (7, "1d6")
    assert (body.total_cost, body.armor) == (9, "1d10") and "wears a barding" in body.cost_reason
    parts = ["Animal Horse", "Animal Horse Barding with Black Dragons Pattern", "Animal Horse Head Armour with Plates"]
    model = SimpleNamespace(elements=[SimpleNamespace(description=d) for d in parts])
    assert MR.horse_barding(model, Creation("h", "creature", [0, 1, 2])) == "heavy"
    assert MR.horse_barding(model, Creation("h", "creature", [0, 1])) == "body"
    assert MR.horse_barding(model, Creation("h", "creature", [0, 1], annotation={"barding": "heavy"})) == "heavy"
    assert MR.horse_barding(model, Creation("h", "creature", [0])) == ""
    heavy = MR.horse_profile(Creation("h", "creature", []), R, barding="heavy")
    assert heavy.fixed_cost == 10 and "Deflection" in heavy.armor  # 7 + 3 CP [000 ch.H Horse Heavy Armor]


def test_a_breastplate_and_a_face_grille_helm_are_heavy_armor():
    """"When a piece of Body Armor is combined with a visored helmet, it becomes Heavy Armor" [000 §3.3]: the
    castle knight's "Helmet Castle with Fixed Face Grille" is a visored helm (10176's red knight, not in ../shared,
    was priced Body Armor)."""
    model, c = _figure([], [("Minifig Armour Plate", "torso"), ("Minifig Helmet Castle with Fixed Face Grille", "head")])
    assert MR.body_armor(model, c, R)[0] == "heavy_armor"
    model, c = _figure([], [("Minifig Armour Plate", "torso"), ("Minifig Helmet Castle with Neck Protector", "head")])
    assert MR.body_armor(model, c, R)[0] == "body_armor"
