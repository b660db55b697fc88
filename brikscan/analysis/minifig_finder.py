"""Find the minifigs in a build: body parts assembled by the connectivity graph or by distance, with their
headgear and what their hands hold; carved figures (a figurehead, a statue) are ornaments. Each is a Creature of
its own [000 §9.5 The Minifig] and never counts toward its host's Size (digest §13.22).
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import numpy as np

from ..rules.formulas import sl_text
from .annotations import Annotations
from .connectivity import TOUCH_KINDS, add_resting, components_in, reach_within
from .creation import Creation
from .element_shape import (HELM_WORDS, MESH_TOL_LDU, MOUNTED_WEAPON_TYPES, REST_TOL_LDU, _centre, _extent, _on_axis,
                            _own_points,
                            _rod_axis, _words_of, nx)
from .measure import box_gap, element_boxes
from .mounts import TWO_STUDS_LDU
from .naming import GENERIC_NAMES, _ref_prefixes, _submodel_name, _unit_notes, name_words
from .roles import PartClass, RoleDecision

if TYPE_CHECKING:
    from ..rules.tables import Rules


MINIFIG_REACH_LDU = 70.0  # a loose body part within this distance of a torso belongs to that minifig
HELD_MAX_LDU = 260.0  # longest extent of something a minifig can hold or wear (about 4")
HEADGEAR_REACH_LDU = 30.0  # an item closer than this to a minifig's head is worn on it (its head section)
HAND_HELD_BRICK_LDU = 40.0  # a brick at most two studs long, in a minifig's hand and on nothing else, is held
STAFF_WORDS = frozenset({"bar"})  # a rod a hand grips by its clip: a staff, a pole, a club
NAME_SPARE = 2  # a figure's submodel may hold two pieces more that lie apart from him (a banknote, a torch's fire)
CLOAK_BELOW_LDU = 24.0  # a garment hanging a brick below the waist of a figure with no legs stands in for them
MIN_ARMS = 2  # a one-piece figure (Gollum) wears two minifig arms on its body


def _one_piece_figures(graph: nx.Graph, classes: dict[int, PartClass]) -> None:
    """A minifig part that is no body part but has two minifig arms fixed on it (a connector, not a touch) is the
    body of a one-piece figure (Gollum, made of one moulded body and two arms): its torso, so the figure is a
    minifig that walks and fights [000 §9.5 The Minifig], not an accessory with two loose arms."""
    for i, c in list(classes.items()):
        if not c.accessory or c.minifig_body or c.role == "weapon" or i not in graph:
            continue
        arms = [j for j in graph.neighbors(i) if classes[j].minifig_body == "arm" and
                graph.edges[i, j].get("source") == "bricknet"]
        if len(arms) >= MIN_ARMS:
            classes[i] = PartClass("crew", f"minifig torso {c.reason.split(':')[0]}: a one-piece figure's body, "
                                           f"{len(arms)} minifig arms fixed on it", minifig_body="torso",
                                   word="figure")


def _find_minifigs(model, graph: nx.Graph, classes: dict[int, PartClass]) -> list[dict]:
    """Each minifig: {"body": {part kind: [elements]}, "items": [...]}, assembled around its torso."""
    _one_piece_figures(graph, classes)
    body = {i for i, c in classes.items() if c.minifig_body}
    if not body:
        return []
    torsos = sorted(i for i in body if classes[i].minifig_body == "torso")
    owner: dict[int, int] = {t: t for t in torsos}
    # multi-source BFS from every torso over body-only edges
    frontier = list(torsos)
    while frontier:
        nxt = []
        for u in frontier:
            for v in graph.neighbors(u):
                if v in body and v not in owner and classes[v].minifig_body != "torso":
                    owner[v] = owner[u]
                    nxt.append(v)
        frontier = nxt
    loose = [i for i in body if i not in owner]
    if torsos and loose:
        tc = np.array([_centre(model, t) for t in torsos])
        for i in loose:
            d = np.linalg.norm(tc - _centre(model, i), axis=1)
            k = int(np.argmin(d))
            if d[k] <= MINIFIG_REACH_LDU:
                owner[i] = torsos[k]
    # body parts with no torso: group them by graph among themselves (a head on legs, a lone pair of legs)
    rest = [i for i in body if i not in owner]
    for comp in components_in(graph, rest):
        comp = sorted(comp)
        kinds = {classes[i].minifig_body for i in comp}
        if len(comp) >= 2 and ({"head", "hips", "leg"} & kinds):
            for i in comp:
                owner[i] = comp[0]
    figs: dict[int, dict] = {}
    for i, o in owner.items():
        figs.setdefault(o, {"body": {}, "items": []})["body"].setdefault(classes[i].minifig_body, []).append(i)
    els = model.elements
    for t in torsos:  # a droid's dome: the one piece on its body's top that touches nothing else is its head
        if classes[t].word != "robot" or "head" in figs[t]["body"]:
            continue
        members = {i for lst in figs[t]["body"].values() for i in lst}
        dome = [v for v in graph.neighbors(t) if v not in owner and classes[v].role == "structural" and
                els[v].bbox_max[1] <= els[t].bbox_min[1] + REST_TOL_LDU and
                all(w in members for w in graph.neighbors(v) if w != v)]
        if len(dome) == 1:
            figs[t]["body"]["head"] = dome
            owner[dome[0]] = t
    # what hands hold and heads wear: accessories hanging on the figure and on nothing else
    taken = set(owner)
    boxes: list = []  # every element's box, gathered the first time a piece lying near a hand needs it
    for o, fig in figs.items():
        members = {i for lst in fig["body"].values() for i in lst}
        anchors = [i for k in ("hand", "head", "torso", "arm") for i in fig["body"].get(k, [])]
        queue = list(anchors)
        seen = set(queue)
        refused: dict[int, int] = {}  # a piece not carried when first met, and the piece it was met from
        while queue:
            u = queue.pop()
            for v in graph.neighbors(u):
                if v in seen or v in taken:
                    continue
                seen.add(v)
                held, base = _carried(model, graph, classes, fig, members, seen, u, v, boxes)
                if base is not None:
                    add_resting(graph, v, base, "lies on it (no connector found)")
                elif held:
                    fig["items"].append(v)
                    taken.add(v)
                    queue.append(v)
                else:
                    refused[v] = u
            if not queue:
                # met before a piece beside it (a pennant clipped to the lance and to the other pennant, met
                # first): asked again once what it hangs on is known, so the order of the search decides nothing
                again = [v for v in sorted(refused) if v not in taken and
                         all(w in members or w in fig["items"] for w in graph.neighbors(v))]
                for v in again:
                    u = refused.pop(v)
                    # (asked from his hand where it touches one: met first from his arm, a tray is still in hand)
                    u = next((w for w in graph.neighbors(v) if w in fig["body"].get("hand", [])), u)
                    held, base = _carried(model, graph, classes, fig, members, members | set(fig["items"]) | {v},
                                          u, v, boxes)
                    if held and base is None:
                        fig["items"].append(v)
                        taken.add(v)
                        queue.append(v)
    _held_loose(model, graph, figs, classes, taken, boxes)
    _worn_builds(model, graph, figs, classes, taken)
    # headgear the connector data does not tie to the head (a bandana round it): worn by the nearest head
    heads = [(o, h) for o, fig in figs.items() for h in fig["body"].get("head", [])]
    if heads:
        hc = np.array([_centre(model, h) for _, h in heads])
        for v in sorted(i for i, c in classes.items() if c.accessory and c.role != "weapon" and i not in taken):
            d = np.linalg.norm(hc - _centre(model, v), axis=1)
            k = int(np.argmin(d))
            if d[k] <= HEADGEAR_REACH_LDU and _extent(model, [v]) <= HELD_MAX_LDU:
                figs[heads[k][0]]["items"].append(v)
                taken.add(v)
        _worn_on_headgear(model, graph, figs, classes, taken)
    return [figs[o] for o in sorted(figs)]


def _carried(model, graph: nx.Graph, classes: dict[int, PartClass], fig: dict, members: set[int], seen: set[int],
             u: int, v: int, boxes: list) -> tuple[bool, int | None]:
    """What a figure can hold or wear [000 §9.5]: whether ``v``, reached from ``u`` (a piece of the figure or of
    what it already holds), is carried, and the element of the build it lies on instead, if any (a printed tile
    on the rail a hand touches is the rail's). ``boxes``: every element's box, filled on first need."""
    c = classes[v]
    outside = [w for w in graph.neighbors(v) if w not in members and w not in fig["items"] and w != u
               and w not in seen]
    if c.role == "weapon" and c.type in MOUNTED_WEAPON_TYPES:
        return False, None  # a cannon is a Vehicle weapon on its mount, never carried [000 §8.1 Turrets]
    if outside and _words_of(model.elements[v]) & HELM_WORDS:
        return False, None  # handlebars fixed to a vehicle are its Controls, in his hands or not [000 §9.4]
    if outside and c.word == "seat":
        return False, None  # the seat he sits on, fixed to the build, is the build's: a place for him [000 §9.4]
    if not (c.worn or c.accessory or c.role == "weapon") and _around(model, v, fig["body"]):
        return False, None  # a barrel he stands in, a tub he sits in: his cover, not in his hands
    if _extent(model, [v]) > HELD_MAX_LDU:
        return False, None  # too big for a hand or a head
    if c.accessory or c.role == "weapon":
        # only touched by what he holds, and fixed by a connector to the build (a telescope on a wall's stud,
        # the flame of a beacon on it): the build's, not in his hands [000 §9.5]
        if graph.edges[u, v].get("kind") in TOUCH_KINDS:
            ties = [w for w in graph.neighbors(v) if graph.edges[v, w].get("kind") not in TOUCH_KINDS]
            if ties and not any(w in members or w in fig["items"] for w in ties):  # (a hilt in his hand is his)
                return False, None
            if any(classes[w].minifig_body and w not in members for w in graph.neighbors(v)):
                return False, None  # touched by what he holds, in another figure's hands: that one's book
            if u not in members and any(classes[w].animal for w in graph.neighbors(v)):
                return False, None  # only touched by what he wears or holds, set in an animal's mouth or claws:
                # the beast's (the flame a dragon breathes over its driver's helmet, 6056's, not in ../shared);
                # his hat stays his, whatever perches on it
        return True, None
    if u in fig["body"].get("hand", []) and graph.edges[u, v].get("kind") not in TOUCH_KINDS and \
            _words_of(model.elements[v]) & STAFF_WORDS and \
            all(graph.edges[v, w].get("kind") in TOUCH_KINDS for w in graph.neighbors(v) if w != u):
        return True, None  # a bar gripped in his hand, fixed to nothing else (only touching): his staff, his pole
    # a small brick or tile in a hand or on what it holds, fixed to nothing else (a gem, a phial, a banknote, the
    # lens of a signal paddle; touching a barrel's rim is no fixing), is held like an accessory
    # (fixed to the build: to any piece besides the figure and its items, met already in the search or not)
    in_hand = c.role in ("structural", "decoration") and \
        (u in fig["body"].get("hand", []) or u in fig["items"]) and \
        _extent(model, [v]) <= HAND_HELD_BRICK_LDU + MESH_TOL_LDU and \
        not any(graph.edges[v, w].get("source") == "bricknet" for w in graph.neighbors(v)
                if w not in members and w not in fig["items"] and w != u)
    if not (in_hand or (not outside and c.role not in ("structural", None, "propulsion"))):
        return False, None  # built into something besides the figure
    if not boxes:
        boxes.extend(element_boxes(model, range(len(model.elements))))
    base = _lies_on_other(model, v, members, classes, (boxes[0], boxes[1]))
    return base is None, base


HELD_LOOSE_MAX = 4  # a small item of a few pieces, fixed to nothing, in a hand: held


def _held_loose(model, graph: nx.Graph, figs: dict[int, dict], classes: dict[int, PartClass], taken: set[int],
                boxes: list) -> None:
    """A small item of a few pieces joined to one another and to nothing else, its box touching a figure's hand,
    is what that hand holds, though no connector nor contact ties it to the hand (6643's fireman's extinguisher,
    a tap on a round brick, set in his hand) [000 §9.5]: not a scenery creation of its own. ``boxes``: every
    element's box, as ``_carried`` fills it on first need."""
    els = model.elements
    hands = [(o, h) for o, fig in figs.items() for h in fig["body"].get("hand", [])]
    if not hands:
        return
    if not boxes:
        boxes.extend(element_boxes(model, range(len(els))))
    lo, hi = boxes[0], boxes[1]
    done: set[int] = set()
    for o, h in hands:
        near = np.flatnonzero(np.all(lo <= hi[h] + MESH_TOL_LDU, axis=1) & np.all(hi >= lo[h] - MESH_TOL_LDU, axis=1))
        for v in (int(k) for k in near):
            if v in taken or v in done or classes[v].minifig_body:
                continue
            item = _loose_item(graph, v, classes, HELD_LOOSE_MAX)
            # joined to a figure by touching it: held only where the builder placed it in that figure's own
            # submodel (6901's astronaut and the towball slope in his hands, not in ../shared), and the figure
            # stands on legs (a bride's skirt, a slope in her submodel, is her lower body); another figure's hand
            # may still take it
            if len(item) <= HELD_LOOSE_MAX and \
                    any(classes[w].minifig_body for i in item for w in graph.neighbors(i) if i in graph) and \
                    (not els[h].submodel_path or not figs[o]["body"].get("leg") or
                     any(els[i].submodel_path != els[h].submodel_path for i in item)):
                continue
            done |= item
            if len(item) > HELD_LOOSE_MAX or item & taken or _extent(model, sorted(item)) > HELD_MAX_LDU:
                continue
            figs[o]["items"].extend(sorted(item))
            taken |= item


def _loose_item(graph: nx.Graph, v: int, classes: dict[int, PartClass], limit: int) -> set[int]:
    """The pieces joined to ``v`` through anything but figures' body parts (what it touches of a figure, the hand
    and arm it lies against, is not the item): stops once it has more than ``limit``, so a piece of a large
    build costs no walk over the whole build."""
    return reach_within(graph, [v], lambda w: not classes[w].minifig_body, limit)


WORN_BUILD_MAX = 16  # a brick-built backpack on a figure's jet-pack or air tanks: a few pieces at most


def _worn_builds(model, graph: nx.Graph, figs: dict[int, dict], classes: dict[int, PartClass],
                 taken: set[int]) -> None:
    """A few bricks built onto what a figure wears on its back (a jet-pack's handles carrying a brick-built pack
    with its antennas), onto his torso (a droid's backplate) or under his feet in the figure's own submodel, a
    foot wide (6698's diver's plate flippers; a display plate is wider), and onto nothing else, are worn by him
    too [000 §9.5], not a building of their own. Not what his hands touch (a handle he holds is his vehicle's), nor
    anything that reaches another piece."""
    for fig in figs.values():
        if not fig["body"].get("hips") and not fig["body"].get("leg"):
            continue  # a torso with no legs is a figure only if it is not fixed onto a build (``_carved_figures``)
        members = {i for lst in fig["body"].values() for i in lst}
        hands = set(fig["body"].get("hand", []))
        legs = fig["body"].get("leg", [])
        gear = [i for i in fig["items"] if classes[i].worn and classes[i].role != "weapon" and
                not hands.intersection(graph.neighbors(i))] + fig["body"].get("torso", []) + legs
        # (a jet-pack, air tanks, a backpack; the torso itself: a droid's backplate; under his feet, in the
        # figure's own submodel, his flippers or skis)
        mine = members | set(fig["items"])
        own = {tuple(model.elements[i].submodel_path) for i in legs}
        for g in gear:
            for start in graph.neighbors(g):
                if start in taken or start in mine or _not_pack(classes[start]):
                    continue
                if g in legs and not (len(own) == 1 and () not in own and
                                      tuple(model.elements[start].submodel_path) in own and
                                      _foot_wide(model, start)):
                    continue  # what a figure stands on is his only where he was built with it, a foot wide
                build, queue, ok = {start}, [start], True
                while queue and ok:
                    u = queue.pop()
                    for v in graph.neighbors(u):
                        if v in build or v in gear:
                            continue
                        if v in mine or v in taken or _not_pack(classes[v]) or len(build) >= WORN_BUILD_MAX:
                            ok = False  # reaches the figure's body, another figure, a mount or the build: no pack
                            break
                        build.add(v)
                        queue.append(v)
                body = sorted(i for i in build if classes[i].role != "decoration") or sorted(build)
                if ok and _extent(model, body) <= HELD_MAX_LDU:  # (its whip antennas may reach higher)
                    fig["items"].extend(sorted(build))
                    fig.setdefault("worn", []).extend(sorted(build))
                    taken.update(build)
                    mine |= build


FOOT_WIDE_LDU = 20.0  # a flipper or a ski is one stud wide; a display plate under a figure is wider


def _foot_wide(model, i: int) -> bool:
    """As narrow as a figure's foot, measured along the part's own axes (the figure may stand turned): a flipper
    or a ski, not a display plate."""
    t, local = _own_points(model, i)
    if local is None:
        return False
    ext = np.linalg.norm(t[:3, :3], axis=0) * np.ptp(local, axis=0)
    return float(min(ext[0], ext[2])) <= FOOT_WIDE_LDU + MESH_TOL_LDU


def _not_pack(c: PartClass) -> bool:
    """No piece of a pack on a figure's back: another figure's body, an animal or its saddle (the horse he rides),
    a weapon (what he holds is carried, not worn)."""
    return bool(c.minifig_body) or c.animal or c.role == "weapon"


def _worn_on_headgear(model, graph: nx.Graph, figs: dict[int, dict], classes: dict[int, PartClass],
                      taken: set[int]) -> None:
    """A minifig accessory touching what a figure wears on its head, and nothing of its own, is worn there too (a
    plume on a helmet, a visor on it, further from the head than headgear reaches), not a loose piece lying about
    [000 §9.5]."""
    els = model.elements
    worn = {v: o for o, fig in figs.items() for v in fig["items"]  # head-worn piece -> its figure
            if classes[v].role != "weapon" and _head_distance(model, v, fig["body"].get("head", [])) <=
            HEADGEAR_REACH_LDU}
    loose = [i for i, c in classes.items() if c.accessory and c.role == "decoration" and i not in taken and
             _extent(model, [i]) <= HELD_MAX_LDU]  # a radio or a tool held up to the helmet is no plume
    fig_of = {i: o for o, fig in figs.items() for i in [*fig["items"], *(j for b in fig["body"].values() for j in b)]}
    while worn and loose:
        found = {v: o for v in loose for w, o in worn.items() if box_gap(els[v], els[w]) <= MESH_TOL_LDU and
                 all(fig_of.get(j) == o for j in graph.neighbors(v))}  # held by nothing but that figure
        if not found:
            return
        for v, o in found.items():
            figs[o]["items"].append(v)
            taken.add(v)
            fig_of[v] = o
        worn = found
        loose = [i for i in loose if i not in found]


def _head_distance(model, i: int, heads) -> float:
    """How far element ``i``'s centre is from the nearest of a figure's ``heads`` (inf with none)."""
    c = _centre(model, i)
    return min((float(np.linalg.norm(c - _centre(model, h))) for h in heads), default=float("inf"))


def _around(model, v: int, body: dict[str, list[int]]) -> bool:
    """Element ``v`` is round the figure: the centre of its hips or legs lies inside ``v``'s box."""
    e = model.elements[v]
    for i in body.get("hips", []) + body.get("leg", []):
        c = _centre(model, i)
        if np.all(c >= e.bbox_min) and np.all(c <= e.bbox_max):
            return True
    return False


def _lies_on_other(model, v: int, members: set[int], classes, boxes: tuple[np.ndarray, np.ndarray]) -> int | None:
    """The element, not one of ``members``, that element ``v`` lies on (its bottom on that one's top, within the
    mesh margin, their footprints overlapping), or None: a part lying on the build, whoever touches it.
    ``boxes``: every element's box (``element_boxes``)."""
    e = model.elements[v]
    lo, hi = boxes
    over = (np.minimum(hi[:, [0, 2]], e.bbox_max[[0, 2]]) - np.maximum(lo[:, [0, 2]], e.bbox_min[[0, 2]])).min(axis=1)
    top_gap = lo[:, 1] - e.bbox_max[1]  # LDraw -Y is up: the other's top below the part's bottom
    under = np.flatnonzero((over > MESH_TOL_LDU) & (top_gap >= -MESH_TOL_LDU) & (top_gap <= MESH_TOL_LDU))
    return next((int(j) for j in under if int(j) != v and int(j) not in members and
                 not classes[int(j)].minifig_body and not classes[int(j)].animal), None)


SKIRT_MIN_HEIGHT_LDU = 24.0  # a brick-high piece of at most 2 x 2 studs under a legless torso is its skirt
SKIRT_MAX_FOOT_LDU = TWO_STUDS_LDU
SKIRT_TOL_LDU = 4.0


def _skirt(model, under: set[int], torso_bottom: float) -> bool:
    """A legless torso on one brick-high piece of at most 2 x 2 studs wears it as a skirt or a robe (a bride in a
    slope-brick dress): a figure, not a carving."""
    if len(under) != 1:
        return False
    e = model.elements[next(iter(under))]
    if float(e.bbox_min[1]) < torso_bottom - SKIRT_TOL_LDU:  # LDraw -Y is up: the skirt hangs below the torso
        return False
    ext = e.bbox_max - e.bbox_min
    return float(ext[0]) <= SKIRT_MAX_FOOT_LDU and float(ext[2]) <= SKIRT_MAX_FOOT_LDU and \
        float(ext[1]) >= SKIRT_MIN_HEIGHT_LDU


def _carved_figures(model, graph: nx.Graph, figs: list[dict], classes: dict[int, PartClass]) -> list[dict]:
    """Minifig parts that are not a minifig: a torso without hips or legs fixed onto a build (a ship's
    figurehead, a bust on a pedestal) is a carved figure, and a lone leg or arm is a bone or a prop: decoration
    of what they are on, free [000 §7.1 "decorative"]; they neither walk nor fight. A torso without legs
    in a seat or in a brick-high skirt is still a minifig (a driver cut off at the waist, a bride)."""
    kept = []
    for fig in figs:
        b = fig["body"]
        members = {i for lst in b.values() for i in lst} | set(fig["items"])
        legless = not b.get("hips") and not b.get("leg")
        under = {j for t in b.get("torso", []) for j in graph.neighbors(t)
                 if j not in members and not classes[j].minifig_body}
        waist = max((float(model.elements[t].bbox_max[1]) for t in b.get("torso", [])), default=0.0)
        skirt = legless and _skirt(model, under, waist)
        # a shroud or a robe he wears hanging a brick below his waist: a ghost, a cloaked figure, no bust
        cloak = legless and any(classes[i].accessory and classes[i].role != "weapon" and
                                float(model.elements[i].bbox_max[1]) >= waist + CLOAK_BELOW_LDU for i in fig["items"])
        fixed = legless and bool(under) and not any(classes[j].word == "seat" for j in under) and not skirt and \
            not cloak
        if skirt:
            b["leg"] = sorted(under)  # the dress is the figure's legs section: she walks in it [000 §9.5]
        if b.get("torso") and not fixed:
            kept.append(fig)
            continue
        if not b.get("torso") and b.get("head") and not legless:
            kept.append(fig)  # a head on legs (a skeleton, a robot) is a figure
            continue
        if fixed and all(classes[t].word == "robot" for t in b.get("torso", [])) and b.get("torso"):
            for t in b["torso"]:  # a droid's body with no legs built in is the cylinder brick it is made from
                classes[t] = PartClass("structural", f"{classes[t].reason}, but with no legs and built in: a "
                                                     "cylinder of the build", word="cylinder")
            continue
        why = "a torso without legs fixed onto the build: a carved figure (figurehead, bust, statue)" if fixed \
            else "minifig parts without a torso: a prop"
        for i in members:
            classes[i] = PartClass("decoration", f"{classes[i].reason}; {why}, decoration [000 §7.1]",
                                   word="ornament")
    return kept


def _minifig_creation(model, fig: dict, classes: dict[int, PartClass], k: int, rules: Rules) -> Creation:
    """A minifig Creation; its body parts' reasons quote ``rules.minifig`` (Size, SL, fixed Armor)."""
    mf = rules.minifig
    stats_text = f"Size {mf.size_in:g}, SL {sl_text(mf.sl)}, Armor {mf.armor_fixed}"
    b = fig["body"]
    body = sorted(i for lst in b.values() for i in lst)
    items = sorted(fig["items"])
    head = sorted(b.get("head", []))
    legs = sorted(b.get("hips", []) + b.get("leg", []))
    torso = sorted(b.get("torso", []) + b.get("arm", []) + b.get("hand", []))
    equipment = []
    worn_on_head: list[int] = []
    worn_builds = set(fig.get("worn", []))  # a brick-built pack on his back (``_worn_builds``)
    heads = tuple(head)

    def _touch(i: int, j: int) -> bool:
        return box_gap(model.elements[i], model.elements[j]) <= MESH_TOL_LDU

    def _above(i: int) -> bool:  # over the head's middle (LDraw -Y is up), as what sits on headgear is
        return bool(heads) and float(_centre(model, i)[1]) < min(float(_centre(model, h)[1]) for h in heads)

    def head_distance(i: int) -> float:
        return _head_distance(model, i, heads)
    # headgear to the head (and what sits on it: a plume on a helmet); worn body gear to the torso; held items are
    # equipment, no section
    for i in sorted(items, key=head_distance):
        near_head = head_distance(i) < HEADGEAR_REACH_LDU or (
            classes[i].role == "decoration" and not any(_touch(i, h) for h in b.get("hand", [])) and
            _above(i) and any(_touch(i, w) for w in worn_on_head))  # a plume on a helmet; a flower in hand is held
        if near_head and classes[i].role != "weapon":
            if not classes[i].worn:  # headgear, not a vest whose collar reaches the head
                worn_on_head.append(i)
            head.append(i)
        elif classes[i].worn or i in worn_builds:
            torso.append(i)
        else:
            equipment.append(i)
    roles = {}
    for i in body:
        whole = f"; {classes[i].reason}" if classes[i].word == "figure" else ""  # why a one-piece body is one
        roles[i] = RoleDecision("crew", f"minifig {classes[i].minifig_body}: a Creature of its own "
                                        f"({stats_text}) [000 §9.5 The Minifig]{whole}", "minifig")
    held = set(equipment)
    for i in items:
        c = classes[i]
        if i not in held:  # headgear, hair, armour, capes: worn, a part of the minifig [000 §9.5]
            roles[i] = RoleDecision("crew", f"worn by the minifig: part of it ({stats_text}); {c.reason}",
                                    "minifig")
            continue
        role = c.role if c.role in ("weapon", "device", "propulsion") else "decoration"
        why = f"carried by the minifig; {c.reason}"
        if role == "decoration" and _words_of(model.elements[i]) & set(rules.minifig_weapons.tools.words):  # a radio, a broom: equipment he pays for
            role, why = "device", f"{why}; in his hand a Minifig Tool [000 ch.3]"
        roles[i] = RoleDecision(role, why, "minifig", {"type": c.type} if c.type else {})
    _set_in_held_weapons(model, classes, equipment, roles)
    return Creation("", "minifig", sorted(body + items), sorted(body), roles, None, "", None,
                    "minifig body parts (torso, hips, legs, head) assembled",
                    {"head": sorted(head), "torso": sorted(torso), "legs": legs, "equipment": sorted(equipment),
                     "hands": sorted(b.get("hand", []))})


SET_IN_WORDS = {"blade", "bar"}  # what is set in a held hilt or handle along its axis


def _set_in_held_weapons(model, classes: dict[int, PartClass], held: list[int],
                         roles: dict[int, RoleDecision]) -> None:
    """A blade or a bar the minifig holds set in the weapon in his hand, on its axis (a lightsaber's blade in its
    hilt), is part of that weapon, one item measured whole [000 ch.3 Minifig Weapons]: the weapon's role, one group
    for both. A flag on a lance or a headdress by a sword is not set in it."""
    weapons = [w for w in held if roles[w].role == "weapon"]
    lo, hi = element_boxes(model, weapons) if weapons else (None, None)
    for i in held:
        e = model.elements[i]
        if roles[i].role != "decoration" or not weapons or not _words_of(e) & SET_IN_WORDS:
            continue
        gap = np.maximum(0.0, np.maximum(lo - e.bbox_max, e.bbox_min - hi)).max(axis=1)
        w = weapons[int(np.argmin(gap))]
        centre, axis, _, _ = _rod_axis(model, w)
        if float(gap.min()) > MESH_TOL_LDU or not _on_axis(e, centre, axis):
            continue
        group = roles[w].group or f"held:{w}"
        roles[w] = RoleDecision(roles[w].role, roles[w].reason, roles[w].source, dict(roles[w].params), group)
        roles[i] = RoleDecision("weapon", f"carried by the minifig; {classes[i].reason}; set in the "
                                          f"{model.elements[w].description!r} in his hand: part of that weapon "
                                          "[000 ch.3 Minifig Weapons]", "minifig", dict(roles[w].params), group)


_FIGURE_WORDS = frozenset({"minifig", "minifigs", "minifigure", "minifigures", "fig", "figure", "mf"})


def _says_minifig(name: str) -> bool:
    """A submodel name that only says "a minifig" ("6066 - minifig 4", "minifig1", "fig-2")."""
    found = [w.rstrip("0123456789") for w in name_words(name)]
    return bool(found) and set(found) <= _FIGURE_WORDS | GENERIC_NAMES


def _name_minifigs(model, ann: Annotations, figs: list[Creation]) -> None:
    """A UNIT annotation's name and side, else the submodel it was built as, else minifig-N in file order."""
    notes = _unit_notes(model, ann)
    n_auto = 1
    prefixes: Counter | None = None
    for c in sorted(figs, key=lambda c: min(c.elements)):
        body = sorted(set(c.elements) - set(c.sections.get("equipment", [])))
        params: dict[str, str] = {}
        for link in model.elements[min(body)].refs[::-1]:
            if link in notes:
                params = notes[link]
                break
        c.side = params.get("side") or None
        c.annotation = dict(params)
        if not params.get("name") and prefixes is None:
            prefixes = _ref_prefixes(model)
        # the submodel holds the figure with what it carries, or its body alone (a sword picked from a rack)
        c.name = params.get("name") or _submodel_name(model, sorted(c.elements), prefixes) or \
            _submodel_name(model, body, prefixes) or \
            _submodel_name(model, sorted(c.elements), prefixes, spare=NAME_SPARE)
        if not params.get("name") and _says_minifig(c.name):
            c.name = ""  # "minifig 1" names no one: minifig-N, numbered like the rest
        if not c.name:
            c.name = f"minifig-{n_auto}"
            n_auto += 1
