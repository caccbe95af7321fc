"""Duplicate play: the same deals in the same seats at several tables, and its scoring
(docs/duplicate.md)."""

from tricktaker.duplicate.results import table_results
from tricktaker.duplicate.scoring import (
    METHODS,
    BoardScore,
    Method,
    Result,
    Standing,
    against_average,
    matchpoint_percentages,
    matchpoints,
    standings,
)
from tricktaker.duplicate.sets import (
    DuplicateError,
    DuplicateSet,
    daily_seed,
    default_players,
    duplicate_refusal,
    make_set,
)

__all__ = [
    "METHODS",
    "BoardScore",
    "DuplicateError",
    "DuplicateSet",
    "Method",
    "Result",
    "Standing",
    "against_average",
    "daily_seed",
    "default_players",
    "duplicate_refusal",
    "make_set",
    "matchpoint_percentages",
    "matchpoints",
    "standings",
    "table_results",
]
