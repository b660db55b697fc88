"""The hand-labelled evaluation set (tests/labels/*.toml, issue 8) and its scorer (bench/score_labels.py).

* the label files' format (no model needed);
* the labels' parts match the models' elements (needs ../shared: skipped with the reason when it is absent);
* the set's size: at least 15 models and 1,500 labelled elements (both labellers' files together);
* the scoring functions on a small made-up case;
* the targets (role accuracy >= 95 %, split exact on >= 90 % of the models), marked ``labelled_targets`` and run
  only when asked for: ``pytest -m labelled_targets`` or ``BRIKSCAN_LABELLED_TARGETS=1``.
"""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
from conftest import SHARED  # ../shared, or $BRIKSCAN_SHARED
LABELS = ROOT / "tests" / "labels"
MODELS = SHARED / "ldraw" / "models"
LIBRARY = SHARED / "ldraw" / "complete.zip"
NO_SHARED = (f"needs the shared LDraw library and official models at {SHARED} (../shared relative to the repo): "
             "absent on this machine")

_spec = importlib.util.spec_from_file_location("score_labels", ROOT / "bench" / "score_labels.py")
score_labels = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(score_labels)

FILES = score_labels.label_files(LABELS)


def _ids(files):
    return [f.stem for f in files]


def test_there_are_label_files():
    assert FILES, f"no label files in {LABELS}"


@pytest.mark.parametrize("path", FILES, ids=_ids(FILES))
def test_label_file_format(path):
    labels = score_labels.load_labels(path)
    assert labels["element"], f"{path.name}: no elements"
    assert score_labels.format_problems(labels) == []


@pytest.mark.parametrize("path", FILES, ids=_ids(FILES))
def test_label_parts_match_the_model(path):
    if not LIBRARY.exists() or not MODELS.exists():
        pytest.skip(NO_SHARED)
    labels = score_labels.load_labels(path)
    model = MODELS / labels["model"]
    assert model.exists(), f"{path.name}: model {labels['model']!r} is not in {MODELS}"
    score_labels.check_parts(labels, score_labels.model_parts(model, str(LIBRARY)))


def test_the_set_is_big_enough():
    """Issue 8: at least 15 official models and 1,500 labelled elements (across both labellers' files)."""
    files = [score_labels.load_labels(p) for p in FILES]
    n = sum(len(f["element"]) for f in files)
    assert len(files) >= 15, f"{len(files)} labelled models, issue 8 asks for at least 15"
    assert n >= 1500, f"{n} labelled elements, issue 8 asks for at least 1,500"


# ------------------------------------------------------------------ the scoring functions

def _labels():
    return {"file": "made-up.toml", "model": "made-up.mpd", "creation": [
        {"name": "Boat", "kind": "vehicle", "spacecraft": False, "reason": "r"},
        {"name": "Dock", "kind": "building", "spacecraft": False, "reason": "r"}],
        "element": [
            {"index": 0, "part": "a.dat", "creation": "Boat", "role": "structural", "reason": "r"},
            {"index": 1, "part": "b.dat", "creation": "Boat", "role": "weapon", "type": "cannon", "reason": "r"},
            {"index": 2, "part": "c.dat", "creation": "Dock", "role": "structural", "reason": "r"},
            {"index": 3, "part": "d.dat", "creation": "minifig", "role": "crew", "reason": "r"},
            {"index": 4, "part": "e.dat", "creation": "scenery", "role": "structural", "reason": "r"}]}


def _view(creation_of, roles, types=None, kinds=("vehicle", "building", "minifig", "scenery")):
    return {"creation_of": dict(enumerate(creation_of)), "role": dict(enumerate(roles)),
            "type": dict(enumerate(types or [""] * len(roles))),
            "creations": [{"name": f"c{k}", "kind": kd, "spacecraft": None} for k, kd in enumerate(kinds)]}


def test_score_model_all_right():
    r = score_labels.score_model(_labels(), _view([0, 0, 1, 2, 3], ["structural", "weapon", "structural", "crew",
                                                                     "structural"], ["", "cannon", "", "", ""]))
    assert r["role_accuracy"] == 1.0 and r["split_exact"] and r["kinds_right"] == 2
    assert r["type_accuracy"] == 1.0
    assert r["confusion"]["structural"] == {"structural": 3}


def test_score_model_merged_creations_and_wrong_roles():
    # the dock is merged into the boat's creation, the cannon is called decoration, the minifig is not a minifig
    r = score_labels.score_model(_labels(), _view([0, 0, 0, 1, 3], ["structural", "decoration", "structural",
                                                                     "crew", "structural"],
                                                  kinds=("vehicle", "building", "minifig", "scenery")))
    assert r["role_accuracy"] == pytest.approx(0.8)
    assert r["type_accuracy"] == 0.0
    assert not r["split_exact"]
    assert any("Dock" in p for p in r["split_problems"]) and any("minifig" in p for p in r["split_problems"])
    assert r["confusion"]["weapon"] == {"decoration": 1}


def test_score_model_split_boat_and_missing_elements():
    v = _view([0, 2, 1, 2, 3], ["structural", "weapon", "structural", "crew", "structural"])
    del v["creation_of"][4]  # scenery element left out of every creation
    r = score_labels.score_model(_labels(), v)
    assert not r["split_exact"]
    assert any(p.startswith("Boat:") for p in r["split_problems"])
    assert any(p.startswith("scenery:") for p in r["split_problems"])


