"""Engines where a player sees them: nozzles, banks of exhausts, rocket tails and their fins, engine pods and
assemblies, what is built onto propulsion, sails and bare masts [000 §9.3 Thrust, 004 §9.3].
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..geometry.units import LDU_PER_BRICK, LDU_PER_STUD
from .annotations import file_stem
from .element_shape import (AERIAL_WORDS, _BARREL_WORDS, _POD_WORDS, CONE_END_LDU, MESH_TOL_LDU, POD_AXIS_COS,
                            POD_GAP_LDU, _centre, _crew_place, _grown_from, _in_any_box, _local_y, _on_axis, _own_end,
                            _points_out, _rod_axis, _text_words, _thrust, _words_of, nx, oriented_box)
from .connectivity import components_in
from .ground import _on_leg
from .guns import _held_in_big, _line_in_boxes
from .measure import element_boxes
from .mounts import GROUND_TOL_LDU, TWO_STUDS_LDU, flies, is_detail_sized, is_open
from .roles import RoleDecision, describe


def _sail_rig(model, graph: nx.Graph, idx: list[int], roles: dict[int, RoleDecision]) -> None:
    """On a ship, the yards and spars hanging off a mast, outside the hull's Structure, carry the sails: part of
    the Thruster [000 §9.3 Thrust Vectors]. A hinge bar hung on the mast is such a spar, its hinge end and all:
    a weak point no more than the rest of the rig, whose Non-Structural Armor it shares [000 §7.1]."""
    inside = set(idx)

    def spar(j: int, r: RoleDecision) -> bool:
        return (r.role == "decoration" and r.source == "topology") or \
            (r.role == "weak point" and r.source == "part" and {"hinge", "bar"} <= _words_of(model.elements[j]))
    rig = {i for i in idx if roles[i].role == "propulsion" and roles[i].params.get("type") == "thrust"}
    frontier = list(rig)
    while frontier:
        nxt = []
        for i in frontier:
            for j in graph.neighbors(i):
                r = roles.get(j)
                if j in inside and j not in rig and r is not None and spar(j, r):
                    base = f"'{model.elements[j].description}'" if r.role == "weak point" else r.reason.split(';')[0]
                    roles[j] = RoleDecision("propulsion", f"{base}; hangs off the mast outside the "
                                                          "hull: a yard or spar of the sail rig, part of the Thruster "
                                                          "[000 §9.3]", "topology", {"type": "thrust"})
                    rig.add(j)
                    nxt.append(j)
        frontier = nxt


CAP_STEPS = 3  # a cap looks this many parts deep along its axis for the engine behind it ...
_GLOW_WORDS = {"dish", "flower", "plant", "axle"}  # ... through more caps, the glow in the exhaust and its shaft


STERN_AXIS_COS = 0.9  # a stern exhaust points along the hull's length, within about 25 degrees


def _at_stern(element, axis: np.ndarray, length: np.ndarray | None, lo: np.ndarray, hi: np.ndarray) -> bool:
    """The dish lies along a long hull's length (``length``, None for a hull as wide as long) at one end of it,
    within a brick of the build's end that way: an exhaust at the stern, though no round casing is behind it."""
    if length is None or abs(float(axis @ length)) < STERN_AXIS_COS:
        return False
    k = int(np.argmax(np.abs(length)))
    return float(element.bbox_max[k]) >= float(hi[:, k].max()) - LDU_PER_BRICK or \
        float(element.bbox_min[k]) <= float(lo[:, k].min()) + LDU_PER_BRICK


def _caps_engine(model, graph: nx.Graph, roles: dict[int, RoleDecision], i: int, axis: np.ndarray) -> bool:
    """Element ``i`` sits at the end of a row of parts on its axis that reaches an engine or a round body (a round
    brick, a cylinder, a cone) within ``CAP_STEPS`` parts (a glowing flower or a second dish between the cap and
    the casing): the back of an engine pod [000 §9.3 Thrusters], not a disc on a wall, a stack of dishes alone or
    a receiver on its antenna."""
    els = model.elements
    c = (els[i].bbox_min + els[i].bbox_max) / 2
    seen, frontier = {i}, [i]
    for _ in range(CAP_STEPS):
        step = sorted({j for k in frontier for j in graph.neighbors(k) if j not in seen and _on_axis(els[j], c, axis)})
        seen.update(step)
        words = {j: _words_of(els[j]) for j in step}
        # a rod on its axis, wherever it is met among the pieces there (6986's nose probes: an antenna through the
        # dish beside the round brick behind it): a receiver or a gun's muzzle, no exhaust
        if any(w & {"antenna", "bar", "radar"} for w in words.values()):
            return False
        for j in step:
            r = roles.get(j)
            if (r is not None and r.role == "propulsion" and r.source == "part" and
                    r.params.get("type") == "thrust") or words[j] & (_POD_WORDS - {"dish"}):
                return True  # an engine part (a jet, a rocket tail) or a round body
        # a second cap, the glow in the exhaust or its shaft: look on behind it
        frontier = [j for j in step if words[j] & _GLOW_WORDS]
    return False


LONG_HULL = 1.5  # a hull this many times longer than wide has a length its engines push along ...
NOZZLE_ALONG_COS = 0.7  # ... a nozzle within 45 degrees of it
BANK_MIN = 2  # exhausts side by side at one end: a bank of engines
BROAD_LDU2 = (4 * LDU_PER_STUD) ** 2  # a piece with a footprint of 4 x 4 studs or more: a roof's, a deck's
BANK_AXIS_COS = 0.95  # ... pointing the same way ...
BANK_LINE_LDU = 4.0  # ... each open to the outside along its axis (nothing but its own engine within this of it)
STANDING_ROCKET = 2.0  # a build this many times taller than wide stands on its tail: its engines point down


