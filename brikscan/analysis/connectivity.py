"""Which elements hold which: a connectivity graph over a model's elements.

Connections come from BrickNet's connector labels (MIT, ~14,500 LDraw parts: studs, anti-studs, tubes, Technic
pins and axles, clips and bars, hinges, ball joints), matched in world space by ``bricknet.parse_ldr`` (cKDTree).
Parts BrickNet does not know (MPD-embedded copies, primitives used as parts, very new parts) fall back to
"contact": their world bounding box touches or overlaps another element's. See docs/connectivity-evaluation.md.

Edges carry ``kind`` (stud, technic, clip, hinge, turntable, ball, contact), ``movable`` and a readable ``reason``.
Movable joints are the rules' weak points: "exposed hinges, turrets, pivots and other moving attachment points"
[000 §7.1 Weak Points].
"""
from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator

import numpy as np

from ..lazy import lazy

nx = lazy("networkx")  # imported on first use: a cached analysis needs none of it

CONTACT_TOL_LDU = 1.0  # bounding boxes closer than this count as touching (fallback only)
PENETRATION_LDU = 2.0  # labelled parts without any connector match: boxes must overlap this deep on every axis
_ROTATING = {"hinge", "clip", "ball", "turntable", "technic-rotating"}


def _bricknet():
    """BrickNet's compiled connector table, or None: without BrickNet every connection is a contact."""
    from .bricknet_import import connector_table

    return connector_table()


def bricknet_stem(part: str, known) -> str | None:
    """The BrickNet catalog stem of an LDraw part name, or None.

    MPD files often embed copies of official parts as "<set> - 3001.dat"; the part number after " - " is tried.
    """
    name = part.replace("\\", "/").split("/")[-1].lower()
    stem = name[:-4] if name.endswith(".dat") else name
    if stem in known:
        return stem
    m = re.match(r".+? - (.+)$", stem)
    if m and m.group(1) in known:
        return m.group(1)
    return None


def _axle_pairs(bng, kind_arr, f_len, wf_pos, part_of, sub_arr) -> np.ndarray:
    """Candidate axle connector pairs, as BrickNet's per-connector ball search but in a few cKDTree queries.

    BrickNet pairs axle connectors i<j within ``rad_i + max_rad + 2.65`` LDU (one long axle widens every search
    to 640 LDU: millions of candidates in a large model). Of those, ``_find_pairs`` accepts only pairs whose
    offset across the axis is at most ``_POS_THR`` and whose offset along it at most ``rad_i + rad_j +
    _POS_THR`` (its overlap and slack tests), so only pairs within ``rad_i + rad_j + 2 _POS_THR`` can connect:
    searched per length class, then cut by BrickNet's own bound, this keeps exactly the pairs it can accept.
    When none is left, BrickNet's full candidate set is returned (it is then empty or accepts nothing either,
    and the caller orders its pairs as before).
    """
    ai = np.where(kind_arr == bng.Kind.axle)[0]
    if len(ai) < 2:
        return np.empty((0, 2), dtype=np.intp)
    apos = wf_pos[ai]
    arad = np.maximum(f_len[ai], bng._AXLE_DEFAULT_RAD)
    pad = float(arad.max()) + bng._AXLE_PERP_THR + bng._AXLE_QUERY_PAD
    reach = 2.0 * bng._POS_THR + 1.0  # + 1 LDU: rounding can never drop a pair
    pairs = _pairs_by_class(apos, arad, reach)
    out = _axle_cut(bng, ai, apos, arad, pad, pairs, part_of, sub_arr, reach)
    if len(out):
        return out
    from scipy.spatial import cKDTree

    pairs = cKDTree(apos).query_pairs(r=float(arad.max()) + pad, output_type="ndarray")
    return _axle_cut(bng, ai, apos, arad, pad, pairs, part_of, sub_arr, None)


