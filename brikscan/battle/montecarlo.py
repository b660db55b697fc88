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
from ..progress import ProgressCallback, current, steps
from .dice import armor_text, roll_armor_many, roll_many
from .explosion import Blast, armor_classes, blast_cover, kill_small, ring_geometry
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
                armor_rolls: list[float] | None = None, cover=True, geometry=None,
                progress: ProgressCallback | None = None) -> MonteCarlo:
    """``trials`` random replays of the blasts (dice and Armor re-rolled each time unless ``armor_rolls`` fix it).

    ``cover`` as in ``explode``: True works out what hides behind what [000 §3.2] (once: the geometry does not
    change between trials), then every trial iterates "destroyed cover exposes what it hid" to its fixed point.
    """
    if trials < 1 or trials > 1_000_000:
        raise UsageError(f"--trials must be between 1 and 1000000, got {trials}")
    rng = np.random.default_rng() if rng is None else rng
    label = f"Monte Carlo ({trials} trials)"
    cb = current(progress)
    cb(label, 0, None)  # rolling: no count yet; the re-split of each distinct outcome is counted below
    rules = scene.rules
    n = scene.n_elements
    ring_idx, _ = geometry if geometry is not None else ring_geometry(scene, blasts)
    reached = (ring_idx >= 0).any(axis=0)
    cols = np.flatnonzero(reached)
    covers = (blast_cover(scene, blasts, ring_idx) if cover is True else None) if isinstance(cover, bool) else cover
    classes, cls_of = armor_classes(scene, reached)
    if armor_rolls is not None and len(armor_rolls) not in (1, len(classes)):
        raise UsageError(f"--armor-rolls gives {len(armor_rolls)} rolls but the blast reaches {len(classes)} "
                         f"Armor classes; give 1 or {len(classes)}")
    dmg_k = []
    for k, bl in enumerate(blasts):
        totals = roll_many(rng, trials, bl.dice.count, bl.dice.sides, rules, bonus_dice)
        table = ring_damage_table(totals, len(bl.rings))
        dmg_k.append(table[:, ring_idx[k, cols]])  # -1 (outside) picks the trailing 0 column
    dmg = np.sum(dmg_k, axis=0)
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
    if covers is not None and any(len(c.entries) for c in covers):
        full = np.zeros((trials, n), dtype=bool)
        thresh = armor[:, cls_of[cols]]
        todo = np.arange(trials)  # trials whose destroyed set still grows
        while len(todo):  # destroyed cover exposes what it hid, in every trial at once, to the fixed point
            cur = full[todo]
            dmg = sum(d[todo] * c.exposure_many(cur)[:, cols] for d, c in zip(dmg_k, covers))
            new = np.zeros_like(cur)
            new[:, cols] = dmg > thresh[todo]
            new = kill_small(scene, new) if small else new
            grew = (new != cur).any(axis=1)
            full[todo] = new
            todo = todo[grew]
        extra = np.unique(np.concatenate([b.elements for b in small])) if small else np.zeros(0, np.int64)
        cols = np.union1d(cols, extra)
        gone = full[:, cols]
        small = []
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
    for u in steps(range(len(uniq)), label, progress=cb):
        row = np.unpackbits(uniq[u])[:len(cols)].astype(bool)
        destroyed = np.zeros(n, dtype=bool)
        destroyed[cols[row]] = True
        p_split += weights[u] * (sections_per_creation(scene, destroyed) > np.maximum(base, 1))
    q = {f"p{int(x * 100)}": float(np.quantile(lost, x)) for x in (0.05, 0.5, 0.95)}
    return MonteCarlo(trials, p, float(lost.mean()), q,
                      {scene.bodies[b].name: round(float(p_split[b]), 4) for b in range(len(scene.bodies))
                       if scene.bodies[b].elements and (reached[scene.bodies[b].elements].any())},
                      len(uniq))


def monte_carlo_hit(scene: DamageScene, plan: list[dict], trials: int, *, rng=None, damage: float | None = None,
                    dice: tuple[int, int] | None = None, bonus_dice: bool = True,
                    armor_rolls: list[float] | None = None, progress: ProgressCallback | None = None) -> MonteCarlo:
    """``trials`` replays of one Component Damage attack [000 §7.2]: the damage (``dice`` re-rolled, or a fixed
    ``damage`` total) and every Armor roll along the line are re-rolled (``armor_rolls`` fix them in order).

    ``plan`` is the attack's chain if every roll is beaten (``component_damage.plan_chain``); a trial breaks the
    first k components of it, where k is the first Armor roll the leftover damage does not beat, so there are at
    most len(plan)+1 outcomes and the re-split runs once per outcome.
    """
    if trials < 1 or trials > 1_000_000:
        raise UsageError(f"--trials must be between 1 and 1000000, got {trials}")
    if (damage is None) == (dice is None):
        raise UsageError("Monte Carlo of a hit needs the damage: a fixed total or dice")
    rng = np.random.default_rng() if rng is None else rng
    rules = scene.rules
    n = scene.n_elements
    if dice is not None:
        left = roll_many(rng, trials, dice[0], dice[1], rules, bonus_dice).sum(axis=1).astype(np.float64)
    else:
        left = np.full(trials, float(damage))
    k = np.zeros(trials, dtype=np.int64)  # components broken per trial
    going = np.ones(trials, dtype=bool)
    given = list(armor_rolls or [])
    for j, step in enumerate(plan):
        if given:
            roll = np.full(trials, float(given.pop(0)))
        else:
            roll = roll_armor_many(rng, trials, step["armor"], rules, bonus_dice).astype(np.float64)
        beat = going & (left > roll)  # [000 §5.1] strictly greater
        k[beat] = j + 1
        left = np.where(beat, left - roll, left)  # [000 §7.2 Overkill] the leftover carries on
        going = beat & (left > 0)
    counts = np.bincount(k, minlength=len(plan) + 1) / trials
    base = sections_per_creation(scene, np.zeros(n, dtype=bool))
    p = np.zeros(n)
    p_split = np.zeros(len(scene.bodies))
    lost_per_k = np.zeros(len(plan) + 1)
    destroyed = np.zeros(n, dtype=bool)
    for j in steps(range(len(plan) + 1), f"Monte Carlo ({trials} trials)", progress=progress):
        if j:
            destroyed[plan[j - 1]["removed"]] = True
        lost_per_k[j] = destroyed.sum()
        if counts[j] > 0:
            p[destroyed] += counts[j]
            p_split += counts[j] * (sections_per_creation(scene, destroyed) > np.maximum(base, 1))
    lost = lost_per_k[k]
    q = {f"p{int(x * 100)}": float(np.quantile(lost, x)) for x in (0.05, 0.5, 0.95)}
    touched = {step["body"] for step in plan}
    return MonteCarlo(trials, p, float(lost.mean()), q,
                      {scene.bodies[b].name: round(float(p_split[b]), 4) for b in sorted(touched)},
                      int((counts > 0).sum()))
