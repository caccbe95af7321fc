"""Trick play: the trump, legal cards, playing a card, winning a trick."""

from __future__ import annotations

from tricktaker.cards import JACK, SUIT_NAMES, format_card
from tricktaker.engine.actions import PLAY, PLAY_ACTIONS, Action
from tricktaker.engine.base import PLAYING, StateFields
from tricktaker.engine.tables import FREE, build_tables


def _chunk_table(chunk: int) -> list[tuple[Action, ...]]:
    """The play actions of every 13-bit pattern of one chunk, lowest card first."""
    table: list[tuple[Action, ...]] = [()] * 8192
    for pattern in range(1, 8192):
        low = pattern & -pattern
        table[pattern] = (PLAY_ACTIONS[chunk * 13 + low.bit_length() - 1], *table[pattern ^ low])
    return table


_JOKER_TABLE = [(), (PLAY_ACTIONS[52],), (PLAY_ACTIONS[53],), (PLAY_ACTIONS[52], PLAY_ACTIONS[53])]
ACTIONS_BY_PATTERN: tuple[list[tuple[Action, ...]], ...] = (
    *(_chunk_table(chunk) for chunk in range(4)),
    _JOKER_TABLE,
)
"""Per 13-bit chunk of a card set (four suits, then the jokers), the play actions of each
pattern of cards, built once at import (a few milliseconds)."""


class PlayMixin(StateFields):
    """The part of the game state that plays tricks."""

    __slots__ = ()

    def set_trump(self, trump: int | None) -> None:
        """Fix the hand's trump suit (None: no trump) and expose it to everyone."""
        self.trump = trump
        self.trump_known = True
        spec = self.spec
        self.tables = build_tables(
            trump=trump,
            jokers_as_trump=self.setup.jokers_as_trump,
            nuloss=spec.nuloss,
            precedence=spec.precedence,
            bowers=self.setup.bowers if trump is not None else None,
        )

    def start_play(self, leader: int | None = None) -> None:
        """Begin the tricks: the holder of the opening card, ``leader``, or the eldest leads."""
        opening = self.setup.opening_lead
        if opening is not None:
            leader = next(s for s, hand in enumerate(self.hands) if (hand >> opening) & 1)
        elif leader is None:
            leader = self.eldest
            if self.active is not None:
                leader = self.next_active(self.dealer)
        self.leader = self.to_play = leader
        self._legal_cache = -1
        self.phase = PLAYING

    def next_active(self, seat: int) -> int:
        """The next seat clockwise from ``seat`` that takes part in the tricks."""
        n = self.setup.players
        nxt = (seat + 1) % n
        active = self.active
        if active is not None:
            while not active[nxt]:
                nxt = (nxt + 1) % n
        return nxt

    def _legal_mask(self, seat: int) -> int:
        hand = self.hands[seat]
        tables = self.tables
        assert tables is not None
        setup = self.setup
        trick = self.trick
        if not trick:
            if setup.opening_lead is not None and not self.trick_cards:
                opening = 1 << setup.opening_lead
                if hand & opening:
                    return opening
            if setup.trump_lead_after_broken and not self.trump_broken and self.trump is not None:
                others = hand & ~tables.trump_mask
                if others:
                    return others
            return hand
        led = tables.suit_of[trick[0][1]]
        if led == FREE or not setup.follow_suit:
            return hand
        free = hand & tables.suit_masks[FREE]
        follow = hand & tables.suit_masks[led]
        if follow:
            return follow | free
        if setup.must_trump and self.trump is not None:
            trumps = hand & tables.trump_mask
            if trumps:
                return trumps | free
        return hand

    def _why_card_illegal(self, seat: int, action: Action) -> tuple[str, str]:
        if self.piles is not None:
            return "in a pile hand you play the next card of your pile (play_pile)", "blind pile"
        card = action.value
        if action.kind != PLAY:
            return f"it is time to play a card, not {action}", "turn order"
        if type(card) is not int or not 0 <= card < 54:
            return f"{card!r} is not a card", "play a card from your hand"
        name = format_card(card, labels=self.setup.labels)
        if not (self.hands[seat] >> card) & 1:
            return f"you do not hold {name}", "play a card from your hand"
        tables = self.tables
        assert tables is not None
        if not self.trick:
            opening = self.setup.opening_lead
            if opening is not None and not self.trick_cards:
                first = format_card(opening, labels=self.setup.labels)
                return f"the first trick is opened with the {first}", "opening lead"
            return f"{name} is a trump, and trumps may not be led until broken", "trump lead"
        led = tables.suit_of[self.trick[0][1]]
        if self.hands[seat] & tables.suit_masks[led]:
            reason = f"you must follow suit ({SUIT_NAMES[led]} led)"
            bower = self._left_bower_note(seat, card, led)
            return (f"{reason}: {bower}" if bower else reason), "follow suit"
        return "you hold a trump and must play one (void in the led suit)", "must trump"

    def _left_bower_note(self, seat: int, card: int, led: int) -> str:
        """Why the left bower matters to a refused card ('' when it does not): it was
        played as a card of its printed suit, or it is the trump the seat must follow with."""
        trump = self.trump
        if self.setup.bowers is None or trump is None:
            return ""
        left = (3 - trump) * 13 + JACK
        played_as_printed = card == left and led == 3 - trump
        holds_for_trump = led == trump and (self.hands[seat] >> left) & 1
        if not (played_as_printed or holds_for_trump):
            return ""
        name = format_card(left, labels=self.setup.labels)
        return f"the left bower ({name}) belongs to the trump suit ({SUIT_NAMES[trump]}) here"

    def _finish_trick(self) -> None:
        """The trick is complete: its winner takes it and leads; the hand may end."""
        tables = self.tables
        assert tables is not None
        trick = self.trick
        winner = tables.winner(trick)
        self.tricks_won[winner] += 1
        self.trick_cards.append(tuple(trick))
        self.trick_winners.append(winner)
        self.trick = []
        self.leader = self.to_play = winner
        if len(self.trick_cards) == self.hand_size:
            self._score_hand()
