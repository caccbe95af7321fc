"""The HTTP JSON API of the table server (FastAPI; its OpenAPI docs are at ``/docs``).

Tables are created from a shipped ruleset or an uploaded house-rules TOML; people join
with the table's invite code and receive a seat token (sent back as ``Authorization:
Bearer TOKEN``); the host's token allows the host's actions. Every error is an RFC 9457
problem body (``application/problem+json``).
"""

from __future__ import annotations

import asyncio
import secrets
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route, WebSocketRoute
from starlette.types import Receive, Scope, Send

from tricktaker.bots import make_bot, parse_bot_spec
from tricktaker.bots.names import bot_name
from tricktaker.present.text import default_seat_name
from tricktaker.rules import load_ruleset
from tricktaker.rules.errors import RulesetError
from tricktaker.rules.ruleset import Ruleset
from tricktaker.server import messages as m
from tricktaker.server.collector import Collector
from tricktaker.server.db import hash_token, new_token, open_code, upgrade
from tricktaker.server.problems import (
    MEDIA_TYPE,
    PROBLEM_RESPONSES,
    ServiceError,
    problem,
    ruleset_field,
)
from tricktaker.server.service import TableService
from tricktaker.server.sheets import sheets_router
from tricktaker.server.store import SeatData, TableData
from tricktaker.server.web import BODY_LIMITS, install_web
from tricktaker.server.ws import RATE_PER_SECOND, serve_socket

MAX_BODY_BYTES = 64 * 1024
"""The largest request body (a house-rules file must fit)."""

AuthHeader = Annotated[str | None, Header(description="Bearer TOKEN (a seat or host token).")]
"""The ``Authorization`` header: ``Bearer`` and a seat or host token."""

HTTP_RATE_PER_SECOND = 20.0
"""Requests one address may make per second, on average (three times as many at once)."""


class CreateTable(m.Body):
    """A new table: a shipped ``game`` or an uploaded ``ruleset_toml``, with options."""

    game: str | None = Field(default=None, max_length=100, description="A shipped game id.")
    ruleset_toml: str | None = Field(
        default=None, max_length=MAX_BODY_BYTES, description="A house-rules file's text."
    )
    options: dict[str, str | int | bool] = Field(default_factory=dict, max_length=50)
    players: int | None = Field(default=None, ge=1, le=16)
    seats: list[str] | None = Field(
        default=None,
        max_length=16,
        description="Each seat: 'human' (a person's, kept for whoever the host gives the"
        " invite code), 'open' (a person's that anyone may take from the list of open"
        " tables) or a bot as the command line accepts it ('easy', 'hard',"
        " 'ismcts:iterations=200'). Default: every seat human.",
    )
    name: str | None = Field(
        default=None,
        max_length=40,
        description="The host's name (default: the seat's, 'Seat 1' for seat 0).",
    )
    host_seat: int | None = Field(
        default=None, ge=0, description="A human seat the host takes (a seat token is returned)."
    )
    public: bool = True
    seed: int | None = Field(default=None, ge=0, le=2**53)
    grace_seconds: float = Field(default=60.0, ge=0.05, le=3600.0)
    move_timer: float | None = Field(default=None, ge=0.05, le=3600.0)
    away_bot: str = Field(default="easy", max_length=100)


class CreatedTable(BaseModel):
    """A created table: the host token (keep it secret), the invite code, and the host's
    seat token if the host took a seat."""

    table: m.TableInfo
    host_token: str
    invite: str
    seat: int | None
    seat_token: str | None


class Join(m.Body):
    """Join a table with its invite code, at a free seat (or the one asked for)."""

    invite: str = Field(min_length=1, max_length=64)
    name: str = Field(min_length=1, max_length=40)
    seat: int | None = Field(default=None, ge=0)


class Joined(BaseModel):
    """The seat taken and its token (shown only once; keep it to come back)."""

    seat: int
    seat_token: str


class SeatBot(m.Body):
    """A bot for a seat (as the command line accepts it)."""

    bot: str = Field(min_length=1, max_length=100)


class OpenTable(BaseModel):
    """A public table in the list: anyone may watch it; ``invite`` is a code that takes
    its free open seats (None when it has none: its other seats are kept for the people
    the host invites, and its invite code is never listed)."""

    table: m.TableInfo
    invite: str | None


def _bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _check_bot(spec: str, where: str) -> str:
    """``spec`` if it names a bot the command line accepts (it is built once to check its
    settings), else a 422 problem naming ``where``."""
    try:
        parse_bot_spec(spec)
        make_bot(spec, seed=0)
    except ValueError as exc:
        raise ServiceError(422, "bad-bot", str(exc), field=where) from None
    return spec.strip()


