"""Small fittings on a build's surface (lamps, handles, grilles, clips, spacers): ornaments, not its Structure
[000 §7.1 Non-Structural elements].
"""
from __future__ import annotations

from .element_shape import _rests_on, _up_axis, _words_of, nx
from .mounts import is_detail_sized
from .roles import RoleDecision


_DETAIL_WORDS = {"round", "cone", "grille", "clip", "handle", "handles", "light", "lamp", "headlight", "lever",
                 "dish", "jumper", "bar", "louvre", "flower", "ornament"}
_PANE_WORDS = {"glass", "window", "windscreen", "windshield", "canopy", "door", "panel", "pane"}  # fill an opening


def _detail_part(model, e) -> bool:
    """A part that is a detail wherever it sits: small, and round, a grille, a clip, a handle, a lamp... or a
    small see-through piece (a light)."""
    if not is_detail_sized(e):
        return False
    words = _words_of(e)
    return bool(words & _DETAIL_WORDS) or (model.colours.transparent(e.colour) and not words & _PANE_WORDS)


SPACER_MAX_LDU = (12.0, 20.0)  # a plate high (with its stud) and one stud wide: a spacer, not a course of wall


_HANDLE_WORDS = {"handle", "handles"}  # a plate or tile with a handle is a fitting first: a grab bar, a rail


def _thin(e, square: bool = False) -> bool:
    """A plate-high, one-stud-wide part (a 1 x 1 round plate, a clip plate): where something else also bears
    what it carries it is a light or a fitting, not a course of the build. ``square``: a 1 x 1 one only (under a
    plate beside a round spacer it is a second spacer, not the build)."""
    small, middle, large = sorted(float(x) for x in (e.bbox_max - e.bbox_min))
    return small <= SPACER_MAX_LDU[0] and (large if square else middle) <= SPACER_MAX_LDU[1]


def _details(model, graph: nx.Graph, idx: list[int], classes, roles: dict[int, RoleDecision],
             feet: set[int] | frozenset[int] = frozenset()) -> None:
    """Small detail parts stuck on the outside (a 1 x 1 round plate, a grille tile, a cone, a clip light, a small
    see-through piece: a lamp) that hold nothing else up are decoration: "anything decorative" is Non-Structural [000 §7.1].

    "Holds nothing up": no Structural part is built on its studs (whichever way they face: a grille tile on the
    side of a fuselage too), or none that it alone bears: a plate-high one-stud spacer (a 1 x 1 round plate, a clip
    plate), the only one under a tile or a deck plate that also stands on a part of the build beside it, is a
    light or a fitting, not a course of the build. A stack of details (kegs of round bricks) is decoration from
    the outermost in; a round-brick column under a floor holds the floor and stays Structure."""
    inside = set(idx)
    els = model.elements
    cand: dict[int, tuple[int, float]] = {}
    for i in idx:
        r = roles.get(i)
        if r is None or r.role != "structural" or r.source not in ("part", "topology"):
            continue
        e = els[i]
        if _detail_part(model, e) and any(j in inside for j in graph.neighbors(i)) and i not in feet:
            cand[i] = _up_axis(e)  # stuck on something, not what the build stands on

    def outward(i: int) -> float:
        k, sgn = cand[i]
        return -sgn * float(els[i].bbox_max[k] if sgn > 0 else els[i].bbox_min[k])

    def borne_elsewhere(j: int, i: int) -> bool:
        """``j`` stands on ``i`` as its one spacer and also on a Structural part of the build that is held up
        itself (touching more than ``j``) and is no detail or spacer: it stays up without ``i`` (a tile bridging a
        round plate and a mudguard). Two spacers under one plate, or a round one beside a square one, do one job
        and keep one role: Structure."""
        under = [k for k in graph.neighbors(j) if k != i and k in inside and roles.get(k) is not None and
                 _rests_on(els[j], els[k], _up_axis(els[k]))]
        if any(k in cand or _thin(els[k], square=True) for k in under):
            return False
        return any(roles[k].role == "structural" and any(m not in (i, j) for m in graph.neighbors(k))
                   for k in under)

    for i in sorted(cand, key=outward):  # the outermost first: a detail on a detail is judged before its base
        on = [j for j in graph.neighbors(i) if j in inside and j != i and _rests_on(els[j], els[i], cand[i]) and
              not (j in cand and roles[j].role == "decoration") and
              (j not in roles or roles[j].role in ("structural", "weak point", "weapon", "device", "propulsion"))]
        fitting = _thin(els[i]) or bool(_words_of(els[i]) & _HANDLE_WORDS)
        held = [j for j in on if not (fitting and borne_elsewhere(j, i))]
        if held:
            continue  # something is built on it and stands on it alone
        why = " alone (what is built on it stands on the build beside it too)" if on else ""
        roles[i] = RoleDecision("decoration", f"{classes[i].reason}; a small detail on the surface that holds "
                                              f"nothing up{why}: decoration [000 §7.1]", "detail")
