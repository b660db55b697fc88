"""What a unit stands on: the ground, a wall-walk, a vehicle's deck. Sight and attacks never pair a unit with it
(a guard does not "see" the wall under his feet), and a creation never targets its own riders."""
from __future__ import annotations

import numpy as np

from .units import Unit

TOUCH_LDU = 4.0  # half a plate: the top of what it stands on meets the bottom of its feet


def bbox_arrays(battlefield) -> tuple[np.ndarray, np.ndarray]:
    """(E,3) min and max corners of every element's box, built once per battlefield."""
    cache = getattr(battlefield, "cache", None)
    if cache is not None and "bbox_arrays" in cache:
        return cache["bbox_arrays"]
    els = battlefield.elements
    lo = np.array([e.bbox_min for e in els], dtype=float).reshape(-1, 3)
    hi = np.array([e.bbox_max for e in els], dtype=float).reshape(-1, 3)
    if cache is not None:
        cache["bbox_arrays"] = (lo, hi)
    return lo, hi


def standing_on(battlefield, unit: Unit, tol_ldu: float = TOUCH_LDU) -> set[int]:
    """Elements directly under the unit's feet (what it stands on): never paired with it."""
    if not unit.elements:
        return set()
    ids = unit.sections.get("legs") if unit.is_minifig and unit.sections.get("legs") else unit.elements
    lo, hi = bbox_arrays(battlefield)
    lo_u, hi_u = lo[list(ids)], hi[list(ids)]
    bottom = hi_u[:, 1].max()
    feet = hi_u[:, 1] >= bottom - tol_ldu  # the unit's lowest elements
    flo, fhi = lo_u[feet], hi_u[feet]
    near = np.abs(lo[:, 1] - bottom) <= tol_ldu
    cand = np.nonzero(near)[0]
    if not len(cand):
        return set()
    ov = ((lo[cand, None, 0] < fhi[None, :, 0]) & (hi[cand, None, 0] > flo[None, :, 0]) &
          (lo[cand, None, 2] < fhi[None, :, 2]) & (hi[cand, None, 2] > flo[None, :, 2])).any(axis=1)
    mine = set(unit.elements)
    return {int(i) for i in cand[ov] if int(i) not in mine}


def supported_by(battlefield, unit: Unit) -> set[str]:
    """Names of the units (creations, the ground) the unit stands on."""
    under = standing_on(battlefield, unit)
    if not under:
        return set()
    cache = getattr(battlefield, "cache", None)
    owner = cache.get("unit_owner") if cache is not None else None
    if owner is None:
        owner = np.full(len(battlefield.elements), -1, np.int64)
        for k, t in enumerate(battlefield.units):
            if t.elements:
                owner[np.asarray(t.elements, np.int64)] = k
        if cache is not None:
            cache["unit_owner"] = owner
    ks = {int(k) for k in owner[np.fromiter(under, np.int64)] if k >= 0}
    return {battlefield.units[k].name for k in ks if battlefield.units[k] is not unit}


