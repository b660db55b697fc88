"""The oriented bounding box of a point set: ``trimesh.bounds.oriented_bounds``' answer, bit for bit, faster.

trimesh tries every distinct hull face normal in a Python loop (about 160 for a minifig's bow, 27 ms). Here all the
candidates are scored at once with numpy; only the few whose volume is within a hair of the smallest are scored
again by trimesh's own per-normal steps, in trimesh's order, so the winner (the first with the smallest volume, as
trimesh's loop keeps it) and everything computed from it are exactly trimesh's. A weapon's barrel and a creation's
Size depend on this box, and a near-symmetric part (a bow) swings with the smallest differences, so "about the same
box" would not do.

Importing trimesh is half a second of a fresh process (its scipy.optimize, voxel and creation modules), more than a
small model's whole judging, so the usual case does not import it: the hull comes from scipy's qhull with the options
and the clean-up ``trimesh.convex.convex_hull`` applies, and the few trimesh helpers the search uses are restated
below from trimesh 5 (MIT licence, Michael Dawson-Haggerty; ``euler_matrix`` after Christoph Gohlke's
transformations.py, BSD). ``tests/test_obb.py`` holds the answer to trimesh's own, bit for bit. Anything unusual (qhull
failing, vertices trimesh would merge, a hull whose winding trimesh would repair, a flat hull, an empty silhouette,
another trimesh) is left to trimesh itself.
"""
from __future__ import annotations

from functools import cache

import numpy as np

TIE_REL = 1e-7  # candidates this close to the smallest volume are scored again exactly (rounding is ~1e-15)
BLOCK_CELLS = 4_000_000  # (candidate, edge, edge) cells scored at once: about 32 MB an array
TRIMESH_MAJOR = "5."  # the trimesh whose steps are restated here; another one answers for itself
_QHULL_OPTIONS = "QbB Pp Qt"  # trimesh.convex's default
_TOL_ZERO, _TOL_MERGE, _MERGE_DIGITS = 1e-13, 1e-8, 8  # trimesh.util.TOL_ZERO, TOL_MERGE; tol.merge as digits


def import_backend() -> None:
    """Import the hull library (scipy's qhull, a third of a second of a fresh process) at a moment the caller
    chooses."""
    from scipy.spatial import ConvexHull  # noqa: F401  (imported for its side effect: loaded now)


def _trimesh_oriented_bounds(pts: np.ndarray):
    import trimesh

    return trimesh.bounds.oriented_bounds(pts)


@cache
def _trimesh_is_v5() -> bool:
    """The installed trimesh's major version, read without importing it."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("trimesh").startswith(TRIMESH_MAJOR)
    except PackageNotFoundError:
        return False


def oriented_bounds(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(to_origin (4,4), extents (3,)) of ``points`` (N,3), as ``trimesh.bounds.oriented_bounds(points)``."""
    pts = np.asarray(points, dtype=np.float64)
    if not _trimesh_is_v5() or pts.ndim != 2 or pts.shape[1] != 3:
        return _trimesh_oriented_bounds(pts)
    if len(pts) < 3:  # trimesh raises for these too (qhull needs 4 points, its flat fallback 3): no import for it
        raise ValueError(f"no oriented box of {len(pts)} points")
    try:
        hull = _convex_hull(pts)
        prepared = _candidates(*hull) if hull is not None else None
    except Exception:  # a flat or degenerate hull: trimesh's own recovery
        return _trimesh_oriented_bounds(pts)
    if prepared is None:
        return _trimesh_oriented_bounds(pts)
    vertices, hull_adj, hull_edge, hull_normals, spherical, normals = prepared
    approx = _volumes(vertices, hull_adj, hull_edge, hull_normals, normals)
    if approx is None:
        return _trimesh_oriented_bounds(pts)
    vmin = float(approx.min())
    near = np.flatnonzero(approx <= vmin + TIE_REL * abs(vmin) + 1e-12)
    min_volume, min_2D = np.inf, None
    for k in near:  # trimesh's loop body, on the candidates that can win, in its order
        to_2D = _euler_matrix(0.0, spherical[k][1], spherical[k][0]).T  # transformations.spherical_matrix
        volume = _exact_volume(vertices, hull_adj, hull_edge, hull_normals, normals[k], to_2D)
        if volume is None:
            return _trimesh_oriented_bounds(pts)
        if volume < min_volume:
            min_volume, min_2D = volume, to_2D
    if min_2D is None:
        return _trimesh_oriented_bounds(pts)
    return _finish(vertices, min_2D)


