"""Connectivity evaluation on the shared official models: brikscan's graph against BrickNet's own.

For each model: elements, elements BrickNet labels, BrickNet's edges (``bricknet.parse_ldr`` on the flattened
model, element pairs), brikscan's edges, edges in common, connected components of both, the largest component,
creations by kind and the analysis time. Writes a Markdown table (docs/connectivity-evaluation.md takes it).

    python bench/eval_connectivity.py /work/shared/ldraw/complete.zip [out.json]
"""
from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

import networkx as nx


def bricknet_reference(model) -> tuple[set[tuple[int, int]], int]:
    """BrickNet's own pipeline on the model's parts: (element pairs, parts it placed)."""
    from brikscan.analysis import connectivity as C
    from brikscan.analysis.bricknet_import import bricknet_modules

    bnd = bricknet_modules()[1]  # BrickNet's own decoding, not brikscan's compiled table: an independent check
    from bricknet import parse_ldr

    cat, aliases = bnd.load_catalog(), bnd.load_aliases()
    known = set(cat.stem_to_id) | {k for k, v in aliases.items() if v[0] in cat.stem_to_id}
    lines, idx = [], []
    for e in model.elements:
        st = C.bricknet_stem(e.part, known)
        if st is None or e.missing:
            continue
        t = e.transform
        vals = [t[0, 3], t[1, 3], t[2, 3], *t[:3, :3].ravel()]
        lines.append("1 16 " + " ".join(repr(float(v)) for v in vals) + f" {st}.dat")
        idx.append(e.index)
    if not lines:
        return set(), 0
    g = parse_ldr("\n".join(lines))
    pairs = {(min(idx[a], idx[b]), max(idx[a], idx[b])) for a, b in zip(g.edges["a"].tolist(), g.edges["b"].tolist())
             if idx[a] != idx[b]}
    return pairs, len(idx)


def evaluate(path, library) -> dict:
    import brikscan
    from brikscan.analysis.stats import analyse

    m = brikscan.load(path, library)
    n = len(m.elements)
    ref, placed = bricknet_reference(m)
    a = analyse(m)
    t = time.perf_counter()
    a = analyse(m)
    warm = time.perf_counter() - t
    g = a.graph
    ours = {(min(u, v), max(u, v)) for u, v in g.edges()}
    contact = {(min(u, v), max(u, v)) for u, v, d in g.edges(data=True) if d.get("source") == "contact"}
    gb = nx.Graph()
    gb.add_nodes_from(range(n))
    gb.add_edges_from(ref)
    comp_b = sorted((len(c) for c in nx.connected_components(gb)), reverse=True)
    comp_o = sorted((len(c) for c in nx.connected_components(g)), reverse=True)
    kinds = Counter(c.kind for c in a.creations)
    movable = sum(1 for _, _, d in g.edges(data=True) if d.get("movable"))
    return {"model": Path(path).name, "elements": n, "bricknet_placed": placed,
            "labelled": sum(1 for i in g.nodes if g.nodes[i].get("labelled")),
            "bricknet_edges": len(ref), "our_edges": len(ours), "common": len(ref & ours),
            "only_bricknet": len(ref - ours), "contact_edges": len(contact), "movable_edges": movable,
            "bricknet_components": len(comp_b), "our_components": len(comp_o),
            "bricknet_largest": comp_b[0] if comp_b else 0, "our_largest": comp_o[0] if comp_o else 0,
            "creations": dict(kinds), "analysis_s": round(warm, 3)}


def markdown(rows: list[dict]) -> str:
    head = ("| model | elements | labelled | BrickNet edges | ours | common | contact (ours only) | "
            "components BrickNet → ours | largest BrickNet → ours | creations | analysis s |")
    out = [head, "|" + "---|" * 11]
    for r in rows:
        if "error" in r:
            out.append(f"| {r['model']} | error: {r['error']} |" + " |" * 9)
            continue
        cr = ", ".join(f"{k} {v}" for k, v in sorted(r["creations"].items()))
        out.append(f"| {r['model']} | {r['elements']} | {r['labelled']} | {r['bricknet_edges']} | {r['our_edges']} | "
                   f"{r['common']} | {r['contact_edges']} | {r['bricknet_components']} → {r['our_components']} | "
                   f"{r['bricknet_largest']} → {r['our_largest']} | {cr} | {r['analysis_s']} |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    lib = sys.argv[1]
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else None
    d = Path("/work/shared/ldraw/models")
    rows = []
    for p in sorted(d.iterdir()):
        if p.suffix.lower() not in (".mpd", ".ldr"):
            continue
        try:
            rows.append(evaluate(p, lib))
        except Exception as exc:  # report, keep going
            rows.append({"model": p.name, "error": f"{type(exc).__name__}: {exc}"})
        print(json.dumps(rows[-1]), flush=True)
    if out:
        out.write_text(json.dumps(rows, indent=1))
    print(markdown(rows))
