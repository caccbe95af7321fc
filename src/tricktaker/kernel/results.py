"""A hook game's hand result as tables the kernel reads, from the game's own scoring.

The kernel plays the card phase of the hook games without knowing how they score.
:func:`result_table` asks the engine: for a way the hand's tricks can fall, it finishes
a copy of the hand with those tricks, lets the game's hooks score it (``finish_hand``),
and reads each seat's hand score and the search's reward for it (the game's
:class:`~tricktaker.bots.gamesearch.GameSearch` ``rewards``). Nothing about the game's
scoring is restated here.

Where a seat's result depends only on the tricks its team takes (partners share their
tricks; a seat without partners is a team of one: Euchre, Pluck), the result is a table
indexed by those tricks: for each seat and trick count ``t`` the hand is scored with the
seat's team holding ``t`` tricks and one opponent the rest, and checked (in the first
:data:`CHECKS` hands of a ruleset) with the rest spread over the opponents. Where it is
not (Buckup, whose pot goes to the players with two tricks or more), every way the
tricks can fall among the seats in the hand is scored. The differential tests check the
tables against the engine's scores of hands played to the end.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from tricktaker.engine.base import PLAYING
from tricktaker.engine.setup import Setup
from tricktaker.engine.state import GameState
from tricktaker.kernel.convert import ResultTable
from tricktaker.kernel.spec import KernelUnsupportedError, limits
from tricktaker.memo import Memo

__all__ = ["result_table", "team_masks"]

_BY_TEAM: Memo[int, tuple[bool, int]] = Memo(64)
"""Per ruleset and table size: whether a seat's result depends on its team's tricks only,
and in how many hands that was checked (:data:`CHECKS`; once it does not, it never does)."""

CHECKS = 8
"""Hands in which a ruleset's results are checked to depend on the team's tricks only."""


def _check_scores(scores: Iterable[int]) -> None:
    """Refuse a hand whose scores the kernel cannot hold (a pot grown past its range):
    the Python search plays it instead."""
    most = limits().score_limit
    if any(not -most <= value <= most for value in scores):
        raise KernelUnsupportedError(
            f"a score of this hand is beyond the kernel's range (±{most}); the Python"
            " search plays it"
        )


def team_masks(setup: Setup, players: int) -> tuple[int, ...]:
    """Each seat's team as a mask of seats: its partnership, or the seat alone."""
    masks = [1 << seat for seat in range(players)]
    for team in setup.partnerships:
        mask = sum(1 << seat for seat in team)
        for seat in team:
            masks[seat] = mask
    return tuple(masks)


def _splits(total: int, seats: list[int], players: int) -> Iterator[list[int]]:
    """Every way ``total`` tricks can fall among ``seats`` (the others take none)."""
    if len(seats) == 1:
        tricks = [0] * players
        tricks[seats[0]] = total
        yield tricks
        return
    for first in range(total + 1):
        for tricks in _splits(total - first, seats[1:], players):
            tricks[seats[0]] = first
            yield tricks


def result_table(state: GameState) -> ResultTable:
    """The hand's result tables for the kernel, from a state of its card play (the hidden
    cards of a sampled state do not matter: only the scores' public inputs are read)."""
    from tricktaker.bots.gamesearch import search_for

    if state.phase != PLAYING:
        raise KernelUnsupportedError("the result of a hand is tabled during its card play")
    rewards = search_for(state.rules.spec.hooks).rewards
    n, size = state.players, state.hand_size
    active = state.active if state.active is not None else [True] * n
    playing = [s for s in range(n) if active[s]]

    def outcome(tricks: list[int]) -> tuple[tuple[int, ...], list[float]]:
        trial = state.clone()
        trial.finish_hand(tricks)
        return trial.history[-1].hand_scores, [float(r) for r in rewards(trial)]

    teams = team_masks(state.setup, n)
    known = _BY_TEAM.peek(n, owner=state.rules)
    check = known is None or (known[0] and known[1] < CHECKS)
    by_team = True
    score: list[int] = []
    reward: list[float] = []
    for seat in range(n):
        others = [s for s in playing if not (teams[seat] >> s) & 1]
        if not others:
            raise KernelUnsupportedError("the kernel needs an opponent in the tricks")
        for t in range(size + 1):
            tricks = [0] * n
            tricks[seat], tricks[others[0]] = t, size - t
            scores, values = outcome(tricks)
            score.append(scores[seat])
            reward.append(values[seat])
            if check and len(others) > 1 and size - t > 1:
                spread = [0] * n
                spread[seat] = t
                for i in range(size - t):
                    spread[others[i % len(others)]] += 1
                again, again_values = outcome(spread)
                by_team = by_team and (again[seat], again_values[seat]) == (
                    scores[seat],
                    values[seat],
                )
    if check:
        _BY_TEAM.put(n, (by_team, (known[1] if known is not None else 0) + 1), owner=state.rules)
    elif known is not None:
        by_team = known[0]
    if by_team:
        _check_scores(score)
        return ResultTable(score=tuple(score), reward=tuple(reward), teams=teams)
    # Every outcome; per seat and trick count, the best reward reachable with it.
    kernel = limits()
    bits, most = kernel.outcome_bits, kernel.max_outcome_tricks
    if size > most or n > kernel.max_players:
        raise KernelUnsupportedError(f"the kernel tables every outcome of {most} tricks at most")
    rows: list[tuple[int, tuple[int, ...], list[float]]] = []
    for tricks in _splits(size, playing, n):
        scores, values = outcome(tricks)
        rows.append((sum(t << (bits * s) for s, t in enumerate(tricks)), scores, values))
    rows.sort(key=lambda row: row[0])
    best = [[-1e9] * (size + 1) for _ in range(n)]
    for code, _, values in rows:
        for seat in range(n):
            t = (code >> (bits * seat)) & most
            best[seat][t] = max(best[seat][t], values[seat])
    floor = min(min(values) for _, _, values in rows)
    _check_scores(v for _, scores, _ in rows for v in scores)
    return ResultTable(
        score=tuple(0 for _ in range(n * (size + 1))),
        reward=tuple(value if value > -1e9 else floor for row in best for value in row),
        teams=tuple(1 << seat for seat in range(n)),
        outcomes=tuple(code for code, _, _ in rows),
        outcome_score=tuple(v for _, scores, _ in rows for v in scores),
        outcome_reward=tuple(v for _, _, values in rows for v in values),
    )