def _engine_bank(model, graph: nx.Graph, idx: list[int], classes, roles: dict[int, RoleDecision]) -> None:
    """Two or more dishes lying on their side, hollow facing out, each capping a round body on its axis (a
    wheel, a rim, a cylinder: an engine's casing) or set across the end of a long hull's length (a midi-scale
    star destroyer's, on a plate), open to the outside along it, all pointing the same way: a bank of engine
    exhausts at a ship's stern, Thrusters [000 §9.3]; under a rocket standing on its tail they point down from
    its lowest level. A starship shown on a stand has no cockpit part to make it a flyer (10030's three main
    engines); one dish on a wall, a stack of dishes or dishes held up above the roof are sensors, and a build
    that rolls on wheels has its propulsion already."""
    if any(r.role == "propulsion" for r in roles.values()):
        return
    els = model.elements
    dishes = [i for i in idx if roles.get(i) is not None and roles[i].source in ("part", "topology", "detail") and
              roles[i].role in ("structural", "decoration") and {"dish", "inverted"} <= _words_of(els[i])]
    if len(dishes) < BANK_MIN:
        return
    lo, hi = element_boxes(model, idx)
    span = hi.max(axis=0) - lo.min(axis=0)
    # a rocket standing on its tail (at least twice as tall as it is wide) has its bank of engines under it
    # (21309 Saturn V's five bells)
    tall = float(span[1]) >= STANDING_ROCKET * float(max(span[0], span[2]))
    ground = float(hi[:, 1].max())  # LDraw -Y is up: the lowest point has the largest Y
    ids = np.asarray(idx)
    # a long hull's stern: the end of its length (a midi-scale star destroyer's three exhausts are dishes set on
    # a plate across its stern, with no round casing behind them)
    length = np.eye(3)[0 if span[0] >= span[2] else 2] if \
        max(span[0], span[2]) >= LONG_HULL * min(span[0], span[2]) else None
    found: list[tuple[int, np.ndarray, list[int]]] = []  # (dish, the way it opens, its casing out that way)
    capping: dict[int, str] = {}  # where each dish is an exhaust
    # the top of the build's broad pieces (a roof, a deck): a dish held up wholly above it, on a frame or a mast,
    # is a sensor there, not an exhaust (6927's tracking station's pair of radar dishes over its roof)
    broad = [j for j in idx if float(np.prod((els[j].bbox_max - els[j].bbox_min)[[0, 2]])) >= BROAD_LDU2]
    roof = min((float(els[j].bbox_min[1]) for j in broad if j not in dishes), default=None)
    for i in dishes:
        y = _local_y(els[i])  # an LDraw dish stands along its local Y
        if roof is not None and float(els[i].bbox_max[1]) < roof:
            continue
        under = tall and abs(float(y[1])) > 0.9 and float(els[i].bbox_max[1]) >= ground - LDU_PER_BRICK
        if abs(float(y[1])) >= 0.5 and not under:
            continue
        if _caps_engine(model, graph, roles, i, y):
            capping[i] = "capping round engine casings"
        elif _at_stern(els[i], y, length, lo, hi):
            capping[i] = "across the stern of a long hull"
        else:
            continue
        c = (els[i].bbox_min + els[i].bbox_max) / 2
        ends = []
        for d in (y, -y):  # the side it is open to: nothing but its own engine out along its axis
            face = float(np.where(d > 0, els[i].bbox_max, els[i].bbox_min) @ d)
            far = float((np.where(d > 0, hi, lo) @ d).max())  # the build's end that way
            pts = c[None, :] + (np.arange(face + 1.0, max(face + 2.0, far + 1.0), 4.0) - float(c @ d))[:, None] * d
            hit = ids[((pts[:, None, :] >= lo[None] - BANK_LINE_LDU) &
                       (pts[:, None, :] <= hi[None] + BANK_LINE_LDU)).all(axis=2).any(axis=0)]
            if all(int(j) == i or (_on_axis(els[int(j)], c, d) and _words_of(els[int(j)]) & _CASING_WORDS)
                   for j in hit):
                ends.append((far - face, d, [int(j) for j in hit if int(j) != i]))
        if ends:
            _, d, casing = min(ends, key=lambda e: e[0])
            found.append((i, d, casing))
    bank = [(i, casing) for i, d, casing in found
            if sum(float(d @ e) >= BANK_AXIS_COS for _, e, _ in found) >= BANK_MIN]
    for i, casing in bank:
        roles[i] = RoleDecision("propulsion", f"{classes[i].reason}; one of {len(bank)} dishes {capping[i]}, open "
                                              "to the outside and pointing the same way: a bank of exhausts, "
                                              "Thrusters [000 §9.3]", "geometry", {"type": "thrust"})
        for j in casing:  # the bell or the rim round the exhaust, out past the dish: the same engine
            r = roles.get(j)
            if r is not None and r.source in ("part", "topology", "detail") and r.role in ("structural", "decoration"):
                roles[j] = RoleDecision("propulsion", f"{r.reason.split(';')[0]}; the casing round the exhaust "
                                                      f"({describe(els[i])[1]}): the engine, part of the Thruster "
                                                      "[000 §9.3]", "geometry", {"type": "thrust"}, f"with:{i}")


_FIN_WORDS = {"round", "fins"}  # "Brick 2 x 2 x 2 Round with Fins": a rocket's finned tail