def _unitize(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """trimesh.util.unitize(vectors, check_valid=True) for (m, 3) rows: (the valid unit rows, which are valid)."""
    norm = np.sqrt(np.dot(vectors * vectors, [1.0] * vectors.shape[1]))
    valid = norm > _TOL_ZERO
    norm[valid] **= -1
    return (vectors * norm.reshape((-1, 1)))[valid], valid


def _convex_hull(pts: np.ndarray):
    """(vertices, faces, face normals) as ``trimesh.convex.convex_hull(pts, repair=True)`` has them, or None where
    trimesh would do more than this (retry qhull, merge vertices, repair the winding)."""
    from scipy.spatial import ConvexHull

    hull = ConvexHull(pts, qhull_options=_QHULL_OPTIONS)
    vid = np.sort(hull.vertices)
    mask = np.zeros(len(hull.points), dtype=np.int64)
    mask[vid] = np.arange(len(vid))
    faces = mask[hull.simplices].copy()
    vertices = hull.points[vid].copy()
    if len(np.unique(_hashable_rows(vertices, _MERGE_DIGITS))) != len(vertices):
        return None  # trimesh's process step would merge vertices
    tri = vertices[faces]
    vectors = tri[:, 1:, :] - tri[:, :2, :]
    crosses = np.cross(vectors[:, 0], vectors[:, 1])  # trimesh.triangles.cross
    normals, valid = _unitize(crosses)
    faces, crosses = faces[valid], crosses[valid]
    area = np.sqrt((crosses ** 2).sum(axis=1)) / 2.0  # trimesh.triangles.area
    centres = vertices[faces].mean(axis=1)
    centroid = np.average(centres, weights=area, axis=0)
    backwards = np.dot(normals * (centres - centroid), [1.0, 1.0, 1.0]) < 0.0  # util.diagonal_dot
    faces[backwards] = np.fliplr(faces[backwards])
    normals[backwards] *= -1.0
    return vertices, faces, normals


def _adjacency(faces: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(face pairs (2, A), their shared edges (A, 2)) of a closed, consistently wound triangle mesh; None otherwise
    (trimesh's fix_normals would change such a hull). The order of the pairs does not matter to the search."""
    directed = np.concatenate([faces[:, [0, 1]], faces[:, [1, 2]], faces[:, [2, 0]]])
    owner = np.tile(np.arange(len(faces)), 3)
    key = np.sort(directed, axis=1)
    order = np.lexsort((key[:, 1], key[:, 0]))
    key, directed, owner = key[order], directed[order], owner[order]
    if len(key) % 2 or not (np.array_equal(key[0::2], key[1::2]) and
                            (len(key) < 4 or np.any(key[2::2] != key[1:-1:2], axis=1).all())):
        return None  # an edge not shared by exactly two faces
    if not np.array_equal(directed[0::2], directed[1::2][:, ::-1]):
        return None  # two faces run an edge the same way: the winding is not consistent
    return np.vstack([owner[0::2], owner[1::2]]), key[0::2]


def _hashable_rows(data: np.ndarray, digits: int) -> np.ndarray:
    """trimesh.grouping.hashable_rows: each row rounded to ``digits`` and packed into one comparable value."""
    as_int = np.round((data * 10 ** digits) - 1e-6).astype(np.int64)  # grouping.float_to_int
    if as_int.shape[1] <= 4:
        precision = int(np.floor(64 / as_int.shape[1]))
        d_min, d_max = as_int.min(), as_int.max()
        threshold = (2 ** (precision - 1)) - 1
        if d_max < threshold and d_min > -threshold:
            hashable = np.zeros(len(as_int), dtype=np.uint64)
            bitbang = (as_int.T + (threshold + 1)).astype(np.uint64)
            for offset, column in enumerate(bitbang):
                np.bitwise_xor(hashable, column << (offset * precision), out=hashable)
            return hashable
    dtype = np.dtype((np.void, as_int.dtype.itemsize * as_int.shape[1]))
    return np.ascontiguousarray(as_int).view(dtype).reshape(-1)


def _hemisphere(vectors: np.ndarray) -> np.ndarray:
    """trimesh.util.vector_hemisphere for (n, 3): each vector turned to the upper hemisphere."""
    negative = vectors < -_TOL_ZERO
    zero = np.logical_not(np.logical_or(negative, vectors > _TOL_ZERO))
    signs = np.ones(len(vectors), dtype=np.float64)
    signs[negative[:, 2]] = -1.0
    signs[np.logical_and(zero[:, 2], negative[:, 1])] = -1.0
    signs[np.logical_and(np.logical_and(zero[:, 2], zero[:, 1]), negative[:, 0])] = -1.0
    return vectors * signs.reshape((-1, 1))


def _to_spherical(cartesian: np.ndarray) -> np.ndarray:
    """trimesh.util.vector_to_spherical: (theta, phi) of each vector."""
    unit, valid = _unitize(cartesian)
    unit[np.abs(unit) < _TOL_MERGE] = 0.0
    x, y, z = unit.T
    spherical = np.zeros((len(cartesian), 2), dtype=np.float64)
    spherical[valid] = np.column_stack((np.arctan2(y, x), np.arccos(z)))
    return spherical


def _to_vector(spherical: np.ndarray) -> np.ndarray:
    """trimesh.util.spherical_to_vector."""
    theta, phi = spherical.T
    st, ct = np.sin(theta), np.cos(theta)
    sp, cp = np.sin(phi), np.cos(phi)
    return np.column_stack((ct * sp, st * sp, cp))


def _euler_matrix(ai: float, aj: float, ak: float) -> np.ndarray:
    """transformations.euler_matrix(ai, aj, ak, "sxyz") (static axes x, y, z: no parity, repetition or frame)."""
    i, j, k = 0, 1, 2
    M = np.eye(4)
    si, sj, sk = np.sin(ai), np.sin(aj), np.sin(ak)
    ci, cj, ck = np.cos(ai), np.cos(aj), np.cos(ak)
    cc, cs = ci * ck, ci * sk
    sc, ss = si * ck, si * sk
    M[i, i] = cj * ck
    M[i, j] = sj * sc - cs
    M[i, k] = sj * cc + ss
    M[j, i] = cj * sk
    M[j, j] = sj * ss + cc
    M[j, k] = sj * cs - sc
    M[k, i] = -sj
    M[k, j] = cj * si
    M[k, k] = cj * ci
    return M


def _candidates(vertices, faces, hull_normals):
    """trimesh's candidate directions: the distinct hull normals on the upper hemisphere (spherical, unit)."""
    adjacency = _adjacency(faces)
    if adjacency is None:
        return None
    hull_adj, hull_edge = adjacency
    spherical_coords = _to_spherical(_hemisphere(hull_normals))
    spherical_unique = np.unique(_hashable_rows(spherical_coords, 1), return_index=True)[1]  # grouping.unique_rows
    if not len(spherical_unique):
        return None
    spherical = spherical_coords[spherical_unique]
    normals = np.asarray(_to_vector(spherical), dtype=np.float64)
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


def _planar_matrix(offset, theta: float) -> np.ndarray:
    """transformations.planar_matrix(offset, theta): a 2D rotation by ``theta`` and a move by ``offset``."""
    T = np.eye(3, dtype=np.float64)
    s, c = np.sin(theta), np.cos(theta)
    T[0, :2] = [c, s]
    T[1, :2] = [-s, c]
    T[:2, 2] = offset
    return T


def _oriented_bounds_2D(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """trimesh.bounds.oriented_bounds_2D: the smallest rectangle round 2D points, its long side along X."""
    from scipy.spatial import ConvexHull

    convex = ConvexHull(points, qhull_options="QbB")
    hull_edges = convex.points[convex.simplices]
    hull_points = convex.points[convex.vertices]
    edge_vectors = hull_edges[:, 1] - hull_edges[:, 0]
    edge_norm = np.sqrt(np.dot(edge_vectors**2, [1, 1]))
    edge_nonzero = edge_norm > 1e-10
    edge_vectors = edge_vectors[edge_nonzero] / edge_norm[edge_nonzero].reshape((-1, 1))
    perp_vectors = np.fliplr(edge_vectors) * [-1.0, 1.0]
    x = np.dot(edge_vectors, hull_points.T)
    y = np.dot(perp_vectors, hull_points.T)
    bounds = np.column_stack((x.min(axis=1), y.min(axis=1), x.max(axis=1), y.max(axis=1)))
    extents = np.diff(bounds.reshape((-1, 2, 2)), axis=1).reshape((-1, 2))
    area = np.prod(extents, axis=1)
    area_min = area.argmin()
    rectangle = extents[area_min]
    offset = -bounds[area_min][:2] - (rectangle * 0.5)
    theta = np.arctan2(*edge_vectors[area_min][::-1])
    transform = _planar_matrix(offset, float(theta))
    if rectangle[1] > rectangle[0]:
        transform = np.dot(_planar_matrix([0.0, 0.0], np.pi / 2), transform)  # bounds._flip
        rectangle = rectangle[::-1]
    return transform, rectangle


def _finish(vertices, min_2D) -> tuple[np.ndarray, np.ndarray]:
    """trimesh 5's bookkeeping after the search: the box in the winning frame, its centre, ordered extents."""
    vert_ones = np.column_stack((vertices, np.ones(len(vertices)))).T
    projected = np.dot(min_2D, vert_ones).T[:, :3]
    height = np.ptp(projected[:, 2])
    rotation_2D, box = _oriented_bounds_2D(projected[:, :2])
    min_extents = np.append(box, height)
    rotation_2D[:2, 2] = 0.0
    rotation_Z = np.eye(4)  # transformations.planar_matrix_to_3D
    rotation_Z[:2, 3] = rotation_2D[:2, 2]
    rotation_Z[:2, :2] = rotation_2D[:2, :2]
    to_origin = np.dot(rotation_Z, min_2D)
    transformed = _transform_points(vertices, to_origin)
    box_center = transformed.min(axis=0) + np.ptp(transformed, axis=0) * 0.5
    to_origin[:3, 3] = -box_center
    order = min_extents.argsort()
    flip = np.eye(4)
    flip[:3, :3] = -np.eye(3)[order]
    if not np.isclose(np.linalg.det(flip[:3, :3]), 1.0):
        flip[:3, :3] = np.dot(flip[:3, :3], -np.eye(3))
    to_origin = np.dot(flip, to_origin)
    return to_origin, min_extents[order]


def _transform_points(points: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """transformations.transform_points (an identity matrix returns a copy)."""
    points = np.asanyarray(points, dtype=np.float64)
    if len(points) == 0:
        return points.copy()
    if np.abs(matrix - np.eye(4)).max() < 1e-8:
        return np.ascontiguousarray(points.copy())
    stack = np.column_stack((points, np.ones(len(points))))
    return np.dot(matrix, stack.T).T[:, :3]
