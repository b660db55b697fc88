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
