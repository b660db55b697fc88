"""BrikWars rule arithmetic: pure functions over one edition's ``Rules`` tables.

No geometry and no randomness here: callers pass measured Sizes and rolled dice, and get
stats back. Every number comes from the ``Rules`` object, so switching edition means
passing a different table. Sections the edition lacks raise ``UsageError``.
"""
from __future__ import annotations

import math
import numbers
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from brikscan.errors import UsageError
from brikscan.lazy import lazy

if TYPE_CHECKING:
    from brikscan.rules.tables import PropulsionKind, Rules, Section, WeaponFormula

_tables = lazy("brikscan.rules.tables")  # the pydantic tables, built when a formula first needs them

RoundMode = Literal["nearest", "up", "down"]
_EPS = 1e-9


# ------------------------------------------------------------------ results

@dataclass(frozen=True)
class WeaponStats:
    """A weapon's card line. ``use``/``range_in`` None: close combat or set by the launcher."""

    cost: float
    use: float | None
    range_in: float | None
    damage: str
    notes: str = ""


@dataclass(frozen=True)
class PropulsionStats:
    """Move rating and its CP cost; ``warnings`` name limits the Move breaks or was clamped to."""

    move_in: float
    cost: float
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class SizeDamageState:
    """What a Creation can still do after Size Damage [000 §7.2]."""

    size: float
    size_damage: int
    effective_size: float
    sl: float
    armor: str
    weak_point_sl: float
    half_speed: bool
    power_limit: float
    destroyed: bool


@dataclass(frozen=True)
class Ring:
    """One 2" explosion ring: everything between inner and outer radius takes ``damage``."""

    outer_radius_in: float
    damage: int
    dice_left: int
    inner_radius_in: float
    knockback_in: float


@dataclass(frozen=True)
class OverkillStep:
    """One target in an Overkill chain: the damage reaching it and what is left after."""

    index: int
    damage_in: int
    armor_roll: int
    destroyed: bool
    leftover: int


# ------------------------------------------------------------------ helpers

def _require(section: Section, rules: Rules, what: str) -> None:
    """Refuse rules the edition does not have instead of inventing numbers."""
    if section.unsupported:
        raise UsageError(f"{what} is not available in the {rules.edition} rules: "
                         f"{section.unsupported} {section.source}")


def _finite(x: float, what: str, minimum: float | None = 0) -> float:
    if isinstance(x, bool) or not isinstance(x, numbers.Real) or not math.isfinite(x):
        raise UsageError(f"{what} must be a number, got {x!r}")
    if minimum is not None and x < minimum:
        raise UsageError(f"{what} must be at least {minimum:g}, got {x:g}")
    return float(x)


def _whole(x: float) -> bool:
    return abs(x - round(x)) < _EPS


def _fmt(x: float) -> str:
    return f"{x:g}"


def sl_text(sl: float) -> str:
    """A Structure Level as the rulebooks write it: "½" for 0.5, else "0", "1", "2" ..."""
    return "½" if sl == 0.5 else _fmt(sl)


def check_sl(sl: float) -> float:
    """Structure Levels are 0, ½ or a whole number [000 §7.1]."""
    sl = _finite(sl, "Structure Level")
    if not (sl == 0 or sl == 0.5 or (sl >= 1 and _whole(sl))):
        raise UsageError(f"Structure Level must be 0, 1/2 or a whole number, got {_fmt(sl)}")
    return float(round(sl)) if sl >= 1 else sl


def _norm(name: str) -> str:
    return re.sub(r"[\s_\-]+", "", str(name).lower())


# ------------------------------------------------------------------ size

def round_weapon_size(size_in: float, rules: Rules) -> float:
    """Weapon Size from a weapon's longest dimension: ``rules.weapon_size`` rounding and minimum [000 §8.1]."""
    ws = rules.weapon_size
    if ws.round == "up":
        r = math.ceil(round(size_in, 9))
    elif ws.round == "down":
        r = math.floor(round(size_in, 9))
    else:  # nearest, halves up
        r = math.floor(size_in + 0.5)
    return float(max(ws.minimum, r))


