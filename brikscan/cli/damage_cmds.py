"""``blast`` (explosions [000 §8.4]) and ``hit`` (Component Damage [000 §7.2]): thin wrappers over
``brikscan.battle.preview``. ``--json`` prints one JSON object (the contract in issue 5)."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ..progress import phase
from . import app
from .common import LibraryOpt, RulesOpt, ScaleOpt, check_choices, load_model, print_json, refuse_overwrite, warn_all

_SL = typer.Option(None, "--sl", help="Structure Level for every creation (0, 1/2, 1-5; default: the stat card's)")
_SD = typer.Option(0, "--size-damage", help="Size Damage every creation already has (inherited by its sections)")
_ARMOR = typer.Option(None, "--armor-rolls", help="fix the Armor rolls: one for all, or one per Armor class "
                                                  "(blast) / per component along the line (hit), e.g. 15 or 4,4,4")
_SEED = typer.Option(None, "--seed", help="random seed (reproducible rolls)")
_EXPECTED = typer.Option(False, "--expected", help="deterministic average dice and Armor instead of rolling")
_BONUS = typer.Option(True, "--bonus/--no-bonus", help="Bonus Dice on a die's top face [000 §1.2]")
SECTION_ROWS = 60  # a blast on a large set leaves hundreds of loose bricks: the table shows the first ones
_HTML = typer.Option(None, "--html", help="the after-damage scene as an HTML page (opens offline in a browser)")
_SHOW = typer.Option(False, "--show", help="open the after-damage scene in an interactive pyvista window")


def _outputs(m, result, png: Optional[Path], gif: Optional[Path], save: Optional[Path], debris: bool,
             note: str, html: Optional[Path] = None, heatmap: Optional[Path] = None, mc=None) -> list[str]:
    refuse_overwrite(m.path, png, gif, save, html, heatmap)
    done = []
    if save is not None:
        from ..battle.save_ldraw import save_damaged

        move = result.knockback_vec
        save_damaged(m, save, result.destroyed, move, keep_debris=debris, note=note)
        done.append(f"wrote {save}")
    if png is not None:
        from ..render.damage_view import render_before_after

        with phase("rendering PNG"):
            render_before_after(m, result, png)
        done.append(f"wrote {png}")
    if gif is not None:
        from ..render.damage_view import render_gif

        render_gif(m, result, gif)
        done.append(f"wrote {gif}")
    if html is not None:
        from ..render.damage_view import write_damage_html

        with phase("writing HTML"):
            write_damage_html(m, result, html, p_destroyed=None if mc is None else mc.p_destroyed)
        done.append(f"wrote {html}")
    if heatmap is not None and mc is not None:
        from ..render.damage_view import render_heatmap

        with phase("rendering heat map"):
            render_heatmap(m, result, mc.p_destroyed, heatmap)
        done.append(f"wrote {heatmap}")
    return done


def _show(m, result) -> None:
    from ..render.damage_view import show_damage

    show_damage(m, result)


def _print_sections(result) -> None:
    from rich.table import Table

    from .output import OPTIONS, console

    t = Table("section", "elements", "Size\"", "ES", "Power\"", "weapons off", "state")
    shown = result.sections if OPTIONS["verbose"] else result.sections[:SECTION_ROWS]
    for s in shown:
        state = "DESTROYED" if s.destroyed else ("loose object" if s.kind == "loose object" else
                                                 ("broken loose" if s.loose else "standing"))
        off = ", ".join(f"{w['name']} ({w['size']:g}\")" for w in s.weapons_disabled) or (
            "-" if s.weapons else "")
        t.add_row(s.name, str(len(s.elements)), f"{s.size} ({s.size_in:.2f})", f"{s.effective_size:g}",
                  "" if s.power is None else f"{s.power:g}", off, state)
    console().print(t)
    if len(shown) < len(result.sections):
        typer.echo(f"… {len(result.sections) - len(shown)} more sections (all with --verbose or --json)")


@app.command()
def blast(model: Path,
          at: Optional[List[str]] = typer.Option(None, "--at", help="centre X,Y,Z in LDU (repeat for several)"),
          at_element: Optional[List[str]] = typer.Option(None, "--at-element", help="centre on an element: its index, "
                                                         "a part id (3700.dat) or a creation name"),
          dice: str = typer.Option("3d10", "--dice", help="explosion dice, e.g. 3d10 (';' between explosions)"),
          rolls: Optional[str] = typer.Option(None, "--rolls", help="fixed dice, e.g. 3,6,7 (10+4: a 10 and its "
                                                                   "Bonus d6; ';' between explosions)"),
          armor_rolls: Optional[str] = _ARMOR, seed: Optional[int] = _SEED, expected: bool = _EXPECTED,
          bonus: bool = _BONUS,
          trials: int = typer.Option(0, "--trials", help="Monte Carlo trials (probabilities and a heat map)"),
          json_out: bool = typer.Option(False, "--json", help="one JSON object"),
          png: Optional[Path] = typer.Option(None, "--png", help="before/after PNG"),
          gif: Optional[Path] = typer.Option(None, "--gif", help="GIF of the debris flying"),
          heatmap: Optional[Path] = typer.Option(None, "--heatmap", help="PNG heat map of --trials"),
          save: Optional[Path] = typer.Option(None, "--save", help="write the damaged model (.ldr/.mpd)"),
          debris: bool = typer.Option(False, "--debris", help="--save keeps destroyed bricks, thrown by KnockBack"),
          html: Optional[Path] = _HTML, show: bool = _SHOW,
          cover: bool = typer.Option(True, "--cover/--no-cover", help="elements fully behind cover that holds are "
                                                                      "unaffected [000 §3.2] (default on)"),
          sl: Optional[str] = _SL, size_damage: int = _SD, scale: str = ScaleOpt, rules: str = RulesOpt,
          library: Optional[str] = LibraryOpt) -> None:
    """Explode N d10 at a point or element: rings, Armor rolls, destroyed bricks, KnockBack, the re-split."""
    from ..battle.preview import blast_json, run_blast
    from ..errors import UsageError

    if heatmap is not None and not trials:
        raise UsageError("--heatmap needs --trials N")
    from .stats_cmds import parse_sl

    check_choices(rules, scale)
    level = parse_sl(sl)
    m = load_model(model, library)
    with phase("blast"):
        scene, result, mc = run_blast(m, at=at, at_element=at_element, dice=dice, rolls=rolls,
                                      armor_rolls=armor_rolls, seed=seed, expected=expected, bonus_dice=bonus,
                                      sl=level, size_damage=size_damage, scale=scale, rules=rules, trials=trials,
                                      cover=cover)
    done = _outputs(m, result, png, gif, save, debris, f"blast {dice}", html, heatmap, mc)
    data = blast_json(scene, result, mc)
    if json_out:
        print_json(data, m)
        if show:
            _show(m, result)
        return
    warn_all(m)
    for bl in data["blasts"]:
        typer.echo(f"blast {bl['dice']} at {', '.join(f'{v:g}' for v in bl['centre_ldu'])}"
                   f" rolls {bl['rolls'] if bl['rolls'] is not None else '(expected)'}")
        for r in bl["rings"]:
            typer.echo(f"  {r['inner_radius_in']:g}-{r['outer_radius_in']:g}\": {r['damage']:g} damage, "
                       f"KnockBack {r['knockback_in']:g}\"")
    for a in data["armor_classes"]:
        typer.echo(f"Armor {a['creation']} SL {a['sl']:g} ({a['armor']}): {a['roll']:g} ({a['source']})")
    typer.echo(f"destroyed {len(data['destroyed'])} of {len(m.elements)} elements"
               + (f"; {len(data['shielded'])} in the rings but fully behind cover" if data.get("shielded") else ""))
    _print_sections(result)
    if mc is not None:
        typer.echo(f"Monte Carlo {mc.trials} trials: {mc.expected_lost:.2f} elements lost on average; "
                   f"split probability {mc.p_split}")
    for note in data.get("notes", []):
        typer.echo(f"note: {note}")
    for line in done:
        typer.echo(line)
    if show:
        _show(m, result)


@app.command()
def hit(model: Path,
        element: Optional[str] = typer.Option(None, "--element", help="target element: index, part id (3700.dat) "
                                                                      "or creation name"),
        origin: Optional[str] = typer.Option(None, "--from", help="attacker X,Y,Z (LDU) or a creation name: the line of attack"),
        toward: Optional[str] = typer.Option(None, "--toward", help="aim point X,Y,Z or a creation name: the first element hit is the target"),
        damage: Optional[float] = typer.Option(None, "--damage", help="rolled damage total, e.g. 12"),
        dice: Optional[str] = typer.Option(None, "--dice", help="damage dice, e.g. 2d6"),
        rolls: Optional[str] = typer.Option(None, "--rolls", help="fixed damage dice, e.g. 5,6+2"),
        armor_rolls: Optional[str] = _ARMOR, seed: Optional[int] = _SEED, expected: bool = _EXPECTED,
        bonus: bool = _BONUS,
        overkill: bool = typer.Option(True, "--overkill/--no-overkill", help="carry leftover damage on [000 §7.2]"),
        chunk: bool = typer.Option(False, "--chunk", help="remove a chunk up to 1\" around the struck element"),
        reach: Optional[float] = typer.Option(None, "--reach", help="attack reach in inches (limits Overkill)"),
        json_out: bool = typer.Option(False, "--json", help="one JSON object"),
        png: Optional[Path] = typer.Option(None, "--png", help="before/after PNG"),
        gif: Optional[Path] = typer.Option(None, "--gif", help="GIF"),
        save: Optional[Path] = typer.Option(None, "--save", help="write the damaged model (.ldr/.mpd)"),
        html: Optional[Path] = _HTML, show: bool = _SHOW,
        trials: int = typer.Option(0, "--trials", help="Monte Carlo trials over the damage and Armor rolls"),
        weapon_size: Optional[float] = typer.Option(None, "--weapon-size", help="Weapon Size in inches: KnockBack "
                                                    "of 1\" per inch it exceeds the target's ES [000 §8.1]"),
        sl: Optional[str] = _SL, size_damage: int = _SD, scale: str = ScaleOpt, rules: str = RulesOpt,
        library: Optional[str] = LibraryOpt) -> None:
    """Component Damage: knock an element (or a 1" chunk) off, with Overkill along the line of attack."""
    from ..battle.preview import hit_json, run_hit

    from .stats_cmds import parse_sl

    check_choices(rules, scale)
    level = parse_sl(sl)
    m = load_model(model, library)
    with phase("hit"):
        scene, result, info = run_hit(m, element=element, origin=origin, toward=toward, damage=damage, dice=dice,
                                      rolls=rolls, armor_rolls=armor_rolls, seed=seed, expected=expected,
                                      bonus_dice=bonus, overkill=overkill, chunk=chunk, reach_in=reach, sl=level,
                                      size_damage=size_damage, scale=scale, rules=rules, trials=trials,
                                      weapon_size=weapon_size)
    done = _outputs(m, result, png, gif, save, False, "component hit", html)
    data = hit_json(scene, result, info)
    if json_out:
        print_json(data, m)
        if show:
            _show(m, result)
        return
    warn_all(m)
    rolled = f" ({data['dice']} rolled {data['rolls']})" if "dice" in data else ""
    typer.echo(f"damage {data['damage']:g}{rolled}")
    for s in data["steps"]:
        n_removed = len(s["removed"])
        what = "holds"
        if s["destroyed"]:
            what = "destroyed" + (f" ({n_removed} elements)" if n_removed > 1 else "")
        interior = ", interior" if s["interior"] else ""
        typer.echo(f"  element {s['element']} ({s['creation']}, SL {s['sl']:g}{interior}): "
                   f"{s['damage_in']:g} vs Armor {s['armor_roll']:g} -> {what}")
    _print_sections(result)
    mc = data.get("monte_carlo")
    if mc is not None:
        line = ", ".join(f"{s['element']}: {s['p_destroyed']:.0%}" for s in mc["line"])
        typer.echo(f"Monte Carlo {mc['trials']} trials: P(destroyed) along the line {line}; "
                   f"{mc['expected_destroyed']:.2f} elements lost on average; split probability {mc['p_split']}")
    for note in data["notes"]:
        typer.echo(f"note: {note}")
    for line in done:
        typer.echo(line)
    if show:
        _show(m, result)
