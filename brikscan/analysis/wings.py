"""Wings that work as wings: flat parts and wing sections sticking out of a flyer's body as airfoils are Forward
Flight; built into a hull, a roof or a rock they stay Structure [000 §9.2 Forward Flight; issue 8].
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..geometry.boxes import elements_box
from ..geometry.units import LDU_PER_STUD
from .annotations import file_stem, letter_wing
from .details import _detail_part
from .element_shape import MESH_TOL_LDU, _crew_place
from .mounts import GROUND_TOL_LDU
from .ground import rolls_on_wheels, rotor_flies
from .measure import element_boxes, measure_size
from .naming import _split_words, _stem_words
from .roles import PartClass, RoleDecision, structural_kind


FLAT_MAX_LDU = 12.0  # a plate with its studs: thinner than this is flat (a wing, a deck, a roof plate)
WING_MIN_BODY = 3  # bricks and slopes a flyer's body needs before its flat parts can be told to be wings
AIRFOIL_OUT = 0.5  # share of a flat part's footprint outside the body's for it to stick out as an airfoil
WINGS_OUT_SHARE = 1 / 3  # share of a piece's "Wing" parts that stick out for them to be its wings, not its plating


def _outside_share(model, i: int, lo: np.ndarray, hi: np.ndarray) -> float:
    """Share of element ``i``'s ground footprint (a 5x5 grid over its X-Z box) outside every box ``lo``-``hi``."""
    e = model.elements[i]
    xs = np.linspace(e.bbox_min[0], e.bbox_max[0], 5)
    zs = np.linspace(e.bbox_min[2], e.bbox_max[2], 5)
    pts = np.array([(x, z) for x in xs for z in zs])
    if not len(lo):
        return 1.0
    inside = ((pts[:, None, 0] >= lo[None, :, 0] - 1) & (pts[:, None, 0] <= hi[None, :, 0] + 1) &
              (pts[:, None, 1] >= lo[None, :, 2] - 1) & (pts[:, None, 1] <= hi[None, :, 2] + 1)).any(axis=1)
    return float(1.0 - inside.mean())


def _flyer_body(model, idx: list[int], classes) -> tuple[list[int], np.ndarray, np.ndarray]:
    """The body a wing sticks out of: the bricks and slopes of ``idx`` (not its flat parts, wings or tails), and
    their boxes."""
    els = model.elements
    body = [i for i in idx if structural_kind(classes[i], els[i]) and
            float(els[i].bbox_max[1] - els[i].bbox_min[1]) > FLAT_MAX_LDU and classes[i].word not in ("wing", "tail")]
    lo, hi = element_boxes(model, body)
    return body, lo, hi


def _wing_assembly(model, idx: list[int], i: int) -> set[int]:
    """The elements of the sub-assembly the builder made of wing ``i`` (its innermost submodel, when that is
    named a wing: "Wing Left"), or an empty set: the cannons and braces built on a wing are the wing's, not the
    body it sticks out of (7130's snowspeeder carries its gun housings on its wings)."""
    path = model.elements[i].submodel_path
    words = [w for w in _split_words(file_stem(path[-1]).lower()) if w] if path else []
    if not any(w in ("wing", "wings") and not letter_wing(words, k) for k, w in enumerate(words)):
        return set()  # ("X-Wing" names the craft)
    own = {j for j in idx if path[-1] in model.elements[j].submodel_path}
    return own if 2 * len(own) < len(idx) else set()


_FOOT_WORDS = frozenset({"foot", "feet"})


def _named_foot(e) -> bool:
    """The element sits in a submodel whose name calls it a foot ("6876 - Vehicle - Feet - Foot 1")."""
    return bool(e.submodel_path) and bool(_FOOT_WORDS & _stem_words(e.submodel_path[-1]))


