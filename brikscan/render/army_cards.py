"""Printable poker-size (63 × 88 mm) stat cards for an army: one per creation or group of identical minifigs,
each with a render in LDraw colours, nine to an A4 page; print CSS for a browser, and a PDF by Chromium's
print-to-PDF (the same HTML, so the page a browser prints and the PDF are one layout: see docs/army.md).
"""
from __future__ import annotations

import base64
import html
import os
import shutil
import subprocess
import tempfile
from pathlib import Path


from ..errors import UsageError
from ..geometry.cache import write_atomic
from .stat_card import fmt

CARD_W_MM, CARD_H_MM = 63, 88  # poker size
PER_PAGE = 9  # 3 × 3 on A4 (189 × 264 mm inside 8 mm margins)
MAX_RENDERS = 60
MAX_ROWS = 8  # item rows that fit under the picture; alike rows merge (×N), the rest is "+N more"
CHROMIUM = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

CSS = f"""
@page {{ size: A4; margin: 8mm; }}
* {{ box-sizing: border-box; }}
body {{ margin: 0; font-family: "DejaVu Sans", Arial, sans-serif; color: #111; background: #ddd; }}
.page {{ display: grid; grid-template-columns: repeat(3, {CARD_W_MM}mm); grid-auto-rows: {CARD_H_MM}mm;
        gap: 0; width: {3 * CARD_W_MM}mm; margin: 0 auto; break-after: page; page-break-after: always; }}
.page:last-child {{ break-after: auto; page-break-after: auto; }}
.card {{ width: {CARD_W_MM}mm; height: {CARD_H_MM}mm; border: 0.3mm dashed #888; padding: 2.2mm; overflow: hidden;
        background: #fff; display: flex; flex-direction: column; break-inside: avoid; page-break-inside: avoid; }}
.frame {{ border: 0.6mm solid #222; border-radius: 2.5mm; flex: 1; display: flex; flex-direction: column;
         overflow: hidden; }}
.title {{ background: #222; color: #fff; font-weight: bold; font-size: 8.5pt; padding: 0.8mm 1.5mm;
         display: flex; justify-content: space-between; gap: 1mm; }}
.title .n {{ color: #ffd23f; }}
.sub {{ font-size: 5.6pt; padding: 0.3mm 1.5mm; color: #444; border-bottom: 0.2mm solid #bbb; }}
.pic {{ height: 30mm; display: flex; align-items: center; justify-content: center; background: #f4f4f4; }}
.pic img {{ max-width: 100%; max-height: 30mm; }}
.pic .none {{ font-size: 6pt; color: #999; }}
.stats {{ display: grid; grid-template-columns: repeat(6, 1fr); text-align: center; border-bottom: 0.2mm solid #bbb; }}
.stats div {{ font-size: 5.2pt; color: #555; padding: 0.4mm 0; }}
.stats b {{ display: block; font-size: 8pt; color: #000; }}
table {{ border-collapse: collapse; width: 100%; font-size: 5.4pt; }}
td, th {{ padding: 0.2mm 0.6mm; text-align: left; vertical-align: top; border-bottom: 0.1mm solid #ddd; }}
th {{ color: #555; font-weight: normal; }}
.body {{ flex: 1 1 auto; min-height: 0; overflow: hidden; }}
.notes {{ font-size: 5pt; padding: 0.5mm 1.5mm; color: #333; }}
.warn {{ color: #a40000; }}
.foot {{ flex: 0 0 auto; font-size: 5pt; color: #666; padding: 0.4mm 1.5mm; border-top: 0.2mm solid #bbb;
        display: flex; justify-content: space-between; }}
@media screen {{ .page {{ margin: 6mm auto; box-shadow: 0 0 3mm #999; background: #fff; }} }}
@media print {{ body {{ background: #fff; }} .card {{ border-color: #bbb; }} }}
"""


def render_png(model, elements, size=(480, 330)) -> bytes | None:
    """Off-screen render of some elements in their LDraw colours; None when no OpenGL is available."""
    from .model_view import elements_png

    return elements_png(model, elements, size)


def _e(x) -> str:
    return html.escape(str(x))


