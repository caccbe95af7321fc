"""The browser client's part of the server: the lobby's data, the rules pages, replays,
and the page itself (the static files of :mod:`tricktaker.web`) at ``/``.

* ``GET /api/games``: every shipped game with its options; ``GET /api/bots``: the bot
  levels a seat may have;
* ``GET /rules/{game}``: the game's page (``docs/games/<id>.md``) as HTML;
* ``POST /api/rulesets/check``: a house-rules file checked, each error with its field and
  line as the command line gives them;
* ``POST /api/replays``: a game record (as ``tricktaker play --record`` writes it)
  replayed by the engine, kept a while under an id: the answer is the replay's outline
  and its first hand's frames, as is ``GET /api/replays/{id}``; each other hand's frames
  come from ``GET /api/replays/{id}/hands/{n}`` and the score sheet from
  ``GET /api/replays/{id}/scorecard`` (:mod:`tricktaker.web.replays`), so that a long
  game opens as fast as a short one; ``GET /api/tables/{id}/replay``: the same for a
  table's finished game;
* the static files at ``/``, mounted last so that they never shadow the API.

:func:`install_web` adds all of this to the application of
:func:`tricktaker.server.create_app`.
"""

from __future__ import annotations

import asyncio
import html
import re
import secrets
from collections import OrderedDict
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse
from markdown_it import MarkdownIt
from markdown_it.token import Token
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match, Route
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from tricktaker.docs import game_page, has_page, page_ids
from tricktaker.engine import GameRecord, RecordError
from tricktaker.server.deps import Body
from tricktaker.server.errors import InvalidRequestError, NotFoundError
from tricktaker.server.problems import PROBLEM_RESPONSES
from tricktaker.server.tables.views import seat_names_of
from tricktaker.web import catalog, static_dir
from tricktaker.web.replays import Replay

MAX_TOML_CHARS = 32 * 1024
"""The longest house-rules text the check reads."""

MAX_RECORD_BYTES = 1024 * 1024
"""The largest game record ``POST /api/replays`` reads. Records as ``play --record``
writes them measure 5 to 25 KiB for a whole game with the default options; the longest,
a 7-player Buckup game that reaches its 200-hand cap, 170 KiB (350 KiB indented); every
other request stays under the server's 64 KiB."""

BODY_LIMITS: dict[tuple[str, str], int] = {("POST", "/api/replays"): MAX_RECORD_BYTES}
"""The routes (method, path) whose request body may exceed the server's usual limit."""

KEPT_REPLAYS = 64
"""How many replays the server keeps (the least recently used go first), so that a
replay's hands can be asked for and its address reloaded while the server runs."""


class PlayerRange(BaseModel):
    """The table sizes a game allows."""

    min: int
    max: int


class GameOption(BaseModel):
    """An option of a game, as the lobby shows it."""

    name: str
    type: str = Field(description="bool (a switch) or int (a number).")
    default: bool | int = Field(description="Its value in this ruleset.")
    min: int | None
    max: int | None
    choices: list[bool | int] | None = Field(description="The values allowed, when few.")
    help: str = Field(description="What the option does, in one line.")
    players: list[int] = Field(description="The player counts it is for (empty: all).")
    players_range: PlayerRange | None = Field(
        default=None,
        description="The game's player counts with this option turned the other way from"
        " its default, when that changes them (None: it does not).",
    )


class GameInfo(BaseModel):
    """A shipped game (or a house-rules file), as the lobby shows it."""

    id: str
    name: str
    description: str
    players: PlayerRange = Field(
        description="Every player count a table of the game may have, with some option"
        " (an option's players_range gives the counts with it)."
    )
    default_players: int
    options: list[GameOption]
    unavailable: dict[str, str] = Field(description="Options this file cannot use, and why.")
    rules_url: str | None = Field(description="Its rules page, if it has one.")


class BotLevel(BaseModel):
    """A bot a seat may have."""

    id: str = Field(description="As a seat of POST /tables (and --bots) takes it.")
    label: str
    spec: str = Field(description="The bot it is.")


