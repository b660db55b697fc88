"""Benchmark: all attack options for 30 minifigs with two weapons each (a bow and a sword) on the largest shared
model, as a whole process, against ldraw2mesh reading the same model in its own whole process (issue 13).

The scene is generated as bench_los.py generates its own: the big model at the origin (a target) and the
minifigs on a ring around it and on top of it. Both sides are timed from the outside (fork, imports, reading,
computing, exit) as bench/whole.py times every command: the model edited just before each run (so no analysis
cache answers), the parts cache warm, runs alternating with ldraw2mesh, medians, peak memory from /usr/bin/time.

    python bench/bench_attacks.py [MODEL] [--library complete.zip] [--units 30] [--repeat 3]
(bench/whole.py runs the same scene as its ``attacks`` column.)
Target (issue 13): attacks whole process <= 2 x ldraw2mesh whole process.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "ldraw"

# the archer of ldraw_models/squad.ldr (torso origin at 0, feet at +72, facing -Z), bow in the right hand
ARCHER = """1 14 0 -24 0 1 0 0 0 1 0 0 0 1 3626bp01.dat
1 2 0 0 0 1 0 0 0 1 0 0 0 1 973p46.dat
1 2 -15.552 9 0 0.985 -0.0863 -0.1465 0.17 0.4999 0.8491 0 -0.8613 0.5075 3818.dat
1 2 15.552 9 0 0.985 0.17 0 -0.17 0.985 0 0 0 1 3819.dat
1 14 -20.7803 8.7318 -21.3963 0.985 -0.1646 -0.0426 0.17 0.9537 0.2468 0 -0.2501 0.9677 3820.dat
1 14 23.8634 26.5956 -10.321 0.985 0.1202 -0.1202 -0.17 0.6964 -0.6964 0 0.707 0.707 3820.dat
1 70 0 32 0 1 0 0 0 1 0 0 0 1 3815b.dat
1 70 0 44 0 1 0 0 0 1 0 0 0 1 3816b.dat
1 70 0 44 0 1 0 0 0 1 0 0 0 1 3817b.dat
1 70 -20.2233 5.5044 -30.766 0.985 -0.17 0 0.17 0.9852 0.0002 0 0.0002 0.9995 4499.dat"""


def _xf(line: str) -> np.ndarray:
    v = [float(x) for x in line.split()[2:14]]
    m = np.eye(4)
    m[:3, 3] = v[:3]
    m[:3, :3] = np.array(v[3:12]).reshape(3, 3)
    return m


def two_weapon_minifig() -> str:
    """The archer with a shortsword (3847) in his left hand, gripped as the bow is in his right."""
    lines = ARCHER.splitlines()
    right, left, bow = _xf(lines[4]), _xf(lines[5]), _xf(lines[9])
    sword = left @ np.linalg.inv(right) @ bow
    t, r = sword[:3, 3], sword[:3, :3].ravel()
    lines.append("1 71 " + " ".join(f"{x:.4f}" for x in list(t) + list(r)) + " 3847.dat")
    # the file's torso origin sits 72 LDU above its feet: move it so the feet are at y = 0
    out = ["0 Two-weapon minifig", "0 Name: fig2.ldr", "0 Author: brikscan bench", ""]
    for ln in lines:
        p = ln.split()
        p[3] = f"{float(p[3]) - 72:g}"
        out.append(" ".join(p))
    return "\n".join(out) + "\n"


def scene_text(model_path: Path, fig: Path, lo: np.ndarray, hi: np.ndarray, n_units: int) -> str:
    from bench.bench_los import scene_text as los_scene

    return los_scene(model_path, lo, hi, n_units).replace(str(ROOT / "tests" / "data" / "los" / "minifig.ldr"),
                                                          str(fig))


def attacks_scene(model_path: Path, lo, hi, folder: Path, n_units: int = 30) -> tuple[Path, str]:
    """The scene TOML (``model_path`` and ``n_units`` two-weapon minifigs) and the attackers' names."""
    fig = folder / "fig2.ldr"
    fig.write_text(two_weapon_minifig())
    scene = folder / "attacks.toml"
    scene.write_text(scene_text(Path(model_path).resolve(), fig, np.asarray(lo, float), np.asarray(hi, float),
                                n_units))
    return scene, ",".join(f"u{k + 1:02d}" for k in range(n_units))


def bench_attacks(model_path, library=None, n_units: int = 30, repeat: int = 3) -> dict:
    """``brikscan attacks`` as a player runs it (a fresh process, the model edited just before, parts cache warm)
    against ldraw2mesh reading the same model, alternating; medians, the ratio and the peak memory."""
    from bench.whole import Bench, _centre_element, _med

    model_path = Path(model_path).resolve()
    library = Path(library or SHARED / "complete.zip")
    tmp = Path(tempfile.mkdtemp(prefix="brikscan-bench-attacks-"))
    b = Bench(library, Path(tempfile.gettempdir()) / "brikscan-bench-parts-cache", tmp)
    _, n_el, lo, hi = _centre_element(model_path, library)
    b.brikscan("info", model_path, "--library", library)  # parts cache warm (untimed)
    runs: dict[str, list] = {"ldraw2mesh": [], "attacks": []}
    for _ in range(repeat):
        runs["ldraw2mesh"].append(b.ldraw2mesh(b.edited(model_path)))
        scene, names = attacks_scene(b.edited(model_path, "attacks"), lo, hi, tmp / "attacks", n_units)
        runs["attacks"].append(b.brikscan("attacks", scene, "--from", names, "--library", library))
    a, r = _med(runs["attacks"]), _med(runs["ldraw2mesh"])
    return {"model": model_path.name, "elements": n_el, "units": n_units, "repeat": repeat,
            "attacks_s": round(a, 3), "ldraw2mesh_s": round(r, 3), "attacks_vs_ldraw2mesh": round(a / r, 2),
            "attacks_mb": round(max(x["mb"] for x in runs["attacks"])),
            "runs_s": {k: [round(x["s"], 3) for x in v] for k, v in runs.items()}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", nargs="?", help="LDraw model (default: the largest shared model)")
    ap.add_argument("--library", default=str(SHARED / "complete.zip"))
    ap.add_argument("--units", type=int, default=30)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    if args.model:
        model = Path(args.model)
    else:
        from bench.bench_los import largest_shared_model

        model = largest_shared_model(library=args.library)
    out = bench_attacks(model, args.library, args.units, args.repeat)
    print(json.dumps(out, indent=2))
    ok = out["attacks_vs_ldraw2mesh"] <= 2.0
    print(f"target: attacks whole process <= 2 x ldraw2mesh whole process: {'met' if ok else 'NOT met'} "
          f"({out['attacks_vs_ldraw2mesh']}x)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
