"""Rule formulas against the rulebooks' own worked examples (section cited on each test)."""
from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from brikscan.errors import UsageError
from brikscan.rules.formulas import (
    armor_for_sl, base_cost, beats_armor, clamp_sl, destroyed_within, effective_size,
    expected_rolls, explosion_rings, grinding_points, launcher_capacity, lower_sl, overkill,
    parse_dice, patch_lengths_to_repair, patch_raises_sl, power_limit, propulsion_stats, ring_at,
    round_size, size_damage, sl_for_armor, weapon_stats, weapons_fit,
)
from brikscan.rules.tables import load_rules

R = load_rules("2010")
OLD = load_rules("2001")


# ---------------------------------------------------------------- worked examples: weapons

def test_ripper_blade():
    # [000 §8.1 The Ripper Blade]: Size 4" Melee Weapon -> 8CP, Use 5, 4 Skill dice
    w = weapon_stats("melee", 4, R)
    assert (w.cost, w.use, w.range_in, w.damage) == (8, 5, None, "4xSkill")
    # ... four times a standard Hand Weapon: 2CP, Use 2, 1 Skill die [000 ch.3]
    hand = weapon_stats("Melee Weapon", 1, R)
    assert (hand.cost, hand.use, hand.damage) == (2, 2, "1xSkill")
    assert w.cost == 4 * hand.cost


def test_missile_racks():
    # [000 §8.4 Payload Example: Missile Racks]: Size 3" Launcher Cost 9CP Use 6 Range 18",
    # six Size 1 Explosives at 1CP / 1d10 Exp each, 30CP for the pair of racks.
    rack = weapon_stats("launcher", 3, R)
    missile = weapon_stats("explosive", 1, R)
    assert (rack.cost, rack.use, rack.range_in) == (9, 6, 18)
    assert (missile.cost, missile.damage) == (1, "1d10 Exp")
    assert 2 * (rack.cost + 6 * missile.cost) == 30
    # each rack fires up to three of its Size 1 Explosives per turn
    max_xsize, _ = launcher_capacity(3, R)
    assert max_xsize // 1 == 3
    assert weapon_stats("launcher", 3, R, payload_xsize=1).damage == "1d10 Exp"
    with pytest.raises(UsageError):
        weapon_stats("launcher", 3, R, payload_xsize=4)


def test_size_1_launcher_capacity():
    # [000 §8.4 Payload Launchers]: a Size 1 Launcher takes Size 1 Explosives or Size 0 objects
    assert launcher_capacity(1, R) == (1, 0)
    assert launcher_capacity(5, R) == (5, 2)


def test_young_pyramidheads_launcher():
    # [000 §8.4 Flight Time Example: The Young Pyramidheads]: a 5" Launcher has Use 10 and
    # a 30" maximum Range; it takes three minifigs' Teamwork to power it [000 §8.1 Gathering Power].
    cat = weapon_stats("catapult", 5, R)
    assert (cat.use, cat.range_in) == (10, 30)
    three_minifigs = 3 * R.minifig.size_in
    assert weapons_fit([5], three_minifigs, False, R)
    assert not weapons_fit([5], 2 * R.minifig.size_in, False, R)


def test_burnination_flamethrower():
    # [000 §8.3 Fire Example: Burnination]: Size 3" Flamethrower Cost 9CP Use 4 Range 8" 3d4 Fire
    w = weapon_stats("flamethrower", 3, R)
    assert (w.cost, w.use, w.range_in, w.damage) == (9, 4, 8, "3d4 Fire")
    # with a -1 Auto Penalty for Arc 1 the roll needed goes up by one
    assert weapon_stats("flamethrower", 3, R, auto_penalty=1).use == 5


def test_wall_demolition_missile_is_3d10():
    # [000 §8.4 Wall Demolition]: a Size 3" Missile makes a 3d10 Explosion
    w = weapon_stats("rocket", 3, R)
    assert w.damage == "3d10 Exp"
    assert (w.cost, w.use, w.range_in) == (6, 6, 18)  # Rocket: 2XS, 2XS, 6XS" [000 §8.4]


