"""Roles, annotations and creations: part words, !BRIKSCAN meta lines, groups, minifigs, official-set spot checks."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from conftest import EXAMPLES, MODELS_DIR, ROOT, needs_shared

from brikscan.analysis.annotations import parse_annotations, word_role
from brikscan.analysis.roles import classify_part
from brikscan.ldraw.parser import parse_text

ID = "1 0 0 0 1 0 0 0 1"


def _el(desc, cat="", part="x.dat"):
    return SimpleNamespace(description=desc, category=cat or desc.split(" ")[0], part=part)


@pytest.mark.parametrize("desc,cat,role,typ", [
    ("Wheel Rim  6.4 x  8", "", "propulsion", "ground"),
    ("Tyre 20/ 48 x 30", "", "propulsion", "ground"),
    ("Technic Ski", "Technic", "propulsion", "ground"),  # a sled runs on its skis [000 §9.1 Ground]
    ("Tile  2 x  2 with Winged Wheel Logo", "", "structural", ""),  # a sticker-like print is not a wheel
    ("Sticker  1.9 x  1.9 with Wheel", "Sticker", "decoration", ""),
    ("Minifig Sword Cutlass", "Minifig Accessory", "weapon", "melee"),
    ("Minifig Gun Flintlock Pistol", "Minifig Accessory", "weapon", "gun"),
    ("Minifig Cannon Shooting (Complete)", "Minifig", "weapon", "cannon"),
    ("Minifig Shield Round Type 2", "Minifig Accessory", "weapon", "shield"),
    ("Boat Bow 16 x 12 x  5.333 with Brown Bottom", "Boat", "structural", ""),  # a bow of a ship is no bow
    ("Boat Mast  2 x  2 x 16 Top without Bottom Nubs", "Boat", "propulsion", "thrust"),  # sails: [000 §9.3]
    ("Hinge Plate  1 x  2 with 3 Fingers On Side", "Hinge", "weak point", ""),
    ("Arm Piece with 2 and 3 Fingers Rotated", "Hinge", "weak point", ""),  # a finger hinge's half [000 §7.1]
    ("Brick  1 x  2 with Arm (2 Fingers)", "Brick", "weak point", ""),
    ("Animal Cattlehorns", "Animal", "decoration", ""),  # horns to wear, not an animal
    ("Animal Dinosaur Head Triceratops with White Horns", "Animal", "structural", ""),  # an animal's head
    ("Animal Horse Saddle with Two Clips", "Animal", "device", "controls"),  # the mount's Controls [000 §9.4]
    ("Brick  2 x  4", "", "structural", ""),
    ("Technic Steering Wheel Small", "Technic", "device", ""),
    ("Antenna  4H with Rounded Top", "", "decoration", ""),  # antennas are decoration (issue 8)
    ("Flag  2 x  2", "", "decoration", ""),
    ("Wing  4 x  8 Left", "", "propulsion", "forward_flight"),  # where it works as a wing [000 §9.1]
    ("Minifig Torso", "Minifig", "crew", ""),
    ("Tile  1 x  2 with Arrow Long Yellow without Border Pattern", "", "decoration", ""),  # a marking [000 §7.1]
    ("Tile  1 x  2 with Dynamite Pattern", "", "weapon", "explosive"),  # a stick of dynamite to throw
    ("Tile  1 x  2 with Computer Pattern", "", "device", "controls"),  # a console: the Controls [000 §9.4]
    ("Slope Brick 45  2 x  2 with Divers Computer Pattern", "", "device", "controls"),
    ("Brick  2 x  1 with Positioning Rockets", "", "propulsion", "thrust"),  # Thrusters [000 §9.3]
    ("Rack Winder  2 x  4 x  2 Axle", "", "device", ""),  # a winch
    ("Plate  2 x  2 with Red Wheels (Complete)", "", "propulsion", "ground"),  # a part with its wheels
    ("Plate  2 x  2 with 2 Wheel Pins", "", "structural", ""),  # a holder: the chassis
    ("Minifig Tool Oar", "Minifig", "device", ""),
    ("Minifig Chainsaw Blade", "Minifig", "weapon", "melee"),  # "chainsaws" are Heavy Weapons [000 §3.1]
    ("Hose Reel  2 x  4 x  2 Drum", "", "device", ""),  # a winch drum
    ("Plate  1 x  2 with Crane Hook", "", "device", ""),  # a hoist  # a Minifig-Sized Tool in hand; a boat's oars lying in it
    ("~Minifig Robot Leg (Obsolete)", "Minifig", "crew", ""),  # an astromech's leg
    ("Cylinder  2 x  2 x  2 Robot Body w. SW Red/Grey R2 Pattern", "", "crew", ""),  # its body
    ("Minifig Hand", "Minifig", "crew", ""),  # a figure's hand
    ("Minifig Hand Truck", "Minifig", "decoration", ""),  # a hand truck (7732's), no hand: pushed, free
])
def test_part_words(desc, cat, role, typ):
    c = classify_part(_el(desc, cat))
    assert c.role == role, c.reason
    assert c.type == typ
    assert c.reason


def test_minifig_body_parts():
    assert classify_part(_el("Minifig Hips", "Minifig")).minifig_body == "hips"
    assert classify_part(_el("Minifig Head with Eye Patch", "Minifig")).minifig_body == "head"
    assert classify_part(_el("Minifig Hat Tricorne", "Minifig Headwear")).minifig_body == ""
    assert classify_part(_el("Minifig Hat Tricorne", "Minifig Headwear")).accessory


def test_group_and_submodel_names():
    assert word_role("Cannon") == ("weapon", {"type": "cannon"})
    assert word_role("weapon left gun") == ("weapon", {"type": "gun"})
    assert word_role("wheels_front.ldr") == ("propulsion", {"type": "ground"})
    assert word_role("cannon.ldr")[0] == "weapon"
    assert word_role("6285 - captain.ldr") is None


def _model(text, name="m.ldr"):
    files = parse_text(text, name, name)
    return SimpleNamespace(main=files[0], submodels={f.name: f for f in files[1:]},
                           files={f.name: f for f in files})


ANNOTATED = f"""0 annotated
0 Name: m.ldr
0 !BRIKSCAN CREATION name="Big Tank" kind=vehicle sl=3
1 4 0 0 0 {ID} 3001.dat
0 !BRIKSCAN ROLE weapon type=gun size=3 name="left gun"
1 4 0 -24 0 {ID} 3001.dat
0 !BRIKSCAN BEGIN propulsion type=ground move=8
1 0 0 24 0 {ID} 3641.dat
1 0 40 24 0 {ID} 3641.dat
0 !BRIKSCAN END
0 !BRIKSCAN ROLE laserbeam colour=red
1 4 0 -48 0 {ID} 3001.dat
0 !BRIKSCAN ROLE weapon type=phaser wobble=2
1 4 0 -72 0 {ID} 3001.dat
0 !LEOCAD GROUP BEGIN Cannon
1 4 0 -96 0 {ID} 3001.dat
0 !LEOCAD GROUP END
0 !LEOCAD GROUP BEGIN Hull
1 4 0 -120 0 {ID} 3001.dat
0 !LEOCAD GROUP END
"""


def test_annotations_parse_roles_groups_and_creation():
    ann = parse_annotations(_model(ANNOTATED))
    assert ann.creations["m.ldr"].params == {"name": "Big Tank", "kind": "vehicle", "sl": "3"}
    n = ann.line_notes[("m.ldr", 6)][0]
    assert (n.role, n.params) == ("weapon", {"type": "gun", "size": "3", "name": "left gun"})
    wheels = [ann.line_notes[("m.ldr", ln)][0] for ln in (8, 9)]
    assert all(w.role == "propulsion" and w.params["move"] == "8" for w in wheels)
    assert wheels[0].group == wheels[1].group  # one propulsion unit
    assert ("m.ldr", 12) not in ann.line_notes  # unknown role: ignored ...
    leo = ann.line_notes[("m.ldr", 16)][0]
    assert (leo.role, leo.params["type"], leo.origin) == ("weapon", "cannon", "group")
    assert ("m.ldr", 19) not in ann.line_notes  # "Hull" is no role word
    msgs = [str(d) for d in ann.diagnostics]
    # ... with a warning naming file:line
    assert any(m.startswith("m.ldr:11:") and "unknown role 'laserbeam'" in m for m in msgs), msgs
    assert any(m.startswith("m.ldr:13:") and "unknown weapon type 'phaser'" in m for m in msgs), msgs
    assert any(m.startswith("m.ldr:13:") and "unknown key 'wobble'" in m for m in msgs), msgs


def test_bad_creation_values_warn():
    text = f"0 x\n0 !BRIKSCAN CREATION kind=spaceship sl=7 colour=red\n1 4 0 0 0 {ID} 3001.dat\n"
    ann = parse_annotations(_model(text))
    msgs = [str(d) for d in ann.diagnostics]
    assert len(msgs) == 3 and all(m.startswith("m.ldr:2:") for m in msgs)


def test_unbalanced_begin_end_warn():
    ann = parse_annotations(_model(f"0 x\n0 !BRIKSCAN END\n0 !BRIKSCAN BEGIN weapon\n1 4 0 0 0 {ID} 3001.dat\n"))
    msgs = [str(d) for d in ann.diagnostics]
    assert any("END without BEGIN" in m for m in msgs) and any("BEGIN without END" in m for m in msgs)


@needs_shared
def test_annotations_drive_the_card(tmp_path, loaded):
    from brikscan.analysis.stats import analyse

    p = tmp_path / "m.ldr"
    p.write_text(ANNOTATED)
    a = analyse(loaded(p))
    big = next(c for c in a.cards if c.creation.name == "Big Tank")
    assert big.creation.kind == "vehicle"
    assert big.structure_level <= big.size  # sl=3 clamped to Size when smaller
    guns = [w for w in big.weapons if w.name == "left gun"]
    assert guns and guns[0].type == "gun" and guns[0].size == 3 and guns[0].cost == 9
    cannon = [w for w in big.weapons if w.type == "cannon"]
    assert cannon
    prop = big.propulsion[0]
    assert prop.type == "ground" and prop.move_in == 8 and prop.cost == 4 and len(prop.elements) == 2
    assert any(str(d).endswith("unknown role 'laserbeam' (choose one of: structural, weapon, propulsion, device, "
                               "decoration)") for d in a.diagnostics)


@needs_shared
def test_command_line_overrides_win(tmp_path, loaded):
    from brikscan.analysis.stats import analyse

    p = tmp_path / "m.ldr"
    p.write_text(ANNOTATED)
    a = analyse(loaded(p), overrides=["1=decoration", "0=weapon type=melee size=2"])
    roles = {i: r for c in a.creations for i, r in c.roles.items()}
    assert roles[1].role == "decoration" and roles[1].source == "cli"
    assert roles[0].role == "weapon" and roles[0].params["type"] == "melee"


# ---------------------------------------------------------------- spot checks on real models

@pytest.fixture(scope="module")
def analysed():
    from brikscan.analysis.stats import analyse

    memo = {}

    def get(loaded, path):
        if path not in memo:
            memo[path] = analyse(loaded(path))
        return memo[path]
    return get


def _roles(a):
    return {i: r for c in a.creations for i, r in c.roles.items()}


@needs_shared
def test_pirate_ship_cannons_are_weapons_and_pirates_are_minifigs(loaded, analysed):
    a = analysed(loaded, MODELS_DIR / "6285 - Black Seas Barracuda.mpd")
    m = a.model
    ship = max(a.creations, key=lambda c: len(c.elements))
    assert ship.kind == "vehicle"
    roles = _roles(a)
    cannons = [e.index for e in m.elements if e.description.startswith("Minifig Cannon")]
    assert cannons and all(roles[i].role == "weapon" for i in cannons)
    card = next(c for c in a.cards if c.creation is ship)
    assert sum(1 for w in card.weapons if w.type == "cannon") == 4
    figs = [c for c in a.creations if c.kind == "minifig"]
    assert len(figs) >= 8
    torsos = [e.index for e in m.elements if e.description.startswith("Minifig Torso")]
    owner = {i: c.name for c in figs for i in c.elements}
    # the figurehead (a legless torso fixed to the bow) is a carved ornament of the ship [000 §7.1]
    carved = [t for t in torsos if m.elements[t].submodel_path[:1] == ("6285 - figurehead.ldr",)]
    assert len(carved) == 1 and roles[carved[0]].role == "decoration" and carved[0] in ship.elements
    assert all(t in owner for t in torsos if t not in carved)
    for f in figs:
        assert set(f.sections) == {"head", "torso", "legs", "equipment", "hands"}
        assert sorted(f.sections["head"] + f.sections["torso"] + f.sections["legs"] + f.sections["equipment"]) \
            == f.elements
        assert set(f.sections["hands"]) <= set(f.sections["torso"])
        assert not set(f.elements) & set(ship.elements)
    hull = [e.index for e in m.elements if e.description.startswith("Boat Base")]
    assert all(roles[i].role == "structural" for i in hull)


@needs_shared
def test_car_wheels_are_propulsion(loaded, analysed):
    a = analysed(loaded, MODELS_DIR / "10252 - Volkswagen Beetle.mpd")
    car = max(a.creations, key=lambda c: len(c.elements))
    assert car.kind == "vehicle"
    m = a.model
    tyres = [i for i in car.elements if m.elements[i].description.startswith(("Tyre", "Wheel"))]
    ground = max(m.elements[i].bbox_max[1] for i in car.elements)  # -Y is up
    tyre_boxes = [(m.elements[i].bbox_min, m.elements[i].bbox_max) for i in tyres
                  if m.elements[i].bbox_max[1] >= ground - 8]
    rolling = [i for i in tyres if any(np.all(m.elements[i].bbox_min >= lo - 1) and
                                       np.all(m.elements[i].bbox_max <= hi + 1) for lo, hi in tyre_boxes)]
    # the spare wheel under the bonnet (tyre and rim, resting in the car) and rims used as details do not drive it
    spare = sorted(set(tyres) - set(rolling))
    assert len(rolling) >= 8 and len(spare) >= 2
    assert all(car.roles[i].role == "propulsion" for i in rolling)
    assert all(car.roles[i].role != "propulsion" for i in spare)
    # hubcaps made of minifig shields are not weapons
    assert not next(c for c in a.cards if c.creation is car).weapons


@needs_shared
def test_castle_walls_are_structural_and_guards_separate(loaded, analysed):
    path = EXAMPLES / "castle_wall.ldr"
    if not path.exists():
        pytest.skip("ldraw_models/castle_wall.ldr not there yet")
    a = analysed(loaded, path)
    m = a.model
    wall = next(c for c in a.creations if c.kind == "building")
    bricks = [i for i in wall.elements if m.elements[i].description.startswith(("Brick", "Arch"))
              and m.elements[i].part != "3062b.dat"]
    assert len(bricks) > 20 and all(wall.roles[i].role == "structural" for i in bricks)
    # the free-standing round pillars in front of the gate hold up nothing but their cone caps: decorative,
    # Non-Structural [000 §7.1 "any parts that are decorative"]
    pillars = [i for i in wall.elements if m.elements[i].part == "3062b.dat"]
    assert len(pillars) == 12 and all(wall.roles[i].role == "decoration" for i in pillars)
    figs = [c for c in a.creations if c.kind == "minifig"]
    assert len(figs) == 2
    assert all(not set(f.elements) & set(wall.elements) for f in figs)
    assert all(any(f.roles[i].role == "weapon" for i in f.elements) for f in figs)  # spear and bow in hand


@needs_shared
def test_town_hall_is_a_building_with_minifigs_apart(loaded, analysed):
    a = analysed(loaded, MODELS_DIR / "10224 - Town Hall.mpd")
    main = max(a.creations, key=lambda c: len(c.elements))
    assert main.kind == "building"
    m = a.model
    walls = [i for i in main.elements if m.elements[i].description.startswith("Brick")]
    share = sum(1 for i in walls if main.roles[i].role == "structural") / len(walls)
    assert share > 0.9
    assert sum(1 for c in a.creations if c.kind == "minifig") >= 5


@needs_shared
def test_tank_example(loaded, analysed):
    path = EXAMPLES / "tank.mpd"
    if not path.exists():
        pytest.skip("ldraw_models/tank.mpd not there yet")
    a = analysed(loaded, path)
    tank = max(a.creations, key=lambda c: len(c.elements))
    assert tank.kind == "vehicle"
    card = next(c for c in a.cards if c.creation is tank)
    assert [w.type for w in card.weapons] == ["cannon"]  # the cannon.ldr submodel
    assert card.propulsion and card.propulsion[0].type == "ground"
    assert any(r.role == "weak point" for r in tank.roles.values())  # the turntable


# ---------------------------------------------------------------- bodies on movable joints, legs, example annotations

@needs_shared
def test_tank_turret_on_the_turntable_is_structure(loaded, analysed):
    """The turret hangs on the core by the turntable only: its bricks are still Structure [000 §7.1]."""
    a = analysed(loaded, EXAMPLES / "tank.mpd")
    m = a.model
    tank = max(a.creations, key=lambda c: len(c.elements))
    turret = [i for i in tank.elements if m.elements[i].submodel_path[-1:] == ("turret.ldr",)]
    bricks = [i for i in turret if m.elements[i].description.startswith(("Brick", "Plate", "Slope", "Tile"))]
    assert len(bricks) >= 10
    for i in bricks:
        r = tank.roles[i]
        assert r.role == "structural", (i, r.reason)
        assert "turret/arm body on a movable joint: structural, the joint is the weak point [000 §7.1]" in r.reason
    assert set(bricks) <= set(tank.structural_elements)
    cannon = [i for i in tank.elements if "cannon.ldr" in m.elements[i].submodel_path]
    assert cannon and all(tank.roles[i].role == "weapon" for i in cannon)  # its weapon stays a weapon
    antenna = [i for i in turret if m.elements[i].part == "3957a.dat"]
    assert [tank.roles[i].role for i in antenna] == ["decoration"]  # small things keep their role
    turntable = [i for i in tank.elements if m.elements[i].part == "3403c01.dat"]
    assert [tank.roles[i].role for i in turntable] == ["weak point"]  # the joint is the weak point


def _strip_annotations(src, dst):
    dst.write_text("".join(ln for ln in src.read_text().splitlines(True) if "!BRIKSCAN" not in ln))
    return dst


@needs_shared
def test_walker_legs_are_found_without_annotations(tmp_path, loaded):
    """Bodies below the core on horizontal pins that reach the ground are legs: ground propulsion [000 §9.1]."""
    from brikscan.analysis.stats import analyse

    a = analyse(loaded(_strip_annotations(EXAMPLES / "walker.ldr", tmp_path / "walker.ldr")))
    m = a.model
    card = max(a.cards, key=lambda c: len(c.creation.elements))
    w = card.creation
    assert w.kind == "vehicle", w.kind_reason
    feet = [i for i in w.elements if m.elements[i].part == "3020.dat"]
    assert len(feet) == 2 and all(w.roles[i].role == "propulsion" for i in feet)
    assert all("a leg" in w.roles[i].reason and "[000 §9.1]" in w.roles[i].reason for i in feet)
    assert [p.type for p in card.propulsion] == ["ground"]
    assert card.propulsion[0].move_in <= 5 * card.size  # legs: at most 5" x Size [004 §9.1]
    body = [i for i in w.elements if m.elements[i].part in ("3032.dat", "3823.dat")]
    assert all(w.roles[i].role == "structural" for i in body)


@needs_shared
def test_a_lone_hinged_body_reaching_the_ground_is_no_leg(tmp_path, loaded):
    """One walker leg alone is a stand or a ramp, not propulsion (legs come in pairs)."""
    from brikscan.analysis.stats import analyse

    src = _strip_annotations(EXAMPLES / "walker.ldr", tmp_path / "w.ldr").read_text().splitlines(True)
    start = next(k for k, ln in enumerate(src) if ln.startswith("0 // left leg"))
    end = next(k for k, ln in enumerate(src) if ln.startswith("0 // body base"))
    one = tmp_path / "one_leg.ldr"
    one.write_text("".join(src[:start] + src[end:]))
    a = analyse(loaded(one))
    assert not any(r.role == "propulsion" for c in a.creations for r in c.roles.values())


@needs_shared
def test_example_models_carry_their_annotations(loaded, analysed):
    """tank.mpd, walker.ldr and fighter.ldr show the !BRIKSCAN meta lines and come out as vehicles."""
    tank = analysed(loaded, EXAMPLES / "tank.mpd")
    card = max(tank.cards, key=lambda c: len(c.creation.elements))
    assert (card.creation.name, card.creation.kind, card.structure_level) == ("Tank", "vehicle", 2)
    assert "annotated" in card.sl_reason
    walker = analysed(loaded, EXAMPLES / "walker.ldr")
    card = max(walker.cards, key=lambda c: len(c.creation.elements))
    w, m = card.creation, walker.model
    assert (w.name, w.kind) == ("Walker", "vehicle")
    legs = [i for i in w.elements if w.roles[i].role == "propulsion"]
    assert len(legs) == 20 and all(w.roles[i].source == "annotation" for i in legs)
    assert [p.type for p in card.propulsion] == ["ground"] and card.propulsion[0].move_in <= 5 * card.size
    assert sorted(x.name for x in card.weapons) == ["left arm gun", "right arm gun"]
    # the gun arms hang on shoulder pins: bodies of >= 3 bricks and >= 1" are Structure, the pivot a weak point
    # [000 §8.2: weapons mounted on an arm]; the Technic brick at the arm's end that holds only the gun's axle is
    # the gun's mount, part of the weapon [000 §7.1 Non-Structural]
    arms = [i for i in w.elements if m.elements[i].part == "3005.dat"]
    assert len(arms) == 2 and all(w.roles[i].role == "structural" and "turret/arm body" in w.roles[i].reason
                                  for i in arms)
    holders = [i for i in w.elements if m.elements[i].part == "6541.dat"]
    assert len(holders) == 2 and all(w.roles[i].role == "weapon" and "its mount" in w.roles[i].reason
                                     for i in holders)
    shoulders = [i for i in w.elements if m.elements[i].part == "3700.dat" and m.elements[i].bbox_min[1] < -150]
    assert len(shoulders) == 2 and all(w.roles[i].role == "weak point" for i in shoulders)
    fighter = analysed(loaded, EXAMPLES / "fighter.ldr")
    card = max(fighter.cards, key=lambda c: len(c.creation.elements))
    assert (card.creation.name, card.creation.kind, card.flying) == ("Fighter", "vehicle", True)
    assert sorted(x.name for x in card.weapons) == ["left wing blaster", "right wing blaster"]
    for a in (tank, walker, fighter):
        assert not a.diagnostics, [str(d) for d in a.diagnostics]


# ---------------------------------------------------------------- geometry: whatever encloses an interior [000 §7.1]

ROOT_DATA = ROOT / "tests" / "data"
INTERIOR = ROOT_DATA / "interior"
_IN3 = 63.5 ** 3


def _enclosure_of(a):
    """The main (largest non-minifig) creation and what it encloses."""
    from brikscan.analysis.interior import enclosure

    c = max((c for c in a.creations if c.kind != "minifig"), key=lambda c: len(c.elements))
    scenery = {i for s in a.creations if s.kind == "scenery" for i in s.elements}
    on_ground = any(j in scenery for i in c.elements for j in a.graph.neighbors(i))  # stands on a base plate
    return c, enclosure(a.model, c.elements, floor=on_ground)


@needs_shared
def test_watch_tower_walls_enclose_its_interior(loaded, analysed):
    a = analysed(loaded, EXAMPLES / "watch_tower.ldr")
    m = a.model
    tower, enc = _enclosure_of(a)
    walls = [i for i in tower.elements if m.elements[i].part in ("3004.dat", "3005.dat", "3008.dat", "3009.dat")
             and -192 <= m.elements[i].position[1] <= -24 and abs(m.elements[i].position[0]) <= 70
             and abs(m.elements[i].position[2]) <= 70]
    assert len(walls) >= 30
    inner = 120 * 120 * 192 / _IN3  # 6 x 6 studs inside, 8 bricks high: about 10.8 cubic inches
    for i in walls:
        r = tower.roles[i]
        assert r.role == "structural" and r.source == "geometry", (i, r.reason)
        assert "encloses an interior (" in r.reason and "cubic inches) [000 §7.1]" in r.reason
        assert inner / 2 <= enc.volume_in3(i, 63.5) <= inner * 2, enc.volume_in3(i, 63.5)
    assert set(walls) <= set(tower.structural_elements)
    frame = [i for i in tower.elements if m.elements[i].part == "60596.dat"]
    assert [tower.roles[i].role for i in frame] == ["structural"]  # the door frame is wall ...
    door = [i for i in tower.elements if m.elements[i].part == "60616a.dat"]
    # ... the door leaf still moves: "moving" parts are Non-Structural [000 §7.1]
    assert [tower.roles[i].role for i in door] == ["decoration"]


@needs_shared
def test_a_straight_wall_encloses_nothing(loaded, analysed):
    a = analysed(loaded, ROOT_DATA / "wall.ldr")
    wall, enc = _enclosure_of(a)
    assert enc.volume_ldu3 == 0 and not enc.element_volume_ldu3
    assert all(r.source != "geometry" for r in wall.roles.values())
    assert all(wall.roles[i].role == "structural" for i in wall.elements)  # still bricks of the Structure


@needs_shared
def test_a_solid_stack_of_bricks_encloses_nothing(loaded, analysed):
    """The bricks' own hollow undersides, closed by the bricks below, are no interior."""
    a = analysed(loaded, INTERIOR / "solid_stack.ldr")
    stack, enc = _enclosure_of(a)
    assert len(stack.elements) == 24
    assert enc.volume_ldu3 == 0 and not enc.element_volume_ldu3
    assert all(r.source != "geometry" for r in stack.roles.values())


