"""Stat cards as a self-contained HTML page or Markdown (+ PNG renders): the picture, the numbers, the reasons.

The render shows each creation off-screen with its Structural elements in their own colours, greyed, and
everything else tinted by role (``roles_view.ROLE_RGB``).
"""
from __future__ import annotations

import base64
import html
import re
from pathlib import Path


from ..errors import UsageError
from ..geometry.cache import write_atomic
from .roles_view import ROLE_RGB, role_face_rgb

MAX_RENDERS = 8  # big sets hold dozens of loose items: render the main creations only


def _png_bytes(model, creation, face_rgb, size=(640, 480)) -> bytes | None:
    """Off-screen render of one creation in its role tints; None when no OpenGL is available."""
    from .model_view import elements_png

    return elements_png(model, creation.elements, size, face_rgb)


def fmt(x) -> str:
    """A stat for a card: — for none, floats without trailing zeros."""
    if x is None:
        return "—"
    if isinstance(x, float):
        return f"{x:g}"
    return str(x)


def grouped_propulsion(card) -> list[tuple[int, object, list[int], float | None]]:
    """Propulsion lines as a player writes them: identical Thrusters on one line, ×N (parallel Thrust can be
    Fudged into one combined Thrust [000 §9.3 Thrust Vectors]). (count, first card, all elements, total cost)."""
    out: list[list] = []
    for p in card.propulsion:
        for g in out:
            q = g[1]
            if p.type == "thrust" and q.type == "thrust" and (p.thrust_in, p.cost) == (q.thrust_in, q.cost):
                g[0] += 1
                g[2] = g[2] + list(p.elements)
                g[3] = None if g[3] is None or p.cost is None else g[3] + p.cost
                break
        else:
            out.append([1, p, list(p.elements), p.cost])
    return [tuple(g) for g in out]


def grouped_weapons(card) -> list[tuple[int, object, float | None, str]]:
    """Identical weapons (same type, Size, cost, Use, Range, Damage) on one line, ×N: (count, weapon, total, the
    line's name: the weapons' own where they share one, else the distinct names, ``weapon_label``)."""
    out: list[list] = []
    for w in card.weapons:
        key = (w.type, w.size, w.cost, w.use, w.range_in, w.damage, w.category)
        for g in out:
            if g[3] == key:
                g[0] += 1
                g[2] = None if g[2] is None or w.cost is None else g[2] + w.cost
                g[4].append(w.name)
                break
        else:
            out.append([1, w, w.cost, key, [w.name]])
    return [(n, w, total, weapon_label(names)) for n, w, total, _, names in out]


def weapon_label(names: list[str], shown: int = 2) -> str:
    """One name for weapons alike on one line: theirs where all share it; else the distinct names the builder or
    the parts gave them (not the numbered "gun 7"), a few and how many more ("Hinge Control Stick, Bar 4L
    Lightsaber Blade and 3 more"), so a line of 26 guns is not named for the first of them alone."""
    distinct = list(dict.fromkeys(names))
    if len(distinct) == 1:
        return distinct[0]
    named = [n for n in distinct if not re.fullmatch(r"[a-z]+ \d+", n)] or distinct
    more = len(distinct) - min(shown, len(named))
    return ", ".join(named[:shown]) + (f" and {more} more" if more else "")


def power_note(card) -> str:
    """Why the Power is what it is: halved flying in the air, or full in space and why [000 §8.1 Power Limits]
    (the text and the HTML cards say the same)."""
    if card.flying:
        why = f" ({card.space_reason})" if card.space_reason else ""
        return f"flying in the air{why}: halved [000 §8.1]"
    return f"in space: {card.space_reason}" if card.space else ""


def propulsion_text(n: int, p, total) -> str:
    """One propulsion line: 'thrust ×4: Thrust 5" each — 8 CP' or 'ground: Move 10" — 5 CP'."""
    what = f"Thrust {fmt(p.thrust_in)}\"" if p.thrust_in is not None else f"Move {fmt(p.move_in)}\""
    kind = p.type.replace("_", " ") + (f" ×{n}" if n > 1 else "")
    return f"{kind}: {what}{' each' if n > 1 else ''} — {fmt(total)} CP"


