"""A big table drawn like rich's default table, without rich's per-cell layout work.

Why: ``los`` of 30 units prints 870 rows; rich measures and wraps every cell and takes about a second for that
(a tenth of the whole command on a 5,000-element model). Plain text cells need only their lengths. The look is
rich's (``box.HEAVY_HEAD``, title centred above); a table wider than the terminal shortens its widest wrapping
column with "…" instead of wrapping it.
"""
from __future__ import annotations

import shutil
import sys


def render(title: str, columns: list[str], rows: list[list[str]], *, width: int | None = None,
           wrap: tuple[str, ...] = ()) -> str:
    """The table as text. ``wrap``: the columns that may be shortened to fit ``width`` (default: the terminal)."""
    if width is None:
        width = shutil.get_terminal_size((140, 24)).columns if sys.stdout.isatty() else 140
    w = [len(c) for c in columns]
    for r in rows:
        for k, cell in enumerate(r):
            if len(cell) > w[k]:
                w[k] = len(cell)
    total = sum(w) + 3 * len(w) + 1
    for k in sorted((columns.index(c) for c in wrap if c in columns), key=lambda k: -w[k]):
        if total <= width:
            break
        cut = min(total - width, w[k] - max(len(columns[k]), 8))
        if cut > 0:
            w[k] -= cut
            total -= cut

    def fit(cell: str, k: int) -> str:
        return cell if len(cell) <= w[k] else cell[:max(0, w[k] - 1)] + "…"

    def line(left: str, fill: str, mid: str, right: str) -> str:
        return left + mid.join(fill * (x + 2) for x in w) + right

    out = [title.center(total).rstrip()] if title else []
    out.append(line("┏", "━", "┳", "┓"))
    out.append("┃" + "┃".join(f" {c.ljust(w[k])} " for k, c in enumerate(columns)) + "┃")
    out.append(line("┡", "━", "╇", "┩"))
    for r in rows:
        out.append("│" + "│".join(f" {fit(c, k).ljust(w[k])} " for k, c in enumerate(r)) + "│")
    out.append(line("└", "─", "┴", "┘"))
    return "\n".join(out)
