"""BrickNet, quietly and quickly: the one place brikscan imports it, and its connector tables compiled once.

``import bricknet`` imports pybullet, whose C extension prints "pybullet build time: …" straight to file
descriptor 2 (not through ``sys.stderr``), so every command would print it. The import runs with descriptor 2
pointed at /dev/null and restored afterwards, whatever happens.

Decoding BrickNet's connector labels (an xz-compressed JSON of ~325,000 connectors over ~14,500 parts) takes
2-4 s, every process. :func:`connector_table` compiles them once into a few ``.npy`` files in the brikscan cache
folder, keyed by the installed BrickNet version, its catalog files and :data:`TABLE_FORMAT`; later processes
memory-map them and read only the rows of the parts a model uses. The compiled values are BrickNet's own
(``graph._part_info``), so connections are exactly BrickNet's. The compiler and the pairing constants use
private BrickNet names: pyproject.toml pins the BrickNet version.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace

import numpy as np

TABLE_FORMAT = "1"  # bump when the files below change shape or meaning


@contextmanager
def stderr_fd_silenced():
    """Point file descriptor 2 at /dev/null for the ``with`` block (a no-op when descriptor 2 is closed)."""
    try:
        sys.stderr.flush()
    except Exception:
        pass
    try:
        saved = os.dup(2)
    except OSError:  # no descriptor 2 at all: nothing to silence
        yield
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 2)
        finally:
            os.close(devnull)
        yield
    finally:
        try:
            sys.stderr.flush()
        except Exception:
            pass
        os.dup2(saved, 2)
        os.close(saved)


@lru_cache(maxsize=1)
def bricknet_modules():
    """(bricknet.graph, bricknet.data) or None when BrickNet is not installed (or fails to import)."""
    with stderr_fd_silenced():
        try:
            import bricknet  # noqa: F401  (imports pybullet: the banner goes to /dev/null)
            from bricknet import data as bnd
            from bricknet import graph as bng
        except Exception:
            return None
    return bng, bnd


def _catalog_dir() -> Path | None:
    """BrickNet's data folder (the catalog ``$BRICKNET_CATALOG`` selects, as bricknet.data does), unimported."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("bricknet")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    d = Path(list(spec.submodule_search_locations)[0]) / "_data" / os.environ.get("BRICKNET_CATALOG", "v1")
    return d if d.is_dir() else None


def table_key() -> str | None:
    """What the compiled table depends on: BrickNet's version, its catalog files and the table format."""
    from importlib import metadata

    try:
        version = metadata.version("bricknet")
    except metadata.PackageNotFoundError:
        return None
    d = _catalog_dir()
    if d is None:
        return None
    h = hashlib.sha1(f"{TABLE_FORMAT}|{version}|{d}".encode())
    for name in ("part_names.json", "labels.json.xz", "part_aliases.json.xz"):
        try:
            st = (d / name).stat()
        except OSError:
            return None
        h.update(f"|{name}:{st.st_size}:{st.st_mtime_ns}".encode())
    return f"bricknet-{version}-f{TABLE_FORMAT}-{h.hexdigest()[:12]}"


@dataclass(frozen=True)
class PartConnectors:
    """The connectors of a list of placed parts, flattened in BrickNet's canonical order (``ConnArrays``)."""

    part_of: np.ndarray  # (M,) index into the list of parts
    kind: np.ndarray  # (M,) BrickNet Kind
    sub: np.ndarray  # (M,) encoded subtype (graph._sub_enc)
    pol: np.ndarray  # (M,) encoded polarity, -1 for none
    length: np.ndarray  # (M,) axle length (0 for others)
    frames: np.ndarray  # (M, 4, 4) part-local connector frames
    sub_name: list  # (M,) subtype names ("stud", "tube", "pin", ...)


