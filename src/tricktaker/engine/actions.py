"""Actions: small frozen values, interned for the common kinds.

>>> Action.parse("play AS") == play(51)
True
>>> str(bid(3)), str(play(53, ))
('bid 3', 'play LB')
"""

from __future__ import annotations

from dataclasses import dataclass

from tricktaker.cards import CardError, format_card, parse_card

BID = "bid"
PLAY = "play"
PLAY_PILE = "play_pile"

_CARD_KINDS = {PLAY}
_INT_KINDS = {BID}
_STR_KINDS: set[str] = set()
_BARE_KINDS = {PLAY_PILE}


def register_action_kind(kind: str, value: str) -> None:
    """Make a game's action kind readable: ``value`` is ``card``, ``int``, ``str`` or ``none``."""
    table = {"card": _CARD_KINDS, "int": _INT_KINDS, "str": _STR_KINDS, "none": _BARE_KINDS}
    if value not in table:
        raise ValueError(f"unknown action value type {value!r}")
    for kinds in table.values():
        if kind in kinds and kinds is not table[value]:
            raise ValueError(f"action kind {kind!r} is already registered differently")
    table[value].add(kind)


def action_kinds() -> frozenset[str]:
    """Every action kind the engine can read."""
    return frozenset(_CARD_KINDS | _INT_KINDS | _STR_KINDS | _BARE_KINDS)


class ActionParseError(ValueError):
    """Text that is not an action."""


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of one seat: ``kind`` and its ``value`` (a card id, a number or a word)."""

    kind: str
    value: int | str = 0

    def __str__(self) -> str:
        return self.text()

    def text(self, *, labels: tuple[str, str] = ("HB", "LB")) -> str:
        """The action as written in records: ``bid 3``, ``play 10H``, ``play_pile``."""
        if self.kind in _BARE_KINDS:
            return self.kind
        if self.kind in _CARD_KINDS and type(self.value) is int and 0 <= self.value < 54:
            return f"{self.kind} {format_card(self.value, labels=labels)}"
        return f"{self.kind} {self.value}"

    @staticmethod
    def parse(text: str, *, labels: tuple[str, str] | None = None) -> Action:
        """Read an action written as by :meth:`text` (``labels``: the game's joker names)."""
        words = text.split()
        if not words:
            raise ActionParseError("empty action")
        kind = words[0].lower()
        if kind not in action_kinds():
            raise ActionParseError(f"{text!r}: unknown action kind {kind!r}")
        if kind in _BARE_KINDS:
            if len(words) != 1:
                raise ActionParseError(f"{text!r}: {kind} takes no value")
            return Action(kind)
        if len(words) != 2:
            raise ActionParseError(f"{text!r}: {kind} takes exactly one value")
        value = words[1]
        if kind in _CARD_KINDS:
            try:
                card = parse_card(value, labels=labels)
            except CardError as exc:
                raise ActionParseError(str(exc)) from None
            return PLAY_ACTIONS[card] if kind == PLAY else Action(kind, card)
        if kind in _INT_KINDS:
            try:
                number = int(value)
            except ValueError:
                raise ActionParseError(f"{text!r}: {value!r} is not a whole number") from None
            return bid(number) if kind == BID else Action(kind, number)
        return Action(kind, value)


PLAY_ACTIONS: tuple[Action, ...] = tuple(Action(PLAY, c) for c in range(54))
BID_ACTIONS: tuple[Action, ...] = tuple(Action(BID, n) for n in range(64))
PILE_ACTION = Action(PLAY_PILE)


def play(card: int) -> Action:
    """The action of playing ``card``."""
    return PLAY_ACTIONS[card]


def bid(tricks: int) -> Action:
    """The action of bidding ``tricks``."""
    return BID_ACTIONS[tricks] if 0 <= tricks < 64 else Action(BID, tricks)