def _pairs_by_class(pos: np.ndarray, rad: np.ndarray, reach: float) -> np.ndarray:
    """Index pairs (i, j) with ``|pos_i - pos_j| <= rad_i + rad_j + reach`` (a superset: classes of radius)."""
    from scipy.spatial import cKDTree

    cls = np.ceil(np.log2(np.maximum(rad, 1.0))).astype(np.int64)  # radius classes (1, 2], (2, 4], ...
    groups = [(np.nonzero(cls == c)[0], float(rad[cls == c].max())) for c in np.unique(cls)]
    trees = [cKDTree(pos[g]) for g, _ in groups]
    found = []
    for a, (ga, ra) in enumerate(groups):
        p = trees[a].query_pairs(r=2 * ra + reach, output_type="ndarray")
        if len(p):
            found.append(ga[p])
        for b in range(a + 1, len(groups)):
            gb, rb = groups[b]
            m = trees[a].sparse_distance_matrix(trees[b], ra + rb + reach, output_type="ndarray")
            if len(m):
                found.append(np.column_stack([ga[m["i"]], gb[m["j"]]]))
    return np.vstack(found) if found else np.empty((0, 2), dtype=np.intp)


def _axle_cut(bng, ai, apos, arad, pad, pairs, part_of, sub_arr, reach) -> np.ndarray:
    """BrickNet's bound (the lower index's radius), the tight bound when ``reach`` is given, mates of two parts."""
    if len(pairs) == 0:
        return np.empty((0, 2), dtype=np.intp)
    pairs = np.sort(pairs, axis=1)
    d = np.linalg.norm(apos[pairs[:, 0]] - apos[pairs[:, 1]], axis=1)
    keep = d <= arad[pairs[:, 0]] + pad  # the lower index's radius, as BrickNet's loop
    if reach is not None:
        keep &= d <= arad[pairs[:, 0]] + arad[pairs[:, 1]] + reach
    pairs = ai[pairs[keep]]
    n_subs = bng._N_SUBS
    mate = bng._AXLE_MATE_MAT[sub_arr[pairs[:, 0]].astype(np.intp) % n_subs,
                              sub_arr[pairs[:, 1]].astype(np.intp) % n_subs]
    return pairs[mate & (part_of[pairs[:, 0]] != part_of[pairs[:, 1]])]  # the only pairs it can accept


