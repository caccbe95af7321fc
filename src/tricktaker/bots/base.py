"""The bot interface, the registry of bots by name, and a loop that plays a game with bots."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from tricktaker.engine.actions import Action
from tricktaker.engine.observation import Observation
from tricktaker.engine.state import GameState


class Bot(Protocol):
    """Anything that picks an action from an observation."""

    name: str

    def act(self, observation: Observation) -> Action:
        """Choose one of ``observation.legal_actions``."""
        ...


def _registry() -> dict[str, Callable[[int], Bot]]:
    from tricktaker.bots.heuristic import HeuristicBot
    from tricktaker.bots.ismcts import ISMCTSBot
    from tricktaker.bots.pimc import PIMCBot
    from tricktaker.bots.random_bot import RandomBot

    return {"random": RandomBot, "heuristic": HeuristicBot, "pimc": PIMCBot, "ismcts": ISMCTSBot}


BOT_NAMES = ("random", "heuristic", "pimc", "ismcts")


def make_bot(name: str, *, seed: int = 0) -> Bot:
    """A bot by name (``random``, ``heuristic``, ``pimc``), seeded for reproducible choices."""
    factories = _registry()
    if name not in factories:
        raise ValueError(f"unknown bot {name!r}; the bots are: {', '.join(factories)}")
    return factories[name](seed)


def play_game(state: GameState, bots: Sequence[Bot], *, until_hand_end: bool = False) -> None:
    """Play ``state`` to the end with one bot per seat (chance steps from the seed).

    With ``until_hand_end`` it stops once the hand in progress is scored.
    """
    if len(bots) != state.players:
        raise ValueError(f"give one bot per seat: {state.players} needed, {len(bots)} given")
    start = state.hands_played
    while not state.is_terminal():
        if until_hand_end and state.hands_played > start:
            return
        if state.is_chance():
            state.apply_chance()
            continue
        for seat in state.to_act():
            state.apply(seat, bots[seat].act(state.observe(seat)))
