"""The oriented bounding box of a point set: ``trimesh.bounds.oriented_bounds``' answer, bit for bit, faster.

trimesh tries every distinct hull face normal in a Python loop (about 160 for a minifig's bow, 27 ms). Here all the
candidates are scored at once with numpy; only the few whose volume is within a hair of the smallest are scored
again by trimesh's own per-normal steps, in trimesh's order, so the winner (the first with the smallest volume, as
trimesh's loop keeps it) and everything computed from it are exactly trimesh's. A weapon's barrel and a creation's
Size depend on this box, and a near-symmetric part (a bow) swings with the smallest differences, so "about the same
box" would not do. Anything unusual (a flat hull, an empty silhouette, another trimesh) is left to trimesh.
"""
from __future__ import annotations

import numpy as np

TIE_REL = 1e-7  # candidates this close to the smallest volume are scored again exactly (rounding is ~1e-15)
BLOCK_CELLS = 4_000_000  # (candidate, edge, edge) cells scored at once: about 32 MB an array


def import_backend() -> None:
    """Import trimesh (about half a second of a fresh process) at a moment the caller chooses."""
    import trimesh  # noqa: F401
    from trimesh import bounds, transformations  # noqa: F401


def oriented_bounds(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(to_origin (4,4), extents (3,)) of ``points`` (N,3), as ``trimesh.bounds.oriented_bounds(points)``."""
    import trimesh
    from trimesh import bounds, transformations

    pts = np.asarray(points, dtype=np.float64)
    if not trimesh.__version__.startswith("5.") or pts.ndim != 2 or pts.shape[1] != 3:
        return bounds.oriented_bounds(pts)
    try:
        hull = trimesh.convex.convex_hull(pts, repair=True)
        prepared = _candidates(hull)
    except Exception:  # a flat or degenerate hull: trimesh's own recovery
        return bounds.oriented_bounds(pts)
    if prepared is None:
        return bounds.oriented_bounds(pts)
    vertices, hull_adj, hull_edge, hull_normals, spherical, normals = prepared
    approx = _volumes(vertices, hull_adj, hull_edge, hull_normals, normals)
    if approx is None:
        return bounds.oriented_bounds(pts)
    vmin = float(approx.min())
    near = np.flatnonzero(approx <= vmin + TIE_REL * abs(vmin) + 1e-12)
    min_volume, min_2D = np.inf, None
    for k in near:  # trimesh's loop body, on the candidates that can win, in its order
        to_2D = transformations.spherical_matrix(*spherical[k]).T
        volume = _exact_volume(vertices, hull_adj, hull_edge, hull_normals, normals[k], to_2D)
        if volume is None:
            return bounds.oriented_bounds(pts)
        if volume < min_volume:
            min_volume, min_2D = volume, to_2D
    if min_2D is None:
        return bounds.oriented_bounds(pts)
    return _finish(vertices, min_2D)


def _candidates(hull):
    """trimesh's candidate directions: the distinct hull normals on the upper hemisphere (spherical, unit)."""
    from trimesh import grouping, util

    vertices = hull.vertices
    hull_adj = hull.face_adjacency.T
    hull_edge = hull.face_adjacency_edges
    hull_normals = hull.face_normals
    spherical_coords = util.vector_to_spherical(util.vector_hemisphere(hull_normals))
    spherical_unique = grouping.unique_rows(spherical_coords, digits=1)[0]
    if not len(spherical_unique):
        return None
    spherical = spherical_coords[spherical_unique]
    normals = np.asarray(util.spherical_to_vector(spherical), dtype=np.float64)
    return vertices, hull_adj, hull_edge, hull_normals, spherical, normals


def _volumes(vertices, hull_adj, hull_edge, hull_normals, normals) -> np.ndarray | None:
    """Every candidate's box volume at once, to rounding (None: leave it to trimesh).

    trimesh projects on a rotation taking the normal to +Z; the box's area in that plane does not depend on how
    the plane is turned, so any orthonormal pair across the normal gives the same volume."""
    v = np.asarray(vertices, dtype=np.float64)
    n = normals / np.linalg.norm(normals, axis=1, keepdims=True)
    helper = np.where(np.abs(n[:, :1]) < 0.9, [[1.0, 0.0, 0.0]], [[0.0, 1.0, 0.0]])
    u = np.cross(n, helper)
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    w = np.cross(n, u)
    side = (np.asarray(hull_normals) @ normals.T).T > -1e-10  # (K,F) faces towards each normal
    sil = side[:, hull_adj[0]] ^ side[:, hull_adj[1]]  # (K,A) silhouette edges
    count = sil.sum(axis=1)
    has_side = side.any(axis=1)
    if not has_side.any() or np.any(has_side & (count == 0)):
        return None  # trimesh would fail on an empty silhouette
    height = np.ptp(v @ n.T, axis=0)  # (K,)
    px, py = v @ u.T, v @ w.T  # (V,K) the hull in each candidate's plane
    emax = int(count.max())
    order = np.argsort(~sil, axis=1, kind="stable")[:, :emax]  # the silhouette edges first
    valid = np.arange(emax)[None, :] < count[:, None]
    ev = np.asarray(hull_edge)[order]  # (K,E,2) vertex indices
    kk = np.arange(len(n))[:, None]
    x0, y0 = px[ev[:, :, 0], kk], py[ev[:, :, 0], kk]  # (K,E)
    dx, dy = px[ev[:, :, 1], kk] - x0, py[ev[:, :, 1], kk] - y0
    norm = np.sqrt(dx * dx + dy * dy)
    rows = valid & (norm > 1e-10)
    if np.any(has_side & ~rows.any(axis=1)):
        return None
    safe = np.where(rows, norm, 1.0)
    ex, ey = dx / safe, dy / safe
    # padding repeats each candidate's first edge start (a repeat moves no maximum or minimum)
    x0, y0 = np.where(valid, x0, x0[:, :1]), np.where(valid, y0, y0[:, :1])
    # every edge start on every edge direction (x) and across it (y): (K,E,E), a block of candidates at a time so
    # that a big curved hull (a rail oval: hundreds of candidates and silhouette edges) stays within memory
    area = np.empty(len(n))
    step = max(1, BLOCK_CELLS // max(1, emax * emax))
    for a in range(0, len(n), step):
        b = slice(a, a + step)
        x = ex[b, :, None] * x0[b, None, :] + ey[b, :, None] * y0[b, None, :]
        y = ex[b, :, None] * y0[b, None, :] - ey[b, :, None] * x0[b, None, :]
        span = (x.max(axis=2) - x.min(axis=2)) * (y.max(axis=2) - y.min(axis=2))
        area[b] = np.where(rows[b], span, np.inf).min(axis=1)
    volume = np.where(has_side, area * height, np.inf)
    if not np.all(np.isfinite(volume[has_side])):
        return None
    return volume


def _exact_volume(vertices, hull_adj, hull_edge, hull_normals, normal, to_2D) -> float | None:
    """One candidate's volume exactly as trimesh 5's loop computes it (inf: trimesh skips it)."""
    side = np.dot(hull_normals, normal) > -1e-10
    if not side.any():
        return np.inf
    edges = hull_edge[np.bitwise_xor(*side[hull_adj])]
    projected = np.dot(to_2D[:3, :3], vertices.T).T[:, :3]
    edge_vert = projected[:, :2][edges]
    edge_vectors = edge_vert[:, 1, :] - edge_vert[:, 0, :]
    edge_norm = np.sqrt(np.dot(edge_vectors**2, [1, 1]))
    edge_nonzero = edge_norm > 1e-10
    edge_vectors = edge_vectors[edge_nonzero] / edge_norm[edge_nonzero].reshape((-1, 1))
    perp_vectors = np.fliplr(edge_vectors) * [-1.0, 1.0]
    x = np.dot(edge_vectors, edge_vert[:, 0, :2].T)
    y = np.dot(perp_vectors, edge_vert[:, 0, :2].T)
    if not x.size:
        return None
    area = ((x.max(axis=1) - x.min(axis=1)) * (y.max(axis=1) - y.min(axis=1))).min()
    return area * np.ptp(projected[:, 2])


def _finish(vertices, min_2D) -> tuple[np.ndarray, np.ndarray]:
    """trimesh 5's bookkeeping after the search: the box in the winning frame, its centre, ordered extents."""
    from trimesh import transformations
    from trimesh.bounds import oriented_bounds_2D

    vert_ones = np.column_stack((vertices, np.ones(len(vertices)))).T
    projected = np.dot(min_2D, vert_ones).T[:, :3]
    height = np.ptp(projected[:, 2])
    rotation_2D, box = oriented_bounds_2D(projected[:, :2])
    min_extents = np.append(box, height)
    rotation_2D[:2, 2] = 0.0
    rotation_Z = transformations.planar_matrix_to_3D(rotation_2D)
    to_origin = np.dot(rotation_Z, min_2D)
    transformed = transformations.transform_points(vertices, to_origin)
    box_center = transformed.min(axis=0) + np.ptp(transformed, axis=0) * 0.5
    to_origin[:3, 3] = -box_center
    order = min_extents.argsort()
    flip = np.eye(4)
    flip[:3, :3] = -np.eye(3)[order]
    if not np.isclose(np.linalg.det(flip[:3, :3]), 1.0):
        flip[:3, :3] = np.dot(flip[:3, :3], -np.eye(3))
    to_origin = np.dot(flip, to_origin)
    return to_origin, min_extents[order]
