"""Dealing and the other chance steps of the game state: the deck order of a deal, the
seeded outcome of each chance step, its checks, and the deal itself
(:class:`~tricktaker.engine.state.GameState` takes them from :class:`DealingMixin`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, cast

from tricktaker.cards import card_set, cards_of, parse_card
from tricktaker.engine.base import (
    BIDDING,
    DEAL,
    HOOK,
    PILE_SHUFFLE,
    TRUMP_DRAW,
    ChanceOutcome,
    StateFields,
)
from tricktaker.engine.errors import IllegalActionError

if TYPE_CHECKING:
    from tricktaker.engine.state import GameState

_CHANCE_KINDS = {DEAL: "deal", TRUMP_DRAW: "second_deck", PILE_SHUFFLE: "piles"}


class DealingMixin(StateFields):
    """The part of the game state that deals and resolves the chance steps."""

    __slots__ = ()

    def deal_order(self) -> list[int]:
        """Seats in the order they receive cards this hand."""
        n, dealer = self.setup.players, self.dealer
        if self.setup.deal_counterclockwise:
            return [(dealer - 1 - i) % n for i in range(n)]
        return [(dealer + 1 + i) % n for i in range(n)]

    def deck_order_for(
        self,
        hands: Sequence[Iterable[int | str]],
        *,
        turn_up: int | str | None = None,
        kitty: Iterable[int | str] = (),
    ) -> tuple[int, ...]:
        """A deck order (top first) that deals ``hands[seat]`` to each seat this hand.

        For building positions by hand: ``state.apply_chance(ChanceOutcome("deal", order))``.
        ``turn_up`` becomes the first undealt card (``kitty``: the cards of a kitty);
        the other cards follow in id order.
        """

        def ids(cards: Iterable[int | str]) -> list[int]:
            return [parse_card(c) if isinstance(c, str) else c for c in cards]

        per_seat = [ids(cards) for cards in hands]
        kitty_cards = ids(kitty)
        n, size = self.setup.players, self.hand_size
        if len(per_seat) != n or any(len(h) != size for h in per_seat):
            raise ValueError(f"give {n} hands of {size} cards")
        order: list[int] = []
        given = [0] * n
        for target, count in self.setup.deal_packets(self.deal_order(), size):
            for _ in range(count):
                if target < 0:
                    order.append(kitty_cards.pop(0))
                else:
                    order.append(per_seat[target][given[target]])
                    given[target] += 1
        if turn_up is not None:
            order.append(parse_card(turn_up) if isinstance(turn_up, str) else turn_up)
        used = set(order)
        order.extend(c for c in self.setup.deck if c not in used)
        return tuple(order)

    # ----------------------------------------------------------------- chance

    def sample_chance(self) -> ChanceOutcome:
        """The outcome the seeded generator gives for the pending chance step."""
        phase = self.phase
        if phase == DEAL:
            given = self.given_deals
            if given is not None and self.redeals == 0 and self.hands_played < len(given):
                return ChanceOutcome("deal", given[self.hands_played])
            rng = self._rng("deal")
            key = rng.random
            return ChanceOutcome("deal", tuple(sorted(self.setup.deck, key=lambda _: key())))
        if phase == TRUMP_DRAW:
            return ChanceOutcome("second_deck", (self._rng("trump_draw").randrange(52),))
        if phase == PILE_SHUFFLE:
            rng = self._rng("pile_shuffle")
            out: list[int] = []
            for seat in range(self.setup.players):
                if seat in self.shuffle_seats:
                    pile = cards_of(self.hands[seat])
                    rng.shuffle(pile)
                else:
                    pile = self.dealt[seat][:]
                out.extend(pile)
            return ChanceOutcome("piles", tuple(out))
        hooks = self.hooks
        if phase == HOOK and hooks is not None:
            state = cast("GameState", self)
            if hooks.chance_kind(state) is not None:
                return hooks.sample_chance(state, self._rng("hook"))
        raise IllegalActionError("no chance step is pending", rule="turn order")

    def apply_chance(self, outcome: ChanceOutcome | None = None) -> None:
        """Resolve the pending chance step, from the seeded generator or a given outcome."""
        if outcome is None:
            outcome = self.sample_chance()
        else:
            self._check_chance(outcome)
        self.events.append(("chance", outcome))
        self._legal_cache = -1
        self._bid_cache = None
        self._hook_cache = None
        if self.phase == HOOK:
            assert self.hooks is not None
            self.hooks.apply_chance(cast("GameState", self), outcome)
            self._hook_cache = None
        elif outcome.kind == "deal":
            self._deal(outcome.cards)
        elif outcome.kind == "second_deck":
            self.turn_up = outcome.cards[0]
            self.set_trump(outcome.cards[0] // 13)
            if self.bid_count == self.setup.players:
                self._after_bidding_trump_known()
            else:
                self.phase = BIDDING
        else:
            n, size = self.setup.players, self.hand_size
            self.piles = [list(outcome.cards[s * size : (s + 1) * size]) for s in range(n)]
            self.start_play()

    def _check_chance(self, outcome: ChanceOutcome) -> None:
        if self.phase == HOOK and self.hooks is not None:
            expected = self.hooks.chance_kind(cast("GameState", self))
        else:
            expected = _CHANCE_KINDS.get(self.phase)
        if expected is None:
            raise IllegalActionError("no chance step is pending", rule="turn order")
        if outcome.kind != expected:
            raise IllegalActionError(
                f"the pending chance step is {expected!r}, not {outcome.kind!r}", rule="turn order"
            )
        if self.phase == HOOK:
            assert self.hooks is not None
            problem = self.hooks.check_chance(cast("GameState", self), outcome)
            if problem is not None:
                raise IllegalActionError(problem, rule="chance")
        elif expected == "deal" and sorted(outcome.cards) != sorted(self.setup.deck):
            raise IllegalActionError("a deal must be an order of the whole deck", rule="deck")
        elif expected == "second_deck" and (
            len(outcome.cards) != 1 or not 0 <= outcome.cards[0] < 52
        ):
            raise IllegalActionError("a second-deck card must be one standard card", rule="deck")
        elif expected == "piles":
            size = self.hand_size
            for seat in range(self.setup.players):
                pile = outcome.cards[seat * size : (seat + 1) * size]
                if len(pile) != size or card_set(pile) != self.hands[seat]:
                    raise IllegalActionError(
                        f"seat {seat}'s pile must hold exactly its hand", rule="blind hand"
                    )
                if seat not in self.shuffle_seats and list(pile) != self.dealt[seat]:
                    raise IllegalActionError(
                        f"seat {seat}'s face-down pile stays in the order dealt", rule="blind pile"
                    )

    def _deal(self, order: tuple[int, ...]) -> None:
        setup, size = self.setup, self.hand_size
        n = setup.players
        seats = self.deal_order()
        dealt = self.dealt
        if setup.deal_pattern is None:
            for i, seat in enumerate(seats):
                dealt[seat].extend(order[i : size * n : n])
            used = size * n
        else:
            used = 0
            for target, count in setup.deal_packets(seats, size):
                packet = order[used : used + count]
                used += count
                if target < 0:
                    self.kitty.extend(packet)
                else:
                    dealt[target].extend(packet)
        hands = self.hands
        for seat in range(n):
            mask = 0
            for card in dealt[seat]:
                mask |= 1 << card
            hands[seat] = mask
        self.rest = order[used:]
        if self.spec.pile:
            self.piles = [list(cards) for cards in dealt]
        if self.hooks is not None:
            self.hooks.after_deal(cast("GameState", self))
        else:
            self._prepare_hand()
