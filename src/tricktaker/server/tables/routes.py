"""The HTTP routes of the tables (FastAPI; the OpenAPI docs are at ``/docs``).

Tables are created from a shipped ruleset or an uploaded house-rules TOML; people join
with the table's invite code and receive a seat token (sent back as ``Authorization:
Bearer TOKEN``); the host's token allows the host's actions. Every refusal is an RFC 9457
problem body (``application/problem+json``).
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query
from fastapi.responses import Response
from pydantic import BaseModel, Field

from tricktaker.bots import make_bot, parse_bot_spec
from tricktaker.bots.names import bot_name
from tricktaker.present.text import default_seat_name
from tricktaker.rules.errors import RulesetError
from tricktaker.server.db import hash_token, new_token, open_code
from tricktaker.server.deps import Body, RulesRequest, bearer, load_rules
from tricktaker.server.errors import InvalidRequestError, TableNotFoundError
from tricktaker.server.problems import PROBLEM_RESPONSES
from tricktaker.server.tables import messages as m
from tricktaker.server.tables.reviews import add_review_routes
from tricktaker.server.tables.service import TableService
from tricktaker.server.tables.store import SeatData, TableData

AuthHeader = Annotated[str | None, Header(description="Bearer TOKEN (a seat or host token).")]
"""The ``Authorization`` header: ``Bearer`` and a seat or host token."""

GameNumber = Annotated[
    int | None, Query(ge=1, description="A game of the table, from 1 (default: the last).")
]
"""A ``game`` query parameter: which game of a table (a number from 1; else 422)."""


class CreateTable(RulesRequest):
    """A new table: a shipped ``game`` or an uploaded ``ruleset_toml``, with options."""

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
    hints: bool = Field(
        default=False,
        description="Allow the coach's hints to everyone seated (protocol 1.4): a practice"
        " table (every other seat a bot) has them anyway; everyone sees the table's hints.",
    )


class CreatedTable(BaseModel):
    """A created table: the host token (keep it secret), the invite code, and the host's
    seat token if the host took a seat."""

    table: m.TableInfo
    host_token: str
    invite: str
    seat: int | None
    seat_token: str | None


class Join(Body):
    """Join a table with its invite code, at a free seat (or the one asked for)."""

    invite: str = Field(min_length=1, max_length=64)
    name: str = Field(min_length=1, max_length=40)
    seat: int | None = Field(default=None, ge=0)


class Joined(BaseModel):
    """The seat taken and its token (shown only once; keep it to come back)."""

    seat: int
    seat_token: str


class SeatBot(Body):
    """A bot for a seat (as the command line accepts it)."""

    bot: str = Field(min_length=1, max_length=100)


class OpenTable(BaseModel):
    """A public table in the list: anyone may watch it; ``invite`` is a code that takes
    its free open seats (None when it has none: its other seats are kept for the people
    the host invites, and its invite code is never listed)."""

    table: m.TableInfo
    invite: str | None


def _check_bot(spec: str, where: str) -> str:
    """``spec`` if it names a bot the command line accepts (it is built once to check its
    settings), else refused naming ``where``."""
    try:
        parse_bot_spec(spec)
        make_bot(spec, seed=0)
    except ValueError as exc:
        raise InvalidRequestError("bad-bot", str(exc), field=where) from None
    return spec.strip()


def _new_table(request: CreateTable) -> tuple[TableData, str | None, str, str | None]:
    """The table to store, its TOML, the host token and the host's seat token."""
    rules, toml = load_rules(request)
    counts = list(rules.player_counts)
    players = request.players or (
        len(request.seats) if request.seats else (4 if 4 in counts else counts[0])
    )
    try:
        rules.check_players(players)
        rules.hands_for(players)
    except RulesetError as exc:
        raise InvalidRequestError("bad-players", str(exc), field="players") from None
    kinds = request.seats or ["human"] * players
    if len(kinds) != players:
        raise InvalidRequestError(
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
            raise InvalidRequestError(
                "bad-seat", f"Seat {request.host_seat} is not a human seat.", field="host_seat"
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
        hints=request.hints,
    )
    return data, toml, host_token, seat_token


def tables_router(service: TableService) -> APIRouter:
    """The ``/tables`` API of the table service."""
    router = APIRouter()
    problems = PROBLEM_RESPONSES

    @router.post("/tables", status_code=201, responses=problems)
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

    @router.get("/tables", responses=problems)
    async def list_tables() -> list[OpenTable]:
        """The public tables not yet finished, each with a code for its free open seats
        (None when it has none); a table's invite code is never listed."""
        listed = []
        for table in await service.tables():
            held = await service.peek(table.id)
            if held is None:
                continue
            data = held.data
            free = [s for s in data.seats if s.kind == "human" and s.token_hash is None]
            code = open_code(data.invite_code) if any(s.open_seat for s in free) else None
            listed.append(OpenTable(table=table, invite=code))
        return listed

    @router.get("/tables/{table_id}", responses=problems)
    async def table_details(table_id: str) -> m.TableInfo:
        """A table's game, seats and state (a table another server process serves is
        read from the database, not taken from it)."""
        held = await service.peek(table_id)
        if held is None:
            raise TableNotFoundError(table_id)
        return held.info()

    @router.post("/tables/{table_id}/join", responses=problems)
    async def join(table_id: str, request: Join) -> Joined:
        """Take a free seat with the invite code."""
        seat, token = await service.join(table_id, request.invite, request.name, request.seat)
        return Joined(seat=seat, seat_token=token)

    @router.post("/tables/{table_id}/leave", status_code=204, responses=problems)
    async def leave(table_id: str, authorization: AuthHeader = None) -> Response:
        """Give up your seat (send its token)."""
        await service.leave(table_id, bearer(authorization))
        return Response(status_code=204)

    @router.put("/tables/{table_id}/seats/{seat}/bot", status_code=204, responses=problems)
    async def seat_bot(
        table_id: str, seat: int, request: SeatBot, authorization: AuthHeader = None
    ) -> Response:
        """The host gives a seat to a bot."""
        spec = _check_bot(request.bot, "bot")
        await service.set_bot(table_id, bearer(authorization), seat, spec)
        return Response(status_code=204)

    @router.post("/tables/{table_id}/start", status_code=204, responses=problems)
    async def start(table_id: str, authorization: AuthHeader = None) -> Response:
        """The host starts the game (every seat taken or a bot's)."""
        await service.start(table_id, bearer(authorization))
        return Response(status_code=204)

    @router.post("/tables/{table_id}/rematch", status_code=204, responses=problems)
    async def rematch(table_id: str, authorization: AuthHeader = None) -> Response:
        """The host starts another game with the same seats, once the game is over."""
        await service.start(table_id, bearer(authorization), rematch=True)
        return Response(status_code=204)

    @router.get("/tables/{table_id}/record", responses=problems)
    async def record(table_id: str, game: GameNumber = None) -> dict[str, Any]:
        """A finished game's record, as ``tricktaker play --record`` writes it (replay it
        with ``tricktaker replay``). ``game``: which game of the table (default: the last);
        404 for a game the table has not played, 409 for the one being played."""
        return await service.record(table_id, game)

    add_review_routes(router, service)  # POST and GET /tables/{id}/review (the coach)
    return router
