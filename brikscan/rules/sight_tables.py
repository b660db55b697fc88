"""The sight modifiers as data: ``brikscan/rules/sight_2010.toml``, validated, with the few pure lookups sight needs.

The numbers live in the rules layer; this module only reads them (rules_2010.toml has no sight section yet).
"""
from __future__ import annotations

import math
from functools import lru_cache

from pydantic import BaseModel, ConfigDict, ValidationError

from ..errors import UsageError
from .tables import RULES_DIR, Cited as _Cited, tomllib


class _Meta(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    edition: str
    source: str


class _Minifig(_Cited):
    sections: list[str]
    modifier_by_sections: dict[str, int]


class _Blind(_Cited):
    modifier: int


class _AreaClass(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    min_area_studs2: float
    modifier: int


class _TargetSize(_Cited):
    bonus_per_step: int
    step_in: float
    area_classes: list[_AreaClass]


class _Height(_Cited):
    range_in_per_in: float
    max_in: float
    whole_inches: bool = True


class _AttackRoll(_Cited):
    critical_failure: int
    overskill_min: int
    benny_die: int
    default_skill_die: int
    minimum_result: int = 0


class _OutOfRange(_Cited):
    penalty_per_in: int
    round: str
    explosive_damage_ignores: bool = True


class _FiringArc(_Cited):
    fudge_deg: float


class _Joints(_Cited):
    turntable_deg: float
    technic_deg: float
    hinge_deg: float
    clip_deg: float
    ball_deg: float
    spin_parallel_deg: float

    def sweep_deg(self, kind: str) -> float:
        """Whole sweep of a moving mount of this kind (an unknown kind turns like a hinge)."""
        return float(getattr(self, f"{kind}_deg", self.hinge_deg))


class _Melee(_Cited):
    angry_inch_in: float
    creations_angry_inch: bool


class _Ammunition(_Cited):
    xsize_per_size: int
    die: int


class _Controls(_Cited):
    operator_skill_die: int


class SightRules(BaseModel):
    """Sight tables of one edition [000 §5.1 Attack Modifiers]."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    meta: _Meta
    minifig: _Minifig
    blind: _Blind
    target_size: _TargetSize
    height_advantage: _Height
    attack_roll: _AttackRoll
    out_of_range: _OutOfRange
    firing_arc: _FiringArc
    joints: _Joints
    melee: _Melee
    ammunition: _Ammunition
    controls: _Controls

    def range_penalty(self, out_of_range_in: float) -> int:
        """-1 on every die per inch past the Range (a started inch counts). [000 §5.1 Other Modifiers]"""
        o = self.out_of_range
        if out_of_range_in <= 1e-9:
            return 0
        inches = math.ceil(out_of_range_in - 1e-9) if o.round == "up" else math.floor(out_of_range_in + 1e-9)
        return int(inches * o.penalty_per_in)

    def minifig_modifier(self, n_visible: int) -> int:
        """0 / -1 / -2 for 3 / 2 / 1 visible sections; none visible is firing blind. [000 §5.1 Target Size]"""
        if n_visible <= 0:
            return self.blind.modifier
        return self.minifig.modifier_by_sections[str(min(n_visible, 3))]

    def size_modifier(self, extent_in: float, area_studs2: float, visible: bool) -> int:
        """Large targets +1 per 2" visible; small visible areas compare with 2x4 / 2x2 / 1x1. [000 §5.1 Target Size]"""
        if not visible:
            return self.blind.modifier
        ts = self.target_size
        if extent_in >= ts.step_in:
            return ts.bonus_per_step * int(math.floor(extent_in / ts.step_in + 1e-9))
        for cls in ts.area_classes:
            if area_studs2 >= cls.min_area_studs2:
                return cls.modifier
        return ts.area_classes[-1].modifier

    def height_advantage_in(self, altitude_in: float) -> float:
        """Extra range from altitude above the target: +1" per 1", at most +5". [000 §5.1 Attack Modifiers]"""
        h = self.height_advantage
        alt = max(0.0, altitude_in)
        if h.whole_inches:
            alt = math.floor(alt + 1e-9)
        return float(min(h.max_in, alt * h.range_in_per_in))


@lru_cache(maxsize=None)
def load_sight_rules(edition: str = "2010") -> SightRules:
    path = RULES_DIR / f"sight_{edition}.toml"
    if not path.exists():
        raise UsageError(f"no sight rules for edition {edition!r}", file=str(path))
    try:
        with path.open("rb") as fh:
            raw = tomllib.load(fh)
        return SightRules.model_validate(raw)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"cannot read sight rules: {exc}", file=str(path)) from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UsageError(f"invalid sight rules at {where}: {first['msg']}", file=str(path)) from None
