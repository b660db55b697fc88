"""Component Damage [000 §7.2]: knock one element (or a chunk up to 1" in Size) off a creation, with Overkill
carrying on along the line of attack through the next elements behind it and out to the next target.

The target is an element index, or the first element a line from the attacker hits (a ray cast on the model
mesh: boxes cull, then a vectorised Möller-Trumbore test on the remaining triangles).
"""
from __future__ import annotations

import numpy as np

from ..errors import NotFoundError, UsageError
from ..rules.formulas import lower_sl
from .dice import armor_text, expected_armor, roll_armor
from .explosion import ArmorClass, DamageResult, element_centre
from .scene import DamageScene
from .split import split_after


def ray_hits(scene: DamageScene, origin, direction, max_t: float = np.inf) -> list[tuple[int, float]]:
    """Elements a ray passes through, as (element, distance in LDU to its first hit), nearest first."""
    o = np.asarray(origin, dtype=np.float64)
    d = np.asarray(direction, dtype=np.float64)
    norm = np.linalg.norm(d)
    if norm < 1e-12:
        raise UsageError("the line of attack has no direction (attacker and target are the same point)")
    d = d / norm
    model = scene.model
    lo, hi = scene.boxes()
    lo, hi = lo - 0.5, hi + 0.5
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / d
        t1, t2 = (lo - o) * inv, (hi - o) * inv
    t1 = np.where(np.isnan(t1), -np.inf, t1)
    t2 = np.where(np.isnan(t2), np.inf, t2)
    tmin = np.minimum(t1, t2).max(axis=1)
    tmax = np.maximum(t1, t2).min(axis=1)
    cand = np.flatnonzero((tmax >= np.maximum(tmin, 0)) & (tmin <= max_t))
    if not len(cand):
        return []
    off = model.mesh.element_offsets
    counts = off[cand + 1] - off[cand]
    keep = counts > 0
    cand, counts = cand[keep], counts[keep]
    if not len(cand):
        return []
    faces = model.mesh.face_runs(cand)
    tri = model.mesh.triangles[faces].astype(np.float64)
    e1, e2 = tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]
    pv = np.cross(d, e2)
    det = (e1 * pv).sum(1)
    ok = np.abs(det) > 1e-12
    inv_det = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
    tv = o - tri[:, 0]
    u = (tv * pv).sum(1) * inv_det
    qv = np.cross(tv, e1)
    v = (d * qv).sum(1) * inv_det
    t = (e2 * qv).sum(1) * inv_det
    hit = ok & (u >= -1e-9) & (v >= -1e-9) & (u + v <= 1 + 1e-9) & (t >= 0) & (t <= max_t)
    elem = np.repeat(cand, counts)[hit]
    th = t[hit]
    best: dict[int, float] = {}
    for e, tt in zip(elem.tolist(), th.tolist()):
        if tt < best.get(e, np.inf):
            best[e] = tt
    return sorted(best.items(), key=lambda kv: kv[1])


def grow_chunk(scene: DamageScene, start: int, impact: np.ndarray, alive: np.ndarray) -> list[int]:
    """The struck element plus connected neighbours nearest the impact while the chunk's box stays within 1"
    in Size [000 §7.2 Component Damage] (DIGEST §13.9: grown out from the impact point)."""
    model = scene.model
    limit = scene.ldu_per_inch + 1e-6
    nbrs = scene.neighbours()
    body = scene.owner[start]
    chunk = [start]
    lo = np.asarray(model.elements[start].bbox_min, dtype=np.float64).copy()
    hi = np.asarray(model.elements[start].bbox_max, dtype=np.float64).copy()
    frontier = set(nbrs.get(start, ()))
    while frontier:
        def dist(i: int) -> float:
            e = model.elements[i]
            return float(np.linalg.norm(np.maximum(np.maximum(e.bbox_min - impact, 0), impact - e.bbox_max)))
        cands = sorted((i for i in frontier if alive[i] and scene.owner[i] == body and i not in chunk), key=dist)
        frontier = set()
        for i in cands:
            e = model.elements[i]
            nlo, nhi = np.minimum(lo, e.bbox_min), np.maximum(hi, e.bbox_max)
            if (nhi - nlo).max() <= limit:
                chunk.append(i)
                lo, hi = nlo, nhi
                frontier |= nbrs.get(i, set())
        frontier -= set(chunk)
    return chunk


