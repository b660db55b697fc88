"""Start ``brikscan serve`` in a subprocess on a free loopback port for the web tests; stop it after."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from conftest import ROOT


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``with Server(model) as srv: httpx.get(srv.url + "api/model")``; the process is ours to stop."""

    def __init__(self, model: Path, library: Path | None = None, timeout_s: float = 300.0,
                 args: tuple[str, ...] = ()) -> None:
        self.model, self.library, self.timeout_s, self.args = Path(model), library, timeout_s, tuple(args)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self.proc: subprocess.Popen | None = None
        self.started_s = 0.0

    def __enter__(self) -> "Server":
        import httpx

        cmd = [sys.executable, "-m", "brikscan", "serve", str(self.model), "--port", str(self.port), "--no-browser"]
        if self.library is not None:
            cmd += ["--library", str(self.library)]
        cmd += list(self.args)
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        t0 = time.perf_counter()
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        while True:
            if self.proc.poll() is not None:
                out = self.proc.stdout.read().decode(errors="replace")
                raise RuntimeError(f"brikscan serve exited {self.proc.returncode}: {out[-2000:]}")
            try:
                if httpx.get(self.url + "api/model", timeout=30).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.perf_counter() - t0 > self.timeout_s:
                self.stop()
                raise RuntimeError(f"brikscan serve did not answer within {self.timeout_s:.0f} s")
            time.sleep(0.3)
        self.started_s = time.perf_counter() - t0
        return self

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def __exit__(self, *exc) -> None:
        self.stop()


def cli_json(*args: str) -> dict:
    """What ``brikscan ARGS --json`` prints, run as a user would (a fresh process)."""
    import json

    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-m", "brikscan", *args, "--json"], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)
