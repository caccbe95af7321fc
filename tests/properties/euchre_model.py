"""docs/games/euchre.md as the property tests check it: the auction, the kitty, the
contract, the discards and the scoring."""

from __future__ import annotations

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
from tricktaker.cards import SUIT_LETTERS, SUIT_NAMES, cards_of, format_card, parse_card

# ------------------------------------------------------------------- Euchre

EUCHRE_BIDS: Final = (*(f"{t}{s}" for t in (3, 4, 5) for s in "SCHD"), "NT")
"""docs/games/euchre.md, Auction: by tricks, then diamonds > hearts > clubs > spades;
no trump on top."""
SAME_COLOUR: Final = {0: 3, 3: 0, 1: 2, 2: 1}
JACK: Final = 9


class EuchreGame(CheckedGame):
    """docs/games/euchre.md: the auction, the kitty and three discards, bowers, partnerships."""

    def init_game(self) -> None:
        self.left_high = not self.options.get("usual_bower_order", False)
        self.target = int(self.settings.target)

    def new_hand(self) -> None:
        self.stage = "deal"
        self.auction: list[tuple[int, str]] = []
        self.high: tuple[int, str] | None = None
        self.passed = [False] * 4
        self.turn = -1
        self.declarer: int | None = None
        self.kitty: list[int] = []
        self.discards: list[int] = []
        self.dealt: list[list[int]] = [[] for _ in range(4)]
        self.trump: int | None = None
        self.timid = False

    def action_universe(self) -> list[Action]:
        out = [Action("auction", b) for b in (*EUCHRE_BIDS, "6H", "2S", "5NT", "nt")]
        out += [Action("pass"), Action("discard", 0), Action("play", 0), Action("discard", 99)]
        out += [Action(kind, c) for kind in ("discard", "play") for c in self.deck]
        out += [Action("pluck", self.deck[0]), Action("bid", 3), Action("stay")]
        return out

    def expected_chance(self) -> str:
        assert self.stage == "deal", f"{self.where()}: unexpected chance step"
        return "deal"

    def expected_phase(self) -> str:
        return "playing" if self.stage == "play" else self.stage

    def on_chance(self, outcome: ChanceOutcome) -> None:
        state = self.state
        order = outcome.cards
        nine_spades = parse_card("9S")
        assert set(self.deck) == {s * 13 + r for s in range(4) for r in range(7, 13)} - {
            nine_spades
        }
        assert sorted(order) == sorted(self.deck)
        # docs/games/euchre.md, Deal and trump: kitty 1; 3 2 3 2; kitty 1; 2 3 2 3; kitty 1.
        seats = seat_order(self.dealer, 4)
        kitty: list[int] = []
        dealt: list[list[int]] = [[] for _ in range(4)]
        pos = 0
        packets: tuple[tuple[int, ...], ...] = ((), (3, 2, 3, 2), (), (2, 3, 2, 3), ())
        for packet in packets:
            if not packet:  # one card to the kitty
                kitty.append(order[pos])
                pos += 1
                continue
            for seat, count in zip(seats, packet, strict=True):
                dealt[seat] += order[pos : pos + count]
                pos += count
        assert pos == 23
        assert state.kitty == kitty, f"{self.where()}: the kitty is not the dealt kitty"
        assert state.rest == ()
        self.kitty = kitty
        self.dealt = dealt
        self.held = [mask_of(cards) for cards in dealt]
        self.in_hand = True
        self.stage = "auction"
        self.turn = (self.dealer + 1) % 4
        # The bots nearly always bid: in about one hand in ten everyone passes instead.
        self.timid = self.rng.random() < 0.1

    def steer(self, seat: int) -> Action | None:
        return Action("pass") if self.stage == "auction" and self.timid else None

    def expected_to_act(self) -> int:
        if self.stage == "auction":
            return self.turn
        if self.stage == "discard":
            assert self.declarer is not None
            return self.declarer
        return self.next_player()

    def reference_legal(self, seat: int) -> set[Action]:
        if self.stage == "auction":
            above = EUCHRE_BIDS.index(self.high[1]) + 1 if self.high is not None else 0
            return {Action("pass")} | {Action("auction", b) for b in EUCHRE_BIDS[above:]}
        if self.stage == "discard":
            return {Action("discard", c) for c in cards_of(self.held[seat])}
        return self.play_actions(seat)

    def on_action(self, seat: int, action: Action) -> None:
        if action.kind == "discard":
            card = action.value
            assert isinstance(card, int)
            assert seat == self.declarer
            self.held[seat] &= ~(1 << card)
            self.discards.append(card)
            if len(self.discards) == 3:
                self.stage = "play"
                self.start_tricks(seat, [0, 1, 2, 3])  # the declarer leads
            return
        assert not self.passed[seat], f"{self.where()}: seat {seat} passed and acts again"
        assert seat == self.turn
        if action.kind == "pass":
            self.passed[seat] = True
            self.auction.append((seat, "pass"))
        else:
            bid = str(action.value)
            if self.high is not None:
                assert EUCHRE_BIDS.index(bid) > EUCHRE_BIDS.index(self.high[1])
            self.high = (seat, bid)
            self.auction.append((seat, bid))
            if any(s == seat and b != "pass" for s, b in self.auction[:-1]):
                self.seen["euchre:bid again"] += 1
        if all(self.passed):
            self.stage = "thrown_in"
            self.seen["euchre:thrown in"] += 1
            return
        if self.high is not None and all(self.passed[s] for s in range(4) if s != self.high[0]):
            declarer, bid = self.high
            self.declarer = declarer
            self.trump = None if bid == "NT" else SUIT_LETTERS.index(bid[1])
            self.held[declarer] |= mask_of(self.kitty)
            self.stage = "discard"
            self.seen[f"euchre:contract {'NT' if bid == 'NT' else bid[0]}"] += 1
            return
        nxt = (seat + 1) % 4
        while self.passed[nxt]:
            nxt = (nxt + 1) % 4
        self.turn = nxt

    # Trumps: the left bower (jack of the same colour) is a trump; by default (the
    # seed's order) it is the highest, with usual_bower_order the right bower is.

    def known_trump(self) -> int | bool | None:
        return self.trump if self.declarer is not None else False

    def suit_of(self, card: int) -> int:
        if self.trump is not None and card == SAME_COLOUR[self.trump] * 13 + JACK:
            return self.trump
        return card // 13

    def play_legal(self, seat: int) -> set[int]:
        hand = cards_of(self.held[seat])
        if not self.trick:
            return set(hand)
        led = self.suit_of(self.trick[0][1])
        return {c for c in hand if self.suit_of(c) == led} or set(hand)

    def trick_winner(self, trick: tuple[tuple[int, int], ...]) -> int:
        led = self.suit_of(trick[0][1])
        trump = self.trump

        def key(card: int) -> tuple[int, int]:
            suit = self.suit_of(card)
            if trump is not None and suit == trump:
                if card == trump * 13 + JACK:  # right bower
                    return (2, 20 if not self.left_high else 19)
                if card // 13 != trump:  # left bower
                    return (2, 20 if self.left_high else 19)
                return (2, card % 13)
            return (1, card % 13) if suit == led else (0, 0)

        return max(trick, key=lambda sc: key(sc[1]))[0]

    def hand_over(self) -> bool:
        return self.stage == "thrown_in" or (self.stage == "play" and len(self.tricks) == 5)

    def extra_piles(self) -> dict[str, list[int]]:
        ext: Any = self.state.ext
        piles = {"discards": list(ext.discards)}
        if ext.declarer is None:
            piles["kitty"] = list(self.state.kitty)
        else:
            assert sorted(self.state.kitty) == sorted(self.kitty)
        return piles

    def check_hand(self, hr: HandResult) -> None:
        extra = hr.extra
        assert [tuple(call) for call in extra["auction"]] == self.auction
        # The auction: bids strictly increase, a player who passed never calls again.
        out: set[int] = set()
        last_rank = -1
        for seat, call in self.auction:
            assert seat not in out, f"{self.where()}: seat {seat} called after passing"
            if call == "pass":
                out.add(seat)
            else:
                assert EUCHRE_BIDS.index(call) > last_rank, "bids must increase"
                last_rank = EUCHRE_BIDS.index(call)
        if self.stage == "thrown_in":
            assert out == {0, 1, 2, 3}
            assert last_rank == -1
            assert extra["thrown_in"] is True
            assert extra["contract"] is None
            assert hr.tricks == (0, 0, 0, 0)
            assert hr.trick_cards == ()
            assert hr.hand_scores == (0, 0, 0, 0)
            assert sum(hr.tricks) == 0
            return
        bids = [(s, call) for s, call in self.auction if call != "pass"]
        bidder, contract = bids[-1]
        assert self.high == (bidder, contract)
        assert self.declarer == bidder
        assert len([s for s, call in self.auction if call == "pass"]) >= 3
        tricks, trump = (5, None) if contract == "NT" else (int(contract[0]), contract[1])
        assert extra["thrown_in"] is False
        assert extra["contract"] == {
            "bidder": bidder,
            "tricks": tricks,
            "trump": "no_trump" if trump is None else SUIT_NAMES[SUIT_LETTERS.index(trump)],
        }
        assert hr.trump == (None if trump is None else SUIT_LETTERS.index(trump))
        assert len(self.discards) == 3, f"{self.where()}: the declarer discarded {self.discards}"
        assert extra["discards"] == [format_card(c) for c in self.discards]
        assert extra["kitty"] == [format_card(c) for c in self.kitty]
        assert set(self.discards) <= set(self.dealt[bidder]) | set(self.kitty)
        assert sum(hr.tricks) == 5, f"{self.where()}: tricks {hr.tricks} do not sum to 5"
        assert hr.trick_cards[0][0][0] == bidder, "the declarer leads the first trick"
        # Scoring: 1 for 3 or 4 tricks, 2 for all five; short: the defenders score 2.
        team = (bidder % 2, bidder % 2 + 2)
        taken = hr.tricks[team[0]] + hr.tricks[team[1]]
        expected = [0, 0, 0, 0]
        if taken >= tricks:
            for s in team:
                expected[s] = 2 if taken == 5 else 1
        else:
            for s in range(4):
                if s not in team:
                    expected[s] = 2
            self.seen["euchre:set"] += 1
        assert list(hr.hand_scores) == expected, (
            f"{self.where()}: contract {contract} by {bidder}, tricks {hr.tricks}:"
            f" scores {hr.hand_scores}, the rules say {expected}"
        )
        for seat in range(4):
            held = set(self.dealt[seat]) | (set(self.kitty) if seat == bidder else set())
            assert set(hr.deal[seat]) == held - set(self.discards)

    def check_step(self) -> None:
        scores = self.state.scores
        assert (scores[0], scores[1]) == (scores[2], scores[3]), "partners share their score"

    def check_extra_view(self, seat: int, obs: Observation) -> None:
        extra = obs.extra
        if self.declarer is not None and seat == self.declarer:
            assert extra["kitty"] == [format_card(c) for c in self.kitty]
            assert extra["discards"] == [format_card(c) for c in self.discards]
        else:
            assert extra["kitty"] is None, f"{self.where()}: seat {seat} sees the kitty"
            assert extra["discards"] is None, f"{self.where()}: seat {seat} sees the discards"
        assert [tuple(call) for call in extra["auction"]] == self.auction
        assert extra["passed"] == [s for s in range(4) if self.passed[s]]
        assert extra["team_scores"] == [self.state.scores[0], self.state.scores[1]]

    def check_history_extra(self, seat: int, view: HandResult, real: HandResult) -> None:
        contract = real.extra["contract"]
        if contract is not None and contract["bidder"] == seat:
            assert view.extra == real.extra
        else:
            assert (view.extra["kitty"], view.extra["discards"]) == (None, None), (
                f"{self.where()}: seat {seat} sees the kitty of hand {real.number} in history"
            )
            assert view.extra["auction"] == real.extra["auction"]
            assert view.extra["contract"] == contract

    def check_game_over(self) -> None:
        history = self.state.history
        team_scores = [self.state.scores[0], self.state.scores[1]]
        assert max(team_scores) >= self.target, "the game ended before a team reached the target"
        for hr in history[:-1]:
            assert max(hr.total_scores) < self.target, "the game went on after the target"
