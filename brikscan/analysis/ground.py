"""How a build meets the ground: its down, what touches the ground (wheels, legs, struts), rotors that lift it,
and cannon carriages [000 §9.1 Ground, §9.2 Flight].
"""
from __future__ import annotations

import numpy as np

from ..geometry.units import LDU_PER_STUD
from .element_shape import (_POD_WORDS, LEG_LIFT_LDU, MESH_TOL_LDU, MOUNTED_WEAPON_TYPES, REST_TOL_LDU, _centre,
                            _own_points, _text_words, _words_of, nx, world_points)
from .connectivity import reach_within
from .guns import _line_in_boxes
from .measure import box_gap, element_boxes
from .mounts import GROUND_TOL_LDU, STRUT_NEAR_LDU, is_detail_sized, is_open
from .roles import RoleDecision, describe


MIN_LEGS = 2  # legs come in pairs (or more); a lone hinged body reaching the ground is a ramp or a stand


def _spin_axis(model, i: int) -> np.ndarray:
    """The axis a rotor or propeller part turns round, in world space: its local Y (LDraw draws them round it),
    unless that is the part's longest own extent: a single blade ("Technic Rotor 1 Blade 8L") has its axle hole
    along its length and turns round the hub it is fitted on, flat, round its thinnest axis."""
    t, local = _own_points(model, i)
    k = 1
    if local is not None:
        ext = np.linalg.norm(t[:3, :3], axis=0) * (local.max(axis=0) - local.min(axis=0))
        thin = int(np.argmin(ext))
        # along its length (a single blade), or a disc thin across its other two extents (a three-blade
        # propeller drawn standing, 4617a): it turns round its thinnest extent
        if int(np.argmax(ext)) == 1 or (thin != 1 and float(np.sort(ext)[1]) >= DISC_RATIO * float(ext[thin])):
            k = thin
    return t[:3, k]


DISC_RATIO = 2.0  # a propeller at least twice as wide every way across as it is thick is a disc


def _spins_level(model, i: int) -> bool:
    """The part's spin axis stands near vertical: a rotor or propeller lying flat."""
    y = _spin_axis(model, i)
    return abs(float(y[1])) >= ROTOR_LEVEL_COS * (float(np.linalg.norm(y)) or 1.0)


ROTOR_LEVEL_COS = 0.87  # a lifting rotor spins within 30 degrees of level ...


BLADE_MIN_LDU = 80.0  # a plate lengthening a rotor blade is at least four studs long ...
BLADE_MAX_WIDE_LDU = 20.0  # ... one stud wide, a plate thick (with its studs) ...
BLADE_THICK_LDU = 12.0
BLADE_OUT_LDU = 20.0  # ... and reaches a stud beyond the rotor's own tips


def blade_extensions(model, graph: nx.Graph, rotor: int) -> list[int]:
    """The plates built on ``rotor`` that lengthen its blades (``_blade_extension``)."""
    return [j for j in graph.neighbors(rotor) if _blade_extension(model, graph, rotor, j)]


def _sticker(model, k: int) -> bool:
    """A sticker: printed film on the piece it is stuck to, part of that piece, never something built on it."""
    return _text_words(model.elements[k].description or "")[:1] == ("sticker",)


def _carries_nothing(model, graph: nx.Graph, rotor: int, j: int) -> bool:
    """``j`` touches nothing but ``rotor``, the stickers on it (6515's blades, stickered with a logo) and a cap
    over the hub (``_hub_cap``)."""
    return all(k == rotor or _sticker(model, k) or _hub_cap(model, graph, rotor, k) for k in graph.neighbors(j))


def _hub_cap(model, graph: nx.Graph, rotor: int, k: int) -> bool:
    """``k`` lies across the spin axis over the hub of ``rotor`` and ties two or more pieces built on the rotor,
    touching nothing else (but stickers): a plate tying two blade plates together over the hub (6597's
    helicopters), which spins with them."""
    on_rotor = set(graph.neighbors(rotor))
    if k == rotor or k in on_rotor:
        return False
    e, hub = model.elements[k], np.asarray(model.elements[rotor].transform, dtype=float)[:3, 3]
    if not (e.bbox_min[0] <= hub[0] <= e.bbox_max[0] and e.bbox_min[2] <= hub[2] <= e.bbox_max[2] and
            float(e.bbox_max[1]) <= float(model.elements[rotor].bbox_max[1])):
        return False
    ties = [n for n in graph.neighbors(k) if not _sticker(model, n)]
    return sum(1 for n in ties if n in on_rotor) >= 2 and all(n in on_rotor or _rides_on(model, graph, n, k)
                                                              for n in ties)