def round_size(size_in: float, mode: RoundMode, rules: Rules, vermin: bool = False) -> int:
    """Round a measured Size to whole inches; the players pick the direction [000 §7.1].

    Minimum Size is 1; a one-piece Vermin creature may round down to 0 [000 §10.3].
    "nearest" rounds halves up.
    """
    _require(rules.size, rules, "Size rounding")
    x = round(_finite(size_in, "Size"), 9)
    if mode == "nearest":
        n = math.floor(x + 0.5)
    elif mode == "up":
        n = math.ceil(x)
    elif mode == "down":
        n = math.floor(x)
    else:
        raise UsageError(f"unknown rounding mode {mode!r} (choose nearest, up or down)")
    floor = rules.size.vermin_minimum if vermin else rules.size.minimum
    return max(floor, int(n))


# ------------------------------------------------------------------ structure level

def _level_row(sl: float, rules: Rules) -> tuple[str, float]:
    """(armor, cost multiplier) of a Structure Level, from the table or its stated pattern."""
    sl = check_sl(sl)
    for row in rules.structure.levels:
        if row.level == sl:
            return row.armor, row.cost_multiplier
    top = rules.structure.levels[-1]
    beyond = rules.structure.beyond
    if beyond is not None and sl > top.level:  # [000 §8.7] "...and so forth"
        n = int(sl)
        return f"{n}d{beyond.die}", top.cost_multiplier + (n - top.level) * beyond.cost_multiplier_per_level
    levels = ", ".join(r.armor for r in rules.structure.levels)
    raise UsageError(f"Structure Level {_fmt(sl)} has no Armor in the {rules.edition} rules "
                     f"(table: {levels}) {rules.structure.source}")


def armor_for_sl(sl: float, rules: Rules) -> str:
    """Armor dice for a Structure Level, e.g. 2 -> "2d10", ½ -> "1d6" [000 §7.1]."""
    return _level_row(sl, rules)[0]


def sl_for_armor(armor: str, rules: Rules) -> float:
    """Structure Level of an Armor rating ("4d10" -> 4) [000 §7.2 Grinding]."""
    text = str(armor).strip().lower()
    for row in rules.structure.levels:
        if row.armor.lower() == text:
            return row.level
    beyond = rules.structure.beyond
    if beyond is not None and text != "0":
        n, sides = parse_dice(text)
        if sides == beyond.die and n > rules.structure.levels[-1].level:
            return float(n)
    raise UsageError(f"Armor {armor!r} is not a Structure Level in the {rules.edition} rules")


def lower_sl(sl: float, rules: Rules) -> float:
    """SL of weak points, Non-Structural parts and interiors: lower, with a ½ / 1d6 floor.

    [000 §7.1] one level lower; [003 §5.1.2] AV - 2d10, minimum 1d6. SL 0 stays 0.
    """
    sl = check_sl(sl)
    wp = rules.weak_point
    if sl == 0 and wp.zero_stays_zero:
        return 0.0
    lowered = sl - wp.levels_lower
    return float(lowered) if lowered >= 1 else wp.floor_level


def clamp_sl(sl: float, size: float, rules: Rules | None = None) -> tuple[float, str | None]:
    """Cap SL at the (Effective) Size [000 §7.1, §7.2]; returns (sl, warning or None).

    With a ``rules`` whose structure has no Size cap (2001) the SL is returned unchanged.
    """
    sl = check_sl(sl)
    size = _finite(size, "Size", minimum=None)
    if rules is not None and not rules.structure.max_level_is_size:
        return sl, None
    if sl <= size:
        return sl, None
    capped = float(math.floor(size)) if size >= 1 else (0.5 if size >= 0.5 else 0.0)
    return capped, (f"Structure Level {_fmt(sl)} is above Size {_fmt(size)}; "
                    f"using {_fmt(capped)} [000 §7.1 Structure Level]")


def base_cost(size: float, sl: float, rules: Rules) -> float:
    """CP for the central Structure: Size × SL [000 §7.1] (2001: Size × ArmorX [003 §5.1.2])."""
    size = _finite(size, "Size")
    return size * _level_row(sl, rules)[1]


# ------------------------------------------------------------------ weapons

def _named(table: dict, name: str, what: str):
    """The entry of a weapon or propulsion table called ``name`` or one of its aliases (case, spaces, - and _
    ignored)."""
    key = _norm(name)
    for entry_name, entry in table.items():
        if key == _norm(entry_name) or key in {_norm(a) for a in entry.aliases}:
            return entry
    raise UsageError(f"unknown {what} {name!r} (choose one of: {', '.join(table)})")