def _airfoils(model, idx: list[int], classes, roles: dict[int, RoleDecision], boat: bool,
              fixed: bool = False, aboard: bool = False, named: bool = False) -> None:
    """Wings are propulsion only where they work as wings [000 §9.1 Forward Flight]: a flat part that sticks out
    of the body (the footprint of its bricks and slopes) on a creation that flies. Built into a hull, a roof or a
    rock, a "Wing" plate is Structure; so is any on a build ``fixed`` onto a base plate with no engine: it cannot
    take off. Plain plates sticking out are wings only on a flyer that does not stand on its wheels. ``named``:
    the build's own submodel names a craft that flies (a micro-scale "TIE Interceptor" has no cockpit to find)."""
    if boat:
        return
    els = model.elements
    h = {i: float(els[i].bbox_max[1] - els[i].bbox_min[1]) for i in idx}
    inside = set(idx)
    wings = [i for i in idx if classes[i].word == "wing" and i in roles and roles[i].source == "part"]
    # a Wing plate the build stands on, in a sub-assembly its builder named a foot, is a foot: its legs' ground
    # propulsion [000 §9.1 Standard Propulsion: legs] (6876's walker stands on two Wing plates)
    ground = max(float(els[i].bbox_max[1]) for i in idx)
    for i in [i for i in wings if _named_foot(els[i]) and float(els[i].bbox_max[1]) >= ground - GROUND_TOL_LDU]:
        roles[i] = RoleDecision("propulsion", f"{classes[i].reason.split(':')[0]}: a foot the build stands on, in "
                                              f"the sub-assembly {file_stem(els[i].submodel_path[-1])!r} named a "
                                              "foot: a leg's, ground propulsion [000 §9.1 Standard Propulsion: "
                                              "legs]", "geometry", {"type": "ground"})
        wings.remove(i)
    body, lo, hi = _flyer_body(model, idx, classes)
    out = {i: _outside_share(model, i, lo, hi) for i in wings}
    for i in wings:  # a wing the builder made a sub-assembly of sticks out of the body without its own bricks
        own = _wing_assembly(model, idx, i)
        if own and out[i] < AIRFOIL_OUT:
            rest = [k for k, j in enumerate(body) if j not in own]
            out[i] = _outside_share(model, i, lo[rest], hi[rest])
    def open_(i: int) -> bool:  # not decided yet, or only "a building element" by its part
        return i not in roles or (roles[i].role == "structural" and roles[i].source == "part")

    flat = [i for i in idx if open_(i) and structural_kind(classes[i], els[i]) and h[i] <= FLAT_MAX_LDU and
            classes[i].word in ("plate", "wedge", "tile", "slope") and not _detail_part(model, els[i])]
    # (a lamp, a handle or a grille on a wing is a detail on it, not a piece of the airfoil)
    # a flyer: it has thrust or flight, or a wing part sticking out. Flat parts sticking out alone are no
    # evidence: city skylines, quays and roofs have them too (a starfighter without jet or wing parts needs an
    # annotation: 0 !BRIKSCAN ROLE propulsion type=thrust on its engines)
    engines = any(r.role == "propulsion" and r.params.get("type") in ("thrust", "flight") for r in roles.values())
    # with no engine, wings sticking out make a flyer only with a pilot or a place for one (a minifig aboard, a
    # glider's cockpit, a seat, controls) [000 §9.1, §9.4], or a flyer's name: a skyline's wedge-plate towers
    # have none
    crewed = aboard or named or _crew_place(classes, idx)
    sticks_out = any(v >= AIRFOIL_OUT for v in out.values())
    # a build standing on its wheels flies only on a pair of wings reaching out past both its sides (a plane on
    # its landing gear); a Wing plate sticking out of a buggy's nose flies nothing
    rolls = rolls_on_wheels(model, idx, roles)
    paired = _paired(model, [i for i in wings if out[i] >= AIRFOIL_OUT], lo, hi) or \
        (engines and _spanning(model, [i for i in flat if _broad(els[i])], lo, hi))
    # wings the builder named or annotated ("left_wing.ldr": Forward Flight by its name) fly the build as wing
    # parts sticking out do: a plane on its landing gear with its wings built of plain plates
    winged = any(r.role == "propulsion" and r.params.get("type") == "forward_flight" and
                 r.source in ("annotation", "cli") for j, r in roles.items() if j in inside)
    # a craft a rotor lifts (or that hovers), with no wings, stands on its wheels as a plane on its landing gear:
    # they buy no ground Move (6482's rescue helicopter, not in ../shared, bought a 10" one), and its tail fin
    # steadies it, no airfoil: the rotor flies it [000 §9.1 Flight] (a winged craft's fins stay airfoils)
    rotor = not paired and not winged and any(r.role == "propulsion" and r.params.get("type") == "flight"
                                              for j, r in roles.items() if j in inside)
    rover = rolls and not paired and not winged and not rotor
    flies = engines or winged or (crewed and (paired if rolls else sticks_out))
    fixed = fixed and not engines  # a ship with engines parked on a base plate still flies
    # a helicopter's main rotor spanning wider than its wing parts flies it: they are stubs or its hull's plates,
    # no airfoils [000 §9.1 Flight] (6515's Wing 3 x 4 plates under its cockpit, not in ../shared; 75144's
    # snowspeeder's small "rotor" airbrakes span less than its wings, which stay airfoils)
    hover = bool(wings) and rotor_flies(model, classes, roles, wings)
    for i in wings:
        if fixed or out[i] < AIRFOIL_OUT or not flies or rover or hover:
            why = "the build is fixed onto a base plate: it cannot take off;" if fixed else \
                f"built into the body ({out[i]:.0%} of it outside):" if out[i] < AIRFOIL_OUT else \
                "nothing could fly it (no engine, no one aboard, no cockpit, seat or controls, no flyer's name):" \
                if not flies else "the build flies on a rotor spanning wider than its wings: a stub or a hull " \
                                  "plate, no airfoil;" if hover else \
                "the build stands on its wheels with no pair of wings reaching out past its sides: a panel, no " \
                "airfoil;"
            del roles[i]  # decided by the topology: Structure where it is built in
            classes[i] = PartClass("structural", f"{classes[i].reason}, but {why} Structure, not a wing [000 §7.1]",
                                   word="plate")
    for i in wings:
        if i in roles:
            r = roles[i]
            roles[i] = RoleDecision(r.role, f"{r.reason}: sticks out of the body of a flyer ({out[i]:.0%} of it "
                                             "outside), an airfoil", "geometry", dict(r.params))
    if not flies or fixed:
        return
    # a build standing on its wheels with engines and no pair of wings is a rover with jet boosters: it drives,
    # and its Thrusters push it along the ground [000 §9.1, §9.3]; its fins and panels are no airfoils
    flat_out = {i: _outside_share(model, i, lo, hi) for i in flat}  # only a flyer's (the slow part on a city)
    # plates stick out of a body only where there is a body: a hull built of plates alone has no wings to tell
    # apart, so most of the flat parts sticking out means the hull itself (issue 8)
    winglike = [i for i, v in flat_out.items() if v >= AIRFOIL_OUT]
    if len(body) < WING_MIN_BODY or len(winglike) * 2 > len(flat) + len(body):
        flat_out = {}
    elif any(r.role == "propulsion" and r.params.get("type") == "flight" for r in roles.values()):
        # it flies on a rotor (or hovers) [000 §9.1 Flight]: plates sticking out are its stubs and skids, no wings
        for i in winglike:
            classes[i] = replace(classes[i], reason=f"{classes[i].reason}; sticks out of the body, but the build "
                                                    "flies on its rotor: a stub, not a wing [000 §9.1]")
        flat_out = {}
    elif rover:
        # it stands on its wheels [000 §9.1]: a rover with jet boosters is a ground vehicle, its panels no wings
        for i in winglike:
            classes[i] = replace(classes[i], reason=f"{classes[i].reason}; sticks out of the body, but the build "
                                                    "stands on its wheels: a panel, not a wing [000 §9.1]")
        flat_out = {}
    if rolls and not rover:
        _landing_gear(roles)
    for i in idx:
        c = classes[i]
        if not open_(i) or not structural_kind(c, els[i]):
            continue
        if c.word == "tail" and not rover and not rotor:
            roles[i] = RoleDecision("propulsion", f"{c.reason}; a tail fin of a flyer: an airfoil, Forward Flight "
                                                  "[000 §9.1]", "geometry", {"type": "forward_flight"})
        elif i in flat_out and (share := flat_out[i]) >= AIRFOIL_OUT and not _broad(els[i]):
            classes[i] = replace(c, reason=f"{c.reason}; sticks out of the body ({share:.0%} outside it), but "
                                           f"fewer than {WING_MIN_STUDS} studs: a strut or a trim, not a wing "
                                           "[000 §9.1]")
        elif i in flat_out and (share := flat_out[i]) >= AIRFOIL_OUT:
            roles[i] = RoleDecision("propulsion", f"{c.reason}; a flat part sticking out of the body of a flyer "
                                                  f"({share:.0%} outside it): a wing, Forward Flight [000 §9.1]",
                                    "geometry", {"type": "forward_flight"})


