"""Running totals of ``tricktaker simulate``, one kind per family of games.

* Oh Hell family: mean score, share of exact bids, wins.
* Pluck: mean tricks over quota per hand, share of hands meeting the quota, wins.
* Euchre (partnerships): mean points, contracts made when declaring, wins (a team's
  win counts for both partners).
* Buckup (chips): mean net chips per game, pots won, burns, wins (highest net).
* Any other game with its own phases: mean score and wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields

from rich.table import Table

from tricktaker.engine import GameState
from tricktaker.rules import Ruleset

from .render_games import team_of


def percent(part: int, whole: int) -> str:
    return f"{100.0 * part / whole:.1f}%" if whole else "-"


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
    """Oh Hell family: exact bids per seat (and the cooperative table's result)."""

    cooperative: bool = False
    exact: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.exact = zeros(self.players)

    def add_hands(self, state: GameState) -> None:
        for hand in state.history:
            for seat in range(self.players):
                self.exact[seat] += int(hand.tricks[seat] == hand.bids[seat])

    def table(self, bots: Sequence[str]) -> Table:
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
        if self.cooperative:
            return [
                f"Completion rate: {percent(self.completed, self.games)}"
                f" ({self.completed}/{self.games});"
                f" mean hands played: {self.hands_played / self.games:.2f}"
            ]
        return ["Wins count each tied winner. Exact bids: share of hands bid exactly."]


@dataclass
class QuotaTally(Tally):
    """Pluck: tricks against quota per hand."""

    over: list[int] = field(default_factory=list)
    met: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.over = zeros(self.players)
        self.met = zeros(self.players)

    def add_hands(self, state: GameState) -> None:
        for hand in state.history:
            for seat in range(self.players):
                self.over[seat] += hand.tricks[seat] - hand.bids[seat]
                self.met[seat] += int(hand.tricks[seat] >= hand.bids[seat])

    def table(self, bots: Sequence[str]) -> Table:
        table = new_table()
        table.add_column("Tricks over quota", justify="right")
        table.add_column("Met quota", justify="right")
        win_columns(table)
        for seat, name in enumerate(bots):
            mean = f"{self.over[seat] / self.hands:+.2f}" if self.hands else "-"
            met = percent(self.met[seat], self.hands)
            table.add_row(str(seat + 1), name, mean, met, *self.win_cells(seat))
        return table

    def notes(self) -> list[str]:
        return [
            "Tricks over quota: mean per hand (negative: short). Met quota: share of hands"
            " with at least the quota. Wins: highest total over quota (ties count each)."
        ]


@dataclass
class TeamTally(Tally):
    """Euchre: team points, contracts declared and made, thrown-in hands."""

    partnerships: tuple[tuple[int, ...], ...] = ()
    declared: list[int] = field(default_factory=list)
    made: list[int] = field(default_factory=list)
    thrown_in: int = 0

    def __post_init__(self) -> None:
        super().__post_init__()
        self.declared = zeros(self.players)
        self.made = zeros(self.players)

    def add_hands(self, state: GameState) -> None:
        for hand in state.history:
            contract = hand.extra.get("contract")
            if not isinstance(contract, Mapping):
                self.thrown_in += 1
                continue
            bidder = contract.get("bidder", contract.get("declarer"))
            if not isinstance(bidder, int):
                continue
            self.declared[bidder] += 1
            team = team_of(self.partnerships, bidder)
            tricks = hand.extra.get("partnership_tricks")
            if team is not None and isinstance(tricks, list):
                self.made[bidder] += int(tricks[team] >= int(contract.get("tricks", 0)))

    def table(self, bots: Sequence[str]) -> Table:
        table = new_table()
        table.add_column("Team")
        table.add_column("Mean points", justify="right")
        table.add_column("Declared", justify="right")
        table.add_column("Made", justify="right")
        win_columns(table)
        for seat, name in enumerate(bots):
            team = team_of(self.partnerships, seat)
            members = self.partnerships[team] if team is not None else ()
            made = f"{self.made[seat]} ({percent(self.made[seat], self.declared[seat])})"
            table.add_row(
                str(seat + 1),
                name,
                " & ".join(str(member + 1) for member in members) or "-",
                self.mean(seat),
                str(self.declared[seat]),
                made,
                *self.win_cells(seat),
            )
        return table

    def notes(self) -> list[str]:
        return [
            "Mean points: the seat's team's points per game. Declared / Made: contracts"
            " the seat won in the auction, and how many its team made."
            " A team's win counts for both partners.",
            f"Thrown in (everyone passed): {percent(self.thrown_in, self.hands)} of hands;"
            f" mean hands per game: {self.hands / self.games:.2f}.",
        ]


@dataclass
class ChipTally(Tally):
    """Buckup: net chips per game, pots won, burns."""

    pots_won: list[int] = field(default_factory=list)
    burned: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.pots_won = zeros(self.players)
        self.burned = zeros(self.players)

    def add_hands(self, state: GameState) -> None:
        for hand in state.history:
            for seat in hand.extra.get("winners") or ():
                self.pots_won[seat] += 1
            for seat in hand.extra.get("burned") or ():
                self.burned[seat] += 1

    def table(self, bots: Sequence[str]) -> Table:
        table = new_table()
        table.add_column("Mean net chips", justify="right")
        table.add_column("Pots won", justify="right")
        table.add_column("Burned", justify="right")
        win_columns(table)
        for seat, name in enumerate(bots):
            mean = f"{self.score_sum[seat] / self.games:+.2f}" if self.games else "-"
            table.add_row(
                str(seat + 1),
                name,
                mean,
                percent(self.pots_won[seat], self.hands),
                percent(self.burned[seat], self.hands),
                *self.win_cells(seat),
            )
        return table

    def notes(self) -> list[str]:
        return [
            "Mean net chips: chips won minus chips paid, per game. Pots won / Burned: share"
            " of hands. Wins: highest net (ties count each);"
            f" mean hands per game: {self.hands / self.games:.2f}."
        ]


def tally_for(rules: Ruleset, state: GameState) -> Tally:
    """The tally that suits the game (``state``: a fresh game of the chosen table)."""
    players = state.players
    hooks = rules.spec.hooks
    if hooks is None:
        return BidTally(players, cooperative=rules.cooperative)
    if hooks == "pluck":
        return QuotaTally(players)
    if len(state.setup.partnerships) > 1:
        return TeamTally(players, partnerships=state.setup.partnerships)
    if hooks.startswith("buckup"):
        return ChipTally(players)
    return Tally(players)
