"""Connectivity graph: connector matches, movable joints, contact fallback, agreement with BrickNet."""
from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from conftest import MODELS_DIR, needs_shared

bricknet = pytest.importorskip("bricknet")

from brikscan.analysis.connectivity import build_graph, components, rigid_groups  # noqa: E402

ID = "1 0 0 0 1 0 0 0 1"


def _write(tmp_path, name, lines):
    p = tmp_path / name
    p.write_text("0 test model\n0 Name: " + name + "\n" + "\n".join(lines) + "\n")
    return p


@needs_shared
def test_stacked_bricks_are_a_rigid_stud_joint(tmp_path, library_zip, loaded):
    p = _write(tmp_path, "stack.ldr", [f"1 4 0 0 0 {ID} 3001.dat", f"1 1 0 -24 0 {ID} 3001.dat",
                                       f"1 2 500 0 0 {ID} 3001.dat"])
    g = build_graph(loaded(p))
    assert g.has_edge(0, 1)
    e = g.edges[0, 1]
    assert e["kind"] == "stud" and e["movable"] is False and e["count"] == 8  # a 2x4 on a 2x4: 8 studs
    assert g.degree(2) == 0  # far away: not connected
    assert components(g) == [[0, 1], [2]]


@needs_shared
def test_shifted_brick_still_clicks_and_half_stud_offset_does_not(tmp_path, loaded):
    p = _write(tmp_path, "offset.ldr", [f"1 4 0 0 0 {ID} 3001.dat", f"1 1 20 -24 0 {ID} 3001.dat",
                                        f"1 2 100 0 0 {ID} 3001.dat", f"1 2 110 -24 0 {ID} 3001.dat"])
    g = build_graph(loaded(p))
    assert g.edges[0, 1]["count"] == 6  # shifted one stud: 6 studs engage
    assert not g.has_edge(2, 3) or g.edges[2, 3]["kind"] == "contact"


@needs_shared
def test_hinge_brick_halves_are_a_movable_hinge(tmp_path, loaded):
    p = _write(tmp_path, "hinge.ldr", [f"1 4 0 0 0 {ID} 3937.dat", f"1 4 0 0 0 {ID} 3938.dat"])
    g = build_graph(loaded(p))
    assert g.has_edge(0, 1)
    assert g.edges[0, 1]["kind"] == "hinge" and g.edges[0, 1]["movable"] is True
    assert "weak point" in g.edges[0, 1]["reason"]


@needs_shared
def test_a_rotation_joint_s_pin_in_its_socket_is_one_turning_joint(tmp_path, loaded):
    """BrickNet pairs no connector between "Technic Beam 3 with Rotation Joint 3 Socket" and its "... Pin" fitted
    into it (an AT-ST's hips, 10174, not in ../shared): each half held by its own Technic pin, ``joint_halves``
    finds them, a hinge turning round their shared disc's axis (their local Y here); two sockets fitted into each
    other, or a pin half set apart, are no joint."""
    from brikscan.analysis.connectivity import joint_halves

    turn = "0.5 0 -0.866 0 -1 0 -0.866 0 -0.5"  # the pin half flipped into the socket, turned 120 degrees
    up = "0 1 0 1 0 0 0 0 -1"  # a Technic pin's axis along Y, in the beam's end hole
    lines = []
    for x, (a, b), dz in ((0, ("44224", "44225"), 0), (300, ("44224", "44224"), 0), (600, ("44224", "44225"), 120)):
        lines += [f"1 16 {x} 0 0 {ID} half-{a}.ldr", f"1 16 {x} 0 {dz} {turn} half-{b}.ldr"]
    lines = ["0 FILE hips.ldr", "0 hips", "0 Name: hips.ldr"] + lines + ["0 NOFILE"]
    for part in ("44224", "44225"):
        lines += [f"0 FILE half-{part}.ldr", "0 half", f"0 Name: half-{part}.ldr", f"1 71 0 0 0 {ID} {part}.dat",
                  f"1 0 0 0 80 {up} 3673.dat", "0 NOFILE"]
    p = tmp_path / "hips.mpd"
    p.write_text("\n".join(lines) + "\n")
    m = loaded(p)
    g = build_graph(m)
    assert all(g.degree(i) >= 1 for i in range(len(m.elements)))  # every half is held by its pin
    halves = [e.index for e in m.elements if e.part != "3673.dat"]
    found = joint_halves(m, g)
    assert [(a, b, kind) for a, b, _, _, kind in found] == [(halves[0], halves[1], "hinge")], found
    _, _, centre, axis, _ = found[0]
    assert abs(abs(float(axis[1])) - 1) < 1e-9 and np.allclose(centre[[0, 2]], 0, atol=12)


