"""A part and all its subparts and primitives, flattened to one triangle array in the part's own frame.

Each distinct file is flattened once (memoised), and references to it are applied as matrix products on whole
arrays. Winding: the parser stores CCW triangles; a mirrored matrix or ``BFC INVERTNEXT`` reverses a
subfile's triangles, so certified parts come out with outward normals.

Before any geometry is built, the part's files are put in post-order with an explicit stack and their triangles
counted through the nesting: a subfile bomb is refused (LimitError) before it is expanded, and any depth up to
the limit works without recursion.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..errors import Diagnostic, InputError, LimitError, clip, short
from ..ldraw.limits import DEFAULT_LIMITS, Limits
from ..ldraw.parser import LDrawFile, SubRef
from ..ldraw.resolve import Resolver, refusal, refused_message
from ..ldraw.walk import ref_matrix


def det(m: np.ndarray) -> np.ndarray:
    """Determinants; a singular placement is 0 without LAPACK's divide-by-zero warning."""
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.linalg.det(m)

# Stud primitives (stud.dat, stud2.dat, stud4a.dat, stug-2x2.dat, stu2..., stud-logo...): dropped by --no-studs.
STUD_RE = re.compile(r"^(?:48/|8/)?(?:stud|stug|stu\d)")


@dataclass
class FlatGeometry:
    tris: np.ndarray  # (n, 3, 3) float64, CCW where the source was BFC certified
    colours: np.ndarray  # (n,) int32; 16 = inherit the element's colour

    @property
    def n(self) -> int:
        return len(self.colours)


EMPTY = FlatGeometry(np.zeros((0, 3, 3)), np.zeros(0, dtype=np.int32))


@dataclass
class Flattener:
    resolver: Resolver
    studs: bool = True
    limits: Limits = DEFAULT_LIMITS
    memo: dict[tuple[str, bool], FlatGeometry | None] = field(default_factory=dict)
    counts: dict[tuple[str, bool], int | None] = field(default_factory=dict)  # triangles, through the nesting
    missing: dict[str, str] = field(default_factory=dict)  # subfile name -> "file:line" that wanted it
    deps: set[str] = field(default_factory=set)  # library files read (their names) for cache validation
    _warned: set[tuple[str, int]] = field(default_factory=set)

    def part(self, name: str, library_only: bool) -> FlatGeometry | None:
        """The flattened geometry of a part, or None when the part itself is missing."""
        key = (name, library_only)
        if key not in self.memo:
            for k, f in self._post_order(name, library_only):
                self.memo[k] = None if f is None else self._build(f, library_only)
        return self.memo[key]

    def file_own(self, f: LDrawFile | None) -> FlatGeometry:
        """Only the triangles written in ``f`` itself (inline geometry of a submodel)."""
        if f is None or not f.tri_colour:
            return EMPTY
        return FlatGeometry(np.asarray(f.tri, dtype=np.float64).reshape(-1, 3, 3),
                            np.asarray(f.tri_colour, dtype=np.int32))

    def _groups(self, f: LDrawFile) -> dict[str, list[SubRef]]:
        """References by child name, without dropped studs and refused names (warned once, with file:line)."""
        groups: dict[str, list[SubRef]] = {}
        for r in f.refs:
            if not self.studs and STUD_RE.match(r.name):
                continue
            reason = refusal(r.raw_name)
            if reason:
                if (f.path, r.line) not in self._warned:
                    self._warned.add((f.path, r.line))
                    self.resolver.diagnostics.append(Diagnostic(f.path, r.line,
                                                                refused_message(r.raw_name, reason)))
                continue
            groups.setdefault(r.name, []).append(r)
        return groups

    def _post_order(self, name: str, library_only: bool) -> list[tuple[tuple[str, bool], LDrawFile | None]]:
        """Files not yet built, children first; counts their triangles and checks the limits on the way."""
        order: list[tuple[tuple[str, bool], LDrawFile | None]] = []
        root = self.resolver.get(name, library_only=library_only)
        if root is None:
            self.counts[(name, library_only)] = None
            return [((name, library_only), None)]
        stack = [(root, list(self._groups(root).items()), 0)]
        on_stack = {root.name}
        while stack:
            f, children, i = stack[-1]
            if i < len(children):
                stack[-1] = (f, children, i + 1)
                child_name, refs = children[i]
                ck = (child_name, library_only)
                if ck in self.counts:
                    continue
                if child_name in on_stack:
                    chain = " -> ".join(clip(s[0].name, 40) for s in stack[-10:]) + f" -> {clip(child_name, 40)}"
                    raise InputError(f"circular reference: {chain}", file=f.path, line=refs[0].line)
                child = self.resolver.get(child_name, library_only=library_only)
                if child is None:
                    self.counts[ck] = None
                    order.append((ck, None))
                    continue
                if len(stack) >= self.limits.max_depth:
                    raise LimitError(f"subfiles nested deeper than {self.limits.max_depth} (limit --max-depth)",
                                     file=f.path, line=refs[0].line)
                on_stack.add(child.name)
                stack.append((child, list(self._groups(child).items()), 0))
                continue
            stack.pop()
            on_stack.discard(f.name)
            n = len(f.tri_colour) + sum(len(refs) * (self.counts.get((c, library_only)) or 0)
                                        for c, refs in children)
            if n > self.limits.max_triangles:
                raise LimitError(f"{short(f.name)} expands to {n:,} triangles, more than the limit of "
                                 f"{self.limits.max_triangles:,} (--max-triangles)", file=f.path)
            key = (f.name, library_only)
            self.counts[key] = n
            order.append((key, f))
        return order

    def _build(self, f: LDrawFile, library_only: bool) -> FlatGeometry:
        """One file's triangles from its own lines and its children's (already built) geometry."""
        self.deps.add(f.name)
        tris = [] if not f.tri_colour else [np.asarray(f.tri, dtype=np.float64).reshape(-1, 3, 3)]
        cols = [] if not f.tri_colour else [np.asarray(f.tri_colour, dtype=np.int32)]
        # Group references by child so each child is transformed once for all its placements.
        for child_name, refs in self._groups(f).items():
            child = self.memo.get((child_name, library_only))
            if child is None:
                self.missing.setdefault(child_name, f"{f.path}:{refs[0].line}")
                continue
            if child.n == 0:
                continue
            mats = np.stack([ref_matrix(r) for r in refs])  # (k,4,4)
            rot = mats[:, :3, :3]
            out = np.einsum("kij,nvj->knvi", rot, child.tris) + mats[:, None, None, :3, 3]
            flip = (det(rot) < 0) ^ np.array([r.invert for r in refs])
            if flip.any():
                out[flip] = out[flip][:, :, ::-1, :]
            tris.append(out.reshape(-1, 3, 3))
            ref_cols = np.array([r.colour for r in refs], dtype=np.int32)[:, None]
            c = np.where(child.colours[None, :] == 16, ref_cols, child.colours[None, :])
            cols.append(c.reshape(-1))
        return FlatGeometry(np.concatenate(tris) if tris else EMPTY.tris,
                            np.concatenate(cols).astype(np.int32) if cols else EMPTY.colours)
