"""The PIMC bot: legal, deterministic, fast enough, and stronger than the simple bots."""

from __future__ import annotations

import time

import pytest

from tests.helpers import at_hand
from tricktaker import load_ruleset, new_game
from tricktaker.bots import Bot, PIMCBot, make_bot, play_game
from tricktaker.rules.ruleset import list_rulesets

OH_HELL = [name for name in list_rulesets() if load_ruleset(name).hooks is None]


def small(seed: int) -> PIMCBot:
    """A cheap PIMC bot for tests that only need legal, complete games."""
    return PIMCBot(seed=seed, determinizations=2, rollouts=8, min_determinizations=1)


def test_make_bot_knows_pimc() -> None:
    bot = make_bot("pimc", seed=4)
    assert isinstance(bot, PIMCBot)
    assert bot.name == "pimc"


@pytest.mark.parametrize("name", OH_HELL)
def test_pimc_plays_every_oh_hell_game_to_the_end(name: str) -> None:
    rules = load_ruleset(name)
    players = 4 if 4 in rules.player_counts else rules.player_counts[0]
    state = new_game(rules, players=players, seed=1)
    bots: list[Bot] = [small(0), make_bot("heuristic", seed=1), small(2)]
    bots += [make_bot("random", seed=s) for s in range(3, players)]
    play_game(state, bots)  # the engine rejects any illegal action
    assert state.is_terminal()


def test_pimc_is_deterministic_given_its_seed() -> None:
    def record(seed: int) -> str:
        state = new_game(load_ruleset("jabberwocky"), players=4, seed=5)
        bots: list[Bot] = [PIMCBot(seed=seed + s, determinizations=3) for s in range(4)]
        play_game(state, bots, until_hand_end=True)
        play_game(state, bots, until_hand_end=True)
        return state.record().dumps()

    assert record(1) == record(1)


def test_a_decision_on_a_thirteen_card_hand_is_quick() -> None:
    state = at_hand("blackout", 4, 13, first_dealer=0)
    state.apply_chance()
    bot = PIMCBot(seed=0)
    for _ in range(4):  # the bids, then the opening lead
        seat = state.to_act()[0]
        start = time.perf_counter()
        action = bot.act(state.observe(seat))
        assert time.perf_counter() - start < 3.0  # about 0.2 s on a laptop core
        state.apply(seat, action)


def pimc_margin(opponent: str, games: int) -> list[float]:
    """Per game of Blackout (4 players, PIMC's seat rotating): PIMC's final score minus
    the mean of the other three."""
    margins = []
    for game in range(games):
        seat = game % 4
        state = new_game(load_ruleset("blackout"), players=4, seed=100 + game)
        bots: list[Bot] = [make_bot(opponent, seed=s) for s in range(4)]
        bots[seat] = PIMCBot(seed=game, determinizations=6, rollouts=40, min_determinizations=2)
        play_game(state, bots)
        others = [score for s, score in enumerate(state.scores) if s != seat]
        margins.append(state.scores[seat] - sum(others) / 3)
    return margins


def test_pimc_beats_heuristic_bots_in_blackout() -> None:
    margins = pimc_margin("heuristic", 4)
    # Measured: about +5.7 per 13-hand game, ahead in 2 of the 4 (-9, +11, +25, -4.3)
    # since the heuristic bot's refitted card model (bench/easy_bids.py); +6.5, ahead in
    # 3 of 4, before it; +49 before the heuristic bot's per-card estimate. This PIMC
    # runs a very small budget.
    assert sum(margins) / len(margins) > 0
    assert sum(m > 0 for m in margins) >= 2


def test_pimc_beats_random_bots_in_blackout() -> None:
    margins = pimc_margin("random", 2)
    assert sum(margins) / len(margins) > 20  # measured: about +62 per 13-hand game
