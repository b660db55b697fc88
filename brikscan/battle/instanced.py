"""One Embree tree per distinct part, placed once per element: the battlefield's ray engine without a tree over
every world triangle.

Why: a model of 3,000-5,000 elements has 2-5 million world triangles but only a few hundred thousand distinct ones
(the Imperial Star Destroyer: 4.1 M world triangles, 161 distinct parts with 0.26 M). Building one flat tree costs
~2 µs a triangle in embreex (it copies the soup with one Python-level access per coordinate) plus Embree's BVH
build, and ~150 bytes a triangle of memory; instancing builds the parts' trees and a top-level tree over the
elements' boxes, in a fraction of that time and memory, and answers the same queries with the whole model's face
indices (an element's faces are its part's faces in order: ``geometry.model._assemble``).

embreex (the binding trimesh uses) does not expose instances, so this talks to the Embree 4 library that ships
inside the embreex wheel through its public C API (``rtcNewScene``, ``RTC_GEOMETRY_TYPE_INSTANCE``,
``rtcIntersect16``) with ctypes. When that library or a symbol is missing, ``available()`` is False and callers
use the flat engine (``raycast.RayEngine.build``).
"""
from __future__ import annotations

import ctypes
import glob
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

# Embree 4 constants (include/embree4/rtcore_common.h, rtcore_geometry.h)
_GEOMETRY_TRIANGLE = 0
_GEOMETRY_INSTANCE = 121
_BUFFER_INDEX = 0
_BUFFER_VERTEX = 1
_FORMAT_UINT3 = 0x5003
_FORMAT_FLOAT3 = 0x9003
_FORMAT_FLOAT3X4_COLUMN_MAJOR = 0x9234
_INVALID = 0xFFFFFFFF

# RTCRayHit16: the ray (12 arrays of 16 floats/uints), then the hit (Ng xyz, u, v, primID, geomID, instID[L], ...)
_LANES = 16
_RAY_WORDS = 12 * _LANES
_PRIM = _RAY_WORDS + 5 * _LANES
_GEOM = _RAY_WORDS + 6 * _LANES
_INST = _RAY_WORDS + 7 * _LANES
_PACKET_WORDS = 512  # 2 KiB a packet: room for the hit's instance stacks of any build (64-byte aligned)
CHUNK_RAYS = 1 << 15  # rays traced per fill of the packet buffer (4 MiB, reused chunk after chunk)

_LIB: ctypes.CDLL | None = None
_LIB_ERROR: str | None = None


