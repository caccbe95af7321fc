"""Running totals of ``tricktaker simulate``, by seat.

* A game that declares its ``"stats"`` capability (:mod:`tricktaker.arena.game_stats`):
  its own figures and columns, then the wins. Pluck shows tricks over quota, Euchre its
  partnerships' contracts, Buckup net chips, pots won and burns.
* Any other game (the Oh Hell family): mean score, share of exact bids when every hand
  has every seat's bid, wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields

from rich.table import Table

from tricktaker.arena.game_stats import GameStats, game_stats, percent
from tricktaker.engine import GameState
from tricktaker.rules import Ruleset


def zeros(count: int) -> list[int]:
    return [0] * count


@dataclass
class Tally:
    """Totals per seat common to every game: games, scores, wins."""

    players: int
    games: int = 0
    hands: int = 0
    completed: int = 0
    hands_played: int = 0
    score_sum: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.score_sum = zeros(self.players)
        self.wins = zeros(self.players)

    def add(self, state: GameState) -> None:
        self.games += 1
        self.hands += len(state.history)
        for seat in range(self.players):
            self.score_sum[seat] += state.scores[seat]
        for seat in state.winners():
            self.wins[seat] += 1
        self.completed += int(state.completed)
        self.hands_played += state.hands_played
        self.add_hands(state)

    def add_hands(self, state: GameState) -> None:
        """Per-hand counts of the game's family (none by default)."""

    def merge(self, other: Tally) -> None:
        """Add the totals of ``other``, a tally of the same kind over other games: every
        count (a whole number, or one per seat) is summed; the settings stay."""
        if type(other) is not type(self) or other.players != self.players:
            raise ValueError("only tallies of the same kind and table can be merged")
        for item in fields(self):
            mine, theirs = getattr(self, item.name), getattr(other, item.name)
            if item.name == "players" or isinstance(mine, bool):
                continue
            if isinstance(mine, int):
                setattr(self, item.name, mine + theirs)
            elif isinstance(mine, list):
                setattr(self, item.name, [a + b for a, b in zip(mine, theirs, strict=True)])

    def mean(self, seat: int) -> str:
        return f"{self.score_sum[seat] / self.games:.2f}" if self.games else "-"

    def table(self, bots: Sequence[str]) -> Table:
        table = new_table()
        table.add_column("Mean score", justify="right")
        win_columns(table)
        for seat, name in enumerate(bots):
            table.add_row(str(seat + 1), name, self.mean(seat), *self.win_cells(seat))
        return table

    def win_cells(self, seat: int) -> list[str]:
        return [str(self.wins[seat]), percent(self.wins[seat], self.games)]

    def notes(self) -> list[str]:
        return ["Wins count each tied winner."]


def new_table() -> Table:
    table = Table(title="Results by seat", title_justify="left")
    table.add_column("Seat", justify="right")
    table.add_column("Bot")
    return table


def win_columns(table: Table) -> None:
    table.add_column("Wins", justify="right")
    table.add_column("Win rate", justify="right")


