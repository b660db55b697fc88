"""Target Size on a battlefield: only the visible Structural part of a creation counts [000 §5.1 Target Size].

"Targeting a Creation for General Damage ... the attacker just has to be able to target any part of its central
Structure" and gets +1 per 2" of it [000 §7.2 Taking Damage]; antennas, cannons and wheels in view add nothing.
The visible Structural elements are measured exactly as the stat card measures Size (the analysis' ``measure``),
so a creation seen whole gets its stat card's Size. With no Structure in view the visible area is compared with
2x4 / 2x2 / 1x1 studs (a Component Damage shot on a small part).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..analysis.measure import element_boxes
from ..rules.formulas import round_size
from .support import bbox_arrays

MEASURE_MAX_ELEMENTS = 64  # above this, the visible Structure is measured on a principal-axes box (fast)
SCENERY_KINDS = ("scenery",)  # creation kinds that are the table, not a target (base plates, stands)
NOT_TARGET_SIZE_KINDS = ("minifig",) + SCENERY_KINDS


@dataclass
class ElementInfo:
    """Per battlefield element: its placement, its index in that placement's analysis, Structural or not."""

    placement: np.ndarray  # (N,) int, -1 none
    local: np.ndarray  # (N,) int
    structural: np.ndarray  # (N,) bool: a Structural element of a creation (not a minifig, not scenery)
    scenery: np.ndarray  # (N,) bool: part of a scenery creation


@dataclass
class TargetSize:
    modifier: int
    size_in: float  # measured Size of the visible Structural part (0 with none in view)
    area_studs2: float  # projected visible area (studs²)
    structural: bool  # some Structure is in view
    reason: str


def element_info(battlefield) -> ElementInfo:
    """Which battlefield elements are Structural, from each placement's analysis (built once per battlefield)."""
    cache = getattr(battlefield, "cache", None)
    if cache is not None and "element_info" in cache:
        return cache["element_info"]
    n = len(battlefield.elements)
    info = ElementInfo(np.full(n, -1, np.int64), np.full(n, -1, np.int64), np.zeros(n, bool), np.zeros(n, bool))
    for k, (pl, an) in enumerate(zip(battlefield.placements, battlefield.analyses)):
        base = pl.first_element
        for c in an.creations:
            for i in c.elements:
                g = base + i
                if g >= n:
                    continue
                info.placement[g], info.local[g] = k, i
                role = c.roles.get(i)
                info.structural[g] = (c.kind not in NOT_TARGET_SIZE_KINDS and role is not None
                                      and role.role == "structural")
                info.scenery[g] = c.kind in SCENERY_KINDS
    if cache is not None:
        cache["element_info"] = info
    return info


def is_scenery(battlefield, unit) -> bool:
    """A unit that is only the table: a scenery creation (base plates, display stands, squad plates)."""
    if unit.kind in SCENERY_KINDS:
        return True
    if unit.is_minifig or not unit.elements:
        return False
    info = element_info(battlefield)
    return bool(info.scenery[np.asarray(unit.elements, dtype=np.int64)].all())