def _empty64(shape, dtype) -> np.ndarray:
    """An empty array starting on a 64-byte boundary: ``rtcIntersect16`` wants its valid mask and ray packets
    aligned so (numpy aligns to 16; on a CPU with AVX-512 Embree's aligned loads fault on anything less)."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape)) * dt.itemsize
    raw = np.empty(n + 64, dtype=np.uint8)
    shift = -raw.ctypes.data % 64
    return raw[shift:shift + n].view(dt).reshape(shape)


def _aligned64(a: np.ndarray) -> np.ndarray:
    """A copy of ``a`` starting on a 64-byte boundary (``_empty64``)."""
    out = _empty64(a.shape, a.dtype)
    out[...] = a
    return out


def _library() -> ctypes.CDLL | None:
    """The Embree 4 shared library bundled with embreex (or the system's), with argument types set; None if absent."""
    global _LIB, _LIB_ERROR
    if _LIB is not None or _LIB_ERROR is not None:
        return _LIB
    try:
        import embreex

        here = os.path.dirname(embreex.__file__)
        found = sorted(glob.glob(os.path.join(here, "..", "embreex.libs", "libembree4*.so*"))
                       + glob.glob(os.path.join(here, ".dylibs", "libembree4*"))
                       + glob.glob(os.path.join(here, "..", "embreex.libs", "embree4*.dll")))
        lib = ctypes.CDLL(found[0]) if found else ctypes.CDLL("libembree4.so.4")
        vp, u, sz = ctypes.c_void_p, ctypes.c_uint, ctypes.c_size_t
        sig = {"rtcNewDevice": (vp, [ctypes.c_char_p]), "rtcReleaseDevice": (None, [vp]),
               "rtcNewScene": (vp, [vp]), "rtcReleaseScene": (None, [vp]), "rtcCommitScene": (None, [vp]),
               "rtcNewGeometry": (vp, [vp, ctypes.c_int]), "rtcReleaseGeometry": (None, [vp]),
               "rtcCommitGeometry": (None, [vp]), "rtcAttachGeometry": (u, [vp, vp]),
               "rtcSetSharedGeometryBuffer": (None, [vp, ctypes.c_int, u, ctypes.c_int, vp, sz, sz, sz]),
               "rtcSetGeometryInstancedScene": (None, [vp, vp]),
               "rtcSetGeometryTransform": (None, [vp, u, ctypes.c_int, vp]),
               "rtcIntersect16": (None, [vp, vp, vp, vp]), "rtcGetDeviceError": (ctypes.c_int, [vp])}
        for name, (res, args) in sig.items():
            f = getattr(lib, name)
            f.restype, f.argtypes = res, args
        _LIB = lib
    except (ImportError, OSError, AttributeError, IndexError) as exc:
        _LIB_ERROR = f"{type(exc).__name__}: {exc}"
    return _LIB


def available() -> bool:
    return _library() is not None


class InstancedEngine:
    """Closest hits against a model made of placed parts, one Embree tree per distinct part.

    ``mesh``: the world ``ModelMesh``; ``transforms`` (E,4,4): each element's world placement; ``keys`` (E,):
    what makes two elements' local geometry the same (default: the part name; a scene of several files passes
    (file, part)). An element's local triangles are read back from its world triangles (the first element of its
    kind), so nothing below the battle layer changes. Elements whose placement cannot be inverted and inline
    geometry go into the top-level tree as world triangles.
    """

    name = "embree"

    def __init__(self, mesh, transforms: np.ndarray, keys) -> None:
        lib = _library()
        if lib is None:
            raise ImportError(f"no Embree 4 library for instancing ({_LIB_ERROR})")
        self._lib = lib
        self.n_faces = int(mesh.n_triangles)
        self._keep: list = []  # buffers Embree reads in place: they must live as long as the trees
        self._device = lib.rtcNewDevice(f"threads={os.cpu_count() or 1}".encode())
        if not self._device:
            raise RuntimeError("Embree could not create a device")
        self._top = lib.rtcNewScene(self._device)
        self._parts: list = []
        off = np.asarray(mesh.element_offsets, dtype=np.int64)
        counts = np.diff(off)
        tf = np.asarray(transforms, dtype=np.float64).reshape(-1, 4, 4)
        n_el = len(counts)
        rot = tf[:, :3, :3]
        det = np.linalg.det(rot) if n_el else np.zeros(0)
        ok = (counts > 0) & np.isfinite(det) & (np.abs(det) > 1e-6)
        flat_faces = [np.arange(off[-1] if n_el else 0, self.n_faces, dtype=np.int64)]  # inline geometry
        bad = np.flatnonzero((counts > 0) & ~ok)
        if len(bad):
            flat_faces.insert(0, mesh.face_runs(bad))
        scenes: dict = {}
        inst_elem: list[int] = []
        for i in np.flatnonzero(ok).tolist():
            key = (keys[i] if keys is not None else None, int(counts[i]))
            sc = scenes.get(key)
            if sc is None:
                sc = scenes[key] = self._part_scene(mesh, off, i, tf[i])
            g = lib.rtcNewGeometry(self._device, _GEOMETRY_INSTANCE)
            lib.rtcSetGeometryInstancedScene(g, sc)
            m = np.ascontiguousarray(tf[i][:3, :4].T, dtype=np.float32)  # 3x4, column-major
            lib.rtcSetGeometryTransform(g, 0, _FORMAT_FLOAT3X4_COLUMN_MAJOR, m.ctypes.data)
            lib.rtcCommitGeometry(g)
            gid = lib.rtcAttachGeometry(self._top, g)
            lib.rtcReleaseGeometry(g)
            while len(inst_elem) <= gid:
                inst_elem.append(-1)
            inst_elem[gid] = i
        faces = np.concatenate(flat_faces)
        self._flat_gid = -1
        self._flat_faces = faces
        if len(faces):
            self._flat_gid = int(self._add_triangles(self._top, mesh.triangles[faces]))
        lib.rtcCommitScene(self._top)
        err = lib.rtcGetDeviceError(self._device)
        if err:
            raise RuntimeError(f"Embree error {err} while building the instanced trees")
        self._inst_base = np.full(max(len(inst_elem), 1), -1, dtype=np.int64)
        ie = np.asarray(inst_elem, dtype=np.int64)
        self._inst_base[:len(ie)] = np.where(ie >= 0, off[np.clip(ie, 0, None)], -1)
        self.n_parts = len(scenes)
        self.n_instances = int(ok.sum())
        self.n_part_triangles = int(sum(k[1] for k in scenes))
        self.n_flat = int(len(faces))
        self._valid = _aligned64(np.full(_LANES, -1, dtype=np.int32))  # Embree reads the mask 64 bytes wide
        self.threads = os.cpu_count() or 1

    def _add_triangles(self, scene, tris: np.ndarray) -> int:
        """A triangle geometry over (n,3,3) vertices, shared with Embree (no copy); its geometry id."""
        lib = self._lib
        n = len(tris)
        v = np.zeros((3 * n + 1, 3), dtype=np.float32)  # one spare vertex: Embree reads vertices 16 bytes wide
        v[:3 * n] = np.asarray(tris, dtype=np.float32).reshape(-1, 3)
        idx = np.arange(3 * n, dtype=np.uint32).reshape(n, 3)
        self._keep += [v, idx]
        g = lib.rtcNewGeometry(self._device, _GEOMETRY_TRIANGLE)
        lib.rtcSetSharedGeometryBuffer(g, _BUFFER_VERTEX, 0, _FORMAT_FLOAT3, v.ctypes.data, 0, 12, 3 * n)
        lib.rtcSetSharedGeometryBuffer(g, _BUFFER_INDEX, 0, _FORMAT_UINT3, idx.ctypes.data, 0, 12, n)
        lib.rtcCommitGeometry(g)
        gid = lib.rtcAttachGeometry(scene, g)
        lib.rtcReleaseGeometry(g)
        return gid

    def _part_scene(self, mesh, off: np.ndarray, i: int, xf: np.ndarray):
        """The tree of one distinct part, in its own coordinates: element i's world triangles moved back."""
        world = np.asarray(mesh.triangles[off[i]:off[i + 1]], dtype=np.float64).reshape(-1, 3)
        local = (world - xf[:3, 3]) @ np.linalg.inv(xf[:3, :3]).T
        sc = self._lib.rtcNewScene(self._device)
        self._add_triangles(sc, local.reshape(-1, 3, 3))
        self._lib.rtcCommitScene(sc)
        self._parts.append(sc)
        return sc

    def first_hit(self, origins, dirs, tmax):
        from .raycast import Hits

        o = np.asarray(origins, dtype=np.float32).reshape(-1, 3)
        n = len(o)
        if n == 0:
            return Hits(np.zeros(0, np.float32), np.zeros(0, np.int64))
        d = np.asarray(dirs, dtype=np.float32).reshape(-1, 3)
        tm = np.broadcast_to(np.asarray(tmax, dtype=np.float32), (n,))
        # rays go through one packet buffer in chunks: a buffer for all of them (2 KiB every 16 rays, 46 MB for
        # the 360,000 rays of thirty attackers) was allocated and faulted in afresh on every pass of a march
        rows = -(-min(n, CHUNK_RAYS) // _LANES)
        buf = _empty64((rows, _PACKET_WORDS), np.float32)
        t = np.empty(n, dtype=np.float32)
        face = np.empty(n, dtype=np.int64)
        for a in range(0, n, CHUNK_RAYS):
            b = min(n, a + CHUNK_RAYS)
            t[a:b], face[a:b] = self._hit_chunk(o[a:b], d[a:b], tm[a:b], buf)
        return Hits(t, face)

    def _hit_chunk(self, o, d, tm, whole) -> tuple[np.ndarray, np.ndarray]:
        """(t, face) of up to ``CHUNK_RAYS`` rays, traced through the start of the packet buffer ``whole``."""
        n = len(o)
        p = -(-n // _LANES)
        buf = whole[:p]
        buf[:] = 0
        ubuf = buf.view(np.uint32)
        pad = p * _LANES - n

        def lanes(a, fill):
            return np.concatenate([a, np.full(pad, fill, a.dtype)]).reshape(p, _LANES) if pad else a.reshape(p, _LANES)
        for k in range(3):
            buf[:, k * _LANES:(k + 1) * _LANES] = lanes(o[:, k], 0)
            buf[:, (4 + k) * _LANES:(5 + k) * _LANES] = lanes(d[:, k], 1 if k == 0 else 0)
        buf[:, 8 * _LANES:9 * _LANES] = lanes(tm, -1)  # padding lanes: tfar < tnear, never traced
        ubuf[:, 9 * _LANES:10 * _LANES] = _INVALID  # ray mask: every geometry
        ubuf[:, _GEOM:_GEOM + _LANES] = _INVALID
        ubuf[:, _INST:_INST + _LANES] = _INVALID
        base = buf.ctypes.data
        step = _PACKET_WORDS * 4
        fn, scene, valid = self._lib.rtcIntersect16, self._top, self._valid.ctypes.data

        def run(a: int, b: int) -> None:
            for k in range(a, b):
                fn(valid, scene, base + k * step, None)
        workers = min(self.threads, max(1, p // 1024))
        if workers <= 1:
            run(0, p)
        else:  # ctypes lets go of the GIL during each call: one slice of packets per core
            bounds = np.linspace(0, p, workers + 1).astype(int)
            list(_executor(workers).map(lambda ab: run(*ab), zip(bounds[:-1], bounds[1:])))
        geom = ubuf[:, _GEOM:_GEOM + _LANES].reshape(-1)[:n].astype(np.int64)
        inst = ubuf[:, _INST:_INST + _LANES].reshape(-1)[:n].astype(np.int64)
        prim = ubuf[:, _PRIM:_PRIM + _LANES].reshape(-1)[:n].astype(np.int64)
        tfar = buf[:, 8 * _LANES:9 * _LANES].reshape(-1)[:n]
        hit = geom != _INVALID
        face = np.full(n, -1, dtype=np.int64)
        by_inst = hit & (inst != _INVALID)
        if by_inst.any():
            face[by_inst] = self._inst_base[inst[by_inst]] + prim[by_inst]
        flat = hit & (inst == _INVALID)
        if flat.any():
            face[flat] = self._flat_faces[prim[flat]]
        return np.where(face >= 0, tfar, np.inf).astype(np.float32), face

    def __del__(self) -> None:
        lib = getattr(self, "_lib", None)
        if lib is None:
            return
        try:
            if getattr(self, "_top", None):
                lib.rtcReleaseScene(self._top)
            for sc in getattr(self, "_parts", []):
                lib.rtcReleaseScene(sc)
            if getattr(self, "_device", None):
                lib.rtcReleaseDevice(self._device)
        except Exception:  # interpreter shutdown
            pass


_EXECUTORS: dict[int, ThreadPoolExecutor] = {}


def _executor(n: int) -> ThreadPoolExecutor:
    if n not in _EXECUTORS:
        _EXECUTORS[n] = ThreadPoolExecutor(n, thread_name_prefix="brikscan-instanced")
    return _EXECUTORS[n]
