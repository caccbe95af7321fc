"""What the table reports and what the sheet shows: the entries, rows and errors of a
score sheet, and the words for trump rules and special hands."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tricktaker.cards import SUIT_NAMES, parse_suit
from tricktaker.engine.results import outcome_of

if TYPE_CHECKING:
    from tricktaker.scorekeeper.steps import GameEntry

NO_TRUMP = "no trump"
GENERIC_FIELDS = ("bids", "tricks", "trick_winners", "trump", "call")
"""The fields of every hand entry's JSON; a game's own fields follow them."""


class SheetError(ValueError):
    """A sheet that cannot be kept: an unknown game, bad names, a tampered file."""


class EntryError(SheetError):
    """An entry the rules refuse; the sheet is left as it was. ``rule`` names the rule."""

    def __init__(self, message: str, *, rule: str) -> None:
        super().__init__(f"{message} (rule: {rule})")
        self.rule = rule
        self.reason = message


@dataclass(frozen=True, slots=True)
class CallEntry:
    """Caller Clag: the dealer's call of the hand's size, kind and modifiers."""

    size: int
    kind: str = "normal"
    modifiers: tuple[str, ...] = ()

    def describe(self) -> str:
        """``5 cards, blind_bid + nuloss``."""
        words = f"{self.size} cards, {self.kind}"
        return words + "".join(f" + {m}" for m in self.modifiers)

    def to_json(self) -> dict[str, Any]:
        """The call as JSON data."""
        return {"size": self.size, "kind": self.kind, "modifiers": list(self.modifiers)}


@dataclass(frozen=True, slots=True)
class HandEntry:
    """What the table reports for one hand, by seat.

    ``bids`` may hold None in a misere hand (everyone bids 0). ``trick_winners`` (the
    seat that won each trick, in order) is needed only where tricks score by their
    number (Caller Clag's madness). ``trump`` is a suit name or ``"no trump"``, or
    None when not entered. ``game`` is the game's own part (a Euchre contract, Buckup's
    ante and decisions), made by the game's scorekeeper steps
    (:mod:`tricktaker.scorekeeper.steps`).

    >>> HandEntry(bids=(3, 2), tricks=(4, 1)).to_json()["bids"]
    [3, 2]
    """

    bids: tuple[int | None, ...]
    tricks: tuple[int, ...]
    trick_winners: tuple[int, ...] = ()
    trump: str | None = None
    call: CallEntry | None = None
    game: GameEntry | None = None

    def to_json(self) -> dict[str, Any]:
        """The entry as JSON data, seats as numbers: the fields of
        :meth:`ScoreSheet.add <tricktaker.scorekeeper.ScoreSheet.add>` (the game's own
        fields after the others). The server stores and sends entries so, and the
        browser sends them back (:meth:`ScoreSheet.entry_from_json`)."""
        call = self.call
        data: dict[str, Any] = {
            "bids": list(self.bids),
            "tricks": list(self.tricks),
            "trick_winners": list(self.trick_winners),
            "trump": self.trump,
            "call": None if call is None else call.to_json(),
        }
        if self.game is not None:
            data.update(self.game.to_json())
        return data


def call_from_json(data: object) -> CallEntry:
    """A :class:`CallEntry` from its JSON (``size``, ``kind``, ``modifiers``);
    :class:`SheetError` when malformed."""
    if not isinstance(data, Mapping):
        raise SheetError("'call' has the wrong type")
    size, kind, modifiers = data.get("size"), data.get("kind", "normal"), data.get("modifiers", [])
    if not isinstance(size, int) or isinstance(size, bool) or not isinstance(kind, str):
        raise SheetError("'call' needs a whole number 'size' and a 'kind'")
    if not isinstance(modifiers, list | tuple) or not all(isinstance(m, str) for m in modifiers):
        raise SheetError("'call' needs a list of 'modifiers'")
    return CallEntry(size=size, kind=kind, modifiers=tuple(modifiers))


@dataclass(frozen=True, slots=True)
class Row:
    """One hand of the sheet, as the engine scored it."""

    number: int
    dealer: int
    hand_size: int
    trump: str | None
    special: str | None
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    all_exact: bool
    entry: HandEntry

    def outcome(self, seat: int) -> str:
        """``S`` (set: fewer tricks than bid), ``O`` (over) or ``P`` (perfect)."""
        return outcome_of(self.bids[seat], self.tricks[seat])


@dataclass(frozen=True, slots=True)
class NextHand:
    """What the table needs to know before the next hand is bid."""

    number: int
    dealer: int
    hand_size: int | None
    """None in Caller Clag until the dealer calls the size."""
    special: str | None
    trump_rule: str
    bid_order: tuple[int, ...]
    simultaneous: bool
    blind: bool
    misere: bool
    hook: bool
    called: bool
    call_sizes: tuple[int, ...] = ()
    call_kinds: tuple[str, ...] = ()
    """The kinds of hand the dealer may call, in the game's order (a calling game's)."""
    trick_points: bool = False
    notes: tuple[str, ...] = field(default_factory=tuple)
    opening: str = ""
    """Who starts the hand, in words (``Ann bids first``)."""
    facts: Mapping[str, Any] = field(default_factory=dict)
    """The game's own facts about the hand, as JSON-able data (Pluck's ``quotas``, the
    tricks each seat needs, and ``plucks``, the plucks owed from the last hand)."""


@dataclass(frozen=True, slots=True)
class Change:
    """A score or total that a correction changed."""

    hand: int
    seat: int
    what: str
    old: int
    new: int


def trump_word(text: str | None) -> str | None:
    """A trump as entered (``h``, ``hearts``, ``♥``, ``none``) as ``hearts`` or ``no trump``."""
    if text is None or not text.strip():
        return None
    word = text.strip().lower()
    if word in ("none", "no trump", "notrump", "nt", "no", "-"):
        return NO_TRUMP
    try:
        return SUIT_NAMES[parse_suit(word)]
    except ValueError:
        raise EntryError(
            f"{text!r} is not a trump: give a suit (clubs, diamonds, hearts, spades) or none",
            rule="trump",
        ) from None
