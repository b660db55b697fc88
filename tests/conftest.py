"""Shared fixtures: where ../shared is (the LDraw library and the official models), and a per-session cache."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("BRIKSCAN_SHARED", ROOT.parent / "shared"))
LIBRARY_ZIP = SHARED / "ldraw" / "complete.zip"
MODELS_DIR = SHARED / "ldraw" / "models"
EXAMPLES = ROOT / "ldraw_models"
SCENES = ROOT / "scenes"

NO_SHARED = "needs ../shared/ldraw (the LDraw library and official models); CI has it, this machine does not"
needs_shared = pytest.mark.skipif(not LIBRARY_ZIP.exists(), reason=NO_SHARED)


def official_models() -> list[Path]:
    if not MODELS_DIR.exists():
        return []
    return sorted(p for p in MODELS_DIR.iterdir() if p.suffix.lower() in (".mpd", ".ldr"))


@pytest.fixture(scope="session", autouse=True)
def _isolated_cache(tmp_path_factory):
    """Tests share one part cache per session, never the user's own."""
    if "BRIKSCAN_CACHE" not in os.environ:
        os.environ["BRIKSCAN_CACHE"] = str(tmp_path_factory.mktemp("brikscan-cache"))
    os.environ.setdefault("VTK_DEFAULT_OPENGL_WINDOW", "vtkEGLRenderWindow")
    yield


@pytest.fixture(scope="session")
def library_zip() -> Path:
    if not LIBRARY_ZIP.exists():
        pytest.skip(NO_SHARED)
    return LIBRARY_ZIP


@pytest.fixture(scope="session")
def loaded():
    """Load a model once per session: loaded(path, library=LIBRARY_ZIP)."""
    import brikscan

    memo: dict = {}

    def get(path, library=None, **kw):
        lib = library if library is not None else (LIBRARY_ZIP if LIBRARY_ZIP.exists() else None)
        key = (str(path), str(lib), tuple(sorted(kw.items())))
        if key not in memo:
            memo[key] = brikscan.load(path, lib, **kw)
        return memo[key]

    return get
