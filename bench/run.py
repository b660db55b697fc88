"""brikscan's benchmark: every command as a whole fresh process on a just-edited model against its peer
(bench/whole.py, issue 9), then load (cold / warm / peak memory) against ldraw2mesh in the same run, analysis,
line of sight and destruction on the largest shared models.

    python bench/run.py [--quick] [--library ../shared/ldraw/complete.zip] [--models DIR] [--out bench/results.md]

--quick (about 5 minutes): one run per measurement, one large model, the army up to 4 copies, and no
in-process sections. The full run takes about 15 minutes on this 2-core machine.
Each measurement runs in a fresh Python process so peak memory (ru_maxrss) is that of the measured work alone.
Times are medians of --repeat runs. Targets come from the issues and are printed next to the figures.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SHARED = ROOT.parent / "shared" / "ldraw"
LARGEST = ["75827 - GHOSTBUSTERS HQ .mpd", "6285 - Black Seas Barracuda.mpd",
           "10030-1 - Imperial Star Destroyer - UCS.mpd"]

CHILD_LOAD = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[4])
import brikscan
t = time.perf_counter()
m = brikscan.load(sys.argv[1], sys.argv[2])
dt = time.perf_counter() - t
print(json.dumps({"seconds": dt, "triangles": int(m.mesh.n_triangles), "elements": len(m.elements),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

CHILD_L2M = r"""
import json, resource, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[4])
from bench.reference import ldraw2mesh_load
r = ldraw2mesh_load(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]))
print(json.dumps({"seconds": r["seconds"], "triangles": r["triangles"],
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def child(code: str, *args: str, env: dict | None = None) -> dict:
    out = subprocess.run([sys.executable, "-c", code, *args, str(ROOT)], capture_output=True, text=True,
                         env={**os.environ, **(env or {})}, check=False)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "child failed")
    return json.loads(out.stdout.strip().splitlines()[-1])


def bench_load(model: Path, library: Path, repeat: int) -> dict:
    sys.path.insert(0, str(ROOT))
    from bench.reference import unzipped_library

    unz = unzipped_library(library)
    links = Path(tempfile.mkdtemp(prefix="brikscan-links-"))
    with tempfile.TemporaryDirectory(prefix="brikscan-bench-cache-") as cache:
        env = {"BRIKSCAN_CACHE": cache}
        cold = child(CHILD_LOAD, str(model), str(library), "", env=env)
        warm = [child(CHILD_LOAD, str(model), str(library), "", env=env) for _ in range(repeat)]
    ref = [child(CHILD_L2M, str(model), str(unz), str(links)) for _ in range(repeat)]
    w = statistics.median(r["seconds"] for r in warm)
    l2m = statistics.median(r["seconds"] for r in ref)
    return {"model": model.name, "elements": cold["elements"], "triangles": cold["triangles"],
            "cold_s": cold["seconds"], "warm_s": w, "ldraw2mesh_s": l2m, "warm_vs_ldraw2mesh": w / l2m,
            "peak_mb": max([cold["peak_mb"]] + [r["peak_mb"] for r in warm]),
            "same_triangles": cold["triangles"] == ref[0]["triangles"]}


def optional_hooks(loads: list[dict], models: list[Path], library: Path) -> dict:
    """Analysis (every model), line of sight (the model with most triangles: the hardest for rays) and
    destruction (the model with most elements), each from its own module."""
    sys.path.insert(0, str(ROOT))
    by_name = {m.name: m for m in models}
    most_tris = by_name[max(loads, key=lambda r: r["triangles"])["model"]]
    most_elements = by_name[max(loads, key=lambda r: r["elements"])["model"]]
    results: dict = {}
    for key, mod, fn, arg in (("analysis", "bench.bench_analysis", "bench_analysis", models),
                              ("los", "bench.bench_los", "bench_los", most_tris),
                              ("damage", "bench.bench_damage", "bench_damage", most_elements)):
        try:
            module = __import__(mod, fromlist=[fn])
            results[key] = getattr(module, fn)(arg, library)
        except Exception as exc:  # a failing hook is reported in the table, not hidden
            results[key] = {"error": f"{type(exc).__name__}: {exc}"}
    return results


def _row(cells) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def table(loads: list[dict], hooks: dict) -> str:
    out = []
    whole = hooks.get("whole")
    if isinstance(whole, dict) and "error" not in whole:
        from bench.whole import whole_table

        out += [whole_table(whole), ""]
    elif isinstance(whole, dict):
        out += [f"Whole process not measured: {whole['error']}", ""]
    if not loads:
        return "\n".join(out)
    out += ["**Load** (fresh process each; ldraw2mesh = load plus flattening to one triangle array)", "",
           _row(["model", "elements", "triangles", "cold load s (target < 5)", "warm load s", "ldraw2mesh s",
                 "warm ÷ ldraw2mesh (target ≤ 1.5)", "peak MB (target < 1536)"]),
           "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in loads:
        out.append(_row([r["model"], r["elements"], r["triangles"], f"{r['cold_s']:.2f}", f"{r['warm_s']:.3f}",
                         f"{r['ldraw2mesh_s']:.3f}", f"{r['warm_vs_ldraw2mesh']:.2f}", f"{r['peak_mb']:.0f}"]))
    an = hooks.get("analysis")
    if isinstance(an, list):
        out += ["", "**Analysis** (graph + roles + stats, warm; target < 2 s)", "",
                _row(["model", "graph s", "roles s", "stats s", "total s (warm)", "first analysis s (cold)",
                      "creations"]), "|---|---:|---:|---:|---:|---:|---:|"]
        for r in an:
            out.append(_row([r["model"], r["graph_s"], r["roles_s"], r["stats_s"], r["total_s"],
                             r["cold_analysis_s"], r["creations"]]))
    los = hooks.get("los")
    if isinstance(los, dict) and "error" not in los:
        eng = los.get("engines_same_rays", {})
        out += ["", "**Line of sight** (all-pairs matrix, warm; targets < 1 s and ≥ 2 M rays/s)", "",
                _row(["model", "triangles", "units", "samples/target", "rays", "matrix warm s", "engine",
                      "embree rays/s", "open3d rays/s"]), "|---|---:|---:|---:|---:|---:|---|---:|---:|",
                _row([los["model"], los["triangles"], los["units"], los["samples_per_target"], los["rays"],
                      los["matrix_warm_s"], los["engine"],
                      f"{eng.get('embree', {}).get('rays_per_s', 0) / 1e6:.1f} M",
                      f"{eng.get('open3d', {}).get('rays_per_s', 0) / 1e6:.1f} M"])]
    dmg = hooks.get("damage")
    if isinstance(dmg, dict) and "error" not in dmg:
        out += ["", "**Destruction** (targets: blast with re-split < 0.5 s warm; 1,000 trials < 3 s)", "",
                _row(["model", "elements", "3d10 blast + re-split warm s", "1,000 Monte Carlo trials s"]),
                "|---|---:|---:|---:|",
                _row([Path(str(dmg["model"])).name, dmg["elements"], dmg["blast_warm_s"], dmg["montecarlo_s"]])]
    errors = {k: v["error"] for k, v in hooks.items() if isinstance(v, dict) and "error" in v and k != "whole"}
    if errors:
        out += ["", "Not measured: " + "; ".join(f"{k}: {v}" for k, v in errors.items())]
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--library", type=Path, default=DEFAULT_SHARED / "complete.zip")
    ap.add_argument("--models", type=Path, default=DEFAULT_SHARED / "models")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results.md")
    ap.add_argument("--skip-hooks", action="store_true")
    ap.add_argument("--quick", action="store_true", help="the whole-process section only, one run each")
    ap.add_argument("--skip-whole", action="store_true", help="leave out the whole-process section")
    ap.add_argument("--table-only", action="store_true", help="re-print the table from the last results .json")
    a = ap.parse_args()
    if a.table_only:
        data = json.loads(a.out.with_suffix(".json").read_text())
        print(table(data.pop("load"), data))
        return 0
    if not a.library.exists() or not a.models.exists():
        print(f"bench: needs the LDraw library and the official models ({a.library}, {a.models})", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    hooks: dict = {}
    if not a.skip_whole:
        from bench.whole import bench_whole

        try:
            hooks["whole"] = bench_whole(a.library, a.models, quick=a.quick)
        except Exception as exc:  # reported in the table, not hidden
            hooks["whole"] = {"error": f"{type(exc).__name__}: {exc}"}
    models = [a.models / m for m in LARGEST if (a.models / m).exists()]
    loads = []
    for m in ([] if a.quick else models):
        r = bench_load(m, a.library, a.repeat)
        print(json.dumps(r), flush=True)
        loads.append(r)
    if not (a.skip_hooks or a.quick):
        hooks.update(optional_hooks(loads, models, a.library))
    text = table(loads, hooks)
    print(text)
    sys.path.insert(0, str(ROOT))
    from brikscan.geometry.cache import write_atomic

    write_atomic(a.out, (text + "\n").encode())
    write_atomic(a.out.with_suffix(".json"), json.dumps({"load": loads, **hooks}, indent=1, default=str).encode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
