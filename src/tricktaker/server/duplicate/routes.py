"""The HTTP routes of duplicate sets and the daily challenge (docs/duplicate.md, On a
server; docs/protocol.md, Duplicate sets).

A set is made with its deals (``POST /duplicate``); its host makes its tables, which are
ordinary tables whose first game deals the set's deals in the set's seats; anyone may
read a set's standings, worked out from its tables' finished hands, but a hand's results
only once the viewer may see them (docs/duplicate.md, No peeking). A game's daily
challenge is made the first time it is asked for, its deals from the day, the game and
the server's secret; anyone may play it at a table of their own against its seeded bots,
once a day (an account once, a browser once). The deals themselves are never sent.
"""

from __future__ import annotations

import asyncio
import datetime
import secrets
from dataclasses import dataclass
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Header, Query
from pydantic import BaseModel, Field

from tricktaker.duplicate import (
    DuplicateError,
    Method,
    Result,
    daily_seed,
    default_players,
    duplicate_refusal,
    make_set,
    standings,
    table_results,
)
from tricktaker.duplicate.sets import set_hands
from tricktaker.engine import GameRecord, GameState
from tricktaker.present.text import default_seat_name
from tricktaker.rules import list_rulesets, load_ruleset
from tricktaker.rules.errors import RulesetError
from tricktaker.server.accounts import optional_user
from tricktaker.server.accounts.store import User
from tricktaker.server.db import hash_token, new_token, now
from tricktaker.server.deps import Body, RulesRequest, bearer, load_rules
from tricktaker.server.duplicate import store
from tricktaker.server.duplicate.store import SetData
from tricktaker.server.errors import (
    InvalidRequestError,
    NotAllowedError,
    NotFoundError,
    NotPossibleNowError,
    NotSignedInError,
)
from tricktaker.server.problems import PROBLEM_RESPONSES
from tricktaker.server.tables.messages import ClubPlace
from tricktaker.server.tables.routes import CreatedTable, CreateTable, _new_table
from tricktaker.server.tables.service import TableService
from tricktaker.server.tables.store import game_events
from tricktaker.server.tables.undo import effective

DAILY_SECRET = "daily"
"""The name of the server's secret the daily challenge's deals come from."""

DAILY_BOT = "easy"
"""The daily challenge's bots: the heuristic player, whose choices depend on its seed and
what it has seen, never on time (docs/duplicate.md, Bots in a set)."""

AuthHeader = Annotated[str | None, Header(description="Bearer TOKEN (the set's host token).")]
ViewerHeader = Annotated[
    str | None,
    Header(
        description="Bearer TOKEN: the viewer's seat token at a table of the set, so that"
        " the hands that table has finished are shown (docs/duplicate.md, No peeking)."
    ),
]
Viewer = Annotated[User | None, Depends(optional_user)]
Order = Annotated[
    Literal["matchpoints", "average"],
    Query(description="Order the standings by matchpoints (default) or the seats' average."),
]
Day = Annotated[
    str | None,
    Query(
        pattern=r"^\d{4}-\d{2}-\d{2}$",
        description="The challenge's day, YYYY-MM-DD (default: today, UTC).",
    ),
]


class CreateSet(RulesRequest):
    """A new duplicate set: a shipped ``game`` or an uploaded ``ruleset_toml``, with
    options, a number of players and, if wanted, the seed its deals come from."""

    players: int | None = Field(default=None, ge=1, le=16)
    seed: int | None = Field(default=None, ge=0, le=2**32 - 1)
    name: str | None = Field(default=None, max_length=60, description="The set's name.")


class SetInfo(BaseModel):
    """A set as everyone sees it (no deals, no token)."""

    id: str
    name: str | None
    game: str
    game_name: str = Field(description="The game's name, as people call it.")
    preset: str | None
    options: dict[str, object]
    players: int
    hands: int
    day: str | None = Field(description="A daily challenge's day (None: a set someone made).")
    created_at: datetime.datetime
    club: ClubPlace | None = Field(
        default=None,
        description="The club and evening the set was made for (null: none); anyone who"
        " may read the set reads them (docs/clubs.md).",
    )


class CreatedSet(BaseModel):
    """A made set and its host token (keep it: it makes the set's tables)."""

    set: SetInfo
    host_token: str


