"""Explosions on a model [000 §8.4 Heavy Explosives]: rings of 2", Armor rolled once per creation and SL class,
elements destroyed where ring damage beats that roll, KnockBack away from the centre, then the re-split.

An element is in a ring when the nearest point of its triangles is within the ring's outer radius
(DIGEST §13.11).

Cover [000 §3.2 Explosives, §8.4]: the damage hits every *exposed* object and surface in the radius; anything
fully hidden behind cover is only hurt if the cover is destroyed. Rays go from the blast centre to sample points
on each element in the rings; an element none of whose rays gets through is shielded and unaffected, unless
the elements hiding it are destroyed by the same blast, which is found by iterating to a fixed point (``Cover``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..analysis.measure import element_boxes
from ..errors import NotFoundError, UsageError
from ..rules.formulas import Ring, explosion_rings
from .dice import DiceSpec, DieRoll, armor_text, expected_armor, expected_rings, roll_armor, roll_dice
from .scene import DamageScene
from .split import Section, split_after


@dataclass
class Blast:
    """One explosion: centre in LDraw coordinates (LDU) and its rings."""

    centre: np.ndarray
    dice: DiceSpec
    rolls: list[DieRoll] | None  # None: expected (average) rings
    rings: list[Ring]

    @property
    def radius_in(self) -> float:
        return self.rings[-1].outer_radius_in if self.rings else 0.0


@dataclass
class ArmorClass:
    """One Armor roll: a creation's elements at one Structure Level [000 §8.4 Wall Demolition]."""

    body: int
    creation: str
    sl: float
    armor: str
    roll: float
    source: str  # "given", "rolled", "expected"

    def to_json(self) -> dict:
        return {"creation": self.creation, "sl": self.sl, "armor": self.armor, "roll": self.roll, "source": self.source}


@dataclass
class DamageResult:
    """What a blast or hit did; ``sections`` is the model after the re-split."""

    destroyed: np.ndarray  # (E,) bool
    damage: np.ndarray  # (E,) float damage each element took (0 = untouched)
    knockback_in: dict[int, float]
    knockback_vec: np.ndarray  # (E,3) LDU displacement of each element
    sections: list[Section]
    armor: list[ArmorClass] = field(default_factory=list)
    blasts: list[Blast] = field(default_factory=list)
    ring_index: np.ndarray | None = None  # (B,E) ring of each element per blast, -1 outside
    distance_in: np.ndarray | None = None  # (B,E)
    element_class: np.ndarray | None = None  # (E,) index into ``armor`` (-1: not reached)
    steps: list[dict] = field(default_factory=list)  # Component Damage chain
    plan: list[dict] = field(default_factory=list)  # Component Damage: the chain if every Armor roll is beaten
    notes: list[str] = field(default_factory=list)
    exposed: np.ndarray | None = None  # (E,) bool: reached by at least one blast and not fully behind cover
    shielded: np.ndarray | None = None  # (E,) bool: in a ring but fully behind cover that held [000 §3.2]
    ldu_per_inch: float = 60.0

    @property
    def destroyed_indices(self) -> list[int]:
        return np.flatnonzero(self.destroyed).tolist()


# ------------------------------------------------------------------ geometry

