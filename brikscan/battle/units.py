"""Units on a battlefield: minifigs found from their parts, and creations that can be targets.

A minifig is its head, torso and legs assembled together with its headgear and equipment. BrikWars cares about
three sections for visibility: head (with helmet, hat or hair), torso (with arms and hands, not carried items) and
legs [000 §5.1 Target Size]. Until the creation analysis (``brikscan.analysis.creations``) is there, minifigs are
grouped here: first by the submodel instance they were built in, then by touching bounding boxes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError

SECTIONS = ("head", "torso", "legs")

# part role -> section (None: equipment, part of the unit but of no section)
_ROLE_SECTION = {"head": "head", "headwear": "head", "torso": "torso", "arm": "torso", "hand": "torso",
                 "body": "torso", "hips": "legs", "legs": "legs", "accessory": None}

_HEADWEAR = re.compile(r"^minifig (hat|helmet|hair|headdress|headgear|headwear|cap|crown|visor|hood|bandana|"
                       r"wig|mask|plume|head ?piece|turban|cowl|beard|ponytail)", re.I)
# Ranged weapons a minifig holds: "Minifig Gun Rifle", "Minifig Weapon Blaster …", "Minifig Long Bow with Arrow",
# "Minifig Crossbow", "Minifig Machine Gun" (words, never substrings: no "Bowl", "Bowed", "Hair Decoration Bow").
_RANGED_WORDS = {"gun", "guns", "blaster", "bow", "crossbow", "pistol", "rifle", "musket", "flintlock", "revolver",
                 "speargun", "harpoon", "bazooka", "launcher", "shooter", "carbine", "shotgun", "cannon"}
# creation weapon types (brikscan.analysis roles) that shoot from a barrel end
RANGED_TYPES = ("gun", "cannon", "rocket", "flamethrower", "launcher")
_UNIT_META = re.compile(r'^!BRIKSCAN\s+UNIT\b(.*)$', re.I)
_NAME_ARG = re.compile(r'name\s*=\s*(?:"([^"]*)"|(\S+))', re.I)
_SIDE_ARG = re.compile(r'side\s*=\s*(?:"([^"]*)"|(\S+))', re.I)


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
    # its ranged weapons as groups of positions in ``elements`` (positions survive a scene's index shift);
    # None: not known, found from the parts (see ranged_weapons)
    weapon_slots: list[list[int]] | None = field(default=None, repr=False)

    @property
    def is_minifig(self) -> bool:
        return self.kind == "minifig"


def elements_box(elements, ids) -> tuple[np.ndarray, np.ndarray]:
    """(min, max) corners of the bounding box of some elements (``ids`` must not be empty)."""
    lo = np.min([elements[i].bbox_min for i in ids], axis=0)
    hi = np.max([elements[i].bbox_max for i in ids], axis=0)
    return np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)


def element_triangles(mesh, ids) -> np.ndarray:
    """The triangles of some elements (each owns a contiguous run of faces): no full-mesh mask needed."""
    return mesh.triangles[mesh.face_runs(list(ids))]


def part_role(description: str, category: str) -> str | None:
    """The minifig role of a part from its LDraw description/category, or None for a non-minifig part."""
    d = description.lstrip("~_=| ").strip()
    dl = d.lower()
    cat = (category or "").lower()
    if not (dl.startswith("minifig") or cat.startswith("minifig")):
        return None
    if cat == "minifig headwear" or _HEADWEAR.match(d):
        return "headwear"
    if re.match(r"^minifig (skeleton )?head\b", dl):
        return "head"
    if re.match(r"^minifig (skeleton )?torso\b", dl):
        return "torso"
    if re.match(r"^minifig (skeleton )?arm\b", dl) or "mechanical arm" in dl:
        return "arm"
    if re.match(r"^minifig (skeleton )?hand\b", dl):
        return "hand"
    if re.match(r"^minifig (skeleton )?hips\b", dl):
        return "hips"
    if re.match(r"^minifig (skeleton )?(legs?|skirt|leg)\b", dl) or "minifig hips and legs" in dl:
        return "legs"
    if re.match(r"^minifig (neck|armour|armor|cape|airtanks|back ?pack|vest|life jacket)\b", dl):
        return "body"
    return "accessory"


def is_ranged_weapon_part(description: str, category: str) -> bool:
    """A minifig gun, blaster, bow or crossbow by its LDraw description (and category)."""
    words = re.findall(r"[a-z0-9]+", (description or "").lstrip("~_=| ").lower())
    cat = (category or "").lower()
    if not words or not (words[0] == "minifig" or cat.startswith("minifig")):
        return False
    lead = words[1:] if words[0] == "minifig" else words
    if lead[:1] == ["weapon"]:
        lead = lead[1:]
    return any(w in _RANGED_WORDS for w in lead[:2])


def _gap(amin, amax, bmin, bmax) -> float:
    """Distance between two axis-aligned boxes (0 when they touch or overlap)."""
    d = np.maximum(0.0, np.maximum(amin - bmax, bmin - amax))
    return float(np.linalg.norm(d))


def _group_minifigs(elements, roles: dict[int, str], tol: float = 6.0) -> list[list[int]]:
    """Minifig parts into minifigs: one per torso; others join by submodel instance, then by touching boxes."""
    torsos = [i for i, r in roles.items() if r == "torso"]
    group_of: dict[int, int] = {t: g for g, t in enumerate(torsos)}
    # 1. A submodel instance holding exactly one torso is that minifig (the usual way minifigs are built).
    inst_torsos: dict[tuple, list[int]] = {}
    for t in torsos:
        inst = elements[t].refs[:-1]
        if inst:
            inst_torsos.setdefault(inst, []).append(t)
    for i in roles:
        if i in group_of:
            continue
        inst = elements[i].refs[:-1]
        ts = inst_torsos.get(inst) if inst else None
        if ts and len(ts) == 1 and _gap(elements[i].bbox_min, elements[i].bbox_max, elements[ts[0]].bbox_min,
                                        elements[ts[0]].bbox_max) < 80:
            group_of[i] = group_of[ts[0]]
    # 2. Spatial: attach in rounds to a touching part already placed (hat -> head -> torso; sword -> hand -> arm).
    centre = {i: (elements[i].bbox_min + elements[i].bbox_max) / 2 for i in roles}
    pending = [i for i in roles if i not in group_of]
    while pending:
        placed = list(group_of)
        if not placed:
            break
        pmin = np.array([elements[j].bbox_min for j in placed])
        pmax = np.array([elements[j].bbox_max for j in placed])
        torso_c = {g: centre[t] for g, t in enumerate(torsos)}
        progress = []
        for i in pending:
            e = elements[i]
            d = np.maximum(0.0, np.maximum(e.bbox_min - pmax, pmin - e.bbox_max))
            gaps = np.linalg.norm(d, axis=1)
            near = np.nonzero(gaps <= tol)[0]
            if len(near) == 0:
                continue
            groups = {group_of[placed[k]] for k in near}
            if roles[i] == "accessory":
                # a carried item belongs to the minifig whose hand holds it (a long gun or a halberd may touch a
                # neighbour too): the touching hand nearest the item's origin (LDraw accessories have it at the grip)
                grip = np.asarray(e.transform)[:3, 3]
                hand_d = {g: min((float(np.linalg.norm(centre[placed[k]] - grip)) for k in near
                                  if group_of[placed[k]] == g and roles[placed[k]] == "hand"), default=np.inf)
                          for g in groups}
                best = min(groups, key=lambda g: (hand_d[g], float(np.linalg.norm(centre[i] - torso_c[g]))))
            else:
                best = min(groups, key=lambda g: float(np.linalg.norm(centre[i] - torso_c[g])))
            progress.append((i, best))
        if not progress:
            break
        body = [(i, g) for i, g in progress if roles[i] != "accessory"]
        if body:  # bodies first (hands included), then what the hands hold
            progress = body
        for i, g in progress:
            group_of[i] = g
        pending = [i for i in pending if i not in group_of]
    groups: list[list[int]] = [[] for _ in torsos]
    for i, g in group_of.items():
        groups[g].append(i)
    return [sorted(g) for g in groups]


def _meta_before(files, file_name: str, line: int) -> str | None:
    """The ``0 …`` meta text on the closest line before ``line`` in that file, if no type-1 line is between."""
    f = files.get(file_name)
    if f is None:
        return None
    prev_ref = max((r.line for r in f.refs if r.line < line), default=0)
    best = None
    for ln, text in f.metas:
        if prev_ref < ln < line and (best is None or ln > best[0]):
            best = (ln, text)
    return best[1] if best else None


def _annotation(files, refs) -> tuple[str | None, str | None]:
    """``0 !BRIKSCAN UNIT name="…" side=…`` before the minifig's first line or before a submodel reference."""
    for file_name, line in reversed(refs):
        text = _meta_before(files, file_name, line)
        if text:
            m = _UNIT_META.match(text.strip())
            if m:
                nm = _NAME_ARG.search(m.group(1))
                sd = _SIDE_ARG.search(m.group(1))
                return ((nm.group(1) if nm.group(1) is not None else nm.group(2)) if nm else None,
                        (sd.group(1) if sd.group(1) is not None else sd.group(2)) if sd else None)
    return None, None


