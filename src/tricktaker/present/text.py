"""Words for people, shared by every client: cards (``A♠`` or ``AS``), suits, seats,
bids and calls, written from plain observation data (a game's own words, such as
Euchre's contracts or Buckup's antes and payments, are in its ``present`` module).

Nothing here knows a terminal or a browser: the text carries suit symbols (or letters,
where a console cannot print symbols) and never markup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from tricktaker.cards import (
    SUIT_LETTERS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    CardError,
    card_rank,
    card_suit,
    format_card,
    parse_card,
    pretty_card,
)
from tricktaker.engine import Action, Observation
from tricktaker.engine.actions import ActionParseError

YOU = "You"
"""The name a seat is given in its own narration (``You pluck``, not ``You plucks``)."""


@dataclass(frozen=True, slots=True)
class CardText:
    """How cards are written for people: ``A♠`` (or ``AS`` where symbols cannot print)."""

    labels: tuple[str, str] = ("HB", "LB")
    symbols: bool = True

    def card(self, card: int) -> str:
        """``A♠`` / ``10♥`` / ``HB`` (``AS`` without symbols)."""
        if self.symbols:
            return pretty_card(card, labels=self.labels)
        return format_card(card, labels=self.labels)

    def code(self, card: int) -> str:
        """The card as data: ``AS``, ``10H``, the game's joker names."""
        return format_card(card, labels=self.labels)

    def suit(self, suit: int | None) -> str:
        """``♥ hearts`` (``hearts`` without symbols), ``no trump`` for None."""
        if suit is None:
            return "no trump"
        if self.symbols:
            return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}"
        return SUIT_NAMES[suit]

    def hand(self, cards: Sequence[int]) -> str:
        """Cards grouped by suit (jokers first), highest rank first within a suit."""
        groups = [[self.card(c) for c in group] for group in hand_groups(cards)]
        return "   ".join(" ".join(group) for group in groups) or "(none)"

    def trump(self, trump: int | None, turn_up: int | None, known: bool = True) -> str:
        """``♥ hearts (turn-up 7♥)``, ``no trump``, ``not yet known``."""
        if not known:
            return "not yet known"
        text = self.suit(trump)
        if turn_up is not None:
            text += f" (turn-up {self.card(turn_up)})"
        return text


SYMBOLS = CardText()
"""Cards written with suit symbols and the standard joker names."""


def hand_groups(cards: Sequence[int]) -> list[list[int]]:
    """The cards as a hand is shown: the jokers, then clubs, diamonds, hearts and spades,
    each suit from its highest rank down (empty groups left out).

    >>> from tricktaker.cards import parse_card, format_card
    >>> hand = [parse_card(text) for text in "2H JH 5H AS 9H".split()]
    >>> [[format_card(c) for c in group] for group in hand_groups(hand)]
    [['JH', '9H', '5H', '2H'], ['AS']]
    """
    groups = [sorted(c for c in cards if c >= 52)]
    for suit in range(4):
        in_suit = sorted((c for c in cards if card_suit(c) == suit), key=card_rank)
        groups.append(in_suit[::-1])
    return [group for group in groups if group]


def hand_order(cards: Sequence[int]) -> list[int]:
    """The cards in the order a hand shows them, so that card number ``k`` is
    ``hand_order(cards)[k - 1]``."""
    return [card for group in hand_groups(cards) for card in group]


def default_seat_name(seat: int) -> str:
    """The name of a seat nobody named, as people count seats: from 1.

    >>> default_seat_name(0), default_seat_name(3)
    ('Seat 1', 'Seat 4')
    """
    return f"Seat {seat + 1}"


def display_order(obs: Observation) -> list[int]:
    """The seat's own cards in the order a player holds them this hand (empty when it may
    not look at them): the cards that beat every suit first (the trumps with the bowers
    and jokers that count as trumps, or free jokers), strongest first; then the other
    suits, alternating colours, each from its strongest card down. Before the trump is
    known, jokers first and then the suits as :func:`hand_groups` shows them.

    >>> from tricktaker import load_ruleset, new_game
    >>> state = new_game(load_ruleset("euchre"), players=4, seed=3)
    >>> state.apply_chance()
    >>> len(display_order(state.observe(0)))
    5
    """
    cards = obs.my_cards
    tables = obs.tables
    if tables is None:
        return hand_order(cards)
    trump = obs.trump

    def is_trump(card: int) -> bool:
        return (trump is not None and tables.suit_of[card] == trump) or tables.trump_key[
            card
        ] >= 1000

    top = sorted((c for c in cards if is_trump(c)), key=lambda c: (-tables.key(c, -1), c))
    suits = _alternating(trump)
    rest: list[int] = []
    for suit in suits:
        in_suit = [c for c in cards if not is_trump(c) and tables.suit_of[c] == suit]
        rest += sorted(in_suit, key=lambda c: (-tables.rank_of[c], c))
    placed = set(top) | set(rest)
    rest += [c for c in cards if c not in placed]
    return top + rest


def _alternating(trump: int | None) -> list[int]:
    """The four suits in an order that alternates colours, starting after ``trump``
    (clubs 0 and spades 3 are black, diamonds 1 and hearts 2 red)."""
    black, red = [3, 0], [2, 1]
    if trump is None:
        return [3, 2, 0, 1]
    same = black if trump in black else red
    other = red if trump in black else black
    mate = [s for s in same if s != trump]
    return [trump, other[0], *mate, other[1]]


def words(text: str) -> str:
    """``out_for_now`` as ``out for now``."""
    return text.replace("_", " ")


