"""Self-contained HTML export: the packed scene round-trips, the page has no network references, and it draws
in headless Chromium without JavaScript errors."""
from __future__ import annotations

import base64
import gzip
import json
import re

import numpy as np
import pytest

from brikscan.render import html_export as he
from brikscan.render import model_view as mv
from brikscan.render.browser_check import check_html_in_chromium, console_messages, find_chromium

from conftest import EXAMPLES, MODELS_DIR, needs_shared

needs_chromium = pytest.mark.skipif(find_chromium() is None,
                                    reason="chromium is not on PATH (apt-get install chromium; listed in .ci/apt-packages.txt)")

DATA_RE = re.compile(r'<script type="application/octet-stream" id="scene-data">(.*?)</script>', re.S)
META_RE = re.compile(r'<script type="application/json" id="scene-meta">(.*?)</script>', re.S)


def unpack(page: str) -> tuple[dict, list[dict]]:
    """Decode the page's scene the way the viewer does: (meta, [{kind, pos (n,3) world, rgba, index}])."""
    meta = json.loads(META_RE.search(page).group(1))
    blob = gzip.decompress(base64.b64decode(DATA_RE.search(page).group(1)))
    lo, ext = np.array(meta["lo"]), np.array(meta["ext"])
    out = []
    for b in meta["batches"]:
        def take(ref, dtype):
            return np.frombuffer(blob[ref["offset"]:ref["offset"] + ref["length"]], dtype=dtype)
        q = take(b["pos"], np.uint16).reshape(-1, 3)
        out.append({"kind": b["kind"], "translucent": b["translucent"], "lit": b["lit"],
                    "pos": lo + q / 65535.0 * ext, "rgba": take(b["rgba"], np.uint8).reshape(-1, 4),
                    "index": take(b["index"], np.uint32)})
    return meta, out


def page_without_data(page: str) -> str:
    return DATA_RE.sub("", page)


def demo_plotter():
    """A scene like the battle views build: coloured faces, a sight line, points, a translucent blast sphere,
    a scalar-coloured surface and a title."""
    import pyvista as pv

    pl = mv.new_plotter(True, (800, 600))
    cube = pv.Cube(center=(0, 0, 0), x_length=40, y_length=24, z_length=20).triangulate()
    cube.cell_data["rgb"] = np.tile(np.array([[200, 30, 30]], np.uint8), (cube.n_cells, 1))
    pl.add_mesh(cube, scalars="rgb", rgb=True)
    pl.add_mesh(pv.Line((-60, -40, 0), (60, -40, 0)), color="blue", line_width=3)
    pl.add_mesh(pv.PolyData(np.array([[0.0, -60, 0], [10, -60, 0]])), color="black", point_size=8,
                render_points_as_spheres=False)
    pl.add_mesh(pv.Sphere(radius=30, center=(50, 0, 0)), color="orange", opacity=0.4)
    plane = pv.Plane(center=(0, 20, 0), direction=(0, -1, 0), i_size=120, j_size=80)
    plane.point_data["heat"] = plane.points[:, 0]
    pl.add_mesh(plane, scalars="heat", cmap="viridis", show_scalar_bar=False)
    pl.add_text("Line of sight: clear", font_size=10)
    pl.camera_position = [(-120, -90, -160), (0, 0, 0), (0, -1, 0)]
    return pl


@pytest.fixture(scope="module")
def demo_page(tmp_path_factory):
    pl = demo_plotter()
    try:
        page, summary = he.scene_html(pl, "demo")
        out = he.write_html(pl, tmp_path_factory.mktemp("html") / "demo.html")
        img = pl.screenshot(return_img=True)
    finally:
        pl.close()
    return page, summary, out, img