def test_minifig_weapons_match_the_formulas():
    # [000 ch.3 Minifig Weapons] vs the Size-1 formulas [000 §8.1-8.4]
    gun = weapon_stats("gun", 1, R)  # Short-Ranged Weapon: 3CP, Use 3, 6", 1d6
    assert (gun.cost, gun.use, gun.range_in, gun.damage) == (3, 3, 6, "1d6")
    grenade = weapon_stats("grenade", 1, R)  # Explosive: 1CP, 1d10 Exp (2" radius)
    assert (grenade.cost, grenade.damage) == (1, "1d10 Exp")
    shield = weapon_stats("shield", 1, R)  # Shield: 1CP, Use 2
    assert (shield.cost, shield.use) == (1, 2)
    # CONFLICT (digest §11): the ch.3 Two-Handed Weapon is Use 4, the formula gives 3 at S = 2
    assert weapon_stats("melee", 2, R).use == 3


def test_cannon_ammunition_limit():
    # [000 §8.4 Cannons]: Use S+3, Range 4S", ammunition XSize up to the Cannon's Size
    c = weapon_stats("cannon", 2, R, ammo_xsize=2)
    assert (c.cost, c.use, c.range_in, c.damage) == (6, 5, 8, "2d10 Exp")
    with pytest.raises(UsageError):
        weapon_stats("cannon", 2, R, ammo_xsize=3)


def test_launcher_non_explosive_payload():
    # [000 §8.4 Payload Launchers]: a d6 of Crash Damage per point of payload SL
    assert weapon_stats("launcher", 4, R, payload_sl=2, payload_size=2).damage == "2d6"
    with pytest.raises(UsageError):  # objects up to ⌊4/2⌋ = 2"
        weapon_stats("launcher", 4, R, payload_sl=2, payload_size=3)


@pytest.mark.parametrize("kind,cost,use,rng,dmg", [
    ("gun", 6, 4, 10, "2d6"),            # [000 §8.2]: 3S, S+2, 4S+2, Sd6
    ("blastgun", 6, 3, 6, "2d8-dist"),   # [000 §8.3]: 3S, S+1, 2S+2, Sd8 - distance
    ("machinegun", 8, 4, 8, "2d6"),      # [000 §8.3]: 4S, S+2+Auto, 3S+2, Sd6
])
def test_size_2_ranged_weapons(kind, cost, use, rng, dmg):
    w = weapon_stats(kind, 2, R)
    assert (w.cost, w.use, w.range_in, w.damage) == (cost, use, rng, dmg)


def test_weapon_errors():
    with pytest.raises(UsageError, match="unknown weapon type"):
        weapon_stats("lightsaber", 1, R)
    with pytest.raises(UsageError):
        weapon_stats("gun", 0, R)
    with pytest.raises(UsageError):  # a gun has no Auto Penalty
        weapon_stats("gun", 1, R, auto_penalty=1)
    with pytest.raises(UsageError):  # 1.5 dice
        weapon_stats("gun", 1.5, R)
    with pytest.raises(UsageError, match="2001"):
        weapon_stats("gun", 1, OLD)


# ---------------------------------------------------------------- power

def test_scorpiosaurus_rex_power_limit():
    # [000 §8.1 Power Limit Example: Scorpiosaurus Rex]: Size 3 -> 6" of weapons per turn
    assert power_limit(3, False, R) == 6
    assert weapons_fit([5, 1], 3, False, R)          # stinger + one claw
    assert weapons_fit([1, 1], 3, False, R)          # two claws
    assert not weapons_fit([5, 1, 1], 3, False, R)   # 7" > 6"
    # one point of Size Damage: ES 2 -> 4", the stinger alone no longer fits
    es = effective_size(3, 1)
    assert power_limit(es, False, R) == 4
    assert not weapons_fit([5], es, False, R)
    assert weapons_fit([1, 1], es, False, R)


def test_flying_power_and_size_zero():
    # [000 §8.1 Power Limits]: 1 × Size flying in air; Size 0 has no Power
    assert power_limit(4, True, R) == 4
    assert power_limit(0, False, R) == 0
    with pytest.raises(UsageError, match="2001"):
        power_limit(4, False, OLD)