def _rocket_tails(model, graph: nx.Graph, idx: list[int], classes, roles: dict[int, RoleDecision]) -> None:
    """A round brick with fins at the end of a build, its tail end open, is a rocket's tail: its motor, a Thruster
    [000 §9.3]. Open: nothing of the build beyond its bottom along its axis but its exhaust (a round plate, a
    dish or a cone no wider than it that ends the build there). And a rocket's: a round body (round bricks, a
    cylinder, a cone) goes on from its studs along its axis (6973's standing rocket; one lying on a launcher),
    or it lies level on a build that flies already (6887's tail engine). Under an arm or a roof it is a lamp, on
    a wall a sconce, pointing up a tower's finial; built onto a brick, or lying alone, it is no motor."""
    if len(idx) < 2:
        return
    els = model.elements
    flying = flies(roles) or _crew_place(classes, idx)
    inside = set(idx)
    for i in idx:
        r = roles.get(i)
        if r is None or r.source not in ("part", "topology", "detail") or r.role not in ("structural", "decoration") \
                or not _FIN_WORDS <= _words_of(els[i]):
            continue
        axis = _local_y(els[i])  # a brick's studs are up its local -Y: its tail end is along +Y
        if float(axis[1]) < -ROCKET_UPRIGHT_COS:  # LDraw +Y is down: its tail up, a finial
            continue
        nbrs = [j for j in graph.neighbors(i) if j != i and j in inside]
        tail = _own_end(model, i)
        width = _rod_axis(model, i)[3]
        held = [j for j in nbrs if _in_any_box(tail + axis * 2, *element_boxes(model, [j]), CONE_END_LDU) and
                not (_words_of(els[j]) & {"round", "dish", "cone"} and _rod_axis(model, j)[3] <= width + MESH_TOL_LDU
                     and not any(k != i and k in inside for k in graph.neighbors(j)))]
        if held:
            continue
        top = np.asarray(els[i].transform, dtype=float)[:3, 3]  # the studs' end: the part's origin
        ctr = (els[i].bbox_min + els[i].bbox_max) / 2
        body = any(_words_of(els[j]) & {"round", "cylinder", "cone"} and _on_axis(els[j], ctr, axis) and
                   _in_any_box(top - axis * 2, *element_boxes(model, [j]), CONE_END_LDU) for j in nbrs)
        if not body and (float(axis[1]) > ROCKET_UPRIGHT_COS or not flying):
            continue
        roles[i] = RoleDecision("propulsion", f"{classes[i].reason}; a finned round brick with its tail end open: "
                                              "a rocket's tail, its motor, a Thruster [000 §9.3]", "geometry",
                                {"type": "thrust"})


ROCKET_UPRIGHT_COS = 0.7  # a rocket's tail within 45 degrees of straight down (or up) stands upright


_NOZZLE_WORDS = ({"dish", "inverted"}, {"cone"})  # the bell a rocket's exhaust leaves by


def _rocket_drives(model, graph: nx.Graph, idx: list[int], roles: dict[int, RoleDecision], notes: dict,
                   flyer: bool) -> None:
    """A craft that flies (a cockpit, a flyer's name) with nothing else to drive it, whose rockets only a submodel's
    name makes weapons ("rocket.ldr"; a "missile" stays one), is driven by them where their nozzle (an inverted
    dish or a cone, its open end out) ends the rocket at its outer end, away from the craft's middle: its rocket
    engines, Thrusters [000 §9.3 Thrust: rockets] (6830's two stern rockets), as a player reads a ship's only
    rockets. A rocket with no nozzle there, or a cone's tip there (a nose), stays a weapon; a craft with any other
    drive (judged first: nozzles, pods, engine assemblies) keeps its rockets as weapons (6852's rocket)."""
    if not flyer or any(r.role == "propulsion" for r in roles.values()):
        return
    els = model.elements
    named = [i for i in idx if roles.get(i) is not None and roles[i].role == "weapon" and
             roles[i].source == "annotation" and roles[i].params.get("type") == "rocket" and
             notes.get(i) is not None and notes[i].origin == "submodel" and
             "rocket" in _text_words(notes[i].source)]  # (a "missile" is a weapon by name)
    if not named:
        return
    lo, hi = element_boxes(model, idx)
    middle = (lo.min(axis=0) + hi.max(axis=0)) / 2
    for group in components_in(graph, named):
        far = max(group, key=lambda i: (float(np.linalg.norm(_centre(model, i) - middle)), -i))
        words = _words_of(els[far])
        if not any(w <= words for w in _NOZZLE_WORDS) or \
                float(np.dot(_local_y(els[far]), _centre(model, far) - middle)) <= 0:
            continue  # no nozzle at its outer end, or one opening inward (a cone's tip out is a missile's nose)
        sub = file_stem(roles[far].params.get("name", "") or "rocket")
        for i in group:
            roles[i] = RoleDecision("propulsion", f"{roles[i].reason}, but the craft has nothing else to drive it "
                                                  f"and the rocket ends outward in its nozzle "
                                                  f"({describe(els[far])[1]!r}): {sub!r} is its rocket engine, a "
                                                  "Thruster [000 §9.3] (annotate it a weapon to fire it)",
                                    "geometry", {"type": "thrust"})


FIN_RING_MIN = 3  # control sticks ringed round one axis, this many at least (counted by their bases), are fins
FIN_RING_LDU = 40.0  # ... each within two studs of the next, each pointing out from the ring (from its base to
FIN_OUT_COS = 0.7  # its stick, within 45 degrees) ...
FIN_GAP = 0.75 * np.pi  # ... and no gap of more than three eighths of a turn between them


