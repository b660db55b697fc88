"""Build BrickLink Studio ``.io`` files as Studio lays them out, plain or ZipCrypto-encrypted (older Studio).

The encrypted writer is the PKWARE traditional encryption (APPNOTE 6.1) written out here, so the tests need no
package and no ``zip`` program; the reader under test only uses Python's ``zipfile``.
"""
from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path

STUDIO_PASSWORD = b"soho0909"


def _crc_table() -> list[int]:
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _crc_table()


class _ZipCrypto:
    def __init__(self, pwd: bytes) -> None:
        self.k0, self.k1, self.k2 = 0x12345678, 0x23456789, 0x34567890
        for b in pwd:
            self._update(b)

    def _update(self, b: int) -> None:
        self.k0 = (self.k0 >> 8) ^ _TABLE[(self.k0 ^ b) & 0xFF]
        self.k1 = ((self.k1 + (self.k0 & 0xFF)) * 134775813 + 1) & 0xFFFFFFFF
        self.k2 = (self.k2 >> 8) ^ _TABLE[(self.k2 ^ (self.k1 >> 24)) & 0xFF]

    def encrypt(self, data: bytes) -> bytes:
        out = bytearray()
        for p in data:
            t = (self.k2 | 2) & 0xFFFF
            out.append(p ^ (((t * (t ^ 1)) >> 8) & 0xFF))
            self._update(p)
        return bytes(out)


def write_zip(path: Path, members: dict[str, bytes], password: bytes | None = None) -> Path:
    """A deflated zip; every member encrypted with ``password`` when one is given."""
    local, central, offset = [], [], 0
    flags = 0x1 if password else 0
    for name, data in members.items():
        raw = name.encode()
        crc = zlib.crc32(data)
        co = zlib.compressobj(6, zlib.DEFLATED, -15)
        comp = co.compress(data) + co.flush()
        if password:
            header = os.urandom(11) + bytes([crc >> 24])  # the check byte readers verify the password with
            comp = _ZipCrypto(password).encrypt(header + comp)
        lh = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, flags, 8, 0, 0x21, crc, len(comp), len(data), len(raw), 0)
        local.append(lh + raw + comp)
        central.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, flags, 8, 0, 0x21, crc, len(comp),
                                   len(data), len(raw), 0, 0, 0, 0, 0, offset) + raw)
        offset += len(lh) + len(raw) + len(comp)
    cd = b"".join(central)
    eocd = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members), len(cd), offset, 0)
    path.write_bytes(b"".join(local) + cd + eocd)
    return path


# What Studio 2.x writes: its LDraw export (model.ldr), the same as an MPD with custom parts inlined
# (model2.ldr), its own format (modelv2.ldr), a thumbnail, a .info and the custom parts the model uses.
STUDIO_MODEL = """0 FILE main.ldr
0 Main
0 Name: main.ldr
0 Author: Studio user
0 CustomBrick
0 FlexibleBrickControlPointUnitLength -1
0 FlexibleBrickLockedControlPoint
1 4 0 0 0 1 0 0 0 1 0 0 0 1 tb.dat
1 7 40 0 0 1 0 0 0 1 0 0 0 1 custom1.dat
0 NOFILE
"""
CUSTOM_PART = ("0 Custom wedge\n0 Name: custom1.dat\n0 !LDRAW_ORG Unofficial_Part\n0 BFC CERTIFY CCW\n"
               "1 16 0 0 0 1 0 0 0 1 0 0 0 1 tri.dat\n1 16 0 0 0 1 0 0 0 1 0 0 0 1 s/custom1s.dat\n")
CUSTOM_SUBPART = "0 ~Custom subpart\n0 !LDRAW_ORG Unofficial_Subpart\n3 16 0 0 0 5 0 0 0 0 5\n"
PNG_1X1 = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                        "0000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


def studio_members(model: str = STUDIO_MODEL) -> dict[str, bytes]:
    return {
        ".info": b'{"version":"2.2.9_2","total_parts":2}',
        "model.ldr": model.encode(),
        "model2.ldr": (model.replace("0 NOFILE\n", "") + "0 NOFILE\n0 FILE custom1.dat\n" + CUSTOM_PART).encode(),
        "modelv2.ldr": b"0 FILE main.ldr\n11 4 0 0 0 1 0 0 0 1 0 0 0 1 3001.dat 0 0\n",
        "thumbnail.png": PNG_1X1,
        "errorPartList.err": b"",
        "CustomParts/parts/custom1.dat": CUSTOM_PART.encode(),
        "CustomParts/parts/s/custom1s.dat": CUSTOM_SUBPART.encode(),
    }


def write_studio(path: Path, password: bytes | None = None, model: str = STUDIO_MODEL) -> Path:
    return write_zip(path, studio_members(model), password)
