"""On-disk cache of flattened parts, keyed so that a library change invalidates them.

A zip library is keyed by its path, size and mtime; a folder library by the size and mtime of every file the
part was built from (checked on load).
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

CACHE_VERSION = "2"
MAGIC = b"BKS2"


def default_cache_dir() -> Path:
    env = os.environ.get("BRIKSCAN_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "brikscan"


@dataclass
class CachedPart:
    tris: np.ndarray  # (n,3,3) float32
    colours: np.ndarray  # (n,) int32
    header: dict


def write_atomic(path: Path, data: bytes) -> None:
    """Write via a temporary file in the same folder and rename, so readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; outputs get the usual permissions
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class PartCache:
    """One file per (library, part, options); disabled with ``enabled=False`` or when the folder is unwritable."""

    def __init__(self, library_identity: str, options: str, root: Path | None = None, enabled: bool = True):
        self.root = (root or default_cache_dir()) / "parts"
        self.prefix = f"{CACHE_VERSION}|{library_identity}|{options}|"
        self.enabled = enabled
        self.hits = 0
        self.misses = 0

    def _path(self, name: str) -> Path:
        h = hashlib.sha1((self.prefix + name).encode()).hexdigest()
        return self.root / h[:2] / f"{h[2:]}.bks"

    def load(self, name: str, stamp_of) -> CachedPart | None:
        """A cached part, or None (absent, stale or unreadable: the caller rebuilds it)."""
        if not self.enabled:
            return None
        try:
            raw = self._path(name).read_bytes()
            if raw[:4] != MAGIC:
                raise ValueError("not a brikscan cache file")
            mlen = int.from_bytes(raw[4:8], "little")
            meta = json.loads(raw[8:8 + mlen])
            for loc, stamp in meta.get("deps", []):
                if stamp and stamp_of(loc) != stamp:
                    self.misses += 1
                    return None
            n = meta["n"]
            off = 8 + mlen
            tris = np.frombuffer(raw, dtype=np.float32, count=n * 9, offset=off).reshape(n, 3, 3)
            cols = np.frombuffer(raw, dtype=np.int32, count=n, offset=off + n * 36)
        except (OSError, KeyError, ValueError, FileNotFoundError):
            self.misses += 1
            return None
        self.hits += 1
        return CachedPart(tris, cols, meta["header"])

    def store(self, name: str, tris: np.ndarray, colours: np.ndarray, header: dict,
              deps: list[tuple[str, str]]) -> None:
        if not self.enabled:
            return
        meta = json.dumps({"header": header, "deps": deps, "n": int(len(colours))}).encode()
        blob = b"".join([MAGIC, len(meta).to_bytes(4, "little"), meta,
                         np.ascontiguousarray(tris, dtype=np.float32).tobytes(),
                         np.ascontiguousarray(colours, dtype=np.int32).tobytes()])
        try:
            write_atomic(self._path(name), blob)
        except OSError:
            self.enabled = False  # read-only home: go on without a cache

    def load_json(self, key: str) -> dict | None:
        if not self.enabled:
            return None
        p = self._path("json:" + key).with_suffix(".json")
        try:
            return json.loads(p.read_text())
        except (OSError, ValueError):
            return None

    def store_json(self, key: str, data: dict) -> None:
        if not self.enabled:
            return
        try:
            write_atomic(self._path("json:" + key).with_suffix(".json"), json.dumps(data).encode())
        except OSError:
            self.enabled = False
