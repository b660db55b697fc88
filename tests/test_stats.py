"""Stat cards against the rulebook's worked examples, Size measurement, Structure Level and the official sets.

The worked examples are built as small annotated LDraw models, so they run through the whole pipeline
(annotations -> roles -> creations -> measurement -> formulas), not just the formula functions.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from conftest import EXAMPLES, MODELS_DIR, needs_shared, official_models

ID = "1 0 0 0 1 0 0 0 1"
ROT45 = "0.7071068 0 0.7071068 0 1 0 -0.7071068 0 0.7071068"


def _mpd(tmp_path, name, body: list[str], creation: str) -> object:
    """An MPD whose main model places one submodel holding the whole creation."""
    text = ["0 FILE main.ldr", "0 main", f"1 16 0 0 0 {ID} thing.ldr", "0 FILE thing.ldr", "0 thing",
            "0 Name: thing.ldr", f"0 !BRIKSCAN CREATION {creation}"] + body
    p = tmp_path / name
    p.write_text("\n".join(text) + "\n")
    return p


def _bar(length_studs: int, y: int = 0) -> list[str]:
    """A straight structure of 1x12/1x6/1x3 plates length_studs long along X, bridged by a second layer."""
    out, x = [], 0
    sizes = {12: "60479.dat", 6: "3666.dat", 3: "3623.dat", 2: "3023.dat", 1: "3024.dat"}
    pieces = []
    left = length_studs
    for n in (12, 6, 3, 2, 1):
        while left >= n:
            pieces.append(n)
            left -= n
    for n in pieces:
        out.append(f"1 4 {x * 20 + n * 10} {y} 0 {ID} {sizes[n]}")
        x += n
    # bridge every joint with a 1x2 plate on top
    x = 0
    for n in pieces[:-1]:
        x += n
        out.append(f"1 14 {x * 20} {y - 8} 0 {ID} 3023.dat")
    return out


def _far(k: int) -> str:
    return f"{400 + 100 * k} 0 400"


@pytest.fixture(scope="module")
def analyse_path():
    from brikscan import load
    from brikscan.analysis.stats import analyse

    from conftest import LIBRARY_ZIP

    def run(path, **kw):
        return analyse(load(path, LIBRARY_ZIP), **kw)
    return run


def _main_card(a):
    return max(a.cards, key=lambda c: len(c.creation.elements))


@needs_shared
def test_ripper_blade(tmp_path, analyse_path):
    """[000 §8.1 Ripper Blade]: a Size 4 Melee Weapon costs 8 CP, Use 5, 4 Skill dice."""
    body = _bar(6) + ['0 !BRIKSCAN ROLE weapon type=melee size=4 name="Ripper Blade"',
                      f"1 71 {_far(0)} {ID} 3023.dat"]
    a = analyse_path(_mpd(tmp_path, "ripper.mpd", body, "kind=creature"), scale="stud")
    card = _main_card(a)
    (w,) = card.weapons
    assert (w.name, w.type, w.size, w.cost, w.use, w.damage) == ("Ripper Blade", "melee", 4, 8, 5, "4xSkill")


@needs_shared
def test_missile_racks(tmp_path, analyse_path):
    """[000 §8.4 Payload Example: Missile Racks]: two Size 3 Launchers (9 CP, Use 6, 18") with six Size 1
    Explosives each (1 CP, 1d10) cost 30 CP."""
    body = _bar(12)
    for r in range(2):
        body += [f'0 !BRIKSCAN BEGIN weapon type=launcher size=3 name="missile rack {r + 1}"',
                 f"1 0 {_far(r)} {ID} 3001.dat", f"1 0 {_far(r).replace('400 ', '440 ', 1)} {ID} 3001.dat",
                 "0 !BRIKSCAN END"]
        for k in range(6):
            body += ["0 !BRIKSCAN ROLE weapon type=explosive size=1",
                     f"1 4 {1000 + 30 * k + 300 * r} 0 1000 {ID} 3024.dat"]
    a = analyse_path(_mpd(tmp_path, "racks.mpd", body, "kind=vehicle sl=2"), scale="stud")
    card = _main_card(a)
    racks = [w for w in card.weapons if w.type == "launcher"]
    bombs = [w for w in card.weapons if w.type == "explosive"]
    assert len(racks) == 2 and len(bombs) == 12
    assert all((w.cost, w.use, w.range_in, w.size) == (9, 6, 18, 3) for w in racks)
    assert all((w.cost, w.damage) == (1, "1d10 Exp") for w in bombs)
    assert sum(w.cost for w in card.weapons) == 30


@needs_shared
def test_scorpiosaurus_power_limit(tmp_path, analyse_path):
    """[000 §8.1 Power Limit Example: Scorpiosaurus Rex]: Size 3 -> 6" of Power; 5"+1"+1" does not fit."""
    body = _bar(9)
    for k, (name, size) in enumerate((("claw 1", 1), ("claw 2", 1), ("stinger", 5))):
        body += [f'0 !BRIKSCAN ROLE weapon type=melee size={size} name="{name}"', f"1 0 {_far(k)} {ID} 3023.dat"]
    path = _mpd(tmp_path, "scorpio.mpd", body, "kind=creature sl=1")
    card = _main_card(analyse_path(path, scale="stud"))
    assert card.creation.kind == "creature" and card.size == 3
    assert card.power == 6 and card.weapons_fit is False
    assert any("exceed Power 6" in w for w in card.warnings)
    # without one claw (annotated away on the command line) stinger + claw = 6" fits
    claw = next(w for w in card.weapons if w.name == "claw 2").elements[0]
    card2 = _main_card(analyse_path(path, scale="stud", overrides=[f"{claw}=decoration"]))
    assert card2.weapons_fit is True and sorted(w.size for w in card2.weapons) == [1, 5]


@needs_shared
def test_shdt_vindicator(tmp_path, analyse_path):
    """[000 §7.2 Size Damage Example]: Size 12", Structure Level 4, Armor 4d10, Power 24"."""
    path = _mpd(tmp_path, "vindicator.mpd", _bar(36), 'name="SHDT Vindicator" kind=vehicle')
    card = _main_card(analyse_path(path, scale="stud", sl=4))
    assert card.creation.name == "SHDT Vindicator"
    assert abs(card.size_in - 12) < 0.01 and card.size == 12
    assert (card.structure_level, card.armor, card.power, card.base_cost) == (4, "4d10", 24, 48)
    assert card.weak_point_armor == "3d10"


@needs_shared
def test_wrecked_catapult_section_sl_capped_by_size(tmp_path, analyse_path):
    """[000 §7.3 Wrecked Catapult]: a section of Size 1 cannot keep SL 2: it drops to SL 1 (Armor 1d10)."""
    path = _mpd(tmp_path, "front.mpd", _bar(3), "kind=vehicle sl=2")
    card = _main_card(analyse_path(path, scale="stud"))
    assert card.size == 1
    assert (card.structure_level, card.armor) == (1, "1d10")
    assert any("above Size 1" in w for w in card.warnings)
    big = _main_card(analyse_path(_mpd(tmp_path, "whole.mpd", _bar(12), "kind=vehicle sl=2"), scale="stud"))
    assert (big.size, big.structure_level, big.armor, big.base_cost) == (4, 2, "2d10", 8)


@needs_shared
def test_flamethrower_and_gun_checks(tmp_path, analyse_path):
    """Digest checks: FlameThrower Size 3 -> 9 CP, Use 4, 8", 3d4; Gun Size 1 -> 3 CP, Use 3, 6", 1d6."""
    body = _bar(12) + ["0 !BRIKSCAN ROLE weapon type=flamethrower size=3", f"1 0 {_far(0)} {ID} 3023.dat",
                       "0 !BRIKSCAN ROLE weapon type=gun size=1", f"1 0 {_far(1)} {ID} 3023.dat"]
    card = _main_card(analyse_path(_mpd(tmp_path, "ft.mpd", body, "kind=vehicle"), scale="stud"))
    ft = next(w for w in card.weapons if w.type == "flamethrower")
    gun = next(w for w in card.weapons if w.type == "gun")
    assert (ft.cost, ft.use, ft.range_in) == (9, 4, 8) and ft.damage.startswith("3d4")
    assert (gun.cost, gun.use, gun.range_in, gun.damage) == (3, 3, 6, "1d6")


@needs_shared
def test_default_move_and_propulsion_cost(tmp_path, analyse_path):
    """Ground default Move 10" [000 §9.1 Movement Speed Examples] (or, as an option, 18 - 2*Size - SL
    [004 §9.1]) at 1 CP per 2" [000 §9.1]; annotated Move wins."""
    body = _bar(6) + ["0 !BRIKSCAN BEGIN propulsion type=ground"] + \
        [f"1 0 {_far(k)} {ID} 3641.dat" for k in range(4)] + ["0 !BRIKSCAN END"]
    path = _mpd(tmp_path, "cart.mpd", body, "kind=vehicle sl=1")
    card = _main_card(analyse_path(path, scale="stud"))
    (p,) = card.propulsion
    assert card.size == 2 and p.move_in == 10 and p.cost == p.move_in / 2
    assert card.total_cost == card.base_cost + p.cost
    (f,) = _main_card(analyse_path(path, scale="stud", move="formula")).propulsion
    assert f.move_in == 18 - 2 * 2 - 1 and f.cost == f.move_in / 2
    body2 = _bar(6) + ["0 !BRIKSCAN ROLE propulsion type=flying move=12", f"1 0 {_far(0)} {ID} 3023.dat"]
    card2 = _main_card(analyse_path(_mpd(tmp_path, "flyer.mpd", body2, "kind=vehicle sl=2"), scale="stud"))
    (q,) = card2.propulsion
    assert (q.move_in, q.cost) == (12, 12 / 2 * (2 + 2))  # flight (2 + SL) CP per 2" [000 §9.1]
    assert card2.flying and card2.power == 2  # 1 x Size while flying in the air [000 §8.1]
    space = _main_card(analyse_path(_mpd(tmp_path, "flyer.mpd", body2, "kind=vehicle sl=2"), scale="stud",
                                    space=True))
    assert not space.flying and space.space and space.power == 4  # in space: 2 x Size [000 §8.1 Power Limits]


