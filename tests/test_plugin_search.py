"""A game written outside the package gets search bots by declaring its search support.

docs/rulesets.md, Writing a game in Python: the search bots ask a game's hooks for their
``"search"`` capability; ``tests/plugins/last_trick.py`` declares one
(``tests/plugins/last_trick_search.py``), sampled by the generic
:class:`~tricktaker.bots.replay.ReplayDeterminizer`, and the heuristic bot's ``"policy"``
is optional (without one it picks its own way).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.plugins.last_trick_search import SEARCH
from tricktaker import load_ruleset, new_game
from tricktaker.bots import make_bot, play_game
from tricktaker.bots.determinize import known_voids
from tricktaker.bots.gamesearch import search_for
from tricktaker.bots.replay import ReplayDeterminizer
from tricktaker.cards import cards_of
from tricktaker.engine.resample import HiddenFacts

LAST_TRICK = Path(__file__).parent / "plugins" / "last_trick.toml"


def test_the_search_bots_find_the_plugins_search_support() -> None:
    rules = load_ruleset(LAST_TRICK)
    assert search_for(rules.hooks) is SEARCH
    assert search_for("last_trick") is SEARCH


@pytest.mark.parametrize("bot", ["pimc:determinizations=4:rollouts=24", "ismcts:iterations=40"])
def test_search_bots_play_a_whole_plugin_game(bot: str) -> None:
    """The plugin's game: stakes, then five tricks (tests/plugins/last_trick.py)."""
    rules = load_ruleset(LAST_TRICK)
    state = new_game(rules, players=3, seed=5)
    bots = [make_bot(bot, seed=1), make_bot("random", seed=2), make_bot("random", seed=3)]
    play_game(state, bots)
    assert state.is_terminal()
    assert state.hands_played == 3


def test_samples_keep_what_the_seat_knows() -> None:
    """Each sample keeps the seat's hand, the stakes and the trick in progress, gives
    every other seat as many cards as it holds, none the seat has seen, and none of a
    suit it showed void in (tests/plugins/last_trick.py: follow suit, no trump)."""
    rules = load_ruleset(LAST_TRICK)
    rng = random.Random(0)
    checked = 0
    for seed in range(6):
        state = new_game(rules, players=4, seed=seed)
        moves = random.Random(seed)
        while not state.is_terminal() and state.hands_played == 0:
            if state.is_chance():
                state.apply_chance()
                continue
            seat = state.to_act()[0]
            obs = state.observe(seat)
            sampler = SEARCH.determinizer(obs)
            assert isinstance(sampler, ReplayDeterminizer)
            facts = sampler.hidden_facts()
            assert isinstance(facts, HiddenFacts)
            assert obs.hand is not None
            assert not facts.unknown & (obs.hand | obs.played)
            voids = known_voids(obs)
            tables = obs.tables
            for _ in range(3):
                sample = sampler.sample(rng)
                assert sample.hands[seat] == state.hands[seat]
                assert sample.observe(seat).view == obs.view
                assert sample.phase_name == state.phase_name
                assert sample.trick == state.trick
                union = 0
                for other in range(4):
                    hand = sample.hands[other]
                    assert hand.bit_count() == state.hands[other].bit_count()
                    assert not union & hand
                    union |= hand
                    if other != seat and tables is not None:
                        assert not any(
                            (voids[other] >> tables.suit_of[c]) & 1 for c in cards_of(hand)
                        )
                checked += 1
            state.apply(seat, moves.choice(state.legal_actions(seat)))
    assert checked > 100
