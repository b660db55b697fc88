"""Which file a reference names: the MPD's own files, the model's folder, then the library (see library.py)."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import Diagnostic
from .library import Library, normalize_name
from .parser import LDrawFile, decode, parse_text


@dataclass
class Resolver:
    """Parses each file once; remembers where it came from so caches know what they depend on."""

    library: Library | None
    model_dir: Path | None = None
    embedded: dict[str, LDrawFile] = field(default_factory=dict)  # MPD files by normalized name
    resolution: str = "normal"
    diagnostics: list[Diagnostic] = field(default_factory=list)
    _parsed: dict[tuple[str, bool], LDrawFile | None] = field(default_factory=dict)
    origin: dict[str, str] = field(default_factory=dict)  # name -> "mpd" | "folder" | "library"
    _dir_listing: dict[str, str] | None = None

    def _in_model_dir(self, name: str) -> Path | None:
        if self.model_dir is None:
            return None
        direct = self.model_dir / name
        if direct.is_file():
            return direct
        if self._dir_listing is None:
            try:
                self._dir_listing = {e.lower(): e for e in os.listdir(self.model_dir)}
            except OSError:
                self._dir_listing = {}
        if "/" in name:
            return None
        real = self._dir_listing.get(name)
        return self.model_dir / real if real else None

    def local(self, name: str) -> bool:
        """In the MPD or the model's folder (cheap: no library look-up)."""
        name = normalize_name(name)
        return name in self.embedded or self._in_model_dir(name) is not None

    def where(self, name: str) -> str | None:
        """'mpd', 'folder', 'library' or None, without parsing."""
        name = normalize_name(name)
        if name in self.embedded:
            return "mpd"
        if self._in_model_dir(name) is not None:
            return "folder"
        if self.library is not None and self.library.find(name, self.resolution) is not None:
            return "library"
        return None

    def get(self, name: str, library_only: bool = False) -> LDrawFile | None:
        """The parsed file for a reference, or None when it cannot be found."""
        name = normalize_name(name)
        key = (name, library_only)
        if key in self._parsed:
            return self._parsed[key]
        f: LDrawFile | None = None
        if not library_only and name in self.embedded:
            f = self.embedded[name]
            self.origin[name] = "mpd"
        else:
            p = None if library_only else self._in_model_dir(name)
            if p is not None:
                f = self._parse_path(str(p), p.read_bytes(), name)
                self.origin[name] = "folder"
            elif self.library is not None:
                loc = self.library.find(name, self.resolution)
                if loc is not None:
                    f = self._parse_path(loc, self.library.read_located(loc), name)
                    self.origin[name] = "library"
        self._parsed[key] = f
        return f

    def locator(self, name: str) -> str | None:
        if self.library is None:
            return None
        return self.library.find(normalize_name(name), self.resolution)

    def _parse_path(self, path: str, data: bytes, name: str) -> LDrawFile:
        files = parse_text(decode(data, path), path, name, self.diagnostics)
        main = files[0]
        main.name = name
        # A library file that is itself an MPD (rare) exposes its other blocks to later look-ups.
        for extra in files[1:]:
            self.embedded.setdefault(extra.name, extra)
        return main
