"""Run the app with uvicorn on loopback (another interface only when asked) and open the browser."""
from __future__ import annotations

import ipaddress
import socket
import sys
import threading
import webbrowser

from ..errors import UsageError
from .app import create_app
from .session import Session

DEFAULT_PORT = 8642
WARM_WAIT_S = 20.0  # the warm-up starts once the page has its geometry, or after this long without a page


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def serve(path, library=None, *, host: str = "127.0.0.1", port: int = DEFAULT_PORT, open_browser: bool = True,
          rules: str = "2010", scale: str = "inch", primitives: str = "auto") -> None:
    """Load the model, then serve until Ctrl-C. ``port`` 0 picks a free one."""
    import uvicorn

    if port < 0 or port > 65535:
        raise UsageError(f"--port must be 0-65535, got {port}")
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
        try:
            s.bind((host, port))
        except OSError as exc:
            raise UsageError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
        port = s.getsockname()[1]
    session = Session(path, library, rules=rules, scale=scale, primitives=primitives)
    session.geometry()  # before the first request: the page's first picture must not wait for it
    session.model_bytes()
    threading.Thread(target=session.warm, args=(WARM_WAIT_S,), name="brikscan-warm", daemon=True).start()
    from .app import LOOPBACK_NAMES

    # on loopback only the loopback names; on a host asked for, that name too (or any, for 0.0.0.0 / ::)
    hosts = LOOPBACK_NAMES if is_loopback(host) else (["*"] if host in ("0.0.0.0", "::") else
                                                       LOOPBACK_NAMES + [host, f"[{host}]"])
    app = create_app(session, allowed_hosts=hosts)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    print(f"brikscan: serving {path} at {url} (Ctrl-C stops)", file=sys.stderr, flush=True)
    if not is_loopback(host):
        print(f"brikscan: warning: listening on {host}: other machines can reach this page", file=sys.stderr)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    if open_browser:
        threading.Timer(0.8, lambda: webbrowser.open(url)).start()
    server.run()
