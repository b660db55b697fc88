"""The main model's type-1 lines, depth first in file order, into elements (one per part reference).

An element is a reference, made from a model or submodel, to a part: a ``.dat`` file unless its header says
Model (or, with no ``!LDRAW_ORG`` line, it is a local file that places parts: an old MPD's submodel). Other
files (``.ldr``, ``.mpd``) are submodels and are expanded unless their header says Part or Shortcut.

Before anything is expanded, :func:`plan` counts the elements each submodel would give (multiplied through the
nesting, once per distinct submodel), so a reference bomb is refused in microseconds; both passes use explicit
stacks, so any depth up to the limit works without recursion.
"""
from __future__ import annotations

import math
import re
from bisect import bisect_left
from dataclasses import dataclass, field

import numpy as np

from ..errors import Diagnostic, InputError, LimitError, clip, short
from .limits import DEFAULT_LIMITS, Limits
from .parser import LDrawFile, SubRef
from .resolve import Resolver, refusal, refused_message

PART_TYPES = {"part", "shortcut"}


@dataclass
class ElementRef:
    """What the reader knows of an element before geometry: where it is and what it references."""

    index: int
    part: str  # normalized file name, e.g. "3001.dat"
    raw_name: str
    colour: int
    transform: np.ndarray  # 4x4 world transform, float64
    submodel_path: tuple[str, ...]  # submodel names from the main model down to the one holding the line
    source: str  # "file:line" of the type-1 line
    refs: tuple[tuple[str, int], ...]  # (file name, line) of each type-1 line from the main model down
    step: int  # 0 STEP count before the line in its own file
    invert: bool = False  # BFC INVERTNEXT on the way down (odd number of times)


@dataclass
class InlineGeometry:
    """Triangles written directly in a (sub)model: part of the mesh, not an element."""

    file: str
    transform: np.ndarray
    colour: int
    invert: bool = False


@dataclass
class Walk:
    main: LDrawFile
    elements: list[ElementRef] = field(default_factory=list)
    inline: list[InlineGeometry] = field(default_factory=list)
    missing: dict[str, str] = field(default_factory=dict)  # name -> first "file:line" referencing it
    submodels: dict[str, LDrawFile] = field(default_factory=dict)


def ref_matrix(r: SubRef) -> np.ndarray:
    x, y, z, a, b, c, d, e, f, g, h, i = r.m
    return np.array([[a, b, c, x], [d, e, f, y], [g, h, i, z], [0, 0, 0, 1]], dtype=np.float64)


def is_part_ref(name: str, resolver: Resolver, _depth: int = 0) -> bool:
    """Parts by extension, corrected by the header where the file is ours to read cheaply (MPD/model folder).

    A local ``.dat`` without an ``!LDRAW_ORG`` line is read by what it is: old MLCad-era MPDs name their
    submodels ``whole.dat`` or ``engine.dat`` with a "0 Unofficial Model" line or no header at all, and a player's
    mech is not one brick. Such a file is a submodel when it says "Model" in its header or when it has no
    geometry of its own and places library parts or other local submodels (a custom part is drawn from
    triangles and primitives). ``_depth``: how many headerless ``.dat`` files deep this question was asked from;
    past ``JUDGE_DEPTH`` a local file placed by one is taken for a submodel without reading further (a chain
    of hundreds of them is a submodel chain, and ``plan`` refuses it past ``--max-depth``), so the question never
    recurses beyond that."""
    known = resolver.part_memo.get(name)
    if known is not None:
        return known
    if resolver.local(name):
        resolver.part_memo[name] = True  # a reference cycle stops here (plan() reports it)
        f = resolver.get(name)
        org = (f.header.org_type if f else "").lower()
        if not name.endswith(".dat"):
            answer = org in PART_TYPES
        elif org or f is None:
            answer = org != "model"
        else:
            answer = not _assembly(f, resolver, _depth)
    else:
        answer = name.endswith(".dat")
    resolver.part_memo[name] = answer
    return answer


_OLD_MODEL_HEADERS = ("unofficial model", "un-official model", "official model")
# primitives' names (p/ folder): a custom part's references, not parts placed in a model
_PRIMITIVE = re.compile(r"^(\d+-\d+|stu|box|rect|ring|disc|ndis|edge|cyl|con\d|tri|chrd|axl|peg|npeg|connect|"
                        r"logo|t\d\d|bump|arc|empty|filstud|knob|wpin|beam|bush|clh|clip|h[0-9]|typeplug)")


JUDGE_DEPTH = 32  # headerless .dat files asked about one inside the next before the next is taken for a submodel


def _assembly(f: LDrawFile, resolver: Resolver, depth: int = 0) -> bool:
    """A headerless local ``.dat`` that is a model: its header's old "Unofficial Model" line, or no triangles of
    its own and a reference to a library part (not a subpart or primitive) or to another local submodel."""
    if any(text.strip().lower() in _OLD_MODEL_HEADERS for text in [f.header.description] + [t for _, t in f.metas[:8]]):
        return True
    if f.has_geometry or not f.refs:
        return False
    for r in f.refs:
        if refusal(r.raw_name):
            continue
        if resolver.local(r.name):
            if depth >= JUDGE_DEPTH or not is_part_ref(r.name, resolver, depth + 1):
                return True
            continue
        loc = resolver.locator(r.name)
        if loc is not None:
            low = loc.replace("\\", "/").lower()
            if "/parts/" in f"/{low}" and "/parts/s/" not in f"/{low}":
                return True
        elif "/" not in r.name and "\\" not in r.name and not _PRIMITIVE.match(r.name):
            return True  # no library to ask: a part's number, not a primitive's name
    return False


