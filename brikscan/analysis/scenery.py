"""Scenery a player does not price: display stands, base plates, info plates, pieces lying on the ground plate,
loose props, and what is fitted to or carried by an animal [SPEC scenery; issue 8].
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..geometry.boxes import box_gaps, elements_box
from ..geometry.units import LDU_PER_BRICK, LDU_PER_PLATE
from .connectivity import JUDGED_KIND, TOUCH_KINDS, add_resting, components_in
from .creation import Creation
from .details import _detail_part
from .element_shape import _FLYING_TYPES, MESH_TOL_LDU, RESTING_GAP_LDU, _crew_place, _text_words, cockpits, nx
from .measure import element_boxes
from .mounts import CLEAR_LDU, GROUND_TOL_LDU, TWO_STUDS_LDU
from .naming import _split_words, _stem_words
from .roles import PartClass, RoleDecision, describe, structural_kind


STAND_MAX_SHARE = 0.15  # a display stand is a small part of what it shows ...
STAND_MAX_LINKS = 6  # ... held to it by a few connections
STAND_REASON = ("the craft's one contact with the ground, a sub-assembly of its own under its hull: its display "
                "stand, scenery (listed, not priced; annotate it to keep it) [000 §7.1 Base Cost]")


_ANIMAL_PART_WORDS = {"wing", "wings", "tail", "head", "horn", "horns", "arm", "arms", "leg", "legs", "section",
                      "tentacle", "tentacles", "flipper", "ear", "ears", "jaw", "claw", "claws", "neck", "barding"}


def _animal_part(element) -> bool:
    """A moulded piece of an animal, not a whole one: "Animal Dragon Wing 19 x 11", "Animal Tail Section End"
    (a body-part word before any "with"; "Animal Horse with Movable Legs" is a horse)."""
    ws = list(_text_words(describe(element)[1]))
    if "with" in ws:
        ws = ws[:ws.index("with")]
    return "body" not in ws and bool(_ANIMAL_PART_WORDS & set(ws))


def _animal_ornaments(model, graph: nx.Graph, animal: list[int], classes: dict[int, PartClass]) -> None:
    """Moulded animal body parts with no animal body among them (dragon wings on a car, tail sections on a
    pyramid) are no Creature: an ornament of the build they are fitted to, or a loose prop [000 §7.1]. A
    Creature needs its body, "head and body are the Structure" [000 §10.2]."""
    els = model.elements
    for comp in components_in(graph, animal):
        if not any(classes[i].role == "structural" and not _animal_part(els[i]) for i in comp):
            for i in comp:  # (a saddle or a barding lying alone too: a prop)
                classes[i] = replace(classes[i], role="decoration", animal=False,
                                     reason=f"{classes[i].reason.split(':')[0]}: a moulded animal part (a wing, a "
                                            "tail) or an animal's gear without an animal's body: an ornament, not a "
                                            "Creature [000 §7.1, §10.2]")


GEAR_MAX = 8  # what is fitted to an animal: a few pieces (a saddle and its clip, a monkey's arm and hand)


def _fitted(graph: nx.Graph, body: set[int], rest: set[int], taken: set[int], explicit: set[int],
            classes) -> list[int]:
    """What is fitted to an animal and to nothing else: chains of accessories, devices and decoration (a saddle,
    a bridle, the minifig arms and hands a monkey is built with) that touch only the animal and each other."""
    def fits(j: int) -> bool:
        return j in rest and j not in body and j not in taken and j not in explicit and \
            (classes[j].accessory or classes[j].role in ("device", "decoration") or
             classes[j].minifig_body in ("arm", "hand"))
    # the minifig arms and hands an animal is built with are its limbs, whatever a hand holds (a monkey's hand
    # round a lance standing on the deck): what it holds stays where it stands [000 §7.1, §10.2]
    limbs: set[int] = set()
    frontier = [j for i in body for j in graph.neighbors(i)]
    while frontier and len(limbs) <= GEAR_MAX:
        v = frontier.pop()
        if v not in limbs and fits(v) and classes[v].minifig_body in ("arm", "hand"):
            limbs.add(v)
            frontier.extend(graph.neighbors(v))
    if len(limbs) > GEAR_MAX:
        limbs = set()
    body = set(body) | limbs
    gear: set[int] = set(limbs)
    seen: set[int] = set(limbs)
    for start in sorted({j for i in body for j in graph.neighbors(i) if fits(j)}):
        if start in seen:
            continue
        group, frontier = {start}, [start]
        while frontier and len(group) <= GEAR_MAX:
            u = frontier.pop()
            for v in graph.neighbors(u):
                if v not in group and fits(v):
                    group.add(v)
                    frontier.append(v)
        seen |= group
        # (a minifig that only touches it, no connector, holds nothing of it: the flame a dragon breathes over
        # its driver's helmet is the dragon's, 6056's, not in ../shared)
        if len(group) <= GEAR_MAX and not {v for u in group for v in graph.neighbors(u) if not (
                graph.edges[u, v].get("kind") in TOUCH_KINDS and (classes[v].minifig_body or classes[v].accessory))
                } - group - body:
            gear |= group
    return sorted(gear)


def _display_stand(model, graph: nx.Graph, comp: list[int], classes) -> list[int]:
    """The stand an official set shows a starship on, with no telling name: a craft (a cockpit or flying
    propulsion, no wheel on the ground) that touches the ground only through one connected top-level
    sub-assembly, a small share of it held by a few links, its hull clear of the ground."""
    els = model.elements
    if not (_crew_place(classes, comp) or
            any(classes[i].role == "propulsion" and classes[i].type in _FLYING_TYPES for i in comp)):
        return []
    ground = max(float(els[i].bbox_max[1]) for i in comp)  # LDraw -Y is up
    feet = [i for i in comp if float(els[i].bbox_max[1]) >= ground - GROUND_TOL_LDU]
    tops = {els[i].submodel_path[:1] for i in feet}
    if len(tops) != 1 or tops == {()} or any(classes[i].role == "propulsion" for i in feet):
        return []
    (top,) = tops
    stand = [i for i in comp if els[i].submodel_path[:1] == top]
    sset = set(stand)
    if len(stand) > STAND_MAX_SHARE * len(comp) or len(list(components_in(graph, stand))) != 1:
        return []
    cset = set(comp)
    links = sum(1 for i in stand for j in graph.neighbors(i) if j not in sset and j in cset)
    rest = [i for i in comp if i not in sset]
    if not rest or links > STAND_MAX_LINKS or len(list(components_in(graph, rest))) != 1 or \
            max(float(els[i].bbox_max[1]) for i in rest) > ground - CLEAR_LDU:
        return []
    return sorted(stand)


# ... and a set's info plate ("infoplate", "shuttle-info", "name plate")
_SCENERY_WORDS = {"stand", "display", "plaque", "baseplate", "baseplates", "squad", "info", "information",
                  "infoplate", "nameplate", "infoboard"}
_SIGN_WORDS = ({"name"}, {"plate", "plaque", "sign", "board", "tile"})  # "name plate.ldr"


GROUND_PLATE_MIN_STUDS2 = 48  # a plate at least this big (6 x 8) lying lowest of all is a ground plate


def ground_plate(element, floor: float) -> bool:
    """A plate at least 6 x 8 studs lying lowest of all: the ground a scene stands on (unless it is a craft's
    floor, ``craft_floor``)."""
    words = _split_words(describe(element)[1].lower().lstrip("~=_|"))
    size = element.bbox_max - element.bbox_min
    return words[:1] == ["plate"] and float(size[1]) <= 12.5 and float(element.bbox_max[1]) >= floor - 0.5 and \
        float(size[0] * size[2]) >= GROUND_PLATE_MIN_STUDS2 * 400


def is_rail(element) -> bool:
    """A piece of railway track (train or monorail track, its sleepers): the ground a train runs on."""
    words = _split_words(describe(element)[1].lower().lstrip("~=_|"))[:3]
    return ("track" in words and bool({"train", "monorail"} & set(words))) or words[:1] == ["rail"]


def craft_floor(model, i: int, classes) -> bool:
    """The large plate ``i`` at the ground is the floor of a craft, not the ground, when the submodel it is built
    in (not the main model) holds the craft's cockpit: 7130's snowspeeder is built on a 6 x 16 plate inside its
    "Ship" submodel, its hull [000 §7.1 Structure]; a scene's ground plate is built in the main model or in a
    submodel of the scenery ("island", "stand", "front") with no pilot's place."""
    path = model.elements[i].submodel_path
    if not path:
        return False
    members = [e.index for e in model.elements if path[-1] in e.submodel_path and not e.missing]
    return bool(cockpits(model, members, classes))