@needs_shared
def test_rounding_and_scale(tmp_path, analyse_path):
    path = _mpd(tmp_path, "r.mpd", _bar(10), "kind=building sl=1")  # 200 LDU
    at = {(s, r): _main_card(analyse_path(path, scale=s, round_mode=r)) for s in ("stud", "inch")
          for r in ("nearest", "up", "down")}
    assert abs(at["stud", "nearest"].size_in - 200 / 60) < 1e-3
    assert abs(at["inch", "nearest"].size_in - 200 / 63.5) < 1e-3
    assert [at["stud", r].size for r in ("nearest", "up", "down")] == [3, 4, 3]
    assert [at["inch", r].size for r in ("nearest", "up", "down")] == [3, 4, 3]


@needs_shared
def test_measure_is_orientation_free(tmp_path, loaded):
    from brikscan.analysis.measure import measure_size

    p = tmp_path / "rot.ldr"
    p.write_text(f"0 rot\n1 4 0 0 0 {ID} 60479.dat\n1 4 0 0 200 {ROT45} 60479.dat\n")
    m = loaded(p)
    a = measure_size(m, [0], 60.0)
    b = measure_size(m, [1], 60.0)
    assert abs(a.length_ldu - 240) < 0.5 and abs(b.length_ldu - 240) < 0.5
    assert abs(a.size_in - 4) < 0.01
    assert abs(abs(b.axis @ np.array([1, 0, -1]) / math.sqrt(2)) - 1) < 1e-3  # along the rotated plate
    assert "oriented bounding box" in a.method
    both = measure_size(m, [0, 1], 60.0)
    assert both.length_ldu > 240


