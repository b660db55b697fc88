"""The instanced ray engine (one Embree tree per distinct part, placed per element) answers sight, attacks and
blast cover as a flat tree over every world triangle does, on a shared model.

The reference is independent of the instancing: ``RayEngine.build`` over the model's world triangle soup (what
every command used before), cast with the same rays. Exact ties (a ray along two touching faces) may name either
face, so single rays may differ in which element they name; the answers a player reads may not.
"""
from __future__ import annotations

import numpy as np
import pytest

from conftest import LIBRARY_ZIP, MODELS_DIR, ROOT, needs_shared

pytest.importorskip("embreex")
MODEL = MODELS_DIR / "6285 - Black Seas Barracuda.mpd"  # 3,102 elements, 0.77 M triangles, many repeated parts


def _instanced_available() -> bool:
    from brikscan.battle import instanced

    return instanced.available()


@pytest.fixture(scope="module")
def model(loaded):
    if not MODEL.exists():
        pytest.skip(f"needs {MODEL}")
    return loaded(MODEL)


@needs_shared
def test_instanced_engine_builds_a_fraction_and_hits_what_the_flat_tree_hits(model, monkeypatch):
    from brikscan.battle import instanced
    from brikscan.battle.instanced import InstancedEngine
    from brikscan.battle.raycast import RayEngine

    if not _instanced_available():
        pytest.skip("no Embree 4 library next to embreex")
    m = model
    eng = RayEngine.for_model(m.mesh, np.array([e.transform for e in m.elements]), [e.part for e in m.elements])
    assert isinstance(eng, InstancedEngine) and eng.name == "embree"
    assert eng.n_part_triangles + eng.n_flat < m.mesh.n_triangles / 3  # the point: far fewer triangles to build
    flat = RayEngine.build(m.mesh.triangles, "embree")
    lo, hi = m.bbox_ldu
    rng = np.random.default_rng(7)
    n = 2 * instanced.CHUNK_RAYS + 4321  # three chunks through the packet buffer, the last one part-filled
    a, b = rng.uniform(lo, hi, (n, 3)), rng.uniform(lo, hi, (n, 3))
    d = b - a
    length = np.linalg.norm(d, axis=1)
    u = d / length[:, None]
    hi_, hf = eng.first_hit(a, u, length), flat.first_hit(a, u, length)
    monkeypatch.setattr(instanced, "CHUNK_RAYS", 4 * n)  # all in one fill: exactly the same answers
    whole = eng.first_hit(a, u, length)
    assert np.array_equal(whole.face, hi_.face) and np.array_equal(whole.t, hi_.t)
    fe = m.mesh.face_element
    assert (hi_.face < m.mesh.n_triangles).all() and (hi_.face >= 0).mean() > 0.3  # whole-model face indices
    assert ((hi_.face >= 0) == (hf.face >= 0)).mean() > 0.999
    both = (hi_.face >= 0) & (hf.face >= 0)
    same = both & (fe[np.clip(hi_.face, 0, None)] == fe[np.clip(hf.face, 0, None)])
    assert same.sum() > 0.995 * both.sum()
    assert np.abs(hi_.t[same] - hf.t[same]).max() < 0.05  # LDU: float32 rounding of the placements only


def _scene(tmp_path, model_path, n_units: int):
    """bench/bench_attacks.py's scene: the model, and minifigs with a bow and a sword around and on top of it."""
    import sys

    sys.path.insert(0, str(ROOT))
    from bench.bench_attacks import scene_text, two_weapon_minifig

    import brikscan

    base = brikscan.load(model_path, LIBRARY_ZIP)
    lo, hi = base.bbox_ldu
    fig = tmp_path / "fig2.ldr"
    fig.write_text(two_weapon_minifig())
    path = tmp_path / "scene.toml"
    path.write_text(scene_text(model_path.resolve(), fig, lo, hi, n_units))
    return path


