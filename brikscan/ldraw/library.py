"""Finding LDraw files: the parts library (a folder or ``complete.zip`` read in place) and the search order.

The order follows the LDraw tools: the MPD's own files (handled by the caller), the model's folder, ``parts/``,
``parts/s/``, ``p/`` (``p/48`` or ``p/8`` first for the high / low primitive option), ``models/``, then the same
under ``unofficial/``. Names are case-insensitive and use either slash.
"""
from __future__ import annotations

import os
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import LibraryError
from .limits import MAX_FILE_BYTES

LIBRARY_DIRS = ("parts", "parts/s", "p", "models")
RESOLUTIONS = {"normal": (), "high": ("p/48",), "low": ("p/8",)}
# Where users usually keep the library when they do not say (LDraw's own installers use these).
USUAL_PLACES = ("~/ldraw", "~/LDraw", "~/.ldraw", "/usr/share/ldraw", "/usr/local/share/ldraw",
                "/opt/ldraw")
# The copies that the editors install: BrickLink Studio (its ldraw/ folder), LeoCAD (library.bin, a zip of the
# official library), LDCad (its own ldraw folder or complete.zip); macOS, Linux and Wine paths, and on Windows
# its own (only there: elsewhere "C:/…" would be a folder relative to wherever brikscan runs).
EDITOR_PLACES = (
    "/Applications/Studio 2.0/ldraw", "~/.wine/drive_c/Program Files/Studio 2.0/ldraw",
    "/usr/share/leocad/library.bin", "/usr/local/share/leocad/library.bin", "~/.local/share/leocad/library.bin",
    "/Applications/LeoCAD.app/Contents/Resources/library.bin",
    "~/.local/share/LDCad/ldraw", "~/LDCad/ldraw", "~/LDCad/complete.zip",
) + (("C:/Program Files/Studio 2.0/ldraw", "C:/Program Files (x86)/Studio 2.0/ldraw",
      "C:/Program Files/LeoCAD/library.bin", "C:/LDCad/ldraw", "C:/Users/Public/Documents/LDraw")
     if os.name == "nt" else ())


def normalize_name(name: str) -> str:
    """LDraw names are case-insensitive and may use backslashes."""
    return name.strip().replace("\\", "/").lower()