@needs_shared
def test_a_closed_box_of_bricks_encloses_its_inside(loaded, analysed):
    a = analysed(loaded, INTERIOR / "closed_box.ldr")
    box, enc = _enclosure_of(a)
    inner = 120 * 120 * 48 / _IN3  # 6 x 6 studs, 2 bricks high
    assert len(enc.components_ldu3) == 1
    assert inner / 2 <= enc.volume_ldu3 / _IN3 <= inner * 2
    assert all(box.roles[i].role == "structural" and box.roles[i].source == "geometry" for i in box.elements)


@needs_shared
def test_an_open_topped_room_with_a_door_opening_encloses_its_inside(loaded, analysed):
    """No roof and a 2-stud door opening from the floor up: still a room ("the cap": the flood never goes down,
    openings up to 3 studs are sealed)."""
    a = analysed(loaded, INTERIOR / "open_room.ldr")
    m = a.model
    room, enc = _enclosure_of(a)
    inner = 120 * 160 * 72 / _IN3  # 6 x 8 studs, 3 bricks high
    assert inner / 2 <= enc.volume_ldu3 / _IN3 <= inner * 2
    walls = [i for i in room.elements if m.elements[i].part in ("3010.dat", "3004.dat", "3622.dat")]
    floor = [i for i in room.elements if m.elements[i].part == "3001.dat"]
    assert (len(walls), len(floor)) == (28, 10)
    assert all(room.roles[i].source == "geometry" and "encloses an interior" in room.roles[i].reason
               for i in walls + floor)
    # the same walls without the floor stand on nothing: the flood comes in from below
    from brikscan.analysis.interior import enclosure

    assert enclosure(m, walls).volume_ldu3 == 0