def _weapon(weapon_type: str, rules: Rules) -> WeaponFormula:
    _require(rules.weapons, rules, "Weapon formulas")
    return _named(rules.weapons.types, weapon_type, "weapon type")


def _dice_damage(f: WeaponFormula, size: float, what: str) -> str:
    n = f.damage_dice_per_size * size
    if not _whole(n) or n < 1:
        raise UsageError(f"{what} needs a whole number of damage dice; Size {_fmt(size)} gives {_fmt(n)}")
    if f.damage_kind == "skill":
        return f"{int(round(n))}xSkill"
    return f"{int(round(n))}d{f.damage_die}{f.damage_suffix}"


def weapon_stats(weapon_type: str, size: float, rules: Rules, *, xsize: int | None = None,
                 auto_penalty: int = 0, ammo_xsize: int | None = None,
                 payload_xsize: int | None = None, payload_sl: float | None = None,
                 payload_size: float | None = None) -> WeaponStats:
    """Cost, Use, Range and Damage of a Chapter Eight weapon of the given Size [000 §8.1-8.4].

    Explosives and Rockets scale with XSize (bricks); ``size`` is taken as the XSize when
    ``xsize`` is not given. Cannons take ``ammo_xsize``; Launchers an explosive
    ``payload_xsize`` or a non-explosive ``payload_sl`` (optionally with ``payload_size``).
    """
    f = _weapon(weapon_type, rules)
    s = float(xsize) if (f.size_unit == "xsize" and xsize is not None) else size
    s = _finite(s, "XSize" if f.size_unit == "xsize" else "Weapon Size")
    if s <= 0:
        raise UsageError(f"{weapon_type} size must be above 0")
    if auto_penalty and not f.takes_auto_penalty:
        raise UsageError(f"{weapon_type} has no Auto Penalty [000 §8.3]")
    if auto_penalty < 0:
        raise UsageError("Auto Penalty must be 0 or more")
    cost = f.cost_per_size * s + f.cost_add
    use = None if f.use_per_size is None else f.use_per_size * s + f.use_add + auto_penalty
    rng = None if f.range_per_size is None else f.range_per_size * s + f.range_add
    if f.damage_kind in ("dice", "skill"):
        damage = _dice_damage(f, s, weapon_type)
    elif f.damage_kind == "ammo":
        damage = "ammo"
        if ammo_xsize is not None:  # [000 §8.4 Cannons] ammo XSize <= Cannon Size
            if ammo_xsize > (f.max_ammo_xsize_per_size or 0) * s + _EPS:
                raise UsageError(f"ammunition XSize {ammo_xsize} is above the Cannon's Size {_fmt(s)}")
            damage = weapon_stats("explosive", ammo_xsize, rules).damage
    elif f.damage_kind == "payload":
        damage = _payload_damage(f, s, rules, payload_xsize, payload_sl, payload_size)
    else:
        damage = ""
    return WeaponStats(cost=cost, use=use, range_in=rng, damage=damage, notes=f.notes)


def _payload_damage(f: WeaponFormula, s: float, rules: Rules, xsize: int | None,
                    sl: float | None, size: float | None) -> str:
    """[000 §8.4 Payload Launchers]: Explosives up to XSize S, or objects up to Size ⌊S/2⌋."""
    if xsize is not None and sl is not None:
        raise UsageError("give either an explosive payload_xsize or a payload_sl, not both")
    max_x, max_obj = launcher_capacity(s, rules)
    if xsize is not None:
        if xsize > max_x:
            raise UsageError(f"payload XSize {xsize} is above the Launcher's limit {max_x}")
        return weapon_stats("explosive", xsize, rules).damage
    if sl is not None:
        if size is not None and size > max_obj:
            raise UsageError(f"payload Size {_fmt(size)} is above the Launcher's limit {max_obj}")
        n = math.floor(check_sl(sl))  # a d6 per whole point of SL; SL ½ deals none
        return f"{n}d{f.payload_sl_die}" if n else "0"
    return "payload"


def launcher_capacity(size: float, rules: Rules) -> tuple[int, int]:
    """(max total Explosive XSize, max total object Size) per launch [000 §8.4 Payload Launchers]."""
    f = _weapon("launcher", rules)
    s = _finite(size, "Weapon Size")
    return (math.floor(s * (f.max_payload_xsize_per_size or 0) + _EPS),
            math.floor(s * (f.max_payload_size_per_size or 0) + _EPS))