# ---------------------------------------------------------------- structure, size, cost

def test_minifig_costs():
    # [000 §9.5 The Minifig]: Size 1 × SL ½ = 0.5CP; 5" of ground Move = 2.5CP; Armor 1d6
    assert base_cost(R.minifig.size_in, R.minifig.sl, R) == 0.5
    assert armor_for_sl(R.minifig.sl, R) == "1d6"
    assert propulsion_stats("ground", 1, 0.5, R, move_in=5).cost == 2.5
    # legs cap 5" × Size gives exactly the minifig's 5" [004 §9.1]
    legs = propulsion_stats("ground", 1, 0.5, R, legs_or_treads=True)
    assert (legs.move_in, legs.cost) == (5, 2.5)


def test_horse_costs():
    # [000 §10.1 Half-Mind Example: The Horse]: Size 2 × SL ½ = 1CP; Move 10" = 5CP
    assert base_cost(2, 0.5, R) == 1
    legs = propulsion_stats("ground", 2, 0.5, R, legs_or_treads=True)
    assert (legs.move_in, legs.cost) == (10, 5)
    # + Half Mind d6 ½CP = 6.5, listed as 7CP (fractions round up, digest §5.5)
    assert math.ceil(base_cost(2, 0.5, R) + legs.cost + 0.5) == 7


def test_propulsion_cost_examples():
    # [000 §9.1 Propulsion Types]: 10" of Ground movement costs 5CP
    assert propulsion_stats("ground", 4, 2, R, move_in=10).cost == 5
    # an SL 2 space transport pays 4CP for each 2" of (hover) Flight
    assert propulsion_stats("flying", 6, 2, R, move_in=2).cost == 4
    # Forward Flight is (1 + SL) per 2"
    assert propulsion_stats("forward_flying", 6, 2, R, move_in=2).cost == 3


def test_default_move_formulas():
    # [004 §9.1]: ground 18 - 2·Size - SL; water 12 - Size/2 - SL; flying 24 - 2·Size - 2·SL
    f = "formula"
    assert propulsion_stats("ground", 3, 2, R, default=f).move_in == 18 - 6 - 2
    assert propulsion_stats("water", 3, 1, R, default=f).move_in == 12 - 1.5 - 1
    assert propulsion_stats("flying", 2, 1, R, default=f).move_in == 24 - 4 - 2
    # caps: 16" standard, 24" flight [004 §9.1]
    assert propulsion_stats("ground", 0, 0, R, default=f).move_in == 16
    # the [000 §9.1] defaults (ground 10", water 8", flying 12") are the 2010 default
    assert [propulsion_stats(k, 3, 1, R).move_in for k in ("ground", "water", "flying")] == [10, 8, 12]


def test_default_move_limits_warn():
    # [004 §9.1] winged flyers need 10"; Size 6 SL 3 gives 24 - 12 - 6 = 6"
    p = propulsion_stats("flying", 6, 3, R, winged=True, default="formula")
    assert p.move_in == 10 and p.warnings
    # a huge tank: 18 - 24 - 4 < 0 -> brikscan's 2" floor, flagged as not a rule
    tank = propulsion_stats("ground", 12, 4, R, default="formula")
    assert tank.move_in == 2 and "not a rule" in tank.warnings[0]
    assert propulsion_stats("ground", 3, 1, R, move_in=20).warnings  # above 16"
    with pytest.raises(UsageError):
        propulsion_stats("teleport", 3, 1, R)
    with pytest.raises(UsageError, match="2001"):
        propulsion_stats("ground", 3, 1, OLD)


def test_armor_for_sl():
    # [000 §7.1]: 0 -> 0, ½ -> 1d6, n -> n d10 (digest §4.2)
    assert [armor_for_sl(s, R) for s in (0, 0.5, 1, 2, 3, 4, 5)] == \
        ["0", "1d6", "1d10", "2d10", "3d10", "4d10", "5d10"]
    assert armor_for_sl(7, R) == "7d10"  # inferred beyond the table
    with pytest.raises(UsageError):
        armor_for_sl(1.5, R)
    with pytest.raises(UsageError):
        armor_for_sl(-1, R)