@needs_shared
def test_the_barracuda_hull_encloses_an_interior(loaded, analysed):
    a = analysed(loaded, MODELS_DIR / "6285 - Black Seas Barracuda.mpd")
    m = a.model
    ship, enc = _enclosure_of(a)
    assert enc.volume_ldu3 / _IN3 > 10
    hull = [i for i in ship.elements if m.elements[i].description.startswith("Boat Base")]
    assert hull and all(enc.encloses(i) for i in hull)
    assert all(ship.roles[i].role == "structural" and "encloses an interior" in ship.roles[i].reason
               for i in hull)
    cannons = [i for i in ship.elements if m.elements[i].description.startswith("Minifig Cannon")]
    assert cannons and all(ship.roles[i].role == "weapon" for i in cannons)  # weapons keep their role


def test_a_role_line_inside_a_begin_block_decides_its_part():
    """``0 !BRIKSCAN ROLE`` names the next part: inside a BEGIN … END block it is the more specific note (the
    battle table writes such lines when a brick of an annotated group gets another role)."""
    ann = parse_annotations(_model(f"0 !BRIKSCAN BEGIN propulsion type=ground\n1 4 0 0 0 {ID} 3001.dat\n"
                                   f"0 !BRIKSCAN ROLE weapon type=gun\n1 4 0 -24 0 {ID} 3001.dat\n"
                                   "0 !BRIKSCAN END\n"))
    notes = sorted(ann.line_notes.items())
    assert [ann.best_for((k,), ()).role for k, _ in notes] == ["propulsion", "weapon"]


