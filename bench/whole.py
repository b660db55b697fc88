"""Whole-process benchmark (issue 9): every command as a player runs it, a fresh process on a model just edited,
against a peer timed in the same run (alternating runs, medians, ratios), with each process's peak memory.

* "Edited": before each timed run the model is written again to a temp folder with a fresh comment line at the
  end (MPDs are self-contained, so the folder does not matter), so no analysis cache can answer; the parts cache
  (``$BRIKSCAN_CACHE``, a folder of its own that the benchmark warms first) stays warm, and so does the per-part
  memo (``analysis/part_memo.py``: filled by the warm-up's ``stats`` of each model; ``BRIKSCAN_NO_PART_MEMO=1``
  in the environment times every part afresh).
* Peers: ``brikscan info`` of the same model for the small tank; ldraw2mesh reading the model and flattening it to
  one triangle array (a fresh Python process too) for the large models.
* Wall time of each child from ``os.wait4``, its peak RSS from ``/usr/bin/time -f %M``; children keep compiled
  bytecode in ``$TMPDIR/brikscan-bench-pycache`` (as an installed package has it).
* Every section is one ``alternating`` loop: each command once per round, in turn, medians over the rounds.

    python bench/whole.py [--quick] [--commands info,stats]     (bench/run.py runs it as its first section)
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "ldraw"
TANK = ROOT / "ldraw_models" / "tank.mpd"
LARGE = ["75827 - GHOSTBUSTERS HQ .mpd", "10030-1 - Imperial Star Destroyer - UCS.mpd"]
ARMY_SET = "10213-1 - Shuttle Adventure.mpd"  # ~1,250 elements: 16 copies make the 20,000-element army
ARMY_COPIES = [1, 2, 4, 8, 16]
LARGE_COMMANDS = ("info", "stats", "blast", "hit", "los", "attacks")

L2M_CHILD = r"""
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[4])
from bench.reference import ldraw2mesh_load
ldraw2mesh_load(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]))
"""


TIME = "/usr/bin/time"
# Children write and reuse compiled bytecode here, as an installed package has it: with PYTHONDONTWRITEBYTECODE
# set (as in these sessions) every child recompiled every brikscan module it imported, which charged a command
# for the size of its source (stats imports twice the modules info does) rather than for its work.
PYCACHE = Path(tempfile.gettempdir()) / "brikscan-bench-pycache"


def run(cmd: list[str], env: dict | None = None, check: bool = True, cwd: Path = ROOT) -> dict:
    """Run one fresh process in ``cwd`` (``-m brikscan`` imports the tree there); its wall time (s), peak RSS
    (MB) and exit code, output discarded.

    The peak comes from ``/usr/bin/time -f %M`` when it is there: a child forked from this (large) benchmark
    process starts with the parent's resident set counted in its own ``ru_maxrss``, a child of ``time`` does not.
    """
    use_time = os.access(TIME, os.X_OK)
    with tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile(suffix=".rss") as rss:
        full = [TIME, "-f", "%M", "-o", rss.name, *cmd] if use_time else cmd
        t0 = time.perf_counter()
        child_env = {**os.environ, "PYTHONPYCACHEPREFIX": str(PYCACHE), **(env or {})}
        child_env.pop("PYTHONDONTWRITEBYTECODE", None)
        p = subprocess.Popen(full, stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL,
                             env=child_env, cwd=cwd)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        if check and p.returncode != 0:
            err.seek(0)
            tail = err.read().decode(errors="replace").strip().splitlines()[-3:]
            raise RuntimeError(f"{' '.join(cmd[:6])} … exited {p.returncode}: {' | '.join(tail)}")
        kb = usage.ru_maxrss
        if use_time:
            lines = [ln for ln in Path(rss.name).read_text().split() if ln.strip().isdigit()]
            kb = int(lines[-1]) if lines else kb
    return {"s": wall, "mb": kb / 1024, "rc": p.returncode}


class Bench:
    """The shared state of one benchmark run: library, parts cache, temp folder, the brikscan command."""

    def __init__(self, library: Path, cache: Path, tmp: Path):
        sys.path.insert(0, str(ROOT))
        from bench.reference import unzipped_library

        self.library = library
        self.unzipped = unzipped_library(library)
        self.env = {"BRIKSCAN_CACHE": str(cache), "PYTHONPATH": str(ROOT), "BRIKSCAN_NO_PROGRESS": "1"}
        self.tmp = tmp
        self.links = tmp / "links"

    def brikscan(self, *args, env: dict | None = None, check: bool = True) -> dict:
        return run([sys.executable, "-m", "brikscan", *map(str, args)], {**self.env, **(env or {})}, check)

    def brikscan_cold(self, *args) -> dict:
        """One run with an empty parts cache of its own (the analysis cache goes with it)."""
        with tempfile.TemporaryDirectory(prefix="brikscan-cold-") as empty:
            return self.brikscan(*args, env={"BRIKSCAN_CACHE": empty})

    def ldraw2mesh(self, model: Path) -> dict:
        return run([sys.executable, "-c", L2M_CHILD, str(model), str(self.unzipped), str(self.links), str(ROOT)],
                   {"PYTHONPATH": str(ROOT)})

    def edited(self, model: Path, folder: str = "edited") -> Path:
        """The model written again with a fresh comment line (same name, own folder): a model just edited.

        The comment goes before the main model's first placed part, so it is in the main file (which every
        analysis key covers) and moves the line numbers of everything after it, as an edit does."""
        d = self.tmp / folder
        d.mkdir(parents=True, exist_ok=True)
        out = d / model.name
        out.write_bytes(with_comment(model.read_bytes(), f"0 // edited {uuid.uuid4().hex}"))
        return out


def with_comment(data: bytes, comment: str) -> bytes:
    """``data`` with the line ``comment`` before its first type-1 line (at the end when there is none)."""
    lines = data.split(b"\n")
    nl = b"\r" if lines and lines[0].endswith(b"\r") else b""
    at = next((k for k, ln in enumerate(lines) if ln.lstrip().startswith(b"1 ")), len(lines))
    return b"\n".join(lines[:at] + [comment.encode() + nl] + lines[at:])


def _med(runs: list[dict], key: str = "s") -> float:
    return statistics.median(r[key] for r in runs)


CENTRE_CHILD = r"""
import json, sys
import numpy as np
import brikscan
m = brikscan.load(sys.argv[1], sys.argv[2])
lo, hi = m.bbox_ldu
c = np.array([(e.bbox_min + e.bbox_max) / 2 for e in m.elements])
d = np.linalg.norm(c - (lo + hi) / 2, axis=1)
d[np.array([e.missing for e in m.elements])] = np.inf
print(json.dumps([int(np.argmin(d)), len(m.elements), lo.tolist(), hi.tolist()]))
"""


def _centre_element(model_path: Path, library: Path) -> tuple[int, int, list, list]:
    """(index of the element nearest the model's centre, element count, bbox min, max): the blast target.

    Worked out in a child process: models loaded here would make this process large, and every child forked
    from it would start with that resident set."""
    out = subprocess.run([sys.executable, "-c", CENTRE_CHILD, str(model_path), str(library)], capture_output=True,
                         text=True, check=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    el, n, lo, hi = json.loads(out.stdout.strip().splitlines()[-1])
    return el, n, lo, hi


def los_scene(model: Path, lo, hi, units: int = 30) -> tuple[Path, str]:
    """A scene TOML: ``model`` and ``units`` minifigs around and on it (bench_los's placement); unit names."""
    from bench.bench_los import scene_text

    scene = model.parent / "los_scene.toml"
    import numpy as np

    scene.write_text(scene_text(model.resolve(), np.asarray(lo, float), np.asarray(hi, float), units))
    return scene, ",".join(f"u{k + 1:02d}" for k in range(units))


def alternating(repeat: int, commands: dict[str, Callable[[], dict | None]]) -> dict[str, list[dict]]:
    """Every command once per round, in turn, for ``repeat`` rounds (so a command and its peer see the same
    machine load); each command's runs (a command returning None is not timed that round)."""
    runs: dict[str, list[dict]] = {k: [] for k in commands}
    for _ in range(repeat):
        for k, fn in commands.items():
            r = fn()
            if r is not None:
                runs[k].append(r)
    return runs


def stats_again(b: Bench, model: Path, repeat: int) -> tuple[dict, dict[str, list[dict]]]:
    """``stats`` again on an unchanged model (its analysis cached by a first, untimed run) against ``info``."""
    same = b.edited(model, "unchanged")
    b.brikscan("stats", same, "--library", b.library)
    runs = alternating(repeat, {"info": lambda: b.brikscan("info", same, "--library", b.library),
                                "stats": lambda: b.brikscan("stats", same, "--library", b.library)})
    return {"stats_again_s": _med(runs["stats"]), "info_unchanged_s": _med(runs["info"])}, runs


def bench_tank(b: Bench, repeat: int) -> dict:
    """stats of the bundled tank vs info of it, both on a just-edited copy; then stats again unchanged."""
    runs = alternating(repeat, {"info": lambda: b.brikscan("info", b.edited(TANK), "--library", b.library),
                                "stats": lambda: b.brikscan("stats", b.edited(TANK), "--library", b.library)})
    again, again_runs = stats_again(b, TANK, repeat)
    return {"model": TANK.name, "info_s": _med(runs["info"]), "stats_s": _med(runs["stats"]), **again,
            "peak_mb": max(r["mb"] for r in runs["info"] + runs["stats"] + again_runs["stats"])}


def bench_large(b: Bench, model: Path, repeat: int, los: bool = True,
                commands: tuple[str, ...] = LARGE_COMMANDS) -> dict:
    """stats, blast, hit, los, attacks and info of a large model (edited before each run) against ldraw2mesh.

    ``commands``: which of ``LARGE_COMMANDS`` to time besides the peer (all by default)."""
    from bench.bench_attacks import attacks_scene

    el, n_el, lo, hi = _centre_element(model, b.library)

    def los_run():
        scene, names = los_scene(b.edited(model, "los"), lo, hi)
        return b.brikscan("los", scene, "--from", names, "--to", names, "--library", b.library)

    def attacks_run():  # all attack options of 30 minifigs with a bow and a sword each (issue 13)
        scene, names = attacks_scene(b.edited(model, "attacks"), lo, hi, b.tmp / "attacks")
        return b.brikscan("attacks", scene, "--from", names, "--library", b.library)

    timed = {"info": lambda: b.brikscan("info", b.edited(model), "--library", b.library),
             "stats": lambda: b.brikscan("stats", b.edited(model), "--library", b.library),
             "blast": lambda: b.brikscan("blast", b.edited(model), "--at-element", el, "--dice", "3d10", "--rolls",
                                         "3,6,7", "--library", b.library),
             "hit": lambda: b.brikscan("hit", b.edited(model), "--element", el, "--damage", "12", "--library",
                                       b.library),
             "los": los_run if los else (lambda: None),
             "attacks": attacks_run if los else (lambda: None)}
    runs = alternating(repeat, {"ldraw2mesh": lambda: b.ldraw2mesh(b.edited(model)),
                                **{k: fn for k, fn in timed.items() if k in commands}})
    again, _ = stats_again(b, model, repeat)  # the same command again on an unchanged model, against info of it
    cold = alternating(max(1, repeat // 2), {  # cold: an empty parts cache for brikscan (ldraw2mesh has none)
        "ldraw2mesh": lambda: b.ldraw2mesh(b.edited(model)),
        "info": lambda: b.brikscan_cold("info", b.edited(model), "--library", b.library)})
    return {"model": model.name, "elements": n_el, "element": el,
            **{f"{k}_s": _med(v) for k, v in runs.items() if v},
            **{f"{k}_mb": max(r["mb"] for r in v) for k, v in runs.items() if v},
            **again, "info_cold_s": _med(cold["info"]), "ldraw2mesh_cold_s": _med(cold["ldraw2mesh"])}


def army_mpd(set_path: Path, copies: int, folder: Path, spacing: float) -> Path:
    """One MPD: a main model placing ``copies`` of the set on a grid, then the set's own files."""
    text = set_path.read_text(encoding="utf-8", errors="replace")
    first = next(line.strip()[7:].strip() for line in text.splitlines() if line.strip().upper().startswith("0 FILE "))
    side = max(1, int(round(copies ** 0.5)))
    lines = ["0 FILE army.ldr", f"0 army of {copies}", "0 Name: army.ldr", "0 Author: brikscan bench"]
    for k in range(copies):
        x, z = (k % side) * spacing, (k // side) * spacing
        lines.append(f"1 16 {x:g} 0 {z:g} 1 0 0 0 1 0 0 0 1 {first}")
    out = folder / f"army-{copies}.mpd"
    lines.insert(4, f"0 // edited {uuid.uuid4().hex}")
    out.write_text("\n".join(lines) + "\n0 NOFILE\n" + text)
    return out


def bench_army(b: Bench, copies_list: list[int], repeat: int = 1) -> dict:
    """stats and info of 1…16 copies of a large set in one MPD: time and memory growth with elements (medians
    of ``repeat`` alternating runs, the army written again before each)."""
    set_path = SHARED / "models" / ARMY_SET
    _, n_set, lo, hi = _centre_element(set_path, b.library)
    spacing = float(max(hi[0] - lo[0], hi[2] - lo[2])) + 400.0
    rows = []
    for c in copies_list:
        folder = b.tmp / f"army{c}"
        folder.mkdir(parents=True, exist_ok=True)
        b.brikscan("info", army_mpd(set_path, c, folder, spacing), "--library", b.library)  # parts warm
        runs = alternating(repeat, {
            "info": lambda: b.brikscan("info", army_mpd(set_path, c, folder, spacing), "--library", b.library),
            "stats": lambda: b.brikscan("stats", army_mpd(set_path, c, folder, spacing), "--library", b.library)})
        rows.append({"copies": c, "elements": c * n_set, "repeat": repeat,
                     **{f"{k}_{u}": _med(v, u) for k, v in runs.items() for u in ("s", "mb")}})
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    return {"set": ARMY_SET, "rows": rows, "linear": growth(rows)}


def growth(rows: list[dict]) -> dict:
    """Is growth linear? The cost per added element from the last doubling against the one before it."""
    out = {}
    if len(rows) < 3:
        return out
    a, b_, c = rows[-3], rows[-2], rows[-1]
    for key in ("stats_s", "stats_mb", "info_s", "info_mb"):
        before = (b_[key] - a[key]) / max(1, b_["elements"] - a["elements"])
        last = (c[key] - b_[key]) / max(1, c["elements"] - b_["elements"])
        out[key] = {"per_element_before": before, "per_element_last": last,
                    "ratio": last / before if before > 0 else None}
    return out


def warm(b: Bench, models: list[Path]) -> None:
    """Fill the parts cache, the compiled BrickNet table and the per-part memo (untimed): ``stats`` of each model
    once, as a player has analysed a model before editing it (the edited copies get no analysis cache hit)."""
    for m in models:
        b.brikscan("info", m, "--library", b.library)
        b.brikscan("stats", m, "--library", b.library)
    b.brikscan("stats", TANK, "--library", b.library)


def bench_whole(library: Path, models_dir: Path, quick: bool = False, cache: Path | None = None,
                commands: tuple[str, ...] = LARGE_COMMANDS) -> dict:
    repeat = 1 if quick else 3
    cache = cache or Path(tempfile.gettempdir()) / "brikscan-bench-parts-cache"
    with tempfile.TemporaryDirectory(prefix="brikscan-whole-") as tmp:
        b = Bench(library, cache, Path(tmp))
        large = [models_dir / n for n in (LARGE[:1] if quick else LARGE) if (models_dir / n).exists()]
        warm(b, large + [models_dir / ARMY_SET])
        out = {"quick": quick, "repeat": repeat, "tank": bench_tank(b, 3 if quick else 5)}
        print(json.dumps(out["tank"]), file=sys.stderr, flush=True)
        out["large"] = []
        for m in large:
            out["large"].append(bench_large(b, m, repeat, commands=commands))
            print(json.dumps(out["large"][-1]), file=sys.stderr, flush=True)
        out["army"] = bench_army(b, ARMY_COPIES[:3] if quick else ARMY_COPIES, repeat)
    out["targets"] = targets(out)
    return out


def targets(r: dict) -> list[dict]:
    """Each target of issue 9: what was measured, the limit, pass or fail."""
    rows = []

    def add(name, value, limit, unit="×"):
        rows.append({"target": name, "value": round(value, 3), "limit": limit, "unit": unit,
                     "pass": bool(value <= limit)})

    t = r["tank"]
    add("tank: stats ÷ info (edited)", t["stats_s"] / t["info_s"], 2.0)
    add("tank: stats again (unchanged) ÷ info", t["stats_again_s"] / t["info_unchanged_s"], 1.2)
    for m in r["large"]:
        name, peer = m["model"].removesuffix(".mpd").strip(), m["ldraw2mesh_s"]
        if "stats_s" in m:
            add(f"{name}: stats ÷ ldraw2mesh", m["stats_s"] / peer, 1.5)
        for cmd in ("blast", "hit", "los", "attacks"):
            if f"{cmd}_s" in m:
                add(f"{name}: {cmd} ÷ ldraw2mesh", m[f"{cmd}_s"] / peer, 2.0)
        add(f"{name}: stats again (unchanged) ÷ info", m["stats_again_s"] / m["info_unchanged_s"], 1.2)
        if "info_s" in m:  # --commands may leave it out
            add(f"{name}: info warm ÷ ldraw2mesh", m["info_s"] / peer, 0.6)
        add(f"{name}: info cold ÷ ldraw2mesh", m["info_cold_s"] / m["ldraw2mesh_cold_s"], 1.0)
        add(f"{name} ({m['elements']} elements): peak memory of any command",
            max(v for k, v in m.items() if k.endswith("_mb") and k != "ldraw2mesh_mb"), 1024, "MB")
    for key, g in r["army"]["linear"].items():
        if g.get("ratio") is not None:
            add(f"army: {key.replace('_s', ' time').replace('_mb', ' memory')} per added element, last doubling "
                f"÷ the one before", g["ratio"], 1.3)
    return rows


def _row(cells) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def whole_table(r: dict) -> str:
    t = r["tank"]
    out = [f"**Whole process** (fresh process per run, model edited before each run, parts cache warm; medians of "
           f"{r['repeat']} alternating runs{', quick' if r['quick'] else ''})", "",
           _row(["model", "elements", "ldraw2mesh s", "info s", "stats s", "blast s", "hit s", "los s (30 units)",
                 "attacks s (30 units)", "stats again s", "info cold s", "ldraw2mesh cold s", "peak MB"]),
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
           _row([t["model"], 48, "", f"{t['info_s']:.2f}", f"{t['stats_s']:.2f}", "", "", "", "",
                 f"{t['stats_again_s']:.2f}", "", "", f"{t['peak_mb']:.0f}"])]
    for m in r["large"]:
        peak = max(v for k, v in m.items() if k.endswith("_mb") and k != "ldraw2mesh_mb")
        out.append(_row([m["model"], m["elements"], f"{m['ldraw2mesh_s']:.2f}",
                         *(f"{m[k]:.2f}" if k in m else "" for k in ("info_s", "stats_s", "blast_s", "hit_s")),
                         f"{m['los_s']:.2f}" if "los_s" in m else "",
                         f"{m['attacks_s']:.2f}" if "attacks_s" in m else "", f"{m['stats_again_s']:.2f}",
                         f"{m['info_cold_s']:.2f}", f"{m['ldraw2mesh_cold_s']:.2f}", f"{peak:.0f}"]))
    a = r["army"]
    out += ["", f"**Growth** (one MPD with N copies of {a['set']}; fresh processes, medians of "
                f"{a['rows'][0].get('repeat', 1) if a['rows'] else 1} alternating runs)", "",
            _row(["copies", "elements", "info s", "info MB", "stats s", "stats MB"]), "|---:|---:|---:|---:|---:|---:|"]
    for row in a["rows"]:
        out.append(_row([row["copies"], row["elements"], f"{row['info_s']:.2f}", f"{row['info_mb']:.0f}",
                         f"{row['stats_s']:.2f}", f"{row['stats_mb']:.0f}"]))
    out += ["", "**Targets** (issue 9; attacks: issue 13)", "", _row(["target", "measured", "limit", ""]), "|---|---:|---:|---|"]
    for x in r["targets"]:
        unit = " MB" if x["unit"] == "MB" else " ×"
        out.append(_row([x["target"], f"{x['value']:g}{unit}", f"≤ {x['limit']:g}{unit}",
                         "pass" if x["pass"] else "**FAIL**"]))
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--library", type=Path, default=SHARED / "complete.zip")
    ap.add_argument("--models", type=Path, default=SHARED / "models")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--commands", default=",".join(LARGE_COMMANDS),
                    help="the large models' commands to time against ldraw2mesh (default: all)")
    a = ap.parse_args(argv)
    commands = tuple(c.strip() for c in a.commands.split(",") if c.strip())
    unknown = set(commands) - set(LARGE_COMMANDS)
    if unknown:
        ap.error(f"--commands: unknown {', '.join(sorted(unknown))} (choose from {', '.join(LARGE_COMMANDS)})")
    r = bench_whole(a.library, a.models, a.quick, commands=commands)
    print(json.dumps(r, indent=1))
    print(whole_table(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