def _fin_rings(model, idx: list[int], classes, roles: dict[int, RoleDecision]) -> None:
    """Control sticks set round one axis on every side, each pointing out from it (a ring of three or more:
    6973's and 6983's rocket fins, 10029's thruster quads) are a rocket's fins, an ornament: no pilot works a
    lever on every side of a round body, so they are not the Controls [000 §9.4; §7.1 decorative]. Levers on a
    console, in a row, an L or a block, point one way together: they stay the Controls."""
    els = model.elements
    sticks = [i for i in idx if roles.get(i) is not None and roles[i].source == "part" and
              roles[i].role == "device" and classes[i].word == "control" and "stick" in _words_of(els[i])]
    if len(sticks) < FIN_RING_MIN:
        return
    ctr = {i: (els[i].bbox_min + els[i].bbox_max) / 2 for i in sticks}
    g = nx.Graph()
    g.add_nodes_from(sticks)
    g.add_edges_from((a, b) for k, a in enumerate(sticks) for b in sticks[k + 1:]
                     if float(np.linalg.norm(ctr[a] - ctr[b])) <= FIN_RING_LDU)
    for comp in nx.connected_components(g):
        if len(comp) < FIN_RING_MIN:
            continue
        bases = [i for i in comp if "base" in _words_of(els[i])]  # one a fin, however its stick is turned
        if len(bases) < FIN_RING_MIN:
            continue
        pts = np.array([ctr[i] for i in bases])
        mid = pts.mean(axis=0)
        _, _, vt = np.linalg.svd(pts - mid)
        far = (pts - mid) @ vt[:2].T  # in the ring's plane (its axis: the direction of least spread)
        out = far / np.maximum(np.linalg.norm(far, axis=1, keepdims=True), 1e-9)
        levers = [i for i in comp if i not in bases]

        def facing(b: int, o: np.ndarray) -> float:  # how far a fin points out: its base's studs, or from its
            ways = [-_local_y(els[b])]  # base to its nearest stick
            near = min(levers, key=lambda j: float(np.linalg.norm(ctr[j] - ctr[b])), default=None)
            if near is not None and float(np.linalg.norm(ctr[near] - ctr[b])) <= FIN_RING_LDU:
                ways.append(ctr[near] - ctr[b])
            return max(float((d @ vt[:2].T) @ o) / max(float(np.linalg.norm(d)), 1e-9) for d in ways)
        if min(facing(b, o) for b, o in zip(bases, out)) < FIN_OUT_COS:  # levers on a console all point one way
            continue
        ang = np.sort(np.arctan2(far[:, 1], far[:, 0]))
        gaps = np.diff(np.concatenate([ang, ang[:1] + 2 * np.pi]))
        if float(gaps.max()) > FIN_GAP:  # on one side only: not round the body
            continue
        for i in comp:
            base = roles[i].reason.split(":")[0]
            roles[i] = RoleDecision("decoration", f"{base}: one of {len(comp)} control sticks set round one axis "
                                                  "on every side (a rocket's fins, a thruster quad): an ornament, "
                                                  "not the Controls [000 §7.1, §9.4]", "geometry")


_ROD_WORDS = {"antenna"}  # a small cone on one, on its axis, is its tip (a bar may be an engine's core) ...
ROD_TIP_CLEAR_LDU = 60.0  # ... with no engine casing on that axis within three studs of it


def _rod_tip(model, graph: nx.Graph, idx: list[int], i: int, axis: np.ndarray) -> bool:
    """Cone ``i`` sits on the end of an antenna on its axis, with no round casing (a dish, a round brick, a rim)
    wider than it on that axis near it: the antenna's tip or light (5971's wingtip antennas; 6986's nose probes,
    a round 1 x 1 plate on the cone's point), not an engine's nozzle."""
    els = model.elements
    c = _centre(model, i)
    rods = [j for j in graph.neighbors(i) if j != i and _words_of(els[j]) & _ROD_WORDS and _on_axis(els[j], c, axis)]
    if not rods:
        return False
    return not any(j != i and j not in rods and _words_of(els[j]) & _CASING_WORDS and _on_axis(els[j], c, axis) and
                   float(np.linalg.norm(_centre(model, j) - c)) <= ROD_TIP_CLEAR_LDU and
                   _across(els[j], axis) > _across(els[i], axis) + MESH_TOL_LDU for j in idx)


def _across(element, axis: np.ndarray) -> float:
    """How wide a piece is across ``axis``: its box's widest extent along the world axes square to it (all of
    them, for an axis lying askew)."""
    size = element.bbox_max - element.bbox_min
    square = np.abs(axis) < 0.5
    return float(size[square].max() if square.any() else size.max())


