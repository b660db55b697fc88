"""Score brikscan's analysis against the hand-labelled set in tests/labels/*.toml (issue 8).

    python bench/score_labels.py                      # every label file, ../shared models and library
    python bench/score_labels.py --only 6245 6716     # some models (label file slugs)
    python bench/score_labels.py --json out.json      # also write the full result
    python bench/score_labels.py --models DIR --library complete.zip --labels DIR

Per model and overall: role accuracy over the labelled elements (label role == code role), the confusion matrix
(label x code), the type accuracy of weapon/propulsion elements whose label gives a type, and the creation split:

* every label creation other than "minifig"/"scenery" maps to exactly one code creation (all its labelled elements
  in one code creation), and that code creation holds no labelled element of any other label creation (so no two
  label creations share a code creation);
* every "minifig"-labelled element sits in a code creation of kind "minifig", every "scenery" one in kind "scenery";
* the split is "exact" when all of that holds; kind agreement is counted per label creation (the code creation that
  holds most of its labelled elements; the spacecraft flag is compared when the code creation has one).

The judging principles: docs/labels/*.md (the guide a blind second labeller followed: docs/labels/blind-guide.md).
The pure functions (``load_labels``, ``code_view``, ``score_model``, ``summarise``, ``markdown``) do not load
anything and are used by tests/test_labelled_set.py. A label whose part does not match the model's element is an
error naming the label file and the index (exit 1); otherwise the script exits 0 whatever the scores.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
LABELS_DIR = ROOT / "tests" / "labels"
MODELS_DIR = SHARED / "ldraw" / "models"
LIBRARY = SHARED / "ldraw" / "complete.zip"

ROLES = ("structural", "weapon", "propulsion", "device", "decoration", "weak point", "crew")
KINDS = ("building", "vehicle", "creature", "minifig", "loose item", "scenery")
RESERVED = ("minifig", "scenery")
TYPES = {
    "propulsion": ("ground", "water", "flight", "forward_flight", "thrust"),
    "weapon": ("gun", "cannon", "melee", "shield", "rocket", "explosive", "launcher", "flamethrower"),
    "device": ("controls",),
}
NONE = "(none)"  # code role / creation of an element the analysis left out


class LabelError(Exception):
    """A label file that does not match its model (or is malformed): the message names the file and index."""


# ------------------------------------------------------------------ labels

def load_labels(path: str | Path) -> dict:
    """One label file as a dict: model, what, sampling, labelled_by, creation (list), element (list, by index)."""
    path = Path(path)
    with open(path, "rb") as f:
        data = tomllib.load(f)
    data.setdefault("creation", [])
    data.setdefault("element", [])
    data["element"] = sorted(data["element"], key=lambda e: e.get("index", -1))
    data["file"] = str(path)
    return data


def label_files(labels_dir: str | Path = LABELS_DIR) -> list[Path]:
    return sorted(Path(labels_dir).glob("*.toml"))


def format_problems(labels: dict) -> list[str]:
    """What is wrong with a label file's format (empty list: fine). Does not look at the model."""
    name = Path(labels.get("file", "?")).name
    out = []
    for key in ("model", "what", "sampling", "labelled_by"):
        if not str(labels.get(key, "")).strip():
            out.append(f"{name}: missing '{key}'")
    declared = {}
    for c in labels["creation"]:
        n = c.get("name", "")
        if not n:
            out.append(f"{name}: a creation without a name")
        elif n in RESERVED:
            out.append(f"{name}: creation name {n!r} is reserved (use it only in elements)")
        elif n in declared:
            out.append(f"{name}: creation {n!r} declared twice")
        if c.get("kind") not in KINDS:
            out.append(f"{name}: creation {n!r}: kind {c.get('kind')!r} not in {KINDS}")
        if not str(c.get("reason", "")).strip():
            out.append(f"{name}: creation {n!r} has no reason")
        if "spacecraft" in c and not isinstance(c["spacecraft"], bool):
            out.append(f"{name}: creation {n!r}: spacecraft must be true or false")
        declared[n] = c
    seen = set()
    for e in labels["element"]:
        i = e.get("index")
        where = f"{name}: element {i}"
        if not isinstance(i, int) or i < 0:
            out.append(f"{where}: index must be a non-negative integer")
            continue
        if i in seen:
            out.append(f"{where}: labelled twice")
        seen.add(i)
        if not str(e.get("part", "")).strip():
            out.append(f"{where}: no part")
        cre = e.get("creation", "")
        if cre not in declared and cre not in RESERVED:
            out.append(f"{where}: creation {cre!r} not declared")
        role = e.get("role")
        if role not in ROLES:
            out.append(f"{where}: role {role!r} not in {ROLES}")
        typ = e.get("type", "")
        if typ and typ not in TYPES.get(role, ()):
            out.append(f"{where}: type {typ!r} does not fit role {role!r}")
        if not str(e.get("reason", "")).strip():
            out.append(f"{where}: no reason")
    used = {e.get("creation") for e in labels["element"]}
    for n in declared:
        if n not in used:
            out.append(f"{name}: creation {n!r} declared but no element labelled in it")
    return out


