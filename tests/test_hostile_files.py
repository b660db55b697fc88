"""Issue 10: every file a player has (Studio .io, LSynth, editors' libraries, export units) and none that an
attacker makes (paths out of the model's folder, bombs, depth, numbers, cache tampering, bad library files)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

import brikscan
from brikscan.cli import main
from brikscan.errors import LimitError
from brikscan.ldraw.library import EDITOR_PLACES, USUAL_PLACES, find_library
from brikscan.ldraw.limits import Limits
from studio_io import PNG_1X1, STUDIO_PASSWORD, studio_members, write_studio, write_zip
from test_ldraw_reader import make_library

BRICK = "1 {c} {x} {y} 0 1 0 0 0 1 0 0 0 1 {name}\n"


def strict_json(text: str):
    def refuse(token):
        raise AssertionError(f"non-standard JSON constant {token}")

    return json.loads(text, parse_constant=refuse)


def cli(capsys, *args) -> tuple[int, str, str]:
    rc = main([str(a) for a in args])
    out = capsys.readouterr()
    return rc, out.out, out.err


@pytest.fixture()
def lib(tmp_path) -> Path:
    return make_library(tmp_path / "lib")


def write(p: Path, text: str | bytes) -> Path:
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(text.encode() if isinstance(text, str) else text)
    return p


# ---------------------------------------------------------------- read what players have

def test_studio_io_with_custom_parts(lib, tmp_path):
    m = brikscan.load(write_studio(tmp_path / "plain.io"), lib, cache=False)
    assert [e.part for e in m.elements] == ["tb.dat", "custom1.dat"]
    assert m.parts["custom1.dat"].source == "custom" and m.parts["custom1.dat"].triangles == 2  # its subpart too
    assert m.missing_parts == [] and m.diagnostics == []
    assert m.elements[1].description == "Custom wedge"


def test_encrypted_studio_io_reads_the_same(lib, tmp_path):
    enc = write_studio(tmp_path / "old.io", password=STUDIO_PASSWORD)
    with zipfile.ZipFile(enc) as zf:  # really encrypted: unreadable without the password
        assert all(i.flag_bits & 1 for i in zf.infolist())
        with pytest.raises(RuntimeError):
            zf.read("model.ldr")
    a = brikscan.load(enc, lib, cache=False)
    b = brikscan.load(write_studio(tmp_path / "new.io"), lib, cache=False)
    assert a.mesh.n_triangles == b.mesh.n_triangles == 4
    assert np.array_equal(a.mesh.triangles, b.mesh.triangles) and a.missing_parts == []


def test_studio_io_cli_and_bad_zips(lib, tmp_path, capsys):
    rc, out, err = cli(capsys, "info", write_studio(tmp_path / "m.io", STUDIO_PASSWORD), "--library", lib, "--json")
    assert rc == 0, err
    assert strict_json(out)["elements"] == 2
    other = write_zip(tmp_path / "other.io", studio_members(), password=b"not-studio")
    rc, _, err = cli(capsys, "info", other, "--library", lib)
    assert rc == 3 and "password other than Studio's" in err and err.count("\n") == 1
    nomodel = write_zip(tmp_path / "photos.io", {"a.png": PNG_1X1})
    rc, _, err = cli(capsys, "info", nomodel, "--library", lib)
    assert rc == 3 and "without model.ldr" in err
    truncated = write(tmp_path / "cut.io", write_studio(tmp_path / "x.io").read_bytes()[:200])
    rc, _, err = cli(capsys, "info", truncated, "--library", lib)
    assert rc == 3 and "internal error" not in err


@pytest.mark.skipif(not Path("/usr/bin/zip").exists(), reason="needs the zip program (Debian package zip)")
def test_io_encrypted_by_the_zip_program_reads_too(lib, tmp_path):
    src = tmp_path / "src"
    for name, data in studio_members().items():
        write(src / name, data)
    subprocess.run(["zip", "-q", "-r", "-P", STUDIO_PASSWORD.decode(), str(tmp_path / "z.io"), "."], cwd=src,
                   check=True)
    assert brikscan.load(tmp_path / "z.io", lib, cache=False).mesh.n_triangles == 4


def test_lsynth_block_is_one_hose_element(lib, tmp_path):
    text = ("0 Hose test\n" + BRICK.format(c=4, x=0, y=0, name="tb.dat") +
            "0 SYNTH BEGIN PNEUMATIC_TUBE 4\n"
            "1 16 5 -8 3 1 0 0 0 1 0 0 0 1 LS01.dat\n"
            "1 16 0 0 100 1 0 0 0 1 0 0 0 1 ls01.dat\n"
            "0 SYNTH SYNTHESIZED BEGIN\n"
            "1 16 0 0 10 1 0 0 0 1 0 0 0 1 tb.dat\n1 16 0 0 20 1 0 0 0 1 0 0 0 1 tb.dat\n"
            "0 SYNTH SYNTHESIZED END\n0 SYNTH END\n" + BRICK.format(c=7, x=40, y=0, name="tb.dat"))
    m = brikscan.load(write(tmp_path / "hose.ldr", text), lib, cache=False)
    assert len(m.elements) == 3
    hoses = [e for e in m.elements if e.hose]
    assert len(hoses) == 1 and hoses[0].description.startswith("LSynth hose PNEUMATIC_TUBE")
    assert hoses[0].colour == 4 and hoses[0].category == "Hose"
    assert m.parts[hoses[0].part].triangles == 4  # the two synthesized segments
    assert np.allclose(hoses[0].position, [5, -8, 3])  # placed at its first point, not at the file's origin
    seg = brikscan.load(write(tmp_path / "seg.ldr", "1 16 0 0 10 1 0 0 0 1 0 0 0 1 tb.dat\n"
                              "1 16 0 0 20 1 0 0 0 1 0 0 0 1 tb.dat\n"), lib, cache=False)
    assert np.allclose([hoses[0].bbox_min, hoses[0].bbox_max], seg.mesh.bbox())  # the segments where written
    assert m.missing_parts == [] and not any("ls01" in str(d).lower() for d in m.diagnostics)


def test_editor_library_folders_after_library_and_ldrawdir(lib, tmp_path, monkeypatch):
    home = tmp_path / "home"
    ldcad = make_library(home / "LDCad")  # ~/LDCad/ldraw, as LDCad lays it out
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "nothing"))
    monkeypatch.delenv("LDRAWDIR", raising=False)
    found = find_library()
    if found is None or Path(found.path) != ldcad.resolve():
        pytest.skip(f"a library in a system-wide place ({found and found.path}) comes first on this machine")
    monkeypatch.setenv("LDRAWDIR", str(lib))
    assert find_library().path == lib.resolve()
    # never a folder relative to where brikscan runs (a downloaded archive could plant one there)
    assert all(Path(p).expanduser().is_absolute() for p in EDITOR_PLACES + USUAL_PLACES)
    assert find_library(ldcad).path == ldcad.resolve()


@pytest.mark.parametrize("fmt", ["glb", "obj", "stl"])
def test_export_in_metres_y_up_by_default(lib, tmp_path, capsys, fmt):
    import trimesh

    model = write(tmp_path / "m.ldr", BRICK.format(c=4, x=100, y=-200, name="tb.dat"))  # 200 LDU above ground
    rc, out, err = cli(capsys, "export", model, tmp_path / f"m.{fmt}", "--library", lib)
    assert rc == 0, err
    rc, _, err = cli(capsys, "export", model, tmp_path / f"ldu.{fmt}", "--library", lib, "--units", "ldu")
    assert rc == 0, err
    metres = trimesh.load(tmp_path / f"m.{fmt}", force="mesh")
    ldu = trimesh.load(tmp_path / f"ldu.{fmt}", force="mesh")
    m = brikscan.load(model, lib, cache=False)
    lo, hi = m.mesh.bbox()
    assert np.allclose(ldu.bounds, [lo, hi], atol=1e-3)
    # metres, +Y up: x scaled, y and z mirrored (a half turn about X)
    assert np.allclose(metres.bounds[:, 0], [lo[0] * 4e-4, hi[0] * 4e-4], atol=1e-6)
    assert np.allclose(sorted(metres.bounds[:, 1]), sorted(-np.array([lo[1], hi[1]]) * 4e-4), atol=1e-6)
    assert metres.bounds[0, 1] > 0.07  # above the ground, in metres
    rc, _, err = cli(capsys, "export", model, tmp_path / "x.glb", "--library", lib, "--units", "feet")
    assert rc == 2 and "--units" in err


def test_stats_names_geometry_source_and_json_has_warnings(lib, tmp_path, capsys):
    model = write(tmp_path / "m.ldr", BRICK.format(c=4, x=0, y=0, name="tb.dat")
                  + BRICK.format(c=4, x=20, y=0, name="nothere.dat"))
    rc, out, err = cli(capsys, "stats", model, "--library", lib, "--json")
    assert rc == 0, err
    d = strict_json(out)
    assert d["geometry_source"].startswith("LDraw library")
    assert any("nothere.dat" in w for w in d["warnings"])
    rc, out, err = cli(capsys, "stats", model, "--library", lib)
    assert rc == 0 and "geometry: LDraw library" in " ".join(out.split())


# ---------------------------------------------------------------- refuse what an attacker makes

def test_paths_never_leave_the_model_folder(lib, tmp_path):
    write(tmp_path / "secret.ldr", BRICK.format(c=4, x=0, y=0, name="tb.dat"))
    write(tmp_path / "models" / "sub" / "ok.ldr", BRICK.format(c=4, x=0, y=0, name="tb.dat"))
    (tmp_path / "models" / "link.ldr").symlink_to(tmp_path / "secret.ldr")
    text = ("0 Attack\n" + BRICK.format(c=4, x=0, y=0, name="/etc/passwd")
            + BRICK.format(c=4, x=0, y=0, name="../secret.ldr")
            + BRICK.format(c=4, x=0, y=0, name="sub\\..\\..\\secret.ldr")
            + BRICK.format(c=4, x=0, y=0, name="C:\\Windows\\win.ini")
            + BRICK.format(c=4, x=0, y=0, name="link.ldr")
            + BRICK.format(c=4, x=0, y=0, name="sub/../sub/ok.ldr")
            + BRICK.format(c=4, x=0, y=0, name="../../../../etc/hostname.dat"))
    model = write(tmp_path / "models" / "attack.ldr", text)
    m = brikscan.load(model, lib, cache=False)
    assert len(m.elements) == 1 and m.elements[0].submodel_path == ("sub/../sub/ok.ldr",)
    msgs = [str(d) for d in m.diagnostics]
    for line in (2, 3, 4, 5, 8):
        assert any(s.startswith(f"{model}:{line}: reference") and "refused" in s for s in msgs), (line, msgs)
    assert not any("root:" in s for s in msgs)  # nothing of /etc/passwd shown


def test_subfiles_of_parts_are_confined_too(tmp_path):
    root = make_library(tmp_path / "lib")
    write(root / "parts" / "evil.dat", "0 Evil\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 ../../../secret.dat\n"
                                       "1 16 0 0 0 1 0 0 0 1 0 0 0 1 tri.dat\n")
    write(tmp_path / "secret.dat", "3 16 0 0 0 1 0 0 0 0 1\n3 16 0 0 0 1 0 0 0 0 1\n")
    m = brikscan.load(write(tmp_path / "m" / "m.ldr", BRICK.format(c=4, x=0, y=0, name="evil.dat")), root,
                      cache=False)
    assert m.mesh.n_triangles == 1
    assert any("evil.dat:2: reference" in str(d) and "refused" in str(d) for d in m.diagnostics)


def bomb(levels: int, fanout: int) -> str:
    """``levels`` submodels each placing the next ``fanout`` times: fanout**levels elements."""
    out = ["0 FILE main.ldr", *[f"1 16 {i} 0 0 1 0 0 0 1 0 0 0 1 l1.ldr" for i in range(fanout)]]
    for lv in range(1, levels):
        out += [f"0 FILE l{lv}.ldr", *[f"1 16 {i} 0 0 1 0 0 0 1 0 0 0 1 l{lv + 1}.ldr" for i in range(fanout)]]
    out += [f"0 FILE l{levels}.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 tb.dat"]
    return "\n".join(out) + "\n"


def test_reference_bomb_refused_fast_with_bounded_memory(lib, tmp_path):
    model = write(tmp_path / "bomb.mpd", bomb(9, 10))  # 10^9 elements
    t = time.perf_counter()
    with pytest.raises(LimitError, match=r"1,000,000,000 elements.*--max-elements"):
        brikscan.load(model, lib, cache=False)
    assert time.perf_counter() - t < 1.0
    code = ("import resource, sys, brikscan\n"
            "base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
            "try:\n    brikscan.load(sys.argv[1], sys.argv[2], cache=False)\nexcept Exception as e:\n"
            "    print(type(e).__name__)\n"
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base)\n")
    r = subprocess.run([sys.executable, "-c", code, str(model), str(lib)], capture_output=True, text=True,
                       timeout=120)
    kind, grew_kb = r.stdout.split()
    assert kind == "LimitError" and int(grew_kb) < 50_000, r.stdout  # under 50 MB beyond the imports
    r = subprocess.run([sys.executable, "-m", "brikscan", "info", str(model), "--library", str(lib)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 3 and "--max-elements" in r.stderr


def test_limits_are_options(lib, tmp_path, capsys):
    model = write(tmp_path / "b.mpd", bomb(3, 10))  # 1,000 elements
    rc, out, err = cli(capsys, "info", model, "--library", lib, "--json", "--max-elements", "999")
    assert rc == 3 and "--max-elements" in err
    rc, out, err = cli(capsys, "info", model, "--library", lib, "--json", "--max-elements", "1000")
    assert rc == 0 and strict_json(out)["elements"] == 1000
    rc, out, err = cli(capsys, "info", model, "--library", lib, "--max-triangles", "1999")
    assert rc == 3 and "--max-triangles" in err


def test_deep_headerless_dat_submodels_are_refused_not_a_crash(lib, tmp_path, capsys):
    """An old MPD's headerless .dat files are asked whether they are submodels one inside the next; 1,500 of them
    nested are a submodel chain refused past --max-depth (exit 3, one line), never a RecursionError; within the
    limit, with --max-depth raised, the chain is walked to its brick."""
    depth = 1500
    text = "0 FILE main.ldr\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 s0.dat\n" + "".join(
        f"0 FILE s{i}.dat\n1 16 0 -24 0 1 0 0 0 1 0 0 0 1 s{i + 1}.dat\n" for i in range(depth))
    model = write(tmp_path / "chain.mpd", text + f"0 FILE s{depth}.dat\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 tb.dat\n")
    rc, out, err = cli(capsys, "info", model, "--library", lib, "--json")
    assert rc == 3 and "--max-depth" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    m = brikscan.load(model, lib, cache=False, limits=Limits(max_depth=2000))
    assert len(m.elements) == 1 and len(m.elements[0].refs) == depth + 2


def test_deep_nesting_walks_iteratively_up_to_the_limit(lib, tmp_path):
    depth = 1500
    text = "".join(f"0 FILE s{i}.ldr\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 s{i + 1}.ldr\n" for i in range(depth))
    model = write(tmp_path / "deep.mpd", text + f"0 FILE s{depth}.ldr\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 tb.dat\n")
    with pytest.raises(LimitError, match="deeper than 100"):
        brikscan.load(model, lib, cache=False)
    m = brikscan.load(model, lib, cache=False, limits=Limits(max_depth=2000))
    assert len(m.elements) == 1 and len(m.elements[0].refs) == depth + 1


def test_deep_parts_and_triangle_bombs(lib, tmp_path):
    parts = "".join(f"0 FILE p{i}.dat\n0 !LDRAW_ORG Part\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 p{i + 1}.dat\n"
                    for i in range(1200))
    model = write(tmp_path / "deep.mpd", "0 FILE main.ldr\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 p0.dat\n" + parts
                  + "0 FILE p1200.dat\n0 !LDRAW_ORG Part\n3 16 0 0 0 1 0 0 0 0 1\n")
    with pytest.raises(LimitError, match="--max-depth"):
        brikscan.load(model, lib, cache=False)
    assert brikscan.load(model, lib, cache=False, limits=Limits(max_depth=1300)).mesh.n_triangles == 1
    tri_bomb = "".join(f"0 FILE t{i}.dat\n0 !LDRAW_ORG Part\n" + f"1 16 0 0 0 1 0 0 0 1 0 0 0 1 t{i + 1}.dat\n" * 10
                       for i in range(10))
    model = write(tmp_path / "tris.mpd", "0 FILE main.ldr\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 t0.dat\n" + tri_bomb
                  + "0 FILE t10.dat\n0 !LDRAW_ORG Part\n3 16 0 0 0 1 0 0 0 0 1\n")
    t = time.perf_counter()
    with pytest.raises(LimitError, match=r"expands to [0-9,]{11,} triangles.*--max-triangles"):
        brikscan.load(model, lib, cache=False)
    assert time.perf_counter() - t < 1.0


def test_scale_and_coordinate_bombs_refused(lib, tmp_path, capsys):
    big = write(tmp_path / "big.ldr", "1 4 0 0 0 999999 0 0 0 999999 0 0 0 999999 tb.dat\n")
    rc, out, err = cli(capsys, "stats", big, "--library", lib, "--json")
    assert rc == 3 and "--max-scale" in err and f"{big}:1" in err and out == ""
    nested = "".join(f"0 FILE n{i}.ldr\n1 16 0 0 0 10 0 0 0 10 0 0 0 10 n{i + 1}.ldr\n" for i in range(30))
    model = write(tmp_path / "nested.mpd", nested + "0 FILE n30.ldr\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 tb.dat\n")
    with pytest.raises(LimitError, match="--max-scale"):
        brikscan.load(model, lib, cache=False)
    far = write(tmp_path / "far.ldr", "1 4 900000 0 0 1 0 0 0 1 0 0 0 1 tb.dat\n")
    with pytest.raises(LimitError, match="--max-coord"):
        brikscan.load(far, lib, cache=False)
    assert len(brikscan.load(far, lib, cache=False, limits=Limits(max_coord=1e6)).elements) == 1
    # farther is never milder: a placement at 10^8 LDU stops the command too (it was dropped with a warning and
    # exit 0, past the parser's old cut of 10^6), and loads when the limit is raised past it
    farther = write(tmp_path / "farther.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 tb.dat\n"
                                              "1 4 1e8 0 0 1 0 0 0 1 0 0 0 1 tb.dat\n")
    rc, out, err = cli(capsys, "stats", farther, "--library", lib, "--json")
    assert rc == 3 and "--max-coord" in err and f"{farther}:2" in err and out == ""
    assert len(brikscan.load(farther, lib, cache=False, limits=Limits(max_coord=2e8)).elements) == 2


def test_out_of_range_colours_warn_and_fall_back_to_16(lib, tmp_path, capsys):
    text = "".join(BRICK.format(c=c, x=20 * i, y=0, name="tb.dat")
                   for i, c in enumerate(["4", "99999999999999999999", "-5", "#FFFFFFFFF", "0x7FFFFFFFFF", "1" * 5000]))
    model = write(tmp_path / "c.ldr", text + "3 18446744073709551616 0 0 0 1 0 0 0 0 1\n")
    m = brikscan.load(model, lib, cache=False)
    assert [e.colour for e in m.elements] == [4, 16, 16, 16, 16, 16]
    warns = [str(d) for d in m.diagnostics if "out of range" in str(d)]
    assert len(warns) == 6 and all(len(w) < 200 for w in warns)
    rc, out, err = cli(capsys, "info", model, "--library", lib, "--json")
    assert rc == 0 and len(strict_json(out)["warnings"]) == 6


def test_json_output_is_strict(capsys):
    from brikscan.cli.common import print_json

    print_json({"a": float("nan"), "b": [float("inf"), np.float32(1.5), np.array([1, 2])], "c": -float("inf"),
                "d": {1: np.int64(3)}})
    assert strict_json(capsys.readouterr().out) == {"a": None, "b": [None, 1.5, [1, 2]], "c": None, "d": {"1": 3}}


def test_corrupt_cache_entries_are_rebuilt_with_a_warning(lib, tmp_path):
    model = write(tmp_path / "m.ldr", BRICK.format(c=4, x=0, y=0, name="tb.dat") + BRICK.format(c=4, x=0, y=-24,
                                                                                           name="sq.dat"))
    cache = tmp_path / "cache"
    fresh = brikscan.load(model, lib, cache_dir=cache)
    entries = sorted((cache / "parts").glob("*/*.bks"))
    assert len(entries) == 2
    good = {p: p.read_bytes() for p in entries}

    def tamper(raw: bytes, how: str) -> bytes:
        if how == "flip":  # one bit in the triangles
            return raw[:-10] + bytes([raw[-10] ^ 1]) + raw[-9:]
        if how == "truncate":
            return raw[: len(raw) // 2]
        if how == "count":  # metadata that parses but says fewer triangles
            return raw.replace(b'"n": 2', b'"n": 1')
        if how == "header":
            return raw.replace(b'"description"', b'"descriptiom"')
        return b"garbage"

    for how in ("flip", "truncate", "count", "header", "garbage"):
        for p, raw in good.items():
            p.write_bytes(tamper(raw, how))
        m = brikscan.load(model, lib, cache_dir=cache)
        assert m.mesh.n_triangles == fresh.mesh.n_triangles
        assert np.array_equal(m.mesh.triangles, fresh.mesh.triangles), how
        assert sum("corrupt" in str(d) and "rebuilt" in str(d) for d in m.diagnostics) == 2, how
        again = brikscan.load(model, lib, cache_dir=cache)  # rebuilt: trusted again, no warning
        assert again.timings["cache_hits"] == 2 and not any("corrupt" in str(d) for d in again.diagnostics)
    colours = next((cache / "parts").glob("*/*.json"))
    colours.write_text('{"sha": "0", "data": {"4": ["Red"]}}')
    m = brikscan.load(model, lib, cache_dir=cache)
    assert m.colours.name(4) == "Red" and any("corrupt" in str(d) for d in m.diagnostics)


def test_stale_temporary_files_are_cleaned(lib, tmp_path, capsys):
    model = write(tmp_path / "m.ldr", BRICK.format(c=4, x=0, y=0, name="tb.dat"))
    cache = tmp_path / "cache"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()  # a pid that has exited
    stale = write(cache / "parts" / "tmp" / f"{dead}.abcd1234.tmp", b"x" * 1000)
    mine = write(cache / "parts" / "tmp" / f"{os.getpid()}.live0001.tmp", b"y")
    brikscan.load(model, lib, cache_dir=cache)
    assert not stale.exists() and mine.exists()
    out_stale = write(tmp_path / f".m.glb.{dead}.feedbeef.tmp", b"z" * 1000)
    rc, _, err = cli(capsys, "export", model, tmp_path / "m.glb", "--library", lib)
    assert rc == 0 and not out_stale.exists() and (tmp_path / "m.glb").stat().st_size > 0
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_unwritable_output_is_one_line_naming_it(lib, tmp_path, capsys):
    from brikscan.errors import OutputError
    from brikscan.geometry.cache import write_atomic

    model = write(tmp_path / "m.ldr", BRICK.format(c=4, x=0, y=0, name="tb.dat"))
    blocker = write(tmp_path / "afile", b"")
    out = blocker / "out.glb"  # its folder is a file: cannot be made, even by root
    rc, _, err = cli(capsys, "export", model, out, "--library", lib)
    assert rc == 6 and str(out) in err and ".tmp" not in err and err.count("\n") == 1
    (tmp_path / "dir.glb").mkdir()
    (tmp_path / "dir.glb" / "keep").write_text("x")
    with pytest.raises(OutputError) as exc:
        write_atomic(tmp_path / "dir.glb", b"data")
    assert str(tmp_path / "dir.glb") in exc.value.one_line()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # the temporary file is gone


def test_png_part_is_missing_not_fatal_and_library_warnings(tmp_path, capsys):
    root = make_library(tmp_path / "lib")
    write(root / "parts" / "photo.dat", PNG_1X1)
    write(root / "parts" / "empty.dat", b"")
    model = write(tmp_path / "m.ldr", BRICK.format(c=4, x=0, y=0, name="tb.dat")
                  + BRICK.format(c=4, x=40, y=0, name="photo.dat") + BRICK.format(c=4, x=80, y=0, name="empty.dat"))
    rc, out, err = cli(capsys, "info", model, "--library", root, "--json")
    assert rc == 0, err
    d = strict_json(out)
    assert d["elements"] == 3 and d["missing_parts"] == ["photo.dat"] and d["triangles"] == 2
    assert any("photo.dat" in w and "binary" in w for w in d["warnings"])
    assert any("empty.dat" in w and "empty file" in w for w in d["warnings"])
    (root / "LDConfig.ldr").unlink()
    m = brikscan.load(model, root, cache=False)
    assert any("LDConfig.ldr" in str(d) for d in m.diagnostics)


@pytest.mark.parametrize("length", [300, 10_000_000])
def test_over_long_names_give_short_messages(lib, tmp_path, capsys, length):
    name = "x" * length + ".dat"
    model = write(tmp_path / "m.ldr", BRICK.format(c=4, x=0, y=0, name="tb.dat")
                  + BRICK.format(c=4, x=0, y=0, name=name) + f"0 FILE {name}\n" * (length < 1000))
    rc, out, err = cli(capsys, "info", model, "--library", lib, "--json")
    assert rc == 0, err[:500]
    d = strict_json(out)
    assert d["elements"] == 1 and len(out) < 20_000
    assert any("too long" in w for w in d["warnings"]) and all(len(w) < 400 for w in d["warnings"])


def test_zip_library_with_a_png_part(tmp_path):
    root = make_library(tmp_path / "lib")
    write(root / "parts" / "photo.dat", PNG_1X1)
    zpath = tmp_path / "complete.zip"
    with zipfile.ZipFile(zpath, "w") as zf:
        for p in root.rglob("*"):
            if p.is_file():
                zf.write(p, "ldraw/" + p.relative_to(root).as_posix())
    m = brikscan.load(write(tmp_path / "m.ldr", BRICK.format(c=4, x=0, y=0, name="photo.dat")
                            + BRICK.format(c=4, x=0, y=0, name="tb.dat")), zpath, cache=False)
    assert m.missing_parts == ["photo.dat"] and m.mesh.n_triangles == 2


def test_scene_positions_beyond_the_limit_are_refused(tmp_path, capsys):
    from conftest import EXAMPLES

    scene = write(tmp_path / "s.toml", f'[[models]]\nfile = "{EXAMPLES / "squad.ldr"}"\nposition = [1e308, 0, 0]\n')
    rc, out, err = cli(capsys, "los", scene, "--json")
    assert rc == 3 and "position" in err and "coordinate limit" in err and out == ""


def test_size_caps_files_zip_bombs_and_warning_floods(lib, tmp_path, capsys):
    huge = tmp_path / "huge.ldr"
    with open(huge, "wb") as fh:
        fh.truncate(40 << 20)  # sparse: refused by its size, never read
    rc, _, err = cli(capsys, "info", huge, "--library", lib)
    assert rc == 3 and "larger than 32 MB" in err
    members = studio_members()
    members["model.ldr"] = b"0 x\n" * (10 << 20)  # 40 MB unpacked from a few kB
    rc, _, err = cli(capsys, "info", write_zip(tmp_path / "bomb.io", members), "--library", lib)
    assert rc == 3 and "unpacks to more than 32 MB" in err
    flood = write(tmp_path / "flood.ldr", "junk line\n" * 5000 + BRICK.format(c=4, x=0, y=0, name="tb.dat"))
    m = brikscan.load(flood, lib, cache=False)
    assert len(m.elements) == 1 and len(m.diagnostics) == 1001
    assert "4,000 more warnings" in str(m.diagnostics[-1])


def test_sigterm_during_a_write_leaves_no_temporary_file(tmp_path):
    code = ("import os, signal, sys\nfrom pathlib import Path\nfrom brikscan.geometry.cache import write_atomic\n"
            "data = b'x' * (200 << 20)\n"
            "signal.signal(signal.SIGALRM, lambda *a: os.kill(os.getpid(), signal.SIGTERM))\n"
            "signal.setitimer(signal.ITIMER_REAL, 0.02)\n"
            "write_atomic(Path(sys.argv[1]), data)\nprint('finished')\n")
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path / "big.glb")], capture_output=True, text=True,
                       timeout=120)
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")], r.stderr[-300:]
    if "finished" not in r.stdout:  # interrupted mid-write: nothing half-written either
        assert r.returncode != 0 and not (tmp_path / "big.glb").exists()


def test_many_distinct_missing_files_stay_fast_and_short(lib, tmp_path):
    text = "".join(f"1 4 0 0 0 1 0 0 0 1 0 0 0 1 gone{i}.ldr\n" for i in range(20_000))
    model = write(tmp_path / "many.ldr", text + BRICK.format(c=4, x=0, y=0, name="tb.dat"))
    t = time.perf_counter()
    m = brikscan.load(model, lib, cache=False)
    assert time.perf_counter() - t < 20 and len(m.elements) == 1
    assert len(m.diagnostics) == 5001 and "15,000 more warnings" in str(m.diagnostics[-1])
