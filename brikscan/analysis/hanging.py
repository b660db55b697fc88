"""The bodies that hang on a creation's rigid core by movable joints, and what each is.

A body reaching the core only through hinges, turntables, Technic pins, clips on a bar or a wheel's bearing is a
leg (alone or a chain of thigh, shin and foot), a turret or arm (Structure, its joint the weak point), the mount a
wing swings on, a panel locked by joints on two lines, a canopy closing its cockpit, or a lid, a door or a flap
that swings (Non-Structural) [000 §7.1]. What hangs on nothing is not built into the Structure. The rigid core
itself, and the blocks of a building standing apart on one base plate, are the Structure.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..geometry.boxes import elements_box
from .connectivity import components_in, rigid_groups
from .element_shape import _JOINT_WORDS, _words_of, nx
from .ground import MIN_LEGS
from .mounts import GROUND_TOL_LDU, IN_CORE
from .moving_parts import (CLOSER_REASON, JOINTED_MIN_ELEMENTS, LOCKED_REASON, _closes_opening, _jointed_body_role,
                           _locked, flat_panel, limb_chains, turns_level)
from .roles import JointedBody, RoleDecision, core_and_hanging, describe, jointed_bodies
from .sections import keeled


@dataclass
class Hanging:
    """What ``judge_hanging`` found: the rigid core, how each other candidate hangs off it (``rest``), the jointed
    bodies with their verdicts, whether legs walk the build, the joint parts, and the pieces attached to nothing."""

    core: set[int]
    rest: dict[int, str]
    hanging: list[JointedBody]
    verdicts: list
    walker: bool
    joint_parts: set[int]
    detached: set[int] = field(default_factory=set)


def judge_hanging(model, graph: nx.Graph, idx: list[int], classes, roles: dict[int, RoleDecision],
                  cache: dict | None, ldu_per_inch: float, bare_masts: set[int]) -> Hanging:
    """Give every piece not yet judged by its part or a name (and every plain structural part) its role by its
    place: in the rigid core, on a jointed body (judged whole), swinging on a joint, or attached to nothing.
    ``roles`` is updated in place."""
    # topology: the rigid core of unclassified + structural elements is the Structure
    cand = [i for i in idx if i not in roles or (roles[i].role == "structural" and roles[i].source == "part")]
    body = rigid_groups(graph, cand)
    core, rest = core_and_hanging(graph, cand, body)
    core |= keeled(graph, idx, cand, classes, roles, core, body)
    rest = {i: how for i, how in rest.items() if i not in core}
    joint_parts = {i for i in idx if i in roles and roles[i].role == "weak point" and roles[i].source == "part"}
    # a wheel or rim turns on its axle: a body held to the core only through one (a pod on a bearing rim) hangs
    # on a movable joint, it is not loose [000 §7.1]
    bearings = {i for i in idx if i in roles and roles[i].role == "propulsion" and roles[i].source == "part" and
                roles[i].params.get("type") == "ground"}
    # a bar held in clips is the pin what it carries swings on (a truck's tilting hood hangs on a bar in four clips
    # on the chassis): it links that body to the core as a hinge plate does, not loose [000 §7.1 "pivots"]
    pins = {i for i in idx if classes[i].word == "bar" and i in roles and roles[i].source == "part" and
            any(graph.edges[i, j].get("movable") and graph.edges[i, j].get("kind") == "clip"
                for j in graph.neighbors(i) if j in core)}
    hanging = jointed_bodies(graph, cand, core, body, joint_parts | bearings | pins, classes)
    # flyers and boats do not walk: what hangs under a ship or a starship is landing gear or a keel
    moving = {r.params.get("type") for r in roles.values() if r.role == "propulsion"}
    walks = not moving & {"flight", "forward_flight", "thrust", "water"}
    verdicts = [_jointed_body_role(model, jb, core, idx, classes, cache, ldu_per_inch, walks)
                for jb in hanging]
    # a leg of several jointed sections (thigh, shin, foot): judged whole, as the limb it is [000 §9.1]; a walker
    # on knees walks though a jet engine is built into it (an AT-ST's), where a boat, a rotor or wings do not
    legs: list[list[int]] = []  # the chains judged legs
    kneels = not moving & {"flight", "forward_flight", "water"}
    walker = False
    for chain in limb_chains(model, graph, hanging, core, idx) if kneels else []:
        whole = JointedBody(sorted(i for k in chain for i in hanging[k].elements),
                            set().union(*(hanging[k].joint_kinds for k in chain)),
                            sorted({p for k in chain for p in hanging[k].joint_parts}),
                            [a for k in chain for a in hanging[k].axes])
        if "turntable" in whole.joint_kinds or not turns_level(whole):
            continue  # no leg (told before the limb is measured)
        v = _jointed_body_role(model, whole, core, idx, classes, cache, ldu_per_inch, True, chain=True)
        if v is not None and v[0] == "propulsion":
            walker = True
            legs.append(chain)
            for k in chain:
                verdicts[k] = (v[0], v[1].replace("a leg:", f"a leg of {len(chain)} jointed sections:", 1),
                               v[2], True)  # its hip and knee stay the weak points [000 §7.1]
    if _count_legs(legs, verdicts) < MIN_LEGS:
        walker = False
        verdicts = [_jointed_body_role(model, jb, core, idx, classes, cache, ldu_per_inch, False)
                    if v is not None and v[0] == "propulsion" else v for jb, v in zip(hanging, verdicts)]
    # the hinged mount a wing swings on, beyond its joint, carrying that wing and nothing else, moves with it:
    # part of the wing, Forward Flight [000 §9.1] (the Allied Avenger's folding wing units)
    for k, (jb, v) in enumerate(zip(hanging, verdicts)):
        if v is None or v[0] != "structural":
            continue
        mine = set(jb.elements)
        out = {j for i in mine for j in graph.neighbors(i) if j not in mine and j not in core and
               j not in joint_parts and j in roles}
        wings = [j for j in out if roles[j].role == "propulsion" and roles[j].params.get("type") == "forward_flight"]
        if wings and all(roles[j].role in ("propulsion", "decoration") for j in out) and \
                len(mine) <= sum(1 for j in roles if roles[j].role == "propulsion" and
                                 roles[j].params.get("type") == "forward_flight"):
            verdicts[k] = ("propulsion", "the hinged mount a wing swings on, carrying nothing but the wing: part of "
                                         "the wing, Forward Flight [000 §9.1]", {"type": "forward_flight"}, True)
    # a body held on the core by joints at places that are not on one hinge line cannot turn on any of them: it
    # is locked, a hull panel angled on hinges at both ends, Structure; the hinges stay weak points [000 §7.1]
    for k, (jb, v) in enumerate(zip(hanging, verdicts)):
        if v is None and _locked(model, graph, jb, core, joint_parts):
            verdicts[k] = ("structural", LOCKED_REASON, {}, True)
    # a canopy, a windscreen or a window's glass closes the cockpit or the wall it sits in: Structure even when it
    # swings on a hinge or rests in its frame with no connector; its frame on the joint moves with it; only the
    # hinge is the weak point [000 §7.1 Vehicle: cockpit; "any section with an interior"]
    closers = {i for i in cand if _closes_opening(model.elements[i])}
    for k, (jb, v) in enumerate(zip(hanging, verdicts)):
        if v is None and closers.intersection(jb.elements):
            verdicts[k] = ("structural", CLOSER_REASON, {}, True)
    for jb, verdict in zip(hanging, verdicts):
        if verdict is None:
            continue
        role, why, params, keep_joint = verdict
        for i in jb.elements:
            if keep_joint and rest.get(i) == "joint":
                continue  # the element the joint turns in stays the weak point
            base = roles[i].reason if i in bare_masts and i in roles else classes[i].reason
            roles[i] = RoleDecision(role, f"{base}; {why}", "topology", dict(params))
        for p in pins.intersection(jb.joint_parts):  # the bar it swings on is its hinge
            if roles[p].role == "decoration":
                roles[p] = RoleDecision("weak point", f"{describe(model.elements[p])[1]!r}: {PIN_REASON}", "topology")
    # a small body on a bar in clips (a car's seat, a lamp) swings on it: a moving part, not a loose one
    swung = {i for jb, v in zip(hanging, verdicts) if v is None and pins.intersection(jb.joint_parts)
             for i in jb.elements}
    detached: set[int] = set()
    blocks = _block_cores(model, graph, idx, cand, core, body, hanging, roles)
    for i in cand:
        if i in roles and roles[i].source == "topology":
            continue
        c = classes[i]
        # what its part said (a bare mast's: a spar's, not a Thruster's)
        base = roles[i].reason if i in bare_masts and i in roles else c.reason
        if i in blocks:
            roles[i] = RoleDecision("structural", f"{base}; {BLOCK_REASON}", "topology")
        elif i in core:
            why = base if c.role == "structural" else f"{base}; in the rigid core"
            roles[i] = RoleDecision("structural", f"{why}{IN_CORE}",
                                    "part" if c.role == "structural" else "topology")
        elif i in closers:
            roles[i] = RoleDecision("structural", f"{base}; {CLOSER_REASON}", "topology")
        elif rest.get(i) == "joint" and not _JOINT_WORDS & _words_of(model.elements[i]):
            roles[i] = RoleDecision("decoration", f"{base}; swings on a movable joint off the rigid core (a "
                                                  "shutter, a casement, a flap): a moving part, Non-Structural "
                                                  "[000 §7.1 \"moving\"]", "topology")
        elif rest.get(i) == "joint":
            roles[i] = RoleDecision("weak point", f"{base}; on a movable joint (hinge/turntable/pivot) off "
                                                  "the rigid core: a weak point [000 §7.1]", "topology")
        elif rest.get(i) == "beyond" or (i in swung and rest.get(i) != "joint"):
            roles[i] = RoleDecision("decoration", f"{base}; hangs off the rigid core by a movable joint: "
                                                  "Non-Structural [000 §7.1]", "topology")
        else:
            roles[i] = RoleDecision("decoration", f"{base}; not built into the main Structure "
                                                  "(Non-Structural) [000 §7.1]", "topology")
            detached.add(i)
    return Hanging(core, rest, hanging, verdicts, walker, joint_parts, detached)


PIN_REASON = "the bar a body swings on in its clips: an exposed hinge, a weak point [000 §7.1 \"exposed hinges, " \
             "turrets, pivots\"]"

BLOCK_REASON = ("a block of the building standing apart from its main block on the same base plate: its Structure "
                "too (the blocks of one building) [000 §7.1 Structure]")


def _block_cores(model, graph, idx: list[int], cand: list[int], core: set[int], body: dict[int, int],
                 hanging: list[JointedBody], roles: dict[int, RoleDecision]) -> set[int]:
    """The rigid cores of a building's other blocks. A building of several blocks standing on one base plate (a
    gun platform beside the keep, a hut beside the rock: ``joining._one_build``, or blocks tied by a tree or a
    rope, no brick between them) is one building, and each block's own rigid core is its Structure, not only
    the biggest block's [000 §7.1 Structure]. A block stands on the building's ground and hangs on no joint (a
    drawbridge lying on the plate swings on its hinges); its core is its largest rigid group (``body``) of at
    least JOINTED_MIN_ELEMENTS pieces and no flat panel, as a turret body must be. Not in a vehicle: what
    stands apart from a vehicle's body is no block of it."""
    if any(r.role == "propulsion" for r in roles.values()):
        return set()
    els = model.elements
    floor = max(float(els[i].bbox_max[1]) for i in idx)  # LDraw -Y is up: the lowest point has the largest Y
    swinging = {i for jb in hanging for i in jb.elements}
    out: set[int] = set()
    for comp in components_in(graph, cand):
        if comp & core or comp & swinging:
            continue
        groups: dict[int, list[int]] = {}
        for i in comp:
            groups.setdefault(body[i], []).append(i)
        biggest = max(groups.values(), key=lambda g: (len(g), -min(g)))
        if len(biggest) < JOINTED_MIN_ELEMENTS or \
                max(float(els[i].bbox_max[1]) for i in comp) < floor - GROUND_TOL_LDU:
            continue  # a loose bit, or up off the ground
        lo, hi = elements_box(els, biggest)
        thin, middle, _ = sorted(float(x) for x in hi - lo)
        if flat_panel(thin, middle):
            continue  # flat: a ramp or a drawbridge lying on the plate, as a turret body must not be a panel
        out.update(biggest)
    return out



def _count_legs(chains: list[list[int]], verdicts: list) -> int:
    """How many legs: the chains judged legs, one leg where two share a body below their tops (a shin with two
    feet, a thigh with two shins: one limb; two legs on one hip bar are two), and each lone jointed body judged
    one (indices into the jointed bodies, a chain's foot first and its top last)."""
    limbs = nx.Graph()
    limbs.add_nodes_from(range(len(chains)))
    below = [set(c[:-1]) for c in chains]
    limbs.add_edges_from((a, b) for a in range(len(chains)) for b in range(a + 1, len(chains)) if below[a] & below[b])
    in_chain = {k for c in chains for k in c}
    lone = sum(1 for k, v in enumerate(verdicts) if v is not None and v[0] == "propulsion" and k not in in_chain)
    return nx.number_connected_components(limbs) + lone


