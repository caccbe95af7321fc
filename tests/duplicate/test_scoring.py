"""Duplicate scoring's properties (docs/duplicate.md, Scoring): matchpoints sum to a
constant, the same score as everyone is 50%, scores against the average sum to 0, and
the tables' order changes nothing."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tricktaker.duplicate import (
    Result,
    against_average,
    matchpoint_percentages,
    matchpoints,
    standings,
)

board_scores = st.lists(st.integers(-30, 60), min_size=1, max_size=9)


@given(board_scores)
def test_matchpoints_sum_to_a_constant(scores: list[int]) -> None:
    """docs/duplicate.md, Matchpoints: n entrants share n (n - 1) matchpoints, so the
    percentages always average 50."""
    count = len(scores)
    assert sum(matchpoints(scores)) == count * (count - 1)
    assert abs(sum(matchpoint_percentages(scores)) - 50.0 * count) < 1e-9
    assert all(0 <= p <= 100 for p in matchpoint_percentages(scores))


@given(board_scores, st.integers(-30, 60))
def test_the_same_score_as_everyone_is_half(others: list[int], score: int) -> None:
    """docs/duplicate.md, Matchpoints: a player who scored what everyone scored gets 50%
    (and 0 against the seat's average)."""
    scores = [score] * len(others)
    assert matchpoint_percentages(scores) == [50.0] * len(scores)
    assert against_average(scores) == [0.0] * len(scores)


@given(board_scores)
def test_against_average_sums_to_zero(scores: list[int]) -> None:
    """docs/duplicate.md, Against the seat's average: score minus the others' mean."""
    values = against_average(scores)
    assert abs(sum(values)) < 1e-6
    if len(scores) > 1:
        rest = scores[1:]
        assert abs(values[0] - (scores[0] - sum(rest) / len(rest))) < 1e-9


def test_the_formulas_on_a_worked_board() -> None:
    """docs/duplicate.md, Scoring: the worked example (13, 3, 3, -10 in one seat)."""
    scores = [13, 3, 3, -10]
    assert matchpoints(scores) == [6, 3, 3, 0]
    assert matchpoint_percentages(scores) == [100.0, 50.0, 50.0, 0.0]
    expected = [13 + 4 / 3, 1.0, 1.0, -10 - 19 / 3]
    assert all(abs(a - b) < 1e-9 for a, b in zip(against_average(scores), expected, strict=True))


evenings = st.integers(2, 5).flatmap(
    lambda tables: st.tuples(
        st.just(tables),
        st.integers(2, 4),
        st.integers(1, 4),
        st.lists(st.integers(-20, 40), min_size=tables * 4 * 4, max_size=tables * 4 * 4),
        st.randoms(use_true_random=False),
    )
)


def _evening(tables: int, players: int, hands: int, scores: list[int]) -> list[list[Result]]:
    """Each table's results: entrant ``t<table>s<seat>``, scores taken in turn."""
    out: list[list[Result]] = []
    it = iter(scores)
    for table in range(tables):
        out.append(
            [
                Result(f"t{table}s{seat}", hand, seat, next(it))
                for hand in range(1, hands + 1)
                for seat in range(players)
            ]
        )
    return out


@given(evenings)
def test_swapping_tables_changes_nothing(
    evening: tuple[int, int, int, list[int], random.Random],
) -> None:
    """docs/duplicate.md, Standings: the standings depend on who scored what, never on
    which table is listed first (nor on the order of the results)."""
    tables, players, hands, scores, rng = evening
    per_table = _evening(tables, players, hands, scores)
    first = standings([r for table in per_table for r in table])
    swapped = per_table[:]
    i, j = rng.sample(range(tables), 2)
    swapped[i], swapped[j] = swapped[j], swapped[i]
    flat = [r for table in swapped for r in table]
    rng.shuffle(flat)
    assert standings(flat) == first
    assert standings(flat, method="average") == standings(
        [r for table in per_table for r in table], method="average"
    )
    # Each board's percentages average 50, so the evening's do too (every entrant plays
    # every board here).
    assert abs(sum(row.percent for row in first) - 50.0 * len(first)) < 1e-6
    assert abs(sum(row.against_average for row in first)) < 1e-6


def test_standings_are_ordered_by_the_method() -> None:
    """docs/duplicate.md, Which one the standings use: matchpoints first, by default;
    ``average`` orders by the sum against the seats' averages."""
    results = [
        # hand 1: ann wins by a little; hand 2: bob wins by a lot.
        Result("ann", 1, 0, 11), Result("bob", 1, 0, 10), Result("cy", 1, 0, 0),
        Result("ann", 2, 0, 5), Result("bob", 2, 0, 40), Result("cy", 2, 0, 6),
        Result("ann", 3, 0, 12), Result("bob", 3, 0, 2), Result("cy", 3, 0, 3),
    ]  # fmt: skip
    by_points = standings(results)
    assert [row.entrant for row in by_points] == ["ann", "bob", "cy"]
    assert [row.entrant for row in standings(results, method="average")] == ["bob", "ann", "cy"]
    ann = by_points[0]
    assert (ann.hands, ann.matchpoints, ann.top, ann.score) == (3, 4 + 0 + 4, 12, 28)
    assert abs(ann.percent - 200 / 3) < 1e-9
    assert abs(ann.against_average - (6 - 18 + 9.5)) < 1e-9


def test_a_board_of_one_is_half_and_two_results_on_a_board_are_refused() -> None:
    """docs/duplicate.md, Matchpoints: alone on a board there is nobody to beat (50%)."""
    (row,) = standings([Result("ann", 1, 2, 7)])
    assert (row.percent, row.against_average, row.top) == (50.0, 0.0, 0)
    with pytest.raises(ValueError, match="two results"):
        standings([Result("ann", 1, 2, 7), Result("ann", 1, 2, 8)])
