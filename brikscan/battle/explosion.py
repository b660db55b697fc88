"""Explosions on a model [000 §8.4 Heavy Explosives]: rings of 2", Armor rolled once per creation and SL class,
elements destroyed where ring damage beats that roll, KnockBack away from the centre, then the re-split.

An element is in a ring when the nearest point of its triangles is within the ring's outer radius
(DIGEST §13.11); cover/exposure is not modelled (every element in the radius counts as exposed).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import NotFoundError, UsageError
from ..rules.formulas import Ring
from .dice import (DiceSpec, DieRoll, armor_text, expected_armor, expected_rings, rings_from_rolls, roll_armor,
                   roll_dice)
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
        faces = np.repeat(s2 - np.cumsum(np.r_[0, n2[:-1]]), n2) + np.arange(n2.sum())
        v = model.mesh.triangles[faces].reshape(-1, 3) - point.astype(np.float32)
        vd = np.sqrt(np.einsum("ij,ij->i", v, v).reshape(-1, 3).min(axis=1))
        up = np.minimum.reduceat(vd, np.r_[0, np.cumsum(n2)[:-1]])
        same = np.searchsorted(boundaries - 1e-6, box[c2]) == np.searchsorted(boundaries - 1e-6, up)
        out[c2[same]] = box[c2[same]]
        c2, s2, n2 = c2[~same], s2[~same], n2[~same]
    if len(c2):
        faces = np.repeat(s2 - np.cumsum(np.r_[0, n2[:-1]]), n2) + np.arange(n2.sum())
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
    rings = expected_rings(spec, rules, bonus_dice) if rolls is None else rings_from_rolls(rolls, rules, bonus_dice)
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


def blast_damage(blasts: list[Blast], ring_idx: np.ndarray) -> np.ndarray:
    """Damage each element takes; several explosions add their damage, not their radii [000 §8.4]."""
    dmg = np.zeros(ring_idx.shape[1])
    for k, bl in enumerate(blasts):
        table = np.array([r.damage for r in bl.rings] + [0], dtype=np.float64)
        dmg += table[ring_idx[k]]  # -1 picks the trailing 0
    return dmg


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
            expected: bool = False, bonus_dice: bool = True) -> DamageResult:
    """Apply one or more explosions to the scene and re-split what is left [000 §8.4, §7.2]."""
    if not blasts:
        raise UsageError("no explosion given")
    ring_idx, dist_in = ring_geometry(scene, blasts)
    dmg = blast_damage(blasts, ring_idx)
    reached = (ring_idx >= 0).any(axis=0)
    classes, cls_of = armor_classes(scene, reached)
    armor = roll_classes(scene, classes, armor_rolls, rng=rng, expected=expected, bonus_dice=bonus_dice)
    rolls = np.array([a.roll for a in armor] + [np.inf])
    # [000 §5.1] damage must be strictly greater than the Armor roll
    destroyed = kill_small(scene, reached & (dmg > rolls[cls_of]))
    sections = split_after(scene, destroyed)
    kb_vec = knockback(scene, blasts, ring_idx, destroyed, sections)
    kb_in = {int(i): round(float(np.linalg.norm(kb_vec[i])) / scene.ldu_per_inch, 3)
             for i in np.flatnonzero(np.linalg.norm(kb_vec, axis=1) > 1e-9)}
    return DamageResult(destroyed, dmg, kb_in, kb_vec, sections, armor, blasts, ring_idx, dist_in, cls_of,
                        ldu_per_inch=scene.ldu_per_inch)


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
