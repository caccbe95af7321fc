"""Errors the engine raises, with messages written for players."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action the rules forbid. The state is left unchanged.

    ``rule`` names the rule that forbids it (for example ``"follow suit"``).
    """

    def __init__(self, message: str, *, rule: str) -> None:
        super().__init__(f"{message} (rule: {rule})")
        self.rule = rule
        self.reason = message


class RecordError(ValueError):
    """A game record that cannot be read or replayed."""
