"""One served model (or scene) and its Analysis: the API's answers as plain dicts, with no HTTP in sight.

Every answer comes from the functions the CLI uses (``analyse``/``analysis_json``, ``run_blast``/``blast_json``,
``run_hit``/``hit_json``, ``line_of_sight``/``los_json``), so a page, a script and ``brikscan blast --json`` show
the same numbers. Role changes are ``--role`` overrides kept in order (undo pops one); the input file is never
written: ``annotated_copy`` returns new text with ``0 !BRIKSCAN ROLE`` lines.
"""
from __future__ import annotations

import json
import os
import re
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from ..analysis.annotations import ROLE_KEYS, ROLES
from ..analysis.stats import Analysis, AnalysisCache, analyse, card_json
from ..battle.battlefield import from_analysis, load_battlefield
from ..battle.preview import blast_json, hit_json, run_blast, run_hit
from ..battle.scene import build_scene
from ..battle.sight import line_of_sight, los_json
from ..battle.units import select
from ..errors import UsageError
from ..geometry.boxes import elements_box
from ..render.roles_view import role_palette
from .geometry import bounds, pack_geometry

MAX_TRIALS = 20000
# Above this many triangles the page draws the model with LDraw's low-resolution primitives (the library's p/8/
# folder: 8-segment studs and cylinders, as LDraw viewers draw studs): a software rasteriser's time goes with
# the triangle count, and studs are two thirds of a large model's triangles (docs/web-app.md, "The first
# picture on the largest model").
LOW_RES_ABOVE = 1_000_000
PRIMITIVES = ("auto", "normal", "low")  # ``serve --primitives``: auto is low above LOW_RES_ABOVE
MAX_RAYS_DRAWN = 48  # per pair, for the page's picture (the answer uses every ray)


