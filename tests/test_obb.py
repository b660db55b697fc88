"""geometry/obb.py gives trimesh.bounds.oriented_bounds' answer bit for bit (a bow's barrel end swings by LDUs with
the smallest change of its box, so "nearly the same box" would move attack options): point sets built to have
near-ties, and the real bow and sword of an LDraw minifig placed at many bearings, as a scene places them."""
from __future__ import annotations

import math

import numpy as np
import pytest

from brikscan.geometry.obb import oriented_bounds

from conftest import ROOT


def _same_as_trimesh(points: np.ndarray) -> None:
    import trimesh

    want = trimesh.bounds.oriented_bounds(points)
    got = oriented_bounds(points)
    assert np.array_equal(want[0], got[0]) and np.array_equal(want[1], got[1])


def _rot_y(deg: float) -> np.ndarray:
    a = math.radians(deg)
    return np.array([[math.cos(a), 0, math.sin(a)], [0, 1, 0], [-math.sin(a), 0, math.cos(a)]])


@pytest.mark.parametrize("seed", range(6))
def test_random_clouds(seed):
    rng = np.random.default_rng(seed)
    for n, scale in ((12, (1, 1, 1)), (80, (5, 1, 0.3)), (600, (2, 2, 1)), (3000, (10, 0.5, 0.5))):
        _same_as_trimesh(rng.normal(size=(n, 3)) * scale)


def test_symmetric_shapes_tie_as_trimesh_breaks_them():
    """A box, a regular prism and a cube: several directions give the same volume; the first one wins."""
    box = np.array([[x, y, z] for x in (0, 4) for y in (0, 1) for z in (0, 2)], float)
    ring = [(math.cos(2 * math.pi * k / 8), math.sin(2 * math.pi * k / 8)) for k in range(8)]
    prism = np.array([[x, y, z] for x, y in ring for z in (0.0, 3.0)])
    cube = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
    for pts in (box, prism, cube):
        for deg in (0.0, 12.0, 45.0, 91.0):
            _same_as_trimesh(pts @ _rot_y(deg).T + [3.0, -7.0, 11.0])


def test_flat_points_fall_back_to_trimesh():
    rng = np.random.default_rng(3)
    flat = np.column_stack([rng.normal(size=40), rng.normal(size=40), np.zeros(40)])
    _same_as_trimesh(flat)


def test_one_or_two_points_raise_without_importing_trimesh():
    """A measure of one point (a creation whose Structure is one stud) is left to the caller's own fallback, as
    trimesh leaves it (trimesh raises a QhullError or an IndexError there, this a ValueError; every caller catches
    any), without half a second of importing trimesh to be told so."""
    import subprocess
    import sys

    import trimesh

    for pts in (np.array([[842.0, -363.0, 607.7]] * 2), np.array([[0.0, 0.0, 0.0], [10.0, 5.0, 3.0]]),
                np.array([[1.0, 2.0, 3.0]])):
        with pytest.raises(Exception):
            trimesh.bounds.oriented_bounds(pts)
        with pytest.raises(ValueError):
            oriented_bounds(pts)
    code = ("import sys, numpy as np\nfrom brikscan.geometry.obb import oriented_bounds\n"
            "try:\n    oriented_bounds(np.zeros((2, 3)))\nexcept ValueError:\n    pass\n"
            "print('trimesh' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "False"


def test_placed_bow_and_sword(library_zip):
    """The squad's bow (4499) and a sword at 30 bearings, moved as a scene moves a model (float64, then the
    float32 triangles), in the weapon's first element's frame as units._weapon_axis measures it."""
    import brikscan

    m = brikscan.load(ROOT / "ldraw_models" / "squad.ldr", library_zip)
    weapons = {}
    for e in m.elements:
        if e.part.lower() in ("4499.dat", "3847.dat") and e.part.lower() not in weapons:
            weapons[e.part.lower()] = e
    assert "4499.dat" in weapons, "the squad's archer holds a bow"
    for e in weapons.values():
        tris = m.mesh.triangles[m.mesh.element_offsets[e.index]:m.mesh.element_offsets[e.index + 1]]
        t0 = np.asarray(e.transform, float)
        for k in range(30):
            xf = np.eye(4)
            xf[:3, :3] = _rot_y(12.0 * k)
            xf[:3, 3] = [1249.9 * math.cos(k), 4.0, 50.9 * k]
            placed = (tris.astype(np.float64) @ xf[:3, :3].T + xf[:3, 3]).astype(np.float32)
            pts = np.unique(placed.reshape(-1, 3).astype(np.float64), axis=0)
            inv = np.linalg.inv(xf @ t0)
            _same_as_trimesh(pts @ inv[:3, :3].T + inv[:3, 3])


def test_a_big_curved_hull_is_scored_in_blocks_with_the_same_answer(monkeypatch):
    """A rail oval's hull has hundreds of candidate normals and silhouette edges: scored all at once the
    (candidate, edge, edge) arrays took 2.5 GB for 7730's train set. Scored in blocks (here also made tiny, to
    force many) the box is trimesh's, bit for bit."""
    import brikscan.geometry.obb as obb

    rng = np.random.default_rng(7)
    ring = rng.normal(size=(4000, 3))
    ring /= np.linalg.norm(ring, axis=1, keepdims=True)
    ring *= [400.0, 12.0, 250.0]  # a flat oval, as a rail loop lies
    monkeypatch.setattr(obb, "BLOCK_CELLS", 5_000)
    _same_as_trimesh(ring)
    monkeypatch.setattr(obb, "BLOCK_CELLS", 4_000_000)
    _same_as_trimesh(ring)