@needs_shared
def test_2001_rules_run_and_say_what_is_unsupported(tmp_path, analyse_path):
    body = _bar(12) + ["0 !BRIKSCAN ROLE weapon type=gun size=2", f"1 0 {_far(0)} {ID} 3023.dat"]
    a = analyse_path(_mpd(tmp_path, "old.mpd", body, "kind=vehicle sl=2"), rules="2001", scale="stud")
    card = _main_card(a)
    assert a.rules == "2001"
    assert card.base_cost is not None
    (w,) = card.weapons
    assert w.cost is None and "2001" in w.notes


@needs_shared
def test_minifig_card_is_four_cp(loaded):
    """[000 §9.5 The Minifig]: Size 1, SL ½, Armor 4, Move 5", Mind d6: 4 CP."""
    from brikscan.analysis.stats import analyse

    a = analyse(loaded(MODELS_DIR / "6285 - Black Seas Barracuda.mpd"))
    figs = [c for c in a.cards if c.creation.kind == "minifig"]
    assert figs
    for f in figs:
        assert (f.size, f.structure_level, f.armor) == (1, 0.5, "4")
        assert f.total_cost == 4 + sum(w.cost for w in f.weapons) + sum(s.cost for s in f.specialties) + \
            sum(e.cost or 0 for e in f.extras)  # Gunners at the cannons +1 CP [000 §11.2]
    armed = [w for f in figs for w in f.weapons]
    assert armed and all(w.size in (1, 2) for w in armed)


