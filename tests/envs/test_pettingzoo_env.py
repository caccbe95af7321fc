"""docs/envs.md, PettingZoo: the AEC environment of every shipped ruleset passes
PettingZoo's own API and seed tests, plays whole games to the end with per-hand or
per-game rewards, loads house-rules files and renders as text."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.envs.helpers import GAMES, require_envs

require_envs()

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from tricktaker.envs import pettingzoo_env  # noqa: E402

SHORT_GAMES = (
    ("pluck", {"hands": 1}),
    ("caller_clag", {"hands": 1}),
    ("euchre", {"target": 1}),
    ("buckup", {"hands": 1, "max_hands": 1}),
    ("coop_blackout", {"max_hands": 1}),
)
"""Games whose options make them a single hand or so, to be played to the end."""


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Agent's m.* observation space value is .*infinity")
@pytest.mark.parametrize("game_id", GAMES)
def test_api_and_seed_tests_pass(game_id: str) -> None:
    """docs/envs.md, PettingZoo: ``pettingzoo.test.api_test`` and ``seed_test`` pass (a few
    cycles each: the games are long). The warnings silenced are the ones PettingZoo gives
    its own card games with a dict of observation and action mask, and the one about
    unbounded fields (scores and chips have no bound)."""
    api_test(pettingzoo_env(game_id, render_mode="ansi"), num_cycles=20)
    seed_test(lambda: pettingzoo_env(game_id), num_cycles=20)


def play_to_end(env: object, seed: int) -> dict[str, float]:
    """Play random legal actions to the end; each agent's return."""
    from tricktaker.envs.pettingzoo_env import TricktakerAEC

    assert isinstance(env, TricktakerAEC)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=20_000):
        observation, reward, termination, truncation, _ = env.last()
        returns[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))
    assert not env.agents
    return returns


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Agent's m.* observation space value is .*infinity")
@pytest.mark.parametrize(("game_id", "options"), SHORT_GAMES)
def test_whole_games_end_and_pay_the_scores(game_id: str, options: dict[str, object]) -> None:
    """docs/envs.md, PettingZoo: with ``reward="hand"`` an episode's return is the final
    score; with ``reward="game"`` +1 for each winner and -1 for the others."""
    env = pettingzoo_env(game_id, options=options)
    api_test(env, num_cycles=2_000)
    returns = play_to_end(env, seed=3)
    assert [returns[a] for a in env.possible_agents] == [float(s) for s in env.game.scores]
    env = pettingzoo_env(game_id, options=options, reward="game")
    returns = play_to_end(env, seed=3)
    winners = env.game.winners()
    assert [returns[a] for a in env.possible_agents] == [
        1.0 if seat in winners else -1.0 for seat in range(env.players)
    ]


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Agent's m.* observation space value is .*infinity")
def test_a_buckup_pot_that_grows_without_bound_stays_in_the_space() -> None:
    """docs/games/buckup.md: burns match the pot, so in random play the pot doubles hand
    after hand; scores and chips are unbounded fields of the observation space."""
    env = pettingzoo_env("buckup", players=7, options={"scare_cards": True})
    play_to_end(env, seed=0)
    assert env.game.ext is not None
    assert max(abs(s) for s in env.game.scores) > 2**24  # beyond float32's exact range
    env.reset(seed=0)
    api_test(env, num_cycles=300)


def test_the_same_seed_deals_the_same_game() -> None:
    """docs/envs.md, PettingZoo: the same seed and actions give the same game; a reset
    without a seed deals the next game."""
    env = pettingzoo_env("bluke", players=3)
    env.reset(seed=9)
    first = env.game.hands[:]
    env.reset()
    assert env.game.seed == 10
    env.reset(seed=9)
    assert env.game.hands == first


def test_house_rules_file(tmp_path: Path) -> None:
    """docs/rulesets.md: a file that extends a shipped game loads like the game itself."""
    path = tmp_path / "short_blackout.toml"
    path.write_text('extends = "blackout"\nid = "short_blackout"\n\n[schedule]\nsizes = "1..2"\n')
    env = pettingzoo_env(str(path), players=3)
    assert env.rules.id == "short_blackout"
    play_to_end(env, seed=1)
    assert env.game.hands_played == 2


def test_illegal_actions_are_refused_in_words() -> None:
    """docs/envs.md, PettingZoo: an action outside the mask raises, naming the legal ones."""
    env = pettingzoo_env("blackout", players=4)
    env.reset(seed=1)
    observation, *_ = env.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="the legal actions are bid 0, bid 1"):
        env.step(illegal)


def test_ansi_render_shows_the_table_not_the_hidden_cards() -> None:
    """docs/envs.md, PettingZoo: ``render_mode="ansi"`` gives the table as text."""
    env = pettingzoo_env("blackout", players=4, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text is not None
    assert text.startswith("Blackout, 4 players, hand 1\n")
    assert "player_3: score 0" in text
    hand = env.game.hands[0]
    assert hand  # the cards are dealt, yet none shows
    from tricktaker.cards import cards_of, format_card

    for card in cards_of(hand):
        assert f" {format_card(card)}" not in text
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert pettingzoo_env("blackout").render() is None