class SetTable(BaseModel):
    """A table of a set."""

    table: str
    number: int
    status: str
    hands_played: int


class BoardRow(BaseModel):
    """An entrant's comparison on one board (docs/duplicate.md, Scoring)."""

    hand: int
    score: float
    entrants: int
    matchpoints: int
    top: int
    percent: float
    against_average: float


class StandingRow(BaseModel):
    """An entrant: one seat at one table, and their evening."""

    table: str
    number: int
    seat: int
    name: str
    account: str | None = Field(
        default=None, description="The account the seat is linked to (None: none)."
    )
    bot: str | None = Field(description="The bot playing the seat (None: a person).")
    hands: int
    score: float
    matchpoints: int
    top: int
    percent: float
    against_average: float
    boards: list[BoardRow]


class SetStandings(BaseModel):
    """A set, its tables and the standings, best first."""

    set: SetInfo
    order: Literal["matchpoints", "average"]
    tables: list[SetTable]
    hands_shown: list[int] = Field(
        description="The hands whose results these standings count: those the viewer may"
        " see (docs/duplicate.md, No peeking)."
    )
    standings: list[StandingRow]


class CreateSetTable(Body):
    """A table of the set: its seats, as ``POST /tables`` takes them."""

    seats: list[str] | None = Field(default=None, max_length=16)
    name: str | None = Field(default=None, max_length=40)
    host_seat: int | None = Field(default=None, ge=0)
    public: bool = False
    grace_seconds: float = Field(default=60.0, ge=0.05, le=3600.0)
    move_timer: float | None = Field(default=None, ge=0.05, le=3600.0)
    away_bot: str = Field(default="easy", max_length=100)
    hints: bool = False


class PlayDaily(Body):
    """A person's table of the day's challenge."""

    name: str = Field(default="", max_length=40, description="Your name (default 'Seat 1').")


class DailyGame(BaseModel):
    """A game with a daily challenge."""

    game: str
    name: str
    players: int
    hands: int


def daily_games() -> list[DailyGame]:
    """Every shipped game that has a daily challenge (it can be dealt duplicate at its
    daily number of players), in the order the games are listed."""
    games = []
    for name in list_rulesets():
        rules = load_ruleset(name)
        players = default_players(rules)
        if duplicate_refusal(rules, players) is None:
            hands = set_hands(rules, players)
            games.append(DailyGame(game=name, name=rules.name, players=players, hands=hands))
    return games


class PlayedTodayError(NotPossibleNowError):
    """The person has a table of today's challenge already (docs/duplicate.md, Once a
    day); the problem's ``table`` is its id."""

    def __init__(self, table_id: str) -> None:
        super().__init__(
            "played-today",
            f"You have played today's challenge already: your table is #/table/{table_id}.",
        )
        self.table = table_id

    def extra(self) -> dict[str, object]:
        """The person's table of today's challenge."""
        return {"table": self.table}


def hands_shown(data: SetData, finished: dict[str, set[int]], mine: set[str]) -> set[int]:
    """The hands whose results a viewer sitting at the tables ``mine`` of the set may see,
    each table's finished hands given by ``finished`` (docs/duplicate.md, No peeking): a
    hand every one of the viewer's tables has finished; and a hand every table of the set
    has finished, or, for a daily challenge, every hand once its day is over (new tables
    of it may be made all day)."""
    shown: set[int] = set()
    if data.day is not None:
        today = datetime.datetime.now(datetime.UTC).date().isoformat()
        if data.day < today:
            shown = set(range(1, data.duplicate.hands + 1)) | set().union(*finished.values())
    elif finished:
        shown = set.intersection(*finished.values())
    if mine:
        shown |= set.intersection(*(finished.get(table, set()) for table in mine))
    return shown


class SetNotFoundError(NotFoundError):
    """There is no set of that id."""

    def __init__(self, set_id: str) -> None:
        super().__init__("no-set", f"There is no duplicate set {set_id!r}.")


