"""Attack options as a pyvista scene: the battlefield in its colours, each weapon's arc as a translucent cone
from its barrel end, and a line to every target coloured by the chance to hit (red none, yellow even, green sure).

A fixed or jointed weapon gets a cone (the 45° fudge about the direction its mount can turn the barrel to) for
each target in arc; a hand-held weapon turns with its minifig, so only its lines are drawn. With several
attackers only the first one's options are drawn (choose with --from), as the sight picture does.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..battle.attacks import AttackResult, percent
from .model_view import add_model, new_plotter, save_png, segments_polydata
from .sight_view import _add_2d_labels, _fit_points, _frame, _label_anchor, _set_attr

CONE_OPACITY = 0.18
IMPOSSIBLE_RGB = (120, 120, 120)
BARREL_RGB = (30, 60, 220)
MAX_ATTACKERS = 3  # more attackers than this: draw the first one's options only


@dataclass
class AttackSummary:
    """What an attack picture shows: for reports and tests."""

    attackers: list[str]
    cones: int
    lines: int
    labels: list[str] = field(default_factory=list)
    colours: list[tuple[int, int, int]] = field(default_factory=list)  # one per line
    title: str = ""


def chance_rgb(p: float) -> tuple[int, int, int]:
    """Red (no chance) through yellow (even) to green (sure)."""
    p = float(min(1.0, max(0.0, p)))
    if p < 0.5:
        t = p / 0.5
        return (215, int(30 + t * (200 - 30)), 30)
    t = (p - 0.5) / 0.5
    return (int(215 - t * (215 - 20)), int(200 - t * (200 - 170)), int(30 + t * 10))


def shown_attackers(result: AttackResult) -> list[str]:
    names: list[str] = []
    for o in result.options:
        if o.attacker not in names:
            names.append(o.attacker)
    return names if len(names) <= MAX_ATTACKERS else names[:1]


def attacks_plotter(battlefield, result: AttackResult, *, off_screen: bool, size=(1280, 900), legend: bool = False,
                    max_labels: int = 24):
    """A plotter with the battlefield, arcs as translucent cones and attack lines coloured by chance to hit."""
    import pyvista as pv

    pl = new_plotter(off_screen, size)
    add_model(pl, battlefield, edges=True)
    names = shown_attackers(result)
    opts = [o for o in result.options if o.attacker in names]
    lpi = battlefield.ldu_per_inch
    segs, cols = [], []
    cones = 0
    centres = {t.name: _label_anchor(battlefield, t) for t in battlefield.units}
    for o in opts:
        end = centres.get(o.target)
        if end is None:
            continue
        rgb = chance_rgb(o.p_hit) if o.possible else IMPOSSIBLE_RGB
        segs.append(np.stack([o.origin_ldu, end]))
        cols.append(rgb)
    # one cone per mounted weapon: the 45° fudge about the barrel, one Range long, turned by its mount toward
    # its best target (its built pose when nothing is in arc), coloured by that option's chance to hit
    fudge = math.radians(45.0)
    for w in result.weapons:
        if w.attacker.name not in names or w.tip is None or w.mount.kind == "held" or w.melee:
            continue
        mine = [o for o in opts if o.attacker == w.attacker.name and o.weapon == w.name and o.in_arc]
        best = max(mine, key=lambda o: o.p_hit, default=None)
        tip, d = (best.origin_ldu, best.aim_ldu) if best is not None else (w.tip, w.axis)
        rgb = chance_rgb(best.p_hit) if best is not None and best.possible else IMPOSSIBLE_RGB
        h = float((best.range_in if best is not None else None) or w.range_in or 6.0) * lpi
        d = np.asarray(d, float)
        cone = pv.Cone(center=tuple(np.asarray(tip) + d * h / 2), direction=tuple(-d), height=h,
                       radius=h * math.tan(fudge), resolution=48, capping=False)
        pl.add_mesh(cone, color=rgb, opacity=CONE_OPACITY, lighting=False, name=f"arc-{cones}")
        cones += 1
    if segs:
        pl.add_mesh(segments_polydata(np.array(segs), np.array(cols, np.uint8)), scalars="rgb", rgb=True,
                    line_width=4, lighting=False, show_scalar_bar=False, name="attack-lines")
    tips = np.array([o.origin_ldu for o in opts]) if opts else np.zeros((0, 3))
    if len(tips):
        pl.add_points(np.unique(tips.round(2), axis=0).astype(np.float32), color=BARREL_RGB, point_size=12,
                      render_points_as_spheres=True, name="barrel-ends")
    lo, hi = battlefield.bbox_ldu
    fit = _fit_points(battlefield)
    _frame(pl, lo, hi, np.vstack([fit, tips]) if len(tips) else fit)
    who = names[0] if len(names) == 1 else ", ".join(names)
    more = "; use --from to choose" if len(names) < len({o.attacker for o in result.options}) else ""
    title = (f"{battlefield.name}: attacks of {who}{more}\n{len(result.options)} options; cones = arcs (45° fudge), "
             f"lines coloured by chance to hit: red 0, yellow 50 %, green 100 %, grey impossible")
    if not legend:
        pl.add_text(title, position="upper_left", font_size=10, color="black")
    best: dict[str, object] = {}
    for o in opts:  # one label per target: its best option
        if o.target not in best or o.p_hit > best[o.target].p_hit:
            best[o.target] = o
    labelled = sorted(best.values(), key=lambda o: -o.p_hit)[:max_labels]
    who_of = (lambda o: f"{o.attacker} → ") if len(names) > 1 else (lambda o: "")
    texts = [f"{who_of(o)}{o.target}: {o.weapon} " + (f"needs {o.needed_roll}, {percent(o.p_hit)}" if o.possible
                                                      else "no") for o in labelled]
    if labelled and off_screen and not legend:
        anchors = np.array([centres[o.target] for o in labelled])
        _add_2d_labels(pl, anchors, texts, [tuple(c / 255 * 0.4 + 0.6 for c in
                                                  np.array(chance_rgb(o.p_hit) if o.possible else IMPOSSIBLE_RGB))
                                            for o in labelled], font_size=13, top_reserved=48)
    elif labelled and not legend:
        lines = texts[:16] + ([f"… {len(texts) - 16} more"] if len(texts) > 16 else [])
        pl.add_text("\n".join(lines), position="lower_right", font_size=9, color="black")
    if legend:  # the HTML page: the title, the colour key and scale, and the labels laid out by the page
        _set_attr(pl, "html_overlay", {
            "title": title.split("\n")[0],
            "keys": [(None, "cones: arcs (the 45° fudge about the barrel) [000 §8.2]"),
                     (IMPOSSIBLE_RGB, "cannot fire (out of arc or reach)"), (BARREL_RGB, "barrel ends"),
                     (None, f"{len(result.options)} options")],
            "scale": {"title": "chance to hit", "stops": [list(chance_rgb(p)) for p in (0, 0.25, 0.5, 0.75, 1)],
                      "ticks": ["0 %", "50 %", "100 %"]},
            "labels": [{"text": t, "at": [[round(float(v), 2) for v in centres[o.target]]],
                        "fill": [int(c * 0.4 + 255 * 0.6) for c in (chance_rgb(o.p_hit) if o.possible
                                                                    else IMPOSSIBLE_RGB)]}
                       for o, t in zip(labelled, texts)]})
    _set_attr(pl, "attack_summary", AttackSummary(list(names), cones, len(segs), texts, list(cols), title))
    return pl


def render_attacks_png(battlefield, result: AttackResult, out: str | Path, size=(1280, 900)) -> Path:
    pl = attacks_plotter(battlefield, result, off_screen=True, size=size)
    try:
        img = pl.screenshot(return_img=True)
    finally:
        pl.close()
    return save_png(img, out)


def write_attacks_html(battlefield, result: AttackResult, out: str | Path) -> Path:
    """A self-contained page (rotate/zoom) via the shared HTML exporter."""
    from .html_export import write_html

    pl = attacks_plotter(battlefield, result, off_screen=True, legend=True)
    try:
        return write_html(pl, out, title=f"{battlefield.name}: attack options",
                          overlay=getattr(pl, "html_overlay", None))
    finally:
        pl.close()
