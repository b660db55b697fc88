"""Rule tables: both editions load, validate, cite their sources and really differ."""
from __future__ import annotations

import pytest
from pydantic import ValidationError

from brikscan.errors import UsageError
from brikscan.rules.tables import CITATION_RE, EDITIONS, Cited, Rules, load_raw, load_rules


def _tables(node, path=""):
    """Every TOML table (dict) with at least one plain value, with its dotted path."""
    if isinstance(node, dict):
        if any(not isinstance(v, (dict, list)) or (isinstance(v, list) and v and not isinstance(v[0], dict))
               for v in node.values()):
            yield path, node
        for k, v in node.items():
            yield from _tables(v, f"{path}.{k}" if path else k)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _tables(v, f"{path}[{i}]")


@pytest.mark.parametrize("edition", EDITIONS)
def test_edition_loads_and_validates(edition):
    rules = load_rules(edition)
    assert isinstance(rules, Rules)
    assert rules.edition == edition


def test_default_edition_is_2010():
    assert load_rules().edition == "2010"


@pytest.mark.parametrize("bad", ["1999", "2011", "", "latest"])
def test_unknown_edition_is_a_usage_error(bad):
    with pytest.raises(UsageError) as exc:
        load_rules(bad)
    msg = str(exc.value)
    assert "\n" not in msg and "2010" in msg and "2001" in msg
    assert exc.value.exit_code == 2


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_entry_has_a_citation(edition):
    raw = load_raw(edition)
    checked = 0
    for path, table in _tables(raw):
        if path == "meta":
            continue
        assert "source" in table, f"{edition}: {path} has no source"
        for part in table["source"].split(";"):
            assert CITATION_RE.match(part.strip()), f"{edition}: {path} bad citation {part!r}"
        checked += 1
    assert checked >= 10  # the walk really visited the tables


@pytest.mark.parametrize("edition", EDITIONS)
def test_unsupported_sections_explain_themselves(edition):
    raw = load_raw(edition)
    for path, table in _tables(raw):
        if "unsupported" in table:
            assert len(table["unsupported"]) > 20, f"{path}: say why it is unsupported"


def test_2001_table_differs_from_2010():
    new, old = load_rules("2010"), load_rules("2001")
    # [000 §7.1] vs [003 §5.1.2]: cost multiplier is SL in 2010, ArmorX in 2001
    new_mult = {r.level: r.cost_multiplier for r in new.structure.levels}
    old_mult = {r.level: r.cost_multiplier for r in old.structure.levels}
    assert new_mult[3] == 3 and old_mult[3] == 4
    assert new_mult[5] == 5 and old_mult[5] == 12
    assert 0 in new_mult and 0 not in old_mult
    # weak points: one level lower [000 §7.1] vs AV - 2d10 [003 §5.1.2]
    assert (new.weak_point.levels_lower, old.weak_point.levels_lower) == (1, 2)
    # explosion falloff: highest die [000 §8.4] vs unspecified [003 §3.4.2]
    assert (new.explosion.drop, old.explosion.drop) == ("highest", "unspecified")
    assert new.weapons.unsupported is None and old.weapons.unsupported
    assert new.power.unsupported is None and old.power.unsupported
    assert new.structure.max_level_is_size and not old.structure.max_level_is_size


def test_2010_structure_table_matches_digest():
    # [000 §7.1] SL 0 -> 0, ½ -> 1d6, 1 -> 1d10; [000 §7.3], [000 §7.2] up to 4d10
    rows = {r.level: r.armor for r in load_rules("2010").structure.levels}
    assert rows == {0: "0", 0.5: "1d6", 1: "1d10", 2: "2d10", 3: "3d10", 4: "4d10", 5: "5d10"}


def test_2001_armor_chart():
    # [003 §5.1.2 Platform Armor Value Chart]: ArmorX ×.5, 1, 2, 4, 8, 12
    rows = [(r.armor, r.cost_multiplier) for r in load_rules("2001").structure.levels]
    assert rows == [("1d6", 0.5), ("1d10", 1), ("2d10", 2), ("3d10", 4), ("4d10", 8), ("5d10", 12)]


def test_2010_weapon_types_are_chapter_eight():
    types = set(load_rules("2010").weapons.types)
    assert types == {"melee", "shield", "gun", "blastgun", "machinegun", "flamethrower",
                     "launcher", "cannon", "rocket", "explosive"}


def test_citation_validator_rejects_uncited_entries():
    with pytest.raises(ValidationError):
        Cited(source="made up")
    with pytest.raises(ValidationError):
        Cited(source="[000 §7.1 Structure]; somewhere")
    assert Cited(source="[000 §7.1 Structure]").source


def test_tables_are_immutable():
    rules = load_rules("2010")
    with pytest.raises(ValidationError):
        rules.power.per_size = 3  # type: ignore[misc]


@pytest.mark.parametrize("edition", EDITIONS)
def test_brikscan_default_tables_exist_with_citations(edition):
    """The SL suggestion (digest §13.1) and Weapon Size rounding [000 §8.1] are tables, not code."""
    raw = load_raw(edition)
    sug, ws = raw["sl_suggestion"], raw["weapon_size"]
    assert "[digest §13.1]" in sug["source"] and sug["status"] == "impl"
    assert all("[digest §13.1]" in m["source"] and m["status"] == "impl" for m in sug["materials"])
    assert ws["status"] == "impl" and "[000 §8.1 Weapon Size]" in ws["source"]
    r = load_rules(edition)
    t = r.sl_suggestion
    assert t.unsupported is None  # both editions suggest the same way (2001 mirrors 2010)
    assert [(m.name, m.sl, m.creature_sl, m.brick_bonus) for m in t.materials] == [
        ("glass", 0, None, 0), ("wood", 1, None, 0), ("stone", 2, None, 1), ("plastic", 1, 0.5, 0)]
    assert (t.empty_sl, t.brick_bonus_min_bricks, t.max_sl) == (1, 10, 5)
    assert set(t.brick_bonus_kinds) == {"vehicle", "building"}
    assert (r.weapon_size.round, r.weapon_size.minimum) == ("nearest", 1)


def test_digest_citations_are_accepted_and_still_checked():
    assert CITATION_RE.match("[digest §13.1]")
    assert Cited(source="[digest §13.1]; [000 §7.1 Structure Level]", status="impl").source
    for bad in ("[digest]", "[digest 13.1]", "digest §13.1", "[DIGEST.md §13.1]"):
        with pytest.raises(ValidationError):
            Cited(source=bad)


def test_sl_suggestion_needs_a_fallback_material():
    raw = load_raw("2010")
    mats = raw["sl_suggestion"]["materials"]
    with pytest.raises(ValidationError):  # no keyword-free last entry
        Rules.model_validate({**raw, "sl_suggestion": {**raw["sl_suggestion"], "materials": mats[:-1]}})
