"""Which rules a game was played under: a ruleset's fingerprint and its description.

Statistics and ratings are kept apart per *fingerprint*: a hash of the ruleset's data
(a house-rules file's fields, ``extends`` merged in) and the value of every one of its
options, so that a house variant or an option turned on never mixes with the preset.
Beside each figure the player's page shows the fingerprint's description: the game's
name, whether the rules are a house file's, and the options that differ from the
ruleset's own defaults (Blackout with ``hook`` on reads "Blackout, hook on").
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from tricktaker.rules import Ruleset, RulesetError, list_rulesets, load_ruleset

__all__ = ["FINGERPRINT_LENGTH", "RulesLabel", "fingerprint", "rules_label"]

FINGERPRINT_LENGTH = 16
"""Hex digits of a fingerprint kept (64 bits of SHA-256)."""


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def fingerprint(data: Mapping[str, Any], options: Mapping[str, Any]) -> str:
    """The fingerprint of a ruleset's ``data`` (before options) with the value of each
    of its ``options``: the first :data:`FINGERPRINT_LENGTH` hex digits of the SHA-256
    of both as canonical JSON (keys sorted). Equal rules give equal fingerprints
    whatever the order of their keys.

    >>> fingerprint({"id": "x", "a": 1}, {"hook": True}) == fingerprint(
    ...     {"a": 1, "id": "x"}, {"hook": True})
    True
    >>> fingerprint({"id": "x"}, {"hook": True}) == fingerprint({"id": "x"}, {"hook": False})
    False
    """
    text = _canonical({"ruleset": dict(data), "options": dict(options)})
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:FINGERPRINT_LENGTH]


@dataclass(frozen=True, slots=True)
class RulesLabel:
    """A fingerprint with what a person reads of it."""

    fingerprint: str
    game: str
    """The ruleset's id (a house file's own)."""
    name: str
    """The game's name, as its ruleset gives it."""
    house: bool
    """Whether the ruleset's fields differ from the shipped game of its id (or it has
    no shipped game): a house-rules file."""
    changed: tuple[str, ...]
    """The options whose value differs from the ruleset's default, ``"hook on"``,
    ``"rounds 5"``, in the ruleset's order."""

    @property
    def text(self) -> str:
        """One line: ``"Blackout"``, ``"Blackout, hook on"``, ``"Up and Down (house
        rules), hook on"``."""
        head = f"{self.name} (house rules)" if self.house else self.name
        return ", ".join((head, *self.changed))

    def to_json(self) -> dict[str, Any]:
        """The label as JSON: its fingerprint, game, name, house flag, changes and text."""
        return {
            "fingerprint": self.fingerprint,
            "game": self.game,
            "name": self.name,
            "house": self.house,
            "changed": list(self.changed),
            "text": self.text,
        }


@lru_cache(maxsize=64)
def _shipped_data(ident: str) -> str | None:
    """The canonical JSON of the shipped game ``ident``'s fields (None: none shipped)."""
    if ident not in list_rulesets():
        return None
    try:
        return _canonical(load_ruleset(ident).data)
    except RulesetError:  # pragma: no cover - a shipped preset always loads
        return None


def _value_text(value: bool | int) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def rules_label(rules: Ruleset) -> RulesLabel:
    """The fingerprint of ``rules`` (its data and option values) and its description."""
    changed = tuple(
        f"{name} {_value_text(value)}"
        for name, option, value in rules.describe_options()
        if option.default is not None and value != option.default
    )
    house = _shipped_data(rules.id) != _canonical(rules.data)
    return RulesLabel(
        fingerprint=fingerprint(rules.data, rules.options),
        game=rules.id,
        name=rules.name,
        house=house,
        changed=changed,
    )
