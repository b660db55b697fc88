"""What ``brikscan info`` reports about a loaded model, as plain data (the ``info --json`` contract)."""
from __future__ import annotations

from .model import Model
from .units import LDU_PER_STUD, LDU_PER_TAPE_INCH as LDU_PER_INCH


def _box(lo, hi, scale: float = 1.0) -> dict:
    return {"min": [round(float(v) / scale, 4) for v in lo], "max": [round(float(v) / scale, 4) for v in hi]}


def model_info(model: Model, elements: bool = False) -> dict:
    lo, hi = model.bbox_ldu
    size = hi - lo
    out = {
        "file": str(model.path),
        "name": model.name,
        "elements": len(model.elements),
        "distinct_parts": len(model.parts),
        "triangles": int(model.mesh.n_triangles),
        "bbox_ldu": _box(lo, hi),
        "size_ldu": [round(float(v), 3) for v in size],
        "size_studs": [round(float(v) / LDU_PER_STUD, 3) for v in size],
        "size_in": [round(float(v) / LDU_PER_INCH, 3) for v in size],
        "missing_parts": list(model.missing_parts),
        # missing parts drawn as the part of their number the library has (``ldraw.part_numbers``)
        "stand_ins": {name: p.stand_in for name, p in sorted(model.parts.items()) if p.stand_in},
        "geometry_source": model.geometry_source,
        "colour_source": model.colours.source,
        "submodels": sorted(model.submodels),
        "warnings": [str(d) for d in model.diagnostics],
    }
    if elements:
        out["element_list"] = [
            {"index": e.index, "part": e.part, "description": e.description, "category": e.category,
             "colour": e.colour, "colour_name": model.colours.name(e.colour), "source": e.source,
             "submodel_path": list(e.submodel_path), "missing": e.missing,
             "bbox_ldu": _box(e.bbox_min, e.bbox_max)}
            for e in model.elements]
    return out
