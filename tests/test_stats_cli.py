"""``brikscan stats`` and ``view --roles`` as a user runs them: JSON contract, cards, exit codes, one-line errors."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLES, LIBRARY_ZIP, MODELS_DIR, needs_shared


def run(*args: str, home: Path | None = None) -> subprocess.CompletedProcess:
    e = dict(os.environ)
    e.pop("LDRAWDIR", None)
    if home is not None:
        e["HOME"] = str(home)
    return subprocess.run([sys.executable, "-m", "brikscan", *args], capture_output=True, text=True, env=e,
                          timeout=600)


def _one_line_error(r, code: int) -> str:
    assert r.returncode == code, (r.returncode, r.stderr)
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith("brikscan:")]
    assert lines and "Traceback" not in r.stderr
    return lines[-1]


@needs_shared
def test_stats_json_contract():
    r = run("stats", str(MODELS_DIR / "21109 - Exo Suit.mpd"), "-L", str(LIBRARY_ZIP), "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["rules"] == "2010" and d["scale_ldu_per_inch"] == 63.5
    c = max(d["creations"], key=lambda c: len(c["elements"]))
    for k in ("name", "kind", "elements", "structural_elements", "size_in", "size", "structure_level", "armor",
              "base_cost", "weapons", "propulsion", "power", "total_cost", "roles"):
        assert k in c
    assert isinstance(c["size_in"], float) and isinstance(c["size"], int)
    assert c["base_cost"] == c["size"] * c["structure_level"]
    assert all(set(v) >= {"role", "reason"} for v in c["roles"].values())


@needs_shared
def test_stats_options_change_the_numbers():
    path = str(EXAMPLES / "castle_wall.ldr")
    if not Path(path).exists():
        pytest.skip("ldraw_models/castle_wall.ldr not there yet")
    base = json.loads(run("stats", path, "-L", str(LIBRARY_ZIP), "--json").stdout)
    stud = json.loads(run("stats", path, "-L", str(LIBRARY_ZIP), "--json", "--scale", "stud", "--round", "up",
                          "--sl", "1/2", "--rules", "2010").stdout)
    assert stud["scale_ldu_per_inch"] == 60.0
    wall_a = next(c for c in base["creations"] if c["kind"] == "building")
    wall_b = next(c for c in stud["creations"] if c["kind"] == "building")
    assert wall_b["size_in"] > wall_a["size_in"]  # shorter inch, more inches
    assert wall_b["size"] == -(-wall_b["size_in"] // 1)  # rounded up
    assert wall_b["structure_level"] == 0.5 and wall_b["armor"] == "1d6"


@needs_shared
def test_stats_card_html_and_md(tmp_path):
    model = str(MODELS_DIR / "21109 - Exo Suit.mpd")
    html = tmp_path / "card.html"
    r = run("stats", model, "-L", str(LIBRARY_ZIP), "--card", str(html))
    assert r.returncode == 0, r.stderr
    text = html.read_text()
    assert text.startswith("<!DOCTYPE html>") and "Structure Level" in text and "Base Cost" in text
    assert "data:image/png;base64," in text  # the off-screen render is embedded
    md = tmp_path / "card.md"
    r = run("stats", model, "-L", str(LIBRARY_ZIP), "--card", str(md), "--no-render")
    assert r.returncode == 0, r.stderr
    assert "| Armor |" in md.read_text()


@needs_shared
def test_view_roles_png(tmp_path):
    out = tmp_path / "roles.png"
    r = run("view", str(MODELS_DIR / "21109 - Exo Suit.mpd"), "-L", str(LIBRARY_ZIP), "--roles", "--png", str(out))
    assert r.returncode == 0, r.stderr
    assert out.stat().st_size > 10000


def test_role_face_colours_keep_structural_colours_greyed(loaded):
    """Structure keeps its own colours, greyed (same brightness, a fraction of the colour), so that a red brick is
    never read as a weapon's tint; every other role is tinted."""
    path = EXAMPLES / "tank.mpd"
    if not path.exists():
        pytest.skip("ldraw_models/tank.mpd not there yet")
    import numpy as np

    from brikscan.analysis.stats import analyse
    from brikscan.render.roles_view import role_face_rgb

    m = loaded(path)
    a = analyse(m)
    rgb = role_face_rgb(m, a)
    base = m.colours.rgb_array(m.mesh.face_colour).astype(float)
    assert rgb.shape == (m.mesh.n_triangles, 3) and rgb.dtype == np.uint8
    roles = {i: r.role for c in a.creations for i, r in c.roles.items()}
    fs = m.mesh.faces_of([i for i, r in roles.items() if r == "structural"])
    fw = m.mesh.faces_of([i for i, r in roles.items() if r != "structural"][:1])
    luma = np.array([0.299, 0.587, 0.114])
    assert np.abs(rgb[fs] @ luma - base[fs] @ luma).max() <= 1.5  # as bright as the brick
    spread = lambda c: c.max(axis=1) - c.min(axis=1)  # noqa: E731 -- how coloured a face is
    assert (spread(rgb[fs].astype(float)) <= 0.5 * spread(base[fs]) + 1).all()
    assert (rgb[fw] != base[fw]).any()


def test_bad_options_are_one_line_usage_errors(tmp_path):
    model = str(EXAMPLES / "squad.ldr") if (EXAMPLES / "squad.ldr").exists() else str(tmp_path / "x.ldr")
    for args in (["--round", "sideways"], ["--scale", "furlong"], ["--sl", "7.5"], ["--rules", "1999"],
                 ["--card", str(tmp_path / "c.pdf")], ["--role", "nonsense"]):
        line = _one_line_error(run("stats", model, *args, home=tmp_path), 2)
        assert "error" in line


def test_missing_and_bad_input_files(tmp_path):
    line = _one_line_error(run("stats", str(tmp_path / "nope.ldr"), home=tmp_path), 3)
    assert "nope.ldr" in line
    bad = tmp_path / "bad.ldr"
    bad.write_bytes(b"\x00\x01binary")
    _one_line_error(run("stats", str(bad), home=tmp_path), 3)


def test_offline_fallback_still_costs(tmp_path):
    """Without an LDraw library the bundled fallback meshes still give cards (no crash, same contract)."""
    path = EXAMPLES / "tank.mpd"
    if not path.exists():
        pytest.skip("ldraw_models/tank.mpd not there yet")
    r = run("stats", str(path), "--json", home=tmp_path)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["creations"] and all("total_cost" in c for c in d["creations"])


@needs_shared
def test_unknown_annotation_warns_with_file_line(tmp_path):
    p = tmp_path / "w.ldr"
    p.write_text("0 w\n0 !BRIKSCAN ROLE blaster\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 3001.dat\n")
    r = run("stats", str(p), "-L", str(LIBRARY_ZIP))
    assert r.returncode == 0, r.stderr
    assert f"{p}:2: unknown role 'blaster'" in r.stderr


@needs_shared
def test_stats_prints_no_pybullet_banner():
    """Every command imported pybullet through BrickNet, which printed 'pybullet build time' on stderr."""
    r = run("stats", str(EXAMPLES / "walker.ldr"), "-L", str(LIBRARY_ZIP))
    assert r.returncode == 0, r.stderr
    assert "pybullet" not in r.stderr and r.stderr.strip() == "", r.stderr
    assert "Walker" in r.stdout and "vehicle" in r.stdout
