"""A player's page on the server (issue 31; docs/players.md, docs/protocol.md
"Players"): ``GET /api/players/{name}`` and ``GET /api/players/{name}/games``.

Everything is worked out from what is stored: the records of the finished games of the
tables whose seats are linked to the user, and the score sheets linked to them (the
column a club's evening recorded for the user, else the one whose player has the
user's name, in any case). A game still being
played is never read: its record is not public (it holds every hand), and the page
shows nothing of it. Statistics and ratings are :mod:`tricktaker.stats`'.

Who sees what: the user chooses (:mod:`tricktaker.server.players.privacy`: the page, the
history, the sheets and the ratings, each to everyone, to their clubs' members or to
nobody else; ``GET``/``PUT /api/me/privacy``). What is shared shows the history of games
at public tables only; the user themself sees everything, their games at unlisted
tables too. A finished game's summary never changes, so each is read once per server
process and kept (:data:`GAMES_KEPT` of them).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query
from pydantic import ConfigDict

from tricktaker.engine import GameRecord, RecordError
from tricktaker.present.text import default_seat_name
from tricktaker.server.accounts import SignedInUser, optional_user
from tricktaker.server.accounts.deletion import DELETED_NAME
from tricktaker.server.accounts.passwords import name_key
from tricktaker.server.accounts.store import User, deleted_among
from tricktaker.server.deps import Body
from tricktaker.server.errors import NotAllowedError, NotFoundError, RefusedError
from tricktaker.server.players import store
from tricktaker.server.players.privacy import (
    Audience,
    load_privacy,
    relation_of,
    save_privacy,
    shown_to,
)
from tricktaker.server.problems import PROBLEM_RESPONSES
from tricktaker.server.sheets.service import build_sheet
from tricktaker.server.sheets.store import load_sheet
from tricktaker.server.tables.service import TableService
from tricktaker.stats import (
    GameLine,
    RulesLabel,
    game_line,
    rate_people,
    rated_game,
    seat_teams,
    statistics,
)
from tricktaker.stats.games import team_totals

log = logging.getLogger("tricktaker.server")

GAMES_KEPT = 20_000
"""Finished games' summaries kept in memory (the least recently used go first)."""

PAGE_SIZE = 20
"""Games of the history in the page's first answer, and by default in a page of it."""

PAGE_MOST = 100
"""The most games one page of the history may ask for."""


class PlayerNotFoundError(NotFoundError):
    """No user has that name."""

    def __init__(self) -> None:
        super().__init__("no-player", "No player has that name.")


class NotSharedError(NotAllowedError):
    """The player does not share this with the one asking."""

    def __init__(self, what: str) -> None:
        super().__init__("not-shared", f"This player does not share {what} with you.")


class PrivacyIn(Body):
    """New sharing settings: any of the parts, each ``public`` (everyone), ``clubs``
    (the members of your clubs) or ``private`` (you alone); a part left out keeps its
    setting. Another field is refused (422)."""

    model_config = ConfigDict(strict=True, extra="forbid")

    page: Audience | None = None
    history: Audience | None = None
    sheets: Audience | None = None
    ratings: Audience | None = None


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished game, summed up once: each seat's part, the teams that rank, their
    totals, the seats' names."""

    lines: tuple[GameLine, ...]
    teams: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    names: tuple[str, ...]

    @property
    def label(self) -> RulesLabel:
        return self.lines[0].label


def _finished(data: dict[str, Any]) -> Finished:
    record = GameRecord.from_json(data)
    state = record.replay()
    names = record.names or [default_seat_name(s) for s in range(state.players)]
    return Finished(
        lines=tuple(game_line(state, seat) for seat in range(state.players)),
        teams=seat_teams(state),
        totals=team_totals(state),
        names=tuple(names),
    )


@dataclass(frozen=True, slots=True)
class Played:
    """One of the player's seats in a finished game."""

    table: store.LinkedTable
    game: int
    seat: int
    finished_at: datetime | None
    summary: Finished

    @property
    def line(self) -> GameLine:
        return self.summary.lines[self.seat]

    def sort_key(self) -> tuple[float, str, int, int]:
        stamp = self.finished_at.timestamp() if self.finished_at is not None else 0.0
        return (stamp, self.table.id, self.game, self.seat)

    def to_json(self) -> dict[str, Any]:
        line = self.line
        link = f"#/replay/{self.table.id}?game={self.game}"
        return {
            "table": self.table.id,
            "game": self.game,
            "seat": self.seat,
            "finished_at": None if self.finished_at is None else self.finished_at.isoformat(),
            "rules": line.label.to_json(),
            "players": line.players,
            "names": list(self.summary.names),
            "hands": len(line.hands),
            "total": line.total,
            "place": line.place,
            "cooperative": line.cooperative,
            "score_unit": line.score_unit,
            "replay": link,
            "review": f"{link}&review={self.seat}",
        }