def _nozzles(model, graph: nx.Graph, idx: list[int], classes, roles: dict[int, RoleDecision], flyer: bool,
             rotorcraft: bool = False) -> set[int]:
    """On a flyer, a cone lying on its side (its axis horizontal; a small one along the hull's length when the
    hull has one) is an engine nozzle: a Thruster [000 §9.3]; so is a cone of two studs or more hanging under the
    belly, wide end down at the craft's lowest point: a lift jet (a small cone there, or one at the foot of a
    column of bricks, is a strut's foot). Not on a craft a rotor lifts (``rotorcraft``): its rotor flies it, a
    cone by its engine is the turbine's exhaust, no Thruster (6396's helicopter bought one). Returns the
    nozzles."""
    found: set[int] = set()
    if not flyer or rotorcraft:
        return found
    els = model.elements
    ground = max(float(els[i].bbox_max[1]) for i in idx)  # LDraw -Y is up: the lowest point has the largest Y
    lo, hi = element_boxes(model, idx)
    span = hi.max(axis=0) - lo.min(axis=0)
    # an engine pushes the craft along its length: a small cone pointing out of a long hull's side is a gun or
    # a detail (a big one may drive a craft as wide as it is long, a B-wing turned on its stand)
    length = (0 if span[0] >= span[2] else 2) if max(span[0], span[2]) >= LONG_HULL * min(span[0], span[2]) \
        else None
    for i in idx:
        r = roles.get(i)
        if r is None or r.source not in ("part", "topology", "detail") or r.role not in ("structural", "decoration"):
            continue
        axis = _local_y(els[i])  # LDraw cones and dishes stand along their local Y
        if {"dish", "inverted"} <= _words_of(els[i]) and is_detail_sized(els[i]) and abs(float(axis[1])) < 0.5 and \
                _caps_engine(model, graph, roles, i, axis):
            roles[i] = RoleDecision("propulsion", f"{classes[i].reason}; a small dish on its side on a flyer, capping "
                                                  "an engine or a round body on its axis: the engine's exhaust, a "
                                                  "Thruster [000 §9.3]", "geometry", {"type": "thrust"})
            found.add(i)
            continue
        if classes[i].word != "cone":
            continue
        if is_detail_sized(els[i]) and _rod_tip(model, graph, idx, i, axis):
            roles[i] = replace(r, reason=f"{r.reason}; a small cone on the end of an antenna: its tip or its light, "
                                         "not an exhaust [000 §9.3]")
            continue
        if abs(float(axis[1])) < 0.5 and _points_out(model, graph, i, axis):
            roles[i] = replace(r, reason=f"{r.reason}; a cone on its side held by its wide end, its tip pointing "
                                         "out: a nose, a spike or a muzzle, not an exhaust (an exhaust opens "
                                         "outward) [000 §9.3]")
            continue
        if abs(float(axis[1])) < 0.5 and (length is None or not is_detail_sized(els[i]) or
                                          abs(float(axis[length])) >= NOZZLE_ALONG_COS):
            roles[i] = RoleDecision("propulsion", f"{classes[i].reason}; a cone on its side on a flyer: an engine "
                                                  "nozzle, a Thruster [000 §9.3]", "geometry", {"type": "thrust"})
            found.add(i)
        elif float(axis[1]) > 0.5 and float(els[i].bbox_max[1]) >= ground - GROUND_TOL_LDU and \
                min(float(x) for x in (els[i].bbox_max - els[i].bbox_min)[[0, 2]]) >= TWO_STUDS_LDU - 4 and \
                not _on_leg(model, graph, idx, i):
            roles[i] = RoleDecision("propulsion", f"{classes[i].reason}; a cone under a flyer's belly, wide end "
                                                  "down: a lift jet's nozzle, a Thruster [000 §9.3]", "geometry",
                                    {"type": "thrust"})
            found.add(i)
    return found


POD_LINE_LDU = 6.0  # ... their centres within this of the nozzle's axis line ...
POD_ROUND_TOL = 0.1  # a part as wide as it is high across the axis (within this share), centred on it, is a disc
_CASING_WORDS = _POD_WORDS | {"wheel", "rim", "tyre", "tire", "barrel"}  # an engine's round casing, its bell


def _engine_pods(model, idx: list[int], roles: dict[int, RoleDecision], flyer: bool) -> None:
    """On a flyer, the round bricks, cylinders and cones lying level in a row behind or before a nozzle, on its
    axis, are the engine pod around it: the Thruster is the whole engine [000 §9.3 Thrusters]."""
    if not flyer:
        return
    els = model.elements

    def axis(i: int) -> np.ndarray:
        return _local_y(els[i])

    def centre(i: int) -> np.ndarray:
        return (els[i].bbox_min + els[i].bbox_max) / 2

    level = {i for i in idx if abs(float(axis(i)[1])) < 0.3}
    seeds = [i for i in idx if i in level and roles.get(i) is not None and roles[i].role == "propulsion" and
             roles[i].params.get("type") == "thrust" and not _FIN_WORDS <= _words_of(els[i])]  # a rocket's
    # finned tail is its motor, and its fins spread wider than the body before it
    cand = {i for i in idx if is_open(roles.get(i)) and roles[i].role == "structural"}
    # behind an exhaust cap, a glowing flower or a second cap is decoration by its part or its place until it is
    # seen on the engine's axis (not behind a cone: a gun's barrel may come out of it)
    glow = {i for i in idx if roles.get(i) is not None and roles[i].role == "decoration" and
            roles[i].source in ("part", "topology", "detail") and not _words_of(els[i]) & _BARREL_WORDS}
    blo = np.zeros((len(els), 3))
    bhi = np.zeros((len(els), 3))
    blo[idx], bhi[idx] = element_boxes(model, idx)
    mid = (blo + bhi) / 2
    for s in seeds:
        a, o = axis(s), centre(s)
        k = int(np.argmax(np.abs(a)))
        if abs(float(a[k])) < POD_AXIS_COS:
            continue  # a nozzle aslant grows no pod
        across = [d for d in range(3) if d != k]
        width = float(max(els[s].bbox_max[d] - els[s].bbox_min[d] for d in across)) + POD_GAP_LDU
        capped = "dish" in _words_of(els[s])
        open_ = cand | glow if capped else cand

        def fits(i: int) -> bool:  # round parts along the axis; anything else (a bracket) within the pod's girth
            if i in level and _words_of(els[i]) & _POD_WORDS and abs(float(axis(i) @ a)) >= POD_AXIS_COS:
                return True
            girth = [float(els[i].bbox_max[d] - els[i].bbox_min[d]) for d in across]
            if capped and abs(girth[0] - girth[1]) <= POD_ROUND_TOL * max(girth) and max(girth) <= 2 * width:
                return True  # a disc or a ring on the axis of an exhaust cap (a pulley, a circular connector): a
                # section of the casing (a cone's axis may be a gun's: the barrel's pieces are told apart later)
            return all(g <= width for g in girth)
        def shell(i: int) -> bool:  # a round piece whose box the axis runs through (half a cylinder's shell)
            return i in level and bool(_words_of(els[i]) & _POD_WORDS) and \
                all(float(els[i].bbox_min[d]) - POD_GAP_LDU <= float(o[d]) <= float(els[i].bbox_max[d]) + POD_GAP_LDU
                    for d in across)
        ids = np.array(sorted(open_), dtype=int)  # speed only: the line and box tests for all at once
        if not len(ids):
            continue
        off = np.linalg.norm(np.cross(mid[ids] - o, a), axis=1) <= POD_LINE_LDU
        through = np.all((blo[ids][:, across] - POD_GAP_LDU <= o[across]) &
                         (o[across] <= bhi[ids][:, across] + POD_GAP_LDU), axis=1)
        on_line = [int(i) for i, near, box in zip(ids, off, through)
                   if (near or (box and shell(int(i)))) and fits(int(i))]
        pod = _grown_from(model, s, on_line)  # contiguous from the nozzle along the axis
        for i in pod - {s}:
            base = roles[i].reason.split(";")[0]
            roles[i] = RoleDecision("propulsion", f"{base}; lies level on the axis of the nozzle "
                                                  f"({describe(els[s])[1]}): the engine pod, part of the Thruster "
                                                  "[000 §9.3]", "geometry", {"type": "thrust"}, f"with:{s}")
            cand.discard(i)
            glow.discard(i)


