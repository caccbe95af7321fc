"""Positions for the coach's tests: each decision kind of a game, reached by playing
seeded games with the heuristic bot."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

from tricktaker import GameState, Observation, load_ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.bots.base import bot_decisions

TABLE = {"pluck": 3}
"""Players at the table where the game's usual four do not fit."""


def decisions(
    name: str, seeds: int = 3, *, per_kind: int = 1, skip: int = 0
) -> Iterator[tuple[GameState, Observation]]:
    """The first ``per_kind`` positions of each decision kind (the phase and the kind of
    its first legal action, with more than one choice; after ``skip`` of them) in seeded
    games of ``name`` played by the heuristic bot: the state and its seat's observation."""
    seen: Counter[tuple[str, str]] = Counter()
    for seed in range(seeds):
        players = TABLE.get(name, 4)
        state = new_game(load_ruleset(name), players=players, seed=seed)
        bot = make_bot("heuristic", seed=seed)
        for _, obs in itertools.islice(bot_decisions(state, [bot] * players), 300):
            key = (obs.phase, obs.legal_actions[0].kind)
            if seen[key] < skip + per_kind and len(obs.legal_actions) > 1:
                seen[key] += 1
                if seen[key] > skip:
                    yield state.clone(), obs
