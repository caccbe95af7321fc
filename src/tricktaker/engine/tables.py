"""Per-hand card tables: each card's effective suit and its strength in a trick.

Built once when a hand's trump (or suit precedence) is known, so that legal-move
generation and trick resolution are a few list lookups and bit operations.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from tricktaker.cards import HIGH_JOKER, JACK, LOW_JOKER

FREE = 4
"""Effective suit of a standard Bluke: it follows no suit and sets none when led."""


@dataclass(frozen=True, slots=True)
class CardTables:
    """How every card behaves in the current hand."""

    suit_of: tuple[int, ...]
    """Effective suit (0-3), or :data:`FREE`."""
    rank_of: tuple[int, ...]
    """Strength within its suit (higher wins)."""
    trump_key: tuple[int, ...]
    """Strength that wins whatever is led (trumps, Blukes, suit precedence); 0 if none."""
    suit_masks: tuple[int, ...]
    """Cards whose effective suit is 0..3, and FREE at index 4."""
    trump_mask: int
    winning_mask: int = field(init=False, repr=False, compare=False)
    """Cards with a :attr:`trump_key` (they win whatever is led); worked out from it."""
    winning_order: tuple[tuple[int, ...], int] = field(init=False, repr=False, compare=False)
    """The cards of :attr:`winning_mask`, strongest first, as :func:`_split_order` keeps
    an order: the first cards out of card-id order, then the others as a card set."""
    suit_order: tuple[tuple[tuple[int, ...], int], ...] = field(
        init=False, repr=False, compare=False
    )
    """Per effective suit (0-3, FREE), its cards without a :attr:`trump_key`, the order
    they win a trick led in that suit (highest rank first), kept as :attr:`winning_order`."""

    _beaters: list[tuple[int, ...]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_beaters", [])
        trump_key, rank_of = self.trump_key, self.rank_of
        winning = [card for card, strength in enumerate(trump_key) if strength]
        by_suit = []
        for mask in self.suit_masks:
            cards = [c for c in range(len(trump_key)) if (mask >> c) & 1 and not trump_key[c]]
            by_suit.append(_split_order(sorted(cards, key=lambda c: -rank_of[c])))
        object.__setattr__(self, "winning_mask", sum(1 << card for card in winning))
        order = sorted(winning, key=lambda c: -trump_key[c])
        object.__setattr__(self, "winning_order", _split_order(order))
        object.__setattr__(self, "suit_order", tuple(by_suit))

    def beaters(self) -> tuple[int, ...]:
        """Per card, the cards (a card set) that beat it when it is led; worked out the
        first time it is asked and kept with the tables."""
        if not self._beaters:
            key = self.key
            masks = []
            for card in range(len(self.suit_of)):
                led = self.suit_of[card]
                strength = key(card, led)
                masks.append(
                    sum(
                        1 << other
                        for other in range(len(self.suit_of))
                        if key(other, led) > strength
                    )
                )
            self._beaters.append(tuple(masks))
        return self._beaters[0]

    def key(self, card: int, led: int) -> int:
        """How strongly ``card`` bids for a trick whose led suit is ``led``."""
        strength = self.trump_key[card]
        if strength:
            return strength
        if self.suit_of[card] == led:
            return 100 + self.rank_of[card]
        return 0

    def strongest_reply(
        self, hand: int, led: int, *, follow_suit: bool = True, must_trump: bool = False
    ) -> int:
        """The key (:meth:`key`) of the strongest card ``hand`` (a card set) may legally
        play to a trick whose led suit is ``led``; 0 when none can win it.

        With ``follow_suit`` a hand holding the led suit plays one of those (or a free
        Bluke, which may always be played); a hand void in it plays any card, or with
        ``must_trump`` a trump (or a free Bluke) when it holds one. A free Bluke led
        (``led`` is :data:`FREE`) asks for no suit. The search's rollouts ask this of
        every seat still to play, to know whether a card is sure to win.

        >>> tables = build_tables(trump=3, jokers_as_trump=False)
        >>> hand = (1 << 12) | (1 << 40)  # the ace of clubs and a spade (the trump)
        >>> tables.strongest_reply(hand, 0) == tables.key(12, 0)  # it follows clubs
        True
        >>> tables.strongest_reply(hand, 1) == tables.key(40, 1)  # void: it trumps
        True
        """
        masks = self.suit_masks
        if led != FREE and follow_suit:
            follow = hand & masks[led]
            if follow:
                hand = follow | (hand & masks[FREE])
            elif must_trump and hand & self.trump_mask:
                hand &= self.trump_mask | masks[FREE]
        # The strongest card is among those that win whatever is led, if the hand has
        # any; else among the led suit's (every other card has no strength).
        strong = hand & self.winning_mask
        if strong:
            head, tail = self.winning_order
            for card in head:
                if (strong >> card) & 1:
                    return self.trump_key[card]
            return self.trump_key[(strong & tail).bit_length() - 1]
        if led != FREE:
            follow = hand & masks[led]
            if follow:
                head, tail = self.suit_order[led]
                for card in head:
                    if (follow >> card) & 1:
                        return 100 + self.rank_of[card]
                return 100 + self.rank_of[(follow & tail).bit_length() - 1]
        return 0

    def winner(self, trick: list[tuple[int, int]]) -> int:
        """The seat that wins a complete trick of ``(seat, card)`` pairs."""
        led = self.suit_of[trick[0][1]]
        best_seat, best_key = trick[0][0], -1
        trump_key, suit_of, rank_of = self.trump_key, self.suit_of, self.rank_of
        for seat, card in trick:
            strength = trump_key[card]
            if not strength and suit_of[card] == led:
                strength = 100 + rank_of[card]
            if strength > best_key:
                best_seat, best_key = seat, strength
        return best_seat


def _split_order(order: list[int]) -> tuple[tuple[int, ...], int]:
    """An order of cards (strongest first) as ``(head, tail)``: its longest end in
    descending card id becomes the card set ``tail`` (its strongest card is its highest
    bit), the cards before it stay a list ``head``. The strongest card of a hand is then
    the first of ``head`` it holds, else the highest bit of its cards in ``tail``."""
    start = len(order)
    while start > 0 and (start == len(order) or order[start - 1] > order[start]):
        start -= 1
    return tuple(order[:start]), sum(1 << card for card in order[start:])


@lru_cache(maxsize=512)
def build_tables(
    *,
    trump: int | None,
    jokers_as_trump: bool,
    nuloss: bool = False,
    precedence: tuple[int, ...] | None = None,
    bowers: str | None = None,
) -> CardTables:
    """Tables for one hand (cached: the result is shared and must not be changed).

    ``jokers_as_trump``: the jokers are the two highest trumps (when there is a trump);
    otherwise they are free Blukes that beat everything. ``nuloss`` reverses ranks;
    ``precedence`` orders the suits (highest first) and removes the trump.
    ``bowers`` (``"left_high"`` or ``"right_high"``) makes the jack of trumps (right
    bower) and the jack of the same colour (left bower) the two highest trumps; the
    left bower then belongs to the trump suit in every respect.
    """
    suit_of = [c // 13 for c in range(52)] + [FREE, FREE]
    if nuloss:
        rank_of = [12 - c % 13 for c in range(52)] + [14, 13]
    else:
        rank_of = [c % 13 for c in range(52)] + [14, 13]
    if bowers is not None and trump is not None:
        right, left = trump * 13 + JACK, (3 - trump) * 13 + JACK
        suit_of[left] = trump
        rank_of[right], rank_of[left] = (13, 14) if bowers == "left_high" else (14, 13)
    trump_key = [0] * 54
    if precedence is not None:
        for card in range(52):
            position = 4 - precedence.index(card // 13)
            trump_key[card] = position * 100 + 50 + rank_of[card]
    if jokers_as_trump and trump is not None:
        suit_of[HIGH_JOKER] = suit_of[LOW_JOKER] = trump
    else:
        trump_key[HIGH_JOKER], trump_key[LOW_JOKER] = 1001, 1000
    if trump is not None:
        for card in range(54):
            if suit_of[card] == trump:
                trump_key[card] = 500 + rank_of[card]
    suit_masks = [0, 0, 0, 0, 0]
    for card in range(52):
        suit_masks[suit_of[card]] |= 1 << card
    joker_bits = (1 << HIGH_JOKER) | (1 << LOW_JOKER)
    if jokers_as_trump and trump is not None:
        suit_masks[trump] |= joker_bits
    else:
        suit_masks[FREE] = joker_bits
    trump_mask = suit_masks[trump] if trump is not None else 0
    return CardTables(
        suit_of=tuple(suit_of),
        rank_of=tuple(rank_of),
        trump_key=tuple(trump_key),
        suit_masks=tuple(suit_masks),
        trump_mask=trump_mask,
    )
