"""docs/envs.md, Training an agent: a saved linear policy is a bot like the others
(``policy:path=FILE.npz``), so the arena measures it; a policy refuses another game."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.envs.helpers import require_envs

require_envs()

import numpy as np  # noqa: E402

from tricktaker import load_ruleset, new_game  # noqa: E402
from tricktaker.arena import ArenaConfig, run_arena  # noqa: E402
from tricktaker.bots import make_bot, play_game  # noqa: E402
from tricktaker.envs.encoding import Encoding  # noqa: E402
from tricktaker.envs.policy import LinearPolicy  # noqa: E402


def saved_policy(tmp_path: Path, game: str = "blackout", players: int = 4) -> str:
    """A policy that prefers the lowest bid and the highest card id."""
    rules = load_ruleset(game)
    policy = LinearPolicy.zeros(rules, players)
    encoding = Encoding.of(rules, players)
    policy.bias = np.array(
        [-float(i) if a.kind == "bid" else float(i) for i, a in enumerate(encoding.actions)]
    )
    path = tmp_path / "policy.npz"
    policy.save(path)
    return str(path)


def test_the_arena_measures_a_saved_policy(tmp_path: Path) -> None:
    """docs/envs.md, Training an agent: ``policy:path=FILE`` plays in the arena."""
    path = saved_policy(tmp_path)
    config = ArenaConfig(
        "blackout", bots=(f"policy:path={path}", "random", "random", "random"), hands=4
    )
    result = run_arena(config)
    assert result.results[0].name == f"policy:path={path}"
    assert result.results[0].hands >= 4


def test_the_policy_plays_its_most_likely_legal_action(tmp_path: Path) -> None:
    """docs/envs.md, Training an agent: the bot plays the policy's most likely action."""
    bot = make_bot(f"policy:path={saved_policy(tmp_path)}")
    state = new_game(load_ruleset("blackout"), players=4, seed=5)
    state.apply_chance()
    seat = state.to_act()[0]
    assert str(bot.act(state.observe(seat))) == "bid 0"
    play_game(state, [bot, *[make_bot("random", seed=s) for s in range(3)]], until_hand_end=True)


def test_a_policy_refuses_another_game(tmp_path: Path) -> None:
    """A policy is trained for one game, player count and options."""
    bot = make_bot(f"policy:path={saved_policy(tmp_path)}")
    state = new_game(load_ruleset("bluke"), players=4, seed=5)
    state.apply_chance()
    with pytest.raises(ValueError, match="was trained for blackout with 4 players"):
        bot.act(state.observe(state.to_act()[0]))
    with pytest.raises(ValueError, match="not a saved tricktaker policy"):
        make_bot(f"policy:path={tmp_path / 'missing.npz'}")
    with pytest.raises(ValueError, match="give the policy file"):
        make_bot("policy")