@dataclass(frozen=True, slots=True)
class SheetPart:
    """A score sheet the user keeps, and their column in it: the column a club's
    evening recorded for them, else the one whose player has their name (None: neither,
    so its hands count for nobody's statistics)."""

    id: str
    players: tuple[str, ...]
    seat: int | None
    line: GameLine | None
    """The column's game (None without a column, or with no hand entered)."""
    label: RulesLabel
    hands: int
    over: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "rules": self.label.to_json(),
            "players": list(self.players),
            "seat": self.seat,
            "hands": self.hands,
            "over": self.over,
            "counted": self.line is not None,
            "link": f"#/score/{self.id}",
        }


class Players:
    """The players' pages on the table service's database."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.database = service.database
        self._games: OrderedDict[tuple[str, int], Finished] = OrderedDict()
        self._sheets: dict[tuple[str, int], tuple[int, SheetPart]] = {}

    async def finished(self, table_id: str, number: int) -> Finished | None:
        """The summary of a finished game (None: its record cannot be read)."""
        key = (table_id, number)
        found = self._games.get(key)
        if found is not None:
            self._games.move_to_end(key)
            return found
        try:
            data = await self.service.record(table_id, number)
            found = await asyncio.to_thread(_finished, data)
        except (RefusedError, RecordError) as error:
            log.warning(
                "game %s of table %s left out of the players' pages: %s", number, table_id, error
            )
            return None
        self._games[key] = found
        while len(self._games) > GAMES_KEPT:
            self._games.popitem(last=False)
        return found

    async def played(self, person: store.Person) -> list[Played]:
        """The person's seats in finished games, the latest finished first."""
        tables = await self.database.run(store.tables_of, person.id)
        times = await self.database.run(store.finish_times, [t.id for t in tables])
        people = (user for table in tables for user in table.people.values())
        gone = await self.database.run(deleted_among, people)
        found: list[Played] = []
        for table in tables:
            seats = sorted(seat for seat, user in table.people.items() if user == person.id)
            for number in table.finished_games():
                summary = await self.finished(table.id, number)
                if summary is None:
                    continue
                if gone & set(table.people.values()):  # a deleted account is named so
                    names = [
                        DELETED_NAME if table.people.get(seat) in gone else name
                        for seat, name in enumerate(summary.names)
                    ]
                    summary = dataclasses.replace(summary, names=tuple(names))
                when = times.get((table.id, number))
                found.extend(Played(table, number, seat, when, summary) for seat in seats)
        found.sort(key=Played.sort_key, reverse=True)
        return found

    async def sheet(self, sheet_id: str, person: store.Person) -> SheetPart | None:
        """The person's column of a sheet they keep (None: the sheet is gone)."""
        kept = self._sheets.get((sheet_id, person.id))
        stored = await self.database.run(load_sheet, sheet_id, kept[0] if kept else None)
        if stored is None:
            return None
        if stored.ops is None and kept is not None:
            part = kept[1]
        else:
            sheet = (await asyncio.to_thread(build_sheet, stored))[0]
            names = tuple(sheet.players)
            members = await self.database.run(store.sheet_members, sheet_id)
            keys: list[str | int | None] = (
                [name_key(name) for name in names] if members is None else list(members)
            )
            mine: str | int = name_key(person.name) if members is None else person.id
            seat = keys.index(mine) if mine in keys else None
            state = sheet.game_copy()
            line = game_line(state, seat) if seat is not None and sheet.rows else None
            label = line.label if line is not None else game_line(state, 0).label
            part = SheetPart(sheet_id, names, seat, line, label, len(sheet.rows), sheet.is_over())
            if len(self._sheets) > GAMES_KEPT:
                self._sheets.clear()
            self._sheets[(sheet_id, person.id)] = (stored.seq, part)
        return part

    async def sheets(self, person: store.Person) -> list[SheetPart]:
        """The sheets the person keeps, the latest linked first."""
        ids = await self.database.run(store.sheets_of, person.id)
        parts = [await self.sheet(sheet_id, person) for sheet_id in ids]
        return [part for part in parts if part is not None]

    async def ratings(self) -> tuple[dict[str, dict[Hashable, Any]], dict[str, RulesLabel]]:
        """Every person's ratings per fingerprint, from every rated game in finish
        order, and each fingerprint's label."""
        tables = await self.database.run(store.shared_tables)
        times = await self.database.run(store.finish_times, [t.id for t in tables])
        games = []
        labels: dict[str, RulesLabel] = {}
        for table in tables:
            for number in table.finished_games():
                summary = await self.finished(table.id, number)
                when = times.get((table.id, number))
                if summary is None or when is None:
                    continue
                rated = rated_game(
                    fingerprint=summary.label.fingerprint,
                    finished_at=when,
                    key=f"{table.id}:{number:06d}",
                    teams=summary.teams,
                    totals=summary.totals,
                    people=table.people,
                    cooperative=summary.lines[0].cooperative,
                )
                if rated is not None:
                    games.append(rated)
                    labels[rated.fingerprint] = summary.label
        return dict(rate_people(games)), labels

    async def page(self, person: store.Person, *, viewer: int | None, limit: int) -> dict[str, Any]:
        """The player's page as ``viewer`` (a user id, None: a guest) may see it: who,
        what is shared with them, and of the statistics, the ratings, the first
        ``limit`` games of the history and the sheets kept, what is shared (None for a
        part that is not)."""
        privacy = await self.database.run(load_privacy, person.id)
        relation = await self.database.run(relation_of, person.id, viewer)
        shown = shown_to(privacy, relation)
        own = relation == "self"
        answer: dict[str, Any] = {
            "player": {"name": person.name},
            "own": own,
            "shared": shown,
            "audience": {part: privacy.audience(part) for part in shown},
            "privacy": privacy.to_json() if own else None,
            "statistics": None,
            "ratings": None,
            "history": None,
            "sheets": None,
        }
        if not shown["page"]:
            return answer
        answer["player"]["joined"] = person.created_at.isoformat()
        played = await self.played(person)
        sheets = await self.sheets(person)
        figures = statistics(
            [p.line for p in played], [s.line for s in sheets if s.line is not None]
        )
        answer["statistics"] = [entry.to_json() for entry in figures]
        if shown["ratings"]:
            answer["ratings"] = await self.person_ratings(person)
        if shown["history"]:
            listed = [p for p in played if own or p.table.public]
            answer["history"] = _history_page(listed, 0, limit)
        if shown["sheets"]:
            answer["sheets"] = [part.to_json() for part in sheets]
        return answer

    async def person_ratings(self, person: store.Person) -> list[dict[str, Any]]:
        """The person's ratings, the most games first."""
        rated, labels = await self.ratings()
        ratings = [
            {"rules": labels[key].to_json(), **by_person[person.id].to_json()}
            for key, by_person in rated.items()
            if person.id in by_person
        ]
        ratings.sort(key=lambda r: (-r["games"], r["rules"]["text"]))
        return ratings

    async def history(
        self, person: store.Person, *, viewer: int | None, offset: int, limit: int
    ) -> dict[str, Any]:
        """One page of the player's history (refused when it is not shared with
        ``viewer``)."""
        privacy = await self.database.run(load_privacy, person.id)
        relation = await self.database.run(relation_of, person.id, viewer)
        if not shown_to(privacy, relation)["history"]:
            raise NotSharedError("the history of their games")
        played = await self.played(person)
        listed = [p for p in played if relation == "self" or p.table.public]
        return _history_page(listed, offset, limit)