WING_MIN_STUDS = 3  # a flat part of fewer studs (a 1 x 1, a 1 x 2) is a strut, a jumper or a trim, no airfoil


def _broad(element) -> bool:
    """A flat part of three studs or more can be a wing (or a piece of a wing built of 1 x N plates); a 1 x 2 plate
    sticking out holds an engine out on its end or trims the hull (7110's landspeeder's engine struts) [000 §9.1]."""
    size = element.bbox_max - element.bbox_min
    return float(size[0] * size[2]) >= WING_MIN_STUDS * LDU_PER_STUD ** 2 - MESH_TOL_LDU * LDU_PER_STUD


def _paired(model, wings: list[int], lo: np.ndarray, hi: np.ndarray) -> bool:
    """Among ``wings`` one sticks out on each side of the body (boxes ``lo``-``hi``) across one horizontal axis,
    more across it than along the other: a pair of wings, not a plate sticking out of a buggy's nose (its left and
    right nose wedges stick out forward more than sideways)."""
    if len(wings) < 2 or not len(lo):
        return False
    els = model.elements
    c = (lo.min(axis=0) + hi.max(axis=0)) / 2
    d = np.array([(els[i].bbox_min + els[i].bbox_max) / 2 - c for i in wings])
    for k, other in ((0, 2), (2, 0)):
        across = np.abs(d[:, k]) >= np.abs(d[:, other])
        if np.any(across & (d[:, k] > 1)) and np.any(across & (d[:, k] < -1)):
            return True
    return False


