"""Core Rules units, the rest of issue #11: Heavy Armor's Half Speed [000 §3.3, §4.1], the Heavy's Compensating
[000 §8.1 The Heavy], one-piece animals fielded from the Animals table [000 §10.3, §11.2 The Animal], Creature Size
over spine and cranium [000 §7.1 Size], riders found in the saddle [000 ch.H], cannons on the ship [000 §8.1]."""
from __future__ import annotations

import json

import pytest

from brikscan.analysis import minifig_rules as MR
from brikscan.analysis.minifig_rules import Specialty
from brikscan.rules.tables import load_rules
from conftest import MODELS_DIR, NO_SHARED, needs_shared
from test_minifig_rules import _figure

R = load_rules("2010")
T = R.minifig_weapons

# a knight built from real parts: head, castle helmet with a visor, armour plate over the torso, shortsword
KNIGHT = """0 Heavy knight
0 Name: knight.ldr
1 14 {x} -96 {z} 1 0 0 0 1 0 0 0 1 3626bp03.dat
1 71 {x} -96 {z} 1 0 0 0 1 0 0 0 1 3844.dat
{visor}1 71 {x} -96 {z} 1 0 0 0 1 0 0 0 1 2447.dat
1 71 {x} -72 {z} 1 0 0 0 1 0 0 0 1 2587.dat
1 71 {x} -72 {z} 1 0 0 0 1 0 0 0 1 973p40.dat
1 71 {xr} -63 {z} 0.985 -0.0863 -0.1465 0.17 0.4999 0.8491 0 -0.8613 0.5075 3818.dat
1 71 {xl} -63 {z} 0.985 0.17 0 -0.17 0.985 0 0 0 1 3819.dat
1 14 {xhr} -63.2682 {zhr} 0.985 -0.1646 -0.0426 0.17 0.9537 0.2468 0 -0.2501 0.9677 3820.dat
1 14 {xhl} -45.4044 {zhl} 0.985 0.1202 -0.1202 -0.17 0.6964 -0.6964 0 0.707 0.707 3820.dat
1 0 {x} -40 {z} 1 0 0 0 1 0 0 0 1 3815b.dat
1 0 {x} -28 {z} 1 0 0 0 1 0 0 0 1 3816b.dat
1 0 {x} -28 {z} 1 0 0 0 1 0 0 0 1 3817b.dat
1 71 {xs} -76.3473 {zs} 0.985 -0.17 0 0.17 0.9852 0.0002 0 0.0002 0.9995 3847.dat
"""


def knight(x: float = 0, z: float = 0, visor: bool = True) -> str:
    return KNIGHT.format(x=x, z=z, xr=x - 15.552, xl=x + 15.552, xhr=x - 20.7803, zhr=z - 21.3963,
                         xhl=x + 23.8634, zhl=z - 10.321, xs=x - 18.523, zs=z - 30.7679,
                         visor="" if visor else "0 // no visor: ")


def _analyse(loaded, path):
    from brikscan.analysis.stats import analyse

    return analyse(loaded(path))


# ------------------------------------------------------------------ 1. Heavy Armor: Half Speed

def test_half_speed_is_half_the_move_in_the_table():
    # "When moving at Half Speed, all Movement costs twice the usual number of Move inches" [000 §4.1 Half Speed]
    assert T.half_speed_factor == 0.5
    assert "[000 §4.1 Half Speed]" in T.source
    assert T.items["heavy_armor"].half_speed and not T.items["body_armor"].half_speed  # [000 §3.3]


@needs_shared
def test_a_knight_in_heavy_armor_moves_at_half_speed(tmp_path, loaded, library_zip):
    """Armour plate + visored helmet = Heavy Armor (2 CP, Deflection, Half Speed) [000 §3.3]: a minifig's 5"
    Move is 2½" on the card and in army JSON; the price stays 4 + 2 (shortsword) + 2 (Heavy Armor) = 8 CP."""
    import brikscan

    p = tmp_path / "knight.ldr"
    p.write_text(knight())
    card = next(c for c in _analyse(loaded, p).cards if c.creation.kind == "minifig")
    assert card.move_in == R.minifig.move_in * 0.5 == 2.5
    assert card.propulsion[0].move_in == 2.5 and "Half Speed" in card.propulsion[0].reason
    assert card.total_cost == 4 + 2 + 2 and "Deflection" in card.armor
    assert any("[000 §4.1 Half Speed]" in n for n in card.notes)
    entry = brikscan.army([str(p)], library_zip)["creations"][0]
    assert (entry["move_in"], entry["total_cost"]) == (2.5, 8)
    # without the visor it is Body Armor: Armor +2, full speed [000 §3.3]
    q = tmp_path / "knight_body.ldr"
    q.write_text(knight(visor=False))
    card = next(c for c in _analyse(loaded, q).cards if c.creation.kind == "minifig")
    assert (card.move_in, card.total_cost, card.armor) == (5, 4 + 2 + 1, "6")


