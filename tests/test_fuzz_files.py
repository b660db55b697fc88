"""Fuzzing the reader as an attacker would (issue 10): generated LDraw of every line type and MPD structure, and
mutations of the official models (lines, numbers, bytes, names, bombs, depth).

Every case must end either in a model whose ``--json`` output is strict JSON, or in a one-line BrikscanError with
a documented exit code; never in another exception (an ``internal error``). Inputs are byte-identical afterwards
and memory stays bounded. Most cases call the Python API in-process; a few run the real command line.
The total number of cases is checked by the last test (at least 2,000 when the whole file runs).
"""
from __future__ import annotations

import contextlib
import io
import json
import math
import os
import random
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import brikscan
from brikscan.cli.common import print_json
from brikscan.errors import BrikscanError
from brikscan.geometry.info import model_info
from brikscan.ldraw.library import Library
from brikscan.ldraw.limits import Limits
from conftest import LIBRARY_ZIP, MODELS_DIR, NO_SHARED
from studio_io import STUDIO_PASSWORD, write_studio
from test_ldraw_reader import make_library

DOCUMENTED_EXITS = {2, 3, 4, 5, 6}
# Tighter than the defaults so that a bomb the fuzzer builds is refused (or walked) in milliseconds.
FUZZ_LIMITS = Limits(max_elements=20_000, max_triangles=2_000_000, max_depth=64)
CASES: dict[str, int] = {}
EXPECTED = {"generated_lines": 700, "generated_mpd": 450, "studio": 60, "mutations": 840, "cli": 10}


def strict(text: str):
    def refuse(token):
        raise AssertionError(f"non-standard JSON constant {token}")

    return json.loads(text, parse_constant=refuse)


def json_text(data, model) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        print_json(data, model)  # the one place --json output is printed
    return buf.getvalue()


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def check(path: Path, lib, *, analyse: bool = False, cache_dir: Path | None = None) -> str:
    """Load (and maybe analyse) one case; returns 'ok' or 'refused'. Any other exception fails the test."""
    before = snapshot(path.parent)
    try:
        m = brikscan.load(path, lib, cache=cache_dir is not None, cache_dir=cache_dir, limits=FUZZ_LIMITS)
    except BrikscanError as exc:
        line = exc.one_line()
        assert "\n" not in line and len(line) <= 500 and exc.exit_code in DOCUMENTED_EXITS, line
        outcome = "refused"
    else:
        tris = m.mesh.triangles
        assert tris.shape[1:] == (3, 3) and len(m.mesh.element_offsets) == len(m.elements) + 1
        assert bool(__import__("numpy").isfinite(tris).all())
        assert all(len(str(d)) <= 500 for d in m.diagnostics)
        strict(json_text(model_info(m, elements=True), m))
        if analyse:
            from brikscan.analysis.stats import analyse as run_analysis
            from brikscan.analysis.stats import analysis_json

            strict(json_text(analysis_json(run_analysis(m)), m))
        outcome = "ok"
    assert snapshot(path.parent) == before  # inputs never modified
    return outcome


def count(kind: str, n: int = 1) -> None:
    CASES[kind] = CASES.get(kind, 0) + n


# ---------------------------------------------------------------- generated LDraw

NUM = st.one_of(st.integers(-300, 300).map(str), st.floats(allow_nan=True, allow_infinity=True).map(repr),
                st.sampled_from(["nan", "-inf", "1e308", "1e309", "-0", "0x10", "1e-320", "9" * 40, "", "x",
                                 "1,5", "0.0000001"]))
COLOUR = st.sampled_from(["16", "24", "4", "0x2FF00FF", "#FF00FF", "#FFFFFFFFF", "-1", "99999999999999999999",
                          "0x7FFFFFFF", "zz", "1" * 5000, "７"])
