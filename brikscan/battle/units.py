"""Units on a battlefield, read from the model's ``Analysis``: its minifigs and its other creations.

A minifig has three sections for visibility: head (with helmet, hat or hair), torso (with arms and hands, not
carried items) and legs [000 §5.1 Target Size]; the analysis assembles them. Here only what sight adds: where
the eyes and feet are, and where a ranged weapon's barrel ends.
"""
from __future__ import annotations

import hashlib

from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError
from ..geometry.boxes import elements_box

SECTIONS = ("head", "torso", "legs")

# creation weapon types (brikscan.analysis roles) that shoot from a barrel end
RANGED_TYPES = ("gun", "cannon", "rocket", "flamethrower", "launcher")


@dataclass
class Unit:
    """Something that sees or is seen: a minifig (three sections) or a creation (one body)."""

    name: str
    kind: str  # "minifig" or a creation kind ("vehicle", "building", ...)
    elements: list[int]
    sections: dict[str, list[int]]  # minifigs: "head", "torso", "legs"; creations: {"body": [...]}
    eye_ldu: np.ndarray  # where its sight lines start
    position_ldu: np.ndarray  # where it stands (feet / bottom centre), for range and height advantage
    creation: str | None = None  # the creation (analysis name or scene placement) it belongs to / is
    side: str | None = None
    found_as: str | None = None  # in a scene: "placement/name as found", for [[units]] references
    muzzle_ldu: np.ndarray | None = None  # barrel end of its ranged weapon (None: it has none); see barrel_end
    # its ranged weapons as groups of positions in ``elements`` (positions survive a scene's index shift)
    weapon_slots: list[list[int]] | None = field(default=None, repr=False)
    hands: list[int] = field(default_factory=list, repr=False)  # minifigs: hand elements (where weapons are held)

    @property
    def is_minifig(self) -> bool:
        return self.kind == "minifig"


def element_triangles(mesh, ids) -> np.ndarray:
    """The triangles of some elements (each owns a contiguous run of faces): no full-mesh mask needed."""
    return mesh.triangles[mesh.face_runs(list(ids))]


