"""The model mesh to a file other programs open (glb, obj, ply, stl), in LDraw colours, written atomically.

By default in metres with +Y up (glTF's convention, which most programs also assume for OBJ and STL): LDraw's
-Y up becomes +Y by a half turn about X (handedness and winding kept) and 1 LDU = 0.4 mm. ``units="ldu"`` keeps
LDraw's own frame and units.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import trimesh

from ..errors import UsageError
from .cache import write_atomic
from .model import Model

FORMATS = ("glb", "obj", "ply", "stl")
UNITS = ("m", "ldu")
METRES_PER_LDU = 0.0004
# LDraw (x, y, z), -Y up  ->  (x, -y, -z), +Y up: a rotation, so triangles keep their winding.
TO_Y_UP = np.diag([1.0, -1.0, -1.0])


def to_trimesh(model: Model, mask: np.ndarray | None = None, units: str = "ldu") -> trimesh.Trimesh:
    """Triangle soup to a trimesh with per-face RGBA: LDU and LDraw's -Y up, or (``units="m"``) metres, +Y up."""
    tris = model.mesh.triangles if mask is None else model.mesh.triangles[mask]
    codes = model.mesh.face_colour if mask is None else model.mesh.face_colour[mask]
    rgb = model.colours.rgb_array(codes)
    rgba = np.concatenate([rgb, np.full((len(rgb), 1), 255, np.uint8)], axis=1)
    verts = tris.reshape(-1, 3).astype(np.float64)
    if units == "m":
        verts = verts @ TO_Y_UP * METRES_PER_LDU
    faces = np.arange(len(verts)).reshape(-1, 3)
    return trimesh.Trimesh(verts, faces, face_colors=rgba, process=False)


def export_model(model: Model, out: str | Path, units: str = "m") -> Path:
    """Write the mesh as ``out``'s format; ``units``: "m" (metres, +Y up, default) or "ldu" (LDraw's frame)."""
    if units not in UNITS:
        raise UsageError(f"--units {units!r}: choose m or ldu")
    out = Path(out)
    fmt = out.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise UsageError(f"unknown export format {out.suffix!r}; use one of {', '.join('.' + f for f in FORMATS)}")
    if out.resolve() == Path(model.path).resolve():
        raise UsageError("refusing to overwrite the input model", file=str(out))
    mesh = to_trimesh(model, units=units)
    data = mesh.export(file_type=fmt)
    write_atomic(out, data if isinstance(data, bytes) else data.encode())
    return out
