"""Benchmark of destruction previews: a 3d10 blast with re-split (warm: model and graph already built) and 1,000
Monte Carlo trials. Targets (issue 5): blast < 0.5 s warm, 1,000 trials < 3 s.

    python bench/bench_damage.py "/work/shared/ldraw/models/75827 - GHOSTBUSTERS HQ .mpd" /work/shared/ldraw/complete.zip
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np


def bench_damage(model_path, library, repeats: int = 5, trials: int = 1000) -> dict:
    """Timings (seconds) of load, scene (graph + creations), warm blast + re-split, and Monte Carlo."""
    import brikscan
    from brikscan.battle.dice import parse_explosion_dice, parse_rolls
    from brikscan.battle.explosion import explode, make_blast
    from brikscan.battle.montecarlo import monte_carlo
    from brikscan.analysis.stats import analyse
    from brikscan.battle.scene import build_scene

    t0 = time.perf_counter()
    model = brikscan.load(model_path, library)
    t1 = time.perf_counter()
    scene = build_scene(analyse(model))  # the scene reads the (cached) analysis (issue 8)
    t2 = time.perf_counter()
    rules = scene.rules
    lo, hi = model.bbox_ldu
    centres = np.array([(e.bbox_min + e.bbox_max) / 2 for e in model.elements])
    centre = centres[np.argmin(np.linalg.norm(centres - (lo + hi) / 2, axis=1))]  # an element near the middle
    spec = parse_explosion_dice("3d10", rules)
    blast = make_blast(centre, spec, rules, rolls=parse_rolls("3,6,7", spec, rules))
    explode(scene, [blast], rng=np.random.default_rng(0))  # first run fills the Size-measure memo (cold)
    t3 = time.perf_counter()
    times, res = [], None
    for k in range(repeats):
        s = time.perf_counter()
        res = explode(scene, [blast], rng=np.random.default_rng(k))
        times.append(time.perf_counter() - s)
    s = time.perf_counter()
    mc = monte_carlo(scene, [blast], trials, rng=np.random.default_rng(1))
    t_mc = time.perf_counter() - s
    return {
        "model": str(model_path), "elements": len(model.elements), "triangles": int(model.mesh.n_triangles),
        "graph_source": scene.source, "creations": len(scene.bodies),
        "load_s": round(t1 - t0, 3), "scene_s": round(t2 - t1, 3), "first_blast_s": round(t3 - t2, 3),
        "blast_warm_s": round(statistics.median(times), 4), "blast_target_s": 0.5,
        "destroyed": int(res.destroyed.sum()), "sections": len(res.sections),
        "montecarlo_trials": trials, "montecarlo_s": round(t_mc, 3), "montecarlo_target_s": 3.0,
        "montecarlo_distinct_outcomes": mc.distinct_outcomes, "expected_destroyed": round(mc.expected_lost, 2),
    }


if __name__ == "__main__":
    lib = sys.argv[2] if len(sys.argv) > 2 else "/work/shared/ldraw/complete.zip"
    path = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/ldraw/models/75827 - GHOSTBUSTERS HQ .mpd"
    print(json.dumps(bench_damage(Path(path), lib), indent=2))
