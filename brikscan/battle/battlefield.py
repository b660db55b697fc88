"""A battlefield: one LDraw model, or a scene file's models placed together, with its units and creations.

Scene models are loaded once each, moved into place and concatenated into one ``ModelMesh`` with unique element
indices (elements of model k follow those of model k-1), so sight and rendering see a single Model-like object.
"""
from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import Diagnostic, InputError, NotFoundError
from ..geometry.model import Element, Model, ModelMesh
from ..analysis.stats import Analysis, analyse
from ..geometry.units import DEFAULT_SCALE
from .scene_file import AttackEntry, parse_length, read_scene
from .units import Unit, creation_unit, dedupe_names, find_units


@dataclass
class Placement:
    name: str
    path: Path
    first_element: int
    n_elements: int
    transform: np.ndarray  # 4x4 model -> battlefield (LDU)
    side: str | None = None


@dataclass
class Battlefield:
    """What sight needs: elements, one world mesh, colours, units, and which placement each element came from."""

    name: str
    path: Path
    elements: list[Element]
    mesh: ModelMesh
    colours: object  # ColourTable
    units: list[Unit]
    placements: list[Placement] = field(default_factory=list)
    attacks: list[AttackEntry] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    ldu_per_inch: float = 63.5
    analyses: list[Analysis] = field(default_factory=list, repr=False)  # one per placement
    scale: str = DEFAULT_SCALE
    cache: dict = field(default_factory=dict, repr=False)  # ray engine etc., built once per battlefield

    @property
    def bbox_ldu(self) -> tuple[np.ndarray, np.ndarray]:
        return self.mesh.bbox()

    def placement_of(self, element: int) -> str | None:
        for p in self.placements:
            if p.first_element <= element < p.first_element + p.n_elements:
                return p.name
        return None

    def unit_named(self, name: str) -> Unit:
        for u in self.units:
            if u.name.lower() == name.lower():
                return u
        raise NotFoundError(f"no unit named {name!r} (units: {', '.join(u.name for u in self.units[:12])})",
                            file=str(self.path))

    def owner_of(self, element: int) -> str | None:
        """The unit or creation an element belongs to, else its scene placement (for 'blocked by' reports)."""
        for u in self.units:
            if element in u.elements:
                return u.name
        return self.placement_of(element)


def _rot_y(deg: float) -> np.ndarray:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def _load(path: Path, library):
    from ..geometry.model import load

    return load(path, library)


def from_analysis(analysis: Analysis, *, creations: bool = True) -> Battlefield:
    """A plain LDraw model as a battlefield: the units are its analysis' minifigs and creations."""
    model = analysis.model
    units = find_units(analysis, creations=creations)
    return Battlefield(model.name, model.path, model.elements, model.mesh, model.colours, units,
                       [Placement(model.path.stem, model.path, 0, len(model.elements), np.eye(4))],
                       diagnostics=list(model.diagnostics) + list(analysis.diagnostics),
                       ldu_per_inch=analysis.ldu_per_inch, analyses=[analysis], scale=analysis.scale)


def from_model(model: Model, *, creations: bool = True, scale: str = DEFAULT_SCALE,
               rules: str = "2010") -> Battlefield:
    return from_analysis(analyse(model, rules=rules, scale=scale), creations=creations)


def load_battlefield(path: str | Path, library=None, *, creations: bool = True,
                     scale: str | None = None, rules: str | None = None,
                     analyses: dict[Path, Analysis] | None = None) -> Battlefield:
    """A ``.ldr``/``.mpd`` model or a scene ``.toml`` as a battlefield (``scale``/``rules``: None = the scene
    file's, else inch and 2010). ``analyses``: for a scene, the analyses to use for its model files (by resolved
    path; the battle table passes its role-changed ones), the others are analysed as usual."""
    path = Path(path)
    if path.suffix.lower() == ".toml":
        return load_scene(path, library, creations=creations, scale=scale, rules=rules, known=analyses)
    return from_model(_load(path, library), creations=creations, scale=scale or DEFAULT_SCALE,
                      rules=rules or "2010")


