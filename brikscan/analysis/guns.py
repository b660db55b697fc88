"""Weapons where a player sees them: barrels lying level, muzzle cones, turrets on turntables, parts strung on a
barrel, hand guns clipped together [000 §8.2 Ranged Weapons, §8.3 Mounted weapons].
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..geometry.units import LDU_PER_STUD
from .element_shape import (AERIAL_WORDS, _BARREL_WORDS, MESH_TOL_LDU, MOUNTED_WEAPON_TYPES, MUZZLE_LINE_LDU,
                            POD_AXIS_COS, _grown_from, _in_any_box, _local_y, _on_axis, _own_points, _points_out,
                            _rod_axis, _thrust, _words_of, nx, oriented_box, world_points)
from .measure import box_gap, element_boxes
from .mounts import FURNITURE, TWO_STUDS_LDU, is_detail_sized
from .roles import PartClass, RoleDecision, describe


STOWED_BUILT_GUN = 3  # this many hand guns clipped together are a built weapon (a swivel machine gun)


def _stowed(graph: nx.Graph, idx: list[int], classes, roles: dict[int, RoleDecision], boat: bool) -> set[int]:
    """A minifig's gun or bow clipped to a ship's rail or a cage, held by no one, is stowed: free
    Non-Structural [000 §7.1]; a minifig picks it up to use it. Cannons are Vehicle weapons, mounted where
    they stand [000 §8.4 Cannons]; on a flyer a gun sticking out is its laser [000 §8.2]; several hand guns
    clipped together are a built weapon. On anything else that moves under its own power (a car, a mech, a flyer)
    a minifig gun fixed on it is its mounted gun; on a ship, a building or an animal it is racked. Returns them."""
    if not boat and any(r.role == "propulsion" for r in roles.values()):
        return set()
    inside = set(idx)
    hand = {i for i in idx if classes[i].accessory and roles.get(i) is not None and roles[i].role == "weapon" and
            roles[i].source == "part" and classes[i].type not in MOUNTED_WEAPON_TYPES}
    out: set[int] = set()
    for i in sorted(hand):
        if _built_gun(graph, inside, classes, hand, i):
            continue
        roles[i] = RoleDecision("decoration", _stowed_reason(classes[i]), "geometry")
        out.add(i)
    return out


def _built_gun(graph: nx.Graph, inside: set[int], classes, hand: set[int], i: int) -> bool:
    """Hand gun ``i`` is one of ``STOWED_BUILT_GUN`` or more guns clipped together (within two links): a built
    weapon, a swivel machine gun. Only guns count: sticks of dynamite or a sword beside a rifle make no gun."""
    if classes[i].type != "gun":
        return False
    guns = {j for j in hand if classes[j].type == "gun"}
    near = {j for k in graph.neighbors(i) if k in inside for j in (k, *graph.neighbors(k))}
    return len(near & guns | {i}) >= STOWED_BUILT_GUN


SHUT_IN_OFFSET_LDU = 4.0  # rays cast from each side of a hand gun: through its middle and this far beside it,
# so that one seam between two bricks is no way out
SHUT_IN_OPEN = 3  # ... a side with this many of its five rays reaching the open is open


def _shut_in(model, graph: nx.Graph, idx: list[int], classes, roles: dict[int, RoleDecision]) -> set[int]:
    """A minifig's gun built into a creation with its own parts all round it, every way along its own three axes
    (an engine's intake under a car's bonnet, a blaster in a closed hold), cannot fire out: it is a detail, no
    mounted gun [000 §8.2 Ranged Weapons: a weapon fires at what it can see]. One way out (its muzzle through a
    hole, an open top) keeps it a gun; several hand guns clipped together stay the built weapon they are.
    Returns them."""
    out: set[int] = set()
    hand = [i for i in idx if classes[i].accessory and roles.get(i) is not None and roles[i].role == "weapon" and
            roles[i].source == "part" and classes[i].type not in MOUNTED_WEAPON_TYPES]
    if not hand or len(idx) < 2:
        return out
    inside, guns = set(idx), set(hand)
    lo, hi = element_boxes(model, idx)
    ids = np.asarray(idx)
    reach = float(np.linalg.norm(hi.max(axis=0) - lo.min(axis=0)))  # across the whole creation
    for i in hand:
        box = oriented_box(model, i)
        if _built_gun(graph, inside, classes, guns, i) or box is None:
            continue
        centre, axes, half = box
        if all(_way_shut(model, ids, lo, hi, i, centre + s * w * (h + 1.0), s * w, reach)
               for w, h in zip(axes.T, half) for s in (1.0, -1.0)):
            roles[i] = RoleDecision("decoration", f"{classes[i].reason}, built in with the creation's own parts all "
                                                  "round it: it cannot fire out, a detail, not a weapon [000 §8.2] "
                                                  "(annotate it to arm the creation)", "geometry")
            out.add(i)
    return out


def _line_in_boxes(start: np.ndarray, way: np.ndarray, lo: np.ndarray, hi: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Where the line ``start + t * way`` enters and leaves each box ``lo``-``hi`` (slab test): it crosses a box
    where ``t_in <= t_out``."""
    lo, hi = np.atleast_2d(lo), np.atleast_2d(hi)
    with np.errstate(divide="ignore", invalid="ignore"):
        t1, t2 = (lo - start) / way, (hi - start) / way
    flat = np.abs(way) < 1e-9
    within = (lo <= start) & (start <= hi)
    t_in = np.where(flat, np.where(within, -np.inf, np.inf), np.minimum(t1, t2)).max(axis=1)
    t_out = np.where(flat, np.where(within, np.inf, -np.inf), np.maximum(t1, t2)).min(axis=1)
    return t_in, t_out