NAME = st.sampled_from(["tb.dat", "TB.DAT", "s\\tbs01.dat", "tri.dat", "sq.dat", "missing.dat", "sub0.ldr",
                        "sub1.ldr", "sub2.ldr", "SUB0.LDR", "a b.dat", "/etc/passwd", "..\\..\\secret.ldr",
                        "C:\\Windows\\x.dat", "x" * 300 + ".dat", "ls01.dat", "é.dat", "part.dat", "p0.dat",
                        "sub/../sub0.ldr", ".", "..", "", "~/x.dat", "con.dat"])
IDENT = ["1", "0", "0", "0", "1", "0", "0", "0", "1"]


def _line1(c, pos, mat, name, ident):
    return " ".join(["1", c, *pos, *(IDENT if ident else mat), name])


LINE1 = st.builds(_line1, COLOUR, st.lists(NUM, min_size=3, max_size=3), st.lists(NUM, min_size=8, max_size=10),
                  NAME, st.booleans())
LINE2 = st.builds(lambda c, v: " ".join(["2", c, *v]), COLOUR, st.lists(NUM, min_size=5, max_size=7))
LINE3 = st.builds(lambda c, v: " ".join(["3", c, *v]), COLOUR, st.lists(NUM, min_size=8, max_size=10))
LINE4 = st.builds(lambda c, v: " ".join(["4", c, *v]), COLOUR, st.lists(NUM, min_size=11, max_size=13))
LINE5 = st.builds(lambda c, v: " ".join(["5", c, *v]), COLOUR, st.lists(NUM, min_size=11, max_size=13))
META = st.one_of(
    st.sampled_from(["0 BFC CERTIFY CCW", "0 BFC CERTIFY CW", "0 BFC NOCERTIFY", "0 BFC INVERTNEXT", "0 BFC CLIP",
                     "0 STEP", "0 NOFILE", "0 !DATA img.png", "0 SYNTH BEGIN PNEUMATIC_TUBE 4",
                     "0 SYNTH BEGIN", "0 SYNTH SYNTHESIZED BEGIN", "0 SYNTH SYNTHESIZED END", "0 SYNTH END",
                     "0 !LDRAW_ORG Part", "0 !LDRAW_ORG Model", "0 !LDRAW_ORG Unofficial_Shortcut", "0 Name: x.ldr",
                     "0 !KEYWORDS a, b", "0 !CATEGORY Brick", "0 !BRIKSCAN ROLE weapon type=cannon size=3",
                     "0 !BRIKSCAN BEGIN propulsion", "0 !BRIKSCAN END", "0 !BRIKSCAN CREATION name=\"x\" sl=9e999",
                     "0 GROUP 1 cannon", "0 !LEOCAD GROUP BEGIN gun", "0 !LEOCAD GROUP END", "0", "0 FILE",
                     "0 // comment", "0 !COLOUR X CODE 999 VALUE #FFFFFF EDGE #000000", "0 !TEXMAP START"]),
    st.builds(lambda n: f"0 FILE {n}", NAME))
GARBAGE = st.one_of(st.text(max_size=40), st.sampled_from(["7 what", "1", "3 16", "\t", "   ", "\x0c", "1 16 0 0 0"]))
ANY_LINE = st.one_of(LINE1, LINE2, LINE3, LINE4, LINE5, META, GARBAGE)
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
                database=None)


@pytest.fixture(scope="module")
def fuzz_lib(tmp_path_factory) -> Path:
    root = make_library(tmp_path_factory.mktemp("fuzzlib"))
    (root / "parts" / "part.dat").write_text("0 Part\n0 !LDRAW_ORG Part\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 tb.dat\n"
                                             "1 16 0 0 0 1 0 0 0 1 0 0 0 1 ../../x.dat\n")
    return root


