"""Off-screen rendering: part outlines, camera framing, colours of a real official set."""
from __future__ import annotations

import time
from collections import Counter

import numpy as np
import pytest

from brikscan.render import model_view as mv

from conftest import EXAMPLES, MODELS_DIR, needs_shared

BARRACUDA = MODELS_DIR / "6285 - Black Seas Barracuda.mpd"
WHITE = np.array([255, 255, 255])


# ---------------------------------------------------------------------------------------------- helpers

def _cube(flip_some: bool = False) -> np.ndarray:
    """Unit cube (20 LDU) as 12 triangles; optionally with inconsistent winding like non-BFC LDraw parts."""
    v = np.array([[x, y, z] for x in (0, 20) for y in (0, 20) for z in (0, 20)], dtype=float)
    quads = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    tris = []
    for k, (a, b, c, d) in enumerate(quads):
        t1, t2 = [v[a], v[b], v[c]], [v[a], v[c], v[d]]
        if flip_some and k % 2:
            t1 = t1[::-1]
        tris += [t1, t2]
    return np.array(tris)


def foreground(img: np.ndarray) -> np.ndarray:
    """Pixels that are not the white background."""
    return np.abs(img[..., :3].astype(int) - WHITE).sum(axis=2) > 24


def fill_stats(img: np.ndarray) -> tuple[float, float, float]:
    """(covered fraction, bbox width fraction, bbox height fraction) of the non-background pixels."""
    fg = foreground(img)
    ys, xs = np.nonzero(fg)
    h, w = fg.shape
    if len(xs) == 0:
        return 0.0, 0.0, 0.0
    return fg.mean(), (xs.max() - xs.min() + 1) / w, (ys.max() - ys.min() + 1) / h


def colour_share(img: np.ndarray, rgb) -> float:
    """Share of foreground pixels that are a shade of ``rgb`` (same hue/chroma direction, brightness x0.3-1.5).

    Lighting scales brightness, so compare the direction of the RGB vector and the brightness ratio loosely.
    """
    px = img[foreground(img)][:, :3].astype(float) + 1.0
    c = np.asarray(rgb, dtype=float) + 1.0
    cos = (px @ c) / (np.linalg.norm(px, axis=1) * np.linalg.norm(c))
    ratio = np.linalg.norm(px, axis=1) / np.linalg.norm(c)
    return float(np.mean((cos > 0.985) & (ratio > 0.3) & (ratio < 1.5)))


# ---------------------------------------------------------------------------------------------- outlines

def test_cube_outline_is_its_twelve_edges():
    segs = mv.feature_segments(_cube())
    assert segs.shape == (12, 2, 3)
    lengths = np.linalg.norm(segs[:, 0] - segs[:, 1], axis=1)
    assert np.allclose(lengths, 20)  # no face diagonals


def test_outline_ignores_winding_and_keeps_boundaries():
    assert len(mv.feature_segments(_cube(flip_some=True))) == 12
    square = _cube()[:2]  # one face alone: its four sides are boundary edges, the diagonal is not
    assert len(mv.feature_segments(square)) == 4
    assert mv.feature_segments(np.zeros((0, 3, 3))).shape == (0, 2, 3)


def test_flat_fan_has_no_inner_lines():
    # a coplanar fan of 8 triangles: only the 8 rim edges are outlines
    ang = np.linspace(0, 2 * np.pi, 9)[:-1]
    rim = np.c_[np.cos(ang) * 10, np.zeros(8), np.sin(ang) * 10]
    tris = np.array([[np.zeros(3), rim[i], rim[(i + 1) % 8]] for i in range(8)])
    assert len(mv.feature_segments(tris)) == 8


def test_edge_colour_keeps_hue_and_shows_on_black():
    out = mv.edge_rgb(np.array([[180, 0, 0], [27, 42, 52], [244, 244, 244]]))
    assert out[0, 0] > 0 and out[0, 1] == 0 and out[0, 0] < 180  # darker red
    assert out[1].sum() > np.sum([27, 42, 52])  # lighter than black itself
    assert out[2].max() < 150


# ---------------------------------------------------------------------------------------------- official set

@pytest.fixture(scope="module")
def barracuda(loaded):
    if not BARRACUDA.exists():
        pytest.skip(f"needs {BARRACUDA}")
    return loaded(BARRACUDA)


@pytest.fixture(scope="module")
def barracuda_png(barracuda, tmp_path_factory):
    from PIL import Image

    out = tmp_path_factory.mktemp("render") / "barracuda.png"
    t = time.perf_counter()
    mv.render_png(barracuda, out)
    seconds = time.perf_counter() - t
    return np.asarray(Image.open(out).convert("RGB")), seconds


