"""The blast/hit previews end to end: user options in, a ``DamageResult`` and its JSON contract out.

The CLI is a thin wrapper over ``run_blast`` / ``run_hit``; checks and tests call these directly.
"""
from __future__ import annotations

import numpy as np

from ..errors import UsageError
from ..analysis.stats import Analysis, analyse
from ..rules.formulas import expected_rolls, parse_dice
from .component_damage import component_hit
from .dice import DiceSpec, parse_explosion_dice, parse_rolls, roll_dice
from .explosion import (Blast, DamageResult, blast_cover, check_point_in_model, element_centre, explode,
                        make_blast, parse_armor_rolls, ring_geometry)
from .montecarlo import MonteCarlo, monte_carlo
from .scene import DamageScene, build_scene


def analysis_of(target, *, rules: str = "2010", scale: str = "inch", sl: float | None = None) -> Analysis:
    """The one analysis a battle command works on: ``target`` itself, or the analysis of a loaded model."""
    if isinstance(target, Analysis):
        if sl is not None or str(rules) != target.rules or scale != target.scale:
            raise UsageError("pass --sl, --rules and --scale to the analysis, not to a battle function")
        return target
    return analyse(target, rules=rules, scale=scale, sl=sl)


def parse_point(text: str, what: str = "--at") -> np.ndarray:
    parts = [p for p in str(text).replace(" ", "").split(",") if p != ""]
    try:
        vals = [float(p) for p in parts]
    except ValueError:
        vals = []
    if len(vals) != 3 or not all(np.isfinite(vals)):
        raise UsageError(f"{what} wants X,Y,Z in LDraw units (LDU), got {text!r}")
    return np.array(vals, dtype=np.float64)


def resolve_element(scene: DamageScene, text, what: str) -> int:
    """An element index from an index, a part id or a creation name (see ``Analysis.resolve_element``)."""
    return scene.analysis.resolve_element(text, what)


def point_or_element(scene: DamageScene, text: str, what: str) -> np.ndarray:
    """X,Y,Z in LDU, or the centre of an element named by index, part id or creation name."""
    try:
        return parse_point(text, what)
    except UsageError:
        if "," in str(text):
            raise
        return element_centre(scene, resolve_element(scene, text, what))


def run_blast(target, *, at: list[str] | None = None, at_element: list[int | str] | None = None,
              dice: str = "3d10", rolls: str | None = None, armor_rolls: str | None = None, seed: int | None = None,
              expected: bool = False, bonus_dice: bool = True, sl: float | None = None, size_damage: int = 0,
              scale: str = "inch", rules: str = "2010", trials: int = 0,
              scene: DamageScene | None = None,
              cover: bool = True) -> tuple[DamageScene, DamageResult, MonteCarlo | None]:
    """One or more explosions (``at`` points and/or ``at_element`` elements), re-split, optional Monte Carlo.

    ``target``: an ``Analysis`` or a loaded model (analysed with ``rules``, ``scale`` and ``sl``).
    ``dice``/``rolls`` may list one entry per explosion separated by ``;`` (one entry applies to all).
    """
    if scene is None:
        scene = build_scene(analysis_of(target, rules=rules, scale=scale, sl=sl), size_damage=size_damage)
    r = scene.rules
    n_blasts = len(at or []) + len(at_element or [])
    if n_blasts == 0:
        raise UsageError("give the explosion's centre: --at X,Y,Z or --at-element N")
    dice_list = [d for d in str(dice).split(";") if d.strip()]
    if len(dice_list) not in (1, n_blasts):
        raise UsageError(f"--dice lists {len(dice_list)} explosions but {n_blasts} centres are given")
    specs = [parse_explosion_dice(d, r) for d in dice_list] * (n_blasts if len(dice_list) == 1 else 1)
    roll_list: list[str | None] = [None] * n_blasts
    if rolls is not None:
        if expected:
            raise UsageError("--rolls and --expected contradict each other: fixed dice or the average, not both")
        parts = [p for p in str(rolls).split(";")]
        if len(parts) != n_blasts:
            raise UsageError(f"--rolls lists {len(parts)} explosions but {n_blasts} centres are given "
                             f"(separate explosions with ';')")
        roll_list = parts
    fixed = [parse_rolls(t, s, r) if t is not None else None for t, s in zip(roll_list, specs)]
    armor = parse_armor_rolls(armor_rolls)
    rng = np.random.default_rng(seed)
    centres = [point_or_element(scene, p, "--at") for p in (at or [])] + \
        [element_centre(scene, resolve_element(scene, i, "--at-element")) for i in (at_element or [])]
    blasts: list[Blast] = []
    for c, s, f in zip(centres, specs, fixed):
        bl = make_blast(c, s, r, rolls=f, rng=rng, expected=expected and f is None, bonus_dice=bonus_dice)
        check_point_in_model(scene, c, bl.radius_in)
        blasts.append(bl)
    geometry = ring_geometry(scene, blasts)
    covers = blast_cover(scene, blasts, geometry[0]) if cover else False  # [000 §3.2] computed once, used twice
    result = explode(scene, blasts, armor_rolls=armor, rng=rng, expected=expected, bonus_dice=bonus_dice,
                     cover=covers, geometry=geometry)
    mc = monte_carlo(scene, blasts, trials, rng=np.random.default_rng(None if seed is None else seed + 1),
                     bonus_dice=bonus_dice, armor_rolls=armor, cover=covers, geometry=geometry) if trials else None
    return scene, result, mc


