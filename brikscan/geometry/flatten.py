"""A part and all its subparts and primitives, flattened to one triangle array in the part's own frame.

Each distinct file is flattened once (memoised), and references to it are applied as matrix products on whole
arrays. Winding: the parser stores CCW triangles; a mirrored matrix or ``BFC INVERTNEXT`` reverses a
subfile's triangles, so certified parts come out with outward normals.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..errors import InputError
from ..ldraw.parser import LDrawFile
from ..ldraw.resolve import Resolver
from ..ldraw.walk import ref_matrix

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
    memo: dict[tuple[str, bool], FlatGeometry | None] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)  # subfile name -> "file:line" that wanted it
    deps: set[str] = field(default_factory=set)  # library files read (their names) for cache validation

    def part(self, name: str, library_only: bool) -> FlatGeometry | None:
        """The flattened geometry of a part, or None when the part itself is missing."""
        return self._flat(name, library_only, [])

    def file_own(self, f: LDrawFile) -> FlatGeometry:
        """Only the triangles written in ``f`` itself (inline geometry of a submodel)."""
        if not f.tri_colour:
            return EMPTY
        return FlatGeometry(np.asarray(f.tri, dtype=np.float64).reshape(-1, 3, 3),
                            np.asarray(f.tri_colour, dtype=np.int32))

    def _flat(self, name: str, library_only: bool, stack: list[str]) -> FlatGeometry | None:
        key = (name, library_only)
        if key in self.memo:
            return self.memo[key]
        f = self.resolver.get(name, library_only=library_only)
        if f is None:
            self.memo[key] = None
            return None
        if name in stack:
            raise InputError(f"circular reference: {' -> '.join(stack + [name])}", file=f.path)
        stack.append(name)
        self.deps.add(name)
        tris = [] if not f.tri_colour else [np.asarray(f.tri, dtype=np.float64).reshape(-1, 3, 3)]
        cols = [] if not f.tri_colour else [np.asarray(f.tri_colour, dtype=np.int32)]
        # Group references by (child, flip) so each child is transformed once for all its placements.
        groups: dict[str, list] = {}
        for r in f.refs:
            if not self.studs and STUD_RE.match(r.name):
                continue
            groups.setdefault(r.name, []).append(r)
        for child_name, refs in groups.items():
            child = self._flat(child_name, library_only, stack)
            if child is None:
                self.missing.setdefault(child_name, f"{f.path}:{refs[0].line}")
                continue
            if child.n == 0:
                continue
            mats = np.stack([ref_matrix(r) for r in refs])  # (k,4,4)
            rot = mats[:, :3, :3]
            out = np.einsum("kij,nvj->knvi", rot, child.tris) + mats[:, None, None, :3, 3]
            flip = (np.linalg.det(rot) < 0) ^ np.array([r.invert for r in refs])
            if flip.any():
                out[flip] = out[flip][:, :, ::-1, :]
            tris.append(out.reshape(-1, 3, 3))
            ref_cols = np.array([r.colour for r in refs], dtype=np.int32)[:, None]
            c = np.where(child.colours[None, :] == 16, ref_cols, child.colours[None, :])
            cols.append(c.reshape(-1))
        stack.pop()
        g = FlatGeometry(np.concatenate(tris) if tris else EMPTY.tris,
                         np.concatenate(cols).astype(np.int32) if cols else EMPTY.colours)
        self.memo[key] = g
        return g
