"""Two judgments by a part's place in the build: mounts belong to what they carry, and a flyer's landing struts
are not its Structure.

- A few pieces that hang on the body by one element and carry nothing but one Non-Structural thing (a radar
  dish on its plate mast, an engine pod round its nozzle, a lamp on its clip, leaves on a branch, a gun on its
  bracket) are that thing's mount: part of the weapon, Thruster, device or ornament, not of the Structure.
  "Any parts that are decorative, moving, have activated functions, or are otherwise not an integral part of
  the main Structure are Non-Structural Elements" [000 §7.1 Non-Structural Elements].
- The small columns a flying craft stands on, its hull clear of the ground, are landing struts: not an
  integral part of the Structure and not propulsion (a flyer does not walk on them) [000 §7.1, §9.1].
"""
from __future__ import annotations

import numpy as np

from ..geometry.boxes import elements_box
from .branches import pendant_branches
from .element_shape import MESH_TOL_LDU
from .measure import box_volume, element_boxes
from .roles import RoleDecision, describe, words

DETAIL_MAX_LONG_LDU = 62.0  # a surface detail: at most 3 studs long (a plate with handles) ...
TWO_STUDS_LDU = 42.0  # two studs (40 LDU) and a margin: the widest of a detail, a strut's foot, a skirt
DETAIL_MAX_LDU = TWO_STUDS_LDU  # ... at most 2 studs wide ...
DETAIL_MAX_HEIGHT_LDU = 28.0  # ... and a brick high
MOUNT_MAX_ELEMENTS = 16  # a mount is a few pieces: a bigger branch is a section of the build (a wing, a tower)
MOUNT_MAX_SHARE = 0.1  # ... and at most this share of its creation
MOUNT_MIN_LIMIT = 3  # a dish on a one-brick mast is a mount however small the build
MOUNT_RATIO = 4  # at most this many mount pieces per carried Non-Structural element
STRUT_MAX_FOOT_LDU = TWO_STUDS_LDU  # a landing strut stands on at most 2 x 2 studs ...
STRUT_MAX_SHARE = 0.25  # ... all struts together are at most a quarter of the craft
STRUT_NEAR_LDU = 24.0  # a piece on a strut continues it when its centre is this close to the strut's axis
GROUND_TOL_LDU = 8.0  # a strut or a leg reaches the ground: within a plate of the creation's lowest point
CLEAR_LDU = 8.0  # ... and the hull stands at least a plate clear of it
MIN_STRUTS = 2
FLAT_LDU = 10.0  # a plate (8 LDU) with a margin

FURNITURE = "furniture"  # the source of a furniture verdict: a room's table or chair, never a pilot's place

_OPEN = {("structural", "part"), ("structural", "topology"), ("decoration", "topology"),
         ("decoration", "detail")}  # judged by part or place only: a mount may take its payload's role
_PAYLOAD = ("weapon", "propulsion", "device", "decoration")
_NAMES = {"weapon": "weapon", "propulsion": "Thruster", "device": "device", "decoration": "ornament"}


def _part_name(lead: RoleDecision) -> str:
    """What a mount is part of, in its reason: a Thruster, a rotor's or wheel's propulsion, a weapon ..."""
    if lead.role == "propulsion" and lead.params.get("type", "thrust") != "thrust":
        return "propulsion"
    return _NAMES[lead.role]


def flies(roles: dict[int, RoleDecision], boat: bool = False) -> bool:
    """A flyer has thrust, flight or wings; a ship's sails are thrust too, so a boat is no flyer."""
    return not boat and any(r.role == "propulsion" and r.params.get("type") in ("thrust", "flight", "forward_flight")
                            for r in roles.values())


IN_CORE = " (the Structure) [000 §7.1]"  # what the core's pieces are told first (creations._judge_roles)


def is_open(r: RoleDecision | None) -> bool:
    return r is not None and (r.role, r.source) in _OPEN


def is_detail_sized(element) -> bool:
    """Small enough to be a surface detail (or a detail's mount): a plate with handles, a clip, a 1 x 1 brick."""
    small, middle, large = sorted(float(x) for x in (element.bbox_max - element.bbox_min))
    return large <= DETAIL_MAX_LONG_LDU and middle <= DETAIL_MAX_LDU and small <= DETAIL_MAX_HEIGHT_LDU


