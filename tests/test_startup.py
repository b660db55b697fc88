"""What a fresh process does on the way to its answer (issue 9): a cached analysis is read without the analysis's
heavy imports, a warm load parses no alias file, and the pair searches find what a brute-force search finds."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from conftest import EXAMPLES, LIBRARY_ZIP, ROOT, needs_shared

ID = "1 0 0 0 1 0 0 0 1"

CACHED_CHILD = r"""
import json, sys
import brikscan
from brikscan.analysis.stats import analyse, analysis_json
m = brikscan.load(sys.argv[1], sys.argv[2] or None)
a = analyse(m)
out = {"cached": a.cached, "json": analysis_json(a),
       "imported": sorted(k for k in ("networkx", "scipy", "trimesh", "brikscan.rules.tables") if k in sys.modules)}
out["edges"] = a.graph.number_of_edges()
out["networkx_after_graph"] = "networkx" in sys.modules
print(json.dumps(out))
"""


def _child(code: str, *args: str, cache) -> dict:
    env = {**os.environ, "BRIKSCAN_CACHE": str(cache), "PYTHONPATH": str(ROOT), "BRIKSCAN_NO_PROGRESS": "1"}
    env.pop("BRIKSCAN_NO_ANALYSIS_CACHE", None)
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, cwd=ROOT,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@needs_shared
def test_a_cached_analysis_is_read_without_networkx_scipy_trimesh_or_the_rule_tables(tmp_path):
    tank = str(EXAMPLES / "tank.mpd")
    first = _child(CACHED_CHILD, tank, str(LIBRARY_ZIP), cache=tmp_path)
    again = _child(CACHED_CHILD, tank, str(LIBRARY_ZIP), cache=tmp_path)
    assert not first["cached"] and again["cached"]
    assert again["imported"] == []  # what `stats` needs to print cached cards: no analysis machinery
    assert again["json"] == first["json"]
    assert again["edges"] == first["edges"] > 0  # the graph is still there, read back when first asked for
    assert again["networkx_after_graph"]


WARM_ALIAS_CHILD = r"""
import json, sys
import brikscan
from brikscan.ldraw.library import Library

def refuse(self):
    raise AssertionError("the warm load opened the library zip")

Library._zip_index = refuse
m = brikscan.load(sys.argv[1], sys.argv[2])
p = m.parts["3660.dat"]
print(json.dumps({"alias_of": p.alias_of, "description": p.description, "hits": m.timings["cache_hits"]}))
"""


@needs_shared
def test_a_warm_load_knows_aliases_from_the_part_cache_without_opening_the_library(tmp_path):
    import brikscan

    model = tmp_path / "alias.ldr"
    model.write_text("0 alias\n0 Name: alias.ldr\n" + f"1 4 0 0 0 {ID} 3001.dat\n1 4 0 -24 0 {ID} 3660.dat\n")
    cold = brikscan.load(model, LIBRARY_ZIP, cache_dir=tmp_path / "cache")
    assert cold.parts["3660.dat"].alias_of == "3660a.dat"  # "~Moved to 3660a"
    env_cache = tmp_path / "cache"
    warm = _child(WARM_ALIAS_CHILD, str(model), str(LIBRARY_ZIP), cache=env_cache)
    assert warm["hits"] >= 2
    assert warm["alias_of"] == "3660a.dat" and warm["description"] == cold.parts["3660.dat"].description
    assert warm["description"].startswith("Slope")


def test_axle_candidates_by_class_hold_every_pair_within_reach():
    """_pairs_by_class against a brute-force search: every pair within rad_i + rad_j + reach is found."""
    from brikscan.analysis.connectivity import _pairs_by_class

    rng = np.random.default_rng(3)
    pos = rng.uniform(0, 400, size=(600, 3))
    rad = np.concatenate([np.full(500, 4.0), rng.uniform(4, 320, size=100)])
    reach = 7.0
    got = {tuple(sorted(p)) for p in _pairs_by_class(pos, rad, reach).tolist()}
    d = np.linalg.norm(pos[:, None] - pos[None], axis=2)
    i, j = np.nonzero(np.triu(d <= rad[:, None] + rad[None, :] + reach, k=1))
    assert set(zip(i.tolist(), j.tolist())) <= got


def test_rigid_test_at_once_matches_allclose_one_by_one():
    from brikscan.analysis.interior import _rigid_many

    rng = np.random.default_rng(5)
    mats = []
    for _ in range(300):
        q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
        m = np.eye(4)
        m[:3, :3] = np.round(q * rng.choice([1.0, 1.0, 1.004, 1.02, 0.5]), rng.choice([2, 3, 6]))
        mats.append(m)
    mats.append(np.full((4, 4), np.nan))
    tf = np.stack(mats)
    one = [bool(np.allclose(t[:3, :3].T @ t[:3, :3], np.eye(3), atol=1e-2)) for t in tf]
    assert _rigid_many(tf).tolist() == one
    assert any(one) and not all(one)


def test_the_code_stamp_is_worked_out_once_per_process():
    """Once, when the analysis is imported: a process that analyses after an edit of the code still files its
    results under the stamp of the code it runs (a test session that started before the edit did not)."""
    import subprocess
    import sys

    probe = ("from brikscan.analysis import stats, store; i = store.code_stamp.cache_info(); "
             "print(i.currsize, i.misses)")  # after the import, before any analysis asks for it
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["1", "1"]
    from brikscan.analysis import store

    first = store.code_stamp()
    assert store.code_stamp() is first and store.code_stamp.cache_info().misses == 1


def test_judging_a_small_model_does_not_import_trimesh(tmp_path):
    """The oriented box of a creation's Size comes from scipy's qhull with trimesh's steps restated
    (geometry/obb.py): a fresh `stats` of the bundled tank, analysed for the first time, never imports trimesh
    (half a second of the process: its scipy.optimize, voxel and creation modules)."""
    first = _child(CACHED_CHILD, str(EXAMPLES / "tank.mpd"), "", cache=tmp_path)
    assert not first["cached"]
    assert "scipy" in first["imported"] and "trimesh" not in first["imported"]
    assert first["json"]["creations"][0]["size"] > 0