def _json_bytes(obj: Any) -> bytes:
    """JSON as Starlette's JSONResponse writes it."""
    return json.dumps(obj, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")).encode("utf-8")


def _num(v: Any, what: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not np.isfinite(v):
        raise UsageError(f"{what} must be a number, got {v!r}")
    return float(v)


def _int(v: Any, what: str, lo: int = 0, hi: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int) and not (isinstance(v, float) and v.is_integer()):
        raise UsageError(f"{what} must be a whole number, got {v!r}")
    v = int(v)
    if v < lo or (hi is not None and v > hi):
        raise UsageError(f"{what} must be between {lo} and {hi}, got {v}" if hi is not None
                         else f"{what} must be {lo} or more, got {v}")
    return v


def _point(v: Any, what: str) -> str:
    if not isinstance(v, (list, tuple)) or len(v) != 3:
        raise UsageError(f"{what} must be [x, y, z] in LDU, got {v!r}")
    return ",".join(repr(_num(x, what)) for x in v)


def _roll_text(v: Any, what: str) -> str | None:
    """Dice rolls as the CLI takes them: a list [3, 6, 7] (or [[10, 4], 2] with bonus dice) or "3,6,7"."""
    if v is None:
        return None
    if isinstance(v, str):
        return v
    if not isinstance(v, (list, tuple)):
        raise UsageError(f"{what} must be a list of die results, got {v!r}")
    out = []
    for x in v:
        if isinstance(x, (list, tuple)):
            out.append("+".join(str(_int(y, what, 1)) for y in x))
        else:
            out.append(str(_num(x, what)).removesuffix(".0"))
    return ",".join(out)


def _keys(req: dict, allowed: set[str], what: str) -> None:
    if not isinstance(req, dict):
        raise UsageError(f"{what}: the body must be a JSON object")
    extra = sorted(set(req) - allowed)
    if extra:
        raise UsageError(f"{what}: unknown field {extra[0]!r} (fields: {', '.join(sorted(allowed))})")


class Session:
    """The model (or scene) being served, its analysis and the role changes made from the page."""

    def __init__(self, path: str | Path, library=None, *, rules: str = "2010", scale: str = "inch",
                 primitives: str = "auto") -> None:
        if primitives not in PRIMITIVES:
            raise UsageError(f"primitives {primitives!r}: choose {', '.join(PRIMITIVES)}")
        self.primitives = primitives
        self.path = Path(path)
        self.library = library
        self.rules = rules
        self.scale = scale
        self.lock = threading.RLock()
        self.changes: list[dict] = []  # role changes in order: {"elements", "role", "params", "spec"}
        self._geometry: bytes | None = None
        self._primitives_drawn: str | None = None  # the resolution the page's geometry was read with
        self._model_bytes: bytes | None = None  # /api/model before any role change
        self.page_served = threading.Event()  # the geometry has gone out: the warm-up may take the CPU
        self._damage_scene = None
        self._damage_scene_of = None
        self._placed_scenes: dict[int, tuple] = {}  # a scene's placed models: their damage scenes
        self._scene_lock = threading.Lock()  # the warm-up builds the damage scene without holding ``lock``
        self._acache = AnalysisCache()  # hulls and interiors, shared by the re-analyses of role changes
        self.timings: dict[str, float] = {}
        t0 = time.perf_counter()
        if self.path.suffix.lower() == ".toml":
            self.is_scene = True
            self.field = load_battlefield(self.path, library, scale=scale, rules=rules)
            self.analysis: Analysis | None = None
            self.model = None
            # each placed model file and its analysis as loaded: role changes re-analyse from these
            self._file_base: dict[Path, Analysis] = {}
            for pl, an in zip(self.field.placements, self.field.analyses):
                self._file_base.setdefault(Path(pl.path).resolve(), an)
        else:
            from ..geometry.model import load

            self.is_scene = False
            self.model = load(self.path, library)
            self.analysis = analyse(self.model, rules=rules, scale=scale)
            self._base, self._base_graph = self.analysis, self.analysis.graph
            self.field = from_analysis(self.analysis)
        self.timings["load_s"] = time.perf_counter() - t0

    # ------------------------------------------------------------------ model
    @property
    def elements(self):
        return self.field.elements

    def geometry(self) -> bytes:
        """The binary instanced geometry (built once: the roles change tints, never the shapes)."""
        with self.lock:
            if self._geometry is None:
                t0 = time.perf_counter()
                elements, mesh, resolution = self._display_mesh()
                self._primitives_drawn = resolution
                self._geometry, _ = pack_geometry(elements, mesh, self.field.colours, resolution=resolution)
                self.timings["geometry_s"] = time.perf_counter() - t0
            return self._geometry

    def _display_mesh(self) -> tuple[list, Any, str]:
        """(elements, mesh, primitive resolution) the page draws: the served mesh, or (``primitives`` low, or
        auto on a model above ``LOW_RES_ABOVE`` triangles) the same elements read with the low-resolution
        primitives. Elements, indices and transforms are the same, so a pick still names the element (and its
        file:line) the picture shows. A scene keeps its mesh (its models are placed copies of small files)."""
        low_wanted = self.primitives == "low" or (self.primitives == "auto" and self.model is not None
                                                  and self.model.mesh.n_triangles > LOW_RES_ABOVE)
        if self.is_scene or self.model is None or not low_wanted:
            return self.field.elements, self.field.mesh, "normal"
        from ..geometry.model import load

        low = load(self.path, self.library, resolution="low")
        if [(e.part, e.colour) for e in low.elements] != [(e.part, e.colour) for e in self.model.elements]:
            return self.field.elements, self.field.mesh, "normal"  # cannot happen: the same file, walked alike
        return low.elements, low.mesh, "low"

    def _analyses(self) -> list[tuple[int, Analysis, str]]:
        """(first element, analysis, name prefix) per placed model; one entry for a plain model."""
        if not self.is_scene:
            return [(0, self.analysis, "")]
        return [(p.first_element, a, p.name) for p, a in zip(self.field.placements, self.field.analyses)]

    def cards_json(self) -> list[dict]:
        out = []
        for base, a, prefix in self._analyses():
            for card in a.cards:
                d = card_json(card)
                if prefix:
                    d = dict(d, name=f"{prefix}/{d['name']}", placement=prefix,
                             elements=[i + base for i in d["elements"]],
                             structural_elements=[i + base for i in d["structural_elements"]],
                             sections={k: [i + base for i in v] for k, v in d["sections"].items()},
                             roles={str(int(k) + base): v for k, v in d["roles"].items()})
                out.append(d)
        return out

    def element_roles(self) -> list[dict]:
        """Per element: creation, role, reason, minifig section (by battlefield index)."""
        n = len(self.elements)
        out = [{"creation": None, "role": None, "reason": "", "section": None} for _ in range(n)]
        for base, a, prefix in self._analyses():
            for c in a.creations:
                name = f"{prefix}/{c.name}" if prefix else c.name
                sec = {i: s for s, ids in (c.sections or {}).items() for i in ids}
                for i in c.elements:
                    d = c.roles.get(i)
                    out[i + base] = {"creation": name, "role": d.role if d else None,
                                     "reason": d.reason if d else "", "section": sec.get(i)}
        return out

    def units_json(self) -> list[dict]:
        return [{"name": u.name, "kind": u.kind, "side": u.side, "creation": u.creation,
                 "elements": list(u.elements), "sections": {k: list(v) for k, v in u.sections.items()},
                 "eye_ldu": [round(float(x), 2) for x in u.eye_ldu],
                 "position_ldu": [round(float(x), 2) for x in u.position_ldu]} for u in self.field.units]

    def attackers(self) -> list[str]:
        """The units and creations with a weapon (``attacks --from`` takes these names), as ``find_weapons``
        finds them on the battlefield with the page's role changes."""
        from ..battle.attacks import find_weapons

        names: list[str] = []
        for w in find_weapons(self.field):
            if w.attacker.name not in names:
                names.append(w.attacker.name)
        return names

    def model_bytes(self) -> bytes:
        """``model_json`` as the JSON the page gets, kept while no role has changed: the page's first load then
        costs the server nothing (it is made before serving, like the geometry)."""
        with self.lock:
            if self.changes:
                return _json_bytes(self.model_json())
            if self._model_bytes is None:
                self._model_bytes = _json_bytes(self.model_json())
            return self._model_bytes

    def model_json(self) -> dict:
        """``GET /api/model``: every element with its role and reason, the stat cards, the units."""
        with self.lock:
            roles = self.element_roles()
            cols = self.field.colours
            elements = []
            for e, r in zip(self.elements, roles):
                elements.append({"index": e.index, "part": e.part, "description": e.description,
                                 "colour": int(e.colour), "colour_name": cols.get(e.colour).name,
                                 "creation": r["creation"], "role": r["role"], "reason": r["reason"],
                                 "section": r["section"], "source": e.source,
                                 "bbox_ldu": [[round(float(v), 2) for v in e.bbox_min],
                                              [round(float(v), 2) for v in e.bbox_max]]})
            cards = self.cards_json()
            lo, hi = bounds(self.elements, self.field.mesh)
            return {"model": str(self.path), "name": self.field.name, "kind": "scene" if self.is_scene else "model",
                    "rules": self.rules, "scale": self.scale, "ldu_per_inch": self.field.ldu_per_inch,
                    "elements": elements, "creations": cards, "units": self.units_json(),
                    "army": army_total(cards), "roles": list(ROLES), "attackers": self.attackers(),
                    "role_colours": {k: list(v) for k, v in role_palette().items()},
                    "bbox_ldu": [[float(v) for v in lo], [float(v) for v in hi]],
                    "triangles": int(self.field.mesh.n_triangles), "changes": self.changes_json(),
                    "editable": True,
                    "placements": [{"name": p.name, "file": str(p.path), "first_element": p.first_element,
                                    "n_elements": p.n_elements, "side": p.side} for p in self.field.placements]}

    # ------------------------------------------------------------------ battle
    def _single(self, what: str) -> Analysis:
        if self.analysis is None:
            raise UsageError(f"{what} works on one model: serve the model file itself (a scene places several)")
        return self.analysis

    def damage_scene(self):
        """The warm damage scene of the current analysis (its ray engine is built once and kept across role
        changes: the triangles never change)."""
        with self._scene_lock:
            a = self._single("a blast")
            if self._damage_scene is None or self._damage_scene_of is not a:
                old = self._damage_scene
                self._damage_scene = build_scene(a)
                self._damage_scene_of = a
                if old is not None and old._rays is not None:
                    self._damage_scene._rays = old._rays
            return self._damage_scene

    def status(self) -> dict:
        """``GET /api/status``: load, geometry, warm-up and last blast times (for benchmarks and the docs)."""
        return {"warm": "warm_s" in self.timings, "timings": {k: round(v, 3) for k, v in self.timings.items()},
                "elements": len(self.elements), "triangles": int(self.field.mesh.n_triangles),
                "primitives": self._primitives_drawn}

    def warm(self, wait_s: float = 0.0) -> None:
        """Build in the background what the first blast and the first role change would wait for: the damage
        scene and its ray engine (seconds on a 4 M-triangle model), the mesh box, the part hulls.

        ``wait_s``: first wait up to that long for the page's geometry to have gone out, and run at the lowest
        CPU priority: the page's first picture (a software rasteriser, on the same CPU) comes first. A blast
        asked for meanwhile builds what it needs itself."""
        if self.analysis is None:
            return
        if wait_s > 0:
            self.page_served.wait(wait_s)
            try:  # Linux: a thread's own nice value
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)
            except (AttributeError, OSError):
                pass
        t0 = time.perf_counter()
        try:
            sc = self.damage_scene()
            eng = sc.ray_engine()
            lo, hi = self.field.mesh.bbox()
            c = (np.asarray(lo) + np.asarray(hi)) / 2
            eng.first_hit(c[None, :] - [0, 1e4, 0], np.array([[0.0, 1.0, 0.0]]), np.array([2e4]))
            with self.lock:
                a = self.analysis
            if not self.changes:
                analyse(self.model, rules=self.rules, scale=self.scale, graph=a.graph, cache=self._acache)
        except Exception:  # noqa: BLE001 - a warm-up failure only costs time; the request will say what is wrong
            pass
        self.timings["warm_s"] = time.perf_counter() - t0

    def _target(self, elements: list[int], points: list[list[float]]) -> tuple[int, Analysis, np.ndarray]:
        """(first element, analysis, 4x4 placement) of the one model a blast or hit falls on. A plain model is
        itself; in a scene, the placement owning the element, or whose box holds the point (else the nearest)."""
        if not self.is_scene:
            return 0, self._single("a blast"), np.eye(4)
        pls = self.field.placements
        owners = set()
        for e in elements:
            owners |= {k for k, p in enumerate(pls) if p.first_element <= e < p.first_element + p.n_elements}
        for pt in points:
            best, dist = None, np.inf
            for k, p in enumerate(pls):
                if not p.n_elements:
                    continue
                lo, hi = elements_box(self.elements, range(p.first_element, p.first_element + p.n_elements))
                d = float(np.linalg.norm(np.maximum(0, np.maximum(lo - pt, np.asarray(pt) - hi))))
                if d < dist:
                    best, dist = k, d
            if best is not None:
                owners.add(best)
        if len(owners) != 1:
            raise UsageError("a blast or hit in a scene falls on one placed model: give centres on the same model")
        k = owners.pop()
        return pls[k].first_element, self.field.analyses[k], np.asarray(pls[k].transform, dtype=float)

    def _scene_for(self, a: Analysis):
        if a is self.analysis and a is not None:
            return self.damage_scene()
        with self._scene_lock:
            got = self._placed_scenes.get(id(a))
            if got is None or got[0] is not a:  # (a role change made a new analysis: its own scene)
                got = self._placed_scenes[id(a)] = (a, build_scene(a))
            return got[1]

    @staticmethod
    def _to_local(xf: np.ndarray, p) -> list[float]:
        return (np.linalg.inv(xf) @ np.r_[np.asarray(p, dtype=float), 1.0])[:3].tolist()

    @staticmethod
    def _to_scene(out: dict, base: int, xf: np.ndarray, name: str | None) -> dict:
        """A placed model's blast/hit JSON in the scene's element indices and coordinates."""
        if name is None:
            return out
        sh = lambda ids: [int(i) + base for i in ids]  # noqa: E731
        out["destroyed"] = sh(out["destroyed"])
        for sec in out.get("sections", []):
            sec["elements"] = sh(sec["elements"])
        out["loose_objects"] = [sh(x) for x in out.get("loose_objects", [])]
        out["knockback"] = {str(int(k) + base): v for k, v in out.get("knockback", {}).items()}
        if "element_damage" in out:
            out["element_damage"] = {str(int(k) + base): v for k, v in out["element_damage"].items()}
        if "shielded" in out:
            out["shielded"] = sh(out["shielded"])
        for bl in out.get("blasts", []):
            bl["centre_ldu"] = (xf @ np.r_[bl["centre_ldu"], 1.0])[:3].tolist()
        if out.get("target") is not None:
            out["target"] = int(out["target"]) + base
        for st in out.get("steps", []):
            if "element" in st:
                st["element"] = int(st["element"]) + base
        mc = out.get("monte_carlo")
        if mc:
            mc["p_destroyed"] = {str(int(k) + base): v for k, v in mc.get("p_destroyed", {}).items()}
            for ln in mc.get("line", []):
                ln["element"] = int(ln["element"]) + base
        out["placement"], out["first_element"] = name, base
        return out

    def blast(self, req: dict) -> dict:
        """``POST /api/blast``: what ``blast --json`` prints for the same options (in a scene: on the placed
        model it falls on, in the scene's element indices and coordinates, with ``placement``)."""
        _keys(req, {"at", "at_element", "dice", "rolls", "armor_rolls", "seed", "expected", "trials", "cover"},
              "/api/blast")
        at, at_el = req.get("at"), req.get("at_element")
        if at is None and at_el is None:
            raise UsageError("/api/blast: give \"at\": [x, y, z] (LDU) or \"at_element\": N")
        pts = [] if at is None else ([at] if at and not isinstance(at[0], (list, tuple)) else list(at))
        els = [] if at_el is None else (list(at_el) if isinstance(at_el, (list, tuple)) else [at_el])
        n = len(self.elements)
        els = [_int(e, "at_element", 0, n - 1) for e in els]
        pts_txt = [_point(p, "at") for p in pts]
        trials = _int(req.get("trials", 0), "trials", 0, MAX_TRIALS)
        dice = req.get("dice", "3d10")
        if not isinstance(dice, str):
            raise UsageError(f"dice must be text like \"3d10\", got {dice!r}")
        seed = None if req.get("seed") is None else _int(req["seed"], "seed")
        with self.lock:
            t0 = time.perf_counter()
            base, a, xf = self._target(els, [[float(v) for v in t.split(",")] for t in pts_txt])
            name = self._placement_name(base)
            if name is not None:
                pts_txt = [",".join(repr(v) for v in self._to_local(xf, [float(v) for v in t.split(",")]))
                           for t in pts_txt]
                els = [e - base for e in els]
            scene, result, mc = run_blast(a, at=pts_txt or None, at_element=els or None, dice=dice,
                                          rolls=_roll_text(req.get("rolls"), "rolls"),
                                          armor_rolls=_roll_text(req.get("armor_rolls"), "armor_rolls"),
                                          seed=seed, expected=bool(req.get("expected", False)), trials=trials,
                                          scene=self._scene_for(a), cover=bool(req.get("cover", True)),
                                          rules=a.rules, scale=a.scale)
            out = self._to_scene(blast_json(scene, result, mc), base, xf, name)
            self.timings["blast_s"] = time.perf_counter() - t0
            return out

    def _placement_name(self, base: int) -> str | None:
        if not self.is_scene:
            return None
        return next(p.name for p in self.field.placements if p.first_element == base)

    def hit(self, req: dict) -> dict:
        """``POST /api/hit``: Component Damage, what ``hit --json`` prints (scenes as for blasts)."""
        _keys(req, {"element", "from", "toward", "damage", "dice", "rolls", "armor_rolls", "seed", "expected",
                    "chunk", "overkill", "trials"}, "/api/hit")
        n = len(self.elements)
        el = None if req.get("element") is None else _int(req["element"], "element", 0, n - 1)
        dmg = None if req.get("damage") is None else _num(req["damage"], "damage")
        dice = req.get("dice")
        if dice is not None and not isinstance(dice, str):
            raise UsageError(f"dice must be text like \"2d6\", got {dice!r}")
        frm = None if req.get("from") is None else _point(req["from"], "from")
        tow = None if req.get("toward") is None else _point(req["toward"], "toward")
        with self.lock:
            as_pt = lambda t: [float(v) for v in t.split(",")]  # noqa: E731
            base, a, xf = self._target([el] if el is not None else [], [as_pt(tow)] if tow and el is None else [])
            name = self._placement_name(base)
            if name is not None:
                el = None if el is None else el - base
                frm = None if frm is None else ",".join(repr(v) for v in self._to_local(xf, as_pt(frm)))
                tow = None if tow is None else ",".join(repr(v) for v in self._to_local(xf, as_pt(tow)))
            scene, result, info = run_hit(
                a, element=el, origin=frm, toward=tow,
                damage=dmg, dice=dice, rolls=_roll_text(req.get("rolls"), "rolls"),
                armor_rolls=_roll_text(req.get("armor_rolls"), "armor_rolls"),
                seed=None if req.get("seed") is None else _int(req["seed"], "seed"),
                expected=bool(req.get("expected", False)), chunk=bool(req.get("chunk", False)),
                overkill=bool(req.get("overkill", True)), trials=_int(req.get("trials", 0), "trials", 0, MAX_TRIALS),
                scene=self._scene_for(a), rules=a.rules, scale=a.scale)
            return self._to_scene(hit_json(scene, result, info), base, xf, name)

    def los(self, req: dict) -> dict:
        """``POST /api/los`` with ``{"from", "to"}`` (names, comma lists, or "all"): what ``los --json`` prints;
        ``"rays": true`` adds a few rays per pair for the picture."""
        _keys(req, {"from", "to", "origin", "samples", "seed", "rays"}, "/api/los")

        def names(v, what):
            if v is None or (isinstance(v, str) and v.strip().lower() in ("", "all")):
                return None
            if isinstance(v, (list, tuple)) and all(isinstance(x, str) for x in v):
                return ",".join(v)
            if isinstance(v, str):
                return v
            raise UsageError(f"{what} must be a unit name, a list of names or \"all\", got {v!r}")
        origin = req.get("origin", "eyes")
        if origin not in ("eyes", "barrel"):
            raise UsageError(f"origin must be eyes or barrel, got {origin!r}")
        samples = _int(req.get("samples", 200), "samples", 1, 5000)
        with self.lock:
            units = self.field.units
            if not any(u.is_minifig for u in units):
                raise UsageError("no minifigs found (line of sight needs at least one minifig unit)")
            f, t = names(req.get("from"), "from"), names(req.get("to"), "to")
            viewers = select(units, f, "from") if f else [u for u in units if u.is_minifig]
            targets = select(units, t, "to")
            result = line_of_sight(self.field, viewers, targets, samples=samples,
                                   seed=_int(req.get("seed", 0), "seed"), origin=origin)
            out = los_json(self.field, result)
            if req.get("rays"):
                rays = []
                for p in result.pairs:
                    idx = np.arange(p.rays.start, p.rays.stop)
                    if len(idx) > MAX_RAYS_DRAWN:
                        idx = idx[np.linspace(0, len(idx) - 1, MAX_RAYS_DRAWN).round().astype(int)]
                    rays.append({"from": p.viewer, "to": p.target,
                                 "origins": np.round(result.origins[idx], 1).tolist(),
                                 "ends": np.round(result.block_point[idx], 1).tolist(),
                                 "blocked": result.blocked[idx].astype(bool).tolist()})
                out["ray_lines"] = rays
            return out

    def attacks(self, req: dict) -> dict:
        """``POST /api/attacks`` ``{"from": NAME}`` (optional ``"to"``, ``"weapon"``, ``"scenery"``): what
        ``attacks BATTLEFIELD --from NAME --json`` prints (``attack_options`` / ``attacks_json``), over the served
        battlefield with the page's role changes. ``"arcs": true`` adds each mounted weapon's cone for the
        picture."""
        from ..battle.attacks import attack_options, attacks_json, pick_units

        _keys(req, {"from", "to", "weapon", "scenery", "samples", "seed", "arcs"}, "/api/attacks")
        for k in ("from", "to", "weapon"):
            if req.get(k) is not None and not isinstance(req[k], str):
                raise UsageError(f"{k} must be a name (text), got {req[k]!r}")
        if not req.get("from"):
            raise UsageError("/api/attacks: give \"from\": the attacker's name")
        samples = _int(req.get("samples", 200), "samples", 1, 5000)
        with self.lock:
            attackers, targets = pick_units(self.field, req["from"], req.get("to"))
            result = attack_options(self.field, attackers, targets, req.get("weapon"), samples=samples,
                                    seed=_int(req.get("seed", 0), "seed"), scenery=bool(req.get("scenery", False)))
            out = attacks_json(self.field, result)
            if req.get("arcs"):
                out["arcs"] = arcs_json(self.field, result)
            return out

    # ------------------------------------------------------------------ roles
    def set_role(self, req: dict) -> dict:
        """``POST /api/roles`` ``{"element": N | "elements": [...], "role": "weapon", "type": "gun", ...}``:
        re-analyse with the change as a ``--role`` override; the updated stat cards."""
        _keys(req, {"element", "elements", "role"} | ROLE_KEYS, "/api/roles")
        n = len(self.elements)
        if req.get("elements") is not None:
            if not isinstance(req["elements"], list) or not req["elements"]:
                raise UsageError("elements must be a non-empty list of element indices")
            els = sorted({_int(e, "elements", 0, n - 1) for e in req["elements"]})
        elif req.get("element") is not None:
            els = [_int(req["element"], "element", 0, n - 1)]
        else:
            raise UsageError("/api/roles: give \"element\": N or \"elements\": [N, ...]")
        role = req.get("role")
        if role not in ROLES:
            raise UsageError(f"role must be one of {', '.join(ROLES)}, got {role!r}")
        params = {}
        for k in sorted(ROLE_KEYS & set(req)):
            v = req[k]
            if isinstance(v, bool) or not isinstance(v, (str, int, float)):
                raise UsageError(f"{k} must be text or a number, got {v!r}")
            v = str(v).strip()
            if not re.fullmatch(r"[\w.+\-/]+", v):
                raise UsageError(f"{k}={v!r}: use letters, digits and . + - / only")
            params[k] = v
        words = role.replace(" ", "_") if " " in role else role
        change = {"elements": els, "role": role, "params": params}
        local = els
        if self.is_scene:  # the change applies to the model of the elements' scene item (every placement of it)
            pl = self._placement_of(els)
            local = [e - pl.first_element for e in els]
            change.update(placement=pl.name, file=str(Path(pl.path).resolve()), local_elements=local)
        change["spec"] = ",".join(map(str, local)) + "=" + " ".join([words] + [f"{k}={v}" for k, v in params.items()])
        with self.lock:
            self._reanalyse(self.changes + [change])
            self.changes.append(change)
            return self.roles_json()

    def _placement_of(self, els: list[int]):
        """The one placed model that holds all of ``els`` (a role change falls on one model file)."""
        owners = [next(p for p in self.field.placements if p.first_element <= e < p.first_element + p.n_elements)
                  for e in els]
        if any(o is not owners[0] for o in owners):
            names = sorted({o.name for o in owners})
            raise UsageError(f"a role change falls on one placed model; these bricks are in {', '.join(names)}")
        return owners[0]

    def undo_role(self) -> dict:
        with self.lock:
            if self.changes:
                self._reanalyse(self.changes[:-1])
                self.changes.pop()
            return self.roles_json()

    def reset_roles(self) -> dict:
        with self.lock:
            if self.changes:
                self._reanalyse([])
                self.changes.clear()
            return self.roles_json()

    def _reanalyse(self, changes: list[dict]) -> None:
        """Re-analyse with ``changes`` as ``--role`` overrides (in a scene: per model file, then the scene is
        laid out again from those analyses). Only once that succeeded is the state replaced: a bad change leaves
        it as it was."""
        t0 = time.perf_counter()
        if self.is_scene:
            known: dict[Path, Analysis] = {}
            for f, base in self._file_base.items():
                specs = [c["spec"] for c in changes if Path(c["file"]) == f]
                known[f] = analyse(base.model, rules=base.rules, scale=base.scale, overrides=specs, graph=base.graph,
                                   cache=self._acache) if specs else base
            self.field = load_battlefield(self.path, self.library, scale=self.scale, rules=self.rules,
                                          analyses=known)
        else:
            overrides = [c["spec"] for c in changes]
            # the connectivity graph does not depend on roles: reuse it and the part hulls (seconds on big models)
            a = analyse(self.model, rules=self.rules, scale=self.scale, overrides=overrides,
                        graph=self._base_graph, cache=self._acache) if overrides else self._base
            self.analysis = a
            self.field = from_analysis(a)
        self.timings["roles_s"] = time.perf_counter() - t0

    def changes_json(self) -> list[dict]:
        return [{k: v for k, v in c.items()} for c in self.changes]

    def roles_json(self) -> dict:
        cards = self.cards_json()
        return {"creations": cards, "army": army_total(cards), "changes": self.changes_json(),
                "attackers": self.attackers(), "units": self.units_json(),
                "elements": [{"index": i, **r} for i, r in enumerate(self.element_roles())]}

    def annotated_copy(self) -> tuple[str, bytes]:
        """(file name, bytes) of the model with a ``0 !BRIKSCAN ROLE`` line before each changed element's line;
        for a scene, the changed model file annotated (several changed files: a zip of them)."""
        if not self.is_scene:
            return _annotated(self.path, self._single("the annotated copy").model, self.changes)
        files = []
        for c in self.changes:
            if Path(c["file"]) not in files:
                files.append(Path(c["file"]))
        if not files:
            raise UsageError("no role change yet: the scene's models are as loaded")
        copies = [_annotated(f, self._file_base[f].model,
                             [dict(c, elements=c["local_elements"]) for c in self.changes if Path(c["file"]) == f])
                  for f in files]
        if len(copies) == 1:
            return copies[0]
        import io
        import zipfile

        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for name, data in copies:
                z.writestr(name, data)
        return f"{self.path.stem}-annotated.zip", buf.getvalue()


def _annotated(path: Path, model, changes: list[dict]) -> tuple[str, bytes]:
    """(file name, text) of ``path`` with ``0 !BRIKSCAN`` lines for ``changes`` (element indices of ``model``).

    An element inside a submodel used several times is annotated in the submodel, so the change applies
    to every copy of it (the LDraw file has one line for all of them)."""
    data = path.read_bytes()
    text = data.decode("utf-8", errors="surrogateescape")
    nl = "\r\n" if "\r\n" in text else "\n"
    lines = text.split(nl)
    final: dict[int, int] = {}  # element -> the change that decides it (the last one naming it)
    for k, c in enumerate(changes):
        for i in c["elements"]:
            final[i] = k
    main = str(path)
    before: dict[int, list[str]] = {}  # 1-based line number -> meta lines to write above it
    after: dict[int, list[str]] = {}
    for k, c in enumerate(changes):
        lns = sorted({int(model.elements[i].source.rpartition(":")[2]) for i, kk in final.items()
                      if kk == k and Path(model.elements[i].source.rpartition(":")[0]) == Path(main)})
        if not lns:
            continue  # elements in another file beside the model: not part of this copy
        words = " ".join([c["role"].replace(" ", "_")] + [f"{key}={v}" for key, v in c["params"].items()])
        # several bricks are one weapon / one propulsion unit: a BEGIN … END block where their lines are
        # together; ROLE lines (one unit each) where other parts lie between them
        block = len(lns) > 1 and all(not re.match(r"\s*1\s", lines[n - 1]) or n in lns
                                     for n in range(lns[0], lns[-1] + 1))
        if block:
            before.setdefault(lns[0], []).append(f"0 !BRIKSCAN BEGIN {words}")
            after.setdefault(lns[-1], []).insert(0, "0 !BRIKSCAN END")
        else:
            for n in lns:
                before.setdefault(n, []).append(f"0 !BRIKSCAN ROLE {words}")
    out: list[str] = []
    for n, line in enumerate(lines, start=1):
        if n in before:
            if out and re.match(r"\s*0\s+!BRIKSCAN\s+ROLE\b", out[-1], re.IGNORECASE) and \
                    any(m.startswith("0 !BRIKSCAN ROLE") for m in before[n]):
                out.pop()  # the page's change replaces the role written before
            indent = re.match(r"\s*", line).group(0)
            out.extend(indent + m for m in before[n])
        out.append(line)
        if n in after:
            out.extend(after[n])
    name = f"{path.stem}-annotated{path.suffix}"
    return name, nl.join(out).encode("utf-8", errors="surrogateescape")


def arcs_json(battlefield, result) -> list[dict]:
    """Per weapon with a barrel: the cone the page draws, from the barrel end along the direction its mount turns
    it to for its best target, half-angle the rulebook's fudge [000 §8.2], one Range long. A held weapon turns
    with its minifig (no cone)."""
    from ..rules.sight_tables import load_sight_rules

    fudge = load_sight_rules().firing_arc.fudge_deg
    lpi = battlefield.ldu_per_inch
    out = []
    for w in result.weapons:
        if w.tip is None or w.melee or w.mount.kind == "held":
            continue
        opts = [o for o in result.options if o.attacker == w.attacker.name and o.weapon == w.name]
        best = max((o for o in opts if o.in_arc), key=lambda o: o.p_hit, default=None)
        axis = best.aim_ldu if best is not None else w.axis
        out.append({"attacker": w.attacker.name, "weapon": w.name, "mount": w.mount.kind,
                    "apex_ldu": [round(float(v), 2) for v in w.tip],
                    "axis": [round(float(v), 4) for v in axis], "half_angle_deg": float(fudge),
                    "length_ldu": round(float((w.range_in or 6.0) * lpi), 2)})
    return out


def army_total(cards: list[dict]) -> dict:
    """The army total the page shows under the cards: creations, minifigs and their summed cost."""
    total = sum(c["total_cost"] or 0 for c in cards if c["kind"] != "loose item")
    return {"creations": sum(1 for c in cards if c["kind"] not in ("minifig", "loose item")),
            "minifigs": sum(1 for c in cards if c["kind"] == "minifig"),
            "total_cost": round(float(total), 2)}
