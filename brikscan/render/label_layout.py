"""Picture labels drawn in pixels and placed so that none overlaps another, a key box or the frame's edge.

VTK's 3D point labels are drawn where their point falls, so two sections side by side or a ring label near the
picture's edge overlap or get cut off. Here each label is a request (its text, one or more anchor points in
the picture, a box colour); ``layout`` puts each box, in order, at the first free place around its anchor,
searching outward on rings of growing distance, and clamps every candidate inside the frame. A label that finds no
free place is left out (and counted) rather than drawn over another. ``draw`` adds a leader line from the
anchor to its box, a dot on the anchor, and the box with its text.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 (pixels, y down)


@dataclass
class LabelRequest:
    text: str
    anchors: list[tuple[float, float]]  # candidate anchor points in the picture, best first
    fill: tuple[int, int, int] = (255, 255, 255)
    outline: tuple[int, int, int] = (90, 90, 90)


@dataclass
class PlacedLabel:
    text: str
    anchor: tuple[float, float]
    box: Box
    fill: tuple[int, int, int]
    outline: tuple[int, int, int]


@dataclass
class Layout:
    placed: list[PlacedLabel] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)  # texts that found no free place


def boxes_intersect(a: Box, b: Box, gap: float = 0.0) -> bool:
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def font(size: int):
    from PIL import ImageFont

    for path in ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "DejaVuSans.ttf"):
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            continue
    return ImageFont.load_default()


def text_size(text: str, fnt) -> tuple[float, float]:
    x0, y0, x1, y1 = fnt.getbbox(text)
    return float(x1 - min(0, x0)), float(max(y1, getattr(fnt, "size", 12)))


def layout(requests: list[LabelRequest], size: tuple[int, int], *, reserved: list[Box] = (), fnt=None,
           margin: float = 3.0, pad: float = 3.0, gap: float = 2.0, edge: float = 40.0) -> Layout:
    """Place each request's box (text + ``pad``) inside ``size`` (w, h) off every earlier box and ``reserved``.

    The candidates for a label: for each of its anchors inside the frame (the first one otherwise), positions
    on rings of growing distance around it (right, left, above, below, then the diagonals), each clamped inside
    the frame; the first free one wins."""
    fnt = fnt or font(12)
    w, h = size
    taken: list[Box] = list(reserved)
    out = Layout()
    for req in requests:
        tw, th = text_size(req.text, fnt)
        bw, bh = tw + 2 * pad, th + 2 * pad
        if bw > w - 2 * margin or bh > h - 2 * margin:
            out.dropped.append(req.text)
            continue
        # anchors well inside the frame first (a label near the edge has no room), then any inside it
        well = [a for a in req.anchors if edge <= a[0] < w - edge and edge <= a[1] < h - edge]
        inside = [a for a in req.anchors if 0 <= a[0] < w and 0 <= a[1] < h]
        anchors = well + [a for a in inside if a not in well] or list(req.anchors[:1])
        found = None
        for ax, ay in anchors:
            ax_c, ay_c = min(max(ax, 0.0), w - 1.0), min(max(ay, 0.0), h - 1.0)
            for dist in (6, 14, 26, 42, 62, 88, 120, 160, 210, 270, 340, 420):
                for k in range(16):
                    ang = [0, 180, 270, 90, 315, 225, 45, 135, 340, 200, 290, 70, 20, 160, 250, 110][k]
                    dx, dy = math.cos(math.radians(ang)) * dist, math.sin(math.radians(ang)) * dist
                    # the box's near side (or corner) sits at the candidate point, away from the anchor
                    x0 = ax_c + dx - (bw if dx < -1e-6 else 0 if dx > 1e-6 else bw / 2)
                    y0 = ay_c + dy - (bh if dy < -1e-6 else 0 if dy > 1e-6 else bh / 2)
                    x0 = min(max(x0, margin), w - margin - bw)
                    y0 = min(max(y0, margin), h - margin - bh)
                    box = (x0, y0, x0 + bw, y0 + bh)
                    if not any(boxes_intersect(box, t, gap) for t in taken):
                        found = ((ax_c, ay_c), box)
                        break
                if found:
                    break
            if found:
                break
        if found is None:
            out.dropped.append(req.text)
            continue
        taken.append(found[1])
        out.placed.append(PlacedLabel(req.text, found[0], found[1], req.fill, req.outline))
    return out


def draw(img: np.ndarray, lay: Layout, *, fnt=None, pad: float = 3.0) -> np.ndarray:
    """The picture with the placed labels: leader line, anchor dot, box and text."""
    from PIL import Image, ImageDraw

    fnt = fnt or font(12)
    im = Image.fromarray(np.asarray(img)[..., :3].astype(np.uint8))
    d = ImageDraw.Draw(im, "RGBA")
    for p in lay.placed:
        x0, y0, x1, y1 = p.box
        ax, ay = p.anchor
        lx, ly = min(max(ax, x0), x1), min(max(ay, y0), y1)
        if math.hypot(lx - ax, ly - ay) > 3:
            d.line([ax, ay, lx, ly], fill=(30, 30, 30, 200), width=1)
        d.ellipse([ax - 2.5, ay - 2.5, ax + 2.5, ay + 2.5], fill=(20, 20, 20))
    for p in lay.placed:
        x0, y0, x1, y1 = p.box
        d.rectangle([x0, y0, x1, y1], fill=(*p.fill, 225), outline=p.outline)
        d.text((x0 + pad, y0 + pad), p.text, fill="black", font=fnt)
    return np.asarray(im)


def project(pl, pts, behind: str = "nan") -> np.ndarray:
    """World points -> picture pixels (x right, y down) for the plotter's camera; NaN behind it (``behind=
    "clamp"``: projected as if just in front of the eye). Computed from the camera itself (position, focal
    point, up, view angle, window size), so it does not depend on what the renderer drew last."""
    cam = pl.camera
    pos = np.asarray(cam.position, dtype=float)
    fwd = np.asarray(cam.focal_point, dtype=float) - pos
    fwd /= np.linalg.norm(fwd)
    right = np.cross(fwd, np.asarray(cam.up, dtype=float))
    right /= np.linalg.norm(right)
    up = np.cross(right, fwd)
    w, h = pl.window_size
    t = np.tan(np.radians(cam.view_angle) / 2)
    rel = np.asarray(pts, dtype=float).reshape(-1, 3) - pos
    z = rel @ fwd
    zz = np.maximum(z, 1e-6) if behind == "clamp" else np.where(z > 1e-6, z, np.nan)
    sx = (rel @ right) / zz / (t * w / h)
    sy = (rel @ up) / zz / t
    return np.stack([(sx + 1) / 2 * w, (1 - sy) / 2 * h], axis=1)
