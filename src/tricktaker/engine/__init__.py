"""The state machine: phases, actions, tricks, scoring, observations, records."""

from tricktaker.engine.actions import Action, ActionParseError, bid, play
from tricktaker.engine.errors import IllegalActionError, RecordError
from tricktaker.engine.observation import Observation
from tricktaker.engine.record import GameRecord, replay
from tricktaker.engine.results import HandResult
from tricktaker.engine.state import ChanceOutcome, GameState, new_game
from tricktaker.engine.view import GameView

__all__ = [
    "Action",
    "ActionParseError",
    "ChanceOutcome",
    "GameRecord",
    "GameState",
    "GameView",
    "HandResult",
    "IllegalActionError",
    "Observation",
    "RecordError",
    "bid",
    "new_game",
    "play",
    "replay",
]
