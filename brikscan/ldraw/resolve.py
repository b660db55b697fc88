"""Which file a reference names: the MPD's own files, a Studio file's custom parts, the model's folder, then the
library (see library.py).

Resolution never leaves those places: an absolute name, a ``..`` that climbs above the model's folder, a link
pointing out of it, or a name no file system takes is refused (the caller warns with ``file:line``).
"""
from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from ..errors import Diagnostic, InputError, LibraryError, short
from .library import Library, find_case_insensitive, normalize_name
from .limits import MAX_FILE_BYTES, MAX_NAME_BYTES
from .parser import LDrawFile, decode, parse_text

_DRIVE = re.compile(r"^[a-z]:")


@lru_cache(maxsize=1 << 16)
def refusal(name: str) -> str | None:
    """Why a reference name must not be followed, or None when it may be."""
    n = normalize_name(name)
    if len(n.encode("utf-8", "replace")) > MAX_NAME_BYTES:
        return f"name too long ({len(n.encode('utf-8', 'replace'))} bytes)"
    if "\x00" in n:
        return "name holds a NUL byte"
    if n.startswith("/") or _DRIVE.match(n):
        return "absolute path"
    norm = posixpath.normpath(n) if n else n
    if norm == ".." or norm.startswith("../"):
        return "climbs out of the model's folder"
    return None


def refused_message(raw_name: str, reason: str) -> str:
    return f"reference {short(raw_name)} refused: {reason}"


@dataclass
class Resolver:
    """Parses each file once; remembers where it came from so caches know what they depend on."""

    library: Library | None
    model_dir: Path | None = None
    embedded: dict[str, LDrawFile] = field(default_factory=dict)  # MPD files by normalized name
    resolution: str = "normal"
    diagnostics: list[Diagnostic] = field(default_factory=list)
    custom: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # Studio CustomParts: rel -> (label, data)
    _parsed: dict[tuple[str, bool], LDrawFile | None] = field(default_factory=dict)
    origin: dict[str, str] = field(default_factory=dict)  # name -> "mpd" | "custom" | "folder" | "library"
    part_memo: dict[str, bool] = field(default_factory=dict)  # walk.is_part_ref decisions
    _listings: dict[str, dict[str, str]] = field(default_factory=dict)  # folder -> {lower name: real name}
    _folder_memo: dict[str, Path | None] = field(default_factory=dict)
    _root: Path | None = None

    def _in_model_dir(self, name: str) -> Path | None:
        """The file in the model's folder tree (any case), never one outside it (links included)."""
        if self.model_dir is None or refusal(name):
            return None
        if name in self._folder_memo:
            return self._folder_memo[name]
        if self._root is None:
            self._root = self.model_dir.resolve()
        rel = posixpath.normpath(name)
        found = find_case_insensitive(str(self.model_dir), rel, self._listings) if rel not in (".", "") else None
        p = Path(found) if found else None
        try:
            if p is not None and not p.resolve().is_relative_to(self._root):
                p = None
        except (OSError, ValueError):
            p = None
        self._folder_memo[name] = p
        return p

    def _in_custom(self, name: str) -> str | None:
        """A Studio custom part's key, searched like the library's folders."""
        if not self.custom:
            return None
        dirs = self.library.search_dirs(self.resolution) if self.library else ("parts", "parts/s", "p", "models")
        for d in ("",) + tuple(dirs):
            key = f"{d}/{name}" if d else name
            if key in self.custom:
                return key
        return None

    def local(self, name: str) -> bool:
        """In the MPD, the Studio file or the model's folder (cheap: no library look-up)."""
        name = normalize_name(name)
        return name in self.embedded or self._in_custom(name) is not None or self._in_model_dir(name) is not None

    def where(self, name: str) -> str | None:
        """'mpd', 'custom', 'folder', 'library' or None, without parsing."""
        name = normalize_name(name)
        if name in self.embedded:
            return "mpd"
        if self._in_custom(name) is not None:
            return "custom"
        if self._in_model_dir(name) is not None:
            return "folder"
        if self.library is not None and not refusal(name) and self.library.find(name, self.resolution):
            return "library"
        return None

    def get(self, name: str, library_only: bool = False) -> LDrawFile | None:
        """The parsed file for a reference, or None when it cannot be found (or must not be read)."""
        name = normalize_name(name)
        key = (name, library_only)
        if key in self._parsed:
            return self._parsed[key]
        f: LDrawFile | None = None
        if not library_only and name in self.embedded:
            f = self.embedded[name]
            self.origin[name] = "mpd"
        elif refusal(name):
            f = None
        else:
            ck = None if library_only else self._in_custom(name)
            p = None if library_only or ck is not None else self._in_model_dir(name)
            if ck is not None:
                label, data = self.custom[ck]
                f = self._parse_path(label, data, name)
                self.origin[name] = "custom"
            elif p is not None:
                f = self._parse_path(str(p), self._read_file(p), name)
                self.origin[name] = "folder"
            elif self.library is not None:
                loc = self.library.find(name, self.resolution)
                if loc is not None:
                    try:
                        data = self.library.read_located(loc)
                    except LibraryError as exc:  # one unreadable member: that part is missing, not the model
                        self.diagnostics.append(Diagnostic(loc, 1, f"{exc.message} (treated as missing)"))
                        data = None
                    f = self._parse_path(loc, data, name)
                    self.origin[name] = "library"
        self._parsed[key] = f
        return f

    def locator(self, name: str) -> str | None:
        if self.library is None or refusal(name):
            return None
        return self.library.find(normalize_name(name), self.resolution)

    def _read_file(self, p: Path) -> bytes | None:
        try:
            if p.stat().st_size > MAX_FILE_BYTES:
                self.diagnostics.append(Diagnostic(str(p), 1, f"file larger than {MAX_FILE_BYTES >> 20} MB "
                                                              "(treated as missing)"))
                return None
            return p.read_bytes()
        except OSError as exc:
            self.diagnostics.append(Diagnostic(str(p), 1, f"cannot read ({exc.strerror or 'error'}; treated as "
                                                          "missing)"))
            return None

    def _parse_path(self, path: str, data: bytes | None, name: str) -> LDrawFile | None:
        if data is None:
            return None
        if not data.strip():
            self.diagnostics.append(Diagnostic(path, 1, "empty file (0 bytes of LDraw): no geometry"
                                               if not data else "empty file (only blanks): no geometry"))
        try:
            text = decode(data, path)
        except InputError as exc:
            self.diagnostics.append(Diagnostic(path, 1, f"{exc.message}: the file is treated as missing"))
            return None
        files = parse_text(text, path, name, self.diagnostics)
        main = files[0]
        main.name = name
        # A library file that is itself an MPD (rare) exposes its other blocks to later look-ups.
        for extra in files[1:]:
            self.embedded.setdefault(extra.name, extra)
        return main