def _info(data: SetData, club: ClubPlace | None = None) -> SetInfo:
    duplicate = data.duplicate
    return SetInfo(
        id=data.id,
        name=data.name,
        game=duplicate.game,
        game_name=str(duplicate.ruleset.get("name", duplicate.game)),
        preset=data.preset,
        options=dict(duplicate.options),
        players=duplicate.players,
        hands=duplicate.hands,
        day=data.day,
        created_at=data.created_at,
        club=club,
    )


def _new_set(request: CreateSet) -> tuple[SetData, str]:
    rules, toml = load_rules(request)
    players = request.players or default_players(rules)
    try:
        rules.check_players(players)
    except RulesetError as exc:
        raise InvalidRequestError("bad-players", str(exc), field="players") from None
    seed = request.seed if request.seed is not None else secrets.randbits(32)
    try:
        duplicate = make_set(rules, players=players, seed=seed)
    except DuplicateError as exc:
        raise InvalidRequestError("not-duplicate", str(exc), field="game") from None
    token = new_token()
    name = " ".join((request.name or "").split()) or None
    data = SetData(
        id=secrets.token_urlsafe(9),
        name=name,
        preset=request.game,
        ruleset_toml=toml,
        duplicate=duplicate,
        host_token_hash=hash_token(token),
        day=None,
        created_at=now(),
    )
    return data, token


def _daily(game: str, day: str, secret: bytes) -> SetData:
    try:
        rules = load_ruleset(game) if "/" not in game and not game.endswith(".toml") else None
    except (RulesetError, LookupError, ValueError):
        rules = None
    if rules is None:
        raise NotFoundError("no-game", f"There is no game {game!r}.")
    date = datetime.date.fromisoformat(day)
    try:
        duplicate = make_set(
            rules, players=default_players(rules), seed=daily_seed(date, rules.id, secret)
        )
    except DuplicateError as exc:
        raise NotFoundError("no-daily", f"No daily challenge: {exc}") from None
    return SetData(
        id=secrets.token_urlsafe(9),
        name=f"{rules.name}, {day}",
        preset=game,
        ruleset_toml=None,
        duplicate=duplicate,
        host_token_hash=None,
        day=day,
        created_at=now(),
    )


@dataclass(frozen=True, slots=True)
class TableScores:
    """A table's part of a set's standings: its results (the entrants named by
    ``number:seat``), each entrant's table, number, seat, name and bot, and its row."""

    results: list[Result]
    about: dict[str, tuple[str, int, int, str, str | None]]
    table: SetTable


def _replayed(data: SetData, events: list[list[object]]) -> GameState:
    """The first game of a table of the set after its stored ``events``."""
    duplicate = data.duplicate
    record = GameRecord(
        game=duplicate.game,
        ruleset=dict(duplicate.ruleset),
        options=dict(duplicate.options),
        players=duplicate.players,
        seed=duplicate.seed,
        first_dealer=duplicate.new_game().first_dealer,
        first_dealer_given=False,
        events=events,
        final_scores=None,
        finished=False,
    )
    return record.replay()