def test_horse_heavy_armor_is_half_speed_too():
    # Horse Heavy Armor: 3 CP, Deflection, "reducing the Horse's Movement to Half Speed" [000 ch.H Horse Armor]
    from brikscan.analysis.creation import Creation
    from brikscan.analysis.stats import PropulsionCard, _half_speed

    p = MR.horse_profile(Creation("h", "creature", [], annotation={"barding": "heavy"}), R)
    assert p.fixed_cost == 7 + 3
    prop = PropulsionCard("ground", [], R.creatures.horse.move_in, 5.0, "a Horse")
    notes: list[str] = []
    assert _half_speed(prop, R, "Horse Heavy Armor", notes) == 5 and notes


# ------------------------------------------------------------------ 2. The Heavy: Compensating

HEAVY = [Specialty("heavy", "Heavy", "Compensating", 1, "annotated")]
_AXE, _SWORD = ("Minifig Battleaxe", 122, "weapon", "melee"), ("Minifig Sword Shortsword", 80, "weapon", "melee")
_SHIELD, _GREAT = ("Minifig Shield Triangular", 46, "weapon", "shield"), \
    ("Minifig Sword Greatsword", 150, "weapon", "melee")


def test_the_heavy_row():
    h = R.specialists.kinds["heavy"]
    # Compensating Specialty (+1CP): can use Weapons 1" larger than normally allowed when standing still [000 §8.1]
    assert (h.specialty, h.cost, h.larger_by_in, h.melee_max_size_in) == ("Compensating", 1, 1, 4)
    assert "[000 §8.1 The Heavy]" in h.source and MR.compensating(HEAVY, R) is h


@pytest.mark.parametrize("items,plain_ok", [
    ([_AXE, _AXE], False),  # "Heavy Weapons as if they were Hand Weapons": two battleaxes, one in each hand
    ([_AXE, _SWORD], False),
    ([_GREAT, _SHIELD], False),  # "Two-Handed Weapons as if they were Heavy Weapons": with a Shield
], ids=["two battleaxes", "battleaxe + shortsword", "greatsword + shield"])
def test_a_heavy_wields_each_weapon_one_class_lighter(items, plain_ok):
    """[000 §8.1 The Heavy]: "A Heavy can wield Heavy Weapons as if they were Hand Weapons, Two-Handed Weapons as if
    they were Heavy Weapons" - what a plain minifig may not pair, a Heavy may; the weapons keep their own stats."""
    model, c = _figure(items)
    plain = MR.held_items(model, c, R, 63.5)
    assert bool(not MR.pairing_warnings(plain, R)) == plain_ok
    heavy = MR.held_items(model, c, R, 63.5, heavy=MR.compensating(HEAVY, R))
    assert not MR.pairing_warnings(heavy, R), MR.pairing_warnings(heavy, R)
    assert [h.key for h in heavy] == [p.key for p in plain]  # still priced as what they are
    assert all(h.hands == 1 for h in heavy)
    assert {h.wielded_as for h in heavy} <= {"hand_weapon", "heavy_weapon", ""}
    assert all("[000 §8.1 The Heavy]" in h.reason for h in heavy if h.wielded_as)


def test_a_heavy_carries_a_size_2_ranged_weapon_and_a_size_4_melee_weapon():
    # "Most Heavies use their Compensating ability to wield a Size 2" ... Ranged Weapon"; "Size 3" or 4" Melee
    # Weapons as if they were Two-Handed Weapons" [000 §8.1 The Heavy]
    model, c = _figure([("Minifig Gun Harpoon Cannon", 160, "weapon", "gun")])
    plain = MR.held_items(model, c, R, 63.5)[0]
    heavy = MR.held_items(model, c, R, 63.5, heavy=MR.compensating(HEAVY, R))[0]
    assert any("not allowed" in w for w in plain.warnings) and not heavy.warnings
    model, c = _figure([("Minifig Sword Giant", 230, "weapon", "melee")])  # 3.6": longer than two minifigs
    plain = MR.held_items(model, c, R, 63.5)[0]
    heavy = MR.held_items(model, c, R, 63.5, heavy=MR.compensating(HEAVY, R))[0]
    assert any("too big" in w for w in plain.warnings) and not heavy.warnings
    assert heavy.key == "two_handed_weapon"