def point_triangle_distance(p: np.ndarray, tri: np.ndarray) -> np.ndarray:
    """Distance from point p (3,) to each triangle (F,3,3), vectorised (Ericson, Real-Time Collision Detection 5.1.5)."""
    a, b, c = tri[:, 0].astype(np.float64), tri[:, 1].astype(np.float64), tri[:, 2].astype(np.float64)
    ab, ac, ap = b - a, c - a, p - a
    d1, d2 = (ab * ap).sum(1), (ac * ap).sum(1)
    bp = p - b
    d3, d4 = (ab * bp).sum(1), (ac * bp).sum(1)
    cp = p - c
    d5, d6 = (ab * cp).sum(1), (ac * cp).sum(1)
    va = d3 * d6 - d5 * d4
    vb = d5 * d2 - d1 * d6
    vc = d1 * d4 - d3 * d2
    with np.errstate(divide="ignore", invalid="ignore"):
        denom = va + vb + vc
        v = np.where(denom != 0, vb / denom, 0.0)
        w = np.where(denom != 0, vc / denom, 0.0)
        q = a + ab * v[:, None] + ac * w[:, None]  # inside the face
        t_ab = np.clip(np.where(d1 - d3 != 0, d1 / (d1 - d3), 0.0), 0, 1)
        t_ac = np.clip(np.where(d2 - d6 != 0, d2 / (d2 - d6), 0.0), 0, 1)
        t_bc = np.clip(np.where((d4 - d3) + (d5 - d6) != 0, (d4 - d3) / ((d4 - d3) + (d5 - d6)), 0.0), 0, 1)
    # the closest point is on one of the three edges unless it is inside the face
    e_ab = a + ab * t_ab[:, None]
    e_ac = a + ac * t_ac[:, None]
    e_bc = b + (c - b) * t_bc[:, None]
    inside = (va >= 0) & (vb >= 0) & (vc >= 0) & (denom > 0)
    def sq(x: np.ndarray) -> np.ndarray:
        x = x - p
        return np.einsum("ij,ij->i", x, x)
    dist = np.minimum(np.minimum(sq(e_ab), sq(e_ac)), sq(e_bc))
    return np.sqrt(np.where(inside, sq(q), dist))


def element_distances(scene: DamageScene, point: np.ndarray, max_ldu: float,
                      boundaries: np.ndarray | None = None) -> np.ndarray:
    """(E,) LDU from ``point`` to each element's nearest triangle; inf beyond ``max_ldu``.

    Boxes cull first. With ring ``boundaries`` (LDU, ascending), an element whose box's nearest and farthest
    points fall in the same ring gets its box distance (same ring as the exact one), so only elements that
    straddle a ring edge need their triangles.
    """
    model = scene.model
    n = scene.n_elements
    point = np.asarray(point, dtype=np.float64)
    lo, hi = scene.boxes()
    box = np.linalg.norm(np.maximum(np.maximum(lo - point, 0), point - hi), axis=1)
    out = np.full(n, np.inf)
    cand = np.flatnonzero(box <= max_ldu + 1e-6)
    if not len(cand):
        return out
    if boundaries is not None:
        far = np.linalg.norm(np.maximum(np.abs(lo[cand] - point), np.abs(hi[cand] - point)), axis=1)
        same = np.searchsorted(boundaries - 1e-6, box[cand]) == np.searchsorted(boundaries - 1e-6, far)
        out[cand[same]] = box[cand[same]]
        cand = cand[~same]
    off = model.mesh.element_offsets
    starts, ends = off[cand], off[cand + 1]
    counts = ends - starts
    has = counts > 0
    out[cand[~has]] = box[cand[~has]]  # missing parts: their box is all we know
    c2, s2, n2 = cand[has], starts[has], counts[has]
    if len(c2) and boundaries is not None:
        # the nearest vertex is an upper bound: if it lies in the box distance's ring, that is the ring
        faces = model.mesh.face_runs(c2)
        v = model.mesh.triangles[faces].reshape(-1, 3) - point.astype(np.float32)
        vd = np.sqrt(np.einsum("ij,ij->i", v, v).reshape(-1, 3).min(axis=1))
        up = np.minimum.reduceat(vd, np.r_[0, np.cumsum(n2)[:-1]])
        same = np.searchsorted(boundaries - 1e-6, box[c2]) == np.searchsorted(boundaries - 1e-6, up)
        out[c2[same]] = box[c2[same]]
        c2, s2, n2 = c2[~same], s2[~same], n2[~same]
    if len(c2):
        faces = model.mesh.face_runs(c2)
        d = _chunked_distance(point, model.mesh.triangles, faces)
        seg = np.r_[0, np.cumsum(n2)[:-1]]
        out[c2] = np.minimum.reduceat(d, seg)
    out[out > max_ldu + 1e-6] = np.inf
    return out


