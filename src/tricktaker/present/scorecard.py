"""The running score sheet, as players keep it on paper: one row per finished hand with
its size, trump and dealer and each player's bid (or quota), tricks, score and running
total, or each team's points (Euchre), or the chips and the pot (Buckup); then the
totals, each player's Set / Over / Perfect counts and the totals after every hand (a
chart's series). A game's own part of a row (its contract, its pot), its column and its
layout come from its ``present`` capability (:mod:`tricktaker.present.game`).

Everything is computed from the finished hands a seat may see
(``Observation.history``); a row's ``summary`` lines also come with a ``public`` form
that names no card only some seats know (for spectators).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tricktaker.cards import SUIT_NAMES
from tricktaker.engine import HandResult, Observation

from .game import (
    DEFAULT_PRESENT,
    OUTCOME_WORDS,
    GamePresent,
    HandSeen,
    game_present,
    hand_special_text,
    named_present,
)
from .parts import TextLine
from .text import CardText, team_text

__all__ = [
    "OUTCOME_WORDS",
    "ScoreRow",
    "Scorecard",
    "SeatScore",
    "TeamScore",
    "TextLine",
    "cooperative_line",
    "hand_summary",
    "has_bids",
    "is_team_game",
    "layout_of",
    "observation_scorecard",
    "outcome_counts",
    "outcome_tally",
    "result_line",
    "score_row",
    "score_unit",
    "scorecard",
    "standings",
    "summary_lines",
    "winners_line",
]

Json = Any
"""Plain JSON data."""


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One seat in one hand: bid (or quota; None when the game has none), tricks won
    (None when the seat sat the hand out), the hand's score, the running total, S/O/P
    against the bid, and the stack after the hand where chips are played for."""

    bid: int | None
    tricks: int | None
    score: int
    total: int
    outcome: str | None
    stack: int | None = None


@dataclass(frozen=True, slots=True)
class TeamScore:
    """One partnership in one hand: its tricks, the hand's points and the running total."""

    seats: list[int]
    name: str
    tricks: int
    score: int
    total: int


@dataclass(slots=True)
class ScoreRow:
    """One finished hand of the score sheet."""

    hand: int
    hand_size: int
    dealer: int
    dealer_name: str
    trump: str | None
    """The trump suit's name (``hearts``), None for no trump."""
    turn_up: str | None
    trump_text: str
    special: str
    """A special hand or the hand's call (Caller Clag's) in words ('' when neither)."""
    seats: list[SeatScore]
    teams: list[TeamScore] = field(default_factory=list)
    all_exact: bool | None = None
    """Cooperative games: whether every bid was made exactly."""
    summary: list[TextLine] = field(default_factory=list)
    game: dict[str, Json] = field(default_factory=dict)
    """The game's own keys of the row (such as Euchre's ``contract`` or Buckup's
    ``pot``), written into the row's JSON beside the others."""
    column: str | None = None
    """The text of the game's own column of the sheet (the contract, the pot)."""
    column_detail: str | None = None
    """The same as the terminal writes it, where it says more (``- made``)."""

    def to_json(self) -> dict[str, Json]:
        """The value as plain JSON data."""
        return {
            "hand": self.hand,
            "hand_size": self.hand_size,
            "dealer": self.dealer,
            "dealer_name": self.dealer_name,
            "trump": self.trump,
            "turn_up": self.turn_up,
            "trump_text": self.trump_text,
            "special": self.special,
            "seats": [
                {
                    "bid": s.bid,
                    "tricks": s.tricks,
                    "score": s.score,
                    "total": s.total,
                    "outcome": s.outcome,
                    "stack": s.stack,
                }
                for s in self.seats
            ],
            "teams": [
                {
                    "seats": list(t.seats),
                    "name": t.name,
                    "tricks": t.tricks,
                    "score": t.score,
                    "total": t.total,
                }
                for t in self.teams
            ],
            "all_exact": self.all_exact,
            "column": self.column,
            "summary": [line.to_json() for line in self.summary],
            **self.game,
        }