def _line_through(e, p: np.ndarray, d: np.ndarray) -> bool:
    """The line through ``p`` along ``d`` passes through element ``e``'s box (grown by the mesh margin)."""
    t_in, t_out = _line_in_boxes(p, d, e.bbox_min - MESH_TOL_LDU, e.bbox_max + MESH_TOL_LDU)
    return bool(t_in[0] <= t_out[0])


def _way_shut(model, ids: np.ndarray, lo: np.ndarray, hi: np.ndarray, i: int, start: np.ndarray, way: np.ndarray,
              reach: float) -> bool:
    """A bundle of rays from ``start`` along ``way`` runs into the parts ``ids`` (boxes ``lo``-``hi``) but ``i``:
    fewer than ``SHUT_IN_OPEN`` of them reach the open."""
    from trimesh.ray.ray_triangle import ray_triangle_id  # trimesh's own ray test; imported when a gun asks

    side = np.cross(way, [0.0, 1.0, 0.0] if abs(float(way[1])) < 0.9 else [1.0, 0.0, 0.0])
    side /= float(np.linalg.norm(side))
    up = np.cross(way, side)
    origins = start + np.array([np.zeros(3), side, -side, up, -up]) * SHUT_IN_OFFSET_LDU
    t_in, t_out = _line_in_boxes(start, way, lo - SHUT_IN_OFFSET_LDU, hi + SHUT_IN_OFFSET_LDU)
    cand = [int(j) for j in ids[(t_in <= t_out) & (t_out >= 0) & (t_in <= reach)] if int(j) != i]
    if not cand:
        return False
    tris = np.concatenate([model.mesh.element_triangles(j) for j in cand]).astype(np.float64)
    _, hit, _ = ray_triangle_id(tris, origins, np.repeat(way[None], len(origins), axis=0), multiple_hits=False)
    return len(origins) - len(set(hit.tolist())) < SHUT_IN_OPEN


def _stowed_reason(c: PartClass) -> str:
    return f"{c.reason}, held by no one: stowed, not a weapon of the creation; free Non-Structural [000 §7.1] " \
           "(annotate it to mount it)"