def _submodel_name(files, elements, group: list[int], main_name: str) -> str | None:
    """The submodel this minifig was built as (file name without extension), when it holds only this minifig."""
    common = elements[group[0]].refs[:-1]
    for i in group[1:]:
        r = elements[i].refs[:-1]
        k = 0
        while k < min(len(common), len(r)) and common[k] == r[k]:
            k += 1
        common = common[:k]
    if not common:
        return None
    members = set(group)
    if any(e.refs[:len(common)] == common and e.index not in members for e in elements):
        return None  # the submodel holds more than this minifig (a floor, a vehicle): not its name
    parent_file, parent_line = common[-1]
    f = files.get(parent_file)
    raw = None
    if f is not None:
        for r in f.refs:
            if r.line == parent_line:
                raw = r.raw_name
                break
    sub = elements[group[0]].submodel_path[len(common) - 1] if len(elements[group[0]].submodel_path) >= len(
        common) else None
    name = raw or sub
    if not name or name.lower() == main_name.lower():
        return None
    name = name.replace("\\", "/").rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[0] if "." in name else name


def find_minifigs(model, *, start: int = 1) -> list[Unit]:
    """Every minifig of a model (or battlefield): name, sections, eyes, feet."""
    elements = model.elements
    roles = {e.index: r for e in elements if (r := part_role(e.description, e.category)) is not None}
    files = model.files
    main_name = model.main.name if getattr(model, "main", None) is not None else ""
    units: list[Unit] = []
    n_auto = start
    for group in _group_minifigs(elements, roles):
        sections: dict[str, list[int]] = {s: [] for s in SECTIONS}
        for i in group:
            sec = _ROLE_SECTION[roles[i]]
            if sec:
                sections[sec].append(i)
        first = min(group)
        name, side = _annotation(files, elements[first].refs)
        if not name:
            name = _submodel_name(files, elements, group, main_name)
        if not name:
            name = f"minifig-{n_auto}"
            n_auto += 1
        u = Unit(name, "minifig", group, sections, *_eye_and_feet(elements, roles, group), side=side)
        u.weapon_slots = [[k] for k, i in enumerate(u.elements)
                          if roles[i] == "accessory" and is_ranged_weapon_part(elements[i].description,
                                                                               elements[i].category)]
        u.muzzle_ldu = barrel_end(elements, model.mesh, u)
        units.append(u)
    return dedupe_names(units)


