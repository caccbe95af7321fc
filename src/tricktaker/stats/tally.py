"""A player's statistics per ruleset fingerprint: games, points per hand, bid accuracy,
Set / Over / Perfect, by hand size and by seat position from the dealer.

The words are the scorekeeper's (docs/scorekeeper.md): a hand is **Set** when the seat
took fewer tricks than it bid, **Over** when it took more, **Perfect** when it took
exactly its bid. Bid accuracy is Perfect hands over hands with a bid. Games played
with real cards (score sheets) count as the tables' games do; each figure is kept per
fingerprint (:mod:`tricktaker.stats.rulesets`), never summed across rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tricktaker.stats.games import GameLine, HandLine
from tricktaker.stats.rulesets import RulesLabel

__all__ = ["Bucket", "RulesStatistics", "statistics"]


@dataclass(slots=True)
class Bucket:
    """Sums over some hands."""

    hands: int = 0
    points: int = 0
    bids: int = 0
    """Hands with a bid (or quota)."""
    set: int = 0
    over: int = 0
    perfect: int = 0

    def add(self, hand: HandLine) -> None:
        """Count one hand."""
        self.hands += 1
        self.points += hand.score
        outcome = hand.outcome
        if outcome is None:
            return
        self.bids += 1
        if outcome == "S":
            self.set += 1
        elif outcome == "O":
            self.over += 1
        else:
            self.perfect += 1

    @property
    def points_per_hand(self) -> float | None:
        """Mean score a hand (None: no hand)."""
        return self.points / self.hands if self.hands else None

    @property
    def accuracy(self) -> float | None:
        """Perfect hands over hands with a bid (None: no bid)."""
        return self.perfect / self.bids if self.bids else None

    def to_json(self) -> dict[str, Any]:
        """The sums and the two rates, rounded to 4 decimals."""
        per_hand = self.points_per_hand
        accuracy = self.accuracy
        return {
            "hands": self.hands,
            "points": self.points,
            "points_per_hand": None if per_hand is None else round(per_hand, 4),
            "bids": self.bids,
            "perfect": self.perfect,
            "set": self.set,
            "over": self.over,
            "accuracy": None if accuracy is None else round(accuracy, 4),
        }


@dataclass(slots=True)
class RulesStatistics:
    """The statistics of one ruleset fingerprint."""

    label: RulesLabel
    score_unit: str
    cooperative: bool = False
    """Whether the rules are cooperative (the table wins or loses together: no wins)."""
    games: int = 0
    """Games counted: finished tables' games and score sheets."""
    finished: int = 0
    """Of them, games played to their end (a sheet may stop before)."""
    wins: int = 0
    """Finished games in first place (shared or not); a cooperative game has none."""
    sheets: int = 0
    """Of the games, score sheets (played with real cards)."""
    total: Bucket = field(default_factory=Bucket)
    by_hand_size: dict[int, Bucket] = field(default_factory=dict)
    by_position: dict[int, Bucket] = field(default_factory=dict)
    """By seats from the dealer (0: the dealer, 1: on the dealer's left)."""
    players: set[int] = field(default_factory=set)
    """The table sizes played."""

    def add(self, game: GameLine, *, sheet: bool) -> None:
        """Count one game (``sheet``: kept on a score sheet)."""
        self.games += 1
        self.sheets += sheet
        self.players.add(game.players)
        if game.finished:
            self.finished += 1
            self.wins += game.place == 1
        for hand in game.hands:
            self.total.add(hand)
            self.by_hand_size.setdefault(hand.hand_size, Bucket()).add(hand)
            self.by_position.setdefault(hand.position, Bucket()).add(hand)

    def to_json(self) -> dict[str, Any]:
        """The statistics as JSON, the buckets in order of hand size and position."""
        return {
            "rules": self.label.to_json(),
            "score_unit": self.score_unit,
            "cooperative": self.cooperative,
            "games": self.games,
            "finished": self.finished,
            "wins": self.wins,
            "sheets": self.sheets,
            "players": sorted(self.players),
            "total": self.total.to_json(),
            "by_hand_size": [
                {"hand_size": size, **self.by_hand_size[size].to_json()}
                for size in sorted(self.by_hand_size)
            ],
            "by_position": [
                {"position": position, **self.by_position[position].to_json()}
                for position in sorted(self.by_position)
            ],
        }


def statistics(games: Iterable[GameLine], sheets: Iterable[GameLine] = ()) -> list[RulesStatistics]:
    """A player's statistics, one entry per ruleset fingerprint, from their seats in
    finished ``games`` and on score ``sheets``; the most played first (then by name and
    fingerprint, so the order never depends on the input's)."""
    by_rules: dict[str, RulesStatistics] = {}

    def entry(game: GameLine) -> RulesStatistics:
        key = game.label.fingerprint
        found = by_rules.get(key)
        if found is None:
            found = by_rules[key] = RulesStatistics(game.label, game.score_unit, game.cooperative)
        return found

    for game in games:
        entry(game).add(game, sheet=False)
    for game in sheets:
        entry(game).add(game, sheet=True)
    return sorted(by_rules.values(), key=lambda s: (-s.games, s.label.text, s.label.fingerprint))
