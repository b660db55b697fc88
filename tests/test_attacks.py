"""Attack options: the rulebook's worked shot, the Target Size table, the 45° fudge and height advantage, on small
battlefields built for them (tests/data/attacks/, written by make_attack_data.py), with independent geometry."""
from __future__ import annotations

import json
import math

import numpy as np
import pytest

from brikscan.battle.attacks import (describe, needed_roll, p_beats_armor, p_hit, parse_damage, percent,
                                     short_name)
from brikscan.rules.sight_tables import load_sight_rules

from conftest import ROOT, SCENES, needs_shared

DATA = ROOT / "tests" / "data" / "attacks"
RULES = load_sight_rules()


@pytest.fixture(scope="module")
def field(library_zip):
    from brikscan.battle.battlefield import load_battlefield

    memo: dict = {}

    def get(name: str):
        if name not in memo:
            path = DATA / name if not str(name).endswith(".toml") else SCENES / name
            memo[name] = load_battlefield(path, library_zip)
        return memo[name]

    return get


# ----------------------------------------------------------------------------------------------- rules (pure)

def test_thieven_hood_arithmetic():
    """[000 §4.2 Action]: longbow Use 3, Range 10", the rope -2 Target Size, 15" away = 5" Out of Range:
    "he needs to roll a 5 just to hit the rope", and with -5 on every die a natural 10 on his d10."""
    out = 15.0 - 10.0
    pen = RULES.range_penalty(out)
    assert pen == 5
    assert needed_roll(3, -2, 0, RULES) == 5  # "needs to roll a 5 just to hit"
    assert needed_roll(3, -2, pen, RULES) == 10
    # his 8 + the Overskill Benny's +2" of Range: 3" Out of Range, 8 - 2 - 3 = 3 = Use: a hit
    assert 8 - 2 - RULES.range_penalty(15.0 - 12.0) >= 3
    # on a d10 only a natural 10 (or an Overskill Benny on 6-9 whose d6 also survives -5) hits
    p = p_hit(3, -2, pen, 10, RULES)
    assert 0.1 <= p < 0.12
    # the longbow's 1d6+1 at -3 Out of Range against a rope of Armor 0: a 2 on the d6 does 0, no effect
    assert p_beats_armor((1, 6, 1, False), "0", 3, RULES) == pytest.approx(4 / 6)


def test_out_of_range_counts_every_started_inch():
    assert [RULES.range_penalty(x) for x in (0.0, 0.01, 0.99, 1.0, 2.96, 5.0)] == [0, 1, 1, 1, 3, 5]


def test_critical_rolls_bound_the_chance_to_hit():
    """A natural 1 always fails, whatever the modifiers; a 6 on a d6 earns a Bonus d6 (Overskill) [000 §1.2]."""
    assert p_hit(0, +20, 0, 6, RULES) == pytest.approx(5 / 6)
    assert p_hit(3, 0, 0, 6, RULES) == pytest.approx(4 / 6)
    assert p_hit(9, 0, 0, 6, RULES) == pytest.approx(1 / 6 * 4 / 6)  # a 6, then 3+ on the Benny die
    assert p_hit(30, 0, 0, 6, RULES) < 1e-3


def test_target_size_table():
    """[000 §5.1 Target Size]: +1 per 2" of Size, none for a whole minifig or 2x4, -1 for 2/3 or 2x2, -2 for 1/3
    or 1x1, -5 firing blind."""
    assert [RULES.minifig_modifier(n) for n in (3, 2, 1, 0)] == [0, -1, -2, -5]
    assert [RULES.size_modifier(x, 100.0, True) for x in (2.0, 3.9, 4.0, 6.0, 24.0)] == [1, 1, 2, 3, 12]
    assert RULES.size_modifier(1.0, 8.0, True) == 0
    assert RULES.size_modifier(1.0, 4.0, True) == -1
    assert RULES.size_modifier(0.5, 1.0, True) == -2
    assert RULES.size_modifier(4.0, 100.0, False) == -5


def test_height_advantage_is_capped_at_five_inches():
    assert [RULES.height_advantage_in(a) for a in (-3.0, 0.0, 2.5, 3.02, 5.0, 10.2, 40.0)] == \
        [0.0, 0.0, 2.0, 3.0, 5.0, 5.0, 5.0]


