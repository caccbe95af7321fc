"""A Gymnasium environment: one seat learns, tricktaker bots play the others
(docs/envs.md, Gymnasium).

>>> env = gym_env("blackout", players=4, seat=0, opponents="random")
>>> observation, info = env.reset(seed=3)
>>> observation.shape, int(info["action_mask"].sum()) >= 1
((620,), True)
>>> observation, reward, terminated, truncated, info = env.step(env.first_legal())
>>> terminated, truncated
(False, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import gymnasium
import numpy as np

from tricktaker.bots.base import Bot, decide, make_bot
from tricktaker.engine.base import mix_seed
from tricktaker.engine.state import GameState, new_game
from tricktaker.envs.encoding import Encoding, Mask, Vector
from tricktaker.envs.pettingzoo_env import (
    RewardKind,
    advance,
    default_players,
    game_rewards,
    render_text,
    resolve_game,
)
from tricktaker.rules import Ruleset

__all__ = ["IllegalMode", "TricktakerGym", "gym_env"]

IllegalMode = Literal["penalize", "raise"]


class TricktakerGym(gymnasium.Env[Vector, np.int64]):
    """One seat of a tricktaker game as a Gymnasium environment.

    The observation is the seat's :class:`Encoding` vector (a ``Box``); the action an
    index of the encoding's actions (``Discrete``). ``info["action_mask"]`` and
    :meth:`action_masks` give the legal actions. An illegal action changes nothing and
    earns ``illegal_reward`` (``illegal="penalize"``, the default, which lets generic
    agents and checkers sample any action) or raises ``ValueError``
    (``illegal="raise"``).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 (Gymnasium's convention)

    def __init__(
        self,
        rules: Ruleset,
        *,
        players: int,
        seat: int = 0,
        opponents: str | Sequence[str] = "easy",
        reward: RewardKind = "hand",
        illegal: IllegalMode = "penalize",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        seed: int = 0,
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if reward not in ("hand", "game"):
            raise ValueError(f"reward must be 'hand' or 'game', not {reward!r}")
        if illegal not in ("penalize", "raise"):
            raise ValueError(f"illegal must be 'penalize' or 'raise', not {illegal!r}")
        rules.check_players(players)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}, not {seat}")
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise ValueError(
                f"give one opponent for each of the {players - 1} other seats, not {len(names)}"
            )
        for name in names:
            make_bot(name)  # a bad name fails now, with the bot registry's message
        self.rules = rules
        self.players = players
        self.seat = seat
        self.opponents = tuple(names)
        self.reward_kind: RewardKind = reward
        self.illegal: IllegalMode = illegal
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.encoding = Encoding.of(rules, players)
        self.observation_space = gymnasium.spaces.Box(
            self.encoding.low, self.encoding.high, dtype=np.float32
        )
        self.action_space = gymnasium.spaces.Discrete(self.encoding.action_size)
        self.next_seed = seed
        self.game: GameState = new_game(rules, players=players, seed=seed)
        self.bots: dict[int, Bot] = {}

    # ------------------------------------------------------------------ episode

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Vector, dict[str, Any]]:
        """A new game dealt from ``seed`` (without one: the next seed after the last game's);
        the bots play until the learning seat's first decision."""
        super().reset(seed=seed)
        if seed is not None:
            self.next_seed = seed
        game_seed = self.next_seed
        self.next_seed += 1
        self.game = new_game(self.rules, players=self.players, seed=game_seed)
        others = [s for s in range(self.players) if s != self.seat]
        self.bots = {
            s: make_bot(name, seed=mix_seed(game_seed, s))
            for s, name in zip(others, self.opponents, strict=True)
        }
        self._run_bots()
        return self._observe()

    def _run_bots(self) -> None:
        """Chance steps and the bots' turns, until the learner acts or the game ends."""
        state = self.game
        while True:
            advance(state)
            if state.is_terminal():
                return
            to_act = state.to_act()
            if self.seat in to_act:
                return
            seat = to_act[0]
            state.apply(seat, decide(self.bots[seat], state, seat))

    def _observe(self) -> tuple[Vector, dict[str, Any]]:
        observation = self.game.observe(self.seat)
        info = {"action_mask": self.encoding.action_mask(observation), "seat": self.seat}
        return self.encoding.encode(observation), info

    def action_masks(self) -> Mask:
        """The legal actions now, as an ``int8`` mask (the name maskable learners call)."""
        return self.encoding.action_mask(self.game.observe(self.seat))

    def first_legal(self) -> int:
        """The index of the first legal action (for examples and smoke tests)."""
        return int(np.flatnonzero(self.action_masks())[0])

    def step(self, action: np.int64 | int) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        """Take action index ``action`` for the learning seat, then let the bots play."""
        state = self.game
        if state.is_terminal():
            raise RuntimeError("the game is over: call reset() first")
        chosen = self.encoding.action_at(int(action))
        if not state.is_legal(self.seat, chosen):
            if self.illegal == "raise":
                legal = ", ".join(str(a) for a in state.legal_actions(self.seat))
                raise ValueError(f"seat {self.seat} may not {chosen} now; legal: {legal}")
            vector, info = self._observe()
            info["illegal"] = True
            return vector, self.illegal_reward, False, False, info
        before = state.scores[self.seat]
        state.apply(self.seat, chosen)
        self._run_bots()
        terminated = state.is_terminal()
        if self.reward_kind == "hand":
            reward = float(state.scores[self.seat] - before)
        else:
            reward = game_rewards(state)[self.seat] if terminated else 0.0
        vector, info = self._observe()
        return vector, reward, terminated, False, info

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the table as text (no hidden cards)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: create the env with 'ansi'")
            return None
        return render_text(self.game)


def gym_env(
    game: str | Path | Ruleset,
    *,
    players: int | None = None,
    options: Mapping[str, object] | None = None,
    seat: int = 0,
    opponents: str | Sequence[str] = "easy",
    reward: RewardKind = "hand",
    illegal: IllegalMode = "penalize",
    illegal_reward: float = -1.0,
    render_mode: str | None = None,
    seed: int = 0,
) -> TricktakerGym:
    """A Gymnasium environment of ``game`` (a shipped id, a house-rules TOML path or a
    :class:`Ruleset`) in which ``seat`` learns against ``opponents`` (a bot name or level
    for every other seat, or one per other seat in seat order)."""
    rules = resolve_game(game, options)
    return TricktakerGym(
        rules,
        players=players if players is not None else default_players(rules),
        seat=seat,
        opponents=opponents,
        reward=reward,
        illegal=illegal,
        illegal_reward=illegal_reward,
        render_mode=render_mode,
        seed=seed,
    )
