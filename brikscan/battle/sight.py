"""Line of sight on the real brick geometry: "can he see the target?" [000 §5.1 Making Attacks].

From each viewer's eyes (or, with ``origin="barrel"``, from its ranged weapon's barrel end), rays go to points sampled over every target's surface and are cast against all other
geometry; the target itself and the viewer's own body do not block. A minifig target's head/torso/legs count as
visible if any of their points is [000 §5.1 Target Size]; a creation target gives its visible fraction and visible
extent, hence the +1 per 2" Target Size bonus. All pairs are computed in one batch of rays.

Sampling is stratified over surface area (one sample per 1/n of the area whatever the seed), so the answers do
not depend on the seed for any section larger than a sliver.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .raycast import RayEngine
from ..rules.sight_tables import SightRules, load_sight_rules
from .support import supported_by
from .target_size import creation_target_size
from .units import SECTIONS, Unit, barrel_end, element_triangles

END_MARGIN_LDU = 0.5  # a ray stops this short of its sample point (the point lies on a surface)
STEP_LDU = 0.05  # after a hit on the viewer or target itself, continue just past it
MAX_PASSES = 48
ORIGINS = ("eyes", "barrel")  # where sight lines start: the viewer's eyes or its ranged weapon's barrel end


@dataclass
class Blocker:
    index: int
    part: str
    creation: str | None
    rays: int


@dataclass
class PairResult:
    viewer: str
    target: str
    target_kind: str
    visible: bool
    sections_visible: list[str]
    modifier: int
    visible_fraction: float
    distance_in: float
    altitude_in: float
    height_advantage_in: float
    visible_extent_in: float
    blocked_by: list[int]
    blockers: list[Blocker]
    rays: slice  # this pair's rays in LosResult's arrays
    origin: str = "eyes"  # where the rays start: "eyes" or "barrel"
    origin_ldu: np.ndarray | None = None
    note: str | None = None  # e.g. barrel asked for, but the viewer has no ranged weapon: from the eyes

    def to_json(self) -> dict:
        return {"from": self.viewer, "to": self.target, "target_kind": self.target_kind, "visible": self.visible,
                "sections_visible": self.sections_visible, "modifier": self.modifier,
                "visible_fraction": round(self.visible_fraction, 4), "distance_in": round(self.distance_in, 2),
                "altitude_in": round(self.altitude_in, 2), "height_advantage_in": self.height_advantage_in,
                "visible_extent_in": round(self.visible_extent_in, 2), "blocked_by": self.blocked_by,
                "blockers": [{"index": b.index, "part": b.part, "creation": b.creation, "rays": b.rays}
                             for b in self.blockers],
                "rays": self.rays.stop - self.rays.start, "origin": self.origin,
                "origin_ldu": None if self.origin_ldu is None else [round(float(x), 2) for x in self.origin_ldu]}


@dataclass
class LosResult:
    viewers: list[Unit]
    targets: list[Unit]
    pairs: list[PairResult]
    origins: np.ndarray  # (R,3) ray starts (eyes or barrel ends)
    points: np.ndarray  # (R,3) sample points on targets
    blocked: np.ndarray  # (R,) bool
    block_point: np.ndarray  # (R,3) where a blocked ray stops (= points where clear)
    block_element: np.ndarray  # (R,) element index of the blocker, -1 none/inline
    ray_section: np.ndarray  # (R,) index into SECTIONS (3 = creation body)
    engine: str
    timings: dict = field(default_factory=dict)
    origin: str = "eyes"  # what was asked for ("eyes" or "barrel"); each pair says what it got

    @property
    def notes(self) -> list[dict]:
        """One note per pair that could not start where asked (no ranged weapon: from the eyes)."""
        return [{"from": p.viewer, "to": p.target, "note": p.note} for p in self.pairs if p.note]

    @property
    def n_rays(self) -> int:
        return len(self.blocked)

    def pair(self, viewer: str, target: str) -> PairResult:
        for p in self.pairs:
            if p.viewer.lower() == viewer.lower() and p.target.lower() == target.lower():
                return p
        raise KeyError((viewer, target))

    def matrix(self) -> np.ndarray:
        """Modifier matrix viewers x targets (nan on the diagonal / for pairs not computed)."""
        m = np.full((len(self.viewers), len(self.targets)), np.nan)
        vi = {u.name: i for i, u in enumerate(self.viewers)}
        ti = {u.name: i for i, u in enumerate(self.targets)}
        for p in self.pairs:
            m[vi[p.viewer], ti[p.target]] = p.modifier
        return m


def _areas(tris: np.ndarray, faces: np.ndarray | None, chunk: int = 1 << 20) -> np.ndarray:
    """(F,) float64 area of each triangle (of ``tris[faces]``), a million at a time: a 5 M-triangle target needs
    no copy of its triangles and no full-size temporaries."""
    n = len(tris) if faces is None else len(faces)
    if faces is not None and n and int(faces[-1]) - int(faces[0]) == n - 1 and np.all(np.diff(faces) == 1):
        tris, faces = tris[int(faces[0]):int(faces[0]) + n], None  # one run of faces (a placed model): a view
    area = np.empty(n, dtype=np.float64)
    for s in range(0, n, chunk):
        t32 = np.asarray(tris[s:s + chunk] if faces is None else tris[faces[s:s + chunk]], dtype=np.float32)
        a, b = t32[:, 1] - t32[:, 0], t32[:, 2] - t32[:, 0]
        cx = a[:, 1] * b[:, 2] - a[:, 2] * b[:, 1]  # the cross product by hand: np.cross is slow on millions
        cy = a[:, 2] * b[:, 0] - a[:, 0] * b[:, 2]
        cz = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
        area[s:s + chunk] = 0.5 * np.sqrt(cx * cx + cy * cy + cz * cz, dtype=np.float64)
    return area


def sample_surface(tris: np.ndarray, n: int, rng: np.random.Generator, return_index: bool = False,
                   faces: np.ndarray | None = None, area: np.ndarray | None = None):
    """``n`` points on a triangle soup, stratified by area: sample k falls in the k-th 1/n slice of the area.

    ``return_index``: also the triangle each point lies on (to tell which element a sample belongs to), as an
    index into ``faces`` when given (then only the triangles ``tris[faces]`` are sampled, without copying them).
    ``area``: each sampled triangle's area when the caller knows it (``element_areas``)."""
    count = len(tris) if faces is None else len(faces)
    if n <= 0 or count == 0:
        return (np.zeros((0, 3)), np.zeros(0, np.int64)) if return_index else np.zeros((0, 3))

    def pick(idx):
        return tris[idx] if faces is None else tris[faces[idx]]
    area = _areas(tris, faces) if area is None else area
    total = area.sum()
    if total <= 0:
        idx = np.arange(n) % count
        return (pick(idx).mean(axis=1), idx) if return_index else pick(idx).mean(axis=1)
    cdf = np.cumsum(area) / total
    del area
    u = (np.arange(n) + rng.random(n)) / n
    idx = np.minimum(np.searchsorted(cdf, u, side="right"), count - 1)
    r1 = np.sqrt(rng.random(n))
    r2 = rng.random(n)
    picked = np.asarray(pick(idx), dtype=np.float64)
    a, b, c = picked[:, 0], picked[:, 1], picked[:, 2]
    pts = (1 - r1)[:, None] * a + (r1 * (1 - r2))[:, None] * b + (r1 * r2)[:, None] * c
    return (pts, idx) if return_index else pts


