"""``serve``: the battle table in the browser (a local web app over the same functions as the CLI)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from . import app
from .common import LibraryOpt, RulesOpt, ScaleOpt, check_choices


@app.command("serve")
def serve(model: Path = typer.Argument(..., help="an LDraw model (.ldr/.mpd) or a scene file (.toml)"),
          library: Optional[str] = LibraryOpt,
          port: int = typer.Option(8642, "--port", help="TCP port (0: a free one)"),
          host: str = typer.Option("127.0.0.1", "--host", help="interface to listen on (default loopback only; "
                                                               "another host only when asked)"),
          no_browser: bool = typer.Option(False, "--no-browser", help="do not open the page in a browser"),
          primitives: str = typer.Option("auto", "--primitives",
                                         help="the page's studs and cylinders: normal, low (LDraw's p/8/ "
                                              "primitives, fewer triangles) or auto (low above 1 M triangles)"),
          rules: str = RulesOpt, scale: str = ScaleOpt) -> None:
    """Serve MODEL in the browser: click bricks, change roles, line of sight, blasts and hits, stat cards."""
    from ..errors import InputError, UsageError
    from ..web.server import serve as run_server
    from ..web.session import PRIMITIVES

    check_choices(rules, scale)
    if primitives not in PRIMITIVES:
        raise UsageError(f"--primitives {primitives!r}: choose {', '.join(PRIMITIVES)}")
    if not model.exists():
        raise InputError("no such file", file=str(model))
    run_server(model, library, host=host, port=port, open_browser=not no_browser, rules=rules, scale=scale,
               primitives=primitives)
