"""Dice for damage previews: fixed rolls (replay a table), seeded random rolls, or deterministic averages.

The ring arithmetic lives in ``brikscan.rules.formulas`` (``explosion_rings``); this module only turns the user's
``--dice/--rolls/--seed/--expected`` into the dice that arithmetic takes, and rolls Armor once per
(creation, Structure Level) class [000 §8.4 Wall Demolition: one Armor roll per object per explosion].
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import UsageError
from ..rules.formulas import Ring, armor_for_sl, bonus_die_for, expected_rolls, parse_dice
from ..rules.tables import Rules

DieRoll = tuple[int, ...]  # (face, bonus, bonus, ...): a die on its top face earns a chained Bonus Die [000 §1.2]


@dataclass(frozen=True)
class DiceSpec:
    count: int
    sides: int

    def __str__(self) -> str:
        return f"{self.count}d{self.sides}"


def parse_explosion_dice(text: str, rules: Rules) -> DiceSpec:
    """"3d10" -> DiceSpec(3, 10); explosions are d10s only [000 §8.4 Heavy Explosives]."""
    n, sides = parse_dice(text)
    if sides != rules.explosion.die:
        raise UsageError(f"explosion dice must be d{rules.explosion.die}s, got {text!r} [000 §8.4 Heavy Explosives]")
    if n > 200:
        raise UsageError(f"{n} dice is more than brikscan previews (max 200)")
    return DiceSpec(n, sides)


def parse_rolls(text: str, spec: DiceSpec, rules: Rules, what: str = "--rolls") -> list[DieRoll]:
    """"3,6,7" or "10+4,2" (a 10 followed by its Bonus d6) into one DieRoll per die; counts must match."""
    bonus = bonus_die_for(spec.sides, rules)
    out: list[DieRoll] = []
    items = [t.strip() for t in str(text).split(",") if t.strip()]
    for item in items:
        try:
            parts = tuple(int(p) for p in item.split("+"))
        except ValueError:
            raise UsageError(f"{what}: {item!r} is not a die roll (want e.g. 3,6,7 or 10+4)") from None
        face = parts[0]
        if not 1 <= face <= spec.sides:
            raise UsageError(f"{what}: roll {face} is not on a d{spec.sides} (1..{spec.sides})")
        prev_max = face == spec.sides
        for b in parts[1:]:
            if not prev_max:
                raise UsageError(f"{what}: bonus die in {item!r} follows a roll that was not a {spec.sides}")
            if not 1 <= b <= bonus:
                raise UsageError(f"{what}: bonus roll {b} is not on a d{bonus}")
            prev_max = b == bonus
        out.append(parts)
    if len(out) != spec.count:
        raise UsageError(f"{what} gives {len(out)} dice but the explosion is {spec} (give {spec.count})")
    return out


def roll_die(rng: np.random.Generator, sides: int, rules: Rules, bonus_dice: bool) -> DieRoll:
    face = int(rng.integers(1, sides + 1))
    parts = [face]
    b, top = bonus_die_for(sides, rules), face == sides
    while bonus_dice and top:  # [000 §1.2 Critical Success] bonus dice chain
        r = int(rng.integers(1, b + 1))
        parts.append(r)
        top = r == b
    return tuple(parts)


def roll_dice(spec: DiceSpec, rng: np.random.Generator, rules: Rules, bonus_dice: bool) -> list[DieRoll]:
    return [roll_die(rng, spec.sides, rules, bonus_dice) for _ in range(spec.count)]


def _order_stat_means(n: int, sides: int, bonus_mean: float) -> list[float]:
    """E[k-th smallest of n dice] for k = 1..n, with a top face's Bonus Dice riding along with it."""
    out = []
    for k in range(1, n + 1):
        e = 0.0
        p_top = 0.0
        for v in range(sides):  # E[X] = sum P(X > v)
            f = v / sides
            p_le = sum(math.comb(n, j) * f ** j * (1 - f) ** (n - j) for j in range(k, n + 1))
            e += 1.0 - p_le
            if v == sides - 1:
                p_top = 1.0 - p_le  # P(X_(k) = sides)
        out.append(e + p_top * bonus_mean)
    return out


def expected_rings(spec: DiceSpec, rules: Rules, bonus_dice: bool) -> list[Ring]:
    """Deterministic average rings: ring j takes the mean of the lowest n-j dice (order statistics)."""
    bonus_mean = expected_rolls(1, bonus_die_for(spec.sides, rules), rules, True) if bonus_dice else 0.0
    means = _order_stat_means(spec.count, spec.sides, bonus_mean)
    ex = rules.explosion
    rings = []
    for j in range(spec.count):
        left = spec.count - j
        rings.append(Ring(outer_radius_in=(j + 1) * ex.ring_width_in, damage=round(sum(means[:left]), 2),
                          dice_left=left, inner_radius_in=j * ex.ring_width_in,
                          knockback_in=left * ex.knockback_in_per_die))
    return rings


# ------------------------------------------------------------------ armor

def armor_text(sl: float, rules: Rules, fixed: int | None = None) -> str:
    """Armor dice of a Structure Level [000 §7.1]; minifigs use the fixed 4 [000 §9.5 The Minifig]."""
    if fixed is not None:
        return str(int(fixed))
    return armor_for_sl(sl, rules)


def _parse_armor(armor: str) -> tuple[int, int, int]:
    """"3d10" -> (3, 10, 0); "4" -> (0, 0, 4); "0" -> (0, 0, 0)."""
    a = armor.strip().lower()
    if "d" in a:
        n, s = parse_dice(a)
        return n, s, 0
    return 0, 0, int(a)


def roll_armor(armor: str, rng: np.random.Generator, rules: Rules, bonus_dice: bool) -> int:
    n, s, fixed = _parse_armor(armor)
    if not n:
        return fixed
    return sum(sum(roll_die(rng, s, rules, bonus_dice)) for _ in range(n))


def expected_armor(armor: str, rules: Rules, bonus_dice: bool) -> float:
    n, s, fixed = _parse_armor(armor)
    if not n:
        return float(fixed)
    return round(expected_rolls(n, s, rules, bonus_dice), 2)


def roll_many(rng: np.random.Generator, trials: int, n: int, sides: int, rules: Rules,
              bonus_dice: bool) -> np.ndarray:
    """(trials, n) die totals (face + chained Bonus Dice), vectorised for Monte Carlo."""
    faces = rng.integers(1, sides + 1, size=(trials, n))
    total = faces.astype(np.int64)
    if bonus_dice and n:
        b = bonus_die_for(sides, rules)
        live = faces == sides
        while live.any():
            r = rng.integers(1, b + 1, size=int(live.sum()))
            total[live] += r
            nxt = np.zeros_like(live)
            nxt[live] = r == b
            live = nxt
    return total


def roll_armor_many(rng: np.random.Generator, trials: int, armor: str, rules: Rules, bonus_dice: bool) -> np.ndarray:
    n, s, fixed = _parse_armor(armor)
    if not n:
        return np.full(trials, fixed, dtype=np.int64)
    return roll_many(rng, trials, n, s, rules, bonus_dice).sum(axis=1)
