"""A model as a pyvista scene in its LDraw colours: interactive window or off-screen PNG.

Part outlines are the sharp (feature) edges of each part's triangles.  They are computed once per distinct
part in the part's own frame and instanced with each element's transform, so a 1M-triangle set with a few
hundred distinct parts outlines in well under a second (VTK's clean + extract_feature_edges on the whole soup
took ~6 s for 6285 Black Seas Barracuda).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..geometry.boxes import elements_box
from ..geometry.cache import write_atomic
from ..geometry.model import Model
from .offscreen import prepare_offscreen

EDGE_ANGLE_DEG = 40.0  # faces meeting at a sharper angle than this get an outline
EDGE_SEGMENT_BUDGET = 3_000_000  # above this many outline segments, outlines are skipped (memory, clutter)
EDGE_DENSITY_LIMIT = 0.75  # off-screen: more outline segments than this per image pixel would just darken it
VIEW_DIRECTION = np.array([-1.0, -0.8, -1.3])  # from the focal point towards the camera: front-left-top
_FIT_MARGIN = 0.94  # fraction of the frame the model may span along its tighter axis


def tris_polydata(tris: np.ndarray, rgb: np.ndarray | None = None):
    """(n,3,3) triangle soup to a pyvista PolyData; ``rgb`` (n,3) becomes an 'rgb' cell array (uint8)."""
    import pyvista as pv

    tris = np.asarray(tris)
    n = len(tris)
    faces = np.empty((n, 4), dtype=np.int64)
    faces[:, 0] = 3
    faces[:, 1:] = np.arange(n * 3).reshape(n, 3)
    poly = pv.PolyData(tris.reshape(-1, 3).astype(np.float32), faces.reshape(-1))
    if rgb is not None:
        poly.cell_data["rgb"] = np.asarray(rgb, dtype=np.uint8)
    return poly


def segments_polydata(segs: np.ndarray, rgb: np.ndarray | None = None):
    """(n,2,3) line segments to a pyvista PolyData; ``rgb`` (n,3) becomes an 'rgb' cell array (uint8)."""
    import pyvista as pv

    n = len(segs)
    lines = np.empty((n, 3), dtype=np.int64)
    lines[:, 0] = 2
    lines[:, 1:] = np.arange(2 * n).reshape(n, 2)
    poly = pv.PolyData(np.asarray(segs, dtype=np.float32).reshape(-1, 3), lines=lines.reshape(-1))
    if rgb is not None:
        poly.cell_data["rgb"] = np.asarray(rgb, dtype=np.uint8).reshape(n, 3)
    return poly


def box_corners(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """(8,3) corners of the box ``lo``..``hi`` (x slowest, z fastest)."""
    return np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])


def model_polydata(model: Model, mask: np.ndarray | None = None, face_rgb: np.ndarray | None = None):
    """Triangle soup to a pyvista PolyData with an 'rgb' cell array (uint8)."""
    tris = model.mesh.triangles if mask is None else model.mesh.triangles[mask]
    if face_rgb is None:
        codes = model.mesh.face_colour if mask is None else model.mesh.face_colour[mask]
        face_rgb = model.colours.rgb_array(codes)
    return tris_polydata(tris, face_rgb)


def new_plotter(off_screen: bool, size: tuple[int, int] = (1024, 768)):
    if off_screen:
        prepare_offscreen()
    import pyvista as pv

    # pyvista's default "light kit" (key, fill and back lights) shows the shape of flat-shaded bricks
    pl = pv.Plotter(off_screen=off_screen, window_size=list(size), lighting="light kit")
    pl.set_background("white")
    return pl


# ---------------------------------------------------------------------------------------------- outlines

def feature_segments(tris: np.ndarray, angle_deg: float = EDGE_ANGLE_DEG, tol: float = 1e-2) -> np.ndarray:
    """(n,3,3) triangle soup -> (m,2,3) float32 outline segments: boundary edges and sharp edges.

    Vertices closer than ``tol`` are merged.  Face orientation is ignored (|cos|): many LDraw parts are not
    BFC-certified, so a flipped neighbour must not draw a line across a flat face.
    """
    tris = np.asarray(tris, dtype=np.float64).reshape(-1, 3, 3)
    if len(tris) == 0:
        return np.zeros((0, 2, 3), np.float32)
    v = tris.reshape(-1, 3)
    q = np.round(v / tol).astype(np.int64)
    q -= q.min(axis=0)
    span = int(q.max()) + 1
    if span < (1 << 21):
        key = (q[:, 0] << 42) | (q[:, 1] << 21) | q[:, 2]
        uniq, vid = np.unique(key, return_inverse=True)
        vid = vid.reshape(-1)
    else:
        uniq, vid = np.unique(q, axis=0, return_inverse=True)
        vid = vid.reshape(-1)
    ids = vid.reshape(-1, 3)
    nrm = np.cross(tris[:, 1] - tris[:, 0], tris[:, 2] - tris[:, 0])
    length = np.linalg.norm(nrm, axis=1)
    ok = (length > 1e-9) & (ids[:, 0] != ids[:, 1]) & (ids[:, 1] != ids[:, 2]) & (ids[:, 0] != ids[:, 2])
    if not ok.any():
        return np.zeros((0, 2, 3), np.float32)
    ids, nrm = ids[ok], nrm[ok] / length[ok, None]
    face = np.repeat(np.arange(len(ids)), 3)
    a = ids.reshape(-1)
    b = ids[:, [1, 2, 0]].reshape(-1)
    lo_, hi_ = np.minimum(a, b), np.maximum(a, b)
    ekey = lo_.astype(np.int64) * len(uniq) + hi_
    order = np.argsort(ekey, kind="stable")
    ekey, face, lo_, hi_ = ekey[order], face[order], lo_[order], hi_[order]
    starts = np.flatnonzero(np.r_[True, ekey[1:] != ekey[:-1]])
    counts = np.diff(np.r_[starts, len(ekey)])
    first_face = np.repeat(face[starts], counts)
    cos = np.abs(np.einsum("ij,ij->i", nrm[face], nrm[first_face]))
    min_cos = np.minimum.reduceat(cos, starts)
    sharp = (counts == 1) | (min_cos < np.cos(np.radians(angle_deg)))
    s = starts[sharp]
    # vertex coordinates: the first occurrence of each merged vertex id
    first_vertex = np.empty(len(uniq), dtype=np.int64)
    first_vertex[vid[::-1]] = np.arange(len(vid))[::-1]
    pts = v[first_vertex]
    return np.stack([pts[lo_[s]], pts[hi_[s]]], axis=1).astype(np.float32)


def model_edges(model: Model, elements: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Outline segments (m,2,3) of the chosen elements' parts.

    Returns (segments, element index per segment; -1 for inline geometry).  Outlines are computed once per
    distinct part in its local frame and transformed per element.
    """
    mesh = model.mesh
    n_el = len(model.elements)
    chosen = np.arange(n_el) if elements is None else np.asarray(elements, dtype=np.int64)
    by_part: dict[str, list[int]] = {}
    for i in chosen:
        by_part.setdefault(model.elements[int(i)].part, []).append(int(i))
    segs: list[np.ndarray] = []
    owner: list[np.ndarray] = []
    for idx in by_part.values():
        local: dict[int, np.ndarray] = {}  # triangle count -> local segments (same part, same geometry)
        for i in idx:
            tris = mesh.element_triangles(i)
            if len(tris) == 0:
                continue
            T = np.asarray(model.elements[i].transform, dtype=np.float64)
            if abs(np.linalg.det(T[:3, :3])) < 1e-9:
                w = feature_segments(tris)
            else:
                if len(tris) not in local:
                    inv = np.linalg.inv(T)
                    lt = tris.reshape(-1, 3).astype(np.float64) @ inv[:3, :3].T + inv[:3, 3]
                    local[len(tris)] = feature_segments(lt).astype(np.float64)
                ls = local[len(tris)].reshape(-1, 3)
                w = (ls @ T[:3, :3].T + T[:3, 3]).reshape(-1, 2, 3).astype(np.float32)
            if len(w):
                segs.append(w)
                owner.append(np.full(len(w), i, dtype=np.int32))
    if elements is None and (mesh.face_element < 0).any():
        w = feature_segments(mesh.triangles[mesh.face_element < 0])
        segs.append(w)
        owner.append(np.full(len(w), -1, dtype=np.int32))
    if not segs:
        return np.zeros((0, 2, 3), np.float32), np.zeros(0, np.int32)
    return np.concatenate(segs), np.concatenate(owner)


