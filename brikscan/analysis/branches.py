"""Pendant branches of a contact graph: the elements that hang on the rest only through one element.

A radar dish on a plate mast, a lamp on its clip, an engine pod on its bracket: cut the one element they hang
from and they fall off. Found in one depth-first pass (Tarjan's articulation points, iterative so deep builds do
not hit Python's recursion limit), O(elements + links).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Branch:
    """``members`` hang on the body only through ``mount`` (an articulation point); ``mount`` is not a member."""
    mount: int
    members: frozenset[int]


def pendant_branches(adjacency: dict[int, list[int]], root: int, max_members: int) -> list[Branch]:
    """Every branch of at most ``max_members`` elements that the component of ``root`` sheds when one element
    (its mount) is cut. Nested branches are all listed (a lamp on a mast: the lamp's and the mast's)."""
    disc: dict[int, int] = {root: 0}
    low: dict[int, int] = {root: 0}
    order: list[int] = [root]
    parent: dict[int, int] = {}
    end: dict[int, int] = {}  # node -> index in ``order`` one past its DFS subtree
    stack = [(root, iter(adjacency.get(root, ())))]
    found: list[tuple[int, int]] = []  # (mount, child whose subtree hangs on it)
    while stack:
        v, it = stack[-1]
        advanced = False
        for w in it:
            if w not in disc:
                disc[w] = low[w] = len(order)
                order.append(w)
                parent[w] = v
                stack.append((w, iter(adjacency.get(w, ()))))
                advanced = True
                break
            if w != parent.get(v):
                low[v] = min(low[v], disc[w])
        if advanced:
            continue
        stack.pop()
        end[v] = len(order)
        p = parent.get(v)
        if p is not None:
            low[p] = min(low[p], low[v])
            if low[v] >= disc[p]:
                found.append((p, v))
    out = []
    for mount, child in found:
        lo, hi = disc[child], end[child]
        if hi - lo <= max_members:
            out.append(Branch(mount, frozenset(order[lo:hi])))
    return out