def _eye_and_feet(elements, sections: dict[str, list[int]], body: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Eyes at the head's centre (headless: the top of the torso), feet under the legs (-Y is up)."""
    head = [i for i in sections.get("head", [])]
    torso = sections.get("torso") or head or sections.get("legs") or body  # a lone pair of legs stands too
    legs = sections.get("legs", [])
    tlo, thi = elements_box(elements, torso)
    if head:
        lo, hi = elements_box(elements, head)
        eye = (lo + hi) / 2
    else:
        eye = np.array([(tlo[0] + thi[0]) / 2, tlo[1] - 4.0, (tlo[2] + thi[2]) / 2])
    c = (tlo + thi) / 2
    if legs:  # stands where its legs are (arms and held items do not move its feet)
        llo, lhi = elements_box(elements, legs)
        c = (llo + lhi) / 2
    feet_y = elements_box(elements, legs)[1][1] if legs else thi[1] + 44.0
    return eye.astype(float), np.array([c[0], feet_y, c[2]], dtype=float)


def minifig_unit(model, creation, card) -> Unit:
    """A minifig creation of the analysis as a unit: its sections, eyes, feet and held ranged weapons."""
    secs = creation.sections
    sections = {s: sorted(secs.get(s, [])) for s in SECTIONS}
    u = Unit(creation.name, "minifig", sorted(creation.elements), sections,
             *_eye_and_feet(model.elements, sections, list(creation.elements)), creation=creation.name,
             side=creation.side)
    u.hands = list(secs.get("hands", []))
    _set_weapons(u, _ranged_groups(card))
    u.muzzle_ldu = barrel_end(model.elements, model.mesh, u)
    return u


def dedupe_names(units: list[Unit]) -> list[Unit]:
    """The same submodel placed five times gives 'soldier', 'soldier-2', … in file order."""
    seen: dict[str, int] = {}
    for u in units:
        k = u.name.lower()
        seen[k] = seen.get(k, 0) + 1
        if seen[k] > 1:
            u.name = f"{u.name}-{seen[k]}"
    return units


def _ranged_groups(card) -> list[list[int]]:
    """The stat card's ranged weapons (guns, cannons, rockets, flamethrowers, launchers), one list each."""
    return [list(w.elements) for w in card.weapons if w.type in RANGED_TYPES]


def ranged_weapons(elements, unit: Unit) -> list[list[int]]:
    """The unit's ranged weapons (element indices, one list per weapon), as its stat card lists them."""
    n = len(unit.elements)
    return [[unit.elements[k] for k in g if k < n] for g in (unit.weapon_slots or []) if g]


def _points(mesh, ids: list[int]) -> np.ndarray:
    """The distinct vertices of some elements."""
    tris = element_triangles(mesh, ids)
    if not len(tris):
        return np.zeros((0, 3))
    v = tris.reshape(-1, 3).astype(np.float64)
    if np.any((v == 0) & np.signbit(v)):  # -0.0 and 0.0 are one point: np.unique's choice of which is kept
        return np.unique(v, axis=0)
    # np.unique(v, axis=0)'s rows in its order (lexicographic), five times faster than its structured sort
    s = v[np.lexsort((v[:, 2], v[:, 1], v[:, 0]))]
    keep = np.ones(len(s), dtype=bool)
    np.any(s[1:] != s[:-1], axis=1, out=keep[1:])
    return s[keep]


def _long_axis(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Centre, unit direction and length of the longest axis of the points' oriented bounding box."""
    try:
        from ..geometry.obb import oriented_bounds  # trimesh's box, bit for bit, in half the time

        to_origin, ext = oriented_bounds(pts)
        k = int(np.argmax(ext))
        back = np.linalg.inv(to_origin)
        return back[:3, 3].copy(), back[:3, k] / np.linalg.norm(back[:3, k]), float(ext[k])
    except Exception:  # flat or degenerate: the principal axis
        c = pts.mean(axis=0)
        _, _, vt = np.linalg.svd(pts - c, full_matrices=False)
        d = vt[0]
        proj = (pts - c) @ d
        mid = (proj.max() + proj.min()) / 2
        return c + d * mid, d, float(np.ptp(proj))


def _remembered_long_axis(local: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """``_long_axis(local)`` of a weapon's points in its own frame, remembered on disk by their bytes (the box
    search is most of finding a bow's barrel; analysis/part_memo.py)."""
    from ..analysis.part_memo import remembered

    def packed() -> np.ndarray:
        c, a, length = _long_axis(local)
        return np.concatenate([np.asarray(c, np.float64), np.asarray(a, np.float64), [np.float64(length)]])

    v = remembered("long-axis", (__name__, "brikscan.geometry.obb"), (local,), (), packed,
                   libraries=("trimesh", "scipy"))
    return v[:3].copy(), v[3:6].copy(), float(v[6])


def barrel_end(elements, mesh, unit: Unit) -> np.ndarray | None:
    """Where the unit's ranged weapon fires from (LDU, in the coordinates of ``mesh``), or None.

    The weapon's longest axis (its oriented bounding box) has two ends; the barrel end is the one pointing away
    from the hand holding it (a minifig: the nearest hand, else the torso) or from the creation's centre. The point
    is the centre of the weapon's vertices within a sliver of that end, so it lies on the weapon itself. With
    several ranged weapons, the longest one.
    """
    best: tuple[float, np.ndarray] | None = None
    for ids in ranged_weapons(elements, unit):
        b = weapon_barrel(elements, mesh, unit, ids)
        if b is not None and (best is None or b[2] > best[0]):
            best = (b[2], b[0])
    return None if best is None else best[1]


def weapon_barrel(elements, mesh, unit: Unit, ids: list[int]) -> tuple[np.ndarray, np.ndarray, float] | None:
    """(barrel end, unit axis pointing out of the barrel, length LDU) of one weapon of the unit, or None.

    The axis is the weapon's longest oriented-bounding-box edge, turned away from the hand holding it (or the
    creation's centre); the end is the centre of the vertices within a sliver of that end [000 §8.2]."""
    axis_of = _weapon_axis(elements, mesh, ids)
    if axis_of is None:
        return None
    pts, centre, axis, length = axis_of
    anchor = _anchor(elements, unit, ids, centre)
    if float((anchor - centre) @ axis) > 0:
        axis = -axis  # the end away from the hand / the creation's centre
    proj = (pts - centre) @ axis
    tip = pts[proj >= proj.max() - max(0.5, min(2.0, 0.03 * length))].mean(axis=0)
    return tip, axis, length


_AXIS_CACHE: dict = {}
SNAP_COS = 0.8  # within ~37° of one of the first part's own axes: that axis is the barrel's


def _weapon_axis(elements, mesh, ids: list[int]):
    """(points, centre, axis, length) of a weapon's longest axis; the oriented box is computed once per shape
    (the same parts in the same relative placement), in the first element's frame, then moved into place."""
    pts = _points(mesh, ids)
    if len(pts) < 2:
        return None
    t0 = np.asarray(elements[ids[0]].transform, dtype=float)
    try:
        inv = np.linalg.inv(t0)
    except np.linalg.LinAlgError:
        inv = None
    if inv is None:
        centre, axis, length = _long_axis(pts)
    else:
        local = pts @ inv[:3, :3].T + inv[:3, 3]
        # keyed by the exact points too: the box of a near-symmetric shape (a bow) swings with tiny differences,
        # so another model's almost-equal points must not lend it theirs (the answer would depend on what this
        # process read before); other resolutions and the fallback meshes are other points as well
        shape = hashlib.blake2b(np.ascontiguousarray(local + 0.0).tobytes(), digest_size=16).digest()
        key = (shape,) + tuple((elements[i].part, (np.round(inv @ np.asarray(elements[i].transform, float), 2) + 0.0)
                                .tobytes()) for i in ids)  # + 0.0: -0.0 and 0.0 are one key
        if key not in _AXIS_CACHE:
            if len(_AXIS_CACHE) > 4096:
                _AXIS_CACHE.clear()
            _AXIS_CACHE[key] = _remembered_long_axis(local)
        c, a, length = _AXIS_CACHE[key]
        # parts are modelled along their own axes: a gun's grip or sight must not tilt its barrel axis
        k = int(np.argmax(np.abs(a)))
        if abs(float(a[k])) >= SNAP_COS:
            a = np.eye(3)[k] * np.sign(a[k])
        centre = t0[:3, :3] @ c + t0[:3, 3]
        axis = t0[:3, :3] @ a
        n = float(np.linalg.norm(axis))
        length = length * n  # a scaled placement scales the length too
        axis = axis / (n or 1.0)
    if length <= 0:
        return None
    return pts, centre, axis, length


def weapon_anchor(elements, unit: Unit, ids: list[int]) -> np.ndarray:
    """Where a weapon is held from: the nearest hand of a minifig (else its torso), or the creation's centre."""
    lo, hi = elements_box(elements, ids)
    return _anchor(elements, unit, ids, (lo + hi) / 2)


def _anchor(elements, unit: Unit, weapon: list[int], centre: np.ndarray) -> np.ndarray:
    """The hand nearest the weapon (minifigs; else the torso), or the creation's centre."""
    def box_centre(ids):
        lo, hi = elements_box(elements, ids)
        return (lo + hi) / 2

    others = [i for i in unit.elements if i not in set(weapon)] or list(unit.elements)
    if unit.is_minifig:
        hands = [i for i in unit.hands if i not in set(weapon)]
        if hands:
            cs = [box_centre([i]) for i in hands]
            return min(cs, key=lambda c: float(np.linalg.norm(c - centre)))
        torso = unit.sections.get("torso") or others
        return box_centre(torso)
    return box_centre(others)


def _set_weapons(unit: Unit, groups: list[list[int]]) -> None:
    pos = {i: k for k, i in enumerate(unit.elements)}
    unit.weapon_slots = [s for s in ([pos[i] for i in g if i in pos] for g in groups) if s]


def creation_unit(els, name: str, kind: str, elements: list[int], side: str | None = None) -> Unit:
    """A creation as a target: one body section; its 'eye' is the top centre (for creations that look)."""
    lo, hi = elements_box(els, elements)
    c = (lo + hi) / 2
    return Unit(name, kind, sorted(elements), {"body": sorted(elements)},
                np.array([c[0], lo[1] - 1.0, c[2]]), np.array([c[0], hi[1], c[2]]), creation=name, side=side)


def find_units(analysis, *, creations: bool = True) -> list[Unit]:
    """Minifigs (viewers and targets) plus the other creations (targets, and viewers with a weapon), in the
    analysis' order and with its names: the same Size, SL and Armor the stat cards show."""
    model = analysis.model
    units = [minifig_unit(model, c, card) for c, card in zip(analysis.creations, analysis.cards)
             if c.kind == "minifig"]
    if creations:
        for c, card in zip(analysis.creations, analysis.cards):
            if c.kind in ("minifig", "loose item", "scenery") or not c.elements:
                continue
            u = creation_unit(model.elements, c.name, c.kind, list(c.elements), side=c.side)
            _set_weapons(u, _ranged_groups(card))
            u.muzzle_ldu = barrel_end(model.elements, model.mesh, u)
            units.append(u)
    return units


def require_minifigs(units: list[Unit], where: str) -> None:
    if not any(u.is_minifig for u in units):
        raise InputError("no minifigs found (line of sight needs at least one minifig unit)", file=where)


def select(units: list[Unit], name: str | None, what: str | None, *, noun: str = "unit", shown: int = 12
           ) -> list[Unit]:
    """Units by exact (case-insensitive) name, comma-separated; an unknown name is a one-line NotFoundError
    listing the first ``shown`` choices: "no unit named 'x' for --from (units: …)", or with ``noun="attacker"``
    and no ``what``: "no attacker named 'x' (attackers: …)" (exit 5)."""
    from ..errors import NotFoundError

    if name is None:
        return list(units)
    out: list[Unit] = []
    for w in (n.strip() for n in name.split(",") if n.strip()):
        match = [u for u in units if u.name.lower() == w.lower()]
        if not match:
            choices = ", ".join(u.name for u in units[:shown]) + (" …" if len(units) > shown else "")
            where = f" for {what}" if what else ""
            raise NotFoundError(f"no {noun} named {w!r}{where} ({noun}s: {choices or 'none'})")
        out.extend(m for m in match if m not in out)
    return out
