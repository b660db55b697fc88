"""Split a model into Creations (a castle, two horses, six minifigs, a loose sword) and give every element a role.

Minifigs come first: their body parts (torso, arms, hands, hips, legs, head) are assembled by the connectivity
graph, or by distance where the parts sit without a labelled joint, with their headgear and what their hands hold.
Each is a Creature of its own [000 §9.5 The Minifig] and never counts toward its host's Size (digest §13.22).
The rest splits into connected components of the graph; ``0 !BRIKSCAN CREATION`` in a submodel gathers that
submodel into one Creation.

The judging steps live in modules of their own (minifig_finder, details, ground, wings, guns, engines,
moving_parts, kinds, scenery, joining); this module runs them in order for each creation.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from ..errors import UsageError
from ..geometry.units import LDU_PER_TAPE_INCH as LDU_PER_INCH
from ..lazy import lazy
from .annotations import Annotations, RoleNote, file_stem, parse_annotations, parse_role_spec
from .connectivity import TOUCH_KINDS, components_in
from .creation import Creation
from .details import _detail_part, _details
from .element_shape import (HELM_WORDS, LEG_LIFT_LDU, MESH_TOL_LDU, MOUNTED_WEAPON_TYPES, _crew_place,
                            _rests_on, _up_axis, _words_of, cockpits, is_connector, is_controls, nx)
from .engines import (BARE_MAST_REASON, _bare_masts, _built_on_propulsion, _engine_assemblies, _engine_bank,
                      _engine_pods, _fan_jets, _fin_rings, _named_engines, _nozzles, _rocket_drives, _rocket_tails,
                      _sail_rig)
from .ground import (MIN_LEGS, MIN_STANDING_WHEELS, axle_wheels, belt_wheels, _carriages, _ground_contact, hover_pads,
                     rotor_flies, spinning_blades)
from .guns import _barrels, _shut_in, _stowed, _stowed_reason, _turrets
from .interior import PendingEnclosure
from .joining import _docked, _join_resting, _one_build
from .kinds import (LOAD_REASON, _beast_name, _boat_hull, _boat_reason, _build_vehicle_name, _kind, _robot_name,
                    _rooted, _walker_name, carried_loads, motor_boat_name, towed_reason)
from .measure import box_gap, box_volume, element_boxes
from .minifig_finder import _carved_figures, _find_minifigs, _minifig_creation, _name_minifigs
from .minifig_rules import _seated
from .mounts import (GROUND_TOL_LDU, describe_element, flies, furniture, is_detail_sized, is_open, landing_struts,
                     mounts)
from .hanging import judge_hanging
from .moving_parts import CLOSER_REASON, LOCKED_REASON, _device_arms, _interior_roles
from .naming import (GENERIC_NAMES, _common_submodel, _unique_names, driven_from, file_name_for, mostly_in,
                     name_words)
from .roles import (PartClass, RoleDecision, classify_part, describe, is_marker, lone_steed, parse_override,
                    select_elements, structural_kind)
from .scenery import (STAND_REASON, _animal_ornaments, _cargo_on_animals, _display_stand, _fitted, _loose_props,
                      _lying_on_scenery, _scenery_reason, covered_floor, craft_floor, ground_plate,
                      is_rail)
from .sections import twins
from .wings import AIRFOIL_OUT, _airfoils, _outside_share, _wing_sections

if TYPE_CHECKING:
    from ..rules.tables import Rules


_tables = lazy("brikscan.rules.tables")


def _armed_by_parts(notes: dict[int, RoleNote], classes: dict[int, PartClass]) -> None:
    """A submodel named for a Vehicle weapon ("canon.ldr") that holds a weapon part of that kind (a "Minifig
    Cannon") says what its part already says: the part and its place decide what is the gun, its carriage and the shot lying by it
    [000 §8.4], not the name, which would make every piece in it the weapon. Each placed copy is judged alone."""
    groups: dict[str, list[int]] = {}
    for i, n in notes.items():
        if n.origin == "submodel" and n.role == "weapon":
            groups.setdefault(n.group, []).append(i)
    for members in groups.values():
        kind = notes[members[0]].params.get("type", "")
        if kind in MOUNTED_WEAPON_TYPES and any(classes[i].role == "weapon" and classes[i].type == kind
                                                for i in members):
            for i in members:  # (three rifles clipped into a "machine gun", a spear set in a "spear" launcher's
                # slot: weapons by their names)
                del notes[i]


def _element_notes(model, ann: Annotations, overrides: list[str] | None,
                   classes: dict[int, PartClass]) -> dict[int, RoleNote]:
    out: dict[int, RoleNote] = {}
    instance: dict[tuple, RoleNote] = {}
    for e in model.elements:
        n = ann.best_for(e.refs, e.submodel_path)
        if n is not None and n.origin == "submodel" and n.source in e.submodel_path:
            # each placed copy of a named submodel is its own weapon or unit: two "rocket.ldr" on two racks are
            # two Rockets, not one of twice the size [000 §8.1]
            k = len(e.submodel_path) - 1 - e.submodel_path[::-1].index(n.source)
            key = (n.source, tuple(e.refs[:k + 1]))
            if key not in instance:
                where = "/".join(f"{f}:{ln}" for f, ln in key[1])
                instance[key] = replace(n, group=f"{n.group}@{where}")
            n = instance[key]
        if n is not None:
            out[e.index] = n
    _armed_by_parts(out, classes)
    for k, spec in enumerate(overrides or []):
        sel, text = parse_override(spec)
        local: list = []
        note = parse_role_spec(text, f"--role:{k + 1}", local, "cli")
        if note is None or local:
            raise UsageError(f"--role {spec!r}: {local[0].message if local else 'bad role'}")
        note.group = f"cli:{k}"
        for i in select_elements(model, sel):
            out[i] = note
    return out


def _decide_roles(model, graph, idx: list[int], classes, notes: dict[int, RoleNote],
                  cache: dict | None = None, ldu_per_inch: float = LDU_PER_INCH,
                  interior_cache: dict | None = None, on_ground: bool = False,
                  rooted: bool = False) -> dict[int, RoleDecision]:
    """Every element's role in one creation (or one block of a building); ``rooted``: built onto its base plate
    over its whole footprint (``_rooted``).

    The interior test needs nothing decided before it: a large creation's is started at once on the other core."""
    interior = PendingEnclosure(model, idx, store=interior_cache, floor=on_ground)
    try:
        return _judge_roles(model, graph, idx, classes, notes, cache, ldu_per_inch, on_ground, interior, rooted)
    finally:
        interior.cancel()


def _whole_names(model, idx: list[int], notes: dict[int, RoleNote]) -> set[str]:
    """The submodels named for a role ("cannon.ldr", "ballista") whose name some element goes by and that hold
    every element of the creation: the creation's own name, not its parts' (none for a single element)."""
    if len(idx) < 2:
        return set()
    sources = {notes[i].source for i in idx if i in notes and notes[i].origin == "submodel"}
    held = [{p.lower() for p in model.elements[i].submodel_path} for i in idx]
    return {s for s in sources if all(s.lower() in h for h in held)}


_MOTORED = ("rocket", "explosive")  # weapons that fly on their own motor: its jet engine is part of them


def _named_and_part_roles(model, idx: list[int], classes, notes: dict[int, RoleNote], whole: set[str],
                          boat: bool, bare_masts: set[int]) -> tuple[dict[int, RoleDecision], set[int]]:
    """The first roles of a creation's elements: what an annotation, a group or a submodel's name says of each
    (where it still applies to the part), else what its part says; and the elements a submodel's name made
    propulsion. Elements with neither stay unjudged, for their place in the build to decide. ``whole``: the
    submodels that name the creation as a whole (``_whole_names``), whose names decide no part's role."""
    roles: dict[int, RoleDecision] = {}
    named_prop: set[int] = set()  # what a submodel's name ("left wing", "wheel front") made propulsion
    # a submodel named for its wheels that holds wheel parts: those and what is set in them (hub caps, rims) are
    # its running gear, and the rest of it (the chassis they are fitted to, a radio on it) is judged by its
    # place; one with no wheel part in it (a wheel built of plates) is a wheel by its name [000 §9.1]
    # (its wheel parts: those in it or in the submodels it holds, "Wheels" holding "Wheels 1" and "Wheels 2")
    wheel_parts = [i for i in idx if classes[i].role == "propulsion" and classes[i].type == "ground"]

    wheels_in: dict[str, list[int]] = {}  # submodel -> its wheel parts, found once per submodel

    def off_the_wheels(i: int, sub: str) -> bool:
        """Not set in one of the submodel's wheels (a hub cap, a rim, a bush in it): its chassis. A brick or a
        plate is the chassis even inside a deep wheel's hub (the holder the wheel turns on)."""
        if sub not in wheels_in:
            key = sub.lower()
            wheels_in[sub] = [w for w in wheel_parts if key in (p.lower() for p in model.elements[w].submodel_path)]
        mine = wheels_in[sub]
        if not mine:
            return False
        if classes[i].word in _CHASSIS_WORDS:
            return True
        c = (model.elements[i].bbox_min + model.elements[i].bbox_max) / 2
        return not any(np.all(c >= model.elements[w].bbox_min - MESH_TOL_LDU) and
                       np.all(c <= model.elements[w].bbox_max + MESH_TOL_LDU) for w in mine)
    for i in idx:
        n = notes.get(i)
        if n is not None and n.origin == "submodel" and n.source in whole:
            n = None
        if n is not None and n.origin == "cli" and not n.params and classes[i].role == n.role and \
                not classes[i].minifig_body:
            n = None  # restating an element's own role with --role changes nothing
        if n is not None and n.origin == "submodel" and n.params.get("type") == "ground" and \
                not (classes[i].role == "propulsion" and classes[i].type == "ground") and off_the_wheels(i, n.source):
            n = None
        if n is not None and n.origin == "submodel" and (classes[i].role == "weak point" or (
                classes[i].role == "propulsion" and classes[i].type == "ground" and
                n.params.get("type") != "ground") or (
                n.role == "propulsion" and classes[i].role in ("weapon", "device") and not classes[i].accessory) or (
                n.role == "propulsion" and (classes[i].role == "propulsion" or
                                             classes[i].word in ("hose", "primitive")) and
                (classes[i].type or "") != n.params.get("type", "")) or (
                n.role == "weapon" and n.params.get("type") not in _MOTORED and classes[i].role == "propulsion" and
                classes[i].type == "thrust" and not classes[i].accessory)):
            n = None  # a hinge in a submodel named "wing" is still an exposed hinge, a weak point [000 §7.1]; the
            # wheels of a "cannon.ldr" still roll its cart [000 §9.1]; a wing's cannon is a cannon, a front
            # wheel's handlebars the Controls [000 §8.2, §9.4]; a wing's jet engine its Thruster [000 §9.3]; a
            # hose or a cable on a wing a detail on it, no piece of the airfoil [000 §7.1]; a "laser" sub-assembly's
            # jet engine is its wing's Thruster, not a piece of the gun (6986's wing guns), where a rocket's is its
            # motor (6950's) and a sword's Wing plates are its blade (21311's)
        if n is not None and n.origin == "submodel" and n.role == "propulsion":
            named_prop.add(i)
        if n is not None and n.role:
            where = "command line" if n.origin == "cli" else f"{n.origin} {n.source}"
            said = "named" if n.origin in ("submodel", "group") else "annotated"  # a name is not a !BRIKSCAN line
            roles[i] = RoleDecision(n.role, f"{said} {n.role} ({where})", "annotation" if n.origin != "cli"
                                    else "cli", dict(n.params), n.group)
            continue
        c = classes[i]
        if c.role is not None:
            role, reason = c.role, c.reason
            params = {"type": c.type} if c.type else {}
            if role == "crew" and c.minifig_body in ("leg", "arm", "hand", "hips") and \
                    (model.elements[i].description or "").lower().lstrip("~").startswith("minifig"):
                # a limb with no figure, fixed onto the build (a skeleton's leg as a baluster): a bone or a prop
                role, reason = "decoration", f"{c.reason}; a minifig limb with no figure, built in: a prop, " \
                                             "decoration [000 §7.1]"
            elif role == "crew":  # a minifig part that is built into something else: a part of it
                role, reason = None, c.reason
            elif role == "weapon" and c.accessory and c.type in ("melee", "shield"):  # a gun built in is mounted
                role, reason = "decoration", f"{c.reason}, but built into the model, not held: decoration " \
                                             "(annotate it to arm the creation)"
                params = {}
            elif boat and role == "propulsion" and c.type == "forward_flight":
                role, reason = None, f"{c.reason}; on a boat it is a deck plate"
            elif boat and c.word == "oar":  # an oar lying in a boat held by no one: its oars
                role, reason, params = "propulsion", f"{c.reason}; in the boat, held by no one: its oars, water " \
                                                     "propulsion [000 §9.1 Standard Propulsion]", {"type": "water"}
            elif boat and model.elements[i].category.lower() == "sheet fabric":
                role, reason, params = "propulsion", f"{c.reason}; the sails of a boat are its Thrusters " \
                                                     "[000 §9.3]", {"type": "thrust"}
            elif i in bare_masts:
                role, reason, params = "structural", f"{c.reason.split(': a ship')[0]}: {BARE_MAST_REASON}", {}
            if role is not None:
                roles[i] = RoleDecision(role, reason, "part", params)
    return roles, named_prop


def _judge_roles(model, graph, idx: list[int], classes, notes: dict[int, RoleNote], cache: dict | None,
                 ldu_per_inch: float, on_ground: bool, interior: PendingEnclosure,
                 rooted: bool = False) -> dict[int, RoleDecision]:
    boat = _boat_hull(model, idx, classes) or any(classes[i].role == "propulsion" and classes[i].type == "water"
                                                  for i in idx)
    if boat and _seaplane(model, idx, classes):
        boat = False  # its hull parts are floats, its wings fly it [000 §9.1 Forward Flight]
    # a submodel named for a role that is a whole creation by itself ("cannon.ldr" standing on its own wheels)
    # names what the creation is, not what each of its bricks does: its parts are judged by their place (the
    # barrel is the Cannon, the trail its Structure, the wheels its running gear) [000 §7.1]
    # The same for a build whose named submodel holds named parts of its own ("ballista.ldr" holding
    # "ballista-launcher.ldr" and its chassis): the whole's name steps back, the launcher's stays.
    whole = _whole_names(model, idx, notes)
    bare_masts = _bare_masts(model, idx, classes)
    roles, named_prop = _named_and_part_roles(model, idx, classes, notes, whole, boat, bare_masts)
    _parked_steeds(model, idx, classes, roles)
    # a load a vehicle carries (a container resting on its bed) is cargo, not its Structure [000 §7.1]
    for i, sub in carried_loads(model, graph, idx, any(r.role == "propulsion" for r in roles.values())).items():
        r = roles.get(i)
        if r is None or (r.source == "part" and r.role in ("structural", "decoration", "weak point")):
            roles[i] = RoleDecision("decoration", f"{classes[i].reason}; {LOAD_REASON.format(name=sub)}", "geometry")
    # read once: a name does not change with the roles
    flyer_name = _build_vehicle_name(model, idx, rooted, flying_only=True)
    piloted = _crew_place(classes, idx) or bool(flyer_name) or bool(_build_vehicle_name(model, idx, rooted))
    # judged before the wings, which fly only a build with an engine or a pilot's place
    spinning_blades(model, graph, idx, classes, roles, boat, rooted, piloted)
    inside = set(idx)
    aboard = any(classes[j].minifig_body for i in idx for j in graph.neighbors(i) if j not in inside)
    _airfoils(model, idx, classes, roles, boat, on_ground, aboard,
              named=bool(flyer_name))
    stowed = _stowed(graph, idx, classes, roles, boat) | _shut_in(model, graph, idx, classes, roles)
    # wheels on a weapon's carriage are part of that weapon (a deck gun's trucks) ...
    carriage_wheels: list[int] = []
    for i in idx:
        r = roles.get(i)
        if r is not None and r.role == "propulsion" and r.source == "part":
            near = set(graph.neighbors(i))
            near |= {k for j in list(near) for k in graph.neighbors(j)}
            wn = [j for j in sorted(near) if j in roles and roles[j].role == "weapon"]
            if wn and r.params.get("type") == "ground":  # wheels, never a ship's mast beside a gun
                carriage_wheels.append(i)
                roles[i] = RoleDecision("weapon", f"{r.reason}; mounted on a weapon: part of its carriage",
                                        "topology", dict(roles[wn[0]].params),
                                        roles[wn[0]].group or f"carriage:{wn[0]}")
    hung = judge_hanging(model, graph, idx, classes, roles, cache, ldu_per_inch, bare_masts)
    core, rest, hanging, verdicts = hung.core, hung.rest, hung.hanging, hung.verdicts
    walker, joint_parts, detached = hung.walker, hung.joint_parts, hung.detached
    # geometry: whatever encloses an interior is Structural [000 §7.1]; moving bodies (turrets, doors, lids on
    # joints) keep what the topology decided
    wheels, rolling, low, ground = _ground_contact(model, idx, roles)
    els = model.elements
    belts = belt_wheels(model, idx, roles, low, ground, len(rolling))
    for i in belts:  # pulleys a cart rolls on
        roles[i] = RoleDecision("propulsion", f"{roles[i].reason.split(';')[0]}; a belt wheel standing on its rim "
                                              "at the ground, turning on its axle: a wheel the build rolls on "
                                              "[000 §9.1]", "geometry", {"type": "ground"})
    for i in axle_wheels(model, graph, idx, roles, low, ground, len(rolling) + len(belts)):
        roles[i] = RoleDecision("propulsion", f"{describe(els[i])[1]!r}: a round piece on its side on a level "
                                              "axle, standing on its rim at the ground: a wheel the build rolls on "
                                              "[000 §9.1]", "geometry", {"type": "ground"})
    pads = set(hover_pads(model, idx, wheels, low, _crew_place(classes, idx)))
    # a submodel named a wheel rolls the build only where it reaches the ground: the wheel over a forge or a
    # mill turns off the ground, as a wheel part there does [000 §9.1]
    named_wheels: dict[str, list[int]] = {}
    for i in named_prop:
        if roles[i].role == "propulsion" and roles[i].params.get("type") == "ground":
            named_wheels.setdefault(notes[i].source, []).append(i)
    off_ground = {i for g in named_wheels.values() if not any(low[i] >= ground - GROUND_TOL_LDU for i in g)
                  for i in g}
    for i, r in list(roles.items()):
        if i in pads:
            roles[i] = RoleDecision("propulsion", f"{r.reason}, but folded flat under the body with none of the "
                                                  "build's wheels standing up to roll: a flying car's hover pad, "
                                                  "Flight [000 §9.1 Flight]", "geometry", {"type": "flight"})
        elif (i in wheels and i not in rolling) or i in off_ground:
            roles[i] = RoleDecision("decoration", f"{r.reason}, but it does not reach the ground: decoration, "
                                                  "not propulsion [000 §9.1]", "geometry")
    if not walker and not boat and not any(r.role == "propulsion" for r in roles.values()):
        walker = _walker_feet(model, graph, idx, roles, low, ground, core)
    for i in carriage_wheels:  # the wheels a field piece rolls on are its running gear, not its barrel
        if low[i] >= ground - GROUND_TOL_LDU:
            roles[i] = RoleDecision("propulsion", f"{classes[i].reason}; the gun's carriage rolls on it on the "
                                                  "ground: its running gear [000 §9.1]", "geometry",
                                    {"type": "ground"})
    moving = {i for jb in hanging for i in jb.elements} | {i for i, how in rest.items() if how != "detached"}
    # what a build that does not fly stands or floats on at its lowest level, carrying a part above it (the
    # logs under a raft, the feet of a wall), holds it up: Structure, not a surface detail [000 §7.1]
    feet = set() if flies(roles, boat) and not walker else {
        i for i in idx if low[i] >= ground - GROUND_TOL_LDU and i not in wheels and
        any(j in low and float(els[j].bbox_min[1]) < float(els[i].bbox_min[1]) - MESH_TOL_LDU and
            roles.get(j) is not None and roles[j].role == "structural" and not _detail_part(model, els[j])
            for j in graph.neighbors(i))}  # a stack of round bricks under a cone is a pillar of details
    _details(model, graph, idx, classes, roles, feet)
    # a flyer: flying propulsion, or a starfighter's cockpit with no wheel, leg or keel (its engines and wings
    # are told by where they are, below)
    if not boat and not walker:  # a walker's round joint caps are no exhausts
        _engine_bank(model, graph, idx, classes, roles)
        _rocket_tails(model, graph, idx, classes, roles)
    _fin_rings(model, idx, classes, roles)
    flyer = (flies(roles, boat) and not walker) or (not boat and (bool(cockpits(model, idx, classes)) or
                                                 bool(flyer_name)) and
                                   not any(r.role == "propulsion" for r in roles.values()))
    if flyer and not any(r.role == "propulsion" and r.params.get("type") in ("flight", "forward_flight")
                         for r in roles.values()) and len(rolling) >= MIN_STANDING_WHEELS:
        flyer = False  # jets on a build that stands on its wheels: a rover's boosters, Thrusters [000 §9.3]
    # (a craft a rotor flies: a winged craft's rotor parts, 75144's airbrakes, fly no helicopter)
    rotorcraft = rotor_flies(model, classes, roles, [i for i in idx if classes[i].word == "wing"])
    nozzles = _nozzles(model, graph, idx, classes, roles, flyer, rotorcraft)
    _engine_pods(model, idx, roles, flyer)
    _fan_jets(model, idx, roles, flyer)
    _barrels(model, graph, idx, classes, roles, flyer or walker, nozzles,  # a war walker's guns stick out too
             walker=walker and not flyer)
    _engine_assemblies(model, graph, idx, classes, roles, flyer)
    _rocket_drives(model, graph, idx, roles, notes, flyer and not boat)  # after every other engine rule
    if named_prop and flyer:
        _fitted_in_named(model, graph, idx, classes, roles, named_prop)
    _turrets(model, graph, idx, roles, [jb for jb, v in zip(hanging, verdicts) if v is None], core)
    if not boat:
        _wing_sections(model, idx, roles, ldu_per_inch, cache, flyer)
    _named_engines(model, idx, classes, roles)
    _built_on_propulsion(model, graph, idx, roles, detached)
    struts = landing_struts(model, graph, idx, roles, boat)
    if core:
        els = model.elements
        inside = set(idx)  # the body's root: its best-connected piece (a dish at the tip may be the biggest)
        root = max(core, key=lambda i: (sum(1 for j in graph.neighbors(i) if j in inside),
                                        box_volume(els[i]), -i))
        mounts(model, graph, idx, roles, root, describe_element(model),
               keep={i for i in idx if (classes[i].accessory and roles[i].source == "part") or i in stowed or
                     i in struts or classes[i].word in ("steering", "control", "winch") or
                    (classes[i].word == "door" and classes[i].role == "structural")},  # a door frame is wall
               sensors={i for i in idx if is_open(roles[i]) and {"dish", "radar"} & _words_of(els[i]) and
                        low[i] < ground - GROUND_TOL_LDU})  # a dish the build stands on is a foot, no sensor
        furniture(model, graph, idx, roles, root)
        _device_arms(model, graph, idx, classes, roles, core, joint_parts,
                     [jb for jb, v in zip(hanging, verdicts) if v is not None and v[0] == "structural" and
                      v[1] not in (LOCKED_REASON, CLOSER_REASON)])
    _carriages(model, graph, idx, roles)
    if whole:
        _named_field_piece(model, graph, idx, notes, roles, core, moving, whole)
    _interior_roles(model, idx, classes, roles, moving, ldu_per_inch, interior)
    if boat:
        _sail_rig(model, graph, idx, roles)
    _roof_levers(model, graph, idx, classes, roles)
    _pivots(model, graph, idx, classes, roles)
    twins(model, idx, roles, detached)  # last: only what every other rule left loose
    return roles


PARKED_REASON = "a bicycle or motorcycle parked on or carried by the build: not its propulsion, a load [000 ch.H; §9.1]"


def _parked_steeds(model, idx: list[int], classes, roles: dict[int, RoleDecision]) -> None:
    """A one-piece bicycle or motorcycle parked on a build or carried by it is no propulsion of that build: it is
    a Steel Horse of its own only by itself, with its lamp or basket [000 ch.H] (roles.lone_steed)."""
    if lone_steed(model, idx, classes) is not None:
        return
    for i in idx:
        r = roles.get(i)
        if classes[i].word == "steed" and r is not None and r.source == "part" and r.role == "propulsion":
            roles[i] = RoleDecision("decoration", f"{describe(model.elements[i])[1]!r}: {PARKED_REASON}", "geometry")


PIVOT_REASON = "the pivot the {what} turns in on its pin or axle: an exposed pivot, a weak point [000 §7.1 " \
               "\"exposed hinges, turrets, pivots, or other moving attachment points\"]"
_PIVOT_WORDS = frozenset({"hole", "holes", "pin", "pins"})


def _pivots(model, graph: nx.Graph, idx: list[int], classes, roles: dict[int, RoleDecision]) -> None:
    """A small piece of the Structure with a pin or a hole (a Technic brick, a tile with a pin) that a moving
    part turns in through a turning connection (a door, a lid, a ship's wheel, a tipping barrel: Non-Structural
    or a device) is its pivot, an exposed moving attachment point: a weak point [000 §7.1]. Where the moving
    side is a joint part itself (a hinge, a turntable) that is the weak point already; wheels turn on their
    chassis."""
    els = model.elements
    inside = set(idx)
    for i in idx:
        r = roles.get(i)
        words = _words_of(els[i])
        if r is None or r.role != "structural" or r.source not in ("part", "topology") or \
                not words & _PIVOT_WORDS or "without" in words or not is_detail_sized(els[i]) or \
                is_connector(els[i]):
            continue  # (a "Tap without Hole" has none; a Technic pin is what turns, not what it turns in)
        moving = [j for j in graph.neighbors(i) if j in inside and graph.edges[i, j].get("movable") and
                  roles.get(j) is not None and roles[j].role in ("decoration", "device") and
                  roles[j].source not in ("annotation", "cli") and not is_connector(els[j]) and
                  classes[j].type != "ground"]  # a pin is no moving part; a wheel turns on its chassis
        if moving:
            what = describe(els[moving[0]])[1]
            roles[i] = RoleDecision("weak point", f"{r.reason.split(';')[0]}; {PIVOT_REASON.format(what=what)}",
                                    "geometry")


ROOF_LEVER_REASON = "a lever standing on the roof, out of the driver's reach, where a steering wheel or handlebars " \
                    "are the Controls: a light or an aerial, an ornament [000 §9.4, §7.1]"


def _roof_levers(model, graph: nx.Graph, idx: list[int], classes, roles: dict[int, RoleDecision]) -> None:
    """A control stick standing on top of the build (on its roof, nothing of it higher up around the stick's
    foot), where a steering wheel or handlebars steer the build, is no helm: old town sets stand a lever on a
    cab's roof between its lights as a beacon or an aerial [000 §9.4]. A stick in a cockpit (open or closed),
    or beside a console on a space buggy's deck, or a build's only Controls, stays its Controls."""
    els = model.elements
    sticks = [i for i in idx if classes[i].word == "control" and is_controls(roles[i], classes[i]) and
              roles[i].source == "part" and _words_of(els[i]) & _STICK_WORDS]  # not a console slope
    if not sticks:
        return
    others = [i for i in idx if i not in sticks and _words_of(els[i]) & HELM_WORDS]  # a wheel, handlebars
    if not others:
        return
    body = [i for i in idx if roles[i].role == "structural"]
    if not body:
        return
    lo, hi = element_boxes(model, body)
    done: set[int] = set()
    for i in sticks:
        foot = float(els[i].bbox_max[1])  # LDraw -Y is up: a piece's bottom is its largest Y
        c = (els[i].bbox_min + els[i].bbox_max) / 2
        # the body's pieces reaching the stick's footprint: the roof it stands on, and nothing above that
        over = (lo[:, 0] <= c[0]) & (hi[:, 0] >= c[0]) & (lo[:, 2] <= c[2]) & (hi[:, 2] >= c[2])
        if not over.any() or float(lo[over, 1].min()) < foot - ROOF_LEVER_TOL_LDU:
            continue  # nothing under it, or the body rises round it (a cockpit's sides, a canopy over it)
        if float(lo[:, 1].min()) < foot - ROOF_LEVER_TOL_LDU - ROOF_LEVEL_LDU:
            continue  # the build rises well above the roof it stands on: a deck inside, not the top
        done.add(i)
    # the stick fitted in a base judged so is that lever's too (it may lean out past the roof)
    done |= {i for i in sticks if any(j in done for j in graph.neighbors(i))}
    for i in done:
        roles[i] = RoleDecision("decoration", f"{classes[i].reason.split(':')[0]}: {ROOF_LEVER_REASON}", "geometry")


_STICK_WORDS = frozenset({"stick", "lever"})
ROOF_LEVER_TOL_LDU = 6.0  # the stick's foot sits on the roof's studs (4 LDU) with a margin
ROOF_LEVEL_LDU = 8.0  # ... on the top level of the build: nothing of it more than a plate above that roof


def _named_field_piece(model, graph: nx.Graph, idx: list[int], notes: dict[int, RoleNote],
                       roles: dict[int, RoleDecision], core: set[int], moving: set[int], whole: set[str]) -> None:
    """A build named as a whole for a weapon ("catapult.ldr", "ballista") in which no weapon part is found is that
    weapon on its carriage: what moves on its joints off the rigid core (a catapult's throwing arm and its
    counterweight, with what they carry) is the Weapon, the carriage its Structure [000 §8.1 Weapon Size: a
    catapult cranked by its crew]. Its joints stay weak points; a cannon part found keeps the rule out, and a
    "rocket" that flies on its own Thrusters is a craft."""
    note = next((notes[i] for i in idx if i in notes and notes[i].source in whole), None)
    if note is None or note.role != "weapon" or note.params.get("type") in ("rocket", "explosive") or \
            any(r.role == "weapon" or (r.role == "propulsion" and r.params.get("type") != "ground")
                for r in roles.values()):
        return  # a rocket or a bomb named so is the missile itself, and one that flies is a craft
    inside, arm = set(idx), {i for i in moving if i not in core}
    frontier = list(arm)
    while frontier:  # what the moving parts carry off the core: a bucket on the arm's hinge
        j = frontier.pop()
        for k in graph.neighbors(j):
            r = roles.get(k)
            if k in inside and k not in core and k not in arm and r is not None and \
                    r.role in ("decoration", "weak point", "structural") and r.source in ("topology", "part"):
                arm.add(k)
                frontier.append(k)
    # the arm's pieces judged by their place (its pivots stay weak points; a sword hung on it is no arm)
    arm = {i for i in arm if roles[i].source == "topology" and roles[i].role in ("decoration", "structural")}
    if not arm:
        return
    name = file_stem(note.source)
    params = {k: v for k, v in (("type", note.params.get("type", "")), ("name", note.params.get("name", ""))) if v}
    for i in arm:
        roles[i] = RoleDecision("weapon", f"{roles[i].reason.split(';')[0]}; moves on its joint off the carriage of "
                                          f"{name!r}, a build named a weapon with no weapon part in it: the weapon "
                                          "itself [000 §8.1]", "geometry", dict(params), f"field:{name}")


_CHASSIS_WORDS = frozenset({"brick", "plate", "tile", "slope"})  # what a wheel is fitted to, never set in it
FOOT_GAP_LDU = 8.0  # pieces of one foot lie within a plate of each other
FEET_ALIKE = 4.0  # the biggest foot's footprint is at most this many times the smallest's (a big and a small pair)
CRATE_MIN_LDU = 40.0  # a piece standing by itself on the floor is two studs wide or more each way


def _no_controls(roles: dict[int, RoleDecision], classes) -> None:
    """A robot or a beast acting by itself has no Controls: a control stick or a console on it (a Classic Space
    robot's arms and antennae are control sticks) is an ornament of it [000 §9.4, §10]; a rider's saddle stays
    the Controls of a mount."""
    for i, r in list(roles.items()):
        if r.role == "device" and r.params.get("type") == "controls" and classes[i].word == "control" and \
                r.source not in ("annotation", "cli"):
            roles[i] = RoleDecision("decoration", f"{r.reason.split(':')[0]}: on a Creature, which acts by itself "
                                                  "and has no Controls, an ornament of it [000 §9.4, §10]", "geometry")


def _walker_feet(model, graph: nx.Graph, idx: list[int], roles: dict[int, RoleDecision],
                 low: dict[int, float], ground: float, core: set[int]) -> bool:
    """A build with no propulsion found that stands on its feet walks: the pieces it stands on at the ground, in
    two or more separate feet alike, are its legs' ground propulsion [000 §9.1 Standard Propulsion: legs] (a micro
    walker's legs are clips, bars and ball joints that no joint rule reads as legs). The evidence that they are
    feet: the build is named for a walker or a beast ("AT-TE Walker", "Mini Robots"), or every foot hangs on a
    movable joint off a body that stands clear of the ground (knees and hips, where a stilt house stands on
    rigid posts and a building on its walls). True when it walks."""
    name = _walker_name(model, idx) or _beast_name(model, idx, walking=True)  # a brick-built beast walks too
    lifted = bool(core) and max(float(model.elements[i].bbox_max[1]) for i in core) < ground - LEG_LIFT_LDU
    if not name and not lifted:
        return False
    els = model.elements
    # not the walker's feet: a crate joined to it only because it touches a foot (no connector between them),
    # standing on the floor by itself on a footprint of two studs or more each way; a foot resting on
    # its leg with no connector found stays one
    held = nx.Graph()
    held.add_nodes_from(idx)
    held.add_edges_from((a, b) for a, b, k in graph.subgraph(idx).edges(data="kind")
                        if k not in TOUCH_KINDS)  # touching, no connector
    parts = sorted(nx.connected_components(held), key=len, reverse=True)
    apart: set[int] = set()
    for part in parts[1:]:
        base = [i for i in part if low[i] >= ground - GROUND_TOL_LDU]
        if base:
            b_lo, b_hi = element_boxes(model, base)
            if min(float(b_hi[:, k].max() - b_lo[:, k].min()) for k in (0, 2)) >= CRATE_MIN_LDU:
                apart |= part
    # (a build named a walker: within the mesh tolerance more, a micro walker standing a hair tilted lifts one
    # foot's plate 0.3 LDU; unnamed, the jointed legs a ship lands on must stand squarely to be a walker's)
    reach = GROUND_TOL_LDU + (MESH_TOL_LDU if name else 0.0)
    feet = [i for i in idx if low[i] >= ground - reach and i in roles and i not in apart and
            roles[i].role in ("structural", "decoration", "weak point") and roles[i].source in ("part", "topology")]
    groups = list(components_in(graph, feet)) if feet else []
    # feet apart from each other: pieces of one foot touch or lie within a plate of each other
    merged: list[list[int]] = []
    for g in groups:
        near = [m for m in merged if any(box_gap(els[a], els[b]) <= FOOT_GAP_LDU for a in g for b in m)]
        merged = [m for m in merged if m not in near] + [sorted(set(g) | {i for m in near for i in m})]
    if len(merged) < MIN_LEGS:
        return False
    lo, hi = element_boxes(model, [i for m in merged for i in m])
    area, k = [], 0
    for m in merged:  # each foot's footprint on the ground
        f_lo, f_hi = lo[k:k + len(m)].min(axis=0), hi[k:k + len(m)].max(axis=0)
        area.append(float((f_hi[0] - f_lo[0]) * (f_hi[2] - f_lo[2])))
        k += len(m)
    if max(area) > FEET_ALIKE * min(area):
        return False  # legs come alike: a crate standing against one foot makes that no foot
    if not name and (len(groups) < MIN_JOINTED_FEET or not _jointed_to(graph, idx, merged, core) or
                     not _stands_over(model, core, merged)):
        return False  # a foot built rigidly into the body is a post or a wall's footing, not a leg; feet off to
        # one side of the body (a solar wing's tip) carry nothing; two jointed ends of a frame are a trestle's
    whose = f"a build named a walker ({name!r})" if name else \
        "a jointed leg (it hangs on a movable joint off a body that stands clear of the ground)"
    for m in merged:
        for i in m:
            roles[i] = RoleDecision("propulsion", f"{roles[i].reason.split(';')[0]}; a foot of {whose}, standing on "
                                                  f"the ground beside {len(merged) - 1} more: its legs, ground "
                                                  "propulsion [000 §9.1 Standard Propulsion: legs]",
                                    "geometry", {"type": "ground"})
    return True


MIN_JOINTED_FEET = 3  # unnamed, a build walks on three feet or more: two hinged ends on the ground make a trestle


def _jointed_to(graph: nx.Graph, idx: list[int], feet: list[list[int]], core: set[int]) -> bool:
    """Every foot is held to the ``core`` and only through a movable joint (a knee, a hip, a clip on a bar): it
    is in the core's piece of the build, but not in its rigid piece."""
    sub = graph.subgraph(idx)
    rigid = nx.Graph()
    rigid.add_nodes_from(idx)
    rigid.add_edges_from((a, b) for a, b, mv in sub.edges(data="movable") if not mv)
    anchor = next(iter(core))
    whole, stiff = nx.node_connected_component(sub, anchor), nx.node_connected_component(rigid, anchor)
    return all(set(f) <= whole and not set(f) & stiff for f in feet)


def _stands_over(model, core: set[int], feet: list[list[int]]) -> bool:
    """The body stands on its feet: seen from above, its centre (its pieces' box centres, weighted by their box
    volumes) lies within the outline its feet span, as a standing walker's must."""
    from scipy.spatial import ConvexHull, QhullError

    lo, hi = element_boxes(model, sorted(core))
    vol = np.prod(np.maximum(hi - lo, 1.0), axis=1)
    centre = (((lo + hi) / 2)[:, [0, 2]] * vol[:, None]).sum(axis=0) / vol.sum()
    f_lo, f_hi = element_boxes(model, [i for f in feet for i in f])
    corners = np.concatenate([np.stack([a[:, 0], b[:, 2]], axis=1) for a in (f_lo, f_hi) for b in (f_lo, f_hi)])
    try:
        hull = ConvexHull(corners)
    except QhullError:  # the feet on one line span no outline
        return False
    return bool(np.all(hull.equations[:, :2] @ centre + hull.equations[:, 2] <= MESH_TOL_LDU))


_AIR_ENGINE_WORDS = {"propeller", "rotor", "jet", "engine"}  # what drives a seaplane through the air


def _seaplane(model, idx: list[int], classes) -> bool:
    """A boat hull with wing parts sticking out past it, sideways, and a propeller, a jet or a rotor is a seaplane
    or a flying boat: it flies, floating on its hull or floats when it lands (5935's Island Hopper stands on two
    "Boat Base 6 x 6" floats; a car or a starfighter with a "Boat Bow Plate" for its nose flies on its jets). A
    ship's "Wing" plates laid as its deck lie over its hull, and a ship with masts or sails is a sailing ship."""
    hull = [i for i in idx if classes[i].word == "boat"]
    wings = [i for i in idx if classes[i].word == "wing"]
    if not hull or not wings or not any(classes[i].role == "propulsion" and classes[i].word in _AIR_ENGINE_WORDS
                                        for i in idx) or \
            any(classes[i].word in ("mast", "sail") or model.elements[i].category.lower() == "sheet fabric"
                for i in idx):
        return False
    lo, hi = element_boxes(model, hull)
    return any(_outside_share(model, i, lo, hi) >= AIRFOIL_OUT for i in wings)



def _fitted_in_named(model, graph, idx: list[int], classes, roles: dict[int, RoleDecision],
                     named_prop: set[int]) -> None:
    """A submodel named for a wing is evidence, not the verdict, for what is built on it: the gun barrels and the
    engines a flyer's wing carries are what they are, as they would be on its hull (an X-wing's four laser
    cannons and four engines are its wings' submodels' bricks) [000 §8.2, §9.3]. Judged as the flyer's own bricks
    would be, on a copy; only what becomes a gun or a Thruster leaves the wing."""
    trial = dict(roles)
    for i in named_prop:
        c = classes[i]
        trial[i] = RoleDecision("decoration" if c.role == "decoration" else "structural", c.reason, "part")
    nozzles = _nozzles(model, graph, idx, classes, trial, True)
    _engine_pods(model, idx, trial, True)
    _barrels(model, graph, idx, classes, trial, True, nozzles)
    _engine_assemblies(model, graph, idx, classes, trial, True)
    for i in named_prop:
        t = trial[i]
        if t.role == "weapon" or (t.role == "propulsion" and t.params.get("type") == "thrust"):
            roles[i] = RoleDecision(t.role, f"{t.reason}; on {roles[i].reason.split('(', 1)[-1].rstrip(')')}, "
                                            "but what it carries is what it is", t.source, dict(t.params), t.group)


def _classify_all(model) -> dict[int, PartClass]:
    """``classify_part`` of every element, once per distinct (part, description, category, hose, LDraw type):
    it reads nothing else, and a PartClass is frozen, so elements of one part share it (speed only)."""
    seen: dict[tuple, PartClass] = {}
    out: dict[int, PartClass] = {}
    for e in model.elements:
        org = model.parts.get(e.part).org_type if e.part in model.parts else ""
        key = (e.part, e.description, e.category, bool(getattr(e, "hose", False)), org)
        c = seen.get(key)
        if c is None:
            c = seen[key] = classify_part(e, org)
        out[e.index] = c
    return out


def find_creations(model, graph: nx.Graph, annotations: Annotations | None = None,
                   overrides: list[str] | None = None, *,
                   hull_cache: dict | None = None, ldu_per_inch: float = LDU_PER_INCH,
                   interior_cache: dict | None = None, rules: Rules | None = None,
                   diagnostics: list | None = None) -> list[Creation]:
    """Minifigs, then the connected bodies of everything else, each with roles for all its elements.

    ``rules``: the Rules object whose minifig stats the minifig reasons quote (the 2010 tables when None).

    ``hull_cache``: per-part hull vertices for ``measure_size`` (``stats.AnalysisCache.hulls``), or None.
    ``interior_cache``: enclosure results for the interior test (``stats.AnalysisCache.interiors``), or None.
    """
    ann = annotations if annotations is not None else parse_annotations(model)
    classes = _classify_all(model)
    notes = _element_notes(model, ann, overrides, classes)
    # an explicitly annotated minifig part is a part of the model; a submodel or group name ("cannon.ldr" with
    # its gunner inside) does not turn a minifig into bricks
    annotated_non_crew = {i for i, n in notes.items() if n.role and n.role != "crew" and
                          n.origin in ("ROLE", "BEGIN", "cli")}
    for i in annotated_non_crew:  # an annotated minifig part is a part of the model, not a minifig
        if classes[i].minifig_body:
            classes[i] = PartClass(None, classes[i].reason)
    creations: list[Creation] = []
    figs = _carved_figures(model, graph, _find_minifigs(model, graph, classes), classes)
    in_fig: set[int] = set()
    for k, fig in enumerate(figs, start=1):
        c = _minifig_creation(model, fig, classes, k, rules if rules is not None else _tables.load_rules("2010"))
        creations.append(c)
        in_fig.update(c.elements)
    rest = [e.index for e in model.elements if e.index not in in_fig and not e.missing and not is_marker(e)]
    els = model.elements
    for i in rest:  # a lone head on a post (a skull, a bust): no figure's, a prop (as in _carved_figures), unless
        # bricks stand on it (a head as a round 1 x 1 brick); a monkey's arms and hands are fitted to the monkey
        if classes[i].minifig_body == "head" and not any(
                classes[j].role in (None, "structural") and not classes[j].accessory and not classes[j].minifig_body
                and _rests_on(els[j], els[i], _up_axis(els[i])) for j in graph.neighbors(i)):
            classes[i] = PartClass("decoration", f"{classes[i].reason}; a head without a body: a prop, "
                                                 "decoration [000 §7.1]", word="ornament")
    # animals (a horse, a parrot on a shoulder, a monkey in the rigging) are Creatures of their own [000 ch.H],
    # [000 §10.3 Vermin], with what is fitted to them and nothing else (a saddle, a bridle)
    explicit = {i for i, n in notes.items() if n.role and n.origin in ("ROLE", "BEGIN", "cli")}
    _animal_ornaments(model, graph, [i for i in rest if classes[i].animal and i not in explicit], classes)
    beasts = [i for i in rest if classes[i].animal and i not in explicit]
    rest_set = set(rest)
    in_beast: set[int] = set()
    for comp in components_in(graph, beasts):
        body = sorted(comp)
        if not any(classes[i].role == "structural" for i in body):
            continue  # a saddle on a rack is no horse
        gear = _fitted(graph, comp, rest_set, in_beast, explicit, classes)
        roles = {i: RoleDecision(classes[i].role or "structural", f"{classes[i].reason} [000 §10.1]", "part",
                                 {"type": classes[i].type} if classes[i].type else {}) for i in body}
        roles.update({j: RoleDecision("decoration", f"{classes[j].reason}: a minifig limb the animal is built with, "
                                                    "a free Non-Structural element of it [000 §7.1]", "part")
                      if classes[j].minifig_body else
                      RoleDecision(classes[j].role or "decoration", f"fitted to the animal; {classes[j].reason}",
                                   "part", {"type": classes[j].type} if classes[j].type else {})
                      for j in gear})
        for j in gear:  # a rifle clipped to the saddle is stowed, not the horse's weapon
            if roles[j].role == "weapon" and classes[j].accessory and classes[j].type not in MOUNTED_WEAPON_TYPES:
                roles[j] = RoleDecision("decoration", _stowed_reason(classes[j]), "geometry")
        creations.append(Creation("", "creature", body + gear, [i for i in body if roles[i].role == "structural"],
                                  roles, kind_reason="an animal is a Creature of its own [000 §10.1]"))
        in_beast.update(body + gear)
    rest = [i for i in rest if i not in in_beast]
    # CREATION annotations gather their submodel's elements
    groups: list[tuple[list[int], str]] = []
    claimed: set[int] = set()
    for fname, cn in ann.creations.items():
        if fname == model.main.name:
            continue
        members = [i for i in rest if fname in model.elements[i].submodel_path and i not in claimed]
        if members:
            groups.append((members, fname))
            claimed.update(members)
    remaining = [i for i in rest if i not in claimed]
    floor = max((model.elements[i].bbox_max[1] for i in remaining), default=0.0)  # -Y is up
    scenery = {i for i in remaining if _scenery_reason(model, classes[i], model.elements[i], floor) and
               not (notes.get(i) and notes[i].role and not (notes[i].origin == "submodel" and
                                                             is_rail(model.elements[i])))}
    # (a submodel's name is evidence, the part decides: rails in a "track" submodel are no treads)
    # a large plate at the ground built into a craft's own submodel, with its cockpit, is its floor, not the ground
    # ... and so is a plate that one build covers end to end, standing on it alone (a landspeeder on its 6 x 12)
    grounds = {i for i in scenery if ground_plate(model.elements[i], floor)}
    if grounds:
        loose = set(remaining) - scenery
        # what can stand on a ground plate: the builds of the rest, found once for every plate
        builds = [set(c) for c in components_in(graph, [j for j in loose if not classes[j].minifig_body])]
        scenery -= {i for i in sorted(grounds) if craft_floor(model, i, classes) or
                    covered_floor(model, graph, i, builds, grounds)}
    comps = [sorted(c) for c in components_in(graph, [i for i in remaining if i not in scenery])]
    comps, props = _loose_props(model, graph, comps, classes, floor)
    against: set[int] = set()
    comps, lying = _lying_on_scenery(model, graph, comps, scenery, classes, against)
    lying |= props
    comps = _cargo_on_animals(model, comps, [c for c in creations if c.kind == "creature"], classes)
    scenery |= lying
    for comp in components_in(graph, scenery):
        groups.append((sorted(comp), "\x00scenery"))
    blocks_of: dict[int, list[list[int]]] = {}  # a building in blocks: its roles are decided block by block
    for blocks in _one_build(model, graph, _docked(model, graph, _join_resting(model, graph, comps, classes),
                                                   classes, in_fig), classes, scenery):
        comp = sorted(i for b in blocks for i in b)
        if len(blocks) > 1:
            blocks_of[comp[0]] = blocks
            groups.append((comp, ""))
            continue
        stand = _display_stand(model, graph, comp, classes)
        if stand:
            groups.append((stand, "\x00stand"))
            comp = [i for i in comp if i not in set(stand)]
        groups.append((comp, ""))
    groups.sort(key=lambda g: (-len(g[0]), g[0][0]))
    main_note = ann.creations.get(model.main.name)
    for k, (idx, fname) in enumerate(groups):
        if fname in ("\x00scenery", "\x00stand"):
            roles = {i: RoleDecision("structural" if structural_kind(classes[i], model.elements[i]) else
                                     "decoration",
                                     (f"{classes[i].reason}; {STAND_REASON}" if fname == "\x00stand" else
                                      _scenery_reason(model, classes[i], model.elements[i], floor) or
                                      f"{classes[i].reason}; lies on the scenery, attached to nothing else: "
                                      "scenery [000 §7.1]"), "part") for i in idx}
            _details(model, graph, idx, classes, roles)
            creations.append(Creation("scenery", "scenery", sorted(idx), sorted(idx), roles,
                                      kind_reason="base plates, display stands and squad plates are scenery: "
                                                  "listed, not priced [000 §7.1 Base Cost]"))
            continue
        cn = ann.creations.get(fname) if fname else (main_note if k == 0 and main_note else None)
        params = dict(cn.params) if cn else {}
        on_ground = any(j in scenery for i in idx for j in graph.neighbors(i))
        rooted = on_ground and _rooted(model, graph, idx, scenery)
        roles = {}
        for block in blocks_of.get(idx[0], [idx]) if not fname else [idx]:
            roles.update(_decide_roles(model, graph, block, classes, notes, hull_cache, ldu_per_inch,
                                       interior_cache, on_ground, rooted))
        for i in against.intersection(idx):
            r = roles[i]
            roles[i] = RoleDecision(r.role, f"{r.reason}; built against the building on the ground (a threshold, a "
                                             "wall stub): part of it [000 §7.1]", r.source, r.params, r.group)
        kind, why = _kind(model, idx, roles, classes, params.get("kind"), rooted)
        robot = kind == "creature" and bool(_robot_name(model, idx))  # a Programmed Mind [000 §10.1]
        if kind == "creature" and not params.get("kind") and (robot or _beast_name(model, idx)):
            _no_controls(roles, classes)
        if idx[0] in blocks_of and not fname:
            why = f"{why}; {len(blocks_of[idx[0]])} blocks of one submodel on one base plate: one building " \
                  "[000 §7.1 Structure]"
        sub = fname or _common_submodel(model, idx)
        name = params.get("name") or file_stem(sub)
        if not name:  # the set's name (or its file's on disk) for its first build, unless neither says anything
            # ("4555 - main" in "4555-1.mpd") and most of the build is one submodel: then that one's (a car with
            # the container it carries, placed apart)
            first = file_name_for(model, file_stem(model.name)) if k == 0 else ""
            said = bool(first) and not set(name_words(first)) <= GENERIC_NAMES
            name = first if said else (file_stem(mostly_in(model, idx) or driven_from(model, idx, roles, classes))
                                       or first)
        if not params.get("name") and name and name.lower() == file_stem(model.main.name).lower():
            name = file_name_for(model, name)  # "8099 - main" is shown by the name it has on disk
        if fname and diagnostics is not None:
            _floating(model, graph, idx, name, diagnostics)
        towed = towed_reason(model, idx, roles, classes) if kind == "vehicle" and not params.get("kind") else ""
        c = Creation(name, kind, sorted(idx), [], roles, kind_reason=why, annotation=params,
                     annotation_source=cn.source if cn else "", submodel=sub,
                     mind="programmed" if robot else "", towed=towed)
        c.structural_elements = sorted(i for i in idx if roles[i].role == "structural")
        creations.append(c)
    _manned_oars(model, graph, creations, classes)
    _motor_boats(model, creations, classes)
    _name_minifigs(model, ann, [c for c in creations if c.kind == "minifig"])
    for c in creations:
        if c.kind != "minifig" and c.annotation.get("side"):
            c.side = c.annotation["side"]
    _unique_names(model, creations)
    return creations


ROWBOAT_MAX_ELEMENTS = 60  # a build a rower sits in is a boat only when small: a dock is no boat
ROWBOAT_REASON = "a minifig sits in it with oars in his hands: the boat he rows, Standard water propulsion " \
                 "[000 §9.1 Propulsion: manned oars]"


def _manned_oars(model, graph: nx.Graph, creations: list[Creation], classes) -> None:
    """A minifig aboard a boat with oars in his hands rows it: "on a seafaring craft, these might be sails,
    sternwheels, or manned oars" [000 §9.1 Propulsion; Field Construction], Standard Propulsion (oars) [000 §9.1].
    The oars stay in the minifig's creation, but while he rows their role is the boat's water propulsion (not
    his Minifig-Sized Tools [000 §3.4]: they are priced once, on the boat), and the boat lists them
    (``Creation.rowed``) so its card has the Move. Aboard: the minifig touches the boat (sits in it,
    stands on its deck); a boat: a hull part at its bottom or water propulsion of its own, or a small build with
    nothing else to drive it, on no scenery, that he sits in (``ROWBOAT_REASON``)."""
    boats = [c for c in creations if c.kind == "vehicle" and c.annotation.get("kind", "vehicle") == "vehicle" and
             (_boat_hull(model, c.elements, classes) or any(r.role == "propulsion" and r.params.get("type") == "water"
                                                             for r in c.roles.values()))]
    # a small build with nothing that drives it, standing on no scenery, that a minifig sits in with oars in his
    # hands is the boat he rows (a kayak of bricks has no hull part and its file may name nothing)
    ground = {i for c in creations if c.kind == "scenery" for i in c.elements}
    hulls = [c for c in creations if c.kind == "building" and not c.annotation.get("kind") and
             len(c.structural_elements) <= ROWBOAT_MAX_ELEMENTS and
             not any(r.role == "propulsion" for r in c.roles.values()) and
             not any(j in ground for i in c.elements for j in graph.neighbors(i))]
    if not boats and not hulls:
        return
    owner = {i: b for b in boats + hulls for i in b.elements}
    for f in creations:
        if f.kind != "minifig":
            continue
        oars = [i for i in f.elements if classes[i].word == "oar" and f.roles[i].role == "device" and
                f.roles[i].source != "annotation"]
        if not oars:
            continue
        body = [i for i in f.elements if classes[i].minifig_body]
        aboard = Counter(id(owner[j]) for i in body for j in graph.neighbors(i) if j in owner and
                         (owner[j].kind == "vehicle" or _seated(model, f.sections.get("legs") or [])))
        if not aboard:
            continue
        boat = next(b for b in boats + hulls if id(b) == aboard.most_common(1)[0][0])
        if boat.kind == "building":
            boat.kind, boat.kind_reason = "vehicle", ROWBOAT_REASON
        for i in oars:
            r = RoleDecision("propulsion", f"{classes[i].reason}; in the hands of a minifig aboard "
                                           f"{repr(boat.name) if boat.name else 'the boat'}: its manned oars, "
                                           "Standard water propulsion [000 §9.1]", "topology",
                             {"type": "water"})
            f.roles[i] = r
            boat.rowed[i] = r


def _motor_boats(model, creations: list[Creation], classes) -> None:
    """A boat with a helm (a steering wheel, a control stick) and nothing else that drives it (no oars, sails,
    propeller, nor oars in its crew's hands) is a motorboat, its motor in the hull: the hull is its Standard water
    propulsion [000 §9.1], on its card (``Creation.motor``) while its pieces stay its Structure.
    A rowing boat with neither oars nor helm gets no Move."""
    for c in creations:
        if c.kind != "vehicle" or c.rowed or any(r.role == "propulsion" for r in c.roles.values()) or \
                not _boat_reason(model, c.elements, classes):
            continue
        helm = [i for i in c.elements if is_controls(c.roles[i], classes[i]) or
                _words_of(model.elements[i]) & HELM_WORDS]  # a jet ski's handlebars steer it too
        els = model.elements
        named = motor_boat_name(model, c.elements) if not helm else ""
        if not helm and not named:
            continue
        hull = [i for i in c.elements if classes[i].word == "boat" and c.roles[i].role == "structural"]
        if not hull:  # a boat of bricks: what its bottom is made of, in the water
            bottom = max(float(els[i].bbox_max[1]) for i in c.elements)
            hull = [i for i in c.structural_elements if float(els[i].bbox_max[1]) >= bottom - GROUND_TOL_LDU]
        what = f"a boat with a helm ({describe(els[helm[0]])[1]})" if helm else \
            f"a boat named a motor ship ({file_stem(named)!r})"
        for i in hull:
            c.motor[i] = RoleDecision("propulsion", f"{describe(els[i])[1]!r}: the hull of {what} and no oars, "
                                                    "sails or propeller: its motor drives it, Standard water "
                                                    "propulsion [000 §9.1] (annotate its propulsion to change "
                                                    "this)", "topology", {"type": "water"})


def _floating(model, graph: nx.Graph, idx: list[int], name: str, diagnostics: list) -> None:
    """Inside an annotated CREATION, parts attached to nothing stay in it, with a warning naming them."""
    from ..errors import Diagnostic

    comps = sorted((sorted(c) for c in components_in(graph, idx)), key=len, reverse=True)
    if len(comps) < 2:
        return
    main = comps[0]
    lo, hi = element_boxes(model, main)
    for c in comps[1:]:
        gap = min(float(np.linalg.norm(np.maximum(0.0, np.maximum(lo - model.elements[i].bbox_max,
                                                                  model.elements[i].bbox_min - hi)), axis=1).min())
                  for i in c)
        f, _, ln = model.elements[c[0]].source.rpartition(":")
        shown = ", ".join(map(str, c[:8])) + (" …" if len(c) > 8 else "")
        diagnostics.append(Diagnostic(f, int(ln) if ln.isdigit() else 0,
                                      f"floating: {len(c)} element(s) of creation {name!r} ({shown}) attach to "
                                      f"nothing, {gap:.0f} LDU from the rest: kept in the creation"))
