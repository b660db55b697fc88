"""Monte Carlo over explosion dice and Armor rolls: how likely each element is to go, how many bricks are lost,
how likely each creation is to split.

The geometry (which ring each element is in) does not change between trials, so a trial is only dice: all
trials are rolled at once as arrays, and the connectivity is recomputed once per distinct set of destroyed
elements (there are few: damage falls ring by ring, so what goes is decided by a threshold per Armor class).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import UsageError
from .dice import armor_text, roll_armor_many, roll_many
from .explosion import Blast, armor_classes, kill_small, ring_geometry
from .scene import DamageScene, _components


@dataclass
class MonteCarlo:
    trials: int
    p_destroyed: np.ndarray  # (E,) probability each element is destroyed
    expected_lost: float  # expected number of elements destroyed
    lost_quantiles: dict[str, float]
    p_split: dict[str, float]  # creation name -> probability it ends up in 2+ sections
    distinct_outcomes: int

    def to_json(self) -> dict:
        nz = np.flatnonzero(self.p_destroyed > 0)
        return {"trials": self.trials, "expected_destroyed": round(self.expected_lost, 3),
                "destroyed_quantiles": self.lost_quantiles, "p_split": self.p_split,
                "p_destroyed": {str(int(i)): round(float(self.p_destroyed[i]), 4) for i in nz},
                "distinct_outcomes": self.distinct_outcomes}


def ring_damage_table(totals: np.ndarray, n_rings: int) -> np.ndarray:
    """(T, n_rings+1) damage per ring from (T, N) die totals: ring k drops the k highest dice [000 §8.4]."""
    t = np.sort(totals, axis=1)[:, ::-1]
    total = t.sum(axis=1, keepdims=True)
    drop = np.concatenate([np.zeros((len(t), 1), dtype=t.dtype), np.cumsum(t, axis=1)[:, :n_rings - 1]], axis=1)
    return np.concatenate([total - drop, np.zeros((len(t), 1), dtype=t.dtype)], axis=1)


def sections_per_creation(scene: DamageScene, destroyed: np.ndarray) -> np.ndarray:
    """(bodies,) number of connected pieces holding Structural elements, after ``destroyed`` are gone."""
    alive = ~destroyed
    labels = _components(scene.n_elements, scene.edges, alive)
    out = np.zeros(len(scene.bodies), dtype=np.int64)
    for b, body in enumerate(scene.bodies):
        st = np.fromiter(body.structural or body.elements, dtype=np.int64)
        st = st[alive[st]]
        out[b] = len(np.unique(labels[st]))
    return out


def monte_carlo(scene: DamageScene, blasts: list[Blast], trials: int, *, rng=None, bonus_dice: bool = True,
                armor_rolls: list[float] | None = None) -> MonteCarlo:
    """``trials`` random replays of the blasts (dice and Armor re-rolled each time unless ``armor_rolls`` fix it)."""
    if trials < 1 or trials > 1_000_000:
        raise UsageError(f"--trials must be between 1 and 1000000, got {trials}")
    rng = np.random.default_rng() if rng is None else rng
    rules = scene.rules
    n = scene.n_elements
    ring_idx, _ = ring_geometry(scene, blasts)
    reached = (ring_idx >= 0).any(axis=0)
    cols = np.flatnonzero(reached)
    classes, cls_of = armor_classes(scene, reached)
    if armor_rolls is not None and len(armor_rolls) not in (1, len(classes)):
        raise UsageError(f"--armor-rolls gives {len(armor_rolls)} rolls but the blast reaches {len(classes)} "
                         f"Armor classes; give 1 or {len(classes)}")
    dmg = np.zeros((trials, len(cols)))
    for k, bl in enumerate(blasts):
        totals = roll_many(rng, trials, bl.dice.count, bl.dice.sides, rules, bonus_dice)
        table = ring_damage_table(totals, len(bl.rings))
        dmg += table[:, ring_idx[k, cols]]  # -1 (outside) picks the trailing 0 column
    armor = np.empty((trials, len(classes)))
    for c, (b, sl) in enumerate(classes):
        body = scene.bodies[b]
        if armor_rolls is not None:
            armor[:, c] = armor_rolls[0 if len(armor_rolls) == 1 else c]
        else:
            armor[:, c] = roll_armor_many(rng, trials, armor_text(sl, rules, body.armor_fixed if sl == body.sl
                                                                  else None), rules, bonus_dice)
    gone = dmg > armor[:, cls_of[cols]]  # [000 §5.1] strictly greater than the Armor roll
    small = [b for b in scene.bodies if b.size <= 1 and len(b.elements) > 1 and reached[b.elements].any()]
    if small:  # minifigs die whole [000 §7.2 Taking Damage]; they may reach past the blast's elements
        extra = np.unique(np.concatenate([b.elements for b in small]))
        cols = np.union1d(cols, extra)
        full = np.zeros((trials, n), dtype=bool)
        full[:, np.flatnonzero(reached)] = gone
        gone = kill_small(scene, full)[:, cols]
    p = np.zeros(n)
    p[cols] = gone.mean(axis=0)
    lost = gone.sum(axis=1)
    packed = np.packbits(gone, axis=1) if len(cols) else np.zeros((trials, 1), dtype=np.uint8)
    uniq, inverse = np.unique(packed, axis=0, return_inverse=True)
    inverse = np.asarray(inverse).reshape(-1)
    weights = np.bincount(inverse, minlength=len(uniq)) / trials
    base = sections_per_creation(scene, np.zeros(n, dtype=bool))
    p_split = np.zeros(len(scene.bodies))
    for u in range(len(uniq)):
        row = np.unpackbits(uniq[u])[:len(cols)].astype(bool)
        destroyed = np.zeros(n, dtype=bool)
        destroyed[cols[row]] = True
        p_split += weights[u] * (sections_per_creation(scene, destroyed) > np.maximum(base, 1))
    q = {f"p{int(x * 100)}": float(np.quantile(lost, x)) for x in (0.05, 0.5, 0.95)}
    return MonteCarlo(trials, p, float(lost.mean()), q,
                      {scene.bodies[b].name: round(float(p_split[b]), 4) for b in range(len(scene.bodies))
                       if scene.bodies[b].elements and (reached[scene.bodies[b].elements].any())},
                      len(uniq))
