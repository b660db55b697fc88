"""Temporary files named after their writer's pid, so that one left by a killed process (SIGKILL cannot be
caught) is recognised and removed by the next run."""
from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

_STALE_S = 3600.0  # a temporary file older than this is stale even if its pid is alive again


def temp_name(prefix: str) -> str:
    """``<prefix><pid>.<token>.tmp``: what :func:`clean_stale_temps` recognises."""
    return f"{prefix}{os.getpid()}.{secrets.token_hex(4)}.tmp"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True


def clean_stale_temps(folder: Path, prefix: str) -> int:
    """Remove ``prefix<pid>.<token>.tmp`` files whose writer is gone (or that are over an hour old)."""
    removed = 0
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix) and n.endswith(".tmp")]
    except OSError:
        return 0
    now = time.time()
    for n in names:
        pid_text = n[len(prefix):].split(".", 1)[0]
        p = folder / n
        try:
            old = now - p.stat().st_mtime > _STALE_S
            if old or not pid_text.isdigit() or not _pid_alive(int(pid_text)):
                p.unlink()
                removed += 1
        except OSError:
            continue
    return removed