def _eye_and_feet(elements, roles, group) -> tuple[np.ndarray, np.ndarray]:
    def box(role_names):
        ids = [i for i in group if roles[i] in role_names]
        return elements_box(elements, ids) if ids else None

    torso = box({"torso"})
    head = box({"head"})
    legs = box({"legs", "hips"})
    if head is not None:
        eye = (head[0] + head[1]) / 2
    else:  # headless: the top of the torso (-Y is up)
        eye = np.array([(torso[0][0] + torso[1][0]) / 2, torso[0][1] - 4.0, (torso[0][2] + torso[1][2]) / 2])
    c = (torso[0] + torso[1]) / 2
    feet_y = legs[1][1] if legs is not None else torso[1][1] + 44.0
    return eye.astype(float), np.array([c[0], feet_y, c[2]], dtype=float)


def dedupe_names(units: list[Unit]) -> list[Unit]:
    """The same submodel placed five times gives 'soldier', 'soldier-2', … in file order."""
    seen: dict[str, int] = {}
    for u in units:
        k = u.name.lower()
        seen[k] = seen.get(k, 0) + 1
        if seen[k] > 1:
            u.name = f"{u.name}-{seen[k]}"
    return units


def _clusters(elements, ids: list[int], tol: float = 1.0) -> list[list[int]]:
    """Elements into groups of touching bounding boxes (one weapon built of several parts)."""
    groups: list[list[int]] = []
    for i in ids:
        near = [g for g in groups if any(_gap(elements[i].bbox_min, elements[i].bbox_max, elements[j].bbox_min,
                                                 elements[j].bbox_max) <= tol for j in g)]
        merged = [i] + [j for g in near for j in g]
        groups = [g for g in groups if g not in near] + [sorted(merged)]
    return groups