def _chunked_distance(point: np.ndarray, triangles: np.ndarray, faces: np.ndarray, chunk: int = 65536) -> np.ndarray:
    """point_triangle_distance over many faces in cache-sized chunks on two threads (numpy releases the GIL)."""
    if len(faces) <= chunk:
        return point_triangle_distance(point, triangles[faces])
    from concurrent.futures import ThreadPoolExecutor

    parts = [faces[i:i + chunk] for i in range(0, len(faces), chunk)]
    with ThreadPoolExecutor(max_workers=2) as ex:
        return np.concatenate(list(ex.map(lambda f: point_triangle_distance(point, triangles[f]), parts)))


def element_centre(scene: DamageScene, i: int) -> np.ndarray:
    if not 0 <= i < scene.n_elements:
        raise NotFoundError(f"element {i} is out of range (the model has {scene.n_elements} elements, 0.."
                            f"{scene.n_elements - 1})")
    e = scene.model.elements[i]
    return (np.asarray(e.bbox_min, dtype=np.float64) + np.asarray(e.bbox_max, dtype=np.float64)) / 2


def check_point_in_model(scene: DamageScene, point: np.ndarray, radius_in: float) -> None:
    """A blast centre farther from the model's box than the blast reaches is a mistake, not a preview."""
    lo, hi = scene.model.bbox_ldu
    pad = radius_in * scene.ldu_per_inch
    p = np.asarray(point, dtype=np.float64)
    if (p < lo - pad).any() or (p > hi + pad).any():
        raise UsageError(f"point {','.join(f'{v:g}' for v in p)} is outside the model (box "
                         f"{','.join(f'{v:g}' for v in lo)} .. {','.join(f'{v:g}' for v in hi)} LDU, "
                         f"blast radius {radius_in:g}\")")


# ------------------------------------------------------------------ the blast

def make_blast(centre, spec: DiceSpec, rules, *, rolls: list[DieRoll] | None = None, rng=None,
               expected: bool = False, bonus_dice: bool = True) -> Blast:
    """Rings from fixed rolls, a random generator, or the expected (average) dice."""
    if rolls is None and not expected:
        if rng is None:
            rng = np.random.default_rng()
        rolls = roll_dice(spec, rng, rules, bonus_dice)
    rings = expected_rings(spec, rules, bonus_dice) if rolls is None else explosion_rings(rolls, rules,
                                                                                         bonus_dice=bonus_dice)
    return Blast(np.asarray(centre, dtype=np.float64), spec, rolls, rings)


def ring_geometry(scene: DamageScene, blasts: list[Blast]) -> tuple[np.ndarray, np.ndarray]:
    """(B,E) ring index per element per blast (-1 outside) and distance in inches."""
    n = scene.n_elements
    ring_idx = np.full((len(blasts), n), -1, dtype=np.int64)
    dist_in = np.full((len(blasts), n), np.inf)
    for k, bl in enumerate(blasts):
        outer = np.array([r.outer_radius_in for r in bl.rings])
        d = element_distances(scene, bl.centre, bl.radius_in * scene.ldu_per_inch,
                              outer * scene.ldu_per_inch) / scene.ldu_per_inch
        dist_in[k] = d
        r = np.searchsorted(outer - 1e-9, d, side="left")  # "within 2 inches" includes 2
        ring_idx[k] = np.where(np.isfinite(d) & (r < len(outer)), r, -1)
    return ring_idx, dist_in