_FAN_WORDS = frozenset({"gear", "propeller", "turbine", "fan"})
FAN_JET_REASON = "a tube lying level on a flyer with a fan inside it on its axis: a jet engine, part of the " \
                 "Thruster [000 §9.3 Thrusters]"
TUBE_LEVEL = 0.3  # a tube lies level: its axis at most this far out of the horizontal (a silo stands)


def _fan_jets(model, idx: list[int], roles: dict[int, RoleDecision], flyer: bool) -> None:
    """On a flyer, an open cylinder lying level with a fan inside it on its axis (a gear, a propeller, a turbine:
    an airliner's nacelle) is a jet engine: the tube, the fan and the pieces strung on its axis that fit inside
    its girth (the fan's axle, its rings, the round plates that close it) are one Thruster [000 §9.3]. A tube with
    nothing turning inside it stays what its place makes it (a fuselage section, a tank)."""
    if not flyer:
        return
    els = model.elements
    for t in [i for i in idx if "cylinder" in _words_of(els[i]) and is_open(roles.get(i))]:
        box = oriented_box(model, t)
        if box is None:
            continue
        centre, axes, half = box
        k = int(np.argmax(half))
        a = axes[:, k]
        if abs(float(a[1])) > TUBE_LEVEL or not is_open(roles.get(t)):
            continue
        girth = 2 * float(max(half[d] for d in range(3) if d != k)) + POD_GAP_LDU

        # the open pieces centred on the tube's axis, with how far along it each lies
        along = {}
        for i in idx:
            if i != t and is_open(roles.get(i)):
                c = (els[i].bbox_min + els[i].bbox_max) / 2
                if float(np.linalg.norm(np.cross(c - centre, a))) <= POD_GAP_LDU:
                    along[i] = float((c - centre) @ a)
        if not any(_words_of(els[i]) & _FAN_WORDS and abs(x) <= float(half[k]) + POD_GAP_LDU
                   for i, x in along.items()):
            continue  # nothing turns inside it
        line = [i for i in along if float(np.max(els[i].bbox_max - els[i].bbox_min)) <= girth]
        for i in _grown_from(model, t, line):
            base = roles[i].reason.split(";")[0]
            roles[i] = RoleDecision("propulsion", f"{base}; {FAN_JET_REASON}", "geometry", {"type": "thrust"},
                                    f"with:{t}")


ENGINE_SLIM = 2.0  # an engine built as a sub-assembly is at least this many times longer along its nozzle ...
ENGINE_SHARE = 0.25  # ... at most this share of the craft (more is the craft itself: a rocket) ...
ENGINE_GIRTH = 2.5  # ... and at most this many times as thick as its thickest engine part told so far;
ENGINE_AXIS_OFF = 0.25  # its nozzle centred on its axis (within this share of its girth either way)
SPLIT_MIN_SHARE = 0.15  # a piece of the craft this big (share of its elements) left on its own is a split
_SEAT_WORDS = {"seat", "cockpit", "windscreen", "canopy", "saddle", "steering"}  # where a pilot sits (a control


# stick alone is a greeble as often as not: nacelles wear them)


def _big_pieces(graph: nx.Graph, nodes, least: float) -> int:
    """How many connected pieces of at least ``least`` elements ``nodes`` make: more of them without a
    sub-assembly than with it, and the craft falls apart without it (a fuselage between two wings; an engine pod
    hangs on the craft, and its intake or a mount hanging on the pod alone is no split)."""
    return sum(1 for comp in nx.connected_components(graph.subgraph(nodes)) if len(comp) >= least)


def _placements(model, idx: list[int]) -> dict[tuple, list[int]]:
    """Each sub-assembly placement the builder made (its chain of placing lines) -> its elements among ``idx``."""
    members: dict[tuple, list[int]] = {}
    for i in idx:
        refs = model.elements[i].refs
        for d in range(1, len(refs)):
            members.setdefault(refs[:d], []).append(i)
    return members