_MADE_BARRELS = {"torch", "loudhailer"}  # minifig accessories shaped as a barrel, whatever their girth
EXHAUST_NEAR_LDU = 20.0  # ... unless they lie within a stud of a Thruster: then they are its exhaust
BARREL_RATIO = 2.0  # a barrel is at least twice as long as it is thick
BARREL_THICK_LDU = 28.0  # ... and no thicker than a 1 x 1 brick (a torch with its head)


ROD_LEVEL_COS = 0.7  # a rod whose axis is within 45 degrees of level lies level (a barrel); steeper, it stands up
TILTED_BARREL_COS = 0.9  # a rod turned at an angle points within about 25 degrees of the build's length or width


@dataclass(frozen=True)
class _FlyerBody:
    """What the barrel scan asks of a flyer, found once per creation: its Structure and their boxes, its Thrusters
    and its round bodies (the round bricks and cylinders barrels and pods are made of)."""
    body: list[int]
    lo: np.ndarray
    hi: np.ndarray
    thrust: list[int]
    rounds: list[int]


SWIVEL_REASON = "the swivel a control stick turned gun barrel turns on: an exposed pivot, a weak point [000 §7.1 " \
                "\"exposed hinges, turrets, pivots\"; §8.2]"


def _barrels(model, graph: nx.Graph, idx: list[int], classes, roles: dict[int, RoleDecision], flyer: bool,
             nozzles: set[int] | frozenset[int] = frozenset(), walker: bool = False) -> None:
    """On a flyer, a thin rod (a torch, a loudhailer, a bar, a tap) lying level and sticking out of the body is a
    gun barrel: "lasers" are Ranged Weapons [000 §8.2]; standing up, an antenna or a flag pole stays decoration.
    A rod turned at an angle is measured along its own axes (a torch on a wing tip, a bar tilted on a clip); what
    is strung on a barrel's axis is part of its gun (``_strung_on``). Runs after the nozzles and engine
    pods, so that a "nozzle" a barrel comes out of can be told to be the gun's muzzle."""
    if not flyer:
        return
    els = model.elements
    body = [i for i in idx if roles.get(i) is not None and roles[i].role == "structural"]
    if not body:
        return
    lo, hi = element_boxes(model, body)
    thrust = [j for j in idx if _thrust(roles.get(j))]
    rounds = [j for j in idx if _round_body(els[j])]  # barrels' and pods' round bodies
    shape = _FlyerBody(body, lo, hi, thrust, rounds)
    all_lo = all_hi = None  # every piece's box, once a rod asks
    for i in idx:
        r = roles.get(i)
        # a control stick laid level and sticking out of the body is a gun's barrel (75075's cheek guns), not
        # the Controls: a pilot works a stick standing up in his cockpit [000 §8.2, §9.4]
        stick = r is not None and r.role == "device" and r.source == "part" and classes[i].word == "control" and \
            "stick" in _words_of(els[i])
        if r is None or (r.role not in ("decoration", "structural") and not stick) or \
                r.source not in ("part", "topology", "detail"):
            continue
        if classes[i].word == "cone" and _muzzle_cone(model, graph, idx, roles, i, shape):
            continue
        if not (_words_of(els[i]) & _BARREL_WORDS or stick) or classes[i].minifig_body:
            continue
        if any(j in roles and roles[j].role == "propulsion" and roles[j].params.get("type") == "ground"
               for j in graph.neighbors(i)):
            continue  # a rod holding a foot or a wheel is the leg's or the axle's, no barrel
        if any(_words_of(els[j]) & _SENSOR_WORDS and
               float(np.max(els[j].bbox_max - els[j].bbox_min)) >= SENSOR_DISH_LDU for j in graph.neighbors(i)):
            continue  # the stalk a sensor dish stands on (a torch under a 4 x 4 dish): its mount, no barrel
        if any(classes[j].word in AERIAL_WORDS and _stands_up(els[j]) and "clip" in graph.edges[i, j].get("kinds", ())
               for j in graph.neighbors(i)):
            continue  # the holder an antenna or a flag stands clipped in (6954's tail aerials): no barrel
        if any(classes[j].accessory and "holder" in _words_of(els[j]) for j in graph.neighbors(i)):
            continue  # a minifig's tool holder hung on it: the rack his tools are stowed on (6956's), no barrel
        # a minifig's torch or loudhailer set as a barrel is measured along its own axes (turned on a wing tip it
        # is still a rod); built pieces by their box, as they line up with the build, and a bar or a stick along
        # its own axes where that box is no rod's and it still points fore and aft or abeam (20009's main cannon,
        # a bar tilted up on a turret's clip: its box is as thick as a brick; a brace slanting two ways is no
        # barrel, and a plate with a bar on it is a plate)
        centre, d, length, thick = _rod_axis(model, i, own=classes[i].accessory)
        if (classes[i].word == "bar" or stick) and (thick > BARREL_THICK_LDU or length < BARREL_RATIO * thick):
            turned = _rod_axis(model, i)
            if max(abs(float(turned[1][0])), abs(float(turned[1][2]))) >= TILTED_BARREL_COS:
                centre, d, length, thick = turned
        # a minifig's torch or loudhailer is made as a barrel: its bell or its head makes it no thin rod; beside
        # an engine's nozzle, though, a bell is the exhaust
        shaped = classes[i].accessory and bool(_words_of(els[i]) & _MADE_BARRELS) and not any(
            box_gap(els[i], els[j]) <= EXHAUST_NEAR_LDU for j in thrust)
        if abs(float(d[1])) > ROD_LEVEL_COS or \
                (not shaped and (thick > BARREL_THICK_LDU or length < BARREL_RATIO * thick)):
            continue  # standing up (an antenna, a mast) or not a rod
        # its outer end lies outside the rest of the body: it sticks out. Rods joined end to end on one line (a
        # strut of two bars between a hull and its engines) are one rod: its ends are the line's
        line = _rod_line(model, idx, classes, i, centre, d, length)
        along = [float(np.dot(c - centre, d)) + s * h for c, h in line.values() for s in (-1, 1)]
        ends = [centre + d * min(along), centre + d * max(along)]
        others = np.array([j not in line for j in body])
        # ... nor inside a big piece hanging on the body (an engine the strut holds; not a muzzle cap or a clip)
        if all_lo is None:
            all_lo, all_hi = element_boxes(model, idx)
        big = ((all_hi - all_lo).min(axis=1) >= 2 * LDU_PER_STUD) & ~np.isin(idx, list(line))
        out = [not _in_any_box(e, lo[others], hi[others], 1) and _held_in_big(model, idx, e, all_lo, all_hi, big) is None
               for e in ends]
        if not any(out) or _holds_up(model, graph, i, line, d, [e for e, o in zip(ends, out) if o]):
            continue
        what = f"{describe(els[i])[1]!r}: a control stick, not standing up at a pilot's place" if stick else \
            classes[i].reason
        roles[i] = RoleDecision("weapon", f"{what}; a rod lying level and sticking out of the body of "
                                          f"a {'walker' if walker else 'flyer'}: a gun barrel [000 §8.2 Ranged "
                                          "Weapons]", "geometry",
                                {"type": "gun"})
        if stick:  # the stick's base is the swivel the gun turns on, no Controls left without the stick
            for j in graph.neighbors(i):
                rj = roles.get(j)
                if rj is not None and rj.role == "device" and rj.source == "part" and classes[j].word == "control":
                    roles[j] = RoleDecision("weak point", f"{describe(els[j])[1]!r}: {SWIVEL_REASON}", "geometry")
        _strung_on(model, graph, idx, roles, i, centre, d, nozzles)