@needs_shared
def test_an_annotated_heavy_on_the_card(tmp_path, loaded, library_zip):
    # UNIT specialty=heavy: +1 CP [000 §11.2], and the card says Compensating works only standing still
    p = tmp_path / "heavy.ldr"
    p.write_text(knight(visor=False).replace("1 14 0 -96 0", "0 !BRIKSCAN UNIT name=Brute specialty=heavy\n"
                                                                "1 14 0 -96 0", 1))
    card = _analyse(loaded, p).card_named("Brute")
    assert [s.key for s in card.specialties] == ["heavy"]
    assert card.total_cost == 4 + 2 + 1 + 1  # minifig, shortsword, Body Armor, Compensating
    assert any("stands still" in n for n in card.notes)


# ------------------------------------------------------------------ 3. a one-piece animal fielded as an Animal

PARROTS = """0 Parrots
0 Name: parrots.ldr
0 !BRIKSCAN UNIT name=Polly animal=flying side=red
1 2 0 0 0 1 0 0 0 1 0 0 0 1 2546p01.dat
0 !BRIKSCAN UNIT name=Rat animal=vermin
1 2 100 0 0 1 0 0 0 1 0 0 0 1 2546p01.dat
0 !BRIKSCAN UNIT name=Odd animal=griffin
1 2 200 0 0 1 0 0 0 1 0 0 0 1 2546p01.dat
1 2 300 0 0 1 0 0 0 1 0 0 0 1 2546p01.dat
"""


def test_the_animals_table():
    # Vermin: Skill 1d6, Move 4" (Spidering), Armor 0, Cost 2CP, Bite Use 1 Damage 1; Venomous Vermin 3CP, Poison
    # Bite 1d4; Flying Vermin: Move 4" Flying, 3CP [000 §10.3 Monsters], [000 §11.2 The Animal]
    k = R.creatures.animals.kinds
    assert (k["vermin"].cost, k["vermin"].skill, k["vermin"].move_in, k["vermin"].movement, k["vermin"].armor,
            k["vermin"].attack_use, k["vermin"].attack_damage) == (2, "d6", 4, "Spidering", "0", 1, "1")
    assert (k["venomous_vermin"].cost, k["venomous_vermin"].attack_damage) == (3, "1d4 Poison")
    assert (k["flying_vermin"].cost, k["flying_vermin"].movement) == (3, "Flying")
    assert R.creatures.animals.kind("venomous") == "venomous_vermin" and R.creatures.animals.kind("x") is None


@needs_shared
def test_parrots_fielded_from_the_animals_table(tmp_path, loaded, library_zip):
    """UNIT animal=… before a one-piece animal: bought from the Animals table instead of the 0 CP prop (Vermin
    Base Cost 0 [000 §7.1]); Size 0 and 0 Ű stay (Unit Inches are Sizes [000 §11.1]); an unknown kind warns at
    its file:line and leaves the prop."""
    p = tmp_path / "parrots.ldr"
    p.write_text(PARROTS)
    a = _analyse(loaded, p)
    polly, rat, odd = (a.card_named(n) for n in ("Polly", "Rat", "Odd"))
    assert (polly.total_cost, polly.size, polly.move_in, polly.skill, polly.unit_inches) == (3, 0, 4, "d6", 0)
    assert polly.creation.side == "red"
    assert (rat.total_cost, rat.move_in, rat.armor) == (2, 4, "0")
    assert any("Bite Use 1, Damage 1" in n for n in rat.notes)
    assert odd.total_cost == 0
    line = PARROTS.splitlines().index("0 !BRIKSCAN UNIT name=Odd animal=griffin") + 1
    assert any(f"parrots.ldr:{line}: unknown animal 'griffin'" in str(d) for d in a.diagnostics)
    prop = next(c for c in a.cards if c.creation.name not in ("Polly", "Rat", "Odd"))
    assert (prop.total_cost, prop.size) == (0, 0)  # not annotated: the prop, Base Cost 0 [000 §7.1]


