"""How far two labellers agree, beside how far the code agrees with them: the noise ceiling of the labelled set.

    python bench/agreement.py                 # tests/labels/blind/*.tsv against tests/labels/*.toml and the code
    python bench/agreement.py --json out.json

A second labeller labelled a uniform random sample of the labelled elements blind (seed 20261202, 320 of 3,712;
never seeing the first labels, brikscan's roles or its source), from the same guide (docs/labels/blind-guide.md),
the models, the element list and renders. Each line of ``tests/labels/blind/*.tsv``: model file, element index,
part, role, type, reason. Reported: the share of the sample on which the second labeller's role equals the first
labels', the code's equals the first labels', and the code's equals the second labeller's, with and without the
minifigs' own parts (crew, which nobody gets wrong), each with its 95 % Wilson interval. If two careful labellers
agree on 90 % of the roles, a code scoring 95 % against one of them would be fitting that labeller, not the game.

A third labeller, blind to all of it too, labelled every element of the sample on which the first two disagree and
a random 40 on which they agree (``tests/labels/third/*.tsv``, seed 20261206, not told which were which). The
**majority of three** is then the role of an element wherever the first two agree, or where the third sides with
one of them; where all three differ it is undecided. Reported: each labeller's and the code's agreement with that
majority (on the decided elements), and the third labeller's agreement with the first two where they agree.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import score_labels as S  # noqa: E402

BLIND_DIR = S.LABELS_DIR / "blind"
THIRD_DIR = S.LABELS_DIR / "third"


def read_blind(folder: Path = BLIND_DIR) -> dict[tuple[str, int], dict]:
    """(model file, index) -> {"part", "role", "type", "reason"} of every line of the blind label files."""
    out: dict[tuple[str, int], dict] = {}
    for f in sorted(Path(folder).glob("*.tsv")):
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            p = line.split("\t")
            if len(p) != 6 or not p[1].strip().isdigit():
                raise S.LabelError(f"{f}:{n}: expected 6 tab-separated fields "
                                   "(model, index, part, role, type, reason)")
            model, idx, part, role, typ, reason = p
            if role not in S.ROLES:
                raise S.LabelError(f"{f}:{n}: unknown role {role!r}")
            out[(model, int(idx))] = {"part": part, "role": role, "type": typ, "reason": reason}
    return out


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a share k/n (sound at shares near 1, unlike the normal approximation)."""
    if n == 0:
        return 0.0, 0.0
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return mid - half, mid + half


def agreement(first: dict, second: dict, code: dict, keys: list, crew: bool = True) -> dict:
    """Pairwise role agreement over ``keys`` (crew-labelled elements left out unless ``crew``): plain data."""
    ks = [k for k in keys if crew or first[k] != "crew"]
    out = {"elements": len(ks)}
    for name, x, y in (("second_vs_first", second, first), ("code_vs_first", code, first),
                       ("code_vs_second", code, second)):
        n = sum(x[k] == y[k] for k in ks)
        lo, hi = wilson(n, len(ks))
        out[name] = {"agree": n, "share": round(n / len(ks), 4) if ks else 0.0,
                     "interval": [round(lo, 4), round(hi, 4)]}
    return out


def majority(first: dict, second: dict, third: dict, keys: list) -> dict:
    """The role two of three labellers gave each element of ``keys``: the first two's where they agree, else the
    one the third sided with; None where the third was not asked or gave a third role (undecided)."""
    out = {}
    for k in keys:
        if first[k] == second[k]:
            out[k] = first[k]
        elif k in third and third[k] in (first[k], second[k]):
            out[k] = third[k]
        else:
            out[k] = None
    return out


def against(truth: dict, **others: dict) -> dict:
    """Each of ``others``' agreement with ``truth`` on the elements where ``truth`` decided: plain data."""
    ks = [k for k, v in truth.items() if v is not None]
    out = {"elements": len(ks), "undecided": sum(v is None for v in truth.values())}
    for name, x in others.items():
        n = sum(x[k] == truth[k] for k in ks)
        lo, hi = wilson(n, len(ks))
        out[name] = {"agree": n, "share": round(n / len(ks), 4) if ks else 0.0,
                     "interval": [round(lo, 4), round(hi, 4)]}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--blind", type=Path, default=BLIND_DIR)
    ap.add_argument("--third", type=Path, default=THIRD_DIR)
    ap.add_argument("--models", type=Path, default=S.MODELS_DIR)
    ap.add_argument("--library", default=str(S.LIBRARY))
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    import brikscan
    from brikscan.analysis.stats import analyse

    second = read_blind(args.blind)
    by_model = {S.load_labels(f)["model"]: f for f in S.label_files()}
    asked: dict[str, list[int]] = {}
    for m, i in second:
        asked.setdefault(m, []).append(i)
    first, code, theirs = {}, {}, {}
    for model, ids in sorted(asked.items()):
        lab = {e["index"]: e for e in S.load_labels(by_model[model])["element"]}
        view = S.code_view(analyse(brikscan.load(args.models / model, args.library)))
        for i in ids:
            e = second[(model, i)]
            if i not in lab or lab[i]["part"] != e["part"]:
                raise S.LabelError(f"{model} #{i}: not a labelled element with part {e['part']}")
            first[(model, i)], theirs[(model, i)] = lab[i]["role"], e["role"]
            code[(model, i)] = view["role"].get(i, S.NONE)
    keys = sorted(first)
    result = {"all": agreement(first, theirs, code, keys), "without_crew": agreement(first, theirs, code, keys, False),
              "disagreements": Counter(f"{first[k]} -> {theirs[k]}" for k in keys if first[k] != theirs[k])}
    print(f"{len(keys)} elements labelled twice (blind), {len(by_model)} label files")
    print("| | second labeller vs labels | code vs labels | code vs second labeller |")
    print("|---|---:|---:|---:|")
    for tag in ("all", "without_crew"):
        r = result[tag]
        cells = [f"{r[n]['share']:.1%} ({r[n]['interval'][0]:.0%}-{r[n]['interval'][1]:.0%})"
                 for n in ("second_vs_first", "code_vs_first", "code_vs_second")]
        print(f"| {tag.replace('_', ' ')} ({r['elements']}) | " + " | ".join(cells) + " |")
    print("labels -> second labeller:", ", ".join(f"{k} {v}" for k, v in result["disagreements"].most_common(8)))
    third = {k: e["role"] for k, e in read_blind(args.third).items()} if args.third.is_dir() else {}
    missing = [k for k in third if k not in first]
    if missing:
        raise S.LabelError(f"third labels of elements outside the blind sample: {missing[:3]}")
    if third:
        truth = majority(first, theirs, third, keys)
        agreed = [k for k in third if first[k] == theirs[k]]
        result["majority"] = against(truth, first=first, second=theirs, code=code)
        result["third_on_agreed"] = {"elements": len(agreed), "agree": sum(third[k] == first[k] for k in agreed)}
        r = result["majority"]
        print(f"\nmajority of three labellers ({len(third)} elements labelled a third time, "
              f"{result['third_on_agreed']['agree']} of {len(agreed)} where the first two agree alike; "
              f"{r['undecided']} undecided):")
        print("| on the decided sample | labels (first labeller) | second labeller | code |")
        print("|---|---:|---:|---:|")
        print(f"| against the majority ({r['elements']}) | " + " | ".join(
            f"{r[n]['share']:.1%} ({r[n]['interval'][0]:.0%}-{r[n]['interval'][1]:.0%})"
            for n in ("first", "second", "code")) + " |")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