def _edge_polydata(model: Model, segs: np.ndarray, owner: np.ndarray, element_rgb: np.ndarray | None = None):
    """Line segments as PolyData with an 'rgb' cell array: a shade of each element's colour.

    ``element_rgb`` (E,3) overrides the elements' LDraw colours (when the faces were recoloured).
    """
    poly = segments_polydata(segs)
    if element_rgb is not None:
        rgb = np.vstack([np.asarray(element_rgb, dtype=float).reshape(-1, 3), [[90, 90, 90]]])
        poly.cell_data["rgb"] = edge_rgb(rgb)[np.where(owner >= 0, owner, len(rgb) - 1)]
        return poly
    codes = np.array([e.colour for e in model.elements] + [0], dtype=np.int64)
    el_codes = codes[np.where(owner >= 0, owner, len(codes) - 1)]
    uniq, inv = np.unique(el_codes, return_inverse=True)
    lut = edge_rgb(np.array([model.colours.rgb(int(c)) for c in uniq], dtype=float).reshape(-1, 3))
    poly.cell_data["rgb"] = lut[inv.reshape(-1)]
    return poly


def edge_rgb(face_rgb: np.ndarray) -> np.ndarray:
    """Outline colour for a part colour: a darker shade, a lighter one for near-black parts.

    LDConfig's EDGE values (black outlines, grey for black parts) are meant for instruction drawings and
    turn dense black models grey at screen resolution; a shade of the part's own colour keeps its colour.
    """
    rgb = np.asarray(face_rgb, dtype=float)
    luma = rgb @ np.array([0.299, 0.587, 0.114])
    out = np.where((luma < 45)[:, None], rgb * 0.5 + 40, rgb * 0.45)
    return np.clip(out, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------------------------------------- scene

def add_model(pl, model: Model, mask=None, face_rgb=None, edges: bool = True, opacity: float = 1.0):
    """Add the (masked) model's faces in LDraw colours (or ``face_rgb``) and its part outlines.

    Outlines are skipped above ``EDGE_SEGMENT_BUDGET`` segments, and in off-screen images with more than
    ``EDGE_DENSITY_LIMIT`` segments per pixel (a 770k-triangle set has ~450k: drawn at 1024x768, not at 400x300).
    """
    poly = model_polydata(model, mask, face_rgb)
    if poly.n_cells == 0:
        return None
    actor = pl.add_mesh(poly, scalars="rgb", rgb=True, smooth_shading=False, opacity=opacity,
                        show_scalar_bar=False)
    # outlines lie on the faces: push the faces back a little so the lines win the depth test (the mode switch
    # is a VTK-wide static; polygon offset is what pyvista itself uses for edges, harmless for other scenes)
    actor.mapper.SetRelativeCoincidentTopologyPolygonOffsetParameters(1.0, 1.0)
    actor.mapper.SetResolveCoincidentTopologyToPolygonOffset()
    if edges:
        fe = model.mesh.face_element if mask is None else model.mesh.face_element[np.asarray(mask)]
        chosen = None if mask is None else np.unique(fe[fe >= 0])
        segs, owner = model_edges(model, chosen)
        w, h = pl.window_size
        too_dense = getattr(pl, "off_screen", False) and len(segs) > EDGE_DENSITY_LIMIT * w * h
        if 0 < len(segs) <= EDGE_SEGMENT_BUDGET and not too_dense:
            element_rgb = None
            if face_rgb is not None:  # outlines follow the recolouring (sight, damage views)
                element_rgb = np.full((len(model.elements), 3), 90, dtype=np.uint8)
                sel = fe >= 0
                element_rgb[fe[sel]] = np.asarray(poly.cell_data["rgb"])[sel]
            pl.add_mesh(_edge_polydata(model, segs, owner, element_rgb), scalars="rgb", rgb=True, line_width=1,
                        opacity=opacity, show_scalar_bar=False, lighting=False)
    return actor


def frame_camera(pl, lo: np.ndarray, hi: np.ndarray, points: np.ndarray | None = None) -> None:
    """Three-quarter view from the front-left-top (LDraw's up is -Y) that fills the frame.

    pyvista's reset_camera fits the bounding sphere, which leaves a lot of white around long or flat models;
    after it, the camera is moved so the projected bounding box (or ``points``, e.g. the model's vertices,
    tighter) spans ``_FIT_MARGIN`` of the image along its tighter axis, centred.
    """
    lo = np.asarray(lo, dtype=float)
    hi = np.asarray(hi, dtype=float)
    centre = (lo + hi) / 2
    radius = float(np.linalg.norm(hi - lo)) / 2 or 50.0
    d = VIEW_DIRECTION / np.linalg.norm(VIEW_DIRECTION)
    pl.camera_position = [tuple(centre + d * radius * 2.6), tuple(centre), (0, -1, 0)]
    pl.reset_camera(bounds=(lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]))
    corners = box_corners(lo, hi)
    if points is None or len(points) == 0:
        pts = corners
    else:
        pts = np.asarray(points, dtype=float).reshape(-1, 3)
    cam = pl.camera
    w, h = pl.window_size
    aspect = w / max(h, 1)
    t = np.tan(np.radians(cam.view_angle) / 2)
    fwd = -d  # camera looks along -d
    up0 = np.array([0.0, -1.0, 0.0])
    right = np.cross(fwd, up0)
    right /= np.linalg.norm(right)
    up = np.cross(right, fwd)

    def fit(focal: np.ndarray):
        """Camera distance at which ``pts`` fill the frame, and their coordinates in the camera's axes."""
        rel = pts - focal
        x, y, z = rel @ right, rel @ up, rel @ fwd
        dist = max(float(np.max(np.abs(y) / (t * _FIT_MARGIN) - z)),
                   float(np.max(np.abs(x) / (t * aspect * _FIT_MARGIN) - z)), 1.0)
        return dist, x, y, z

    focal = centre.copy()
    for _ in range(3):  # fit the distance, then re-centre the projected extent; converges in a few rounds
        dist, x, y, z = fit(focal)
        depth = dist + z
        sx, sy = x / depth, y / depth  # screen coordinates (tan units)
        cx, cy = (sx.max() + sx.min()) / 2, (sy.max() + sy.min()) / 2
        focal = focal + right * cx * dist + up * cy * dist
    dist = fit(focal)[0]
    pl.camera_position = [tuple(focal - fwd * dist), tuple(focal), tuple(up)]
    pl.reset_camera_clipping_range()
    # VTK's automatic near plane can sit at 1/1000 of the far one: depth precision then fails and whole
    # scenes look like glass. Pull the near plane up to just before the model's nearest corner.
    depths = (corners - (focal - fwd * dist)) @ fwd
    near, far = pl.camera.clipping_range
    if depths.min() > 0:
        pl.camera.clipping_range = (max(near, 0.8 * float(depths.min())), max(far, 1.05 * float(depths.max())))


