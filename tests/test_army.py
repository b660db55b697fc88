"""The army [000 §11.1 Military Budgets]: Construction Points and Unit Inches of several files and a scene's sides,
the budget, the Almighty Benny balance, bad input, the --json contract and the printable cards (HTML and PDF)."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from brikscan.battle.army import Army, ArmyEntry, army, army_json, parse_budget
from brikscan.cli import main
from brikscan.errors import UsageError
from conftest import EXAMPLES, MODELS_DIR, SCENES, needs_shared

SQUAD = EXAMPLES / "squad.ldr"


# ------------------------------------------------------------------ Unit Inches: the rulebook's examples

class _Card:
    """A stat card stand-in: just what the army sums."""

    def __init__(self, name, kind, size, cost, ui, key=()):
        from brikscan.analysis.creation import Creation

        self.creation = Creation(name, kind, [])
        self.size, self.total_cost, self.unit_inches, self._key = size, cost, ui, key

    def loadout_key(self):
        return self._key or (self.creation.name,)


def _army(cards, budget=None) -> Army:
    return Army("2010", [ArmyEntry("m.ldr", "m", c, side, True, "") for c, side in cards], [], budget)


def test_forty_three_flail_minifigs_are_43_unit_inches():
    # 43 minifigs with one Heavy flail each, or one minifig with 99 flails: the same CP, 43 Ű against 1 Ű
    # [000 §11.1 Unit Inches]
    many = _army([(_Card(f"m{i}", "minifig", 1, 4 + 3, 1, ("flail",)), "a") for i in range(43)])
    one = _army([(_Card("zahru", "minifig", 1, 4 + 3 * 99, 1), "b")])
    assert many.total_cp == one.total_cp == 301
    assert (many.unit_inches, one.unit_inches) == (43, 1)
    assert [g.count for g in many.groups()] == [43]  # identical minifigs on one card, ×43


def test_almighty_bennies_one_per_unit_inch_short():
    # the weaker side takes one Almighty Benny per Ű short of the strongest [000 §11.1 Game Balance]
    a = _army([(_Card("tank", "vehicle", 6, 40, 6), "red"), (_Card("m1", "minifig", 1, 4, 1), "blue"),
               (_Card("horse", "creature", 2, 7, 2), "blue")])
    sides = a.sides()
    assert (sides["red"]["almighty_bennies"], sides["blue"]["almighty_bennies"]) == (0, 3)
    assert (sides["red"]["unit_inches"], sides["blue"]["unit_inches"]) == (6, 3)


def test_budget_per_side():
    a = _army([(_Card("tank", "vehicle", 6, 40, 6), "red"), (_Card("m1", "minifig", 1, 4, 1), "blue")], budget=20)
    s = a.sides()
    assert s["red"]["over_budget"] and not s["blue"]["over_budget"] and s["blue"]["budget_left"] == 16


@pytest.mark.parametrize("bad", ["lots", "", "-3", "nan", "1e999"])
def test_budget_not_a_number_is_a_usage_error(bad):
    with pytest.raises(UsageError):
        parse_budget(bad)
    assert parse_budget("150") == 150


def test_cli_budget_not_a_number_exits_2(capsys):
    assert main(["army", str(SQUAD), "--budget", "plenty"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--budget" in err[0]


def test_cli_one_missing_file_among_several_exits_3(capsys, tmp_path):
    missing = tmp_path / "nope.ldr"
    assert main(["army", str(SQUAD), str(missing)]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nope.ldr" in err[0]


# ------------------------------------------------------------------ real models (bundled, fallback meshes)

def test_squad_army_json_contract(capsys):
    assert main(["army", str(SQUAD), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    for k in ("rules", "total_cp", "unit_inches", "creations"):
        assert k in d
    for c in d["creations"]:
        assert {"model", "name", "kind", "size", "total_cost", "unit_inches", "side"} <= set(c)
    figs = [c for c in d["creations"] if c["kind"] == "minifig"]
    assert len(figs) == 6 and all(c["unit_inches"] == 1 for c in figs)  # a minifig is 1 Ű [000 §11.1]
    assert d["unit_inches"] == 6  # the base plate is scenery: free
    assert d["total_cp"] == sum(c["total_cost"] for c in d["creations"])


def test_non_aligned_buildings_are_free_until_given_a_side():
    wall = EXAMPLES / "castle_wall.ldr"
    free = army([wall])
    sided = army([wall], side="defenders")
    b_free = [e for e in free.entries if e.card.creation.kind == "building"]
    b_sided = [e for e in sided.entries if e.card.creation.kind == "building"]
    assert b_free and all(not e.counts and e.total_cost == 0 for e in b_free)
    assert all(e.counts and e.total_cost == e.card.total_cost > 0 for e in b_sided)
    assert sided.total_cp > free.total_cp


def test_scene_sides():
    a = army([SCENES / "castle_assault.toml"])
    sides = a.sides()
    assert {"defenders", "attackers"} <= set(sides)
    assert sides["attackers"]["unit_inches"] >= 1
    d = army_json(a)
    assert {c["side"] for c in d["creations"] if c["counts"]} <= {"defenders", "attackers"}
    top = max(s["unit_inches"] for s in sides.values())
    for s in sides.values():
        assert s["almighty_bennies"] == int(top - s["unit_inches"])


def test_python_function_at_the_top():
    import brikscan

    a = brikscan.army([str(SQUAD)], budget=10, json=False)
    assert a.total_cp > 10 and army_json(a)["over_budget"] is True


# ------------------------------------------------------------------ printable cards

def test_cards_html_is_poker_size_with_print_css(tmp_path):
    out = tmp_path / "cards.html"
    assert main(["army", str(SQUAD), "--cards", str(out)]) == 0
    text = out.read_text()
    assert "63mm" in text and "88mm" in text and "@page" in text and "@media print" in text
    assert text.count("class='card'") == len(army([SQUAD]).groups())


@pytest.mark.skipif(shutil.which("chromium") is None or shutil.which("pdftoppm") is None
                    or shutil.which("pdftotext") is None,
                    reason="needs chromium and poppler-utils (pdftoppm, pdftotext; .ci/apt-packages.txt)")
def test_cards_pdf_every_card_on_a_page(tmp_path):
    paths = [SQUAD, EXAMPLES / "tank.mpd", EXAMPLES / "walker.ldr"]
    out = tmp_path / "army.pdf"
    assert main(["army", *map(str, paths), "--cards", str(out)]) == 0
    assert out.read_bytes()[:5] == b"%PDF-"
    groups = army(paths).groups()
    subprocess.run(["pdftoppm", "-r", "40", "-png", str(out), str(tmp_path / "page")], check=True)
    pages = sorted(tmp_path.glob("page*.png"))
    assert len(pages) == -(-len(groups) // 9)  # nine cards to an A4 page
    text = subprocess.run(["pdftotext", "-layout", str(out), "-"], capture_output=True, text=True).stdout
    for g in groups:  # every card's title is on a page, readable as text
        assert g.entries[0].name in text
    from PIL import Image

    for p in pages:  # and no page is blank
        im = Image.open(p).convert("L")
        assert im.getextrema()[0] < 100


@needs_shared
def test_two_official_sets_in_one_army(loaded, library_zip):
    a = army([MODELS_DIR / "6066 - Camouflaged Outpost.mpd", MODELS_DIR / "6285 - Black Seas Barracuda.mpd"],
             library_zip, side="blue")
    figs = [e for e in a.counted if e.card.creation.kind == "minifig"]
    # 6066's seven and 6285's eight (its figurehead is a carving on the bow, not a minifig [000 §7.1])
    assert len(figs) == 14 and sum(e.unit_inches for e in figs) == 14
    horse = [e for e in a.counted if e.card.creation.kind == "creature" and e.card.size == 2]
    assert [h.total_cost for h in horse] == [7]
    assert any(g.count == 5 for g in a.groups())  # the five Forestmen longbowmen on one card


def test_unknown_side_in_an_annotation_is_a_warning_with_file_and_line(tmp_path):
    lines = SQUAD.read_text().splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.endswith("3626bp03.dat"))
    lines.insert(k, "0 !BRIKSCAN UNIT name=Turncoat side=purple")
    p = tmp_path / "squad_sided.ldr"
    p.write_text("\n".join(lines) + "\n")
    a = army([p], side="red")
    msg = [w for w in a.warnings if "unknown side 'purple'" in w]
    assert msg and msg[0].startswith(f"{p}:{k + 1}:"), a.warnings
    assert {e.side for e in a.counted} == {"red", "purple"}