STRUT_CARRIES_LDU = 3 * LDU_PER_STUD  # a strut's load reaches at least three studs across the rod ...
STRUT_CROSS_RATIO = 2.0  # ... and runs across it: twice as far across as along it


def _stands_up(element) -> bool:
    """Taller than it is long or wide: an antenna or a flag pole standing, not one laid level as a barrel."""
    size = element.bbox_max - element.bbox_min
    return float(size[1]) >= float(max(size[0], size[2]))


_SENSOR_WORDS = frozenset({"dish", "radar"})
SENSOR_DISH_LDU = 4 * LDU_PER_STUD - 4  # a 4 x 4 dish or wider on a rod: a sensor on its stalk (a muzzle is smaller)


def _holds_up(model, graph: nx.Graph, i: int, line: dict, d: np.ndarray, ends: list[np.ndarray]) -> bool:
    """Rod ``i`` holds up a piece at an outer end: a piece built on it off its line, hanging on rods alone, that
    runs across the rod at least three studs, its middle within a stud of that end along the rod (the skid
    plates a cross bar carries under a helicopter). Then it is a strut; a barrel's muzzle is free, and the
    wing a gun is clipped to, or the turret cap two barrels share, is no load [000 §8.2]."""
    els = model.elements
    for j in graph.neighbors(i):
        if j in line or not all(_words_of(els[k]) & _BARREL_WORDS for k in graph.neighbors(j)) or \
                _line_through(els[j], ends[0], d):
            continue  # (the rod's line through it: a casing strung on a barrel, not a load beside a strut)
        along, across = _extents_along(model, j, d)
        if across < STRUT_CARRIES_LDU or across < STRUT_CROSS_RATIO * along:
            continue
        mid = (els[j].bbox_min + els[j].bbox_max) / 2
        if any(abs(float(np.dot(mid - e, d))) <= LDU_PER_STUD for e in ends):
            return True
    return False


def _extents_along(model, j: int, d: np.ndarray) -> tuple[float, float]:
    """How far piece ``j`` reaches along unit direction ``d`` and, at most, across it: measured on its triangles,
    so a skid plate under a helicopter parked at an angle measures as long as it is (its world box does not)."""
    pts = world_points(model, j)
    if not len(pts):
        size = model.elements[j].bbox_max - model.elements[j].bbox_min
        along = float(np.dot(size, np.abs(d)))
        return along, float(np.max(size - np.abs(d) * along))
    u = np.cross(d, (0.0, 1.0, 0.0) if abs(float(d[1])) < 0.9 else (1.0, 0.0, 0.0))
    u /= float(np.linalg.norm(u))
    v = np.cross(d, u)
    return float(np.ptp(pts @ d)), max(float(np.ptp(pts @ u)), float(np.ptp(pts @ v)))


def _held_in_big(model, idx: list[int], p: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                 big: np.ndarray) -> int | None:
    """The piece of ``idx`` (``big`` masks those asked) that point ``p`` lies inside, measured along the piece's own
    axes (the world box of a wing turned at an angle holds much air), or None."""
    for k in np.flatnonzero(big & np.all(lo - 1 <= p, axis=1) & np.all(p <= hi + 1, axis=1)):
        t, local = _own_points(model, idx[k])
        if local is None:
            return idx[k]
        q = np.linalg.solve(t[:3, :3], p - t[:3, 3])
        if np.all(local.min(axis=0) - 1 <= q) and np.all(q <= local.max(axis=0) + 1):
            return idx[k]
    return None


def _rod_line(model, idx: list[int], classes, i: int, centre: np.ndarray, d: np.ndarray,
              length: float) -> dict[int, tuple[np.ndarray, float]]:
    """The rods lying end to end with rod ``i`` (``length`` long) on its line, touching or held apart by a hair
    (its centre and half length, for each)."""
    els = model.elements
    rods = {}
    for j in idx:
        if j != i and _words_of(els[j]) & _BARREL_WORDS and not classes[j].minifig_body and \
                _on_axis(els[j], centre, d):
            cj, dj, lj, _ = _rod_axis(model, j, own=classes[j].accessory)
            if abs(float(np.dot(dj, d))) >= 0.98:
                rods[j] = (cj, lj / 2)
    line = {i: (centre, length / 2)}
    grew = True
    while grew:
        grew = False
        span = [float(np.dot(c - centre, d)) + s * h for c, h in line.values() for s in (-1, 1)]
        lo, hi = min(span), max(span)
        for j, (cj, hj) in list(rods.items()):
            t = float(np.dot(cj - centre, d))
            if t - hj <= hi + MUZZLE_LINE_LDU and t + hj >= lo - MUZZLE_LINE_LDU:
                line[j] = rods.pop(j)
                grew = True
    return line


def _round_body(element) -> bool:
    """A cylinder or a round brick (not a round plate): a barrel's or a pod's round body."""
    w = _words_of(element)
    return "cylinder" in w or {"round", "brick"} <= w


POD_TAIL_LDU = 200.0  # a fatter round body this far behind a cone on its axis: the cone ends a pod, not a barrel


def _pod_tail(model, rounds: list[int], i: int, centre: np.ndarray, d: np.ndarray, tip: np.ndarray) -> bool:
    """A cone two studs across or more with, behind it on its axis, a round body fatter than its base: the cone
    and the round bricks before it taper the end of a pod or a nacelle (a podracer's engine), no gun barrel standing
    out of a mount (a thin barrel out of a round housing is still one)."""
    els = model.elements
    across = [k for k in range(3) if abs(float(d[k])) < ROD_LEVEL_COS]
    width = max(float(els[i].bbox_max[k] - els[i].bbox_min[k]) for k in across)
    if width < TWO_STUDS_LDU - MUZZLE_LINE_LDU:
        return False  # a thin barrel (1 x 1) out of a round housing is still a gun
    out = d if float(np.dot(tip - centre, d)) >= 0 else -d
    for j in rounds:  # the creation's round bodies
        e = els[j]
        back = float(np.dot((e.bbox_min + e.bbox_max) / 2 - centre, out))
        if j == i or not -POD_TAIL_LDU < back < 0 or not _on_axis(e, centre, d):
            continue
        if max(float(e.bbox_max[k] - e.bbox_min[k]) for k in across) > width + MUZZLE_LINE_LDU:
            return True
    return False


def _muzzle_cone(model, graph: nx.Graph, idx: list[int], roles: dict[int, RoleDecision], i: int,
                 flyer: _FlyerBody) -> bool:
    """A cone lying level with its tip pointing out of a flyer's body, at the end of a round brick or a cylinder (or
    more) on its axis, with no Thruster on that axis: the muzzle of a gun barrel of round bricks [000 §8.2 Ranged
    Weapons] (a rocket pod's nose cone has its nozzle on the same line). Judges it and what is strung on it; True
    if so."""
    els = model.elements
    e = els[i]
    d = _local_y(e)
    if abs(float(d[1])) > ROD_LEVEL_COS or not _points_out(model, graph, i, d):
        return False
    centre = (e.bbox_min + e.bbox_max) / 2
    tip = np.asarray(e.transform, dtype=float)[:3, 3]
    others = np.array([j != i for j in flyer.body])
    if _in_any_box(tip, flyer.lo[others], flyer.hi[others], 1):
        return False  # its tip inside the body: not sticking out
    behind = [j for j in graph.neighbors(i) if j in roles and _on_axis(els[j], centre, d) and
              roles[j].role in ("decoration", "structural") and _round_body(els[j])]  # not a round plate:
    # a cone on a 1 x 1 round plate is a light or a detail
    if not behind or any(_on_axis(els[j], centre, d) for j in flyer.thrust) or \
            _pod_tail(model, flyer.rounds, i, centre, d, tip):
        return False
    roles[i] = RoleDecision("weapon", f"{roles[i].reason}; the tip of a barrel of round bricks sticking out of a "
                                      "flyer's body: a gun [000 §8.2 Ranged Weapons]", "geometry", {"type": "gun"})
    _strung_on(model, graph, idx, roles, i, centre, d)
    return True