@dataclass(slots=True)
class Scorecard:
    """The score sheet of a game so far.

    ``layout`` says which columns matter: ``bids`` (bid/tricks/score per seat),
    ``quota`` (Pluck: quota/tricks/over), ``team`` (Euchre: contract and team points),
    ``chips`` (Buckup: chips won or lost, the pot, the stacks) or ``tricks`` (tricks and
    points per seat, no bids); ``column`` is the heading of the game's own column (its
    rows' :attr:`ScoreRow.column`), None when it has none.
    """

    layout: str
    unit: str
    cooperative: bool
    names: list[str]
    teams: list[dict[str, Json]]
    rows: list[ScoreRow]
    totals: list[int]
    team_totals: list[int]
    stacks: list[int] | None
    counts: list[dict[str, int]] | None
    outcome_words: dict[str, str]
    series: list[list[int]]
    """The totals of every seat after each hand (``series[k][seat]``), for a chart."""
    team_series: list[list[int]]
    standings: list[dict[str, Json]] = field(default_factory=list)
    """The ranking after the hands so far (see :func:`standings`)."""
    column: str | None = None

    def to_json(
        self, row_json: Callable[[ScoreRow], dict[str, Json]] | None = None
    ) -> dict[str, Json]:
        """The value as plain JSON data (``row_json``: what writes a row, when not
        :meth:`ScoreRow.to_json`, such as a memo of the rows written before)."""
        write = row_json or ScoreRow.to_json
        return {
            "layout": self.layout,
            "unit": self.unit,
            "cooperative": self.cooperative,
            "names": list(self.names),
            "teams": self.teams,
            "rows": [write(row) for row in self.rows],
            "totals": self.totals,
            "team_totals": self.team_totals,
            "stacks": self.stacks,
            "counts": self.counts,
            "outcome_words": self.outcome_words,
            "series": self.series,
            "team_series": self.team_series,
            "standings": self.standings,
            "column": self.column,
        }


# ------------------------------------------------------------ what the game keeps


def has_bids(history: Sequence[HandResult], players: int) -> bool:
    """Whether the hands carry a bid (or quota) per seat, so S/O/P makes sense."""
    return all(len(hand.bids) == players for hand in history)


def is_team_game(partnerships: Sequence[Sequence[int]]) -> bool:
    """Whether seats score as partnerships (more than one team)."""
    return len(partnerships) > 1


def score_unit(history: Sequence[HandResult], hooks: str | None) -> str:
    """What the totals of a game whose ruleset names ``hooks`` count, once hands are
    played: its ``present`` capability's unit (points, tricks over quota, chips net)."""
    return named_present(hooks).unit if history else DEFAULT_PRESENT.unit


def outcome_tally(history: Sequence[HandResult], seat: int) -> dict[str, int]:
    """How many hands ``seat`` was set (under its bid), over, and perfect."""
    counts = {"S": 0, "O": 0, "P": 0}
    for hand in history:
        counts[hand.outcome(seat)] += 1
    return counts


def outcome_counts(history: Sequence[HandResult], seat: int) -> str:
    """``S1 O2 P5``: hands set (under), over and perfect for ``seat``."""
    return " ".join(f"{key}{value}" for key, value in outcome_tally(history, seat).items())


def layout_of(
    history: Sequence[HandResult],
    players: int,
    partnerships: Sequence[Sequence[int]],
    game: GamePresent,
) -> str:
    """The scorecard's layout (see :class:`Scorecard`): the game's own, else ``bids``
    where the hands carry bids (or none is finished and the game totals bids), ``team``
    for partnerships, ``tricks`` otherwise."""
    if game.layout is not None:
        return game.layout
    if (history and has_bids(history, players)) or (not history and game.bids_total):
        return "bids"
    if is_team_game(partnerships):
        return "team"
    return "tricks"


# ------------------------------------------------------------ one hand