def test_damage_and_names():
    assert parse_damage("1d6+1", 6, 1, RULES) == (1, 6, 1, False)
    assert parse_damage("2xSkill", 10, 2, RULES) == (2, 10, 0, False)
    assert parse_damage("3d10 Exp", 6, 3, RULES) == (3, 10, 0, True)
    assert parse_damage("ammo", 6, 2, RULES) == (2, 10, 0, True)  # a Size 2 cannon's largest Explosive round
    assert parse_damage("", 6, 1, RULES) is None
    # damage must beat the Armor: 1d6 never beats 6 without a Bonus die
    assert p_beats_armor((1, 6, 0, False), "4", 0, RULES) == pytest.approx(2 / 6)
    assert p_beats_armor((1, 6, 0, False), "6", 0, RULES) == pytest.approx(1 / 6)  # 6 + Bonus d6
    assert [short_name(n) for n in ("Minifig Bow with Arrow", "Minifig Gun Rifle", "cannon.ldr",
                                    "right arm gun")] == ["bow", "rifle", "cannon", "right arm gun"]
    assert [percent(p) for p in (0.0, 0.001, 0.1667, 1.0)] == ["0 %", "<1 %", "17 %", "100 %"]


# ----------------------------------------------------------------------------------------------- battlefields

@needs_shared
def test_thieven_shoots_the_rope(field):
    """The worked shot on a battlefield: the rope 15" from the bow's barrel end, a 1x1 target (-2), the bow as
    the Core Rules' Long-Ranged Weapon (Use 3, Range 10"): the stat card's numbers flow through."""
    from brikscan.battle.attacks import attack_options, find_weapons

    bf = field("thieven.mpd")
    an = bf.analyses[0]
    card = next(c for c, k in zip(an.cards, an.creations) if k.name == "thieven")
    bow = card.weapons[0]
    bow.use, bow.range_in = 3.0, 10.0  # what the Core Rules chapter 3 gives a longbow
    bf.cache.pop("weapons", None)
    w = find_weapons(bf)[0]
    assert (w.name, w.mount.kind, w.skill_die) == ("bow", "held", 10)  # UNIT skill=d10: a Hero
    res = attack_options(bf)
    o = res.option("thieven", "rope")
    # independent geometry: the exact distance from the barrel end to the rope's box
    rope = bf.unit_named("rope")
    lo = np.min([bf.elements[i].bbox_min for i in rope.elements], axis=0)
    hi = np.max([bf.elements[i].bbox_max for i in rope.elements], axis=0)
    gap = np.linalg.norm(np.maximum(0, np.maximum(lo - o.origin_ldu, o.origin_ldu - hi))) / bf.ldu_per_inch
    assert o.distance_in == pytest.approx(gap, abs=0.02) and o.distance_in == pytest.approx(15.0, abs=0.05)
    assert o.range_in == 10.0 and o.out_of_range_in == pytest.approx(5.0, abs=0.05) and o.range_penalty == 5
    assert [(m.name, m.value) for m in o.modifiers] == [("target size", -2), ("out of range", -5)]
    assert o.use == 3 and o.needed_in_range == 5 and o.needed_roll == 10
    assert 0.1 <= o.p_hit < 0.12 and o.visible and o.in_arc


@needs_shared
def test_fixed_gun_fudge_is_45_degrees(field):
    """A fixed gun sees a minifig 40° off its axis but not one 50° off [000 §8.2 Ranged Weapons]; the angles are
    checked from the file's own numbers (the blaster 57899 is modelled along its -Z, placed unrotated)."""
    from brikscan.battle.attacks import attack_options

    bf = field("fixed_gun.mpd")
    res = attack_options(bf)
    w = res.weapons[0]
    assert w.mount.kind == "fixed" and np.allclose(w.axis, [0, 0, -1], atol=1e-6)
    assert any("no minifig at the controls" in m for m in res.warnings)  # [000 §9.4]
    for name, inside in (("at40", True), ("at50", False)):
        fig = bf.unit_named(name)
        torso = fig.sections["torso"][0]
        centre = (bf.elements[torso].bbox_min + bf.elements[torso].bbox_max) / 2
        v = centre - w.tip
        angle = math.degrees(math.acos(float(np.dot(v, [0, 0, -1]) / np.linalg.norm(v))))
        assert abs(angle - (40 if inside else 50)) < 2.5
        o = res.option("bunker", name)
        assert o.in_arc is inside and o.possible is inside and (o.p_hit > 0) is inside
        assert abs(o.aim_off_deg - angle) < 4.0  # its nearest part, not its centre


