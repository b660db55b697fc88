"""An engine over only the geometry a set of segments can reach answers those segments as the whole model does."""
from __future__ import annotations

import numpy as np
import pytest

from conftest import ROOT

pytest.importorskip("embreex")


def test_region_engine_gives_the_whole_models_distances():
    import brikscan
    from brikscan.battle.raycast import RayEngine, SubsetEngine

    m = brikscan.load(ROOT / "ldraw_models" / "tank.mpd")  # no library needed: the fallback meshes
    lo = np.array([e.bbox_min for e in m.elements])
    hi = np.array([e.bbox_max for e in m.elements])
    centre = (lo[0] + hi[0]) / 2
    rng = np.random.default_rng(1)
    ends = centre + rng.uniform(-40, 40, (5000, 3))
    d = ends - centre
    length = np.linalg.norm(d, axis=1)
    u = (d / length[:, None]).astype(np.float32)
    o = np.tile(centre, (len(u), 1)).astype(np.float32)
    box_lo, box_hi = np.minimum(centre, ends.min(axis=0)), np.maximum(centre, ends.max(axis=0))
    region = RayEngine.for_region(m.mesh, lo, hi, box_lo, box_hi)
    assert isinstance(region, SubsetEngine) and len(region.faces) < m.mesh.n_triangles
    whole = RayEngine.build(m.mesh.triangles)
    a = whole.first_hit(o, u, length.astype(np.float32))
    b = region.first_hit(o, u, length.astype(np.float32))
    assert np.array_equal(a.t, b.t)  # the same distances: nothing outside the box can be hit
    assert np.array_equal(a.face >= 0, b.face >= 0)
    assert (b.face[b.face >= 0] < m.mesh.n_triangles).all()
    assert b.face.max() >= 0 and np.isin(b.face[b.face >= 0], region.faces).all()  # whole-model indices
