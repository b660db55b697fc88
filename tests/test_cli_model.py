"""The info / view / export commands as a user runs them: contract, exit codes, one-line errors, no tracebacks."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conftest import EXAMPLES, LIBRARY_ZIP, MODELS_DIR, needs_shared


def run(*args: str, env: dict | None = None, home: Path | None = None) -> subprocess.CompletedProcess:
    e = {**os.environ, **(env or {})}
    e.pop("LDRAWDIR", None)
    if home is not None:
        e["HOME"] = str(home)  # no ~/ldraw: the offline fallback is what is left
    return subprocess.run([sys.executable, "-m", "brikscan", *args], capture_output=True, text=True, env=e,
                          timeout=600)


def test_info_json_contract_offline_fallback(tmp_path):
    r = run("info", str(EXAMPLES / "tank.mpd"), "--json", "--elements", home=tmp_path)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert isinstance(d["elements"], int) and d["elements"] == len(d["element_list"]) > 20
    assert d["triangles"] > 10000  # real part shapes, not boxes (a box is 12 triangles per element)
    assert d["triangles"] > 12 * d["elements"] * 5
    assert "bricklayer" in d["geometry_source"] and "no LDraw library" in d["geometry_source"]
    assert d["missing_parts"] == []
    assert set(d["bbox_ldu"]) == {"min", "max"} and len(d["bbox_ldu"]["min"]) == 3
    e0 = d["element_list"][0]
    assert {"index", "part", "colour", "bbox_ldu"} <= set(e0) and e0["index"] == 0


@needs_shared
def test_info_with_library_matches_python_api():
    import brikscan

    r = run("info", str(EXAMPLES / "castle_wall.ldr"), "--json", "--library", str(LIBRARY_ZIP))
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    m = brikscan.load(EXAMPLES / "castle_wall.ldr", LIBRARY_ZIP)
    assert d["elements"] == len(m.elements) and d["triangles"] == m.mesh.n_triangles
    assert d["geometry_source"].startswith("LDraw library")
    np.testing.assert_allclose(d["bbox_ldu"]["min"], m.bbox_ldu[0], atol=1e-3)


@pytest.mark.parametrize("args, code, text", [
    (["info", "/no/such/model.ldr"], 3, "no such file"),
    (["info", "BINARY"], 3, "binary"),
    (["info", "EMPTY"], 3, "empty model"),
    (["info", "EXAMPLE", "--library", "/no/such/lib"], 4, "library not found"),
    (["info", "EXAMPLE", "--library", "BADZIP"], 4, "not a zip"),
    (["export", "EXAMPLE", "OUT.xyz"], 2, "unknown export format"),
    (["info"], 2, "Missing"),
])
def test_bad_input_one_line_and_exit_code(tmp_path, args, code, text):
    (tmp_path / "b.ldr").write_bytes(b"\x00\x01\x02binary")
    (tmp_path / "e.ldr").write_text("0 nothing here\n")
    (tmp_path / "bad.zip").write_bytes(b"not a zip at all")
    subst = {"BINARY": str(tmp_path / "b.ldr"), "EMPTY": str(tmp_path / "e.ldr"),
             "EXAMPLE": str(EXAMPLES / "squad.ldr"), "BADZIP": str(tmp_path / "bad.zip"),
             "OUT.xyz": str(tmp_path / "out.xyz")}
    r = run(*[subst.get(a, a) for a in args], home=tmp_path)
    assert r.returncode == code, (r.returncode, r.stderr)
    assert text in r.stderr
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout
    errors = [ln for ln in r.stderr.splitlines() if "error" in ln.lower()]
    assert len(errors) == 1


def test_export_and_view_png(tmp_path):
    import trimesh
    from PIL import Image

    src = EXAMPLES / "fighter.ldr"
    before = src.read_bytes()
    out = tmp_path / "fighter.glb"
    r = run("export", str(src), str(out), home=tmp_path)
    assert r.returncode == 0, r.stderr
    scene = trimesh.load(out)
    assert sum(len(g.faces) for g in scene.geometry.values()) > 1000
    png = tmp_path / "fighter.png"
    r = run("view", str(src), "--png", str(png), home=tmp_path)
    assert r.returncode == 0, r.stderr
    img = np.asarray(Image.open(png).convert("RGB"))
    assert (np.abs(img.astype(int) - 255).sum(axis=2) > 30).mean() > 0.05  # something drawn on white
    assert src.read_bytes() == before
    assert not list(tmp_path.glob(".*.tmp"))  # atomic writes leave no temporaries


@needs_shared
def test_missing_parts_reported_rest_loads():
    r = run("info", str(MODELS_DIR / "1788 - Treasure Chest.mpd"), "--json", "--library", str(LIBRARY_ZIP))
    assert r.returncode == 0
    d = json.loads(r.stdout)
    # (a variant the library lacks is drawn as the part of its number it has, and said so: 3334h, a 16 x 24
    # base plate's, and 6029b, the islanders' horns)
    assert d["missing_parts"] == [] and d["stand_ins"] == {"3334h.dat": "3334.dat", "6029b.dat": "6029a.dat"}
    assert sum("drawn and judged as" in w for w in d["warnings"]) == 2
    assert d["elements"] == 186 and d["triangles"] > 100000


def test_view_scene_file(tmp_path):
    from PIL import Image

    png = tmp_path / "scene.png"
    r = run("view", str(EXAMPLES.parent / "scenes" / "street_fight.toml"), "--png", str(png), home=tmp_path)
    assert r.returncode == 0, r.stderr
    img = np.asarray(Image.open(png).convert("RGB")).astype(int)
    assert (np.abs(img - 255).sum(axis=2) > 30).mean() > 0.08


def test_outputs_get_the_usual_permissions(tmp_path):
    out = tmp_path / "squad.ply"
    r = run("export", str(EXAMPLES / "squad.ldr"), str(out), home=tmp_path)
    assert r.returncode == 0, r.stderr
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask
