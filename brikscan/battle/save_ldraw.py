"""Write the damaged model as a new LDraw file that any LDraw editor opens.

The input's text is copied line for line; only the main model's type-1 lines whose subtree lost or moved
elements change: a part line is dropped (or moved), a submodel line is replaced by its surviving parts written
out flat in world coordinates (so other instances of the same submodel stay whole). Never written over the input.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..errors import UsageError
from ..geometry.cache import write_atomic
from ..geometry.model import Model
from ..ldraw.parser import decode


def _fmt(v: float) -> str:
    s = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def part_line(colour: int, transform: np.ndarray, name: str) -> str:
    t = transform
    vals = [t[0, 3], t[1, 3], t[2, 3], t[0, 0], t[0, 1], t[0, 2], t[1, 0], t[1, 1], t[1, 2], t[2, 0], t[2, 1], t[2, 2]]
    col = f"0x{colour:07X}" if colour >= 0x2000000 else str(colour)
    return f"1 {col} " + " ".join(_fmt(float(v)) for v in vals) + " " + name.replace("/", "\\")


def damaged_ldraw_text(model: Model, destroyed: np.ndarray, move_ldu: np.ndarray | None = None, *,
                       keep_debris: bool = False, note: str = "") -> str:
    """The input text with destroyed elements removed (or, with ``keep_debris``, moved by their KnockBack),
    and loose sections moved by ``move_ldu`` (E,3)."""
    text = decode(model.path.read_bytes(), str(model.path))
    lines = text.splitlines()
    n = len(model.elements)
    destroyed = np.asarray(destroyed, dtype=bool)
    move = np.zeros((n, 3)) if move_ldu is None else np.asarray(move_ldu, dtype=np.float64)
    moved = np.linalg.norm(move, axis=1) > 1e-6
    main = model.main
    external = {name for name, f in model.submodels.items() if Path(f.path) != Path(main.path)}
    groups: dict[int, list[int]] = {}
    for e in model.elements:
        if e.refs:
            groups.setdefault(e.refs[0][1], []).append(e.index)
    replace: dict[int, list[str]] = {}
    for line_no, idx in groups.items():
        direct = len(idx) == 1 and len(model.elements[idx[0]].refs) == 1
        touched = any(destroyed[i] or moved[i] for i in idx)
        ext = any(model.elements[i].submodel_path and model.elements[i].submodel_path[0] in external for i in idx)
        if not touched and not ext:
            continue
        if direct and not touched:
            continue
        out = []
        for i in idx:
            e = model.elements[i]
            if destroyed[i] and not keep_debris:
                continue
            t = e.transform.copy()
            t[:3, 3] += move[i]
            out.append(part_line(e.colour, t, e.part))
        replace[line_no] = out
    header = [f"0 // brikscan damage preview of {model.path.name}: {int(destroyed.sum())} elements destroyed"
              + (f"; {note}" if note else "")]
    result: list[str] = []
    # the note goes just before the main model's first type-1 line, after its header (the title stays first)
    first_ref = min((r.line for r in main.refs), default=0)
    for k, raw in enumerate(lines, start=1):
        if k == first_ref:
            result.extend(header)
        if k in replace:
            result.extend(replace[k])
            continue
        result.append(raw)
    if first_ref == 0:
        result.extend(header)
    return "\r\n".join(result) + "\r\n"


def save_damaged(model: Model, out: str | Path, destroyed: np.ndarray, move_ldu: np.ndarray | None = None, *,
                 keep_debris: bool = False, note: str = "") -> Path:
    """Write the damaged model to ``out`` atomically; refuses the input path."""
    out = Path(out)
    if out.resolve() == Path(model.path).resolve():
        raise UsageError(f"refusing to write the damaged model over its input {model.path}", file=str(out))
    if out.suffix.lower() not in (".ldr", ".mpd", ".dat"):
        raise UsageError("--save needs an .ldr or .mpd file name", file=str(out))
    main_ext = Path(model.path).suffix.lower()
    if main_ext == ".mpd" and out.suffix.lower() != ".mpd":
        raise UsageError("the input is an MPD (several files in one); save it as .mpd", file=str(out))
    text = damaged_ldraw_text(model, destroyed, move_ldu, keep_debris=keep_debris, note=note)
    write_atomic(out, text.encode("utf-8"))
    return out
