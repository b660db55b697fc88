"""LDraw text into files: line types 0-5, MPD ``0 FILE`` blocks, BFC winding, part headers.

Triangles are stored counter-clockwise in the file's own frame (a ``BFC CW`` block is reversed here), so that
flattening only has to care about mirrored matrices and ``INVERTNEXT``.
"""
from __future__ import annotations

import math
import re
import zlib
from dataclasses import dataclass, field

from ..errors import Diagnostic, InputError, short
from .library import normalize_name

# LDU; anything beyond is a corrupt line, not a model (10^12 LDU: 400,000 km). A coordinate under it but beyond
# --max-coord (or a scale beyond --max-scale) stops the command with exit 3 when the model is walked
# (ldraw/walk.py), as the limit says, so a far placement never gets milder treatment than a near one
MAX_COORD = 1.0e12
MAX_COLOUR = 0x3FFFFFF  # highest meaningful code: direct colours 0x2RRGGBB / 0x3RRGGBB; beyond is a corrupt line
LSYNTH_CONSTRAINT = re.compile(r"^ls\d+\.dat$")  # LSynth's end and path markers: not parts of the model
IDENTITY = (0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)


@dataclass
class Header:
    description: str = ""
    name: str = ""
    org_type: str = ""  # Part, Subpart, Primitive, Model, Shortcut, ... from !LDRAW_ORG (unofficial prefix removed)
    category: str = ""
    keywords: list[str] = field(default_factory=list)
    theme: str = ""  # ``0 !THEME Space / Blacktron I``: the set's theme, as its author filed it


@dataclass
class SubRef:
    """A type-1 line."""

    line: int
    colour: int
    m: tuple[float, ...]  # x y z a b c d e f g h i as written
    name: str  # normalized
    raw_name: str
    invert: bool  # preceded by BFC INVERTNEXT


@dataclass
class LDrawFile:
    name: str  # normalized
    path: str  # the physical file it was read from (for file:line messages)
    header: Header
    refs: list[SubRef] = field(default_factory=list)
    tri: list[float] = field(default_factory=list)  # 9 floats per triangle, CCW
    tri_colour: list[int] = field(default_factory=list)
    tri_line: list[int] = field(default_factory=list)
    metas: list[tuple[int, str]] = field(default_factory=list)  # (line, text after "0 ") for non-header comments
    steps: list[int] = field(default_factory=list)  # line numbers of 0 STEP
    hose: str = ""  # LSynth type (e.g. PNEUMATIC_TUBE) when this file is a ``0 SYNTH BEGIN`` block made a part

    @property
    def has_geometry(self) -> bool:
        return bool(self.tri_colour)


MAX_WARNINGS_PER_FILE = 1000  # a file of a million bad lines gives a thousand warnings and a count, not 200 MB
_EOL = re.compile(r"\r\n|\r|\n")


class _Capped:
    """A diagnostics list that keeps the first MAX_WARNINGS_PER_FILE of one file and counts the rest."""

    def __init__(self, out: list[Diagnostic], path: str) -> None:
        self.out, self.path, self.kept, self.dropped = out, path, 0, 0

    def append(self, d: Diagnostic) -> None:
        if self.kept < MAX_WARNINGS_PER_FILE:
            self.out.append(d)
            self.kept += 1
        else:
            self.dropped += 1

    def close(self) -> None:
        if self.dropped:
            self.out.append(Diagnostic(self.path, 0, f"{self.dropped:,} more warnings in this file not shown"))


def _lines(text: str):
    """The lines of ``text`` one at a time (``\\n``, ``\\r\\n`` or ``\\r``): no list of millions of strings."""
    pos = 0
    for m in _EOL.finditer(text):
        yield text[pos:m.start()]
        pos = m.end()
    if pos < len(text):
        yield text[pos:]