@dataclass
class BidTally(Tally):
    """Exact bids per seat (and the cooperative table's result): the Oh Hell family's
    table, for a game that declares no figures of its own. The column of exact bids is
    shown when every hand had a bid for every seat (otherwise only the scores and wins)."""

    cooperative: bool = False
    exact: list[int] = field(default_factory=list)
    bid_hands: int = 0
    """Hands with a bid for every seat."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.exact = zeros(self.players)

    def add_hands(self, state: GameState) -> None:
        for hand in state.history:
            if len(hand.bids) != self.players:
                continue
            self.bid_hands += 1
            for seat in range(self.players):
                self.exact[seat] += int(hand.tricks[seat] == hand.bids[seat])

    def _bids(self) -> bool:
        return self.bid_hands == self.hands

    def table(self, bots: Sequence[str]) -> Table:
        if not self._bids():
            return super().table(bots)
        table = new_table()
        if not self.cooperative:
            table.add_column("Mean score", justify="right")
        table.add_column("Exact bids", justify="right")
        if not self.cooperative:
            win_columns(table)
        for seat, name in enumerate(bots):
            row = [str(seat + 1), name]
            if not self.cooperative:
                row.append(self.mean(seat))
            row.append(percent(self.exact[seat], self.hands))
            if not self.cooperative:
                row += self.win_cells(seat)
            table.add_row(*row)
        return table

    def notes(self) -> list[str]:
        if not self._bids():
            return super().notes()
        if self.cooperative:
            return [
                f"Completion rate: {percent(self.completed, self.games)}"
                f" ({self.completed}/{self.games});"
                f" mean hands played: {self.hands_played / self.games:.2f}"
            ]
        return ["Wins count each tied winner. Exact bids: share of hands bid exactly."]


@dataclass
class GameTally(Tally):
    """A game's own figures (its ``"stats"`` capability), counted hand by hand; the
    :class:`~tricktaker.arena.game_stats.StatTotals` the game formats its cells from."""

    stats: GameStats | None = None
    partnerships: tuple[tuple[int, ...], ...] = ()
    figures: dict[str, list[int]] = field(default_factory=dict)
    """Per figure, per seat: the totals the game counted."""
    tables: dict[str, int] = field(default_factory=dict)
    """Per figure: the totals the game counted for the table."""

    def _stats(self) -> GameStats:
        assert self.stats is not None, "a GameTally needs the game's stats"
        return self.stats

    def count(self, figure: str, amount: int = 1, seat: int | None = None) -> None:
        """Add ``amount`` to ``figure`` for ``seat`` (None: for the table)."""
        if seat is None:
            self.tables[figure] = self.tables.get(figure, 0) + amount
        else:
            self.figures.setdefault(figure, zeros(self.players))[seat] += amount

    def add_hands(self, state: GameState) -> None:
        stats = self._stats()
        for hand in state.history:
            stats.count_hand(hand, state.setup, self.count)

    def merge(self, other: Tally) -> None:
        super().merge(other)
        assert isinstance(other, GameTally)
        for name, values in other.figures.items():
            mine = self.figures.setdefault(name, zeros(self.players))
            self.figures[name] = [a + b for a, b in zip(mine, values, strict=True)]
        for name, total in other.tables.items():
            self.tables[name] = self.tables.get(name, 0) + total

    def per_seat(self, figure: str) -> Sequence[int]:
        return self.figures.get(figure) or zeros(self.players)

    def table_total(self, figure: str) -> int:
        return self.tables.get(figure, 0)

    def table(self, bots: Sequence[str]) -> Table:
        stats = self._stats()
        table = new_table()
        for title, justify in stats.columns:
            table.add_column(title, justify="left" if justify == "left" else "right")
        win_columns(table)
        totals = _Totals(self)
        for seat, name in enumerate(bots):
            table.add_row(str(seat + 1), name, *stats.cells(totals, seat), *self.win_cells(seat))
        return table

    def notes(self) -> list[str]:
        return self._stats().notes(_Totals(self))


class _Totals:
    """A :class:`GameTally` as the game reads it
    (:class:`~tricktaker.arena.game_stats.StatTotals`; its ``table`` is the figure's
    total for the table, not the tally's rich table)."""

    def __init__(self, tally: GameTally) -> None:
        self._tally = tally
        self.players = tally.players
        self.games = tally.games
        self.hands = tally.hands
        self.partnerships = tally.partnerships
        self.score_sum = tally.score_sum

    def per_seat(self, figure: str) -> Sequence[int]:
        return self._tally.per_seat(figure)

    def table(self, figure: str) -> int:
        return self._tally.table_total(figure)

    def share(self, part: int, whole: int) -> str:
        return percent(part, whole)


def tally_for(rules: Ruleset, state: GameState) -> Tally:
    """The tally that suits the game (``state``: a fresh game of the chosen table): the
    game's own figures when it declares them, else scores, exact bids and wins."""
    players = state.players
    stats = game_stats(rules)
    if stats is None:
        return BidTally(players, cooperative=rules.cooperative)
    return GameTally(players, stats=stats, partnerships=state.setup.partnerships)
