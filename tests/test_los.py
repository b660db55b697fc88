"""Line of sight on real brick geometry: small battlefields built for the purpose (tests/data/los/)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from brikscan.battle.scene_file import parse_length, read_scene
from brikscan.rules.sight_tables import load_sight_rules
from brikscan.errors import InputError, NotFoundError

from conftest import LIBRARY_ZIP, ROOT, SCENES, needs_shared

DATA = ROOT / "tests" / "data" / "los"


@pytest.fixture(scope="module")
def field(library_zip):
    """Battlefields loaded once per module: field('wall_head.ldr')."""
    from brikscan.battle.battlefield import load_battlefield

    memo: dict = {}

    def get(name: str):
        if name not in memo:
            memo[name] = load_battlefield(DATA / name if not Path(name).is_absolute() else name, library_zip)
        return memo[name]

    return get


def _los(bf, viewer: str, target: str, **kw):
    from brikscan.battle.sight import line_of_sight

    v = bf.unit_named(viewer)
    t = bf.unit_named(target)
    return line_of_sight(bf, [v], [t], **kw).pair(viewer, target)


# ----------------------------------------------------------------------------------------------- rules (pure)

def test_sight_rules_table_matches_the_rulebook():
    r = load_sight_rules()
    # [000 §5.1 Attack Modifiers]: whole minifig 0, 2/3 -1, 1/3 -2, firing blind -5
    assert [r.minifig_modifier(n) for n in (3, 2, 1, 0)] == [0, -1, -2, -5]
    # worked example: "24" frigate with 4" visible -> +2"
    assert r.size_modifier(4.0, 1000.0, True) == 2
    assert r.size_modifier(1.0, 8.0, True) == 0  # 2x4 area: like a whole minifig
    assert r.size_modifier(0.7, 4.0, True) == -1  # 2x2
    assert r.size_modifier(0.3, 1.0, True) == -2  # 1x1
    assert r.size_modifier(10.0, 100.0, False) == -5
    # height advantage: +1" per 1" of altitude, at most +5"
    assert r.height_advantage_in(2.4) == 2.0
    assert r.height_advantage_in(9.0) == 5.0
    assert r.height_advantage_in(-3.0) == 0.0
    assert not hasattr(r, "ldu_per_inch")  # the inch is the one --scale of geometry.units, not a sight rule


def test_parse_length_units():
    assert parse_length("12in", 60.0) == 720.0  # the brick-stick inch (--scale stud)
    assert parse_length('2"', 60.0) == 120.0
    assert parse_length("1in") == 63.5  # default: a tape-measure inch [000 §1.2]
    assert parse_length("6studs") == 120.0
    assert parse_length("3bricks") == 72.0
    assert parse_length("2 plates") == 16.0
    assert parse_length(-40) == -40.0
    with pytest.raises(ValueError):
        parse_length("12 feet")


# ----------------------------------------------------------------------------------------------- units

@needs_shared
def test_units_named_by_annotation_submodel_or_number(field):
    bf = field("patrol.mpd")
    names = [u.name for u in bf.units if u.is_minifig]
    assert names == ["scout", "scout-2", "sergeant", "minifig-1"]
    assert bf.unit_named("sergeant").side == "red"
    for u in bf.units:
        if u.is_minifig:
            assert all(u.sections[s] for s in ("head", "torso", "legs")), u.name
            assert u.eye_ldu[1] < u.position_ldu[1] - 70  # eyes well above the feet (-Y is up)
    sk = field("skirmish.ldr")
    assert [u.name for u in sk.units if u.is_minifig] == ["minifig-1", "minifig-2", "minifig-3"]
    hatted = sk.unit_named("minifig-3")
    assert any(sk.elements[i].part == "3844.dat" for i in hatted.sections["head"])  # headgear is head


# ----------------------------------------------------------------------------------------------- sight

@needs_shared
def test_open_ground_shows_all_three_sections(field):
    p = _los(field("open_ground.ldr"), "archer", "knight")
    assert p.visible and p.sections_visible == ["head", "torso", "legs"] and p.modifier == 0
    assert p.visible_fraction > 0.9
    assert 6.0 < p.distance_in < 7.0  # 400 LDU between them, eye to nearest point


@needs_shared
def test_wall_hiding_legs_and_torso_leaves_the_head(field):
    bf = field("wall_head.ldr")
    p = _los(bf, "archer", "knight")
    assert p.sections_visible == ["head"] and p.modifier == -2
    wall_parts = {"3008.dat", "3460.dat", "4162.dat"}
    assert p.blocked_by and {bf.elements[i].part for i in p.blocked_by} <= wall_parts
    # the knight's eyes are below the wall top: he sees nothing of the archer
    back = _los(bf, "knight", "archer")
    assert not back.visible and back.modifier == -5 and back.sections_visible == []


@needs_shared
def test_low_wall_hides_only_the_legs(field):
    p = _los(field("wall_legs.ldr"), "archer", "knight")
    assert p.sections_visible == ["head", "torso"] and p.modifier == -1


@needs_shared
def test_minifig_behind_a_house_is_not_visible(field):
    bf = field("house.ldr")
    p = _los(bf, "archer", "knight")
    assert not p.visible and p.modifier == -5 and p.visible_fraction == 0.0
    assert {bf.elements[i].part for i in p.blocked_by} <= {"3008.dat", "41539.dat"}


@needs_shared
@pytest.mark.parametrize("name,expected", [("open_ground.ldr", ["head", "torso", "legs"]),
                                           ("wall_head.ldr", ["head"]), ("wall_legs.ldr", ["head", "torso"]),
                                           ("house.ldr", [])])
def test_answers_do_not_change_with_the_seed(field, name, expected):
    bf = field(name)
    for seed in range(6):
        p = _los(bf, "archer", "knight", seed=seed)
        assert p.sections_visible == expected, (seed, p.sections_visible)


@needs_shared
def test_both_ray_engines_give_the_same_answers(field):
    bf = field("wall_legs.ldr")
    a = _los(bf, "archer", "knight", engine="embree")
    b = _los(bf, "archer", "knight", engine="open3d")
    assert a.sections_visible == b.sections_visible and a.modifier == b.modifier
    assert abs(a.visible_fraction - b.visible_fraction) < 0.02


@needs_shared
def test_height_advantage_from_the_tower(field):
    from brikscan.battle.sight import line_of_sight

    bf = field("skirmish.ldr")
    figs = [u for u in bf.units if u.is_minifig]
    res = line_of_sight(bf, figs, figs)
    assert len(res.pairs) == 6  # all pairs, not against itself
    down = res.pair("minifig-1", "minifig-2")  # 6 bricks = 144 LDU up
    assert down.altitude_in == pytest.approx(144 / bf.ldu_per_inch)
    assert down.height_advantage_in == 2.0
    assert res.pair("minifig-2", "minifig-1").height_advantage_in == 0.0
    m = res.matrix()
    assert m.shape == (3, 3) and np.isnan(np.diag(m)).all()


@needs_shared
def test_creation_target_visible_fraction_and_size_bonus(field):
    from brikscan.battle.sight import line_of_sight

    bf = field("house.ldr")
    archer = bf.unit_named("archer")
    house = [u for u in bf.units if not u.is_minifig]
    if not house:
        pytest.skip("the creation analysis found no building here")
    res = line_of_sight(bf, [archer], house)
    p = res.pairs[0]
    assert p.visible and 0 < p.visible_fraction <= 1
    assert p.visible_extent_in >= 2.0 and p.modifier == int(p.visible_extent_in // 2)


# ----------------------------------------------------------------------------------------------- scenes

def _scene(tmp_path, body: str) -> Path:
    p = tmp_path / "s.toml"
    p.write_text(body)
    return p


def test_scene_wrong_key_names_the_key(tmp_path):
    p = _scene(tmp_path, f'[[models]]\nfile = "{DATA / "minifig.ldr"}"\npostion = [0, 0]\n')
    with pytest.raises(InputError, match=r"models\[0\]\.postion: unknown key"):
        read_scene(p)
    p = _scene(tmp_path, f'[[models]]\nfile = "{DATA / "minifig.ldr"}"\nposition = [0, "3 feet"]\n')
    with pytest.raises(InputError, match=r"models\[0\]\.position.*bad length"):
        read_scene(p)
    p = _scene(tmp_path, 'name = "x"\n')
    with pytest.raises(InputError, match=r"models: missing key"):
        read_scene(p)
    p = _scene(tmp_path, '[[models]\nfile = 1\n')
    with pytest.raises(InputError, match="bad TOML"):
        read_scene(p)


@needs_shared
def test_scene_places_models_and_checks_units(tmp_path, library_zip):
    from brikscan.battle.battlefield import load_scene

    fig = DATA / "minifig.ldr"
    body = (f'[[models]]\nname = "alpha"\nfile = "{fig}"\nposition = ["10in", 0, "2studs"]\nside = "red"\n'
            f'[[models]]\nname = "beta"\nfile = "{fig}"\nposition = [0, 0, 0]\nrotation = 90\n'
            f'[[units]]\nunit = "beta"\nname = "bravo"\nside = "blue"\n'
            f'[[attacks]]\nfrom = "alpha"\nto = "bravo"\n')
    bf = load_scene(_scene(tmp_path, body), library_zip)
    a, b = bf.unit_named("alpha"), bf.unit_named("bravo")
    assert a.side == "red" and b.side == "blue"
    assert np.allclose(a.position_ldu, [635, 0, 40], atol=1.5)  # "10in" of the default tape-measure inch
    assert len({i for u in bf.units for i in u.elements}) == 2 * 9  # unique element indices
    assert bf.mesh.face_element.max() == len(bf.elements) - 1
    with pytest.raises(InputError, match=r"units\[0\]\.unit: no unit 'gamma'"):
        load_scene(_scene(tmp_path, body.replace('unit = "beta"', 'unit = "gamma"')), library_zip)
    with pytest.raises(InputError, match=r"attacks\[0\]\.to: no unit named 'charlie'"):
        load_scene(_scene(tmp_path, body.replace('to = "bravo"', 'to = "charlie"')), library_zip)
    with pytest.raises(NotFoundError):
        bf.unit_named("zulu")


@needs_shared
@pytest.mark.parametrize("scene", ["castle_assault.toml", "street_fight.toml", "tank_ambush.toml"])
def test_shipped_scenes(field, scene):
    from brikscan.battle.sight import line_of_sight

    path = SCENES / scene
    bf = field(str(path))
    figs = [u for u in bf.units if u.is_minifig]
    assert len(figs) >= 3 and any(not u.is_minifig for u in bf.units)
    assert all(not u.name.startswith("minifig-") for u in figs)
    from brikscan.battle.support import supported_by

    res = line_of_sight(bf, figs[:4], bf.units, samples=60)
    # every other unit but the one it stands on [issue 13]
    expected = sum(len(bf.units) - 1 - len(supported_by(bf, f)) for f in figs[:4])
    assert any(p.visible for p in res.pairs) and len(res.pairs) == expected
    for a in bf.attacks:
        bf.unit_named(a.from_), bf.unit_named(a.to)


# ----------------------------------------------------------------------------------------------- CLI

def _cli(args, capsys):
    from brikscan.cli import main

    rc = main(args)
    out = capsys.readouterr()
    return rc, out.out, out.err


@needs_shared
def test_cli_json_contract(capsys):
    rc, out, _ = _cli(["los", str(DATA / "wall_head.ldr"), "--json", "-L", str(LIBRARY_ZIP)], capsys)
    assert rc == 0
    data = json.loads(out)
    assert {"name", "position_ldu"} <= set(data["units"][0])
    keys = {"from", "to", "visible", "sections_visible", "modifier", "visible_fraction", "distance_in", "blocked_by"}
    assert data["pairs"] and all(keys <= set(p) for p in data["pairs"])
    p = next(p for p in data["pairs"] if p["from"] == "archer" and p["to"] == "knight")
    assert p["sections_visible"] == ["head"] and p["modifier"] == -2 and all(isinstance(i, int)
                                                                             for i in p["blocked_by"])
    rc, out, _ = _cli(["los", str(DATA / "wall_head.ldr"), "--from", "knight", "--to", "archer", "--json",
                       "-L", str(LIBRARY_ZIP)], capsys)
    pairs = json.loads(out)["pairs"]
    assert rc == 0 and len(pairs) == 1 and pairs[0]["visible"] is False and pairs[0]["modifier"] == -5


@needs_shared
def test_cli_bad_input_is_one_line(capsys, tmp_path):
    lib = ["-L", str(LIBRARY_ZIP)]
    rc, _, err = _cli(["los", str(DATA / "wall_head.ldr"), "--from", "nobody"] + lib, capsys)
    assert rc == 5 and "no unit named 'nobody'" in err and len(err.strip().splitlines()) == 1
    rc, _, err = _cli(["los", str(DATA / "no_minifigs.ldr")] + lib, capsys)
    assert rc == 3 and "no minifigs" in err
    bad = _scene(tmp_path, f'[[models]]\nfile = "{DATA / "minifig.ldr"}"\nrotate = 90\n')
    rc, _, err = _cli(["los", str(bad)] + lib, capsys)
    assert rc == 3 and "models[0].rotate: unknown key" in err
    # a real process: no traceback on stderr
    proc = subprocess.run([sys.executable, "-m", "brikscan", "los", str(DATA / "open_ground.ldr"), "--to", "x"]
                          + lib, capture_output=True, text=True)
    assert proc.returncode == 5 and "Traceback" not in proc.stderr


# ----------------------------------------------------------------------------------------------- pictures

@needs_shared
def test_png_shows_green_and_red_lines(field, tmp_path):
    from PIL import Image

    from brikscan.battle.sight import line_of_sight
    from brikscan.render.sight_view import render_sight_png

    bf = field("wall_head.ldr")
    res = line_of_sight(bf, [bf.unit_named("archer")], [bf.unit_named("knight")])
    out = render_sight_png(bf, res, tmp_path / "los.png", size=(640, 480))
    img = np.asarray(Image.open(out).convert("RGB")).astype(int)
    green = ((img[..., 1] > 140) & (img[..., 0] < 60) & (img[..., 2] < 80)).sum()
    red = ((img[..., 0] > 180) & (img[..., 1] < 60) & (img[..., 2] < 60)).sum()
    assert green > 50 and red > 50


@needs_shared
def test_html_page_loads_in_headless_chromium(field, tmp_path):
    from brikscan.battle.sight import line_of_sight
    from brikscan.render.browser_check import check_html_in_chromium, find_chromium
    from brikscan.render.sight_view import write_sight_html

    bf = field("wall_legs.ldr")
    res = line_of_sight(bf, [bf.unit_named("archer")], [bf.unit_named("knight")])
    page = write_sight_html(bf, res, tmp_path / "los.html")
    text = page.read_text()
    assert "<canvas" in text and len(text) > 10_000
    if find_chromium() is None:
        pytest.skip("chromium is not on PATH (apt-get install chromium); the page was written but not opened")
    check = check_html_in_chromium(page, screenshot=tmp_path / "los.png")
    assert check.ok, (check.reason, check.errors)
    # the PNG's title, the colour key of rays and marks, and the pair's label, drawn by the page itself
    pw = pytest.importorskip("playwright.sync_api")
    with pw.sync_playwright() as p:
        b = p.chromium.launch(executable_path=find_chromium(), args=["--use-angle=swiftshader",
                                                                      "--enable-unsafe-swiftshader"])
        pg = b.new_page(viewport={"width": 900, "height": 650})
        pg.goto(page.as_uri())
        pg.wait_for_function("window.brikscanLabels !== undefined", timeout=60_000)
        assert "rays from archer" in pg.inner_text("#title-text")
        keys = pg.inner_text("#keys")
        assert "clear ray" in keys and "blocked ray" in keys and pg.locator("#keys .sw").count() >= 4
        labels = pg.evaluate("window.brikscanLabels")
        assert [x["text"] for x in labels] == [f"→ knight: {'+'.join(res.pairs[0].sections_visible) or 'not visible'}"
                                               f", {res.pairs[0].modifier:+d}, {res.pairs[0].distance_in:.1f}\""]
        b.close()


@needs_shared
def test_benchmark_hook_runs_on_a_small_field(library_zip):
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from bench_los import bench_los
    finally:
        sys.path.pop(0)
    out = bench_los(DATA / "no_minifigs.ldr", library_zip, n_units=4, samples=30, repeats=1)
    assert out["units"] == 4 and out["pairs"] == 12 and out["rays"] >= 12 * 30
    assert out["matrix_warm_s"] > 0 and out["engines_same_rays"]["fastest"] in ("embree", "open3d")
    assert out["engines_same_rays"].get("agreement", 1.0) > 0.99


@pytest.fixture(scope="module")
def castle(field):
    """The castle assault scene with every minifig as a viewer (the CLI's default), few samples."""
    from brikscan.battle.sight import line_of_sight

    bf = field(str(SCENES / "castle_assault.toml"))
    figs = [u for u in bf.units if u.is_minifig]
    return bf, line_of_sight(bf, figs, bf.units, samples=60)


@needs_shared
def test_default_picture_draws_one_viewers_rays(castle):
    from brikscan.render.sight_view import ALL_RAYS_PER_PAIR, sight_plotter

    bf, res = castle
    first = res.viewers[0]
    assert len(res.viewers) > 1
    pl = sight_plotter(bf, res, off_screen=True, size=(640, 450))
    try:
        s = pl.sight_summary
        assert s.viewers == [first.name] and set(s.segment_viewers) == {first.name}
        from brikscan.battle.support import supported_by

        assert {v for v, _ in s.pairs} == {first.name}
        assert len(s.pairs) == len(bf.units) - 1 - len(supported_by(bf, first))  # not the wall it stands on
        assert f"rays from {first.name}; use --from/--to to choose" in s.title
        import pyvista as pv

        rays = pv.wrap(pl.actors["sight-rays"].GetMapper().GetInput())
        starts = np.asarray(rays.points).reshape(-1, 2, 3)[:, 0]
        assert rays.n_cells == s.segments > 0
        assert np.allclose(starts, first.eye_ldu, atol=1e-3)  # every drawn ray starts at the one viewer's eye
    finally:
        pl.close()
    pl = sight_plotter(bf, res, off_screen=True, size=(640, 450), all_rays=True)
    try:
        s = pl.sight_summary
        assert len(s.viewers) == len(res.viewers) and len(s.pairs) == len(res.pairs)
        assert s.segments <= ALL_RAYS_PER_PAIR * len(res.pairs)
    finally:
        pl.close()


@needs_shared
def test_picture_keeps_ldraw_colours_and_fills_the_frame(castle, tmp_path):
    from PIL import Image

    from brikscan.render.sight_view import render_sight_png

    bf, res = castle
    out = render_sight_png(bf, res, tmp_path / "castle.png", size=(960, 675))
    img = np.asarray(Image.open(out).convert("RGB")).astype(int)
    fg = img.min(axis=-1) < 250  # not the white background
    assert fg.mean() > 0.25, fg.mean()  # the battlefield fills the frame
    px = img[fg]
    # dominant colours: 16-level bins of the non-background pixels
    q = px // 16
    keys, counts = np.unique(q[:, 0] * 256 + q[:, 1] * 16 + q[:, 2], return_counts=True)
    top = keys[np.argsort(-counts)[:8]]
    top_rgb = np.stack([top // 256, (top // 16) % 16, top % 16], axis=1) * 16 + 8
    lbg = np.array(bf.colours.rgb(71), dtype=float)  # light bluish grey: the castle wall
    # lit faces are the part colour times a shade: compare chroma (colour direction), and require grey-ish
    direction = top_rgb / np.linalg.norm(top_rgb, axis=1, keepdims=True)
    cos = direction @ (lbg / np.linalg.norm(lbg))
    chroma = top_rgb.max(axis=1) - top_rgb.min(axis=1)
    assert np.any((cos > 0.995) & (chroma < 32) & (top_rgb.mean(axis=1) > 70)), top_rgb
    # the wall is not tinted: few yellow/tan pixels (the old picture tinted whole creations)
    yellow = (px[:, 0] > 150) & (px[:, 1] > 120) & (px[:, 2] < 0.6 * px[:, 1])
    assert yellow.mean() < 0.25, yellow.mean()


# ----------------------------------------------------------------------------------------------- barrel end

CONTRACT_KEYS_BEFORE_ORIGIN = {"from", "to", "target_kind", "visible", "sections_visible", "modifier",
                               "visible_fraction", "distance_in", "altitude_in", "height_advantage_in",
                               "visible_extent_in", "blocked_by", "blockers", "rays"}


GUN_PARTS = {"30141.dat", "57899.dat", "4499.dat"}  # rifle, long blaster, bow (by hand)


def _gun(bf, unit):
    """(gun element index, its vertices, the centre of the hand nearest it)."""
    guns = [i for i in unit.elements if bf.elements[i].part in GUN_PARTS]
    assert len(guns) == 1, guns
    g = guns[0]
    off = bf.mesh.element_offsets
    pts = bf.mesh.triangles[off[g]:off[g + 1]].reshape(-1, 3).astype(float)
    hands = [i for i in unit.elements if bf.elements[i].part == "3820.dat"]
    centres = [(bf.elements[i].bbox_min + bf.elements[i].bbox_max) / 2 for i in hands]
    gc = pts.mean(axis=0)
    return g, pts, min(centres, key=lambda c: np.linalg.norm(c - gc))


def test_ranged_weapon_parts_by_description():
    """The analysis classifier (the one source for sight too) names minifig guns, bows and blasters."""
    from types import SimpleNamespace

    from brikscan.analysis.roles import classify_part
    from brikscan.battle.units import RANGED_TYPES

    def ranged(d, cat):
        c = classify_part(SimpleNamespace(description=d, category=cat, part="x.dat"))
        return c.role == "weapon" and c.type in RANGED_TYPES

    acc = "Minifig Accessory"
    for d in ("Minifig Gun Rifle", "Minifig Weapon Blaster with Two Barrels", "Minifig Long Bow with Arrow",
              "Minifig Crossbow", "Minifig Machine Gun with Drum Magazine", "Minifig Speargun"):
        assert ranged(d, acc), d
    for d in ("Minifig Sword Longsword", "Minifig Hair Decoration Bow Large with Pin", "Minifig Rice Bowl",
              "Minifig Shield Round Bowed", "Minifig Weapon Crescent Blade Serrated with Bar 0.5L",
              "Brick 1 x 2 with Gun", "Minifig Arm Robotic with Blaster Socket"):
        assert not ranged(d, acc if d.startswith("Minifig") and "Arm" not in d else ""), d


@needs_shared
def test_muzzle_is_the_far_end_of_the_gun_from_the_hand(field):
    import trimesh

    bf = field("barrel_corner.ldr")
    rifleman, sentry = bf.unit_named("rifleman"), bf.unit_named("sentry")
    assert sentry.muzzle_ldu is None  # no weapon at all
    g, pts, hand = _gun(bf, rifleman)
    assert bf.elements[g].part == "30141.dat"  # the held rifle is part of the unit (its own body)
    m = rifleman.muzzle_ldu
    assert m is not None
    _, ext = trimesh.bounds.oriented_bounds(pts)
    length = float(max(ext))
    assert 100 < length < 120
    assert np.linalg.norm(m - hand) > 0.5 * length  # the far end, not the stock behind the hand
    # the rifle points -Z: the barrel end is its -Z end, on the rifle itself
    assert m[2] < pts[:, 2].min() + 3 and np.min(np.linalg.norm(pts - m, axis=1)) < 3
    # sight's own look-up gives the same point
    from brikscan.battle.sight import unit_muzzle

    assert np.allclose(unit_muzzle(bf, rifleman), m)


@needs_shared
def test_eyes_and_barrel_give_different_answers(field):
    bf = field("barrel_corner.ldr")
    rifleman = bf.unit_named("rifleman")
    eyes = _los(bf, "rifleman", "sentry")
    assert eyes.origin == "eyes" and np.allclose(eyes.origin_ldu, rifleman.eye_ldu)
    assert not eyes.visible and eyes.modifier == -5
    assert eyes.blocked_by and {bf.elements[i].part for i in eyes.blocked_by} == {"3008.dat"}  # the wall
    for seed in range(4):
        barrel = _los(bf, "rifleman", "sentry", origin="barrel", seed=seed)
        assert barrel.origin == "barrel" and np.allclose(barrel.origin_ldu, rifleman.muzzle_ldu)
        assert barrel.visible and barrel.sections_visible == ["head", "torso", "legs"] and barrel.modifier == 0
        # the unit's own rifle (the rays start on it) and body never block its barrel rays
        assert not set(barrel.blocked_by) & set(rifleman.elements)
        assert barrel.note is None
    assert barrel.distance_in < eyes.distance_in  # measured from the barrel end, ahead of the eyes


@needs_shared
def test_barrel_without_ranged_weapon_falls_back_to_the_eyes(field):
    bf = field("barrel_corner.ldr")
    sentry = bf.unit_named("sentry")
    e = _los(bf, "sentry", "rifleman")
    b = _los(bf, "sentry", "rifleman", origin="barrel")
    assert b.origin == "eyes" and np.allclose(b.origin_ldu, sentry.eye_ldu)
    assert b.note and "sentry" in b.note and "no ranged weapon" in b.note
    assert (b.sections_visible, b.modifier, b.visible_fraction) == (e.sections_visible, e.modifier,
                                                                    e.visible_fraction)
    with pytest.raises(ValueError, match="origin"):
        _los(bf, "sentry", "rifleman", origin="muzzle")


@needs_shared
def test_cli_origin_json_contract(capsys):
    lib = ["-L", str(LIBRARY_ZIP)]
    field_ = str(DATA / "barrel_corner.ldr")
    rc, out, _ = _cli(["los", field_, "--to", "rifleman,sentry", "--json"] + lib, capsys)
    assert rc == 0
    data = json.loads(out)
    assert data["origin"] == "eyes" and data["notes"] == []
    for p in data["pairs"]:
        assert set(p) == CONTRACT_KEYS_BEFORE_ORIGIN | {"origin", "origin_ldu"}
        assert p["origin"] == "eyes"
    eyes_pair = next(p for p in data["pairs"] if p["from"] == "rifleman")
    assert eyes_pair["visible"] is False and eyes_pair["modifier"] == -5

    rc, out, _ = _cli(["los", field_, "--to", "rifleman,sentry", "--origin", "barrel", "--json"] + lib, capsys)
    assert rc == 0
    data = json.loads(out)
    assert {"name", "position_ldu"} <= set(data["units"][0]) and data["origin"] == "barrel"
    for p in data["pairs"]:
        assert set(p) == CONTRACT_KEYS_BEFORE_ORIGIN | {"origin", "origin_ldu"}
        assert len(p["origin_ldu"]) == 3 and all(isinstance(x, float) for x in p["origin_ldu"])
    r = next(p for p in data["pairs"] if p["from"] == "rifleman")
    s = next(p for p in data["pairs"] if p["from"] == "sentry")
    assert r["origin"] == "barrel" and r["visible"] is True and r["modifier"] == 0
    assert r["sections_visible"] == ["head", "torso", "legs"]
    units = {u["name"]: u for u in data["units"]}
    assert s["origin"] == "eyes" and np.allclose(s["origin_ldu"], units["sentry"]["eye_ldu"], atol=0.01)
    assert [(n["from"], n["to"]) for n in data["notes"]] == [("sentry", "rifleman")]
    assert "no ranged weapon" in data["notes"][0]["note"]

    rc, out, _ = _cli(["los", field_, "--from", "sentry", "--to", "rifleman", "--origin", "barrel"] + lib, capsys)
    assert rc == 0 and "note: sentry -> rifleman: sentry has no ranged weapon" in out
    rc, _, err = _cli(["los", field_, "--origin", "muzzle"] + lib, capsys)
    assert rc == 2 and "--origin" in err and len(err.strip().splitlines()) == 1


@needs_shared
def test_scene_attack_from_the_barrel_and_a_rotated_placement(tmp_path, library_zip, capsys):
    from brikscan.battle.battlefield import load_battlefield, load_scene
    from brikscan.battle.sight import line_of_sight

    plain = load_battlefield(DATA / "barrel_corner.ldr", library_zip)
    body = (f'[[models]]\nname = "corner"\nfile = "{DATA / "barrel_corner.ldr"}"\nposition = ["5in", 0, "-2in"]\n'
            f'rotation = 90\n'
            f'[[attacks]]\nfrom = "rifleman"\nto = "sentry"\nweapon = "rifle"\norigin = "barrel"\n'
            f'[[attacks]]\nfrom = "rifleman"\nto = "sentry"\n')
    scene = _scene(tmp_path, body)
    bf = load_scene(scene, library_zip)
    assert bf.attacks[0].origin == "barrel" and bf.attacks[1].origin is None
    r = bf.unit_named("rifleman")
    res = line_of_sight(bf, [r], [bf.unit_named("sentry")], origin="barrel")
    p = res.pairs[0]
    xf = bf.placements[0].transform
    want = xf[:3, :3] @ plain.unit_named("rifleman").muzzle_ldu + xf[:3, 3]
    # moved with the placement (the scene's mesh is float32 after the move: within a fraction of an LDU)
    assert p.origin == "barrel" and np.allclose(p.origin_ldu, want, atol=1.0)
    assert np.allclose(r.muzzle_ldu, want, atol=1.0)
    assert p.sections_visible == ["head", "torso", "legs"]

    rc, out, _ = _cli(["los", str(scene), "--json", "-L", str(library_zip)], capsys)
    assert rc == 0
    attacks = json.loads(out)["attacks"]
    assert [a["origin"] for a in attacks] == ["barrel", "eyes"]
    assert attacks[0]["pair"]["origin"] == "barrel" and attacks[0]["pair"]["modifier"] == 0
    assert attacks[1]["pair"]["origin"] == "eyes" and attacks[1]["pair"]["modifier"] == -5

    with pytest.raises(InputError, match=r"attacks\[0\]\.origin"):
        read_scene(_scene(tmp_path, body.replace('origin = "barrel"', 'origin = "hip"')))


@needs_shared
def test_guns_belong_to_the_hand_that_holds_them(library_zip):
    """squad.ldr: a long blaster also touches a neighbour, a halberd two hands: each goes to its holder."""
    from brikscan.battle.battlefield import load_battlefield

    bf = load_battlefield(ROOT / "ldraw_models" / "squad.ldr", library_zip)
    held = {u.name: sorted(bf.elements[i].part for i in u.elements if bf.elements[i].category ==
                           "Minifig Accessory") for u in bf.units if u.is_minifig}
    # one item each (before, the long blaster went to the swordsman and the halberd to the archer)
    assert sorted(held.values()) == sorted([p] for p in ("3847.dat", "4497.dat", "4499.dat", "30141.dat",
                                                         "57899.dat", "6123.dat"))
    shooters = [u for u in bf.units if u.is_minifig and u.muzzle_ldu is not None]
    assert len(shooters) == 3  # rifle, long blaster, bow
    for u in shooters:
        if any(bf.elements[i].part in ("30141.dat", "57899.dat") for i in u.elements):
            g, pts, hand = _gun(bf, u)
            assert np.linalg.norm(u.muzzle_ldu - hand) > 0.5 * np.ptp(pts @ np.array([0, 0, 1.0]))


@needs_shared
def test_creation_barrel_end_points_away_from_its_centre(library_zip):
    from brikscan.battle.battlefield import load_battlefield
    from brikscan.battle.units import ranged_weapons

    bf = load_battlefield(ROOT / "ldraw_models" / "tank.mpd", library_zip)
    tank = next(u for u in bf.units if not u.is_minifig and ranged_weapons(bf.elements, u))
    weapon = ranged_weapons(bf.elements, tank)[0]
    assert {bf.elements[i].part for i in weapon} >= {"3706.dat"}  # the cannon submodel, with its axle barrel
    lo = np.min([bf.elements[i].bbox_min for i in tank.elements], axis=0)
    hi = np.max([bf.elements[i].bbox_max for i in tank.elements], axis=0)
    centre = (lo + hi) / 2
    w_lo = np.min([bf.elements[i].bbox_min for i in weapon], axis=0)
    w_hi = np.max([bf.elements[i].bbox_max for i in weapon], axis=0)
    m = tank.muzzle_ldu
    assert m is not None and np.all(m >= w_lo - 1) and np.all(m <= w_hi + 1)
    flat = np.array([1.0, 0.0, 1.0])
    assert np.linalg.norm((m - centre) * flat) > np.linalg.norm(((w_lo + w_hi) / 2 - centre) * flat)


@needs_shared
@pytest.mark.parametrize("name", ["open_ground.ldr", "wall_head.ldr", "wall_legs.ldr"])
def test_stopping_at_a_minifig_target_changes_no_answer(field, name):
    """A ray ends where it meets a minifig target (sight and attacks): he is in view there. Marching on through
    him to the sample point, as the full march does, gives the same sections in view and nearly the same visible
    fraction (a sample on a sole is hidden by the ground beyond his foot: that ray did reach him)."""
    from brikscan.battle.sight import SECTIONS, get_engine, march, target_samples

    bf = field(name)
    viewer, target = bf.unit_named("archer"), bf.unit_named("knight")
    pts, sec = target_samples(bf, target, 400, 0)
    origin = np.ascontiguousarray(np.broadcast_to(np.asarray(viewer.eye_ldu, float), pts.shape))
    d = pts - origin
    length = np.linalg.norm(d, axis=1)
    dirs = d / length[:, None]
    owner = np.full(len(bf.elements), -1, np.int64)
    owner[viewer.elements], owner[target.elements] = 0, 1
    fe = bf.mesh.face_element
    face_owner = np.where(fe >= 0, owner[np.clip(fe, 0, None)], -1)
    rv, rt = np.zeros(len(pts), np.int64), np.ones(len(pts), np.int64)
    eng = get_engine(bf)
    full, _, _, full_passes = march(eng, origin, dirs, length, rv, rt, face_owner)
    cut, _, met, cut_passes = march(eng, origin, dirs, length, rv, rt, face_owner,
                                    stop_at_target=np.array([False, True]))

    def seen(blocked):
        return [s for k, s in enumerate(SECTIONS) if np.any(~blocked & (sec == k))]

    assert seen(full >= 0) == seen(cut >= 0)
    assert abs((full >= 0).mean() - (cut >= 0).mean()) <= 0.02
    assert np.all(cut[full < 0] < 0)  # stopping early never blocks a ray the full march lets through
    assert (met >= 0).any() and cut_passes <= full_passes


def test_a_battlefield_writes_the_rest_of_the_scene_behind_its_first_models_faces(tmp_path):
    """The first model placed as built lends its soup to the battlefield (no copy of its faces); only its first
    battlefield does, and a second one built from the same model leaves the first one's faces as they were."""
    import pickle

    from brikscan import load
    from brikscan.analysis.stats import analyse
    from brikscan.battle.battlefield import load_battlefield

    wall_file = (ROOT / "ldraw_models" / "castle_wall.ldr").resolve()
    scene = tmp_path / "scene.toml"
    brick = tmp_path / "brick.ldr"  # a few faces: the room behind the wall's holds them
    brick.write_text("0 one brick\n1 4 0 -24 0 1 0 0 0 1 0 0 0 1 3001.dat\n")
    scene.write_text(f'[[models]]\nname = "wall"\nfile = "{wall_file}"\n\n'
                     f'[[models]]\nname = "brick"\nfile = "{brick}"\nposition = ["10in", 0, 0]\nrotation = 90\n')
    wall = analyse(load(wall_file))
    known = {wall_file: wall}
    first = load_battlefield(scene, analyses=known)
    own = wall.model.mesh
    assert np.shares_memory(first.mesh.triangles, own.triangles)  # the wall's faces were not copied
    assert first.mesh.n_triangles > own.n_triangles  # the brick's faces are there too
    before = [a.copy() for a in (first.mesh.triangles, first.mesh.face_element, first.mesh.face_colour)]
    second = load_battlefield(scene, analyses=known)  # the room is taken: this one is a copy
    assert not np.shares_memory(second.mesh.triangles, own.triangles)
    for a, b, c in zip(before, (first.mesh.triangles, first.mesh.face_element, first.mesh.face_colour),
                       (second.mesh.triangles, second.mesh.face_element, second.mesh.face_colour)):
        assert np.array_equal(a, b) and np.array_equal(b, c)  # the same faces both ways, the first untouched
    assert np.array_equal(first.mesh.triangles[:own.n_triangles], own.triangles)
    back = pickle.loads(pickle.dumps(own))
    assert back._room is None and np.array_equal(back.triangles, own.triangles)