def _rides_on(model, graph: nx.Graph, n: int, k: int) -> bool:
    """``n`` touches nothing but ``k`` (and stickers): a nub or a cap riding on it, spinning with it."""
    return all(m == k or _sticker(model, m) for m in graph.neighbors(n))


def _blade_extension(model, graph: nx.Graph, rotor: int, j: int) -> bool:
    """``j`` lengthens a blade of ``rotor``: a long one-stud plate on it (measured along its own axes), reaching a
    stud past the rotor's tips from its hub, that carries nothing else (a helicopter's plate blades on a
    propeller hub, 2531's); a chair on a blade does not."""
    t, local = _own_points(model, j)
    if local is None or not _carries_nothing(model, graph, rotor, j):
        return False
    small, middle, large = sorted(np.linalg.norm(t[:3, :3], axis=0) * (local.max(axis=0) - local.min(axis=0)))
    # (a margin: a plate turned 15 degrees, written to three decimals, measures 20.002 LDU wide)
    if small > BLADE_THICK_LDU + MESH_TOL_LDU or middle > BLADE_MAX_WIDE_LDU + MESH_TOL_LDU or \
            large < BLADE_MIN_LDU - MESH_TOL_LDU:
        return False
    hub = np.asarray(model.elements[rotor].transform, dtype=float)[:3, 3]

    def reach(i: int) -> float:  # how far from the hub, across the spin plane, the part's triangles reach
        pts = world_points(model, i)
        return float(np.max(np.hypot(pts[:, 0] - hub[0], pts[:, 2] - hub[2]))) if len(pts) else 0.0
    return reach(j) >= reach(rotor) + BLADE_OUT_LDU


def _lifts(model, graph: nx.Graph, idx: list[int], i: int) -> bool:
    """A rotor that can lift: its spin axis (``_spin_axis``) near vertical, nothing built on its blades (a
    rotor carrying a desk top or a chair on its blade studs is a plate of them, it cannot spin) and nothing of
    the build above its hub (LDraw -Y is up). The hub is the part's origin, where LDraw rotors have their axle
    hole (a three-blade rotor's box centre is off it)."""
    e = model.elements[i]
    if not _spins_level(model, i):
        return False
    c = np.asarray(e.transform, dtype=float)[:3, 3]
    els = model.elements
    if any(float(els[j].bbox_max[1]) <= float(c[1]) and not (
            els[j].bbox_min[0] <= c[0] <= els[j].bbox_max[0] and els[j].bbox_min[2] <= c[2] <= els[j].bbox_max[2])
           and not _blade_extension(model, graph, i, j) and not _blade_trim(model, graph, i, j)
           for j in graph.neighbors(i)):
        return False  # something built on its blades, off its spin axis
    for j in idx:
        o = model.elements[j]
        if j != i and float(o.bbox_max[1]) <= float(e.bbox_min[1]) and \
                o.bbox_min[0] <= c[0] <= o.bbox_max[0] and o.bbox_min[2] <= c[2] <= o.bbox_max[2] and \
                not _hub_cap(model, graph, i, j) and \
                not any(_hub_cap(model, graph, i, k) and _rides_on(model, graph, j, k) for k in graph.neighbors(j)):
            return False  # ... and nothing over its hub (but a cap spinning with its blades, and what rides on it)
    return True


def _pulls(model, graph: nx.Graph, idx: list[int], i: int) -> set[int] | None:
    """A rotor that can pull as a propeller: its spin axis near level (on its side), its blades free (what is
    built on them, ``_blades``, spins with them), and nothing of the build ahead of its hub along the axis on one
    side (a plane's nose propeller: the engine behind it, the open air in front; a spinner cap fitted on it is
    its own). The pieces built on its blades, or None when it cannot pull."""
    axis = _spin_axis(model, i)
    axis = axis / (float(np.linalg.norm(axis)) or 1.0)
    if abs(float(axis[1])) > PROP_SIDE_SIN:
        return None
    c = np.asarray(model.elements[i].transform, dtype=float)[:3, 3]
    blades = _blades(model, graph, idx, i, c, axis)
    if blades is None:
        return None
    own = set(graph.neighbors(i)) | blades | {i}
    rest = [j for j in idx if j not in own]
    if not rest:
        return None
    lo, hi = element_boxes(model, rest)
    rlo, rhi = element_boxes(model, [i])
    for s in (1.0, -1.0):
        t_in, t_out = _line_in_boxes(c, s * axis, lo - MESH_TOL_LDU, hi + MESH_TOL_LDU)
        hit = np.nonzero((t_in <= t_out) & (t_out > 0))[0]
        if not len(hit):
            return blades
        # only a cap on the hub ahead of it (a spinner): wholly in front of the blades, short along the axis
        way = s * axis
        mid, half = (lo[hit] + hi[hit]) / 2 @ way, (hi[hit] - lo[hit]) / 2 @ np.abs(way)
        face = float(((rlo + rhi) / 2 @ way + (rhi - rlo) / 2 @ np.abs(way))[0])
        if float((mid - half).min()) >= face - MESH_TOL_LDU and \
                float((mid + half).max()) - face <= SPINNER_MAX_LDU + MESH_TOL_LDU:
            return blades
    return None


