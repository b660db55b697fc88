"""``army``: the CP and Unit Inches of every aligned creation of several files or a scene's sides [000 §11.1]."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional

import typer

from . import app
from .common import LibraryOpt, RulesOpt, ScaleOpt, check_choices, print_json


@app.command()
def army(models: List[Path] = typer.Argument(..., help="LDraw models (.ldr/.mpd/.dat) and/or scene files (.toml)"),
         library: Optional[str] = LibraryOpt,
         rules: str = RulesOpt,
         scale: str = ScaleOpt,
         budget: Optional[str] = typer.Option(None, "--budget", help="a Construction Point budget per side"),
         side: Optional[str] = typer.Option(None, "--side", help="the side of every creation that has none of "
                                                                 "its own (annotation or scene file)"),
         json_out: bool = typer.Option(False, "--json", help="one JSON object: {rules, total_cp, unit_inches, "
                                                             "sides, creations, groups} (the army contract)"),
         cards: Optional[Path] = typer.Option(None, "--cards", help="write poker-size stat cards: out.html "
                                                                    "(print from a browser) or out.pdf")) -> None:
    """Army totals in Construction Points and Unit Inches, per side, against a budget, with Almighty Bennies."""
    from ..battle.army import army as build_army
    from ..battle.army import army_json, parse_budget
    from ..errors import UsageError

    check_choices(rules, scale)
    parse_budget(budget)  # a bad budget fails before any file is read (exit 2)
    if cards is not None and cards.suffix.lower() not in (".html", ".htm", ".pdf"):
        raise UsageError(f"--cards {cards}: write .html or .pdf")
    for m in models:
        if cards is not None and m.resolve() == cards.resolve():
            raise UsageError("refusing to write over an input file", file=str(cards))
    a = build_army([str(m) for m in models], library, rules=rules, budget=budget, side=side, scale=scale)
    if cards is not None:
        from ..render.army_cards import write_cards

        write_cards(a, cards)
    if json_out:
        print_json(army_json(a))
        return
    for w in a.warnings[:20]:
        print(f"brikscan: warning: {w}", file=sys.stderr)
    _print_army(a)
    if cards is not None:
        typer.echo(f"wrote {cards}")


def _print_army(a) -> None:
    from rich.console import Console
    from rich.table import Table

    from ..render.stat_card import fmt

    con = Console()
    t = Table("side", "creation", "×", "kind", "Size", "CP each", "Ű each", "file", title=f"Army (rules {a.rules})",
              title_justify="left")
    for g in a.groups():
        e = g.entries[0]
        names = e.name if g.count == 1 else f"{e.name} … ({g.count} alike)"
        t.add_row(e.side or "—", names, str(g.count), e.card.creation.kind, str(e.card.size),
                  fmt(float(e.card.total_cost)), fmt(float(e.card.unit_inches or 0)), Path(e.model).stem[:24])
    con.print(t)
    free = [e for e in a.entries if not e.counts]
    if free:
        con.print(f"free (not in the army): {len(free)} — scenery, loose items, non-aligned buildings [000 §11.1]")
    s = Table("side", "CP", "Ű", "creations", "Almighty Bennies", "budget left", title="Per side",
              title_justify="left")
    for name, v in a.sides().items():
        s.add_row(name or "—", fmt(v["total_cp"]), fmt(v["unit_inches"]), str(v["creations"]),
                  str(v["almighty_bennies"]), fmt(v.get("budget_left")))
    con.print(s)
    over = "" if a.budget is None else ("  OVER BUDGET" if a.total_cp > a.budget + 1e-9 else "  within budget")
    con.print(f"[bold]total {fmt(a.total_cp)} CP, {fmt(a.unit_inches)} Ű[/bold]{over}")