TURRET_MAX_ELEMENTS = 12  # a small turret: this many elements at most ...
TURRET_MAX_LDU = 130.0  # ... no longer than about 2" ...
TURRET_OUT_LDU = 10.0  # ... with a piece sticking out level at least this far past its turntable
_NOT_GUN_WORDS = {"dish", "radar", "lamp", "light", "headlight", "searchlight", "seat", "antenna", "flag",
                  "steering", "control", "crane", "hook", "magnet", "winch", "camera",
                  "wheel", "wheels", "tyre", "tire", "tyres", "tires"}  # a wheel on a turntable is steering gear


def _turrets(model, graph: nx.Graph, idx: list[int], roles: dict[int, RoleDecision], bodies: list,
             core: set[int]) -> None:
    """On a craft that moves under its own power, a small mount turning on a turntable, with nothing said of it
    yet, and a piece sticking out level past the turntable (binoculars or a pair of bars as twin barrels) is a gun
    turret: the mount and what it carries are its gun, a Ranged Weapon [000 §8.2]; the turntable stays the weak
    point [000 §7.1 "turrets"]. A dish, a lamp, a seat or a crane on a turntable is no gun (a sensor, a
    searchlight, the Controls, a device), nor is a wheel (a plane's nose gear, a cart's steering), nor a hinge
    alone (the pivot a fire engine's ladder, resting on the body, is raised on), nor a mount held to the body
    by a second joint as well (an axle through it: an articulated rover's joint)."""
    if not any(r.role == "propulsion" for r in roles.values()):
        return
    els = model.elements
    inside = set(idx)
    for jb in bodies:
        if "turntable" not in jb.joint_kinds or not jb.joint_parts:
            continue
        turning = {j for j in jb.joint_parts if "turntable" in _words_of(els[j])}
        group, frontier = set(jb.elements), list(jb.elements)  # all it carries, past its own hinges and clips
        while frontier and len(group) <= TURRET_MAX_ELEMENTS:
            i = frontier.pop()
            for j in graph.neighbors(i):
                if j in inside and j not in core and j not in turning and j not in group:
                    group.add(j)
                    frontier.append(j)
        if len(group) > TURRET_MAX_ELEMENTS or len(group) < 2 or \
                any(roles.get(i) is None or roles[i].role not in ("decoration", "weak point") or
                    roles[i].source in ("annotation", "cli") for i in group):
            continue
        if any(_words_of(els[i]) & _NOT_GUN_WORDS for i in group):
            continue
        if all(roles[i].role == "weak point" or "hinge" in _words_of(els[i]) for i in group):
            continue  # nothing on it but a hinge: the pivot of what rests on the body (a fire engine's ladder)
        if any(j in core for i in group for j in graph.neighbors(i)):
            continue  # held to the body by a second joint as well (an axle through it): a rover's articulation
            # or its steering, which turns with the build, no turret turning on its own
        lo, hi = element_boxes(model, sorted(group))
        if float(np.max(hi.max(axis=0) - lo.min(axis=0))) > TURRET_MAX_LDU:
            continue
        tlo, thi = element_boxes(model, sorted(turning) or jb.joint_parts)
        tlo, thi = tlo.min(axis=0), thi.max(axis=0)
        out = max(max(float(tlo[k] - lo[:, k].min()), float(hi[:, k].max() - thi[k])) for k in (0, 2))
        if out < TURRET_OUT_LDU:
            continue
        pivot = min(turning) if turning else jb.joint_parts[0]
        tt = describe(els[pivot])[1]
        for i in sorted(group):
            if roles[i].role == "weak point":
                continue  # a hinge or a clip in the turret stays a weak point
            base = roles[i].reason.split(";")[0]
            roles[i] = RoleDecision("weapon", f"{base}; on a small mount turning on a turntable ({tt}) with a piece "
                                              "sticking out level: a gun turret, a Ranged Weapon [000 §8.2]",
                                    "geometry", {"type": "gun"}, f"turret:{pivot}")


_STRUNG_WORDS = {"round", "cylinder", "cone", "dish", "axle", "bar", "rim", "wheel", "gear", "bush"}  # not bricks


