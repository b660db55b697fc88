"""Limits on what a model may ask for, checked before the work is done (a hostile file gets exit 3, not 8 GB).

The defaults are far above any real creation (the largest official model has under 5,000 elements and 4.1 M
triangles) and far below what would exhaust a 2-core, few-GB machine.
"""
from __future__ import annotations

from dataclasses import dataclass

MAX_NAME_BYTES = 255  # longest file name a file system takes for one path component
MAX_FILE_BYTES = 32 << 20  # one LDraw file (or a member of a Studio .io): 10x the largest official model


@dataclass(frozen=True)
class Limits:
    max_elements: int = 200_000
    max_triangles: int = 20_000_000  # the whole mesh, and any one part (float32: 36 bytes each)
    max_depth: int = 100  # submodel and subfile nesting
    max_coord: float = 1.0e5  # LDU from the origin (40 m)
    max_scale: float = 1.0e3  # largest factor a placement may stretch a part by

    def __post_init__(self) -> None:
        for name in ("max_elements", "max_triangles", "max_depth", "max_coord", "max_scale"):
            v = getattr(self, name)
            if not v > 0 or v != v or v == float("inf"):
                from ..errors import UsageError

                raise UsageError(f"--{name.replace('_', '-')} {v}: give a positive finite number")


DEFAULT_LIMITS = Limits()
