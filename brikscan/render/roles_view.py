"""Per-face colours that show BrikWars roles: Structural elements keep their LDraw colours, greyed so that a red
or a blue brick is never read as a weapon's or an engine's tint; the rest are tinted."""
from __future__ import annotations

import numpy as np

ROLE_RGB = {
    "weapon": (220, 30, 30),
    "propulsion": (30, 90, 230),
    "device": (250, 170, 0),
    "decoration": (40, 170, 60),
    "weak point": (200, 0, 200),
    "crew": (0, 190, 200),
}
TINT = 0.7  # share of the role colour in a tinted face
GREY = 0.6  # share of its own grey (same luminance) in a Structural face: its colour shows, faded under the tints


STRUCTURAL_RGB = (150, 150, 150)  # the key's swatch for Structure (and the web app's roles layer tints it so)


def role_palette() -> dict[str, tuple[int, int, int]]:
    """Every role's colour, Structure's included: the one palette of the pictures, the cards and the web app."""
    return {"structural": STRUCTURAL_RGB, **ROLE_RGB}


def role_legend() -> dict[str, tuple[int, int, int]]:
    """What the tints of ``role_face_rgb`` mean, for a picture's key (Structure keeps its brick colours)."""
    return {"structural (own colours, greyed)": STRUCTURAL_RGB, **ROLE_RGB}


def element_roles(analysis) -> dict[int, str]:
    out: dict[int, str] = {}
    for c in analysis.creations:
        for i, r in c.roles.items():
            out[i] = r.role
    return out


def role_face_rgb(model, analysis=None) -> np.ndarray:
    """(F,3) uint8: greyed LDraw colours for structural faces, role tints for the others (see ``ROLE_RGB``)."""
    if analysis is None:
        from ..analysis.stats import analyse

        analysis = analyse(model)
    base = model.colours.rgb_array(model.mesh.face_colour).astype(np.float32)
    n_el = len(model.elements)
    role_idx = np.full(n_el + 1, -1, dtype=np.int64)  # last slot: inline geometry (-1)
    names = list(ROLE_RGB)
    for i, role in element_roles(analysis).items():
        if role in ROLE_RGB:
            role_idx[i] = names.index(role)
    fe = model.mesh.face_element
    per_face = role_idx[np.where(fe >= 0, fe, n_el)]
    tint = np.array([ROLE_RGB[k] for k in names], dtype=np.float32)
    mask = per_face >= 0
    luma = base @ np.array([0.299, 0.587, 0.114], dtype=np.float32)  # Rec. 601 luma: the face's own grey
    out = (1 - GREY) * base + GREY * luma[:, None]
    out[mask] = (1 - TINT) * base[mask] + TINT * tint[per_face[mask]]
    return np.clip(out, 0, 255).astype(np.uint8)
