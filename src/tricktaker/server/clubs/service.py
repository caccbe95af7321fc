"""The club service: a club's members and roles checked, its tables and sheets read
into what the club's page shows (never a card), and the games its results are made of
(:mod:`tricktaker.server.clubs.results`)."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from tricktaker.duplicate import DuplicateError, make_set
from tricktaker.engine import GameState
from tricktaker.rules import Ruleset, RulesetError
from tricktaker.rules.ruleset import ruleset_from_data
from tricktaker.server.accounts import store as accounts
from tricktaker.server.clubs import store
from tricktaker.server.clubs.results import ClubGame
from tricktaker.server.clubs.store import ORGANISER, Club, Evening
from tricktaker.server.db import now
from tricktaker.server.duplicate.store import SetData
from tricktaker.server.errors import InvalidRequestError, NotAllowedError, NotFoundError
from tricktaker.server.sheets.service import SheetService, build_sheet
from tricktaker.server.sheets.store import load_sheet
from tricktaker.server.tables.live import Live
from tricktaker.server.tables.service import TableService


class ClubNotFoundError(NotFoundError):
    """No club of that id."""

    def __init__(self) -> None:
        super().__init__("no-club", "There is no such club.")


class NotMemberError(NotAllowedError):
    """The user is not a member of the club."""

    def __init__(self) -> None:
        super().__init__("not-member", "Only the club's members see it: ask for an invitation.")


class NotOrganiserError(NotAllowedError):
    """The user is not one of the club's organisers."""

    def __init__(self) -> None:
        super().__init__("not-organiser", "Only the club's organisers do that.")


def _over(state: GameState | None) -> bool:
    """Whether a table's game is over (False before it starts)."""
    return state is not None and state.is_terminal()


def _scores(state: GameState | None, shown: int | None) -> list[int] | None:
    """Each seat's total (None before the game): over its first ``shown`` hands only
    when given (a duplicate evening's tables show the hands every table has finished)."""
    if state is None:
        return None
    if shown is None:
        return list(state.scores)
    hands = state.history[:shown]
    return [sum(hand.hand_scores[seat] for hand in hands) for seat in range(state.players)]


def club_rules(club: Club) -> Ruleset:
    """The club's house rules, from the data stored with it."""
    return ruleset_from_data(club.ruleset_data, options=club.options, source=club.game)


def club_hands(rules: Ruleset, players: int) -> int | None:
    try:
        return len(rules.hands_for(players))
    except RulesetError:
        return None


