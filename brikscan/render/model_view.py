"""A model as a pyvista scene in its LDraw colours: interactive window or off-screen PNG."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..geometry.cache import write_atomic
from ..geometry.model import Model
from .offscreen import prepare_offscreen


def model_polydata(model: Model, mask: np.ndarray | None = None, face_rgb: np.ndarray | None = None):
    """Triangle soup to a pyvista PolyData with an 'rgb' cell array (uint8)."""
    import pyvista as pv

    tris = model.mesh.triangles if mask is None else model.mesh.triangles[mask]
    n = len(tris)
    faces = np.empty((n, 4), dtype=np.int64)
    faces[:, 0] = 3
    faces[:, 1:] = np.arange(n * 3).reshape(n, 3)
    poly = pv.PolyData(tris.reshape(-1, 3).astype(np.float32), faces.reshape(-1))
    if face_rgb is None:
        codes = model.mesh.face_colour if mask is None else model.mesh.face_colour[mask]
        face_rgb = model.colours.rgb_array(codes)
    poly.cell_data["rgb"] = np.asarray(face_rgb, dtype=np.uint8)
    return poly


def new_plotter(off_screen: bool, size: tuple[int, int] = (1024, 768)):
    if off_screen:
        prepare_offscreen()
    import pyvista as pv

    pl = pv.Plotter(off_screen=off_screen, window_size=list(size))
    pl.set_background("white")
    return pl


def add_model(pl, model: Model, mask=None, face_rgb=None, edges: bool = True, opacity: float = 1.0):
    poly = model_polydata(model, mask, face_rgb)
    if poly.n_cells == 0:
        return None
    actor = pl.add_mesh(poly, scalars="rgb", rgb=True, smooth_shading=False, opacity=opacity,
                        show_scalar_bar=False)
    if edges:
        # LDraw draws part outlines; sharp feature edges of the soup are the same lines.
        fe = poly.clean(tolerance=1e-3).extract_feature_edges(feature_angle=40, boundary_edges=True,
                                                               non_manifold_edges=False, manifold_edges=False)
        if fe.n_cells:
            pl.add_mesh(fe, color=(0.15, 0.15, 0.15), line_width=1)
    return actor


def frame_camera(pl, lo: np.ndarray, hi: np.ndarray) -> None:
    """Three-quarter view from the front-left-top; LDraw's up is -Y."""
    centre = (lo + hi) / 2
    radius = float(np.linalg.norm(hi - lo)) / 2 or 50.0
    direction = np.array([-1.0, -0.8, -1.3])
    direction /= np.linalg.norm(direction)
    pl.camera_position = [tuple(centre + direction * radius * 2.6), tuple(centre), (0, -1, 0)]
    pl.reset_camera_clipping_range()


def render_png(model: Model, out: str | Path, size: tuple[int, int] = (1024, 768), face_rgb=None,
               edges: bool = True) -> Path:
    """Off-screen PNG of the whole model, written atomically."""
    pl = new_plotter(True, size)
    add_model(pl, model, face_rgb=face_rgb, edges=edges)
    lo, hi = model.bbox_ldu
    frame_camera(pl, lo, hi)
    img = pl.screenshot(return_img=True)
    pl.close()
    return save_png(img, out)


def save_png(img: np.ndarray, out: str | Path) -> Path:
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(img).save(buf, format="PNG")
    out = Path(out)
    write_atomic(out, buf.getvalue())
    return out


def show(model: Model, face_rgb=None) -> None:
    pl = new_plotter(False)
    add_model(pl, model, face_rgb=face_rgb)
    lo, hi = model.bbox_ldu
    frame_camera(pl, lo, hi)
    pl.show()