def _submodel(r: SubRef, resolver: Resolver) -> LDrawFile | None:
    """The file a non-part reference expands to, or None (a part, refused or missing)."""
    if refusal(r.raw_name) or is_part_ref(r.name, resolver):
        return None
    return resolver.get(r.name)


def plan(main: LDrawFile, resolver: Resolver, limits: Limits = DEFAULT_LIMITS) -> int:
    """How many elements the walk will make; LimitError past the limits, InputError on a cycle.

    Post-order over distinct submodels with an explicit stack: each one's count is its part lines plus its
    submodels' counts, so the cost is the number of distinct lines, not the number of elements.
    """
    counts: dict[str, int] = {}
    on_stack: dict[str, int] = {}
    stack: list[tuple[LDrawFile, int, int]] = [(main, 0, 0)]  # (file, next ref index, count so far)
    on_stack[main.name] = 0
    while stack:
        f, i, acc = stack[-1]
        if i == len(f.refs):
            stack.pop()
            del on_stack[f.name]
            counts[f.name] = acc
            if stack:
                pf, pi, pacc = stack[-1]
                stack[-1] = (pf, pi, pacc + acc)
            continue
        r = f.refs[i]
        stack[-1] = (f, i + 1, acc)
        sub = _submodel(r, resolver)
        if sub is None:
            if not refusal(r.raw_name) and is_part_ref(r.name, resolver):
                stack[-1] = (f, i + 1, acc + 1)
            continue
        if sub.name in on_stack:
            names = [s[0].name for s in stack[on_stack[sub.name]:]] + [sub.name]
            cycle = " -> ".join(clip(n, 40) for n in names[-12:])
            raise InputError(f"circular reference: {cycle}", file=f.path, line=r.line)
        if sub.name in counts:
            stack[-1] = (f, i + 1, acc + counts[sub.name])
            continue
        if len(stack) >= limits.max_depth:
            raise LimitError(f"submodels nested deeper than {limits.max_depth} (limit --max-depth)",
                             file=f.path, line=r.line)
        on_stack[sub.name] = len(stack)
        stack.append((sub, 0, 0))
    total = counts[main.name]
    if total > limits.max_elements:
        raise LimitError(f"the model expands to {_big(total)} elements, more than the limit of "
                         f"{limits.max_elements:,} (--max-elements)", file=main.path)
    return total


def _big(n: int) -> str:
    return f"{n:,}" if n < 10 ** 15 else f"about 10^{len(str(n)) - 1}"


def _check_placement(world: np.ndarray, limits: Limits, where: str) -> None:
    """Scale and coordinates of a placement within the limits (also keeps NaN and inf out of the mesh)."""
    rows = world[:3].tolist()  # twelve numbers: plain floats are several times faster than numpy reductions
    rot = [abs(v) for row in rows for v in row[:3]]
    scale = max(rot) if all(map(math.isfinite, rot)) else float("inf")
    if not scale <= limits.max_scale:
        file, _, line = where.rpartition(":")
        raise LimitError(f"a placement scales a part by {scale:.3g}, more than the limit of {limits.max_scale:g} "
                         "(--max-scale)", file=file, line=int(line))
    pos = [abs(row[3]) for row in rows]
    far = max(pos) if all(map(math.isfinite, pos)) else float("inf")
    if not far <= limits.max_coord:
        file, _, line = where.rpartition(":")
        raise LimitError(f"a placement lies {far:.3g} LDU from the origin, more than the limit of "
                         f"{limits.max_coord:g} (--max-coord)", file=file, line=int(line))


@dataclass
class _Frame:
    f: LDrawFile
    world: np.ndarray
    colour: int
    path: tuple[str, ...]
    chain: tuple[tuple[str, int], ...]
    invert: bool
    i: int = 0


def walk_model(main: LDrawFile, resolver: Resolver, diagnostics: list[Diagnostic],
               limits: Limits = DEFAULT_LIMITS) -> Walk:
    plan(main, resolver, limits)
    w = Walk(main)
    stack = [_Frame(main, np.eye(4), 16, (), (), False)]
    if main.has_geometry:
        w.inline.append(InlineGeometry(main.name, stack[0].world, 16, False))
    while stack:
        fr = stack[-1]
        f = fr.f
        if fr.i == len(f.refs):
            stack.pop()
            continue
        r = f.refs[fr.i]
        fr.i += 1
        src = f"{f.path}:{r.line}"
        reason = refusal(r.raw_name)
        if reason:
            diagnostics.append(Diagnostic(f.path, r.line, refused_message(r.raw_name, reason)))
            continue
        link = fr.chain + ((f.name, r.line),)
        child_world = fr.world @ ref_matrix(r)
        _check_placement(child_world, limits, src)
        child_colour = fr.colour if r.colour == 16 else r.colour
        if is_part_ref(r.name, resolver):
            step = bisect_left(f.steps, r.line)
            w.elements.append(ElementRef(len(w.elements), r.name, r.raw_name, child_colour, child_world,
                                         fr.path, src, link, step, fr.invert ^ r.invert))
            continue
        sub = resolver.get(r.name)
        if sub is None:
            w.missing.setdefault(r.name, src)
            diagnostics.append(Diagnostic(f.path, r.line, f"missing file {short(r.raw_name)}"))
            continue
        w.submodels.setdefault(sub.name, sub)
        invert = fr.invert ^ r.invert
        if sub.has_geometry:
            w.inline.append(InlineGeometry(sub.name, child_world, child_colour, invert))
        stack.append(_Frame(sub, child_world, child_colour, fr.path + (sub.name,), link, invert))
    return w
