"""Play a game between bots and record every decision as rows of a dataset.

:func:`play_recorded` plays exactly as :func:`tricktaker.bots.play_game` (the same bots
asked the same way, so a game's result does not depend on whether it is recorded) and
returns :class:`GameRows`: one row per decision, in the order made, with the deciding
seat's observation encoded by :mod:`tricktaker.envs.encoding`, its legal actions as a
mask, the action chosen, and the hand's and the game's outcome joined in once the game
is over. Only numpy is needed here (this runs in the worker processes); the Parquet
files are written by :mod:`tricktaker.datasets.writer`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tricktaker.bots.base import Bot, decide
from tricktaker.engine.state import GameState
from tricktaker.envs.encoding import Encoding


@dataclass(frozen=True)
class GameRows:
    """The decisions of one game as columns (one entry per decision).

    ``observation`` is ``(decisions, observation_size)`` float32 and ``legal`` is
    ``(decisions, action_size)`` bool; the other columns are 1-D arrays (``bid``: -1
    where the hand has no bid for the seat). ``final_scores`` and ``winners`` describe
    the game.
    """

    game_seed: int
    hand: npt.NDArray[np.int16]
    step: npt.NDArray[np.int32]
    seat: npt.NDArray[np.int8]
    phase: tuple[str, ...]
    observation: npt.NDArray[np.float32]
    legal: npt.NDArray[np.bool_]
    action: npt.NDArray[np.int16]
    choices: npt.NDArray[np.int16]
    hand_score: npt.NDArray[np.int32]
    bid: npt.NDArray[np.int16]
    tricks: npt.NDArray[np.int16]
    final_score: npt.NDArray[np.int32]
    won: npt.NDArray[np.bool_]
    hands: int
    final_scores: tuple[int, ...]
    winners: tuple[int, ...]

    def __len__(self) -> int:
        return len(self.step)


def play_recorded(state: GameState, bots: Sequence[Bot]) -> GameRows:
    """Play ``state`` to the end with one bot per seat, recording every decision."""
    players = state.players
    if len(bots) != players:
        raise ValueError(f"give one bot per seat: {players} needed, {len(bots)} given")
    encoding = Encoding.of(state.rules, players)
    hands: list[int] = []
    seats: list[int] = []
    phases: list[str] = []
    observations: list[npt.NDArray[np.float32]] = []
    masks: list[npt.NDArray[np.int8]] = []
    actions: list[int] = []
    choices: list[int] = []
    while not state.is_terminal():
        if state.is_chance():
            state.apply_chance()
            continue
        for seat in state.to_act():
            observation = state.observe(seat)
            action = decide(bots[seat], state, seat)
            hands.append(state.hands_played)
            seats.append(seat)
            phases.append(observation.phase)
            observations.append(encoding.encode(observation))
            masks.append(encoding.action_mask(observation))
            actions.append(encoding.action_index(action))
            choices.append(len(observation.legal_actions))
            state.apply(seat, action)
    size = len(actions)
    hand_index = np.asarray(hands, dtype=np.int64)
    seat_index = np.asarray(seats, dtype=np.int64)
    history = state.history
    hand_scores = np.zeros((max(len(history), 1), players), dtype=np.int32)
    bids = np.full((max(len(history), 1), players), -1, dtype=np.int16)
    tricks = np.zeros((max(len(history), 1), players), dtype=np.int16)
    for number, result in enumerate(history):
        hand_scores[number] = result.hand_scores
        tricks[number] = result.tricks
        if len(result.bids) == players:
            bids[number] = [b if isinstance(b, int) else -1 for b in result.bids]
    # A decision of a hand that was thrown in before scoring (Buckup's redeal keeps the
    # hand number) belongs to the hand scored under that number.
    hand_index = np.minimum(hand_index, len(history) - 1) if history else hand_index * 0
    winners = tuple(state.winners())
    won = np.zeros(players, dtype=np.bool_)
    won[list(winners)] = True
    finals = np.asarray(state.scores, dtype=np.int32)
    return GameRows(
        game_seed=state.seed,
        hand=(hand_index + 1).astype(np.int16),
        step=np.arange(size, dtype=np.int32),
        seat=seat_index.astype(np.int8),
        phase=tuple(phases),
        observation=(
            np.stack(observations)
            if observations
            else np.zeros((0, encoding.observation_size), np.float32)
        ),
        legal=(
            np.stack(masks).astype(np.bool_)
            if masks
            else np.zeros((0, encoding.action_size), np.bool_)
        ),
        action=np.asarray(actions, dtype=np.int16),
        choices=np.asarray(choices, dtype=np.int16),
        hand_score=hand_scores[hand_index, seat_index],
        bid=bids[hand_index, seat_index],
        tricks=tricks[hand_index, seat_index],
        final_score=finals[seat_index],
        won=won[seat_index],
        hands=len(history),
        final_scores=tuple(int(s) for s in state.scores),
        winners=winners,
    )