class RulesetCheckRequest(Body):
    """A house-rules file's text to check, with options and a player count if chosen."""

    toml: str = Field(max_length=MAX_TOML_CHARS)
    options: dict[str, str | int | bool] = Field(default_factory=dict, max_length=50)
    players: int | None = Field(default=None, ge=1, le=16)


class RulesetErrorEntry(BaseModel):
    """One error, located as the command line locates it."""

    text: str = Field(description="The whole line, as the command line prints it.")
    source: str | None
    line: int | None
    column: int | None
    field: str | None = Field(description="The ruleset field (dotted key path).")
    option: str | None = Field(description="The option it concerns, if any.")
    message: str


class RulesetCheck(BaseModel):
    """The check's answer: ``ok`` and the game, or the errors."""

    ok: bool
    errors: list[RulesetErrorEntry]
    game: GameInfo | None
    based_on: str | None = None
    changes: list[str] = Field(default_factory=list)


def _id_attributes(md: MarkdownIt) -> None:
    """Give each heading an ``id`` (``## Stay or fold`` -> ``stay-or-fold``), as the
    pages' own ``#anchor`` links expect."""

    def rule(state: Any) -> None:
        tokens: list[Token] = state.tokens
        for index, token in enumerate(tokens[:-1]):
            if token.type == "heading_open":
                text = tokens[index + 1].content
                slug = re.sub(r"[^\w\- ]", "", text.lower()).strip().replace(" ", "-")
                token.attrSet("id", slug)

    md.core.ruler.push("heading_ids", rule)


_PAGE_LINK = re.compile(r"^(?P<game>[a-z_0-9]+)\.md(?P<anchor>#[\w-]*)?$")


@lru_cache(maxsize=32)
def rules_html(game: str) -> str:
    """The rules page of ``game`` as a whole HTML document (raw HTML in the markdown
    is shown as text; links to other game pages lead to their ``/rules/`` page)."""
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    _id_attributes(md)
    tokens = md.parse(game_page(game))
    known = set(page_ids())
    for token in tokens:
        for child in token.children or ():
            if child.type != "link_open":
                continue
            href = str(child.attrGet("href") or "")
            found = _PAGE_LINK.match(href)
            if found is not None and found["game"] in known:
                child.attrSet("href", f"/rules/{found['game']}{found['anchor'] or ''}")
            elif found is not None or href.startswith("../"):
                child.attrSet("href", f"/rules/{game}")  # a page not served: stay here
    body = md.renderer.render(tokens, md.options, {})
    title = html.escape(game_page(game).splitlines()[0].lstrip("# ").strip())
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title}: rules · tricktaker</title>\n"
        '<link rel="stylesheet" href="/base.css">\n</head>\n'
        '<body class="rules-page">\n<nav class="topbar" aria-label="Site">'
        '<a href="/#/">← tricktaker lobby</a></nav>\n'
        f'<main class="rules" id="main">\n{body}</main>\n</body>\n</html>\n'
    )


class WebFiles(StaticFiles):
    """The page's static files. A request at an API path with a method that path lacks
    is answered 405 with ``Allow`` (the mount takes every path, so the router cannot);
    a request other than GET or HEAD, or a WebSocket, at a path no route has is
    answered as not found."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": "no such socket"})
            return
        if scope["type"] == "http":
            allowed = _allowed_methods(scope)
            if allowed:  # an API path asked with a method it lacks (TRACE /tables)
                raise StarletteHTTPException(
                    status_code=405, headers={"Allow": ", ".join(sorted(allowed))}
                )
            if scope["method"] not in ("GET", "HEAD"):
                raise StarletteHTTPException(status_code=404, detail="Not Found")
        await super().__call__(scope, receive, send)


def _allowed_methods(scope: Scope) -> set[str]:
    """The methods the app's routes take at the request's path (none when no route has
    that path): the static mount at ``/`` takes every path, so the router never answers
    405 for an API path asked with the wrong method, and this does instead."""
    allowed: set[str] = set()
    app = scope.get("app")
    for route in _plain_routes(getattr(getattr(app, "router", None), "routes", [])):
        if isinstance(route, Route) and route.methods:
            match, _ = route.matches(scope)
            if match is Match.PARTIAL:
                allowed |= route.methods
    return allowed


def _plain_routes(routes: list[Any]) -> Iterator[Any]:
    """Every route, with the routers FastAPI includes (whole, prefixes and all, as
    ``original_router``) opened up."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from _plain_routes(inner.routes)
        else:
            yield route