def duplicate_router(service: TableService) -> APIRouter:
    """The ``/duplicate`` API over the table service's tables."""
    router = APIRouter()
    problems = PROBLEM_RESPONSES
    service.belonging.deals_of = store.table_deals
    finished: dict[str, TableScores] = {}
    """The scores of the tables whose first game is over (they never change), by table
    id: such a table is not loaded again to count it."""

    async def load(set_id: str) -> SetData:
        found = await service.db(store.load_set, set_id)
        if found is None:
            raise SetNotFoundError(set_id)
        return found

    async def first_game(data: SetData, table_id: str) -> tuple[GameState | None, bool]:
        """The table's first game as it stands, and whether it is over."""
        live = await service.live(table_id)
        number = live.data.game_number
        if number == 0:
            return None, False
        if number == 1 and live.state is not None:
            return live.state, live.state.is_terminal()
        stored = effective(await service.db(game_events, table_id, 1))[0]
        state = await asyncio.to_thread(_replayed, data, [[e.who, e.text] for e in stored])
        return state, state.is_terminal()

    async def table_scores(data: SetData, table_id: str, number: int) -> TableScores:
        """A table's results so far, its seats' names and its progress."""
        kept = finished.get(table_id)
        if kept is not None:
            return kept
        live = await service.live(table_id)
        about = {
            f"{number}:{held.seat}": (
                table_id,
                number,
                held.seat,
                held.name or default_seat_name(held.seat),
                held.bot,
            )
            for held in live.data.seats
        }
        state, over = await first_game(data, table_id)
        entrants = [f"{number}:{s}" for s in range(data.duplicate.players)]
        results = table_results(state, entrants) if state is not None else []
        played = len(state.history) if state is not None else 0
        status = "finished" if over else live.data.status
        scores = TableScores(
            results,
            about,
            SetTable(table=table_id, number=number, status=status, hands_played=played),
        )
        if over and len(finished) < 10_000:  # a finished first game never changes
            finished[table_id] = scores
        return scores

    async def standings_of(
        data: SetData, order: Method, seat_token: str | None, user: User | None
    ) -> SetStandings:
        tables: list[SetTable] = []
        results: list[Result] = []
        finished_hands: dict[str, set[int]] = {}
        about: dict[str, tuple[str, int, int, str, str | None]] = {}
        for table_id, number in await service.db(store.set_tables, data.id):
            scores = await table_scores(data, table_id, number)
            results.extend(scores.results)
            finished_hands[table_id] = {result.hand for result in scores.results}
            about.update(scores.about)
            tables.append(scores.table)
        mine = await service.db(
            store.viewer_tables, data.id, seat_token, None if user is None else user.id
        )
        shown = hands_shown(data, finished_hands, mine)
        accounts = await service.db(store.seat_accounts, data.id)
        rows = []
        visible = [result for result in results if result.hand in shown]
        for row in standings(visible, method=order):
            table_id, number, seat, name, bot = about[row.entrant]
            account = accounts.get((table_id, seat))
            rows.append(
                StandingRow(
                    table=table_id,
                    number=number,
                    seat=seat,
                    name=account or name,
                    account=account,
                    bot=bot,
                    hands=row.hands,
                    score=row.score,
                    matchpoints=row.matchpoints,
                    top=row.top,
                    percent=round(row.percent, 2),
                    against_average=round(row.against_average, 2),
                    boards=[
                        BoardRow(
                            hand=b.hand,
                            score=b.score,
                            entrants=b.entrants,
                            matchpoints=b.matchpoints,
                            top=b.top,
                            percent=round(b.percent, 2),
                            against_average=round(b.against_average, 2),
                        )
                        for b in row.boards
                    ],
                )
            )
        return SetStandings(
            set=_info(data, await service.belonging.set_club(data.id)),
            order=order,
            tables=tables,
            hands_shown=sorted(shown),
            standings=rows,
        )

    async def watch_refusal(table_id: str) -> str | None:
        """Why a table of a set may not be watched, nor its first game's record read, just
        now (docs/duplicate.md, No peeking); None for any other table."""
        set_id = await service.db(store.set_of_table, table_id)
        if set_id is None:
            return None
        data = await load(set_id)
        if data.day is not None:
            if data.day < datetime.datetime.now(datetime.UTC).date().isoformat():
                return None
            return (
                "A table of the daily challenge can be watched, and its record read, once the"
                " day is over (UTC): its cards are everyone's to play today."
            )
        for other, number in await service.db(store.set_tables, data.id):
            if (await table_scores(data, other, number)).table.status != "finished":
                return (
                    "The tables of a duplicate set can be watched, and their records read,"
                    " once every table of the set has finished: its players would see cards"
                    " still ahead of them."
                )
        return None

    service.watch_refusal = watch_refusal

    async def make_table(data: SetData, request: CreateTable) -> CreatedTable:
        table, toml, host_token, seat_token = await asyncio.to_thread(_new_table, request)
        live = await service.create(table, toml, deals=data.duplicate.deals)
        await service.db(store.add_table, data.id, table.id)
        return CreatedTable(
            table=live.info(),
            host_token=host_token,
            invite=table.invite_code,
            seat=request.host_seat,
            seat_token=seat_token,
        )

    def table_request(data: SetData, **fields: object) -> CreateTable:
        duplicate = data.duplicate
        return CreateTable.model_validate(
            {
                "game": data.preset,
                "ruleset_toml": data.ruleset_toml,
                "options": dict(duplicate.options),
                "players": duplicate.players,
                "seed": duplicate.seed,
                **fields,
            }
        )

    @router.post("/duplicate", status_code=201, responses=problems)
    async def create_set(request: CreateSet) -> CreatedSet:
        """Make a duplicate set: its deals are fixed now (docs/duplicate.md)."""
        data, token = await asyncio.to_thread(_new_set, request)
        stored = await service.db(store.create_set, data)
        return CreatedSet(set=_info(stored), host_token=token)

    listed: list[DailyGame] = []

    @router.get("/duplicate/daily", responses=problems)
    async def list_daily_games() -> list[DailyGame]:
        """The games that have a daily challenge."""
        if not listed:
            listed.extend(await asyncio.to_thread(daily_games))
        return listed

    @router.get("/duplicate/{set_id}", responses=problems)
    async def set_standings(
        set_id: str,
        user: Viewer,
        order: Order = "matchpoints",
        authorization: ViewerHeader = None,
    ) -> SetStandings:
        """A set, its tables and its standings: the hands the viewer may see."""
        return await standings_of(await load(set_id), order, bearer(authorization), user)

    @router.post("/duplicate/{set_id}/tables", status_code=201, responses=problems)
    async def create_set_table(
        set_id: str, request: CreateSetTable, authorization: AuthHeader = None
    ) -> CreatedTable:
        """The set's host makes a table of the set (its seats as ``POST /tables``)."""
        data = await load(set_id)
        token = bearer(authorization)
        if token is None:
            raise NotSignedInError("no-token", "Send the set's host token to make its tables.")
        if data.host_token_hash is None or not secrets.compare_digest(
            hash_token(token), data.host_token_hash
        ):
            raise NotAllowedError("not-host", "Only the set's host makes its tables.")
        return await make_table(data, table_request(data, **request.model_dump()))

    async def daily(game: str, day: str | None) -> SetData:
        when = day or datetime.datetime.now(datetime.UTC).date().isoformat()
        try:
            datetime.date.fromisoformat(when)
        except ValueError:
            raise InvalidRequestError("bad-day", f"{when!r} is not a day.", field="day") from None
        found = await service.db(store.daily_set, game, when)
        if found is not None:
            return found
        secret = await service.db(store.server_secret, DAILY_SECRET)
        made = await asyncio.to_thread(_daily, game, when, secret)
        return await service.db(store.create_set, made)

    @router.get("/duplicate/daily/{game}", responses=problems)
    async def daily_standings(
        game: str,
        user: Viewer,
        day: Day = None,
        order: Order = "matchpoints",
        authorization: ViewerHeader = None,
    ) -> SetStandings:
        """A game's daily challenge (today's, UTC, unless ``day``) and its standings: the
        hands the viewer may see."""
        return await standings_of(await daily(game, day), order, bearer(authorization), user)

    once_a_day = asyncio.Lock()
    """Held while a signed-in person's (or a known browser's) table of the day is made."""

    @router.post("/duplicate/daily/{game}/play", status_code=201, responses=problems)
    async def play_daily(
        game: str, request: PlayDaily, user: Viewer, authorization: ViewerHeader = None
    ) -> CreatedTable:
        """A table of today's challenge for one person: seat 0 theirs, every other seat
        the challenge's bots; the person is its host and starts it. Once a day: a
        signed-in user whose account already has a seat at a table of it, or a browser
        that sends the seat token of one, is refused with that table."""
        data = await daily(game, None)
        token = bearer(authorization)
        if user is None and token is None:  # nothing to check a second try by
            return await play_once(data, request, None, None)
        async with once_a_day:  # a double click is refused too (in this process)
            return await play_once(data, request, user, token)

    async def play_once(
        data: SetData, request: PlayDaily, user: User | None, token: str | None
    ) -> CreatedTable:
        players = data.duplicate.players
        played = await service.db(
            store.viewer_tables, data.id, token, None if user is None else user.id
        )
        if played:
            raise PlayedTodayError(sorted(played)[0])
        made = await make_table(
            data,
            table_request(
                data,
                seats=["human"] + [DAILY_BOT] * (players - 1),
                host_seat=0,
                name=request.name or (user.name if user is not None else None),
                public=False,
            ),
        )
        if user is not None:
            await service.db(store.link_seat, user.id, made.table.id, 0)
        return made

    return router