def ranged_weapons(elements, unit: Unit) -> list[list[int]]:
    """The unit's ranged weapons (element indices, one list per weapon).

    Recorded ``weapon_slots`` when known (minifig guns/bows held in a hand; a creation's ``weapon`` role
    elements of a ranged type from ``brikscan.analysis``); else from the parts: a minifig's gun/bow parts, a
    creation's parts whose class (``brikscan.analysis.roles.classify_part``) is a ranged weapon.
    """
    if unit.weapon_slots is not None:
        n = len(unit.elements)
        return [[unit.elements[k] for k in g if k < n] for g in unit.weapon_slots if g]
    if unit.is_minifig:
        return [[i] for i in unit.elements
                if part_role(elements[i].description, elements[i].category) == "accessory"
                and is_ranged_weapon_part(elements[i].description, elements[i].category)]
    try:
        from ..analysis.roles import classify_part
    except ImportError:
        return []
    ids = []
    for i in unit.elements:
        try:
            c = classify_part(elements[i])
        except Exception:  # an unreadable part is no weapon; sight must go on
            continue
        if c.role == "weapon" and c.type in RANGED_TYPES:
            ids.append(i)
    return _clusters(elements, ids)


def _points(mesh, ids: list[int]) -> np.ndarray:
    """The distinct vertices of some elements."""
    tris = element_triangles(mesh, ids)
    if not len(tris):
        return np.zeros((0, 3))
    return np.unique(tris.reshape(-1, 3).astype(np.float64), axis=0)


