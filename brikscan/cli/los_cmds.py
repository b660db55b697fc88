"""``los``: line of sight between units on a battlefield (an LDraw model or a scene .toml)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..progress import phase
from . import app
from .common import LibraryOpt, check_choices, print_json, refuse_overwrite


@app.command("los")
def los(battlefield: Path = typer.Argument(..., help="an LDraw model (.ldr/.mpd) or a scene file (.toml)"),
        from_: Optional[str] = typer.Option(None, "--from", help="viewer unit(s), comma-separated (default: every "
                                                                 "minifig)"),
        to: Optional[str] = typer.Option(None, "--to", help="target unit(s)/creation(s), comma-separated (default: "
                                                            "every unit and creation)"),
        json_out: bool = typer.Option(False, "--json", help="one JSON object: {units, pairs} (the los contract)"),
        png: Optional[Path] = typer.Option(None, "--png", help="render the sight lines off-screen to this PNG"),
        html: Optional[Path] = typer.Option(None, "--html", help="write the scene as an HTML page for a browser"),
        show: bool = typer.Option(False, "--show", help="open the interactive 3D window"),
        all_rays: bool = typer.Option(False, "--all-rays", help="pictures: draw the rays of every viewer (a few "
                                                                "per pair), not only the first viewer's"),
        samples: int = typer.Option(200, "--samples", min=1, max=100000, help="sample points per target"),
        seed: int = typer.Option(0, "--seed", help="sampling seed (answers do not depend on it)"),
        origin: str = typer.Option("eyes", "--origin", help="where sight lines start: eyes, or barrel (the end of "
                                                            "the viewer's ranged weapon; eyes, with a note, for a "
                                                            "viewer without one)"),
        engine: Optional[str] = typer.Option(None, "--engine", help="ray engine: embree or open3d (default: the "
                                                                    "faster one installed)"),
        scale: Optional[str] = typer.Option(None, "--scale", help="the inch: inch (63.5 LDU, default) or stud "
                                                                  "(3 studs = 60 LDU); default: the scene file's"),
        rules: Optional[str] = typer.Option(None, "--rules", help="rules edition: 2010 (default) or 2001"),
        scenery: bool = typer.Option(False, "--scenery", help="pair viewers with scenery too (base plates, "
                                                              "stands) and with what they stand on"),
        library: Optional[str] = LibraryOpt) -> None:
    """Who can see whom: visible minifig sections and modifier, range, height advantage, blocking elements."""
    from ..battle.battlefield import load_battlefield
    from ..battle.sight import line_of_sight, los_report, pick_viewers_targets
    from ..errors import UsageError

    if engine is not None and engine not in ("embree", "open3d"):
        raise UsageError(f"--engine: unknown ray engine {engine!r} (choose embree or open3d)")
    origin = origin.strip().lower()
    if origin not in ("eyes", "barrel"):
        raise UsageError(f"--origin: unknown origin {origin!r} (choose eyes or barrel)")
    check_choices(rules, scale)
    refuse_overwrite(battlefield, png, html)
    with phase("loading battlefield"):
        bf = load_battlefield(battlefield, library, scale=scale, rules=rules)
    viewers, targets = pick_viewers_targets(bf, from_, to, scenery)
    with phase("line of sight"):
        result = line_of_sight(bf, viewers, targets, samples=samples, seed=seed, engine=engine, origin=origin,
                               pair_support=scenery)
    if png:
        from ..render.sight_view import render_sight_png

        with phase("rendering PNG"):
            render_sight_png(bf, result, png, all_rays=all_rays)
    if html:
        from ..render.sight_view import write_sight_html

        with phase("writing HTML"):
            write_sight_html(bf, result, html, all_rays=all_rays)
    if json_out:
        print_json(los_report(bf, result, samples=samples, seed=seed, engine=engine), bf)
    else:
        _table(bf, result)
        for out in (png, html):
            if out:
                typer.echo(f"wrote {out}")
    if show:
        from ..render.sight_view import show_sight

        show_sight(bf, result, all_rays=all_rays)


def _table(bf, result) -> None:
    from .plain_table import render

    frm = "" if result.origin == "eyes" else "from the barrel, "
    title = (f"line of sight: {bf.name} ({frm}{result.n_rays} rays, {result.engine}, "
             f"{result.timings['total_s'] * 1000:.0f} ms)")
    rows = []
    for p in result.pairs:
        sections = "+".join(p.sections_visible) if p.target_kind == "minifig" else fraction_text(p.visible_fraction)
        blocked = ""
        if p.blockers:
            b = p.blockers[0]
            blocked = f"{b.index} {b.part}" + (f" ({b.creation})" if b.creation else "")
            if len(p.blockers) > 1:
                blocked += f" +{len(p.blockers) - 1}"
        rows.append([p.viewer, p.target, "yes" if p.visible else "no", sections or "-", f"{p.modifier:+d}",
                     f"{p.distance_in:.1f}\"", f"+{p.height_advantage_in:.0f}\"" if p.height_advantage_in else "",
                     blocked])
    # 870 rows for 30 units: drawn as rich draws a table, without its per-cell layout (a second on this machine)
    print(render(title, ["from", "to", "visible", "sections", "mod.", "range", "height", "blocked by"], rows,
                 wrap=("blocked by",)))
    for n in result.notes:
        print(f"note: {n['from']} -> {n['to']}: {n['note']}")


def fraction_text(f: float) -> str:
    """A visible fraction as a player reads it: a sliver is "<1 %", never "0 %" next to "visible yes"."""
    if 0 < f < 0.01:
        return "<1 %"
    return f"{f:.0%}"
