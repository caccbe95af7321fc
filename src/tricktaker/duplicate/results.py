"""A table's results in a duplicate set, read from its game's finished hands."""

from __future__ import annotations

from collections.abc import Sequence

from tricktaker.duplicate.scoring import Result
from tricktaker.engine import GameState


def table_results(state: GameState, entrants: Sequence[str]) -> list[Result]:
    """Every finished hand's score of each seat of ``state``, the seat's entrant named
    by ``entrants[seat]`` (a hand still being played is left out).

    >>> from tricktaker import load_ruleset
    >>> from tricktaker.bots import make_bot, play_game
    >>> from tricktaker.duplicate.sets import make_set
    >>> state = make_set(load_ruleset("blackout"), players=3, seed=1).new_game()
    >>> play_game(state, [make_bot("random", seed=s) for s in range(3)])
    >>> len(table_results(state, ["a", "b", "c"])) == 3 * len(state.history)
    True
    """
    if len(entrants) != state.players:
        raise ValueError(f"name {state.players} entrants, one a seat")
    return [
        Result(entrants[seat], hand.number, seat, hand.hand_scores[seat])
        for hand in state.history
        for seat in range(state.players)
    ]
