"""docs/games/pluck.md as the property tests check it: quotas, plucks, the dealer's
trump, the 2C opening, 17 tricks."""

from __future__ import annotations

from typing import Final

from tests.properties.checked import (
    CheckedGame,
    mask_of,
    names,
    seat_order,
)
from tricktaker import (
    Action,
    ChanceOutcome,
    HandResult,
    Observation,
)
from tricktaker.cards import SUIT_LETTERS, cards_of, format_card, parse_card
from tricktaker.games.pluck.hooks import pluck_order

# -------------------------------------------------------------------- Pluck

PLUCK_QUOTAS: Final = (7, 6, 4)
TWO_OF_CLUBS: Final = parse_card("2C")
BIG_JOKER: Final = 52
LITTLE_JOKER: Final = 53


def pluck_quotas(dealer: int) -> list[int]:
    """docs/games/pluck.md, Bidding: dealer 7 tricks, left of dealer 6, right of dealer 4."""
    quotas = [0, 0, 0]
    for offset, quota in enumerate(PLUCK_QUOTAS):
        quotas[(dealer + offset) % 3] = quota
    return quotas


def reference_plucks(surplus: list[int], dealer: int) -> list[tuple[int, int]]:
    """docs/games/pluck.md, Plucks: ``(plucker, pluckee)`` for every pluck, in order. Each
    trick above quota is a pluck to take, each trick short a pluck to suffer; the player
    with the most plucks goes first, ties from the (new) dealer going left; (Choices we
    made) a plucker with two pluckees first takes all they can from the one who owes
    more, ties again from the dealer."""
    assert sum(surplus) == 0

    def position(seat: int) -> int:
        return (seat - dealer) % 3

    owed = [max(-s, 0) for s in surplus]
    out: list[tuple[int, int]] = []
    for plucker in sorted(range(3), key=lambda s: (-surplus[s], position(s))):
        to_take = max(surplus[plucker], 0)
        for pluckee in sorted(range(3), key=lambda s: (-owed[s], position(s))):
            take = min(to_take, owed[pluckee])
            out += [(plucker, pluckee)] * take
            owed[pluckee] -= take
            to_take -= take
    assert not any(owed), "with three players the pairing is forced by the totals"
    return out