# ------------------------------------------------------------------ propulsion and power

def _kind(kind: str, rules: Rules) -> PropulsionKind:
    _require(rules.propulsion, rules, "Propulsion costs")
    return _named(rules.propulsion.kinds, kind, "propulsion kind")


def propulsion_stats(kind: str, size: float, sl: float, rules: Rules, move_in: float | None = None,
                     *, default: Literal["formula", "fixed"] | None = None, winged: bool = False,
                     legs_or_treads: bool = False) -> PropulsionStats:
    """Move and CP of a propulsion system [000 §9.1]; cost is per 2" of Move.

    Without ``move_in`` the default Move is the [004 §9.1] Size/SL formula (or the fixed
    [000 §9.1] column), kept inside the stated limits.
    """
    k = _kind(kind, rules)
    size = _finite(size, "Size")
    sl = check_sl(sl)
    warnings: list[str] = []
    lt_cap = k.legs_treads_max_per_size * size if (legs_or_treads and k.legs_treads_max_per_size) else None
    wing_min = k.winged_min_move_in if winged else None
    if move_in is None:
        mode = default or rules.propulsion.default_move
        if mode == "fixed":
            move = k.fixed_default_move_in
        elif mode == "formula":  # [004 §9.1] e.g. ground 18 - 2·Size - SL
            move = k.formula_base_in + k.formula_per_size * size + k.formula_per_sl * sl
        else:
            raise UsageError(f"unknown default Move mode {mode!r} (choose formula or fixed)")
        move = min(move, k.max_move_in)
        if lt_cap is not None:
            move = min(move, lt_cap)  # [004 §9.1] legs/treads <= 5" × Size
        if wing_min is not None and move < wing_min:
            warnings.append(f"default Move {_fmt(move)}\" raised to the {_fmt(wing_min)}\" wings need [004 §9.1]")
            move = wing_min
        floor = rules.propulsion.min_default_move_in
        if move < floor:
            warnings.append(f"default Move {_fmt(move)}\" raised to {_fmt(floor)}\" (brikscan floor, not a rule)")
            move = floor
    else:
        move = _finite(move_in, "Move")
        if move > k.max_move_in:
            warnings.append(f"Move {_fmt(move)}\" is above the {_fmt(k.max_move_in)}\" limit [004 §9.1]")
        if lt_cap is not None and move > lt_cap:
            warnings.append(f"Move {_fmt(move)}\" is above {_fmt(k.legs_treads_max_per_size)}\" × Size = "
                            f"{_fmt(lt_cap)}\" for legs/treads [004 §9.1]")
        if wing_min is not None and move < wing_min:
            warnings.append(f"winged flyers need at least {_fmt(wing_min)}\" to stay aloft [004 §9.1]")
    per_2in = k.cost_per_2in_base + k.cost_per_2in_per_sl * sl  # [000 §9.1] flight (2 + SL) per 2"
    return PropulsionStats(move_in=move, cost=move / 2 * per_2in, warnings=tuple(warnings))


def power_limit(size: float, flying: bool, rules: Rules) -> float:
    """Weapon inches usable per turn: 2 × (Effective) Size, 1 × while flying in air [000 §8.1]."""
    _require(rules.power, rules, "A Size-based Power limit")
    size = _finite(size, "Size", minimum=None)
    per = rules.power.flying_per_size if flying else rules.power.per_size
    return max(0.0, per * size)


def weapons_fit(weapon_sizes: Iterable[float], size: float, flying: bool, rules: Rules) -> bool:
    """Whether weapons used together in one turn fit the Power limit [000 §8.1]."""
    total = sum(_finite(w, "Weapon Size") for w in weapon_sizes)
    return total <= power_limit(size, flying, rules) + _EPS


# ------------------------------------------------------------------ damage

def effective_size(size: float, size_damage: int) -> float:
    """Effective Size = Size − Size Damage points [000 §7.2 Effective Size]."""
    if _finite(size_damage, "Size Damage") != int(size_damage):
        raise UsageError("Size Damage is counted in whole points")
    return _finite(size, "Size") - int(size_damage)


