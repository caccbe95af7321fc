"""Cards, suits, ranks and jokers as small integers; sets of cards as int bitsets.

A card is an ``int``: ``suit * 13 + rank`` for the 52 standard cards (rank 0 is the
two, rank 12 the ace; suits clubs, diamonds, hearts, spades in that order), and
52 / 53 for the high and low joker. A set of cards is an ``int`` whose bit ``c``
is set when card ``c`` is in the set.

>>> format_card(parse_card("10H"))
'10H'
>>> format_card(HIGH_JOKER), format_card(LOW_JOKER, labels=("BJ", "LJ"))
('HB', 'LJ')
>>> format_cards(card_set(["AS", "2C"]))
'2C AS'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3
SUITS: Final = (CLUBS, DIAMONDS, HEARTS, SPADES)
SUIT_LETTERS: Final = "CDHS"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS: Final = ("♣", "♦", "♥", "♠")
RANK_LABELS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
TWO: Final = 0
JACK: Final = 9
ACE: Final = 12

HIGH_JOKER: Final = 52
LOW_JOKER: Final = 53
JOKERS: Final = (HIGH_JOKER, LOW_JOKER)
DEFAULT_JOKER_LABELS: Final = ("HB", "LB")
NUM_CARD_IDS: Final = 54

_JOKER_ALIASES: Final = {"HB": HIGH_JOKER, "BJ": HIGH_JOKER, "LB": LOW_JOKER, "LJ": LOW_JOKER}
_RANK_ALIASES: Final = {label: index for index, label in enumerate(RANK_LABELS)} | {
    "T": 8,
    "1": 12,
}


class CardError(ValueError):
    """A card or suit name that cannot be read."""


def make_card(suit: int, rank: int) -> int:
    """The card of ``suit`` and ``rank`` (0 = two .. 12 = ace).

    >>> format_card(make_card(SPADES, ACE))
    'AS'
    """
    return suit * 13 + rank


def card_suit(card: int) -> int:
    """The printed suit of a standard card (jokers have none: -1)."""
    return card // 13 if card < 52 else -1


def card_rank(card: int) -> int:
    """The printed rank of a standard card, 0 (two) to 12 (ace); jokers: -1."""
    return card % 13 if card < 52 else -1


def is_joker(card: int) -> bool:
    """True for the two jokers."""
    return card >= 52


_CODES: Final = tuple(RANK_LABELS[c % 13] + SUIT_LETTERS[c // 13] for c in range(52))
"""Each card's code, by id (the jokers aside)."""


def format_card(card: int, *, labels: tuple[str, str] = DEFAULT_JOKER_LABELS) -> str:
    """Rank then suit letter: ``AS``, ``10H``, ``2C``; jokers by ``labels`` (high, low)."""
    if 0 <= card < 52:
        return _CODES[card]
    if card == HIGH_JOKER:
        return labels[0]
    if card == LOW_JOKER:
        return labels[1]
    raise CardError(f"{card} is not a card id (0..53)")


def pretty_card(card: int, *, labels: tuple[str, str] = DEFAULT_JOKER_LABELS) -> str:
    """A card with a suit symbol, for people: ``A♠``, ``10♥``."""
    if card >= 52:
        return format_card(card, labels=labels)
    return RANK_LABELS[card % 13] + SUIT_SYMBOLS[card // 13]


def parse_card(text: str, *, labels: tuple[str, str] | None = None) -> int:
    """Read a card written ``AS``, ``10h``, ``TH``, ``HB`` / ``BJ`` (high joker), ``LB`` / ``LJ``,
    or a joker by a game's own ``labels`` (high, low).

    >>> parse_card("2C"), parse_card("as"), parse_card("lj")
    (0, 51, 53)
    """
    word = text.strip().upper()
    if word in _JOKER_ALIASES:
        return _JOKER_ALIASES[word]
    if labels is not None and word in (labels[0].upper(), labels[1].upper()):
        return HIGH_JOKER if word == labels[0].upper() else LOW_JOKER
    if len(word) < 2:
        raise CardError(f"{text!r} is not a card: write rank then suit, like AS, 10H or 2C")
    rank_part, suit_part = word[:-1], word[-1]
    if suit_part not in SUIT_LETTERS or rank_part not in _RANK_ALIASES:
        raise CardError(f"{text!r} is not a card: write rank then suit, like AS, 10H or 2C")
    return make_card(SUIT_LETTERS.index(suit_part), _RANK_ALIASES[rank_part])


def parse_suit(text: str) -> int:
    """Read a suit by letter or name: ``S``, ``spades``, ``♠``."""
    word = text.strip().lower()
    for suit in SUITS:
        if word in (SUIT_LETTERS[suit].lower(), SUIT_NAMES[suit], SUIT_SYMBOLS[suit]):
            return suit
        if word == SUIT_NAMES[suit][:-1]:
            return suit
    raise CardError(f"{text!r} is not a suit: use C, D, H, S or clubs, diamonds, hearts, spades")


def card_set(cards: Iterable[int | str]) -> int:
    """The bitset of ``cards`` (ids or names)."""
    mask = 0
    for card in cards:
        mask |= 1 << (parse_card(card) if isinstance(card, str) else card)
    return mask


def cards_of(mask: int) -> list[int]:
    """The cards of a bitset, lowest id first."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_cards(mask: int) -> Iterator[int]:
    """Iterate the cards of a bitset, lowest id first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def format_cards(mask: int, *, labels: tuple[str, str] = DEFAULT_JOKER_LABELS) -> str:
    """A bitset as space-separated card names, by suit then rank."""
    return " ".join(format_card(c, labels=labels) for c in cards_of(mask))


SUIT_MASKS: Final = tuple(((1 << 13) - 1) << (13 * suit) for suit in SUITS)
STANDARD_DECK: Final = (1 << 52) - 1
JOKER_MASK: Final = (1 << HIGH_JOKER) | (1 << LOW_JOKER)


def rank_range(spec: str) -> list[int]:
    """Ranks from a span like ``A-2`` (all thirteen) or ``A-7`` (A K Q J 10 9 8 7).

    >>> [RANK_LABELS[r] for r in rank_range("A-9")]
    ['9', '10', 'J', 'Q', 'K', 'A']
    """
    parts = spec.upper().replace(" ", "").split("-")
    if len(parts) != 2 or parts[0] not in _RANK_ALIASES or parts[1] not in _RANK_ALIASES:
        raise CardError(f"{spec!r} is not a rank span: write the highest and lowest, like A-7")
    high, low = _RANK_ALIASES[parts[0]], _RANK_ALIASES[parts[1]]
    if low > high:
        raise CardError(f"{spec!r} is not a rank span: the first rank must be the highest")
    return list(range(low, high + 1))