class ConnectorTable:
    """BrickNet's connector labels as memory-mapped arrays; ``consts`` mirrors the graph constants used."""

    def __init__(self, folder: Path | None, arrays: dict | None = None, index: dict | None = None):
        if index is None:
            index = json.loads((folder / "index.json").read_text())
        self._folder = folder
        self._arrays = arrays or {}
        self.stems: list[str] = index["stems"]
        self.stem_to_id = {s: i for i, s in enumerate(self.stems)}
        self.aliases: dict[str, tuple[str, int]] = {k: (v[0], v[1]) for k, v in index["aliases"].items()}
        self.sub_names: list[str] = index["sub_names"]
        self.consts = _consts(index["consts"])

    def _a(self, name: str) -> np.ndarray:
        arr = self._arrays.get(name)
        if arr is None:
            arr = np.load(self._folder / f"{name}.npy", mmap_mode="r")
            self._arrays[name] = arr
        return arr

    def known(self) -> set[str]:
        """Stems BrickNet can place: catalog parts and aliases of catalog parts."""
        return set(self.stem_to_id) | {k for k, v in self.aliases.items() if v[0] in self.stem_to_id}

    def alias_matrix(self, k: int) -> np.ndarray:
        return np.array(self._a("alias_mats")[k])

    def n_connectors(self, pid: int) -> int:
        s = self._a("start")
        return int(s[pid + 1] - s[pid])

    def gather(self, pids) -> PartConnectors:
        """The connectors of parts ``pids`` (one entry per placed part), reading only their rows."""
        pids = np.asarray(pids, dtype=np.int64)
        start = np.asarray(self._a("start"))
        first, counts = start[pids], start[pids + 1] - start[pids]
        total = int(counts.sum())
        part_of = np.repeat(np.arange(len(pids)), counts)
        cum = np.cumsum(counts)
        rows = np.arange(total, dtype=np.int64) - np.repeat(cum - counts, counts) + np.repeat(first, counts)
        order = np.argsort(rows, kind="stable")  # read the memory map in file order
        inv = np.empty_like(order)
        inv[order] = np.arange(total)
        srows = rows[order]

        def take(name):
            return np.asarray(self._a(name)[srows])[inv]

        frames = np.zeros((total, 4, 4))
        frames[:, :3, :3] = np.asarray(self._a("rots"))[take("rot")]
        frames[:, :3, 3] = take("pos")
        frames[:, 3, 3] = 1.0
        names = self.sub_names
        return PartConnectors(part_of, take("kind"), take("sub"), take("pol"), take("length"), frames,
                              [names[k] for k in take("sub_name").tolist()])


def _consts(c: dict) -> SimpleNamespace:
    """The bricknet.graph constants the pairing uses, under the same names (so the pairing code reads alike)."""
    return SimpleNamespace(
        Kind=IntEnum("Kind", c["Kind"]), _POS_THR=c["_POS_THR"], _AXIS_THR=c["_AXIS_THR"],
        _AXLE_AXIS_THR=c["_AXLE_AXIS_THR"], _AXLE_PERP_THR=c["_AXLE_PERP_THR"],
        _AXLE_DEFAULT_RAD=c["_AXLE_DEFAULT_RAD"], _AXLE_MIN_OVERLAP=c["_AXLE_MIN_OVERLAP"],
        _AXLE_QUERY_PAD=c["_AXLE_QUERY_PAD"], _FIXED_AXIS_THR=c["_FIXED_AXIS_THR"],
        _FIXED_FRAME_TRACE=c["_FIXED_FRAME_TRACE"], _FIXED_ORIENTED=frozenset(c["_FIXED_ORIENTED"]),
        _AXLE_A_SIDE=frozenset(c["_AXLE_A_SIDE"]), _SUB_ENC=dict(c["_SUB_ENC"]), _N_SUBS=c["_N_SUBS"],
        _FAM_NAMES=list(c["_FAM_NAMES"]),
        _STUD_MATE_MAT=np.array(c["_STUD_MATE_MAT"], dtype=bool),
        _AXLE_MATE_MAT=np.array(c["_AXLE_MATE_MAT"], dtype=bool),
        _sub_enc=lambda s, enc=dict(c["_SUB_ENC"]): enc[s] if s in enc else 100 + int(s))