def element_areas(battlefield, elements) -> np.ndarray:
    """The area of every face of ``elements``, in ``face_runs`` order, from one instance of each part.

    A rigid placement (a rotation, mirrored or not) keeps every triangle's area, so a part's areas are worked
    out once and reused by all its copies (a large creation has a few hundred parts and millions of triangles);
    a scaled placement is measured itself."""
    mesh = battlefield.mesh
    ids = np.asarray(list(elements), dtype=np.int64)
    if not len(ids):
        return np.zeros(0)
    cache = getattr(battlefield, "cache", None)
    memo: dict = cache.setdefault("part areas", {}) if cache is not None else {}
    keys = _part_keys(battlefield)  # (file, part): two files of a scene may share a part's name
    off = np.asarray(mesh.element_offsets, dtype=np.int64)
    rot = np.stack([battlefield.elements[i].transform[:3, :3] for i in ids]).astype(np.float64)
    rigid = np.abs(np.einsum("kji,kjl->kil", rot, rot) - np.eye(3)).max(axis=(1, 2)) <= 1e-6
    chunks = []
    for i, is_rigid in zip(ids.tolist(), rigid.tolist()):
        a, b = int(off[i]), int(off[i + 1])
        if a == b:
            continue
        key = (keys[i], b - a)
        got = memo.get(key) if is_rigid else None
        if got is None:
            got = _areas(mesh.triangles[a:b], None)
            if is_rigid:
                memo[key] = got
        chunks.append(got)
    return np.concatenate(chunks) if chunks else np.zeros(0)


