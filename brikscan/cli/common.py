"""Options shared by every command, and output helpers."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

LibraryOpt = typer.Option(None, "--library", "-L", help="LDraw library folder or complete.zip (default: $LDRAWDIR, "
                                                       "the usual folders, the editors' copies, else the bundled "
                                                       "fallback meshes)")
# Limits: a model that would expand past one is refused (exit 3) before it is expanded.
MaxElementsOpt = typer.Option(200_000, "--max-elements", min=1, help="refuse models with more elements")
MaxTrianglesOpt = typer.Option(20_000_000, "--max-triangles", min=1, help="refuse models (or parts) with more "
                                                                          "triangles")
MaxDepthOpt = typer.Option(100, "--max-depth", min=1, help="refuse submodels or subfiles nested deeper")
MaxCoordOpt = typer.Option(1.0e5, "--max-coord", min=1e-6, help="refuse placements or geometry farther from the "
                                                                "origin (LDU)")
MaxScaleOpt = typer.Option(1.0e3, "--max-scale", min=1e-6, help="refuse placements that stretch a part more")
ScaleOpt = typer.Option("inch", "--scale", help="the inch: inch = 25.4 mm = 63.5 LDU (a tape measure); stud = "
                                                 "3 studs = 60 LDU (the rules' brick stick) [000 §1.2]")
RulesOpt = typer.Option("2010", "--rules", help="rules edition: 2010 (default) or 2001")


def check_choices(rules: str | None = None, scale: str | None = None) -> None:
    """Bad --rules / --scale values: one line, exit 2, before any file is read."""
    from ..errors import UsageError

    if rules is not None and rules not in ("2010", "2001"):
        raise UsageError(f"--rules {rules!r}: choose 2010 or 2001")
    if scale is not None and scale not in ("inch", "stud"):
        raise UsageError(f"--scale {scale!r}: choose inch or stud")


def make_limits(max_elements: int = 200_000, max_triangles: int = 20_000_000, max_depth: int = 100,
                max_coord: float = 1.0e5, max_scale: float = 1.0e3):
    from ..ldraw.limits import Limits

    return Limits(max_elements, max_triangles, max_depth, max_coord, max_scale)


def load_model(path: Path, library: Optional[str], studs: bool = True, limits=None):
    from ..geometry.model import load
    from ..ldraw.limits import DEFAULT_LIMITS
    from .output import detail

    m = load(path, library, studs=studs, limits=limits or DEFAULT_LIMITS)
    t = m.timings
    detail(f"loaded {path}: {len(m.elements)} elements, {m.mesh.n_triangles} triangles from {m.geometry_source}; "
           f"parse {t['parse']:.2f} s, parts {t['parts']:.2f} s (cache {t['cache_hits']} hits, "
           f"{t['cache_misses']} misses), assemble {t['assemble']:.2f} s")
    return m


def refuse_overwrite(source: Path, *outputs: Optional[Path]) -> None:
    """Outputs are never written over the input file (a UsageError naming the output instead)."""
    for out in outputs:
        if out is not None and Path(out).resolve() == Path(source).resolve():
            from ..errors import UsageError

            raise UsageError("refusing to write over the input model", file=str(out))


def print_json(data, model=None) -> None:
    """The one place a ``--json`` output is printed: strict JSON, with the model's warnings and geometry source
    (``jsonout.report``). ``model``: the loaded model (or battlefield) the output is about."""
    from ..jsonout import report

    sys.stdout.write(json.dumps(report(data, model), indent=2, allow_nan=False) + "\n")


def warn_all(model, diagnostics=None) -> None:
    """The first 20 warnings of a load (or of ``diagnostics``); none with --quiet."""
    from .output import warn

    diags = model.diagnostics if diagnostics is None else diagnostics
    for d in diags[:20]:
        warn(str(d))
    if len(diags) > 20:
        warn(f"… {len(diags) - 20} more")
