"""Options shared by every command, and output helpers."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

LibraryOpt = typer.Option(None, "--library", "-L", help="LDraw library folder or complete.zip (default: $LDRAWDIR, "
                                                       "the usual folders, else the bundled fallback meshes)")


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


def load_model(path: Path, library: Optional[str], studs: bool = True):
    from ..geometry.model import load
    from .output import detail

    m = load(path, library, studs=studs)
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


def print_json(data) -> None:
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


def warn_all(model, diagnostics=None) -> None:
    """The first 20 warnings of a load (or of ``diagnostics``); none with --quiet."""
    from .output import warn

    diags = model.diagnostics if diagnostics is None else diagnostics
    for d in diags[:20]:
        warn(str(d))
    if len(diags) > 20:
        warn(f"… {len(diags) - 20} more")
