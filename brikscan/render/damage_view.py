"""Destruction previews in pyvista: the blast's rings as translucent shells labelled with their damage,
destroyed bricks thrown along their KnockBack, surviving sections tinted with their new Size; a before/after
PNG, a GIF of the debris flying, and a Monte Carlo heat map.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..geometry.cache import write_atomic
from ..geometry.model import Model
from ..progress import ProgressCallback, steps
from . import label_layout
from .model_view import (_fit_points, add_model, frame_camera, new_plotter, save_png, segments_polydata,
                         tris_polydata)

SECTION_TINTS = np.array([[31, 119, 180], [44, 160, 44], [255, 127, 14], [148, 103, 189], [23, 190, 207],
                          [188, 189, 34], [140, 86, 75], [227, 119, 194]], dtype=np.float64)
DEBRIS_RGB = np.array([214, 39, 40], dtype=np.float64)


def _add(pl, tris, rgb, opacity: float = 1.0) -> None:
    if len(tris):
        pl.add_mesh(tris_polydata(tris, np.clip(rgb, 0, 255).astype(np.uint8)), scalars="rgb", rgb=True,
                    opacity=opacity, show_scalar_bar=False)


def section_face_rgb(model: Model, result) -> np.ndarray:
    """LDraw colours blended with one tint per surviving section; debris red."""
    mesh = model.mesh
    base = model.colours.rgb_array(mesh.face_colour).astype(np.float64)
    tint_of = np.full(len(model.elements), -1)
    for k, s in enumerate(x for x in result.sections if not x.destroyed):
        tint_of[s.elements] = k % len(SECTION_TINTS)
    fe = mesh.face_element
    t = np.where(fe >= 0, tint_of[np.clip(fe, 0, None)], -1)
    out = base.copy()
    has = t >= 0
    out[has] = 0.45 * base[has] + 0.55 * SECTION_TINTS[t[has]]
    dead = (fe >= 0) & result.destroyed[np.clip(fe, 0, None)]
    out[dead] = 0.3 * base[dead] + 0.7 * DEBRIS_RGB
    return out


def heat_face_rgb(model: Model, p_destroyed: np.ndarray) -> np.ndarray:
    """Grey (safe) to yellow to red (certainly destroyed), per element probability."""
    fe = model.mesh.face_element
    p = np.where(fe >= 0, np.asarray(p_destroyed)[np.clip(fe, 0, None)], 0.0)[:, None]
    grey, yellow, red = np.array([200, 200, 200.0]), np.array([255, 210, 0.0]), np.array([200, 0, 0.0])
    return np.where(p < 0.5, grey + (yellow - grey) * (p * 2), yellow + (red - yellow) * ((p - 0.5) * 2))


def displaced_triangles(model: Model, move: np.ndarray, t: float = 1.0, arc_ldu: float = 0.0) -> np.ndarray:
    """World triangles with each element moved by ``t`` of its displacement (plus a parabolic arc up, -Y)."""
    tris = model.mesh.triangles.astype(np.float64)  # a copy
    off = model.mesh.element_offsets
    d = np.asarray(move, dtype=np.float64) * t + np.array([0.0, -4 * arc_ldu * t * (1 - t), 0.0])
    d[np.linalg.norm(move, axis=1) <= 1e-9] = 0.0  # only moving elements fly (and arc)
    n_el_faces = int(off[-1])  # element i owns faces off[i]:off[i+1]; inline geometry after them stays put
    tris[:n_el_faces] += np.repeat(d, np.diff(off), axis=0)[:, None, :]
    return tris


def _scene(pl, model: Model, result, t: float = 1.0, labels: bool = True, heat: np.ndarray | None = None,
           after: bool = True, vtk_labels: bool = False) -> None:
    """The model (as built, or after the damage at time ``t`` of the debris' flight) with the rings. Labels are
    drawn in pixels after the screenshot (``damage_labels``, laid out by ``label_layout``); ``vtk_labels`` adds
    them as 3D labels that follow the camera instead (the interactive window)."""
    import pyvista as pv

    if not after:  # the model as built, in its LDraw colours with part outlines; the rings as thin circles
        add_model(pl, model)
        _rings(pl, result, labels)
        return
    move = result.knockback_vec
    arc = float(np.linalg.norm(move, axis=1).max()) * 0.5 if len(move) else 0.0
    tris = displaced_triangles(model, move, t, arc)
    rgb = heat_face_rgb(model, heat) if heat is not None else section_face_rgb(model, result)
    fe = model.mesh.face_element
    dead = (fe >= 0) & result.destroyed[np.clip(fe, 0, None)]
    _add(pl, tris[~dead], rgb[~dead])
    if heat is None:
        _add(pl, tris[dead], rgb[dead], opacity=0.85)
    _rings(pl, result, labels)
    if labels and heat is None and vtk_labels:
        specs = [x for x in damage_labels(model, result, t=t, after=True) if x.kind == "section"]
        if specs:
            pl.add_point_labels(pv.PolyData(np.array([x.points[0] for x in specs], dtype=np.float32)),
                                [x.text for x in specs], font_size=12, point_size=1, shape_opacity=0.6,
                                always_visible=True)


@dataclass
class LabelSpec:
    """A label of the damage picture in world coordinates: its text and candidate anchor points, best first."""

    text: str
    points: list[np.ndarray]
    kind: str  # centre, ring, section
    fill: tuple[int, int, int] = (255, 255, 255)


RING_LABEL_FILL = (255, 236, 214)


def damage_labels(model: Model, result, t: float = 1.0, after: bool = True, heat=None) -> list[LabelSpec]:
    """The blast centre, each ring with its damage (candidate points on its circle: up, the sides, down, then
    pulled in toward the centre) and, after the damage, each surviving section with its new Size and ES."""
    out: list[LabelSpec] = []
    ldu = _ldu_per_inch(result)
    dirs = [np.array(d, dtype=float) / np.linalg.norm(d) for d in
            ([0, -1, 0], [1, -1, 0], [-1, -1, 0], [0, -1, 1], [0, -1, -1], [1, 0, 0], [-1, 0, 0], [0, 0, 1],
             [0, 0, -1], [0, 1, 0])]
    for bl in getattr(result, "blasts", []) or []:
        c = np.asarray(bl.centre, dtype=float)
        out.append(LabelSpec("blast centre", [c], "centre", (235, 235, 235)))
        for k, r in enumerate(bl.rings):
            rad = r.outer_radius_in * ldu
            pts = [c + d * rad * f for f in (1.0, 0.8, 0.6, 0.45, 0.3) for d in dirs]
            out.append(LabelSpec(f"ring {k + 1} ({r.outer_radius_in:g}\"): {r.damage:g} dmg, KB {r.knockback_in:g}\"",
                                 pts, "ring", RING_LABEL_FILL))
    if after and heat is None:
        move = result.knockback_vec
        live = [x for x in result.sections if not x.destroyed]
        for k, sec in enumerate(live):
            if not sec.elements or sec.kind != "section":
                continue
            c = np.mean([(model.elements[i].bbox_min + model.elements[i].bbox_max) / 2 for i in sec.elements],
                        axis=0)
            off = f" ({len(sec.weapons_disabled)} weapon(s) off)" if getattr(sec, "weapons_disabled", None) else ""
            tint = SECTION_TINTS[k % len(SECTION_TINTS)]
            fill = tuple(int(v) for v in 0.35 * tint + 0.65 * 255)
            out.append(LabelSpec(_section_text(sec) + off, [c + move[sec.elements].mean(axis=0) * t], "section",
                                 fill))
    return out


def label_requests(pl, specs: list[LabelSpec]):
    """The specs projected with the plotter's camera: ``label_layout`` requests in picture pixels."""
    from .label_layout import LabelRequest, project

    out = []
    for sp in specs:
        px = project(pl, np.asarray(sp.points))
        anchors = [(float(x), float(y)) for x, y in px if np.isfinite(x)]
        if anchors:
            out.append(LabelRequest(sp.text, anchors, sp.fill))
    return out


RING_COLOURS = ["#ff2200", "#ff8800", "#e0b000", "#c8a040"]


def ring_circles(centre: np.ndarray, radius: float, segments: int = 96) -> np.ndarray:
    """(3*segments, 2, 3) line segments: the ring's sphere as three great circles (one per axis plane)."""
    a = np.linspace(0, 2 * np.pi, segments + 1)
    c, s = np.cos(a) * radius, np.sin(a) * radius
    z = np.zeros_like(a)
    out = []
    for pts in (np.stack([c, s, z], 1), np.stack([c, z, s], 1), np.stack([z, c, s], 1)):
        p = np.asarray(centre, dtype=np.float64) + pts
        out.append(np.stack([p[:-1], p[1:]], axis=1))
    return np.concatenate(out)


def _rings(pl, result, labels: bool) -> None:
    """Each ring as three thin great circles and a faint shell (opacity 0.04), labelled with its damage: the
    bricks inside keep their colours."""
    import pyvista as pv

    ldu = None
    for bl in getattr(result, "blasts", []) or []:
        if ldu is None:
            ldu = _ldu_per_inch(result)
        pts, txt = [], []
        for k, r in enumerate(bl.rings):
            rad = r.outer_radius_in * ldu
            pl.add_mesh(segments_polydata(ring_circles(bl.centre, rad)), color=RING_COLOURS[min(k, 3)], line_width=2, lighting=False)
            pl.add_mesh(pv.Sphere(radius=rad, center=bl.centre, theta_resolution=40, phi_resolution=24),
                        color=RING_COLOURS[min(k, 3)], opacity=0.04, show_edges=False, lighting=False)
            pts.append(bl.centre + np.array([rad, 0, 0]))
            txt.append(f"{r.outer_radius_in:g}\": {r.damage:g} dmg, KB {r.knockback_in:g}\"")
        if len(bl.rings):  # the blast centre: a small black ball
            r0 = bl.rings[0].outer_radius_in * ldu
            pl.add_mesh(pv.Sphere(radius=max(2.0, 0.06 * r0), center=bl.centre), color="black", lighting=False)


def ring_labels(pl, result) -> None:
    """The interactive window's ring labels (3D labels that follow the camera) and the blast centre's; pictures
    draw them in pixels instead (``damage_labels``)."""
    import pyvista as pv

    specs = [x for x in damage_labels(None, result, after=False) if x.kind in ("ring", "centre")]
    if specs:
        pl.add_point_labels(pv.PolyData(np.array([x.points[0] for x in specs], dtype=np.float32)),
                            [x.text for x in specs], font_size=12, point_size=5, text_color="black",
                            shape_opacity=0.6, always_visible=True)


def _ldu_per_inch(result) -> float:
    return float(getattr(result, "ldu_per_inch", 60.0))


def _fit(model: Model, result, after: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Box and points the camera fits: the model (with its debris where they flew, after the damage)."""
    pts = _fit_points(model)
    if after and len(result.knockback_vec) and np.abs(result.knockback_vec).max() > 1e-9:
        tris = displaced_triangles(model, result.knockback_vec).reshape(-1, 3)
        pts = tris[:: max(1, len(tris) // 200_000)]
    lo, hi = pts.min(0), pts.max(0)
    return lo, hi, pts


def build_damage_plotter(model: Model, result, *, off_screen: bool = True, size=(800, 600), after: bool = True,
                         vtk_labels: bool = False, **kw):
    """The damage scene on a new plotter, framed so the model fills it: the PNG halves, the GIF frames, the
    interactive window (``--show``, with ``vtk_labels``) and the HTML page (``--html``) all come from here."""
    pl = new_plotter(off_screen, size)
    _scene(pl, model, result, after=after, vtk_labels=vtk_labels, **kw)
    lo, hi, pts = _fit(model, result, after)
    frame_camera(pl, lo, hi, points=pts)
    if vtk_labels and kw.get("labels", True):
        ring_labels(pl, result)
    return pl


def _shot(model: Model, result, size, **kw) -> tuple[np.ndarray, list]:
    """(screenshot, label requests in its pixels)."""
    pl = build_damage_plotter(model, result, off_screen=True, size=size, **kw)
    try:
        specs = damage_labels(model, result, after=kw.get("after", True), heat=kw.get("heat")) \
            if kw.get("labels", True) else []
        return pl.screenshot(return_img=True), label_requests(pl, specs)
    finally:
        pl.close()


def render_before_after(model: Model, result, out: str | Path, size: tuple[int, int] = (800, 600),
                        layouts: list | None = None) -> Path:
    """One PNG: the model with the blast's rings (left) and after the damage (right). ``layouts`` (a list)
    receives each half's label layout (for tests)."""
    img, reqs = _shot(model, result, size, after=False)
    before = caption(img, f"before: {model.name}", ring_legend(result), labels=reqs, layouts=layouts)
    img, reqs = _shot(model, result, size, after=True)
    after = caption(img, f"after: {_after_title(result)}", section_legend(result), labels=reqs, layouts=layouts)
    return save_png(np.concatenate([before, after], axis=1), out)


def _html_view(model: Model, result, *, after: bool, heat=None) -> dict:
    """One view of the damage page: its batches come from the plotter, with the PNG's title, key and labels."""
    from .html_export import label_json, scene_batches

    pl = build_damage_plotter(model, result, off_screen=True, after=after, heat=heat)
    try:
        view = scene_batches(pl)
    finally:
        pl.close()
    if heat is not None:
        n = int((np.asarray(heat) > 0).sum())
        view.update(name="heat map", title=f"{model.name}: chance each brick is destroyed ({n} can be)",
                    keys=ring_legend(result), scale=HEAT_SCALE)
    elif after:
        view.update(name="after", title=f"after: {_after_title(result)}", keys=section_legend(result))
    else:
        view.update(name="before", title=f"before: {model.name}", keys=ring_legend(result))
    view["labels"] = label_json(damage_labels(model, result, after=after, heat=heat))
    return view


HEAT_SCALE = {"title": "chance destroyed", "stops": [[200, 200, 200], [255, 210, 0], [200, 0, 0]],
              "ticks": ["0%", "50%", "100%"]}


def write_damage_html(model: Model, result, out: str | Path, title: str | None = None,
                      p_destroyed: np.ndarray | None = None) -> Path:
    """The damage as a self-contained HTML page with the PNG's views, titles and keys: before (the rings),
    after (sections tinted and labelled, debris) and, with a Monte Carlo run, the heat map with its scale."""
    from .html_export import write_views_html

    views = [_html_view(model, result, after=False), _html_view(model, result, after=True)]
    if p_destroyed is not None:
        from types import SimpleNamespace

        still = SimpleNamespace(knockback_vec=np.zeros((len(model.elements), 3)),
                                destroyed=np.zeros(len(model.elements), dtype=bool), sections=[],
                                blasts=getattr(result, "blasts", []), ldu_per_inch=_ldu_per_inch(result))
        views.append(_html_view(model, still, after=True, heat=p_destroyed))
    return write_views_html(views, out, title=title or f"brikscan: {model.name} after the damage", start=1)


def damage_legend(result) -> str:
    """Rings and sections as text (the HTML page shows it as an overlay; 3D point labels do not export)."""
    lines = []
    for bl in getattr(result, "blasts", []) or []:
        lines += [f"{r.inner_radius_in:g}-{r.outer_radius_in:g}\": {r.damage:g} dmg, KB {r.knockback_in:g}\""
                  for r in bl.rings]
    lines.append(f"destroyed: {int(np.asarray(result.destroyed).sum())} elements")
    for s in result.sections:
        if s.kind != "section":
            continue
        off = f", weapons off: {', '.join(w['name'] for w in s.weapons_disabled)}" if s.weapons_disabled else ""
        lines.append(_section_text(s) + off)
    return "\n".join(lines[:40])


def _section_text(s) -> str:
    """A section's label: name, Size, ES, and DESTROYED / (loose)."""
    return (f"{s.name}: Size {s.size}\" ES {s.effective_size:g}" + (" DESTROYED" if s.destroyed else "")
            + (" (loose)" if s.loose else ""))


def show_damage(model: Model, result, after: bool = True) -> None:
    """Interactive pyvista window of the same scene (needs a display)."""
    pl = build_damage_plotter(model, result, off_screen=False, size=(1024, 768), after=after, vtk_labels=True)
    pl.add_text(damage_legend(result), position="upper_left", font_size=10, color="black")
    pl.show(title=f"brikscan: {model.name} after the damage")


def render_heatmap(model: Model, result, p_destroyed: np.ndarray, out: str | Path,
                   size: tuple[int, int] = (1024, 768)) -> Path:
    """Monte Carlo probability of destruction per element, on the undamaged model."""
    from types import SimpleNamespace

    still = SimpleNamespace(knockback_vec=np.zeros((len(model.elements), 3)), destroyed=np.zeros(len(model.elements),
                                                                                                 dtype=bool),
                            sections=[], blasts=result.blasts, ldu_per_inch=_ldu_per_inch(result))
    img, reqs = _shot(model, still, size, heat=p_destroyed, labels=True, after=True)
    n = int((np.asarray(p_destroyed) > 0).sum())
    return save_png(caption(img, f"{model.name}: chance each brick is destroyed ({n} can be)", ring_legend(result),
                            heat_scale=True, labels=reqs), out)


def render_gif(model: Model, result, out: str | Path, frames: int = 16, size: tuple[int, int] = (640, 480),
               fps: int = 8, progress: ProgressCallback | None = None) -> Path:
    """Debris and loose sections flying along their KnockBack, written atomically."""
    import imageio.v2 as imageio

    lo, hi, pts = _fit(model, result, True)

    def shot(**kw):
        # a fresh plotter per frame: after ``clear()`` a reused plotter drew with another camera than the one
        # the labels were projected with (the GIF's labels sat off their points)
        pl = new_plotter(True, size)
        try:
            _scene(pl, model, result, **kw)
            frame_camera(pl, lo, hi, points=pts)  # every frame on the same camera: the "before" one too
            return pl.screenshot(return_img=True), pl
        except BaseException:
            pl.close()
            raise

    imgs = []
    img, pl = shot(after=False)  # the "before" frame, held for a second
    try:
        before = caption(img, f"before: {model.name}", ring_legend(result),
                         labels=label_requests(pl, damage_labels(model, result, after=False)))
    finally:
        pl.close()
    imgs += [before] * max(1, fps)
    for f in steps(range(frames), "GIF frames", progress=progress):
        t = f / (frames - 1) if frames > 1 else 1.0
        last = f == frames - 1
        img, pl = shot(t=t, labels=last)
        try:
            img = caption(img, f"after: {_after_title(result)}", section_legend(result) if last else [],
                          labels=label_requests(pl, damage_labels(model, result, t=t)) if last else None)
        finally:
            pl.close()
        imgs += [img] * (max(1, fps) if last else 1)
    buf = io.BytesIO()
    imageio.mimsave(buf, imgs, format="GIF", duration=1.0 / fps, loop=0)
    out = Path(out)
    write_atomic(out, buf.getvalue())
    return out


# ---------------------------------------------------------------------------------------------- captions

def _key_boxes(legend, heat_scale: bool, w: int, h: int) -> list[tuple[float, float, float, float]]:
    """Where ``caption`` draws the key and the colour scale, in the picture's pixels (before the title strip)."""
    from PIL import Image, ImageDraw

    out = []
    rows = list(legend)
    if rows:
        d = ImageDraw.Draw(Image.new("RGB", (4, 4)))
        f = label_layout.font(11)
        tw = max(d.textlength(t, font=f) for _, t in rows)
        bw, bh = int(tw) + 30, 15 * len(rows) + 8
        out.append((6.0, float(h - bh - 6), 6.0 + bw, float(h - 6)))
    if heat_scale:
        bw = 180
        x0, y0 = w - bw - 16, h - 34
        out.append((float(x0 - 6), float(y0 - 18), float(x0 + bw + 6), float(y0 + 12 + 16)))
    return out


def _after_title(result) -> str:
    n = int(np.asarray(result.destroyed).sum())
    secs = [x for x in result.sections if x.kind == "section" and not x.destroyed]
    return f"{n} brick{'s' if n != 1 else ''} destroyed, {len(secs)} section{'s' if len(secs) != 1 else ''} left"


def ring_legend(result) -> list[tuple[tuple[int, int, int] | None, str]]:
    out = []
    for bl in (getattr(result, "blasts", []) or [])[:2]:
        for k, r in enumerate(bl.rings):
            c = RING_COLOURS[min(k, 3)].lstrip("#")
            out.append(((int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)),
                        f"ring {k + 1}: {r.inner_radius_in:g}-{r.outer_radius_in:g}\", {r.damage:g} damage, "
                        f"KnockBack {r.knockback_in:g}\""))
    return out


def section_legend(result, limit: int = 10) -> list[tuple[tuple[int, int, int] | None, str]]:
    """The keys of ``section_face_rgb``: one tint per surviving section (same order), debris red."""
    out = []
    live = [x for x in result.sections if not x.destroyed]
    for k, sec in enumerate(live):
        if sec.kind != "section":
            continue
        if len(out) >= limit:
            out.append((None, f"… {len(live) - limit} more sections"))
            break
        out.append((tuple(int(v) for v in SECTION_TINTS[k % len(SECTION_TINTS)]), _section_text(sec)))
    if np.asarray(result.destroyed).any():
        out.append((tuple(int(v) for v in DEBRIS_RGB), f"destroyed ({int(np.asarray(result.destroyed).sum())})"))
    return out


def caption(img: np.ndarray, title: str, legend=(), heat_scale: bool = False, labels=None,
            layouts: list | None = None) -> np.ndarray:
    """A title strip above the picture, a legend box in its lower-left corner (a colour scale lower right for
    heat maps) and the labels (``label_layout`` requests, in the picture's pixels) placed off each other and
    off the keys, all drawn in pixels inside the frame. ``layouts`` (a list) receives the label layout."""
    from PIL import Image, ImageDraw


    im0 = np.asarray(img)[..., :3].astype(np.uint8)
    w, h = im0.shape[1], im0.shape[0]
    if labels:
        reserved = _key_boxes(legend, heat_scale, w, h)
        lay = label_layout.layout(list(labels), (w, h), reserved=reserved, fnt=label_layout.font(12))
        im0 = label_layout.draw(im0, lay, fnt=label_layout.font(12))
        if layouts is not None:
            layouts.append(lay)
    im = Image.fromarray(im0)
    strip = 26
    out = Image.new("RGB", (w, h + strip), "white")
    out.paste(im, (0, strip))
    d = ImageDraw.Draw(out, "RGBA")
    d.rectangle([0, 0, w, strip - 1], fill=(45, 52, 64))
    d.text((8, 5), title, fill="white", font=label_layout.font(14))
    f = label_layout.font(11)
    rows = list(legend)
    if rows:
        lh = 15
        tw = max(d.textlength(t, font=f) for _, t in rows)
        bw, bh = int(tw) + 30, lh * len(rows) + 8
        x0, y0 = 6, h + strip - bh - 6
        d.rectangle([x0, y0, x0 + bw, y0 + bh], fill=(255, 255, 255, 220), outline=(120, 120, 120))
        for k, (rgb, text) in enumerate(rows):
            y = y0 + 4 + k * lh
            if rgb is not None:
                d.rectangle([x0 + 5, y + 2, x0 + 16, y + 12], fill=tuple(rgb), outline=(60, 60, 60))
            d.text((x0 + 22, y), text, fill="black", font=f)
    if heat_scale:
        bw, bh = 180, 12
        x0, y0 = w - bw - 16, h + strip - 34
        d.rectangle([x0 - 6, y0 - 18, x0 + bw + 6, y0 + bh + 16], fill=(255, 255, 255, 220), outline=(120, 120, 120))
        d.text((x0, y0 - 16), "chance destroyed", fill="black", font=f)
        for i in range(bw):
            p = i / (bw - 1)
            grey, yellow, red = np.array([200, 200, 200.0]), np.array([255, 210, 0.0]), np.array([200, 0, 0.0])
            c = grey + (yellow - grey) * (p * 2) if p < 0.5 else yellow + (red - yellow) * ((p - 0.5) * 2)
            d.line([x0 + i, y0, x0 + i, y0 + bh], fill=tuple(int(v) for v in c))
        d.rectangle([x0, y0, x0 + bw, y0 + bh], outline=(60, 60, 60))
        for p, label in ((0, "0%"), (0.5, "50%"), (1, "100%")):
            x = x0 + p * bw
            d.text((x - d.textlength(label, font=f) / 2, y0 + bh + 1), label, fill="black", font=f)
    return np.asarray(out)
