"""Line of sight as a pyvista scene: the battlefield in its colours, sight lines, visible sections, labels.

The battlefield is drawn as ``model_view`` draws a model: LDraw colours, part outlines, framed to fill the
image. On top of it go the rays of the pairs shown: green lines run from the eyes to target points that can be
seen, red lines stop where a brick blocks them. Only the shown targets are marked, and without recolouring the
model: a minifig's visible sections get a translucent yellow overlay, a visible creation a yellow box, a target
that cannot be seen at all a red box. A short label at each target gives sections/visible fraction, modifier
and distance (the long details stay in the table). With several viewers the picture shows the rays of one
(the first) unless ``all_rays``: then every pair, with a few rays each. The same scene goes to an interactive
window, an off-screen PNG or a self-contained HTML page.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..battle.sight import LosResult, PairResult
from ..battle.units import SECTIONS
from ..geometry.boxes import elements_box
from .model_view import (_fit_points, add_model, box_corners, frame_camera, new_plotter, save_png,
                         segments_polydata, tris_polydata)

CLEAR_RGB = (20, 170, 40)
BLOCKED_RGB = (215, 30, 30)
VISIBLE_TINT = np.array([255, 215, 0])  # overlay on visible sections, box round visible creations
NOT_VISIBLE_RGB = (225, 20, 20)  # box round a target that cannot be seen
EYE_RGB = (30, 60, 220)
MAX_LINES = 4000  # total sight lines drawn (sampled evenly per pair); the answers use every ray
RAYS_PER_PAIR = 60  # one viewer: rays drawn per pair
ALL_RAYS_PER_PAIR = 20  # --all-rays: rays drawn per pair
OVERLAY_OPACITY = 0.35
_OVERLAY_GROW = 1.06  # the section overlay is scaled up about its centre so it does not fight the faces


@dataclass
class SightSummary:
    """What a sight picture shows: for reports and tests."""

    viewers: list[str]  # viewers whose rays are drawn
    pairs: list[tuple[str, str]]  # (viewer, target) pairs drawn
    segments: int  # ray line segments drawn
    segment_viewers: list[str] = field(default_factory=list)  # the viewer of each drawn segment
    labels: list[str] = field(default_factory=list)
    title: str = ""


def shown_pairs(result: LosResult, all_rays: bool = False) -> tuple[list[PairResult], list[str]]:
    """The pairs a picture draws and their viewers: one viewer (the first) unless ``all_rays``."""
    if all_rays or len(result.viewers) <= 1:
        return list(result.pairs), [u.name for u in result.viewers]
    first = result.viewers[0].name
    return [p for p in result.pairs if p.viewer == first], [first]


def _pair_lines(result: LosResult, pairs: list[PairResult], per_pair: int | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
    """Segments (n,2,3) and their colours: eye -> point (clear) or eye -> blocking point (blocked).

    At most ``per_pair`` rays per pair (default: ``MAX_LINES`` shared), picked evenly: deterministic.
    """
    per = _rays_cap(len(pairs), per_pair)
    segs, cols = [], []
    for p in pairs:
        idx = np.arange(p.rays.start, p.rays.stop)
        if len(idx) > per:
            idx = idx[np.linspace(0, len(idx) - 1, per).round().astype(int)]
        a = result.origins[idx]
        b = result.block_point[idx]
        segs.append(np.stack([a, b], axis=1))
        cols.append(np.where(result.blocked[idx][:, None], BLOCKED_RGB, CLEAR_RGB))
    if not segs:
        return np.zeros((0, 2, 3)), np.zeros((0, 3), np.uint8)
    return np.concatenate(segs), np.concatenate(cols).astype(np.uint8)


def _rays_cap(n_pairs: int, per_pair: int | None) -> int:
    """Rays drawn per pair: ``per_pair`` (default no limit), and ``MAX_LINES`` shared over the pairs."""
    share = max(4, MAX_LINES // max(1, n_pairs))
    return max(1, min(per_pair, share)) if per_pair is not None else share


def short_label(p: PairResult, with_viewer: bool = False) -> str:
    """The label next to a target: "→ archer: head+torso, -1, 13.4\"" (the viewer's name too if asked)."""
    if not p.visible:
        what = "not visible"
    elif p.target_kind == "minifig":
        what = "+".join(p.sections_visible)
    else:
        what = f"{p.visible_fraction:.0%} visible"
    head = f"{p.viewer} → {p.target}" if with_viewer else f"→ {p.target}"
    return f"{head}: {what}, {p.modifier:+d}, {p.distance_in:.1f}\""


def _box_segments(lo: np.ndarray, hi: np.ndarray, pad: float, bracket: float = 0.5) -> np.ndarray:
    lo = np.asarray(lo, dtype=float) - pad
    hi = np.asarray(hi, dtype=float) + pad
    c = box_corners(lo, hi)
    edges = [(0, 1), (2, 3), (4, 5), (6, 7), (0, 2), (1, 3), (4, 6), (5, 7), (0, 4), (1, 5), (2, 6), (3, 7)]
    if bracket >= 0.5:
        return np.array([[c[a], c[b]] for a, b in edges])
    out = []
    for a, b in edges:  # corner brackets: the first and last ``bracket`` of each edge
        d = c[b] - c[a]
        out += [[c[a], c[a] + d * bracket], [c[b] - d * bracket, c[b]]]
    return np.array(out)


def _add_target_marks(pl, battlefield, result: LosResult, pairs: list[PairResult]) -> None:
    """Visible minifig sections: translucent yellow overlay; visible creations: yellow box; unseen: red box."""
    seen: dict[str, set[str]] = {}
    for p in pairs:
        s = seen.setdefault(p.target, set())
        s.update(p.sections_visible if p.sections_visible else (["body"] if p.visible else []))
    mesh = battlefield.mesh
    overlay_tris: list[np.ndarray] = []
    box_segs: list[np.ndarray] = []
    box_rgb: list[np.ndarray] = []
    for t in result.targets:
        if t.name not in seen or not t.elements:
            continue
        vis = seen[t.name]
        lo, hi = elements_box(battlefield.elements, t.elements)
        pad = 4.0 if t.is_minifig else 6.0
        if not vis:
            b = _box_segments(lo, hi, pad)
        elif not t.is_minifig:
            b = _box_segments(lo, hi, pad, bracket=0.2)
        else:
            b = None
            for sec in SECTIONS:
                els = t.sections.get(sec) or []
                if sec not in vis or not els:
                    continue
                tris = mesh.triangles[mesh.faces_of(els)].astype(np.float64)
                if len(tris):
                    c = tris.reshape(-1, 3).mean(axis=0)
                    overlay_tris.append(c + (tris - c) * _OVERLAY_GROW)
        if b is not None:
            box_segs.append(b)
            box_rgb.append(np.tile(np.asarray(NOT_VISIBLE_RGB if not vis else VISIBLE_TINT, dtype=np.uint8),
                                   (len(b), 1)))
    if overlay_tris:
        pl.add_mesh(tris_polydata(np.concatenate(overlay_tris)), color=tuple(int(v) for v in VISIBLE_TINT), opacity=OVERLAY_OPACITY, lighting=False,
                    show_scalar_bar=False, name="sight-visible-sections")
    if box_segs:
        pl.add_mesh(segments_polydata(np.concatenate(box_segs), np.concatenate(box_rgb)), scalars="rgb", rgb=True,
                    line_width=3, lighting=False, show_scalar_bar=False, name="sight-target-boxes")


def _project(pl, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """World points -> display pixels (x right, y up from the bottom) for the plotter's current camera."""
    from .label_layout import project

    xy = project(pl, pts, behind="clamp")
    return xy[:, 0], pl.window_size[1] - xy[:, 1]


_LABEL_FONTS = ("/usr/share/fonts/truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
                "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")


def _label_property(font_size: int):
    """Text property of the labels: DejaVu (it has the arrow) when installed, else VTK's own Arial."""
    import vtk

    tp = vtk.vtkTextProperty()
    tp.SetFontSize(font_size)
    tp.SetColor(0.05, 0.05, 0.05)
    tp.SetBold(True)
    tp.SetBackgroundOpacity(0.85)
    tp.SetFrame(True)
    tp.SetFrameColor(0.3, 0.3, 0.3)
    tp.SetFrameWidth(1)
    font = next((f for f in _LABEL_FONTS if Path(f).is_file()), None)
    if font:
        tp.SetFontFamily(vtk.VTK_FONT_FILE)
        tp.SetFontFile(font)
    return tp, font is not None


def _add_2d_labels(pl, anchors: np.ndarray, texts: list[str], colours: list[tuple], font_size: int,
                   top_reserved: int) -> None:
    """Labels as 2D text boxes next to their targets, kept inside the image and off each other.

    They go on a renderer layer above the scene, with a thin leader line from the target to its box.
    """
    import vtk

    w, h = pl.window_size
    ax, ay = _project(pl, anchors)
    base, has_arrow = _label_property(font_size)
    if not has_arrow:
        texts = [t.replace("→", "->") for t in texts]
    measure = vtk.vtkTextRenderer()
    placed: list[tuple[float, float, float, float]] = []
    boxes: dict[int, tuple[float, float, float, float]] = {}
    for i in np.argsort(-ay, kind="stable"):  # top first
        bb = [0, 0, 0, 0]
        if not measure.GetBoundingBox(base, texts[i], bb, 72):
            bb = [0, int(0.62 * font_size * len(texts[i])), 0, font_size]
        bw, bh = float(bb[1] - bb[0] + 6), float(bb[3] - bb[2] + 6)
        x = ax[i] + 12
        if x + bw > w - 4:  # no room on the right: put it on the left of the target
            x = ax[i] - 12 - bw
        x = float(np.clip(x, 4, max(4, w - bw - 4)))
        y0 = float(np.clip(ay[i] + 8, 4, h - top_reserved - bh))
        y = y0
        for k in range(80):  # nearest free slot, alternately above and below
            off = ((k + 1) // 2) * (bh + 3) * (1 if k % 2 else -1)
            y = float(np.clip(y0 + off, 4, h - top_reserved - bh))
            if not any(x < px + pw and px < x + bw and y < py + ph and py < y + bh for px, py, pw, ph in placed):
                break
        placed.append((x, y, bw, bh))
        boxes[int(i)] = (x, y, bw, bh)
    # a renderer layer above the scene, so nothing of the 3D scene covers a label
    top = vtk.vtkRenderer()
    top.SetLayer(1)
    top.InteractiveOff()
    win = pl.render_window
    win.SetNumberOfLayers(max(2, win.GetNumberOfLayers()))
    win.AddRenderer(top)
    pts = vtk.vtkPoints()
    cells = vtk.vtkCellArray()
    for i, (x, y, bw, bh) in boxes.items():
        lx = min(max(ax[i], x), x + bw)
        ly = min(max(ay[i], y), y + bh)
        if np.hypot(lx - ax[i], ly - ay[i]) < 3:
            continue
        a = pts.InsertNextPoint(float(ax[i]), float(ay[i]), 0.0)
        b = pts.InsertNextPoint(float(lx), float(ly), 0.0)
        line = vtk.vtkLine()
        line.GetPointIds().SetId(0, a)
        line.GetPointIds().SetId(1, b)
        cells.InsertNextCell(line)
    if cells.GetNumberOfCells():
        poly = vtk.vtkPolyData()
        poly.SetPoints(pts)
        poly.SetLines(cells)
        mapper = vtk.vtkPolyDataMapper2D()
        mapper.SetInputData(poly)
        actor = vtk.vtkActor2D()
        actor.SetMapper(mapper)
        actor.GetProperty().SetColor(0.1, 0.1, 0.1)
        actor.GetProperty().SetLineWidth(1.5)
        top.AddViewProp(actor)
    for i, (x, y, bw, bh) in boxes.items():
        ta = vtk.vtkTextActor()
        ta.SetInput(texts[i])
        ta.SetDisplayPosition(int(x + 3), int(y + 3))
        tp = ta.GetTextProperty()
        tp.ShallowCopy(base)
        tp.SetBackgroundColor(*colours[i])
        top.AddViewProp(ta)
    # the anchor of each label: a small dot on the target
    if boxes:
        dots = vtk.vtkPoints()
        verts = vtk.vtkCellArray()
        for i in boxes:
            verts.InsertNextCell(1)
            verts.InsertCellPoint(dots.InsertNextPoint(float(ax[i]), float(ay[i]), 0.0))
        dp = vtk.vtkPolyData()
        dp.SetPoints(dots)
        dp.SetVerts(verts)
        dm = vtk.vtkPolyDataMapper2D()
        dm.SetInputData(dp)
        da = vtk.vtkActor2D()
        da.SetMapper(dm)
        da.GetProperty().SetColor(0.1, 0.1, 0.1)
        da.GetProperty().SetPointSize(5)
        top.AddViewProp(da)


def _label_pairs(pairs: list[PairResult], max_labels: int) -> list[PairResult]:
    """One label per pair when few, else one per target with its best modifier."""
    if len(pairs) <= max_labels:
        return pairs
    best: dict[str, PairResult] = {}
    for p in pairs:
        if p.target not in best or p.modifier > best[p.target].modifier:
            best[p.target] = p
    return list(best.values())[:max_labels]


def _label_colour(p: PairResult) -> tuple[float, float, float]:
    if not p.visible:
        return (1.0, 0.78, 0.78)  # pale red
    return (1.0, 0.95, 0.6)  # pale yellow


def sight_plotter(battlefield, result: LosResult, *, off_screen: bool, size=(1280, 900), edges: bool = True,
                  max_labels: int = 24, legend: bool = False, all_rays: bool = False):
    """A plotter holding the whole sight scene (the caller shows, screenshots or exports it).

    With several viewers only the first one's rays are drawn unless ``all_rays`` (then at most
    ``ALL_RAYS_PER_PAIR`` per pair). ``pl.sight_summary`` (a SightSummary) says what was drawn.
    """
    pl = new_plotter(off_screen, size)
    add_model(pl, battlefield, edges=edges)  # the battlefield in its LDraw colours, as `view` draws it
    pairs, viewer_names = shown_pairs(result, all_rays)
    several = len(result.viewers) > 1
    per_pair = ALL_RAYS_PER_PAIR if (all_rays and several) else RAYS_PER_PAIR
    segs, cols = _pair_lines(result, pairs, per_pair)
    seg_viewers: list[str] = []
    for p in pairs:
        n = min(p.rays.stop - p.rays.start, _rays_cap(len(pairs), per_pair))
        seg_viewers.extend([p.viewer] * n)
    if len(segs):
        pl.add_mesh(segments_polydata(segs, cols), scalars="rgb", rgb=True, line_width=1.5, lighting=False,
                    show_scalar_bar=False, name="sight-rays")
    _add_target_marks(pl, battlefield, result, pairs)
    by_name = {u.name: u for u in result.viewers}
    # the marker sits where the drawn rays start: the eyes, or the barrel end with --origin barrel
    starts = {p.viewer: p.origin_ldu for p in pairs if p.origin_ldu is not None}
    eyes = np.array([starts.get(n, by_name[n].eye_ldu) for n in viewer_names if n in by_name]) \
        if viewer_names else np.zeros((0, 3))
    if len(eyes):
        pl.add_points(eyes.astype(np.float32), color=EYE_RGB, point_size=12, render_points_as_spheres=True,
                      name="sight-eyes")

    # frame on the battlefield geometry (and the eyes), as model_view frames a model
    lo, hi = battlefield.bbox_ldu
    fit = _fit_points(battlefield)
    _frame(pl, lo, hi, np.vstack([fit, eyes]) if len(eyes) else fit)

    # title: what is drawn, and how to choose
    if len(viewer_names) == 1 and several:
        what = f"rays from {viewer_names[0]}; use --from/--to to choose"
    elif len(viewer_names) == 1:
        what = f"rays from {viewer_names[0]}"
    else:
        what = f"rays of all {len(pairs)} pairs (at most {per_pair} each)"
    title = (f"{battlefield.name}: {what}\n{len(result.pairs)} pairs, {result.n_rays} rays computed; green clear, "
             f"red blocked; yellow = visible section/target, red box = not visible")
    if not legend:
        pl.add_text(title, position="upper_left", font_size=10, color="black")

    labelled = _label_pairs(pairs, max_labels)
    with_viewer = len(viewer_names) > 1
    texts = [short_label(p, with_viewer) for p in labelled]
    tpos = {t.name: _label_anchor(battlefield, t) for t in result.targets}
    if labelled and off_screen and not legend:  # the PNG: 2D boxes placed inside the image
        _add_2d_labels(pl, np.array([tpos[p.target] for p in labelled]), texts,
                       [_label_colour(p) for p in labelled], font_size=13, top_reserved=48)
    elif labelled and not legend:  # the interactive window: labels that follow the camera
        pts = []
        stack: dict[str, int] = {}
        for p in labelled:
            k = stack.get(p.target, 0)
            stack[p.target] = k + 1
            pts.append(tpos[p.target] + np.array([0.0, -14.0 * k, 0.0]))
        pl.add_point_labels(np.array(pts, dtype=np.float32), texts, font_size=12, point_size=1,
                            shape_opacity=0.6, always_visible=True, show_points=False)
    if legend:  # the HTML page: the title, a colour key and the labels, laid out by the page itself
        _set_attr(pl, "html_overlay", {
            "title": title.split("\n")[0],
            "keys": [(CLEAR_RGB, "clear ray"), (BLOCKED_RGB, "blocked ray (stops at the brick)"),
                     (tuple(int(v) for v in VISIBLE_TINT), "visible section (overlay) / creation (corners)"),
                     (NOT_VISIBLE_RGB, "target not visible (box)"), (EYE_RGB, "viewer's eyes"),
                     (None, f"{len(result.pairs)} pairs, {result.n_rays} rays computed")],
            "labels": [{"text": t, "at": [[round(float(v), 2) for v in tpos[p.target]]],
                        "fill": [int(255 * c) for c in _label_colour(p)]} for p, t in zip(labelled, texts)]})
    summary = SightSummary(viewers=list(viewer_names), pairs=[(p.viewer, p.target) for p in pairs],
                           segments=len(segs), segment_viewers=seg_viewers, labels=texts, title=title)
    _set_attr(pl, "sight_summary", summary)
    return pl


def _set_attr(pl, name: str, value) -> None:
    """pyvista >= 0.45 refuses new public attributes on a Plotter unless asked."""
    import pyvista as pv

    if hasattr(pv, "set_new_attribute"):
        pv.set_new_attribute(pl, name, value)
    else:
        setattr(pl, name, value)


def _yaw(deg: float) -> np.ndarray:
    a = np.radians(deg)
    return np.array([[np.cos(a), 0.0, np.sin(a)], [0.0, 1.0, 0.0], [-np.sin(a), 0.0, np.cos(a)]])


def _coverage(pl, pts: np.ndarray, grid=(48, 34)) -> float:
    """Rough share of the image the points cover: occupied cells of a coarse grid over the projected points."""
    w, h = pl.window_size
    x, y = _project(pl, pts)
    ok = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    cells = np.unique((x[ok] * grid[0] / w).astype(int) * grid[1] + (y[ok] * grid[1] / h).astype(int))
    return len(cells) / (grid[0] * grid[1])


def _frame(pl, lo: np.ndarray, hi: np.ndarray, pts: np.ndarray) -> None:
    """model_view.frame_camera's three-quarter view, turned to the side from which the battlefield fills the
    image best (a battlefield is spread out: from one corner it may be a thin diagonal with empty halves).

    Each candidate is framed by frame_camera itself, in a world turned about the vertical axis; the camera is
    then turned back. The default side is kept unless another covers clearly more of the image.
    """
    pts = np.asarray(pts, dtype=float)
    sub = pts[:: max(1, len(pts) // 20000)]
    corners = box_corners(lo, hi)
    best = None
    for k, deg in enumerate(range(0, 360, 45)):  # score: coverage / depth ratio^1.5, default side +15%
        R = _yaw(deg)
        rc = corners @ R  # R^-1 = R^T: the world turned the other way
        frame_camera(pl, rc.min(axis=0), rc.max(axis=0), points=pts @ R)
        pos, foc, up = (np.array(v, dtype=float) for v in pl.camera_position)
        pl.camera_position = [tuple(R @ pos), tuple(R @ foc), tuple(R @ up)]
        # a near creation blown up over half the image hides the rest: penalise a deep perspective
        fwd = foc - pos
        d = (sub @ R - pos) @ (fwd / np.linalg.norm(fwd))
        ratio = float(np.percentile(d, 97) / max(np.percentile(d, 3), 1e-6))
        cov = _coverage(pl, sub) / ratio ** 1.5 * (1.15 if k == 0 else 1.0)
        if best is None or cov > best[0]:
            best = (cov, pl.camera_position)
    pl.camera_position = best[1]
    _tight_clipping(pl, lo, hi)


def _tight_clipping(pl, lo: np.ndarray, hi: np.ndarray) -> None:
    """Near/far planes hugging the battlefield box.

    VTK's reset leaves near = far / 1000; over a whole battlefield the depth buffer then cannot tell a brick's
    face from the studs just behind it, and the hidden part outlines show through (the model looks like glass).
    """
    cam = pl.camera
    pos = np.array(cam.position, dtype=float)
    fwd = np.array(cam.focal_point, dtype=float) - pos
    fwd /= np.linalg.norm(fwd)
    d = (box_corners(lo, hi) - pos) @ fwd
    far = float(d.max()) * 1.02 + 1.0
    near = max(float(d.min()) * 0.98 - 1.0, far / 1000.0)
    cam.clipping_range = (near, far)


def _label_anchor(battlefield, unit) -> np.ndarray:
    lo, hi = elements_box(battlefield.elements, unit.elements)
    return np.array([(lo[0] + hi[0]) / 2, lo[1] - 10.0, (lo[2] + hi[2]) / 2])


def render_sight_png(battlefield, result: LosResult, out: str | Path, size=(1280, 900), *,
                     all_rays: bool = False) -> Path:
    pl = sight_plotter(battlefield, result, off_screen=True, size=size, all_rays=all_rays)
    try:
        img = pl.screenshot(return_img=True)
    finally:
        pl.close()
    return save_png(img, out)


def write_sight_html(battlefield, result: LosResult, out: str | Path, *, all_rays: bool = False) -> Path:
    """A self-contained page a player opens in a browser (rotate/zoom), via the shared HTML exporter."""
    from .html_export import write_html

    pl = sight_plotter(battlefield, result, off_screen=True, legend=True, all_rays=all_rays)
    try:
        return write_html(pl, out, title=f"{battlefield.name}: line of sight",
                          overlay=getattr(pl, "html_overlay", None))
    finally:
        pl.close()


def show_sight(battlefield, result: LosResult, *, all_rays: bool = False) -> None:
    pl = sight_plotter(battlefield, result, off_screen=False, all_rays=all_rays)
    pl.show()


__all__ = ["sight_plotter", "render_sight_png", "write_sight_html", "show_sight", "short_label",
           "shown_pairs", "SightSummary", "SECTIONS"]
