"""Off-screen rendering set-up: VTK's EGL window (Mesa) when there is no display."""
from __future__ import annotations

import os


def prepare_offscreen() -> None:
    """Must run before pyvista creates a window; harmless when a display exists."""
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("VTK_DEFAULT_OPENGL_WINDOW", "vtkEGLRenderWindow")
