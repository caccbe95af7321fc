"""Shared helpers of the environment tests (the ``envs`` extra)."""

from __future__ import annotations

import importlib.util
import os

import pytest

from tricktaker import list_rulesets, load_ruleset
from tricktaker.rules import Ruleset

INSTALL = "pip install -e '.[envs]' (numpy, PettingZoo, Gymnasium)"
ENVS_MODULES = ("numpy", "pettingzoo", "gymnasium")


def require_envs() -> None:
    """Call at the top of a test module, before importing ``tricktaker.envs``: under
    ``CI=true`` a missing extra fails the tests, elsewhere the module is skipped."""
    missing = [name for name in ENVS_MODULES if importlib.util.find_spec(name) is None]
    if not missing:
        return
    if os.environ.get("CI", "").lower() == "true":
        raise ImportError(f"{', '.join(missing)} missing in CI: {INSTALL}")
    pytest.skip(f"{', '.join(missing)} not installed: {INSTALL}", allow_module_level=True)


GAMES = tuple(list_rulesets())
"""Every shipped ruleset."""


def table_size(rules: Ruleset) -> int:
    """A player count each test uses: 4 where the game allows it, else its smallest."""
    counts = rules.player_counts
    return 4 if 4 in counts else counts.start


def rules_of(game: str) -> Ruleset:
    """A shipped ruleset, loaded with its default options."""
    return load_ruleset(game)
