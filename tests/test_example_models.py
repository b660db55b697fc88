"""Sanity checks for the bundled example creations in ``ldraw_models/``.

Self-contained on purpose (no brikscan imports): every file must be
well-formed LDraw, carry the standard header, have its MPD submodels present,
and reference only parts that exist in the official LDraw library
(``../shared/ldraw/complete.zip``; those tests are skipped when it is absent).
"""
from __future__ import annotations

import re
import zipfile
from functools import lru_cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
MODELS_DIR = REPO / "ldraw_models"
from conftest import LIBRARY_ZIP  # ../shared/ldraw/complete.zip, or under $BRIKSCAN_SHARED

# file -> (min elements, max elements); counts are after flattening submodels
EXPECTED = {
    "castle_wall.ldr": (60, 150),
    "watch_tower.ldr": (60, 150),
    "tank.mpd": (30, 150),
    "fighter.ldr": (20, 150),
    "walker.ldr": (40, 120),
    "squad.ldr": (5 * 9, 150),
}

_NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_COLOUR = r"(?:\d+|0x2[0-9A-Fa-f]{6})"
_LINE_RES = {
    "1": re.compile(rf"^1\s+{_COLOUR}(?:\s+{_NUM}){{12}}\s+\S.*$"),
    "2": re.compile(rf"^2\s+{_COLOUR}(?:\s+{_NUM}){{6}}$"),
    "3": re.compile(rf"^3\s+{_COLOUR}(?:\s+{_NUM}){{9}}$"),
    "4": re.compile(rf"^4\s+{_COLOUR}(?:\s+{_NUM}){{12}}$"),
    "5": re.compile(rf"^5\s+{_COLOUR}(?:\s+{_NUM}){{12}}$"),
}


def _norm(name: str) -> str:
    return name.strip().replace("\\", "/").lower()


def _model_files() -> list[Path]:
    return sorted(p for p in MODELS_DIR.iterdir() if p.suffix.lower() in (".ldr", ".mpd"))


