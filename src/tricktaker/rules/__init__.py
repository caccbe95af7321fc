"""Rulesets: the file format, loading, validation and the shipped games."""

from tricktaker.rules.errors import RulesetError
from tricktaker.rules.ruleset import (
    CompiledScoring,
    HandSpec,
    Ruleset,
    list_rulesets,
    load_ruleset,
    parse_sizes,
    ruleset_from_data,
)

__all__ = [
    "CompiledScoring",
    "HandSpec",
    "Ruleset",
    "RulesetError",
    "list_rulesets",
    "load_ruleset",
    "parse_sizes",
    "ruleset_from_data",
]
