"""brikscan: LDraw builds into BrikWars stat cards, line of sight and destruction previews."""
from __future__ import annotations

__version__ = "0.1.0"


def load(path, library=None, **kwargs):
    """Load an LDraw model with real part geometry (see :func:`brikscan.geometry.model.load`)."""
    from .geometry.model import load as _load

    return _load(path, library, **kwargs)


def army(paths, library=None, **kwargs):
    """The army of model and scene files: CP, Unit Inches, sides (see :func:`brikscan.battle.army.army`)."""
    from .battle.army import army as _army

    return _army(paths, library, **kwargs)