def test_a_custom_printed_part_embedded_without_a_name_is_judged_as_the_part_it_is_printed_on():
    """A Studio or LDCad file embeds its custom printed parts with no name of their own ("0 50747ps1"): 75053 The
    Ghost's cockpit windscreens were unknown parts and the ship a building. Judged as the part they are printed
    on (LDraw's pattern and sticker suffixes p.., ps.., pr...., d..) they are its cockpit; a number that is no
    printed variant stays unknown."""
    from brikscan.analysis.roles import describe

    def embedded(stem: str):
        return SimpleNamespace(part=f"75053 - {stem}.dat", description=stem, category="", hose=False)

    cat, desc = describe(embedded("50747ps1"))
    assert desc.lower().startswith("windscreen 6x6x3 dome") and desc.endswith("(Printed)") and cat == "Windscreen"
    assert classify_part(embedded("50747ps1")).word == "windscreen"
    assert describe(embedded("3001d01"))[1].lower().startswith("brick 2x4")
    assert classify_part(embedded("3001p77")).role == "structural"
    assert describe(embedded("99999zz1"))[1] == "99999zz1"  # no such base part: its own name, as before
    # every split is tried: "973pd12" is a print of 973 (a minifig torso), not of a "973p"; BrickLink's "pb0001"
    assert describe(embedded("973pd12"))[1].lower().startswith("minifig torso")
    assert classify_part(embedded("973pb0001")).minifig_body == "torso"
    assert describe(embedded("3626bpr0001"))[1].lower().startswith("minifig head")


