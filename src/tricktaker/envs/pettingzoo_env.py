"""A PettingZoo AEC environment for any tricktaker ruleset (docs/envs.md, PettingZoo).

>>> env = pettingzoo_env("blackout", players=3, seed=4)
>>> env.reset(seed=4)
>>> env.agent_selection, env.observation_space("player_0")["observation"].shape
('player_1', (498,))
>>> observation, reward, termination, truncation, info = env.last()
>>> [str(env.encoding.action_at(i)) for i in observation["action_mask"].nonzero()[0]]
['bid 0', 'bid 1']
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from tricktaker.cards import SUIT_NAMES, format_card, format_cards
from tricktaker.engine.hooks import keeps_engine_bids
from tricktaker.engine.state import GameState, new_game
from tricktaker.envs.encoding import Encoding, Mask, Vector
from tricktaker.rules import Ruleset, load_ruleset

__all__ = ["RewardKind", "TricktakerAEC", "default_players", "pettingzoo_env", "resolve_game"]

RewardKind = Literal["hand", "game"]
Observed = dict[str, Vector | Mask]


def resolve_game(game: str | Path | Ruleset, options: Mapping[str, object] | None) -> Ruleset:
    """The ruleset of a shipped id, a house-rules file or a ruleset already loaded."""
    if isinstance(game, Ruleset):
        if options:
            raise ValueError("give options with a game id or file, not with a loaded ruleset")
        return game
    return load_ruleset(game, options=options)


def default_players(rules: Ruleset) -> int:
    """4 players where the game allows it, else its smallest table."""
    counts = rules.player_counts
    return 4 if 4 in counts else counts.start


def game_rewards(state: GameState) -> list[float]:
    """The end-of-game rewards: +1 for each winner, -1 for everyone else (a cooperative
    game: +1 for everyone when completed, else -1)."""
    winners = set(state.winners())
    return [1.0 if seat in winners else -1.0 for seat in range(state.players)]


def advance(state: GameState) -> None:
    """Resolve chance steps (deals, draws) from the seed until a seat acts or the game ends."""
    while not state.is_terminal() and state.is_chance():
        state.apply_chance()


def render_text(state: GameState) -> str:
    """The table as text, showing no hidden card: the hand, trump, bids, tricks, scores
    and the trick in progress."""
    rules = state.rules
    labels = rules.joker_labels
    lines = [f"{rules.name}, {state.players} players, hand {state.hands_played + 1}"]
    if state.is_terminal():
        winners = ", ".join(f"player_{s}" for s in state.winners()) or "nobody"
        lines[0] = f"{rules.name}, {state.players} players: game over, won by {winners}"
    view = state.observe(0)
    if not state.is_terminal():
        trump = "not known yet"
        if view.trump_known:
            trump = SUIT_NAMES[view.trump] if view.trump is not None else "no trump"
        lines.append(
            f"{view.hand_size} cards each, dealer player_{view.dealer}, trump {trump},"
            f" phase {view.phase}"
        )
    for seat in range(state.players):
        seen = state.observe(seat)
        bid = seen.bids[seat]
        parts = [f"player_{seat}: score {state.scores[seat]}"]
        if keeps_engine_bids(rules.hooks) and not state.is_terminal():
            parts.append(f"bid {bid if bid is not None else '-'}")
        if not state.is_terminal():
            parts.append(f"tricks {state.tricks_won[seat]}")
        if seat in state.to_act():
            parts.append("to act")
        lines.append(", ".join(parts))
    if state.trick:
        played = " ".join(
            f"player_{seat}:{format_card(card, labels=labels)}" for seat, card in state.trick
        )
        lines.append(f"trick: {played}")
    if state.trick_cards:
        last = 0
        for trick in state.trick_cards:
            for _, card in trick:
                last |= 1 << card
        lines.append(f"played this hand: {format_cards(last, labels=labels)}")
    return "\n".join(lines) + "\n"


class TricktakerAEC(AECEnv[str, Observed, int | None]):  # type: ignore[misc]  # untyped base
    """Every seat of a tricktaker game as a PettingZoo agent (``player_0`` ...).

    Observations are dicts of ``observation`` (the seat's :class:`Encoding` vector) and
    ``action_mask``; actions are indices of the encoding's action space. Chance steps are
    resolved inside, from the game's seed.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's convention)
        "render_modes": ["ansi"],
        "name": "tricktaker_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Ruleset,
        *,
        players: int,
        render_mode: str | None = None,
        reward: RewardKind = "hand",
        seed: int = 0,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        if reward not in ("hand", "game"):
            raise ValueError(f"reward must be 'hand' or 'game', not {reward!r}")
        rules.check_players(players)
        self.rules = rules
        self.players = players
        self.render_mode = render_mode
        self.reward_kind: RewardKind = reward
        self.encoding = Encoding.of(rules, players)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.next_seed = seed
        self.game: GameState = new_game(rules, players=players, seed=seed)
        self._observation_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(
                    self.encoding.low, self.encoding.high, dtype=np.float32
                ),
                "action_mask": gymnasium.spaces.Box(
                    0, 1, shape=(self.encoding.action_size,), dtype=np.int8
                ),
            }
        )
        self._action_spaces = {
            agent: gymnasium.spaces.Discrete(self.encoding.action_size)
            for agent in self.possible_agents
        }

    def __str__(self) -> str:
        return f"tricktaker_{self.rules.id}_{self.players}p"

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The same Dict space for every agent (``observation`` Box, ``action_mask``)."""
        return self._observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """A ``Discrete`` of the encoding's action indices."""
        return self._action_spaces[agent]

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game, dealt from ``seed`` (without one: the next seed after the last game's)."""
        if seed is not None:
            self.next_seed = seed
        self.game = new_game(self.rules, players=self.players, seed=self.next_seed)
        self.next_seed += 1
        advance(self.game)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {"seat": self._seat[agent]} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        to_act = self.game.to_act()
        if to_act:
            self.agent_selection = self.possible_agents[to_act[0]]

    def observe(self, agent: str) -> Observed:
        """``agent``'s observation: its encoding vector and its legal-action mask."""
        observation = self.game.observe(self._seat[agent])
        return {
            "observation": self.encoding.encode(observation),
            "action_mask": self.encoding.action_mask(observation),
        }

    def step(self, action: int | None) -> None:
        """Take action index ``action`` for the agent to act (None once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: give an action index, not None")
        seat = self._seat[agent]
        chosen = self.encoding.action_at(int(action))
        state = self.game
        if not state.is_legal(seat, chosen):
            legal = ", ".join(str(a) for a in state.legal_actions(seat))
            raise ValueError(f"{agent} may not {chosen} now; the legal actions are {legal}")
        self._cumulative_rewards[agent] = 0.0
        before = list(state.scores)
        state.apply(seat, chosen)
        advance(state)
        if self.reward_kind == "hand":
            rewards = [float(after - was) for after, was in zip(state.scores, before, strict=True)]
        else:
            rewards = [0.0] * self.players
        if state.is_terminal():
            if self.reward_kind == "game":
                rewards = game_rewards(state)
            self.terminations = dict.fromkeys(self.agents, True)
        self.rewards = {a: rewards[self._seat[a]] for a in self.agents}
        self._accumulate_rewards()
        if not state.is_terminal():
            self._select()

    def render(self) -> str | None:
        """With ``render_mode="ansi"``: the table as text (no hidden cards)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: create the env with 'ansi'")
            return None
        return render_text(self.game)

    def close(self) -> None:
        """Nothing to release."""


def pettingzoo_env(
    game: str | Path | Ruleset,
    *,
    players: int | None = None,
    options: Mapping[str, object] | None = None,
    render_mode: str | None = None,
    reward: RewardKind = "hand",
    seed: int = 0,
) -> TricktakerAEC:
    """A PettingZoo AEC environment of ``game`` (a shipped id, a house-rules TOML path or a
    :class:`Ruleset`) with ``options``, for ``players`` seats (default: 4 where allowed).

    ``reward``: ``"hand"`` gives each agent its points as each hand is scored,
    ``"game"`` +1 to the winners and -1 to the others at the end. ``seed`` deals the
    first game (``reset(seed=...)`` overrides it).
    """
    rules = resolve_game(game, options)
    return TricktakerAEC(
        rules,
        players=players if players is not None else default_players(rules),
        render_mode=render_mode,
        reward=reward,
        seed=seed,
    )
