"""The server's application: the tables' and the sheets' routes on one database, the
live-play sockets, the browser client, the limits on requests and the one handler that
answers every refusal with an RFC 9457 problem body (``application/problem+json``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route, WebSocketRoute
from starlette.types import Receive, Scope, Send

from tricktaker.server.accounts import install_accounts
from tricktaker.server.clubs import clubs_router
from tricktaker.server.collector import Collector
from tricktaker.server.db import upgrade
from tricktaker.server.deps import Database, RateLimits
from tricktaker.server.duplicate import duplicate_router
from tricktaker.server.errors import RefusedError, UnavailableError
from tricktaker.server.limits import AddressSockets, ServerLimits
from tricktaker.server.players import players_router
from tricktaker.server.problems import problem, problem_of
from tricktaker.server.request_limits import RequestLimits, problem_response
from tricktaker.server.sheets.routes import sheets_router
from tricktaker.server.tables import messages as m
from tricktaker.server.tables.admission import serve_counted
from tricktaker.server.tables.leases import leases_for
from tricktaker.server.tables.routes import tables_router
from tricktaker.server.tables.service import TableService
from tricktaker.server.tables.ws import RATE_PER_SECOND
from tricktaker.server.web import BODY_LIMITS, install_web
from tricktaker.web import static_dir

HTTP_RATE_PER_SECOND = 20.0
"""Requests one address may make per second, on average: a token bucket that fills at
this rate, up to :data:`HTTP_BURST` (docs/protocol.md, Errors; docs/deploy.md)."""

HTTP_BURST = 20.0
"""Requests one address may make at once, after a pause: the bucket's size. A request
refused is answered 429 with ``Retry-After``."""


async def _no_endpoint(_socket: WebSocket) -> None:  # pragma: no cover - never called
    raise RuntimeError("the live-play socket is served by TableServerApp.__call__")


LIVE_SOCKET = WebSocketRoute("/tables/{table_id}/ws", _no_endpoint)
"""The path of a table's live-play socket (matched as the router would match it)."""


class TableServerApp(FastAPI):
    """The server's FastAPI application, its live-play sockets served ahead of the
    middleware stack.

    Every message the server sends on a socket would otherwise pass through the
    wrappers that the middleware (error handling, telemetry) put around the ASGI
    ``send`` for the socket's whole life, which do nothing for a socket that is already
    open: without them the server's CPU an action fell by about 6% under load
    (``bench/server_load.py``). The HTTP API and every other socket take the usual way."""

    live_socket: Callable[[WebSocket, str], Awaitable[None]] | None = None
    """Serves a live-play socket, given the table's id (None: the router does)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        serve = self.live_socket
        if serve is not None and scope["type"] == "websocket":
            match, child = LIVE_SOCKET.matches(scope)
            if match is Match.FULL:
                scope["app"] = self
                await serve(WebSocket(scope, receive, send), child["path_params"]["table_id"])
                return
        await super().__call__(scope, receive, send)


def browser_client_paths() -> frozenset[str]:
    """The paths of the browser client's static files (``/``, ``/app.js``...)."""
    root = static_dir()
    files = (path.relative_to(root).as_posix() for path in root.rglob("*") if path.is_file())
    return frozenset({"/", *(f"/{name}" for name in files)})


def _unreadable_body(error: Mapping[str, Any]) -> str | None:
    """What is wrong with a request body that cannot be read at all (not JSON, not a
    JSON object, or none), from FastAPI's first validation ``error``; None for a body
    that was read (then it is an invalid request, 422)."""
    where = tuple(error.get("loc", ()))
    if error.get("type") == "json_invalid":
        reason = error.get("ctx", {}).get("error", "invalid JSON")
        at = f" at character {where[1]}" if len(where) > 1 else ""
        return f"The request body is not JSON: {reason}{at}."
    if error.get("type") == "missing" and where == ("body",):
        return "The request has no body: send a JSON object."
    if where == ("body",):  # JSON, but not an object (null, a list, a number, text)
        return "The request body is not a JSON object: send one, with the fields."
    return None


