"""``import brikscan`` gives the main commands as functions: each returns what its command prints with --json.

The reference is the command itself, run as a player runs it (a fresh process, its --json output parsed), on the
bundled tank and scene with the fallback meshes (no LDraw library).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from conftest import EXAMPLES, SCENES

TANK = EXAMPLES / "tank.mpd"


def _cli(*args: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "LDRAWDIR"}
    p = subprocess.run([sys.executable, "-m", "brikscan", *args, "--json"], capture_output=True, text=True,
                       env={**env, "BRIKSCAN_NO_PROGRESS": "1"}, timeout=300)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def _no_timings(d):
    """Wall times differ between two runs; everything else must not."""
    if isinstance(d, dict):
        return {k: _no_timings(v) for k, v in d.items() if k not in ("timings", "seconds")}
    if isinstance(d, list):
        return [_no_timings(v) for v in d]
    return d


def test_the_main_functions_are_on_the_package():
    import brikscan

    for name in ("load", "analyse", "stats", "los", "blast", "hit", "attacks", "army"):
        assert callable(getattr(brikscan, name)), name


def test_stats_is_what_stats_json_prints(monkeypatch):
    import brikscan

    monkeypatch.delenv("LDRAWDIR", raising=False)
    assert _no_timings(brikscan.stats(TANK)) == _no_timings(_cli("stats", str(TANK)))
    a = brikscan.stats(TANK, json=False, scale="stud")
    assert a.ldu_per_inch == 60 and a.creations  # options reach the analysis


def test_blast_and_hit_are_what_their_commands_print(monkeypatch):
    import brikscan

    monkeypatch.delenv("LDRAWDIR", raising=False)
    got = brikscan.blast(TANK, at_element=["5"], dice="3d10", rolls="3,6,7", armor_rolls="2")
    assert _no_timings(got) == _no_timings(_cli("blast", str(TANK), "--at-element", "5", "--dice", "3d10",
                                                "--rolls", "3,6,7", "--armor-rolls", "2"))
    assert got["destroyed"]  # 16 damage against Armor rolls of 2 destroys what the rings reach
    got = brikscan.hit(TANK, element="5", damage=12, seed=4)
    assert _no_timings(got) == _no_timings(_cli("hit", str(TANK), "--element", "5", "--damage", "12", "--seed",
                                                "4"))


def test_los_is_what_los_json_prints(monkeypatch):
    import brikscan

    monkeypatch.delenv("LDRAWDIR", raising=False)
    scene = SCENES / "castle_assault.toml"
    got = brikscan.los(scene)
    assert _no_timings(got) == _no_timings(_cli("los", str(scene)))
    one = brikscan.los(scene, viewers=got["pairs"][0]["from"])
    assert {p["from"] for p in one["pairs"]} == {got["pairs"][0]["from"]}


def test_an_unknown_viewer_is_one_error_naming_the_choices():
    import brikscan
    from brikscan.errors import NotFoundError

    with pytest.raises(NotFoundError, match="no unit named 'nobody'"):
        brikscan.los(SCENES / "castle_assault.toml", viewers="nobody")
