"""One creation is what a player sees as one: join sub-assemblies that rest on or are held against each other,
builds standing together, and tell a docked craft from its dock [issue 8].
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from ..geometry.boxes import box_gaps, elements_box
from .annotations import names_several
from .connectivity import TOUCH_KINDS, add_resting, add_turning, components_in, joint_halves
from .element_shape import RESTING_GAP_LDU, _crew_place, cockpits, nx, oriented_box, world_points
from .engines import _bare_masts
from .ground import _lifts
from .kinds import _boat_hull, _name_words, _names_vehicle, names_boat
from .measure import element_boxes
from .mounts import GROUND_TOL_LDU
from .roles import structural_kind
from .scenery import _wide
from .wings import AIRFOIL_OUT, WINGS_OUT_SHARE, _flyer_body, _outside_share


PLUGGED_MAX = 5  # a piece this small with a wheel can be plugged into a bigger body rather than drive itself
PLUGGED_DEPTH_LDU = 4.0  # boxes overlapping this deep on every axis: one is plugged into the other


WHEEL_OVERLAP_LDU = 2.0  # wheel parts whose boxes overlap this deep are one wheel


def _wheel_count(lo: np.ndarray, hi: np.ndarray, wheels: list[int]) -> int:
    """How many wheels these wheel parts make: a tyre on its rim, or rims nested in each other (an exhaust ring
    built of wheels), is one; wheels on separate axles or side by side do not overlap."""
    groups: list[list[int]] = []
    for i in wheels:
        hit = [g for g in groups if any(float(np.min(np.minimum(hi[i], hi[j]) - np.maximum(lo[i], lo[j]))) >
                                        WHEEL_OVERLAP_LDU for j in g)]
        merged = [i] + [j for g in hit for j in g]
        groups = [g for g in groups if g not in hit] + [merged]
    return len(groups)


def _join_resting(model, graph: nx.Graph, comps: list[list[int]], classes) -> list[list[int]]:
    """Pieces held by clips or hinges the connector data missed, or just resting on the frame, are one creation
    with what they touch: a smaller piece without propulsion of its own joins the larger one it touches (so does
    running gear with no body, off the ground: a chain round a build's pulleys is no tracked vehicle [000 §9.1]).
    The touching pair becomes a graph edge ("resting"), so blasts split the creation the same way."""
    if len(comps) < 2:
        return comps
    els = model.elements
    lo, hi = element_boxes(model, range(len(els)))
    comp_of = np.full(len(els), -1)
    for k, c in enumerate(comps):
        comp_of[c] = k
    parent = list(range(len(comps)))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k
    size = [len(c) for c in comps]
    part_boxes: dict = {}  # each part's own box, for the resting test of turned pieces (``_near_own``)
    crewed = [_crew_place(classes, c) for c in comps]
    floor = max((float(hi[c, 1].max()) for c in comps if len(c)), default=0.0)  # -Y is up: the lowest point
    # speed only: candidates by a sweep over the boxes' low X (sorted once), then the exact box test per
    # component; the tests below decide as before, on the same elements in the same (ascending) order
    by_x = np.argsort(lo[:, 0], kind="stable")
    lo_x = lo[by_x, 0]
    wide = float(np.nanmax(hi[:, 0] - lo[:, 0], initial=0.0)) + 1.0
    slack = RESTING_GAP_LDU + 1.0
    for k in sorted(range(len(comps)), key=lambda k: size[k]):
        c = comps[k]
        if 2 * sum(1 for i in c if classes[i].minifig_body) >= len(c):
            continue  # a figure is not a loose panel (a skeleton's arm built into a module as a bracket is no
            # figure: 21321's station module rests on the station with one)
        # a vehicle of its own touches others at its surface; a small wheeled piece plugged into a bigger body
        # (an engine intake ring on an axle inside a nacelle) is part of that body
        # a one-piece bicycle is a whole vehicle, wherever it stands: no axle plugged in, no running gear
        steed = any(classes[i].word == "steed" for i in c)
        plugged_only = len(c) <= PLUGGED_MAX and any(classes[i].role == "propulsion" for i in c) and not steed
        # a wing, a rotor or an engine section with no place for a pilot cannot fly by itself: it is part of
        # the craft it touches, a body with a cockpit (a wing-shaped plate lying against a building stays
        # apart; 10029's lander stages rest on each other with no connector found) [000 §9.1, §9.3]
        bare = _bare_masts(model, c, classes)
        propelled = [i for i in c if classes[i].role == "propulsion" and i not in bare]
        # one wheel (a rim, with or without its tyre) carries no vehicle: a hull section with a wheel rim built in
        # is a section of the craft it touches, not a vehicle of its own [000 §9.1]
        wheels = [i for i in propelled if classes[i].type == "ground" and classes[i].word != "steed"]
        lone_wheel = bool(wheels) and _wheel_count(lo, hi, wheels) < 2
        drives = [i for i in propelled if not (lone_wheel and classes[i].type == "ground")]
        # (a seat on a rotor with no cockpit is a swivel chair: it flies no one anywhere)
        chair = all(classes[i].type == "flight" for i in drives) and not cockpits(model, c, classes)
        loose_wing = bool(drives) and (not crewed[k] or chair) and \
            all(classes[i].type in ("flight", "forward_flight", "thrust") for i in drives)
        # "Wing" plates most of which are built into the piece (not sticking out of its body) are its plating,
        # not the wings of a craft of its own: a star destroyer's crewed upper hull rests on its lower hull and is
        # part of it [000 §9.1] (a piece with no crew place still joins only a crewed body, as a loose wing does)
        flat_wings = [i for i in drives if classes[i].type == "forward_flight" and classes[i].word == "wing"]
        if flat_wings:
            _, b_lo, b_hi = _flyer_body(model, c, classes)
            out = sum(_outside_share(model, i, b_lo, b_hi) >= AIRFOIL_OUT for i in flat_wings)
            if out < WINGS_OUT_SHARE * len(flat_wings):
                plating = set(flat_wings)
                drives = [i for i in drives if i not in plating]
        # running gear with no body of its own, off the ground (a chain round a build's pulleys): its mechanism
        gear_only = bool(propelled) and all(classes[i].type == "ground" for i in propelled) and \
            not any(structural_kind(classes[i], els[i]) for i in c) and float(hi[c, 1].max()) < floor - GROUND_TOL_LDU \
            and not steed
        # wheels on Technic axles, pins and blocks with no body and no seat (a car's steered front axle whose
        # pivot pin the connector data missed) are the running gear of the body they touch, no vehicle of their own
        axle_set = _axle_set(els, c, classes, propelled) and not crewed[k] and not steed
        if drives and not plugged_only and not loose_wing and not gear_only and not axle_set:
            continue
        plugged = plugged_only and not axle_set  # a wheel set touching a body runs under it: no need to be inside
        # boxes farther than the gap from the component's box cannot be near any of its elements
        c_lo, c_hi = lo[c].min(axis=0), hi[c].max(axis=0)
        if np.isfinite(c_lo).all() and np.isfinite(c_hi).all():
            window = np.sort(by_x[np.searchsorted(lo_x, c_lo[0] - slack - wide):
                                  np.searchsorted(lo_x, c_hi[0] + slack, side="right")])
            others = window[(comp_of[window] >= 0) & (comp_of[window] != k)]
            others = others[box_gaps(lo[others], hi[others], c_lo, c_hi) <= RESTING_GAP_LDU]
        else:  # a box that is not finite: every other element, as the tests below always took
            others = np.flatnonzero((comp_of >= 0) & (comp_of != k))
        if not len(others):
            continue
        for i in c:
            if plugged:
                depth = np.minimum(hi[others], hi[i]) - np.maximum(lo[others], lo[i])
                near = others[(depth >= PLUGGED_DEPTH_LDU).all(axis=1)]
            else:
                gap = box_gaps(lo[others], hi[others], lo[i], hi[i])
                near = [j for j in others[gap <= RESTING_GAP_LDU] if _near_own(model, i, int(j), part_boxes)]
            near = [j for j in near if size[root(int(comp_of[j]))] >= size[root(k)] and root(int(comp_of[j])) != root(k)
                    and (plugged or not loose_wing or crewed[root(int(comp_of[j]))])]
            if near:
                j = int(max(near, key=lambda j: size[root(int(comp_of[j]))]))
                add_resting(graph, i, j, "plugged into it (overlapping, no connector found)" if plugged else
                            "rests on or against it (touching, no connector)")
                a, b = root(k), root(int(comp_of[j]))
                parent[a] = b
                size[b] += size[a]
                crewed[b] = crewed[b] or crewed[a]
                break
    # a turning joint's two halves fitted into each other are one joint, whatever each half carries (a backhoe's
    # arm on its own wheels, on the chassis it turns on; an AT-ST's leg on its hip): one creation, the joint its
    # weak point [000 §7.1]
    for a, b, centre, axis, kind in joint_halves(model, graph):
        if comp_of[a] >= 0 and comp_of[b] >= 0 and root(int(comp_of[a])) != root(int(comp_of[b])):
            add_turning(graph, a, b, centre, axis, "the two halves of one turning joint, fitted together (pivots: "
                                                   "a weak point)", kind)
            parent[root(int(comp_of[a]))] = root(int(comp_of[b]))
    merged: dict[int, list[int]] = {}
    for k, c in enumerate(comps):
        merged.setdefault(root(k), []).extend(c)
    return [sorted(v) for v in merged.values()]


AXLE_SET_MAX = 24  # a wheel set with its axles, pins and steering blocks is a few pieces


def _axle_set(els, c: list[int], classes, propelled: list[int]) -> bool:
    """``c`` is a set of wheels and the Technic pieces they turn on, nothing else (no brick, plate, seat)."""
    return bool(propelled) and len(c) <= AXLE_SET_MAX and \
        all(classes[i].type == "ground" for i in propelled) and \
        all(i in propelled or _name_words(els[i].description or "")[:1] == ["technic"] for i in c)


def _turned(e) -> bool:
    """The element is turned off the grid (not by a multiple of 90 degrees): its world box holds air."""
    t = getattr(e, "transform", None)
    if t is None:
        return False  # (a model of boxes alone: nothing to turn)
    r = np.asarray(t, dtype=float)[:3, :3]
    n = np.linalg.norm(r, axis=0)
    if not np.all(n > 0):
        return False
    r = np.abs(r / n)
    return bool(np.any((r > TURN_EPS) & (r < 1 - TURN_EPS)))


TURN_EPS = 0.02  # a rotation entry this far from 0 or 1 turns the part off the grid


def _near_own(model, i: int, j: int, part_boxes: dict) -> bool:
    """Elements ``i`` and ``j``, whose world boxes touch, touch measured along their own axes too: their boxes
    in their own frames (oriented boxes) come within the resting gap, and a corner of one lies within it of the
    other's own box. A support brick turned 30 degrees has a world box far bigger than itself; a plane's wing
    near it on a runway does not rest on it [000 §7.1].
    ``part_boxes``: each part's own box, shared by the calls on one model (every brick of a kind has one)."""
    els = model.elements
    if not (_turned(els[i]) or _turned(els[j])):
        return True
    a, b = oriented_box(model, i, part_boxes), oriented_box(model, j, part_boxes)
    if a is None or b is None:
        return True  # nothing to measure with: the world boxes decide
    if not _boxes_within(a, b, RESTING_GAP_LDU):
        return False  # (cheap, and most pairs end here)
    # oriented boxes hold air too (a wedge plate's cut corner, a droid's arms): a corner of one piece lies within
    # the gap of the other's own box
    for p, q in ((i, j), (j, i)):
        own = part_boxes.get(els[p].part)  # its own box, as ``oriented_box`` measured it above
        pts = world_points(model, q)
        if own is None or not len(pts):
            return True
        t = np.asarray(els[p].transform, dtype=float)
        inside = np.linalg.solve(t[:3, :3], (pts - t[:3, 3]).T).T
        out = np.maximum(0.0, np.maximum(own[0] - inside, inside - own[1]))
        if float(np.min(np.linalg.norm(out, axis=1))) <= RESTING_GAP_LDU:
            return True
    return False


def _boxes_within(a, b, gap: float) -> bool:
    """Two oriented boxes come within ``gap`` of each other: no separating axis (their 15 candidate axes) holds
    them further apart than that."""
    (ca, ua, ha), (cb, ub, hb) = a, b
    d = cb - ca
    axes = [ua[:, k] for k in range(3)] + [ub[:, k] for k in range(3)] + \
        [np.cross(ua[:, m], ub[:, n]) for m in range(3) for n in range(3)]
    for ax in axes:
        n = float(np.linalg.norm(ax))
        if n < 1e-6:
            continue  # parallel edges: the face axes cover it
        ax = ax / n
        ra = float(np.sum(ha * np.abs(ua.T @ ax)))
        rb = float(np.sum(hb * np.abs(ub.T @ ax)))
        if abs(float(d @ ax)) - ra - rb > gap:
            return False
    return True


def _placement(model, comp: list[int]) -> tuple:
    """The deepest submodel placement (its chain of type-1 lines) that holds every element of ``comp``; () when
    they meet only in the main model."""
    chains = [model.elements[i].refs[:-1] for i in comp]
    first = chains[0]
    n = min(len(c) for c in chains)
    k = 0
    while k < n and all(c[k] == first[k] for c in chains):
        k += 1
    return tuple(first[:k])


def _one_build(model, graph: nx.Graph, comps: list[list[int]], classes, scenery: set[int]
               ) -> list[list[list[int]]]:
    """The blocks of one building: bodies without propulsion or a crew place that the builder put in one placed
    submodel, or in one placed inside the other's, and stood on the same base plate (a base's towers and bunker on
    its crater plate) are one building, as the set is fielded; each block keeps its own connections (a blast does
    not cross the gap) [000 §7.1 Structure]. Blocks in the main model, or of submodels placed apart, stay apart."""
    if len(comps) < 2 or not scenery:
        return [[c] for c in comps]
    base = {}
    for k, comp in enumerate(components_in(graph, scenery)):
        for i in comp:
            base[i] = k
    els = model.elements
    sc = sorted(scenery)
    s_lo, s_hi = element_boxes(model, sc)
    stands: dict[int, tuple[tuple, set[int]]] = {}  # block -> its placement and the base plates it stands on
    for k, c in enumerate(comps):
        # a vehicle (an engine, wheels, a boat hull, a cockpit) is no block of a building; a "Wing" plate on a
        # block fixed onto the base plate with no engine is its Structure (it cannot take off)
        # (a rotor that cannot lift, on its side or under the build, is a fan or a windmill's sails: no vehicle's)
        if any((classes[i].role == "propulsion" and classes[i].type != "forward_flight" and
                not (classes[i].word == "rotor" and not _lifts(model, graph, c, i))) or classes[i].minifig_body
               for i in c) or cockpits(model, c, classes) or _boat_hull(model, c, classes):
            continue
        place = _placement(model, c)
        if not place or not _wide(model, c, classes):
            continue  # two planters of one submodel are street furniture, not a building
        grounds = {base[j] for i in c for j in graph.neighbors(i) if j in base}
        if not grounds:  # standing in the plate's pit, on no stud: resting on it
            c_lo, c_hi = elements_box(els, c)
            gap = box_gaps(s_lo, s_hi, c_lo, c_hi)
            grounds = {base[sc[n]] for n in np.flatnonzero(gap <= RESTING_GAP_LDU)
                       if any(float(box_gaps(s_lo[n], s_hi[n], els[i].bbox_min, els[i].bbox_max)) <= RESTING_GAP_LDU
                              for i in c)}
        if grounds:
            stands[k] = (place, grounds)
    # blocks of one placed submodel, or of one placed inside the other's (10176's gatehouse walls, in "Base"
    # inside "Castle", beside the towers of "Castle"), standing on the same base plate: one building
    links = nx.Graph()
    for a_, (pa, ga) in stands.items():
        for b_, (pb, gb) in stands.items():
            if a_ < b_ and ga & gb and _nested(pa, pb):
                links.add_edge(a_, b_)
    merged = {min(ks): sorted(ks) for ks in nx.connected_components(links) if len(ks) > 1}
    drop = {k for ks in merged.values() for k in ks[1:]}
    return [[comps[j] for j in merged[k]] if k in merged else [c] for k, c in enumerate(comps) if k not in drop]


def _nested(a: tuple, b: tuple) -> bool:
    """One placement chain holds the other (both inside one placed submodel, not the main model alone)."""
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    return bool(short) and long_[:len(short)] == short


DOCKED_MIN_ELEMENTS = 10  # a docked craft has at least this many elements ...
DOCKED_MAX_STUDS = 4  # ... and is held by at most this many connections, none of them pinned (Technic)


def _trailer(classes, graph: nx.Graph, idx: list[int], figures: set[int]) -> bool:
    """Wheels and nothing else to move it, no place for a driver and no one aboard: a trailer, "Structural" to the
    Vehicle that tows it [000 §7.1 table: Vehicle: "trailer"]."""
    prop = [i for i in idx if classes[i].role == "propulsion"]
    return bool(prop) and all(classes[i].type == "ground" for i in prop) and not _crew_place(classes, idx) and \
        not any(j in figures for i in idx for j in graph.neighbors(i))


def _docked(model, graph: nx.Graph, comps: list[list[int]], classes, figures: set[int]) -> list[list[int]]:
    """A craft docked on another (a scout ship on its mothership, a jolly boat on deck) is a creation of its own,
    as a player fields it: a submodel placed in the main model that is a vehicle by itself (its own propulsion
    with a place for its crew, or a boat hull), held by a few studs or just resting there, not pinned. A
    trailer (no crew place) or a pinned-in cockpit section stays with the vehicle [000 §7.1 Vehicle]."""
    out: list[list[int]] = []
    els = model.elements
    craft_name: dict[str, bool] = {}  # each submodel's name read once (speed only)
    for comp in comps:
        by_top: dict[tuple, list[int]] = {}  # each placement of a submodel in the main model: two carriages built
        depth = _shared_depth(els, comp)     # from one "carriage.ldr" are two craft; below the submodel that
        for i in comp:                       # holds the whole build ("ship + rover.ldr") when one does
            p = els[i].submodel_path
            if len(p) > depth:
                by_top.setdefault((p[depth], els[i].refs[depth]), []).append(i)
            for k in range(depth + 1, len(p)):  # deeper, a submodel named for a craft ("spaceship" inside
                if p[k] not in craft_name:        # "back + spaceship"): the craft carried there, perhaps docked
                    craft_name[p[k]] = _craft_name(p[k])
                if craft_name[p[k]]:
                    by_top.setdefault((p[k], els[i].refs[k]), []).append(i)
                    break
        if not by_top:
            out.append(comp)
            continue
        cset, taken = set(comp), set()
        crafts: list[list[int]] = []
        for (name, _), members in sorted(by_top.items()):
            for piece in components_in(graph, members):
                piece = sorted(piece)
                if len(piece) < DOCKED_MIN_ELEMENTS or 2 * len(piece) > len(comp) or taken.intersection(piece):
                    continue  # too small to crew, or the mothership itself (or a craft in a craft taken already)
                boat = _boat_hull(model, piece, classes)
                # a rotor moves a craft with a cockpit; under a seat it is a swivel chair's foot (an office's)
                lifted = bool(cockpits(model, piece, classes))
                moves = any(classes[i].role == "propulsion" and (classes[i].type != "flight" or lifted)
                            for i in piece)
                crewed = _crew_place(classes, piece) or any(j in figures for i in piece for j in graph.neighbors(i))
                if not (boat or (moves and crewed)):
                    continue
                pset = set(piece)
                host = [i for i in comp if i not in pset]
                if _trailer(classes, graph, host, figures):
                    continue  # a tractor with its semi-trailer hitched on: the trailer is the Vehicle's [000 §7.1]
                links = [graph.edges[i, j] for i in piece for j in graph.neighbors(i) if j in cset and j not in pset]
                held = [d for d in links if d.get("kind") not in TOUCH_KINDS]
                # pinned on: a section of the craft, unless its own submodel names a vehicle (a shuttle pinned on
                # the back of its carrier plane flies off it)
                named = _craft_name(name)
                if len(held) > DOCKED_MAX_STUDS or (any(d.get("kind") == "technic" for d in held) and not named):
                    continue
                # held only on hinges or clips on a bar, a piece swings with the craft: a folding wing with a
                # control stick on it is a section of the shuttle, no craft docked on it [000 §7.1 weak points]
                if held and all(d.get("movable") for d in held) and not boat and not named:
                    continue
                crafts.append(piece)
                taken |= pset
        if not taken:
            out.append(comp)
            continue
        _hitch_trailers(graph, by_top, crafts, taken, classes, figures)
        rest = [i for i in comp if i not in taken]
        parts = sorted((sorted(c) for c in components_in(graph, rest)), key=len, reverse=True)
        out.extend(_hung_on_crafts(graph, crafts, parts))
    return out


def _craft_name(sub: str) -> bool:
    """A submodel named for one craft by its last word ("spaceship", "jolly boat", "submarine"; not "truck cab",
    not "back + spaceship")."""
    words = _name_words(sub)
    return not names_several(sub) and (_names_vehicle(words, False, last_only=True) or names_boat(words))


def _shared_depth(els, comp: list[int]) -> int:
    """The level of submodel placement whose pieces may be docked crafts: 0, the main model's, unless one submodel
    placed there holds the whole build and its name joins several things ("spaceship + vehicle.ldr" placing the
    ship and the rover it carries): then the level inside it, and so on. A submodel named for one thing ("star
    destroyer") holding it all is that one craft, its sections no crafts of their own."""
    depth = 0
    while True:
        keys = {(els[i].submodel_path[depth], els[i].refs[depth]) if len(els[i].submodel_path) > depth else None
                for i in comp}
        if len(keys) != 1 or None in keys or not names_several(next(iter(keys))[0]):
            return depth
        depth += 1


def _hung_on_crafts(graph: nx.Graph, crafts: list[list[int]], parts: list[list[int]]) -> list[list[int]]:
    """The docked crafts and what is left of the build, each piece of the rest apart from its largest (the host)
    that hangs on one craft alone and is less than half its size going with that craft: a hatch hinged to a
    rover's side, placed in the main model beside the rover, opens with the rover, not as a creation of its own
    [000 §7.1]. Returns crafts and host pieces, each sorted."""
    crafts = [list(c) for c in crafts]
    owner = {i: k for k, c in enumerate(crafts) for i in c}
    host = []
    for n, part in enumerate(parts):
        on = {owner[j] for i in part for j in graph.neighbors(i) if j in owner}
        if n > 0 and len(on) == 1 and 2 * len(part) < len(crafts[next(iter(on))]):
            crafts[next(iter(on))].extend(part)
        else:
            host.append(part)
    return [sorted(c) for c in crafts] + host


def _hitch_trailers(graph: nx.Graph, by_top: dict, crafts: list[list[int]], taken: set[int], classes,
                    figures: set[int]) -> None:
    """A trailer (``_trailer``: wheels and nothing else to move it, no one aboard) hitched to a craft taken off the
    build goes with that craft, not with the quay or the road it stands on: "trailer" is Structure of the Vehicle
    that tows it [000 §7.1 table]. Hitched: it touches that one craft, at least as much as anything else."""
    owner = {i: k for k, piece in enumerate(crafts) for i in piece}
    for _, members in sorted(by_top.items()):
        for piece in components_in(graph, [i for i in members if i not in taken]):
            links = Counter(owner.get(j, -1) for i in piece for j in graph.neighbors(i) if j not in piece)
            tows = [k for k in links if k >= 0]
            if len(tows) != 1 or links[tows[0]] < links.get(-1, 0):
                continue  # touching no craft, or leaning on the quay more than on the truck
            if not _trailer(classes, graph, sorted(piece), figures):
                continue
            crafts[tows[0]] = sorted(crafts[tows[0]] + list(piece))
            taken |= set(piece)