def _long_axis(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Centre, unit direction and length of the longest axis of the points' oriented bounding box."""
    try:
        import trimesh

        to_origin, ext = trimesh.bounds.oriented_bounds(pts)
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


def barrel_end(elements, mesh, unit: Unit) -> np.ndarray | None:
    """Where the unit's ranged weapon fires from (LDU, in the coordinates of ``mesh``), or None.

    The weapon's longest axis (its oriented bounding box) has two ends; the barrel end is the one pointing away
    from the hand holding it (a minifig: the nearest hand, else the torso) or from the creation's centre. The point
    is the centre of the weapon's vertices within a sliver of that end, so it lies on the weapon itself. With
    several ranged weapons, the longest one.
    """
    best: tuple[float, np.ndarray] | None = None
    for ids in ranged_weapons(elements, unit):
        pts = _points(mesh, ids)
        if len(pts) < 2:
            continue
        centre, axis, length = _long_axis(pts)
        if length <= 0:
            continue
        anchor = _anchor(elements, unit, ids, centre)
        if float((anchor - centre) @ axis) > 0:
            axis = -axis  # the end away from the hand / the creation's centre
        proj = (pts - centre) @ axis
        tip = pts[proj >= proj.max() - max(0.5, min(2.0, 0.03 * length))].mean(axis=0)
        if best is None or length > best[0]:
            best = (length, tip)
    return None if best is None else best[1]


def _anchor(elements, unit: Unit, weapon: list[int], centre: np.ndarray) -> np.ndarray:
    """The hand nearest the weapon (minifigs; else the torso), or the creation's centre."""
    def box_centre(ids):
        lo, hi = elements_box(elements, ids)
        return (lo + hi) / 2

    others = [i for i in unit.elements if i not in set(weapon)] or list(unit.elements)
    if unit.is_minifig:
        hands = [i for i in others if part_role(elements[i].description, elements[i].category) == "hand"]
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


def _creation_weapons(c) -> list[list[int]]:
    """Ranged weapons of an analysed creation: its ``weapon`` role elements (one per role group)."""
    groups: dict[str, list[int]] = {}
    for i in c.elements:
        r = c.roles.get(i)
        if r is None or r.role != "weapon":
            continue
        wtype = (r.params or {}).get("type", "")
        if wtype and wtype not in RANGED_TYPES:
            continue
        groups.setdefault(r.group or f"element:{i}", []).append(i)
    return list(groups.values())


def analysis_creations(model) -> list[Unit]:
    """Non-minifig creations from the creation analysis, when that module exists (else none)."""
    try:
        from ..analysis.connectivity import build_graph
        from ..analysis.creations import find_creations
    except ImportError:
        return []
    try:
        creations = find_creations(model, build_graph(model))
    except Exception:  # the analysis is optional for sight; a failure there must not stop a sight check
        return []
    out = []
    for c in creations:
        if getattr(c, "kind", "") in ("minifig", "loose item") or not getattr(c, "elements", None):
            continue
        u = creation_unit(model.elements, c.name, c.kind, list(c.elements))
        try:
            _set_weapons(u, _creation_weapons(c))
        except Exception:  # no role information: found from the parts later
            u.weapon_slots = None
        out.append(u)
    return out


def find_units(model, *, creations: bool = True) -> list[Unit]:
    """Minifigs (viewers and targets) plus, when available, creations (targets)."""
    units = find_minifigs(model)
    if creations:
        taken = {i for u in units for i in u.elements}
        names = {u.name.lower() for u in units}
        for c in analysis_creations(model):
            weapons = ranged_weapons(model.elements, c) if c.weapon_slots is not None else None
            c.elements = [i for i in c.elements if i not in taken]
            c.sections = {"body": c.elements}
            if weapons is not None:
                _set_weapons(c, weapons)
            if c.elements and c.name.lower() not in names:
                c.muzzle_ldu = barrel_end(model.elements, model.mesh, c)
                units.append(c)
    return units


def require_minifigs(units: list[Unit], where: str) -> None:
    if not any(u.is_minifig for u in units):
        raise InputError("no minifigs found (line of sight needs at least one minifig unit)", file=where)


def select(units: list[Unit], name: str | None, what: str) -> list[Unit]:
    """Units by exact (case-insensitive) name; unknown names are a one-line NotFoundError listing the choices."""
    from ..errors import NotFoundError

    if name is None:
        return list(units)
    wanted = [n.strip() for n in name.split(",") if n.strip()]
    out = []
    for w in wanted:
        match = [u for u in units if u.name.lower() == w.lower()]
        if not match:
            choices = ", ".join(u.name for u in units[:12]) + (" …" if len(units) > 12 else "")
            raise NotFoundError(f"no unit named {w!r} for {what} (units: {choices})")
        out.extend(m for m in match if m not in out)
    return out