def _blades(model, graph: nx.Graph, idx: list[int], i: int, c: np.ndarray, axis: np.ndarray) -> set[int] | None:
    """What is built on the blades of rotor ``i`` (hub ``c``, spin ``axis``): the pieces reached from it off its
    axis, touching nothing else of the build and lying flat in its spin plane (tiles and plates lengthening a
    propeller's blades, 6745's); None when the blades are built onto the build (it cannot spin)."""
    els = model.elements
    inside = set(idx)
    seeds = [j for j in graph.neighbors(i) if j in inside and _off_axis(els[j], c, axis)]
    found = reach_within(graph, seeds, lambda k: k in inside and k != i, BLADE_PIECES_MAX)
    if len(found) > BLADE_PIECES_MAX:
        return None
    if not found:
        return found
    lo, hi = element_boxes(model, sorted(found) + [i])
    mid, half = (lo + hi) / 2 @ axis, (hi - lo) / 2 @ np.abs(axis)  # each box's extent along the spin axis
    span = float((mid + half).max() - (mid - half).min())
    return found if span <= BLADE_STACK_LDU + MESH_TOL_LDU else None


SPINNER_MAX_LDU = 48.0  # a spinner cap on a propeller's hub reaches at most two bricks ahead of its blades
BLADE_PIECES_MAX = 12  # a propeller's built-up blades: a few tiles and plates on each
BLADE_STACK_LDU = 24.0  # ... no thicker along its spin axis than a tile and a plate on each side of the blade


def _off_axis(e, c: np.ndarray, axis: np.ndarray) -> bool:
    """Element ``e``'s box leaves the line through ``c`` along ``axis`` (a piece on a blade, not on the hub)."""
    t_in, t_out = _line_in_boxes(c, axis, e.bbox_min - MESH_TOL_LDU, e.bbox_max + MESH_TOL_LDU)
    return not bool(t_in[0] <= t_out[0])


PROP_SIDE_SIN = 0.5  # a propeller on its side spins within 30 degrees of upright (its axis within 30 of level)


def _blade_trim(model, graph: nx.Graph, rotor: int, j: int) -> bool:
    """``j`` is a tile lying flat on a blade of ``rotor``, touching nothing else: trim that spins with the blade
    (6657's tiles on its rotor's blade roots). A plate or a chair on the blade studs is something built on it (a
    desk top), and the rotor is a turntable of them."""
    if _text_words(model.elements[j].description or "")[:1] != ("tile",) or \
            not _carries_nothing(model, graph, rotor, j):
        return False
    t, local = _own_points(model, j)
    if local is None:
        return False
    axis = _spin_axis(model, rotor)
    height = float(np.ptp((local @ t[:3, :3].T) @ (axis / (np.linalg.norm(axis) or 1.0))))
    return height <= BLADE_THICK_LDU + MESH_TOL_LDU


MIN_STANDING_WHEELS = 3  # a build stands on its wheels on at least three of them
TILT_MIN_COS = 0.9986  # a build tilted less than 3 degrees stands level: the world's down is its down
TILT_PART_COS = 0.866  # parts within 30 degrees of the world's down tell the build's down (not SNOT sides)


def _build_down(model, idx: list[int], roles: dict[int, RoleDecision]) -> np.ndarray:
    """The build's own down: the local +Y (LDraw's down) most of its Structure's parts share, so a buggy parked
    on a slope rolls on all six wheels; the world's down when the build stands level (a tilted ramp or flap on
    a level build does not tilt it)."""
    struct = [i for i in idx if roles.get(i) is not None and roles[i].role == "structural"]
    world = np.array([0.0, 1.0, 0.0])
    if not struct:
        return world
    y = np.array([model.elements[i].transform for i in struct], dtype=float).reshape(-1, 4, 4)[:, :3, 1]
    n = np.linalg.norm(y, axis=1)
    keep = (n > 0) & (y[:, 1] >= TILT_PART_COS * n)
    if not keep.any():
        return world
    axes, counts = np.unique(np.round(y[keep] / n[keep, None], 2), axis=0, return_counts=True)
    d = axes[int(np.argmax(counts))]  # the most common (ties: the first in sorted order)
    d = d / (float(np.linalg.norm(d)) or 1.0)
    return world if float(d[1]) >= TILT_MIN_COS else d