def create_app(
    db_url: str,
    *,
    bot_workers: int = 2,
    migrate: bool = True,
    http_rate: float | None = HTTP_RATE_PER_SECOND,
    http_burst: float = HTTP_BURST,
    socket_rate: float | None = RATE_PER_SECOND,
    bounds: ServerLimits | None = None,
) -> FastAPI:
    """The server's ASGI application on the database at ``db_url`` (upgraded to the
    newest schema first unless ``migrate`` is False). ``bot_workers`` threads run the
    bots; ``http_rate`` and ``socket_rate`` limit requests per address and messages per
    socket, a second (None: no limit, for benchmarks), ``http_burst`` the requests at
    once; ``bounds``: the bounds on memory
    (:class:`~tricktaker.server.limits.ServerLimits`, by default from the environment;
    with no socket rate limit, no limit on sockets per address either)."""
    if bounds is None:
        bounds = ServerLimits.from_environment()
        if socket_rate is None:
            bounds = dataclasses.replace(bounds, sockets_per_address=None)
    if migrate:
        upgrade(db_url)
    database = Database(db_url)
    service = TableService(
        database,
        bot_workers=bot_workers,
        idle_seconds=bounds.idle_seconds,
        leases=leases_for(db_url),  # one owner per table (docs/deploy.md, Several processes)
    )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        database.start()
        await service.open()
        collector = Collector()
        collector.start()
        try:
            yield
        finally:
            await collector.stop()
            await service.close()
            database.close()

    app = TableServerApp(
        title="tricktaker table server",
        version=f"protocol v{m.PROTOCOL_VERSION}",
        description="Tables for trick-taking games: seats, bots, spectators, live play"
        " over a WebSocket at /tables/{id}/ws (see docs/protocol.md).",
        lifespan=lifespan,
    )
    app.state.service = service
    buckets = RateLimits(http_rate, http_burst) if http_rate is not None else None
    client_files = browser_client_paths()
    """The browser client's own files, not counted by the rate limit: a page's first
    load asks for all of them at once, more than the burst."""

    # Accounts (docs/protocol.md, Accounts): their routes, and the CSRF check of every
    # request that carries the session cookie; the limits on requests come first.
    install_accounts(app, database, limits=http_rate is not None)
    app.add_middleware(RequestLimits, body_limits=BODY_LIMITS, buckets=buckets, exempt=client_files)

    @app.exception_handler(RefusedError)
    async def refused(_request: Request, exc: RefusedError) -> JSONResponse:
        status, body = problem_of(exc)
        if isinstance(exc, UnavailableError):  # the database is back in a moment
            return problem_response(status, body, {"Retry-After": str(exc.retry_after)})
        return problem_response(status, body)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        unread = _unreadable_body(first)
        if unread is not None:  # not JSON at all: 400, as docs/protocol.md, Errors says
            return problem_response(400, problem(400, "bad-json", unread))
        loc = [str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path", "header")]
        field = ".".join(loc) or None
        detail = f"{field}: {first.get('msg')}" if field else str(first.get("msg"))
        return problem_response(422, problem(422, "invalid-request", detail, field=field))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        body = problem(exc.status_code, "http", str(exc.detail))
        headers = exc.headers
        if exc.status_code == 405:  # Allow: every method of the path, not of one route
            allowed = {
                method
                for route in app.routes
                if isinstance(route, Route) and route.matches(request.scope)[0] != Match.NONE
                for method in route.methods or ()
            }
            headers = {"Allow": ", ".join(sorted(allowed))}
        return problem_response(exc.status_code, body, headers)

    app.include_router(tables_router(service))
    app.include_router(duplicate_router(service))  # duplicate sets (docs/duplicate.md)
    app.include_router(players_router(service))  # players' pages (docs/players.md)
    app.include_router(clubs_router(service))  # clubs and evenings (docs/clubs.md)

    async def socket(websocket: WebSocket, table_id: str) -> None:
        await serve_counted(
            service, websocket, table_id, sockets, rate=socket_rate, backlog=bounds.send_backlog
        )

    sockets = AddressSockets(bounds.sockets_per_address)
    app.state.sockets = sockets

    app.live_socket = socket

    app.include_router(sheets_router(database))  # score sheets (docs/scorekeeper.md)
    install_web(app)  # the browser client; its static files at / come last
    return app
