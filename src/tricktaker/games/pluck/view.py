"""Pluck's part of an observation: quotas and plucks, with card ids (:class:`PluckView`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tricktaker.cards import DEFAULT_JOKER_LABELS, format_card, parse_card

__all__ = ["PluckMove", "PluckView"]


@dataclass(frozen=True, slots=True)
class PluckMove:
    """One pluck as a seat sees it: ``given`` (the card the plucker took) and
    ``returned`` (the card given back) are card ids, None where the seat is neither the
    plucker nor the pluckee (or the card is not given back yet)."""

    plucker: int
    pluckee: int
    given: int | None
    returned: int | None = None


@dataclass(frozen=True, slots=True)
class PluckView:
    """What a seat knows of the plucks of the hand in progress.

    ``quotas``: each seat's quota of tricks; ``plucks``: the plucks made this hand;
    ``plucks_pending``: the plucks still owed, ``(plucker, pluckee)`` in the order they are made;
    ``pluck_in_progress``: the pluck whose card is to be given back (its ``returned`` is None).
    """

    quotas: tuple[int, ...]
    plucks: tuple[PluckMove, ...]
    plucks_pending: tuple[tuple[int, int], ...]
    pluck_in_progress: PluckMove | None
    labels: tuple[str, str] = DEFAULT_JOKER_LABELS
    """The ruleset's joker labels, for writing cards as text."""

    def to_json(self) -> dict[str, Any]:
        """The wire form (``observation.extra``): cards as text."""
        labels = self.labels

        def text(card: int | None) -> str | None:
            return format_card(card, labels=labels) if card is not None else None

        current: dict[str, Any] | None = None
        if self.pluck_in_progress is not None:
            move = self.pluck_in_progress
            current = {"plucker": move.plucker, "pluckee": move.pluckee, "given": text(move.given)}
        return {
            "quotas": list(self.quotas),
            "plucks": [
                {
                    "plucker": p.plucker,
                    "pluckee": p.pluckee,
                    "given": text(p.given),
                    "returned": text(p.returned),
                }
                for p in self.plucks
            ],
            "plucks_pending": [list(p) for p in self.plucks_pending],
            "pluck_in_progress": current,
        }

    @classmethod
    def from_json(
        cls, data: Mapping[str, Any], labels: tuple[str, str] = DEFAULT_JOKER_LABELS
    ) -> PluckView:
        """The view back from its wire form (an observation read from JSON), the inverse
        of :meth:`to_json`; ``labels``: the ruleset's joker labels."""

        def card(text: str | None) -> int | None:
            return parse_card(text, labels=labels) if text is not None else None

        current = data.get("pluck_in_progress")
        return cls(
            quotas=tuple(data["quotas"]),
            plucks=tuple(
                PluckMove(p["plucker"], p["pluckee"], card(p["given"]), card(p["returned"]))
                for p in data["plucks"]
            ),
            plucks_pending=tuple((plucker, pluckee) for plucker, pluckee in data["plucks_pending"]),
            pluck_in_progress=(
                PluckMove(current["plucker"], current["pluckee"], card(current["given"]))
                if current is not None
                else None
            ),
            labels=labels,
        )