def _lowest(element, down: np.ndarray) -> float:
    """How far down (along ``down``) the element's box reaches."""
    if float(down[1]) == 1.0:
        return float(element.bbox_max[1])
    lo, hi = element.bbox_min, element.bbox_max
    return float(sum(max(lo[k] * down[k], hi[k] * down[k]) for k in range(3)))


HOVER_FLAT = 0.6  # a wheel lies flat when its height is at most this share of its other two sides


_ROUND_RUNNERS = {"wheel", "tyre", "tire"}  # what rolls on its rim (not a tread link nor a ski: those lie flat)


def lies_flat(element) -> bool:
    """A wheel lying flat, its axle standing up (its box low and wide): it cannot roll [000 §9.1]."""
    if not _ROUND_RUNNERS & _words_of(element):
        return False
    size = element.bbox_max - element.bbox_min
    return float(size[1]) <= HOVER_FLAT * min(float(size[0]), float(size[2]))


def _ground_contact(model, idx: list[int], roles: dict[int, RoleDecision]
                    ) -> tuple[list[int], set[int], dict[int, float], float]:
    """The build's wheels (ground propulsion by their part), those that reach the ground, how low each element
    reaches along the build's down, and the ground level (the lowest reach)."""
    wheels = [i for i, r in roles.items() if r.role == "propulsion" and r.source == "part" and
              r.params.get("type") == "ground"]
    els = model.elements
    down = _build_down(model, idx, roles)
    low = {i: _lowest(els[i], down) for i in idx}
    ground = max(low.values())
    rolling = {i for i in wheels if low[i] >= ground - GROUND_TOL_LDU}
    if float(down[1]) != 1.0 and len(rolling) < MIN_STANDING_WHEELS:  # tilted, yet not standing on its wheels:
        low = {i: float(els[i].bbox_max[1]) for i in idx}  # a ship shown tilted on a stand; the world's down
        ground = max(low.values())
        rolling = {i for i in wheels if low[i] >= ground - GROUND_TOL_LDU}
    for i in wheels:  # a rim inside a tyre that reaches the ground reaches it too
        c = (els[i].bbox_min + els[i].bbox_max) / 2
        if i not in rolling and any(
                np.linalg.norm(c - (els[j].bbox_min + els[j].bbox_max) / 2) <
                0.25 * float(np.max(els[j].bbox_max - els[j].bbox_min)) for j in rolling):
            rolling.add(i)
    return wheels, rolling, low, ground


def belt_wheels(model, idx: list[int], roles: dict[int, RoleDecision], low: dict[int, float], ground: float,
                rolling: int) -> list[int]:
    """Technic belt wheels (pulleys) standing on their rims at the ground, their axles level, judged by their
    place (no role by part): the wheels an old cart or siege engine rolls on [000 §9.1], when with the wheels
    already rolling there are at least three. A pulley in a mechanism off the ground stays what it is."""
    els = model.elements
    found = []
    for i in idx:
        r = roles.get(i)
        if r is None or r.source not in ("topology", "detail") or r.role not in ("decoration", "structural",
                                                                                 "weak point"):
            continue
        if list(_text_words(els[i].description or "")[1:4]) != ["wedge", "belt", "wheel"] or \
                low[i] < ground - GROUND_TOL_LDU or lies_flat(els[i]):
            continue  # (lying flat it is a disc, no wheel)
        found.append(i)
    return found if len(found) + rolling >= MIN_STANDING_WHEELS else []