# ------------------------------------------------------------------ 5. riders found in the saddle

_FIG = """1 14 {x} {y0} {z} 1 0 0 0 1 0 0 0 1 3626bp03.dat
1 71 {x} {y1} {z} 1 0 0 0 1 0 0 0 1 973p40.dat
1 71 {xr} {y2} {z} 0.985 -0.0863 -0.1465 0.17 0.4999 0.8491 0 -0.8613 0.5075 3818.dat
1 71 {xl} {y2} {z} 0.985 0.17 0 -0.17 0.985 0 0 0 1 3819.dat
1 0 {x} {y3} {z} 1 0 0 0 1 0 0 0 1 3815b.dat
1 0 {x} {y4} {z} 1 0 0 0 1 0 0 0 1 3816b.dat
1 0 {x} {y4} {z} 1 0 0 0 1 0 0 0 1 3817b.dat
"""


def _fig(x: float = 0.0, y: float = 0.0, z: float = 0.0, name: str = "") -> str:
    unit = f"0 !BRIKSCAN UNIT name={name}\n" if name else ""
    return unit + _FIG.format(x=x, z=z, xr=x - 15.552, xl=x + 15.552, y0=y - 96, y1=y - 72, y2=y - 63,
                              y3=y - 40, y4=y - 28)


# a horse (4493c01) with its saddle (4491b) where the part's clips put it, a minifig astride the saddle (hips a
# plate above it), one standing against the horse's flank, one at saddle height but a horse-length away
RIDE = ("0 Rider\n0 Name: rider.ldr\n1 4 0 -57 0 1 0 0 0 1 0 0 0 1 4493c01.dat\n"
        "1 0 0 -65 0 1 0 0 0 1 0 0 0 1 4491b.dat\n" + _fig(y=-69, name="Lancelot") + _fig(x=32, name="Groom")
        + _fig(z=-120, y=-69, name="Floater"))


@needs_shared
def test_a_minifig_in_the_saddle_is_its_rider(tmp_path, loaded, library_zip):
    """No annotation: the minifig whose hips and legs sit on the saddle rides the Horse (the saddle is its
    Controls [000 ch.H The Horse]); any minifig may ride, so no Rider Specialty and his own 1 Ű
    [000 §11.2 The Rider]. The card, stats JSON and army JSON show the mount with its rider."""
    import brikscan
    from brikscan.analysis.stats import card_json

    p = tmp_path / "rider.ldr"
    p.write_text(RIDE)
    a = _analyse(loaded, p)
    horse = next(c for c in a.cards if c.creation.kind == "creature")
    rider, groom, floater = (a.card_named(n) for n in ("Lancelot", "Groom", "Floater"))
    assert rider.mounted_on == horse.creation.name and horse.riders == ["Lancelot"]
    assert "Saddle" in rider.notes[0] and "ridden by 'Lancelot'" in horse.notes[0]
    assert groom.mounted_on == "" and floater.mounted_on == ""
    assert (rider.total_cost, rider.unit_inches, rider.specialties) == (4, 1, [])
    assert (horse.total_cost, horse.unit_inches) == (7, 2)  # the Horse, 7 CP, Size 2 [000 ch.H]
    assert card_json(horse)["riders"] == ["Lancelot"]
    entries = {e["name"]: e for e in brikscan.army([str(p)], library_zip)["creations"]}
    assert entries["Lancelot"]["mounted_on"] == horse.creation.name
    assert entries[horse.creation.name]["riders"] == ["Lancelot"]


@needs_shared
def test_6761_cavalry_ride_their_horses(loaded, library_zip):
    """6761 Bandit's Secret Hide-Out: the cavalry lieutenant and soldier sit in their saddles; the packhorse has
    no rider."""
    path = MODELS_DIR / "6761-1 - Bandit's Secret Hide-Out.mpd"
    if not path.exists():
        pytest.skip(NO_SHARED)
    a = _analyse(loaded, path)
    riders = [c for c in a.cards if c.mounted_on]
    horses = [c for c in a.cards if c.creation.kind == "creature" and c.size == 2]
    assert len(riders) == 2 and len({c.mounted_on for c in riders}) == 2
    assert sorted(len(h.riders) for h in horses) == [0, 1, 1]


