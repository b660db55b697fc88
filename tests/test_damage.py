"""Destruction previews (issue 5) against the rulebook's worked examples, on real geometry.

Models in tests/data: wall.ldr (a 16-stud wall of 1x2 bricks, 6 rows), catapult.ldr (front 3", rear 1", joined
only by one 1x3 plate), minifigs.ldr (three minifigs in a row).
"""
from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import LIBRARY_ZIP, needs_shared

DATA = Path(__file__).resolve().parent / "data"
WALL, CATAPULT, MINIFIGS = DATA / "wall.ldr", DATA / "catapult.ldr", DATA / "minifigs.ldr"
FACE = (160.0, -60.0, -10.0)  # on the wall's front face, half way along and up
SCALE = "stud"  # these scenes are laid out for the rules' brick-stick inch [000 §1.2]: 3 studs
INCH = 60.0


@pytest.fixture(scope="module")
def rules():
    from brikscan.rules.tables import load_rules

    return load_rules("2010")


def _exact_distances(model, point) -> np.ndarray:
    """Independent nearest-point distances per element with trimesh (not brikscan's own code)."""
    import trimesh

    out = []
    for i in range(len(model.elements)):
        tri = model.mesh.element_triangles(i).astype(np.float64)
        mesh = trimesh.Trimesh(tri.reshape(-1, 3), np.arange(len(tri) * 3).reshape(-1, 3), process=False)
        _, d, _ = trimesh.proximity.closest_point(mesh, [point])
        out.append(float(d[0]))
    return np.array(out)


# ------------------------------------------------------------------ pure pieces (no ../shared needed)

def test_point_triangle_distance_matches_trimesh():
    import trimesh

    from brikscan.battle.explosion import point_triangle_distance

    rng = np.random.default_rng(5)
    tri = rng.normal(size=(400, 3, 3)) * 30
    for p in rng.normal(size=(6, 3)) * 40:
        mine = point_triangle_distance(p, tri)
        ref = [trimesh.triangles.closest_point(t[None], p[None])[0] for t in tri]
        ref = np.linalg.norm(np.array(ref) - p, axis=1)
        assert np.allclose(mine, ref, atol=1e-6)


def test_expected_rings_are_order_statistics(rules):
    from brikscan.battle.dice import DiceSpec, expected_rings
    from brikscan.rules.formulas import expected_rolls

    plain = expected_rings(DiceSpec(3, 10), rules, bonus_dice=False)
    assert [r.damage for r in plain][0] == pytest.approx(16.5)
    lowest = sum(((10 - v) / 10) ** 3 for v in range(10))  # E[min of 3d10] = 3.025
    assert plain[2].damage == pytest.approx(lowest, abs=0.01)
    assert [r.knockback_in for r in plain] == [3, 2, 1]
    bonus = expected_rings(DiceSpec(3, 10), rules, bonus_dice=True)
    assert bonus[0].damage == pytest.approx(expected_rolls(3, 10, rules, True), abs=0.01)  # 3 × 5.92


def test_rolls_must_match_the_dice(rules):
    from brikscan.battle.dice import parse_explosion_dice, parse_rolls
    from brikscan.errors import UsageError

    spec = parse_explosion_dice("3d10", rules)
    assert parse_rolls("3,6,7", spec, rules) == [(3,), (6,), (7,)]
    assert parse_rolls("10+4,1,2", spec, rules)[0] == (10, 4)
    for bad in ("3,6", "3,6,7,8", "3,6,11", "3+2,6,7", "a,b,c"):
        with pytest.raises(UsageError):
            parse_rolls(bad, spec, rules)
    for bad in ("0d10", "3d7", "3d6", "d"):
        with pytest.raises(UsageError):
            parse_explosion_dice(bad, rules)


def test_monte_carlo_ring_table_drops_highest():
    from brikscan.battle.montecarlo import ring_damage_table

    t = ring_damage_table(np.array([[3, 6, 7]]), 3)
    assert t.tolist() == [[16, 9, 3, 0]]  # [000 §8.4 Wall Demolition]


# ------------------------------------------------------------------ on geometry

@pytest.fixture(scope="module")
def wall(library_zip):
    import brikscan

    return brikscan.load(WALL, library_zip)


@needs_shared
def test_wall_demolition(wall):
    """[000 §8.4] rolls 3,6,7 -> 16/9/3; Armor roll 15 loses only the innermost ring, thrown 3"."""
    from brikscan.battle.preview import blast_json, run_blast

    scene, res, _ = run_blast(wall, scale=SCALE, at=[",".join(map(str, FACE))], dice="3d10", rolls="3,6,7", armor_rolls="15",
                              sl=3)
    data = blast_json(scene, res)
    assert [(r["outer_radius_in"], r["damage"], r["knockback_in"]) for r in data["rings"]] == \
        [(2, 16, 3), (4, 9, 2), (6, 3, 1)]
    assert data["armor_rolls"] == [15]
    assert data["armor_classes"][0]["armor"] == "3d10"
    d = _exact_distances(wall, np.array(FACE))
    inner = set(np.flatnonzero(d <= 2 * INCH + 1e-6).tolist())
    assert set(data["destroyed"]) == inner
    assert 0 < len(inner) < len(wall.elements)
    assert ((d > 2 * INCH) & (d <= 4 * INCH)).any()  # ring 2 bricks exist and hold (9 <= 15)
    assert set(data["knockback"]) == {str(i) for i in inner}
    assert all(v == pytest.approx(3.0) for v in data["knockback"].values())
    # what is left: the two wall ends, each re-measured
    left = [s for s in data["sections"] if s["kind"] == "section"]
    assert sorted(i for s in left for i in s["elements"]) == sorted(set(range(len(wall.elements))) - inner)
    for s in left:
        assert s["size"] == round(s["size_in"] + 1e-9) or s["size"] == math.floor(s["size_in"] + 0.5)