def test_scene_round_trips(demo_page):
    page, summary, _, _ = demo_page
    meta, batches = unpack(page)
    assert summary.texts == ["Line of sight: clear"] and meta["texts"] == summary.texts
    kinds = [b["kind"] for b in batches]
    assert kinds == ["tri", "line", "point", "tri", "tri"]  # cube, sight line, points, sphere, plane
    # the red cube: 12 triangles, all red, positions within quantisation of the cube's corners
    cube = batches[0]
    assert len(cube["index"]) == 36
    assert (cube["rgba"] == [200, 30, 30, 255]).all()
    corners = cube["pos"][cube["index"]]
    step = np.array(meta["ext"]).max() / 65535
    assert np.allclose(np.abs(corners), [20, 12, 10], atol=2 * step)
    line = next(b for b in batches if b["kind"] == "line")
    assert np.allclose(line["pos"][line["index"]], [[-60, -40, 0], [60, -40, 0]], atol=2 * step)
    assert (line["rgba"][:, 2] > 200).all() and not line["lit"]
    sphere = next(b for b in batches if b["translucent"])
    assert abs(int(sphere["rgba"][0, 3]) - round(0.4 * 255)) <= 1
    heat = batches[4]  # scalars through a colour map: varies across the plane
    assert len(np.unique(heat["rgba"], axis=0)) > 5
    cam = meta["camera"]
    assert cam["position"] == [-120.0, -90.0, -160.0] and cam["up"] == [0.0, -1.0, 0.0]


def test_page_is_self_contained(demo_page):
    page, _, out, _ = demo_page
    assert out.read_text(encoding="utf-8") == page
    rest = page_without_data(page)
    assert "http://" not in rest and "https://" not in rest
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", rest, re.I)
    assert not re.search(r"<link\b|@import|\bimport\s*\(", rest)
    assert not list(out.parent.glob(".*.tmp"))  # atomic write leaves no temporary file behind


@needs_chromium
def test_page_draws_in_chromium(demo_page, tmp_path):
    _, _, out, img = demo_page
    import tempfile
    from pathlib import Path

    before = set(Path(tempfile.gettempdir()).glob("brikscan-chromium-*"))
    check = check_html_in_chromium(out, screenshot=tmp_path / "shot.png")
    # the browser's profile folder is gone: a check leaves nothing behind but the screenshot asked for
    assert set(Path(tempfile.gettempdir()).glob("brikscan-chromium-*")) == before
    assert check.console_errors == []
    assert check.ok, check.reason
    assert check.distinct_colours > 50
    assert any("brikscan-viewer: drew" in m for m in check.console), check.console
    # the page opens with the plotter's camera: the red cube is where pyvista drew it
    from PIL import Image

    shot = np.asarray(Image.open(check.screenshot_path).convert("RGB")).astype(int)
    ref = np.asarray(img)[..., :3].astype(int)
    red = lambda a: (a[..., 0] > 50) & (a[..., 0] > 2 * a[..., 1]) & (a[..., 0] > 2 * a[..., 2])  # noqa: E731
    a, b = red(ref), red(shot)
    assert a.sum() > 1000 and b.sum() > 1000
    ya, xa = np.argwhere(a).mean(axis=0)
    yb, xb = np.argwhere(b).mean(axis=0)
    assert abs(ya - yb) < 20 and abs(xa - xb) < 20


_INTERACT = """<script>
setTimeout(function () {
  const c = document.getElementById("view");
  const ev = function (type, x, y, extra) {
    c.dispatchEvent(new PointerEvent(type, Object.assign({clientX: x, clientY: y, pointerId: 1, bubbles: true}, extra)));
  };
  ev("pointerdown", 400, 300, {button: 0}); ev("pointermove", 520, 260, {}); ev("pointerup", 520, 260, {});
  ev("pointerdown", 400, 300, {button: 2}); ev("pointermove", 430, 320, {}); ev("pointerup", 430, 320, {});
  c.dispatchEvent(new WheelEvent("wheel", {deltaY: 200, bubbles: true, cancelable: true}));
  console.log("interaction done");
}, 1500);
</script></body>"""