def test_lower_sl_2010():
    # [000 §7.1]: weak points one level lower, minimum ½ / 1d6; 0 stays 0
    assert [lower_sl(s, R) for s in (0, 0.5, 1, 2, 4)] == [0, 0.5, 0.5, 1, 3]


def test_lower_sl_2001():
    # [003 §5.1.2]: AV - 2d10, minimum 1d6
    assert [armor_for_sl(lower_sl(s, OLD), OLD) for s in (0.5, 1, 2, 3, 5)] == \
        ["1d6", "1d6", "1d6", "1d10", "3d10"]


def test_clamp_sl():
    # [000 §7.1]: SL never above Size
    assert clamp_sl(2, 4) == (2, None)
    sl, warn = clamp_sl(4, 3)
    assert sl == 3 and "above Size" in warn
    assert clamp_sl(2, 0.5)[0] == 0.5   # SL ½ has minimum Size ½"
    assert clamp_sl(1, 0)[0] == 0
    assert clamp_sl(4, 1, OLD) == (4, None)  # 2001: limited by TekLevel, not Size


def test_base_cost_editions():
    # [000 §7.1 Base Cost] Size × SL; [003 §5.1.2] Size × ArmorX (3d10 ×4, 5d10 ×12)
    assert base_cost(5, 3, R) == 15
    assert base_cost(5, 3, OLD) == 20
    assert base_cost(2, 5, OLD) == 24
    assert base_cost(0, 0, R) == 0  # Vermin cost 0 [000 §7.1]
    with pytest.raises(UsageError):
        base_cost(3, 0, OLD)  # no AV 0 in the 2001 Platform chart


def test_round_size():
    # [000 §7.1 Size]: round either way, minimum 1; [000 §10.3]: Vermin may round down to 0
    assert round_size(2.5, "nearest", R) == 3
    assert round_size(2.49, "nearest", R) == 2
    assert round_size(2.1, "up", R) == 3
    assert round_size(2.9, "down", R) == 2
    assert round_size(0.3, "down", R) == 1
    assert round_size(0.3, "down", R, vermin=True) == 0
    assert round_size(3.0000000001, "up", R) == 3  # float noise from LDU conversion
    with pytest.raises(UsageError):
        round_size(2, "sideways", R)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="2001"):
        round_size(2, "nearest", OLD)


# ---------------------------------------------------------------- Size Damage

def test_shdt_vindicator():
    # [000 §7.2 Size Damage Example]: Size 12", SL 4, Armor 4d10, Full Speed, Power 24"
    full = size_damage(12, 4, 0, R)
    assert (full.effective_size, full.sl, full.armor, full.half_speed, full.power_limit) == \
        (12, 4, "4d10", False, 24)
    # the rest of the table is lost; the stated rules give (digest §6.2):
    assert size_damage(12, 4, 1, R).power_limit == 22
    assert not size_damage(12, 4, 5, R).half_speed          # ES 7 > 6
    six = size_damage(12, 4, 6, R)
    assert six.half_speed and six.power_limit == 12          # ES 6 <= half of 12
    three = size_damage(12, 4, 9, R)
    assert (three.sl, three.armor) == (3, "3d10")            # SL capped at ES
    assert size_damage(12, 4, 11, R).armor == "1d10"
    assert size_damage(12, 4, 12, R).destroyed


def test_small_creations_die_on_first_point():
    # [000 §7.2]: Size 1" Creations and Size 0 Vermin die on the first point of Size Damage
    assert size_damage(1, 0.5, 1, R).destroyed
    assert size_damage(0, 0, 1, R).destroyed
    assert not size_damage(0, 0, 0, R).destroyed
    with pytest.raises(UsageError, match="2001"):
        size_damage(4, 2, 1, OLD)