FLOOR_COVER = 0.75  # the builds standing on a ground plate over this share of its area are built on it: its floor
FLOOR_CELL_LDU = 5.0  # the grid the covered share is counted on


def covered_floor(model, graph: nx.Graph, i: int, builds: list[set[int]], grounds: set[int]) -> bool:
    """The large plate ``i`` at the ground is the floor of what is built on it when the builds standing on it cover
    most of it (``FLOOR_COVER``, seen from above): 7110's landspeeder is built on a 6 x 12 plate it covers end to
    end, where a scene's ground lies mostly open around its builds, paving and plants. Figures standing on it do
    not count; nor is it a floor where what stands on it stands on other ground plates too (a house across the
    plates of its street). ``builds``: the connected builds (no figures) that may stand on it; ``grounds``: the
    ground plates."""
    els = model.elements
    on = set(graph.neighbors(i))
    built = sorted({k for c in builds if on & c for k in c})
    if not built:
        return False
    if any(j in grounds and j != i for k in built for j in graph.neighbors(k)):
        return False
    lo, hi = element_boxes(model, built)
    p_lo, p_hi = els[i].bbox_min, els[i].bbox_max
    nx_, nz = (max(1, int(np.ceil(float(p_hi[k] - p_lo[k]) / FLOOR_CELL_LDU))) for k in (0, 2))
    grid = np.zeros((nx_, nz), dtype=bool)
    for a, b in zip(lo, hi):
        x0, z0 = (int(np.floor(max(0.0, float(a[k] - p_lo[k])) / FLOOR_CELL_LDU)) for k in (0, 2))
        x1, z1 = (int(np.ceil(min(float(p_hi[k] - p_lo[k]), float(b[k] - p_lo[k])) / FLOOR_CELL_LDU)) for k in (0, 2))
        if x1 > x0 and z1 > z0:
            grid[x0:x1, z0:z1] = True
    return float(grid.mean()) >= FLOOR_COVER