def armor_classes(scene: DamageScene, reached: np.ndarray) -> tuple[list[tuple[int, float]], np.ndarray]:
    """The (creation, SL) classes among reached elements, in creation order, higher SL first."""
    rules = scene.rules
    cls_of = np.full(scene.n_elements, -1, dtype=np.int64)
    keys: dict[tuple[int, float], list[int]] = {}
    for i in np.flatnonzero(reached).tolist():
        b = int(scene.owner[i])
        keys.setdefault((b, scene.bodies[b].element_sl(i, rules)), []).append(i)
    order = sorted(keys, key=lambda k: (k[0], -k[1]))
    for c, k in enumerate(order):
        cls_of[keys[k]] = c
    return order, cls_of


def parse_armor_rolls(text: str | None) -> list[float] | None:
    if text is None:
        return None
    out = []
    for t in str(text).split(","):
        t = t.strip()
        if not t:
            continue
        try:
            v = float(t)
        except ValueError:
            raise UsageError(f"--armor-rolls: {t!r} is not a number") from None
        if v < 0:
            raise UsageError(f"--armor-rolls: {t} is below 0 (a roll's lowest result is 0 [000 §1.2])")
        out.append(v)
    if not out:
        raise UsageError("--armor-rolls is empty")
    return out


def roll_classes(scene: DamageScene, classes: list[tuple[int, float]], armor_rolls: list[float] | None, *,
                 rng=None, expected: bool = False, bonus_dice: bool = True) -> list[ArmorClass]:
    """One Armor roll per class; ``armor_rolls`` fixes them (one value for all, or one per class in order)."""
    rules = scene.rules
    if armor_rolls is not None and len(armor_rolls) not in (1, len(classes)):
        names = "; ".join(f"{scene.bodies[b].name} SL {sl:g}" for b, sl in classes)
        raise UsageError(f"--armor-rolls gives {len(armor_rolls)} rolls but the blast reaches {len(classes)} "
                         f"Armor classes ({names}); give 1 or {len(classes)}")
    if rng is None:
        rng = np.random.default_rng()
    out = []
    for c, (b, sl) in enumerate(classes):
        body = scene.bodies[b]
        armor = armor_text(sl, rules, body.armor_fixed if sl == body.sl else None)
        if armor_rolls is not None:
            roll, src = armor_rolls[0 if len(armor_rolls) == 1 else c], "given"
        elif expected:
            roll, src = expected_armor(armor, rules, bonus_dice), "expected"
        else:
            roll, src = roll_armor(armor, rng, rules, bonus_dice), "rolled"
        out.append(ArmorClass(b, body.name, sl, armor, roll, src))
    return out


def kill_small(scene: DamageScene, destroyed: np.ndarray) -> np.ndarray:
    """Size 1" creations (minifigs) that lose any element are killed whole [000 §7.2 Taking Damage].

    Works on (E,) or (T,E) masks.
    """
    out = destroyed.copy()
    for body in scene.bodies:
        if body.size <= 1 and len(body.elements) > 1:
            idx = np.asarray(body.elements)
            hit = out[..., idx].any(axis=-1)
            if hit.any():
                out[..., idx] |= hit[..., None] if out.ndim > 1 else hit
    return out


