"""The ray engine for line of sight: closest hit of many ray segments against the battlefield's triangle soup.

Two engines answer the same query: Embree (through ``embreex``, the library trimesh uses) and open3d's
``RaycastingScene``. ``measure_engines`` times both on the same rays so the choice is a measurement, not a guess;
``RayEngine.build`` picks the faster one that is installed (Embree on this machine, see ``bench/bench_los.py``).
Over a whole model, ``RayEngine.for_model`` builds one Embree tree per distinct part instead, placed once per
element (``instanced.py``): the same answers for a small part of the build time and memory.
"""
from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

ENGINES = ("embree", "open3d")


@dataclass
class Hits:
    """Closest hit per ray: distance along the (unit) direction, or inf; face index, or -1."""

    t: np.ndarray  # (N,) float32
    face: np.ndarray  # (N,) int64


class RayEngine:
    """Closest-hit queries on segments ``origin + t*dir, 0 <= t < tmax`` (``dir`` of unit length, LDU)."""

    name = "none"

    @staticmethod
    def build(triangles: np.ndarray, engine: str | None = None) -> "RayEngine":
        """An engine over (F,3,3) world triangles; ``engine`` None picks the fastest available (Embree first)."""
        order = [engine] if engine else list(ENGINES)
        last: Exception | None = None
        for name in order:
            try:
                return _ENGINE_CLASSES[name](triangles)
            except ImportError as exc:  # the other engine is the fallback
                last = exc
            except KeyError:
                raise ValueError(f"unknown ray engine {name!r} (choose one of: {', '.join(ENGINES)})") from None
        raise ImportError(f"no ray engine available ({last})")

    @staticmethod
    def for_model(mesh, transforms, keys=None, engine: str | None = None) -> "RayEngine":
        """An engine over a whole model of placed parts: one Embree tree per distinct part, instanced per
        element (``battle/instanced.py``), when Embree is asked for (or nothing is) and its library is there;
        else the flat tree over every world triangle. Same answers, with the whole model's face indices.

        ``transforms`` (E,4,4): the elements' world placements; ``keys`` (E,): what makes two elements' local
        geometry the same (the part name; (file, part) on a scene of several files). None: no two share a tree.
        """
        if engine in (None, "embree") and len(transforms):
            from . import instanced

            if instanced.available():
                try:
                    return instanced.InstancedEngine(mesh, transforms,
                                                     keys if keys is not None else range(len(transforms)))
                except RuntimeError:  # Embree refused (out of memory, a broken install): the flat tree answers
                    pass
        return RayEngine.build(mesh.triangles, engine)

    @staticmethod
    def for_region(mesh, elem_lo: np.ndarray, elem_hi: np.ndarray, lo, hi, engine: str | None = None,
                   pad: float = 1.0) -> "RayEngine":
        """An engine over only the geometry in the box ``lo..hi`` (LDU): every ray segment inside it gets the
        same answer as from the whole-model engine, with the whole model's face indices.

        Why: building the tree costs ~4 µs a triangle (5 million triangles: seconds) while a blast's cover
        rays or the corridor between two units touch a small part of the model. Segments lie in the box of
        their end points (a box is convex), so triangles outside it cannot be hit; whole elements are kept when
        their box (``elem_lo``/``elem_hi``, (E,3)) overlaps, inline geometry (face_element -1) triangle by
        triangle. ``mesh`` is a ``ModelMesh``; the whole-model engine is returned when most of it is needed.
        """
        lo = np.asarray(lo, dtype=np.float64) - pad
        hi = np.asarray(hi, dtype=np.float64) + pad
        keep = np.flatnonzero(((elem_lo <= hi) & (elem_hi >= lo)).all(axis=1))
        faces = mesh.face_runs(keep)
        inline = np.flatnonzero(mesh.face_element < 0)
        if len(inline):
            t = mesh.triangles[inline]
            ok = np.ones(len(inline), dtype=bool)
            for c in range(3):
                ok &= (t[:, :, c].min(axis=1) <= hi[c]) & (t[:, :, c].max(axis=1) >= lo[c])
            faces = np.concatenate([faces, inline[ok]])
        if len(faces) > 0.6 * mesh.n_triangles:
            return RayEngine.build(mesh.triangles, engine)
        return SubsetEngine(mesh.triangles, np.sort(faces), engine)

    def first_hit(self, origins: np.ndarray, dirs: np.ndarray, tmax: np.ndarray) -> Hits:
        raise NotImplementedError


class SubsetEngine(RayEngine):
    """An engine over some faces of a larger triangle soup, answering with the soup's face indices."""

    def __init__(self, triangles: np.ndarray, faces: np.ndarray, engine: str | None = None) -> None:
        self.faces = np.asarray(faces, dtype=np.int64)
        self.n_faces = len(triangles)
        self.inner = RayEngine.build(triangles[self.faces], engine)
        self.name = self.inner.name

    def first_hit(self, origins, dirs, tmax) -> Hits:
        h = self.inner.first_hit(origins, dirs, tmax)
        if not len(self.faces):
            return Hits(np.full(len(h.t), np.inf, np.float32), np.full(len(h.t), -1, np.int64))
        return Hits(h.t, np.where(h.face >= 0, self.faces[np.clip(h.face, 0, None)], -1))


