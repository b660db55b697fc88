"""Importing BrickNet quietly: the one place brikscan imports it.

``import bricknet`` imports pybullet, whose C extension prints "pybullet build time: …" straight to file
descriptor 2 (not through ``sys.stderr``), so every command would print it. The import runs with descriptor 2
pointed at /dev/null and restored afterwards, whatever happens.
"""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from functools import lru_cache


@contextmanager
def stderr_fd_silenced():
    """Point file descriptor 2 at /dev/null for the ``with`` block (a no-op when descriptor 2 is closed)."""
    try:
        sys.stderr.flush()
    except Exception:
        pass
    try:
        saved = os.dup(2)
    except OSError:  # no descriptor 2 at all: nothing to silence
        yield
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 2)
        finally:
            os.close(devnull)
        yield
    finally:
        try:
            sys.stderr.flush()
        except Exception:
            pass
        os.dup2(saved, 2)
        os.close(saved)


@lru_cache(maxsize=1)
def bricknet_modules():
    """(bricknet.graph, bricknet.data) or None when BrickNet is not installed (or fails to import)."""
    with stderr_fd_silenced():
        try:
            import bricknet  # noqa: F401  (imports pybullet: the banner goes to /dev/null)
            from bricknet import data as bnd
            from bricknet import graph as bng
        except Exception:
            return None
    return bng, bnd