def check_parts(labels: dict, parts: list[str]) -> None:
    """Raise LabelError naming the label file and index when a label's part is not the model's element."""
    name = labels.get("file", "?")
    for e in labels["element"]:
        i = e["index"]
        if i >= len(parts):
            raise LabelError(f"{name}: element {i}: the model has only {len(parts)} elements")
        if str(e["part"]).lower() != str(parts[i]).lower():
            raise LabelError(f"{name}: element {i}: part {e['part']!r} in the label, {parts[i]!r} in the model "
                             f"(index drift?)")


# ------------------------------------------------------------------ the code's answer

def code_view(analysis) -> dict:
    """What the analysis says, as plain data: per element its creation number, role and type; per creation its
    name, kind and spacecraft flag (None when the code has none)."""
    creation_of, role, typ, creations = {}, {}, {}, []
    for ci, c in enumerate(analysis.creations):
        creations.append({"name": c.name, "kind": c.kind, "spacecraft": getattr(c, "spacecraft", None)})
        for i in c.elements:
            creation_of[i] = ci
            r = c.roles.get(i)
            if r is not None:
                role[i] = r.role
                typ[i] = (r.params or {}).get("type", "") or ""
    return {"creation_of": creation_of, "role": role, "type": typ, "creations": creations}


# ------------------------------------------------------------------ scoring