def _sections_json(result: DamageResult) -> list[dict]:
    return [s.to_json() for s in result.sections]


def blast_json(scene: DamageScene, result: DamageResult, mc: MonteCarlo | None = None) -> dict:
    """The ``blast --json`` contract: rings, armor_rolls, destroyed, knockback, sections (+ details)."""
    first = result.blasts[0]

    def rings(bl: Blast) -> list[dict]:
        return [{"outer_radius_in": r.outer_radius_in, "inner_radius_in": r.inner_radius_in, "damage": r.damage,
                 "dice_left": r.dice_left, "knockback_in": r.knockback_in} for r in bl.rings]
    reached = np.flatnonzero(result.damage > 0)
    out = {
        "model": str(scene.model.path),
        "rules": scene.rules.edition,
        "ldu_per_inch": scene.ldu_per_inch,
        "graph_source": scene.source,
        "rings": rings(first),
        "armor_rolls": [a.roll for a in result.armor],
        "armor_classes": [a.to_json() for a in result.armor],
        "destroyed": result.destroyed_indices,
        "knockback": {str(k): v for k, v in sorted(result.knockback_in.items())},
        "sections": _sections_json(result),
        "loose_objects": [s.elements for s in result.sections if s.kind == "loose object"],
        "element_damage": {str(int(i)): float(result.damage[i]) for i in reached},
        "blasts": [{"centre_ldu": [float(v) for v in bl.centre], "dice": str(bl.dice),
                    "rolls": None if bl.rolls is None else [list(d) if len(d) > 1 else d[0] for d in bl.rolls],
                    "expected": bl.rolls is None, "rings": rings(bl)} for bl in result.blasts],
        "cover": result.exposed is not None and not any("--no-cover" in n for n in result.notes),
        "shielded": [] if result.shielded is None else np.flatnonzero(result.shielded).tolist(),
        "notes": list(result.notes),
        "creations_before": [{"creation": b.name, "elements": len(b.elements), "size": b.size, "sl": b.sl,
                              "size_damage": b.size_damage} for b in scene.bodies],
    }
    if mc is not None:
        out["monte_carlo"] = mc.to_json()
    return out