def axle_wheels(model, graph: nx.Graph, idx: list[int], roles: dict[int, RoleDecision], low: dict[int, float],
                ground: float, rolling: int) -> list[int]:
    """Round bricks and plates threaded on a level axle, turned on their sides with their round faces across it,
    standing on their rims at the ground: the wheels a brick-built catapult or cart rolls on [000 §9.1; "the
    catapult" is the rulebook's own example of a Vehicle], when with the wheels already rolling there are at
    least three and the build rests on the ground on nothing else. A round piece stacked on a round hub that
    turns on the axle turns with it; each wheel may have its own axle pin, its partner on the same line across
    the body. A round brick standing upright is a post; one off the ground, a knob; round bricks on pins beside a
    floor that stands on the ground, a raft's floats or a log pile."""
    els = model.elements
    turned: dict[int, np.ndarray] = {}  # a round piece turned on an axle -> the direction of its axis

    def on_axle(j: int, y: np.ndarray) -> bool:
        return "axle" in _words_of(els[j]) and _along(els[j], y)
    for i in idx:
        r = roles.get(i)
        if r is None or r.role not in ("decoration", "structural", "weak point") or \
                r.source not in ("topology", "detail", "part"):
            continue  # (by its part: a plain brick of the Structure; never an annotated role)
        if not _round_piece(els[i]) or low[i] < ground - GROUND_TOL_LDU:
            continue
        y = np.asarray(els[i].transform, dtype=float)[:3, 1]
        y = y / (float(np.linalg.norm(y)) or 1.0)
        if abs(float(y[1])) > WHEEL_LEVEL_SIN:
            continue  # standing up or lying flat: no wheel
        if any(on_axle(j, y) or (_round_on(model, j, y) and any(on_axle(k, y) for k in graph.neighbors(j)))
               for j in graph.neighbors(i)):
            turned[i] = y  # on the axle, or on a round hub turned on it (a wheel plate on its hub)
    # a pair on one line of axle, at its two ends or each on its own axle pin either side of the body, two studs
    # apart or more (round bricks side by side on axle pins are a roller, a log, a barrel on its side)
    found = sorted({i for i in turned for k in turned if k != i and _coaxial(model, i, k, turned[i])})
    if not found or len(found) + rolling < MIN_STANDING_WHEELS:
        return []
    # the build stands on them: nothing else of it rests on the ground (a raft's barrel floats on a fort's
    # floor, a log pile by a wall, roll nothing)
    lo = np.array([els[i].bbox_min for i in found]) - MESH_TOL_LDU
    hi = np.array([els[i].bbox_max for i in found]) + MESH_TOL_LDU
    for i in idx:
        r = roles.get(i)
        if i in turned or low[i] < ground - GROUND_TOL_LDU or (r is not None and r.role == "propulsion"):
            continue
        c = _centre(model, i)
        if not bool(np.any(np.all((lo <= c) & (c <= hi), axis=1))):
            return []  # (an axle's end or a hub inside a wheel is the wheel's)
    return found


def _round_piece(e) -> bool:
    """A round brick or plate (what a brick-built cart rolls on, or the hub it turns on)."""
    words = _text_words(e.description or "")
    return words[:1] in (("brick",), ("plate",)) and "round" in words


def _round_on(model, j: int, y: np.ndarray) -> bool:
    """``j`` is a round brick or plate turned on the same axis ``y``."""
    e = model.elements[j]
    if not _round_piece(e):
        return False
    yj = np.asarray(e.transform, dtype=float)[:3, 1]
    return abs(float(np.dot(yj, y))) >= (float(np.linalg.norm(yj)) or 1.0) * WHEEL_AXIS_COS


WHEEL_AXIS_COS = 0.966  # a hub and its wheel turn on one axis: within 15 degrees
COAXIAL_TOL_LDU = 4.0  # two wheels of one axle line: the centre of each within this of the other's axis


def _coaxial(model, i: int, k: int, y: np.ndarray) -> bool:
    """Round pieces ``i`` and ``k`` turn on one line of axle (``y``: ``i``'s axis): ``k``'s centre lies on
    ``i``'s axis, at least a track's width away."""
    d = _centre(model, k) - _centre(model, i)
    along = float(np.dot(d, y))
    return abs(along) >= AXLE_TRACK_LDU and float(np.linalg.norm(d - along * y)) <= COAXIAL_TOL_LDU


AXLE_TRACK_LDU = 2 * LDU_PER_STUD  # a pair of wheels on one axle stands at least two studs apart


WHEEL_LEVEL_SIN = 0.26  # a round part's axis within 15 degrees of level: it stands on its rim


def _along(axle, y: np.ndarray) -> bool:
    """The axle's length lies along direction ``y`` (its box longest that way): the round part turns on it."""
    size = axle.bbox_max - axle.bbox_min
    return int(np.argmax(size)) == int(np.argmax(np.abs(y)))


