"""ldraw2mesh (a Rust LDraw reader on PyPI) as an independent reference: triangle and instance counts, timing.

ldraw2mesh reads only an unzipped library and trips over capital letters in file names, so it gets an
unzipped copy of the library and a lower-case link to the model.
"""
from __future__ import annotations

import os
import tempfile
import time
import zipfile
from pathlib import Path

import numpy as np


def unzipped_library(zip_path: Path, dest: Path | None = None) -> Path:
    """Unzip once into a cache folder (keyed by the zip's size and mtime) and return its ldraw/ folder."""
    st = zip_path.stat()
    root = dest or Path(tempfile.gettempdir()) / f"brikscan-ldraw-{st.st_size}-{st.st_mtime_ns}"
    done = root / ".complete"
    if not done.exists():
        root.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(zip_path) as z:
            z.extractall(root)
        done.write_text("ok")
    return root / "ldraw"


def lower_case_link(model: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    link = folder / model.name.lower().replace(" ", "_")
    if not link.exists():
        os.symlink(model.resolve(), link)
    return link


def ldraw2mesh_load(model: Path, lib_dir: Path, link_dir: Path) -> dict:
    """Load with ldraw2mesh and flatten to one world triangle array (what brikscan's load produces)."""
    import ldraw2mesh

    link = lower_case_link(model, link_dir)
    t0 = time.perf_counter()
    scene = ldraw2mesh.load_scene(link, ldraw_library=lib_dir, scale=1.0)
    chunks = []
    instances = 0
    for (geo, _colour), mats in scene.geometry_world_transforms.items():
        g = scene.geometry_cache[geo]
        if geo.name.lower().endswith(".dat"):  # parts; other nodes are submodels' inline geometry
            instances += len(mats)
        if len(g.face_sizes) == 0:
            continue
        tri = g.vertices[g.vertex_indices.reshape(-1, 3)]  # triangulated: every face has 3 corners
        m = np.asarray(mats)  # (k,4,4), row-major with the translation in the last column
        world = np.einsum("kij,nvj->knvi", m[:, :3, :3], tri) + m[:, None, None, :3, 3]
        chunks.append(world.reshape(-1, 3, 3))
    flat = np.concatenate(chunks) if chunks else np.zeros((0, 3, 3), np.float32)
    elapsed = time.perf_counter() - t0
    return {"triangles": int(len(flat)), "instances": instances, "seconds": elapsed,
            "bbox_min": flat.reshape(-1, 3).min(axis=0) if len(flat) else None,
            "bbox_max": flat.reshape(-1, 3).max(axis=0) if len(flat) else None}