class PluckGame(CheckedGame):
    """docs/games/pluck.md: quotas, plucks, the dealer's trump, the 2C opening, 17 tricks."""

    def new_hand(self) -> None:
        self.stage = "deal"
        self.quotas = [0, 0, 0]
        self.expected_pairs: list[tuple[int, int]] = []
        self.pending: list[tuple[int, int]] = []
        self.given: int | None = None
        self.trump: int | None = None

    def init_game(self) -> None:
        self.done: list[tuple[int, int, int, int]] = []
        """The plucks of the hand, ``(plucker, pluckee, given, returned)``; kept until the
        next deal, as the engine shows them until then."""

    def action_universe(self) -> list[Action]:
        out = [Action(kind, c) for kind in ("pluck", "give_back", "play") for c in self.deck]
        out += [Action("call_trump", s) for s in (*SUIT_LETTERS, "N", "spades")]
        out += [Action("pluck", 99), Action("play", 1), Action("give_back", "AS")]
        out += [Action("pass"), Action("discard", 51), Action("bid", 3), Action("auction", "3D")]
        return out

    def expected_chance(self) -> str:
        assert self.stage == "deal", f"{self.where()}: unexpected chance step"
        return "deal"

    def expected_phase(self) -> str:
        return {"pluck": "pluck", "give_back": "give_back", "trump": "call_trump"}.get(
            self.stage, "playing"
        )

    def on_chance(self, outcome: ChanceOutcome) -> None:
        state = self.state
        order = outcome.cards
        assert len(self.deck) == 51, "Pluck plays 51 cards"
        assert set(self.deck) == set(range(54)) - {parse_card(c) for c in ("2D", "2H", "2S")}
        assert sorted(order) == sorted(self.deck)
        seats = seat_order(self.dealer, 3)
        dealt: list[list[int]] = [[], [], []]
        for index, card in enumerate(order):
            dealt[seats[index % 3]].append(card)
        assert all(len(cards) == 17 for cards in dealt)
        self.held = [mask_of(cards) for cards in dealt]
        self.in_hand = True
        self.quotas = pluck_quotas(self.dealer)
        assert sum(self.quotas) == 17
        self.done = []
        if self.hands_seen:
            last = state.history[-1]
            before = pluck_quotas(last.dealer)
            surplus = [last.tricks[s] - before[s] for s in range(3)]
            self.expected_pairs = reference_plucks(surplus, self.dealer)
            assert self.expected_pairs == pluck_order(surplus, self.dealer)
            assert len(self.expected_pairs) == sum(max(s, 0) for s in surplus)
            if self.expected_pairs:
                self.seen["pluck:plucks"] += 1
        self.pending = list(self.expected_pairs)
        self.stage = "pluck" if self.pending else "trump"

    def expected_to_act(self) -> int:
        if self.stage == "pluck":
            return self.pending[0][0]
        if self.stage == "give_back":
            return self.pending[0][1]
        if self.stage == "trump":
            return self.dealer
        return self.next_player()

    def give_back_card(self, pluckee: int, suit: int) -> int:
        """docs/games/pluck.md, Plucks: the pluckee's highest card of that suit (never a joker)."""
        return max(c for c in cards_of(self.held[pluckee]) if c < 52 and c // 13 == suit)

    def reference_legal(self, seat: int) -> set[Action]:
        if self.stage == "pluck":
            return {Action("pluck", c) for c in cards_of(self.held[seat]) if c < 52}
        if self.stage == "give_back":
            assert self.given is not None
            return {Action("give_back", self.give_back_card(seat, self.given // 13))}
        if self.stage == "trump":
            return {Action("call_trump", s) for s in SUIT_LETTERS}
        return self.play_actions(seat)

    def on_action(self, seat: int, action: Action) -> None:
        card = action.value
        if action.kind == "pluck":
            assert isinstance(card, int)
            plucker, pluckee = self.pending[0]
            assert seat == plucker
            assert card not in (BIG_JOKER, LITTLE_JOKER), "a joker may not be given"
            self.held[plucker] &= ~(1 << card)
            self.held[pluckee] |= 1 << card
            self.given = card
            self.stage = "give_back"
        elif action.kind == "give_back":
            assert isinstance(card, int)
            assert self.given is not None
            plucker, pluckee = self.pending.pop(0)
            assert seat == pluckee
            assert card not in (BIG_JOKER, LITTLE_JOKER), "jokers are never given back"
            assert card == self.give_back_card(pluckee, self.given // 13), (
                f"{self.where()}: the pluckee returns {names([card], self.labels)}, not their"
                " highest card of the suit"
            )
            if card == self.given:
                self.seen["pluck:same card back"] += 1
            self.held[pluckee] &= ~(1 << card)
            self.held[plucker] |= 1 << card
            self.done.append((plucker, pluckee, self.given, card))
            self.given = None
            self.stage = "pluck" if self.pending else "trump"
        else:
            assert action.kind == "call_trump"
            assert seat == self.dealer
            self.trump = SUIT_LETTERS.index(str(action.value))
            self.stage = "play"
            holder = next(s for s in range(3) if (self.held[s] >> TWO_OF_CLUBS) & 1)
            self.start_tricks(holder, [0, 1, 2])

    def known_trump(self) -> int | bool | None:
        return self.trump if self.stage == "play" else False

    def suit_of(self, card: int) -> int:
        """Jokers belong to the trump suit."""
        assert self.trump is not None
        return self.trump if card >= 52 else card // 13

    def play_legal(self, seat: int) -> set[int]:
        hand = cards_of(self.held[seat])
        if not self.trick:
            if not self.plays:
                assert TWO_OF_CLUBS in hand, "the holder of the 2C leads"
                return {TWO_OF_CLUBS}
            broken = any(self.suit_of(c) == self.trump for _, c in self.plays)
            others = {c for c in hand if self.suit_of(c) != self.trump}
            return others if others and not broken else set(hand)
        led = self.suit_of(self.trick[0][1])
        follow = {c for c in hand if self.suit_of(c) == led}
        return follow or set(hand)

    def trick_winner(self, trick: tuple[tuple[int, int], ...]) -> int:
        led = self.suit_of(trick[0][1])

        def key(card: int) -> tuple[int, int]:
            if card == BIG_JOKER:
                return (2, 15)
            if card == LITTLE_JOKER:
                return (2, 14)
            suit = card // 13
            if suit == self.trump:
                return (2, card % 13)
            return (1, card % 13) if suit == led else (0, 0)

        return max(trick, key=lambda sc: key(sc[1]))[0]

    def hand_over(self) -> bool:
        return self.stage == "play" and len(self.tricks) == 17

    def check_hand(self, hr: HandResult) -> None:
        quotas = self.quotas
        assert hr.bids == tuple(quotas)
        assert list(hr.extra["quotas"]) == quotas
        assert sum(hr.bids) == 17, f"{self.where()}: quotas {hr.bids} do not sum to 17"
        assert sum(hr.tricks) == 17, f"{self.where()}: tricks {hr.tricks} do not sum to 17"
        assert hr.trump == self.trump
        assert hr.turn_up is None
        assert hr.trick_cards[0][0][1] == TWO_OF_CLUBS, "the 2C opens the hand"
        assert hr.hand_scores == tuple(hr.tricks[s] - quotas[s] for s in range(3))
        plucks = hr.extra["plucks"]
        pairs = [(p["plucker"], p["pluckee"]) for p in plucks]
        assert pairs == self.expected_pairs, (
            f"{self.where()}: plucks {pairs}, the previous hand's surplus gives"
            f" {self.expected_pairs}"
        )
        for entry, (_, _, card, returned) in zip(plucks, self.done, strict=True):
            assert entry["given"] == format_card(card, labels=self.labels)
            assert entry["returned"] == format_card(returned, labels=self.labels)
        for seat in range(3):
            assert sorted(hr.deal[seat]) == sorted(self.played_by(seat))

    def check_extra_view(self, seat: int, obs: Observation) -> None:
        extra = obs.extra
        plucks = extra["plucks"]
        assert len(plucks) == len(self.done)
        for entry, (plucker, pluckee, card, returned) in zip(plucks, self.done, strict=True):
            assert (entry["plucker"], entry["pluckee"]) == (plucker, pluckee)
            if seat in (plucker, pluckee):
                assert entry["given"] == format_card(card, labels=self.labels)
                assert entry["returned"] == format_card(returned, labels=self.labels)
            else:
                assert (entry["given"], entry["returned"]) == (None, None), (
                    f"{self.where()}: seat {seat} sees the cards of a pluck it had no part in"
                )
        current = extra["pluck_in_progress"]
        if self.in_hand and self.stage == "give_back":
            assert self.given is not None
            plucker, pluckee = self.pending[0]
            assert (current["plucker"], current["pluckee"]) == (plucker, pluckee)
            shown = format_card(self.given, labels=self.labels)
            assert current["given"] == (shown if seat in (plucker, pluckee) else None)
        else:
            assert current is None
        if self.in_hand:
            assert list(extra["quotas"]) == self.quotas
            assert [tuple(p) for p in extra["plucks_pending"]] == (
                self.pending if self.stage in ("pluck", "give_back") else []
            )

    def check_history_extra(self, seat: int, view: HandResult, real: HandResult) -> None:
        assert view.extra["quotas"] == real.extra["quotas"]
        for mine, full in zip(view.extra["plucks"], real.extra["plucks"], strict=True):
            if seat in (full["plucker"], full["pluckee"]):
                assert mine == full
            else:
                assert (mine["given"], mine["returned"]) == (None, None), (
                    f"{self.where()}: seat {seat} sees a pluck of hand {real.number} in history"
                )

    def check_game_over(self) -> None:
        assert len(self.state.history) == self.settings.hands
