"""A club's results, worked out from what its evenings played: each table's game (the
engine's state, never sent) and each score sheet's game, with the member at each seat.

Three things are made of them (docs/clubs.md, Standings): the season's standings by
**points** (every game's final score summed, wins and games beside it), the season's
standings by **duplicate matchpoints** (:mod:`tricktaker.duplicate` over each
duplicate evening's tables, a member's matchpoints summed over the season and divided
by the tops of the boards they played), and the members' statistics
(:func:`tricktaker.stats.statistics` over the club's games alone). Pure: no server.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from tricktaker.duplicate import Result, standings, table_results
from tricktaker.engine import GameState
from tricktaker.stats import GameLine, game_line, statistics

Order = Literal["points", "matchpoints"]


@dataclass(frozen=True, slots=True)
class ClubGame:
    """A game of one of the club's evenings: a table's or a score sheet's."""

    evening: str
    day: str
    kind: Literal["table", "sheet"]
    key: str
    """The table's or sheet's id."""
    state: GameState
    """The game as it stands (its finished hands count)."""
    people: Mapping[int, int]
    """The member (user id) at each seat that has one."""
    duplicate: bool = False
    """Whether the table is one of a duplicate evening's (its deals the set's)."""
    number: int = 0
    """The table's number in its evening."""

    @property
    def finished(self) -> bool:
        """Whether the game is over."""
        return self.state.is_terminal()

    def line(self, seat: int) -> GameLine:
        """The seat's part of the game (its statistics' input)."""
        return game_line(self.state, seat)


@dataclass(slots=True)
class PointsRow:
    """A member's season by points."""

    user_id: int
    games: int = 0
    finished: int = 0
    wins: int = 0
    points: int = 0
    hands: int = 0

    def to_json(self, name: str) -> dict[str, Any]:
        """The row as JSON, with the member's name."""
        per_game = self.points / self.finished if self.finished else None
        return {
            "name": name,
            "games": self.games,
            "finished": self.finished,
            "wins": self.wins,
            "points": self.points,
            "hands": self.hands,
            "points_per_game": None if per_game is None else round(per_game, 2),
        }


@dataclass(slots=True)
class MatchpointsRow:
    """A member's season by duplicate matchpoints."""

    user_id: int
    evenings: set[str] = field(default_factory=set)
    boards: int = 0
    matchpoints: int = 0
    top: int = 0
    against_average: float = 0.0

    @property
    def percent(self) -> float:
        """Matchpoints over the tops of the boards played, in percent (50 with none)."""
        return 100.0 * self.matchpoints / self.top if self.top else 50.0

    def to_json(self, name: str) -> dict[str, Any]:
        """The row as JSON, with the member's name."""
        return {
            "name": name,
            "evenings": len(self.evenings),
            "boards": self.boards,
            "matchpoints": self.matchpoints,
            "top": self.top,
            "percent": round(self.percent, 2),
            "against_average": round(self.against_average, 2),
        }


def points_standings(games: Iterable[ClubGame]) -> list[PointsRow]:
    """Every member's season by points: their seats' final scores summed over finished
    games (tables and sheets alike), best first (ties: more wins, fewer games); a member
    with no finished game is left out."""
    rows: dict[int, PointsRow] = {}
    for game in games:
        for seat, user in game.people.items():
            row = rows.setdefault(user, PointsRow(user))
            line = game.line(seat)
            row.games += 1
            row.hands += len(line.hands)
            if line.finished:
                row.finished += 1
                row.points += line.total
                row.wins += line.place == 1
    counted = [row for row in rows.values() if row.finished]
    return sorted(counted, key=lambda r: (-r.points, -r.wins, r.games, r.user_id))


def evening_duplicate(
    games: Iterable[ClubGame], hands: int | None = None
) -> tuple[list[Any], dict[str, tuple[int, int]]]:
    """One duplicate evening's standings (:func:`tricktaker.duplicate.standings`, by
    matchpoints) over its tables' finished hands (the first ``hands`` only, when
    given), and each entrant's ``(table number, seat)``; an entrant is named
    ``"number:seat"``."""
    results: list[Result] = []
    where: dict[str, tuple[int, int]] = {}
    for game in games:
        entrants = [f"{game.number}:{seat}" for seat in range(game.state.players)]
        for seat, name in enumerate(entrants):
            where[name] = (game.number, seat)
        found = table_results(game.state, entrants)
        results.extend(r for r in found if hands is None or r.hand <= hands)
    return standings(results), where


def matchpoints_standings(games: Iterable[ClubGame]) -> list[MatchpointsRow]:
    """Every member's season by duplicate matchpoints: each duplicate evening scored
    on its own (everyone who held the same cards that evening, bots included), a
    member's matchpoints and tops summed over the evenings; best percentage first."""
    by_evening: dict[str, list[ClubGame]] = {}
    for game in games:
        if game.duplicate:
            by_evening.setdefault(game.evening, []).append(game)
    rows: dict[int, MatchpointsRow] = {}
    for evening, tables in by_evening.items():
        people = {f"{g.number}:{seat}": user for g in tables for seat, user in g.people.items()}
        ranked, _where = evening_duplicate(tables)
        for standing in ranked:
            user = people.get(standing.entrant)
            if user is None:
                continue
            row = rows.setdefault(user, MatchpointsRow(user))
            row.evenings.add(evening)
            row.boards += standing.hands
            row.matchpoints += standing.matchpoints
            row.top += standing.top
            row.against_average += standing.against_average
    return sorted(rows.values(), key=lambda r: (-round(r.percent, 9), -r.boards, r.user_id))


def member_statistics(games: Iterable[ClubGame]) -> dict[int, list[dict[str, Any]]]:
    """Each member's statistics over the club's games (:mod:`tricktaker.stats`, per
    ruleset fingerprint): the tables' games count once they are over, a sheet's hands
    as soon as they are entered (as the players' pages count them)."""
    tables: dict[int, list[GameLine]] = {}
    sheets: dict[int, list[GameLine]] = {}
    for game in games:
        if game.kind == "table" and not game.finished:
            continue
        into = tables if game.kind == "table" else sheets
        for seat, user in game.people.items():
            line = game.line(seat)
            if line.hands:
                into.setdefault(user, []).append(line)
    users = set(tables) | set(sheets)
    return {
        user: [entry.to_json() for entry in statistics(tables.get(user, []), sheets.get(user, []))]
        for user in users
    }
