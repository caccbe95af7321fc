"""Buckup's part of an observation: chips, the pot, the ante, each seat's status and
what the seat knows of the draw, with card ids (:class:`BuckupView`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tricktaker.cards import format_card, parse_card
from tricktaker.games.buckup.money import AnteStructure, Payment

__all__ = ["BuckupView"]


@dataclass(frozen=True, slots=True)
class BuckupView:
    """What a seat knows of a Buckup game: ``stacks``, ``pot``, the dealer's ``ante``
    (None before it is named), each seat's ``status`` (``undecided``, ``in``, ``out``,
    ``out_for_now``), the ``stock``'s size and this hand's ``payments`` (all public).

    With scare cards, ``scare_cards`` (each seat's face-up card id) and
    ``scare_discarded`` (whose face-up card was thrown away); otherwise both None.
    ``drawn``: how many cards each seat drew, when the ante has no card fee (None
    otherwise, or before the deal). ``discarded`` and ``drew``: the card ids this seat
    discarded and drew since the deal (None when it has none).
    """

    stacks: tuple[int, ...]
    pot: int
    ante: AnteStructure | None
    status: tuple[str, ...]
    stock: int
    payments: tuple[Payment, ...]
    scare_cards: tuple[int | None, ...] | None = None
    scare_discarded: tuple[bool, ...] | None = None
    drawn: tuple[int, ...] | None = None
    discarded: tuple[int, ...] | None = None
    drew: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """The wire form (``observation.extra``): cards as text; the optional keys are
        present only when their value is not None."""
        out: dict[str, Any] = {
            "stacks": list(self.stacks),
            "pot": self.pot,
            "ante": self.ante.describe() if self.ante is not None else None,
            "status": list(self.status),
            "stock": self.stock,
            "payments": [p.to_json() for p in self.payments],
        }
        if self.scare_cards is not None:
            out["scare_cards"] = [
                format_card(c) if c is not None else None for c in self.scare_cards
            ]
        if self.scare_discarded is not None:
            out["scare_discarded"] = list(self.scare_discarded)
        if self.drawn is not None:
            out["drawn"] = list(self.drawn)
        if self.discarded is not None:
            out["discarded"] = [format_card(c) for c in self.discarded]
        if self.drew is not None:
            out["drew"] = [format_card(c) for c in self.drew]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BuckupView:
        """The view back from its wire form (an observation read from JSON), the inverse
        of :meth:`to_json`."""
        ante = data["ante"]

        def cards(key: str) -> tuple[int, ...] | None:
            texts = data.get(key)
            return tuple(parse_card(c) for c in texts) if texts is not None else None

        scare = data.get("scare_cards")
        gone = data.get("scare_discarded")
        drawn = data.get("drawn")
        return cls(
            stacks=tuple(data["stacks"]),
            pot=data["pot"],
            ante=AnteStructure(**ante) if ante is not None else None,
            status=tuple(data["status"]),
            stock=data["stock"],
            payments=tuple(Payment(**p) for p in data["payments"]),
            scare_cards=(
                tuple(parse_card(c) if c is not None else None for c in scare)
                if scare is not None
                else None
            ),
            scare_discarded=tuple(bool(g) for g in gone) if gone is not None else None,
            drawn=tuple(drawn) if drawn is not None else None,
            discarded=cards("discarded"),
            drew=cards("drew"),
        )
