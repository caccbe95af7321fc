"""docs/envs.md, Gymnasium: one seat learns against tricktaker bots; Gymnasium's own
checker passes for every shipped ruleset, episodes end with the game and pay the seat's
score, and illegal actions are penalized or refused."""

from __future__ import annotations

import pytest

from tests.envs.helpers import GAMES, require_envs

require_envs()

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from tricktaker.envs import gym_env  # noqa: E402
from tricktaker.envs.gym_env import TricktakerGym  # noqa: E402


@pytest.mark.filterwarnings("ignore:.*Not able to test alternative render modes")
@pytest.mark.filterwarnings("ignore:.*A Box observation space m.* value is .*infinity")
@pytest.mark.parametrize("game_id", GAMES)
def test_check_env_passes(game_id: str) -> None:
    """docs/envs.md, Gymnasium: ``gymnasium.utils.env_checker.check_env`` passes (its
    notices silenced: scores and chips are unbounded, and the env is not registered)."""
    check_env(gym_env(game_id, opponents="random"))


def play_episode(env: TricktakerGym, seed: int) -> float:
    """Random legal actions for the learner until the game ends; its return."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    total, done = 0.0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, done, truncated, info = env.step(action)
        assert not truncated
        assert "illegal" not in info
        total += reward
    return total


def test_an_episode_is_a_game_against_the_chosen_bots() -> None:
    """docs/envs.md, Gymnasium: the episode ends with the game; with per-hand rewards the
    return is the learning seat's final score, with per-game rewards +1 or -1."""
    env = gym_env("pluck", options={"hands": 2}, seat=1, opponents=["easy", "random"])
    assert play_episode(env, seed=4) == env.game.scores[1]
    env = gym_env("euchre", options={"target": 2}, seat=2, reward="game")
    assert play_episode(env, seed=5) == (1.0 if 2 in env.game.winners() else -1.0)


def test_the_same_seed_gives_the_same_game() -> None:
    """docs/envs.md, Gymnasium: the deal and the bots' play follow the seed."""
    first = gym_env("blackout", opponents="easy")
    second = gym_env("blackout", opponents="easy")
    play_episode(first, seed=8)
    play_episode(second, seed=8)
    assert first.game.record().dumps() == second.game.record().dumps()


def test_illegal_actions_are_penalized_or_refused() -> None:
    """docs/envs.md, Gymnasium: an illegal action changes nothing and earns
    ``illegal_reward``; with ``illegal="raise"`` it raises, naming the legal actions."""
    env = gym_env("blackout", players=4, illegal_reward=-2.0)
    observation, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    again, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal"]) == (-2.0, False, True)
    assert np.array_equal(again, observation)
    strict = gym_env("blackout", players=4, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="legal: bid 0, bid 1"):
        strict.step(illegal)


def test_settings_are_checked_in_words() -> None:
    """docs/envs.md, Gymnasium: one opponent per other seat, known bot names."""
    with pytest.raises(ValueError, match="one opponent for each of the 3 other seats"):
        gym_env("blackout", players=4, opponents=["easy", "easy"])
    with pytest.raises(ValueError, match="unknown bot 'genius'"):
        gym_env("blackout", opponents="genius")
    with pytest.raises(ValueError, match=r"seat must be 0\.\.3"):
        gym_env("blackout", players=4, seat=4)
