"""The LDraw reader on small libraries and models written here: MPD, BFC, colours, resolution order, bad input."""
from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pytest

import brikscan
from brikscan.errors import InputError, LibraryError
from brikscan.ldraw.library import Library
from brikscan.ldraw.parser import parse_text

LDCONFIG = """0 LDraw.org Configuration File
0 !COLOUR Black CODE 0 VALUE #1B2A34 EDGE #808080
0 !COLOUR Red CODE 4 VALUE #B40000 EDGE #333333
0 !COLOUR Light_Grey CODE 7 VALUE #9BA19D EDGE #333333
0 !COLOUR Main_Colour CODE 16 VALUE #FFFF80 EDGE #333333
0 !COLOUR Edge_Colour CODE 24 VALUE #7F7F7F EDGE #333333
"""

# A unit triangle primitive (CCW seen from -Y, i.e. from above in LDraw) and a square made of it.
PRIM = "0 Triangle primitive\n0 BFC CERTIFY CCW\n3 16 0 0 0 1 0 0 0 0 1\n"
SQUARE_CW = "0 Square CW\n0 BFC CERTIFY CW\n4 16 0 0 0 0 0 1 1 0 1 1 0 0\n"
PART = ("0 Test Brick 1 x 1\n0 Name: tb.dat\n0 !LDRAW_ORG Part UPDATE 2024-01\n0 !KEYWORDS castle, wall\n"
        "0 BFC CERTIFY CCW\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 tri.dat\n1 4 0 -10 0 1 0 0 0 1 0 0 0 1 s\\tbs01.dat\n")
SUBPART = "0 ~Test subpart\n0 !LDRAW_ORG Subpart\n0 BFC CERTIFY CCW\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 tri.dat\n"


def make_library(root: Path) -> Path:
    lib = root / "ldraw"
    (lib / "parts" / "s").mkdir(parents=True)
    (lib / "p" / "48").mkdir(parents=True)
    (lib / "LDConfig.ldr").write_text(LDCONFIG)
    (lib / "p" / "tri.dat").write_text(PRIM)
    (lib / "p" / "48" / "tri.dat").write_text(PRIM + "3 16 0 0 0 1 0 0 0 0 1\n")  # hi-res: 2 triangles
    (lib / "p" / "sqcw.dat").write_text(SQUARE_CW)
    (lib / "parts" / "TB.DAT").write_text(PART)  # upper case on disk: names are case-insensitive
    (lib / "parts" / "s" / "tbs01.dat").write_text(SUBPART)
    (lib / "parts" / "sq.dat").write_text("0 Test Square\n0 BFC CERTIFY CCW\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 sqcw.dat\n")
    return lib


@pytest.fixture()
def lib(tmp_path) -> Path:
    return make_library(tmp_path / "lib")


def write(p: Path, text: str, **kw) -> Path:
    p.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return p


def normals(tris: np.ndarray) -> np.ndarray:
    return np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])


def test_elements_colours_and_headers(lib, tmp_path):
    m = brikscan.load(write(tmp_path / "m.ldr", "0 My model\n1 4 10 0 0 1 0 0 0 1 0 0 0 1 tb.dat\n"
                                                "1 16 50 0 0 1 0 0 0 1 0 0 0 1 TB.DAT\n"), lib, cache=False)
    assert len(m.elements) == 2
    e0, e1 = m.elements
    assert e0.part == "tb.dat" and e0.description == "Test Brick 1 x 1" and e0.category == "Test"
    assert e0.keywords == ["castle", "wall"]
    assert e0.source.endswith("m.ldr:2") and e1.source.endswith("m.ldr:3")
    # tri.dat inherits (16 -> 4 red); the subpart was placed with colour 4 explicitly.
    assert m.mesh.n_triangles == 4
    assert set(m.mesh.face_colour[m.mesh.face_element == 0]) == {4}
    assert m.colours.rgb(4) == (0xB4, 0, 0)
    np.testing.assert_allclose(e0.bbox_min, [10, -10, 0])
    np.testing.assert_allclose(e0.bbox_max, [11, 0, 1])
    assert m.geometry_source.startswith("LDraw library")


