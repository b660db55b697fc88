"""``attacks``: who can hit whom, with which weapon, needing what roll (an LDraw model or a scene .toml)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from . import app
from .common import LibraryOpt, check_choices, print_json, refuse_overwrite


@app.command("attacks")
def attacks(battlefield: Path = typer.Argument(..., help="an LDraw model (.ldr/.mpd) or a scene file (.toml)"),
            from_: Optional[str] = typer.Option(None, "--from", help="attacker(s), comma-separated (default: every "
                                                                     "unit and creation with a weapon)"),
            to: Optional[str] = typer.Option(None, "--to", help="target(s), comma-separated (default: every unit "
                                                                "and creation but scenery)"),
            weapon: Optional[str] = typer.Option(None, "--weapon", help="only these weapons (name or type, "
                                                                        "comma-separated: bow, cannon, gun)"),
            json_out: bool = typer.Option(False, "--json", help="one JSON object: {attacks: [...]} (the contract)"),
            png: Optional[Path] = typer.Option(None, "--png", help="render arcs and attack lines off-screen to "
                                                                   "this PNG"),
            html: Optional[Path] = typer.Option(None, "--html", help="write the scene with arcs as an HTML page"),
            scenery: bool = typer.Option(False, "--scenery", help="also target scenery (base plates, stands)"),
            samples: int = typer.Option(200, "--samples", min=1, max=100000, help="sample points per target"),
            seed: int = typer.Option(0, "--seed", help="sampling seed (answers do not depend on it)"),
            engine: Optional[str] = typer.Option(None, "--engine", help="ray engine: embree or open3d"),
            scale: Optional[str] = typer.Option(None, "--scale", help="the inch: inch (63.5 LDU, default) or stud "
                                                                      "(3 studs = 60 LDU); default: the scene's"),
            rules: Optional[str] = typer.Option(None, "--rules", help="rules edition: 2010 (default) or 2001"),
            library: Optional[str] = LibraryOpt) -> None:
    """Every weapon against every target: arc, sight from the barrel end, range, modifiers, the natural roll
    needed and the chances to hit and to beat the Armor [000 §5.1] [000 §8.2]."""
    from ..errors import UsageError

    if engine is not None and engine not in ("embree", "open3d"):
        raise UsageError(f"--engine: unknown ray engine {engine!r} (choose embree or open3d)")
    check_choices(rules, scale)
    refuse_overwrite(battlefield, png, html)
    from ..battle.attacks import attack_options, attacks_json, pick_units
    from ..battle.battlefield import load_battlefield

    bf = load_battlefield(battlefield, library, scale=scale, rules=rules)
    attackers, targets = pick_units(bf, from_, to)
    result = attack_options(bf, attackers, targets, weapon, samples=samples, seed=seed, scenery=scenery,
                            engine=engine)
    if png:
        from ..render.attacks_view import render_attacks_png

        render_attacks_png(bf, result, png)
    if html:
        from ..render.attacks_view import write_attacks_html

        write_attacks_html(bf, result, html)
    for w in result.warnings:
        print(f"brikscan: warning: {w}", file=sys.stderr)
    if json_out:
        print_json(attacks_json(bf, result))
        return
    print_table(bf, result)
    for out in (png, html):
        if out:
            typer.echo(f"wrote {out}")


def print_table(bf, result) -> None:
    """One line per option, grouped by attacker and weapon: what a player reads at the table."""
    from ..battle.attacks import describe

    print(f"attacks: {bf.name} ({len(result.options)} options, {result.timings['rays']} rays, {result.engine}, "
          f"{result.timings['total_s'] * 1000:.0f} ms)")
    last = None
    for o in result.options:
        w = next((w for w in result.weapons if w.attacker.name == o.attacker and w.name == o.weapon), None)
        key = (o.attacker, o.weapon)
        if key != last:
            last = key
            if w is not None:
                rng = "Close Combat" if w.melee else f'Range {w.range_in:g}"' if w.range_in is not None else ""
                print(f"\n{o.attacker}: {w.name} ({w.type}, {w.mount.kind}; Use {w.use:g}, {rng}, Damage "
                      f"{w.damage}; Skill d{w.skill_die})" if w.use is not None else f"\n{o.attacker}: {w.name}")
        mods = ", ".join(f"{m.value:+d} {m.name}" for m in o.modifiers)
        kill = "" if o.p_kill is None or not o.possible else f"; hits and beats Armor {o.armor}: {_pct(o.p_kill)}"
        print(f"  {describe(o)}" + (f"  [{mods}]" if mods and o.possible else "") + kill)
    if not result.options:
        print("no attack options (no unit or creation with a weapon, or no targets)")


def _pct(p: float) -> str:
    from ..battle.attacks import percent

    return percent(p)