def explode(scene: DamageScene, blasts: list[Blast], *, armor_rolls: list[float] | None = None, rng=None,
            expected: bool = False, bonus_dice: bool = True, cover: bool | list["Cover"] = True,
            geometry: tuple[np.ndarray, np.ndarray] | None = None) -> DamageResult:
    """Apply one or more explosions to the scene and re-split what is left [000 §8.4, §7.2].

    ``cover``: True works out which elements are fully behind cover [000 §3.2], False treats every element in
    the rings as exposed, or pass the ``Cover`` of each blast (``blast_cover``) to reuse it.
    """
    if not blasts:
        raise UsageError("no explosion given")
    ring_idx, dist_in = geometry if geometry is not None else ring_geometry(scene, blasts)
    reached = (ring_idx >= 0).any(axis=0)
    classes, cls_of = armor_classes(scene, reached)
    armor = roll_classes(scene, classes, armor_rolls, rng=rng, expected=expected, bonus_dice=bonus_dice)
    rolls = np.array([a.roll for a in armor] + [np.inf])
    covers = (blast_cover(scene, blasts, ring_idx) if cover is True else None) if isinstance(cover, bool) else cover
    # damage each blast does to each element: its ring's damage; -1 (outside) picks the trailing 0
    tables = [np.array([r.damage for r in bl.rings] + [0], dtype=np.float64)[ring_idx[k]]
              for k, bl in enumerate(blasts)]
    destroyed = np.zeros(scene.n_elements, dtype=bool)
    exposed_k = [ring_idx[k] >= 0 for k in range(len(blasts))]
    while True:  # cover that is destroyed stops hiding what is behind it: iterate to the fixed point
        if covers is not None:
            exposed_k = [c.exposure(destroyed) & (ring_idx[k] >= 0) for k, c in enumerate(covers)]
        dmg = sum(t * e for t, e in zip(tables, exposed_k))  # several explosions add their damage [000 §8.4]
        # [000 §5.1] damage must be strictly greater than the Armor roll
        new = kill_small(scene, reached & (dmg > rolls[cls_of]))
        if covers is None or (new == destroyed).all():
            destroyed = new
            break
        destroyed = new
    exposed = np.any(exposed_k, axis=0)
    sections = split_after(scene, destroyed)
    kb_vec = knockback(scene, blasts, ring_idx, destroyed, sections)
    kb_in = {int(i): round(float(np.linalg.norm(kb_vec[i])) / scene.ldu_per_inch, 3)
             for i in np.flatnonzero(np.linalg.norm(kb_vec, axis=1) > 1e-9)}
    res = DamageResult(destroyed, dmg, kb_in, kb_vec, sections, armor, blasts, ring_idx, dist_in, cls_of,
                       ldu_per_inch=scene.ldu_per_inch, exposed=exposed, shielded=reached & ~exposed)
    if covers is None:
        res.notes.append("cover not checked (--no-cover): every element in the rings counts as exposed")
    return res


def knockback(scene: DamageScene, blasts: list[Blast], ring_idx: np.ndarray, destroyed: np.ndarray,
              sections: list[Section]) -> np.ndarray:
    """(E,3) LDU: 1" per die left in the ring, away from the centre, for loose things only [000 §8.4].

    Destroyed elements fly alone; a section broken free moves as one, by the ring of its nearest element.
    """
    n = scene.n_elements
    vec = np.zeros((n, 3))
    lo, hi = scene.boxes()
    centres = (lo + hi) / 2
    movers: list[tuple[np.ndarray, np.ndarray]] = [(np.array([i]), centres[i]) for i in np.flatnonzero(destroyed)]
    for s in sections:
        if s.loose and s.elements:
            idx = np.asarray(s.elements)
            movers.append((idx, centres[idx].mean(axis=0)))
    for idx, centre in movers:
        total = np.zeros(3)
        for k, bl in enumerate(blasts):
            r = ring_idx[k, idx]
            r = r[r >= 0]
            if not len(r):
                continue
            inches = bl.rings[int(r.min())].knockback_in
            d = centre - bl.centre
            norm = np.linalg.norm(d)
            d = d / norm if norm > 1e-9 else np.array([0.0, -1.0, 0.0])  # dead centre: straight up (-Y)
            total += d * inches * scene.ldu_per_inch
        vec[idx] = total
    return vec


# ------------------------------------------------------------------ cover [000 §3.2 Explosives, §8.4]

COVER_SAMPLES = 16  # sample points per element: faces towards the centre, nearest to farthest, + nearest vertex
COVER_MAX_LAYERS = 12  # a ray still blocked after this many distinct elements counts as blocked for good
_SAMPLE_TRIANGLES = 192  # triangles per element the samples are chosen from
_SAMPLE_LIFT_LDU = 0.5  # samples sit just off the surface, on the side facing the blast