def hover_pads(model, idx: list[int], wheels: list[int], low: dict[int, float], crewed: bool) -> list[int]:
    """Wheels folded flat under a build with a driver's place, none of them standing up to roll: a flying car's
    hover conversion (the DeLorean's in flight), its wheels its hover pads: Flight [000 §9.1 Flight
    (antigravity), §9.2 Stationary Maneuvering: hovercraft]. At least three, all of the build's wheels, each in
    the lower half of the build (wheels stored flat on a roof rack are cargo)."""
    if not crewed or len(wheels) < MIN_STANDING_WHEELS:
        return []
    els = model.elements
    top = min(float(els[i].bbox_min[1]) for i in idx)
    bottom = max(low[i] for i in idx)
    flat = []
    for i in wheels:
        if not lies_flat(els[i]):
            return []  # a wheel standing up: a car with a wheel off the ground, not folded for flight
        if float(els[i].bbox_min[1] + els[i].bbox_max[1]) / 2 < (top + bottom) / 2:
            return []
        flat.append(i)
    return flat


def rolls_on_wheels(model, idx: list[int], roles: dict[int, RoleDecision]) -> bool:
    """The build stands on its wheels: at least three of its wheel parts reach the ground [000 §9.1]."""
    return len(_ground_contact(model, idx, roles)[1]) >= MIN_STANDING_WHEELS


def _carriages(model, graph: nx.Graph, idx: list[int], roles: dict[int, RoleDecision]) -> None:
    """A cannon's carriage is part of the Cannon [000 §8.4]: the pieces that touch nothing but the cannon's parts
    (the plates its wheels turn on), and the small ones it stands on that touch nothing else but the deck."""
    els = model.elements
    inside = set(idx)

    def gun(j: int) -> bool:
        r = roles.get(j)
        return r is not None and r.role == "weapon" and r.params.get("type") in MOUNTED_WEAPON_TYPES

    if not any(gun(j) for j in idx):
        return
    for i in idx:
        r = roles.get(i)
        if not is_open(r) or r.role not in ("structural", "decoration"):
            continue
        near = [j for j in graph.neighbors(i) if j in inside and j != i]
        guns = [j for j in near if gun(j)]
        rest = [j for j in near if not gun(j)]
        if not guns:
            continue
        on_it = [j for j in guns if float(els[j].bbox_max[1]) <= float(els[i].bbox_min[1]) + REST_TOL_LDU]
        atop = [j for j in guns if float(els[i].bbox_max[1]) <= float(els[j].bbox_min[1]) + REST_TOL_LDU]
        if not rest and len(guns) == 1 and not on_it and not atop:
            continue  # beside one piece of the gun, neither under nor on it: shot or a keg by it, not its carriage
            # [000 §8.4 Cannons; §7.1 free Non-Structural]
        if rest:  # then it must be small, the cannon on it, and only the deck under it
            if not is_detail_sized(els[i]) or not on_it or len(rest) > 1 or \
                    float(els[rest[0]].bbox_min[1]) < float(els[i].bbox_max[1]) - REST_TOL_LDU:
                continue
        g = roles[guns[0]]
        base = r.reason.split(";")[0]
        roles[i] = RoleDecision("weapon", f"{base}; touches nothing but the cannon"
                                          f"{' and the deck under it' if rest else ''}: its carriage, part of the "
                                          "Cannon [000 §8.4]", "mount", dict(g.params),
                                g.group or f"carriage:{guns[0]}")


def _on_leg(model, graph: nx.Graph, idx: list[int], i: int) -> bool:
    """The cone is the foot of a leg: a column of pieces at most as wide as the cone, on its axis, rises at least
    a brick from its top before the body, each piece standing free (nothing of the build touching it at its
    level: a piece with the hull's pieces beside it is the hull's underside). A round piece as wide as the cone is a
    lift jet's housing, not a leg (a slim round leg, narrower, is one)."""
    els = model.elements
    inside = set(idx)
    e = els[i]
    axis = (e.bbox_min + e.bbox_max) / 2
    width = float(max((e.bbox_max - e.bbox_min)[[0, 2]]))
    top, column, frontier = float(e.bbox_min[1]), {i}, [i]  # LDraw -Y is up: the top is the smallest Y

    ids = np.asarray(idx)
    blo, bhi = element_boxes(model, idx)

    def beside(j: int) -> bool:  # a piece of the build at j's level touching it: j is in a layer of the body
        lo, hi = els[j].bbox_min, els[j].bbox_max
        level = np.minimum(bhi[:, 1], hi[1]) - np.maximum(blo[:, 1], lo[1]) > (hi[1] - lo[1]) / 2
        touch = np.all((blo[:, [0, 2]] <= hi[[0, 2]] + MESH_TOL_LDU) & (bhi[:, [0, 2]] >= lo[[0, 2]] - MESH_TOL_LDU),
                       axis=1)
        return any(int(k) != j and int(k) not in column for k in ids[level & touch])

    while frontier:
        nxt = []
        for u in frontier:
            for j in graph.neighbors(u):
                ext = els[j].bbox_max - els[j].bbox_min
                wide = float(max(ext[[0, 2]]))
                if j in inside and j not in column and wide <= width + MESH_TOL_LDU and \
                        not (_POD_WORDS & _words_of(els[j]) and wide > LEG_ROUND_SHARE * width) and \
                        float(els[j].bbox_max[1]) <= float(els[u].bbox_min[1]) + GROUND_TOL_LDU and \
                        np.hypot(*((els[j].bbox_min + els[j].bbox_max) / 2 - axis)[[0, 2]]) <= STRUT_NEAR_LDU and \
                        not beside(j):
                    column.add(j)
                    nxt.append(j)
                    top = min(top, float(els[j].bbox_min[1]))
        frontier = nxt
    return float(e.bbox_min[1]) - top >= LEG_LIFT_LDU - MESH_TOL_LDU


