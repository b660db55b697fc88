"""Pendant branches against an independent reference: networkx's components after cutting each element."""
from __future__ import annotations

import random

import networkx as nx

from brikscan.analysis.branches import pendant_branches


def _reference(g: nx.Graph, root: int, max_members: int) -> set[tuple[int, frozenset[int]]]:
    """Cut each element: every piece that loses the root's component with it hangs on that element."""
    comp = nx.node_connected_component(g, root)
    out = set()
    for v in comp:
        h = g.subgraph(comp - {v})
        for part in nx.connected_components(h):
            if (v == root or root not in part) and len(part) <= max_members:
                out.add((v, frozenset(part)))
    return out


def test_a_lamp_on_a_mast_hangs_on_the_mast_and_the_mast_on_the_body():
    # body: a ring 0-1-2-3; mast 4-5 on element 2; lamp 6 on the mast top 5
    adj = {0: [1, 3], 1: [0, 2], 2: [1, 3, 4], 3: [2, 0], 4: [2, 5], 5: [4, 6], 6: [5]}
    got = {(b.mount, b.members) for b in pendant_branches(adj, 0, 3)}
    assert got == {(5, frozenset({6})), (4, frozenset({5, 6})), (2, frozenset({4, 5, 6}))}


def test_random_graphs_agree_with_cutting_each_element():
    rng = random.Random(8)
    for n in range(2, 40):
        g = nx.gnm_random_graph(n, rng.randint(n - 1, 2 * n), seed=rng.randint(0, 10 ** 6))
        g.add_edges_from((i, rng.randrange(i)) for i in range(1, n) if rng.random() < 0.3)
        adj = {v: list(g.neighbors(v)) for v in g}
        for limit in (1, 3, n):
            got = {(b.mount, b.members) for b in pendant_branches(adj, 0, limit)}
            assert got == _reference(g, 0, limit), (n, limit)