def test_wrecked_catapult():
    # [000 §7.3 Armor Reinforcement Example: Wrecked Catapult]
    # catapult Size 4, SL 2, 2 Size Damage, cut in two: front Size 3, rear Size 1
    front = size_damage(3, 2, 2, R)
    assert front.effective_size == 1 and (front.sl, front.armor) == (1, "1d10")
    assert not weapons_fit([4], front.effective_size, False, R)  # 4" Launcher deactivated
    rear = size_damage(1, 2, 2, R)
    assert rear.effective_size == -1 and rear.destroyed
    # a 2" Patch repairs one point: ES 2, SL back to 2, Launcher works again
    assert patch_lengths_to_repair(3, 2, R)[0] == 2
    one = size_damage(3, 2, 1, R)
    assert (one.effective_size, one.sl, one.armor) == (2, 2, "2d10")
    assert weapons_fit([4], one.effective_size, False, R)
    # a 3" Patch repairs the second point and raises SL to 3 (3d10)
    assert patch_lengths_to_repair(3, 2, R)[1] == 3
    assert patch_raises_sl(3, 3, 3, R)
    assert armor_for_sl(3, R) == "3d10"
    assert not patch_raises_sl(3, 3, 4, R)  # Patches stop at SL 3


def test_red_rocket_patches():
    # [000 §7.3 Size Damage Repair Example: Red Rocket]: Size 8, ES 5 -> Patches 6", 7", 8"
    assert patch_lengths_to_repair(8, 3, R) == [6, 7, 8]


def test_overkill_row_of_minifigs():
    # [000 §7.2 Overkill] (digest §6.5): 12 damage vs minifigs of Armor 4: two die, third lives
    steps = overkill(12, [4, 4, 4, 4], R)
    assert [s.destroyed for s in steps] == [True, True, False]
    assert [s.leftover for s in steps[:2]] == [8, 4]
    with pytest.raises(UsageError, match="2001"):
        overkill(12, [4], OLD)


def test_grinding():
    # [000 §7.2 Grinding]: 4d10 Armor is SL 4, so each die of 5 or more grinds
    sl = sl_for_armor("4d10", R)
    assert sl == 4
    assert grinding_points([5, 4, 10, 1], sl, R) == 2


# ---------------------------------------------------------------- explosions

def test_wall_demolition_rings():
    # [000 §8.4 Explosion Example: Wall Demolition]: rolls 3, 6, 7
    rings = explosion_rings([3, 6, 7], R)
    assert [r.damage for r in rings] == [16, 9, 3]
    assert [r.outer_radius_in for r in rings] == [2, 4, 6]
    assert [r.knockback_in for r in rings] == [3, 2, 1]
    # wall Armor roll 15: destroyed within 2" and thrown 3"; the rest holds
    assert destroyed_within(rings, 15) == 2
    assert ring_at(rings, 1.0).knockback_in == 3
    # ground Armor roll 8: exposed ground destroyed within 4"
    assert destroyed_within(rings, 8) == 4
    # tower: 9 explosion + 4 collision, cumulative against the same roll of 15 -> unharmed
    assert not beats_armor(9 + 4, 15)
    # the guard (Armor 4) takes exactly 4 and lives
    assert not beats_armor(4, 4)


def test_grenade_radius():
    # [000 §3.2 Explosives]: a 1d10 grenade affects everything within 2"
    rings = explosion_rings([5], R)
    assert len(rings) == 1 and rings[0].outer_radius_in == 2
    assert ring_at(rings, 2.0) is rings[0] and ring_at(rings, 2.1) is None


def test_bonus_dice_in_explosions():
    # [000 §8.4]: the highest d10 is removed together with the Bonus Dice it earned
    rings = explosion_rings([(10, 6, 2), 3], R)
    assert [r.damage for r in rings] == [21, 3]
    assert [r.dice_left for r in rings] == [2, 1]  # bonus d6s add no radius or KnockBack
    assert [r.damage for r in explosion_rings([(10, 6, 2), 3], R, bonus_dice=False)] == [13, 3]
    # a bare 10 means the bonus die was declined [000 §1.2]
    assert explosion_rings([10], R)[0].damage == 10
    for bad in ([(7, 3)], [(10, 3, 4)], [(10, 7)], [11], [0], ["7"]):
        with pytest.raises(UsageError):
            explosion_rings(bad, R)


