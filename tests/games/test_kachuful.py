"""Kachuful (docs/games/kachuful.md): rotating trump, simultaneous bids, the zero-bid limit."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.helpers import act, assert_illegal, at_hand, deal, game, legal, make_bids, play_cards
from tricktaker import GameState, load_ruleset
from tricktaker.cards import CLUBS, DIAMONDS, HEARTS, SPADES


def play_hand(state: GameState, choose_bid: Callable[[int, list[int]], int]) -> None:
    """Deal from the seed, bid ``choose_bid(seat, legal bids)``, play first legal cards."""
    number = state.hand_number
    state.apply_chance()
    while state.phase_name == "bidding":
        for seat in state.to_act():
            options = [int(a.value) for a in state.legal_actions(seat)]
            act(state, seat, f"bid {choose_bid(seat, options)}")
    while state.hand_number == number and not state.is_terminal():
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])


def seat_zero_bids_zero(seat: int, options: list[int]) -> int:
    return 0 if seat == 0 else options[-1]


def test_hands_per_player_count() -> None:
    """docs/games/kachuful.md, Hands and schedule: "The hands run 1, 2, 3, … up to a largest hand
    that depends on the number of players" (3: 17, 4: 12, 5: 10, 6: 8, 7: 7, 8: 6, 9: 5, 10: 5)."""
    rules = load_ruleset("kachuful")
    table = {3: 17, 4: 12, 5: 10, 6: 8, 7: 7, 8: 6, 9: 5, 10: 5}
    for players, top in table.items():
        assert [h.hand_size for h in rules.hands_for(players)] == list(range(1, top + 1))


@pytest.mark.parametrize(
    ("number", "trump"),
    [(1, SPADES), (2, DIAMONDS), (3, CLUBS), (4, HEARTS), (5, SPADES), (6, DIAMONDS)],
)
def test_trump_rotates_and_is_never_turned_up(number: int, trump: int) -> None:
    """docs/games/kachuful.md, Deal and trump: "No card is turned up. The trump is set by the number
    of the hand" (spades, diamonds, clubs, hearts, spades, …)."""
    state = at_hand("kachuful", 4, number)
    state.apply_chance()
    assert state.trump == trump
    assert state.turn_up is None
    view = state.observe(0)
    assert view.trump_known
    assert view.trump == trump
    assert view.turn_up is None


def test_rotating_trump_wins_a_hand_built_trick() -> None:
    """docs/games/kachuful.md, Deal and trump: "The trump is set by the number of the hand" - hand 2
    is at diamonds, so a void player's diamond wins."""
    state = at_hand("kachuful", 3, 2, first_dealer=2)
    assert state.dealer == 0
    deal(state, ["3C 4H", "AC 5H", "2D 6H"])
    assert state.trump == DIAMONDS
    make_bids(state, [0, 1, 1])
    play_cards(state, ["AC", "2D", "3C"])
    assert state.trick_winners == [2]


def test_bidding_is_simultaneous() -> None:
    """docs/games/kachuful.md, Bidding: "Everyone bids at the same time: each player commits a bid
    without seeing anyone else's, and the bids are shown once all are in"."""
    state = at_hand("kachuful", 4, 3)
    state.apply_chance()
    assert state.phase_name == "bidding"
    assert state.to_act() == (0, 1, 2, 3)
    act(state, 2, "bid 1")
    assert state.to_act() == (0, 1, 3)
    assert state.observe(2).bids[2] == 1
    for seat in (0, 1, 3):
        assert state.observe(seat).bids == (None, None, None, None)
        assert state.observe(seat).bid_made[2]
    assert_illegal(state, 2, "bid 2", "turn order")
    act(state, 0, "bid 3")
    act(state, 3, "bid 0")
    assert state.observe(1).bids == (None, None, None, None)
    # With simultaneous bids there is no last bidder, so no hook: totals of 3 are fine.
    assert legal(state, 1) == ["bid 0", "bid 1", "bid 2", "bid 3"]
    act(state, 1, "bid 0")
    assert state.phase_name == "playing"
    assert state.observe(1).bids == (3, 0, 1, 0)


def test_six_players_no_zero_bid_after_five_consecutive() -> None:
    """docs/games/kachuful.md, Bidding: "Zero-bid limit (with 6 or more players only): a player who
    has bid 0 in five hands in a row may not bid 0 in the next hand"."""
    state = game("kachuful", 6)
    for _ in range(5):
        play_hand(state, seat_zero_bids_zero)
    assert [h.bids[0] for h in state.history] == [0] * 5
    state.apply_chance()
    assert state.hand_number == 6
    assert "bid 0" not in legal(state, 0)
    assert legal(state, 0) == [f"bid {n}" for n in range(1, 7)]
    error = assert_illegal(state, 0, "bid 0", "zero-bid limit")
    assert "0" in error.reason
    # The others, who bid above zero, may still bid 0.
    assert "bid 0" in legal(state, 1)
    act(state, 0, "bid 1")


def test_six_players_zero_allowed_after_streak_broken() -> None:
    """docs/games/kachuful.md, Bidding: "Zero-bid limit … Any bid above 0 starts the count
    again"."""

    state = game("kachuful", 6)

    def choose(seat: int, options: list[int]) -> int:
        if seat == 0:
            return 1 if state.hand_number == 2 else 0
        return options[-1]

    for _ in range(5):
        play_hand(state, choose)
    assert [h.bids[0] for h in state.history] == [0, 1, 0, 0, 0]
    state.apply_chance()
    assert legal(state, 0) == [f"bid {n}" for n in range(7)]
    act(state, 0, "bid 0")


def test_five_players_may_bid_zero_in_a_sixth_hand() -> None:
    """docs/games/kachuful.md, Bidding: "Zero-bid limit … With 3 to 5 players there is no limit"."""
    state = game("kachuful", 5)
    for _ in range(5):
        play_hand(state, seat_zero_bids_zero)
    assert [h.bids[0] for h in state.history] == [0] * 5
    state.apply_chance()
    assert "bid 0" in legal(state, 0)
    act(state, 0, "bid 0")
    assert state.bids[0] == 0


@pytest.mark.parametrize(
    ("bids", "hand_scores"),
    [
        ([0, 1, 1], (10, 11, 11)),
        ([1, 0, 2], (0, 0, 0)),
        ([0, 2, 1], (10, 0, 11)),
    ],
)
def test_scoring_exact_ten_plus_tricks(bids: list[int], hand_scores: tuple[int, ...]) -> None:
    """docs/games/kachuful.md, Scoring: "Exactly the bid: 10 + tricks (so a made bid of 0 scores
    10). Anything else: 0"."""
    state = at_hand("kachuful", 3, 2, first_dealer=2)
    deal(state, ["3C 4H", "AC 7H", "2D 6H"])
    make_bids(state, bids)
    # Trick 1: seat 2 trumps the club lead (diamonds are trump in hand 2).
    play_cards(state, ["AC", "2D", "3C"])
    # Trick 2: seat 2 leads 6H, seat 0 plays 4H, seat 1's 7H wins.
    play_cards(state, ["6H", "4H", "7H"])
    result = state.history[-1]
    assert result.tricks == (0, 1, 1)
    assert result.hand_scores == hand_scores