def attack_line(scene: DamageScene, *, element: int | None = None, origin=None, toward=None,
                reach_in: float | None = None) -> tuple[list[tuple[int, float]], np.ndarray | None]:
    """The elements the attack meets, nearest first, as (element, LDU along the line), and the attacker point."""
    n = scene.n_elements
    o = None if origin is None else np.asarray(origin, dtype=np.float64)
    if element is not None:
        if not 0 <= element < n:
            raise NotFoundError(f"element {element} is out of range (the model has {n} elements, 0..{n - 1})")
        if o is None:
            return [(element, 0.0)], None
        c = element_centre(scene, element)
        hits = ray_hits(scene, o, c - o, np.inf if reach_in is None else reach_in * scene.ldu_per_inch)
        return [(element, 0.0)] + [(e, t) for e, t in hits if e != element and t >= dict(hits).get(element, 0.0)], o
    if o is None or toward is None:
        raise UsageError("give a target element, or an attacker point and a point to aim at")
    tw = np.asarray(toward, dtype=np.float64)
    max_t = np.inf if reach_in is None else reach_in * scene.ldu_per_inch
    line = ray_hits(scene, o, tw - o, max_t)
    if not line:
        raise UsageError(f"the line from {','.join(f'{v:g}' for v in o)} towards "
                         f"{','.join(f'{v:g}' for v in tw)} hits no element of the model")
    return line, o


def plan_chain(scene: DamageScene, line: list[tuple[int, float]], o: np.ndarray | None, *, chunk: bool = False,
               overkill: bool = True) -> list[dict]:
    """The components the attack would break, in order, if it beat every Armor roll on the way.

    Which component comes next only depends on which ones broke before it, and the chain stops at the first
    Armor roll the damage does not beat, so one attack's outcome is "the first k steps of this plan": the
    preview and the Monte Carlo share it. Each step: element, body, SL (interior components one SL lower
    [000 §7.2 Overkill]), Armor dice, and what breaks off (the element, a 1" chunk, or a whole Size-1 target).
    """
    rules = scene.rules
    if not overkill:
        line = line[:1]
    destroyed = np.zeros(scene.n_elements, dtype=bool)
    entered: set[int] = set()
    plan: list[dict] = []
    for e, t in line:
        if destroyed[e]:
            continue
        b = int(scene.owner[e])
        body = scene.bodies[b]
        sl = body.element_sl(e, rules)
        interior = b in entered
        if interior:  # [000 §7.2 Overkill] interior components are usually one SL lower than the shell
            sl = lower_sl(sl, rules)
        entered.add(b)
        armor = armor_text(sl, rules, body.armor_fixed if (sl == body.sl and not interior) else None)
        removed = [e]
        if body.size <= 1:  # [000 §7.2 Taking Damage] Size 1" targets are killed outright
            removed = list(body.elements)
        elif chunk:
            c = element_centre(scene, e)
            impact = c if o is None else o + t * (c - o) / max(np.linalg.norm(c - o), 1e-9)
            removed = grow_chunk(scene, e, impact, ~destroyed)
        destroyed[removed] = True
        plan.append({"element": int(e), "body": b, "creation": body.name, "sl": sl, "armor": armor,
                     "interior": interior, "removed": sorted(int(i) for i in removed)})
    return plan