def card_html(group, model, png: bytes | None) -> str:
    """One poker-size card for a group of identical creations (×N)."""
    card = group.card
    c = card.creation
    e0 = group.entries[0]
    n = f"<span class='n'>×{group.count}</span>" if group.count > 1 else ""
    pic = (f"<img alt='render of {_e(c.name)}' src='data:image/png;base64,{base64.b64encode(png).decode()}'>"
           if png else "<span class='none'>(no render)</span>")
    move = card.move_in if card.move_in is not None else next((p.move_in for p in card.propulsion if p.move_in),
                                                              None)
    stats = [("Size", card.size), ("SL", fmt(card.structure_level)), ("Armor", card.armor),
             ("Move", f"{fmt(move)}\"" if move is not None else "—"), ("Skill", card.skill or "—"),
             ("CP", fmt(float(card.total_cost)))]
    rows: dict[tuple, int] = {}  # alike items (four deck cannons) are one row ×N
    for w in card.weapons:
        rng = "CC" if w.range_in is None else f"{fmt(w.range_in)}\""
        label = w.category.replace("_", " ") if w.category else f"{w.type} {fmt(w.size)}"
        name = w.name if w.category else label
        key = (name, label if w.category else "", fmt(w.use), rng, w.damage or "—", fmt(w.cost))
        rows[key] = rows.get(key, 0) + 1
    for p in card.propulsion:
        if p.cost:
            how = f"{fmt(p.move_in)}\"" if p.move_in else (f"T{fmt(p.thrust_in)}\"" if p.thrust_in else "")
            k = (f"{p.type} propulsion", "", "", how, "", fmt(p.cost))
            rows[k] = rows.get(k, 0) + 1
    for sp in card.specialties:
        rows[(f"{sp.label}: {sp.specialty}", "", "", "", "", fmt(sp.cost))] = 1
    for x in card.extras:
        k = (x.name, "", "", "", x.damage, fmt(x.cost))
        rows[k] = rows.get(k, 0) + 1
    items = list(rows.items())
    more = len(items) - MAX_ROWS if len(items) > MAX_ROWS else 0
    html_rows = []
    for (name, label, use, rng, dmg, cost), k in items[:MAX_ROWS - (1 if more else 0)]:
        times = f" ×{k}" if k > 1 else ""
        sub = f"<br><i>{_e(label)}</i>" if label else ""
        html_rows.append(f"<tr><td>{_e(name)}{times}{sub}</td><td>{use}</td><td>{rng}</td><td>{_e(dmg)}</td>"
                         f"<td>{cost}{'×' + str(k) if k > 1 else ''}</td></tr>")
    if more:
        html_rows.append(f"<tr><td colspan='5'><i>+{more + 1} more on the stat card (brikscan stats)</i></td></tr>")
    rows = html_rows
    table = ("<table><tr><th>item</th><th>Use</th><th>Rng</th><th>Dmg</th><th>CP</th></tr>" + "".join(rows)
             + "</table>") if rows else ""
    notes = "".join(f"<div>{_e(x)}</div>" for x in card.notes[:3])
    warns = "".join(f"<div class='warn'>⚠ {_e(x)}</div>" for x in card.warnings[:2])
    side = f" · side {e0.side}" if e0.side else ""
    riders = list(getattr(card, "riders", []))  # the mount with its rider [000 ch.H]
    if card.mounted_on:
        side += f" · rides {card.mounted_on}"
    elif riders:
        side += " · ridden by " + ", ".join(riders)
    names = ", ".join(e.name for e in group.entries[:6]) + (" …" if group.count > 6 else "")
    return (f"<div class='card'><div class='frame'><div class='title'><span>{_e(c.name)}</span>{n}</div>"
            f"<div class='sub'>{_e(c.kind)}{_e(side)} · {_e(Path(e0.model).stem)}</div>"
            f"<div class='pic'>{pic}</div><div class='stats'>"
            + "".join(f"<div><b>{_e(v)}</b>{_e(k)}</div>" for k, v in stats) + "</div>"
            f"<div class='body'>{table}<div class='notes'>{notes}{warns}</div></div>"
            f"<div class='foot'><span>{_e(names) if group.count > 1 else ''}</span>"
            f"<span>{fmt(float(card.unit_inches or 0))} Ű each · {fmt(float(card.total_cost) * group.count)} CP"
            f"</span></div></div></div>")


def cards_html(army, renders: bool = True) -> str:
    """The army's cards as one printable page (nine per A4 sheet)."""
    models = {f: a.model for f, _, a in army.analyses}
    groups = army.groups()
    cards = []
    for k, g in enumerate(groups):
        e = g.entries[0]
        png = render_png(models[e.model], e.card.creation.elements) if renders and k < MAX_RENDERS else None
        cards.append(card_html(g, models[e.model], png))
    pages = ["<div class='page'>" + "".join(cards[i:i + PER_PAGE]) + "</div>"
             for i in range(0, len(cards), PER_PAGE)] or ["<div class='page'></div>"]
    title = f"brikscan army: {fmt(army.total_cp)} CP, {fmt(army.unit_inches)} Ű"
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{_e(title)}</title><style>{CSS}</style>"
            f"</head><body>{''.join(pages)}</body></html>")


def find_chromium() -> str | None:
    for name in CHROMIUM:
        p = shutil.which(name)
        if p:
            return p
    return None


def html_to_pdf(html_text: str, out: Path, timeout: float = 120.0) -> Path:
    """Chromium's headless print-to-PDF of the page (A4 from the @page rule, no header or footer)."""
    exe = find_chromium()
    if exe is None:
        raise UsageError("--cards .pdf needs Chromium (chromium or google-chrome on PATH); write .html and print "
                         "it from a browser instead")
    out = Path(out)
    with tempfile.TemporaryDirectory(prefix="brikscan-cards-") as tmp:
        page = Path(tmp) / "cards.html"
        page.write_text(html_text, encoding="utf-8")
        pdf = Path(tmp) / "cards.pdf"
        cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
               "--print-to-pdf-no-header", f"--user-data-dir={tmp}/profile", f"--print-to-pdf={pdf}",
               page.as_uri()]
        try:
            subprocess.run(cmd, check=False, capture_output=True, timeout=timeout,
                           env={**os.environ, "HOME": tmp})
        except subprocess.TimeoutExpired:
            raise UsageError(f"Chromium did not finish the PDF within {timeout:g} s", file=str(out)) from None
        if not pdf.exists() or pdf.stat().st_size == 0:
            raise UsageError("Chromium wrote no PDF", file=str(out))
        write_atomic(out, pdf.read_bytes())
    return out


def write_cards(army, out, renders: bool = True) -> Path:
    """``--cards out.html`` (print from a browser) or ``out.pdf`` (Chromium print-to-PDF)."""
    out = Path(out)
    text = cards_html(army, renders)
    if out.suffix.lower() == ".pdf":
        return html_to_pdf(text, out)
    if out.suffix.lower() not in (".html", ".htm"):
        raise UsageError(f"--cards {out}: write .html or .pdf")
    write_atomic(out, text.encode("utf-8"))
    return out