def run_hit(target, *, element: int | str | None = None, origin: str | None = None, toward: str | None = None,
            damage: float | None = None, dice: str | None = None, rolls: str | None = None,
            armor_rolls: str | None = None, seed: int | None = None, expected: bool = False,
            bonus_dice: bool = True, overkill: bool = True, chunk: bool = False, reach_in: float | None = None,
            sl: float | None = None, size_damage: int = 0, scale: str = "inch",
            rules: str = "2010", scene: DamageScene | None = None, trials: int = 0,
            weapon_size: float | None = None) -> tuple[DamageScene, DamageResult, dict]:
    """One Component Damage attack [000 §7.2]; returns the scene, result and the damage roll used.

    ``trials`` adds a Monte Carlo (``roll_info["monte_carlo"]``, a ``MonteCarlo``) over the damage dice and the
    Armor rolls along the line; ``weapon_size`` the weapon's KnockBack [000 §8.1 KnockBack].
    """
    if weapon_size is not None and (not np.isfinite(weapon_size) or weapon_size <= 0):
        raise UsageError("--weapon-size must be above 0 inches")
    if trials and (trials < 1 or trials > 1_000_000):
        raise UsageError(f"--trials must be between 1 and 1000000, got {trials}")
    if (damage is None) == (dice is None):
        raise UsageError("give the damage: --damage N (a rolled total) or --dice NdX")
    if scene is None:
        scene = build_scene(analysis_of(target, rules=rules, scale=scale, sl=sl), size_damage=size_damage)
    r = scene.rules
    roll_info: dict = {}
    dice_nd: tuple[int, int] | None = None  # (count, sides) of --dice
    if damage is not None:
        if damage < 0:
            raise UsageError("--damage must be 0 or more")
        total = float(damage)
        roll_info = {"damage": total}
    else:
        n, sides = dice_nd = parse_dice(dice)
        spec = DiceSpec(n, sides)
        if rolls is not None:
            if expected:
                raise UsageError("--rolls and --expected contradict each other")
            got = parse_rolls(rolls, spec, r)
        elif expected:
            got = None
            total = round(expected_rolls(n, sides, r, bonus_dice), 2)
        else:
            got = roll_dice(spec, np.random.default_rng(seed), r, bonus_dice)
        if got is not None:
            total = float(sum(sum(d) if bonus_dice else d[0] for d in got))
        roll_info = {"dice": str(spec), "rolls": None if got is None else [list(d) if len(d) > 1 else d[0]
                                                                         for d in got], "damage": total}
    armor = parse_armor_rolls(armor_rolls)
    o = point_or_element(scene, origin, "--from") if origin is not None else None
    tw = point_or_element(scene, toward, "--toward") if toward is not None else None
    if element is not None:
        element = resolve_element(scene, element, "--element")
    if element is None and (o is None or tw is None):
        raise UsageError("give the target: --element N, or --from X,Y,Z and --toward X,Y,Z")
    result = component_hit(scene, total, element=element, origin=o, toward=tw, armor_rolls=armor,
                           rng=np.random.default_rng(None if seed is None else seed + 1), expected=expected,
                           bonus_dice=bonus_dice, overkill=overkill, chunk=chunk, reach_in=reach_in,
                           weapon_size=weapon_size)
    if trials:
        from .montecarlo import monte_carlo_hit

        roll_info["monte_carlo"] = monte_carlo_hit(
            scene, result.plan, trials, rng=np.random.default_rng(None if seed is None else seed + 2),
            damage=None if dice_nd is not None else total, dice=dice_nd, bonus_dice=bonus_dice, armor_rolls=armor)
    return scene, result, roll_info


def hit_json(scene: DamageScene, result: DamageResult, roll_info: dict) -> dict:
    info = {k: v for k, v in roll_info.items() if k != "monte_carlo"}
    out = {
        "model": str(scene.model.path),
        "rules": scene.rules.edition,
        "graph_source": scene.source,
        **info,
        "target": result.steps[0]["element"] if result.steps else None,
        "steps": result.steps,
        "armor_rolls": [a.roll for a in result.armor],
        "destroyed": result.destroyed_indices,
        "knockback": {str(k): v for k, v in sorted(result.knockback_in.items())},
        "sections": _sections_json(result),
        "loose_objects": [s.elements for s in result.sections if s.kind == "loose object"],
        "notes": list(result.notes),
    }
    mc = roll_info.get("monte_carlo")
    if mc is not None:
        out["monte_carlo"] = mc.to_json()
        out["monte_carlo"]["line"] = [{"element": p["element"], "creation": p["creation"], "armor": p["armor"],
                                       "removes": p["removed"],
                                       "p_destroyed": round(float(mc.p_destroyed[p["element"]]), 4)}
                                      for p in result.plan]
    return out
