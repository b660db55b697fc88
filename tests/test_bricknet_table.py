"""BrickNet's connector labels compiled once into memory-mapped arrays: the same values as BrickNet's own
decoding, keyed so that another BrickNet invalidates them, and read part by part."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("bricknet")

from brikscan.analysis import bricknet_import as bi  # noqa: E402


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    root = tmp_path_factory.mktemp("cache")
    t = bi.connector_table(root)  # compiles and saves
    assert t is not None
    return t, root


def test_table_is_saved_under_the_bricknet_key_and_memory_mapped(table):
    t, root = table
    key = bi.table_key()
    assert key.startswith("bricknet-0.1.1-f" + bi.TABLE_FORMAT)
    folder = root / "bricknet" / key
    assert (folder / "index.json").exists()
    loaded = bi.ConnectorTable(folder)
    assert isinstance(loaded._a("pos"), np.memmap)  # read lazily, row by row
    assert loaded.stems == t.stems


def test_table_rows_equal_bricknets_part_info(table):
    t, _ = table
    bng, bnd = bi.bricknet_modules()
    pids = [p for p in range(len(t.stems)) if t.n_connectors(p)]
    rng = np.random.default_rng(0)
    sample = sorted(set(rng.choice(pids, 400, replace=False).tolist()) | {t.stem_to_id["3001"]})
    got = t.gather(sample)
    infos = [bng._part_info(p) for p in sample]
    meta = np.concatenate([i.meta for i in infos]).astype(np.float64)
    assert np.array_equal(got.frames, np.concatenate([i.frames for i in infos]))
    for col, arr in enumerate((got.kind, got.sub, got.pol, got.length)):
        assert np.array_equal(arr.astype(np.float64), meta[:, col])
    assert got.sub_name == [str(c[1]) for i in infos for c in i.conns]
    assert np.array_equal(got.part_of, np.repeat(np.arange(len(sample)), [len(i.conns) for i in infos]))
    aliases = bnd.load_aliases()
    for src in list(aliases)[:50]:
        dst, k = t.aliases[src]
        assert dst == aliases[src][0] and np.array_equal(t.alias_matrix(k), aliases[src][1])
    for name in ("_POS_THR", "_AXLE_DEFAULT_RAD", "_N_SUBS", "_FAM_NAMES", "_SUB_ENC"):
        assert getattr(t.consts, name) == getattr(bng, name)
    assert np.array_equal(t.consts._STUD_MATE_MAT, bng._STUD_MATE_MAT)
    assert int(t.consts.Kind.axle) == int(bng.Kind.axle)


def test_another_bricknet_version_means_another_table(monkeypatch):
    from importlib import metadata

    key = bi.table_key()
    real = metadata.version
    monkeypatch.setattr(metadata, "version", lambda name: "9.9.9" if name == "bricknet" else real(name))
    assert bi.table_key() != key and "9.9.9" in bi.table_key()