def _encode(lines: list[str], crlf: bool, bom: bool) -> bytes:
    text = ("\r\n" if crlf else "\n").join(lines)
    return (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8", "surrogatepass")


@settings(max_examples=EXPECTED["generated_lines"], **SETTINGS)
@given(body=st.lists(ANY_LINE, max_size=30), crlf=st.booleans(), bom=st.booleans(),
       ext=st.sampled_from(["ldr", "mpd", "dat"]))
def test_generated_lines_of_every_type(tmp_path_factory, fuzz_lib, body, crlf, bom, ext):
    d = tmp_path_factory.mktemp("gen")
    p = d / f"model.{ext}"
    p.write_bytes(_encode(body, crlf, bom))
    check(p, fuzz_lib)
    count("generated_lines")


BLOCK_NAME = st.sampled_from(["sub0.ldr", "sub1.ldr", "sub2.ldr", "p0.dat", "SUB1.ldr", "x" * 300 + ".ldr"])


@st.composite
def mpd(draw):
    """An MPD: a main block then blocks that reference each other (cycles, fan-out, depth, parts inside)."""
    lines = ["0 FILE main.ldr", "0 Main"]
    lines += draw(st.lists(st.one_of(LINE1, LINE3), max_size=6))
    for _ in range(draw(st.integers(0, 5))):
        name = draw(BLOCK_NAME)
        lines += [f"0 FILE {name}", draw(st.sampled_from(["0 !LDRAW_ORG Part", "0 !LDRAW_ORG Model", "0 Sub"]))]
        fan = draw(st.integers(0, 12))
        target = draw(NAME)
        lines += [f"1 16 {i} 0 0 1 0 0 0 1 0 0 0 1 {target}" for i in range(fan)]
        lines += draw(st.lists(ANY_LINE, max_size=6))
        if draw(st.booleans()):
            lines.append("0 NOFILE")
    if draw(st.booleans()):
        lines += ["0 !DATA picture.png", "0 !: iVBORw0KGgo="]
    return lines


@settings(max_examples=EXPECTED["generated_mpd"], **SETTINGS)
@given(lines=mpd(), crlf=st.booleans())
def test_generated_mpd_structures(tmp_path_factory, fuzz_lib, lines, crlf):
    d = tmp_path_factory.mktemp("mpd")
    p = d / "model.mpd"
    p.write_bytes(_encode(lines, crlf, False))
    check(p, fuzz_lib, analyse=len(lines) < 8 and crlf)  # some analyses too (slower)
    count("generated_mpd")


@settings(max_examples=EXPECTED["studio"], **SETTINGS)
@given(lines=mpd(), encrypted=st.booleans(), cut=st.one_of(st.none(), st.integers(0, 2000)))
def test_generated_studio_files(tmp_path_factory, fuzz_lib, lines, encrypted, cut):
    d = tmp_path_factory.mktemp("io")
    p = write_studio(d / "model.io", STUDIO_PASSWORD if encrypted else None, "\n".join(lines) + "\n")
    if cut is not None:
        p.write_bytes(p.read_bytes()[:cut])
    check(p, fuzz_lib)
    count("studio")


# ---------------------------------------------------------------- mutations of the official models

NUM_RE = re.compile(rb"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
HOSTILE_NAMES = [b"/etc/passwd", b"..\\..\\..\\etc\\hostname", b"C:\\boot.ini", b"x" * 400 + b".dat",
                 b"ls01.dat", b"../models/other.ldr", b"\xff\xfe.dat", b"parts/../../../x.dat"]
HOSTILE_NUMBERS = [b"nan", b"inf", b"-inf", b"1e308", b"1e309", b"99999999999999999999", b"-0", b"1e-320",
                   b"0x7FFFFFFF", b"4294967296", b"999999", b"", b"1..2"]


def mutate(data: bytes, rng: random.Random, kind: str) -> bytes:
    lines = data.split(b"\n")
    if kind == "line":
        for _ in range(rng.randint(1, 5)):
            i = rng.randrange(len(lines))
            op = rng.choice(["delete", "duplicate", "swap", "blank"])
            if op == "delete":
                del lines[i]
            elif op == "duplicate":
                lines.insert(i, lines[i])
            elif op == "swap":
                j = rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
            else:
                lines[i] = b""
        return b"\n".join(lines)
    if kind == "number":
        spans = list(NUM_RE.finditer(data))
        out = bytearray(data)
        for m in sorted(rng.sample(spans, min(len(spans), rng.randint(1, 8))), key=lambda m: -m.start()):
            out[m.start():m.end()] = rng.choice(HOSTILE_NUMBERS + [str(rng.uniform(-1e6, 1e6)).encode()])
        return bytes(out)
    if kind == "byte":
        out = bytearray(data)
        for _ in range(rng.randint(1, 20)):
            i = rng.randrange(len(out))
            op = rng.random()
            if op < 0.4:
                out[i] = rng.randrange(256)
            elif op < 0.7:
                out.insert(i, rng.randrange(256))
            else:
                del out[i]
        return bytes(out)
    if kind == "name":
        refs = [i for i, ln in enumerate(lines) if ln.strip().startswith(b"1 ")]
        for i in rng.sample(refs, min(len(refs), rng.randint(1, 4))):
            toks = lines[i].split(None, 14)
            if len(toks) == 15:
                lines[i] = b" ".join(toks[:14] + [rng.choice(HOSTILE_NAMES)])
        return b"\n".join(lines)
    if kind == "bomb":  # every submodel reference repeated: multiplicative through the nesting
        k = rng.choice([2, 3, 20, 100])
        sub = (b".ldr", b".mpd")
        return b"\n".join(b"\n".join([ln] * k) if ln.startswith(b"1 ") and ln.strip().lower().endswith(sub) else ln
                          for ln in lines)
    if kind == "depth":  # the model pushed under a chain of submodels
        n = rng.choice([5, 20, 55, 64, 500])
        head = data.lstrip()
        if head.startswith(b"0 FILE "):
            first, body = head.split(b"\n", 1)[0][7:].strip(), data
        else:
            first, body = b"cend.ldr", b"0 FILE cend.ldr\n" + data
        chain = b"".join(b"0 FILE c%d.ldr\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 %s\n"
                         % (i, b"c%d.ldr" % (i + 1) if i + 1 < n else first) for i in range(n))
        return chain + body
    if kind == "scale":
        refs = [i for i, ln in enumerate(lines) if ln.strip().startswith(b"1 ")]
        for i in rng.sample(refs, min(len(refs), 3)):
            toks = lines[i].split(None, 14)
            if len(toks) == 15:
                f = rng.choice([b"-1", b"2", b"10", b"1000", b"1001", b"-999999", b"1e5"])
                toks[5], toks[9], toks[13] = f, f, f
                lines[i] = b" ".join(toks)
        return b"\n".join(lines)
    if kind == "truncate":
        return data[: rng.randrange(len(data))]
    raise ValueError(kind)


MUTATIONS = ["line", "number", "byte", "name", "bomb", "depth", "scale", "truncate"]


def small_models(n: int) -> list[Path]:
    if not MODELS_DIR.exists():
        return []
    models = sorted((p for p in MODELS_DIR.iterdir() if p.suffix.lower() in (".mpd", ".ldr")),
                    key=lambda p: p.stat().st_size)
    return models[:n]


@pytest.fixture(scope="module")
def shared_library():
    if not LIBRARY_ZIP.exists():
        pytest.skip(NO_SHARED)
    lib = Library.open(LIBRARY_ZIP)  # opened once: its index is read once for all cases
    yield lib
    lib.close()


@pytest.mark.parametrize("kind", MUTATIONS)
def test_mutations_of_official_models(shared_library, tmp_path, kind):
    models = small_models(7)
    per_kind = EXPECTED["mutations"] // len(MUTATIONS)
    rng = random.Random(f"issue-10-{kind}")
    cache = tmp_path / "cache"
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    outcomes = {"ok": 0, "refused": 0}
    for i in range(per_kind):
        src = models[i % len(models)]
        d = tmp_path / f"case{i}"
        d.mkdir()
        p = d / src.name
        p.write_bytes(mutate(src.read_bytes(), rng, kind))
        outcomes[check(p, shared_library, cache_dir=cache, analyse=(i % 35 == 0 and kind != "bomb"))] += 1
        count("mutations")
    grew_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0) / 1024
    assert grew_mb < 1024, f"peak memory grew {grew_mb:.0f} MB"
    assert outcomes["ok"] + outcomes["refused"] == per_kind
    assert outcomes["ok"] > 0 and (outcomes["refused"] > 0 or kind == "name")  # both ways are exercised


# ---------------------------------------------------------------- the real command line

def test_command_line_on_hostile_files(tmp_path, fuzz_lib):
    from test_hostile_files import bomb

    cases = {
        "bomb.mpd": bomb(9, 10).encode(),
        "deep.mpd": "".join(f"0 FILE s{i}.ldr\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 s{i + 1}.ldr\n"
                            for i in range(1000)).encode(),
        "paths.ldr": b"1 16 0 0 0 1 0 0 0 1 0 0 0 1 /etc/passwd\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 tb.dat\n",
        "colour.ldr": b"1 99999999999999999999999 0 0 0 1 0 0 0 1 0 0 0 1 tb.dat\n",
        "scaled.ldr": b"1 4 0 0 0 999999 0 0 0 999999 0 0 0 999999 tb.dat\n",
        "nested.mpd": "".join(f"0 FILE n{i}.ldr\n1 16 1e5 0 0 100 0 0 0 100 0 0 0 100 n{i + 1}.ldr\n"
                              for i in range(40)).encode() + b"0 FILE n40.ldr\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 tb.dat\n",
        "longname.ldr": b"1 4 0 0 0 1 0 0 0 1 0 0 0 1 " + b"n" * 10_000_000 + b".dat\n"
                        b"1 4 0 0 0 1 0 0 0 1 0 0 0 1 tb.dat\n",
        "binary.ldr": bytes(range(256)) * 4,
    }
    write_studio(tmp_path / "old.io", STUDIO_PASSWORD)
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
    before = snapshot(tmp_path)
    runs = [("info", n) for n in [*cases, "old.io"]] + [("stats", "colour.ldr")]
    rcs = {}
    env = {**os.environ, "BRIKSCAN_CACHE": str(tmp_path.parent / "cli-cache")}
    env.pop("LDRAWDIR", None)
    for cmd, name in runs:
        r = subprocess.run([sys.executable, "-m", "brikscan", cmd, str(tmp_path / name), "--library", str(fuzz_lib),
                            "--json"], capture_output=True, text=True, timeout=300, env=env)
        assert "internal error" not in r.stderr and "Traceback" not in r.stderr, (name, r.stderr[-2000:])
        assert r.returncode in {0} | DOCUMENTED_EXITS, (name, r.returncode, r.stderr[-500:])
        assert len(r.stderr) < 20_000, name  # short lines, whatever the input held
        rcs[name] = r.returncode
        if r.returncode == 0:
            d = strict(r.stdout)
            assert all(math.isfinite(v) for v in d.get("bbox_ldu", {}).get("min", [0]))
        else:
            assert r.stderr.count("\n") == 1 and r.stdout == ""
        count("cli")
    assert rcs == {"bomb.mpd": 3, "deep.mpd": 3, "paths.ldr": 0, "colour.ldr": 0, "scaled.ldr": 3, "nested.mpd": 3,
                   "longname.ldr": 0, "binary.ldr": 3, "old.io": 0}
    assert snapshot(tmp_path) == before
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    assert peak_mb < 1536, f"a brikscan process peaked at {peak_mb:.0f} MB"


def test_zz_enough_cases():
    """The whole file runs at least 2,000 cases (skipped when only part of it ran)."""
    if set(CASES) != set(EXPECTED):
        pytest.skip(f"only part of the fuzz suite ran: {CASES}")
    assert sum(CASES.values()) >= 2000, CASES