def _rows(card) -> list[tuple[str, str]]:
    c = card.creation
    rows = [("Kind", f"{c.kind} ({c.kind_reason})"),
            ("Size", f"{card.size} (measured {card.size_in:.2f}\")"),
            ("Structure Level", f"{fmt(card.structure_level)} — {card.sl_reason}"),
            ("Armor", card.armor),
            ("Weak points / Non-Structural", f"SL {fmt(card.weak_point_sl)}, Armor {card.weak_point_armor}"),
            ("Base Cost", f"{fmt(card.base_cost)} CP (Size × Structure Level) [000 §7.1]"),
            ("Power", f"{fmt(card.power)}\" per turn" + ("" if card.weapons_fit is None else
                                                        (", weapons fit" if card.weapons_fit else
                                                         ", weapons do NOT all fit")) +
             (f" ({power_note(card)})" if power_note(card) else ""))]
    if card.mind_cost:
        rows.append(("Mind", f"{fmt(card.mind_cost)} CP ({getattr(card, 'skill', '') or 'd6'})"))
    if getattr(card, "move_in", None) is not None:
        rows.append(("Move", f"{fmt(card.move_in)}\""))
    for s in getattr(card, "specialties", []):  # [000 §11.2 Minifig Specialists]
        rows.append(("Specialty", f"{s.label} ({s.specialty}) +{fmt(s.cost)} CP — {s.reason}"))
    for e in getattr(card, "extras", []):
        rows.append(("Extra", f"{e.name}: {fmt(e.cost)} CP — {e.reason}"))
    for n in getattr(card, "notes", []):
        rows.append(("Note", n))
    if getattr(card, "unit_inches", None) is not None:
        rows.append(("Unit Inches", f"{fmt(card.unit_inches)} Ű [000 §11.1 Military Budgets]"))
    rows.append(("Total", f"{fmt(card.total_cost)} CP (rounded up: {card.total_cost_rounded})"))
    return rows


def role_counts(card) -> dict[str, int]:
    """How many elements of the card's creation have each role."""
    out: dict[str, int] = {}
    for r in card.creation.roles.values():
        out[r.role] = out.get(r.role, 0) + 1
    return out


def _selected(analysis, include_all: bool):
    """The cards to print, the creations a player fields first (biggest first), then minifigs and the rest."""
    cards = [c for c in analysis.cards if include_all or c.creation.kind not in ("loose item", "scenery")]
    cards = cards or analysis.cards
    small = ("minifig", "loose item", "scenery")

    def order(c) -> tuple[int, int]:
        kind = c.creation.kind
        return (1 + small.index(kind), 0) if kind in small else (0, -len(c.creation.elements))
    return sorted(cards, key=order)  # stable: minifigs keep their file order


def card_html(analysis, include_all: bool = False, renders: bool = True) -> str:
    model = analysis.model
    face_rgb = role_face_rgb(model, analysis) if renders else None
    method = analysis.cards[0].size_method if analysis.cards else ""
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>brikscan stat cards</title><style>",
             "body{font-family:sans-serif;margin:1.5em;background:#fafafa}"
             ".card{background:#fff;border:2px solid #333;border-radius:8px;padding:1em;margin:1em 0;display:flex;"
             "gap:1.5em;flex-wrap:wrap}.card img{max-width:640px;border:1px solid #ccc}"
             "table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:3px 6px;text-align:left;"
             "vertical-align:top;font-size:14px}th{background:#eee}.legend span{display:inline-block;"
             "padding:2px 8px;margin:2px;color:#fff;border-radius:4px}details{margin-top:.5em}",
             "</style></head><body>",
             f"<h1>{html.escape(model.name)}</h1><p>Rules {html.escape(analysis.rules)}, "
             f"scale {analysis.ldu_per_inch:g} LDU per inch ({html.escape(analysis.scale)}), "
             f"rounding {html.escape(analysis.round_mode)}. Size: {html.escape(method)}.</p>",
             "<p class='legend'>Structural elements keep their colours, greyed; the others are tinted: "
             + "".join(f"<span style='background:rgb{ROLE_RGB[k]}'>{html.escape(k)}</span>" for k in ROLE_RGB)
             + "</p>"]
    for n, card in enumerate(_selected(analysis, include_all)):
        c = card.creation
        img = ""
        if renders and n < MAX_RENDERS:
            png = _png_bytes(model, c, face_rgb)
            if png:
                img = f"<img alt='render of {html.escape(c.name)}' src='data:image/png;base64,"\
                      f"{base64.b64encode(png).decode()}'>"
        rows = "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in _rows(card))
        wt = ""
        if card.weapons:
            wt = "<h3>Weapons</h3><table><tr><th>name</th><th>type</th><th>Size</th><th>Cost</th><th>Use</th>" \
                 "<th>Range</th><th>Damage</th><th>why</th></tr>" + "".join(
                     f"<tr><td>{html.escape(label)}{f' ×{n}' if n > 1 else ''}</td><td>{w.type}</td>"
                     f"<td>{fmt(w.size)}</td><td>{fmt(total)}{' (' + fmt(w.cost) + ' each)' if n > 1 else ''}</td>"
                     f"<td>{fmt(w.use)}</td><td>{fmt(w.range_in)}</td>"
                     f"<td>{html.escape(w.damage)}</td><td>{html.escape(w.reason + (' ' + w.notes if w.notes else ''))}"
                     f"</td></tr>" for n, w, total, label in grouped_weapons(card)) + "</table>"
        pt = ""
        if card.propulsion:
            pt = "<h3>Propulsion</h3><table><tr><th>type</th><th>elements</th><th>Move / Thrust</th><th>Cost</th>" \
                 "<th>why</th></tr>" + "".join(
                     f"<tr><td>{p.type}{f' ×{n}' if n > 1 else ''}</td><td>{len(els)}</td>"
                     f"<td>{'Thrust ' + fmt(p.thrust_in) if p.thrust_in is not None else 'Move ' + fmt(p.move_in)}"
                     f"\"{' each' if n > 1 else ''}</td><td>{fmt(total)}</td><td>{html.escape(p.reason)}</td></tr>"
                     for n, p, els, total in grouped_propulsion(card)) + "</table>"
        warn = "".join(f"<li>{html.escape(w)}</li>" for w in card.warnings)
        roles = "".join(
            f"<tr><td>{i}</td><td>{html.escape(model.elements[i].description or model.elements[i].part)}</td>"
            f"<td>{html.escape(c.roles[i].role)}</td><td>{html.escape(c.roles[i].reason)}</td></tr>"
            for i in c.elements[:400])
        counts = ", ".join(f"{k}: {v}" for k, v in sorted(role_counts(card).items()))
        parts.append(f"<div class='card'><div>{img}</div><div><h2>{html.escape(c.name)}</h2><table>{rows}</table>"
                     f"{wt}{pt}{'<h3>Warnings</h3><ul>' + warn + '</ul>' if warn else ''}"
                     f"<details><summary>Roles ({counts})</summary><table><tr><th>#</th><th>part</th><th>role</th>"
                     f"<th>reason</th></tr>{roles}</table></details></div></div>")
    skipped = len(analysis.cards) - len(_selected(analysis, include_all))
    if skipped:
        parts.append(f"<p>{skipped} loose item(s) not shown (use --all).</p>")
    parts.append("</body></html>")
    return "".join(parts)