@needs_chromium
def test_page_rotates_pans_and_zooms(demo_page, tmp_path):
    """Synthetic drag, right-drag and wheel events change the view and raise no errors."""
    from PIL import Image

    page, _, _, _ = demo_page
    moved = tmp_path / "moved.html"
    moved.write_text(page.replace("</body>", _INTERACT), encoding="utf-8")
    still = tmp_path / "still.html"
    still.write_text(page, encoding="utf-8")
    a = check_html_in_chromium(still, screenshot=tmp_path / "still.png")
    b = check_html_in_chromium(moved, screenshot=tmp_path / "moved.png")
    assert a.ok and b.ok, (a.console_errors, b.console_errors)
    assert any("interaction done" in m for m in b.console)
    ia = np.asarray(Image.open(a.screenshot_path).convert("RGB")).astype(int)
    ib = np.asarray(Image.open(b.screenshot_path).convert("RGB")).astype(int)
    assert (np.abs(ia - ib).sum(axis=2) > 60).mean() > 0.05  # the scene moved


@needs_chromium
def test_browser_check_reports_errors_and_blank_pages(tmp_path):
    bad = tmp_path / "bad.html"
    bad.write_text("<html><body><canvas id=c></canvas><script>"
                   "document.getElementById('c').getContext('2d').fillRect(0,0,50,50);"
                   "undefinedFunction();</script></body></html>")
    check = check_html_in_chromium(bad, screenshot=tmp_path / "bad.png")
    assert not check.ok and any("Uncaught" in e for e in check.console_errors)
    blank = tmp_path / "blank.html"
    blank.write_text("<html><body style='background:#fff'></body></html>")
    check = check_html_in_chromium(blank, screenshot=tmp_path / "blank.png")
    assert not check.ok and check.reason == "blank screenshot" and check.distinct_colours == 1


def test_console_parsing():
    stderr = ('[1:1:1130/052439.80:INFO:CONSOLE:3] "Uncaught ReferenceError: f is not defined", source: x (3)\n'
              '[1:1:1130/052439.80:ERROR:CONSOLE(7)] "boom", source: x (7)\n'
              '[1:1:1130/052439.80:ERROR:dbus/bus.cc:405] Failed to connect to the bus\n')
    assert console_messages(stderr) == [("INFO", '"Uncaught ReferenceError: f is not defined", source: x (3)'),
                                        ("ERROR", '"boom", source: x (7)')]


_SMALL = [EXAMPLES / "fighter.ldr", MODELS_DIR / "6831-1 - Message Decoder.mpd"]


@needs_shared
@needs_chromium
def test_model_page_matches_png(loaded, tmp_path):
    """A real model: the page is self-contained and its first view matches the off-screen render."""
    from PIL import Image

    path = next((p for p in _SMALL if p.exists()), None)
    if path is None:
        pytest.skip("no small model available")
    model = loaded(path)
    pl = mv.new_plotter(True, (800, 600))
    try:
        mv.add_model(pl, model)
        lo, hi = model.bbox_ldu
        mv.frame_camera(pl, lo, hi, points=mv._fit_points(model))
        out = he.write_html(pl, tmp_path / "model.html")
        ref = pl.screenshot(return_img=True)
    finally:
        pl.close()
    assert "https://" not in page_without_data(out.read_text(encoding="utf-8"))
    check = check_html_in_chromium(out, screenshot=tmp_path / "shot.png")
    assert check.ok, (check.reason, check.console_errors)
    shot = np.asarray(Image.open(check.screenshot_path).convert("RGB")).astype(int)
    fg = lambda a: np.abs(a[..., :3].astype(int) - 255).sum(axis=2) > 30  # noqa: E731
    a, b = fg(np.asarray(ref)), fg(shot)
    a[:40] = b[:40] = False  # title overlay
    a[-40:] = b[-40:] = False  # help overlay
    iou = (a & b).sum() / max((a | b).sum(), 1)
    assert iou > 0.9, f"silhouette overlap with the pyvista render {iou:.2f}"