def test_a_wheel_holder_is_the_chassis_not_a_wheel():
    """6648's wheel holders (not in ../shared), "Car Wheel Holder 2 x 2 with Suspension", carried all four wheels
    and were "'wheel' is ground propulsion, but it does not reach the ground: decoration". What a wheel is held
    in does not roll: the chassis [000 §7.1 Vehicle: chassis]; the wheel itself is ground propulsion [000 §9.1]."""
    assert classify_part(_el("Car Wheel Holder  2 x  2 with Suspension", "Car")).role == "structural"
    assert classify_part(_el("Wheel 12 x 20 with Technic Axle Hole", "Wheel")).role == "propulsion"


def test_a_steering_arm_at_the_wheels_is_no_helm():
    """5533's Technic steering arms (not in ../shared), at its front wheels, were "a steering wheel is the
    Controls" beside the real steering wheel: disabling them would cripple the car [000 §9.4]. Steering linkage
    is a moving joint, a weak point [000 §7.1]; a steering wheel or stand stays the Controls."""
    assert classify_part(_el("Technic Steering Arm Large", "Technic")).role == "weak point"
    assert classify_part(_el("Technic Steering Wheel Bearing with  2 Pegholes", "Technic")).role == "weak point"
    assert classify_part(_el("Car Steering Stand and Wheel (Complete)", "Car")).role == "device"
    assert classify_part(_el("Technic Steering Wheel Small", "Technic")).role == "device"


def test_a_skeletons_bones_are_the_limbs_they_name():
    """"Minifig Skeleton Leg" is a leg and "... Arm" an arm of a skeleton figure [000 §9.5]: read as a torso,
    10176's bones lying about its dungeon (not in ../shared) made three minifigs of a skull, a torso and two legs.
    The one-piece "Minifig Skeleton (Shortcut)" is the whole figure, its torso."""
    bodies = {d: classify_part(_el(d, "Minifig")).minifig_body for d in (
        "Minifig Skeleton Leg", "Minifig Skeleton Arm", "Minifig Skeleton Leg with Square Foot",
        "Minifig Skeleton (Shortcut)", "Minifig Skeleton Torso with Shoulder Rods", "Minifig Head Skeleton with Stud")}
    assert bodies == {"Minifig Skeleton Leg": "leg", "Minifig Skeleton Arm": "arm",
                      "Minifig Skeleton Leg with Square Foot": "leg", "Minifig Skeleton (Shortcut)": "torso",
                      "Minifig Skeleton Torso with Shoulder Rods": "torso", "Minifig Head Skeleton with Stud": "head"}
