"""The user's cache folder (``$BRIKSCAN_CACHE``, else the XDG cache folder): below every layer, so the rule
tables (which may not lean on geometry) and the part cache find the same folder."""
from __future__ import annotations

import os
from pathlib import Path


def default_cache_dir() -> Path:
    env = os.environ.get("BRIKSCAN_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "brikscan"
