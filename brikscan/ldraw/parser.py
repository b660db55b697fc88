"""LDraw text into files: line types 0-5, MPD ``0 FILE`` blocks, BFC winding, part headers.

Triangles are stored counter-clockwise in the file's own frame (a ``BFC CW`` block is reversed here), so that
flattening only has to care about mirrored matrices and ``INVERTNEXT``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..errors import Diagnostic, InputError
from .library import normalize_name

MAX_COORD = 1.0e6  # LDU; anything beyond is a corrupt line, not a model (1e6 LDU = 400 m)


@dataclass
class Header:
    description: str = ""
    name: str = ""
    org_type: str = ""  # Part, Subpart, Primitive, Model, Shortcut, ... from !LDRAW_ORG (unofficial prefix removed)
    category: str = ""
    keywords: list[str] = field(default_factory=list)


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

    @property
    def has_geometry(self) -> bool:
        return bool(self.tri_colour)


def decode(data: bytes, path: str) -> str:
    if b"\x00" in data[:8192]:
        raise InputError("not an LDraw file (binary data)", file=path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _parse_colour(tok: str) -> int:
    t = tok.lower()
    if t.startswith("0x"):
        return int(t, 16)
    if t.startswith("#"):
        return 0x2000000 | int(t[1:], 16)
    return int(t)


def _floats(toks: list[str]) -> list[float] | None:
    try:
        vals = [float(t) for t in toks]
    except ValueError:
        return None
    return vals


def _bad_coords(vals: list[float]) -> bool:
    return any(not math.isfinite(v) or abs(v) > MAX_COORD for v in vals)


_HEADER_KEYS = ("name:", "author:", "!ldraw_org", "!license", "!category", "!keywords", "!history",
                "!help", "!cmdline", "!theme", "!preview")


def parse_text(text: str, path: str, default_name: str, diagnostics: list[Diagnostic] | None = None,
               strict: bool = False) -> list[LDrawFile]:
    """Parse one physical file; an MPD gives one LDrawFile per ``0 FILE`` block (the first is the main model)."""
    diags = diagnostics if diagnostics is not None else []
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

    def new_file(name: str) -> LDrawFile:
        nonlocal winding_cw, certified, invert_next, first_comment, header_done
        winding_cw = False
        certified = None
        invert_next = False
        first_comment = True
        header_done = False
        f = LDrawFile(normalize_name(name), path, Header())
        files.append(f)
        return f

    for lineno, raw in enumerate(text.splitlines(), start=1):
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
                in_data = False
                continue
            if up.startswith("!DATA"):
                in_data = True
                cur = None
                continue
            if in_data:
                continue
            if cur is None:
                if files:
                    continue  # text between NOFILE and the next FILE is ignored
                cur = new_file(default_name)
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
            try:
                colour = _parse_colour(toks[1])
            except ValueError:
                diags.append(Diagnostic(path, lineno, f"bad colour {toks[1]!r} (skipped)"))
                invert_next = False
                continue
            cur.refs.append(SubRef(lineno, colour, tuple(vals), normalize_name(toks[14]), toks[14].strip(),
                                   invert_next))
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
            try:
                colour = _parse_colour(toks[1])
            except ValueError:
                diags.append(Diagnostic(path, lineno, f"bad colour {toks[1]!r} (skipped)"))
                continue
            rev = winding_cw and certified is not False
            if lt == "3":
                if rev:
                    vals = vals[6:9] + vals[3:6] + vals[0:3]
                cur.tri.extend(vals)
                cur.tri_colour.append(colour)
                cur.tri_line.append(lineno)
            else:
                a, b, c, d = vals[0:3], vals[3:6], vals[6:9], vals[9:12]
                if rev:
                    cur.tri.extend(c + b + a + d + c + a)
                else:
                    cur.tri.extend(a + b + c + a + c + d)
                cur.tri_colour.extend((colour, colour))
                cur.tri_line.extend((lineno, lineno))
            n_geom += 1
        else:  # 2 and 5: edges and optional lines are not needed for solids
            n_geom += 1
    if strict and n_geom == 0 and n_bad:
        raise InputError("not an LDraw file (no LDraw lines)", file=path, line=first_bad)
    if not files:
        files.append(LDrawFile(normalize_name(default_name), path, Header()))
    for f in files:
        h = f.header
        if not h.category and h.description:
            # LDraw convention: the category is the description's first word (without ~ _ = | prefixes).
            h.category = h.description.lstrip("~_=|").split(" ")[0] if h.description.lstrip("~_=|") else ""
    return files

