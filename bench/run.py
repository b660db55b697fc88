"""brikscan's benchmark: load (cold / warm / peak memory) against ldraw2mesh in the same run, then analysis,
line of sight and destruction on the largest shared models.

    python bench/run.py [--library ../shared/ldraw/complete.zip] [--models DIR] [--out bench/results.md]

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


def optional_hooks(models: list[Path], library: Path) -> dict:
    """Analysis, line of sight and destruction benchmarks, each from its own module."""
    sys.path.insert(0, str(ROOT))
    results: dict = {}
    for key, mod, fn in (("analysis", "bench.bench_analysis", "bench_analysis"),
                         ("los", "bench.bench_los", "bench_los"),
                         ("damage", "bench.bench_damage", "bench_damage")):
        try:
            module = __import__(mod, fromlist=[fn])
        except ImportError as exc:
            results[key] = {"error": f"not available: {exc}"}
            continue
        try:
            f = getattr(module, fn)
            results[key] = f(models, library) if key == "analysis" else f(max(models, key=_size), library)
        except Exception as exc:  # a failing hook is reported in the table, not hidden
            results[key] = {"error": f"{type(exc).__name__}: {exc}"}
    return results


def _size(p: Path) -> int:
    return p.stat().st_size


def table(loads: list[dict], hooks: dict) -> str:
    lines = ["| model | elements | triangles | cold load s (target < 5) | warm load s | ldraw2mesh s "
             "| warm ÷ ldraw2mesh (target ≤ 1.5) | peak MB (target < 1536) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in loads:
        lines.append(f"| {r['model']} | {r['elements']} | {r['triangles']} | {r['cold_s']:.2f} | {r['warm_s']:.3f} "
                     f"| {r['ldraw2mesh_s']:.3f} | {r['warm_vs_ldraw2mesh']:.2f} | {r['peak_mb']:.0f} |")
    lines.append("")
    lines.append("```json")
    lines.append(json.dumps(hooks, indent=1, default=str))
    lines.append("```")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--library", type=Path, default=DEFAULT_SHARED / "complete.zip")
    ap.add_argument("--models", type=Path, default=DEFAULT_SHARED / "models")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results.md")
    ap.add_argument("--skip-hooks", action="store_true")
    a = ap.parse_args()
    if not a.library.exists() or not a.models.exists():
        print(f"bench: needs the LDraw library and the official models ({a.library}, {a.models})", file=sys.stderr)
        return 2
    models = [a.models / m for m in LARGEST if (a.models / m).exists()]
    loads = []
    for m in models:
        r = bench_load(m, a.library, a.repeat)
        print(json.dumps(r), flush=True)
        loads.append(r)
    hooks = {} if a.skip_hooks else optional_hooks(models, a.library)
    text = table(loads, hooks)
    print(text)
    sys.path.insert(0, str(ROOT))
    from brikscan.geometry.cache import write_atomic

    write_atomic(a.out, (text + "\n").encode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