@needs_shared
def test_6716_the_wagon_driver_sits_in_the_wagon(loaded, library_zip):
    """6716 Covered Wagon: the driver sits (thighs level) on the wagon's bench plate - seated in the Vehicle
    [000 §9.4 Piloting]; the horse in front has no rider."""
    path = MODELS_DIR / "6716-1 - Covered Wagon.mpd"
    if not path.exists():
        pytest.skip(NO_SHARED)
    a = _analyse(loaded, path)
    driver = next(c for c in a.cards if c.creation.kind == "minifig")
    wagon = a.card_named(driver.mounted_on)
    assert wagon.creation.kind == "vehicle" and wagon.riders == [driver.creation.name]
    assert "seated pose" in driver.notes[0] or any("seated in" in n for n in driver.notes)
    assert all(not c.riders for c in a.cards if c.creation.kind == "creature")


# ------------------------------------------------------------------ 4. Creature Size over spine and cranium


def lizard(bent: bool = False) -> str:
    """A brick-built lizard: body Brick 2 x 10 (3006, x -100..100), head a Plate 2 x 4 (3020) reaching 40 LDU past
    the body with a Brick 2 x 2 (3003) on it; tail: three Plates 2 x 4 in a submodel 'lizard-tail' behind (to
    x = -260); four Brick 1 x 1 legs in 'lizard-legs'. Bent: the head on a neck of three 2 x 2 bricks raised from
    the body's front end."""
    head = ("1 14 80 -48 0 1 0 0 0 1 0 0 0 1 3003.dat\n1 14 80 -72 0 1 0 0 0 1 0 0 0 1 3003.dat\n"
            "1 14 80 -96 0 1 0 0 0 1 0 0 0 1 3003.dat\n1 2 100 -104 0 1 0 0 0 1 0 0 0 1 3020.dat\n"
            "1 14 120 -128 0 1 0 0 0 1 0 0 0 1 3003.dat\n") if bent else \
        "1 2 100 -32 0 1 0 0 0 1 0 0 0 1 3020.dat\n1 14 120 -56 0 1 0 0 0 1 0 0 0 1 3003.dat\n"
    return ("0 FILE lizard.ldr\n0 Lizard\n0 Name: lizard.ldr\n0 !BRIKSCAN CREATION kind=creature name=Lizard\n"
            "1 2 0 -24 0 1 0 0 0 1 0 0 0 1 3006.dat\n" + head +
            "1 2 -100 -32 0 1 0 0 0 1 0 0 0 1 lizard-tail.ldr\n1 2 0 0 0 1 0 0 0 1 0 0 0 1 lizard-legs.ldr\n"
            "0 NOFILE\n0 FILE lizard-tail.ldr\n0 Lizard tail\n0 Name: lizard-tail.ldr\n"
            "1 2 0 0 0 1 0 0 0 1 0 0 0 1 3020.dat\n1 2 -60 8 0 1 0 0 0 1 0 0 0 1 3020.dat\n"
            "1 2 -120 0 0 1 0 0 0 1 0 0 0 1 3020.dat\n0 NOFILE\n"
            "0 FILE lizard-legs.ldr\n0 Lizard legs\n0 Name: lizard-legs.ldr\n"
            "1 2 -90 0 -10 1 0 0 0 1 0 0 0 1 3005.dat\n1 2 -90 0 10 1 0 0 0 1 0 0 0 1 3005.dat\n"
            "1 2 90 0 -10 1 0 0 0 1 0 0 0 1 3005.dat\n1 2 90 0 10 1 0 0 0 1 0 0 0 1 3005.dat\n0 NOFILE\n")


def test_the_spine_table():
    sp = R.creatures.spine
    # the rulebook's Non-Structural Creature parts: limbs, wings, jaws, tail, fins, tentacles [000 §7.1 Structure]
    assert {"tail", "jaw", "wing", "fin", "tentacle", "leg", "arm"} <= set(sp.surface_words)
    assert "[000 §7.1 Size]" in sp.source