def _scenery_reason(model, c: PartClass, element, floor: float | None = None) -> str:
    """Why an element is scenery (a base plate, a ground plate under everything, a display stand), or ""
    [000 §7.1: unaligned scenery is free]."""
    cat, desc = describe(element)
    words = _split_words(desc.lower().lstrip("~=_|"))  # read only
    if words[:1] == ["baseplate"] or cat.lower() == "baseplate":
        return f"'{desc}': a base plate is scenery, not part of a creation [000 §7.1]"
    if is_rail(element):
        return f"'{desc}': rails are the ground a train runs on, laid on the table: scenery [000 §7.1]"
    if floor is not None and ground_plate(element, floor):
        return f"'{desc}': a large plate under everything else, the ground the scene stands on: scenery [000 §7.1]"
    for sub in element.submodel_path:
        stem = _stem_words(sub)
        hit = _SCENERY_WORDS & stem or ({"name plate"} if all(stem & w for w in _SIGN_WORDS) else set())
        if hit:
            return f"'{desc}' in submodel {sub!r} ({sorted(hit)[0]}): scenery, not part of a creation [000 §7.1]"
    return ""


PAVING_MAX_LDU = LDU_PER_PLATE + 4.0 + MESH_TOL_LDU  # a plate with its studs lying on the ground: paving
OVER_MAX_LDU = LDU_PER_BRICK + MESH_TOL_LDU  # the build over a flat piece at most a brick above it (a door frame)
SCENERY_ITEM_MAX = 5  # a piece this small attached only to the scenery lies on it (a rock, a tree, a coin)


