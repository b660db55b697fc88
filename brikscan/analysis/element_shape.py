"""What one element is, as every judging step asks it: its words, centre, own axes and ends, and the few
constants they share (the mesh tolerance, the mounted weapon types, where a pilot sits).

Shared by the judging modules (details, ground, wings, guns, engines, moving parts, kinds, scenery, joining) so
that none keeps its own copy of a word test or an axis.
"""
from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from ..geometry.boxes import elements_box
from ..lazy import lazy
from .measure import box_gap, element_boxes
from .roles import RoleDecision, describe


nx = lazy("networkx")  # imported on first use: a cached analysis needs none of it
MOUNTED_WEAPON_TYPES = ("cannon", "launcher")  # Vehicle weapons: a minifig mans them, he does not carry them
MESH_TOL_LDU = 2.0  # geometry margin for thresholds: fallback meshes are inset ~0.3 LDU per side
LEG_LIFT_LDU = 24.0  # a leg reaches the ground (GROUND_TOL_LDU) and holds the core at least a brick above it


def _centre(model, i: int) -> np.ndarray:
    e = model.elements[i]
    return (np.asarray(e.bbox_min) + np.asarray(e.bbox_max)) / 2


def _extent(model, idx) -> float:
    lo, hi = elements_box(model.elements, idx)
    return float(np.max(hi - lo))


# the parts a movable joint is made of: they are its weak point [000 §7.1 "exposed hinges ... pivots"]; a piece
# that only swings on them (a shutter on its clip) is a moving Non-Structural part
_JOINT_WORDS = {"hinge", "clip", "technic", "pin", "turntable", "bar", "axle", "towball", "click", "finger",
                "fingers", "socket", "ball", "bracket", "lever", "joint"}


@lru_cache(maxsize=8192)
def _text_words(text: str) -> tuple[str, ...]:
    """The words of a part's description, lower case, in order (letters only: "2 x 4" and "R2" leave "x" and
    "r"); many elements share one part, so a text is split once."""
    return tuple(w for w in re.split(r"[^a-z]+", text.lower()) if w)


@lru_cache(maxsize=8192)
def _text_word_set(text: str) -> frozenset[str]:
    return frozenset(_text_words(text))


def _words_of(element) -> frozenset[str]:
    """The set of words of an element's part description (see ``_text_words``)."""
    return _text_word_set(describe(element)[1])


REST_TOL_LDU = 6.0  # a part rests on another when its bottom is within a stud height of the other's top


def _local_y(element) -> np.ndarray:
    """The part's own Y axis in the world, a unit vector: LDraw cones, dishes, rotors and round bricks stand along
    it (the studs face its minus side)."""
    y = np.asarray(element.transform, dtype=float)[:3, 1]
    return y / (float(np.linalg.norm(y)) or 1.0)


def _up_axis(element) -> tuple[int, float]:
    """The world axis (index, sign) the part's studs face: LDraw parts stand on local -Y. Tilted parts: -Y."""
    u = -np.asarray(element.transform, dtype=float)[:3, 1]
    k = int(np.argmax(np.abs(u)))
    n = float(np.linalg.norm(u)) or 1.0
    return (k, float(np.sign(u[k]))) if abs(u[k]) / n > 0.9 else (1, -1.0)


def _rests_on(upper, lower, axis: tuple[int, float]) -> bool:
    """``upper`` starts where ``lower`` ends along ``lower``'s up axis (it is built on its studs)."""
    k, sgn = axis
    top = sgn * (lower.bbox_max[k] if sgn > 0 else lower.bbox_min[k])
    start = sgn * (upper.bbox_min[k] if sgn > 0 else upper.bbox_max[k])
    return start >= top - REST_TOL_LDU


def world_points(model, i: int) -> np.ndarray:
    """(N, 3) corners of the element's triangles in the world (none for a model without a mesh)."""
    mesh = getattr(model, "mesh", None)
    return mesh.element_triangles(i).reshape(-1, 3).astype(float) if mesh is not None else np.zeros((0, 3))


def _own_points(model, i: int) -> tuple[np.ndarray, np.ndarray | None]:
    """(the element's transform, its triangles' corners in the part's own frame), or None for the corners when it
    has no triangles or a flat transform: a part turned at an angle measured along its own axes."""
    t = np.asarray(model.elements[i].transform, dtype=float)
    pts = world_points(model, i)
    if not len(pts) or abs(float(np.linalg.det(t[:3, :3]))) <= 1e-6:
        return t, None
    return t, np.linalg.solve(t[:3, :3], (pts - t[:3, 3]).T).T


PLATES_PER_BRICK = 3  # a plate (or a tile, a dish) is a third of a brick's height
BRICK_HEIGHT_LDU = 24.0
_CONNECTOR_STARTS = (("technic", "axle"), ("technic", "pin"), ("technic", "bush"), ("bar",))


def is_connector(element) -> bool:
    """A Technic axle, pin or bush, or a bar: it holds pieces together, it is no piece of its own."""
    words = _text_words(element.description or "")
    return any(words[:len(w)] == w for w in _CONNECTOR_STARTS)