@needs_shared
def test_a_brick_built_lizard_is_measured_over_spine_and_cranium(tmp_path, loaded, library_zip):
    """'measuring the lengths of their spinal column and cranium. Tails and jaws are excluded' [000 §7.1 Size]:
    body + head = x -100..140 = 240 LDU = 3.78" -> Size 4, not the whole lizard's 400 LDU (6.3", Size 6)."""
    from brikscan.analysis.measure import measure_size

    p = tmp_path / "lizard.mpd"
    p.write_text(lizard())
    a = _analyse(loaded, p)
    card = a.card_named("Lizard")
    assert card.creation.kind == "creature"
    assert card.size_in == pytest.approx(240 / 63.5, abs=0.02) and card.size == 4
    whole = measure_size(a.model, card.creation.elements, a.ldu_per_inch).size_in
    assert whole == pytest.approx(400 / 63.5, abs=0.05)
    assert any("spine and cranium" in n and "tail" in n for n in card.notes)
    # Size sets the Base Cost: Size 4 x SL 1/2 (plain plastic creature) = 2 CP [000 §7.1]
    assert card.base_cost == 4 * card.structure_level


@needs_shared
def test_a_raised_neck_is_measured_along_the_spine(tmp_path, loaded, library_zip):
    """The same lizard with its head raised on a neck: a player measures along the body and up the neck -
    rear (x -100) to the neck (x 80) 180, up the neck 80, forward to the snout (x 140) 60: 320 LDU = 5.0" -> Size 5,
    where the straight-line extent of body, neck and head is 240 LDU (3.78", Size 4)."""
    p = tmp_path / "lizard_bent.mpd"
    p.write_text(lizard(bent=True))
    card = _analyse(loaded, p).card_named("Lizard")
    assert card.size == 5 and card.size_in > 240 / 63.5 + 0.5
    assert "bent" in card.size_method


@needs_shared
def test_7327_scorpion_spine_without_its_tail(loaded, library_zip):
    """7327 Scorpion Pyramid's brick-built scorpion, fielded as a Creature (CREATION kind=creature, as a player
    would annotate it): the tail and tail end, legs and claws (named so in the set's submodels) are not measured;
    its body from the head wedge to the rear plates is about 200 LDU: Size 3."""
    from brikscan.analysis.stats import AnalysisCache, analyse

    path = MODELS_DIR / "7327-1 - Scorpion Pyramid.mpd"
    if not path.exists():
        pytest.skip(NO_SHARED)
    import brikscan

    m = brikscan.load(path, library_zip)
    f = next(f for k, f in m.files.items() if k.lower().endswith("scorpion.ldr"))
    f.metas.append((2, "!BRIKSCAN CREATION kind=creature"))
    card = analyse(m, cache=AnalysisCache()).card_named("7327 - scorpion")
    assert card.creation.kind == "creature" and card.size == 3
    assert 3.0 <= card.size_in <= 3.5
    assert any("tail" in n and "not measured" in n for n in card.notes)


# ------------------------------------------------------------------ annotations reaching the cards

@needs_shared
def test_a_horse_in_heavy_barding_by_unit_annotation(tmp_path, loaded, library_zip):
    """UNIT before the horse's part: Horse Heavy Armor +3 CP, Deflection, Half Speed: 10" -> 5" [000 ch.H]."""
    p = tmp_path / "barded.ldr"
    p.write_text(RIDE.replace("1 4 0 -57 0", "0 !BRIKSCAN UNIT name=Destrier barding=heavy\n1 4 0 -57 0", 1))
    horse = _analyse(loaded, p).card_named("Destrier")
    assert (horse.total_cost, horse.move_in) == (7 + 3, R.creatures.horse.move_in * T.half_speed_factor)
    assert "Deflection" in horse.armor and horse.riders == ["Lancelot"]


@needs_shared
def test_creation_extras_annotated_in_the_model_file(tmp_path, loaded, library_zip):
    """CREATION turrets=small plating=3 (docs/army.md) reaches the card: a Small Turret 0 CP [000 §8.1 Turrets],
    Armor Plating Size 3: (Size)+1 = 4 CP [000 §8.2 Armor Plating]; no 'unknown key' warning."""
    p = tmp_path / "plated.mpd"
    p.write_text(lizard().replace("kind=creature name=Lizard", "kind=creature name=Lizard turrets=small plating=3"))
    a = _analyse(loaded, p)
    card = a.card_named("Lizard")
    assert {e.kind: e.cost for e in card.extras} == {"turret": 0, "armor_plating": 4}
    assert not [d for d in a.diagnostics if "unknown key" in str(d)]