@needs_shared
def test_unlabelled_part_falls_back_to_contact(tmp_path, loaded):
    # an MPD-embedded part BrickNet cannot know, resting on a brick
    text = ("0 FILE main.ldr\n0 main\n1 4 0 0 0 " + ID + " 3001.dat\n1 2 0 -8 0 " + ID + " mywedge.dat\n"
            "0 FILE mywedge.dat\n0 My Wedge\n0 !LDRAW_ORG Unofficial_Part\n"
            "3 16 -40 0 -20 40 0 -20 40 8 20\n3 16 -40 0 -20 40 8 20 -40 8 20\n")
    p = tmp_path / "embedded.mpd"
    p.write_text(text)
    g = build_graph(loaded(p))
    assert g.has_edge(0, 1)
    assert g.edges[0, 1]["kind"] == "contact" and g.edges[0, 1]["source"] == "contact"
    assert g.nodes[0]["labelled"] and not g.nodes[1]["labelled"]


def _pin_graph(joints_ab, joints_bc=None):
    g = nx.Graph()
    g.add_edge(0, 1, movable=True, joints=joints_ab)
    if joints_bc is not None:
        g.add_edge(1, 2, movable=True, joints=joints_bc)
    return g


def test_one_pivot_axis_stays_movable_two_axes_lock():
    y = np.array([0.0, 1.0, 0.0])
    one = _pin_graph([(np.zeros(3), y), (np.array([0.0, 8.0, 0.0]), y)])  # two pins on one axis line: pivots
    r = rigid_groups(one, [0, 1])
    assert r[0] != r[1]
    two = _pin_graph([(np.zeros(3), y), (np.array([20.0, 0.0, 0.0]), y)])  # two pins side by side: rigid
    r = rigid_groups(two, [0, 1])
    assert r[0] == r[1]


def test_a_pin_between_two_beams_locks_them_when_doubled():
    y = np.array([0.0, 1.0, 0.0])
    g = nx.Graph()
    # beams 0 and 1, pins 2 and 3 each in both beams at x=0 and x=20: the beams cannot turn
    for pin, x in ((2, 0.0), (3, 20.0)):
        for beam in (0, 1):
            g.add_edge(beam, pin, movable=True, joints=[(np.array([x, 0.0, 0.0]), y)])
    r = rigid_groups(g, [0, 1, 2, 3])
    assert r[0] == r[1]
    g.remove_node(3)
    r = rigid_groups(g, [0, 1, 2])
    assert r[0] != r[1]  # one pin: a pivot


OFFICIAL = ["21109 - Exo Suit.mpd", "6285 - Black Seas Barracuda.mpd"]


@needs_shared
@pytest.mark.parametrize("name", OFFICIAL)
def test_graph_contains_every_bricknet_edge(name, loaded):
    """Our connector matching is BrickNet's, vectorised: the same element pairs as bricknet.parse_ldr."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    from eval_connectivity import bricknet_reference

    m = loaded(MODELS_DIR / name)
    ref, placed = bricknet_reference(m)
    g = build_graph(m)
    ours = {(min(a, b), max(a, b)) for a, b in g.edges()}
    assert placed > 0.9 * len([e for e in m.elements if not e.missing]) or name.startswith("6285")
    assert ref and ref <= ours
    extra = ours - ref
    assert all(g.edges[a, b]["source"] == "contact" for a, b in extra)


@needs_shared
def test_ship_hull_is_one_body(loaded):
    m = loaded(MODELS_DIR / "6285 - Black Seas Barracuda.mpd")
    g = build_graph(m)
    hull = [e.index for e in m.elements if e.description.startswith("Boat ")]
    comps = components(g)
    where = {i: k for k, c in enumerate(comps) for i in c}
    assert len({where[i] for i in hull}) == 1  # bow, stern, base plates and masts hold together
    assert len(comps[0]) > 0.8 * len(m.elements)


def test_bricknet_import_is_silent_and_restores_stderr():
    """pybullet prints its build time on descriptor 2 when imported; brikscan hides it and restores fd 2."""
    import subprocess
    import sys

    code = ("import os\n"
            "from brikscan.analysis.bricknet_import import bricknet_modules\n"
            "assert bricknet_modules() is not None\n"
            "from brikscan.analysis.roles import _catalog_names\n"
            "assert _catalog_names()\n"
            "os.write(2, b'fd2 restored')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stderr == "fd2 restored"


def test_connectivity_and_roles_share_the_quiet_import():
    import inspect
    import re

    from brikscan.analysis import connectivity, roles

    for mod in (connectivity, roles):
        src = inspect.getsource(mod)
        assert "bricknet_import" in src  # BrickNet's data only through the quiet, cached helpers
        assert not re.search(r"^\s*(import bricknet|from bricknet)", src, re.M)  # only through the quiet helper