def _load_rules(request: CreateTable) -> tuple[Ruleset, str | None]:
    if (request.game is None) == (request.ruleset_toml is None):
        raise ServiceError(
            422,
            "bad-request",
            "Give either game (a shipped game id) or ruleset_toml.",
            field="game",
        )
    options = {
        k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in request.options.items()
    }
    try:
        if request.game is not None:
            if "/" in request.game or request.game.endswith(".toml"):
                raise RulesetError(f"unknown game {request.game!r}")
            return load_ruleset(request.game, options=options), None
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "house-rules.toml"
            path.write_text(request.ruleset_toml or "", encoding="utf-8")
            try:
                return load_ruleset(path, options=options), request.ruleset_toml
            except RulesetError as exc:
                raise RulesetError(str(exc).replace(f"{folder}/", "")) from None
    except (RulesetError, LookupError, TypeError, ValueError) as exc:
        text = str(exc)
        field = ruleset_field(text) or ("options" if "option" in text else None)
        raise ServiceError(422, "bad-ruleset", text, field=field) from None


def _new_table(request: CreateTable) -> tuple[TableData, str | None, str, str | None]:
    """The table to store, its TOML, the host token and the host's seat token."""
    rules, toml = _load_rules(request)
    counts = list(rules.player_counts)
    players = request.players or (
        len(request.seats) if request.seats else (4 if 4 in counts else counts[0])
    )
    try:
        rules.check_players(players)
        rules.hands_for(players)
    except RulesetError as exc:
        raise ServiceError(422, "bad-players", str(exc), field="players") from None
    kinds = request.seats or ["human"] * players
    if len(kinds) != players:
        raise ServiceError(
            422,
            "bad-seats",
            f"Give one entry per seat: {players} needed, {len(kinds)} given.",
            field="seats",
        )
    seats = [
        SeatData(i, "human", open_seat=k.strip() == "open")
        if k.strip() in ("human", "open")
        else SeatData(i, "bot", _check_bot(k, f"seats[{i}]"))
        for i, k in enumerate(kinds)
    ]
    away = _check_bot(request.away_bot, "away_bot")
    host_token = new_token()
    seat_token = None
    if request.host_seat is not None:
        if request.host_seat >= players or seats[request.host_seat].kind != "human":
            raise ServiceError(
                422, "bad-seat", f"Seat {request.host_seat} is not a human seat.", field="host_seat"
            )
        seat_token = new_token()
        seats[request.host_seat].token_hash = hash_token(seat_token)
        given = " ".join((request.name or "").split())
        seats[request.host_seat].name = given or default_seat_name(request.host_seat)
    for seat in seats:  # each bot a family name, none a person's
        if seat.kind == "bot":
            seat.name = bot_name(seat.seat, [s.name for s in seats if s.name is not None])
    data = TableData(
        id=secrets.token_urlsafe(9),
        game=rules.id,
        preset=request.game,
        ruleset_data=rules.data,
        options=dict(rules.options),
        players=players,
        seed=request.seed if request.seed is not None else secrets.randbits(32),
        status="waiting",
        public=request.public,
        host_token_hash=hash_token(host_token),
        invite_code=secrets.token_urlsafe(12),
        grace_seconds=request.grace_seconds,
        game_number=0,
        seq=0,
        move_timer=request.move_timer,
        away_bot=away,
        seats=seats,
    )
    return data, toml, host_token, seat_token


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


