"""The one place for "the box of these elements": the axis-aligned box round some elements' boxes.

Every layer above asks it (a creation's footprint, a unit's eyes and feet, a render's frame), so the same
elements give the same box everywhere.
"""
from __future__ import annotations

import numpy as np


def elements_box(elements, ids) -> tuple[np.ndarray, np.ndarray]:
    """(min, max) corners, as float64, of the box round the boxes of ``elements[i]`` for ``i`` in ``ids`` (not
    empty); ``elements`` is any sequence of objects with ``bbox_min`` and ``bbox_max``."""
    lo = np.min([elements[i].bbox_min for i in ids], axis=0)
    hi = np.max([elements[i].bbox_max for i in ids], axis=0)
    return np.asarray(lo, dtype=np.float64), np.asarray(hi, dtype=np.float64)


def box_gaps(lo, hi, other_lo, other_hi) -> np.ndarray:
    """The largest axis gap between boxes (lo, hi) and (other_lo, other_hi), broadcast over their leading axes
    (0 where they touch or overlap): how far apart two pieces are, as every resting and reaching test asks it."""
    return np.maximum(0.0, np.maximum(lo - other_hi, other_lo - hi)).max(axis=-1)
