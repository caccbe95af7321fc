"""tricktaker: exact, seedable trick-taking games (Bluke, Blackout and relatives).

>>> from tricktaker import load_ruleset, new_game
>>> state = new_game(load_ruleset("bluke"), players=4, seed=1)
>>> state.rules.name, state.players
('Bluke', 4)
"""

from tricktaker.engine import (
    Action,
    ChanceOutcome,
    GameRecord,
    GameState,
    HandResult,
    IllegalActionError,
    Observation,
    RecordError,
    bid,
    new_game,
    play,
    replay,
)
from tricktaker.rules import Ruleset, RulesetError, list_rulesets, load_ruleset

__version__ = "0.1.0"

__all__ = [
    "Action",
    "ChanceOutcome",
    "GameRecord",
    "GameState",
    "HandResult",
    "IllegalActionError",
    "Observation",
    "RecordError",
    "Ruleset",
    "RulesetError",
    "bid",
    "list_rulesets",
    "load_ruleset",
    "new_game",
    "play",
    "replay",
]