class EmbreeEngine(RayEngine):
    name = "embree"

    def __init__(self, triangles: np.ndarray) -> None:
        from embreex import rtcore_scene
        from embreex.mesh_construction import TriangleMesh

        self.n_faces = len(triangles)
        self._scene = rtcore_scene.EmbreeScene()
        tris = np.ascontiguousarray(triangles, dtype=np.float32)
        if len(tris) == 0:  # Embree wants at least one triangle: a degenerate one far away never hits
            tris = np.full((1, 3, 3), 1e9, dtype=np.float32)
        self._mesh = TriangleMesh(self._scene, tris)
        self.threads = os.cpu_count() or 1

    def first_hit(self, origins, dirs, tmax) -> Hits:
        o = np.ascontiguousarray(origins, dtype=np.float32)
        d = np.ascontiguousarray(dirs, dtype=np.float32)
        if len(o) == 0:
            return Hits(np.zeros(0, np.float32), np.zeros(0, np.int64))
        tm = np.array(np.broadcast_to(tmax, (len(o),)), dtype=np.float32)
        n = len(o)
        workers = min(self.threads, max(1, n // 20000))
        if workers <= 1:
            return self._run(o, d, tm)
        # embreex releases the GIL while tracing: one chunk per core nearly doubles throughput on 2 cores.
        bounds = np.linspace(0, n, workers + 1).astype(int)
        parts = list(_executor(workers).map(lambda ab: self._run(o[ab[0]:ab[1]], d[ab[0]:ab[1]], tm[ab[0]:ab[1]]),
                                            zip(bounds[:-1], bounds[1:])))
        return Hits(np.concatenate([p.t for p in parts]), np.concatenate([p.face for p in parts]))

    def _run(self, o, d, tm) -> Hits:
        res = self._scene.run(o, d, dists=tm.copy(), query="INTERSECT", output=1)
        face = res["primID"].astype(np.int64)
        face[face >= self.n_faces] = -1
        t = np.where(face >= 0, res["tfar"], np.inf).astype(np.float32)
        return Hits(t, face)


class Open3dEngine(RayEngine):
    name = "open3d"

    def __init__(self, triangles: np.ndarray) -> None:
        import open3d as o3d

        self.n_faces = len(triangles)
        self._o3c = o3d.core
        self._scene = o3d.t.geometry.RaycastingScene()
        tris = np.asarray(triangles, dtype=np.float32)
        if len(tris):
            verts = tris.reshape(-1, 3)
            idx = np.arange(len(verts), dtype=np.uint32).reshape(-1, 3)
            self._scene.add_triangles(o3d.core.Tensor(verts), o3d.core.Tensor(idx))

    def first_hit(self, origins, dirs, tmax) -> Hits:
        n = len(origins)
        if n == 0 or self.n_faces == 0:
            return Hits(np.full(n, np.inf, np.float32), np.full(n, -1, np.int64))
        rays = np.empty((n, 6), dtype=np.float32)
        rays[:, :3] = origins
        rays[:, 3:] = dirs
        ans = self._scene.cast_rays(self._o3c.Tensor(rays))
        t = ans["t_hit"].numpy()
        prim = ans["primitive_ids"].numpy().astype(np.int64)
        ok = np.isfinite(t) & (t < np.broadcast_to(tmax, (n,)))
        return Hits(np.where(ok, t, np.inf).astype(np.float32), np.where(ok, prim, -1))


_EXECUTORS: dict[int, ThreadPoolExecutor] = {}


def _executor(n: int) -> ThreadPoolExecutor:
    if n not in _EXECUTORS:
        _EXECUTORS[n] = ThreadPoolExecutor(n, thread_name_prefix="brikscan-rays")
    return _EXECUTORS[n]


_ENGINE_CLASSES = {"embree": EmbreeEngine, "open3d": Open3dEngine}


def measure_engines(triangles: np.ndarray, origins: np.ndarray, dirs: np.ndarray, tmax: np.ndarray,
                    repeats: int = 3) -> dict[str, dict]:
    """Build time, best-of-``repeats`` query time and rays/second of every installed engine on the same rays,
    and whether they agree on which rays are blocked."""
    out: dict[str, dict] = {}
    blocked: dict[str, np.ndarray] = {}
    for name in ENGINES:
        try:
            t0 = time.perf_counter()
            eng = RayEngine.build(triangles, name)
            t_build = time.perf_counter() - t0
        except ImportError as exc:
            out[name] = {"available": False, "error": str(exc)}
            continue
        eng.first_hit(origins[:1000], dirs[:1000], tmax[:1000] if np.ndim(tmax) else tmax)  # warm up
        best = np.inf
        hits = None
        for _ in range(repeats):
            t0 = time.perf_counter()
            hits = eng.first_hit(origins, dirs, tmax)
            best = min(best, time.perf_counter() - t0)
        blocked[name] = hits.face >= 0
        out[name] = {"available": True, "build_s": round(t_build, 4), "query_s": round(best, 4),
                     "rays": int(len(origins)), "rays_per_s": float(len(origins) / best) if best > 0 else float("inf")}
    if len(blocked) == 2:
        a, b = blocked.values()
        out["agreement"] = float((a == b).mean()) if len(a) else 1.0
    avail = [n for n in ENGINES if out.get(n, {}).get("available")]
    out["fastest"] = max(avail, key=lambda n: out[n]["rays_per_s"]) if avail else None
    return out
