"""Which elements enclose an interior: the rule of thumb "whatever encloses an interior is Structural" [000 §7.1].

Method (vectorised with numpy / scipy.ndimage; the closing and the seals as separable one-voxel passes), per creation:

1. **Voxelise** the creation's triangles at ``PITCH_LDU`` (10 LDU, half a stud); the pitch grows for huge
   creations so that the grid stays under ``MAX_VOXELS``. Triangles are rasterised by sampling points on them:
   triangles shorter than half a voxel give their centroid, larger ones a barycentric lattice with a spacing
   of at most half a voxel. Every sample remembers its element.
2. **Close** small gaps with one ``binary_closing`` (3x3x3 cube): studs, the seams between bricks and thin slits
   no longer leak.
3. **Seal** openings: the solid is dilated horizontally only (in X and Z, by a seal radius on each side), so
   a door opening or a window in a wall is shut while the height of a room or a ship's hold is untouched. Two
   passes, seal radii ``SEAL_LDU`` = 10 and 30 LDU: the small one keeps narrow rooms (a 2-stud cockpit), the
   large one shuts openings up to about 3 studs wide (a door); their interiors are united.
4. **Flood the outside** from the sides and the bottom of the grid, never downwards ("the cap", or water
   semantics): layer by layer from the bottom up, a free voxel is outside when it is 4-connected inside its layer
   to the grid border or to an outside voxel right below it. Air that comes over a rim cannot drop into what
   the rim surrounds, so an open-topped tower, a courtyard or a ship's hull open to the sky counts as enclosed
   (closing only the top of the grid would not do: a tower's open top is not the grid's top when a flag pole
   rises above it), while a flat wall, a plate or an open U reaches the outside sideways and encloses nothing.
   Fully closed cavities are interior as well.
5. **Interior** = free (in the sealed grid) and not outside; it is grown back by the seal radius inside the free
   space of the unsealed grid (geodesic dilation: it never crosses a wall) and split into 6-connected
   components. Components smaller than ``MIN_INTERIOR_LDU3`` (2x2x2 studs = 64,000 LDU³, about a quarter of a
   cubic inch: less than what a minifig needs) are ignored. A brick's own hollow underside is closed by the
   brick below and tiny (at most 32 LDU wide and 16 LDU high): the closing and the seal fill it.
6. **Enclosing elements**: an element whose samples fall in or next to (26-neighbourhood) a kept interior voxel
   bounds it; its enclosed volume is the sum of the interior components it touches.

Known limits: furniture standing in a room touches the interior too (the caller only promotes parts of a
structural kind that no annotation, weapon or propulsion decision has claimed); a room whose door opening is
wider than twice the larger seal radius (60 LDU, 3 studs) leaks and encloses nothing.

Results are cached in a dict the caller keeps per loaded model (``enclosure(store=...)``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..geometry.boxes import elements_box

PITCH_LDU = 10.0  # voxel edge: half a stud
MAX_VOXELS = 3_000_000  # the pitch grows for huge creations so that the grid stays below this
MIN_INTERIOR_LDU3 = 40.0 ** 3  # 2x2x2 studs: smaller pockets (a brick's hollow underside) are not an interior
SEAL_LDU = (10.0, 30.0)  # two passes: openings up to twice as wide (a door: up to 3 studs) are shut for the flood
MIN_ELEMENTS = 3  # creations with fewer elements enclose nothing worth a look
MIN_EXTENT_LDU = 40.0  # nor do creations smaller than 2 studs in every direction
_CUBE = np.ones((3, 3, 3), dtype=bool)
_SQUARE_XZ = np.zeros((3, 3, 3), dtype=bool)  # grid axes are (y, x, z): dilate in x and z only
_SQUARE_XZ[1] = True


@dataclass
class Enclosure:
    """What a set of elements encloses."""

    pitch_ldu: float
    shape: tuple[int, int, int]  # grid (y, x, z)
    volume_ldu3: float  # total significant interior
    components_ldu3: list[float]  # each significant interior component
    element_volume_ldu3: dict[int, float] = field(default_factory=dict)  # enclosing element -> volume it bounds

    def encloses(self, i: int) -> bool:
        return self.element_volume_ldu3.get(int(i), 0.0) > 0.0

    def volume_in3(self, i: int, ldu_per_inch: float) -> float:
        return self.element_volume_ldu3.get(int(i), 0.0) / ldu_per_inch ** 3


_EMPTY = Enclosure(PITCH_LDU, (0, 0, 0), 0.0, [], {})


def _rigid_many(tf: np.ndarray) -> np.ndarray:
    """(k,) whether each of (k, 4, 4) placements is a rotation (``np.allclose(R.T @ R, I, atol=1e-2)``, at once).

    Official models round their matrices to a few digits: 1e-2 still means "a rotation", not a stretch."""
    r = np.asarray(tf[:, :3, :3], dtype=np.float64)
    eye = np.eye(3)
    return np.all(np.abs(np.matmul(r.transpose(0, 2, 1), r) - eye) <= 1e-2 + 1e-5 * eye, axis=(1, 2))


def _part_samples(model, i: int, spacing: float) -> np.ndarray:
    """Sample points of (rigidly placed) element ``i``'s part in the part's own frame, one per ``spacing`` cell.

    A function of the element's world triangles, its placement and ``spacing`` alone: remembered on disk by
    their bytes (part_memo), so an edited model samples again only the parts whose first instance changed."""
    from .part_memo import remembered

    t = np.asarray(model.elements[i].transform, dtype=np.float64)
    tri = model.mesh.element_triangles(i)
    return remembered("samples", __name__, (tri, t), (float(spacing),), lambda: _sample_part(tri, t, spacing))


def _sample_part(tri: np.ndarray, t: np.ndarray, spacing: float) -> np.ndarray:
    """``_part_samples``' work: sample the triangles ``tri`` (world) and bring the points into the part's frame."""
    pts, _ = sample_triangles(tri, np.zeros(len(tri), np.int64), spacing)
    local = (pts.astype(np.float64) - t[:3, 3]) @ t[:3, :3]  # R orthonormal: inverse = transpose
    cells = np.floor(local / spacing).astype(np.int64)
    cells -= cells.min(axis=0)
    span = cells.max(axis=0) + 1
    key = (cells[:, 0] * span[1] + cells[:, 1]) * span[2] + cells[:, 2]
    _, first = np.unique(key, return_index=True)
    return local[np.sort(first)]


def _place(tf: np.ndarray, local: np.ndarray) -> np.ndarray:
    """(k, m, 3) points ``local`` (m, 3) placed by each of the (k, 4, 4) float64 transforms ``tf``.

    The same values as ``np.einsum("kij,mj->kmi", R, local) + t``, bit for bit (that einsum adds its three
    products as (x + z) + y; checked on every placement of the tank and five shared models and 80 M random
    values), four times faster: einsum's three-long reduction was a tenth of a large model's interior test."""
    r = tf[:, None, :3, :3]
    out = r[..., 0] * local[None, :, None, 0]
    out += r[..., 2] * local[None, :, None, 2]
    out += r[..., 1] * local[None, :, None, 1]
    out += tf[:, None, :3, 3]
    return out


def _first_instances(model, store: dict) -> dict[tuple[str, int], int]:
    """(part, face count) -> the model's first rigidly placed element of it, the one its samples are taken from.

    Why the model's first and not the creation's: samples taken from another instance differ by rounding, so a
    creation's interior would depend on which creations were judged before it in the same process (or in a
    forked child that does not see them)."""
    got = store.get(("first instances",))
    if got is None:
        els = model.elements
        counts = np.diff(np.asarray(model.mesh.element_offsets))[:len(els)]
        rigid = _rigid_many(np.stack([e.transform for e in els])) if len(els) else np.zeros(0, bool)
        got = {}
        for e, n, rig in zip(els, counts.tolist(), rigid.tolist()):
            if rig and n:
                got.setdefault((e.part, n), e.index)
        store[("first instances",)] = got
    return got


def element_samples(model, idx: np.ndarray, spacing: float, store: dict | None = None
                    ) -> tuple[np.ndarray, np.ndarray]:
    """World sample points of the elements' surfaces (about one per ``spacing`` cube) and each point's element.

    Rigidly placed parts are sampled once in their own frame (cached in ``store``) and placed by every
    instance's transform; scaled placements (LDraw primitives used as rigging) are sampled where they are.
    """
    store = {} if store is None else store
    off = np.asarray(model.mesh.element_offsets)
    count = off[idx + 1] - off[idx]
    groups: dict[tuple[str, int], list[int]] = {}
    odd: list[int] = []
    els = model.elements
    rigid = _rigid_many(np.stack([els[i].transform for i in idx.tolist()])) if len(idx) else np.zeros(0, bool)
    for i, n, rig in zip(idx.tolist(), count.tolist(), rigid.tolist()):
        if not n:
            continue
        if rig:
            groups.setdefault((model.elements[i].part, n), []).append(i)
        else:
            odd.append(i)
    pts, own = [], []
    first = _first_instances(model, store)
    for (part, n), els in groups.items():
        key = ("part", part, n, spacing)
        if key not in store:
            store[key] = _part_samples(model, first.get((part, n), els[0]), spacing)
        local = store[key]
        tf = np.stack([model.elements[i].transform for i in els]).astype(np.float64)  # (k,4,4)
        w = _place(tf, local)
        pts.append(w.reshape(-1, 3).astype(np.float32))
        own.append(np.repeat(np.asarray(els, np.int64), len(local)))
    if odd:
        odd_a = np.asarray(odd, np.int64)
        tri = np.concatenate([model.mesh.element_triangles(i) for i in odd])
        owner = np.repeat(odd_a, off[odd_a + 1] - off[odd_a])
        p, o = sample_triangles(tri, owner, spacing)
        pts.append(p)
        own.append(o)
    if not pts:
        return np.zeros((0, 3), np.float32), np.zeros(0, np.int64)
    return np.concatenate(pts), np.concatenate(own)


def sample_triangles(tris: np.ndarray, owner: np.ndarray, spacing: float) -> tuple[np.ndarray, np.ndarray]:
    """Points on every triangle no further apart than about ``spacing`` (centroids for small ones), with owner.

    Big triangles get points along their three edges (every ``spacing``) plus points over their area (two per
    ``spacing``² cell, from a fixed-seed generator so results repeat): cost grows with area and perimeter, not
    with the square of the longest edge, which matters for LDraw's long thin cylinder slivers.
    """
    if not len(tris):
        return np.zeros((0, 3), np.float32), np.zeros(0, np.int64)
    if not len(owner):
        owner = np.zeros(len(tris), np.int64)
    tris = np.asarray(tris, dtype=np.float32)
    e = np.stack([tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 1], tris[:, 0] - tris[:, 2]], axis=1)
    lengths = np.sqrt((e ** 2).sum(axis=2))  # (t,3)
    small = lengths.max(axis=1) <= spacing
    pts = [tris[small].mean(axis=1)]
    own = [owner[small]]
    big = np.nonzero(~small)[0]
    if len(big):
        tb, ob = tris[big], owner[big]
        # edges: m points per edge, starting at each corner
        m = np.maximum(np.ceil(lengths[big] / spacing).astype(np.int64), 1)  # (b,3)
        reps = m.reshape(-1)
        tri_of = np.repeat(np.repeat(np.arange(len(big)), 3), reps)
        edge_of = np.repeat(np.tile(np.arange(3), len(big)), reps)
        start = np.repeat(np.cumsum(reps) - reps, reps)
        frac = ((np.arange(reps.sum()) - start) / np.repeat(reps, reps)).astype(np.float32)
        corner = tb[tri_of, edge_of]
        pts.append(corner + frac[:, None] * e[big][tri_of, edge_of])
        own.append(ob[tri_of])
        # area: uniform samples, about two per spacing² of area
        area = 0.5 * np.linalg.norm(np.cross(e[big][:, 0], -e[big][:, 2]), axis=1)
        n = np.ceil(2.0 * area / spacing ** 2).astype(np.int64)
        if n.sum():
            which = np.repeat(np.arange(len(big)), n)
            rng = np.random.default_rng(0)
            r1 = np.sqrt(rng.random(len(which), dtype=np.float32))
            r2 = rng.random(len(which), dtype=np.float32)
            a, b, c = tb[which, 0], tb[which, 1], tb[which, 2]
            pts.append((1 - r1)[:, None] * a + (r1 * (1 - r2))[:, None] * b + (r1 * r2)[:, None] * c)
            own.append(ob[which])
    return np.concatenate(pts).astype(np.float32), np.concatenate(own)


def _grow(a: np.ndarray, axis: int) -> np.ndarray:
    """``a`` OR its two neighbours along ``axis`` (outside the grid: False)."""
    out = a.copy()
    lo = [slice(None)] * a.ndim
    hi = [slice(None)] * a.ndim
    lo[axis], hi[axis] = slice(None, -1), slice(1, None)
    out[tuple(hi)] |= a[tuple(lo)]
    out[tuple(lo)] |= a[tuple(hi)]
    return out


def _shrink(a: np.ndarray, axis: int) -> np.ndarray:
    """``a`` AND its two neighbours along ``axis`` (outside the grid: False)."""
    out = a.copy()
    lo = [slice(None)] * a.ndim
    hi = [slice(None)] * a.ndim
    lo[axis], hi[axis] = slice(None, -1), slice(1, None)
    out[tuple(hi)] &= a[tuple(lo)]
    out[tuple(lo)] &= a[tuple(hi)]
    edge = [slice(None)] * a.ndim
    for end in (0, -1):
        edge[axis] = end
        out[tuple(edge)] = False
    return out


def close_cube(solid: np.ndarray) -> np.ndarray:
    """``ndimage.binary_closing(solid, structure=3x3x3 cube)``, the same voxels: the cube is separable, so its
    dilation and erosion (border False, as scipy's) are three one-voxel passes each, 30 x faster."""
    d = _grow(_grow(_grow(solid, 0), 1), 2)
    return _shrink(_shrink(_shrink(d, 0), 1), 2)


def dilate_xz(a: np.ndarray, iterations: int, mask: np.ndarray | None = None) -> np.ndarray:
    """``ndimage.binary_dilation(a, structure=_SQUARE_XZ, iterations=..., mask=...)``, the same voxels (each
    iteration grows by one voxel in x and z; with ``mask`` only masked voxels change, and ``a`` lies in it)."""
    out = a
    for _ in range(iterations):
        grown = _grow(_grow(out, 1), 2)
        out = grown if mask is None else np.where(mask, grown, out)
    return out


def _outside_from_sides_and_bottom(free: np.ndarray) -> np.ndarray:
    """Free voxels reachable from the grid's sides or bottom by paths that never go down (grid axes y, x, z;
    a larger y index is lower: LDraw -Y is up)."""
    from scipy import ndimage  # imported on use: most commands never need it

    ny, nx, nz = free.shape
    out = np.zeros_like(free)
    border = np.zeros((nx, nz), dtype=bool)
    border[0, :] = border[-1, :] = border[:, 0] = border[:, -1] = True
    below = np.ones((nx, nz), dtype=bool)  # under the grid: the outside
    four = ndimage.generate_binary_structure(2, 1)
    for y in range(ny - 1, -1, -1):
        f = free[y]
        seeds = f & (border | below)
        if seeds.all() or not f.any():
            layer = seeds
        elif f.all():
            layer = f if seeds.any() else seeds
        else:
            lab, n = ndimage.label(f, structure=four)
            hit = np.zeros(n + 1, dtype=bool)
            hit[lab[seeds]] = True
            hit[0] = False
            layer = hit[lab]
        out[y] = layer
        below = layer
    return out


def enclosure(model, element_indices, *, store: dict | None = None, pitch_ldu: float = PITCH_LDU,
              max_voxels: int = MAX_VOXELS, min_interior_ldu3: float = MIN_INTERIOR_LDU3,
              seal_ldu: tuple[float, ...] = SEAL_LDU, floor: bool = False) -> Enclosure:
    """The interior enclosed by the elements and, per element, the interior volume it bounds.

    ``floor``: the creation stands on a base plate or ground plate (scenery, not part of it) that closes its
    bottom, as the rulebook's implied floors do [000 MOC Combat "Official Toy Company Models"].

    ``store``: a dict kept by the caller for one loaded model (``stats.AnalysisCache.interiors``) so repeated
    analyses reuse sampled parts and results; None computes afresh.
    """
    idx = np.unique(np.asarray([int(i) for i in element_indices], dtype=np.int64))
    key = _key(idx, pitch_ldu, max_voxels, min_interior_ldu3, seal_ldu, floor)
    if store is None:
        store = {}
    if key in store:
        return store[key]
    res = _compute(model, idx, pitch_ldu, max_voxels, min_interior_ldu3, seal_ldu, store, floor)
    store[key] = res
    return res


FORK_MIN_ELEMENTS = 1000  # a creation this large has its interior found by a forked child (a third of its judging)
FORK_MIN_SHARE = 0.25  # ... when it is this share of its model: a fork costs with the whole process, an army of
# sixteen sets would fork sixteen times, each time a larger process, for a tenth of a second each


class PendingEnclosure:
    """``enclosure(model, element_indices, store=store, floor=floor)`` started now on the other core (a forked
    child, ``forked.Forked``) for a large creation, while the caller judges the rest of it; ``result()`` waits.

    Why: the interior of a 4,000-element building is half a second of the one-core judging that nothing before
    the interior test needs. A small creation, a cached answer or no fork: computed here when asked for."""

    def __init__(self, model, element_indices, *, store: dict | None = None, floor: bool = False):
        from ..forked import Forked

        self.model, self.idx, self.store, self.floor = model, list(element_indices), store, floor
        self.key = _key(self.idx, PITCH_LDU, MAX_VOXELS, MIN_INTERIOR_LDU3, SEAL_LDU, floor)
        start = (len(self.idx) >= FORK_MIN_ELEMENTS and len(self.idx) >= FORK_MIN_SHARE * len(model.elements)
                 and (store is None or self.key not in store))
        self._job = Forked(self._here) if start else None

    def _here(self) -> Enclosure:
        return enclosure(self.model, self.idx, store=self.store, floor=self.floor)

    def result(self) -> Enclosure:
        if self._job is None:
            return self._here()
        res, self._job = self._job.result(), None
        if self.store is not None:  # the child filled its own copy of the store: keep its answer here
            self.store[self.key] = res
        return res

    def cancel(self) -> None:
        """Not needed after all (nothing left to promote): stop the child."""
        if self._job is not None:
            self._job.cancel()
            self._job = None


def _key(element_indices, pitch_ldu, max_voxels, min_interior_ldu3, seal_ldu, floor) -> tuple:
    idx = np.unique(np.asarray([int(i) for i in element_indices], dtype=np.int64))
    return idx.tobytes(), pitch_ldu, max_voxels, min_interior_ldu3, tuple(seal_ldu), floor


def _compute(model, idx, pitch, max_voxels, min_ldu3, seal_ldu, store, floor: bool = False) -> Enclosure:
    from scipy import ndimage  # imported on use: most commands never need it

    if len(idx) < MIN_ELEMENTS:
        return _EMPTY
    off = np.asarray(model.mesh.element_offsets)
    idx = idx[off[idx + 1] > off[idx]]
    if len(idx) < MIN_ELEMENTS:
        return _EMPTY
    lo, hi = elements_box(model.elements, idx)
    ext = hi - lo
    if ext.max() < MIN_EXTENT_LDU:
        return _EMPTY
    # grid (y, x, z) with a border of free voxels wide enough for the seal
    while True:
        radii = sorted({max(1, int(round(sl / pitch))) for sl in seal_ldu})
        pad = radii[-1] + 2
        dims = np.ceil(ext / pitch).astype(np.int64) + 1 + 2 * pad
        if int(np.prod(dims)) <= max_voxels:
            break
        pitch *= max(1.05, (float(np.prod(dims)) / max_voxels) ** (1 / 3))
    origin = lo - pad * pitch
    pts, own = element_samples(model, idx, pitch / 2, store)
    ijk = np.floor((pts - origin.astype(np.float32)) / np.float32(pitch)).astype(np.int64)
    np.clip(ijk, 0, dims - 1, out=ijk)
    shape = (int(dims[1]), int(dims[0]), int(dims[2]))  # (y, x, z)
    lin = (ijk[:, 1] * shape[1] + ijk[:, 0]) * shape[2] + ijk[:, 2]
    solid = np.zeros(int(np.prod(shape)), dtype=bool)
    solid[lin] = True
    solid = solid.reshape(shape)
    if floor:  # the ground it stands on closes the bottom (-Y is up: the largest y index is the lowest layer)
        solid[int(ijk[:, 1].max()) + 1:, :, :] = True
    solid = close_cube(solid)  # ndimage.binary_closing(solid, structure=_CUBE), the same voxels
    free = ~solid
    inner = np.zeros_like(solid)
    for r in radii:  # a small seal keeps narrow rooms (a cockpit), a large one shuts door openings
        sealed = dilate_xz(solid, r)
        core = ~sealed & ~_outside_from_sides_and_bottom(~sealed)
        if core.any():
            inner |= dilate_xz(core, r, mask=free)
    if not inner.any():
        return Enclosure(pitch, shape, 0.0, [], {})
    lab, n = ndimage.label(inner)
    counts = np.bincount(lab.ravel(), minlength=n + 1)
    vox = pitch ** 3
    keep = counts * vox >= min_ldu3
    keep[0] = False
    if not keep.any():
        return Enclosure(pitch, shape, 0.0, [], {})
    # kept components renumbered 1..K; each voxel next to one (26-neighbourhood) takes the largest such number
    renum = np.zeros(n + 1, dtype=np.int32)
    renum[keep] = np.arange(1, int(keep.sum()) + 1, dtype=np.int32)
    vol = np.concatenate(([0.0], counts[keep] * vox))
    near = ndimage.maximum_filter(renum[lab], size=3, mode="constant", cval=0)
    comp = near.ravel()[lin]
    hit = comp > 0
    pos = np.searchsorted(idx, own[hit])
    touch = np.zeros((len(idx), len(vol)), dtype=bool)
    touch[pos, comp[hit]] = True
    per = touch.astype(np.float64) @ vol
    elems = np.nonzero(per > 0)[0]
    return Enclosure(pitch, shape, float(vol.sum()), [float(x) for x in vol[1:]],
                     {int(idx[k]): float(per[k]) for k in elems})