def plain(value: Any) -> str:
    """Any JSON-like value in words (the fallback for keys a game adds later)."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {plain(v)}" for k, v in value.items()) or "-"
    if isinstance(value, list | tuple):
        return ", ".join(plain(v) for v in value) or "none"
    return str(value).replace("_", " ")


def plain_json(value: Any) -> Any:
    """``value`` with tuples and read-only mappings turned into plain lists and dicts."""
    if value is None or isinstance(value, str | int | float):
        return value
    if isinstance(value, Mapping):
        return {str(k): plain_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain_json(v) for v in value]
    return value


def card_text(text: Any, cards: CardText) -> str:
    """A card written ``7H`` / ``BJ`` in the cards' style (``7♥``); ``a card`` when hidden."""
    if text is None:
        return "a card"
    try:
        return cards.card(parse_card(str(text), labels=cards.labels))
    except CardError:
        return str(text)


def cards_text(values: Any, cards: CardText) -> str:
    """Cards written ``7H`` in the cards' style, space-separated (``none`` when empty)."""
    if not isinstance(values, list | tuple):
        return plain(values)
    return " ".join(card_text(v, cards) for v in values) or "none"


def seat_name(seat: Any, names: Sequence[str]) -> str:
    """The seat's name (the value itself when it is not a seat)."""
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else str(seat)


def object_name(seat: Any, names: Sequence[str]) -> str:
    """A seat as the object of a sentence: ``you`` or ``Seat 2``."""
    name = seat_name(seat, names)
    return "you" if name == YOU else name


def conjugate(name: str, base: str) -> str:
    """``You pluck`` / ``Seat 2 plucks`` (for a verb that takes no ``-es``)."""
    return f"{name} {base}" if name == YOU else f"{name} {base}s"


def verb(name: str, base: str) -> str:
    """``You play`` / ``Seat 2 plays`` / ``Seat 1 passes`` / ``Seat 3 goes``."""
    if name == YOU:
        return f"{name} {base}"
    if base == "go":
        return f"{name} goes"
    if base.endswith(("s", "sh", "ch")):
        return f"{name} {base}es"
    return f"{name} {base}s"


def team_text(team: Sequence[int], names: Sequence[str]) -> str:
    """``You & Seat 2``."""
    return " & ".join(seat_name(s, names) for s in team)


def teams_line(partnerships: Sequence[Sequence[int]], names: Sequence[str], seat: int) -> str:
    """``You & Seat 2 vs Seat 1 & Seat 3`` (the seat's own team first)."""
    teams = sorted(partnerships, key=lambda team: seat not in team)
    return " vs ".join(team_text(team, names) for team in teams)


def team_of(partnerships: Sequence[Sequence[int]], seat: int) -> int | None:
    """The number of the team ``seat`` plays in (None when it plays alone)."""
    for number, team in enumerate(partnerships):
        if seat in team:
            return number
    return None


def suit_text(word: Any, cards: CardText) -> str:
    """A suit given by letter or name (``H``, ``hearts``, ``no_trump``) in the cards' style."""
    text = str(word)
    if text.lower() in ("no_trump", "nt", "none"):
        return "no trump"
    for suit, name in enumerate(SUIT_NAMES):
        if text.upper() == SUIT_LETTERS[suit] or text.lower() == name:
            return cards.suit(suit)
    return text.replace("_", " ")


def bid_text(bid: Any, cards: CardText) -> str:
    """An auction bid: ``4H`` as ``4 ♥ hearts``, ``NT`` as ``no trump``, ``pass``."""
    text = str(bid)
    if text.upper() == "NT":
        return "no trump (5)"
    if text.lower() == "pass":
        return "pass"
    if len(text) >= 2 and text[:-1].isdigit():
        return f"{text[:-1]} {suit_text(text[-1], cards)}"
    return text


def visible_card(seat: int, action: Action, new: Observation) -> int | None:
    """The action's card if ``new``'s seat may know it: its own, or now in its hand."""
    if not isinstance(action.value, int):
        return None
    if seat == new.seat:
        return action.value
    if new.hand is not None and new.hand >> action.value & 1:
        return action.value
    return None


def describe_special(special: str | None, call: str | None) -> str:
    """A special hand (its name) or a call (in the game's words, as its ``present``
    capability says it: a Caller Clag call) in words ('' when neither).

    >>> describe_special("blind_pile", None), describe_special(None, "5 cards, misere")
    ('special hand: blind pile', 'call: 5 cards, misere')
    """
    if call is not None:
        return f"call: {call}"
    if special:
        return f"special hand: {special.replace('_', ' ')}"
    return ""


def hand_heading(obs: Observation, names: Sequence[str]) -> str:
    """``Hand 3 of 13 · 3 cards · dealer Seat 2``."""
    number = f"Hand {obs.hand_number}"
    if obs.hands_in_game is not None:
        number += f" of {obs.hands_in_game}"
    parts = [number]
    if obs.hand_size:
        parts.append(f"{obs.hand_size} card{'s' if obs.hand_size != 1 else ''}")
    parts.append(f"dealer {names[obs.dealer]}")
    return " · ".join(parts)


@lru_cache(maxsize=256)
def value_type(kind: str) -> str:
    """How an action kind's value is written: ``card``, ``int``, ``str`` or ``none``.

    >>> value_type("play"), value_type("bid"), value_type("call_kind"), value_type("play_pile")
    ('card', 'int', 'str', 'none')
    """
    try:
        Action.parse(kind)
    except ActionParseError:
        pass
    else:
        return "none"
    try:
        action = Action.parse(f"{kind} 2C")
    except ActionParseError:
        return "int"
    return "str" if isinstance(action.value, str) else "card"