MUZZLE_CAP_LDU = 12.0  # a nozzle this near a barrel's end (a plate's or a dish's depth) caps it: its muzzle


def _strung_on(model, graph: nx.Graph, idx: list[int], roles: dict[int, RoleDecision], barrel: int,
               centre: np.ndarray, d: np.ndarray, nozzles: set[int] | frozenset[int] = frozenset()) -> None:
    """The pieces strung on a gun barrel's axis, one touching the next (a cone at its end, rims, round bricks,
    joiners and axles of the same line): one gun, not an engine pod [000 §8.2]. Only round pieces, rods and rims no
    wider than a round 2 x 2 brick across the axis, decided by their part or place alone (never a plain brick of
    the hull the barrel is set in). A "nozzle" the barrel comes out of is the gun's muzzle, and the "engine pod"
    behind it its casing; a barrel in the nose of a pod whose nozzle is elsewhere (at its back) is a gun mounted on
    the engine, which stays the Thruster [000 §9.3]."""
    els = model.elements
    # ... touching it, or capping its tip a plate's or a dish's depth away (bar, dish, cone: a muzzle)
    out_of_nozzle = any(j in nozzles and _on_axis(els[j], centre, d) for j in graph.neighbors(barrel)) or any(
        j in nozzles and _on_axis(els[j], centre, d) and box_gap(els[j], els[barrel]) <= MUZZLE_CAP_LDU
        for j in nozzles)
    inside = set(idx)
    k = int(np.argmax(np.abs(d)))
    aligned = abs(float(d[k])) >= POD_AXIS_COS

    def strung(j: int) -> bool:
        rj = roles.get(j)
        if j not in inside or rj is None or rj.source not in ("part", "topology", "detail", "geometry", FURNITURE) or \
                "landing strut" in rj.reason or not _on_axis(els[j], centre, d):
            return False
        if rj.role == "propulsion" and rj.source == "geometry" and rj.params.get("type") == "thrust":
            return out_of_nozzle  # a piece of the engine the barrel comes out of, whatever its girth
        if rj.role not in ("decoration", "structural") or not _words_of(els[j]) & _STRUNG_WORDS:
            return False
        ext = els[j].bbox_max - els[j].bbox_min
        if aligned:
            return all(float(ext[a]) <= TWO_STUDS_LDU + MESH_TOL_LDU for a in range(3) if a != k)
        return is_detail_sized(els[j])

    # speed only: the pieces whose centres lie on the axis, all at once (``_on_axis``'s test, in ``idx``'s order)
    others = [j for j in idx if j != barrel]
    centres = np.array([(els[j].bbox_min + els[j].bbox_max) / 2 for j in others], dtype=float).reshape(-1, 3)
    on_line = np.linalg.norm(np.cross(centres - centre, d), axis=1) <= MUZZLE_LINE_LDU + 1e-6  # strung() decides
    near = [j for j, ok in zip(others, on_line) if ok]

    def chain() -> set[int]:  # contiguous along the axis from the barrel, as an engine pod grows from its nozzle
        return _grown_from(model, barrel, [j for j in near if strung(j)]) - {barrel}

    gun = chain()
    if out_of_nozzle and len(gun & set(nozzles)) > 1:  # the engine has a nozzle of its own further on
        out_of_nozzle = False
        gun = chain()
    muzzles = {f"with:{j}" for j in gun & set(nozzles)}  # the pod grown round a muzzle is the gun's casing too
    gun |= {j for j in idx if j in roles and roles[j].group in muzzles and roles[j].role == "propulsion"}
    for j in sorted(gun):
        roles[j] = RoleDecision("weapon", f"{roles[j].reason.split(';')[0]}; strung on the axis of the gun barrel "
                                          f"({describe(els[barrel])[1]}): part of the gun, its muzzle or casing, "
                                          "not an engine [000 §8.2]", "geometry", {"type": "gun"},
                                f"with:{barrel}")