def test_mpd_submodels_inline_geometry_and_element_order(lib, tmp_path):
    text = ("0 FILE main.ldr\n0 Main\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 sub.ldr\n1 7 100 0 0 1 0 0 0 1 0 0 0 1 tb.dat\n"
            "0 NOFILE\n0 FILE sub.ldr\n0 Sub\n1 0 0 -24 0 1 0 0 0 1 0 0 0 1 tb.dat\n3 16 0 0 0 5 0 0 0 0 5\n"
            "0 NOFILE\n0 !DATA junk.png\n0 !: iVBORw0KGgo\n")
    m = brikscan.load(write(tmp_path / "m.mpd", text), lib, cache=False)
    assert [e.part for e in m.elements] == ["tb.dat", "tb.dat"]
    assert m.elements[0].submodel_path == ("sub.ldr",)
    assert m.elements[0].colour == 0 and m.elements[1].colour == 7
    assert m.elements[0].refs == (("main.ldr", 3), ("sub.ldr", 8))  # physical lines of the .mpd
    # inline triangle of sub.ldr belongs to the mesh (element -1), not to an element
    assert (m.mesh.face_element == -1).sum() == 1
    assert m.mesh.n_triangles == 2 + 2 + 1


@pytest.mark.parametrize("header", ["0 Unofficial Model\n", ""])
def test_old_mpd_dat_submodels_are_expanded(lib, tmp_path, header):
    """MLCad-era MPDs name their submodels ``*.dat`` with an "Unofficial Model" line or no header: they are
    submodels (their bricks are elements), while a local custom part drawn from primitives stays one part."""
    text = ("0 FILE complete.dat\n0 Name: complete.dat\n" + header +
            "1 16 0 0 0 1 0 0 0 1 0 0 0 1 whole.dat\n1 7 0 0 50 1 0 0 0 1 0 0 0 1 custom.dat\n"
            "0 FILE whole.dat\n0 Name: whole.dat\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 legs.dat\n"
            "1 4 0 -24 0 1 0 0 0 1 0 0 0 1 tb.dat\n"
            "0 FILE legs.dat\n1 0 0 0 0 1 0 0 0 1 0 0 0 1 tb.dat\n1 0 40 0 0 1 0 0 0 1 0 0 0 1 tb.dat\n"
            "0 FILE custom.dat\n0 My custom tile\n0 Name: custom.dat\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 tri.dat\n"
            "3 16 0 0 0 4 0 0 0 0 4\n")
    m = brikscan.load(write(tmp_path / "old.mpd", text), lib, cache=False)
    assert [e.part for e in m.elements] == ["tb.dat", "tb.dat", "tb.dat", "custom.dat"]
    assert m.elements[0].submodel_path == ("whole.dat", "legs.dat")
    # offline (no library to ask where tb.dat lives): read the same way
    off = brikscan.load(write(tmp_path / "old2.mpd", text), None, cache=False)
    assert [e.part for e in off.elements] == ["tb.dat", "tb.dat", "tb.dat", "custom.dat"]


def test_mpd_dat_with_a_part_header_stays_a_part(lib, tmp_path):
    text = ("0 FILE main.ldr\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 mine.dat\n"
            "0 FILE mine.dat\n0 My part\n0 !LDRAW_ORG Unofficial_Part\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 tb.dat\n"
            "1 16 0 -24 0 1 0 0 0 1 0 0 0 1 tb.dat\n")
    m = brikscan.load(write(tmp_path / "p.mpd", text), lib, cache=False)
    assert [e.part for e in m.elements] == ["mine.dat"]


def test_bfc_cw_invertnext_and_mirror_give_outward_normals(lib, tmp_path):
    # sq.dat wraps a CW square: after BFC the square's normal must point like a CCW one (towards -Y x ... )
    ccw = brikscan.load(write(tmp_path / "a.ldr", "1 16 0 0 0 1 0 0 0 1 0 0 0 1 tri.dat\n"), lib, cache=False)
    ref = normals(ccw.mesh.triangles.astype(float))[0]
    sq = brikscan.load(write(tmp_path / "b.ldr", "1 16 0 0 0 1 0 0 0 1 0 0 0 1 sq.dat\n"), lib, cache=False)
    for n in normals(sq.mesh.triangles.astype(float)):
        assert np.dot(n, ref) > 0
    # a mirrored placement flips the geometry and the winding: normal stays consistent with the mirrored face
    mir = brikscan.load(write(tmp_path / "c.ldr", "1 16 0 0 0 -1 0 0 0 1 0 0 0 1 tri.dat\n"), lib, cache=False)
    assert np.dot(normals(mir.mesh.triangles.astype(float))[0], ref) > 0
    inv = brikscan.load(write(tmp_path / "d.ldr", "0 BFC CERTIFY CCW\n0 BFC INVERTNEXT\n"
                                                  "1 16 0 0 0 1 0 0 0 1 0 0 0 1 tri.dat\n"), lib, cache=False)
    assert np.dot(normals(inv.mesh.triangles.astype(float))[0], ref) < 0


