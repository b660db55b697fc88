"""A Creation: one thing a player fields (a castle, a horse, a minifig, a loose sword) with its elements and roles."""
from __future__ import annotations

from dataclasses import dataclass, field

from .measure import SizeMeasure
from .roles import RoleDecision


KINDS = ("building", "vehicle", "creature", "minifig", "loose item")


@dataclass
class Creation:
    name: str
    kind: str
    elements: list[int]
    structural_elements: list[int] = field(default_factory=list)
    roles: dict[int, RoleDecision] = field(default_factory=dict)
    structure_level: float | None = None  # filled by stats.stat_card / analyse
    sl_reason: str = ""
    size: SizeMeasure | None = None  # filled by stats.stat_card / analyse (Size of the structural elements)
    kind_reason: str = ""
    sections: dict[str, list[int]] = field(default_factory=dict)  # minifigs: head, torso, legs
    annotation: dict[str, str] = field(default_factory=dict)  # CREATION key=values
    annotation_source: str = ""
    submodel: str = ""
    side: str | None = None  # UNIT or CREATION annotation side=…
    # propulsion worked from another creation: the oars its crew hold (element -> the role they have in the
    # minifig that holds them) [000 §9.1 "manned oars"]
    rowed: dict[int, RoleDecision] = field(default_factory=dict)
    # propulsion its own Structure gives: a motorboat's hull (element -> the propulsion role it has on the card,
    # while it stays Structure in ``roles``) [000 §9.1]
    motor: dict[int, RoleDecision] = field(default_factory=dict)
    # a wheeled build with nothing to drive or steer it: why it rolls only where it is towed, unless a minifig
    # is seated on it (kinds.towed_reason; stats.settle_towing clears it for a seated driver or a harnessed team,
    # before the card applies it)
    towed: str = ""
    mind: str = ""  # a Half Mind its judging gave it: "programmed" for a robot acting by itself [000 §10.1 Minds]

    def elements_with(self, role: str) -> list[int]:
        return [i for i in self.elements if self.roles[i].role == role]