SPAN_OUT_LDU = LDU_PER_STUD  # a wing through the fuselage reaches at least a stud past each of its sides ...
SPAN_RATIO = 2.0  # ... and is at least twice as long across as it is deep


def _spanning(model, flat: list[int], lo: np.ndarray, hi: np.ndarray) -> bool:
    """One of the ``flat`` parts runs across the body (boxes ``lo``-``hi``) and out past both its sides along one
    horizontal axis: a plane's wing built as one plate through the fuselage (a biplane's 2 x 8 plates), a pair of
    wings in one piece [000 §9.1 Forward Flight]."""
    if not len(lo):
        return False
    b_lo, b_hi = lo.min(axis=0), hi.max(axis=0)
    els = model.elements
    for i in flat:
        e_lo, e_hi = els[i].bbox_min, els[i].bbox_max
        for k, other in ((0, 2), (2, 0)):
            if e_lo[k] <= b_lo[k] - SPAN_OUT_LDU and e_hi[k] >= b_hi[k] + SPAN_OUT_LDU and \
                    e_hi[k] - e_lo[k] >= SPAN_RATIO * (e_hi[other] - e_lo[other]):
                return True
    return False


def _landing_gear(roles: dict[int, RoleDecision]) -> None:
    """The wheels a flyer with wings sticking out stands on are its landing gear, no Propulsion bought: "airplanes
    can move at lower speed on the runway", at Half Speed, as Alternate Movement [000 §9.1 Alternate Movement]."""
    for i, r in list(roles.items()):
        if r.role == "propulsion" and r.params.get("type") == "ground":
            roles[i] = RoleDecision("decoration", f"{r.reason}, but the build flies on its wings: its landing gear, "
                                                  "rolling on the runway at Half Speed as Alternate Movement, not a "
                                                  "Propulsion of its own (free Non-Structural) [000 §9.1 Alternate "
                                                  "Movement]", "geometry")