def score_model(labels: dict, analysis) -> dict:
    """Score one model: ``labels`` from ``load_labels``, ``analysis`` an ``Analysis`` or a ``code_view`` dict."""
    view = analysis if isinstance(analysis, dict) else code_view(analysis)
    cof, crole, ctype, ccre = view["creation_of"], view["role"], view["type"], view["creations"]
    elements = labels["element"]
    n = len(elements)

    confusion: dict[str, Counter] = defaultdict(Counter)
    right = 0
    typed = typed_right = 0
    wrong = []
    for e in elements:
        i = e["index"]
        code = crole.get(i, NONE)
        confusion[e["role"]][code] += 1
        if code == e["role"]:
            right += 1
        else:
            wrong.append({"index": i, "part": e["part"], "label": e["role"], "code": code})
        if e["role"] in ("weapon", "propulsion") and e.get("type"):
            typed += 1
            if code == e["role"] and ctype.get(i, "") == e["type"]:
                typed_right += 1

    # creation split
    by_label: dict[str, list[int]] = defaultdict(list)
    for e in elements:
        by_label[e["creation"]].append(e["index"])
    label_of = {e["index"]: e["creation"] for e in elements}
    declared = {c["name"]: c for c in labels["creation"]}
    problems = []
    per_creation = []
    for name, idx in by_label.items():
        if name in RESERVED:
            continue
        held = Counter(cof.get(i, NONE) for i in idx)
        ok = True
        if len(held) != 1 or NONE in held:
            ok = False
            problems.append(f"{name}: its labelled elements are in {len(held)} code creations "
                            f"({_names(held, ccre)})")
        main = held.most_common(1)[0][0]
        if main != NONE:
            foreign = Counter(label_of[i] for i, c in cof.items() if c == main and i in label_of
                              and label_of[i] != name)
            if foreign:
                ok = False
                problems.append(f"{name}: code creation {ccre[main]['name']!r} also holds labelled elements of "
                                + ", ".join(f"{k} ({v})" for k, v in sorted(foreign.items())))
        want = declared.get(name, {})
        got = ccre[main] if main != NONE else {"name": NONE, "kind": NONE, "spacecraft": None}
        kind_ok = got["kind"] == want.get("kind")
        if got.get("spacecraft") is not None and kind_ok:
            kind_ok = bool(got["spacecraft"]) == bool(want.get("spacecraft", False))
        per_creation.append({"label": name, "label_kind": want.get("kind"), "code": got["name"],
                             "code_kind": got["kind"], "elements": len(idx), "split_ok": ok, "kind_ok": kind_ok})
    for reserved in RESERVED:
        idx = by_label.get(reserved, [])
        bad = [i for i in idx if cof.get(i, NONE) == NONE or ccre[cof[i]]["kind"] != reserved]
        if bad:
            problems.append(f"{reserved}: {len(bad)} of {len(idx)} labelled elements are not in a code creation of "
                            f"kind {reserved!r} (e.g. {bad[:5]})")
    kinds_right = sum(1 for c in per_creation if c["kind_ok"])
    return {
        "model": labels.get("model", ""), "file": Path(labels.get("file", "")).name, "elements": n,
        "role_right": right, "role_accuracy": right / n if n else 0.0,
        "typed": typed, "type_right": typed_right, "type_accuracy": typed_right / typed if typed else None,
        "confusion": {k: dict(v) for k, v in confusion.items()},
        "split_exact": not problems, "split_problems": problems,
        "creations": per_creation, "kinds_right": kinds_right, "kinds_total": len(per_creation),
        "role_errors": wrong,
    }


def _names(held: Counter, ccre: list[dict]) -> str:
    return ", ".join(f"{ccre[c]['name'] if c != NONE else NONE}: {k}" for c, k in held.most_common())


def summarise(results: list[dict]) -> dict:
    """Overall numbers over scored models: micro role accuracy, type accuracy, split-exact share, confusion."""
    n = sum(r["elements"] for r in results)
    right = sum(r["role_right"] for r in results)
    typed = sum(r["typed"] for r in results)
    typed_right = sum(r["type_right"] for r in results)
    confusion: dict[str, Counter] = defaultdict(Counter)
    for r in results:
        for k, row in r["confusion"].items():
            confusion[k].update(row)
    exact = sum(1 for r in results if r["split_exact"])
    return {
        "models": len(results), "elements": n, "role_right": right, "role_accuracy": right / n if n else 0.0,
        "typed": typed, "type_right": typed_right, "type_accuracy": typed_right / typed if typed else None,
        "split_exact_models": exact, "split_exact_share": exact / len(results) if results else 0.0,
        "kinds_right": sum(r["kinds_right"] for r in results), "kinds_total": sum(r["kinds_total"] for r in results),
        "confusion": {k: dict(v) for k, v in confusion.items()},
    }


