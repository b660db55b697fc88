"""The battle table's figures, measured in Debian's headless Chromium (Playwright, SwiftShader WebGL):
page size, time to first picture, pick latency and (for brikscan's own viewer) the blast time.

    python bench/web_viewer.py [MODEL ...] [--library ZIP] [--json out.json]
    python bench/web_viewer.py --url http://127.0.0.1:PORT/ --kind three|trame [--label NAME]

Without --url it starts ``brikscan serve MODEL`` (the default model is the largest shared one, the Imperial
Star Destroyer) and measures it. With --url it measures another viewer already being served, by the same
method (docs/web-app.md, "Choosing the viewer", describes the three.js and trame prototypes measured so):

- page size: the bytes of every HTTP response body (the page's Resource Timing entries) and websocket frame
  the page received by its first picture;
- time to first picture: from the start of navigation to the first screenshot of the page's canvas in which
  at least 0.5 % of the pixels differ from the background of their row (the model is drawn), polled as fast
  as screenshots come; the viewer's own figure (``first_picture_ms``) is printed too where it has one;
- pick: five clicks on model pixels of that screenshot; ``pick_answer_ms`` (the figure) is the median time
  from the mouse button's release to the page showing the answer (ours: the brick panel; three: the
  prototype's label; trame: the label the server's answer sets), taken in the page by a MutationObserver;
  ``pick_click_ms`` is the same seen from the script (Playwright's click and its polling, which waits for a
  frame to be drawn: seconds on a 4 M-triangle model in SwiftShader), and ``pick_compute_ms`` the page-side
  work where the viewer reports it (ours: one ID-buffer read; three: the Raycaster);
- blast (ours only): ``POST /api/blast`` (3d10, rolls 3,6,7, Armor roll 15) at elements 100, 1000, 2000, 100
  (a quarter, half, three quarters and a quarter of the way on models under 2000 elements) once the server's
  warm-up is done.

Targets (issue 12): first picture <= 5 s, pick <= 100 ms, blast on the largest shared model <= 2 s.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "ldraw"
LARGEST = SHARED / "models" / "10030-1 - Imperial Star Destroyer - UCS.mpd"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--ignore-gpu-blocklist"]
VIEWPORT = (1280, 800)
CANVAS = {"ours": "#gl", "three": "canvas", "trame": "canvas"}
ANSWER = {"ours": "#pick-info", "three": "#picked", "trame": "#picked"}
# in every page: the time from the mouse button's release to the first change of the element that shows the
# pick's answer (a MutationObserver fires right after the DOM changes, before any frame is drawn)
PICK_CLOCK = """
window.__up = null; window.__answers = [];
document.addEventListener("pointerup", (e) => { window.__up = e.timeStamp; }, true);
new MutationObserver((records) => {
  if (window.__up === null) return;
  const sel = window.__answerSel;
  if (records.some((r) => { const n = r.target.nodeType === 1 ? r.target : r.target.parentElement;
                            return n && n.closest && n.closest(sel); })) {
    window.__answers.push(performance.now() - window.__up); window.__up = null; }
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def model_pixels(png: bytes) -> np.ndarray:
    """Mask of pixels that differ from the background of their row (the row's median colour) by > 40."""
    import io

    from PIL import Image

    im = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)
    bg = np.median(im, axis=1, keepdims=True)
    return (np.abs(im - bg).max(axis=2) > 40)


def measure_page(url: str, kind: str, timeout_s: float = 600.0) -> dict:
    """Page bytes, time to first picture and click-to-answer pick latency of one viewer page."""
    from playwright.sync_api import sync_playwright

    out: dict = {"kind": kind, "url": url}
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        ctx = b.new_context(viewport={"width": VIEWPORT[0], "height": VIEWPORT[1]})
        page = ctx.new_page()
        got = {"http": 0, "ws": 0, "requests": 0}
        errors: list[str] = []

        def on_response(r):
            got["requests"] += 1

        def on_ws(ws):
            ws.on("framereceived", lambda f: got.__setitem__("ws", got["ws"] + len(f if isinstance(f, (bytes, str))
                                                                                     else f.get("payload", b""))))

        page.add_init_script(f"window.__answerSel = {json.dumps(ANSWER[kind])};" + PICK_CLOCK)
        page.on("response", on_response)
        page.on("websocket", on_ws)
        page.on("pageerror", lambda e: errors.append(str(e)))
        t0 = time.perf_counter()
        page.goto(url, wait_until="commit", timeout=timeout_s * 1000)
        mask = None
        while time.perf_counter() - t0 < timeout_s:
            loc = page.locator(CANVAS[kind]).first
            try:
                if loc.count() and loc.bounding_box():
                    m = model_pixels(loc.screenshot(timeout=timeout_s * 1000))
                    if m.mean() >= 0.005:
                        mask = m
                        break
            except Exception:  # noqa: BLE001 - the canvas is being created or resized
                pass
            time.sleep(0.05)
        out["first_picture_s"] = round(time.perf_counter() - t0, 2) if mask is not None else None
        # HTTP bytes as the page's Resource Timing has them (bodies as received), websocket frames as counted
        http = page.evaluate("""() => performance.getEntriesByType('navigation').concat(
            performance.getEntriesByType('resource')).reduce((a, e) => a + (e.encodedBodySize || 0), 0)""")
        out["page_bytes"] = int(http) + got["ws"]
        out["http_bytes"], out["ws_bytes"], out["requests"] = int(http), got["ws"], got["requests"]
        if kind == "ours":
            page.wait_for_function("window.brikscan && window.brikscan.ready", timeout=timeout_s * 1000)
            out["own_first_picture_ms"] = round(page.evaluate("window.brikscan.timings.first_picture_ms"))
            out["own_timings_ms"] = {k: round(v) for k, v in page.evaluate("window.brikscan.timings").items()}
        if kind == "three":
            page.wait_for_function("window.proto && window.proto.ready", timeout=timeout_s * 1000)
            out["own_first_picture_ms"] = round(page.evaluate("window.proto.timings.first_picture_ms"))
            out["triangles"] = page.evaluate("window.proto.triangles")
            out["meshes"] = page.evaluate("window.proto.meshes")
        if mask is not None:
            out.update(_picks(page, kind, mask, timeout_s))
        out["page_errors"] = errors
        b.close()
    return out


def _picks(page, kind: str, mask: np.ndarray, timeout_s: float) -> dict:
    box = page.locator(CANVAS[kind]).first.bounding_box()
    ys, xs = np.nonzero(mask)
    order = np.argsort(xs + ys * 7919)
    pts = [(int(xs[order[k]]), int(ys[order[k]])) for k in np.linspace(0, len(order) - 1, 7).astype(int)[1:-1]]
    page.wait_for_timeout(1000)
    times, compute = [], []
    for n, (x, y) in enumerate(pts, start=1):
        if kind == "ours":
            page.evaluate("window.brikscan.lastPick = null")
        t = time.perf_counter()
        page.mouse.click(box["x"] + x, box["y"] + y)
        if kind == "ours":
            page.wait_for_function("window.brikscan.lastPick !== null", timeout=timeout_s * 1000, polling=20)
        else:
            page.wait_for_function(f"(document.getElementById('picked') || {{}}).textContent.includes('#{n}')",
                                   timeout=timeout_s * 1000, polling=20)
        times.append((time.perf_counter() - t) * 1000)
        if kind == "three":
            compute.append(page.evaluate("window.proto.lastPickMs"))
    answers = page.evaluate("window.__answers")
    out = {"pick_answer_ms": round(statistics.median(answers), 1) if answers else None,
           "pick_answer_all_ms": [round(v, 1) for v in answers],
           "pick_click_ms": round(statistics.median(times), 1), "pick_click_all_ms": [round(v) for v in times]}
    if kind == "ours":
        compute = [page.evaluate(f"(() => {{ const t = performance.now(); window.brikscan.pickAt({x}, {y}); "
                                 "return performance.now() - t; })()") for x, y in pts]
    if compute:
        out["pick_compute_ms"] = round(statistics.median(compute), 2)
    if kind == "trame":
        out["picked"] = page.inner_text("#picked")
    return out


def measure_ours(model: Path, library: Path | None) -> dict:
    """Start ``brikscan serve MODEL``, measure its page, then the blasts."""
    import httpx

    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = [sys.executable, "-m", "brikscan", "serve", str(model), "--port", str(port), "--no-browser"]
    if library:
        cmd += ["--library", str(library)]
    url = f"http://127.0.0.1:{port}/"
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            try:
                if httpx.get(url + "api/status", timeout=30).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.perf_counter() - t0 > 900:
                raise RuntimeError("brikscan serve did not start")
            time.sleep(0.3)
        out = {"model": model.name, "server_start_s": round(time.perf_counter() - t0, 1)}
        out.update(measure_page(url, "ours"))
        while not httpx.get(url + "api/status", timeout=30).json()["warm"]:
            time.sleep(1)
        blasts = []
        n = httpx.get(url + "api/status", timeout=30).json()["elements"]
        for el in ((100, 1000, 2000, 100) if n > 2000 else (n // 4, n // 2, 3 * n // 4, n // 4)):
            t = time.perf_counter()
            r = httpx.post(url + "api/blast", json={"at_element": el, "dice": "3d10", "rolls": [3, 6, 7],
                                                    "armor_rolls": [15]}, timeout=600)
            r.raise_for_status()
            blasts.append(round(time.perf_counter() - t, 2))
        out["blast_s"] = blasts
        out["status"] = httpx.get(url + "api/status", timeout=30).json()
        return out
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="*", type=Path)
    ap.add_argument("--library", type=Path, default=SHARED / "complete.zip")
    ap.add_argument("--url", help="measure a viewer already served here instead")
    ap.add_argument("--kind", choices=["ours", "three", "trame"], default="ours")
    ap.add_argument("--label", default="")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    a = ap.parse_args(argv)
    results = []
    if a.url:
        r = measure_page(a.url, a.kind)
        r["label"] = a.label
        results.append(r)
    else:
        for m in a.models or [LARGEST]:
            results.append(measure_ours(m, a.library if a.library.exists() else None))
    for r in results:
        print(json.dumps(r))
    if a.json:
        a.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