def _lying_on_scenery(model, graph: nx.Graph, comps: list[list[int]], scenery: set[int], classes,
                      against: set[int] | None = None) -> tuple[list[list[int]], set[int]]:
    """Small pieces attached to nothing but the scenery, or just lying on it (a tree, a rock, a barrel or a chest
    on the base plate) are scenery too; a vehicle (propulsion) or a figure is not."""
    keep, lying, small = [], set(), []
    against = against if against is not None else set()  # filled: the pieces built against a building
    els = model.elements
    sc = sorted(scenery)
    lo, hi = element_boxes(model, sc)
    for c in comps:
        touches = {j for i in c for j in graph.neighbors(i)} - set(c)
        if not touches and sc:  # not connected at all: does it rest on the scenery?
            # speed only: the scenery boxes within the gap of the component's box (a superset of the answer)
            c_lo, c_hi = elements_box(els, c)
            near = np.flatnonzero(box_gaps(lo, hi, c_lo, c_hi) <= RESTING_GAP_LDU) \
                if np.isfinite(c_lo).all() and np.isfinite(c_hi).all() else np.arange(len(sc))
            touches = {sc[near[k]] for i in c for k in np.flatnonzero(
                box_gaps(lo[near], hi[near], els[i].bbox_min, els[i].bbox_max) <= RESTING_GAP_LDU)}
        if scenery and touches and touches <= scenery and len(c) <= SCENERY_ITEM_MAX and \
                not any(classes[i].role == "propulsion" or classes[i].minifig_body for i in c):
            small.append(c)
        else:
            keep.append(c)
    for c, host, j, i in _built_against(model, small, keep, classes):
        if host is None:
            lying.update(c)
            continue
        lying.update(k for k in c if classes[k].accessory)  # a coin on the threshold still lies there
        keep[host] = sorted(keep[host] + [k for k in c if not classes[k].accessory])
        against.update(k for k in c if not classes[k].accessory)
        add_resting(graph, i, j, "built against it on the ground (touching, no connector)")
    return keep, lying


def _wide(model, c: list[int], classes) -> bool:
    """More than street furniture: its building elements wider than 2 x 2 studs (a planter whatever its flowers
    spread, a post are not)."""
    els = model.elements
    c = [i for i in c if structural_kind(classes[i], els[i])]
    if not c:
        return False
    c_lo, c_hi = elements_box(els, c)
    return max(float(c_hi[0] - c_lo[0]), float(c_hi[2] - c_lo[2])) > TWO_STUDS_LDU + MESH_TOL_LDU


def _built_against(model, small: list[list[int]], keep: list[list[int]], classes
                   ) -> list[tuple[list[int], int | None, int, int]]:
    """For each small piece standing on the scenery: the static build it belongs to, as (piece, index in ``keep``,
    element of the build, element of the piece), or (piece, None, -1, -1) when it lies apart.

    A piece of building elements that touches a build without propulsion (wider than street furniture) is part
    of it when it stands higher than a plate (a wall stub, a console built against the wall) or, flat, lies inside
    the build's outline with the build at most a brick over it (a threshold under the door): walls and floors
    are the building's Structure [000 §7.1]. A flat tile or plate beside it is paving, and plants, rocks and loose
    items are scenery."""
    out: list[tuple[list[int], int | None, int, int]] = [(c, None, -1, -1) for c in small]
    if not small or not keep:
        return out
    els = model.elements
    hosts = [k for k, c in enumerate(keep) if len(c) > SCENERY_ITEM_MAX and
             not any(classes[i].role == "propulsion" for i in c) and _wide(model, c, classes)]
    if not hosts:
        return out
    foot = {k: elements_box(els, keep[k]) for k in hosts}
    members = np.array([i for k in hosts for i in keep[k]])
    owner = np.array([k for k in hosts for _ in keep[k]])
    lo, hi = element_boxes(model, members)
    for n, c in enumerate(small):
        if not any(structural_kind(classes[i], els[i]) for i in c):
            continue  # a plant, a rock, a loose item
        c_lo, c_hi = elements_box(els, c)
        tall = float(c_hi[1] - c_lo[1]) > PAVING_MAX_LDU
        reach = RESTING_GAP_LDU + MESH_TOL_LDU  # against it (a bar is inset 2 LDU)
        # speed only: the build's pieces near the piece's box, then the exact test per element
        around = np.flatnonzero(box_gaps(lo, hi, c_lo, c_hi) <= reach)
        if not len(around):
            continue
        best = None
        for i in c:
            e = els[i]
            gap = box_gaps(lo[around], hi[around], e.bbox_min, e.bbox_max)
            near = around[gap <= reach]
            if not len(near):
                continue
            hit = None
            if tall:
                hit = int(near[0])
            else:  # flat: only under the build (something of it over the piece)
                for k in sorted({int(owner[m]) for m in near}):
                    f_lo, f_hi = foot[k]
                    if np.any(e.bbox_min[[0, 2]] < f_lo[[0, 2]] - MESH_TOL_LDU) or \
                            np.any(e.bbox_max[[0, 2]] > f_hi[[0, 2]] + MESH_TOL_LDU):
                        continue  # not inside its outline: paving beside it
                    mine = owner == k
                    over = (np.minimum(hi[:, [0, 2]], e.bbox_max[[0, 2]]) -
                            np.maximum(lo[:, [0, 2]], e.bbox_min[[0, 2]])).min(axis=1) > MESH_TOL_LDU
                    above = (hi[:, 1] <= e.bbox_min[1] + MESH_TOL_LDU) & \
                        (hi[:, 1] >= e.bbox_min[1] - OVER_MAX_LDU)  # LDraw -Y is up
                    if np.any(mine & over & above):
                        hit = int(near[owner[near] == k][0])
                        break
            if hit is not None:
                best = (int(owner[hit]), int(members[hit]), i)
                break
        if best is not None:
            out[n] = (c, best[0], best[1], best[2])
    return out