@needs_shared
def test_json_contract(loaded):
    from brikscan.analysis.stats import analyse, analysis_json

    d = analysis_json(analyse(loaded(MODELS_DIR / "21109 - Exo Suit.mpd")))
    assert {"rules", "scale_ldu_per_inch", "creations"} <= set(d)
    assert d["rules"] == "2010" and d["scale_ldu_per_inch"] == 63.5
    keys = {"name", "kind", "elements", "structural_elements", "size_in", "size", "structure_level", "armor",
            "base_cost", "weapons", "propulsion", "power", "total_cost", "roles"}
    all_el = []
    for c in d["creations"]:
        assert keys <= set(c)
        assert c["kind"] in ("building", "vehicle", "creature", "minifig", "loose item")
        assert set(c["structural_elements"]) <= set(c["elements"])
        assert set(c["roles"]) == {str(i) for i in c["elements"]}
        assert all(r["role"] and r["reason"] for r in c["roles"].values())
        all_el += c["elements"]
    assert len(all_el) == len(set(all_el))  # every element in at most one creation


@needs_shared
@pytest.mark.parametrize("name", ["castle_wall.ldr", "watch_tower.ldr", "tank.mpd", "fighter.ldr", "walker.ldr",
                                  "squad.ldr"])
def test_bundled_examples(name, loaded):
    from brikscan.analysis.stats import analyse

    path = EXAMPLES / name
    if not path.exists():
        pytest.skip(f"ldraw_models/{name} not there yet")
    a = analyse(loaded(path))
    assert a.cards
    main = max(a.cards, key=lambda c: len(c.creation.elements))
    if name == "squad.ldr":
        assert sum(1 for c in a.cards if c.creation.kind == "minifig") == 6
        assert sum(1 for c in a.cards for w in c.weapons) == 6  # every squad member holds a weapon
    elif name == "fighter.ldr":
        assert main.creation.kind == "vehicle" and main.flying
    elif name in ("castle_wall.ldr", "watch_tower.ldr"):
        assert main.creation.kind == "building" and main.structure_level >= 1
    assert main.total_cost >= main.base_cost


def _all_official():
    return [p for p in official_models()]


@needs_shared
def test_every_official_model_analyses(loaded):
    """Every shared official model gives cards without error, and blast/hit (the damage scene) and los (the
    units) see the same creations with the same Size, SL and Armor (loads once each; a few minutes)."""
    from brikscan.analysis.stats import analyse, analysis_json
    import json

    models = _all_official()
    assert len(models) >= 80
    for p in models:
        from brikscan import load
        from conftest import LIBRARY_ZIP

        m = load(p, LIBRARY_ZIP)
        a = analyse(m)
        d = analysis_json(a)
        json.dumps(d)
        assert d["creations"], p.name
        covered = {i for c in d["creations"] for i in c["elements"]}
        assert covered == {e.index for e in m.elements if not e.missing}, p.name
        _commands_agree(a, p.name)


