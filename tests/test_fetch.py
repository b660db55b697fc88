"""fetch_library against a local HTTP server: good zip, non-zip, wrong zip, 404, no server."""
from __future__ import annotations

import functools
import socket
import threading
import zipfile
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from brikscan.errors import EXIT_LIBRARY, LibraryError
from brikscan.ldraw.fetch import (
    OFFICIAL_COMPLETE_ZIP_URL,
    default_library_zip,
    fetch_library,
    is_library_zip,
)


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # keep pytest output clean
        pass


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("www")
    with zipfile.ZipFile(root / "complete.zip", "w") as zf:
        zf.writestr("ldraw/LDConfig.ldr", "0 !COLOUR Black CODE 0 VALUE #1B2A34 EDGE #808080\n")
        zf.writestr("ldraw/parts/3001.dat", "0 Brick  2 x  4\n")
        zf.writestr("ldraw/p/stud.dat", "0 Stud\n")
    with zipfile.ZipFile(root / "other.zip", "w") as zf:
        zf.writestr("readme.txt", "not a library")
    (root / "bad.zip").write_bytes(b"<html>not a zip</html>" * 100)
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_downloads_valid_library(served: str, tmp_path: Path) -> None:
    seen: list[tuple[int, int | None]] = []
    dest = tmp_path / "lib" / "complete.zip"
    got = fetch_library(dest, f"{served}/complete.zip", progress=lambda n, total: seen.append((n, total)))
    assert got == dest and is_library_zip(dest)
    assert _leftovers(dest.parent) == ["complete.zip"]  # no temp file left behind
    assert seen and seen[-1][0] == dest.stat().st_size == seen[-1][1]


def test_replaces_existing_file_atomically(served: str, tmp_path: Path) -> None:
    dest = tmp_path / "complete.zip"
    dest.write_bytes(b"old")
    fetch_library(dest, f"{served}/complete.zip")
    assert is_library_zip(dest)


@pytest.mark.parametrize("name", ["bad.zip", "other.zip"])
def test_rejects_non_library(served: str, tmp_path: Path, name: str) -> None:
    dest = tmp_path / "complete.zip"
    dest.write_bytes(b"previous")
    with pytest.raises(LibraryError, match="downloaded file is not an LDraw library zip") as info:
        fetch_library(dest, f"{served}/{name}")
    assert info.value.exit_code == EXIT_LIBRARY
    assert dest.read_bytes() == b"previous"  # the old file is untouched
    assert _leftovers(tmp_path) == ["complete.zip"]


def test_http_404(served: str, tmp_path: Path) -> None:
    dest = tmp_path / "complete.zip"
    with pytest.raises(LibraryError) as info:
        fetch_library(dest, f"{served}/missing.zip")
    message = str(info.value)
    assert "404" in message and "\n" not in message
    assert not dest.exists() and _leftovers(tmp_path) == []


def test_connection_refused(tmp_path: Path) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(LibraryError, match="download failed") as info:
        fetch_library(tmp_path / "complete.zip", f"http://127.0.0.1:{port}/complete.zip")
    assert "\n" not in str(info.value)
    assert _leftovers(tmp_path) == []


def test_default_location(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_library_zip() == tmp_path / "brikscan" / "complete.zip"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_library_zip() == tmp_path / "home" / ".local" / "share" / "brikscan" / "complete.zip"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")  # XDG spec: relative paths are invalid
    assert default_library_zip() == tmp_path / "home" / ".local" / "share" / "brikscan" / "complete.zip"


def test_official_url() -> None:
    assert OFFICIAL_COMPLETE_ZIP_URL == "https://library.ldraw.org/library/updates/complete.zip"


def test_cli_library_fetch_then_brikscan_finds_it(served: str, tmp_path: Path) -> None:
    """`brikscan library fetch` saves the zip where brikscan looks, and the next load uses it."""
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    env.pop("LDRAWDIR", None)
    dest = tmp_path / "data" / "brikscan" / "complete.zip"
    r = subprocess.run([sys.executable, "-m", "brikscan", "library", "fetch", "--dest", str(dest), "--url",
                        f"{served}/complete.zip"], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert is_library_zip(dest)
    model = tmp_path / "m.ldr"
    model.write_text("1 4 0 0 0 1 0 0 0 1 0 0 0 1 3001.dat\n")
    info = subprocess.run([sys.executable, "-m", "brikscan", "info", str(model), "--json"], capture_output=True,
                          text=True, env=env, timeout=120)
    assert info.returncode == 0, info.stderr
    assert str(dest) in json.loads(info.stdout)["geometry_source"]
    bad = subprocess.run([sys.executable, "-m", "brikscan", "library", "fetch", "--dest", str(tmp_path / "x.zip"),
                          "--url", f"{served}/nothere.zip"], capture_output=True, text=True, env=env, timeout=120)
    assert bad.returncode == 4 and "404" in bad.stderr and "Traceback" not in bad.stderr
