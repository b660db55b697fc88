"""Per-part work of the analysis, remembered on disk by the exact bytes it was computed from (issue 9).

Two steps of a cold analysis are functions of one placed part alone: the convex hull of a part's first placed
instance (``measure._hull_index``, for Size) and the interior test's samples of a part (``interior._part_samples``).
On a 4,500-element set they are a third of the analysis, and an edit to a model leaves nearly all of them as they
were. So each answer is kept in the cache folder under a hash of everything it depends on: the input arrays'
bytes, dtypes and shapes, the other arguments, the source of the module that computes it and the numpy / scipy
versions. The same inputs give the same bytes back, so results are identical to computing afresh; any other
input (an element moved, a new first instance, another pitch) misses and is computed. A damaged or missing
entry is computed again. Off with ``BRIKSCAN_NO_PART_MEMO=1`` (a truly cold analysis, for benchmarks).
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Callable

import numpy as np

FORMAT = 2  # bump when the stored layout changes
_stamps: dict[tuple[tuple[str, ...], tuple[str, ...]], bytes] = {}
_folder: list[Path | None] = []


def disabled() -> bool:
    return os.environ.get("BRIKSCAN_NO_PART_MEMO", "") not in ("", "0")


def _stamp(modules: tuple[str, ...], libraries: tuple[str, ...]) -> bytes:
    """The source of the modules whose code computes the answer and the versions of numpy and ``libraries``
    (read from their installed metadata, so nothing is imported for it): a change to either is another key."""
    if (modules, libraries) not in _stamps:
        import importlib

        from .store import _dist_version

        h = hashlib.blake2b(digest_size=16)
        for name in modules:
            mod = importlib.import_module(name)
            try:
                h.update(Path(mod.__file__).read_bytes())
            except (OSError, TypeError):
                h.update(repr(mod).encode())
        versions = [_dist_version(name) for name in libraries]
        h.update(f"{FORMAT}|{np.__version__}|{'|'.join(versions)}".encode())
        _stamps[modules, libraries] = h.digest()
    return _stamps[modules, libraries]


def _root() -> Path | None:
    if not _folder:
        from ..cachedir import default_cache_dir

        try:
            d = default_cache_dir() / "part-memo" / f"f{FORMAT}"
            d.mkdir(parents=True, exist_ok=True)
            _folder.append(d)
        except OSError:
            _folder.append(None)
    return _folder[0]


def key_of(kind: str, module: str | tuple[str, ...], arrays: tuple[np.ndarray, ...], extra: tuple = (),
           libraries: tuple[str, ...] = ()) -> str:
    """A hex key of ``kind``, the computing module's stamp, every array (dtype, shape, bytes) and ``extra``."""
    h = hashlib.blake2b(digest_size=20)
    modules = (module,) if isinstance(module, str) else tuple(module)
    h.update(kind.encode() + b"\0" + _stamp(modules, libraries))
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(f"{a.dtype.str}{a.shape}".encode())
        h.update(memoryview(a).cast("B"))
    h.update(repr(extra).encode())
    return h.hexdigest()


def remembered(kind: str, module: str | tuple[str, ...], arrays: tuple[np.ndarray, ...], extra: tuple,
               compute: Callable[[], np.ndarray], libraries: tuple[str, ...] = ()) -> np.ndarray:
    """``compute()``, or the array it gave before for the same inputs (stored atomically after computing).

    ``module``: the ``__name__`` of the module (or modules) whose code computes it; ``libraries``: the
    installed distributions it calls."""
    root = None if disabled() else _root()
    if root is None:
        return compute()
    key = key_of(kind, module, arrays, extra, libraries)
    path = root / key[:2] / f"{key}.arr"
    try:
        return _read(path)
    except Exception:  # missing, damaged or unreadable: computed again below
        pass
    out = compute()
    try:
        path.parent.mkdir(exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(_encode(np.asarray(out)))
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except (OSError, ValueError):
        pass
    return out


_MAGIC = b"BKPM1"


def _encode(a: np.ndarray) -> bytes:
    """A small array file: magic, ``dtype;shape``, its byte count, then the C-order bytes (``np.load`` parses
    its header with ``ast``, which was most of reading a few hundred of these)."""
    if a.dtype.hasobject:
        raise ValueError("object arrays are not stored")
    data = np.ascontiguousarray(a).tobytes()
    head = f"{a.dtype.str};{','.join(str(int(n)) for n in a.shape)};{len(data)}".encode()
    return _MAGIC + head + b"\n" + data


def _read(path: Path) -> np.ndarray:
    """The array ``_encode`` wrote (a writable copy); ValueError for anything else."""
    raw = path.read_bytes()
    if not raw.startswith(_MAGIC):
        raise ValueError(f"{path}: not a part-memo entry")
    nl = raw.index(b"\n")
    dtype, shape, size = raw[len(_MAGIC):nl].decode().split(";")
    dims = tuple(int(n) for n in shape.split(",")) if shape else ()
    body = raw[nl + 1:]
    if len(body) != int(size):
        raise ValueError(f"{path}: truncated")
    return np.frombuffer(bytearray(body), dtype=np.dtype(dtype)).reshape(dims)