def _load_record(data: dict[str, Any]) -> GameRecord:
    try:
        return GameRecord.from_json(data)
    except RecordError as exc:
        raise InvalidRequestError("bad-record", str(exc), field="record") from None


def _replay(record: GameRecord, names: list[str] | None = None) -> Replay:
    try:
        return Replay(record, names)
    except RecordError as exc:
        raise InvalidRequestError("bad-record", str(exc), field="record") from None
    except (ArithmeticError, LookupError, TypeError, ValueError) as exc:
        detail = f"the record cannot be replayed ({type(exc).__name__}: {exc})"
        raise InvalidRequestError("bad-record", detail, field="record") from None


def remember_replay(app: FastAPI, replay: Replay, key: Any = None) -> str:
    """Keep ``replay`` under a new id for ``GET /api/replays/{id}`` and its hands, and
    answer the id. A ``key`` (a table's game) is remembered with it for
    :func:`_kept_id`."""
    kept: OrderedDict[str, Replay] = app.state.replays
    replay_id = secrets.token_urlsafe(9)
    kept[replay_id] = replay
    if key is not None:
        app.state.replay_keys[key] = replay_id
    while len(kept) > KEPT_REPLAYS:
        kept.popitem(last=False)
    return replay_id


def _kept_id(app: FastAPI, key: Any) -> str | None:
    """The id of the replay kept for ``key`` (a table's game), if it is still kept."""
    replay_id: str | None = app.state.replay_keys.get(key)
    if replay_id is None or replay_id not in app.state.replays:
        app.state.replay_keys.pop(key, None)
        return None
    return replay_id


def _kept(app: FastAPI, replay_id: str) -> Replay:
    """The replay kept under ``replay_id`` (now the most recently used), or a 404."""
    kept: OrderedDict[str, Replay] = app.state.replays
    replay = kept.get(replay_id)
    if replay is None:
        raise NotFoundError(
            "no-replay",
            "No such replay here (the server keeps the recent ones"
            " while it runs): open the record file again.",
        )
    kept.move_to_end(replay_id)
    return replay


def _opening(replay_id: str, replay: Replay) -> dict[str, Any]:
    """What opens a replay: its id, its outline and its first hand's frames."""
    return {"id": replay_id, **replay.outline(), "first_hand": replay.hand(1)}


def load_replay(app: FastAPI, record: dict[str, Any]) -> str:
    """Replay a record (its JSON) and keep it: the id of :func:`remember_replay`.
    Raises :class:`~tricktaker.server.errors.InvalidRequestError` for a record that
    does not replay."""
    return remember_replay(app, _replay(_load_record(record)))