def test_2001_explosion_drop_is_unspecified():
    # [003 §3.4.2]: one die fewer per 2", which die is not said
    with pytest.raises(UsageError, match="which die"):
        explosion_rings([3, 6, 7], OLD)
    assert [r.damage for r in explosion_rings([3, 6, 7], OLD, drop="lowest")] == [16, 13, 7]
    assert [r.damage for r in explosion_rings([3, 6, 7], OLD, drop="highest")] == [16, 9, 3]


@given(st.lists(st.integers(1, 10), min_size=1, max_size=12))
def test_explosion_ring_invariants(rolls):
    rings = explosion_rings(rolls, R)
    assert len(rings) == len(rolls)
    assert rings[0].damage == sum(rolls)
    assert rings[-1].damage == min(rolls)
    assert [r.dice_left for r in rings] == list(range(len(rolls), 0, -1))
    assert all(a.damage >= b.damage for a, b in zip(rings, rings[1:]))
    assert all(b.inner_radius_in == a.outer_radius_in for a, b in zip(rings, rings[1:]))


# ---------------------------------------------------------------- dice

def test_parse_dice():
    assert parse_dice("3d10") == (3, 10)
    assert parse_dice("d6") == (1, 6)
    assert parse_dice(" 2D8 ") == (2, 8)
    for bad in ("0d10", "d7", "3d", "2d6+1", "ten", "", "-1d6"):
        with pytest.raises(UsageError):
            parse_dice(bad)


def test_parse_dice_takes_the_sides_from_the_rules():
    # no literal die list: without rules, the dice of any edition ([000 §1.2] d4-d12, [001 §1.4] d20)
    from brikscan.rules import formulas
    assert not hasattr(formulas, "DEFAULT_DIE_SIDES")
    assert formulas.default_die_sides() == tuple(sorted(set(R.dice.sides) | set(OLD.dice.sides)))
    assert parse_dice("1d20") == (1, 20) and parse_dice("2d4") == (2, 4)
    assert parse_dice("2d10", R) == (2, 10) and parse_dice("1d20", OLD) == (1, 20)
    with pytest.raises(UsageError, match="no d20"):
        parse_dice("1d20", R)  # 2010 has no d20 [000 §1.2]
    with pytest.raises(UsageError, match="no d4"):
        parse_dice("d4", OLD)  # 2001 rolls d6, d10, d20 [001 §1.4]
    with pytest.raises(UsageError, match="no d8"):
        parse_dice("d8", R.model_copy(update={"dice": R.dice.model_copy(update={"sides": [6, 10]})}))


@pytest.mark.parametrize("sides,plain,bonus", [
    (4, 2.5, 3.33), (6, 3.5, 4.2), (8, 4.5, 5.025), (10, 5.5, 5.92), (12, 6.5, 6.85),
])
def test_fancy_dice_averages(sides, plain, bonus):
    # [000 MOC Combat Fancy Dice]: average values, with and without Bonus Dice
    assert expected_rolls(1, sides) == pytest.approx(plain)
    assert expected_rolls(1, sides, R, bonus_dice=True) == pytest.approx(bonus, abs=0.005)
    assert expected_rolls(3, sides) == pytest.approx(3 * plain)


def test_2001_bonus_dice_are_same_type():
    # [001 §1.4 Better Critical Rolls]: a max face adds one more die of the same type
    assert expected_rolls(1, 10, OLD, bonus_dice=True) == pytest.approx(5.5 / 0.9)


@given(st.floats(0, 200, allow_nan=False), st.sampled_from(["nearest", "up", "down"]), st.booleans())
def test_round_size_properties(x, mode, vermin):
    # [000 §7.1 Size]: a whole number within an inch of the measure, never below the minimum
    floor = 0 if vermin else 1
    n = round_size(x, mode, R, vermin=vermin)
    assert n >= floor
    assert abs(n - x) < 1 + 1e-9 or (n == floor and x < floor)
    if mode == "up":
        assert n >= x - 1e-9
    if mode == "down" and n > floor:
        assert n <= x + 1e-9