def compile_table() -> tuple[dict, dict] | None:
    """(arrays, index) from BrickNet's own decoding (slow: seconds), or None without BrickNet."""
    mods = bricknet_modules()
    if mods is None:
        return None
    bng, bnd = mods
    cat = bnd.load_catalog()
    conn_list = bnd.load_connector_list()
    stems = list(cat.id_to_stem)
    counts = np.zeros(len(stems) + 1, dtype=np.int64)
    frames, meta, sub_name = [], [], []
    names: dict[str, int] = {}
    for pid in range(len(stems)):
        if pid not in conn_list:
            continue
        info = bng._part_info(pid)
        if not len(info.conns):
            continue
        counts[pid + 1] = len(info.conns)
        frames.append(np.asarray(info.frames, dtype=np.float64))
        meta.append(np.asarray(info.meta, dtype=np.float64))
        sub_name.extend(names.setdefault(str(c[1]), len(names)) for c in info.conns)
    frames_a = np.concatenate(frames)
    meta_a = np.concatenate(meta)
    if not np.all(frames_a[:, 3] == (0, 0, 0, 1)):
        raise ValueError("BrickNet connector frames are not affine")
    rots, rot_idx = np.unique(frames_a[:, :3, :3].reshape(-1, 9), axis=0, return_inverse=True)
    arrays = {
        "start": np.cumsum(counts).astype(np.int64),
        "rots": rots.reshape(-1, 3, 3),
        "rot": rot_idx.reshape(-1).astype(np.int32),
        "pos": np.ascontiguousarray(frames_a[:, :3, 3]),
        "kind": meta_a[:, 0].astype(np.int8),
        "sub": meta_a[:, 1].astype(np.int16),
        "pol": meta_a[:, 2].astype(np.int8),
        "length": meta_a[:, 3].copy(),
        "sub_name": np.array(sub_name, dtype=np.int16),
    }
    for col, name in ((0, "kind"), (1, "sub"), (2, "pol")):  # the narrow integer types must be lossless
        if not np.array_equal(arrays[name].astype(np.float64), meta_a[:, col]):
            raise ValueError(f"BrickNet connector {name} does not fit the compact table")
    aliases = bnd.load_aliases()
    alias_names = sorted(aliases)
    arrays["alias_mats"] = np.array([np.asarray(aliases[k][1], dtype=np.float64) for k in alias_names]).reshape(
        -1, 4, 4)
    consts = {
        "Kind": {k.name: int(k) for k in bng.Kind},
        **{n: float(getattr(bng, n)) for n in ("_POS_THR", "_AXIS_THR", "_AXLE_AXIS_THR", "_AXLE_PERP_THR",
                                                "_AXLE_DEFAULT_RAD", "_AXLE_MIN_OVERLAP", "_AXLE_QUERY_PAD",
                                                "_FIXED_AXIS_THR", "_FIXED_FRAME_TRACE")},
        "_FIXED_ORIENTED": sorted(bng._FIXED_ORIENTED), "_AXLE_A_SIDE": sorted(bng._AXLE_A_SIDE),
        "_SUB_ENC": {k: int(v) for k, v in bng._SUB_ENC.items()}, "_N_SUBS": int(bng._N_SUBS),
        "_FAM_NAMES": list(bng._FAM_NAMES),
        "_STUD_MATE_MAT": np.asarray(bng._STUD_MATE_MAT).tolist(),
        "_AXLE_MATE_MAT": np.asarray(bng._AXLE_MATE_MAT).tolist(),
    }
    index = {"format": TABLE_FORMAT, "stems": stems,
             "aliases": {k: [aliases[k][0], i] for i, k in enumerate(alias_names)},
             "sub_names": sorted(names, key=names.get), "consts": consts}
    return arrays, index


def _write_table(folder: Path, arrays: dict, index: dict) -> None:
    """Write into a temporary sibling folder and rename it into place (readers never see half a table)."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}."))
    try:
        for name, arr in arrays.items():
            np.save(tmp / f"{name}.npy", arr)
        (tmp / "index.json").write_text(json.dumps(index))  # written last: its presence means complete
        os.chmod(tmp, 0o755)
        os.replace(tmp, folder)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        if not (folder / "index.json").exists():
            raise


@lru_cache(maxsize=1)
def connector_table(root: Path | None = None) -> ConnectorTable | None:
    """The compiled connector table (compiled and saved on first use), or None without BrickNet.

    ``root`` is the brikscan cache folder (default ``$BRIKSCAN_CACHE`` or ~/.cache/brikscan). An unwritable
    cache still works: the table is then compiled in memory every process.
    """
    from ..geometry.cache import default_cache_dir

    key = table_key()
    if key is None:
        return None
    folder = (root or default_cache_dir()) / "bricknet" / key
    if (folder / "index.json").exists():
        try:
            return ConnectorTable(folder)
        except (OSError, ValueError, KeyError):
            pass  # damaged: compile again
    built = compile_table()
    if built is None:
        return None
    arrays, index = built
    try:
        if folder.exists():
            shutil.rmtree(folder, ignore_errors=True)
        _write_table(folder, arrays, index)
    except OSError:
        pass
    return ConnectorTable(None, arrays, index)


def bricknet_part_names() -> dict[str, str]:
    """{stem: part name} of BrickNet's catalog (its part_names.json), without decoding the connector labels."""
    d = _catalog_dir()
    if d is None:
        return {}
    try:
        return json.loads((d / "part_names.json").read_text())
    except (OSError, ValueError):
        return {}