@needs_shared
def test_tower_cut_loose_gets_second_ring_knockback(library_zip):
    """[000 §8.4 Wall Demolition] the wall under the tower goes; the tower survives (its base is past 2", 9 <= 15),
    is no longer attached, so it is loose and thrown 2" straight up (the blast was underneath; -Y is up)."""
    import brikscan
    from brikscan.battle.preview import run_blast

    m = brikscan.load(DATA / "wall_tower.ldr", library_zip)
    tower = [51, 52, 53]  # three 1x1 bricks standing on the wall's top row
    _, res, _ = run_blast(m, scale=SCALE, at=["150,5,-10"], rolls="3,6,7", armor_rolls="15")
    assert not res.destroyed[tower].any()
    assert res.destroyed.sum() > 0
    (sec,) = [s for s in res.sections if set(s.elements) == set(tower)]
    assert sec.loose and sec.kind == "section"
    assert all(res.knockback_in[i] == pytest.approx(2.0) for i in tower)
    v = res.knockback_vec[tower[0]]
    assert v[1] < 0 and abs(v[1]) > 10 * abs(v[0])  # up
    standing = [s for s in res.sections if not s.loose]
    assert standing and all(not res.knockback_vec[s.elements].any() for s in standing)


@needs_shared
def test_ground_roll_8_loses_the_second_ring_too(wall):
    """[000 §8.4] the ground rolls 8: 8 < 9 but 8 >= 3, so everything within 4" goes."""
    from brikscan.battle.preview import run_blast

    _, res, _ = run_blast(wall, scale=SCALE, at=[",".join(map(str, FACE))], rolls="3,6,7", armor_rolls="8")
    d = _exact_distances(wall, np.array(FACE))
    assert set(res.destroyed_indices) == set(np.flatnonzero(d <= 4 * INCH + 1e-6).tolist())


@needs_shared
def test_explosions_stack_damage_not_radius(wall):
    """[000 §8.4] two blasts in one place: double damage within 2", no extra radius."""
    from brikscan.battle.preview import run_blast

    pt = ",".join(map(str, FACE))
    _, one, _ = run_blast(wall, scale=SCALE, at=[pt], rolls="3,6,7", armor_rolls="99")
    _, two, _ = run_blast(wall, scale=SCALE, at=[pt, pt], rolls="3,6,7;3,6,7", armor_rolls="99")
    assert (two.damage == 2 * one.damage).all()
    assert two.damage.max() == 32
    assert ((one.damage > 0) == (two.damage > 0)).all()


@needs_shared
def test_expected_and_seeded_are_reproducible(wall):
    from brikscan.battle.preview import run_blast

    pt = ",".join(map(str, FACE))
    a = run_blast(wall, scale=SCALE, at=[pt], seed=7)[1]
    b = run_blast(wall, scale=SCALE, at=[pt], seed=7)[1]
    assert a.destroyed_indices == b.destroyed_indices and [x.roll for x in a.armor] == [x.roll for x in b.armor]
    e = run_blast(wall, scale=SCALE, at=[pt], expected=True, sl=3)[1]
    assert e.armor[0].roll == pytest.approx(3 * 5.92, abs=0.01)
    assert e.blasts[0].rings[0].damage == pytest.approx(3 * 5.92, abs=0.01)


@needs_shared
def test_monte_carlo_matches_exact_probability(wall):
    """P(3d10 > 15) without bonus dice is 0.56 exactly; Monte Carlo gives it for every ring-1 brick."""
    from brikscan.battle.preview import run_blast

    exact = sum(1 for a in range(1, 11) for b in range(1, 11) for c in range(1, 11) if a + b + c > 15) / 1000
    _, res, mc = run_blast(wall, scale=SCALE, at=[",".join(map(str, FACE))], armor_rolls="15", bonus_dice=False, trials=20000,
                           seed=3)
    inner = np.flatnonzero(res.ring_index[0] == 0)
    assert np.allclose(mc.p_destroyed[inner], exact, atol=0.02)
    outside = np.flatnonzero(res.ring_index[0] < 0)
    assert (mc.p_destroyed[outside] == 0).all()
    assert mc.expected_lost == pytest.approx(mc.p_destroyed.sum(), rel=1e-9)
    assert 0 < mc.p_split["wall.ldr" if "wall.ldr" in mc.p_split else next(iter(mc.p_split))] <= 1


@needs_shared
def test_blast_point_outside_the_model(wall):
    from brikscan.battle.preview import run_blast
    from brikscan.errors import UsageError

    with pytest.raises(UsageError, match="outside the model"):
        run_blast(wall, scale=SCALE, at=["5000,0,0"], rolls="3,6,7")