LEG_ROUND_SHARE = 0.75  # a round piece on a cone narrower than this share of it is a slim leg, not a housing


def spinning_blades(model, graph, idx: list[int], classes, roles: dict[int, RoleDecision], boat: bool, rooted: bool,
                    piloted: bool) -> None:
    """Rotors and propellers by how they spin: a rotor lifts only spinning level with nothing over it (a
    helicopter's); a propeller spinning level on top of a piloted build is its rotor; one lying flat on a deck
    pushes nothing; an engine on a build rooted on its base plate cannot take off. ``roles`` in place."""
    for i, r in list(roles.items()):
        if r.role == "propulsion" and r.source == "part" and r.params.get("type") == "flight" and \
                classes[i].word == "rotor" and not _lifts(model, graph, idx, i):
            blades = _pulls(model, graph, idx, i) if not boat and not rooted and piloted else None
            if blades is not None:
                why = "spins on its side at an end of a piloted build, its blades free: a propeller, a Thruster " \
                      "[000 §9.3]"
                roles[i] = RoleDecision("propulsion", f"{r.reason.split(' [')[0]}, but it {why}", "geometry",
                                        {"type": "thrust"})
                for j in blades:  # the tiles and plates lengthening its blades spin with it
                    roles[j] = RoleDecision("propulsion", f"{classes[j].reason}; built on a blade of the propeller "
                                                          f"{describe(model.elements[i])[1]!r}: part of it [000 §9.3]",
                                            "geometry", {"type": "thrust"}, f"with:{i}")
                continue
            roles[i] = RoleDecision("decoration", f"{r.reason}, but it cannot lift: on its side, loaded on its "
                                                  "blades or under the build; a detail, not propulsion [000 §9.1]",
                                    "geometry")
        elif not boat and not rooted and r.role == "propulsion" and r.source == "part" and \
                r.params.get("type") == "thrust" and classes[i].word == "propeller" and piloted and \
                _lifts(model, graph, idx, i):
            # a propeller spinning level on top of a build with a pilot's place, nothing over its hub: a
            # helicopter's rotor, its plates lengthening the blades part of it [000 §9.1 Flight: helicopter
            # blades] (on a roof with no one to fly it, a fan)
            roles[i] = RoleDecision("propulsion", f"{r.reason}, but it spins level on top of the build with "
                                                  "nothing over it but what spins with it: a rotor, Flight "
                                                  "[000 §9.1]", "geometry",
                                    {"type": "flight"})
            for j in blade_extensions(model, graph, i):
                roles[j] = RoleDecision("propulsion", f"{classes[j].reason}; lengthens a blade of the rotor "
                                                      f"{describe(model.elements[i])[1]!r}: part of it, Flight "
                                                      "[000 §9.1]", "geometry", {"type": "flight"})
        elif boat and r.role == "propulsion" and r.source == "part" and r.params.get("type") == "thrust" and \
                classes[i].word == "propeller" and _spins_level(model, i):
            # a propeller pushes along its axis: lying flat on a ship's deck it pushes nothing (a capstan)
            roles[i] = RoleDecision("decoration", f"{r.reason}, but it lies flat on the boat: it pushes no way "
                                                  "the boat floats, not propulsion [000 §9.3]", "geometry")
        elif rooted and r.role == "propulsion" and r.source == "part" and r.params.get("type") in ("thrust",
                                                                                                  "flight"):
            roles[i] = RoleDecision("decoration", f"{r.reason}, but the build stands built onto its base plate "
                                                  "across its whole footprint: it cannot take off, the engine is a "
                                                  "fitting, not propulsion [000 §9.1, §7.1]", "geometry")
    _tail_rotors(model, idx, classes, roles)


