"""Euchre's part of an observation: the auction, the contract, the kitty, the
partnerships' points, with card ids (:class:`EuchreView`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tricktaker.cards import SUIT_NAMES, format_card, parse_card

__all__ = ["EuchreContract", "EuchreView"]


@dataclass(frozen=True, slots=True)
class EuchreContract:
    """The contract of the hand: the declarer, the tricks bid and the trump suit id
    (None: no trump)."""

    declarer: int
    tricks: int
    trump: int | None

    def to_json(self) -> dict[str, Any]:
        """The wire form: the trump by its suit name, or ``"no_trump"``."""
        return {
            "declarer": self.declarer,
            "tricks": self.tricks,
            "trump": SUIT_NAMES[self.trump] if self.trump is not None else "no_trump",
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EuchreContract:
        """The contract back from its wire form (the inverse of :meth:`to_json`)."""
        trump = data["trump"]
        return cls(
            declarer=data["declarer"],
            tricks=data["tricks"],
            trump=SUIT_NAMES.index(trump) if trump != "no_trump" else None,
        )


@dataclass(frozen=True, slots=True)
class EuchreView:
    """What a seat knows of the Euchre hand in progress.

    ``auction``: every call in order, ``(seat, "3D")`` or ``(seat, "pass")``;
    ``high_bid``: ``(seat, bid)`` of the high bid so far; ``passed``: the seats out of
    the auction; ``kitty`` and ``discards``: card ids, shown only to the declarer (None
    for the others); ``team_scores`` and ``team_tricks``: per partnership.
    """

    auction: tuple[tuple[int, str], ...]
    high_bid: tuple[int, str] | None
    passed: tuple[int, ...]
    contract: EuchreContract | None
    kitty: tuple[int, ...] | None
    discards: tuple[int, ...] | None
    team_scores: tuple[int, ...]
    team_tricks: tuple[int, ...]
    target: int

    def to_json(self) -> dict[str, Any]:
        """The wire form (``observation.extra``): cards as text."""
        high = self.high_bid
        return {
            "auction": [[seat, text] for seat, text in self.auction],
            "high_bid": {"seat": high[0], "bid": high[1]} if high is not None else None,
            "passed": list(self.passed),
            "contract": self.contract.to_json() if self.contract is not None else None,
            "kitty": [format_card(c) for c in self.kitty] if self.kitty is not None else None,
            "discards": (
                [format_card(c) for c in self.discards] if self.discards is not None else None
            ),
            "team_scores": list(self.team_scores),
            "team_tricks": list(self.team_tricks),
            "target": self.target,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EuchreView:
        """The view back from its wire form (an observation read from JSON), the inverse
        of :meth:`to_json`."""
        high, contract = data["high_bid"], data["contract"]
        kitty, discards = data["kitty"], data["discards"]
        return cls(
            auction=tuple((seat, text) for seat, text in data["auction"]),
            high_bid=(high["seat"], high["bid"]) if high is not None else None,
            passed=tuple(data["passed"]),
            contract=EuchreContract.from_json(contract) if contract is not None else None,
            kitty=tuple(parse_card(c) for c in kitty) if kitty is not None else None,
            discards=tuple(parse_card(c) for c in discards) if discards is not None else None,
            team_scores=tuple(data["team_scores"]),
            team_tricks=tuple(data["team_tricks"]),
            target=data["target"],
        )