@dataclass
class Cover:
    """What hides what from one blast centre.

    ``always[e]``: some ray from the centre reaches element e with nothing in between (or e is not in a ring, or
    contains the centre). Otherwise e has blocker sets: the elements that ray passed through; e is exposed once
    every element of one of its sets is destroyed. Element index ``n`` is a blocker that is never destroyed
    (rays that met more than ``COVER_MAX_LAYERS`` elements).
    """

    n: int
    always: np.ndarray  # (E,) bool
    entries: np.ndarray  # (N,) blocker elements of all sets, set after set
    set_start: np.ndarray  # (S,) where each set starts in ``entries`` (sets are sorted by element)
    elem_ids: np.ndarray  # (C,) elements with sets (not ``always``)
    elem_start: np.ndarray  # (C,) where each element's sets start

    def exposure_many(self, destroyed: np.ndarray) -> np.ndarray:
        """(T,E) bool exposure for (T,E) ``destroyed``, as one sparse product (Monte Carlo)."""
        exp = np.broadcast_to(self.always, destroyed.shape).copy()
        if not len(self.entries):
            return exp
        from scipy.sparse import csr_matrix

        if getattr(self, "_m", None) is None:
            n_sets = len(self.set_start)
            sizes = np.diff(np.r_[self.set_start, len(self.entries)])
            rows = np.repeat(np.arange(n_sets), sizes)
            self._m = csr_matrix((np.ones(len(self.entries), np.float32), (rows, self.entries)),
                                 shape=(n_sets, self.n + 1))
            self._sizes = sizes
        gone = (self._m[:, :self.n] @ destroyed.T.astype(np.float32))  # (S,T) destroyed blockers per set
        open_sets = np.asarray(gone) >= self._sizes[:, None] - 0.5
        per = np.logical_or.reduceat(open_sets, self.elem_start, axis=0)  # (C,T)
        exp[:, self.elem_ids] |= per.T
        return exp

    def exposure(self, destroyed: np.ndarray) -> np.ndarray:
        """(E,) or (T,E) bool: exposed given ``destroyed`` (same shape)."""
        exp = np.broadcast_to(self.always, destroyed.shape).copy()
        if len(self.entries):
            pad = np.zeros(destroyed.shape[:-1] + (1,), dtype=bool)
            d = np.concatenate([destroyed, pad], axis=-1)
            standing = (~d[..., self.entries]).astype(np.int32)  # blockers still there
            open_sets = np.add.reduceat(standing, self.set_start, axis=-1) == 0
            exp[..., self.elem_ids] |= np.logical_or.reduceat(open_sets, self.elem_start, axis=-1)
        return exp


