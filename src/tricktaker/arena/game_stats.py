"""What the simulation statistics ask of a game: its own figures, columns and units.

A game written with hooks declares the capability ``"stats"`` (see
:attr:`tricktaker.engine.hooks.GameHooks.capabilities`): an object following
:class:`GameStats`, e.g. ``"stats": "tricktaker.games.pluck.stats:STATS"``. The arena
(:mod:`tricktaker.arena`, ``tricktaker arena``) reads the unit of a seat's score and
what its column "Exact" counts; ``tricktaker simulate`` (:mod:`tricktaker.cli.sim_stats`)
counts the game's figures hand by hand (:meth:`GameStats.count_hand`), adds them up over
the games, and asks the game for its columns and notes (:meth:`GameStats.cells`,
:meth:`GameStats.notes`). A ruleset without hooks (the Oh Hell family) has its bids and
exact bids; a game with hooks that declares no stats gets the mean score and wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from tricktaker.engine.hooks import capability

if TYPE_CHECKING:
    from tricktaker.engine.results import HandResult
    from tricktaker.engine.setup import Setup
    from tricktaker.rules import Ruleset

__all__ = [
    "EXACT_MEANING",
    "SCORE_UNIT",
    "Count",
    "GameStats",
    "StatTotals",
    "game_stats",
    "percent",
]

SCORE_UNIT = "points"
"""What a seat's score counts in a game that does not say (the Oh Hell family)."""
EXACT_MEANING = "hands bid exactly"
"""What the arena's column "Exact" counts in a game that does not say."""


def percent(part: int, whole: int) -> str:
    """``part`` as a share of ``whole``, ``"12.5%"`` (``"-"`` when ``whole`` is 0).

    >>> percent(1, 8), percent(0, 0)
    ('12.5%', '-')
    """
    return f"{100.0 * part / whole:.1f}%" if whole else "-"


class Count(Protocol):
    """How a game counts one of its figures for a finished hand."""

    def __call__(self, figure: str, amount: int = 1, seat: int | None = None) -> None:
        """Add ``amount`` to ``figure`` for ``seat`` (None: for the table, once a hand)."""
        ...


class StatTotals(Protocol):
    """The totals over the games simulated so far, as a game reads them."""

    @property
    def players(self) -> int: ...

    @property
    def games(self) -> int: ...

    @property
    def hands(self) -> int:
        """Hands finished in all the games."""
        ...

    @property
    def partnerships(self) -> tuple[tuple[int, ...], ...]: ...

    @property
    def score_sum(self) -> Sequence[int]:
        """Per seat: the sum of its final scores."""
        ...

    def per_seat(self, figure: str) -> Sequence[int]:
        """Per seat: the total of ``figure`` (zeros when never counted)."""
        ...

    def table(self, figure: str) -> int:
        """The total of ``figure`` counted for the table (0 when never counted)."""
        ...

    def share(self, part: int, whole: int) -> str:
        """``part`` as a share of ``whole`` as every column shows it (:func:`percent`)."""
        ...


@runtime_checkable
class GameStats(Protocol):
    """A game's part of the simulation statistics (its ``"stats"`` capability)."""

    @property
    def score_unit(self) -> str:
        """What a seat's score counts: ``"points"``, ``"net chips"``."""
        ...

    @property
    def exact_meaning(self) -> str:
        """What the arena's column "Exact" counts: ``"hands bid exactly"``."""
        ...

    @property
    def columns(self) -> tuple[tuple[str, str], ...]:
        """The game's columns of ``tricktaker simulate``'s table, after the seat and the
        bot and before the wins: ``(title, justify)``, justify ``"left"`` or ``"right"``."""
        ...

    def count_hand(self, hand: HandResult, setup: Setup, count: Count) -> None:
        """Count the figures of a finished hand (``setup``: the game's set-up)."""
        ...

    def cells(self, totals: StatTotals, seat: int) -> list[str]:
        """The game's cells of ``seat``'s row, one per column."""
        ...

    def notes(self, totals: StatTotals) -> list[str]:
        """The lines printed under the table, saying what the columns mean."""
        ...


def game_stats(rules: Ruleset) -> GameStats | None:
    """The figures the ruleset's game declares (its ``"stats"`` capability); None for a
    ruleset without hooks or a game that declares none."""
    declared = capability(rules.hooks, "stats")
    if declared is None:
        return None
    if not isinstance(declared, GameStats):
        raise TypeError(f"{rules.id}: the game's stats {declared!r} are not a GameStats")
    return declared