@dataclass
class Library:
    """An LDraw parts library: a folder or a zip with an ``ldraw/`` root, read in place."""

    path: Path
    kind: str  # "folder" | "zip"
    _zip: zipfile.ZipFile | None = field(default=None, repr=False)
    _index: dict[str, str] | None = field(default=None, repr=False)  # zip: lower relpath -> member
    _dirs: dict[str, dict[str, str]] = field(default_factory=dict, repr=False)  # folder: dir -> {lower: real}

    @classmethod
    def open(cls, path: str | os.PathLike) -> "Library":
        p = Path(path).expanduser()
        if not p.exists():
            raise LibraryError(f"LDraw library not found: {p}")
        if p.is_dir():
            root = p / "ldraw" if not _has_parts(p) and _has_parts(p / "ldraw") else p
            if not _has_parts(root):
                raise LibraryError(f"{p} is not an LDraw library (no parts/ folder)")
            return cls(root.resolve(), "folder")
        if not zipfile.is_zipfile(p):
            raise LibraryError(f"{p} is not a zip file (corrupt or not an LDraw complete.zip)")
        return cls(p.resolve(), "zip")

    @property
    def identity(self) -> str:
        """Changes whenever the library file changes; part caches are keyed on it."""
        st = self.path.stat()
        if self.kind == "zip":
            return f"zip:{self.path}:{st.st_size}:{st.st_mtime_ns}"
        return f"folder:{self.path}"

    def _zip_index(self) -> dict[str, str]:
        if self._index is None:
            try:
                self._zip = zipfile.ZipFile(self.path)
                names = self._zip.namelist()
            except (zipfile.BadZipFile, OSError) as exc:
                raise LibraryError(f"{self.path}: corrupt zip ({exc})") from None
            index: dict[str, str] = {}
            for n in names:
                low = n.lower()
                rel = low[len("ldraw/"):] if low.startswith("ldraw/") else low
                index[rel] = n
            if not any(k.startswith("parts/") for k in index):
                raise LibraryError(f"{self.path} is not an LDraw library zip (no parts/ in it)")
            self._index = index
        return self._index

    def _folder_lookup(self, rel: str) -> Path | None:
        if ".." in rel.split("/"):
            return None  # library names never climb; this one would leave the library
        found = find_case_insensitive(str(self.path), rel, self._dirs)
        return Path(found) if found else None

    def locate(self, rel: str) -> str | None:
        """A library-relative path (lower case) -> a stable locator, or None."""
        if self.kind == "zip":
            return self._zip_index().get(rel)
        p = self._folder_lookup(rel)
        return str(p) if p else None

    def read_located(self, loc: str) -> bytes:
        if self.kind == "zip":
            self._zip_index()
            assert self._zip is not None
            try:
                if self._zip.getinfo(loc).file_size > MAX_FILE_BYTES:
                    raise LibraryError(f"{self.path}: {loc} is larger than {MAX_FILE_BYTES >> 20} MB")
                return self._zip.read(loc)
            except (zipfile.BadZipFile, OSError, KeyError, RuntimeError, NotImplementedError, EOFError,
                    zlib.error) as exc:
                raise LibraryError(f"{self.path}: cannot read {loc} ({type(exc).__name__})") from None
        try:
            if os.stat(loc).st_size > MAX_FILE_BYTES:
                raise LibraryError(f"{loc} is larger than {MAX_FILE_BYTES >> 20} MB")
            return Path(loc).read_bytes()
        except OSError as exc:
            raise LibraryError(f"cannot read {loc} ({exc.strerror or type(exc).__name__})") from None

    def stamp(self, loc: str) -> str:
        """What a cached part depends on for this file (folders: size and mtime)."""
        if self.kind == "zip":
            return ""
        try:
            st = os.stat(loc)
        except OSError:
            return "gone"
        return f"{st.st_size}:{st.st_mtime_ns}"

    def search_dirs(self, resolution: str = "normal") -> tuple[str, ...]:
        first = RESOLUTIONS.get(resolution, ())
        base = first + LIBRARY_DIRS
        return base + tuple(f"unofficial/{d}" for d in base)

    def find(self, name: str, resolution: str = "normal") -> str | None:
        """Resolve a reference name in the library's folders; returns a locator."""
        norm = normalize_name(name)
        for d in self.search_dirs(resolution):
            loc = self.locate(f"{d}/{norm}")
            if loc is not None:
                return loc
        return None

    def read_config(self) -> bytes | None:
        """LDConfig.ldr, or None when the library has none (or it cannot be read: the caller warns)."""
        loc = self.locate("ldconfig.ldr")
        if not loc:
            return None
        try:
            return self.read_located(loc)
        except LibraryError:
            return None

    def close(self) -> None:
        if self._zip is not None:
            self._zip.close()
            self._zip = None
            self._index = None


def find_case_insensitive(root: str, rel: str, listings: dict[str, dict[str, str]]) -> str | None:
    """``root/rel`` matched without regard to case, a file; each folder is listed once (``listings``), so a
    name that is not there costs dictionary look-ups, not system calls."""
    cur = root
    for comp in rel.split("/"):
        listing = listings.get(cur)
        if listing is None:
            try:
                listing = {e.lower(): e for e in os.listdir(cur)}
            except (OSError, ValueError):
                listing = {}
            listings[cur] = listing
        real = listing.get(comp)
        if real is None:
            return None
        cur = os.path.join(cur, real)
    try:
        return cur if os.path.isfile(cur) else None
    except (OSError, ValueError):
        return None


def _has_parts(p: Path) -> bool:
    try:
        return any(e.lower() == "parts" for e in os.listdir(p))
    except OSError:
        return False


def find_library(explicit: str | os.PathLike | None = None) -> Library | None:
    """``--library``, else ``$LDRAWDIR``, else the usual places, the fetched zip, then the copies that Studio,
    LeoCAD and LDCad install; None when there is none."""
    if explicit:
        return Library.open(explicit)
    env = os.environ.get("LDRAWDIR")
    if env:
        return Library.open(env)
    from .fetch import default_library_zip  # where `brikscan library fetch` saves it

    places = [Path(place).expanduser() for place in USUAL_PLACES] + [default_library_zip()]
    places += [Path(place).expanduser() for place in EDITOR_PLACES]
    for p in places:
        if p.exists():
            try:
                return Library.open(p)
            except LibraryError:
                continue
    return None