def _fit_points(model: Model, limit: int = 200_000) -> np.ndarray:
    """A subsample of the model's vertices for a tight camera fit (all of them for small models)."""
    v = model.mesh.triangles.reshape(-1, 3)
    if len(v) > limit:
        v = v[:: len(v) // limit + 1]
    return v


def model_plotter(model: Model, *, off_screen: bool, size: tuple[int, int] = (1024, 768), face_rgb=None,
                  edges: bool = True):
    """A plotter holding the whole model, framed: the PNG, the HTML page and the window all come from here."""
    pl = new_plotter(off_screen, size)
    try:
        add_model(pl, model, face_rgb=face_rgb, edges=edges)
        lo, hi = model.bbox_ldu
        frame_camera(pl, lo, hi, points=_fit_points(model))
    except BaseException:
        pl.close()
        raise
    return pl


def render_png(model: Model, out: str | Path, size: tuple[int, int] = (1024, 768), face_rgb=None,
               edges: bool = True, legend: dict[str, tuple[int, int, int]] | None = None,
               title: str | None = None) -> Path:
    """Off-screen PNG of the whole model, written atomically; ``legend`` keys what tinted colours mean. The key
    has a strip of its own on the right, so it never hides a part of the model (a star destroyer's bridge)."""
    strip = int(size[0] * LEGEND_STRIP) if legend else 0
    pl = model_plotter(model, off_screen=True, size=(size[0] - strip, size[1]), face_rgb=face_rgb, edges=edges)
    if title:
        pl.add_text(title, position="upper_left", font_size=10, color="black")
    try:
        img = pl.screenshot(return_img=True)
    finally:
        pl.close()
    if legend:
        img = _with_key(img, strip, legend)
    return save_png(img, out)


LEGEND_STRIP = 0.22  # share of the picture's width the key takes on the right


def _with_key(img: np.ndarray, strip: int, legend: dict[str, tuple[int, int, int]]) -> np.ndarray:
    """The rendered picture with a white strip on its right holding the key: a colour square and a name a line."""
    from PIL import Image, ImageDraw

    from .label_layout import font as key_font

    h, w = img.shape[:2]
    canvas = Image.new("RGB", (w + strip, h), "white")
    canvas.paste(Image.fromarray(np.ascontiguousarray(img[..., :3])), (0, 0))
    draw = ImageDraw.Draw(canvas)
    line = max(16, h // 28)
    room = strip - line * 3 // 4 - line // 2 - 10  # text width left after the colour square and the margins
    size = int(line * 0.75)
    font = key_font(size)  # the font of every picture's labels and keys
    while size > 8 and max(draw.textlength(n, font=font) for n in legend) > room:
        size -= 1  # the longest name fits the strip
        font = key_font(size)
    x, y = w + line // 2, line
    draw.rectangle([w + 4, y - line // 3, w + strip - 6, y + line * len(legend)], outline=(0, 0, 0))
    for name, rgb in legend.items():
        draw.rectangle([x, y + line // 6, x + line // 2, y + line * 2 // 3], fill=tuple(rgb), outline=(0, 0, 0))
        draw.text((x + line * 3 // 4, y), name, fill=(0, 0, 0), font=font)
        y += line
    return np.asarray(canvas)


def render_html(model: Model, out: str | Path, face_rgb=None, edges: bool = True,
                legend: dict[str, tuple[int, int, int]] | None = None, title: str | None = None) -> Path:
    """The same scene as render_png, as a self-contained HTML page a browser opens offline (with the PNG's
    title and colour key)."""
    from .html_export import write_html

    pl = model_plotter(model, off_screen=True, face_rgb=face_rgb, edges=edges)
    overlay = {"title": title or model.name, "keys": list(((rgb, name) for name, rgb in legend.items()))} \
        if legend or title else None
    try:
        return write_html(pl, out, title=f"brikscan: {model.name}", overlay=overlay)
    finally:
        pl.close()


def png_bytes(img: np.ndarray) -> bytes:
    """An (h,w,3|4) image as PNG file bytes."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(img).save(buf, format="PNG")
    return buf.getvalue()


def save_png(img: np.ndarray, out: str | Path) -> Path:
    """Write an image as a PNG, atomically."""
    out = Path(out)
    write_atomic(out, png_bytes(img))
    return out


def show(model: Model, face_rgb=None) -> None:
    model_plotter(model, off_screen=False, face_rgb=face_rgb).show()


def elements_png(model, elements, size=(640, 480), face_rgb=None) -> bytes | None:
    """Off-screen PNG of some elements framed alone (their LDraw colours, or ``face_rgb`` per face of the whole
    mesh); None when they have no faces or no OpenGL is available (a card still has its numbers)."""
    try:
        mask = model.mesh.faces_of(elements)
        if not mask.any():
            return None
        pl = new_plotter(True, size)
        try:
            add_model(pl, model, mask=mask, **({} if face_rgb is None else {"face_rgb": face_rgb[mask]}))
            lo, hi = elements_box(model.elements, elements)
            frame_camera(pl, lo, hi)
            img = pl.screenshot(return_img=True)
        finally:
            pl.close()
        return png_bytes(img)
    except Exception:  # no display / no EGL
        return None