@needs_shared
def test_instanced_outlines_match_per_element_outlines(barracuda):
    """Outlines computed once per part and transformed agree with computing each element in place."""
    segs, owner = mv.model_edges(barracuda)
    assert len(segs) > 10_000 and (owner >= 0).all()
    counts = Counter(owner.tolist())
    # a few elements of the most repeated part, at different transforms
    part = Counter(e.part for e in barracuda.elements).most_common(1)[0][0]
    idx = [i for i, e in enumerate(barracuda.elements) if e.part == part][:5]
    for i in idx:
        direct = mv.feature_segments(barracuda.mesh.element_triangles(i))
        assert counts[i] == len(direct)
        a = np.sort(segs[owner == i].reshape(-1, 3).round(1), axis=0)
        b = np.sort(direct.reshape(-1, 3).round(1), axis=0)
        assert np.allclose(a, b, atol=0.2)


@needs_shared
def test_official_set_fills_the_frame(barracuda_png):
    img, seconds = barracuda_png
    covered, wfrac, hfrac = fill_stats(img)
    assert covered > 0.25, f"model covers only {covered:.0%} of the image"
    assert max(wfrac, hfrac) > 0.5
    assert max(wfrac, hfrac) < 0.999  # not cut off by the frame on both sides of the tighter axis
    assert seconds < 60, f"rendering 770k triangles took {seconds:.1f} s"


@needs_shared
def test_official_set_shows_its_colours(barracuda, barracuda_png):
    img, _ = barracuda_png
    codes = Counter(barracuda.mesh.face_colour.tolist())
    top = [c for c, _ in codes.most_common(4)]
    shares = {barracuda.colours.name(c): colour_share(img, barracuda.colours.rgb(c)) for c in top}
    found = [n for n, s in shares.items() if s > 0.01]
    assert len(found) >= 2, f"colour shares of the top-4 colours: {shares}"
    # the check can fail: a colour the set does not use is not found
    used = set(codes)
    absent = next(c for c in (2, 10, 25, 22, 26) if c not in used)  # green, lime, orange, purple, magenta
    assert colour_share(img, barracuda.colours.rgb(absent)) < 0.01


@needs_shared
def test_masked_render_and_recolour(barracuda, tmp_path):
    """Other commands render subsets with their own colours (sight, damage): the mask and face_rgb apply."""
    from PIL import Image

    keep = np.arange(len(barracuda.elements)) < len(barracuda.elements) // 3
    mask = barracuda.mesh.faces_of(np.flatnonzero(keep))
    pl = mv.new_plotter(True, (400, 300))
    try:
        rgb = np.tile(np.array([[0, 160, 0]], dtype=np.uint8), (int(mask.sum()), 1))
        assert mv.add_model(pl, barracuda, mask=mask, face_rgb=rgb, edges=True) is not None
        lo, hi = barracuda.bbox_ldu
        mv.frame_camera(pl, lo, hi)
        img = pl.screenshot(return_img=True)
    finally:
        pl.close()
    mv.save_png(img, tmp_path / "part.png")
    img = np.asarray(Image.open(tmp_path / "part.png").convert("RGB"))
    assert colour_share(img, (0, 160, 0)) > 0.5
    assert colour_share(img, barracuda.colours.rgb(14)) < 0.01  # no yellow: only the recoloured subset


# ---------------------------------------------------------------------------------------------- bundled examples

_EXAMPLE_FILES = sorted(p for p in EXAMPLES.glob("*") if p.suffix.lower() in (".ldr", ".mpd")) if EXAMPLES.exists() else []


@needs_shared
@pytest.mark.skipif(not _EXAMPLE_FILES, reason="no example models in ldraw_models/ yet")
@pytest.mark.parametrize("path", _EXAMPLE_FILES, ids=lambda p: p.name)
def test_bundled_example_renders_filling_the_frame(path, loaded, tmp_path):
    from PIL import Image

    model = loaded(path)
    if model.mesh.n_triangles == 0:
        pytest.skip(f"{path.name} has no geometry")
    out = mv.render_png(model, tmp_path / f"{path.stem}.png", size=(640, 480))
    img = np.asarray(Image.open(out).convert("RGB"))
    covered, wfrac, hfrac = fill_stats(img)
    assert covered > 0.15, f"{path.name} covers only {covered:.0%}"
    assert max(wfrac, hfrac) > 0.5
    codes = Counter(model.mesh.face_colour.tolist())
    main = codes.most_common(1)[0][0]
    assert colour_share(img, model.colours.rgb(main)) > 0.01, f"{model.colours.name(main)} not visible"


def test_roles_picture_has_a_key(tmp_path):
    """view --roles: the tints mean roles, so the picture carries a key with every role's colour."""
    import numpy as np
    from PIL import Image

    from brikscan.cli import main
    from brikscan.render.roles_view import ROLE_RGB

    out = tmp_path / "roles.png"
    assert main(["view", str(EXAMPLES / "tank.mpd"), "--roles", "--png", str(out)]) == 0
    img = np.asarray(Image.open(out).convert("RGB")).astype(int)
    h, w, _ = img.shape
    key = img[: h // 2, w // 2:]  # the key sits in the upper right
    for role, rgb in ROLE_RGB.items():
        near = (np.abs(key - np.array(rgb)).sum(axis=2) < 40).sum()
        assert near >= 10, role
