"""Size: the longest dimension of a set of elements, in inches [000 §7.1 Size].

Method: the longest edge of the minimum-volume oriented bounding box of the elements' triangles
(``trimesh.bounds.oriented_bounds`` on the convex hull of their vertices). A wall measures its length, a tower
its height, a sphere its diameter, whichever way the model is turned.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

METHOD = ("longest edge of the minimum-volume oriented bounding box of the elements' triangles "
          "(trimesh.bounds.oriented_bounds on the convex hull of their vertices)")


@dataclass
class SizeMeasure:
    length_ldu: float
    size_in: float
    axis: np.ndarray  # (3,) unit vector along the longest edge, world (LDU) frame
    method: str
    extents_ldu: tuple[float, float, float] = (0.0, 0.0, 0.0)  # all three box edges, longest first

    def to_json(self) -> dict:
        return {"length_ldu": round(self.length_ldu, 3), "size_in": round(self.size_in, 4),
                "axis": [round(float(v), 4) for v in self.axis], "extents_ldu": [round(v, 3) for v in
                                                                                 self.extents_ldu],
                "method": self.method}


def _hull_index(points: np.ndarray) -> np.ndarray:
    """Indices (into the flattened vertex list of ``points``, or of triangles) of the convex hull vertices.

    The OBB of a set equals the OBB of its hull; flat or degenerate sets keep all their points.
    """
    pts = points.reshape(-1, 3).astype(np.float64)
    if len(pts) < 5:
        return np.arange(len(pts))
    try:
        from scipy.spatial import ConvexHull

        return np.asarray(ConvexHull(pts).vertices)
    except Exception:
        return np.arange(len(pts))


def _element_points(model, element_indices, cache: dict | None = None) -> np.ndarray:
    """World hull vertices of every element (hulls computed once per distinct part, reused via ``cache``)."""
    mesh = model.mesh
    cache = {} if cache is None else cache
    chunks = []
    els = [model.elements[i] for i in element_indices]
    # mirrored placements, all at once (one det call per element was a third of a large model's measuring)
    dets = np.linalg.det(np.stack([e.transform[:3, :3] for e in els]).astype(np.float64)) if els else []
    for i, e, det in zip(element_indices, els, dets):
        t = mesh.element_triangles(i)
        if not len(t):
            chunks.append(np.array([e.bbox_min, e.bbox_max], dtype=np.float64))
            continue
        flipped = bool(det < 0)
        key = e.part
        if key not in cache:
            idx = _hull_index(t)
            if flipped:  # store in the unflipped vertex order
                idx = (idx // 3) * 3 + (2 - idx % 3)
            cache[key] = idx
        idx = cache[key]
        if flipped:
            idx = (idx // 3) * 3 + (2 - idx % 3)
        if idx.max(initial=-1) >= len(t) * 3:  # a differently built instance: take all its vertices
            chunks.append(t.reshape(-1, 3))
        else:
            chunks.append(t.reshape(-1, 3)[idx])
    if not chunks:
        return np.zeros((0, 3))
    return np.concatenate(chunks).astype(np.float64)


def measure_points(points: np.ndarray, ldu_per_inch: float) -> SizeMeasure:
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 3)
    if len(pts) == 0:
        return SizeMeasure(0.0, 0.0, np.array([1.0, 0.0, 0.0]), METHOD)
    hull = pts[_hull_index(pts)]
    try:
        from ..geometry.obb import oriented_bounds  # trimesh's box bit for bit, about twice as fast

        to_origin, extents = oriented_bounds(hull)
        rot = np.linalg.inv(to_origin)[:3, :3]
        k = int(np.argmax(extents))
        axis = rot[:, k]
        ext = sorted((float(x) for x in extents), reverse=True)
    except Exception:  # degenerate (all points on a line or one point): fall back to the principal axis
        c = hull - hull.mean(axis=0)
        _, _, vt = np.linalg.svd(c, full_matrices=False) if len(c) > 1 else (None, None, np.eye(3))
        axis = vt[0]
        proj = c @ vt.T if len(c) > 1 else np.zeros((1, 3))
        ext = sorted((float(x) for x in np.ptp(proj, axis=0)), reverse=True) + [0.0] * (3 - proj.shape[1])
    length = ext[0]
    axis = np.asarray(axis, dtype=float)
    if axis[np.argmax(np.abs(axis))] < 0:
        axis = -axis
    return SizeMeasure(length, length / ldu_per_inch, axis, METHOD, tuple(ext[:3]))


def measure_size(model, element_indices, ldu_per_inch: float, cache: dict | None = None) -> SizeMeasure:
    """Longest extent of the elements in inches (``ldu_per_inch``: 63.5 tape-measure inch, 60 stud inch).

    ``cache``: an optional dict reused across calls on the same model (per-part hull vertices).
    """
    idx = [int(i) for i in element_indices]
    return measure_points(_element_points(model, idx, cache), ldu_per_inch)