def brick_count(model, idx) -> float:
    """How many bricks a handful of elements makes, as Explosive Size counts them: "the number of bricks (or
    roughly brick-sized elements)" [000 §8.1 Explosive Size]: a piece at least a brick high (along its own up)
    is one, a plate, tile or dish a third, an axle, a pin or a bar holding them together none; at least one."""
    total = 0.0
    for i in idx:
        if is_connector(model.elements[i]):
            continue
        t, local = _own_points(model, i)
        if local is None:
            total += 1.0
            continue
        up = float(np.ptp(local[:, 1])) * float(np.linalg.norm(t[:3, 1]))
        total += 1.0 if up >= BRICK_HEIGHT_LDU - MESH_TOL_LDU else 1.0 / PLATES_PER_BRICK
    return float(max(1, int(total + 0.5)))  # halves up


def oriented_box(model, i: int, part_boxes: dict | None = None
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Element ``i``'s box along its own axes: (centre, unit axes as columns, half extents), or None when it has no
    triangles. ``part_boxes``: each part's own box, shared by the calls on one model (every brick of a kind has
    the same one)."""
    e = model.elements[i]
    box = part_boxes.get(e.part, ()) if part_boxes is not None else ()
    if box == ():
        _, local = _own_points(model, i)
        box = None if local is None else (local.min(axis=0), local.max(axis=0))
        if part_boxes is not None:
            part_boxes[e.part] = box
    if box is None:
        return None
    t = np.asarray(e.transform, dtype=float)
    scale = np.linalg.norm(t[:3, :3], axis=0)
    if not np.all(scale > 0):
        return None
    lo, hi = box
    return t[:3, :3] @ ((lo + hi) / 2) + t[:3, 3], t[:3, :3] / scale, (hi - lo) / 2 * scale


def _own_end(model, i: int) -> np.ndarray:
    """The point where a part's local +Y axis leaves it (a brick's bottom, a cone's base), measured on its own
    triangles so a tilted part is measured along its axis; its world box's end when it has none."""
    t, local = _own_points(model, i)
    if local is not None:
        return t[:3, :3] @ np.array([0.0, float(local[:, 1].max()), 0.0]) + t[:3, 3]
    e = model.elements[i]
    axis = _local_y(e)
    return (e.bbox_min + e.bbox_max) / 2 + axis * float((e.bbox_max - e.bbox_min) @ np.abs(axis)) / 2


def _thrust(r: RoleDecision | None) -> bool:
    """The role is a Thruster's (thrust propulsion)."""
    return r is not None and r.role == "propulsion" and r.params.get("type") == "thrust"


def _in_any_box(p: np.ndarray, lo: np.ndarray, hi: np.ndarray, tol: float) -> bool:
    """The point ``p`` lies in one of the boxes ``lo``-``hi`` (N x 3), grown by ``tol`` each way."""
    return bool(((lo - tol <= p) & (p <= hi + tol)).all(axis=1).any())


def _points_out(model, graph: nx.Graph, i: int, axis: np.ndarray) -> bool:
    """A cone held by its wide end with nothing holding its narrow tip: it points out of the build (a nose cone, a
    spike, a gun's muzzle), whatever antenna or bar is set in it there. An LDraw cone stands along its local Y,
    its tip (the stud) at its origin."""
    e = model.elements[i]
    tip = np.asarray(e.transform, dtype=float)[:3, 3]
    base = tip + axis * float((e.bbox_max - e.bbox_min) @ np.abs(axis))
    near = [j for j in graph.neighbors(i) if j != i]
    lo, hi = element_boxes(model, near)
    if not _in_any_box(base + axis * 2, lo, hi, CONE_END_LDU):
        return False
    # an antenna or a bar set in the tip and held by nothing else does not hold the cone there
    holding = [j for j in near if any(k != i for k in graph.neighbors(j)) or
               not _words_of(model.elements[j]) & _TIP_ROD_WORDS]
    if not holding:
        return True
    lo, hi = element_boxes(model, holding)
    return not _in_any_box(tip - axis * 2, lo, hi, CONE_END_LDU)


CONE_END_LDU = 3.0  # a neighbour's box this near a cone's end holds it there
_TIP_ROD_WORDS = frozenset({"antenna", "bar", "whip"})  # set in a cone's tip: a spike on its nose


POD_AXIS_COS = 0.95  # parts of one engine pod lie along one axis ...
POD_GAP_LDU = 2.0  # ... each touching the pod grown so far
_POD_WORDS = {"round", "cylinder", "cone", "dish", "hemisphere"}
_BARREL_WORDS = {"torch", "loudhailer", "bar", "tap", "telescope", "hilt"}  # an antenna is decoration however it
# lies (issue 8); a lightsaber hilt built in level is a blaster barrel (7657 AT-ST's chin guns)