@pytest.fixture(scope="module")
def catapult(library_zip):
    import brikscan

    return brikscan.load(CATAPULT, library_zip)


@needs_shared
def test_wrecked_catapult_split(catapult):
    """[000 §7.3 Wrecked Catapult] Size 4", SL 2, 2 Size Damage: cutting the rear off leaves a 3" front at ES 1
    (SL 1, 1d10, Power 2 < the 4" Launcher) and destroys the 1" rear (ES -1)."""
    from brikscan.battle.preview import hit_json, run_hit

    joint = 4  # the 1x3 plate over the gap
    scene, res, info = run_hit(catapult, scale=SCALE, element=joint, damage=10, armor_rolls="3", sl=2, size_damage=2)
    assert scene.bodies[0].size == 4
    data = hit_json(scene, res, info)
    assert data["destroyed"] == [joint]
    secs = sorted((s for s in data["sections"] if s["kind"] == "section"), key=lambda s: -s["size"])
    assert [(s["size"], s["effective_size"], s["destroyed"]) for s in secs] == [(3, 1, False), (1, -1, True)]
    front = secs[0]
    assert (front["sl"], front["armor"], front["power_limit"]) == (1, "1d10", 2)
    assert front["elements"] == [0, 1, 3]


@needs_shared
def test_catapult_without_size_damage_keeps_both_pieces(catapult):
    from brikscan.battle.preview import run_hit

    _, res, _ = run_hit(catapult, scale=SCALE, element=4, damage=10, armor_rolls="3", sl=2)
    assert [s.destroyed for s in res.sections if s.kind == "section"] == [False, False]


@needs_shared
def test_hit_that_fails_armor_changes_nothing(catapult):
    from brikscan.battle.preview import run_hit

    _, res, _ = run_hit(catapult, scale=SCALE, element=4, damage=3, armor_rolls="3", sl=2)
    assert res.destroyed_indices == [] and res.steps[0]["destroyed"] is False


@needs_shared
def test_vindicator_size_damage_table(catapult, rules):
    """[000 §7.2 Size Damage] SHDT Vindicator, Size 12", SL 4: Power 2·ES, Half Speed at ES 6, SL capped by ES,
    destroyed at ES 0 — as the sections a preview reports."""
    from brikscan.analysis.stats import analyse
    from brikscan.battle.scene import build_scene
    from brikscan.battle.split import split_after

    rows = []
    for dmg in range(13):
        scene = build_scene(analyse(catapult, scale=SCALE, sl=4), size_damage=dmg)
        scene.bodies[0].size, scene.bodies[0].sl = 12, 4.0
        (s,) = split_after(scene, np.zeros(len(catapult.elements), dtype=bool))
        rows.append((s.effective_size, s.state.sl, s.state.power_limit, s.state.half_speed, s.destroyed))
    assert rows[0] == (12, 4, 24, False, False)
    assert rows[1] == (11, 4, 22, False, False)
    assert rows[5][3] is False and rows[6] == (6, 4, 12, True, False)  # ES 6 -> Half Speed, Power 12
    assert rows[9][:2] == (3, 3) and rows[10][:2] == (2, 2) and rows[11][:2] == (1, 1)
    assert rows[12][4] is True and all(not r[4] for r in rows[:12])


@pytest.fixture(scope="module")
def minifigs(library_zip):
    import brikscan

    return brikscan.load(MINIFIGS, library_zip)


@needs_shared
def test_overkill_minifigs(minifigs):
    """[000 §7.2 Overkill] 12 damage along a row of minifigs (Armor 4): 12 -> dies (8 left) -> dies (4 left) ->
    the third survives, 4 is not more than 4."""
    from brikscan.battle.preview import run_hit

    scene, res, _ = run_hit(minifigs, scale=SCALE, origin="-200,20,0", toward="0,20,0", damage=12, armor_rolls="4,4,4")
    steps = res.steps
    assert [s["damage_in"] for s in steps] == [12, 8, 4]
    assert [s["destroyed"] for s in steps] == [True, True, False]
    owners = [int(scene.owner[s["element"]]) for s in steps]
    assert len(set(owners)) == 3  # three different minifigs, in order along the line
    third = scene.bodies[owners[2]].elements
    assert not res.destroyed[third].any()
    assert res.destroyed[scene.bodies[owners[0]].elements].any()


@needs_shared
def test_overkill_agrees_with_rules_layer(minifigs, rules):
    from brikscan.battle.preview import run_hit
    from brikscan.rules.formulas import overkill

    _, res, _ = run_hit(minifigs, scale=SCALE, origin="-200,20,0", toward="0,20,0", damage=12, armor_rolls="4,4,4")
    ref = overkill(12, [4, 4, 4], rules)
    assert [s["destroyed"] for s in res.steps] == [r.destroyed for r in ref]