def decode(data: bytes, path: str) -> str:
    if b"\x00" in data[:8192]:
        raise InputError("not an LDraw file (binary data)", file=path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _parse_colour(tok: str) -> int:
    """A colour token to a code; ValueError when it is no number, OverflowError when out of range."""
    t = tok.lower()
    if len(t) > 12:
        raise OverflowError(tok)
    if t.startswith("0x"):
        v = int(t, 16)
    elif t.startswith("#"):
        v = int(t[1:], 16)
        if v > 0xFFFFFF:
            raise OverflowError(tok)
        v |= 0x2000000
    else:
        v = int(t)
    if not 0 <= v <= MAX_COLOUR:
        raise OverflowError(tok)
    return v


def _colour(tok: str, path: str, lineno: int, diags) -> int | None:
    """The line's colour; None (skip the line) when it is no number, 16 with a warning when out of range."""
    try:
        return _parse_colour(tok)
    except OverflowError:
        diags.append(Diagnostic(path, lineno, f"colour {short(tok, 20)} out of range (colour 16 used)"))
        return 16
    except ValueError:
        diags.append(Diagnostic(path, lineno, f"bad colour {short(tok, 20)} (skipped)"))
        return None


def _floats(toks: list[str]) -> list[float] | None:
    try:
        return list(map(float, toks))
    except ValueError:
        return None


def _bad_coords(vals: list[float]) -> bool:
    """Any value not finite or beyond ``MAX_COORD``: C-level sum, min and max instead of a test per value (a
    non-finite value makes the sum non-finite; a finite sum can only overflow when some value is beyond the
    limit anyway)."""
    if not vals:
        return False
    if not math.isfinite(sum(vals)):
        return True
    return max(vals) > MAX_COORD or min(vals) < -MAX_COORD


_HEADER_KEYS = ("name:", "author:", "!ldraw_org", "!license", "!category", "!keywords", "!history",
                "!help", "!cmdline", "!theme", "!preview")


def parse_text(text: str, path: str, default_name: str, diagnostics: list[Diagnostic] | None = None,
               strict: bool = False) -> list[LDrawFile]:
    """Parse one physical file; an MPD gives one LDrawFile per ``0 FILE`` block (the first is the main model)."""
    diags = _Capped(diagnostics if diagnostics is not None else [], path)
    files: list[LDrawFile] = []
    cur: LDrawFile | None = None
    in_data = False
    winding_cw = False
    certified: bool | None = None
    invert_next = False
    first_comment = True
    header_done = False
    n_geom = 0
    n_bad = 0
    first_bad = 0
    synth: LDrawFile | None = None  # the open ``0 SYNTH BEGIN`` block: its lines become one hose part
    anchors: dict[str, tuple[float, float, float]] = {}  # hose -> its first point (where the element is placed)
    path_tag = f"{zlib.crc32(path.encode('utf-8', 'replace')):08x}"

    def new_file(name: str) -> LDrawFile:
        nonlocal winding_cw, certified, invert_next, first_comment, header_done, synth
        synth = None
        winding_cw = False
        certified = None
        invert_next = False
        first_comment = True
        header_done = False
        f = LDrawFile(normalize_name(name), path, Header())
        files.append(f)
        return f

    for lineno, raw in enumerate(_lines(text), start=1):
        s = raw.strip()
        if not s:
            continue
        lt = s[0]
        if lt == "0":
            rest = s[1:].strip()
            up = rest.upper()
            if up.startswith("FILE ") or up == "FILE":
                in_data = False
                cur = new_file(rest[4:].strip() or f"{default_name}#{len(files)}")
                continue
            if up.startswith("NOFILE"):
                cur = None
                synth = None
                in_data = False
                continue
            if up.startswith("!DATA"):
                in_data = True
                cur = None
                synth = None
                continue
            if in_data:
                continue
            if cur is None:
                if files:
                    continue  # text between NOFILE and the next FILE is ignored
                cur = new_file(default_name)
            if up.startswith("SYNTH"):
                toks = rest.split()
                if len(toks) >= 2 and toks[1].upper() == "BEGIN" and synth is None:
                    synth = _synth_part(cur, toks, path, path_tag, lineno, diags)
                    files.append(synth)
                elif len(toks) >= 2 and toks[1].upper() == "END":
                    synth = None
                continue
            if up.startswith("BFC"):
                toks = up.split()[1:]
                for t in toks:
                    if t == "CERTIFY":
                        certified = True
                    elif t == "NOCERTIFY":
                        certified = False
                    elif t == "CW":
                        winding_cw = True
                    elif t == "CCW":
                        winding_cw = False
                    elif t == "INVERTNEXT":
                        invert_next = True
                continue
            if up.startswith("STEP"):
                cur.steps.append(lineno)
                continue
            h = cur.header
            low = rest.lower()
            if first_comment and not header_done:
                first_comment = False
                if not low.startswith(_HEADER_KEYS) and not rest.startswith("!"):
                    h.description = rest
                    continue
            if low.startswith("name:"):
                h.name = rest[5:].strip()
            elif low.startswith("!ldraw_org"):
                t = rest.split()[1:] if len(rest.split()) > 1 else []
                if t:
                    h.org_type = t[0].replace("Unofficial_", "").replace("unofficial_", "")
            elif low.startswith("!category"):
                h.category = rest[9:].strip()
            elif low.startswith("!keywords"):
                h.keywords.extend(k.strip() for k in rest[9:].split(",") if k.strip())
            elif low.split(maxsplit=1)[:1] == ["!theme"]:
                h.theme = rest[6:].strip()
            else:
                cur.metas.append((lineno, rest))
            continue
        if in_data:
            continue
        if lt not in "12345":
            n_bad += 1
            first_bad = first_bad or lineno
            diags.append(Diagnostic(path, lineno, "not an LDraw line (skipped)"))
            continue
        if cur is None:
            if files:
                continue
            cur = new_file(default_name)
        header_done = True
        tgt = synth if synth is not None else cur
        if lt == "1":
            toks = s.split(None, 14)
            vals = _floats(toks[2:14]) if len(toks) == 15 else None
            if vals is None:
                n_bad += 1
                first_bad = first_bad or lineno
                diags.append(Diagnostic(path, lineno, "malformed type-1 line (skipped)"))
                invert_next = False
                continue
            if _bad_coords(vals):
                diags.append(Diagnostic(path, lineno, "NaN or absurd coordinates (line rejected)"))
                invert_next = False
                continue
            colour = _colour(toks[1], path, lineno, diags)
            if colour is None:
                invert_next = False
                continue
            ref_name = normalize_name(toks[14])
            if synth is not None:
                anchors.setdefault(synth.name, (vals[0], vals[1], vals[2]))
            if synth is not None and LSYNTH_CONSTRAINT.match(ref_name):
                invert_next = False
                continue
            tgt.refs.append(SubRef(lineno, colour, tuple(vals), ref_name, toks[14].strip(), invert_next))
            invert_next = False
            n_geom += 1
        elif lt == "3" or lt == "4":
            toks = s.split()
            need = 11 if lt == "3" else 14
            vals = _floats(toks[2:need]) if len(toks) >= need else None
            if vals is None:
                n_bad += 1
                first_bad = first_bad or lineno
                diags.append(Diagnostic(path, lineno, f"malformed type-{lt} line (skipped)"))
                continue
            if _bad_coords(vals):
                diags.append(Diagnostic(path, lineno, "NaN or absurd coordinates (line rejected)"))
                continue
            colour = _colour(toks[1], path, lineno, diags)
            if colour is None:
                continue
            rev = winding_cw and certified is not False
            if lt == "3":
                if rev:
                    vals = vals[6:9] + vals[3:6] + vals[0:3]
                tgt.tri.extend(vals)
                tgt.tri_colour.append(colour)
                tgt.tri_line.append(lineno)
            else:
                a, b, c, d = vals[0:3], vals[3:6], vals[6:9], vals[9:12]
                if rev:
                    tgt.tri.extend(c + b + a + d + c + a)
                else:
                    tgt.tri.extend(a + b + c + a + c + d)
                tgt.tri_colour.extend((colour, colour))
                tgt.tri_line.extend((lineno, lineno))
            n_geom += 1
        else:  # 2 and 5: edges and optional lines are not needed for solids, but must be lines ("2 of them" in a
            # README is no edge); told in the user's own files only (the library's are read by the thousand)
            toks = s.split() if strict else ()
            if strict and (len(toks) < (8 if lt == "2" else 14) or _floats(toks[2:3]) is None):
                n_bad += 1
                first_bad = first_bad or lineno
                diags.append(Diagnostic(path, lineno, f"malformed type-{lt} line (skipped)"))
                continue
            n_geom += 1
    diags.close()
    if strict and n_geom == 0 and n_bad:
        raise InputError("not an LDraw file (no LDraw lines)", file=path, line=first_bad)
    if not files:
        files.append(LDrawFile(normalize_name(default_name), path, Header()))
    if anchors:
        _place_hoses(files, anchors)
    for f in files:
        h = f.header
        if not h.category and h.description:
            # LDraw convention: the category is the description's first word (without ~ _ = | prefixes).
            h.category = h.description.lstrip("~_=|").split(" ")[0] if h.description.lstrip("~_=|") else ""
    return files


def _synth_part(cur: LDrawFile, toks: list[str], path: str, tag: str, lineno: int, diags) -> LDrawFile:
    """``0 SYNTH BEGIN TYPE COLOUR``: a part of its own (one element), referenced from ``cur`` at this line.

    LSynth writes the constraint markers (``ls*.dat``) and the synthesized segments inside the block; the
    segments are the hose's geometry, the markers are dropped.
    """
    kind = toks[2].upper()[:40] if len(toks) > 2 else "HOSE"
    colour = 16
    if len(toks) > 3:
        c = _colour(toks[3], path, lineno, diags)
        colour = 16 if c is None else c
    name = f"lsynth~{tag}~{lineno}.dat"
    f = LDrawFile(name, path, Header(description=f"LSynth hose {kind}", name=name, org_type="Part",
                                     category="Hose"), hose=kind)
    cur.refs.append(SubRef(lineno, colour, IDENTITY, name, name, False))
    return f


def _place_hoses(files: list[LDrawFile], anchors: dict[str, tuple[float, float, float]]) -> None:
    """Move each hose element to its first point (not its file's origin), its lines shifted back to match."""
    hoses = {f.name: f for f in files if f.hose and f.name in anchors}
    for parent in files:
        for r in parent.refs:
            hose = hoses.get(r.name)
            if hose is None or r.m != IDENTITY:
                continue
            ax, ay, az = anchors[hose.name]
            r.m = (ax, ay, az) + IDENTITY[3:]
            for sub in hose.refs:
                sub.m = (sub.m[0] - ax, sub.m[1] - ay, sub.m[2] - az) + sub.m[3:]
            hose.tri = [v - (ax, ay, az)[i % 3] for i, v in enumerate(hose.tri)]