def hand_summary(
    hand: HandResult, names: Sequence[str], cards: CardText, game: GamePresent
) -> list[str]:
    """The hand's game-specific facts in words (quotas and plucks, contract, pot)."""
    return [line.text for line in summary_lines(hand, names, cards, game)]


def summary_lines(
    hand: HandResult, names: Sequence[str], cards: CardText, game: GamePresent
) -> list[TextLine]:
    """:func:`hand_summary` with each line's public form, which names no card that only
    some seats know (a pluck's cards, the kitty): the game's ``present`` capability
    writes them."""
    return game.summary(HandSeen(hand, names, cards))


def score_row(
    hand: HandResult,
    names: Sequence[str],
    cards: CardText,
    partnerships: Sequence[Sequence[int]],
    *,
    cooperative: bool = False,
    game: GamePresent,
) -> ScoreRow:
    """One finished hand as a row of the score sheet (``game``: the game's ``present``
    capability, which adds its own part)."""
    players = len(names)
    bids = len(hand.bids) == players
    stacks = game.hand_stacks(hand)
    seats = [
        SeatScore(
            bid=hand.bids[s] if bids else None,
            tricks=hand.tricks[s],
            score=hand.hand_scores[s],
            total=hand.total_scores[s],
            outcome=hand.outcome(s) if bids else None,
            stack=int(stacks[s]) if stacks is not None else None,
        )
        for s in range(players)
    ]
    row = ScoreRow(
        hand=hand.number,
        hand_size=hand.hand_size,
        dealer=hand.dealer,
        dealer_name=names[hand.dealer],
        trump=SUIT_NAMES[hand.trump] if hand.trump is not None else None,
        turn_up=cards.code(hand.turn_up) if hand.turn_up is not None else None,
        trump_text=cards.trump(hand.trump, hand.turn_up),
        special=hand_special_text(game, hand),
        seats=seats,
        all_exact=hand.all_exact if cooperative else None,
        summary=summary_lines(hand, names, cards, game),
    )
    if is_team_game(partnerships):
        row.teams = [
            TeamScore(
                seats=list(team),
                name=team_text(team, names),
                tricks=sum(hand.tricks[s] for s in team),
                score=hand.hand_scores[team[0]],
                total=hand.total_scores[team[0]],
            )
            for team in partnerships
        ]
    facts = game.row(HandSeen(hand, names, cards, partnerships))
    row.game = facts.data
    row.column = facts.column
    row.column_detail = facts.column_detail
    return row


# ------------------------------------------------------------ the game


def scorecard(
    history: Sequence[HandResult],
    names: Sequence[str],
    cards: CardText,
    partnerships: Sequence[Sequence[int]] = (),
    *,
    cooperative: bool = False,
    hooks: str | None = None,
    rows: Sequence[ScoreRow] | None = None,
    game: GamePresent | None = None,
) -> Scorecard:
    """The score sheet of the finished hands ``history``. ``rows``: each hand's row of the
    sheet, as :func:`score_row` makes it, already made by the caller (who keeps the rows
    of the hands it has seen). ``game``: the game's ``present`` capability (else the one
    of the game whose hooks a ruleset names ``hooks``)."""
    players = len(names)
    if game is None:
        game = named_present(hooks)
    if rows is None:
        rows = [
            score_row(hand, names, cards, partnerships, cooperative=cooperative, game=game)
            for hand in history
        ]
    elif len(rows) != len(history):
        raise ValueError(f"{len(rows)} score rows for {len(history)} hands")
    layout = layout_of(history, players, partnerships, game)
    teams = list(partnerships) if is_team_game(partnerships) else []
    last = history[-1] if history else None
    totals = list(last.total_scores) if last is not None else [0] * players
    stacks = game.hand_stacks(last) if last is not None else None
    bids = bool(history) and has_bids(history, players)
    return Scorecard(
        layout=layout,
        unit=game.unit if history else DEFAULT_PRESENT.unit,
        cooperative=cooperative,
        names=list(names),
        teams=[{"seats": list(team), "name": team_text(team, names)} for team in teams],
        rows=list(rows),
        totals=totals,
        team_totals=[totals[team[0]] for team in teams],
        stacks=list(stacks) if stacks is not None else None,
        counts=[outcome_tally(history, s) for s in range(players)] if bids else None,
        outcome_words=dict(game.outcome_words),
        series=[list(hand.total_scores) for hand in history],
        team_series=[[hand.total_scores[team[0]] for team in teams] for hand in history],
        standings=standings(totals, names, partnerships, cooperative=cooperative)
        if history
        else [],
        column=game.column,
    )