@needs_shared
def test_ray_hits_match_trimesh(minifigs):
    import trimesh

    from brikscan.battle.component_damage import ray_hits
    from brikscan.battle.scene import build_scene

    from brikscan.analysis.stats import analyse

    scene = build_scene(analyse(minifigs))
    o, d = np.array([-200.0, 20, 1.0]), np.array([1.0, 0.0, 0.0])
    mine = ray_hits(scene, o, d)
    tm = trimesh.Trimesh(minifigs.mesh.triangles.reshape(-1, 3).astype(np.float64),
                         np.arange(minifigs.mesh.n_triangles * 3).reshape(-1, 3), process=False)
    locs, _, tri = tm.ray.intersects_location([o], [d], multiple_hits=True)
    first = {}
    for loc, f in zip(locs, tri):
        e = int(minifigs.mesh.face_element[f])
        first[e] = min(first.get(e, np.inf), float(np.linalg.norm(loc - o)))
    assert [e for e, _ in mine] == sorted(first, key=first.get)
    assert np.allclose([t for _, t in mine], sorted(first.values()), atol=1e-3)


# ------------------------------------------------------------------ saving and rendering

@needs_shared
def test_save_damaged_model_reloads(wall, tmp_path):
    import brikscan
    from brikscan.battle.preview import run_blast
    from brikscan.battle.save_ldraw import save_damaged
    from brikscan.errors import UsageError

    before = WALL.read_bytes()
    _, res, _ = run_blast(wall, scale=SCALE, at=[",".join(map(str, FACE))], rolls="3,6,7", armor_rolls="15")
    out = save_damaged(wall, tmp_path / "wall_after.ldr", res.destroyed)
    again = brikscan.load(out, LIBRARY_ZIP)
    assert len(again.elements) == len(wall.elements) - len(res.destroyed_indices)
    kept = sorted(tuple(np.round(e.position, 3)) for e in again.elements)
    expect = sorted(tuple(np.round(e.position, 3)) for e in wall.elements if not res.destroyed[e.index])
    assert kept == expect and not again.diagnostics
    debris = save_damaged(wall, tmp_path / "wall_debris.ldr", res.destroyed, res.knockback_vec, keep_debris=True)
    assert len(brikscan.load(debris, LIBRARY_ZIP).elements) == len(wall.elements)
    with pytest.raises(UsageError):
        save_damaged(wall, WALL, res.destroyed)
    assert WALL.read_bytes() == before


@needs_shared
def test_save_mpd_keeps_other_submodel_instances(tmp_path, library_zip):
    """Destroying a part inside one instance of a submodel leaves the other instance whole."""
    import brikscan
    from brikscan.battle.save_ldraw import save_damaged

    src = tmp_path / "two.mpd"
    src.write_text("0 FILE main.ldr\n0 Two towers\n0 Name: main.ldr\n"
                   "1 16 0 0 0 1 0 0 0 1 0 0 0 1 tower.ldr\n1 16 100 0 0 1 0 0 0 1 0 0 0 1 tower.ldr\n"
                   "0 FILE tower.ldr\n0 Tower\n0 Name: tower.ldr\n"
                   "1 4 0 0 0 1 0 0 0 1 0 0 0 1 3001.dat\n1 4 0 -24 0 1 0 0 0 1 0 0 0 1 3001.dat\n")
    m = brikscan.load(src, library_zip)
    gone = np.zeros(len(m.elements), dtype=bool)
    gone[1] = True  # the top brick of the first tower
    out = save_damaged(m, tmp_path / "two_after.mpd", gone)
    again = brikscan.load(out, library_zip)
    pos = sorted(tuple(np.round(e.position, 3)) for e in again.elements)
    assert pos == [(0, 0, 0), (100, -24, 0), (100, 0, 0)]


@needs_shared
def test_render_before_after_and_gif(wall, tmp_path):
    from PIL import Image

    from brikscan.battle.preview import run_blast
    from brikscan.render.damage_view import render_before_after, render_gif

    _, res, _ = run_blast(wall, scale=SCALE, at=[",".join(map(str, FACE))], rolls="3,6,7", armor_rolls="15")
    png = render_before_after(wall, res, tmp_path / "ba.png", size=(320, 240))
    img = Image.open(png)
    assert img.size == (640, 240 + 26)  # a title strip above each half ("before: …", "after: …")
    a = np.asarray(img.convert("RGB"), dtype=np.int64)
    assert np.abs(a[:, :320] - a[:, 320:]).sum() > 0  # before and after differ
    gif = render_gif(wall, res, tmp_path / "fly.gif", frames=4, size=(160, 120))
    assert Image.open(gif).n_frames == 5  # the "before" frame (held), then the 4 frames of the flight


# ------------------------------------------------------------------ the command line

def _cli(args, capsys):
    from brikscan.cli import main

    rc = main(args)
    out = capsys.readouterr()
    return rc, out.out, out.err


@needs_shared
def test_cli_blast_json_contract(capsys):
    rc, out, err = _cli(["blast", str(WALL), "-L", str(LIBRARY_ZIP), "--at", "160,-60,-10", "--dice", "3d10",
                         "--rolls", "3,6,7", "--armor-rolls", "15", "--json"], capsys)
    assert rc == 0, err
    data = json.loads(out)
    for key in ("rings", "armor_rolls", "destroyed", "knockback", "sections"):
        assert key in data
    assert [r["damage"] for r in data["rings"]] == [16, 9, 3]
    assert {"outer_radius_in", "damage"} <= set(data["rings"][0])
    assert all(isinstance(k, str) for k in data["knockback"])
    for s in data["sections"]:
        assert {"creation", "elements", "size_in", "size", "effective_size", "destroyed"} <= set(s)


