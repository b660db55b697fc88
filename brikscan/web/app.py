"""The HTTP skin over ``Session``: Starlette routes, JSON in and out, one-line JSON errors.

Every failure a request can cause is answered (4xx for the client's mistakes, 500 for ours) and the server
keeps running; request bodies are capped so a client cannot exhaust memory.
"""
from __future__ import annotations

import json
import logging
from pathlib import Path

from starlette.applications import Starlette
from starlette.background import BackgroundTask
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import BrikscanError, NotFoundError, UsageError
from .session import Session

STATIC = Path(__file__).parent / "static"
MAX_BODY = 1 << 20  # bytes: every API request is a small JSON object
log = logging.getLogger("brikscan.web")


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": " ".join(str(message).split())}, status_code=status)


async def _body(request: Request) -> dict:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise _TooLarge()
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise _TooLarge()
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise UsageError(f"the body is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise UsageError("the body must be a JSON object")
    return data


class _TooLarge(Exception):
    pass


LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1", "[::1]"]


def _foreign_origin(request: Request) -> bool:
    """A request a page from another site sent (its Origin is not this server): refused, so a web page the
    player visits cannot drive the table behind their back."""
    origin = request.headers.get("origin")
    if not origin or origin == "null":
        return origin == "null"
    host = request.headers.get("host", "")
    return origin.split("://", 1)[-1].rstrip("/") != host


def create_app(session: Session, *, allowed_hosts: list[str] | None = None) -> Starlette:
    """The app for one session (the model being served). ``allowed_hosts``: Host header names accepted
    (default the loopback names: a DNS-rebinding page cannot reach the server under another name)."""
    from starlette.concurrency import run_in_threadpool
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware

    def guarded(fn, *, body: bool = True):
        async def endpoint(request: Request) -> Response:
            if _foreign_origin(request):
                return _error(403, "requests from another site's page are refused")
            try:
                data = await _body(request) if body else None
                result = await run_in_threadpool(fn, data) if body else await run_in_threadpool(fn)
            except _TooLarge:
                return _error(413, f"request body over {MAX_BODY} bytes")
            except NotFoundError as exc:
                return _error(404, exc.one_line())
            except UsageError as exc:
                return _error(400, exc.one_line())
            except BrikscanError as exc:
                return _error(422, exc.one_line())
            except (ValueError, TypeError, KeyError, IndexError) as exc:  # a value the checks did not foresee
                return _error(400, f"{type(exc).__name__}: {exc}")
            except Exception as exc:  # noqa: BLE001 - ours: say so, keep serving
                log.exception("internal error")
                return _error(500, f"internal error: {type(exc).__name__}: {exc}")
            if isinstance(result, Response):
                return result
            return JSONResponse(result)
        return endpoint

    def geometry() -> Response:
        return Response(session.geometry(), media_type="application/octet-stream",
                        headers={"Cache-Control": "no-store"}, background=BackgroundTask(session.page_served.set))

    def model() -> Response:
        return Response(session.model_bytes(), media_type="application/json")

    def annotated() -> Response:
        name, data = session.annotated_copy()
        return Response(data, media_type="text/plain; charset=utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def not_found(request: Request, exc) -> Response:
        return _error(getattr(exc, "status_code", 404), getattr(exc, "detail", "not found") or "not found")

    routes = [
        Route("/", index),
        Route("/api/model", guarded(model, body=False), methods=["GET"]),
        Route("/api/geometry", guarded(geometry, body=False), methods=["GET"]),
        Route("/api/blast", guarded(session.blast), methods=["POST"]),
        Route("/api/hit", guarded(session.hit), methods=["POST"]),
        Route("/api/los", guarded(session.los), methods=["POST"]),
        Route("/api/attacks", guarded(session.attacks), methods=["POST"]),
        Route("/api/roles", guarded(session.set_role), methods=["POST"]),
        Route("/api/roles/undo", guarded(session.undo_role, body=False), methods=["POST"]),
        Route("/api/roles/reset", guarded(session.reset_roles, body=False), methods=["POST"]),
        Route("/api/annotated", guarded(annotated, body=False), methods=["GET"]),
        Route("/api/status", guarded(session.status, body=False), methods=["GET"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    hosts = allowed_hosts if allowed_hosts is not None else LOOPBACK_NAMES
    return Starlette(routes=routes, exception_handlers={404: not_found, 405: not_found},
                     middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts)])