def load_scene(path: str | Path, library=None, *, creations: bool = True, scale: str | None = None,
               rules: str | None = None, known: dict[Path, Analysis] | None = None) -> Battlefield:
    path = Path(path)
    scene = read_scene(path)
    scale = scale or scene.scale
    rules = rules or scene.rules
    analyses: list[Analysis] = []
    lpi = 0.0
    models: dict[Path, Analysis] = dict(known or {})  # file -> its analysis (a file placed twice: once)
    elements: list[Element] = []
    el_tris, el_cols, el_owner, inline_tris, inline_cols = [], [], [], [], []
    counts: list[np.ndarray] = []
    placements: list[Placement] = []
    units: list[Unit] = []
    diags: list[Diagnostic] = []
    colours = None
    found_in: dict[tuple[Path, bool], list[Unit]] = {}
    plain_first: ModelMesh | None = None  # the first model's mesh when it is placed as built
    for k, entry in enumerate(scene.models):
        file = (path.parent / entry.file).resolve()
        if not file.exists():
            raise InputError(f"models[{k}].file: no such file {entry.file!r}", file=str(path))
        if file not in models:
            models[file] = analyse(_load(file, library), rules=rules, scale=scale)
        an = models[file]
        analyses.append(an)
        m = an.model
        lpi = an.ldu_per_inch
        colours = colours or m.colours
        name = entry.name or Path(entry.file).stem
        pos = [parse_length(v, lpi) for v in entry.position]
        if len(pos) == 2:
            pos = [pos[0], 0.0, pos[1]]
        xf = np.eye(4)
        xf[:3, :3] = _rot_y(entry.rotation)
        xf[:3, 3] = pos
        base = len(elements)
        rot, off = xf[:3, :3], xf[:3, 3]
        mesh = m.mesh
        n_el = len(m.elements)
        n_el_faces = int(mesh.element_offsets[-1]) if n_el else 0
        if np.allclose(xf, np.eye(4)):  # placed as built: no 64-bit copy of a big model's triangles
            tris = mesh.triangles
            if k == 0:
                plain_first = mesh
        else:
            tris = (mesh.triangles.astype(np.float64) @ rot.T + off).astype(np.float32)
        # views, not copies: the one copy of a big model's triangles is the concatenation below
        el_tris.append(tris[:n_el_faces].astype(np.float32, copy=False))
        el_cols.append(mesh.face_colour[:n_el_faces])
        el_owner.append(mesh.face_element[:n_el_faces] + base if base else mesh.face_element[:n_el_faces])
        inline_tris.append(tris[n_el_faces:].astype(np.float32, copy=False))
        inline_cols.append(mesh.face_colour[n_el_faces:])
        counts.append(np.diff(mesh.element_offsets))
        if n_el:  # each element's box: the box of its moved box's 8 corners, all elements at once
            blo, bhi = m.element_boxes()
            pick = np.array([[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)], dtype=bool)  # (8,3)
            corners = np.where(pick[None], bhi[:, None, :], blo[:, None, :]) @ rot.T + off  # (E,8,3)
            cmin, cmax = corners.min(axis=1), corners.max(axis=1)
            moved = xf[None] @ np.array([e.transform for e in m.elements], dtype=np.float64)
        for k, e in enumerate(m.elements):
            elements.append(dataclasses.replace(e, index=base + e.index, transform=moved[k], bbox_min=cmin[k],
                                                bbox_max=cmax[k]))
        placements.append(Placement(name, file, base, n_el, xf, entry.side))
        key = (file, creations and not entry.target)
        if key not in found_in:  # a file placed thirty times: its units found once, each placement copies them
            found_in[key] = find_units(an, creations=key[1])
        found = found_in[key]
        minifigs = [u for u in found if u.is_minifig]
        for u in found:
            orig = u.name
            u = dataclasses.replace(u, elements=[i + base for i in u.elements],
                                    sections={s: [i + base for i in v] for s, v in u.sections.items()},
                                    eye_ldu=rot @ u.eye_ldu + off, position_ldu=rot @ u.position_ldu + off,
                                    muzzle_ldu=None if u.muzzle_ldu is None else rot @ u.muzzle_ldu + off,
                                    hands=[i + base for i in u.hands],
                                    side=u.side or entry.side, found_as=f"{name}/{orig}")
            if u.is_minifig and not _explicit(u.name, m):
                if len(minifigs) == 1 and not entry.target:
                    u.name = name  # a one-minifig model is named by its placement
                elif re.fullmatch(r"minifig-\d+", u.name):
                    u.name = f"{name}-{u.name.rsplit('-', 1)[1]}"  # squad-1, squad-2, …
            u.creation = u.creation or name
            units.append(u)
        if entry.target:
            taken = {i for u in units for i in u.elements}
            rest = [base + e.index for e in m.elements if base + e.index not in taken]
            if rest:
                units.append(creation_unit(elements, name, entry.kind, rest, side=entry.side))
        diags.extend(m.diagnostics)
    offsets = np.zeros(len(elements) + 1, dtype=np.int64)
    np.cumsum(np.concatenate(counts) if counts else np.zeros(0, np.int64), out=offsets[1:])
    inline_owner = [np.full(len(t), -1, np.int32) for t in inline_tris]
    if plain_first is not None and not len(inline_tris[0]):  # the first model as built, then the rest after it
        tris, fel, cols = plain_first.followed_by(el_tris[1:] + inline_tris[1:], el_owner[1:] + inline_owner[1:],
                                                  el_cols[1:] + inline_cols[1:])
    else:
        tris = np.concatenate(el_tris + inline_tris)
        fel = np.concatenate(el_owner + inline_owner).astype(np.int32)
        cols = np.concatenate(el_cols + inline_cols).astype(np.int32)
    mesh = ModelMesh(tris, fel, cols, offsets)
    units = dedupe_names(units)
    _apply_unit_entries(scene, units, path)
    for i, a in enumerate(scene.attacks):
        for key, who in (("from", a.from_), ("to", a.to)):
            if not any(u.name.lower() == who.lower() for u in units):
                raise InputError(f"attacks[{i}].{key}: no unit named {who!r}", file=str(path))
    return Battlefield(scene.name or path.stem, path, elements, mesh, colours, units, placements, scene.attacks,
                       diags, lpi, analyses, scale)


def _explicit(name: str, model: Model) -> bool:
    """True when the name came from a ``!BRIKSCAN UNIT`` annotation (kept as written)."""
    return any("BRIKSCAN" in t.upper() and name in t for f in model.files.values() for _, t in f.metas)


def _apply_unit_entries(scene, units: list[Unit], path: Path) -> None:
    """``[[units]]``: rename found units and give them sides; an unknown unit is an error naming the key."""
    for i, entry in enumerate(scene.units):
        want = entry.unit.lower()
        match = [u for u in units if u.name.lower() == want or (u.found_as or "").lower() == want]
        if not match:
            choices = ", ".join(u.name for u in units[:12])
            raise InputError(f"units[{i}].unit: no unit {entry.unit!r} in the scene (units: {choices})",
                             file=str(path))
        u = match[0]
        if entry.name:
            if any(o is not u and o.name.lower() == entry.name.lower() for o in units):
                raise InputError(f"units[{i}].name: {entry.name!r} is already a unit's name", file=str(path))
            u.name = entry.name
        if entry.side:
            u.side = entry.side
