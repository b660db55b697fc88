"""LDraw part numbers: a mould's number, a variant letter, a print or sticker code (``3626bp4m``: a head of the
second mould with a printed face; ``3001d01``: a brick with a sticker).

Studio and older files name variants and prints the library never got. Their shape is the mould's, so brikscan
draws and judges a missing one as the nearest part of its number the library has, with a warning, rather than
leave a hole that splits the build (a base plate under a town, a plate holding a wing).
"""
from __future__ import annotations

import re
from string import ascii_lowercase

PART_BASE = re.compile(r"\d+[a-z]?")  # a mould's number and its variant letter
PRINT_SUFFIX = re.compile(r"(?:p[a-z0-9]{2,5}|pr\d{2,5}[a-z]?|d[a-z0-9]{2,3})")  # a print or a sticker code
_MIN_DIGITS = 3  # LDraw's part numbers are three digits or more: "12.dat" is no catalogued mould


def printed_bases(stem: str) -> list[str]:
    """The part numbers ``stem`` may be a print or sticker of ("973pd12" -> "973"; "3626bp4m" -> "3626b"), from
    the longest split."""
    return [stem[:k] for k in range(len(stem) - 2, 0, -1)
            if PART_BASE.fullmatch(stem[:k]) and PRINT_SUFFIX.fullmatch(stem[k:])]


def stand_in_candidates(name: str) -> list[tuple[str, str]]:
    """(part, how it stands in) to try, in order, for the missing part ``name``: the part without its print,
    then the mould's number without its variant, then its earlier variants (``2313c``: ``2313b``, ``2313a``).
    Nothing for a name that is no LDraw part number (``4111802.dat``, an element number, has no variant or
    print; ``s/…`` subparts; custom names)."""
    low = name.replace("\\", "/").lower()
    if not low.endswith(".dat") or "/" in low:
        return []
    stem = low[:-4]
    bases = printed_bases(stem) or ([stem] if PART_BASE.fullmatch(stem) else [])
    out: list[tuple[str, str]] = []
    for base in bases:
        number = base.rstrip(ascii_lowercase)
        if len(number) < _MIN_DIGITS:
            continue
        variant = base[len(number):]
        if base != stem:
            out.append((base, "the part without its print"))
        if variant:
            out.append((number, "the mould's number without its variant"))
            out.extend((number + v, "an earlier variant of the mould") for v in
                       ascii_lowercase[:ascii_lowercase.index(variant)][::-1])
    seen: set[str] = set()
    return [(f"{p}.dat", why) for p, why in out if p != stem and not (p in seen or seen.add(p))]
