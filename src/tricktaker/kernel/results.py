"""A hook game's hand result as tables the kernel reads, from the game's own scoring.

The kernel plays the card phase of the hook games (Euchre) without knowing how they
score. Where a seat's result for the hand depends only on the tricks its team takes
(partners share their tricks; a seat without partners is a team of one), the result is a
table indexed by those tricks. :func:`result_table` fills it by asking the engine:
for every seat and every trick count ``t`` it finishes a copy of the hand with the
seat's team holding ``t`` tricks and the others the rest, lets the game's hooks score it
(``finish_hand``), and reads the seat's hand score and the search's reward for it (the
game's :class:`~tricktaker.bots.gamesearch.GameSearch` ``rewards``). Nothing about the
game's scoring is restated here; the differential tests check the tables against the
engine's scores of hands played to the end.
"""

from __future__ import annotations

from tricktaker.engine.base import PLAYING
from tricktaker.engine.setup import Setup
from tricktaker.engine.state import GameState
from tricktaker.kernel.convert import KernelUnsupportedError, ResultTable

__all__ = ["result_table", "team_masks"]


def team_masks(setup: Setup, players: int) -> tuple[int, ...]:
    """Each seat's team as a mask of seats: its partnership, or the seat alone."""
    masks = [1 << seat for seat in range(players)]
    for team in setup.partnerships:
        mask = sum(1 << seat for seat in team)
        for seat in team:
            masks[seat] = mask
    return tuple(masks)


def result_table(state: GameState) -> ResultTable:
    """The hand's result tables for the kernel, from a state of its card play (the hidden
    cards of a sampled state do not matter: only the scores' public inputs are read)."""
    from tricktaker.bots.gamesearch import search_for

    if state.phase != PLAYING:
        raise KernelUnsupportedError("the result of a hand is tabled during its card play")
    game = search_for(state.rules.spec.hooks)
    n, size = state.players, state.hand_size
    teams = team_masks(state.setup, n)
    active = state.active if state.active is not None else [True] * n
    score: list[int] = []
    reward: list[float] = []
    for seat in range(n):
        others = [s for s in range(n) if not (teams[seat] >> s) & 1 and active[s]]
        if not others:
            raise KernelUnsupportedError("the kernel needs an opponent in the tricks")
        for t in range(size + 1):
            trial = state.clone()
            tricks = [0] * n
            tricks[seat], tricks[others[0]] = t, size - t
            trial.tricks_won = tricks
            trial.trick = []
            trial.finish_hand()
            score.append(trial.history[-1].hand_scores[seat])
            reward.append(float(game.rewards(trial)[seat]))
    return ResultTable(score=tuple(score), reward=tuple(reward), teams=teams)