def target_samples(battlefield, target: Unit, samples: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Sample points of a target and the section index of each: minifigs split them evenly over head/torso/legs."""
    pts, sec, _ = target_samples_with_elements(battlefield, target, samples, seed)
    return pts, sec


def target_samples_with_elements(battlefield, target: Unit, samples: int, seed: int):
    """``target_samples`` plus the element each point lies on (Target Size counts only the Structural part)."""
    key = ("samples", target.name, tuple(target.elements[:3]), len(target.elements), samples, seed)
    cache = getattr(battlefield, "cache", None)
    if cache is not None and key in cache:
        return cache[key]
    rng = np.random.default_rng([seed, len(target.elements), target.elements[0] if target.elements else 0])
    mesh = battlefield.mesh
    pts, sec, els = [], [], []

    def owners(ids, tri_idx):
        faces = mesh.face_runs(list(ids))
        return np.asarray(mesh.face_element)[faces[tri_idx]] if len(tri_idx) else np.zeros(0, np.int64)

    if target.is_minifig:
        present = [s for s in SECTIONS if target.sections.get(s)]
        per = int(np.ceil(samples / max(1, len(present))))
        for s in present:
            tris = element_triangles(mesh, target.sections[s])
            p, ti = sample_surface(tris, per, rng, return_index=True)
            pts.append(p)
            sec.append(np.full(len(p), SECTIONS.index(s), dtype=np.int8))
            els.append(owners(target.sections[s], ti))
    else:  # a creation (a whole scene model: millions of triangles) sampled in place
        faces = mesh.face_runs(list(target.elements))
        p, ti = sample_surface(mesh.triangles, samples, rng, return_index=True, faces=faces,
                               area=element_areas(battlefield, target.elements))
        pts.append(p)
        sec.append(np.full(len(p), 3, dtype=np.int8))
        els.append(np.asarray(mesh.face_element)[faces[ti]] if len(ti) else np.zeros(0, np.int64))
    out = (np.concatenate(pts) if pts else np.zeros((0, 3)), np.concatenate(sec) if sec else np.zeros(0, np.int8),
           np.concatenate(els).astype(np.int64) if els else np.zeros(0, np.int64))
    if cache is not None:
        cache[key] = out
    return out


def get_engine(battlefield, engine: str | None = None) -> RayEngine:
    """The ray engine over the battlefield's mesh, built once and kept on the battlefield."""
    cache = getattr(battlefield, "cache", None)
    key = ("engine", engine)
    if cache is not None and key in cache:
        return cache[key]
    eng = RayEngine.for_model(battlefield.mesh, *_placed_parts(battlefield), engine)
    if cache is not None:
        cache[key] = eng
    return eng


def _placed_parts(battlefield) -> tuple[np.ndarray, list]:
    """(E,4,4) element placements and (E,) keys of their local geometry (``_part_keys``)."""
    tf = np.array([e.transform for e in battlefield.elements], dtype=np.float64).reshape(-1, 4, 4)
    return tf, _part_keys(battlefield)


def _part_keys(battlefield) -> list:
    """(E,) keys of the elements' local geometry: (file, part), since two files of a scene may each define a part
    of the same name; kept on the battlefield."""
    cache = getattr(battlefield, "cache", None)
    if cache is not None and "part keys" in cache:
        return cache["part keys"]
    els = battlefield.elements
    keys: list = [e.part for e in els]
    for pl in getattr(battlefield, "placements", []) or []:
        for i in range(pl.first_element, min(len(els), pl.first_element + pl.n_elements)):
            keys[i] = (str(pl.path), keys[i])
    if cache is not None:
        cache["part keys"] = keys
    return keys


def _head_box(battlefield, unit: Unit) -> tuple[np.ndarray, np.ndarray] | None:
    """The box of the viewer's head parts that hold its eye (head, or a helmet around it)."""
    els = battlefield.elements
    boxes = [(els[i].bbox_min, els[i].bbox_max) for i in unit.sections.get("head", [])
             if np.all(els[i].bbox_min <= unit.eye_ldu) and np.all(unit.eye_ldu <= els[i].bbox_max)]
    if not boxes:
        return None
    return np.min([b[0] for b in boxes], axis=0), np.max([b[1] for b in boxes], axis=0)


def _box_exit(origins: np.ndarray, dirs: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Distance along each ray (starting inside the box) to where it leaves the box."""
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / dirs
        t1 = (lo - origins) * inv
        t2 = (hi - origins) * inv
    tfar = np.nanmin(np.where(np.isfinite(np.maximum(t1, t2)), np.maximum(t1, t2), np.inf), axis=1)
    return np.clip(tfar, 0.0, None)


def unit_muzzle(battlefield, unit: Unit) -> np.ndarray | None:
    """The unit's barrel end on this battlefield (its own geometry, so scene placements are applied), or None.

    Also stored on the unit (``unit.muzzle_ldu``); kept in the battlefield's cache."""
    cache = getattr(battlefield, "cache", None)
    key = ("muzzle", tuple(unit.elements), unit.weapon_slots is None)
    if cache is not None and key in cache:
        m = cache[key]
    else:
        m = barrel_end(battlefield.elements, battlefield.mesh, unit) if unit.elements else None
        if cache is not None:
            cache[key] = m
    unit.muzzle_ldu = None if m is None else np.array(m, dtype=float)
    return unit.muzzle_ldu


def sight_origin(battlefield, unit: Unit, origin: str = "eyes") -> tuple[np.ndarray, str, str | None]:
    """Where a viewer's rays start: (point, "eyes"|"barrel", note). Barrel falls back to the eyes, with a note."""
    if origin not in ORIGINS:
        raise ValueError(f"unknown origin {origin!r} (choose one of: {', '.join(ORIGINS)})")
    if origin == "barrel":
        m = unit_muzzle(battlefield, unit)
        if m is not None:
            return m, "barrel", None
        return (np.asarray(unit.eye_ldu, dtype=float), "eyes",
                f"{unit.name} has no ranged weapon: line of sight from its eyes")
    return np.asarray(unit.eye_ldu, dtype=float), "eyes", None


def face_owners(battlefield, actors) -> np.ndarray:
    """(F,) int32: the actor (index into ``actors``) owning each face of the battlefield, -1 for none.

    One lookup per face in a table of the elements' owners (its last slot, -1, for inline faces): a large
    scene's few million faces cost one int32 array, not three temporaries of 64-bit ones."""
    owner = np.full(len(battlefield.elements) + 1, -1, dtype=np.int32)
    for k, u in enumerate(actors):
        if u.elements:
            owner[np.asarray(u.elements, dtype=np.int64)] = k
    return owner[battlefield.mesh.face_element]


def march(engine: RayEngine, origins, dirs, length, ray_viewer, ray_target, face_owner, start=None,
          stop_at_target=None) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The one ray march of sight and attacks: the first blocking face of each segment ``origin + t*dir``,
    ``start <= t < length - END_MARGIN_LDU``, stepping past faces of the ray's own viewer (its body, its weapon's
    creation) and of its target, which never block.

    ``ray_viewer`` / ``ray_target`` (R,): the actor owning the ray's start and end; ``face_owner`` (F,): the
    actor owning each face (-1: none). ``stop_at_target`` (actors,) bool: a ray ends on the first face of such a
    target it meets (that part of a creation is in view: no need to look through it). Returns (blocking face,
    distance to it, target face where a ray stopped, passes); -1 / inf where none.
    """
    r = len(origins)
    block_face = np.full(r, -1, dtype=np.int64)
    block_t = np.full(r, np.inf, dtype=np.float64)
    target_face = np.full(r, -1, dtype=np.int64)
    start = np.zeros(r, dtype=np.float64) if start is None else np.asarray(start, dtype=np.float64).copy()
    active = np.nonzero(length - END_MARGIN_LDU > start)[0]
    passes = 0
    while len(active) and passes < MAX_PASSES:
        passes += 1
        o = origins[active] + dirs[active] * start[active, None]
        tmax = length[active] - END_MARGIN_LDU - start[active]
        hits = engine.first_hit(o, dirs[active], tmax)
        hit = (hits.face >= 0) & (hits.t < tmax)
        owner = np.where(hit, face_owner[np.clip(hits.face, 0, None)], -1)
        own = hit & (owner >= 0) & (owner == ray_viewer[active])
        on_target = hit & (owner >= 0) & (owner == ray_target[active])
        if stop_at_target is not None:
            reached = on_target & stop_at_target[ray_target[active]]
            target_face[active[reached]] = hits.face[reached]
            on_target &= ~reached
        else:
            reached = np.zeros_like(hit)
        ignore = own | on_target
        blocked = hit & ~ignore & ~reached
        ba = active[blocked]
        block_face[ba] = hits.face[blocked]
        block_t[ba] = start[ba] + hits.t[blocked]
        ia = active[ignore]
        start[ia] += hits.t[ignore] + STEP_LDU
        active = ia[start[ia] < length[ia] - END_MARGIN_LDU]
    return block_face, block_t, target_face, passes


def cast_segments(engine: RayEngine, origins, dirs, length, ray_viewer, ray_target, face_owner, start=None,
                  stop_at_target=None):
    """``march`` for sight: (blocking face (R,), distance to it (R,), passes)."""
    bface, bt, _, passes = march(engine, origins, dirs, length, ray_viewer, ray_target, face_owner, start,
                                 stop_at_target)
    return bface, bt, passes


def _extent(points: np.ndarray, view_dir: np.ndarray) -> tuple[float, float]:
    """Longest extent and area (LDU, LDU²) of points seen along ``view_dir`` (horizontal-across x vertical)."""
    if len(points) < 2:
        return 0.0, 0.0
    d = np.asarray(view_dir, dtype=float) / (float(np.sqrt(np.dot(view_dir, view_dir))) or 1.0)
    u = np.array([d[2], 0.0, -d[0]])  # d x up, with up = (0, -1, 0): horizontal, across the view
    nu = float(np.sqrt(u[0] ** 2 + u[2] ** 2))
    u = u / nu if nu > 1e-6 else np.array([1.0, 0.0, 0.0])
    w = np.array([u[1] * d[2] - u[2] * d[1], u[2] * d[0] - u[0] * d[2], u[0] * d[1] - u[1] * d[0]])
    a = np.ptp(points @ u)
    b = np.ptp(points @ w)
    return float(max(a, b)), float(a * b)


def pick_viewers_targets(battlefield, viewers: str | None = None, targets: str | None = None,
                         scenery: bool = False) -> tuple[list[Unit], list[Unit]]:
    """``los``' viewers and targets by name (comma-separated): by default every minifig looks at every unit and
    creation but the table itself (base plates and stands, unless ``scenery`` or named) [issue 13]; an unknown
    name is one line listing the names there are (exit 5), a battlefield without minifigs one line (exit 3)."""
    from .target_size import is_scenery
    from .units import require_minifigs, select

    require_minifigs(battlefield.units, str(battlefield.path))
    who = select(battlefield.units, viewers, "--from") if viewers else [u for u in battlefield.units if u.is_minifig]
    what = select(battlefield.units, targets, "--to")
    if not scenery and not targets:
        what = [t for t in what if not is_scenery(battlefield, t)]
    return who, what


def line_of_sight(battlefield, units: list[Unit], targets: list[Unit] | None = None, samples: int = 200,
                  seed: int = 0, *, rules: SightRules | None = None, engine: str | None = None,
                  origin: str = "eyes", pair_support: bool = False) -> LosResult:
    """Every viewer in ``units`` against every target (default: the same units); one batch of rays.

    ``origin``: rays start at the viewers' eyes, or at the barrel end of their ranged weapon ("barrel"; a viewer
    without one falls back to its eyes and its pairs get a note). The viewer's own body, held weapon included,
    never blocks its rays. A viewer is not paired with the ground or creation it stands on (``pair_support``:
    pair it anyway)."""
    if origin not in ORIGINS:
        raise ValueError(f"unknown origin {origin!r} (choose one of: {', '.join(ORIGINS)})")
    t0 = time.perf_counter()
    rules = rules or load_sight_rules()
    lpi = battlefield.ldu_per_inch
    targets = list(units) if targets is None else list(targets)
    eng = get_engine(battlefield, engine)
    t_engine = time.perf_counter()

    actors: list[Unit] = []
    for u in list(units) + targets:
        if not any(a is u for a in actors):
            actors.append(u)
    actor_id = {id(u): k for k, u in enumerate(actors)}
    face_owner = face_owners(battlefield, actors)

    tpts, tsec, tel, tid = [], [], [], []
    for j, t in enumerate(targets):
        p, s, e = target_samples_with_elements(battlefield, t, samples, seed)
        tpts.append(p)
        tsec.append(s)
        tel.append(e)
        tid.append(np.full(len(p), j, dtype=np.int64))
    all_pts = np.concatenate(tpts) if tpts else np.zeros((0, 3))
    all_sec = np.concatenate(tsec) if tsec else np.zeros(0, np.int8)
    all_el = np.concatenate(tel) if tel else np.zeros(0, np.int64)
    all_tid = np.concatenate(tid) if tid else np.zeros(0, np.int64)
    t_actor = np.array([actor_id[id(t)] for t in targets], dtype=np.int64)

    origins, points, secs, rels, rview, rtarget, pair_keys, head_boxes = [], [], [], [], [], [], [], []
    starts_at = [sight_origin(battlefield, v, origin) for v in units]  # (point, kind, note) per viewer
    for i, v in enumerate(units):
        keep = t_actor[all_tid] != actor_id[id(v)]
        if not pair_support:  # not the wall under his feet [issue 13]
            under = supported_by(battlefield, v) if hasattr(battlefield, "units") else set()
            for j, t in enumerate(targets):
                if t.name in under:
                    keep &= all_tid != j
        n = int(keep.sum())
        o_pt, o_kind, _ = starts_at[i]
        origins.append(np.broadcast_to(o_pt, (n, 3)))
        points.append(all_pts[keep])
        secs.append(all_sec[keep])
        rels.append(all_el[keep])
        rview.append(np.full(n, actor_id[id(v)], dtype=np.int64))
        # from the eyes, rays start where they leave the head; from a barrel end, right there
        head_boxes.append(_head_box(battlefield, v) if o_kind == "eyes" else None)
        rtarget.append(t_actor[all_tid[keep]])
        pair_keys.append(np.stack([np.full(n, i), all_tid[keep]], axis=1))
    O = np.concatenate(origins) if origins else np.zeros((0, 3))
    P = np.concatenate(points) if points else np.zeros((0, 3))
    S = np.concatenate(secs) if secs else np.zeros(0, np.int8)
    E = np.concatenate(rels) if rels else np.zeros(0, np.int64)
    RV = np.concatenate(rview) if rview else np.zeros(0, np.int64)
    RT = np.concatenate(rtarget) if rtarget else np.zeros(0, np.int64)
    K = np.concatenate(pair_keys) if pair_keys else np.zeros((0, 2), np.int64)
    D = P - O
    L = np.linalg.norm(D, axis=1)
    Dn = D / np.where(L > 0, L, 1.0)[:, None]
    # the eye is inside the viewer's head: start each ray where it leaves the head (its own body never blocks)
    start = np.zeros(len(O))
    pos = 0
    for i, box in enumerate(head_boxes):
        n = len(origins[i])
        if box is not None and n:
            start[pos:pos + n] = _box_exit(O[pos:pos + n], Dn[pos:pos + n], box[0], box[1])
        pos += n
    start = np.minimum(start, np.maximum(L - END_MARGIN_LDU, 0))
    t_rays = time.perf_counter()
    # a ray that has reached a minifig target sees him, in the section it was aimed at (half the rays need not be
    # marched on through him to the sample point)
    stop = np.zeros(len(actors), dtype=bool)
    for j, t in enumerate(targets):
        stop[t_actor[j]] = t.is_minifig
    bface, bt, passes = cast_segments(eng, O, Dn, L, RV, RT, face_owner, start, stop)
    t_cast = time.perf_counter()
    blocked = bface >= 0
    belem = np.where(blocked, battlefield.mesh.face_element[np.clip(bface, 0, None)], -1)
    bpoint = np.where(blocked[:, None], O + Dn * np.where(blocked, bt, 0)[:, None], P)

    pairs: list[PairResult] = []
    # rays are grouped per viewer, and within a viewer per target in order: find each pair's slice
    if len(K):
        change = np.nonzero(np.any(K[1:] != K[:-1], axis=1))[0] + 1
        starts = np.concatenate([[0], change])
        ends = np.concatenate([change, [len(K)]])
    else:
        starts = ends = np.zeros(0, dtype=np.int64)
    for a, b in zip(starts, ends):
        vi = int(K[a, 0])
        v = units[vi]
        t = targets[int(K[a, 1])]
        o_pt, o_kind, note = starts_at[vi]
        pr = _pair(battlefield, rules, lpi, v, t, slice(int(a), int(b)), blocked, S, P, L, belem, o_pt, E)
        pr.origin, pr.origin_ldu, pr.note = o_kind, np.array(o_pt, dtype=float), note
        pairs.append(pr)
    t_end = time.perf_counter()
    timings = {"engine_s": t_engine - t0, "rays_setup_s": t_rays - t_engine, "cast_s": t_cast - t_rays,
               "pairs_s": t_end - t_cast, "total_s": t_end - t0, "passes": passes, "rays": int(len(O)),
               "rays_per_s": float(len(O) / (t_cast - t_rays)) if t_cast > t_rays else 0.0}
    return LosResult(list(units), targets, pairs, O, P, blocked, bpoint, belem, S, eng.name, timings, origin)


def _pair(battlefield, rules: SightRules, lpi: float, v: Unit, t: Unit, sl: slice, blocked, S, P, L,
          belem, origin_ldu: np.ndarray | None = None, E: np.ndarray | None = None) -> PairResult:
    vis = ~blocked[sl]
    n = vis.size
    sec = S[sl]
    # [000 §5.1 Target Size] a section is visible if any part of it at all can be seen
    seen = [s for k, s in enumerate(SECTIONS) if np.any(vis & (sec == k))]
    pts = P[sl][vis]
    start = v.eye_ldu if origin_ldu is None else origin_ldu
    extent, area = _extent(pts, t.position_ldu - start) if len(pts) else (0.0, 0.0)
    any_visible = bool(vis.any())
    if t.is_minifig:
        modifier = rules.minifig_modifier(len(seen))  # [000 §5.1 Attack Modifiers] 0 / -1 / -2, blind -5
        visible = len(seen) > 0
    else:
        visible = any_visible
        # [000 §5.1 Target Size] +1 per 2" of the visible Structural part (measured as the stat card measures
        # Size); small visible areas as 2x4 / 2x2 / 1x1; antennas and guns in view add nothing [000 §7.2]
        if E is not None and hasattr(battlefield, "analyses") and battlefield.analyses:
            ts = creation_target_size(battlefield, rules, pts, E[sl][vis], t.position_ldu - start)
            modifier, extent = ts.modifier, ts.size_in * lpi
        else:
            modifier = rules.size_modifier(extent / lpi, area / 400.0, visible)
    dists = L[sl][vis] if any_visible else L[sl]
    distance_in = float(dists.min() / lpi) if len(dists) else 0.0
    altitude_in = float((t.position_ldu[1] - v.position_ldu[1]) / lpi)  # -Y is up: viewer higher -> positive
    bl = belem[sl][~vis]
    bl = bl[bl >= 0]
    blockers: list[Blocker] = []
    if len(bl):
        ids, counts = np.unique(bl, return_counts=True)
        order = np.argsort(-counts, kind="stable")
        owner_of = getattr(battlefield, "owner_of", None)
        for k in order:
            e = battlefield.elements[int(ids[k])]
            blockers.append(Blocker(int(ids[k]), e.part, owner_of(int(ids[k])) if owner_of else None,
                                    int(counts[k])))
    return PairResult(v.name, t.name, t.kind, visible, seen, int(modifier), float(vis.sum() / n) if n else 0.0,
                      distance_in, altitude_in, rules.height_advantage_in(altitude_in), extent / lpi,
                      [b.index for b in blockers], blockers, sl)


def attack_json(battlefield, result: LosResult, attack, **kw) -> dict:
    """A scene's ``[[attacks]]`` entry with its pair; ``origin = "barrel"`` there (or "eyes") overrides the
    result's origin, and then that pair is cast on its own (``kw``: ``line_of_sight``'s samples, seed, engine)."""
    a = attack
    origin = a.origin or result.origin
    try:
        pr = result.pair(a.from_, a.to)
    except KeyError:
        return {"from": a.from_, "to": a.to, "weapon": a.weapon, "origin": origin, "pair": None}  # not computed
    if origin != result.origin:  # this attack looks from elsewhere: its own pair
        pr = line_of_sight(battlefield, [battlefield.unit_named(a.from_)], [battlefield.unit_named(a.to)],
                           origin=origin, **kw).pairs[0]
    out = {"from": a.from_, "to": a.to, "weapon": a.weapon, "origin": origin, "pair": pr.to_json()}
    if pr.note:
        out["note"] = pr.note
    return out


def los_json(battlefield, result: LosResult, units: list[Unit] | None = None) -> dict:
    """The ``los --json`` contract: ``{"units": [{"name", "position_ldu"}], "pairs": [...]}``."""
    units = units if units is not None else battlefield.units
    return {"battlefield": str(battlefield.path),
            "units": [{"name": u.name, "kind": u.kind, "side": u.side, "creation": u.creation,
                       "position_ldu": [round(float(x), 2) for x in u.position_ldu],
                       "eye_ldu": [round(float(x), 2) for x in u.eye_ldu],
                       "sections": {k: list(v) for k, v in u.sections.items()}} for u in units],
            "pairs": [p.to_json() for p in result.pairs],
            "origin": result.origin, "notes": result.notes,
            "engine": result.engine, "rays": result.n_rays,
            "timings": {k: (round(v, 4) if isinstance(v, float) else v) for k, v in result.timings.items()}}


def los_report(battlefield, result: LosResult, *, samples: int = 200, seed: int = 0,
               engine: str | None = None) -> dict:
    """What ``los --json`` prints: ``los_json`` and, for a scene with ``[[attacks]]``, each entry with its pair."""
    data = los_json(battlefield, result)
    if battlefield.attacks:
        data["attacks"] = [attack_json(battlefield, result, a, samples=samples, seed=seed, engine=engine)
                           for a in battlefield.attacks]
    return data