def _commands_agree(a, name: str) -> None:
    """stats, blast, hit and los read one analysis: the same creations with the same Size, SL and Armor."""
    from brikscan.battle.dice import armor_text
    from brikscan.battle.scene import build_scene
    from brikscan.battle.units import find_units

    scene = build_scene(a)
    cards = {c.creation.name: c for c in a.cards}
    for body in scene.bodies:
        if body.name not in cards:  # missing parts only: in no creation
            assert all(a.model.elements[i].missing for i in body.elements), (name, body.name)
            continue
        card = cards[body.name]
        assert (body.size, body.sl, sorted(body.elements)) == \
            (card.size, card.structure_level, sorted(card.creation.elements)), (name, body.name)
        assert armor_text(body.sl, a.rules_table, body.armor_fixed) == card.armor, (name, body.name)
    for u in find_units(a):
        assert u.name in cards and sorted(u.elements) == sorted(cards[u.name].creation.elements), (name, u.name)
        assert u.kind == cards[u.name].creation.kind, (name, u.name)


# ---------------------------------------------------------------- rule numbers from the tables, explicit caches

def test_minifig_move_and_mind_live_in_the_rules_tables():
    from brikscan.analysis import stats
    from brikscan.rules.tables import load_raw, load_rules

    assert not hasattr(stats, "MINIFIG_MOVE_IN") and not hasattr(stats, "MIND_D6_CP")
    raw = load_raw("2010")
    assert raw["minifig"]["move_in"] == 5 and "[000 §9.5 The Minifig]" in raw["minifig"]["source"]
    assert "[000 §10.1 Minds]" in raw["minds"]["source"]
    r = load_rules("2010")
    assert r.minds.cost() == 1 and r.minds.cost("d4") == 0.5 and r.minds.cost("d12") == 8
    assert r.minifig.hand_weapon_max_size == 2 and r.size.studs_per_inch == 3
    assert stats.scale_ldu_per_inch("stud", r) == 60 and stats.scale_ldu_per_inch("inch", r) == 63.5


@needs_shared
def test_minifig_card_reads_move_and_mind_from_the_rules_object(loaded):
    """A minifig = 4 CP [000 §9.5]: 0.5 Structure + 5" walk (2.5) + d6 Mind (1), all from the Rules object."""
    from brikscan.analysis.stats import analyse, stat_card
    from brikscan.rules.tables import load_rules

    a = analyse(loaded(EXAMPLES / "squad.ldr"))
    card = next(c for c in a.cards if c.creation.kind == "minifig")
    assert (card.propulsion[0].move_in, card.propulsion[0].cost, card.mind_cost, card.base_cost) == (5, 2.5, 1, 0.5)
    assert card.total_cost == 4 + sum(w.cost or 0 for w in card.weapons)
    r = load_rules("2010")
    r2 = r.model_copy(update={"minifig": r.minifig.model_copy(update={"move_in": 7.0}),
                              "minds": r.minds.model_copy(update={"default_die": "d8"})})
    c2 = stat_card(a.model, card.creation, r2, a.ldu_per_inch, graph=a.graph)
    assert (c2.propulsion[0].move_in, c2.propulsion[0].cost, c2.mind_cost) == (7, 3.5, 2)
    old = analyse(a.model, rules="2001")
    fig = next(c for c in old.cards if c.creation.kind == "minifig")
    assert fig.mind_cost == 0 and any("2001 has no Mind costs" in w for w in fig.warnings)


