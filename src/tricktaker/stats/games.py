"""One player's part of one finished game, read from a game record or a score sheet.

A game record (``GET /tables/{id}/record``) is replayed by the engine; a score sheet of a
game played with real cards already runs the engine under it (its hands scored by the
same rules). Either way the finished hands (:class:`~tricktaker.engine.HandResult`) give,
for the player's seat, each hand's size, where the seat sat from the dealer, its bid (or
quota, where the game has one per seat), the tricks it took and its score; the final
totals give its place. Nothing else of the game is kept: no card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tricktaker.engine import GameRecord, GameState, HandResult
from tricktaker.engine.results import outcome_of
from tricktaker.present.scorecard import has_bids, score_unit
from tricktaker.stats.rulesets import RulesLabel, rules_label

__all__ = [
    "GameLine",
    "HandLine",
    "game_line",
    "record_line",
    "seat_teams",
]


@dataclass(frozen=True, slots=True)
class HandLine:
    """One hand as the player's seat played it."""

    hand_size: int
    position: int
    """Seats from the dealer to the player's seat, clockwise (up the seat numbers):
    0 is the dealer, 1 the seat on the dealer's left (the eldest, who bids first in the
    Oh Hell family), ``players - 1`` the seat on the dealer's right."""
    bid: int | None
    """The seat's bid, or its quota where the game sets one per seat (None: the game
    has neither, e.g. an auction's contract)."""
    tricks: int
    score: int

    @property
    def outcome(self) -> str | None:
        """``S`` (Set: fewer tricks than the bid), ``O`` (Over) or ``P`` (Perfect: the
        bid exactly); None without a bid."""
        return None if self.bid is None else outcome_of(self.bid, self.tricks)


@dataclass(frozen=True, slots=True)
class GameLine:
    """One player's seat in one finished game (or a score sheet's hands so far)."""

    label: RulesLabel
    players: int
    seat: int
    hands: tuple[HandLine, ...]
    total: int
    """The seat's total score at the end."""
    place: int | None
    """1 for a win (ties share a place), counted over the teams that rank (each seat
    alone, or the partnerships); None for a cooperative game or one not finished."""
    finished: bool
    cooperative: bool
    score_unit: str
    """What the scores count (``points``; a game's own unit, e.g. net chips)."""

    def to_json(self) -> dict[str, Any]:
        """The game's summary as JSON (not its hands)."""
        return {
            "rules": self.label.to_json(),
            "players": self.players,
            "seat": self.seat,
            "hands": len(self.hands),
            "total": self.total,
            "place": self.place,
            "finished": self.finished,
            "cooperative": self.cooperative,
            "score_unit": self.score_unit,
        }


def seat_teams(state: GameState) -> tuple[tuple[int, ...], ...]:
    """The seats ranked together: the partnerships (and any seat outside them), or
    each seat alone (as the arena ranks bots)."""
    partnerships = state.setup.partnerships
    if len(partnerships) < 2:
        return tuple((seat,) for seat in range(state.players))
    covered = {seat for team in partnerships for seat in team}
    alone = tuple((seat,) for seat in range(state.players) if seat not in covered)
    return tuple(tuple(team) for team in partnerships) + alone


def team_totals(state: GameState) -> tuple[int, ...]:
    """Each team's total (:func:`seat_teams` order): its first seat's total, which every
    partner shares."""
    return tuple(state.scores[team[0]] for team in seat_teams(state))


def _place(state: GameState, seat: int) -> int | None:
    if state.rules.cooperative or not state.is_terminal():
        return None
    teams = seat_teams(state)
    totals = team_totals(state)
    mine = next(totals[i] for i, team in enumerate(teams) if seat in team)
    return 1 + sum(1 for total in totals if total > mine)


def _hand(hand: HandResult, seat: int, players: int, bids: bool) -> HandLine:
    return HandLine(
        hand_size=hand.hand_size,
        position=(seat - hand.dealer) % players,
        bid=hand.bids[seat] if bids else None,
        tricks=hand.tricks[seat],
        score=hand.hand_scores[seat],
    )


def game_line(state: GameState, seat: int) -> GameLine:
    """``seat``'s part of the game ``state`` has reached (its finished hands)."""
    if not 0 <= seat < state.players:
        raise ValueError(f"seat {seat} is not one of the game's {state.players} seats")
    history: Sequence[HandResult] = state.history
    bids = has_bids(history, state.players)
    return GameLine(
        label=rules_label(state.rules),
        players=state.players,
        seat=seat,
        hands=tuple(_hand(hand, seat, state.players, bids) for hand in history),
        total=state.scores[seat],
        place=_place(state, seat),
        finished=state.is_terminal(),
        cooperative=state.rules.cooperative,
        score_unit=score_unit(history, state.rules.spec.hooks),
    )


def record_line(record: GameRecord | Mapping[str, Any], seat: int) -> GameLine:
    """``seat``'s part of a game record (the record's JSON, or read already), replayed
    by the engine (:class:`~tricktaker.engine.RecordError` if it does not replay)."""
    read = record if isinstance(record, GameRecord) else GameRecord.from_json(record)
    return game_line(read.replay(), seat)