@needs_shared
def test_cli_hit_json(capsys):
    rc, out, err = _cli(["hit", str(CATAPULT), "-L", str(LIBRARY_ZIP), "--element", "4", "--damage", "10",
                         "--armor-rolls", "3", "--sl", "2", "--size-damage", "2", "--json"], capsys)
    assert rc == 0, err
    data = json.loads(out)
    assert data["destroyed"] == [4] and len([s for s in data["sections"] if s["kind"] == "section"]) == 2


BAD = [
    (["blast", str(WALL), "--at", "5000,0,0", "--dice", "3d10"], "outside the model"),
    (["blast", str(WALL), "--at", "160,-60,-10", "--dice", "0d10"], "no dice"),
    (["blast", str(WALL), "--at", "160,-60,-10", "--dice", "3d7"], "d7"),
    (["blast", str(WALL), "--at-element", "999", "--dice", "3d10"], "out of range"),
    (["blast", str(WALL), "--at", "160,-60,-10", "--dice", "3d10", "--rolls", "3,6"], "gives 2 dice"),
    (["blast", str(WALL), "--at", "1,2", "--dice", "3d10"], "X,Y,Z"),
    (["hit", str(WALL), "--element", "-1", "--damage", "5"], "out of range"),
    (["hit", str(WALL), "--element", "51", "--damage", "5"], "out of range"),
    (["blast", str(WALL), "--at", "160,-60,-10", "--save", str(WALL)], "over"),
]


@pytest.mark.parametrize("args,msg", BAD, ids=[" ".join(a[2:4]) + " " + a[-1] for a, _ in BAD])
def test_cli_bad_input(args, msg, capsys):
    before = WALL.read_bytes()
    lib = ["-L", str(LIBRARY_ZIP)] if LIBRARY_ZIP.exists() else []
    rc, out, err = _cli(args + lib, capsys)
    assert rc != 0
    lines = [ln for ln in err.splitlines() if ln.strip() and "pybullet" not in ln]
    assert len(lines) == 1 and msg in lines[0] and "Traceback" not in err, err
    assert WALL.read_bytes() == before


