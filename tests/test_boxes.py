"""The one box of some elements (brikscan/geometry/boxes.py) that every layer asks."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np


def test_the_box_of_some_elements_holds_exactly_their_boxes():
    from brikscan.geometry.boxes import elements_box

    els = [SimpleNamespace(bbox_min=np.array(lo, dtype=np.float32), bbox_max=np.array(hi, dtype=np.float32))
           for lo, hi in (((0, 0, 0), (20, 24, 40)), ((-10, -8, 5), (5, 0, 10)), ((100, 100, 100), (120, 124, 140)))]
    lo, hi = elements_box(els, [0, 1])
    assert lo.tolist() == [-10, -8, 0] and hi.tolist() == [20, 24, 40]  # the third element is not asked
    assert lo.dtype == np.float64 and hi.dtype == np.float64
    lo, hi = elements_box(els, range(3))
    assert lo.tolist() == [-10, -8, 0] and hi.tolist() == [120, 124, 140]


def test_the_gap_between_boxes_is_their_widest_axis_gap_and_zero_where_they_touch():
    from brikscan.geometry.boxes import box_gaps

    lo, hi = np.array([0.0, 0, 0]), np.array([20.0, 24, 20])
    assert box_gaps(lo, hi, np.array([30.0, 0, 0]), np.array([50.0, 24, 20])) == 10  # 10 LDU apart along x
    assert box_gaps(lo, hi, np.array([25.0, 30, 0]), np.array([50.0, 40, 20])) == 6  # 5 on x, 6 on y: the wider
    assert box_gaps(lo, hi, np.array([20.0, 24, 20]), np.array([40.0, 48, 40])) == 0  # corner to corner: touching
    assert box_gaps(lo, hi, np.array([5.0, 5, 5]), np.array([10.0, 10, 10])) == 0  # inside: overlapping
    many_lo = np.array([[30.0, 0, 0], [0, -40, 0]])
    many_hi = np.array([[50.0, 24, 20], [20, -30, 20]])
    assert box_gaps(many_lo, many_hi, lo, hi).tolist() == [10, 30]  # one gap per box, either order
    assert box_gaps(lo, hi, many_lo, many_hi).tolist() == [10, 30]
