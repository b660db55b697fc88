"""Open an HTML file in headless Chromium: did it draw something, and were there JavaScript errors?

Test tooling that is also handy for users checking a page on a machine without a display.  Subprocess only:
no Python dependencies; Chromium (``chromium``, ``chromium-browser`` or ``google-chrome``) must be on PATH.
WebGL runs on SwiftShader (software), so no GPU is needed.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

# console lines look like  [pid:tid:date:INFO:CONSOLE:12] "message", source: file:///x.html (12)
# (older versions: ERROR:CONSOLE(12)] "Uncaught ...")
_CONSOLE = re.compile(r":(?P<level>[A-Z]+):CONSOLE(?::\d+|\(\d+\))\]\s*(?P<msg>.*)")
_ERRORISH = re.compile(r"Uncaught|TypeError|ReferenceError|SyntaxError|RangeError|Failed to|\berror\b",
                       re.IGNORECASE)
# noise from software GL that is not the page's fault
_BENIGN = re.compile(r"GPU stall due to ReadPixels|Automatic fallback to software WebGL|"
                     r"GL Driver Message|WebGL: too many errors", re.IGNORECASE)


@dataclass
class BrowserCheck:
    """Result of loading a page: ``ok`` = it drew something and logged no errors."""

    ok: bool
    screenshot_path: Path | None
    console_errors: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)  # every console message, for debugging
    distinct_colours: int = 0  # in the screenshot; 1 = blank
    reason: str = ""

    @property
    def errors(self) -> list[str]:
        """Alias of ``console_errors``."""
        return self.console_errors


def find_chromium() -> str | None:
    for name in CHROMIUM_NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


def console_messages(stderr: str) -> list[tuple[str, str]]:
    """(level, message) of each console line in Chromium's --enable-logging=stderr output."""
    out = []
    for line in stderr.splitlines():
        m = _CONSOLE.search(line)
        if m:
            out.append((m.group("level"), m.group("msg")))
    return out


def _is_error(level: str, msg: str) -> bool:
    if _BENIGN.search(msg):
        return False
    return level in ("ERROR", "FATAL") or bool(_ERRORISH.search(msg))


def _distinct_colours(png: Path) -> int:
    """Number of distinct pixel colours (capped), read with Pillow when present, else from the raw file size."""
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - Pillow is installed with brikscan
        return 2 if png.stat().st_size > 5000 else 1
    with Image.open(png) as im:
        colours = im.convert("RGB").getcolors(maxcolors=1 << 16)
    return len(colours) if colours is not None else 1 << 16


def check_html_in_chromium(path, window: tuple[int, int] = (800, 600), budget_ms: int = 5000,
                           screenshot: str | Path | None = None, timeout_s: float = 120.0) -> BrowserCheck:
    """Load ``path`` in headless Chromium, screenshot it, and collect console errors.

    Raises FileNotFoundError when Chromium is not on PATH (callers/tests decide whether to skip).
    """
    exe = find_chromium()
    if exe is None:
        raise FileNotFoundError("chromium is not on PATH (apt-get install chromium)")
    page = Path(path).resolve()
    work = Path(tempfile.mkdtemp(prefix="brikscan-chromium-"))
    shot = Path(screenshot).resolve() if screenshot else work / "shot.png"
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
           "--use-angle=swiftshader", "--enable-unsafe-swiftshader",  # software WebGL, no GPU needed
           f"--user-data-dir={work / 'profile'}", "--enable-logging=stderr", "--v=0",
           f"--virtual-time-budget={budget_ms}", f"--screenshot={shot}", f"--window-size={window[0]},{window[1]}",
           page.as_uri()]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s)
        stderr = proc.stderr
    except subprocess.TimeoutExpired as exc:
        err = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else (exc.stderr or "")
        return BrowserCheck(False, None, [f"chromium timed out after {timeout_s:.0f} s"],
                            [m for _, m in console_messages(err)], reason="timeout")
    finally:
        # the profile always goes; the folder too when the shot was written elsewhere (else it holds the shot)
        shutil.rmtree(work if screenshot else work / "profile", ignore_errors=True)
    messages = console_messages(stderr)
    errors = [msg for level, msg in messages if _is_error(level, msg)]
    errors += [line.strip() for line in stderr.splitlines() if "Uncaught" in line and ":CONSOLE" not in line]
    if not shot.exists():
        return BrowserCheck(False, None, errors, [m for _, m in messages], reason="no screenshot written")
    n = _distinct_colours(shot)
    reason = "" if n > 1 and not errors else ("blank screenshot" if n <= 1 else "console errors")
    return BrowserCheck(n > 1 and not errors, shot, errors, [m for _, m in messages], n, reason)