def _find_pairs(bng, mats, ca):
    """BrickNet's ``graph._find_pairs`` (MIT, Peter Kulits), vectorised: connector index pairs (ci, cj)."""
    from scipy.spatial import cKDTree

    Kind = bng.Kind
    part_of = ca.part_of
    kind_arr, sub_arr, pol_arr, f_len = ca.kind, ca.sub, ca.pol, ca.length
    wf = mats[part_of] @ ca.frames
    wf_pos = wf[:, :3, 3]
    col1 = wf[:, :3, 1]
    norm_sq = np.einsum("ij,ij->i", col1, col1)[:, None]
    norm_sq[norm_sq == 0] = 1.0
    axes = -col1 / np.sqrt(norm_sq)
    pairs = cKDTree(wf_pos).query_pairs(r=bng._POS_THR, output_type="ndarray")
    extra = _axle_pairs(bng, kind_arr, f_len, wf_pos, part_of, sub_arr)
    if len(extra):
        pairs = np.vstack([pairs, extra]) if len(pairs) else extra
        n = np.int64(len(wf_pos))
        key = np.unique(pairs[:, 0].astype(np.int64) * n + pairs[:, 1])
        pairs = np.column_stack([key // n, key % n]).astype(np.intp)
    if len(pairs) == 0:
        return np.empty((0, 2), dtype=np.intp), wf, axes
    pi, pj = pairs[:, 0], pairs[:, 1]
    ki, kj = kind_arr[pi], kind_arr[pj]
    si, sj = sub_arr[pi], sub_arr[pj]
    poli, polj = pol_arr[pi], pol_arr[pj]
    diff_part = part_of[pi] != part_of[pj]
    is_stud_hole = diff_part & (((ki == Kind.stud) & (kj == Kind.hole)) | ((ki == Kind.hole) & (kj == Kind.stud)))
    n_subs = bng._N_SUBS
    sub_i, sub_j = si.astype(np.intp) % n_subs, sj.astype(np.intp) % n_subs
    stud_ok = is_stud_hole & bng._STUD_MATE_MAT[sub_i, sub_j]
    is_same_kind = diff_part & (ki == kj) & (ki >= Kind.hinge)
    pol_match = is_same_kind & (si == sj) & (poli >= 0) & (polj >= 0) & (poli != polj)
    hinge_ball_ok = pol_match & (ki != Kind.axle) & (ki != Kind.fixed)
    hinge_needs_axis = hinge_ball_ok & (ki < Kind.ball)
    raw_dots = np.einsum("ij,ij->i", axes[pi], axes[pj])
    stud_ok &= raw_dots >= bng._AXIS_THR
    hinge_ball_ok &= ~hinge_needs_axis | (np.abs(raw_dots) >= bng._AXIS_THR)
    fast = stud_ok | hinge_ball_ok
    out = [np.column_stack([pi[fast], pj[fast]])]
    fixed_ok = pol_match & (ki == Kind.fixed)
    if fixed_ok.any():  # close enough, and for oriented subtypes the same frame
        fi, fj = pi[fixed_ok], pj[fixed_ok]
        dv = wf_pos[fi] - wf_pos[fj]
        close = np.einsum("ij,ij->i", dv, dv) <= bng._POS_THR ** 2
        oriented_codes = [bng._sub_enc(x) for x in bng._FIXED_ORIENTED]
        oriented = np.isin(sub_arr[fi], oriented_codes) & np.isin(sub_arr[fj], oriented_codes)
        tr = np.einsum("nij,nij->n", wf[fi, :3, :3], wf[fj, :3, :3])
        aligned = (np.einsum("ij,ij->i", axes[fi], axes[fj]) >= bng._FIXED_AXIS_THR) & \
            (tr >= bng._FIXED_FRAME_TRACE)
        ok = close & (~oriented | aligned)
        out.append(np.column_stack([fi[ok], fj[ok]]))
    axle_ok = is_same_kind & (ki == Kind.axle) & bng._AXLE_MATE_MAT[sub_i, sub_j]
    if axle_ok.any():
        ai_, aj_ = pi[axle_ok], pj[axle_ok]
        dots = np.abs(np.einsum("ij,ij->i", axes[ai_], axes[aj_]))
        a_codes = [bng._SUB_ENC[x] for x in bng._AXLE_A_SIDE]
        i_side = np.isin(sub_arr[ai_], a_codes)
        j_side = np.isin(sub_arr[aj_], a_codes)
        ref = np.where((~i_side | j_side)[:, None], axes[ai_], axes[aj_])
        delta = wf_pos[aj_] - wf_pos[ai_]
        proj = np.einsum("ij,ij->i", delta, ref)
        perp = delta - proj[:, None] * ref
        perp_sq = np.einsum("ij,ij->i", perp, perp)
        rad = bng._AXLE_DEFAULT_RAD
        overlap = np.maximum(f_len[ai_], rad) + np.maximum(f_len[aj_], rad) - np.abs(proj)
        slack = np.sqrt(np.maximum(0.0, bng._POS_THR ** 2 - perp_sq))
        ok = (dots >= bng._AXLE_AXIS_THR) & (perp_sq <= bng._POS_THR ** 2) & \
            ~((overlap < bng._AXLE_MIN_OVERLAP) & (slack < bng._AXLE_MIN_OVERLAP - overlap - 1e-4))
        out.append(np.column_stack([ai_[ok], aj_[ok]]))
    return np.vstack(out), wf, axes


def bricknet_edges(model) -> tuple[list[tuple], set[int]]:
    """Raw BrickNet connections: [(a, b, family, sub_a, sub_b, pos, axis)], and the elements it labels.

    ``family`` is BrickNet's (stud, axle, hinge, ball, fixed); sub_* are connector subtypes (stud, tube, pin, ...).
    Parts are placed as ``bricknet.parse_ldr`` places them (alias wrappers, orthonormalised rotations).
    """
    table = _bricknet()
    if table is None:
        return [], set()
    bng = table.consts
    known = table.known()
    idx, pids, mats = [], [], []
    parts = getattr(model, "parts", None) or {}
    for e in model.elements:
        if e.missing:
            continue
        info = parts.get(e.part)
        stem = bricknet_stem((info.stand_in if info is not None else "") or e.part, known)  # a stand-in's studs
        if stem is None:
            continue
        t = np.asarray(e.transform, dtype=np.float64)
        if stem in table.aliases:
            stem, wrap = table.aliases[stem]
            t = t @ table.alias_matrix(wrap)
        pid = table.stem_to_id.get(stem)
        if pid is None or not table.n_connectors(pid):
            continue
        idx.append(e.index)
        pids.append(pid)
        mats.append(t)
    if not idx:
        return [], set()
    mats = np.array(mats)
    u, _, vt = np.linalg.svd(mats[:, :3, :3])
    mats[:, :3, :3] = u @ vt
    ca = table.gather(pids)
    pairs, wf, axes = _find_pairs(bng, mats, ca)
    subs = ca.sub_name
    kind = ca.kind.astype(int)
    fam_names = bng._FAM_NAMES
    hole = int(bng.Kind.hole)
    el = np.asarray(idx)[ca.part_of]
    pi, pj = pairs[:, 0], pairs[:, 1]
    # one numpy gather per column, then plain Python values (per-pair numpy indexing was most of this loop)
    ka, kb = kind[pi].tolist(), kind[pj].tolist()
    fams = ["stud" if a <= hole and b <= hole else fam_names[a] for a, b in zip(ka, kb)]
    pos, ax = wf[pi, :3, 3], axes[pi]  # copies: the same values as the views of wf and axes they replace
    out = [(a, b, fam, subs[ci], subs[cj], pos[k], ax[k]) for k, (a, b, fam, ci, cj) in
           enumerate(zip(el[pi].tolist(), el[pj].tolist(), fams, pi.tolist(), pj.tolist()))]
    return out, set(idx)


def _classify(family: str, sa: str, sb: str, turntable: bool) -> tuple[str, str]:
    """(kind, detail) of one connector pair."""
    subs = {sa, sb}
    if family == "stud":
        if turntable:
            return "turntable", "turntable"
        if "post" in subs or "open" in subs:
            return "stud", "stud joint (hollow stud / post)"
        return "stud", "stud in tube" if "tube" in subs else "stud in anti-stud"
    if family == "axle":
        if "clip" in subs:
            return "clip", "clip on bar"
        if subs == {"axle", "cross"} or subs == {"bar", "cross"}:
            return "technic", "axle in cross hole"
        if "pin" in subs:
            return "technic-rotating", "Technic pin in round hole"
        return "technic-rotating", "axle in round hole"
    if family == "hinge":
        return "hinge", "hinge"
    if family == "ball":
        return "ball", "ball joint"
    return "contact", "fixed snap connector"


def collinear(points: list[np.ndarray], axes: list[np.ndarray], cos: float = 0.95, tol: float = 2.0) -> bool:
    """Whether rotating connections share one axis (then the pair still pivots): every axis within ``cos`` of the
    first, every point within ``tol`` LDU of the line through the first point along it."""
    a0 = axes[0]
    p0 = points[0]
    for p, a in zip(points[1:], axes[1:]):
        if abs(float(a @ a0)) < cos:
            return False
        d = p - p0
        if np.linalg.norm(d - (d @ a0) * a0) > tol:
            return False
    return True


def contact_pairs(model, subset: np.ndarray, tol: float = CONTACT_TOL_LDU) -> list[tuple[int, int]]:
    """Element pairs (i in subset, j any) whose world bounding boxes touch or overlap."""
    n = len(model.elements)
    if n == 0 or len(subset) == 0:
        return []
    lo = np.array([e.bbox_min for e in model.elements]) - tol / 2
    hi = np.array([e.bbox_max for e in model.elements]) + tol / 2
    valid = np.array([not e.missing for e in model.elements])
    out = []
    step = max(1, 4_000_000 // max(n, 1))
    for s in range(0, len(subset), step):
        sub = subset[s:s + step]
        ov = np.all((lo[sub, None, :] <= hi[None, :, :]) & (hi[sub, None, :] >= lo[None, :, :]), axis=2)
        ov &= valid[None, :]
        ov[np.arange(len(sub)), sub] = False
        ii, jj = np.nonzero(ov)
        out.extend(zip(sub[ii].tolist(), jj.tolist()))
    return out


def _most_common(items) -> tuple:
    """``Counter(items).most_common(1)[0]``: the most frequent item and its count, the first seen on a tie
    (Counter keeps first-seen order and ``most_common(1)`` is ``max`` over it), without building a Counter per
    pair of elements (3,000 of them on a large set)."""
    counts: dict = {}
    for x in items:
        counts[x] = counts.get(x, 0) + 1
    return max(counts.items(), key=lambda kv: kv[1])


def build_graph(model) -> nx.Graph:
    """Undirected graph over element indices; one edge per connected pair of elements.

    Edge attributes: ``kind``, ``movable``, ``reason``, ``count`` (connector pairs), ``kinds`` (all kinds seen),
    ``source`` ("bricknet" or "contact"). Node attribute ``labelled``: BrickNet has connector data for the part.
    """
    g = nx.Graph()
    g.add_nodes_from(range(len(model.elements)))
    raw, labelled = bricknet_edges(model)
    turn = {e.index for e in model.elements if "turntable" in e.description.lower()}
    per_pair: dict[tuple[int, int], list] = defaultdict(list)
    classified: dict[tuple, tuple[str, str]] = {}  # _classify of each distinct connector pairing, once
    for a, b, fam, sa, sb, pos, axis in raw:
        if a == b:
            continue
        ck = (fam, sa, sb, a in turn and b in turn)
        kd = classified.get(ck)
        if kd is None:
            kd = classified[ck] = _classify(*ck)
        per_pair[(a, b) if a < b else (b, a)].append((kd[0], kd[1], pos, axis))
    for (a, b), conns in per_pair.items():
        rigid = [c for c in conns if c[0] not in _ROTATING]
        if rigid:  # the most frequent kind (the first seen on a tie); one connection: the Counter's answer
            kind, n = (rigid[0][0], 1) if len(rigid) == 1 else _most_common(c[0] for c in rigid)
            movable = False
            detail = next(c[1] for c in rigid if c[0] == kind)
            reason = f"{n} × {detail}" if n > 1 else detail
        else:  # the joint is named by its most telling connector
            kinds = [c[0] for c in conns]
            kind = next(k for k in ("turntable", "hinge", "ball", "clip", "technic-rotating") if k in kinds)
            movable = collinear([c[2] for c in conns], [c[3] for c in conns]) or kind == "ball" and len(conns) == 1
            detail = next(c[1] for c in conns if c[0] == kind)
            reason = detail + (" (pivots: a weak point)" if movable else f" ×{len(conns)} on different axes (rigid)")
        if kind == "technic-rotating":
            kind = "technic"
        joints = [(c[2], c[3]) for c in conns if c[0] in _ROTATING] if movable else []
        g.add_edge(a, b, kind=kind, movable=bool(movable), reason=reason, count=len(conns),
                   kinds=sorted({c[0].replace("technic-rotating", "technic") for c in conns}), source="bricknet",
                   joints=joints)
    # labelled parts that found no connector at all (a bush pushed on an axle, a bow in a hand, a panel held by
    # friction, a train's coupling slid into its buffer beam) attach to what they interpenetrate: told before the
    # parts with no connector data touch them, for a magnet on a coupling does not hold the coupling to its wagon
    unheld = {i for i in labelled if g.degree(i) == 0}
    unlabelled = np.array([e.index for e in model.elements if e.index not in labelled and not e.missing],
                          dtype=np.int64)
    for a, b in contact_pairs(model, unlabelled):
        if not g.has_edge(a, b):
            g.add_edge(a, b, kind="contact", movable=False, count=1, kinds=["contact"], source="contact",
                       reason="bounding boxes touch (no connector data for this part)")
    # ... the ones something with no connector data touched only to held pieces of their own sub-assembly (a
    # coupling to its wagon's beam, not to the next wagon's coupling; a map to the hand of the figure it is built
    # with, not to the pyramid it lies against; two scorpions lying in a heap of coins stay two)
    touched = {i for i in unheld if g.degree(i)}
    lonely = np.array(sorted(unheld), dtype=np.int64)
    els = model.elements
    for a, b in contact_pairs(model, lonely, tol=-PENETRATION_LDU):
        if a in touched and (b in unheld or els[a].refs[:-1] != els[b].refs[:-1]):
            continue
        if not g.has_edge(a, b):
            g.add_edge(a, b, kind="contact", movable=False, count=1, kinds=["contact"], source="contact",
                       reason="interpenetrates (no connector matched)")
    for i in g.nodes:
        g.nodes[i]["labelled"] = i in labelled
    return g


_HALF_WORDS = {"top", "bottom", "base", "upper", "lower"}
JOINT_CENTRE_LDU = 12.0  # a rotation joint's pin half and socket half have their origins this close (one centre)


def _joint_half(description: str) -> tuple[str, str] | None:
    """(joint family, which half) of a part that is one half of a two-part turning joint: a turntable's top or
    bottom ("Technic Turntable 28 Tooth Top": family the words without the half's), or a rotation joint's socket
    or pin/ball half ("Technic Beam 3 with Rotation Joint 3 Socket"); None for anything else."""
    w = description.lower().replace(",", " ").split()
    if "turntable" in w and _HALF_WORDS & set(w):
        return "turntable " + " ".join(x for x in w if x not in _HALF_WORDS), " ".join(sorted(_HALF_WORDS & set(w)))
    text = " ".join(w)
    if "rotation joint" in text:
        return "rotation joint", "socket" if "socket" in w else "pin"
    return None


def joint_halves(model, g: nx.Graph) -> list[tuple[int, int, np.ndarray, np.ndarray, str]]:
    """The two halves of one turning joint fitted into each other with no connector pair matched between them
    (a Technic turntable's top on its bottom, a rotation joint's pin in its socket: BrickNet pairs neither), as
    (a, b, centre, axis, kind): one joint that turns, a "turntable" or, for a rotation joint, a "hinge". Halves
    of one family and of different halves, whose boxes interpenetrate at least ``PENETRATION_LDU`` on every axis
    (and, for a rotation joint, whose origins are one centre)."""
    els = model.elements
    halves: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for e in els:
        h = None if e.missing else _joint_half(e.description)
        if h is not None:
            halves[h[0]].append((e.index, h[1]))
    out = []
    for family, group in halves.items():
        ids = np.array([a for a, _ in group])
        half = np.array([h for _, h in group])
        los = np.array([els[a].bbox_min for a in ids], dtype=float).reshape(-1, 3)
        his = np.array([els[a].bbox_max for a in ids], dtype=float).reshape(-1, 3)
        for k in range(len(ids) - 1):  # the boxes of the later halves, all at once: many turntables stay cheap
            deep = np.all(np.minimum(his[k], his[k + 1:]) - np.maximum(los[k], los[k + 1:]) >= PENETRATION_LDU,
                          axis=1) & (half[k + 1:] != half[k])
            for m in np.flatnonzero(deep):
                a, b = int(ids[k]), int(ids[k + 1 + m])
                a, b = min(a, b), max(a, b)
                ea, eb = els[a], els[b]
                lo, hi = np.maximum(ea.bbox_min, eb.bbox_min), np.minimum(ea.bbox_max, eb.bbox_max)
                if not g.has_edge(a, b):
                    if family.startswith("turntable"):
                        t = np.asarray(ea.transform, dtype=np.float64)
                        axis = t[:3, 1] / (np.linalg.norm(t[:3, 1]) or 1.0)  # its up axis: what it turns round
                    else:  # the disc the two halves share is thinnest along the axis they turn round ...
                        axis = np.eye(3)[int(np.argmin(hi - lo))]
                        # ... and LDraw draws both halves round the joint's centre: their beams crossing is none
                        if np.linalg.norm(np.asarray(ea.transform, dtype=float)[:3, 3] -
                                          np.asarray(eb.transform, dtype=float)[:3, 3]) > JOINT_CENTRE_LDU:
                            continue
                    kind = "turntable" if family.startswith("turntable") else "hinge"
                    out.append((a, b, (lo + hi) / 2, axis, kind))
    return out


JUDGED_KIND = "resting"  # edges the judging adds (a piece lying on or built against another: analysis/joining.py, scenery.py)
TOUCH_KINDS = ("contact", JUDGED_KIND)  # edges of pieces that only touch, no connector between them


def add_resting(g: nx.Graph, a: int, b: int, reason: str) -> None:
    """Record that the judging found ``a`` held by ``b`` with no connector (lying on it, built against it,
    plugged into it): a rigid edge of its own kind, so a blast splits the creation the same way and
    ``connections_only`` can take it off again. The one place such an edge is made."""
    g.add_edge(int(a), int(b), kind=JUDGED_KIND, movable=False, source="contact", count=1, kinds=[JUDGED_KIND],
               reason=reason)


def add_turning(g: nx.Graph, a: int, b: int, centre: np.ndarray, axis: np.ndarray, reason: str,
                kind: str = "turntable") -> None:
    """Record a turning joint the judging found with no connector (a turntable's two halves fitted together, a
    rotation joint's pin in its socket): movable, so its halves are weak points and a blast can part them there."""
    g.add_edge(int(a), int(b), kind=kind, movable=True, source="contact", count=1, kinds=[kind],
               joints=[(centre, axis)], reason=reason)


def connections_only(g: nx.Graph) -> nx.Graph:
    """A copy of ``g`` without the edges the judging added, as ``build_graph`` made it.

    Why: an analysis's graph carries the resting edges its judging found; judged again with them already there,
    the same model would split into other creations than a fresh analysis gives (the battle table re-judges
    with a player's role changes on the graph it has)."""
    out = g.copy()
    out.remove_edges_from([(a, b) for a, b, k in g.edges(data="kind") if k == JUDGED_KIND])
    return out


def rigid_groups(g: nx.Graph, nodes) -> dict[int, int]:
    """Element -> rigid body id: elements joined by rigid edges, and bodies held by pivots on different axes.

    Two bodies joined by several pivots (two Technic pins side by side, or a pinned beam) cannot turn: they are
    one rigid body. Bodies are merged until every remaining link between two bodies turns about one axis line.
    """
    nodes = list(nodes)
    parent = {i: i for i in nodes}
    size = {i: 1 for i in nodes}  # members per root, kept up to date by join()

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(root_a, root_b) -> None:
        """Hang root_a under root_b (both roots)."""
        if root_a != root_b:
            parent[root_a] = root_b
            size[root_b] += size.pop(root_a)

    movable = []
    for a, b, d in edges_in(g, nodes):  # g.subgraph(nodes).edges(data=True), in its order (joins depend on it)
        if d.get("movable"):
            movable.append((a, b, d.get("joints") or []))
        else:
            join(find(a), find(b))
    # a small element pivoting in two bodies (a Technic pin) links those two bodies through its axis
    changed = True
    while changed:
        changed = False
        links: dict[tuple[int, int], list] = defaultdict(list)
        for a, b, joints in movable:
            ra, rb = find(a), find(b)
            if ra != rb:
                links[(min(ra, rb), max(ra, rb))].extend(joints)
        by_pin: dict[int, list] = defaultdict(list)
        for a, b, joints in movable:
            for x, y in ((a, b), (b, a)):
                by_pin[find(x)].append((find(y), joints))
        for pin, lst in by_pin.items():
            others = {o for o, _ in lst if o != pin}
            if len(others) == 2 and len(lst) <= 4:
                o1, o2 = sorted(others)
                links[(o1, o2)].extend(j for _, js in lst for j in js)
        for (x, y), joints in links.items():
            if find(x) == find(y) or len(joints) < 2:
                continue
            if not collinear([j[0] for j in joints], [j[1] for j in joints]):
                join(find(x), find(y))
                changed = True
        # a pin held at two or more points inside one body belongs to that body
        for pin, lst in by_pin.items():
            others = {find(o) for o, _ in lst if find(o) != find(pin)}
            if len(others) == 1 and len(lst) >= 2 and find(pin) == pin and size[pin] <= 2:
                join(pin, others.pop())
                changed = True
    return {i: find(i) for i in nodes}


def components_in(g: nx.Graph, nodes) -> Iterator[set]:
    """``nx.connected_components(g.subgraph(nodes))``: the same sets, yielded in the same order and filled in the
    same order, without the subgraph view's filter call per neighbour (a third of a second of a large model's
    analysis). It walks as networkx 3 walks a subgraph view: the nodes in the order of the set of ``nodes``
    when that is under half the graph, else in the graph's order; each node's neighbours in the graph's order
    (tests/test_connectivity.py compares both on random graphs). Other graph types: networkx itself."""
    if type(g) is not nx.Graph:
        yield from nx.connected_components(g.subgraph(nodes))
        return
    keep = nx.filters.show_nodes(g.nbunch_iter(nodes)).nodes  # the view's own node set, built the same way
    node, adj = g._node, g._adj
    order = (v for v in keep if v in node) if 2 * len(keep) < len(node) else (v for v in node if v in keep)
    seen: set = set()
    n = len(keep)
    for v in order:
        if v not in seen:
            c = _bfs_within(adj, keep, n - len(seen), v)
            seen.update(c)
            yield c


def edges_in(g: nx.Graph, nodes) -> Iterator[tuple]:
    """``g.subgraph(nodes).edges(data=True)``: the same (u, v, data) triples in the same order, without the
    view's two filter calls per neighbour. networkx 3 walks the view's nodes as ``components_in`` does, each
    node's neighbours in the graph's order, and skips a neighbour already walked (tests/test_connectivity.py
    compares both on random graphs). Other graph types: networkx itself."""
    if type(g) is not nx.Graph:
        yield from g.subgraph(nodes).edges(data=True)
        return
    keep = nx.filters.show_nodes(g.nbunch_iter(nodes)).nodes  # the view's own node set, built the same way
    adj = g._adj
    order = (v for v in keep if v in adj) if 2 * len(keep) < len(adj) else (v for v in adj if v in keep)
    seen: set = set()
    for v in order:
        for w, d in adj[v].items():
            if w in keep and w not in seen:
                yield v, w, d
        seen.add(v)


def component_of(g: nx.Graph, nodes, source) -> set:
    """``nx.node_connected_component(g.subgraph(nodes), source)``: the same set (``source`` in ``nodes``)."""
    if type(g) is not nx.Graph:
        return nx.node_connected_component(g.subgraph(nodes), source)
    keep = nx.filters.show_nodes(g.nbunch_iter(nodes)).nodes
    if source not in keep:
        return nx.node_connected_component(g.subgraph(nodes), source)  # networkx's own error
    return _bfs_within(g._adj, keep, len(keep), source)


def reach_within(g: nx.Graph, seeds, keep, limit: int) -> set:
    """The seeds and the nodes reached from them through nodes ``keep(node)`` accepts, the walk stopping once it
    holds more than ``limit`` (a bounded search: a small item or a propeller's blades among a large build costs
    no walk over the whole build; more than ``limit`` back means "part of something bigger")."""
    found, frontier = set(seeds), list(seeds)
    while frontier and len(found) <= limit:
        u = frontier.pop()
        for w in g.neighbors(u) if u in g else ():
            if w not in found and keep(w):
                found.add(w)
                frontier.append(w)
    return found


def _bfs_within(adj, keep: set, n: int, source) -> set:
    """networkx's ``_plain_bfs`` over the neighbours in ``keep``: the nodes reached from ``source``."""
    seen = {source}
    nextlevel = [source]
    while nextlevel:
        thislevel = nextlevel
        nextlevel = []
        for v in thislevel:
            for w in adj[v]:
                if w in keep and w not in seen:
                    seen.add(w)
                    nextlevel.append(w)
            if len(seen) == n:
                return seen
    return seen


def components(g: nx.Graph, nodes=None) -> list[list[int]]:
    """Connected components, largest first, each sorted."""
    comps = [sorted(c) for c in (nx.connected_components(g) if nodes is None else components_in(g, nodes))]
    comps.sort(key=lambda c: (-len(c), c[0]))
    return comps