def size_damage(size: float, sl: float, damage: int, rules: Rules, flying: bool = False) -> SizeDamageState:
    """A Creation after ``damage`` points of Size Damage [000 §7.2 Size Damage].

    SL and Power follow the Effective Size; ES at or below half the Size means Half Speed;
    ES at or below 0 after any damage means destroyed (Size 1 and Vermin die on the first point).
    """
    _require(rules.size_damage, rules, "Size Damage")
    sl = check_sl(sl)
    es = effective_size(size, damage)
    sd = rules.size_damage
    destroyed = damage > 0 and es <= sd.destroyed_at_or_below
    new_sl, _ = clamp_sl(sl, max(es, 0.0), rules)
    half = damage > 0 and not destroyed and es <= size * sd.half_speed_fraction
    power = 0.0 if destroyed else power_limit(es, flying, rules)
    return SizeDamageState(size=float(size), size_damage=int(damage), effective_size=es, sl=new_sl,
                           armor=armor_for_sl(new_sl, rules), weak_point_sl=lower_sl(new_sl, rules),
                           half_speed=half, power_limit=power, destroyed=destroyed)


def beats_armor(damage: int, armor_roll: int) -> bool:
    """Damage has an effect only if strictly greater than the Armor roll [000 §5.1, §7.2]."""
    return damage > armor_roll


def overkill(damage: int, armor_rolls: Iterable[int], rules: Rules) -> list[OverkillStep]:
    """Carry leftover damage (total − failed Armor roll) on through targets in line [000 §7.2 Overkill].

    Stops at the first target whose Armor roll is not beaten.
    """
    _require(rules.special_damage, rules, "Overkill")
    steps: list[OverkillStep] = []
    left = int(damage)
    for i, armor in enumerate(armor_rolls):
        hit = beats_armor(left, armor)
        steps.append(OverkillStep(i, left, int(armor), hit, left - armor if hit else 0))
        if not hit:
            break
        left -= armor
    return steps


def grinding_points(damage_rolls: Iterable[int], sl: float, rules: Rules) -> int:
    """Grinding points: damage dice rolling above the component's SL [000 §7.2 Grinding]."""
    _require(rules.special_damage, rules, "Grinding")
    sl = check_sl(sl)
    return sum(1 for r in damage_rolls if r > sl)


def patch_lengths_to_repair(size: float, size_damage: int, rules: Rules) -> list[float]:
    """Patch lengths needed to repair all Size Damage, one Patch per point [000 §7.3 Patch Repairs]."""
    _require(rules.repair, rules, "Patch Repairs")
    es = effective_size(size, size_damage)
    extra = rules.repair.patch_repair_extra_in
    return [es + extra * i for i in range(1, int(size_damage) + 1)]


def patch_raises_sl(patch_in: float, effective_size_in: float, new_sl: float, rules: Rules) -> bool:
    """A Patch raises SL by one if it is at least the ES and the new SL, up to SL 3 [000 §7.3]."""
    _require(rules.repair, rules, "Patch Repairs")
    new_sl = check_sl(new_sl)
    return (new_sl <= rules.repair.patch_max_sl and patch_in >= effective_size_in
            and patch_in >= new_sl)


# ------------------------------------------------------------------ dice

_DICE_RE = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*$")


def default_die_sides() -> tuple[int, ...]:
    """Dice any edition uses (``dice.sides`` of every rules table): d4 ... d12 [000 §1.2], d20 [001 §1.4]."""
    return tuple(sorted({s for e in _tables.EDITIONS for s in _tables.load_rules(e).dice.sides}))


def parse_dice(text: str, rules: Rules | None = None, *,
               allowed_sides: Sequence[int] | None = None) -> tuple[int, int]:
    """"3d10" -> (3, 10); "d6" -> (1, 6). No zero counts, no odd dice, no modifiers.

    The dice allowed are ``allowed_sides``, else ``rules.dice.sides``, else those of any edition.
    """
    if allowed_sides is None:
        allowed_sides = rules.dice.sides if rules is not None else default_die_sides()
    m = _DICE_RE.match(str(text))
    if not m:
        raise UsageError(f"not a dice rating: {text!r} (want e.g. 3d10)")
    n = int(m.group(1)) if m.group(1) else 1
    sides = int(m.group(2))
    if n < 1:
        raise UsageError(f"dice rating {text!r} has no dice")
    if sides not in allowed_sides:
        raise UsageError(f"no d{sides} in BrikWars (dice: {', '.join(f'd{s}' for s in allowed_sides)})")
    return n, sides


def bonus_die_for(sides: int, rules: Rules) -> int:
    """Die type a maximum face earns: d6 (d4 earns d4) [000 §1.2]; 2001: same type [001 §1.4]."""
    if sides in rules.dice.bonus_same_type_for:
        return sides
    return rules.dice.bonus_die or sides


