"""What belongs to the Structure by how the pieces are built together, where the rigid core alone misses it: the
hull built on a wing plate belly, and the second copy of a sub-assembly placed twice [000 §7.1]."""
from __future__ import annotations

from .annotations import file_stem
from .connectivity import rigid_groups
from .element_shape import nx
from .moving_parts import JOINTED_MIN_ELEMENTS
from .roles import RoleDecision, core_and_hanging, describe


def keeled(graph: nx.Graph, idx: list[int], cand: list[int], classes, roles: dict[int, RoleDecision],
           core: set[int], body: dict[int, int]) -> set[int]:
    """The hull built on a wing plate that is the craft's floor (a shuttle's belly is one Wing 16 x 14, its nose
    and its rear hull both on it): held rigidly to the core through the wing, it is the core's, Structure, not a
    piece "not built into" it [000 §7.1]. The wing stays the wing."""
    keels = [i for i in idx if i in roles and roles[i].source in ("part", "geometry") and classes[i].word == "wing"
             and roles[i].role == "propulsion" and roles[i].params.get("type") == "forward_flight"]
    if not keels or not core:
        return set()
    nodes = cand + keels
    whole, _ = core_and_hanging(graph, nodes, rigid_groups(graph, nodes))
    if not whole & core:
        return set()
    # whole sections of hull (JOINTED_MIN_ELEMENTS pieces or more, as a turret body): a plate or two lengthening
    # the wing stay the wing's
    sections: dict[int, list[int]] = {}
    for i in whole - set(keels) - core:
        sections.setdefault(body[i], []).append(i)
    return {i for g in sections.values() if len(g) >= JOINTED_MIN_ELEMENTS for i in g}


TWIN_REASON = "as the same piece of the other copy of {sub!r}, which is built into the Structure: one sub-assembly " \
              "placed twice is judged alike [000 §7.1]"


def twins(model, idx: list[int], roles: dict[int, RoleDecision], detached: set[int]) -> None:
    """A sub-assembly placed twice (a seaplane's two floats, mirrored) is one thing built twice: where one copy is
    built into the Structure and the other only rests on a wing or a hinge, so that the topology found it loose,
    the loose copy's pieces take the built copy's role."""
    els = model.elements
    built: dict[tuple, int] = {}
    for i in idx:
        if len(els[i].refs) >= 2 and roles[i].role == "structural":
            built.setdefault(els[i].refs[-1], i)  # (the submodel's file, the line in it): the same piece
    for i in sorted(detached):
        r, e = roles.get(i), els[i]
        twin = built.get(e.refs[-1]) if len(e.refs) >= 2 else None
        if twin is None or r is None or r.role != "decoration" or r.source != "topology" or \
                els[twin].refs[:-1] == e.refs[:-1]:
            continue
        roles[i] = RoleDecision("structural", f"{describe(e)[1]!r}: " +
                                TWIN_REASON.format(sub=file_stem(e.submodel_path[-1])), "topology")