def _split_files(path: Path) -> tuple[list[str], dict[str, list[str]]]:
    """Return (order, {submodel name: lines}); a plain .ldr is one unnamed file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if not any(l.split()[:2] == ["0", "FILE"] for l in lines):
        return [path.name.lower()], {path.name.lower(): lines}
    order: list[str] = []
    files: dict[str, list[str]] = {}
    cur = None
    for l in lines:
        tok = l.split()
        if tok[:2] == ["0", "FILE"]:
            cur = _norm(l.split(None, 2)[2])
            assert cur not in files, f"{path.name}: duplicate 0 FILE {cur}"
            files[cur] = []
            order.append(cur)
        elif tok[:2] == ["0", "NOFILE"]:
            assert cur is not None, f"{path.name}: 0 NOFILE without 0 FILE"
            cur = None
        elif cur is not None:
            files[cur].append(l)
        else:
            assert not tok, f"{path.name}: content outside any 0 FILE block: {l!r}"
    return order, files


def _refs(lines: list[str]) -> list[tuple[str, str]]:
    out = []
    for l in lines:
        tok = l.split()
        if tok and tok[0] == "1":
            out.append((tok[1], _norm(" ".join(tok[14:]))))
    return out


def _flat_parts(path: Path) -> list[str]:
    order, files = _split_files(path)
    parts: list[str] = []

    def walk(name: str, depth: int) -> None:
        assert depth < 20, f"{path.name}: submodel recursion too deep at {name}"
        for _, ref in _refs(files[name]):
            if ref in files:
                walk(ref, depth + 1)
            else:
                parts.append(ref)

    walk(order[0], 0)
    return parts


@lru_cache(maxsize=1)
def _library() -> tuple[zipfile.ZipFile, dict[str, str]]:
    z = zipfile.ZipFile(LIBRARY_ZIP)
    return z, {n.lower(): n for n in z.namelist()}


def _library_entry(name: str) -> str | None:
    _, names = _library()
    for prefix in ("ldraw/parts/", "ldraw/p/"):
        if prefix + name in names:
            return names[prefix + name]
    return None


needs_library = pytest.mark.skipif(
    not LIBRARY_ZIP.is_file(), reason=f"LDraw library not found at {LIBRARY_ZIP}"
)


def test_all_expected_models_present():
    names = {p.name for p in _model_files()}
    assert set(EXPECTED) <= names, f"missing: {sorted(set(EXPECTED) - names)}"


def test_readme_lists_every_model():
    readme = (MODELS_DIR / "README.md").read_text(encoding="utf-8")
    for p in _model_files():
        assert p.name in readme, f"README.md does not mention {p.name}"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_lines_well_formed(name):
    path = MODELS_DIR / name
    for n, l in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        s = l.strip()
        if not s:
            continue
        kind = s.split()[0]
        assert kind in ("0", "1", "2", "3", "4", "5"), f"{name}:{n}: bad line type {l!r}"
        if kind != "0":
            assert _LINE_RES[kind].match(s), f"{name}:{n}: malformed type-{kind} line {l!r}"
        if kind == "1":
            vals = [float(v) for v in s.split()[5:14]]
            m = [vals[0:3], vals[3:6], vals[6:9]]
            det = (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                   - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                   + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
            assert abs(det) > 1e-6, f"{name}:{n}: singular matrix"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_header(name):
    order, files = _split_files(MODELS_DIR / name)
    for sub in order:
        head = [l for l in files[sub] if l.strip()][:4]
        assert head and head[0].startswith("0 ") and len(head[0]) > 2, f"{name}/{sub}: no title"
        body = "\n".join(files[sub])
        assert re.search(r"^0 Name: \S", body, re.M), f"{name}/{sub}: no 0 Name:"
        assert "0 Author: brikscan project" in body, f"{name}/{sub}: no author"
        assert "0 !LICENSE Licensed under CC BY 2.0" in body, f"{name}/{sub}: no licence"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_element_count_in_range(name):
    lo, hi = EXPECTED[name]
    n = len(_flat_parts(MODELS_DIR / name))
    assert lo <= n <= hi, f"{name}: {n} elements, expected {lo}..{hi}"


def test_tank_is_multipart_with_required_submodels():
    path = MODELS_DIR / "tank.mpd"
    order, files = _split_files(path)
    assert order[0] == "tank.ldr"
    assert {"tank.ldr", "hull.ldr", "turret.ldr", "cannon.ldr"} <= set(files)
    text = path.read_text(encoding="utf-8")
    assert text.count("0 FILE ") == text.count("0 NOFILE")
    # every referenced .ldr/.mpd is a submodel of this file
    for sub, lines in files.items():
        for _, ref in _refs(lines):
            if ref.endswith((".ldr", ".mpd")):
                assert ref in files, f"tank.mpd/{sub}: missing submodel {ref}"
    # each submodel is actually used from the main model
    used = set()

    def walk(n):
        for _, ref in _refs(files[n]):
            if ref in files and ref not in used:
                used.add(ref)
                walk(ref)

    walk("tank.ldr")
    assert {"hull.ldr", "turret.ldr", "cannon.ldr"} <= used


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_no_dangling_submodel_refs(name):
    order, files = _split_files(MODELS_DIR / name)
    for sub, lines in files.items():
        for _, ref in _refs(lines):
            if ref.endswith((".ldr", ".mpd")):
                assert ref in files, f"{name}/{sub}: references missing submodel {ref}"


REQUIRED_PARTS = {
    # file -> groups; at least one part of each group must be used
    "castle_wall.ldr": [{"3307.dat", "3659.dat", "6182.dat", "3455.dat"}, {"3820.dat"},
                        {"4497.dat", "4499.dat"}],
    "watch_tower.ldr": [{"60596.dat", "15118.dat", "11299.dat"}],
    "tank.mpd": [{"3403c01.dat", "3680c02.dat", "61485.dat"}, {"4624.dat"}, {"3641.dat"},
                 {"4600.dat", "2926.dat", "4488.dat"}, {"3705.dat", "3706.dat", "4519.dat", "4589.dat"}],
    "fighter.ldr": [{"3933.dat", "3934.dat", "41769.dat", "41770.dat", "43722.dat", "43723.dat"},
                    {"3823.dat", "4474.dat", "2337.dat"}, {"57899.dat", "58247.dat"}, {"973p90.dat", "973.dat"}],
    "walker.ldr": [{"3700.dat", "3701.dat"}, {"3673.dat", "2780.dat"}],
    "squad.ldr": [{"3847.dat"}, {"4497.dat"}, {"3844.dat", "3624.dat"}],
}


@pytest.mark.parametrize("name", sorted(REQUIRED_PARTS))
def test_required_features_present(name):
    used = set(_flat_parts(MODELS_DIR / name))
    for group in REQUIRED_PARTS[name]:
        assert used & group, f"{name}: none of {sorted(group)} used"


def test_squad_has_five_or_six_complete_minifigs():
    used = _flat_parts(MODELS_DIR / "squad.ldr")
    torsos = sum(1 for p in used if p.startswith("973"))
    assert 5 <= torsos <= 6
    for piece in ("3818.dat", "3819.dat", "3815b.dat", "3816b.dat", "3817b.dat"):
        assert used.count(piece) == torsos, piece
    assert used.count("3820.dat") == 2 * torsos
    assert sum(1 for p in used if p.startswith("3626")) == torsos


@needs_library
@pytest.mark.shared
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_part_exists_in_library(name):
    missing = sorted({p for p in _flat_parts(MODELS_DIR / name) if _library_entry(p) is None})
    assert not missing, f"{name}: parts not in the LDraw library: {missing}"


@needs_library
@pytest.mark.shared
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_no_moved_or_obsolete_parts(name):
    z, _ = _library()
    bad = []
    for p in sorted(set(_flat_parts(MODELS_DIR / name))):
        entry = _library_entry(p)
        if entry is None:
            continue
        title = z.read(entry).decode("utf-8", "replace").splitlines()[0]
        if "~Moved to" in title or "(Obsolete)" in title:
            bad.append(f"{p}: {title}")
    assert not bad, f"{name}: uses moved/obsolete parts: {bad}"