def test_cli_bad_input_subprocess_has_no_traceback():
    before = WALL.read_bytes()
    p = subprocess.run([sys.executable, "-m", "brikscan", "blast", str(WALL), "--at", "160,-60,-10", "--dice", "3d7"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2
    assert "Traceback" not in p.stderr and "d7" in p.stderr
    assert WALL.read_bytes() == before


@needs_shared
def test_blast_kills_minifigs_whole(minifigs):
    """[000 §7.2 Taking Damage] Size 1" targets beaten by the damage are killed, not chipped."""
    from brikscan.battle.preview import run_blast

    scene, res, mc = run_blast(minifigs, scale=SCALE, at=["130,-30,0"], dice="1d10", rolls="5", armor_rolls="4", trials=300,
                               seed=2)
    figs = [b for b in scene.bodies if b.size <= 1]
    assert len(figs) == 3
    states = [res.destroyed[b.elements] for b in figs]
    assert all(s.all() or not s.any() for s in states)
    assert any(s.all() for s in states)
    for b in figs:
        p = mc.p_destroyed[b.elements]
        assert np.allclose(p, p[0])


# ------------------------------------------------------------------ cover [000 §3.2 Explosives]

COVER = DATA / "cover.ldr"  # six 1x6 bricks (a wall, z=-40) between the blast at z=-100 and a 1x1 brick at z=0
COVER_AT = "0,-72,-100"


@pytest.fixture(scope="module")
def cover_model(library_zip):
    import brikscan

    return brikscan.load(COVER, library_zip)


def _cover_rolls(res, wall: float, target: float) -> str:
    """--armor-rolls in the order of the Armor classes, wall first or not."""
    wall_cls = {a.creation for a in res.armor if a.creation == "cover"}
    return ",".join(str(wall if a.creation in wall_cls else target) for a in res.armor)


@needs_shared
def test_cover_hides_what_is_behind_a_wall_that_holds(cover_model):
    """[000 §3.2] anything fully hidden behind cover is only hurt if the cover is destroyed."""
    import trimesh

    from brikscan.battle.preview import run_blast

    target = 6
    scene, probe, _ = run_blast(cover_model, scale=SCALE, at=[COVER_AT], dice="1d10", rolls="5", armor_rolls="0", cover=False)
    assert {a.creation for a in probe.armor} >= {"cover"} and len(probe.armor) == 2
    assert probe.ring_index[0, target] == 0  # the target is in the first ring: only the wall can save it
    # independent check that the wall really hides the target: trimesh rays from the centre to its vertices
    wall = np.concatenate([cover_model.mesh.element_triangles(i) for i in range(6)]).astype(np.float64)
    tm = trimesh.Trimesh(wall.reshape(-1, 3), np.arange(len(wall) * 3).reshape(-1, 3), process=False)
    c = np.array([0.0, -72, -100])
    v = cover_model.mesh.element_triangles(target).reshape(-1, 3).astype(np.float64)
    assert tm.ray.intersects_any(np.repeat(c[None], len(v), 0), v - c).all()

    holds = _cover_rolls(probe, 99, 0)
    _, res, mc = run_blast(cover_model, scale=SCALE, at=[COVER_AT], dice="1d10", rolls="5", armor_rolls=holds, scene=scene,
                           trials=200, seed=1)
    assert not res.destroyed[target] and res.shielded[target] and res.damage[target] == 0
    assert mc.p_destroyed[target] == 0
    _, off, mc_off = run_blast(cover_model, scale=SCALE, at=[COVER_AT], dice="1d10", rolls="5", armor_rolls=holds, scene=scene,
                               trials=200, seed=1, cover=False)
    assert off.destroyed[target] and mc_off.p_destroyed[target] == 1
    # the wall goes: what it hid is exposed to the same blast
    _, gone, _ = run_blast(cover_model, scale=SCALE, at=[COVER_AT], dice="1d10", rolls="5", armor_rolls="0", scene=scene)
    assert gone.destroyed.all() and not gone.shielded.any()


@needs_shared
def test_cover_monte_carlo_target_falls_with_its_wall(cover_model):
    """Each trial iterates 'destroyed cover exposes what it hid': the target (Armor 0) dies exactly when the wall
    does, so its probability equals the wall's, not 1."""
    from brikscan.battle.preview import run_blast

    scene, probe, _ = run_blast(cover_model, scale=SCALE, at=[COVER_AT], dice="1d10", rolls="5", armor_rolls="0", cover=False)
    _, _, mc = run_blast(cover_model, scale=SCALE, at=[COVER_AT], dice="1d10", rolls="5", armor_rolls=_cover_rolls(probe, 3, 0),
                         scene=scene, trials=4000, seed=4, bonus_dice=False)
    assert mc.p_destroyed[6] == pytest.approx(mc.p_destroyed[0], abs=1e-9)
    assert mc.p_destroyed[6] == pytest.approx(0.7, abs=0.03)  # P(1d10 > 3)


@needs_shared
def test_cli_no_cover_flag(capsys):
    base = ["blast", str(COVER), "-L", str(LIBRARY_ZIP), "--at", COVER_AT, "--dice", "1d10", "--rolls", "5",
            "--armor-rolls", "99,0", "--json"]
    rc, out, err = _cli(base, capsys)
    assert rc == 0, err
    on = json.loads(out)
    rc, out, err = _cli(base + ["--no-cover"], capsys)
    off = json.loads(out)
    assert on["cover"] is True and off["cover"] is False
    assert 6 in on["shielded"] and 6 not in on["destroyed"] and 6 in off["destroyed"]
    for key in ("rings", "armor_rolls", "destroyed", "knockback", "sections"):
        assert key in on and key in off


# ------------------------------------------------------------------ weapons a section can no longer power

@needs_shared
def test_wrecked_catapult_launcher_deactivated(library_zip):
    """[000 §7.3 Wrecked Catapult] the 3" front piece at ES 1 has Power 2 × 1 = 2, less than the 4" Launcher:
    deactivated. Without the Size Damage (ES 3, Power 6) it still works. [000 §8.1 Power Limits]"""
    import brikscan
    from brikscan.battle.preview import hit_json, run_hit

    m = brikscan.load(DATA / "catapult_launcher.ldr", library_zip)
    scene, res, info = run_hit(m, scale=SCALE, element=4, damage=10, armor_rolls="3", sl=2, size_damage=2)
    assert [w.size for b in scene.bodies for w in b.weapons] == [4]
    secs = {s["size"]: s for s in hit_json(scene, res, info)["sections"] if s["kind"] == "section"}
    front = secs[3]
    assert front["power"] == 2 and [w["name"] for w in front["weapons"]] == ["Launcher"]
    assert [(w["name"], w["size"]) for w in front["weapons_disabled"]] == [("Launcher", 4)]
    assert secs[1]["weapons"] == [] and secs[1]["weapons_disabled"] == []
    _, ok, info = run_hit(m, scale=SCALE, element=4, damage=10, armor_rolls="3", sl=2, size_damage=0, scene=None)
    front = [s for s in hit_json(scene, ok, info)["sections"] if s["size"] == 3][0]
    assert front["power"] == 6 and front["weapons"] and front["weapons_disabled"] == []


# ------------------------------------------------------------------ hit: Monte Carlo and KnockBack

@needs_shared
def test_hit_monte_carlo_matches_exact_overkill(minifigs):
    """2d10 (no Bonus Dice) along three minifigs of Armor 4: the first dies on > 4, the second on > 8, the third
    on > 12 [000 §7.2 Overkill]; exact probabilities 94/100, 72/100, 36/100."""
    from brikscan.battle.preview import hit_json, run_hit

    scene, res, info = run_hit(minifigs, scale=SCALE, origin="-200,20,0", toward="0,20,0", dice="2d10", bonus_dice=False,
                               armor_rolls="4,4,4", trials=40000, seed=9)
    data = hit_json(scene, res, info)
    mc = data["monte_carlo"]
    assert [s["p_destroyed"] for s in mc["line"]] == pytest.approx([0.94, 0.72, 0.36], abs=0.015)
    p = info["monte_carlo"].p_destroyed
    for step in mc["line"]:
        assert np.allclose(p[step["removes"]], step["p_destroyed"], atol=1e-4)  # minifigs die whole
    assert mc["expected_destroyed"] == pytest.approx(5 * (0.94 + 0.72 + 0.36), abs=0.15)
    assert set(mc["p_split"]) == {s["creation"] for s in data["steps"]}


@needs_shared
def test_hit_knockback_only_from_a_weapon_larger_than_the_target(minifigs, capsys):
    """[000 §8.1 KnockBack] plain Component Damage gives none (said in notes); a 3" weapon pushes the surviving
    1" minifig 2" along the line of attack."""
    from brikscan.battle.preview import hit_json, run_hit

    scene, res, info = run_hit(minifigs, scale=SCALE, origin="-200,20,0", toward="0,20,0", damage=12, armor_rolls="4,4,4")
    data = hit_json(scene, res, info)
    assert data["knockback"] == {} and any("KnockBack" in n for n in data["notes"])
    scene, res, info = run_hit(minifigs, scale=SCALE, origin="-200,20,0", toward="0,20,0", damage=12, armor_rolls="4,4,4",
                               weapon_size=3)
    survivor = [s for s in res.sections if s.kind == "section" and not res.destroyed[s.elements].any()
                and s.creation == res.steps[2]["creation"]][0]
    kb = hit_json(scene, res, info)["knockback"]
    assert set(kb) == {str(i) for i in survivor.elements} and set(kb.values()) == {2.0}
    v = res.knockback_vec[survivor.elements[0]]
    assert v[0] == pytest.approx(2 * INCH) and abs(v[1]) < 1e-9
    _, _, big = run_hit(minifigs, scale=SCALE, origin="-200,20,0", toward="0,20,0", damage=12, armor_rolls="4,4,4",
                        weapon_size=1)
    rc, out, err = _cli(["hit", str(MINIFIGS), "-L", str(LIBRARY_ZIP), "--from", "-200,20,0", "--toward", "0,20,0",
                         "--damage", "12", "--armor-rolls", "4,4,4", "--trials", "100", "--json"], capsys)
    assert rc == 0, err
    d = json.loads(out)
    assert d["knockback"] == {} and d["notes"] and len(d["monte_carlo"]["line"]) == 3


# ------------------------------------------------------------------ the scene: PNG, HTML, window

@needs_shared
def test_before_half_keeps_ldraw_colours_and_fills_the_frame(wall, tmp_path):
    """The 'before' half is the plain model render (same framing) with thin ring circles over it: the model's
    pixels keep their colours, and the model spans its half of the frame."""
    from PIL import Image

    from brikscan.battle.preview import run_blast
    from brikscan.render.damage_view import build_damage_plotter, render_before_after
    from brikscan.render.model_view import _fit_points, add_model, frame_camera, new_plotter

    _, res, _ = run_blast(wall, scale=SCALE, at=[",".join(map(str, FACE))], rolls="3,6,7", armor_rolls="15")
    size = (400, 300)
    layouts: list = []
    png = render_before_after(wall, res, tmp_path / "ba.png", size=size, layouts=layouts)
    strip = 26  # the title strip above each half ("before: …"); the key sits in the lower-left corner
    before = np.asarray(Image.open(png).convert("RGB"), dtype=np.int64)[strip:, :size[0]]
    assert before.shape[:2] == (size[1], size[0])
    top = slice(0, int(size[1] * 0.6))
    pl = new_plotter(True, size)
    add_model(pl, wall)
    pts = _fit_points(wall)
    frame_camera(pl, pts.min(0), pts.max(0), points=pts)
    plain = np.asarray(pl.screenshot(return_img=True)[..., :3], dtype=np.int64)
    pl.close()
    model_px = (plain < 245).any(axis=2)
    ys, xs = np.nonzero(model_px)
    assert (xs.max() - xs.min()) > 0.85 * size[0] or (ys.max() - ys.min()) > 0.85 * size[1]
    diff = np.abs(before - plain).max(axis=2)[top][model_px[top]]
    assert np.median(diff) <= 12 and (diff > 40).mean() < 0.15  # rings do not wash the bricks out
    pl = build_damage_plotter(wall, res, off_screen=True, size=size, after=False)
    shot = np.asarray(pl.screenshot(return_img=True)[..., :3], dtype=np.int64)
    pl.close()
    # the same scene; only the labels (boxes, leader lines) are drawn over it in pixels
    changed = (shot != before).any(axis=2)
    for lab in layouts[0].placed:
        x0, y0, x1, y1 = (int(round(v)) for v in lab.box)
        changed[max(0, y0 - 1):y1 + 2, max(0, x0 - 1):x1 + 2] = False
    assert changed[top].mean() < 0.02


@needs_shared
def test_damage_html_opens_in_chromium(wall, tmp_path, capsys):
    from brikscan.render.browser_check import check_html_in_chromium, find_chromium

    if find_chromium() is None:
        pytest.skip("chromium is not on PATH")
    out = tmp_path / "after.html"
    rc, _, err = _cli(["blast", str(WALL), "-L", str(LIBRARY_ZIP), "--at", "160,-60,-10", "--rolls", "3,6,7",
                       "--armor-rolls", "15", "--html", str(out)], capsys)
    assert rc == 0, err
    text = out.read_text()
    assert "16 dmg" in text  # the ring labels travel with the scene
    check = check_html_in_chromium(out, screenshot=tmp_path / "shot.png")
    assert check.ok, (check.reason, check.console_errors)


@needs_shared
def test_picture_labels_do_not_overlap_and_stay_inside_the_frame(wall, tmp_path):
    """Ring labels, the blast centre and section labels of the blast PNG: every box inside its half, none
    intersecting another or the key in the lower-left corner, none left out on this small wall."""
    from brikscan.battle.preview import run_blast
    from brikscan.render.damage_view import _key_boxes, render_before_after, ring_legend, section_legend
    from brikscan.render.label_layout import boxes_intersect

    _, res, _ = run_blast(wall, scale=SCALE, at=[",".join(map(str, FACE))], rolls="6,9,10", armor_rolls="15")
    size = (640, 480)
    layouts: list = []
    png = render_before_after(wall, res, tmp_path / "ba.png", size=size, layouts=layouts)
    assert png.exists() and len(layouts) == 2
    rings = len(res.blasts[0].rings)
    for lay, keys in zip(layouts, (ring_legend(res), section_legend(res))):
        texts = [p.text for p in lay.placed]
        assert lay.dropped == []
        assert sum(t.startswith("ring ") for t in texts) == rings and "blast centre" in texts
        boxes = [p.box for p in lay.placed]
        for k, a in enumerate(boxes):
            assert 0 <= a[0] and a[2] <= size[0] and 0 <= a[1] and a[3] <= size[1], (texts[k], a)
            assert not any(boxes_intersect(a, b) for b in boxes[k + 1:]), texts[k]
            assert not any(boxes_intersect(a, b) for b in _key_boxes(keys, False, *size)), texts[k]
    after_texts = [p.text for p in layouts[1].placed]
    live = [x for x in res.sections if not x.destroyed and x.kind == "section"]
    assert sum("Size" in t for t in after_texts) == len(live)


def test_label_layout_keeps_crowded_labels_apart():
    """Twelve labels on one anchor near the corner, and a reserved key box: all placed, inside, apart."""
    from brikscan.render.label_layout import LabelRequest, boxes_intersect, layout

    reqs = [LabelRequest(f"section {k}: Size 3\" ES 3", [(630.0, 470.0)]) for k in range(12)]
    lay = layout(reqs, (640, 480), reserved=[(0, 380, 200, 480)])
    assert lay.dropped == [] and len(lay.placed) == 12
    boxes = [p.box for p in lay.placed]
    for k, a in enumerate(boxes):
        assert a[0] >= 0 and a[1] >= 0 and a[2] <= 640 and a[3] <= 480
        assert not boxes_intersect(a, (0, 380, 200, 480))
        assert not any(boxes_intersect(a, b) for b in boxes[k + 1:])


@needs_shared
def test_damage_html_shows_the_pictures_keys_in_chromium(tmp_path, capsys):
    """blast --html with a Monte Carlo run: before / after / heat map views, each with its title and key, the
    heat map's colour scale, labels apart; in Debian's Chromium with no console errors."""
    pw = pytest.importorskip("playwright.sync_api")
    from brikscan.render.browser_check import find_chromium
    from brikscan.render.label_layout import boxes_intersect

    chromium = find_chromium()
    if chromium is None:
        pytest.skip("chromium is not on PATH")
    out = tmp_path / "blast.html"
    rc, _, err = _cli(["blast", str(WALL), "-L", str(LIBRARY_ZIP), "--scale", SCALE, "--at", "160,-60,-10",
                       "--rolls", "3,6,7", "--armor-rolls", "15", "--trials", "50", "--html", str(out)], capsys)
    assert rc == 0, err
    with pw.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=["--use-angle=swiftshader",
                                                               "--enable-unsafe-swiftshader"])
        pg = b.new_page(viewport={"width": 1000, "height": 700})
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        pg.goto(out.as_uri())
        pg.wait_for_function("window.brikscanLabels !== undefined", timeout=60_000)
        assert pg.inner_text("#title-text").startswith("after: ")
        assert [t.strip() for t in pg.locator("#view-buttons button").all_inner_texts()] == \
            ["before", "after", "heat map"]
        keys = pg.inner_text("#keys")
        assert "destroyed (" in keys and "Size" in keys
        assert pg.locator("#keys .sw").count() >= 2

        def labels_apart():
            got = pg.evaluate("window.brikscanLabels")
            for k, a in enumerate(got):
                assert not any(boxes_intersect(a["box"], c["box"]) for c in got[k + 1:]), a["text"]
            return [g["text"] for g in got]

        assert any("ES" in t for t in labels_apart())
        pg.screenshot(path=str(tmp_path / "after.png"))
        pg.evaluate("window.brikscanView(0)")
        pg.wait_for_timeout(300)
        assert pg.inner_text("#title-text").startswith("before: ")
        assert "ring 1" in pg.inner_text("#keys") and any("dmg" in t for t in labels_apart())
        pg.evaluate("window.brikscanView(2)")
        pg.wait_for_timeout(300)
        assert pg.is_visible("#scale") and "chance destroyed" in pg.inner_text("#scale")
        assert "100%" in pg.inner_text("#scale")
        pg.screenshot(path=str(tmp_path / "heat.png"))
        b.close()
    assert errors == []
