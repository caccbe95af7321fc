"""Buckup's chips (docs/games/buckup.md, Chips, antes and the pot): settings, the
dealer's ante structures, the ledger of payments and the settlement of a pot.

Chips are integers. Each player has a stack and there is one pot; every payment moves
chips between a stack and the pot and is recorded, so ``sum(stacks) + pot`` never
changes. A stack may go below zero: a burned player who cannot cover the pot owes the
difference (a negative stack is a debt to the table).

>>> structure = AnteStructure.of("kept", ante=5, fold_fee=5, card_fee=5)
>>> structure.describe()
{'ante': 5, 'fold_fee': 5, 'card_fee': 5, 'fee_per': 'kept'}
>>> structure.draw_fee(kept=2, drawn=3)
10
>>> AnteStructure.of("drawn_no_fold_fee", ante=5, fold_fee=5, card_fee=5).describe()
{'ante': 5, 'fold_fee': 0, 'card_fee': 5, 'fee_per': 'drawn'}
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

ANTE_CHOICES: tuple[str, ...] = ("kept", "drawn", "kept_no_fold_fee", "drawn_no_fold_fee")
"""The dealer's choices of ante structure: the draw fee per card kept (the default, the
"inverse fee") or per card drawn, each with or without the fold fee."""

ANTE = "ante"
FOLD_FEE = "fold_fee"
DRAW_FEE = "draw_fee"
BURN = "burn"
WIN = "win"
UNCONTESTED = "uncontested"
REASONS = (ANTE, FOLD_FEE, DRAW_FEE, BURN, WIN, UNCONTESTED)
"""Why chips moved: into the pot (ante, fold fee, draw fee, burn) or out of it (win,
uncontested: the only player left in takes the pot without play)."""


class BuckupSettings(BaseModel):
    """``[settings]`` of a Buckup ruleset."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    starting_stack: int = Field(default=500, ge=0, le=10**9, description="chips per player")
    ante: int = Field(default=5, ge=0, le=10**6, description="each player's ante")
    fold_fee: int = Field(default=5, ge=0, le=10**6, description="fee to fold")
    card_fee: int = Field(default=5, ge=0, le=10**6, description="fee per card kept or drawn")
    hands: int = Field(default=20, ge=1, le=10_000, description="hands before the game may end")
    max_hands: int = Field(default=200, ge=1, le=10_000, description="hands at most")
    four_card_deal: bool = Field(default=False, description="deal 4 cards; stayers draw to 5")
    out_for_now: bool = Field(default=False, description="the OFN rule instead of dealer's ob")
    scare_cards: bool = Field(default=False, description="first card of each deal face up")

    @field_validator("max_hands")
    @classmethod
    def _cap(cls, max_hands: int, info: ValidationInfo) -> int:
        hands = info.data.get("hands")
        if isinstance(hands, int) and max_hands < hands:
            raise ValueError(
                f"max_hands ({max_hands}) caps the game, so it may not be below hands ({hands})"
            )
        return max_hands


@dataclass(frozen=True, slots=True)
class AnteStructure:
    """The dealer's ante for one hand: the ante, the fold fee and the draw fee per card."""

    ante: int
    fold_fee: int
    card_fee: int
    fee_per: Literal["kept", "drawn"]

    @classmethod
    def of(cls, choice: str, *, ante: int, fold_fee: int, card_fee: int) -> AnteStructure:
        """The structure the dealer names with ``choice`` (one of :data:`ANTE_CHOICES`)."""
        if choice not in ANTE_CHOICES:
            raise ValueError(f"unknown ante structure {choice!r}")
        per: Literal["kept", "drawn"] = "kept" if choice.startswith("kept") else "drawn"
        return cls(
            ante=ante,
            fold_fee=0 if choice.endswith("no_fold_fee") else fold_fee,
            card_fee=card_fee,
            fee_per=per,
        )

    def draw_fee(self, *, kept: int, drawn: int) -> int:
        """What a player who stays pays for keeping ``kept`` and drawing ``drawn`` cards."""
        return self.card_fee * (kept if self.fee_per == "kept" else drawn)

    def describe(self) -> dict[str, Any]:
        """The structure as JSON data: its four fields by name (as
        :func:`dataclasses.asdict` gives them, written out: a hand's record takes it)."""
        return {
            "ante": self.ante,
            "fold_fee": self.fold_fee,
            "card_fee": self.card_fee,
            "fee_per": self.fee_per,
        }


@dataclass(frozen=True, slots=True)
class Payment:
    """Chips moved by ``seat``: ``amount`` > 0 into the pot, < 0 taken from it."""

    seat: int
    amount: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "amount": self.amount, "reason": self.reason}


@dataclass(slots=True)
class Ledger:
    """The stacks, the pot and this hand's payments; ``sum(stacks) + pot`` is constant.

    >>> ledger = Ledger(stacks=[500, 500], pot=0)
    >>> ledger.pay(0, 5, ANTE); ledger.pay(1, 5, ANTE); ledger.pay(1, -10, WIN)
    >>> ledger.stacks, ledger.pot, ledger.total
    ([495, 505], 0, 1000)
    """

    stacks: list[int]
    pot: int
    payments: list[Payment] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.stacks) + self.pot

    def pay(self, seat: int, amount: int, reason: str) -> None:
        """Move ``amount`` chips from ``seat``'s stack into the pot (negative: out of it)."""
        if amount == 0:
            return
        if amount < 0 and -amount > self.pot:
            raise ValueError(f"seat {seat} cannot take {-amount} from a pot of {self.pot}")
        self.stacks[seat] -= amount
        self.pot += amount
        self.payments.append(Payment(seat, amount, reason))

    def copy(self) -> Ledger:
        return Ledger(list(self.stacks), self.pot, list(self.payments))


def settlement(
    pot: int, tricks: Sequence[int], playing: Sequence[bool]
) -> tuple[list[int], list[int], list[tuple[int, int, str]]]:
    """Winners, burned players and the payments that settle a pot after the tricks.

    Players in with 2 or more tricks win the pot: one takes it all; two split it, the
    odd chip going to a 3-trick winner or else staying in the pot. Everyone in with
    fewer than 2 tricks is burned and pays the pot as it stood at settlement.

    >>> settlement(25, [3, 2, 0, 0], [True, True, True, False])
    ([0, 1], [2], [(0, -13, 'win'), (1, -12, 'win'), (2, 25, 'burn')])
    >>> settlement(25, [2, 2, 1, 0], [True, True, True, False])
    ([0, 1], [2], [(0, -12, 'win'), (1, -12, 'win'), (2, 25, 'burn')])
    >>> settlement(20, [1, 1, 1, 1, 1], [True] * 5)[2][:2]
    [(0, 20, 'burn'), (1, 20, 'burn')]
    """
    winners = [s for s, ok in enumerate(playing) if ok and tricks[s] >= 2]
    burned = [s for s, ok in enumerate(playing) if ok and tricks[s] < 2]
    moves: list[tuple[int, int, str]] = []
    if len(winners) == 1:
        moves.append((winners[0], -pot, WIN))
    elif len(winners) == 2:
        half, odd = divmod(pot, 2)
        shares = [half, half]
        if odd:
            for index, seat in enumerate(winners):
                if tricks[seat] >= 3:
                    shares[index] += 1
        moves.extend((seat, -share, WIN) for seat, share in zip(winners, shares, strict=True))
    elif winners:
        raise ValueError("five tricks make at most two players with two tricks")
    moves.extend((seat, pot, BURN) for seat in burned)
    return winners, burned, moves
