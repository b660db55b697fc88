"""BrickLink Studio ``.io`` files: a zip holding ``model.ldr`` (the LDraw export), maybe ``model2.ldr`` and
``CustomParts/`` (parts the builder made or imported, laid out like a library: ``parts/``, ``parts/s/``, ``p/``).

Older Studio versions encrypt the members with ZipCrypto and the password Studio publishes for them; Python's
``zipfile`` decrypts that. Every member is read with a size cap, so a zip bomb is refused, not inflated.
"""
from __future__ import annotations

import zipfile
import zlib
from dataclasses import dataclass, field

from ..errors import InputError, short
from .library import normalize_name
from .limits import MAX_FILE_BYTES

STUDIO_PASSWORD = b"soho0909"  # Studio's published password for its encrypted .io files
MODEL_MEMBERS = ("model.ldr", "model2.ldr")  # model.ldr first: the plain LDraw export
CUSTOM_PREFIX = "customparts/"
MAX_MEMBERS = 100_000
MAX_TOTAL_BYTES = 256 << 20  # all custom parts together, uncompressed


@dataclass
class StudioFile:
    model_name: str  # the member the model was read from
    model: bytes
    custom: dict[str, tuple[str, bytes]] = field(default_factory=dict)  # "parts/x.dat" -> (label, data)
    encrypted: bool = False


def is_zip(data: bytes) -> bool:
    return data[:4] in (b"PK\x03\x04", b"PK\x05\x06")


def _read(zf: zipfile.ZipFile, info: zipfile.ZipInfo, label: str) -> bytes:
    """One member, decrypted when it must be, never more than MAX_FILE_BYTES."""
    if info.file_size > MAX_FILE_BYTES:
        raise InputError(f"{short(info.filename)} unpacks to more than {MAX_FILE_BYTES >> 20} MB", file=label)
    pwd = STUDIO_PASSWORD if info.flag_bits & 0x1 else None
    try:
        with zf.open(info, pwd=pwd) as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except RuntimeError:  # zipfile's "Bad password"
        raise InputError(f"{short(info.filename)} is encrypted with a password other than Studio's",
                         file=label) from None
    except NotImplementedError:  # AES (compression 99) or an exotic method
        raise InputError(f"{short(info.filename)} uses a zip method brikscan cannot read (AES encryption?)",
                         file=label) from None
    except (zipfile.BadZipFile, OSError, EOFError, zlib.error, ValueError) as exc:
        raise InputError(f"corrupt .io file ({type(exc).__name__} in {short(info.filename)})", file=label) from None
    if len(data) > MAX_FILE_BYTES:
        raise InputError(f"{short(info.filename)} unpacks to more than {MAX_FILE_BYTES >> 20} MB", file=label)
    return data


def read_studio(path: str) -> StudioFile:
    """The model text and the custom parts of a Studio file; InputError (one line) for anything else."""
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise InputError(f"not a readable Studio .io file ({type(exc).__name__})", file=path) from None
    with zf:
        infos = zf.infolist()
        if len(infos) > MAX_MEMBERS:
            raise InputError(f"{len(infos):,} members: not a Studio .io file", file=path)
        by_name = {normalize_name(i.filename): i for i in infos if not i.is_dir()}
        model_info = next((by_name[m] for m in MODEL_MEMBERS if m in by_name), None)
        if model_info is None:
            raise InputError("a zip without model.ldr: not a BrickLink Studio .io file", file=path)
        model = _read(zf, model_info, path)
        out = StudioFile(normalize_name(model_info.filename), model, encrypted=bool(model_info.flag_bits & 1))
        total = 0
        for name, info in by_name.items():
            if not name.startswith(CUSTOM_PREFIX) or not name.endswith((".dat", ".ldr")):
                continue
            total += info.file_size
            if total > MAX_TOTAL_BYTES:
                raise InputError(f"custom parts unpack to more than {MAX_TOTAL_BYTES >> 20} MB", file=path)
            rel = name[len(CUSTOM_PREFIX):]
            out.custom[rel] = (f"{path}/{info.filename}", _read(zf, info, path))
    return out