class Clubs:
    """The club service on the table service's database."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self.database = service.database
        self.sheets = SheetService(service.database)
        self._finished: dict[str, GameState] = {}
        """Tables' games that are over (they never change), by table id."""
        self._rules: dict[str, tuple[Ruleset, str]] = {}

    def rules(self, club: Club) -> Ruleset:
        """The club's ruleset, built once."""
        found = self._rules.get(club.id)
        if found is None or found[1] != club.fingerprint:
            found = (club_rules(club), club.fingerprint)
            self._rules[club.id] = found
        return found[0]

    async def member(self, club_id: str, user: accounts.User) -> tuple[Club, str]:
        """The club and the user's role in it (404 no club, 403 not a member)."""
        club = await self.database.run(store.load_club, club_id)
        if club is None:
            raise ClubNotFoundError()
        role = await self.database.run(store.role_of, club_id, user.id)
        if role is None:
            raise NotMemberError()
        return club, role

    async def organiser(self, club_id: str, user: accounts.User) -> Club:
        """The club, when the user is one of its organisers (else 403)."""
        club, role = await self.member(club_id, user)
        if role != ORGANISER:
            raise NotOrganiserError()
        return club

    async def evening(self, club: Club, evening_id: str) -> Evening:
        """The club's evening (404 when it has none of that id)."""
        found = await self.database.run(store.load_evening, club.id, evening_id)
        if found is None:
            raise NotFoundError("no-evening", "The club has no such evening.")
        return found

    async def table(self, club: Club, table_id: str) -> tuple[store.ClubTable, Live]:
        """One of the club's tables (404 when it is not the club's)."""
        found = await self.database.run(store.club_table, club.id, table_id)
        if found is None:
            raise NotFoundError("no-table", "The club has no such table.")
        return found, await self.service.live(table_id)

    async def game_of(self, table_id: str) -> tuple[Live, GameState | None]:
        """A table and its (first and only) game as it stands (None: not started)."""
        kept = self._finished.get(table_id)
        live = await self.service.live(table_id)
        if kept is not None:
            return live, kept
        state = live.state if live.data.game_number == 1 else None
        if state is not None and state.is_terminal() and len(self._finished) < 10_000:
            self._finished[table_id] = state
        return live, state

    async def games(
        self, club: Club, evenings: list[Evening], *, running: bool = False
    ) -> list[ClubGame]:
        """Every game of the evenings: their tables' (started ones) and their sheets'.
        A duplicate evening's tables count once every one of them is over (before, a
        table's results would tell the others' players the cards to come), unless
        ``running`` (the caller then shows only the hands every table has finished)."""
        by_id = {e.id: e for e in evenings}
        ids = list(by_id)
        tables = await self.database.run(store.evening_tables, ids)
        people = await self.database.run(store.seat_users, [t.table_id for t in tables])
        members = {m.user_id for m in await self.database.run(store.members, club.id)}
        states = {t.table_id: (await self.game_of(t.table_id))[1] for t in tables}
        playing = {  # evenings with a table not over (or not started)
            t.evening_id for t in tables if not _over(states[t.table_id])
        }
        found: list[ClubGame] = []
        for table in tables:
            state = states[table.table_id]
            evening = by_id[table.evening_id]
            if state is None or (
                evening.kind == "duplicate" and evening.id in playing and not running
            ):
                continue
            seated = {s: u for s, u in people.get(table.table_id, {}).items() if u in members}
            found.append(
                ClubGame(
                    evening=evening.id,
                    day=evening.day,
                    kind="table",
                    key=table.table_id,
                    state=state,
                    people=seated,
                    duplicate=evening.kind == "duplicate",
                    number=table.number,
                )
            )
        for sheet in await self.database.run(store.evening_sheets, ids):
            state = await self.sheet_state(sheet.sheet_id)
            if state is None:
                continue
            evening = by_id[sheet.evening_id]
            seated = {s: u for s, u in enumerate(sheet.members) if u is not None and u in members}
            found.append(ClubGame(evening.id, evening.day, "sheet", sheet.sheet_id, state, seated))
        return found

    async def sheet_state(self, sheet_id: str) -> GameState | None:
        """A sheet's game as its hands stand (None: the sheet is gone)."""
        stored = await self.database.run(load_sheet, sheet_id, None)
        if stored is None:
            return None
        sheet = (await asyncio.to_thread(build_sheet, stored))[0]
        return sheet.game_copy()

    async def table_view(
        self, club: Club, table: store.ClubTable, names: dict[int, str], shown: int | None = None
    ) -> dict[str, Any]:
        """A table as the club's page shows it: its state, hand and seats, its scores
        (public at the table too); never a card."""
        live, state = await self.game_of(table.table_id)
        data = live.data
        people = (await self.database.run(store.seat_users, [table.table_id])).get(
            table.table_id, {}
        )
        info = live.info()
        seats = []
        for seat in info.seats:
            user = people.get(seat.seat)
            seats.append(
                {
                    "seat": seat.seat,
                    "name": seat.name,
                    "state": seat.state,
                    "bot": seat.bot,
                    "member": names.get(user) if user is not None else None,
                }
            )
        played = len(state.history) if state is not None else 0
        over = state is not None and state.is_terminal()
        return {
            "table": table.table_id,
            "number": table.number,
            "status": "finished" if over else data.status,
            "hands_played": played,
            "hand": None if state is None or over else played + 1,
            "hands": club_hands(self.rules(club), data.players),
            "seats": seats,
            "scores": _scores(state, shown),
            "link": f"#/table/{table.table_id}",
        }

    async def sheet_view(self, sheet: store.ClubSheet, names: dict[int, str]) -> Any:
        """A sheet as the club's page shows it: players, hands entered, totals."""
        stored = await self.database.run(load_sheet, sheet.sheet_id, None)
        if stored is None:
            return None
        built = (await asyncio.to_thread(build_sheet, stored))[0]
        state = built.game_copy()
        return {
            "sheet": sheet.sheet_id,
            "players": list(built.players),
            "members": [names.get(u) if u is not None else None for u in sheet.members],
            "hands": len(built.rows),
            "over": built.is_over(),
            "scores": list(state.scores),
        }


def duplicate_set(club: Club, rules: Ruleset, name: str | None) -> SetData:
    """A duplicate evening's set, with the club's house rules (no host token: the
    club's organisers make its tables through the club)."""
    try:
        duplicate = make_set(rules, players=club.players, seed=secrets.randbits(32))
    except DuplicateError as exc:
        raise InvalidRequestError("not-duplicate", str(exc), field="kind") from None
    return SetData(
        id=secrets.token_urlsafe(9),
        name=(" ".join((name or "").split()) or f"{club.name}")[:60],
        preset=club.preset,
        ruleset_toml=club.ruleset_toml,
        duplicate=duplicate,
        host_token_hash=None,
        day=None,
        created_at=now(),
    )