def _history_page(shown: list[Played], offset: int, limit: int) -> dict[str, Any]:
    page = shown[offset : offset + limit]
    after = offset + len(page)
    return {
        "games": [p.to_json() for p in page],
        "offset": offset,
        "total": len(shown),
        "next_offset": after if after < len(shown) else None,
    }


NamePath = Annotated[str, Path(min_length=1, max_length=64, description="The user name.")]
Viewer = Annotated[User | None, Depends(optional_user)]


def players_router(service: TableService) -> APIRouter:
    """The ``/api/players`` routes, and ``/api/me/privacy``."""
    players = Players(service)
    router = APIRouter(tags=["players"], responses=PROBLEM_RESPONSES)

    async def person_named(name: str) -> store.Person:
        found = await players.database.run(store.person_of, name_key(name))
        if found is None:
            raise PlayerNotFoundError()
        return found

    @router.get("/api/players/{name}")
    async def player(
        name: NamePath,
        viewer: Viewer,
        limit: Annotated[int, Query(ge=1, le=PAGE_MOST)] = PAGE_SIZE,
    ) -> dict[str, Any]:
        """A player's page, as much of it as the player shares with the one asking
        (``shared``, part by part; ``audience``, whom each part is shown to): their
        statistics and ratings per ruleset fingerprint, the first ``limit`` games of
        their history (finished games only; at unlisted tables only for themself), and
        the score sheets they keep. A part not shared is None."""
        person = await person_named(name)
        return await players.page(person, viewer=None if viewer is None else viewer.id, limit=limit)

    @router.get("/api/players/{name}/games")
    async def games(
        name: NamePath,
        viewer: Viewer,
        offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
        limit: Annotated[int, Query(ge=1, le=PAGE_MOST)] = PAGE_SIZE,
    ) -> dict[str, Any]:
        """A page of the player's history, the latest finished first: ``games``,
        ``total`` and the ``next_offset`` (None after the last); 403 ``not-shared``
        when the player does not share their history with the one asking."""
        person = await person_named(name)
        return await players.history(
            person, viewer=None if viewer is None else viewer.id, offset=offset, limit=limit
        )

    @router.get("/api/me/privacy")
    async def my_privacy(signed: SignedInUser) -> dict[str, Any]:
        """What you share, part by part (docs/players.md, What you share)."""
        privacy = await players.database.run(load_privacy, signed.user.id)
        return {"privacy": privacy.to_json()}

    @router.put("/api/me/privacy")
    async def change_privacy(request: PrivacyIn, signed: SignedInUser) -> dict[str, Any]:
        """Change what you share: the parts given; the others keep their setting."""
        current = await players.database.run(load_privacy, signed.user.id)
        wanted = {key: value for key, value in request.model_dump().items() if value is not None}
        changed = current.changed(wanted)
        await players.database.run(save_privacy, signed.user.id, changed)
        return {"privacy": changed.to_json()}

    return router