@needs_shared
def test_height_advantage_on_the_towers(field):
    """+1" of Range per 1" of altitude, at most +5" [000 §5.1 Other Modifiers]; and nobody targets the pillar he
    stands on."""
    from brikscan.battle.attacks import attack_options

    bf = field("towers.mpd")
    res = attack_options(bf)
    sniper, spotter = res.option("sniper", "target"), res.option("spotter", "target")
    base = res.weapons[0].range_in
    assert sniper.height_advantage_in == 5.0 and sniper.range_in == base + 5.0  # 10.2" up: capped
    assert spotter.height_advantage_in == 3.0 and spotter.range_in == base + 3.0  # 3.02" up
    assert res.option("spotter", "sniper").height_advantage_in == 0.0  # shooting upward: no penalty, no bonus
    pairs = {(o.attacker, o.target) for o in res.options}
    assert ("sniper", "sniper-pillar") not in pairs and ("spotter", "spotter-pillar") not in pairs
    assert ("sniper", "spotter-pillar") in pairs


@needs_shared
def test_mounts_from_the_connectivity_graph(field):
    """The tank's cannon turns on its turntable, the walker's guns on pinned arms, the fighter's blasters are
    fixed, minifigs hold theirs."""
    from brikscan.battle.attacks import find_weapons

    mounts = {(w.attacker.name, w.name): w.mount.kind for w in find_weapons(field("tank_ambush.toml"))}
    assert mounts[("tank", "cannon")] == "turntable"
    assert mounts[("walker", "right arm gun")] in ("hinge", "arm")
    assert mounts[("pilot", "left wing blaster")] == "fixed"
    assert mounts[("ambushers-4", "rifle")] == "held"


@needs_shared
def test_tank_target_size_counts_only_its_structure(field):
    """The tank (Size 3) seen whole is +1, not +2 for its antenna and cannon [000 §5.1 Target Size]."""
    from brikscan.battle.sight import line_of_sight

    bf = field("tank_ambush.toml")
    p = line_of_sight(bf, [bf.unit_named("wall-1")], [bf.unit_named("tank")]).pairs[0]
    assert p.visible and p.visible_fraction > 0.9 and p.modifier == 1
    from brikscan.battle.attacks import attack_options

    o = attack_options(bf, [bf.unit_named("walker")], [bf.unit_named("tank")]).options[0]
    assert [m.value for m in o.modifiers if m.name == "target size"] == [1]


@needs_shared
def test_los_skips_what_a_viewer_stands_on_and_scenery(field):
    from brikscan.battle.sight import line_of_sight

    bf = field("castle_assault.toml")
    res = line_of_sight(bf, [bf.unit_named("wall-archer"), bf.unit_named("lookout")], bf.units)
    pairs = {(p.viewer, p.target) for p in res.pairs}
    assert ("wall-archer", "wall") not in pairs and ("lookout", "tower") not in pairs
    assert ("wall-archer", "tower") in pairs and ("lookout", "wall") in pairs
    asked = line_of_sight(bf, [bf.unit_named("lookout")], [bf.unit_named("tower")], pair_support=True)
    assert len(asked.pairs) == 1


def test_los_prints_slivers_as_less_than_one_percent():
    from brikscan.cli.los_cmds import fraction_text

    assert [fraction_text(f) for f in (0.0, 0.004, 0.5, 1.0)] == ["0%", "<1 %", "50%", "100%"]


# ----------------------------------------------------------------------------------------------- CLI

def _run(argv, capsys):
    from brikscan.cli import main

    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