def lifting_rotors(classes, roles: dict[int, RoleDecision]) -> list[int]:
    """The rotors that lift the craft (``spinning_blades`` has judged them): rotor or propeller parts that are
    its Flight [000 §9.1 Flight: helicopter blades]."""
    return [i for i, r in roles.items() if r.role == "propulsion" and r.params.get("type") == "flight" and
            classes[i].word in ("rotor", "propeller")]


def rotor_flies(model, classes, roles: dict[int, RoleDecision], wings: list[int]) -> bool:
    """A rotor flies this craft, as a helicopter's does [000 §9.1 Flight: helicopter blades]: it has a lifting
    rotor (``lifting_rotors``), and with its blades (the Flight parts touching it) one spans at least as wide as
    all the craft's ``wings`` (wing parts) together, across its widest level way. With no wing parts any lifting
    rotor flies it. The one answer the wing rules (its wing parts are stubs, no airfoils) and the engine rules (no
    nozzle Thrusters on a rotorcraft) ask."""
    rotors = lifting_rotors(classes, roles)
    if not rotors or not wings:
        return bool(rotors)
    els = model.elements
    flight = [i for i, r in roles.items() if r.role == "propulsion" and r.params.get("type") == "flight"]
    wlo, whi = element_boxes(model, wings)
    reach = max(float(whi[:, k].max() - wlo[:, k].min()) for k in (0, 2))
    for r in rotors:  # the rotor with the blades touching it
        own = [r] + [i for i in flight if i not in rotors and box_gap(els[i], els[r]) <= MESH_TOL_LDU]
        lo, hi = element_boxes(model, own)
        if max(float(hi[:, k].max() - lo[:, k].min()) for k in (0, 2)) >= reach:
            return True
    return False


def _turbines(classes, roles: dict[int, RoleDecision]) -> None:
    """On a craft a rotor lifts, a jet-engine piece is the turbine that turns the rotor: part of its Flight
    [000 §9.1], no Thruster [000 §9.3] (6697's and 6482's rescue helicopters, not in ../shared, bought two
    Thrusters for the housings beside their rotor masts). ``roles`` in place."""
    for i, r in list(roles.items()):
        if r.role == "propulsion" and r.source == "part" and r.params.get("type") == "thrust" and \
                classes[i].word == "jet":
            roles[i] = RoleDecision("propulsion", f"{r.reason.split(' [')[0]}, but on a craft a rotor lifts a jet "
                                                  "engine is the turbine that turns the rotor: part of its Flight, "
                                                  "no Thruster [000 §9.1, §9.3]", "geometry", {"type": "flight"})


TAIL_ACROSS_COS = 0.5  # a tail rotor's axis lies within 30 degrees of square to its boom, and level


def _tail_rotors(model, idx: list[int], classes, roles: dict[int, RoleDecision]) -> None:
    """On a craft a rotor lifts, a propeller spinning on a level axis square to the line from the rotor's hub out
    to it (its boom), or one made as a helicopter's tail rotor, is its tail rotor: it turns the craft against the
    rotor's torque and pushes it nowhere along its way, part of its Flight [000 §9.1 Flight: helicopter blades],
    no Thruster [000 §9.3] (6389's and 6685's helicopters, not in ../shared, bought a Thruster for it)."""
    els = model.elements
    rotors = lifting_rotors(classes, roles)
    if not rotors:
        return
    _turbines(classes, roles)
    hub = _centre(model, max(rotors, key=lambda i: float(np.prod(els[i].bbox_max - els[i].bbox_min))))
    for i, r in list(roles.items()):
        if r.role != "propulsion" or r.source != "part" or r.params.get("type") != "thrust" or \
                classes[i].word != "propeller":
            continue
        boom = _centre(model, i) - hub
        boom[1] = 0.0
        if float(np.linalg.norm(boom)) < MESH_TOL_LDU:
            continue
        boom /= float(np.linalg.norm(boom))
        axis = _spin_axis(model, i)
        axis = axis / (float(np.linalg.norm(axis)) or 1.0)
        made = {"helicopter", "tail"} <= set((els[i].description or "").lower().split())
        if made or (abs(float(axis[1])) < TAIL_ACROSS_COS and abs(float(axis @ boom)) < TAIL_ACROSS_COS):
            roles[i] = RoleDecision("propulsion", f"{r.reason}, but it spins square to its boom on a craft a rotor "
                                                  "lifts: its tail rotor, turning it against the rotor's torque, "
                                                  "part of its Flight, no Thruster [000 §9.1, §9.3]", "geometry",
                                    {"type": "flight"})