def _rod_axis(model, i: int, own: bool = True) -> tuple[np.ndarray, np.ndarray, float, float]:
    """(centre, unit direction, length, thickness) of a part measured along its own axes (``own``), so a rod
    turned at an angle is still a rod; else, or when the part has no triangles, along its world box."""
    e = model.elements[i]
    t, local = _own_points(model, i) if own else (None, None)
    if local is not None:
        rot = t[:3, :3]
        lo, hi = local.min(axis=0), local.max(axis=0)
        ext = np.linalg.norm(rot, axis=0) * (hi - lo)
        k = int(np.argmax(ext))
        d = rot[:, k] / (float(np.linalg.norm(rot[:, k])) or 1.0)
        return t[:3, 3] + rot @ ((lo + hi) / 2), d, float(ext[k]), sorted(float(x) for x in ext)[1]
    ext = e.bbox_max - e.bbox_min
    k = int(np.argmax(ext))
    return (e.bbox_min + e.bbox_max) / 2, np.eye(3)[k], float(ext[k]), sorted(float(x) for x in ext)[1]


MUZZLE_LINE_LDU = 8.0  # a piece strung on a barrel: its centre this close to the barrel's axis line


def _on_axis(element, centre: np.ndarray, d: np.ndarray) -> bool:
    """The element's centre lies on the line through ``centre`` along ``d``."""
    c = (element.bbox_min + element.bbox_max) / 2
    return float(np.linalg.norm(np.cross(c - centre, d))) <= MUZZLE_LINE_LDU


_COCKPIT_WORDS = {"cockpit", "windscreen", "canopy"}
_DIMS = re.compile(r"(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)")
_VEHICLE_FITTING = {"left", "right", "plane", "aircraft", "train", "car", "truck", "bus", "lift"}
HOUSE_DOOR_BRICKS = 4.0  # a door a minifig walks through stands at least 4 bricks high (1 x 4 x 6, 1 x 3 x 4)


def house_fittings(model, idx) -> list[int]:
    """A house's doors and windows in ``idx``: a Door or door frame at least ``HOUSE_DOOR_BRICKS`` high that is
    not one side of a vehicle's pair (a truck's "Door 1 x 5 x 4 Left"), or Window frames where there are two or
    more, not counting those made for a vehicle (one pane in a cab is not a house; "Window 1 x 2 x 2 Plane" is an
    airliner's)."""
    doors, windows = [], []
    for i in idx:
        words = describe(model.elements[i])[1].lower().split()
        if not words or words[0] not in ("door", "window") or _VEHICLE_FITTING & set(words):
            continue
        dims = _DIMS.search(" ".join(words))
        if words[0] == "window":
            windows.append(i)
        elif dims and float(dims.group(3)) >= HOUSE_DOOR_BRICKS:
            doors.append(i)
    return doors + (windows if len(windows) >= 2 else [])


def cockpits(model, idx, classes) -> list[int]:
    """The pilot's places of a build: windscreens, canopies and cockpit parts, unless the build has a house's
    doors or windows, where a "Windscreen 2 x 4 x 2 Vertical" is a shop front's pane, not a cockpit (a part's
    name is evidence; its place decides)."""
    found = [i for i in idx if classes[i].word in _COCKPIT_WORDS]
    return found if found and not house_fittings(model, idx) else []


# an antenna or a flag: carried on an engine pod, never part of its Thruster; clipped on a rod, the rod is its
# holder, no gun barrel: decoration [000 §7.1]
AERIAL_WORDS = frozenset({"antenna", "flag"})
_FLYING_TYPES = ("thrust", "flight", "forward_flight")
RESTING_GAP_LDU = 1.0  # boxes this close touch: a part resting on or held against another (no connector)
HELM_WORDS = frozenset({"handlebars", "handlebar", "steering"})  # what steers a vehicle and nothing else
_CREW_PLACE_WORDS = {"seat", "steering", "control", "controls", "cockpit", "windscreen", "canopy", "saddle"}


def is_controls(role: RoleDecision, cls) -> bool:
    """A device that is the Controls [000 §9.4]: said so, or a steering wheel or a control stick by its part."""
    return role.role == "device" and (role.params.get("type") == "controls" or cls.word in ("steering", "control"))


def _crew_place(classes, idx) -> bool:
    """A seat, controls, a cockpit or a windscreen among ``idx``: a place for a pilot or a crew [000 §9.4]."""
    return any(classes[i].word in _CREW_PLACE_WORDS or classes[i].type == "controls" for i in idx)


def _grown_from(model, seed: int, line, gap: float = POD_GAP_LDU) -> set[int]:
    """``seed`` and the pieces of ``line`` reached from it through pieces whose boxes lie within ``gap`` of each
    other: an engine pod grown from its nozzle, a gun's pieces from its barrel (one rule for both)."""
    els = model.elements
    grown, rest, frontier = {seed}, [i for i in line if i != seed], [seed]
    while frontier and rest:  # each piece reached asks the rest once: the same closure as round after round
        j = frontier.pop()
        near = [i for i in rest if box_gap(els[i], els[j]) <= gap]
        if near:
            grown.update(near)
            frontier += near
            rest = [i for i in rest if i not in grown]
    return grown
