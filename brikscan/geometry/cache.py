"""On-disk cache of flattened parts, keyed so that a library change invalidates them, and atomic writes.

A zip library is keyed by its path, size and mtime; a folder library by the size and mtime of every file the
part was built from (checked on load). Every entry carries a SHA-256 over its contents and the key it was made
for: an entry that fails the check, or holds values of the wrong shape, is rebuilt with a warning (never
trusted, never left to fail again). Temporary files carry their writer's pid; one left by a killed process is
removed by the next run.
"""
from __future__ import annotations

import hashlib
import json
import os
import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..cachedir import default_cache_dir  # noqa: F401  (where every cache lives; imported from here too)
from ..errors import OutputError
from ..ldraw.tempfiles import clean_stale_temps, temp_name

CACHE_VERSION = "4"  # 4: the header records the part an alias stands for ("alias"), so a warm load parses no alias file
MAGIC = b"BKS3"
_DIGEST = 32


@dataclass
class CachedPart:
    tris: np.ndarray  # (n,3,3) float32
    colours: np.ndarray  # (n,) int32
    header: dict


@contextmanager
def _term_as_interrupt():
    """SIGTERM raises KeyboardInterrupt while a temporary file exists, so it is removed (main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):
        raise KeyboardInterrupt

    try:
        old = signal.signal(signal.SIGTERM, handler)
    except (ValueError, OSError):
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def _replace_via_temp(path: Path, data: bytes, tmp_dir: Path, prefix: str) -> None:
    """Write ``data`` to a temporary file in ``tmp_dir`` and rename it to ``path``; OSError on failure."""
    tmp = tmp_dir / temp_name(prefix)
    with _term_as_interrupt():
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies, as for any output
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise


def write_atomic(path: Path, data: bytes) -> None:
    """Write via a temporary file in the same folder and rename, so readers never see half a file.

    OutputError (one line naming ``path``, never the temporary name) when it cannot be written.
    """
    path = Path(path)
    prefix = f".{path.name[:80]}."
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        clean_stale_temps(path.parent, prefix)
        if path.is_dir():
            raise IsADirectoryError(21, "is a folder")
        _replace_via_temp(path, data, path.parent, prefix)
    except OSError as exc:
        raise OutputError(f"cannot write the output ({exc.strerror or type(exc).__name__})",
                          file=str(path)) from None


def _checked(key: str, payload: bytes) -> bytes:
    return hashlib.sha256(key.encode("utf-8", "replace") + b"\0" + payload).digest()


class _Corrupt(Exception):
    """A cache entry that exists but cannot be trusted."""


def _header_ok(h) -> bool:
    return (isinstance(h, dict) and all(isinstance(h.get(k), str) for k in ("description", "category", "org_type"))
            and isinstance(h.get("keywords"), list) and all(isinstance(k, str) for k in h["keywords"]))


@dataclass
class PartCache:
    """One file per (library, part, options); disabled with ``enabled=False`` or when the folder is unwritable."""

    library_identity: str
    options: str
    root_dir: Path | None = None
    enabled: bool = True
    hits: int = 0
    misses: int = 0
    warnings: list[str] = field(default_factory=list)
    _made: set = field(default_factory=set, repr=False)  # folders already made by this process

    def __post_init__(self) -> None:
        self.root = (self.root_dir or default_cache_dir()) / "parts"
        self.prefix = f"{CACHE_VERSION}|{self.library_identity}|{self.options}|"
        if self.enabled:
            clean_stale_temps(self.root / "tmp", "")

    def _path(self, name: str) -> Path:
        h = hashlib.sha1((self.prefix + name).encode("utf-8", "replace")).hexdigest()
        return self.root / h[:2] / f"{h[2:]}.bks"

    def _corrupt(self, what: str, p: Path, why: str) -> None:
        self.warnings.append(f"cache entry {p.name} for {what[:60]!r} is corrupt ({why}): rebuilt")
        try:
            p.unlink()
        except OSError:
            pass

    def load(self, name: str, stamp_of) -> CachedPart | None:
        """A cached part, or None (absent, stale or corrupt: the caller rebuilds it)."""
        if not self.enabled:
            return None
        p = self._path(name)
        try:
            raw = p.read_bytes()
        except OSError:
            self.misses += 1
            return None
        try:
            meta, tris, cols = self._decode(self.prefix + name, raw)
            for loc, stamp in meta["deps"]:
                if stamp and stamp_of(loc) != stamp:
                    self.misses += 1
                    return None
        except _Corrupt as exc:
            self._corrupt(name, p, str(exc))
            self.misses += 1
            return None
        self.hits += 1
        return CachedPart(tris, cols, meta["header"])

    @staticmethod
    def _decode(key: str, raw: bytes) -> tuple[dict, np.ndarray, np.ndarray]:
        if len(raw) < 4 + _DIGEST + 4 or raw[:4] != MAGIC:
            raise _Corrupt("not a brikscan cache file")
        if _checked(key, raw[4 + _DIGEST:]) != raw[4:4 + _DIGEST]:
            raise _Corrupt("checksum")
        body = 4 + _DIGEST
        mlen = int.from_bytes(raw[body:body + 4], "little")
        try:
            meta = json.loads(raw[body + 4:body + 4 + mlen])
        except ValueError:
            raise _Corrupt("metadata") from None
        n = meta.get("n") if isinstance(meta, dict) else None
        deps = meta.get("deps") if isinstance(meta, dict) else None
        off = body + 4 + mlen
        if (not isinstance(n, int) or isinstance(n, bool) or n < 0 or len(raw) != off + n * 40
                or not _header_ok(meta.get("header")) or not isinstance(deps, list)
                or not all(isinstance(d, list) and len(d) == 2 and all(isinstance(x, str) for x in d)
                           for d in deps)):
            raise _Corrupt("metadata")
        tris = np.frombuffer(raw, dtype=np.float32, count=n * 9, offset=off).reshape(n, 3, 3)
        cols = np.frombuffer(raw, dtype=np.int32, count=n, offset=off + n * 36)
        if n and not np.isfinite(tris).all():
            raise _Corrupt("coordinates")
        return meta, tris, cols

    def _write(self, p: Path, blob: bytes) -> None:
        try:
            tmp_dir = self.root / "tmp"
            for d in (p.parent, tmp_dir):  # each folder made once per process, not once per part written
                if d not in self._made:
                    d.mkdir(parents=True, exist_ok=True)
                    self._made.add(d)
            _replace_via_temp(p, blob, tmp_dir, "")
        except OSError:
            self.enabled = False  # read-only home: go on without a cache

    def store(self, name: str, tris: np.ndarray, colours: np.ndarray, header: dict,
              deps: list[tuple[str, str]]) -> None:
        if not self.enabled:
            return
        meta = json.dumps({"header": header, "deps": [list(d) for d in deps], "n": int(len(colours))}).encode()
        payload = b"".join([len(meta).to_bytes(4, "little"), meta,
                            np.ascontiguousarray(tris, dtype=np.float32).tobytes(),
                            np.ascontiguousarray(colours, dtype=np.int32).tobytes()])
        self._write(self._path(name), MAGIC + _checked(self.prefix + name, payload) + payload)

    def load_json(self, key: str) -> dict | None:
        if not self.enabled:
            return None
        p = self._path("json:" + key).with_suffix(".json")
        try:
            raw = p.read_bytes()
        except OSError:
            return None
        try:
            doc = json.loads(raw)
            data = doc["data"]
            ok = (isinstance(doc, dict) and isinstance(data, dict) and doc.get("sha") ==
                  _checked(self.prefix + key, json.dumps(data, sort_keys=True).encode()).hex())
        except (ValueError, KeyError, TypeError):
            ok = False
        if not ok:
            self._corrupt(key, p, "checksum")
            return None
        return data

    def store_json(self, key: str, data: dict) -> None:
        if not self.enabled:
            return
        sha = _checked(self.prefix + key, json.dumps(data, sort_keys=True).encode()).hex()
        self._write(self._path("json:" + key).with_suffix(".json"), json.dumps({"sha": sha, "data": data}).encode())
