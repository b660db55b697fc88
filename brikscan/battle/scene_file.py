"""Scene files: a battlefield made of several LDraw models placed on the table (TOML, validated with pydantic).

```toml
name = "Castle assault"
[[models]]
name = "wall"                         # default: the file name without extension
file = "../ldraw_models/castle_wall.ldr"   # relative to the scene file
position = ["0", 0, "12in"]           # x, y, z (LDraw axes, -Y is up) or [x, z]; numbers are LDU,
                                      # strings take a unit: "12in", "6studs", "3bricks", "2plates", "40ldu"
rotation = 90                         # degrees about the vertical axis
side = "defenders"                    # side of the units found in this model
target = true                         # the model itself (its non-minifig parts) is a creation target
kind = "building"
[[units]]
unit = "wall/minifig-1"               # a found unit ("placement/name" or its name)
name = "archer"                       # rename it
side = "red"
[[attacks]]
from = "archer"
to = "knight"
weapon = "bow"
origin = "barrel"                     # sight from the weapon's barrel end ("eyes" by default, or los --origin)
```
Every mistake is one line naming the key (``models[0].position[2]: …``).
"""
from __future__ import annotations

import math
import re
import tomllib
from pathlib import Path
from typing import Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..errors import InputError
from ..geometry.units import LDU_PER_BRICK, LDU_PER_PLATE, LDU_PER_STUD, LDU_PER_TAPE_INCH, SCALES
from ..ldraw.limits import DEFAULT_LIMITS

_LENGTH = re.compile(r'^\s*([-+]?(?:\d+\.?\d*|\.\d+))\s*(in|inch|inches|"|studs?|st|bricks?|plates?|ldu)?\s*$', re.I)
_UNIT_LDU = {"stud": LDU_PER_STUD, "st": LDU_PER_STUD, "brick": LDU_PER_BRICK, "plate": LDU_PER_PLATE, "ldu": 1.0}


def parse_length(value: Union[int, float, str], ldu_per_inch: float = LDU_PER_TAPE_INCH) -> float:
    """A length in LDU from a number (LDU) or a string with a unit: "12in", '12"', "6studs", "3bricks"."""
    if isinstance(value, bool):
        raise ValueError(f"bad length {value!r}")
    if isinstance(value, (int, float)):
        return float(value)
    m = _LENGTH.match(str(value))
    if not m:
        raise ValueError(f"bad length {value!r} (want e.g. 120, \"12in\", \"6studs\", \"2bricks\")")
    num = float(m.group(1))
    unit = (m.group(2) or "ldu").lower()
    if unit in ("in", "inch", "inches", '"'):
        return num * ldu_per_inch
    unit = unit.rstrip("s") if unit not in ("st",) else unit
    return num * _UNIT_LDU[unit]


Length = Union[int, float, str]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class ModelEntry(_Strict):
    file: str
    name: Optional[str] = None
    position: list[Length] = Field(default_factory=lambda: [0, 0, 0])
    rotation: float = 0.0
    side: Optional[str] = None
    target: bool = False
    kind: str = "creation"

    @field_validator("position")
    @classmethod
    def _position(cls, v):
        if len(v) not in (2, 3):
            raise ValueError("want [x, y, z] or [x, z]")
        for x in v:
            if not abs(parse_length(x)) <= DEFAULT_LIMITS.max_coord:  # also NaN and infinities
                raise ValueError(f"{x!r} lies beyond the coordinate limit of {DEFAULT_LIMITS.max_coord:g} LDU")
        return v

    @field_validator("rotation")
    @classmethod
    def _rotation(cls, v):
        if not math.isfinite(v):
            raise ValueError("want a finite angle in degrees")
        return v


class UnitEntry(_Strict):
    unit: str
    name: Optional[str] = None
    side: Optional[str] = None


class AttackEntry(_Strict):
    from_: str = Field(alias="from")
    to: str
    weapon: Optional[str] = None
    origin: Optional[Literal["eyes", "barrel"]] = None  # where the sight line starts (default: los --origin)


class SceneFile(_Strict):
    name: Optional[str] = None
    description: Optional[str] = None
    scale: Literal[SCALES] = "inch"  # the inch of "12in" and of every result, as --scale [000 §1.2]
    rules: Literal["2010", "2001"] = "2010"
    models: list[ModelEntry] = Field(min_length=1)
    units: list[UnitEntry] = Field(default_factory=list)
    attacks: list[AttackEntry] = Field(default_factory=list)


def _where(loc) -> str:
    out = ""
    for p in loc:
        if isinstance(p, int):
            out += f"[{p}]"
        else:
            p = "from" if p == "from_" else p
            out += ("." if out else "") + str(p)
    return out or "scene"


def read_scene(path: str | Path) -> SceneFile:
    """Parse and validate a scene file; bad TOML, unknown keys and bad values are one-line InputErrors."""
    path = Path(path)
    if not path.exists():
        raise InputError("no such file", file=str(path))
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise InputError("not a text file", file=str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = re.search(r"line (\d+)", msg)
        raise InputError(f"bad TOML: {msg}", file=str(path), line=int(m.group(1)) if m else None) from None
    try:
        scene = SceneFile.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown key"
        elif err["type"] == "missing":
            msg = "missing key"
        msg = msg.removeprefix("Value error, ")
        raise InputError(f"{_where(err['loc'])}: {msg}", file=str(path)) from None
    names = [m.name or Path(m.file).stem for m in scene.models]
    for i, n in enumerate(names):
        if names.index(n) != i:
            raise InputError(f"models[{i}].name: {n!r} is used twice (give each placement its own name)",
                             file=str(path))
    return scene