def structural_size_in(battlefield, ids: np.ndarray) -> float:
    """Size of some battlefield elements' Structure, measured and rounded as the stat card does (cached)."""
    info = element_info(battlefield)
    ids = np.unique(np.asarray(ids, dtype=np.int64))
    if not len(ids):
        return 0.0
    cache = getattr(battlefield, "cache", None)
    key = ("structural_size", ids.tobytes())
    if cache is not None and key in cache:
        return cache[key]
    best = 0.0
    for k in np.unique(info.placement[ids]):
        if k < 0:
            continue
        local = info.local[ids[info.placement[ids] == k]]
        an = battlefield.analyses[int(k)]
        if len(local) > MEASURE_MAX_ELEMENTS:  # many elements: a principal-axes box round their box corners
            lo, hi = element_boxes(an.model, local)
            corners = np.stack([np.where(np.array(m, bool), hi, lo) for m in np.ndindex(2, 2, 2)], 1).reshape(-1, 3)
            c = corners - corners.mean(axis=0)
            _, _, vt = np.linalg.svd(c[:: max(1, len(c) // 4000)], full_matrices=False)
            measured = float(np.ptp(c @ vt.T, axis=0).max()) / an.ldu_per_inch
        else:
            measured = float(an.measure(local.tolist()))
        # the stat card's Size: measured, then rounded the card's way [000 §7.1 Size]
        best = max(best, float(round_size(measured, an.round_mode, an.rules_table)))
    if cache is not None:
        cache[key] = best
    return best


def _visible_size(battlefield, rules, ids: np.ndarray, bound_in: float) -> float:
    """The visible Structure's Size, measured only when the answer can change the bonus: the whole Structure of a
    creation in view is its stat card's Size; below one step nothing is gained; the box diagonal bounds it."""
    step = rules.target_size.step_in
    if bound_in < step:
        return bound_in
    whole = _whole_structure(battlefield)
    key = ids.tobytes()
    if key in whole:
        return whole[key]
    lo_bound = bound_in / math.sqrt(3.0)  # the longest box edge is at least the diagonal / sqrt(3)
    if math.floor(round(lo_bound) / step) == math.floor(round(bound_in) / step) and lo_bound >= 0.5:
        return float(round(bound_in))  # same bonus either way: no need to measure
    return structural_size_in(battlefield, ids)


def _whole_structure(battlefield) -> dict:
    """Structural element sets of whole creations -> their stat card's Size (the measure is done already)."""
    cache = getattr(battlefield, "cache", None)
    if cache is not None and "whole_structure" in cache:
        return cache["whole_structure"]
    out = {}
    for pl, an in zip(battlefield.placements, battlefield.analyses):
        for c, card in zip(an.creations, an.cards):
            if c.kind in NOT_TARGET_SIZE_KINDS:
                continue
            ids = np.array(sorted(pl.first_element + i for i in c.elements
                                  if c.roles.get(i) is not None and c.roles[i].role == "structural"), np.int64)
            if len(ids):
                out[ids.tobytes()] = float(card.size)
    if cache is not None:
        cache["whole_structure"] = out
    return out


def creation_target_size(battlefield, rules, points: np.ndarray, elements: np.ndarray,
                         view_dir: np.ndarray) -> TargetSize:
    """The Target Size modifier of a creation from its visible sample points and the elements they lie on.

    +1 per 2" of visible Structure; a smaller view compares its area with 2x4 / 2x2 / 1x1 studs; nothing visible
    is firing blind [000 §5.1 Target Size] [000 §5.1 Attack Modifiers]."""
    from .sight import _extent

    lpi = battlefield.ldu_per_inch
    if not len(points):
        return TargetSize(rules.blind.modifier, 0.0, 0.0, False, "not visible: firing blind [000 §5.1]")
    info = element_info(battlefield)
    elements = np.asarray(elements, dtype=np.int64)
    struct = info.structural[np.clip(elements, 0, len(info.structural) - 1)] & (elements >= 0)
    use = points[struct] if struct.any() else points
    _, area = _extent(use, view_dir)
    area_studs2 = area / 400.0
    if not struct.any():
        mod = rules.size_modifier(0.0, area_studs2, True)
        return TargetSize(mod, 0.0, area_studs2, False,
                          f"no Structure in view: {area_studs2:.1f} studs² of other parts [000 §5.1 Target Size]")
    ids = np.unique(elements[struct])
    all_lo, all_hi = bbox_arrays(battlefield)
    lo, hi = all_lo[ids].min(axis=0), all_hi[ids].max(axis=0)
    bound = float(np.linalg.norm(hi - lo)) / lpi  # the measured Size is never longer than the box diagonal
    size_in = _visible_size(battlefield, rules, ids, bound)
    mod = rules.size_modifier(size_in, area_studs2, True)
    how = (f'{size_in:.2f}" of Structure in view' if size_in >= rules.target_size.step_in
           else f'{area_studs2:.1f} studs² of Structure in view')
    return TargetSize(mod, size_in, area_studs2, True, f"{how} [000 §5.1 Target Size]")