def expected_rolls(n: int, sides: int, rules: Rules | None = None, bonus_dice: bool = False) -> float:
    """Mean total of n dice; with ``bonus_dice`` the chained Bonus Dice are included.

    Checks against the Fancy Dice averages: d6 4.2, d10 5.92 [000 MOC Combat Fancy Dice].
    """
    if n < 0 or sides < 1:
        raise UsageError("need n >= 0 dice of at least one side")
    if not bonus_dice:
        return n * (sides + 1) / 2
    if rules is None:
        raise UsageError("expected_rolls with bonus dice needs the rules (which die a bonus is)")

    def chain(s: int) -> float:
        b = bonus_die_for(s, rules)
        if b == s:
            return ((s + 1) / 2) / (1 - 1 / s)
        return (s + 1) / 2 + chain(b) / s

    return n * chain(sides)


def _explosion_die(entry: int | Sequence[int], die: int, bonus: int, use_bonus: bool) -> tuple[int, int]:
    """(face, bonus total) of one explosion die given as 7 or (10, 6, 2)."""
    parts = [entry] if isinstance(entry, int) else list(entry)
    if not parts or any(isinstance(p, bool) or not isinstance(p, int) for p in parts):
        raise UsageError(f"bad explosion die {entry!r}: give a roll or (roll, bonus rolls...)")
    face, extra = parts[0], parts[1:]
    if not 1 <= face <= die:
        raise UsageError(f"d{die} roll {face} is out of range 1..{die}")
    prev_max = face == die
    for b in extra:
        if not prev_max:
            raise UsageError(f"bonus die in {entry!r} follows a roll that was not a maximum face")
        if not 1 <= b <= bonus:
            raise UsageError(f"bonus d{bonus} roll {b} is out of range 1..{bonus}")
        prev_max = b == bonus
    return face, (sum(extra) if use_bonus else 0)


def explosion_rings(rolls: Sequence[int | Sequence[int]], rules: Rules, bonus_dice: bool = True, *,
                    drop: Literal["highest", "lowest"] | None = None) -> list[Ring]:
    """Damage rings of an explosion from its rolled dice [000 §8.4 Heavy Explosions].

    Each die gives one 2" ring. Ring 1 takes the total of all dice; each further ring removes
    the highest remaining die (with its Bonus Dice). KnockBack is 1" per die still counted.
    A die that earned Bonus Dice is given as (10, bonus, ...); ``bonus_dice=False`` ignores them.
    """
    ex = rules.explosion
    rule = drop or ex.drop
    if rule == "unspecified":
        raise UsageError(f"the {rules.edition} rules do not say which die is removed per ring "
                         f"{ex.source}; pass drop='highest' or drop='lowest'")
    if rule not in ("highest", "lowest"):
        raise UsageError(f"unknown drop rule {rule!r} (choose highest or lowest)")
    bonus = bonus_die_for(ex.die, rules)
    dice = [_explosion_die(r, ex.die, bonus, bonus_dice) for r in rolls]
    rings: list[Ring] = []
    k = 0
    while dice:
        inner = k * ex.ring_width_in
        rings.append(Ring(outer_radius_in=inner + ex.ring_width_in,
                          damage=sum(f + b for f, b in dice), dice_left=len(dice),
                          inner_radius_in=inner, knockback_in=len(dice) * ex.knockback_in_per_die))
        # [000 §8.4] remove the highest d10; on ties the attacker keeps the bigger bonus
        pick = max if rule == "highest" else min
        dice.remove(pick(dice, key=lambda d: (d[0], -d[1])))
        k += 1
    return rings


def ring_at(rings: Sequence[Ring], distance_in: float) -> Ring | None:
    """The ring covering a distance from the blast centre ("within 2 inches" includes 2)."""
    d = _finite(distance_in, "distance")
    for ring in rings:
        if d <= ring.outer_radius_in + _EPS:
            return ring
    return None


def destroyed_within(rings: Sequence[Ring], armor_roll: int) -> float:
    """Radius inside which ring damage beats one Armor roll (0 if nowhere) [000 §8.4 Wall Demolition]."""
    radius = 0.0
    for ring in rings:
        if beats_armor(ring.damage, armor_roll):
            radius = ring.outer_radius_in
    return radius
