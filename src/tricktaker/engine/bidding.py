"""Fixing the trump and bidding: who sees their cards, when the trump is exposed,
which bids are allowed (hook, totals, misere, zero-bid limits)."""

from __future__ import annotations

from tricktaker.engine.actions import BID, BID_ACTIONS, Action, bid
from tricktaker.engine.base import BIDDING, PILE_SHUFFLE, TRUMP_DRAW, StateFields


class BiddingMixin(StateFields):
    """The part of the game state that fixes the trump and takes the bids."""

    __slots__ = ()

    def _prepare_hand(self) -> None:
        """After the deal (and any call): who sees their cards, then trump and bidding."""
        if not self.spec.blind_bid:
            for seat in range(self.setup.players):
                self.cards_seen[seat] = True
        if self.spec.bid_before_trump:
            self.phase = BIDDING
            return
        self._fix_trump()

    def _fix_trump(self) -> None:
        """Expose the trump (maybe by a second-deck chance step), then continue."""
        method = self.setup.trump_method
        if self.spec.no_trump or method == "none":
            self.set_trump(None)
        elif method == "rotate":
            rotation = self.setup.rotation
            self.set_trump(rotation[(self.hand_number - 1) % len(rotation)])
        elif method == "turn_up" and self.rest:
            self.turn_up = self.rest[0]
            self.set_trump(None if self.turn_up >= 52 else self.turn_up // 13)
        elif method == "second_deck" or self.setup.when_no_card == "second_deck":
            self.phase = TRUMP_DRAW
            return
        else:
            self.set_trump(None)
        if self.bid_count == self.setup.players:
            self._after_bidding_trump_known()
        else:
            self.phase = BIDDING

    def _after_bidding_trump_known(self) -> None:
        if self.shuffle_seats:
            self.phase = PILE_SHUFFLE
            return
        self.start_play()

    def _legal_bids(self, seat: int) -> list[int]:
        setup, size = self.setup, self.hand_size
        if self.spec.misere:
            return [0]
        made = 0
        for b in self.bids:
            if b is not None:
                made += b
        high = size - made if setup.sum_equals_hand else size
        low = min(setup.min_bid, high)
        options = list(range(low, high + 1))
        last = self.bid_count == setup.players - 1 and not setup.simultaneous
        if setup.sum_equals_hand and last:
            options = [size - made]
        if self.hook and last and size - made in options and len(options) > 1:
            options.remove(size - made)
        limit = setup.zero_streak_limit
        if limit is not None and self.zero_streak[seat] >= limit and len(options) > 1:
            options = [b for b in options if b != 0]
        return options

    def legal_bid_actions(self, seat: int) -> list[Action]:
        bids = self._legal_bids(seat)
        self._bid_cache = (seat, bids)
        return [BID_ACTIONS[b] if b < 64 else bid(b) for b in bids]

    def _why_bid_illegal(self, seat: int, action: Action) -> tuple[str, str]:
        if action.kind != BID or type(action.value) is not int:
            return f"it is time to bid, not {action}", "turn order"
        value, size = action.value, self.hand_size
        if self.spec.misere:
            return "in a misere hand everyone bids 0", "misere"
        made = sum(b for b in self.bids if b is not None)
        if value < 0 or value > size:
            return f"a bid is from {self.setup.min_bid} to {size} tricks", "bid range"
        if value < self.setup.min_bid:
            return f"the lowest bid is {self.setup.min_bid}", "minimum bid"
        if self.setup.sum_equals_hand:
            if self.bid_count == self.setup.players - 1:
                reason = (
                    f"the bids must total exactly {size}, so the last bid must be {size - made}"
                )
            else:
                reason = (
                    f"the bids must total exactly {size}; {made} are bid,"
                    f" so bid at most {size - made}"
                )
            return reason, "bids total the hand size"
        if self.hook and value == size - made:
            return f"the last bid may not make the total equal {size} tricks", "hook rule"
        return (
            f"you may not bid 0 after {self.zero_streak[seat]} zero bids in a row",
            "zero-bid limit",
        )

    def _bid(self, seat: int, value: int) -> None:
        self._bid_cache = None
        self.bids[seat] = value
        self.bid_count += 1
        if self.bid_count < self.setup.players:
            return
        for s, b in enumerate(self.bids):
            self.zero_streak[s] = self.zero_streak[s] + 1 if b == 0 else 0
        if self.spec.blind_bid and not self.spec.pile:
            self.cards_seen = [True] * self.setup.players
        if not self.trump_known:
            self._fix_trump()
        else:
            self._after_bidding_trump_known()
