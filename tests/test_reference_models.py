"""Every shared official model loads, and its triangles, elements and bounding box equal ldraw2mesh's.

ldraw2mesh (PyPI, a Rust LDraw reader) is an independent implementation: same library, same model, counted
and flattened on its side.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import brikscan
from brikscan.ldraw.parser import decode
from brikscan.ldraw.library import Library

from conftest import LIBRARY_ZIP, NO_SHARED, ROOT, official_models

sys.path.insert(0, str(ROOT))
ldraw2mesh = pytest.importorskip("ldraw2mesh", reason="ldraw2mesh (test-only reference) is not installed")
from bench.reference import ldraw2mesh_load, unzipped_library  # noqa: E402

MODELS = official_models()


@pytest.fixture(scope="module")
def unzipped(tmp_path_factory):
    if not LIBRARY_ZIP.exists():
        pytest.skip(NO_SHARED)
    return unzipped_library(LIBRARY_ZIP)


def test_shared_models_are_there():
    if not LIBRARY_ZIP.exists():
        pytest.skip(NO_SHARED)
    assert len(MODELS) >= 80


@pytest.mark.parametrize("path", MODELS, ids=[p.stem[:30] for p in MODELS])
def test_model_matches_ldraw2mesh(path: Path, unzipped, tmp_path_factory):
    model = brikscan.load(path, LIBRARY_ZIP, stand_ins=False)  # the reader alone: what the files name
    ref = ldraw2mesh_load(path, unzipped, tmp_path_factory.getbasetemp() / "lower-case-links")
    assert model.mesh.n_triangles == ref["triangles"]
    if model.main.name.endswith(".dat"):
        # ldraw2mesh treats a main file named *.dat as one part; brikscan expands the model it was given.
        assert ref["instances"] == 1
    else:
        # ldraw2mesh counts each type-1 line of an LSynth block as an instance; brikscan makes the hose one element
        lines = decode(path.read_bytes(), str(path)).splitlines()

        def block_refs(begin: int) -> int:
            n = 0
            for text in lines[begin:]:
                if text.strip().upper().startswith(("0 SYNTH END", "0 FILE", "0 NOFILE")):
                    break  # an unclosed block (one in WALL-E) ends with its file
                n += text.strip().startswith("1 ")
            return n

        segments = sum(block_refs(int(e.source.rsplit(":", 1)[1])) - 1 for e in model.elements if e.hose)
        assert len(model.elements) == ref["instances"] - segments
    lo, hi = model.bbox_ldu
    np.testing.assert_allclose(lo, ref["bbox_min"], atol=0.01)
    np.testing.assert_allclose(hi, ref["bbox_max"], atol=0.01)
    # the only missing parts are those the library really lacks (and the model does not embed)
    lib = Library.open(LIBRARY_ZIP)
    for name in model.missing_parts:
        assert lib.find(name) is None and name not in model.files, name
    # every element has a box inside the model's box
    boxes = np.array([e.bbox_min for e in model.elements] + [e.bbox_max for e in model.elements])
    assert (boxes >= lo - 0.01).all() and (boxes <= hi + 0.01).all()
