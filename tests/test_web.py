"""The web API against a real ``brikscan serve`` process (httpx): the same answers as the CLI, 4xx for bad
requests, a server that survives them, role changes, the annotated copy, the binary geometry."""
from __future__ import annotations

import hashlib
import json
import struct

import numpy as np
import pytest

from conftest import EXAMPLES, LIBRARY_ZIP, ROOT, SCENES
from webserver import Server, cli_json

httpx = pytest.importorskip("httpx")
TANK = EXAMPLES / "tank.mpd"
LIB = LIBRARY_ZIP if LIBRARY_ZIP.exists() else None
LIB_ARGS = ["--library", str(LIB)] if LIB else []


@pytest.fixture(scope="module")
def tank():
    before = hashlib.sha256(TANK.read_bytes()).hexdigest()
    with Server(TANK, LIB) as srv:
        yield srv
    assert hashlib.sha256(TANK.read_bytes()).hexdigest() == before, "the served model was written"


def test_model_lists_every_element_with_role_and_cards(tank):
    m = httpx.get(tank.url + "api/model").json()
    assert m["kind"] == "model" and m["model"].endswith("tank.mpd")
    assert len(m["elements"]) == 48
    e = m["elements"][0]
    assert set(e) >= {"index", "part", "description", "colour", "creation", "role", "reason", "bbox_ldu", "source"}
    assert all(x["role"] and x["reason"] for x in m["elements"])
    cli = cli_json("stats", str(TANK), *LIB_ARGS)
    assert m["creations"] == cli["creations"]
    # one palette: the web app's roles layer takes the colours the pictures and cards use
    from brikscan.render.roles_view import ROLE_RGB
    assert m["role_colours"] == {"structural": [150, 150, 150], **{k: list(v) for k, v in ROLE_RGB.items()}}