def mounts(model, graph, idx: list[int], roles: dict[int, RoleDecision], root: int, describe_el, *,
           keep: set[int], sensors: set[int]) -> None:
    """Mounts take the role of the one Non-Structural thing they carry (see the module docstring).

    ``keep``: elements whose branch is no mount: minifig items (a musket lying in a boat is not the boat's
    weapon) and the Controls (a stick or a ship's wheel stands in the cockpit or on the deck, which is hull
    [000 §9.4]). ``sensors``: dishes and radar parts, a sensor device wherever they stand on a mount of their own
    [000 §9.4 Systems: sensors; §7.1 Building: satellite dish]. Wheels, wings and tails are no payload either:
    what carries them is the chassis or the fuselage [000 §7.1 Vehicle]. An ornament's mount is detail-sized
    (a clip, a small plate): two bricks holding an antenna are still a turret; and no mount piece is bigger than
    what it carries: the top brick of a bunker under its gun is the bunker's wall."""
    inside = set(idx)
    adj = {i: [j for j in graph.neighbors(i) if j in inside and j != i] for i in idx}
    limit = min(MOUNT_MAX_ELEMENTS, max(MOUNT_MIN_LIMIT, int(MOUNT_MAX_SHARE * len(idx))))
    done: set[int] = set()
    for b in sorted(pendant_branches(adj, root, MOUNT_MAX_ELEMENTS), key=lambda b: -len(b.members)):
        if b.members & done or len(b.members) >= len(idx) - 1:
            continue  # everything but the root is the body itself, not a branch of it
        light = len(b.members) <= limit  # or, past that share of the creation, a dish's mast lighter than it
        open_, payload, fixed = [], [], False
        for i in b.members:
            r = roles.get(i)
            if i in keep:
                fixed = True
            elif i in sensors:
                payload.append(i)
            elif is_open(r):
                open_.append(i)
            elif r is not None and r.role == "propulsion" and r.params.get("type") in ("ground", "forward_flight"):
                fixed = True  # what carries wheels is the chassis, what carries wings and tails the fuselage
            elif r is not None and r.role in _PAYLOAD:
                payload.append(i)
            elif r is None or r.role != "weak point":
                fixed = True  # annotated, crew, Structure by its interior: not a mount
        if fixed or not payload or not open_:
            continue
        mast = all(i in sensors for i in payload) and \
            sum(box_volume(model.elements[i]) for i in open_) <= sum(box_volume(model.elements[i]) for i in payload)
        if (len(open_) > MOUNT_RATIO * len(payload) or not light) and not mast:
            continue  # many pieces are a mount only as a mast lighter than the sensor dish it holds up, not a
            # tower under its flag
        def kind(i: int) -> str:
            return "device" if i in sensors else roles[i].role
        kinds = {(kind(i), roles[i].params.get("type", "")) for i in payload if kind(i) != "decoration"}
        if len(kinds) > 1:
            continue  # a gun and an engine on one bracket: no single thing it belongs to
        lead = next((i for i in payload if kind(i) != "decoration"), payload[0])
        lr = RoleDecision("device", "", "geometry") if lead in sensors else roles[lead]
        if lr.role == "decoration" and not all(is_detail_sized(model.elements[i]) for i in open_):
            continue
        carried = sum(box_volume(model.elements[i]) for i in payload)
        if max(box_volume(model.elements[i]) for i in open_) > carried:
            continue  # a mount is smaller than what it carries: a wall brick under a gun is the wall
        for i in payload:
            if i in sensors:
                roles[i] = RoleDecision("device", f"{roles[i].reason.split(';')[0]}; a dish on a mount of its own: "
                                                  "a sensor dish, a device [000 §9.4 Systems: sensors; §7.1 "
                                                  "Building: satellite dish]", "mount")
        what = describe_el(lead)
        for i in open_:
            r = roles[i]
            base = r.reason.split(";")[0].replace(IN_CORE, "")  # it is the payload's now, not the Structure's
            roles[i] = RoleDecision(
                lr.role, f"{base}; carries only the {what} and hangs on the body by one piece "
                         f"({describe_el(b.mount)}): its mount ({len(open_)} piece(s)), part of the "
                         f"{_part_name(lr)} [000 §7.1 Non-Structural Elements]", "mount", dict(lr.params) if lr.role != "decoration" else {},
                (lr.group or f"with:{lead}") if lr.role in ("weapon", "propulsion") else "")  # one weapon or
            # Thruster with what it carries, whether or not its pieces touch
        done |= b.members


FURNITURE_MAX_ELEMENTS = 8  # a table, a chair, a bench: a few pieces ...
ON_FLOOR_TOL_LDU = 8.0  # ... its bottom within a plate of its floor's top ...
FURNITURE_MIN_HEIGHT_LDU = 24.0  # ... at least a brick high ...
FLOOR_MARGIN_LDU = 2.0  # a floor piece reaches this far below what stands on it (the fallback meshes' margin)
FURNITURE_REACH_LDU = 400.0  # ... with walls on all four sides within this distance (about 6")


def furniture(model, graph, idx: list[int], roles: dict[int, RoleDecision], root: int) -> None:
    """Interior objects like furniture are Non-Structural, free [000 §7.1]: a few pieces standing on a floor,
    hanging on the build by that floor alone, holding nothing else up, with the creation's walls on all four
    sides around them at their height (inside, not on a roof or a terrace)."""
    if any(r.role == "propulsion" for r in roles.values()):
        return  # a building's: in a vehicle the seats and consoles are its cockpit
    els = model.elements
    inside = set(idx)
    adj = {i: [j for j in graph.neighbors(i) if j in inside and j != i] for i in idx}
    walls = [i for i in idx if roles.get(i) is not None and roles[i].role == "structural"]
    if not walls:
        return
    wlo, whi = element_boxes(model, walls)
    wid = np.array(walls)
    done: set[int] = set()
    groups = [(sorted(b.members), [b.mount]) for b in
              sorted(pendant_branches(adj, root, FURNITURE_MAX_ELEMENTS), key=lambda b: -len(b.members))]
    groups += _standing_on_floor(els, adj, idx)
    for m, floors in groups:
        if set(m) & done or len(m) * 4 > len(idx) or len(m) >= len(idx) - 1 or \
                not all(is_open(roles.get(i)) for i in m):
            continue
        lo, hi = elements_box(els, m)
        floor_top = min(float(els[f].bbox_min[1]) for f in floors)
        if hi[1] > floor_top + ON_FLOOR_TOL_LDU:  # LDraw -Y is up: it must stand on top of its floor
            continue
        if hi[1] - lo[1] < FURNITURE_MIN_HEIGHT_LDU:
            continue  # tiles and plates lying on a floor are its surface
        if _on_the_rim(els, idx, m, lo, hi, floor_top):
            continue  # a parapet along the edge of a roof, open to the sky: the wall goes on up, no furniture
        others = ~np.isin(wid, m) & ~np.isin(wid, floors)
        level = others & (wlo[:, 1] < hi[1]) & (whi[:, 1] > lo[1])  # walls at its height
        over_x = level & (wlo[:, 2] < hi[2]) & (whi[:, 2] > lo[2])
        over_z = level & (wlo[:, 0] < hi[0]) & (whi[:, 0] > lo[0])
        sides = [over_x & (wlo[:, 0] >= hi[0]) & (wlo[:, 0] - hi[0] <= FURNITURE_REACH_LDU),
                 over_x & (whi[:, 0] <= lo[0]) & (lo[0] - whi[:, 0] <= FURNITURE_REACH_LDU),
                 over_z & (wlo[:, 2] >= hi[2]) & (wlo[:, 2] - hi[2] <= FURNITURE_REACH_LDU),
                 over_z & (whi[:, 2] <= lo[2]) & (lo[2] - whi[:, 2] <= FURNITURE_REACH_LDU)]
        if not all(s.any() for s in sides):
            continue
        for i in m:
            base = roles[i].reason.split(";")[0]
            roles[i] = RoleDecision("decoration", f"{base}; stands on the floor inside the walls and holds nothing "
                                                  "up: interior furniture, free [000 §7.1 Non-Structural Elements]",
                                    FURNITURE)
        done |= set(m)


RIM_SHARE = 0.5  # a piece flush with its floor's edge along half that edge or more ...
RIM_MIN_LDU = 80.0  # ... and four studs or more is a wall along the rim (a chair on a small plate is not)
FLOOR_MAX_THICK_LDU = 16.0  # a floor level's pieces: plates and tiles (a plate with its studs: 12 LDU)
WALL_NEAR_LDU = 40.0  # a wall within two studs beyond the edge makes it a room's inner side, not a rim


def _on_the_rim(els, idx: list[int], group: list[int], lo, hi, floor_top: float) -> bool:
    """The group (its box ``lo``..``hi``) stands on the rim of its floor level, open to the sky: a parapet, wall
    going on up (6067's battlements on its flat roof), not furniture. Flush with an edge of the floor level (the
    flat pieces whose top is the floor's), along at least ``RIM_SHARE`` of that edge and ``RIM_MIN_LDU``, nothing
    of the build beyond that edge rising past its middle (a bench against a room's wall is furniture) and nothing
    over it (``_roofed``: a bench along an inset floor under a ceiling is furniture)."""
    mine = set(group)
    level = [j for j in idx if j not in mine and abs(float(els[j].bbox_min[1]) - floor_top) <= MESH_TOL_LDU and
             float(els[j].bbox_max[1] - els[j].bbox_min[1]) <= FLOOR_MAX_THICK_LDU]
    if not level:
        return False
    flo, fhi = elements_box(els, level)
    mid = float(lo[1] + hi[1]) / 2
    for a, b in ((0, 2), (2, 0)):  # flush across axis a, running along axis b
        length = float(fhi[b] - flo[b])
        run = float(min(hi[b], fhi[b]) - max(lo[b], flo[b]))
        if length <= 0 or run < RIM_SHARE * length or run < RIM_MIN_LDU - MESH_TOL_LDU:
            continue
        for side, flush in ((1, abs(float(hi[a] - fhi[a])) <= MESH_TOL_LDU),
                            (-1, abs(float(lo[a] - flo[a])) <= MESH_TOL_LDU)):
            edge = float(hi[a]) if side > 0 else float(lo[a])
            walled = any(j not in mine and float(els[j].bbox_min[1]) < mid and  # rising past its middle ...
                         (float(els[j].bbox_min[a]) >= edge - MESH_TOL_LDU if side > 0 else
                          float(els[j].bbox_max[a]) <= edge + MESH_TOL_LDU) and  # ... beyond the edge ...
                         (float(els[j].bbox_min[a]) - edge if side > 0 else edge - float(els[j].bbox_max[a]))
                         <= WALL_NEAR_LDU and  # ... close to it ...
                         els[j].bbox_min[b] < hi[b] and els[j].bbox_max[b] > lo[b] for j in idx)  # ... along it
            if flush and not walled and not _roofed(els, idx, group, lo, hi):
                return True
    return False


def _roofed(els, idx: list[int], group: list[int], lo, hi) -> bool:
    """Some piece of the build (not of ``group``) lies wholly above the box ``lo``..``hi`` over it: a ceiling or
    an upper floor (LDraw -Y is up)."""
    mine = set(group)
    return any(j not in mine and float(els[j].bbox_max[1]) <= float(lo[1]) and
               els[j].bbox_min[0] < hi[0] and els[j].bbox_max[0] > lo[0] and
               els[j].bbox_min[2] < hi[2] and els[j].bbox_max[2] > lo[2] for j in idx)


def _standing_on_floor(els, adj: dict[int, list[int]], idx: list[int]) -> list[tuple[list[int], list[int]]]:
    """Small groups standing on a floor of several plates (a bench on two cones, a desk across floor tiles):
    everything connected to a piece above the floor level, attached to the build by the floor pieces under it
    alone, at most FURNITURE_MAX_ELEMENTS pieces; as (group, the floor pieces it stands on)."""
    out: list[tuple[list[int], list[int]]] = []
    seen: set[int] = set()
    tol, margin = ON_FLOOR_TOL_LDU, FLOOR_MARGIN_LDU
    top = {i: float(els[i].bbox_min[1]) for i in idx}  # LDraw -Y is up: the top of a piece ...
    bot = {i: float(els[i].bbox_max[1]) for i in idx}  # ... and its bottom
    for s in sorted(idx, key=lambda i: -bot[i]):  # the lowest first: legs before the top
        if s in seen:
            continue
        level = bot[s]  # the bottom of the piece, the floor's top

        def under(j: int) -> bool:  # a floor piece: its top (studs) at the piece's bottom, its body below
            return abs(top[j] - level) <= tol and bot[j] > level + margin
        if not any(under(j) for j in adj[s]):
            continue  # stands on no floor piece
        group, frontier, floors = {s}, [s], set()
        wall = False  # something of it reaches below the floor from the side: a wall, not furniture
        while frontier and len(group) <= FURNITURE_MAX_ELEMENTS and not wall:
            u = frontier.pop()
            for w in adj[u]:
                if w in group or w in floors:
                    continue
                if bot[w] <= level + margin:  # above the floor: part of the furniture
                    group.add(w)
                    frontier.append(w)
                elif under(w):  # a floor piece under it
                    floors.add(w)
                else:
                    wall = True
                    break
        if wall or len(group) > FURNITURE_MAX_ELEMENTS:  # speed only: its pieces on this level would find the same
            seen.update(w for w in group if bot[w] == level)
            continue
        if len(floors) < 2:
            continue  # a piece on one floor plate is the pendant branch above
        seen |= group
        out.append((sorted(group), sorted(floors)))
    return out


