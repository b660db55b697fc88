"""Size: the longest dimension of a set of elements, in inches [000 §7.1 Size].

Method: the longest edge of the minimum-volume oriented bounding box of the elements' triangles
(``trimesh.bounds.oriented_bounds`` on the convex hull of their vertices). A wall measures its length, a tower
its height, a sphere its diameter, whichever way the model is turned.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..geometry.boxes import box_gaps

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


def _part_hull_index(t: np.ndarray) -> np.ndarray:
    """``_hull_index(t)`` of a part's first placed instance, remembered on disk by ``t``'s bytes (part_memo)."""
    from .part_memo import remembered

    if len(t) * 3 < 5:
        return _hull_index(t)
    return remembered("hull", __name__, (t,), (), lambda: _hull_index(t), libraries=("scipy",))


def _element_points(model, element_indices, cache: dict | None = None) -> np.ndarray:
    """World hull vertices of every element (hulls computed once per distinct part, reused via ``cache``).

    Each element gives its part's hull vertices (an element without faces: its box corners; a differently built
    instance: all its vertices), in element order. Gathered with one index per vertex instead of a slice and a
    copy per element (the same points in the same order; tests/test_speed_equivalents.py keeps the loop)."""
    mesh = model.mesh
    cache = {} if cache is None else cache
    if not (hasattr(mesh, "triangles") and hasattr(mesh, "element_offsets")):
        return _element_points_each(model, element_indices, cache)  # a mesh that only answers per element
    els = [model.elements[i] for i in element_indices]
    if not els:
        return np.zeros((0, 3))
    # mirrored placements, all at once (one det call per element was a third of a large model's measuring)
    dets = np.linalg.det(np.stack([e.transform[:3, :3] for e in els]).astype(np.float64))
    off = np.asarray(mesh.element_offsets, dtype=np.int64)
    ids = np.asarray(element_indices, dtype=np.int64)
    start, n_tri = off[ids], off[ids + 1] - off[ids]
    flipped = dets < 0
    for k, e in enumerate(els):  # the first instance with faces of each part not yet in the cache gives its hull
        if n_tri[k] and e.part not in cache:
            t = mesh.triangles[start[k]:start[k] + n_tri[k]]
            idx = _part_hull_index(t)
            if flipped[k]:  # store in the unflipped vertex order
                idx = (idx // 3) * 3 + (2 - idx % 3)
            cache[e.part] = idx
    verts = mesh.triangles.reshape(-1, 3)
    sizes = np.empty(len(els), dtype=np.int64)
    plan = []  # (element position, kind, vertex indices relative to the element's first vertex)
    flip_of: dict[int, np.ndarray] = {}
    for k, e in enumerate(els):
        if not n_tri[k]:
            plan.append((k, "box", None))
            sizes[k] = 2
            continue
        idx = cache[e.part]
        if flipped[k]:
            f = flip_of.get(id(idx))
            if f is None:
                f = flip_of[id(idx)] = (idx // 3) * 3 + (2 - idx % 3)
            idx = f
        if idx.max(initial=-1) >= n_tri[k] * 3:  # a differently built instance: take all its vertices
            plan.append((k, "all", None))
            sizes[k] = n_tri[k] * 3
        else:
            plan.append((k, "hull", idx))
            sizes[k] = len(idx)
    pos = np.zeros(len(els) + 1, dtype=np.int64)
    np.cumsum(sizes, out=pos[1:])
    src = np.empty(int(pos[-1]), dtype=np.int64)  # the vertex each output row comes from (-1: a box corner)
    groups: dict[int, tuple[np.ndarray, list[int]]] = {}
    for k, kind, idx in plan:
        if kind == "hull":
            groups.setdefault(id(idx), (idx, []))[1].append(k)
        elif kind == "all":
            src[pos[k]:pos[k + 1]] = np.arange(start[k] * 3, (start[k] + n_tri[k]) * 3)
        else:
            src[pos[k]:pos[k + 1]] = -1
    for idx, ks in groups.values():  # every element of one part (and flip) at once
        ka = np.asarray(ks, dtype=np.int64)
        rows = pos[ka][:, None] + np.arange(len(idx))
        src[rows] = (start[ka] * 3)[:, None] + np.asarray(idx, dtype=np.int64)[None, :]
    out = np.empty((len(src), 3), dtype=np.float64)
    real = src >= 0
    out[real] = verts[src[real]]
    for k, kind, _ in plan:
        if kind == "box":
            e = els[k]
            out[pos[k]:pos[k + 1]] = np.array([e.bbox_min, e.bbox_max], dtype=np.float64)
    return out


def _element_points_each(model, element_indices, cache: dict) -> np.ndarray:
    """``_element_points`` one element at a time, for meshes that only give ``element_triangles(i)``."""
    chunks = []
    els = [model.elements[i] for i in element_indices]
    dets = np.linalg.det(np.stack([e.transform[:3, :3] for e in els]).astype(np.float64)) if els else []
    for i, e, det in zip(element_indices, els, dets):
        t = model.mesh.element_triangles(i)
        if not len(t):
            chunks.append(np.array([e.bbox_min, e.bbox_max], dtype=np.float64))
            continue
        flipped = bool(det < 0)
        if e.part not in cache:
            idx = _part_hull_index(t)
            cache[e.part] = (idx // 3) * 3 + (2 - idx % 3) if flipped else idx  # stored unflipped
        idx = cache[e.part]
        if flipped:
            idx = (idx // 3) * 3 + (2 - idx % 3)
        chunks.append(t.reshape(-1, 3) if idx.max(initial=-1) >= len(t) * 3 else t.reshape(-1, 3)[idx])
    if not chunks:
        return np.zeros((0, 3))
    return np.concatenate(chunks).astype(np.float64)


def element_boxes(model, idx) -> tuple[np.ndarray, np.ndarray]:
    """(N, 3) minima and maxima of the boxes of elements ``idx``, in that order (rows of the model's one box
    table, ``Model.element_boxes``; an object with only ``elements`` gets them built)."""
    table = getattr(model, "element_boxes", None)
    ix = np.fromiter((int(i) for i in idx), dtype=np.int64)
    if callable(table):
        lo, hi = table()
        return lo[ix], hi[ix]
    lo = np.array([model.elements[i].bbox_min for i in ix], dtype=float).reshape(-1, 3)
    hi = np.array([model.elements[i].bbox_max for i in ix], dtype=float).reshape(-1, 3)
    return lo, hi


def box_gap(a, b) -> float:
    """The largest axis gap between two elements' boxes (0 where they touch or overlap)."""
    return float(box_gaps(a.bbox_min, a.bbox_max, b.bbox_min, b.bbox_max))


def box_volume(element) -> float:
    """The volume of an element's box: how bulky a piece is next to another (a mount against what it carries)."""
    return float(np.prod(element.bbox_max - element.bbox_min))


def import_box_library() -> None:
    """Import the library the oriented box comes from now, while a child process does other work."""
    from ..geometry.obb import import_backend

    import_backend()


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