def _engine_assemblies(model, graph: nx.Graph, idx: list[int], classes, roles: dict[int, RoleDecision],
                       flyer: bool) -> None:
    """On a flyer, a sub-assembly the builder made (a submodel's placement) that holds a nozzle on its axis and is
    a slim pod along that axis is the whole engine, its mounts and casing included: a nacelle is one Thruster
    [000 §9.3 Thrusters]. Not a hull section: a sub-assembly with a place for the pilot (a seat, a cockpit, a
    windscreen, a steering wheel) or one the craft falls apart without (a fuselage between the wings) is the
    craft's body, and a boom with a nozzle under its tip is a boom. Its weapons, devices, crew and annotated parts
    keep their roles."""
    if not flyer or not any(_thrust(roles.get(s)) for s in idx):
        return
    els = model.elements
    members = _placements(model, idx)
    done: set[tuple] = set()
    least = max(2, SPLIT_MIN_SHARE * len(idx))  # a big piece of the craft
    whole = None  # how many big pieces the craft itself is, counted when first asked
    for s in idx:  # (a piece made part of an engine here is asked in turn: its own sub-assemblies)
        if not _thrust(roles.get(s)):
            continue
        a = np.abs(_local_y(els[s]))
        k = int(np.argmax(a))
        if float(a[k]) < POD_AXIS_COS:
            continue  # a nozzle aslant: no axis to be slim along
        refs = els[s].refs
        for d in range(1, len(refs)):  # the outermost sub-assembly that is a slim pod along the nozzle
            key = refs[:d]
            g = members.get(key, [])
            if key in done or len(g) > ENGINE_SHARE * len(idx) or len(g) < 2:
                continue
            lo, hi = element_boxes(model, g)
            ext = hi.max(axis=0) - lo.min(axis=0)
            girth = max(float(ext[j]) for j in range(3) if j != k)
            if float(ext[k]) < ENGINE_SLIM * girth:
                continue
            c, box_mid = (els[s].bbox_min + els[s].bbox_max) / 2, (lo.min(axis=0) + hi.max(axis=0)) / 2
            if any(abs(float(c[j] - box_mid[j])) > ENGINE_AXIS_OFF * float(ext[j]) + POD_GAP_LDU
                   for j in range(3) if j != k):
                continue  # the nozzle off the sub-assembly's axis: a boom with a jet under its tip
            known = [i for i in g if _thrust(roles.get(i))]  # the engine parts told so far, the nozzle's own
            t_lo, t_hi = element_boxes(model, known)
            if girth > ENGINE_GIRTH * max(float((t_hi[:, j] - t_lo[:, j]).max()) for j in range(3) if j != k):
                continue  # a hull section holding small nozzles (one or a row of them): not a pod round them
            if any(classes[i].word in _SEAT_WORDS for i in g):
                continue  # the craft's body, with its cockpit
            whole = _big_pieces(graph, idx, least) if whole is None else whole
            gone = set(g)
            if _big_pieces(graph, [i for i in idx if i not in gone], least) > whole:
                continue  # the craft's body, between its wings
            done.add(key)
            name = refs[d][0]  # the sub-assembly's own file (``key`` ends with the line placing it)
            for i in g:
                q = roles.get(i)
                if i == s or q is None or classes[i].word in AERIAL_WORDS or not (is_open(q) or (q.role, q.source) in (
                        ("weak point", "topology"), ("decoration", "part"))) or q.role == "propulsion":
                    continue
                base = q.reason.split(";")[0]
                roles[i] = RoleDecision("propulsion", f"{base}; in the sub-assembly {file_stem(name)!r} that holds "
                                                      f"the nozzle ({describe(els[s])[1]}), a slim pod along its axis:"
                                                      " the engine, part of the Thruster [000 §9.3]", "geometry",
                                        {"type": "thrust"}, f"with:{s}")
            break


ENGINE_NAME_WORDS = {"engine", "engines", "thruster", "thrusters", "booster", "boosters", "nacelle", "nacelles",
                     "turbine", "turbines"}  # the last word of a sub-assembly's name that calls it an engine


def _named_engines(model, idx: list[int], classes, roles: dict[int, RoleDecision]) -> None:
    """A sub-assembly the builder named an engine ("Left Engine", "thrusters") is the craft's engine where it is
    built as one: a slim pod at most a quarter of the craft, with no place for a pilot, hanging outside the
    Structure of the rest, on a craft with a pilot's place. Then its pieces are one Thruster [000 §9.3]: a
    podracer's engines ahead of its cockpit, an X-wing's behind its wing roots (within the body's box, but open at
    the back), a TIE fighter's at the back of its ball; the name outweighs the guess that a body between a hinge
    and a wing is the wing's mount. The name alone is no verdict: an engine block under a car's bonnet (inside
    the body, shut in at both ends), a "fire engine" (the whole build) or an engine room stay what their place
    makes them."""
    if not _crew_place(classes, idx):
        return
    els = model.elements
    members = _placements(model, idx)
    taken: set[int] = set()
    for key in sorted(members, key=len):  # the outermost named placement first
        g = [i for i in members[key] if i not in taken]
        if not g:
            continue
        name = file_stem(els[g[0]].refs[len(key)][0])  # the sub-assembly's own file (``key`` places it)
        words = [w for w in name.lower().replace("_", " ").replace("-", " ").split() if w]
        if not words or words[-1] not in ENGINE_NAME_WORDS or len(g) < 2 or len(g) > ENGINE_SHARE * len(idx):
            continue
        if any(classes[i].word in _SEAT_WORDS or roles[i].role == "crew" for i in g):
            continue  # the craft's body, with its cockpit
        if sum(1 for i in g if roles[i].role == "structural") > len(g) / 2:
            continue  # built into the Structure: the body's own section
        if any(roles[i].role == "propulsion" and roles[i].params.get("type") != "thrust" and
               roles[i].source != "topology" for i in g):
            continue  # it drives the craft another way already (a wheel, a wing part); only what the topology
            # guessed (the hinged mount a wing swings on: 7140's engines between its S-foils and their hinges)
            # gives way to the builder's name
        lo, hi = element_boxes(model, g)
        ext = np.sort(hi.max(axis=0) - lo.min(axis=0))
        if float(ext[2]) < ENGINE_SLIM * float(ext[1]):
            continue  # no pod
        gone = set(g)
        body = [i for i in idx if i not in gone and roles[i].role == "structural"]
        if not body:
            continue
        blo, bhi = element_boxes(model, body)
        mid = (lo.min(axis=0) + hi.max(axis=0)) / 2
        if bool(np.all((blo.min(axis=0) <= mid) & (mid <= bhi.max(axis=0)))) and \
                not _open_ended(lo.min(axis=0), hi.max(axis=0), blo, bhi):
            continue  # inside the body, shut in at both ends: an engine block under a bonnet drives no craft
        for i in g:
            q = roles[i]
            if classes[i].word in AERIAL_WORDS:
                continue  # an antenna or a flag on the pod stays decoration and takes no part in its Size
            guessed = q.role == "propulsion" and q.source == "topology" and q.params.get("type") != "thrust"
            if not guessed and (q.role == "propulsion" or not (is_open(q) or (q.role, q.source) in (
                    ("weak point", "topology"), ("decoration", "part"), ("decoration", "geometry")))):
                continue  # (an intake ring of wheel rims off the ground is the engine's, not a wheel's)
            roles[i] = RoleDecision("propulsion", f"{q.reason.split(';')[0]}; in the sub-assembly {name!r}, named an "
                                                  "engine and built as a slim pod outside the body of a crewed "
                                                  "craft: the engine, a Thruster [000 §9.3]", "geometry",
                                    {"type": "thrust"}, f"with:{g[0]}")
        taken |= gone