def test_resolution_order_and_high_res_primitives(lib, tmp_path):
    # A part in the model's folder wins over the library one.
    (tmp_path / "tri.dat").write_text("0 local triangle\n3 16 0 0 0 2 0 0 0 0 2\n3 16 0 0 0 2 0 0 0 0 2\n"
                                      "3 16 0 0 0 2 0 0 0 0 2\n")
    m = brikscan.load(write(tmp_path / "m.ldr", "1 16 0 0 0 1 0 0 0 1 0 0 0 1 tri.dat\n"), lib, cache=False)
    assert m.mesh.n_triangles == 3
    other = tmp_path / "x"
    other.mkdir()
    hi = brikscan.load(write(other / "m.ldr", "1 16 0 0 0 1 0 0 0 1 0 0 0 1 tri.dat\n"), lib, cache=False,
                       resolution="high")
    assert hi.mesh.n_triangles == 2


def test_zip_library_same_as_folder(lib, tmp_path):
    zpath = tmp_path / "complete.zip"
    with zipfile.ZipFile(zpath, "w") as z:
        for f in lib.rglob("*"):
            if f.is_file():
                z.write(f, "ldraw/" + str(f.relative_to(lib)))
    model = write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 tb.dat\n")
    a = brikscan.load(model, lib, cache=False)
    b = brikscan.load(model, zpath, cache=False)
    assert a.mesh.n_triangles == b.mesh.n_triangles == 2
    np.testing.assert_array_equal(a.mesh.triangles, b.mesh.triangles)


def test_cache_is_used_and_invalidated_by_a_library_change(lib, tmp_path):
    cache = tmp_path / "cache"
    model = write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 tb.dat\n")
    first = brikscan.load(model, lib, cache_dir=cache)
    again = brikscan.load(model, lib, cache_dir=cache)
    assert first.timings["cache_misses"] >= 1 and again.timings["cache_hits"] >= 1
    assert again.timings["cache_misses"] == 0
    np.testing.assert_array_equal(first.mesh.triangles, again.mesh.triangles)
    # editing a subpart (new size and mtime) must invalidate the cached part
    (lib / "parts" / "s" / "tbs01.dat").write_text(SUBPART + "3 16 0 0 0 1 0 0 0 0 1\n")
    changed = brikscan.load(model, lib, cache_dir=cache)
    assert changed.mesh.n_triangles == 3


def test_missing_parts_are_reported_and_the_rest_loads(lib, tmp_path):
    m = brikscan.load(write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 tb.dat\n"
                                                "1 4 0 0 0 1 0 0 0 1 0 0 0 1 nothere.dat\n"), lib, cache=False)
    assert m.missing_parts == ["nothere.dat"]
    assert m.elements[1].missing and not m.elements[0].missing
    assert m.mesh.n_triangles == 2
    assert any("nothere.dat" in str(d) and ":2:" in str(d) for d in m.diagnostics)


def test_a_missing_print_or_variant_is_drawn_as_its_part_number(lib, tmp_path):
    """A part named as a print or a mould variant the library lacks (``3005bp01``) is drawn and judged as the part
    number it is one of (``3005``), with a warning at its line; ``stand_ins=False`` reads only what is named."""
    write(lib / "parts" / "3005.dat", PART.replace("tb.dat", "3005.dat"))
    text = "1 4 0 0 0 1 0 0 0 1 0 0 0 1 3005.dat\n1 4 40 0 0 1 0 0 0 1 0 0 0 1 3005bp01.dat\n"
    m = brikscan.load(write(tmp_path / "m.ldr", text), lib, cache=False)
    e = m.elements[1]
    assert m.missing_parts == [] and not e.missing and e.description == "Test Brick 1 x 1"
    assert m.parts["3005bp01.dat"].stand_in == "3005.dat" and m.parts["3005bp01.dat"].source == "stand-in"
    assert m.mesh.n_triangles == 2 * m.parts["3005.dat"].triangles
    assert any("drawn and judged as '3005.dat'" in str(d) and "m.ldr:2:" in str(d) for d in m.diagnostics)
    plain = brikscan.load(tmp_path / "m.ldr", lib, cache=False, stand_ins=False)
    assert plain.missing_parts == ["3005bp01.dat"] and plain.elements[1].missing
    assert plain.mesh.n_triangles == m.parts["3005.dat"].triangles


def test_stand_in_candidates_follow_ldraw_part_numbers():
    """A print or sticker code comes off first (the same codes the part classes read), then the variant letter,
    then the earlier variants, nearest first; element numbers, subparts and custom names get none."""
    from brikscan.ldraw.part_numbers import stand_in_candidates

    def names(n):
        return [c for c, _ in stand_in_candidates(n)]

    assert names("3626cpr0892.dat")[:2] == ["3626c.dat", "3626.dat"] and names("3001d01.dat") == ["3001.dat"]
    assert names("2313c.dat") == ["2313.dat", "2313b.dat", "2313a.dat"]
    assert names("3001P99.DAT") == ["3001.dat"] and names("3001a.dat") == ["3001.dat"]
    for none in ("4111802.dat", "3001.dat", "s/3001s01.dat", "mypart.dat", "12b.dat", "sub.ldr"):
        assert stand_in_candidates(none) == [], none
    assert dict(stand_in_candidates("2313c.dat"))["2313b.dat"] == "an earlier variant of the mould"