def _served_geometry(url: str) -> tuple[dict, dict]:
    raw = httpx.get(url + "api/geometry").content
    assert raw[:4] == b"BKG2"
    head = json.loads(raw[8:8 + struct.unpack("<I", raw[4:8])[0]])
    types = {"positions": "<f4", "vcolour": "<u2", "indices": "<u4", "inst_matrix": "<f4", "inst_colour": "<u2",
             "inst_element": "<u4"}
    blob = {k: np.frombuffer(raw, dtype=types[k], count=n // np.dtype(types[k]).itemsize, offset=o)
            for k, (o, n) in head["blobs"].items()}
    head["bytes"] = len(raw)
    return head, blob


def _assert_rebuilds(head: dict, blob: dict, m) -> None:
    """Placing each part's indexed triangles by its instances gives back the model's triangles, element by
    element (``m``: the model read with the primitives the page draws)."""
    pos = blob["positions"].reshape(-1, 3)
    index = blob["indices"]
    mats = blob["inst_matrix"].reshape(-1, 3, 4)
    els = blob["inst_element"]
    assert head["triangles"] == m.mesh.n_triangles == len(index) // 3 + sum(
        (p["instances"] - 1) * p["indices"] // 3 for p in head["parts"])
    assert sorted(int(e) for e in els if e != 0xFFFFFFFF) == [e.index for e in m.elements
                                                              if m.mesh.element_offsets[e.index + 1] >
                                                              m.mesh.element_offsets[e.index]]
    for p in head["parts"]:
        ix = index[p["first_index"]:p["first_index"] + p["indices"]]
        assert ix.min() >= p["first_vertex"] and ix.max() < p["first_vertex"] + p["vertices"]
        local = pos[ix].astype(float)
        for k in range(p["first_instance"], p["first_instance"] + p["instances"]):
            if els[k] == 0xFFFFFFFF:
                continue
            world = local @ mats[k, :, :3].T.astype(float) + mats[k, :, 3]
            want = m.mesh.element_triangles(int(els[k])).reshape(-1, 3)
            # a mirrored instance reverses each triangle's vertex order: compare as sets of points per face
            got = np.sort(world.reshape(-1, 3, 3), axis=1)
            exp = np.sort(want.reshape(-1, 3, 3).astype(float), axis=1)
            assert np.allclose(got, exp, atol=0.05), (p["part"], int(els[k]))


def test_geometry_is_instanced_and_rebuilds_the_mesh(tank, loaded):
    """Parts once plus transforms: placing each part by its instances gives back the model's triangles."""
    head, blob = _served_geometry(tank.url)
    assert head["primitives"] == "normal"  # a small model: the page draws the mesh brikscan measures
    m = loaded(TANK)
    _assert_rebuilds(head, blob, m)
    assert head["bytes"] < m.mesh.triangles.nbytes / 2  # shared corners: under half the plain soup
    assert head["vertices"] < len(blob["indices"]) / 2


@pytest.mark.skipif(LIB is None, reason="needs the LDraw library's p/8/ primitives (../shared/ldraw/complete.zip)")
def test_low_primitives_draw_the_same_elements_with_fewer_triangles(loaded):
    """``serve --primitives low``: the page's geometry is the model read with LDraw's p/8/ primitives, the same
    elements (indices, parts, transforms), fewer triangles; ``/api/model`` still describes the full model."""
    with Server(TANK, LIB, args=("--primitives", "low")) as srv:
        head, blob = _served_geometry(srv.url)
        status = httpx.get(srv.url + "api/status").json()
        model = httpx.get(srv.url + "api/model").json()
    low, normal = loaded(TANK, LIB, resolution="low"), loaded(TANK, LIB)
    assert head["primitives"] == status["primitives"] == "low"
    assert low.mesh.n_triangles < normal.mesh.n_triangles
    assert [(e.part, e.colour, e.source) for e in low.elements] == [(e.part, e.colour, e.source)
                                                                   for e in normal.elements]
    _assert_rebuilds(head, blob, low)
    assert model["triangles"] == normal.mesh.n_triangles == status["triangles"]


def test_serve_refuses_an_unknown_primitives_choice():
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "brikscan", "serve", str(TANK), "--primitives", "fine",
                        "--no-browser"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--primitives" in r.stderr


def test_blast_equals_the_cli(tank):
    body = {"at_element": 5, "dice": "3d10", "rolls": [3, 6, 7], "armor_rolls": [15]}
    got = httpx.post(tank.url + "api/blast", json=body, timeout=120).json()
    cli = cli_json("blast", str(TANK), *LIB_ARGS, "--at-element", "5", "--dice", "3d10", "--rolls", "3,6,7",
                   "--armor-rolls", "15")
    for k in ("rings", "armor_rolls", "destroyed", "sections", "knockback", "element_damage"):
        assert got[k] == cli[k], k
    at = httpx.post(tank.url + "api/blast", json={"at": got["blasts"][0]["centre_ldu"], "dice": "3d10",
                                                  "rolls": [3, 6, 7], "armor_rolls": [15]}).json()
    assert at["destroyed"] == got["destroyed"]


def test_hit_equals_the_cli(tank):
    got = httpx.post(tank.url + "api/hit", json={"element": 40, "damage": 12, "armor_rolls": [5]}).json()
    cli = cli_json("hit", str(TANK), *LIB_ARGS, "--element", "40", "--damage", "12", "--armor-rolls", "5")
    for k in ("steps", "destroyed", "sections", "damage"):
        assert got[k] == cli[k], k


@pytest.mark.parametrize("path,body", [
    ("api/blast", b"{not json"),
    ("api/blast", b"[1, 2]"),
    ("api/blast", json.dumps({}).encode()),
    ("api/blast", json.dumps({"at_element": 10 ** 9}).encode()),
    ("api/blast", json.dumps({"at_element": "x"}).encode()),
    ("api/blast", json.dumps({"at": [1, 2]}).encode()),
    ("api/blast", json.dumps({"at": [1e308, "a", None]}).encode()),
    ("api/blast", json.dumps({"at_element": 1, "dice": "3d7"}).encode()),
    ("api/blast", json.dumps({"at_element": 1, "dice": 5}).encode()),
    ("api/blast", json.dumps({"at_element": 1, "rolls": [99, 99, 99]}).encode()),
    ("api/blast", json.dumps({"at_element": 1, "armor_rolls": [-4]}).encode()),
    ("api/blast", json.dumps({"at_element": 1, "trials": 10 ** 9}).encode()),
    ("api/blast", json.dumps({"at_element": 1, "bogus": 1}).encode()),
    ("api/blast", json.dumps({"at": [1e6, 1e6, 1e6]}).encode()),
    ("api/hit", json.dumps({"element": 3}).encode()),
    ("api/hit", json.dumps({"element": 3, "damage": -1}).encode()),
    ("api/hit", json.dumps({"from": [0, 0, 0], "damage": 3}).encode()),
    ("api/los", json.dumps({"from": "nobody"}).encode()),
    ("api/los", json.dumps({"from": 12}).encode()),
    ("api/roles", json.dumps({"element": 3, "role": "wizard"}).encode()),
    ("api/roles", json.dumps({"element": -1, "role": "weapon"}).encode()),
    ("api/roles", json.dumps({"element": 3, "role": "weapon", "type": "a b\n0 FILE x"}).encode()),
    ("api/roles", json.dumps({"role": "weapon"}).encode()),
    ("api/roles", b"\xff\xfe"),
    ("api/nothing", b"{}"),
])
def test_bad_requests_get_4xx_one_line_json_and_the_server_lives(tank, path, body):
    r = httpx.post(tank.url + path, content=body, headers={"Content-Type": "application/json"}, timeout=60)
    assert 400 <= r.status_code < 500, (r.status_code, r.text)
    msg = r.json()["error"]
    assert msg and "\n" not in msg and "Traceback" not in msg
    assert tank.alive()
    assert httpx.get(tank.url + "api/model").status_code == 200


def test_other_sites_and_other_host_names_are_refused(tank):
    r = httpx.post(tank.url + "api/roles", json={"element": 3, "role": "weapon"},
                   headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and tank.alive()
    r = httpx.get(tank.url + "api/model", headers={"Host": "evil.example"})
    assert r.status_code == 400  # DNS rebinding: the page is only served under the loopback names
    ok = httpx.get(tank.url + "api/model", headers={"Origin": tank.url.rstrip("/")})
    assert ok.status_code == 200


def test_huge_body_is_refused(tank):
    r = httpx.post(tank.url + "api/blast", content=b"{" + b" " * (2 << 20) + b"}", timeout=60)
    assert r.status_code == 413 and tank.alive()


def test_role_change_updates_the_cards_undo_and_the_annotated_copy(tank):
    before = httpx.get(tank.url + "api/model").json()["creations"]
    r = httpx.post(tank.url + "api/roles", json={"elements": [16, 17], "role": "weapon", "type": "gun"},
                   timeout=120).json()
    cli = cli_json("stats", str(TANK), *LIB_ARGS, "--role", "16,17=weapon type=gun")
    assert r["creations"] == cli["creations"] != before
    assert r["elements"][16]["role"] == "weapon" and "command line" in r["elements"][16]["reason"]
    assert httpx.get(tank.url + "api/model").json()["creations"] == cli["creations"]
    a = httpx.get(tank.url + "api/annotated")
    assert a.status_code == 200 and 'filename="tank-annotated.mpd"' in a.headers["content-disposition"]
    lines = a.text.split("\n")
    added = [ln for ln in lines if ln.strip().startswith("0 !BRIKSCAN") and ln not in TANK.read_text()]
    assert added and all("weapon type=gun" in ln or ln.strip() == "0 !BRIKSCAN END" for ln in added)
    assert [ln for ln in lines if ln not in added] == TANK.read_text().split("\n")  # nothing else changed
    # the annotated copy costs the same as the page
    out = ROOT / ".pytest_cache" / "tank-annotated.mpd"
    out.parent.mkdir(exist_ok=True)
    out.write_bytes(a.content)
    assert cli_json("stats", str(out), *LIB_ARGS)["creations"][0]["total_cost"] == cli["creations"][0]["total_cost"]
    u = httpx.post(tank.url + "api/roles/undo").json()
    assert u["creations"] == before and u["changes"] == []
    assert httpx.post(tank.url + "api/roles/reset").json()["creations"] == before


def test_a_scene_sight_equals_the_cli_and_blasts_fall_on_one_placed_model():
    scene = SCENES / "street_fight.toml"
    with Server(scene, LIB) as srv:
        m = httpx.get(srv.url + "api/model").json()
        assert m["kind"] == "scene" and any(u["kind"] == "minifig" for u in m["units"])
        got = httpx.post(srv.url + "api/los", json={"from": None, "to": "all"}, timeout=120).json()
        cli = cli_json("los", str(scene), *LIB_ARGS)
        assert [p for p in got["pairs"]] == cli["pairs"]
        # a blast in a scene: on the placed model it falls on, in scene indices; the same as blasting the file
        wall = next(p for p in got_placements(m) if p["name"] == "south-wall")
        el = wall["first"] + 5
        got = httpx.post(srv.url + "api/blast", json={"at_element": el, "dice": "3d10", "rolls": [3, 6, 7],
                                                      "armor_rolls": [15]}, timeout=120).json()
        base = got["first_element"]
        solo = cli_json("blast", str(EXAMPLES / "castle_wall.ldr"), *LIB_ARGS, "--at-element", str(el - base),
                        "--dice", "3d10", "--rolls", "3,6,7", "--armor-rolls", "15")
        assert got["placement"] == "south-wall" and base == wall["first"] > 0
        assert got["destroyed"] == [i + base for i in solo["destroyed"]] and solo["destroyed"]
        assert [len(x["elements"]) for x in got["sections"]] == [len(x["elements"]) for x in solo["sections"]]
        one = httpx.post(srv.url + "api/los", json={"from": cli["pairs"][0]["from"], "to": cli["pairs"][0]["to"],
                                                   "rays": True}).json()
        assert one["pairs"][0] == cli["pairs"][0] and one["ray_lines"][0]["origins"]


def test_a_role_change_in_a_scene_applies_to_its_model_and_downloads_it_annotated():
    """``serve SCENE.toml``: a role change falls on the model of the element's scene item; its card equals
    ``stats MODEL --role`` on that file, the annotated copy is that model file (a zip for several), the inputs
    are never written, and the new weapon is an attack option (``attacks --json`` on the annotated file)."""
    scene = SCENES / "tank_ambush.toml"
    walker_file = EXAMPLES / "walker.ldr"
    inputs = {f: f.read_bytes() for f in (scene, walker_file, TANK)}
    with Server(scene, LIB) as srv:
        m = httpx.get(srv.url + "api/model").json()
        assert m["editable"] is True
        walker = next(p for p in m["placements"] if p["name"] == "walker")
        base = walker["first_element"]
        assert base > 0
        r = httpx.post(srv.url + "api/roles", json={"element": base + 10, "role": "weapon", "type": "gun"},
                       timeout=120)
        assert r.status_code == 200, r.text
        r = r.json()
        cli = cli_json("stats", str(walker_file), *LIB_ARGS, "--role", "10=weapon type=gun")
        card = next(c for c in r["creations"] if c["name"] == "walker/Walker")
        solo = next(c for c in cli["creations"] if c["name"] == "Walker")
        assert card["total_cost"] == solo["total_cost"] != next(
            c for c in m["creations"] if c["name"] == "walker/Walker")["total_cost"]
        assert card["weapons"] == solo["weapons"]
        assert r["elements"][base + 10]["role"] == "weapon"
        assert r["changes"][0]["placement"] == "walker" and r["changes"][0]["local_elements"] == [10]
        a = httpx.get(srv.url + "api/annotated")
        assert a.status_code == 200 and 'filename="walker-annotated.ldr"' in a.headers["content-disposition"]
        added = [ln for ln in a.text.split("\n") if ln not in walker_file.read_text().split("\n")]
        assert added == ["0 !BRIKSCAN ROLE weapon type=gun"]
        out = ROOT / ".pytest_cache" / "walker-annotated.ldr"
        out.parent.mkdir(exist_ok=True)
        out.write_bytes(a.content)
        again = cli_json("stats", str(out), *LIB_ARGS)
        assert next(c for c in again["creations"] if c["name"] == "Walker")["total_cost"] == solo["total_cost"]
        # the attack options follow the change: the walker's new gun is one of its weapons
        att = httpx.post(srv.url + "api/attacks", json={"from": "walker"}, timeout=120).json()
        assert len(att["weapons"]) == len(solo["weapons"])
        # a second model changed: the download is a zip of both annotated files
        httpx.post(srv.url + "api/roles", json={"element": 5, "role": "decoration"}, timeout=120).raise_for_status()
        z = httpx.get(srv.url + "api/annotated")
        import io
        import zipfile

        names = sorted(zipfile.ZipFile(io.BytesIO(z.content)).namelist())
        assert names == ["tank-annotated.mpd", "walker-annotated.ldr"]
        # a change across two placed models is refused with one line
        bad = httpx.post(srv.url + "api/roles", json={"elements": [5, base + 1], "role": "weapon"})
        assert bad.status_code == 400 and "one placed model" in bad.json()["error"]
        u = httpx.post(srv.url + "api/roles/reset").json()
        assert next(c for c in u["creations"] if c["name"] == "walker/Walker")["total_cost"] == next(
            c for c in m["creations"] if c["name"] == "walker/Walker")["total_cost"]
        assert httpx.get(srv.url + "api/annotated").status_code == 400  # nothing changed: nothing to download
    assert {f: f.read_bytes() for f in inputs} == inputs


def test_attacks_api_equals_the_cli_and_refuses_unknown_names():
    scene = SCENES / "tank_ambush.toml"
    with Server(scene, LIB) as srv:
        got = httpx.post(srv.url + "api/attacks", json={"from": "walker"}, timeout=120).json()
        cli = cli_json("attacks", str(scene), *LIB_ARGS, "--from", "walker")
        assert got["attacks"] == cli["attacks"] and got["weapons"] == cli["weapons"]
        assert got["warnings"] == cli["warnings"]
        r = httpx.post(srv.url + "api/attacks", json={"from": "nobody"})
        assert r.status_code == 404 and "walker" in r.json()["error"] and "\n" not in r.json()["error"]
        assert httpx.post(srv.url + "api/attacks", json={"from": 3}).status_code == 400
        assert httpx.post(srv.url + "api/attacks", json={}).status_code == 400
        assert srv.alive()


def got_placements(m: dict) -> list[dict]:
    """Placements of a served scene from /api/model: name and first element (creation names are NAME/…)."""
    out: dict[str, int] = {}
    for e in m["elements"]:
        if e["creation"] and "/" in e["creation"]:
            out.setdefault(e["creation"].split("/", 1)[0], e["index"])
    return [{"name": k, "first": v} for k, v in out.items()]


def test_serve_refuses_a_busy_port_and_a_missing_file(tmp_path):
    import socket
    import subprocess
    import sys

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = subprocess.run([sys.executable, "-m", "brikscan", "serve", str(TANK), "--port", str(port),
                            "--no-browser"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "cannot listen" in r.stderr
    r = subprocess.run([sys.executable, "-m", "brikscan", "serve", str(tmp_path / "no.ldr"), "--no-browser"],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 3 and r.stderr.count("\n") == 1