def make_router() -> APIRouter:
    """The routes of the browser client's data (not the static files)."""
    router = APIRouter()

    @router.get("/api/games", responses=PROBLEM_RESPONSES)
    async def list_games() -> list[GameInfo]:
        """Every shipped game: id, name, one-line description, players, options."""
        found = await asyncio.to_thread(catalog.games)
        return [GameInfo.model_validate(g) for g in found]

    @router.get("/api/bots", responses=PROBLEM_RESPONSES)
    async def list_bots() -> list[BotLevel]:
        """The bot levels a seat may have, weakest first."""
        return [BotLevel.model_validate(b) for b in catalog.bots()]

    @router.get("/rules/{game}", response_class=HTMLResponse, responses=PROBLEM_RESPONSES)
    async def rules_page(game: str) -> HTMLResponse:
        """A shipped game's rules page (docs/games/GAME.md) as HTML."""
        if not has_page(game):
            known = ", ".join(page_ids())
            raise NotFoundError("no-page", f"No rules page for {game!r}; the pages: {known}")
        return HTMLResponse(await asyncio.to_thread(rules_html, game))

    @router.post("/api/rulesets/check", responses=PROBLEM_RESPONSES)
    async def check_ruleset(request: RulesetCheckRequest) -> RulesetCheck:
        """Check a house-rules TOML file (with options, and a player count if given):
        ``ok`` and the game it makes, or its errors, each with its field and line."""
        result = await asyncio.to_thread(
            catalog.check_ruleset, request.toml, request.options, request.players
        )
        return RulesetCheck.model_validate(result)

    @router.post("/api/replays", status_code=201, responses=PROBLEM_RESPONSES)
    async def upload_replay(request: Request, record: dict[str, Any]) -> dict[str, Any]:
        """Replay a game record (the JSON that ``tricktaker play --record`` writes and
        ``GET /tables/{id}/record`` answers), every hand shown; it is kept a while under
        the answer's ``id``. The answer is the replay's outline (its hands and where
        each begins) and its first hand's frames (``first_hand``); the other hands come
        from ``GET /api/replays/{id}/hands/{n}``."""

        def make() -> tuple[Replay, dict[str, Any]]:
            replay = _replay(_load_record(record))
            return replay, _opening("", replay)

        replay, opening = await asyncio.to_thread(make)
        opening["id"] = remember_replay(request.app, replay)
        return opening

    @router.get("/api/replays/{replay_id}", responses=PROBLEM_RESPONSES)
    async def get_replay(request: Request, replay_id: str) -> dict[str, Any]:
        """A replay opened before (while this server runs), as it opened."""
        replay = _kept(request.app, replay_id)
        return await asyncio.to_thread(_opening, replay_id, replay)

    @router.get("/api/replays/{replay_id}/hands/{number}", responses=PROBLEM_RESPONSES)
    async def replay_hand(request: Request, replay_id: str, number: int) -> dict[str, Any]:
        """Hand ``number``'s frames (1 for the first), the first whole and each other as
        its change from the frame before."""
        replay = _kept(request.app, replay_id)
        try:
            return await asyncio.to_thread(replay.hand, number)
        except LookupError as exc:
            raise NotFoundError("no-hand", f"This replay has {exc}.") from None

    @router.get("/api/replays/{replay_id}/scorecard", responses=PROBLEM_RESPONSES)
    async def replay_scorecard(request: Request, replay_id: str) -> dict[str, Any]:
        """The whole game's score sheet, as the table's page draws it."""
        replay = _kept(request.app, replay_id)
        return await asyncio.to_thread(replay.scorecard)

    @router.get("/api/tables/{table_id}/replay", responses=PROBLEM_RESPONSES)
    async def table_replay(request: Request, table_id: str, game: int | None = None) -> Any:
        """A table's finished game replayed (refused while it is played), kept as an
        uploaded record is: its outline and first hand, with the ``id`` its other hands
        are asked for under."""
        service = request.app.state.service
        data = await service.record(table_id, game)
        record = _load_record(data)
        names = record.names or seat_names_of(await service.live(table_id))
        key = (table_id, len(record.events), record.seed, tuple(names))
        replay_id = _kept_id(request.app, key)
        if replay_id is None:
            replay = await asyncio.to_thread(_replay, record, names)
            replay_id = remember_replay(request.app, replay, key)
        opening = await asyncio.to_thread(_opening, replay_id, _kept(request.app, replay_id))
        return {"table": table_id, **opening}

    return router


def install_web(app: FastAPI) -> None:
    """Add the browser client to ``app``: the routes of :func:`make_router`, then the
    static files at ``/`` (last, so that they never shadow an API path)."""
    app.state.replays = OrderedDict()
    app.state.replay_keys = {}
    app.include_router(make_router())
    app.mount("/", WebFiles(directory=static_dir(), html=True), name="web")
