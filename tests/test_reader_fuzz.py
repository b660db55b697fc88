"""Hypothesis fuzzing of the reader: any bytes give a model or a one-line BrikscanError, never a crash."""
from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brikscan.errors import BrikscanError
from brikscan.ldraw.parser import parse_text
from test_ldraw_reader import make_library

import brikscan

num = st.one_of(st.integers(-500, 500).map(str), st.floats(allow_nan=True, allow_infinity=True).map(repr),
                st.sampled_from(["nan", "inf", "-0", "1e400", "x", ""]))
name = st.sampled_from(["tb.dat", "TB.DAT", "s\\tbs01.dat", "tri.dat", "missing.dat", "sub.ldr", "a b.dat"])
line1 = st.builds(lambda c, v, n: " ".join(["1", c] + v + [n]), st.sampled_from(["16", "4", "0x2FF00FF", "zz"]),
                  st.lists(num, min_size=10, max_size=13), name)
line3 = st.builds(lambda v: " ".join(["3", "16"] + v), st.lists(num, min_size=7, max_size=10))
line4 = st.builds(lambda v: " ".join(["4", "4"] + v), st.lists(num, min_size=10, max_size=13))
meta = st.sampled_from(["0 BFC CERTIFY CW", "0 BFC INVERTNEXT", "0 FILE sub.ldr", "0 NOFILE", "0 STEP",
                        "0 !DATA x.png", "0 !BRIKSCAN ROLE weapon", "0 FILE main.ldr", "", "\t", "7 what"])
lines = st.lists(st.one_of(line1, line3, line4, meta, st.text(max_size=30)), max_size=25)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=lines, crlf=st.booleans(), bom=st.booleans())
def test_load_never_crashes(tmp_path_factory, body, crlf, bom):
    root = tmp_path_factory.mktemp("fuzz")
    lib = make_library(root / "lib")
    text = ("\r\n" if crlf else "\n").join(body)
    data = (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8", "surrogatepass")
    p = root / "model.mpd"
    p.write_bytes(data)
    try:
        m = brikscan.load(p, lib, cache=False)
    except BrikscanError as exc:
        assert "\n" not in exc.one_line()
        return
    assert m.mesh.triangles.shape[1:] == (3, 3)
    assert all(math.isfinite(float(v)) for v in m.mesh.triangles.reshape(-1)[:1000])
    assert len(m.mesh.element_offsets) == len(m.elements) + 1
    assert p.read_bytes() == data


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_parser_takes_any_bytes(data):
    try:
        text = data.decode("utf-8", "replace")
        files = parse_text(text, "f.ldr", "f.ldr", [])
    except BrikscanError:
        return
    assert files and all(len(f.tri) == 9 * len(f.tri_colour) for f in files)