def _sample_points(model, elems: np.ndarray, centre: np.ndarray, k: int,
                   boxes: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(R,3) sample points and (R,) their element, just off the element's surface on the blast's side.

    Per element (vectorised over all of them): its k/2 largest triangles facing the centre (a part's outer walls)
    and k/2 more spread from the nearest facing triangle to the farthest, each centroid lifted
    ``_SAMPLE_LIFT_LDU`` along its outward normal; plus its vertex nearest the centre, pulled that far towards the
    centre. A ray that reaches a sample with nothing in between sees that surface.
    """
    off = model.mesh.element_offsets
    elems = np.asarray(elems, dtype=np.int64)
    counts = off[elems + 1] - off[elems]
    keep = counts > 0
    elems, counts = elems[keep], counts[keep]
    if not len(elems):
        return np.zeros((0, 3)), np.zeros(0, dtype=np.int64)
    stride = -(-counts // _SAMPLE_TRIANGLES)  # big parts: every stride-th triangle is plenty to choose from
    n_sel = -(-counts // stride)
    local = (np.arange(n_sel.sum()) - np.repeat(np.cumsum(np.r_[0, n_sel[:-1]]), n_sel)) * np.repeat(stride, n_sel)
    faces = np.repeat(off[elems], n_sel) + local
    own = np.repeat(np.arange(len(elems)), n_sel)
    t = model.mesh.triangles[faces].astype(np.float64)
    cen = t.mean(axis=1)
    nrm = np.cross(t[:, 1] - t[:, 0], t[:, 2] - t[:, 0])
    area2 = np.linalg.norm(nrm, axis=1)
    good = area2 > 1e-9
    nrm = nrm / np.maximum(area2, 1e-12)[:, None]
    if boxes is None:
        lo, hi = element_boxes(model, elems)
    else:
        lo, hi = boxes[0][elems], boxes[1][elems]
    mid = ((lo + hi) / 2)[own]
    to_c = centre - cen
    # outward normal (away from the element's middle; LDraw winding is not always BFC-certified)
    out = np.sign(((cen - mid) * nrm).sum(1))
    out = np.where(out == 0, np.sign((to_c * nrm).sum(1)), out)
    nrm = nrm * out[:, None]
    facing = good & ((to_c * nrm).sum(1) >= -1e-6)  # edge-on faces count: a centre lying on a face sees it
    dist2 = (to_c ** 2).sum(1)
    half = k // 2
    # rank of each facing triangle within its element, by area (largest first) and by distance (nearest first)
    f = np.flatnonzero(facing)
    o_area = f[np.lexsort((-area2[f], own[f]))]
    o_dist = f[np.lexsort((dist2[f], own[f]))]
    n_f = np.bincount(own[f], minlength=len(elems))
    first = np.r_[0, np.cumsum(n_f)[:-1]]
    rank = np.arange(len(f)) - np.repeat(first, n_f)
    big = o_area[rank < half]
    stride = np.maximum(1, n_f // max(1, k - half))
    st = np.repeat(stride, n_f)
    spread = o_dist[(rank % st == 0) & (rank // st < k - half)]
    pick = np.unique(np.concatenate([big, spread]))
    pts = cen[pick] + nrm[pick] * _SAMPLE_LIFT_LDU
    owner = elems[own[pick]]
    # nearest vertex of each element, pulled towards the centre
    v = t.reshape(-1, 3)
    vd = ((v - centre) ** 2).sum(1)
    vown = np.repeat(own, 3)
    order = np.lexsort((vd, vown))
    firstv = order[np.r_[0, np.flatnonzero(np.diff(vown[order])) + 1]]
    near = v[firstv]
    dv = centre - near
    nd = np.linalg.norm(dv, axis=1, keepdims=True)
    near = near + np.where(nd > 1e-9, dv / np.maximum(nd, 1e-12) * np.minimum(_SAMPLE_LIFT_LDU, nd / 2), 0.0)
    return np.concatenate([pts, near]), np.concatenate([owner, elems[vown[firstv]]])


def cover_for(scene: DamageScene, centre: np.ndarray, in_rings: np.ndarray, engine: str | None = None) -> Cover:
    """Cast rays from ``centre`` to sample points of every element in the rings (``in_rings`` bool (E,)).

    Rays go into the scene's ray engine (one tree per distinct part, ``raycast.RayEngine.for_model``).
    Elements whose box holds the centre are where the blast goes off: they hide nothing. A ray that hits another element is continued from where it leaves that
    element's box, up to ``COVER_MAX_LAYERS`` elements.
    """
    from .raycast import RayEngine

    model = scene.model
    n = scene.n_elements
    centre = np.asarray(centre, dtype=np.float64)
    lo, hi = scene.boxes()
    source = ((lo - 0.5 <= centre) & (centre <= hi + 0.5)).all(axis=1)
    always = ~np.asarray(in_rings, dtype=bool) | source
    targets = np.flatnonzero(~always)
    empty = Cover(n, always, np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64),
                  np.zeros(0, np.int64))
    if not len(targets):
        return empty
    face_elem = model.mesh.face_element
    pts, owner = _sample_points(model, targets, centre, COVER_SAMPLES, (lo, hi))
    # the scene's instanced tree (one per distinct part: built in a fraction of a second and kept for the next
    # blast); an engine asked for by name gets a tree over only what the rays can reach (the box of the centre and
    # the sample points): the same answers either way
    if len(pts) and engine is not None:
        box_lo = np.minimum(pts.min(axis=0), centre)
        box_hi = np.maximum(pts.max(axis=0), centre)
        eng = RayEngine.for_region(model.mesh, lo, hi, box_lo, box_hi, engine)
    else:
        eng = scene.ray_engine()
    no_geometry = np.setdiff1d(targets, owner)  # missing parts: nothing to aim at, count them as exposed
    always = always.copy()
    always[no_geometry] = True
    d = pts - centre
    dist = np.linalg.norm(d, axis=1)
    ok = dist > 1e-6
    always[owner[~ok]] = True
    pts, owner, d, dist = pts[ok], owner[ok], d[ok], dist[ok]
    u = d / dist[:, None]
    start = np.full(len(pts), 0.05)  # a centre on a surface must not hit that surface at t = 0
    active = np.arange(len(pts))
    found: list[list[int]] = [[] for _ in range(len(pts))]
    blocked_for_good = np.zeros(len(pts), dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / u
    for layer in range(COVER_MAX_LAYERS + 1):
        if not len(active):
            break
        o = centre + u[active] * start[active, None]
        h = eng.first_hit(o, u[active], (dist[active] - start[active]).astype(np.float32))
        e_hit = np.where(h.face >= 0, face_elem[np.clip(h.face, 0, None)], -1)
        done = (h.face < 0) | (e_hit == owner[active])
        nxt = active[~done]
        if not len(nxt):
            break
        eb = e_hit[~done]
        passes = (eb < 0) | source[np.clip(eb, 0, None)]  # the blast goes off inside these: they hide nothing
        if layer == COVER_MAX_LAYERS:
            blocked_for_good[nxt[~passes]] = True
            break
        for r, e in zip(nxt[~passes].tolist(), eb[~passes].tolist()):
            found[r].append(e)
        # continue from where the ray leaves the blocker's box (or just past the hit)
        with np.errstate(invalid="ignore"):
            t1 = (lo[eb] - centre) * inv[nxt]
            t2 = (hi[eb] - centre) * inv[nxt]
        t1 = np.where(np.isnan(t1), -np.inf, t1)
        t2 = np.where(np.isnan(t2), np.inf, t2)
        t_exit = np.maximum(t1, t2).min(axis=1)
        t_hit = start[nxt] + h.t[~done].astype(np.float64)
        start[nxt] = np.maximum(t_exit, t_hit) + 0.05
        still = start[nxt] < dist[nxt]
        active = nxt[still]  # past the sample: the ray got there behind the blockers found so far
    clear = np.array([not f and not g for f, g in zip(found, blocked_for_good)], dtype=bool)
    always[owner[clear]] = True
    sets: dict[int, set[tuple[int, ...]]] = {}
    for r in np.flatnonzero(~clear).tolist():
        e = int(owner[r])
        if always[e]:
            continue
        key = tuple(sorted(set(found[r]))) + ((n,) if blocked_for_good[r] else ())
        sets.setdefault(e, set()).add(key)
    if not sets:
        return Cover(n, always, empty.entries, empty.set_start, empty.elem_ids, empty.elem_start)
    entries, set_start, elem_ids, elem_start = [], [], [], []
    for e in sorted(sets):
        elem_ids.append(e)
        elem_start.append(len(set_start))
        for key in sorted(sets[e]):
            set_start.append(len(entries))
            entries.extend(key)
    return Cover(n, always, np.array(entries, np.int64), np.array(set_start, np.int64), np.array(elem_ids, np.int64),
                 np.array(elem_start, np.int64))


def blast_cover(scene: DamageScene, blasts: list[Blast], ring_idx: np.ndarray) -> list[Cover]:
    """The ``Cover`` of each blast."""
    return [cover_for(scene, bl.centre, ring_idx[k] >= 0) for k, bl in enumerate(blasts)]
