"""What every ``--json`` output and every package function returns: strict JSON values, with the model's warnings
and geometry source. One place, so ``brikscan.stats(path)`` is exactly what ``brikscan stats --json`` prints."""
from __future__ import annotations

import math
from pathlib import Path


def sanitise(data):
    """Plain JSON values: NaN and infinities become null, numpy scalars and arrays become numbers and lists."""
    if isinstance(data, dict):
        return {str(k): sanitise(v) for k, v in data.items()}
    if isinstance(data, (list, tuple, set, frozenset)):
        return [sanitise(v) for v in data]
    if isinstance(data, bool) or data is None or isinstance(data, str):
        return data
    if isinstance(data, int):
        return data
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if hasattr(data, "tolist"):  # numpy scalar or array
        return sanitise(data.tolist())
    if isinstance(data, Path):
        return str(data)
    return str(data)


def report(data, model=None):
    """``data`` as strict JSON values; a dict gets the ``geometry_source`` and the warnings of ``model`` (the
    loaded model or battlefield it is about) ahead of its own."""
    if model is not None and isinstance(data, dict):
        data = dict(data)
        source = getattr(model, "geometry_source", None)
        if source is not None:
            data.setdefault("geometry_source", source)
        own = [str(d) for d in getattr(model, "diagnostics", [])]
        seen = set(own)
        data["warnings"] = own + [w for w in data.get("warnings", []) if w not in seen]
    return sanitise(data)
