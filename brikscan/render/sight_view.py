"""Line of sight as a pyvista scene: the battlefield in its colours, sight lines, visible sections, labels.

Green lines run from the eyes to target points that can be seen; red lines stop where a brick blocks them.
Targets' visible sections are tinted yellow, hidden ones grey; a label at each target gives the modifier and
distance. The same scene goes to an interactive window, an off-screen PNG or a self-contained HTML page.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..battle.sight import LosResult, PairResult
from ..battle.units import SECTIONS
from .model_view import add_model, frame_camera, new_plotter, save_png

CLEAR_RGB = (20, 170, 40)
BLOCKED_RGB = (215, 30, 30)
VISIBLE_TINT = np.array([255, 215, 0])
HIDDEN_TINT = np.array([90, 90, 100])
MAX_LINES = 4000  # total sight lines drawn (sampled evenly per pair); the answers use every ray


def _face_rgb(battlefield, result: LosResult) -> np.ndarray:
    """LDraw colours, with the shown targets' visible sections tinted yellow and hidden ones grey."""
    mesh = battlefield.mesh
    rgb = battlefield.colours.rgb_array(mesh.face_colour).astype(np.float32)
    seen: dict[str, set[str]] = {}
    for p in result.pairs:
        s = seen.setdefault(p.target, set())
        s.update(p.sections_visible if p.sections_visible else (["body"] if p.visible else []))
    for t in result.targets:
        vis = seen.get(t.name, set())
        for sec, els in t.sections.items():
            if not els:
                continue
            mask = mesh.faces_of(els)
            tint = VISIBLE_TINT if sec in vis else HIDDEN_TINT
            rgb[mask] = 0.45 * rgb[mask] + 0.55 * tint
    return np.clip(rgb, 0, 255).astype(np.uint8)


def _pair_lines(result: LosResult, pairs: list[PairResult]) -> tuple[np.ndarray, np.ndarray]:
    """Segments (n,2,3) and their colours: eye -> point (clear) or eye -> blocking point (blocked)."""
    per = max(4, MAX_LINES // max(1, len(pairs)))
    segs, cols = [], []
    for p in pairs:
        idx = np.arange(p.rays.start, p.rays.stop)
        if len(idx) > per:
            idx = idx[np.linspace(0, len(idx) - 1, per).astype(int)]
        a = result.origins[idx]
        b = result.block_point[idx]
        segs.append(np.stack([a, b], axis=1))
        cols.append(np.where(result.blocked[idx][:, None], BLOCKED_RGB, CLEAR_RGB))
    if not segs:
        return np.zeros((0, 2, 3)), np.zeros((0, 3), np.uint8)
    return np.concatenate(segs), np.concatenate(cols).astype(np.uint8)


def label_text(p: PairResult) -> str:
    if not p.visible:
        what = "not visible (blind -5)"
    elif p.target_kind == "minifig":
        what = f"{'+'.join(p.sections_visible)}: {p.modifier:+d}"
    else:
        what = f"{p.visible_fraction:.0%} visible, {p.visible_extent_in:.1f}\": {p.modifier:+d}"
    return f"{p.viewer} -> {p.target}: {what}, {p.distance_in:.1f}\""


def sight_plotter(battlefield, result: LosResult, *, off_screen: bool, size=(1280, 900), edges: bool = True,
                  max_labels: int = 24, legend: bool = False):
    """A plotter holding the whole sight scene (the caller shows, screenshots or exports it)."""
    import pyvista as pv

    pl = new_plotter(off_screen, size)
    add_model(pl, battlefield, face_rgb=_face_rgb(battlefield, result), edges=edges)
    segs, cols = _pair_lines(result, result.pairs)
    if len(segs):
        n = len(segs)
        lines = np.empty((n, 3), dtype=np.int64)
        lines[:, 0] = 2
        lines[:, 1:] = np.arange(2 * n).reshape(n, 2)
        poly = pv.PolyData(segs.reshape(-1, 3).astype(np.float32), lines=lines.reshape(-1))
        poly.cell_data["rgb"] = cols
        pl.add_mesh(poly, scalars="rgb", rgb=True, line_width=2, lighting=False, show_scalar_bar=False)
    # eyes of the viewers
    eyes = np.array([u.eye_ldu for u in result.viewers]) if result.viewers else np.zeros((0, 3))
    if len(eyes):
        pl.add_points(eyes.astype(np.float32), color=(30, 60, 220), point_size=10, render_points_as_spheres=True)
    # labels: one per pair when few, else one per target with its best modifier
    pairs = result.pairs
    if len(pairs) > max_labels:
        best: dict[str, PairResult] = {}
        for p in pairs:
            if p.target not in best or p.modifier > best[p.target].modifier:
                best[p.target] = p
        pairs = list(best.values())[:max_labels]
    tpos = {t.name: _label_anchor(battlefield, t) for t in result.targets}
    if pairs:
        pts, texts = [], []
        stack: dict[str, int] = {}
        for p in pairs:
            k = stack.get(p.target, 0)
            stack[p.target] = k + 1
            pts.append(tpos[p.target] + np.array([0.0, -14.0 * k, 0.0]))
            texts.append(label_text(p))
        pl.add_point_labels(np.array(pts, dtype=np.float32), texts, font_size=12, point_size=1,
                            shape_opacity=0.6, always_visible=True, show_points=False)
    title = (f"{battlefield.name}: line of sight, {len(result.pairs)} pairs, {result.n_rays} rays "
             f"(green clear, red blocked; yellow = visible section)")
    pl.add_text(title, font_size=9, color="black")
    if legend and pairs:  # the labels again as plain text, for viewers that draw no 3D labels (the HTML page)
        lines = [label_text(p) for p in pairs[:12]] + ([f"… {len(pairs) - 12} more"] if len(pairs) > 12 else [])
        pl.add_text("\n".join(lines), position="lower_right", font_size=8, color="black")
    lo, hi = battlefield.bbox_ldu
    frame_camera(pl, lo, hi)
    return pl


def _label_anchor(battlefield, unit) -> np.ndarray:
    els = unit.elements
    lo = np.min([battlefield.elements[i].bbox_min for i in els], axis=0)
    hi = np.max([battlefield.elements[i].bbox_max for i in els], axis=0)
    return np.array([(lo[0] + hi[0]) / 2, lo[1] - 10.0, (lo[2] + hi[2]) / 2])


def render_sight_png(battlefield, result: LosResult, out: str | Path, size=(1280, 900)) -> Path:
    pl = sight_plotter(battlefield, result, off_screen=True, size=size)
    img = pl.screenshot(return_img=True)
    pl.close()
    return save_png(img, out)


def write_sight_html(battlefield, result: LosResult, out: str | Path) -> Path:
    """A self-contained page a player opens in a browser (rotate/zoom), via the shared HTML exporter."""
    from .html_export import write_html

    pl = sight_plotter(battlefield, result, off_screen=True, legend=True)
    try:
        return write_html(pl, out, title=f"{battlefield.name}: line of sight")
    finally:
        pl.close()


def show_sight(battlefield, result: LosResult) -> None:
    pl = sight_plotter(battlefield, result, off_screen=False)
    pl.show()


__all__ = ["sight_plotter", "render_sight_png", "write_sight_html", "show_sight", "label_text", "SECTIONS"]