def hit_knockback(scene: DamageScene, sections, targets: list[int], weapon_size: float | None,
                  direction: np.ndarray | None) -> tuple[dict[int, float], np.ndarray, list[str]]:
    """KnockBack of a non-explosive weapon [000 §8.1 KnockBack]: targets smaller than the weapon are pushed 1" per
    inch the Weapon Size exceeds the target's Effective Size. Plain Component Damage gives none.

    ``targets``: the creations the attack struck (Overkill may strike several). Each surviving section of them is
    a target of its own with its own ES (INFERRED: the rules do not say which piece of a creation cut apart by the
    hit moves).
    """
    n = scene.n_elements
    vec = np.zeros((n, 3))
    kb: dict[int, float] = {}
    notes: list[str] = []
    if weapon_size is None:
        notes.append("no KnockBack: the rules give none for plain Component Damage; a weapon knocks back targets "
                     "smaller than itself, 1\" per inch its Weapon Size exceeds the target's Effective Size "
                     "[000 §8.1 KnockBack] (give --weapon-size to apply it)")
        return kb, vec, notes
    if not targets:
        return kb, vec, notes
    d = None
    if direction is not None and np.linalg.norm(direction) > 1e-12:
        d = np.asarray(direction, dtype=np.float64) / np.linalg.norm(direction)
    else:
        notes.append("KnockBack direction unknown without the attacker's position (--from): distances only")
    names = {scene.bodies[b].name for b in targets}
    for s in sections:
        if s.creation not in names or s.kind != "section" or s.destroyed or not s.elements:
            continue
        inches = float(weapon_size) - float(s.effective_size)
        if inches <= 0:
            continue
        for i in s.elements:
            kb[int(i)] = round(inches, 3)
            if d is not None:
                vec[i] = d * inches * scene.ldu_per_inch
    if kb:
        notes.append(f"KnockBack: Weapon Size {weapon_size:g}\" against each section's ES, 1\" per inch of "
                     f"difference [000 §8.1 KnockBack]")
    else:
        notes.append(f"no KnockBack: no surviving target is smaller than the {weapon_size:g}\" weapon "
                     f"[000 §8.1 KnockBack]")
    return kb, vec, notes


def component_hit(scene: DamageScene, damage: float, *, element: int | None = None, origin=None, toward=None,
                  armor_rolls: list[float] | None = None, rng=None, expected: bool = False, bonus_dice: bool = True,
                  overkill: bool = True, chunk: bool = False, reach_in: float | None = None,
                  weapon_size: float | None = None) -> DamageResult:
    """One Component Damage attack of ``damage`` points [000 §7.2 Component Damage, Overkill].

    Target: ``element`` (optionally with the attacker at ``origin`` to give the line), or the first element the
    line ``origin`` -> ``toward`` hits. ``armor_rolls`` fix the Armor of each component met along the line, in order.
    ``weapon_size`` (inches) adds the weapon's KnockBack [000 §8.1 KnockBack].
    """
    n = scene.n_elements
    rules = scene.rules
    if damage < 0:
        raise UsageError("damage must be 0 or more")
    if rng is None:
        rng = np.random.default_rng()
    line, o = attack_line(scene, element=element, origin=origin, toward=toward, reach_in=reach_in)
    plan = plan_chain(scene, line, o, chunk=chunk, overkill=overkill)
    destroyed = np.zeros(n, dtype=bool)
    dmg_taken = np.zeros(n)
    steps: list[dict] = []
    armor_used: list[ArmorClass] = []
    left = float(damage)
    given = list(armor_rolls or [])
    for p in plan:
        e, b = p["element"], p["body"]
        body = scene.bodies[b]
        if given:
            roll, src = given.pop(0), "given"
        elif expected:
            roll, src = expected_armor(p["armor"], rules, bonus_dice), "expected"
        else:
            roll, src = roll_armor(p["armor"], rng, rules, bonus_dice), "rolled"
        armor_used.append(ArmorClass(b, body.name, p["sl"], p["armor"], roll, src))
        dmg_taken[e] = left
        beat = left > roll  # [000 §5.1] strictly greater
        step = {"element": e, "creation": body.name, "sl": p["sl"], "armor": p["armor"], "armor_roll": roll,
                "damage_in": left, "destroyed": bool(beat), "interior": p["interior"], "removed": []}
        steps.append(step)
        if not beat:
            break
        destroyed[p["removed"]] = True
        step["removed"] = list(p["removed"])
        left -= roll  # [000 §7.2 Overkill] the leftover carries on along the line
        if left <= 0:
            break
    sections = split_after(scene, destroyed)
    direction = None
    if o is not None and line:
        direction = element_centre(scene, line[0][0]) - o if element is not None else \
            (np.asarray(toward, dtype=np.float64) - o)
    struck = list(dict.fromkeys(plan[j]["body"] for j in range(len(steps))))
    kb, vec, notes = hit_knockback(scene, sections, struck, weapon_size, direction)
    res = DamageResult(destroyed, dmg_taken, kb, vec, sections, armor_used, ldu_per_inch=scene.ldu_per_inch)
    res.steps = steps
    res.notes = notes
    res.plan = plan
    return res
