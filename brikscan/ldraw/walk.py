"""The main model's type-1 lines, depth first in file order, into elements (one per part reference).

An element is a reference, made from a model or submodel, to a part: a ``.dat`` file unless its header says
Model. Other files (``.ldr``, ``.mpd``) are submodels and are expanded unless their header says Part or Shortcut.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..errors import Diagnostic, InputError
from .parser import LDrawFile, SubRef
from .resolve import Resolver

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


def is_part_ref(name: str, resolver: Resolver) -> bool:
    """Parts by extension, corrected by the header where the file is ours to read cheaply (MPD/model folder)."""
    if resolver.local(name):
        f = resolver.get(name)
        org = (f.header.org_type if f else "").lower()
        if name.endswith(".dat"):
            return org != "model"
        return org in PART_TYPES
    return name.endswith(".dat")


def walk_model(main: LDrawFile, resolver: Resolver, diagnostics: list[Diagnostic]) -> Walk:
    w = Walk(main)
    stack: list[str] = []

    def visit(f: LDrawFile, world: np.ndarray, colour: int, path: tuple[str, ...],
              chain: tuple[tuple[str, int], ...], invert: bool) -> None:
        if f.name in stack:
            cycle = " -> ".join(stack[stack.index(f.name):] + [f.name])
            raise InputError(f"circular reference: {cycle}", file=f.path)
        stack.append(f.name)
        if f.has_geometry:
            w.inline.append(InlineGeometry(f.name, world, colour, invert))
        steps = f.steps
        for r in f.refs:
            link = chain + ((f.name, r.line),)
            local = ref_matrix(r)
            child_world = world @ local
            child_colour = colour if r.colour == 16 else r.colour
            src = f"{f.path}:{r.line}"
            step = sum(1 for s in steps if s < r.line)
            if is_part_ref(r.name, resolver):
                w.elements.append(ElementRef(len(w.elements), r.name, r.raw_name, child_colour, child_world,
                                             path, src, link, step, invert ^ r.invert))
                continue
            sub = resolver.get(r.name)
            if sub is None:
                w.missing.setdefault(r.name, src)
                diagnostics.append(Diagnostic(f.path, r.line, f"missing file {r.raw_name!r}"))
                continue
            w.submodels.setdefault(sub.name, sub)
            visit(sub, child_world, child_colour, path + (sub.name,), link, invert ^ r.invert)
        stack.pop()

    visit(main, np.eye(4), 16, (), (), False)
    return w