def _loose_props(model, graph: nx.Graph, comps: list[list[int]], classes, floor: float
                 ) -> tuple[list[list[int]], set[int]]:
    """A prop of minifig gear standing loose on the ground (a press camera on its tripod on the pavement): built of
    minifig accessories and small details only, held by no one and fixed to nothing (it only rests where it
    stands, no connector), its foot at most a brick above the scene's lowest point, it is a loose item, scenery:
    listed, not priced, unless annotated [000 §7.1 Base Cost]. Guns clipped to a flyer's wing are up on it."""
    keep, props = [], set()
    els = model.elements
    for c in comps:
        cs = set(c)
        foot = max(float(els[i].bbox_max[1]) for i in c)  # LDraw -Y is up
        if len(c) >= 2 and floor - foot <= LDU_PER_BRICK + MESH_TOL_LDU and any(classes[i].accessory for i in c) and \
                all(classes[i].accessory or _detail_part(model, model.elements[i]) for i in c) and \
                not any(classes[i].role in ("propulsion", "weapon") or classes[i].minifig_body for i in c) and \
                all(j in cs or graph.edges[i, j].get("kind") == JUDGED_KIND for i in c for j in graph.neighbors(i)):
            props.update(c)
        else:
            keep.append(c)
    return keep, props


CARGO_GAP_LDU = 4.0  # a pack touches the animal's back within this gap ...
CARGO_MAX_LENGTH = 1.5  # ... and is at most this many times the animal's length


def _cargo_on_animals(model, comps: list[list[int]], beasts: list[Creation], classes) -> list[list[int]]:
    """A load on an animal's back (a strong box on a pack horse, a pack saddle) is cargo the Creature carries:
    free, not its Structure, which is its body [000 §7.1 Creature; §10.1]. It touches the animal, its middle is
    over the animal's footprint and it is not much longer than the animal: a wagon behind a horse is not on its back;
    a load with propulsion or a minifig in it is no pack."""
    if not beasts:
        return comps
    els = model.elements
    kept = []
    for comp in comps:
        lo, hi = element_boxes(model, comp)
        mid = (lo.min(axis=0) + hi.max(axis=0)) / 2
        host = None
        if not any(classes[i].minifig_body or classes[i].role == "propulsion" for i in comp):
            for b in beasts:
                for j in b.structural_elements:
                    e = els[j]
                    gap = box_gaps(lo, hi, e.bbox_min, e.bbox_max)
                    on_back = bool(np.all(mid[[0, 2]] >= e.bbox_min[[0, 2]]) and  # over the animal, not behind
                                   np.all(mid[[0, 2]] <= e.bbox_max[[0, 2]]) and  # and its top above the middle
                                   lo[:, 1].min() < (e.bbox_min[1] + e.bbox_max[1]) / 2)  # (-Y is up)
                    big = float((hi.max(axis=0) - lo.min(axis=0)).max()) > \
                        CARGO_MAX_LENGTH * float((e.bbox_max - e.bbox_min).max())
                    if on_back and not big and float(gap.min()) <= CARGO_GAP_LDU:
                        host = b
                        break
                if host is not None:
                    break
        if host is None:
            kept.append(comp)
            continue
        for i in comp:
            host.roles[i] = RoleDecision("decoration", f"{classes[i].reason}; a load on the animal's back: cargo it "
                                                       "carries, free [000 §7.1 Creature]", "geometry")
        host.elements = sorted(host.elements + comp)
    return kept