def markdown(results: list[dict], overall: dict) -> str:
    """The per-model table and the overall confusion matrix (label rows x code columns)."""
    lines = ["| model | labelled elements | role accuracy | split exact | kinds right |",
             "|---|---:|---:|:---:|---:|"]
    for r in results:
        lines.append(f"| {r['model']} | {r['elements']} | {r['role_accuracy']:.1%} | "
                     f"{'yes' if r['split_exact'] else 'no'} | {r['kinds_right']}/{r['kinds_total']} |")
    ta = overall["type_accuracy"]
    lines.append(f"| **overall ({overall['models']} models)** | {overall['elements']} | "
                 f"{overall['role_accuracy']:.1%} | {overall['split_exact_models']}/{overall['models']} | "
                 f"{overall['kinds_right']}/{overall['kinds_total']} |")
    lines.append("")
    lines.append(f"Type accuracy (weapon/propulsion elements whose label gives a type): "
                 f"{'n/a' if ta is None else f'{ta:.1%}'} ({overall['type_right']}/{overall['typed']})")
    lines.append("")
    cols = list(ROLES) + sorted({c for row in overall["confusion"].values() for c in row} - set(ROLES))
    lines.append("Confusion matrix (rows: label, columns: code)")
    lines.append("")
    lines.append("| label \\ code | " + " | ".join(cols) + " | total |")
    lines.append("|---|" + "---:|" * (len(cols) + 1))
    for role in ROLES:
        row = overall["confusion"].get(role, {})
        if not row:
            continue
        lines.append(f"| {role} | " + " | ".join(str(row.get(c, 0)) for c in cols) + f" | {sum(row.values())} |")
    return "\n".join(lines)


# ------------------------------------------------------------------ loading

def model_parts(path: str | Path, library) -> list[str]:
    """The element part names of a model in ``info --elements`` order, from the reader alone (no geometry)."""
    from brikscan.geometry.model import _read_model_file
    from brikscan.ldraw.library import find_library
    from brikscan.ldraw.parser import decode, parse_text
    from brikscan.ldraw.resolve import Resolver
    from brikscan.ldraw.walk import walk_model

    path = Path(path)
    diags: list = []
    data = _read_model_file(path)
    files = parse_text(decode(data, str(path)), str(path), path.name, diags, strict=True)
    lib = find_library(library)
    resolver = Resolver(lib, path.parent, {f.name: f for f in files}, "normal", diags)
    return [e.part for e in walk_model(files[0], resolver, diags).elements]


def score_file(label_path: Path, models_dir: Path, library) -> dict:
    import brikscan
    from brikscan.analysis.stats import analyse

    labels = load_labels(label_path)
    problems = format_problems(labels)
    if problems:
        raise LabelError("; ".join(problems[:5]))
    model_path = Path(models_dir) / labels["model"]
    if not model_path.exists():
        raise LabelError(f"{label_path}: model {labels['model']!r} not found in {models_dir}")
    t0 = time.perf_counter()
    model = brikscan.load(model_path, library)
    check_parts(labels, [e.part for e in model.elements])
    a = analyse(model)
    r = score_model(labels, a)
    r["seconds"] = round(time.perf_counter() - t0, 1)
    return r


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--labels", type=Path, default=LABELS_DIR, help="folder of label .toml files")
    ap.add_argument("--models", type=Path, default=MODELS_DIR, help="folder of the labelled models")
    ap.add_argument("--library", default=str(LIBRARY), help="LDraw library (folder or complete.zip)")
    ap.add_argument("--only", nargs="*", help="label file slugs to score (e.g. 6245 6716)")
    ap.add_argument("--json", type=Path, help="write the full result as JSON")
    ap.add_argument("--verbose", "-v", action="store_true", help="also print each model's split problems")
    args = ap.parse_args(argv)

    files = label_files(args.labels)
    if args.only:
        files = [f for f in files if f.stem in set(args.only)]
    if not files:
        print(f"no label files in {args.labels}", file=sys.stderr)
        return 1
    results = []
    for f in files:
        try:
            r = score_file(f, args.models, args.library)
        except LabelError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        results.append(r)
        print(f"{f.name}: {r['elements']} elements, role accuracy {r['role_accuracy']:.1%}, "
              f"split {'exact' if r['split_exact'] else 'not exact'} ({r['seconds']} s)", file=sys.stderr)
        if args.verbose:
            for p in r["split_problems"]:
                print(f"    {p}", file=sys.stderr)
    overall = summarise(results)
    print(markdown(results, overall))
    if args.json:
        args.json.write_text(json.dumps({"models": results, "overall": overall}, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