def test_crlf_bom_and_malformed_lines(lib, tmp_path):
    text = "\ufeff0 Model\r\n1 4 0 0 0 1 0 0 0 1 0 0 0 1 tb.dat\r\n1 4 zero 0 0 1 0 0 0 1 0 0 0 1 tb.dat\r\n" \
           "3 4 nan 0 0 1 0 0 0 0 1\r\n1 4 1e30 0 0 1 0 0 0 1 0 0 0 1 tb.dat\r\n"
    p = write(tmp_path / "m.ldr", text)
    before = p.read_bytes()
    m = brikscan.load(p, lib, cache=False)
    assert len(m.elements) == 1
    msgs = [str(d) for d in m.diagnostics]
    assert any("m.ldr:3:" in s and "malformed" in s for s in msgs)
    assert any("m.ldr:4:" in s and "NaN" in s for s in msgs)
    assert any("m.ldr:5:" in s and "absurd" in s for s in msgs)
    assert p.read_bytes() == before  # inputs are never modified


@pytest.mark.parametrize("content, message", [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary"),
    (b"hello world\nthis is not LDraw\n", "not an LDraw file"),
    # a README whose lines begin with numbers: "2 ..." and "5 ..." are no edge lines
    (b"# notes\n2 of the castles were red\n5 models were seen\n", "bad.ldr:1: not an LDraw file"),
    (b"0 just a comment\n", "empty model"),
    (b"", "empty model"),
])
def test_bad_files_give_one_line_errors(lib, tmp_path, content, message):
    p = tmp_path / "bad.ldr"
    p.write_bytes(content)
    with pytest.raises(InputError) as exc:
        brikscan.load(p, lib, cache=False)
    assert message in str(exc.value) and "bad.ldr" in str(exc.value)
    assert "\n" not in str(exc.value)


def test_circular_reference(lib, tmp_path):
    text = "0 FILE a.ldr\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 b.ldr\n0 FILE b.ldr\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 a.ldr\n"
    with pytest.raises(InputError, match="circular reference: a.ldr -> b.ldr -> a.ldr"):
        brikscan.load(write(tmp_path / "loop.mpd", text), lib, cache=False)


def test_missing_file_and_bad_library(tmp_path, lib):
    with pytest.raises(InputError, match="no such file"):
        brikscan.load(tmp_path / "nope.ldr", lib)
    bad = tmp_path / "complete.zip"
    bad.write_bytes(b"PK\x03\x04 this is not really a zip")
    with pytest.raises(LibraryError, match="not a zip file|corrupt"):
        Library.open(bad)
    with pytest.raises(LibraryError, match="not an LDraw library"):
        Library.open(tmp_path)


def test_direct_colours_and_parser_headers():
    files = parse_text("0 FILE x.ldr\n0 Title here\n0 !CATEGORY Brick\n1 0x2FF0000 0 0 0 1 0 0 0 1 0 0 0 1 a.dat\n",
                       "x.mpd", "x.mpd")
    f = files[0]
    assert f.header.description == "Title here" and f.header.category == "Brick"
    assert f.refs[0].colour == 0x2FF0000
    from brikscan.ldraw.colours import ColourTable

    assert ColourTable().rgb(0x2FF0000) == (255, 0, 0)


def test_no_studs_option_drops_stud_primitives(lib, tmp_path):
    (lib / "p" / "stud.dat").write_text("0 Stud\n0 BFC CERTIFY CCW\n3 16 0 0 0 1 0 0 0 0 1\n3 16 0 0 0 1 0 0 0 0 1\n")
    (lib / "parts" / "studded.dat").write_text("0 Studded Plate\n0 BFC CERTIFY CCW\n"
                                                "1 16 0 0 0 1 0 0 0 1 0 0 0 1 tri.dat\n"
                                                "1 16 0 0 0 1 0 0 0 1 0 0 0 1 stud.dat\n"
                                                "1 16 20 0 0 1 0 0 0 1 0 0 0 1 stud.dat\n")
    model = write(tmp_path / "m.ldr", "1 4 0 0 0 1 0 0 0 1 0 0 0 1 studded.dat\n")
    with_studs = brikscan.load(model, lib, cache_dir=tmp_path / "c")
    without = brikscan.load(model, lib, cache_dir=tmp_path / "c", studs=False)
    assert with_studs.mesh.n_triangles == 5 and without.mesh.n_triangles == 1
