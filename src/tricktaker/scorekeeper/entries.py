"""What the table reports and what the sheet shows: the entries, rows and errors of a
score sheet, and the words for trump rules and special hands."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tricktaker.cards import SUIT_NAMES, parse_suit

if TYPE_CHECKING:
    from tricktaker.engine import GameState, HandResult

NO_TRUMP = "no trump"
KEPT_HOOKS = ("pluck", "euchre", "buckup")
"""The games with their own Python rules whose sheets are kept (besides the Oh Hell family)."""


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


@dataclass(frozen=True, slots=True)
class HandEntry:
    """What the table reports for one hand, by seat.

    ``bids`` may hold None in a misere hand (everyone bids 0). ``trick_winners`` (the
    seat that won each trick, in order) is needed only where tricks score by their
    number (Caller Clag's madness). ``trump`` is a suit name or ``"no trump"``, or
    None when not entered.
    """

    bids: tuple[int | None, ...]
    tricks: tuple[int, ...]
    trick_winners: tuple[int, ...] = ()
    trump: str | None = None
    call: CallEntry | None = None
    contract: str | None = None
    """Euchre: the winning bid (``4H``, ``NT``), None when all four passed."""
    declarer: int | None = None
    """Euchre: the seat that won the auction."""
    ante: str | None = None
    """Buckup: the dealer's ante structure (``kept``, ``drawn``, ``kept_no_fold_fee``,
    ``drawn_no_fold_fee``); None: ``kept``."""
    decisions: tuple[tuple[str, ...], ...] = ()
    """Buckup: each seat's decisions in the order made (``stay``, ``fold``,
    ``out_for_now``, ``come_back``, ``concede``)."""
    drawn: tuple[int, ...] = ()
    """Buckup: the cards each seat drew."""


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
        tricks, bid = self.tricks[seat], self.bids[seat]
        if tricks < bid:
            return "S"
        return "O" if tricks > bid else "P"


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
    trick_points: bool = False
    notes: tuple[str, ...] = field(default_factory=tuple)
    quotas: tuple[int, ...] = ()
    """Pluck: the tricks each seat needs this hand."""
    plucks: tuple[tuple[int, int], ...] = ()
    """Pluck: the plucks owed from the last hand, ``(plucker, pluckee)`` in order."""


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


def trump_rule(state: GameState, *, pending: bool) -> str:
    setup, spec = state.setup, state.spec
    if state.rules.spec.hooks == "pluck":
        return "named by the dealer after the plucks"
    if state.rules.spec.hooks == "euchre":
        return "the contract's suit, or no trump"
    if state.rules.spec.hooks == "buckup":
        return "the turned-up card"
    if pending:
        return "the caller's call decides (else the turned-up card)"
    method = setup.trump_method
    after = ", after the bids" if spec.bid_before_trump else ""
    if spec.no_trump or method == "none":
        return NO_TRUMP
    if method == "rotate":
        rotation = setup.rotation
        return SUIT_NAMES[rotation[(state.hand_number - 1) % len(rotation)]]
    if method == "second_deck":
        return f"a card turned from a second deck{after}"
    return f"the turned-up card{after}"


def pluck_facts(state: GameState) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """Pluck's quotas and plucks owed for the coming hand, as the game's own rules set
    them once the cards are dealt (read from a copy dealt from the hidden deck)."""
    copy = state.clone()
    while copy.is_chance():
        copy.apply_chance()
    data = copy.ext
    return tuple(data.quotas), tuple(data.pending)


def result_special(result: HandResult) -> str | None:
    """A scored hand's special hand, Euchre contract or Buckup pot, in words."""
    if "pot_after" in result.extra:
        return f"pot {result.extra['pot_before']} -> {result.extra['pot_after']}"
    contract = result.extra.get("contract", False)
    if contract is None:
        return "thrown in"
    if contract:
        trump = contract["trump"].replace("_", " ")
        return f"{contract['tricks']} {trump}"
    if result.special is not None:
        return str(result.special.get("name"))
    return None
