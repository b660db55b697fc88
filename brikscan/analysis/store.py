"""The analysis of a model, kept on disk beside the part cache, so the next command on the same model reads it.

An entry is keyed by everything the analysis depends on: brikscan's and BrickNet's versions, the rules edition
and options, the geometry source (library or fallback), every file's meta lines (annotations) and every
element's part, colour, placement, box and source line. Editing the model (even adding a comment, which moves
line numbers) gives a new key. An entry is a checksum followed by a pickle; one that does not verify or does not
load is dropped with a warning and rebuilt.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

FORMAT = b"BKA1"
MAX_AGE_S = 30 * 24 * 3600  # entries unused for a month are removed when a new one is written


@dataclass(frozen=True)
class AnalysisOptions:
    """Everything besides the model that changes an analysis."""

    rules: str = "2010"
    scale: str = "inch"
    round_mode: str = "nearest"
    sl: float | None = None
    overrides: tuple[str, ...] = ()
    space: bool | None = None  # spacecraft/antigravity for every flyer (None: per creation annotation)
    move: str = "default"  # default Move [000 §9.1] or the [004] formula

    def key_text(self) -> str:
        return repr((self.rules, self.scale, self.round_mode, self.sl, self.overrides, self.space, self.move))


@lru_cache(maxsize=1)
def _versions() -> str:
    """brikscan's and BrickNet's versions, once per process.

    BrickNet's comes from the name of its ``.dist-info`` folder beside the package (``importlib.metadata`` costs
    50 ms of imports, a tenth of a cached ``stats``); the metadata API is the fallback."""
    from .. import __version__

    return f"brikscan={__version__};bricknet={_dist_version('bricknet')}"


def _dist_version(dist: str) -> str:
    import importlib.util

    try:
        spec = importlib.util.find_spec(dist)
        if spec is not None and spec.origin:
            found = sorted(Path(spec.origin).parents[1].glob(f"{dist}-*.dist-info"))
            if len(found) == 1:
                return found[0].name[len(dist) + 1:-len(".dist-info")]
        from importlib import metadata

        return metadata.version(dist)
    except Exception:
        return "?"


@lru_cache(maxsize=1)
def code_stamp() -> str:
    """The analysis code itself (size and mtime of its modules, rule tables and geometry): an edited rule is a new key.

    Computed once per process, not on every analyse call: the code that runs is what the process imported at its
    start, and editing the files later does not change it. ``stats`` works it out when it is imported, so a
    long-running process (a test session, the web app) never files results of the code it runs under the key of
    files edited since."""
    here = Path(__file__).parent
    pkg = here.parent  # the geometry it measures with (geometry/obb.py's boxes are the Size) counts too
    files = sorted(list(here.glob("*.py")) + list((pkg / "rules").glob("*.toml")) +
                   list((pkg / "rules").glob("*.py")) + list((pkg / "geometry").glob("*.py")))
    return ";".join(f"{f.parent.name}/{f.name}:{f.stat().st_size}:{int(f.stat().st_mtime)}" for f in files)


def model_key(model, options: AnalysisOptions) -> str:
    """A hex digest over the model content, its geometry source, the options and the code."""
    h = hashlib.sha256()
    h.update(f"{_versions()}|{code_stamp()}|{options.key_text()}|{model.geometry_source}".encode())
    for name, f in sorted(model.files.items()):
        h.update(f"\x00{name}\x00{f.header.name}\x00{f.header.description}\x00{f.header.theme}".encode(
            "utf-8", "replace"))
        for line, text in f.metas:
            h.update(f"{line}:{text}\n".encode("utf-8", "replace"))
    els = model.elements
    h.update("\x00".join(f"{e.part}|{e.colour}|{e.source}|{e.description}|{int(e.missing)}"
                         for e in els).encode("utf-8", "replace"))
    if els:
        h.update(np.ascontiguousarray(np.stack([e.transform for e in els]), dtype=np.float64).tobytes())
        h.update(np.ascontiguousarray(np.stack([e.bbox_min for e in els] + [e.bbox_max for e in els]),
                                      dtype=np.float64).tobytes())
    h.update(np.diff(model.mesh.element_offsets).astype(np.int64).tobytes())
    return h.hexdigest()


@dataclass
class AnalysisStore:
    """Reads and writes analysis entries under ``root`` (the cache folder's ``analysis/``)."""

    root: Path
    enabled: bool = True
    warnings: list[str] = field(default_factory=list)

    @classmethod
    def default(cls, enabled: bool = True) -> "AnalysisStore":
        from ..geometry.cache import default_cache_dir

        return cls(default_cache_dir() / "analysis", enabled)

    def _path(self, key: str) -> Path:
        return self.root / f"{key[:40]}.pkl"

    def load(self, key: str):
        """The stored analysis (without its model) or None."""
        if not self.enabled:
            return None
        p = self._path(key)
        try:
            data = p.read_bytes()
        except OSError:
            return None
        ok = data[:4] == FORMAT and len(data) > 36 and hashlib.sha256(data[36:]).digest() == data[4:36]
        if ok:
            try:
                obj = pickle.loads(data[36:])
                if getattr(obj, "key", None) == key:
                    return obj
            except Exception:
                pass
        self.warnings.append(f"analysis cache entry {p.name} was damaged: rebuilt")
        try:
            p.unlink()
        except OSError:
            pass
        return None

    def store(self, key: str, analysis) -> None:
        """Write the analysis without its model (atomically); a cache that cannot be written is skipped."""
        if not self.enabled:
            return
        from ..geometry.cache import write_atomic

        model = analysis.model
        try:
            analysis.model = None
            payload = pickle.dumps(analysis, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # an unpicklable analysis is a bug, but a cache miss is no reason to stop
            self.warnings.append(f"analysis not cached ({type(exc).__name__})")
            return
        finally:
            analysis.model = model
        try:
            write_atomic(self._path(key), FORMAT + hashlib.sha256(payload).digest() + payload)
            self._prune()
        except OSError:
            pass

    def _prune(self) -> None:
        now = time.time()
        try:
            for p in self.root.glob("*.pkl"):
                if now - p.stat().st_atime > MAX_AGE_S:
                    p.unlink()
        except OSError:
            pass


def cache_disabled() -> bool:
    """``BRIKSCAN_NO_ANALYSIS_CACHE=1`` turns the analysis cache off (benchmarks of the cold analysis)."""
    return os.environ.get("BRIKSCAN_NO_ANALYSIS_CACHE", "") not in ("", "0")
