"""docs/games/buckup.md as the property tests check it: the ante, stay or fold, the
draws, the settlement, the chips and the end of the game."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from tests.properties.checked import (
    CheckedGame,
    mask_of,
    seat_order,
)
from tricktaker import (
    Action,
    ChanceOutcome,
    HandResult,
    Observation,
)
from tricktaker.cards import cards_of, format_card

# ------------------------------------------------------------------- Buckup

ANTE_CHOICES: Final = ("kept", "drawn", "kept_no_fold_fee", "drawn_no_fold_fee")
BUCKUP_DECISIONS: Final = (
    "redeal",
    "keep",
    "stay",
    "fold",
    "out_for_now",
    "come_back",
    "concede",
    "draw",
)
IN, OUT, OFN, UNDECIDED = "in", "out", "out_for_now", "undecided"


def nineteen_hand(cards: Sequence[int]) -> bool:
    """docs/games/buckup.md, 19 redeal: five cards, all 9 or lower, adding up to 19 or less
    (ace high)."""
    values = [c % 13 + 2 for c in cards]
    return len(values) == 5 and max(values) <= 9 and sum(values) <= 19


class BuckupGame(CheckedGame):
    """docs/games/buckup.md: antes, the 19 redeal, stay or fold (or out for now) with the draw,
    scare cards, five tricks, settlement of a pot that rolls over."""

    def init_game(self) -> None:
        s = self.settings
        self.start = int(s.starting_stack)
        self.stacks = [self.start] * self.n
        self.pot = 0
        self.total = self.start * self.n
        self.four = bool(s.four_card_deal)
        self.ofn = bool(s.out_for_now)
        self.scare_on = bool(s.scare_cards)
        self.size = 4 if self.four else 5
        self.expected_scores = [0] * self.n

    def new_hand(self) -> None:
        self.stage = "ante"
        self.round = "stay"
        self.ante: tuple[int, int, int, str] | None = None
        self.status = [UNDECIDED] * self.n
        self.queue: list[int] = []
        self.drawer = -1
        self.pending = 0
        self.aside: list[int] = []
        self.stock: list[int] = []
        self.discard_pile: list[int] = []
        self.own_discards: list[list[int]] = [[] for _ in range(self.n)]
        self.drawn = [0] * self.n
        self.scare: list[int | None] = [None] * self.n
        self.turn_up: int | None = None
        self.trump: int | None = None
        self.came_back = False
        self.payments: Counter[tuple[int, int, str]] = Counter()
        self.hand_stacks = list(self.stacks)
        self.hand_pot = self.pot
        self.over = False
        self.dealt: list[list[int]] = [[] for _ in range(self.n)]

    def action_universe(self) -> list[Action]:
        out = [Action("ante", c) for c in (*ANTE_CHOICES, "bogus", "5")]
        out += [Action(kind) for kind in BUCKUP_DECISIONS]
        out += [Action(kind, c) for kind in ("discard", "play") for c in self.deck]
        out += [Action("discard", 60), Action("play", 53), Action("pass"), Action("bid", 1)]
        out += [Action("pluck", 0), Action("auction", "NT")]
        return out

    def explicit_chance(self, kind: str) -> ChanceOutcome | None:
        rng = self.rng
        if kind == "restock":
            pile = list(self.discard_pile)
            rng.shuffle(pile)
            return ChanceOutcome("restock", tuple(pile))
        if kind == "draw":
            count = min(self.pending, len(self.stock))
            return ChanceOutcome("draw", tuple(rng.sample(self.stock, count)))
        outcome = super().explicit_chance(kind)
        if (
            outcome is None
            or self.four
            or rng.random() >= self.intensity.rigged / self.intensity.explicit
        ):
            return outcome
        # A rigged deal: some seat gets five low cards for the 19 redeal.
        order = list(outcome.cards)
        low = [c for c in self.deck if c % 13 <= 3]  # 2 to 5
        chosen = rng.sample(low, 5)
        while not nineteen_hand(chosen):
            chosen = rng.sample(low, 5)
        first = rng.randrange(self.n)
        for k, card in enumerate(chosen):
            target, where = first + k * self.n, order.index(card)
            order[target], order[where] = order[where], order[target]
        return ChanceOutcome("deal", tuple(order))

    def bad_chances(self) -> list[ChanceOutcome]:
        bad = super().bad_chances()
        state = self.state
        if self.stage != "draw":
            return bad
        held = [c for s in range(self.n) for c in cards_of(state.hands[s])]
        if self.stock:
            count = min(self.pending, len(self.stock))
            top = self.stock[:count]
            bad += [
                ChanceOutcome("restock", tuple(self.discard_pile)),
                ChanceOutcome("draw", (*top[:-1], held[0])),  # a card someone holds
                ChanceOutcome("draw", tuple(top[:-1])),  # too few
                ChanceOutcome("draw", (*top[:-1], top[0]))
                if count > 1
                else ChanceOutcome("draw", ()),
            ]
            if len(self.stock) > count:
                bad.append(ChanceOutcome("draw", tuple(self.stock[: count + 1])))  # too many
            if self.aside:
                bad.append(ChanceOutcome("draw", (*top[:-1], self.aside[0])))  # own discard
        else:
            pile = list(self.discard_pile)
            bad += [
                ChanceOutcome("draw", tuple(pile[:1])),
                ChanceOutcome("restock", (*pile, held[0])),
                ChanceOutcome("restock", tuple(pile[1:])),
            ]
            if self.aside:
                bad.append(ChanceOutcome("restock", (*pile, *self.aside)))  # own discards
        return bad

    def pay(self, seat: int, amount: int, reason: str) -> None:
        if amount == 0:
            return
        assert amount > 0 or -amount <= self.pot, (
            f"{self.where()}: {-amount} from a pot of {self.pot}"
        )
        self.stacks[seat] -= amount
        self.pot += amount
        self.payments[(seat, amount, reason)] += 1

    # ------------------------------------------------------------ the flow

    def expected_chance(self) -> str:
        if self.stage == "dealing":
            return "deal"
        assert self.stage == "draw", f"{self.where()}: unexpected chance step"
        return "draw" if self.stock else "restock"

    def expected_phase(self) -> str:
        if self.stage == "decide":
            return "stay_or_fold" if self.round == "stay" else "come_back"
        if self.stage == "draw":
            return "draw" if self.stock else "restock"
        return {"dealing": "deal", "dealer": "dealer_choice", "play": "playing"}.get(
            self.stage, self.stage
        )

    def expected_to_act(self) -> int:
        if self.stage in ("ante", "dealer"):
            return self.dealer
        if self.stage in ("redeal", "decide"):
            return self.queue[0]
        if self.stage == "discard":
            return self.drawer
        assert self.stage == "play", f"{self.where()}: nobody should act now"
        return self.next_player()

    def others_in(self) -> int:
        return sum(1 for s in range(self.n) if s != self.dealer and self.status[s] == IN)

    def forced(self, seat: int) -> bool:
        """docs/games/buckup.md, Scare cards: a face-up trump must stay in."""
        card = self.scare[seat]
        return self.scare_on and card is not None and card // 13 == self.trump

    def reference_legal(self, seat: int) -> set[Action]:
        stage = self.stage
        if stage == "ante":
            return {Action("ante", c) for c in ANTE_CHOICES}
        if stage == "redeal":
            return {Action("redeal"), Action("keep")}
        if stage == "discard":
            return {Action("draw")} | {Action("discard", c) for c in cards_of(self.held[seat])}
        if stage == "dealer":
            return {Action("come_back"), Action("concede")}
        if stage == "play":
            return self.play_actions(seat)
        assert stage == "decide"
        if self.round == "comeback":
            return {Action("come_back"), Action("fold")}
        if self.forced(seat):
            return {Action("stay")}
        if seat != self.dealer:
            return {Action(k) for k in ("stay", "fold", *(("out_for_now",) if self.ofn else ()))}
        if self.others_in() == 1:  # dealer's obligation, or out for now
            return {Action(k) for k in ("stay", *(("out_for_now",) if self.ofn else ()))}
        return {Action("stay"), Action("fold")}

    def on_chance(self, outcome: ChanceOutcome) -> None:
        if self.stage == "dealing":
            self.deal(outcome.cards)
            return
        cards = list(outcome.cards)
        if outcome.kind == "restock":
            assert not self.stock
            assert sorted(cards) == sorted(self.discard_pile), (
                f"{self.where()}: the new stock is not the discards of the players who drew"
            )
            assert not set(cards) & set(self.aside), "a player's own discards were shuffled in"
            self.stock = cards
            self.discard_pile = []
            self.seen["buckup:restock"] += 1
            return
        count = min(self.pending, len(self.stock))
        assert len(cards) == count
        assert len(set(cards)) == count
        assert set(cards) <= set(self.stock), f"{self.where()}: cards drawn not from the stock"
        assert not set(cards) & set(self.own_discards[self.drawer]), "drew own discards"
        self.stock = [c for c in self.stock if c not in cards]
        self.held[self.drawer] |= mask_of(cards)
        self.pending -= count
        if self.pending == 0:
            self.finish_draw()

    def deal(self, order: tuple[int, ...]) -> None:
        state, n, size = self.state, self.n, self.size
        assert sorted(order) == list(range(52))
        seats = seat_order(self.dealer, n)
        dealt: list[list[int]] = [[] for _ in range(n)]
        for index in range(size * n):
            dealt[seats[index % n]].append(order[index])
        self.dealt = dealt
        self.held = [mask_of(cards) for cards in dealt]
        self.turn_up = order[size * n]
        self.trump = self.turn_up // 13
        self.stock = list(order[size * n + 1 :])
        self.discard_pile = []
        self.aside = []
        self.status = [UNDECIDED] * n
        self.scare = [cards[0] if self.scare_on else None for cards in dealt]
        self.redealing = False
        self.public |= 1 << self.turn_up
        for card in self.scare:
            if card is not None:
                self.public |= 1 << card
        self.in_hand = True
        assert state.turn_up == self.turn_up
        assert state.trump == self.trump
        if any(self.forced(s) for s in range(n)):
            self.seen["buckup:scare forced"] += 1
        self.queue = [] if self.four else [s for s in seats if nineteen_hand(dealt[s])]
        if self.queue:
            self.stage = "redeal"
            self.seen["buckup:nineteen"] += 1
        else:
            self.start_decisions()

    def start_decisions(self) -> None:
        self.round = "stay"
        self.queue = seat_order(self.dealer, self.n)
        self.ask_next()

    def ask_next(self) -> None:
        if self.queue:
            seat = self.queue[0]
            if self.round == "stay" and seat == self.dealer and self.others_in() == 0:
                # Nobody stayed in: the dealer takes the pot.
                self.queue.pop(0)
                self.status[seat] = IN
                self.seen["buckup:dealer takes the pot"] += 1
                self.close()
                return
            self.stage = "decide"
            return
        if self.round == "comeback":
            if self.came_back:  # someone came back: the dealer is out
                self.status[self.dealer] = OUT
                self.fold_fee(self.dealer)
                self.close()
            else:
                self.round = "dealer"
                self.stage = "dealer"
            return
        self.close()

    def fold_fee(self, seat: int) -> None:
        assert self.ante is not None
        self.pay(seat, self.ante[1], "fold_fee")

    def close(self) -> None:
        for seat in seat_order(self.dealer, self.n):
            if self.status[seat] == OFN:  # still out for now: out, and pays the fold fee
                self.status[seat] = OUT
                self.fold_fee(seat)
        playing = [s for s in range(self.n) if self.status[s] == IN]
        assert playing, f"{self.where()}: nobody in"
        if len(playing) < 2:
            self.over = True
            self.stage = "over"
            self.seen["buckup:uncontested"] += 1
            return
        self.stage = "play"
        leader = next(s for s in seat_order(self.dealer, self.n) if self.status[s] == IN)
        self.start_tricks(leader, playing)

    def begin_draw(self, seat: int) -> None:
        self.status[seat] = IN
        self.drawer = seat
        self.aside = []
        self.stage = "discard"

    def finish_draw(self) -> None:
        self.discard_pile += self.aside
        self.aside = []
        self.drawer = -1
        self.pending = 0
        self.ask_next()

    def on_action(self, seat: int, action: Action) -> None:
        kind, stage = action.kind, self.stage
        if stage == "ante":
            choice = str(action.value)
            self.seen[f"buckup:ante {choice}"] += 1
            s = self.settings
            fold_fee = 0 if choice.endswith("no_fold_fee") else int(s.fold_fee)
            per = "kept" if choice.startswith("kept") else "drawn"
            self.ante = (int(s.ante), fold_fee, int(s.card_fee), per)
            for payer in seat_order(self.dealer, self.n):
                self.pay(payer, int(s.ante), "ante")
            self.stage = "dealing"
        elif stage == "redeal":
            assert self.queue.pop(0) == seat
            if kind == "redeal":
                self.seen["buckup:redealt"] += 1
                self.stage = "dealing"
                self.in_hand = False
                self.redealing = True
                self.held = [0] * self.n
            elif not self.queue:
                self.start_decisions()
        elif stage == "discard":
            assert seat == self.drawer
            if kind == "discard":
                card = action.value
                assert isinstance(card, int)
                self.held[seat] &= ~(1 << card)
                self.aside.append(card)
                self.own_discards[seat].append(card)
                return
            assert self.ante is not None
            kept = self.held[seat].bit_count()
            drawn = 5 - kept
            fee = self.ante[2] * (kept if self.ante[3] == "kept" else drawn)
            self.pay(seat, fee, "draw_fee")
            self.drawn[seat] = drawn
            self.pending = drawn
            if drawn == 0:
                self.finish_draw()
            else:
                self.stage = "draw"
        elif stage == "dealer":
            assert seat == self.dealer
            if kind == "come_back":
                self.begin_draw(seat)
            else:
                self.status[seat] = OUT
                self.fold_fee(seat)
                self.close()
        else:
            assert stage == "decide"
            assert self.queue.pop(0) == seat
            if kind in ("stay", "come_back"):
                self.came_back = self.came_back or kind == "come_back"
                self.begin_draw(seat)
                return
            if kind == "fold":
                self.status[seat] = OUT
                self.fold_fee(seat)
            else:
                assert kind == "out_for_now"
                self.status[seat] = OFN
                if seat == self.dealer:
                    self.round = "comeback"
                    self.queue = [
                        s
                        for s in seat_order(self.dealer, self.n)
                        if self.status[s] == OFN and s != seat
                    ]
            self.ask_next()

    def known_trump(self) -> int | bool | None:
        return self.trump

    def play_legal(self, seat: int) -> set[int]:
        hand = cards_of(self.held[seat])
        if not self.trick:
            return set(hand)
        led = self.trick[0][1] // 13
        return {c for c in hand if c // 13 == led} or set(hand)

    def trick_winner(self, trick: tuple[tuple[int, int], ...]) -> int:
        led = trick[0][1] // 13

        def key(card: int) -> tuple[int, int]:
            if card // 13 == self.trump:
                return (2, card % 13)
            return (1, card % 13) if card // 13 == led else (0, 0)

        return max(trick, key=lambda sc: key(sc[1]))[0]

    def hand_over(self) -> bool:
        return self.over or (self.stage == "play" and len(self.tricks) == 5)

    # -------------------------------------------------------------- checks

    def extra_piles(self) -> dict[str, list[int]]:
        ext: Any = self.state.ext
        assert self.state.turn_up is not None
        return {
            "turn-up": [self.state.turn_up],
            "stock": list(ext.stock),
            "discards": list(ext.discards),
            "set aside": list(ext.setting_aside),
        }

    def check_step(self) -> None:
        ext: Any = self.state.ext
        ledger = ext.ledger
        stacks, pot = list(ledger.stacks), int(ledger.pot)
        assert sum(stacks) + pot == self.total, f"{self.where()}: chips appeared or vanished"
        assert (stacks, pot) == (self.stacks, self.pot), (
            f"{self.where()}: stacks {stacks} pot {pot}, the rules say {self.stacks} {self.pot}"
        )
        paid = [0] * self.n
        for payment in ledger.payments:
            assert payment.amount != 0
            paid[payment.seat] += payment.amount
        for seat in range(self.n):
            assert stacks[seat] == self.hand_stacks[seat] - paid[seat], "an unrecorded payment"
        assert pot == self.hand_pot + sum(paid), "an unrecorded payment into the pot"
        assert self.state.scores == self.expected_scores
        if (self.stage == "ante" and not ledger.payments) or self.state.is_terminal():
            assert self.state.scores == [s - self.start for s in stacks]
        if self.in_hand:
            assert sorted(ext.stock) == sorted(self.stock)
            assert sorted(ext.discards) == sorted(self.discard_pile)
            assert sorted(ext.setting_aside) == sorted(self.aside)
            assert list(ext.status) == self.status

    def check_extra_view(self, seat: int, obs: Observation) -> None:
        extra = obs.extra
        assert extra["stacks"] == self.stacks
        assert extra["pot"] == self.pot
        if self.in_hand:
            assert extra["status"] == self.status
            assert extra["stock"] == len(self.stock)
            assert obs.turn_up == self.turn_up
        if self.stage == "play":
            assert obs.active == tuple(st == IN for st in self.status)
        if self.scare_on and self.in_hand:
            assert extra["scare_cards"] == [
                format_card(c) if c is not None else None for c in self.scare
            ]

    def check_history_extra(self, seat: int, view: HandResult, real: HandResult) -> None:
        assert view.extra == real.extra  # public: chips, statuses, counts of cards drawn

    def check_hand(self, hr: HandResult) -> None:
        extra = hr.extra
        pot = self.pot
        assert extra["pot_before"] == self.hand_pot
        assert extra["pot_settled"] == pot
        assert all(st in (IN, OUT) for st in self.status), f"{self.where()}: {self.status}"
        playing = [s for s in range(self.n) if self.status[s] == IN]
        if len(playing) == 1:
            winners, burned = playing, []
            self.pay(playing[0], -pot, "uncontested")
            assert hr.tricks == (0,) * self.n
            assert hr.trick_cards == ()
        else:
            tricks = hr.tricks
            assert sum(tricks) == 5, f"{self.where()}: tricks {tricks} do not sum to 5"
            assert all(tricks[s] == 0 for s in range(self.n) if s not in playing)
            winners = [s for s in playing if tricks[s] >= 2]
            burned = [s for s in playing if tricks[s] < 2]
            if len(winners) == 1:
                self.pay(winners[0], -pot, "win")
            elif len(winners) == 2:
                half, odd = divmod(pot, 2)
                for s in winners:
                    self.pay(s, -(half + (odd if tricks[s] >= 3 else 0)), "win")
                if odd and max(tricks[s] for s in winners) == 2:
                    self.seen["buckup:odd chip stays"] += 1
            else:
                assert not winners
                self.seen["buckup:nobody won"] += 1
            for s in burned:
                self.pay(s, pot, "burn")
            if burned:
                self.seen["buckup:burned"] += 1
        if min(self.stacks) < 0:
            self.seen["buckup:debt"] += 1
        assert extra["status"] == self.status
        assert extra["drawn"] == self.drawn
        assert extra["winners"] == winners
        assert extra["burned"] == burned
        assert extra["pot_after"] == self.pot
        assert extra["stacks"] == self.stacks
        recorded = Counter((p["seat"], p["amount"], p["reason"]) for p in extra["payments"])
        assert recorded == self.payments, (
            f"{self.where()}: payments {sorted(recorded.elements())}, the rules say"
            f" {sorted(self.payments.elements())}"
        )
        for seat in range(self.n):
            paid = sum(p["amount"] for p in extra["payments"] if p["seat"] == seat)
            assert hr.hand_scores[seat] == -paid == self.stacks[seat] - self.hand_stacks[seat]
        assert sum(p["amount"] for p in extra["payments"]) == self.pot - self.hand_pot
        self.expected_scores = [s - self.start for s in self.stacks]
        assert list(hr.total_scores) == self.expected_scores
        assert hr.turn_up == self.turn_up
        assert hr.trump == self.trump
        for seat in range(self.n):
            if self.status[seat] == IN and len(playing) > 1:
                assert sorted(hr.deal[seat]) == sorted(self.played_by(seat))
                assert len(hr.deal[seat]) == 5
            else:
                assert mask_of(hr.deal[seat]) == self.held[seat]
        hands = len(self.state.history)
        over = (hands >= self.settings.hands and self.pot == 0) or hands >= self.settings.max_hands
        assert self.state.is_terminal() == over, (
            f"{self.where()}: after hand {hands} with a pot of {self.pot} the game"
            f" {'ended' if self.state.is_terminal() else 'goes on'}"
        )

    def check_game_over(self) -> None:
        assert self.state.scores == [s - self.start for s in self.stacks]
        assert sum(self.state.scores) == -self.pot