@needs_shared
def test_cli_json_contract(capsys, library_zip):
    rc, out, _ = _run(["attacks", str(DATA / "fixed_gun.mpd"), "--library", str(library_zip), "--json"], capsys)
    assert rc == 0
    data = json.loads(out)
    keys = {"attacker", "weapon", "target", "in_arc", "visible", "distance_in", "range_in", "out_of_range_in",
            "modifiers", "use", "needed_roll", "p_hit", "p_kill"}
    assert data["attacks"] and all(keys <= set(a) for a in data["attacks"])
    a40 = next(a for a in data["attacks"] if a["target"] == "at40")
    assert a40["in_arc"] is True and a40["needed_roll"] >= 2 and 0 < a40["p_hit"] <= 1
    assert all({"name", "value", "section"} <= set(m) for m in a40["modifiers"])


@needs_shared
def test_cli_table_reads_like_the_table(capsys, library_zip):
    """The bow's stat card (a Long-Ranged Weapon by the Core Rules chapter 3: Use 3, Range 10") gives the
    rulebook's shot straight from the model [000 §4.2 Action]."""
    rc, out, err = _run(["attacks", str(DATA / "thieven.mpd"), "--library", str(library_zip)], capsys)
    assert rc == 0
    assert 'thieven: bow (gun, held; Use 3, Range 10"' in out
    assert 'thieven → rope: bow, 14.98" of 10", 4.98" out of range, needs a natural 10, 10 %' in out


@needs_shared
@pytest.mark.parametrize("opt,value,word", [("--from", "nobody", "attacker"), ("--to", "nobody", "target"),
                                            ("--weapon", "trebuchet", "weapon")])
def test_cli_unknown_names_exit_5(capsys, library_zip, opt, value, word):
    rc, out, err = _run(["attacks", str(DATA / "fixed_gun.mpd"), "--library", str(library_zip), opt, value],
                        capsys)
    assert rc == 5 and len(err.strip().splitlines()) == 1
    assert f"no {word} named '{value}'" in err
    assert ("bunker" if word == "attacker" else "at40" if word == "target" else "blaster") in err


@needs_shared
def test_png_shows_the_arc(field, tmp_path):
    """Off-screen PNG: one cone per mounted weapon, a line per option coloured by chance to hit."""
    from brikscan.battle.attacks import attack_options
    from brikscan.render.attacks_view import attacks_plotter, render_attacks_png

    bf = field("fixed_gun.mpd")
    res = attack_options(bf)
    out = render_attacks_png(bf, res, tmp_path / "arcs.png")
    from PIL import Image

    img = np.asarray(Image.open(out).convert("RGB")).astype(int)
    assert img.shape[0] > 500 and img.std() > 10
    pl = attacks_plotter(bf, res, off_screen=True)
    try:
        s = pl.attack_summary
    finally:
        pl.close()
    assert s.cones == 1 and s.lines == 2 and (120, 120, 120) in s.colours  # at50: out of arc, grey


def test_describe_line():
    from brikscan.battle.attacks import AttackOption, Modifier

    o = AttackOption("bowman", "bow", "gun", "knight", "minifig", "held", True, 0.0, True, ["head", "torso", "legs"],
                     1.0, 8.96, 6.0, 0.0, 2.96, 3, [Modifier("target size", 0, "[000 §5.1 Target Size]")], 3.0, 6,
                     6, 3, 1 / 6, 0.05, "1d6", "4", True, False, np.zeros(3), np.array([0, 0, -1.0]))
    assert describe(o) == 'bowman → knight: bow, 8.96" of 6", 2.96" out of range, needs a natural 6, 17 %'


@needs_shared
def test_barrel_end_does_not_depend_on_what_was_read_before(library_zip):
    """A weapon's barrel end comes from its own points only: reading another battlefield first (whose bows are
    almost, not exactly, the same points) must not change it (it moved 6 LDU before, through a shared cache)."""
    import brikscan.battle.units as U
    from brikscan.battle.attacks import find_weapons
    from brikscan.battle.battlefield import load_battlefield

    def tip():
        bf = load_battlefield(DATA / "thieven.mpd", library_zip)
        return np.asarray(find_weapons(bf)[0].tip, float)

    U._AXIS_CACHE.clear()
    alone = tip()
    U._AXIS_CACHE.clear()
    for scene in ("tank_ambush.toml", "castle_assault.toml"):
        find_weapons(load_battlefield(SCENES / scene, library_zip))
    assert np.allclose(tip(), alone, atol=1e-6)
