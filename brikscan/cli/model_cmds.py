"""``info``, ``view``, ``export`` and ``library fetch``."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..errors import UsageError
from . import app
from .common import (LibraryOpt, MaxCoordOpt, MaxDepthOpt, MaxElementsOpt, MaxScaleOpt, MaxTrianglesOpt, load_model,
                     make_limits, print_json, refuse_overwrite, warn_all)

library_app = typer.Typer(help="The LDraw parts library.", no_args_is_help=True,
                          context_settings={"help_option_names": ["-h", "--help"]})
app.add_typer(library_app, name="library")


@app.command()
def info(model: Path, library: Optional[str] = LibraryOpt,
         json_out: bool = typer.Option(False, "--json", help="one JSON object (the info contract)"),
         elements: bool = typer.Option(False, "--elements", help="also list every element"),
         studs: bool = typer.Option(True, "--studs/--no-studs", help="keep or drop stud geometry"),
         max_elements: int = MaxElementsOpt, max_triangles: int = MaxTrianglesOpt, max_depth: int = MaxDepthOpt,
         max_coord: float = MaxCoordOpt, max_scale: float = MaxScaleOpt) -> None:
    """Elements, distinct parts, triangles, bounding box, missing parts and geometry source."""
    from ..geometry.info import model_info

    m = load_model(model, library, studs, make_limits(max_elements, max_triangles, max_depth, max_coord, max_scale))
    data = model_info(m, elements)
    if json_out:
        print_json(data, m)
        return
    warn_all(m)
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"{data['name']}  ({model})", show_header=False)
    for key in ("elements", "distinct_parts", "triangles", "size_ldu", "size_studs", "size_in", "geometry_source",
                "missing_parts", "stand_ins", "submodels"):
        t.add_row(key, str(data[key]))
    t.add_row("bbox_ldu", f"{data['bbox_ldu']['min']} .. {data['bbox_ldu']['max']}")
    Console().print(t)
    if elements:
        et = Table("index", "part", "description", "colour", "source")
        for e in data["element_list"]:
            et.add_row(str(e["index"]), e["part"], e["description"], e["colour_name"], e["source"])
        Console().print(et)


@app.command()
def view(model: Path, library: Optional[str] = LibraryOpt,
         png: Optional[Path] = typer.Option(None, "--png", help="render off-screen to this PNG instead"),
         html: Optional[Path] = typer.Option(None, "--html", help="write a self-contained 3D page instead"),
         roles: bool = typer.Option(False, "--roles", help="tint elements by their BrikWars role"),
         studs: bool = typer.Option(True, "--studs/--no-studs"),
         max_elements: int = MaxElementsOpt, max_triangles: int = MaxTrianglesOpt, max_depth: int = MaxDepthOpt,
         max_coord: float = MaxCoordOpt, max_scale: float = MaxScaleOpt) -> None:
    """Show the model (or a scene .toml) in 3D in its LDraw colours (window, --png or --html)."""
    refuse_overwrite(model, png, html)
    if model.suffix.lower() == ".toml":
        from ..battle.battlefield import load_scene

        if roles:
            raise UsageError("--roles needs an LDraw model, not a scene file")
        m = load_scene(model, library, creations=False)
    else:
        m = load_model(model, library, studs, make_limits(max_elements, max_triangles, max_depth, max_coord,
                                                          max_scale))
    warn_all(m)
    face_rgb = legend = None
    if roles:
        from ..render.roles_view import role_face_rgb, role_legend

        face_rgb, legend = role_face_rgb(m), role_legend()
    from ..render import model_view

    if png:
        model_view.render_png(m, png, face_rgb=face_rgb, legend=legend,
                              title=f"{m.name}: BrikWars roles" if roles else None)
        typer.echo(f"wrote {png}")
    if html:
        model_view.render_html(m, html, face_rgb=face_rgb, legend=legend,
                               title=f"{m.name}: BrikWars roles" if roles else None)
        typer.echo(f"wrote {html}")
    if not png and not html:
        model_view.show(m, face_rgb=face_rgb)


@app.command()
def export(model: Path, out: Path, library: Optional[str] = LibraryOpt,
           studs: bool = typer.Option(True, "--studs/--no-studs"),
           units: str = typer.Option("m", "--units", help="m: metres with +Y up (glTF's convention, default); "
                                                          "ldu: LDraw units and LDraw's -Y up"),
           max_elements: int = MaxElementsOpt, max_triangles: int = MaxTrianglesOpt, max_depth: int = MaxDepthOpt,
           max_coord: float = MaxCoordOpt, max_scale: float = MaxScaleOpt) -> None:
    """Write the model mesh as .glb, .obj, .ply or .stl (metres and +Y up by default, LDraw colours)."""
    from ..geometry.export import UNITS, export_model

    if units not in UNITS:
        raise UsageError(f"--units {units!r}: choose m or ldu")
    refuse_overwrite(model, out)
    m = load_model(model, library, studs, make_limits(max_elements, max_triangles, max_depth, max_coord, max_scale))
    warn_all(m)
    export_model(m, out, units)
    typer.echo(f"wrote {out} ({m.mesh.n_triangles} triangles, {'metres, +Y up' if units == 'm' else 'LDU'})")


@library_app.command("fetch")
def library_fetch(dest: Optional[Path] = typer.Option(None, "--dest", help="where to save complete.zip"),
                  url: Optional[str] = typer.Option(None, "--url", help="download from here instead")) -> None:
    """Download the official LDraw complete.zip (needs the internet)."""
    from ..ldraw import fetch

    target = dest or fetch.default_library_zip()
    kwargs = {"url": url} if url else {}
    path = fetch.fetch_library(target, **kwargs)
    typer.echo(f"saved {path}; brikscan finds it there automatically")
