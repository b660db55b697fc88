"""Stand-ins for parts the library lacks, by how LDraw numbers parts.

An LDraw part number is the mould's number, then a variant letter (``3023b``: a later mould of the 1 x 2 plate),
then a print code (``3626bp4m``: a head with a printed face); Studio and older files name variants and prints the
library never got. Their shape is the base number's, so brikscan draws and judges them as it, with a warning,
rather than leave a hole that splits the build (a baseplate under a town, a plate holding a wing).
"""
from __future__ import annotations

import re

_NUMBER = re.compile(r"^(?P<number>\d{3,})(?P<variant>[a-z]?)(?P<print>p[0-9a-z]{2,4})?\.dat$", re.IGNORECASE)


def stand_in_candidates(name: str) -> list[str]:
    """Parts to try, in order, for the missing part ``name``: without its print code, then without its variant
    letter, then the first variant (``a``). Nothing for a name that is no LDraw part number (``4111802.dat``, an
    element number; ``s/…`` subparts; custom names)."""
    m = _NUMBER.match(name.replace("\\", "/"))
    if not m or not (m["variant"] or m["print"]):
        return []
    number, variant = m["number"], m["variant"]
    out = [f"{number}{variant}.dat"] if m["print"] and variant else []
    out.append(f"{number}.dat")
    if variant.lower() != "a":
        out.append(f"{number}a.dat")
    return out
