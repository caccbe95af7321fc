"""tricktaker: exact, seedable trick-taking games (Bluke, Blackout and relatives).

>>> from tricktaker import load_ruleset, new_game
>>> state = new_game(load_ruleset("bluke"), players=4, seed=1)
>>> state.rules.name, state.players
('Bluke', 4)

The names below are imported on first use (``import tricktaker`` alone loads neither
the engine nor the rules), so the command line starts quickly.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

from tricktaker._version import __version__ as __version__

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

_RULES_NAMES = frozenset({"Ruleset", "RulesetError", "list_rulesets", "load_ruleset"})
"""The public names that :mod:`tricktaker.rules` holds; :mod:`tricktaker.engine` holds
the rest."""
_HOME_OF = {
    name: "tricktaker.rules" if name in _RULES_NAMES else "tricktaker.engine" for name in __all__
}


def __getattr__(name: str) -> Any:
    """The public names, imported from their modules on first use (PEP 562)."""
    home = _HOME_OF.get(name)
    if home is None:
        raise AttributeError(f"module 'tricktaker' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