def test_part_mismatch_names_file_and_index():
    with pytest.raises(score_labels.LabelError, match=r"made-up.toml: element 2"):
        score_labels.check_parts(_labels(), ["a.dat", "b.dat", "x.dat", "d.dat", "e.dat"])


def test_summary_and_markdown():
    r = score_labels.score_model(_labels(), _view([0, 0, 1, 2, 3], ["structural", "weapon", "structural", "crew",
                                                                     "structural"]))
    s = score_labels.summarise([r, r])
    assert s["elements"] == 10 and s["split_exact_models"] == 2
    md = score_labels.markdown([r], s)
    assert "| made-up.mpd | 5 | 100.0% | yes | 2/2 |" in md and "Confusion matrix" in md


# ------------------------------------------------------------------ the targets (the lead switches them on)

def _targets_requested(config) -> bool:
    return os.environ.get("BRIKSCAN_LABELLED_TARGETS") == "1" or "labelled_targets" in (config.getoption("-m") or "")


@pytest.mark.labelled_targets
@pytest.mark.slow
def test_labelled_targets(request):
    """Issue 8 targets: role accuracy >= 95 % over all labelled elements, split exact on >= 90 % of the models."""
    if not _targets_requested(request.config):
        pytest.skip("the labelled-set targets run only with -m labelled_targets or BRIKSCAN_LABELLED_TARGETS=1")
    if not LIBRARY.exists() or not MODELS.exists():
        pytest.skip(NO_SHARED)
    results = [score_labels.score_file(p, MODELS, str(LIBRARY)) for p in FILES]
    overall = score_labels.summarise(results)
    report = score_labels.markdown(results, overall)
    assert overall["role_accuracy"] >= 0.95, report
    assert overall["split_exact_share"] >= 0.90, report


def _agreement_module():
    spec = importlib.util.spec_from_file_location("agreement", ROOT / "bench" / "agreement.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_blind_second_labels_are_labelled_elements_of_the_set():
    """tests/labels/blind: a second labeller's blind labels of a sample of the set (the noise ceiling,
    bench/agreement.py). Every line is an element of a label file, with the same part, and a reason."""
    ag = _agreement_module()
    blind = ag.read_blind(LABELS / "blind")
    assert len(blind) >= 300
    labelled = {}
    for f in FILES:
        labels = score_labels.load_labels(f)
        for e in labels["element"]:
            labelled[(labels["model"], e["index"])] = e["part"]
    wrong = [(k, e["part"]) for k, e in blind.items() if labelled.get(k) != e["part"]]
    assert not wrong, wrong[:5]
    assert all(e["reason"].strip() for e in blind.values())


def test_the_third_labels_are_elements_of_the_blind_sample():
    """tests/labels/third: a third labeller's blind labels of every element the first two labellers disagree on and
    of 40 they agree on (bench/agreement.py's majority of three). Every line is an element of the blind sample,
    with the same part and a reason, and every disagreement of the first two is among them."""
    ag = _agreement_module()
    blind = ag.read_blind(LABELS / "blind")
    third = ag.read_blind(LABELS / "third")
    assert all(k in blind and blind[k]["part"] == e["part"] and e["reason"].strip() for k, e in third.items())
    first = {}
    for f in FILES:
        labels = score_labels.load_labels(f)
        for e in labels["element"]:
            first[(labels["model"], e["index"])] = e["role"]
    split = [k for k, e in blind.items() if first[k] != e["role"]]
    assert split and all(k in third for k in split)
    assert sum(first[k] == blind[k]["role"] for k in third) >= 40


def test_the_majority_of_three_decides_where_two_agree():
    ag = _agreement_module()
    keys = ["a", "b", "c", "d"]
    first = {"a": "crew", "b": "structural", "c": "decoration", "d": "weapon"}
    second = {"a": "crew", "b": "decoration", "c": "structural", "d": "device"}
    third = {"b": "decoration", "c": "decoration", "d": "propulsion"}
    truth = ag.majority(first, second, third, keys)
    assert truth == {"a": "crew", "b": "decoration", "c": "decoration", "d": None}
    code = {"a": "crew", "b": "decoration", "c": "structural", "d": "weapon"}
    r = ag.against(truth, first=first, code=code)
    assert (r["elements"], r["undecided"]) == (3, 1)
    assert (r["first"]["agree"], r["code"]["agree"]) == (2, 2)


def test_agreement_counts_pairs_and_leaves_crew_out_when_asked():
    ag = _agreement_module()
    keys = ["a", "b", "c", "d"]
    first = {"a": "crew", "b": "structural", "c": "decoration", "d": "weapon"}
    second = {"a": "crew", "b": "structural", "c": "structural", "d": "weapon"}
    code = {"a": "crew", "b": "decoration", "c": "structural", "d": "weapon"}
    r = ag.agreement(first, second, code, keys)
    assert (r["second_vs_first"]["agree"], r["code_vs_first"]["agree"], r["code_vs_second"]["agree"]) == (3, 2, 3)
    r = ag.agreement(first, second, code, keys, crew=False)
    assert r["elements"] == 3 and r["second_vs_first"]["agree"] == 2
    lo, hi = ag.wilson(9, 10)
    assert 0.59 < lo < 0.6 and 0.98 < hi < 0.99  # the Wilson interval of 9/10 (0.596, 0.982)