SHEET_RATIO = 0.3  # a wing section is thin: its thinnest side at most this share of its middle one ...
SHEET_MIN_ELEMENTS = 8  # ... built of at least this many elements ...
SHEET_MAX_SHARE = 0.4  # ... at most this share of the creation (the rest is the fuselage) ...
SHEET_OUT = 0.5  # ... with at least this share of its footprint outside the fuselage


def _wing_sections(model, idx: list[int], roles: dict[int, RoleDecision], ldu_per_inch: float, cache,
                   flyer: bool) -> None:
    """A flyer's wings built of plain plates as sections of their own: a top-level submodel (the builder's own
    sub-assembly) that is a flat sheet sticking out of the rest of the craft is an airfoil [000 §9.1 Forward
    Flight]; the Size is then measured without it, as the rules ask ("ignoring Non-Structural Elements like
    wings") [000 §7.1 Size]."""
    if not flyer:
        return
    els = model.elements
    sections: dict[tuple, list[int]] = {}  # one per placement of a top-level submodel (its line in the main model)
    for i in idx:
        e = els[i]
        key = (e.submodel_path[0], e.refs[0]) if e.submodel_path and len(e.refs) > 1 else ("", ())
        sections.setdefault(key, []).append(i)
    if len(sections) < 2:
        return
    sheets = {}
    for (name, _), g in sections.items():
        if not name or len(g) < SHEET_MIN_ELEMENTS or len(g) > SHEET_MAX_SHARE * len(idx):
            continue
        _, middle, thin = measure_size(model, g, ldu_per_inch, cache).extents_ldu
        if middle >= ldu_per_inch and thin <= SHEET_RATIO * middle:
            sheets[(name, len(sheets))] = g
    if not sheets:
        return
    flat = {i for g in sheets.values() for i in g}
    body = [i for i in idx if i not in flat and roles.get(i) is not None and roles[i].role == "structural"]
    if not body:
        return
    lo, hi = element_boxes(model, body)
    for (name, _), g in sheets.items():
        glo, ghi = elements_box(els, g)
        near = np.all((lo[:, [0, 2]] <= ghi[[0, 2]] + 1) & (hi[:, [0, 2]] >= glo[[0, 2]] - 1), axis=1)
        out = float(np.mean([_outside_share(model, i, lo[near], hi[near]) for i in g]))
        if out < SHEET_OUT:
            continue
        for i in g:
            r = roles.get(i)
            if r is None or (r.role, r.source) not in (("structural", "part"), ("structural", "topology"),
                                                       ("decoration", "topology")):
                continue
            roles[i] = RoleDecision("propulsion", f"{r.reason.split(';')[0]}; part of the flat section {name!r} "
                                                  f"sticking out of the flyer's fuselage ({out:.0%} outside it): "
                                                  "a wing, Forward Flight [000 §9.1]", "geometry",
                                    {"type": "forward_flight"})
