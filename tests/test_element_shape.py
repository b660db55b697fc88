"""The element tests every judging step shares (brikscan/analysis/element_shape.py)."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np


def _boxes(*spans):
    return SimpleNamespace(elements=[SimpleNamespace(bbox_min=np.array([x0, 0.0, 0.0]),
                                                     bbox_max=np.array([x1, 20.0, 20.0])) for x0, x1 in spans])


def test_a_pod_grows_through_touching_pieces_only_whatever_their_order():
    """A pod grows from its nozzle through pieces touching what it has grown so far (within the gap), however the
    candidates are listed; a piece that touches nothing of it stays out, even if it touches another outsider."""
    from brikscan.analysis.element_shape import POD_GAP_LDU, _grown_from

    # 0 the nozzle; 1, 2, 3 a row end to end (3 touches only 2); 4 and 5 touch each other, 30 LDU past the row
    model = _boxes((0, 20), (21, 40), (40, 60), (60, 80), (110, 130), (130, 150))
    assert POD_GAP_LDU >= 1
    for line in ([1, 2, 3, 4, 5], [5, 4, 3, 2, 1], [3, 5, 1, 4, 2]):
        assert _grown_from(model, 0, line) == {0, 1, 2, 3}
    assert _grown_from(model, 0, [2, 3]) == {0}  # 1 is not a candidate: 2 and 3 cannot be reached
    assert _grown_from(model, 0, [1, 3], gap=25) == {0, 1, 3}  # 3 lies 20 from 1: within a wider gap
