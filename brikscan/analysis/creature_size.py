"""Creature Size over spine and cranium [000 §7.1 Size]: "gauging their relative strength is as simple as
measuring the lengths of their spinal column and cranium. Tails and jaws are excluded."

A brick-built Creature's Size is measured over its body: its Structural elements without the Surface Elements the
rulebook lists for Creatures (limbs, wings, jaws, tail, fins, tentacles [000 §7.1 Structure]), recognised by the
words of their part, submodel or group names (``rules.creatures.spine``). The spine is the longest path through the
body's connected elements; where it runs straight (within one brick) the Size is the body's longest extent (the
stat card's usual measure), where it bends (a raised neck, a coiled body) it is the length along the bend.
"""
from __future__ import annotations

import re

import networkx as nx
import numpy as np

from .measure import SizeMeasure, _element_points, measure_size

MOULDED = {"animal", "dragon", "creature", "monster"}  # words of moulded creature parts' names
SPINE_METHOD = "spine and cranium: {how} [000 §7.1 Size]"


def _words(text: str) -> set[str]:
    return {w for w in re.split(r"[^a-z0-9]+", (text or "").lower()) if w}


def surface_elements(model, creation, rules) -> dict[int, str]:
    """Structural elements of a Creature that are limbs, tails, jaws ... by name: element -> the word."""
    words = set(rules.creatures.spine.surface_words)
    out = {}
    own = creation.submodel
    for i in creation.structural_elements or creation.elements:
        e = model.elements[i]
        # a moulded creature part names what it is ("Animal Dragon Wing"); a brick's name does not ("Wing 2 x 4"
        # is a wedge plate): only submodel and group names count for bricks
        desc = e.description or ""
        names = ([desc] if _words(desc) & MOULDED else []) + [s for s in e.submodel_path if s != own]
        for n in names:
            hit = _words(n) & words
            if hit:
                out[i] = sorted(hit)[0]
                break
        else:
            g = creation.roles[i].group if i in creation.roles else ""
            hit = _words(g) & words if g else set()
            if hit:
                out[i] = sorted(hit)[0]
    return out


def _centre(model, i: int) -> np.ndarray:
    e = model.elements[i]
    return (np.asarray(e.bbox_min, dtype=float) + np.asarray(e.bbox_max, dtype=float)) / 2


def _spine_path(model, graph: nx.Graph, body: list[int]) -> list[int]:
    """The longest shortest path (by centre distances) through the largest connected part of ``body``."""
    sub = graph.subgraph(body)
    comps = sorted(nx.connected_components(sub), key=len, reverse=True) if len(sub) else []
    if not comps or len(comps[0]) < 2:
        return sorted(comps[0]) if comps else []
    core = sub.subgraph(comps[0])
    w = {(a, b): float(np.linalg.norm(_centre(model, a) - _centre(model, b))) for a, b in core.edges()}
    g = nx.Graph()
    g.add_weighted_edges_from((a, b, d) for (a, b), d in w.items())
    start = min(comps[0])
    far = nx.single_source_dijkstra_path_length(g, start)
    a = max(far, key=far.get)
    dist, paths = nx.single_source_dijkstra(g, a)
    b = max(dist, key=dist.get)
    return paths[b]


def _simplify(points: np.ndarray, tol: float) -> np.ndarray:
    """Douglas-Peucker: the polyline's corners that stand out more than ``tol`` from a straight run."""
    if len(points) <= 2:
        return points
    a, b = points[0], points[-1]
    ab = b - a
    n = float(np.linalg.norm(ab))
    if n < 1e-9:
        d = np.linalg.norm(points - a, axis=1)
    else:
        d = np.linalg.norm(np.cross(points - a, ab / n), axis=1)
    k = int(np.argmax(d))
    if d[k] <= tol:
        return np.array([a, b])
    left = _simplify(points[:k + 1], tol)
    right = _simplify(points[k:], tol)
    return np.vstack([left[:-1], right])


def spine_size(model, creation, graph: nx.Graph | None, ldu_per_inch: float, rules, hulls=None
               ) -> tuple[SizeMeasure, list[int], str]:
    """(Size measure over spine and cranium, the elements measured, why) of a brick-built Creature."""
    struct = list(creation.structural_elements or creation.elements)
    limbs = surface_elements(model, creation, rules)
    body = [i for i in struct if i not in limbs] or struct
    left = ""
    if limbs:
        kinds = sorted(set(limbs.values()))
        left = f"; {len(limbs)} element(s) not measured ({', '.join(kinds)}: Non-Structural [000 §7.1 Structure])"
    m = measure_size(model, body, ldu_per_inch, hulls)
    path = _spine_path(model, graph, body) if graph is not None else []
    # a bend must stand out more than a brick, and more than half the body's thickness (a path weaving through a
    # thick body's layers is not a bent spine)
    tol = max(rules.creatures.spine.bend_tolerance_ldu, m.extents_ldu[2] / 2)
    if len(path) >= 3:
        corners = _simplify(np.array([_centre(model, i) for i in path]), tol)
        if len(corners) >= 3:  # a bent spine: along the bend, plus how far the end elements reach past it
            length = float(np.sum(np.linalg.norm(np.diff(corners, axis=0), axis=1)))
            for end, nxt, i in ((corners[0], corners[1], path[0]), (corners[-1], corners[-2], path[-1])):
                d = (end - nxt) / max(float(np.linalg.norm(end - nxt)), 1e-9)
                reach = (_element_points(model, [i], hulls) - end) @ d
                length += max(0.0, float(reach.max()))
            if length > m.length_ldu:
                how = (f"{length / ldu_per_inch:.2f}\" along a spine bent {len(corners) - 2} time(s) through "
                       f"{len(path)} elements{left}")
                return (SizeMeasure(length, length / ldu_per_inch, m.axis, SPINE_METHOD.format(how=how),
                                    m.extents_ldu), body, how)
    how = f"{m.size_in:.2f}\" the longest extent of the body (a straight spine){left}"
    return (SizeMeasure(m.length_ldu, m.size_in, m.axis, SPINE_METHOD.format(how=how), m.extents_ldu), body,
            how)
