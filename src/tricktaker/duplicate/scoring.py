"""Duplicate scoring: each score on a deal compared with everyone who held the same cards.

A *board* is one hand of a duplicate set seen from one seat: every entrant who sat in
that seat for that hand held the same cards (docs/duplicate.md, The same deals). Two
comparisons are made on each board (docs/duplicate.md, Scoring):

* **matchpoints**: 2 for every other entrant on the board whose score you beat, 1 for
  each one you tied; the board's top is ``2 (n - 1)`` for ``n`` entrants, and the
  percentage is your matchpoints over the top (50% when nobody else held the seat yet);
* **against the seat's average**: your score minus the mean of the others' scores on
  the board (0 when nobody else held it).

Both are summed over the evening. The standings are ordered by matchpoints, the default:

>>> rows = standings([Result("ann", 1, 0, 12), Result("bob", 1, 0, 2), Result("cy", 1, 0, 2)])
>>> [(row.entrant, row.percent, row.against_average) for row in rows]
[('ann', 100.0, 10.0), ('bob', 25.0, -5.0), ('cy', 25.0, -5.0)]
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

Method = Literal["matchpoints", "average"]
"""How the standings are ordered: by matchpoint percentage (the default) or by the
total against the seats' averages."""

METHODS: tuple[Method, ...] = ("matchpoints", "average")


def matchpoints(scores: Sequence[float]) -> list[int]:
    """Each score's matchpoints among ``scores`` (one board): 2 per other score beaten,
    1 per other score tied. They always sum to ``n (n - 1)``.

    >>> matchpoints([10, 3, 3, -2])
    [6, 3, 3, 0]
    """
    return [
        sum(2 if mine > other else 1 if mine == other else 0 for other in scores) - 1
        for mine in scores
    ]


def board_top(entrants: int) -> int:
    """The most matchpoints one entrant can make on a board of ``entrants``."""
    return 2 * (entrants - 1)


def matchpoint_percentages(scores: Sequence[float]) -> list[float]:
    """Each score's matchpoints as a percentage of the board's top (50 for a board of
    one: nobody to compare with).

    >>> matchpoint_percentages([10, 3, 3, -2])
    [100.0, 50.0, 50.0, 0.0]
    """
    top = board_top(len(scores))
    if top == 0:
        return [50.0 for _ in scores]
    return [100.0 * points / top for points in matchpoints(scores)]


def against_average(scores: Sequence[float]) -> list[float]:
    """Each score minus the mean of the other scores on the board (0 alone). They
    always sum to 0.

    >>> against_average([10, 4, 4])
    [6.0, -3.0, -3.0]
    """
    count = len(scores)
    if count < 2:
        return [0.0 for _ in scores]
    total = float(sum(scores))
    return [score - (total - score) / (count - 1) for score in scores]


@dataclass(frozen=True, slots=True)
class Result:
    """One entrant's score on one hand of a duplicate set, in one seat."""

    entrant: str
    """Who: any key that names one entrant over the evening (a seat at one table)."""
    hand: int
    """The hand's number in the set, from 1."""
    seat: int
    score: float
    """The points the hand scored for the seat (the game's own hand score)."""


@dataclass(frozen=True, slots=True)
class BoardScore:
    """An entrant's comparison on one board."""

    hand: int
    seat: int
    score: float
    entrants: int
    """How many held these cards (the entrant included)."""
    matchpoints: int
    top: int
    percent: float
    against_average: float


@dataclass(frozen=True, slots=True)
class Standing:
    """An entrant's evening: every board they played and the sums."""

    entrant: str
    boards: tuple[BoardScore, ...] = field(default=())

    @property
    def hands(self) -> int:
        return len(self.boards)

    @property
    def score(self) -> float:
        """The game's own points over the boards played."""
        return sum(board.score for board in self.boards)

    @property
    def matchpoints(self) -> int:
        return sum(board.matchpoints for board in self.boards)

    @property
    def top(self) -> int:
        return sum(board.top for board in self.boards)

    @property
    def percent(self) -> float:
        """Matchpoints over the evening as a percentage of the tops of the boards played
        (50 while none of them was compared with anyone)."""
        top = self.top
        return 100.0 * self.matchpoints / top if top else 50.0

    @property
    def against_average(self) -> float:
        return sum(board.against_average for board in self.boards)


def boards(results: Iterable[Result]) -> dict[tuple[int, int], list[Result]]:
    """The results grouped by board, ``(hand, seat)``: everyone who held the same cards.
    An entrant's second result on one board is refused (``ValueError``)."""
    grouped: dict[tuple[int, int], list[Result]] = defaultdict(list)
    for result in results:
        group = grouped[result.hand, result.seat]
        if any(other.entrant == result.entrant for other in group):
            raise ValueError(
                f"{result.entrant} has two results for hand {result.hand}, seat {result.seat}"
            )
        group.append(result)
    return dict(grouped)


def standings(results: Iterable[Result], *, method: Method = "matchpoints") -> list[Standing]:
    """Every entrant's standing, best first by ``method`` (ties by the other measure,
    then by entrant), whatever order ``results`` come in."""
    played: dict[str, list[BoardScore]] = defaultdict(list)
    for (hand, seat), group in boards(results).items():
        scores = [result.score for result in group]
        points = matchpoints(scores)
        percents = matchpoint_percentages(scores)
        averages = against_average(scores)
        top = board_top(len(group))
        for index, result in enumerate(group):
            played[result.entrant].append(
                BoardScore(
                    hand=hand,
                    seat=seat,
                    score=result.score,
                    entrants=len(group),
                    matchpoints=points[index],
                    top=top,
                    percent=percents[index],
                    against_average=averages[index],
                )
            )
    rows = [
        Standing(entrant, tuple(sorted(found, key=lambda b: (b.hand, b.seat))))
        for entrant, found in played.items()
    ]

    def order(row: Standing) -> tuple[float, float, str]:
        first, second = (
            (row.percent, row.against_average)
            if method == "matchpoints"
            else (row.against_average, row.percent)
        )
        return (-round(first, 9), -round(second, 9), row.entrant)

    return sorted(rows, key=order)
