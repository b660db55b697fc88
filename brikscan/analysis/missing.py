"""What a missing part may have held together.

A part the library lacks has no geometry and no connectors, so whatever it joined comes apart into separate
creations (6907's two jet pods, held by an element-numbered part no library has, became two 3 CP "vehicles"). The
analysis cannot know the part's shape, so it does not guess a join: it says which creations lie within reach of
the part, with the part's line, so the player reads why the build came apart and can keep it one with an
annotation.
"""
from __future__ import annotations

import numpy as np

from ..errors import Diagnostic, short
from ..geometry.units import LDU_PER_STUD
from .creation import Creation
from .measure import element_boxes

# a part's studs lie within about half the span of a large plate (6 x 12) of its origin, where LDraw parts have
# their centre: farther away a missing part holds nothing we could name
MISSING_REACH_LDU = 6 * LDU_PER_STUD
_STAND_FREE = ("minifig", "creature", "scenery")  # figures, animals and the ground stand apart anyway


def held_by_missing(model, creations: list[Creation], diagnostics: list[Diagnostic]) -> None:
    """For each missing part with two or more creations within ``MISSING_REACH_LDU`` of its origin, built in the
    submodel placement it was placed in, a warning at its line on each smaller one: the missing part may have held
    it to the largest."""
    els = model.elements
    built = [c for c in creations if c.kind not in _STAND_FREE and c.elements]
    if len(built) < 2 or not any(e.missing for e in els):
        return  # (every analysis comes here: no boxes are gathered for a model with no missing part)
    boxes = [element_boxes(model, c.elements) for c in built]
    for e in els:
        if not e.missing:
            continue
        o = np.asarray(e.transform, dtype=float)[:3, 3]
        place = e.refs[:-1]  # the submodel placement it was built in: it can hold only what is built there too
        near = []
        for c, (lo, hi) in zip(built, boxes):
            if place and not any(els[i].refs[:len(place)] == place for i in c.elements):
                continue  # a build the builder placed apart (a jet beside the house the part is missing from)
            d = float(np.linalg.norm(np.maximum(0.0, np.maximum(lo - o, o - hi)), axis=1).min())
            if d <= MISSING_REACH_LDU:
                near.append((d, c))
        if len(near) < 2:
            continue
        main = max(near, key=lambda dc: len(dc[1].elements))[1]
        f, _, ln = e.source.rpartition(":")
        for d, c in sorted(near, key=lambda dc: dc[0]):
            if c is main:
                continue
            diagnostics.append(Diagnostic(
                f, int(ln) if ln.isdigit() else 0,
                f"missing part {short(e.part)} may have held {c.name!r} ({len(c.elements)} elements, {d:.0f} LDU "
                f"from the part's origin) to {main.name!r}: without its shape they are separate creations (one "
                "submodel with a `0 !BRIKSCAN CREATION` line keeps its pieces one creation)"))