def card_markdown(analysis, out: Path, include_all: bool = False, renders: bool = True) -> str:
    model = analysis.model
    face_rgb = role_face_rgb(model, analysis) if renders else None
    lines = [f"# {model.name}", "", f"Rules {analysis.rules}, scale {analysis.ldu_per_inch:g} LDU per inch "
                                    f"({analysis.scale}), rounding {analysis.round_mode}.", "",
             "Structural elements keep their colours, greyed; others are tinted: "
             + ", ".join(f"{k} rgb{v}" for k, v in ROLE_RGB.items()), ""]
    for n, card in enumerate(_selected(analysis, include_all)):
        c = card.creation
        lines += [f"## {c.name}", ""]
        if renders and n < MAX_RENDERS:
            png = _png_bytes(model, c, face_rgb)
            if png:
                pth = out.with_name(f"{out.stem}-{n + 1}.png")
                write_atomic(pth, png)
                lines += [f"![{c.name}]({pth.name})", ""]
        lines += ["| | |", "|---|---|"] + [f"| {k} | {v.replace('|', '/')} |" for k, v in _rows(card)] + [""]
        if card.weapons:
            lines += ["| weapon | type | Size | Cost | Use | Range | Damage |", "|---|---|---|---|---|---|---|"]
            lines += [f"| {w.name} | {w.type} | {fmt(w.size)} | {fmt(w.cost)} | {fmt(w.use)} | "
                      f"{fmt(w.range_in)} | {w.damage} |" for w in card.weapons] + [""]
        if card.propulsion:
            lines += ["| propulsion | elements | Move | Cost |", "|---|---|---|---|"]
            lines += [f"| {p.type} | {len(p.elements)} | {fmt(p.move_in)}\" | {fmt(p.cost)} |"
                      for p in card.propulsion] + [""]
        for w in card.warnings:
            lines.append(f"- warning: {w}")
        counts = ", ".join(f"{k}: {v}" for k, v in sorted(role_counts(card).items()))
        lines += ["", f"Roles: {counts}", ""]
        lines += [f"- {i} `{model.elements[i].part}` {c.roles[i].role}: {c.roles[i].reason}"
                  for i in c.elements[:200]] + [""]
    return "\n".join(lines) + "\n"


def write_card(analysis, out, include_all: bool = False, renders: bool = True) -> Path:
    """Write ``out`` (.html or .md) atomically; Markdown puts its PNGs beside it."""
    out = Path(out)
    suffix = out.suffix.lower()
    if suffix in (".html", ".htm"):
        text = card_html(analysis, include_all, renders)
    elif suffix == ".md":
        text = card_markdown(analysis, out, include_all, renders)
    else:
        raise UsageError(f"--card {out}: write .html or .md")
    write_atomic(out, text.encode("utf-8"))
    return out
