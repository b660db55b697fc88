"""Benchmark of the costing analysis (graph + creations/roles + stat cards), warm, per model.

Target (issue 3): under 2 s warm for each of the largest shared models.

    python bench/bench_analysis.py /work/shared/ldraw/complete.zip MODEL.mpd [MODEL.mpd ...]
    python bench/bench_analysis.py /work/shared/ldraw/complete.zip --largest 6
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path


def bench_analysis(model_paths, library, repeats: int = 3) -> list[dict]:
    """Per model: load time, then warm timings (median of ``repeats``) of graph, roles (creations) and stats.

    "Warm" = the model is loaded, BrickNet's connector tables are in memory and the per-model
    ``AnalysisCache`` (part hulls, sampled parts for the interior test) is filled by a first analysis, the
    way the load benchmark's warm runs use the part cache. The first analysis is reported as cold.
    """
    import brikscan
    from brikscan.analysis.stats import AnalysisCache, analyse

    rows = []
    for p in model_paths:
        t0 = time.perf_counter()
        model = brikscan.load(p, library)
        t_load = time.perf_counter() - t0
        c0 = time.perf_counter()
        cache = AnalysisCache()
        first = analyse(model, cache=cache)  # cold: BrickNet tables, per-part hulls, interior samples
        cold = time.perf_counter() - c0
        runs = []
        for _ in range(repeats):
            a = analyse(model, cache=cache)
            runs.append(a.timings)
        med = {k: statistics.median(r[k] for r in runs) for k in ("graph", "roles", "stats", "total")}
        rows.append({"model": Path(p).name, "elements": len(model.elements), "triangles": model.mesh.n_triangles,
                     "edges": first.graph.number_of_edges(), "creations": len(first.creations),
                     "load_s": round(t_load, 3), "cold_analysis_s": round(cold, 3),
                     **{f"{k}_s": round(v, 3) for k, v in med.items()}, "under_2s": med["total"] < 2.0})
    return rows


def _largest(n: int) -> list[Path]:
    d = Path("/work/shared/ldraw/models")
    files = sorted((p for p in d.iterdir() if p.suffix.lower() in (".mpd", ".ldr")), key=lambda p: -p.stat().st_size)
    return files[:n]


if __name__ == "__main__":
    lib = sys.argv[1]
    args = sys.argv[2:]
    paths = _largest(int(args[1])) if args[:1] == ["--largest"] else [Path(a) for a in args]
    for row in bench_analysis(paths, lib):
        print(json.dumps(row))
