"""The model mesh to a file other programs open (glb, obj, ply, stl), in LDraw colours, written atomically."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import trimesh

from ..errors import UsageError
from .cache import write_atomic
from .model import Model

FORMATS = ("glb", "obj", "ply", "stl")


def to_trimesh(model: Model, mask: np.ndarray | None = None) -> trimesh.Trimesh:
    """Triangle soup to a welded trimesh with per-face RGBA; LDraw's -Y up is kept (LDU units)."""
    tris = model.mesh.triangles if mask is None else model.mesh.triangles[mask]
    codes = model.mesh.face_colour if mask is None else model.mesh.face_colour[mask]
    rgb = model.colours.rgb_array(codes)
    rgba = np.concatenate([rgb, np.full((len(rgb), 1), 255, np.uint8)], axis=1)
    verts = tris.reshape(-1, 3).astype(np.float64)
    faces = np.arange(len(verts)).reshape(-1, 3)
    return trimesh.Trimesh(verts, faces, face_colors=rgba, process=False)


def export_model(model: Model, out: str | Path) -> Path:
    out = Path(out)
    fmt = out.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise UsageError(f"unknown export format {out.suffix!r}; use one of {', '.join('.' + f for f in FORMATS)}")
    if out.resolve() == Path(model.path).resolve():
        raise UsageError("refusing to overwrite the input model", file=str(out))
    mesh = to_trimesh(model)
    data = mesh.export(file_type=fmt)
    write_atomic(out, data if isinstance(data, bytes) else data.encode())
    return out