@needs_shared
def test_analysis_cache_is_explicit_not_hidden_on_the_model(tmp_path):
    from brikscan import load
    from brikscan.analysis.stats import AnalysisCache, analyse, analysis_json

    from conftest import LIBRARY_ZIP

    m = load(EXAMPLES / "tank.mpd", LIBRARY_ZIP)
    first = analysis_json(analyse(m))
    assert not any(k.startswith("_brikscan") for k in vars(m)), sorted(vars(m))
    cache = AnalysisCache()
    second = analysis_json(analyse(m, cache=cache))
    assert cache.hulls and set(cache.hulls) <= {e.part for e in m.elements}
    third = analysis_json(analyse(m, cache=cache, scale="stud"))
    assert first == second and third["scale_ldu_per_inch"] == 60
    assert not any(k.startswith("_brikscan") for k in vars(m))


# ---------------------------------------------------------------- SL suggestion and reason texts from the tables

def _fake(colours: list[str], kind: str, descriptions: list[str] | None = None, propulsion: str = ""):
    """A stand-in model and Creation for ``suggest_sl``: element i has colour name colours[i]; with
    ``propulsion`` one more element is propulsion of that type."""
    from types import SimpleNamespace as NS

    from brikscan.analysis.roles import RoleDecision

    descriptions = descriptions or ["Brick 1 x 2"] * len(colours)
    model = NS(colours=NS(name=lambda c: colours[c]),
               elements=[NS(colour=i, description=d) for i, d in enumerate(descriptions)])
    roles = {len(colours): RoleDecision("propulsion", "", "part", {"type": propulsion})} if propulsion else {}
    creation = NS(structural_elements=list(range(len(colours))), elements=list(range(len(colours))), kind=kind,
                  roles=roles, rowed={}, motor={})  # no oars rowed by its crew, no motor in a hull
    return model, creation


def test_suggest_sl_reads_the_sl_suggestion_table():
    """digest §13.1: glass 0, wood 1, stone 2 (+1 for brick-built tanks and bunkers), plastic 1 / ½ for creatures."""
    from brikscan.analysis.stats import suggest_sl
    from brikscan.rules.tables import load_rules

    r = load_rules("2010")
    assert suggest_sl(*_fake(["Trans-Clear"] * 3, "building"), r)[0] == 0
    assert suggest_sl(*_fake(["Reddish Brown"] * 3, "building"), r)[0] == 1
    assert suggest_sl(*_fake(["Red"] * 3, "creature"), r)[0] == 0.5
    assert suggest_sl(*_fake(["Red"] * 3, "vehicle"), r)[0] == 1
    grey = _fake(["Light Bluish Gray"] * 10, "vehicle")
    sl, why = suggest_sl(*grey, r)
    assert sl == 3 and "+1: built mostly from bricks" in why and "stone or metal, SL 2" in why
    assert suggest_sl(*_fake(["Black"] * 9, "vehicle"), r)[0] == 2  # fewer than 10 bricks: no bonus
    # "grey or black tanks and bunkers" (digest §13.1): a tank on treads gets the bonus, a black-hulled ship or
    # a jet does not
    assert suggest_sl(*_fake(["Black"] * 10, "vehicle", propulsion="ground"), r)[0] == 3
    booster = _fake(["Black"] * 10, "vehicle", propulsion="ground")
    booster[1].roles[11] = booster[1].roles[10].__class__("propulsion", "", "part", {"type": "thrust"})
    assert suggest_sl(*booster, r)[0] == 3  # a car with a jet booster still drives like a tank
    for moving in ("water", "thrust", "forward_flight"):
        sl, why = suggest_sl(*_fake(["Black"] * 10, "vehicle", propulsion=moving), r)
        assert sl == 2 and "+1" not in why, moving
    # the build must *be* grey or black: a red coach on a grey chassis (49 % grey, the largest material) is
    # SL 2 by its colours and no tank; more than half grey and it is one
    coach = _fake(["Dark Bluish Gray"] * 10 + ["Red"] * 6 + ["Reddish Brown"] * 5, "vehicle", propulsion="ground")
    sl, why = suggest_sl(*coach, r)
    assert sl == 2 and "stone or metal" in why and "+1" not in why
    assert suggest_sl(*_fake(["Dark Bluish Gray"] * 11 + ["Red"] * 10, "vehicle", propulsion="ground"), r)[0] == 3
    assert suggest_sl(*_fake([], "building"), r) == (1.0, "no structural elements; SL 1 (unaligned scenery default)")
    assert suggest_sl(*grey) == suggest_sl(*grey, r)  # no rules: the 2010 tables
    # panes are the windows of their frame: 6597's control tower, 9 of 19 structural pieces glass in a white and
    # grey frame, is the frame's material, not SL 0 glass; a build more than half glass is glass
    tower = _fake(["Trans-Clear"] * 9 + ["White"] * 7 + ["Light Gray"] * 3, "building")
    sl, why = suggest_sl(*tower, r)
    assert sl == 1 and "plain coloured plastic" in why and "47% glass are its windows" in why
    assert suggest_sl(*_fake(["Trans-Clear"] * 10 + ["White"] * 9, "building"), r)[0] == 0

    # change the table, the suggestion follows
    t = r.sl_suggestion
    mats = [m.model_copy(update={"sl": 3.0, "brick_bonus": 2.0}) if m.name == "stone" else
            m.model_copy(update={"creature_sl": 1.0}) if m.name == "plastic" else m for m in t.materials]
    r2 = r.model_copy(update={"sl_suggestion": t.model_copy(update={
        "materials": mats, "brick_bonus_min_bricks": 20, "max_sl": 4.0, "empty_sl": 0.5})})
    sl, why = suggest_sl(*grey, r2)
    assert sl == 3 and "SL 3" in why and "+2" not in why  # 10 bricks < 20: no bonus any more
    assert suggest_sl(*_fake(["Dark Bluish Gray"] * 20, "building"), r2)[0] == 4  # 3 + 2, capped at 4
    assert suggest_sl(*_fake(["Red"] * 3, "creature"), r2)[0] == 1
    assert suggest_sl(*_fake([], "building"), r2) == (0.5, "no structural elements; SL ½ (unaligned scenery default)")
    glass_is_wood = [m.model_copy(update={"keywords": ["trans"], "sl": 1.0}) if m.name == "glass" else m
                     for m in t.materials]
    r3 = r.model_copy(update={"sl_suggestion": t.model_copy(update={"materials": glass_is_wood})})
    sl, why = suggest_sl(*_fake(["Trans-Clear"] * 3, "building"), r3)
    assert sl == 1 and "glass, SL 1" in why