def standings(
    totals: Sequence[int],
    names: Sequence[str],
    partnerships: Sequence[Sequence[int]] = (),
    *,
    cooperative: bool = False,
) -> list[dict[str, Json]]:
    """The ranking by total, highest first (docs/games/blackout.md, End of the game: the
    highest total wins): one entry per seat, per team in a partnership game, or one for
    the whole table in a cooperative game; tied entries share a place.

    >>> [(e["place"], e["name"], e["total"]) for e in standings([5, 9, 5], ["Ann", "Ben", "Cy"])]
    [(1, 'Ben', 9), (2, 'Ann', 5), (2, 'Cy', 5)]
    """
    if cooperative:
        seats = list(range(len(names)))
        total = totals[0] if totals else 0
        return [{"place": 1, "seats": seats, "name": team_text(seats, names), "total": total}]
    if is_team_game(partnerships):
        groups = [list(team) for team in partnerships]
    else:
        groups = [[seat] for seat in range(len(names))]
    ranked = sorted(groups, key=lambda group: (-totals[group[0]], group[0]))
    out: list[dict[str, Json]] = []
    for index, group in enumerate(ranked):
        total = totals[group[0]]
        place = out[-1]["place"] if out and out[-1]["total"] == total else index + 1
        name = team_text(group, names) if len(group) > 1 else names[group[0]]
        out.append({"place": place, "seats": group, "name": name, "total": total})
    return out


def observation_scorecard(
    obs: Observation,
    names: Sequence[str],
    cards: CardText,
    rows: Sequence[ScoreRow] | None = None,
) -> Scorecard:
    """The score sheet as the seat of ``obs`` may see it (``rows``: see :func:`scorecard`)."""
    return scorecard(
        obs.history,
        names,
        cards,
        obs.partnerships,
        cooperative=obs.cooperative,
        rows=rows,
        game=game_present(obs.rules),
    )


def result_line(
    winners: Sequence[int],
    names: Sequence[str],
    scores: Sequence[int],
    partnerships: Sequence[Sequence[int]],
    *,
    unit: str = "points",
) -> str:
    """``Winning team: You & Seat 2 with 10 points.`` / ``Winner: Seat 1 with +12 chips net.``"""
    if not winners:
        return "No winner."
    best = scores[winners[0]]
    if abs(best) == 1:
        unit = unit.replace("points", "point").replace("chips", "chip").replace("tricks", "trick")
    amount = f"{best} {unit}" if unit.startswith("point") else f"{best:+d} {unit}"
    for team in partnerships:
        if is_team_game(partnerships) and set(team) == set(winners):
            return f"Winning team: {team_text(team, names)} with {amount}."
    who = ", ".join(names[s] for s in winners)
    if len(winners) == 1:
        return f"Winner: {who} with {amount}."
    return f"Winners (tied): {who} with {amount}."


def winners_line(winners: Sequence[int], names: Sequence[str], scores: Sequence[int]) -> str:
    """``Winner: Seat 2 (87 points)`` or ``Winners (tied): ...``."""
    if not winners:
        return "No winner."
    best = scores[winners[0]]
    who = ", ".join(names[s] for s in winners)
    if len(winners) == 1:
        return f"Winner: {who} with {best} points."
    return f"Winners (tied): {who} with {best} points."


def cooperative_line(hands_played: int, completed: bool) -> str:
    """The result of a cooperative game."""
    result = "completed: the table wins" if completed else "not completed: the table loses"
    return f"Hands played: {hands_played}. The schedule was {result}."