def landing_struts(model, graph, idx: list[int], roles: dict[int, RoleDecision], boat: bool) -> set[int]:
    """A flyer's landing struts are decoration (see the module docstring); returns them."""
    if not flies(roles, boat):
        return set()
    els = model.elements
    inside = set(idx)
    ground = max(float(els[i].bbox_max[1]) for i in idx)  # LDraw -Y is up: the lowest point has the largest Y

    def small(i: int) -> bool:
        ext = els[i].bbox_max - els[i].bbox_min
        return is_open(roles.get(i)) and roles[i].role == "structural" and \
            float(ext[0]) <= STRUT_MAX_FOOT_LDU and float(ext[2]) <= STRUT_MAX_FOOT_LDU

    def column(i: int) -> bool:  # a strut goes on up in bricks and supports; a plate on top is the hull's
        return small(i) and float(els[i].bbox_max[1] - els[i].bbox_min[1]) > FLAT_LDU

    # a part made as a leg ("Support Insectoid Leg") that a flyer stands on is a landing leg whatever its size
    # and however low the hull hangs beside it: an insect-shaped ship spreads its legs to the hull's level
    legs = [i for i in idx if is_open(roles.get(i)) and roles[i].role == "structural" and
            {"leg", "legs"} & set(words(describe(els[i])[1])) and
            float(els[i].bbox_max[1]) >= ground - GROUND_TOL_LDU]
    if len(legs) >= MIN_STRUTS and len(legs) <= STRUT_MAX_SHARE * len(idx):
        for i in legs:
            base = roles[i].reason.split(";")[0]
            roles[i] = RoleDecision("decoration", f"{base}; a landing leg: the flyer stands on it, it does not walk "
                                                  "on it; not an integral part of the Structure and not propulsion: "
                                                  "decoration [000 §7.1, §9.1]", "geometry")
    else:
        legs = []
    feet = [i for i in idx if small(i) and float(els[i].bbox_max[1]) >= ground - GROUND_TOL_LDU]
    struts: list[set[int]] = []
    taken: set[int] = set()
    for f in feet:
        if f in taken:
            continue
        axis = (els[f].bbox_min + els[f].bbox_max) / 2
        strut, frontier = {f}, [f]
        while frontier:  # up the column: small pieces standing on it, on its axis
            nxt = []
            for i in frontier:
                for j in graph.neighbors(i):
                    if j in inside and j not in strut and column(j) and \
                            float(els[j].bbox_max[1]) <= float(els[i].bbox_min[1]) + GROUND_TOL_LDU and \
                            np.hypot(*((els[j].bbox_min + els[j].bbox_max) / 2 - axis)[[0, 2]]) <= STRUT_NEAR_LDU:
                        strut.add(j)
                        nxt.append(j)
            frontier = nxt
        taken |= strut
        struts.append(strut)
    if len(struts) < MIN_STRUTS:
        return set(legs)
    members = set().union(*struts)
    hull = [i for i in idx if i not in members and roles.get(i) is not None and roles[i].role == "structural"]
    if not hull or len(members) > STRUT_MAX_SHARE * len(idx):
        return set(legs)
    if max(float(els[i].bbox_max[1]) for i in hull) > ground - CLEAR_LDU:
        return set(legs)  # the hull itself rests on the ground: these are part of its underside
    for i in sorted(members):
        base = roles[i].reason.split(";")[0]
        roles[i] = RoleDecision("decoration", f"{base}; a landing strut: the flyer stands on it with its hull "
                                              "clear of the ground; not an integral part of the Structure and not "
                                              "propulsion: decoration [000 §7.1, §9.1]", "geometry")
    return members | set(legs)


def describe_element(model):
    """A short name for element ``i``, as the reasons quote it."""
    return lambda i: describe(model.elements[i])[1]