def _open_ended(lo: np.ndarray, hi: np.ndarray, blo: np.ndarray, bhi: np.ndarray) -> bool:
    """The pod ``lo``-``hi`` has an end along its length that no piece of the body (boxes ``blo``-``bhi``) lies
    beyond: its exhaust opens to the outside (an X-wing's engines behind the wing roots, within the box of the
    whole body but open at the back), as an engine block under a bonnet does not."""
    k = int(np.argmax(hi - lo))
    mid = (lo + hi) / 2
    for s in (1.0, -1.0):
        start = mid.copy()
        start[k] = (hi[k] if s > 0 else lo[k]) + s * MESH_TOL_LDU
        way = np.zeros(3)
        way[k] = s
        t_in, t_out = _line_in_boxes(start, way, blo - MESH_TOL_LDU, bhi + MESH_TOL_LDU)
        if not bool(np.any((t_in <= t_out) & (t_out >= 0))):
            return True
    return False


def _built_on_propulsion(model, graph: nx.Graph, idx: list[int], roles: dict[int, RoleDecision],
                         detached: set[int]) -> None:
    """A building piece bigger than a detail, built onto a wing or an engine and onto nothing else of the
    creation (a plate across a tail fin's top, the mount plate of a rocket pod on a wing, a delta's plates on its
    wing plates), is part of that propulsion: it takes its role, a Thruster's when it carries one [000 §9.1,
    §9.3]. Small details on a wing (a navigation light, a grille tile) stay details."""
    inside = set(idx)
    els = model.elements
    engines = [j for j in idx if _thrust(roles.get(j)) and roles[j].source == "part" and
               _words_of(els[j]) & {"engine", "jet", "turbine", "thruster"}]  # not a sail: rigging fills its box
    if engines:  # a loose piece inside an engine part's shell is its exhaust or fan (10227's round-brick nozzles)
        elo, ehi = element_boxes(model, engines)
        every = np.ones(len(engines), dtype=bool)
        for i in sorted(detached):
            r = roles.get(i)
            if r is None or r.role != "decoration" or r.source != "topology":
                continue
            centre = (els[i].bbox_min + els[i].bbox_max) / 2
            shell = _held_in_big(model, engines, centre, elo, ehi, every)
            if shell is not None:
                roles[i] = RoleDecision("propulsion", f"{r.reason.split(';')[0]}; inside the shell of the engine "
                                                      f"{describe(els[shell])[1]!r}: its exhaust or its fan, part of "
                                                      "the Thruster [000 §9.3]", "topology", {"type": "thrust"},
                                        f"with:{shell}")  # one Thruster with its engine
    changed = True
    while changed:
        changed = False
        for i in sorted(detached):
            r = roles.get(i)
            if r is None or r.role != "decoration" or r.source != "topology" or is_detail_sized(els[i]):
                continue
            near = [roles.get(j) for j in graph.neighbors(i) if j in inside and j != i and
                    not (is_detail_sized(els[j]) and roles.get(j) is not None and roles[j].role == "decoration")]
            if not near or not all(n is not None and n.role == "propulsion" for n in near):
                continue  # (a light or a grille on it is a detail it carries)
            kinds = {n.params.get("type", "") for n in near}
            kind = "thrust" if "thrust" in kinds else sorted(kinds)[0]
            roles[i] = RoleDecision("propulsion", f"{r.reason.split(';')[0]}; built onto the {kind.replace('_', ' ')} "
                                                  "propulsion and nothing else: part of it [000 §9.1]", "topology",
                                    {"type": kind} if kind else {})
            changed = True


def _bare_masts(model, idx, classes) -> set[int]:
    """The ship's masts of a build with no sail: spars, not Thrusters. A mast drives a ship by the sails it
    carries [000 §9.3 sails are Thrusters]; built into a starfighter or a tower it holds it up. On a boat hull a
    bare mast is still its rig (old files leave the cloth sails out: a canoe's mast and yards), unless a steering
    wheel (no ship's wheel) steers the boat: a motor vessel's, whose masts carry a derrick or a radar."""
    masts = {i for i in idx if classes[i].role == "propulsion" and classes[i].word == "mast"}
    if not masts or any(classes[i].word == "sail" or model.elements[i].category.lower() == "sheet fabric"
                        for i in idx):
        return set()
    if any(classes[i].word == "boat" for i in idx) and \
            not any(classes[i].word == "steering" and "ship" not in _words_of(model.elements[i]) for i in idx):
        return set()  # (a ship's wheel steers a sailing ship)
    return masts


BARE_MAST_REASON = ("a mast with no sail: a spar of its Structure (on a motor vessel steered by a wheel, a "
                    "derrick's or a radar's), not a Thruster [000 §9.3 sails are Thrusters; §7.1]")