@needs_shared
def test_sight_and_attacks_answer_as_with_the_whole_model_tree(tmp_path, model):
    from brikscan.battle.attacks import attack_options
    from brikscan.battle.battlefield import load_scene
    from brikscan.battle.raycast import RayEngine
    from brikscan.battle.sight import line_of_sight

    if not _instanced_available():
        pytest.skip("no Embree 4 library next to embreex")
    bf = load_scene(_scene(tmp_path, MODEL, 9), LIBRARY_ZIP)
    figs = [u for u in bf.units if u.is_minifig and u.name.startswith("u")]
    assert len(figs) == 9
    fast = line_of_sight(bf, figs, figs, samples=120)
    att_fast = attack_options(bf, figs, samples=60)
    assert bf.cache[("engine", None)].n_part_triangles < bf.mesh.n_triangles / 3
    ref_bf = load_scene(_scene(tmp_path, MODEL, 9), LIBRARY_ZIP)
    ref_bf.cache[("engine", None)] = RayEngine.build(ref_bf.mesh.triangles, "embree")  # the flat reference
    ref_figs = [u for u in ref_bf.units if u.is_minifig and u.name.startswith("u")]
    ref = line_of_sight(ref_bf, ref_figs, ref_figs, samples=120)
    att_ref = attack_options(ref_bf, ref_figs, samples=60)
    assert len(fast.pairs) == len(ref.pairs) == 72
    assert sum(p.visible for p in ref.pairs) > 0 and sum(not p.visible for p in ref.pairs) > 0  # a real test
    for p, q in zip(fast.pairs, ref.pairs):
        assert (p.viewer, p.target, p.visible, p.sections_visible, p.modifier) == \
               (q.viewer, q.target, q.visible, q.sections_visible, q.modifier)
        assert p.visible_fraction == pytest.approx(q.visible_fraction, abs=2 / 120)
    assert (fast.blocked == ref.blocked).mean() > 0.999
    assert len(att_fast.options) == len(att_ref.options) > 0
    for o, r in zip(att_fast.options, att_ref.options):
        assert (o.attacker, o.weapon, o.target, o.in_arc, o.visible, o.needed_roll) == \
               (r.attacker, r.weapon, r.target, r.in_arc, r.visible, r.needed_roll)
        assert [(m.name, m.value) for m in o.modifiers] == [(m.name, m.value) for m in r.modifiers]
        assert o.distance_in == pytest.approx(r.distance_in, abs=0.01)


@needs_shared
def test_blast_cover_answers_as_with_the_whole_model_tree(model):
    from brikscan.analysis.stats import analyse
    from brikscan.battle.dice import parse_explosion_dice, parse_rolls
    from brikscan.battle.explosion import explode, make_blast
    from brikscan.battle.instanced import InstancedEngine
    from brikscan.battle.raycast import RayEngine
    from brikscan.battle.scene import build_scene

    if not _instanced_available():
        pytest.skip("no Embree 4 library next to embreex")
    an = analyse(model)
    lo, hi = model.bbox_ldu
    centres = np.array([(e.bbox_min + e.bbox_max) / 2 for e in model.elements])
    centre = centres[np.argmin(np.linalg.norm(centres - (lo + hi) / 2, axis=1))]
    fast_scene, ref_scene = build_scene(an), build_scene(an)
    spec = parse_explosion_dice("3d10", fast_scene.rules)
    blast = make_blast(centre, spec, fast_scene.rules, rolls=parse_rolls("3,6,7", spec, fast_scene.rules))
    fast = explode(fast_scene, [blast], armor_rolls=[4.0])
    assert isinstance(fast_scene._rays, InstancedEngine)
    ref_scene._rays = RayEngine.build(model.mesh.triangles, "embree")  # the flat reference tree
    ref = explode(ref_scene, [blast], armor_rolls=[4.0])
    assert ref.shielded.sum() > 0 and ref.destroyed.sum() > 0  # cover matters in this blast
    assert np.array_equal(fast.exposed, ref.exposed) and np.array_equal(fast.shielded, ref.shielded)
    assert np.array_equal(fast.destroyed, ref.destroyed)
    assert [sorted(s.elements) for s in fast.sections] == [sorted(s.elements) for s in ref.sections]


def test_the_valid_mask_and_packets_are_64_byte_aligned():
    """rtcIntersect16 reads its valid mask and ray packet with aligned 64-byte loads: on a CPU with AVX-512 a
    numpy array's 16-byte alignment crashed every blast, los and attacks (a segmentation fault)."""
    from brikscan.battle.instanced import _aligned64

    for n in range(1, 40):  # whatever the allocator hands out
        a = _aligned64(np.full(16 + n % 3, -1, dtype=np.int32))
        assert a.ctypes.data % 64 == 0 and np.all(a == -1)


def test_instanced_rays_on_the_bundled_tank_do_not_crash():
    """The engine over a small model with the fallback meshes (no library): rays straight down onto the tank's
    middle hit it, at the same height, within its box."""
    from brikscan import load
    from brikscan.battle import instanced

    if not instanced.available():
        pytest.skip("the Embree 4 library inside embreex is not loadable here")
    m = load(ROOT / "ldraw_models" / "tank.mpd", None)
    eng = instanced.InstancedEngine(m.mesh, np.stack([e.transform for e in m.elements]),
                                    [e.part for e in m.elements])
    tris = np.asarray(m.mesh.triangles).reshape(-1, 3)
    lo, hi = tris.min(axis=0), tris.max(axis=0)
    c = (lo + hi) / 2
    origins = np.tile([c[0], lo[1] - 100.0, c[2]], (40, 1))  # LDraw -Y is up: 40 rays from above, straight down
    hits = eng.first_hit(origins, np.tile([0.0, 1.0, 0.0], (40, 1)), 1e6)
    assert np.all(np.isfinite(hits.t)) and np.all(hits.face >= 0)
    assert np.allclose(hits.t, hits.t[0]) and 100.0 <= hits.t[0] <= 100.0 + (hi[1] - lo[1])