def _problem_response(
    status: int, body: dict[str, Any], headers: Mapping[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(body, status_code=status, media_type=MEDIA_TYPE, headers=headers)


def create_app(
    db_url: str,
    *,
    bot_workers: int = 2,
    migrate: bool = True,
    http_rate: float | None = HTTP_RATE_PER_SECOND,
    socket_rate: float | None = RATE_PER_SECOND,
) -> FastAPI:
    """The server's ASGI application on the database at ``db_url`` (upgraded to the
    newest schema first unless ``migrate`` is False). ``bot_workers`` threads run the
    bots; ``http_rate`` and ``socket_rate`` limit requests per address and messages per
    socket, a second (None: no limit, for benchmarks)."""
    if migrate:
        upgrade(db_url)
    service = TableService(db_url, bot_workers=bot_workers)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await service.open()
        collector = Collector()
        collector.start()
        try:
            yield
        finally:
            await collector.stop()
            await service.close()

    app = TableServerApp(
        title="tricktaker table server",
        version=f"protocol v{m.PROTOCOL_VERSION}",
        description="Tables for trick-taking games: seats, bots, spectators, live play"
        " over a WebSocket at /tables/{id}/ws (see docs/protocol.md).",
        lifespan=lifespan,
    )
    app.state.service = service
    buckets: dict[str, tuple[float, float]] = {}

    @app.middleware("http")
    async def limits(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        size = request.headers.get("content-length")
        limit = BODY_LIMITS.get((request.method, request.url.path), MAX_BODY_BYTES)
        too_large = _problem_response(
            413, problem(413, "too-large", f"A request may be at most {limit} bytes.")
        )
        if size is not None and (not size.isdigit() or int(size) > limit):
            return too_large
        if size is None and request.method in ("POST", "PUT", "PATCH"):
            # A body sent in chunks, without a length: read it up to the limit here, and
            # hand what was read on (the middleware's request replays a cached body).
            body = b""
            async for chunk in request.stream():
                body += chunk
                if len(body) > limit:
                    return too_large
            request._body = body
        if http_rate is None:
            return await call_next(request)
        client = request.client.host if request.client else "?"
        now = time.monotonic()
        burst = 3 * http_rate
        tokens, stamp = buckets.get(client, (burst, now))
        tokens = min(burst, tokens + (now - stamp) * http_rate)
        if tokens < 1.0:
            buckets[client] = (tokens, now)
            return _problem_response(
                429, problem(429, "rate-limited", "Too many requests: slow down.")
            )
        buckets[client] = (tokens - 1.0, now)
        if len(buckets) > 10_000:
            buckets.clear()
        return await call_next(request)

    @app.exception_handler(ServiceError)
    async def service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return _problem_response(exc.status, exc.body())

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        loc = [str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path", "header")]
        field = ".".join(loc) or None
        detail = f"{field}: {first.get('msg')}" if field else str(first.get("msg"))
        return _problem_response(422, problem(422, "invalid-request", detail, field=field))

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
        return _problem_response(exc.status_code, body, headers)

    problems = PROBLEM_RESPONSES

    @app.post("/tables", status_code=201, responses=problems)
    async def create_table(request: CreateTable) -> CreatedTable:
        """Create a table; its host gets the host token and the invite code."""
        data, toml, host_token, seat_token = await asyncio.to_thread(_new_table, request)
        live = await service.create(data, toml)
        return CreatedTable(
            table=live.info(),
            host_token=host_token,
            invite=data.invite_code,
            seat=request.host_seat,
            seat_token=seat_token,
        )

    @app.get("/tables", responses=problems)
    async def list_tables() -> list[OpenTable]:
        """The public tables not yet finished, each with a code for its free open seats
        (None when it has none); a table's invite code is never listed."""
        listed = []
        for table in await service.tables():
            data = (await service.live(table.id)).data
            free = [s for s in data.seats if s.kind == "human" and s.token_hash is None]
            code = open_code(data.invite_code) if any(s.open_seat for s in free) else None
            listed.append(OpenTable(table=table, invite=code))
        return listed

    @app.get("/tables/{table_id}", responses=problems)
    async def table_details(table_id: str) -> m.TableInfo:
        """A table's game, seats and state."""
        return (await service.live(table_id)).info()

    @app.post("/tables/{table_id}/join", responses=problems)
    async def join(table_id: str, request: Join) -> Joined:
        """Take a free seat with the invite code."""
        seat, token = await service.join(table_id, request.invite, request.name, request.seat)
        return Joined(seat=seat, seat_token=token)

    @app.post("/tables/{table_id}/leave", status_code=204, responses=problems)
    async def leave(table_id: str, authorization: AuthHeader = None) -> Response:
        """Give up your seat (send its token)."""
        await service.leave(table_id, _bearer(authorization))
        return Response(status_code=204)

    @app.put("/tables/{table_id}/seats/{seat}/bot", status_code=204, responses=problems)
    async def seat_bot(
        table_id: str, seat: int, request: SeatBot, authorization: AuthHeader = None
    ) -> Response:
        """The host gives a seat to a bot."""
        spec = _check_bot(request.bot, "bot")
        await service.set_bot(table_id, _bearer(authorization), seat, spec)
        return Response(status_code=204)

    @app.post("/tables/{table_id}/start", status_code=204, responses=problems)
    async def start(table_id: str, authorization: AuthHeader = None) -> Response:
        """The host starts the game (every seat taken or a bot's)."""
        await service.start(table_id, _bearer(authorization))
        return Response(status_code=204)

    @app.post("/tables/{table_id}/rematch", status_code=204, responses=problems)
    async def rematch(table_id: str, authorization: AuthHeader = None) -> Response:
        """The host starts another game with the same seats, once the game is over."""
        await service.start(table_id, _bearer(authorization), rematch=True)
        return Response(status_code=204)

    @app.get("/tables/{table_id}/record", responses=problems)
    async def record(table_id: str, game: int | None = None) -> dict[str, Any]:
        """A finished game's record, as ``tricktaker play --record`` writes it (replay it
        with ``tricktaker replay``). ``game``: which game of the table (default: the last)."""
        return await service.record(table_id, game)

    async def socket(websocket: WebSocket, table_id: str) -> None:
        await serve_socket(service, websocket, table_id, rate=socket_rate)

    app.live_socket = socket

    app.include_router(sheets_router(service))  # score sheets (docs/scorekeeper.md)
    install_web(app)  # the browser client; its static files at / come last
    return app
