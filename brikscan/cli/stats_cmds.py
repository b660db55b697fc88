"""``stats``: a BrikWars stat card per creation (Size, Structure Level, Armor, costs, weapons, propulsion)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..progress import phase
from . import app
from .common import (LibraryOpt, MaxCoordOpt, MaxDepthOpt, MaxElementsOpt, MaxScaleOpt, MaxTrianglesOpt, load_model,
                     make_limits, print_json, refuse_overwrite, warn_all)


def parse_sl(text: str | None) -> float | None:
    from ..errors import UsageError

    if text is None:
        return None
    t = text.strip()
    if t in ("1/2", "½", "half"):
        return 0.5
    try:
        v = float(t)
    except ValueError:
        raise UsageError(f"--sl {text!r}: give 0, 0.5 (or 1/2), or a whole number") from None
    from ..rules.formulas import check_sl

    return check_sl(v)


@app.command()
def stats(model: Path = typer.Argument(..., help="an LDraw model (.ldr/.mpd/.dat)"),
          library: Optional[str] = LibraryOpt,
          json_out: bool = typer.Option(False, "--json", help="one JSON object: {rules, scale_ldu_per_inch, "
                                                              "creations} (the stats contract)"),
          rules: str = typer.Option("2010", "--rules", help="rules edition: 2010 (default) or 2001"),
          scale: str = typer.Option("inch", "--scale", help="inch: 25.4 mm = 63.5 LDU (a tape measure); stud: "
                                                            "3 studs = 60 LDU (the rules' brick stick)"),
          round_mode: str = typer.Option("nearest", "--round", help="rounding of Size: nearest, up or down"),
          sl: Optional[str] = typer.Option(None, "--sl", help="Structure Level for every creation (0, 1/2, 1-5); "
                                                              "default: the CREATION annotation, else a suggestion"),
          role: Optional[List[str]] = typer.Option(None, "--role", help="override roles: SELECTOR=ROLE [key=value"
                                                                        " …], e.g. '12-15=weapon type=gun size=2' "
                                                                        "(repeatable)"),
          card: Optional[Path] = typer.Option(None, "--card", help="write stat cards with renders to .html or .md"),
          space: Optional[bool] = typer.Option(None, "--space/--air", help="flyers are spacecraft or on "
                                               "antigravity (full Power) or fly in the air (Power halved) "
                                               "[000 §8.1]; default: the CREATION annotation space=yes/no, else a "
                                               "Space theme (0 !THEME Space …) in space, else air"),
          move: str = typer.Option("default", "--move", help="unannotated Move: default (the [000 §9.1] speeds: "
                                                            "ground 10\", water 8\", flying 12\") or formula "
                                                            "([004 §9.1] by Size and SL)"),
          all_: bool = typer.Option(False, "--all", help="also show scenery and loose items in full"),
          no_render: bool = typer.Option(False, "--no-render", help="--card without the 3D renders"),
          max_elements: int = MaxElementsOpt, max_triangles: int = MaxTrianglesOpt, max_depth: int = MaxDepthOpt,
          max_coord: float = MaxCoordOpt, max_scale: float = MaxScaleOpt) -> None:
    """Stat card per creation: Size, Structure Level, Armor, Base Cost, weapons, propulsion, Power, total."""
    from ..analysis.stats import analyse, analysis_json
    from ..errors import UsageError

    if rules not in ("2010", "2001"):
        raise UsageError(f"--rules {rules!r}: choose 2010 or 2001")
    if scale not in ("inch", "stud"):
        raise UsageError(f"--scale {scale!r}: choose inch or stud")
    if move not in ("default", "formula"):
        raise UsageError(f"--move {move!r}: choose default or formula")
    if round_mode not in ("nearest", "up", "down"):
        raise UsageError(f"--round {round_mode!r}: choose nearest, up or down")
    if card is not None and card.suffix.lower() not in (".html", ".htm", ".md"):
        raise UsageError(f"--card {card}: write .html or .md")
    refuse_overwrite(model, card)
    level = parse_sl(sl)
    m = load_model(model, library, limits=make_limits(max_elements, max_triangles, max_depth, max_coord, max_scale))
    with phase("analysis"):
        a = analyse(m, rules=rules, scale=scale, round_mode=round_mode, sl=level, overrides=list(role or []),
                    space=space, move=move)
    if card is not None:
        from ..render.stat_card import write_card

        with phase("writing stat cards"):
            write_card(a, card, include_all=all_, renders=not no_render)
    if json_out:
        print_json(analysis_json(a), m)
        return
    warn_all(m)
    warn_all(m, a.diagnostics)
    _print_cards(a, all_)
    if card is not None:
        typer.echo(f"wrote {card}")


def _print_cards(a, all_: bool) -> None:
    from rich.table import Table

    from ..render.stat_card import fmt as _fmt
    from ..render.stat_card import grouped_propulsion, grouped_weapons, power_note, propulsion_text, role_counts
    from .output import console

    con = console()
    con.print(f"[bold]{a.model.name}[/bold]  rules {a.rules}, {a.ldu_per_inch:g} LDU per inch ({a.scale}), "
              f"rounding {a.round_mode}; geometry: {a.model.geometry_source}")
    small = []
    for card in a.cards:
        c = card.creation
        vermin = c.kind == "creature" and card.size == 0 and not card.total_cost  # [000 §10.3 Vermin]
        if not all_ and (c.kind in ("minifig", "loose item", "scenery") or vermin):
            small.append(card)
            continue
        t = Table(title=f"{c.name}  ({c.kind})", show_header=False, title_justify="left")
        t.add_row("Size", f"{card.size}  (measured {card.size_in:.2f}\", {len(c.structural_elements)} structural "
                          f"of {len(c.elements)} elements)")
        t.add_row("Structure Level", f"{_fmt(card.structure_level)}  — {card.sl_reason}")
        t.add_row("Armor", f"{card.armor}  (weak points / non-structural: {card.weak_point_armor})")
        t.add_row("Base Cost", f"{_fmt(card.base_cost)} CP")
        for n, w, total, label in grouped_weapons(card):
            each = f" ×{n}: {_fmt(total)} CP ({_fmt(w.cost)} each)" if n > 1 else f" — Cost {_fmt(w.cost)}"
            t.add_row("Weapon", f"{label}: {w.type} Size {_fmt(w.size)}{each}, Use {_fmt(w.use)}, "
                                f"Range {_fmt(w.range_in)}\", Damage {w.damage or '—'}")
        for n, p, els, total in grouped_propulsion(card):
            t.add_row("Propulsion", f"{propulsion_text(n, p, total)} ({len(els)} elements)")
        if card.mind_cost:
            t.add_row("Mind", f"{_fmt(card.mind_cost)} CP")
        fit = "" if card.weapons_fit is None else ("  (weapons fit)" if card.weapons_fit else "  (weapons do NOT fit)")
        note = power_note(card)
        air = f"  ({note})" if note else ""
        t.add_row("Power", f"{_fmt(card.power)}\"{fit}{air}")
        t.add_row("Total", f"[bold]{_fmt(card.total_cost)} CP[/bold]  (rounded up {card.total_cost_rounded})")
        t.add_row("Roles", ", ".join(f"{k} {v}" for k, v in sorted(role_counts(card).items())))
        for w in card.warnings:
            t.add_row("[yellow]warning[/yellow]", w)
        con.print(t)
    if small:
        t = Table("creation", "kind", "Size", "SL", "Armor", "weapons", "total CP", title="Minifigs, Vermin, scenery and loose items",
                  title_justify="left")
        for card in small:
            c = card.creation
            t.add_row(c.name, c.kind, str(card.size), _fmt(card.structure_level), card.armor,
                      ", ".join(f"{w.type} {_fmt(w.size)}" for w in card.weapons) or "—", _fmt(card.total_cost))
        con.print(t)