def test_weapon_size_rounding_reads_the_table():
    """[000 §8.1 Weapon Size]: nearest inch, minimum 1 (``rules.weapon_size``)."""
    from brikscan.analysis import stats
    from brikscan.rules.formulas import round_weapon_size
    from brikscan.rules.tables import load_rules

    assert not hasattr(stats, "_round_weapon_size")
    r = load_rules("2010")
    assert [round_weapon_size(x, r) for x in (0.2, 1.49, 1.5, 2.7)] == [1, 1, 2, 3]
    r2 = r.model_copy(update={"weapon_size": r.weapon_size.model_copy(update={"round": "up", "minimum": 2})})
    assert [round_weapon_size(x, r2) for x in (0.2, 2.0000000001, 2.1)] == [2, 2, 3]


@needs_shared
def test_minifig_reason_texts_quote_the_rules_object(loaded):
    """[000 §9.5 The Minifig] Size 1, SL ½, Armor 4 in 2010; the 2001 Trooper's flat Armor 5 [001 §1.3]."""
    from brikscan.analysis.connectivity import build_graph
    from brikscan.analysis.creations import find_creations
    from brikscan.analysis.stats import analyse, stat_card
    from brikscan.rules.tables import load_rules

    a = analyse(loaded(EXAMPLES / "squad.ldr"))
    card = next(c for c in a.cards if c.creation.kind == "minifig")
    assert card.sl_reason == "a minifig is SL ½ [000 §9.5 The Minifig]"
    body = card.creation.structural_elements[0]
    assert "(Size 1, SL ½, Armor 4)" in card.creation.roles[body].reason
    old = analyse(a.model, rules="2001")
    fig = next(c for c in old.cards if c.creation.kind == "minifig")
    assert "(Size 1, SL ½, Armor 5)" in fig.creation.roles[fig.creation.structural_elements[0]].reason
    r = load_rules("2010")
    r2 = r.model_copy(update={"minifig": r.minifig.model_copy(update={"sl": 1.0, "armor_fixed": 6})})
    c2 = stat_card(a.model, card.creation, r2, a.ldu_per_inch, graph=a.graph)
    assert c2.sl_reason == "a minifig is SL 1 [000 §9.5 The Minifig]"
    figs = [c for c in find_creations(a.model, build_graph(a.model), rules=r2) if c.kind == "minifig"]
    assert figs and all("(Size 1, SL 1, Armor 6)" in f.roles[f.structural_elements[0]].reason for f in figs)


