"""The one place for LDraw units, studs and the inch.

LDraw measures in LDU: a stud pitch is 20 LDU, a brick 24 LDU high, a plate 8. BrikWars measures in inches
[000 §1.2 Numbers]: "Flexible measuring tape is best" (a real inch, 25.4 mm = 63.5 LDU), "brick-built measuring
sticks ... at three studs per inch" (60 LDU). Every command and scene file chooses between them with the same
``--scale inch|stud`` (default ``inch``); the studs-per-inch number is a rule and lives in the rule tables
(``rules.size.studs_per_inch``).
"""
from __future__ import annotations

from ..errors import UsageError

LDU_PER_STUD = 20.0
LDU_PER_BRICK = 24.0
LDU_PER_PLATE = 8.0
LDU_PER_TAPE_INCH = 63.5  # 25.4 mm / 0.4 mm per LDU
METRES_PER_LDU = 0.0004

SCALES = ("inch", "stud")
DEFAULT_SCALE = "inch"


def ldu_per_inch(scale: str, studs_per_inch: float) -> float:
    """LDU in one BrikWars inch: a tape-measure inch (``inch``) or the rules' brick stick (``stud``)."""
    if scale not in SCALES:
        raise UsageError(f"unknown scale {scale!r} (choose inch or stud)")
    return LDU_PER_TAPE_INCH if scale == "inch" else float(studs_per_inch) * LDU_PER_STUD