def test_a_muzzle_strung_on_its_barrel_is_part_of_that_weapon():
    """Pieces strung on a gun barrel (bushes slid on a bar: no connector joins them) and the mount that holds
    them are one weapon with the barrel, not a Size 1 gun each; two barrels on one mount stay one (twin) gun."""
    import networkx as nx

    from brikscan.analysis.creation import Creation
    from brikscan.analysis.roles import RoleDecision
    from brikscan.analysis.stats import _weapon_groups

    def weapon(group=""):
        return RoleDecision("weapon", "test", "geometry", {"type": "gun"}, group)

    g = nx.Graph([(0, 1), (0, 2), (5, 6)])  # mount 0 holds barrels 1 and 2; 3, 4 slide on 1; 6 a pin for 5
    g.add_nodes_from(range(9))  # every element is a node of the connectivity graph
    roles = {0: weapon("with:1"), 1: weapon(), 2: weapon(), 3: weapon("with:1"), 4: weapon("with:1"),
             5: weapon("with:7"), 6: weapon("with:5"), 7: weapon(), 8: weapon()}
    c = Creation("ship", "vehicle", list(range(9)), roles=roles)
    assert _weapon_groups(g, c) == [[0, 1, 2, 3, 4], [5, 6, 7], [8]]


@needs_shared
def test_the_imperial_shuttles_twin_cannons_are_two_weapons(loaded, library_zip):
    """10212's two twin laser cannons (bars with Technic bushes and half pins at their muzzles) are two guns; no
    Technic pin or bush is a weapon of its own [000 §8.2]."""
    from brikscan.analysis.stats import analyse

    m = loaded(MODELS_DIR / "10212-1 - Imperial Shuttle - UCS.mpd", library_zip)
    card = next(c for c in analyse(m).cards if c.creation.name == "10212-1 - Imperial Shuttle - UCS")
    alone = [w.name for w in card.weapons if len(w.elements) == 1]
    assert not any("Technic" in n for n in alone), alone
    twins = [w for w in card.weapons if sum("Bar  8L" in m.elements[i].description for i in w.elements) == 2]
    assert len(twins) == 2


def test_a_line_of_weapons_alike_is_named_for_all_of_them():
    """Weapons with the same stats share a card line (×N); the line names them all, not the first alone: 10019's
    26 Size 1 guns (its dorsal turrets of lightsaber blades, its control-stick guns) read "Hinge Control Stick
    ×26" before."""
    from types import SimpleNamespace

    from brikscan.render.stat_card import grouped_weapons, weapon_label

    def gun(name):
        return SimpleNamespace(name=name, type="gun", size=1, cost=3, use=3, range_in=6, damage="1d6",
                               category="")

    card = SimpleNamespace(weapons=[gun("Hinge Control Stick"), gun("Bar 4L Lightsaber Blade"), gun("gun 3"),
                                    gun("Hinge Control Stick")])
    ((n, _, total, label),) = grouped_weapons(card)
    assert (n, total) == (4, 12) and label == "Hinge Control Stick, Bar 4L Lightsaber Blade and 1 more"
    assert weapon_label(["Minifig Speargun"] * 4) == "Minifig Speargun"
