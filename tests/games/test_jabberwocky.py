"""Jabberwocky (docs/games/jabberwocky.md): hook on the dealer, trump leads, exact scores 1."""

from __future__ import annotations

import pytest

from tests.helpers import (
    act,
    assert_illegal,
    at_hand,
    deal,
    legal,
    make_bids,
    play_cards,
    play_hand,
)
from tricktaker import GameState, load_ruleset
from tricktaker.cards import HEARTS, parse_card


def first_hand(players: int = 3) -> GameState:
    """Hand 1 (3 cards), dealt by seat 0, so seat 1 bids first and leads."""
    return at_hand("jabberwocky", players, 1, first_dealer=0)


def test_schedule_three_up_to_nine_and_back() -> None:
    """docs/games/jabberwocky.md, Hands and schedule: "The same 13 hands for every table size: 3, 4,
    5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3"."""
    sizes = [h.hand_size for h in load_ruleset("jabberwocky").hands_for(4)]
    assert sizes == [3, 4, 5, 6, 7, 8, 9, 8, 7, 6, 5, 4, 3]


def test_eldest_bids_first_and_dealer_last() -> None:
    """docs/games/jabberwocky.md, Bidding: "The eldest bids first, then each player in turn
    clockwise, once each; the dealer bids last. A bid is any number of tricks from 0 up to the hand
    size"."""
    state = first_hand()
    deal(state, ["2C 3C 4C", "5C 6C 7C", "8C 9C 10C"], turn_up="2H")
    order = []
    for value in (1, 1):
        seat = state.to_act()[0]
        order.append(seat)
        act(state, seat, f"bid {value}")
    order.append(state.to_act()[0])
    assert order == [1, 2, 0]


def test_hook_forbids_dealer_making_total_equal_tricks() -> None:
    """docs/games/jabberwocky.md, Bidding: "Hook rule: the dealer may not make a bid that brings the
    total of all bids to the number of tricks in the hand"."""
    state = first_hand()
    deal(state, ["2C 3C 4C", "5C 6C 7C", "8C 9C 10C"], turn_up="2H")
    act(state, 1, "bid 1")
    act(state, 2, "bid 1")
    assert legal(state, 0) == ["bid 0", "bid 2", "bid 3"]
    error = assert_illegal(state, 0, "bid 1", "hook rule")
    assert "3" in error.reason
    act(state, 0, "bid 2")
    assert state.phase_name == "playing"


def test_hook_applies_only_to_the_dealer() -> None:
    """docs/games/jabberwocky.md, Bidding: "Hook rule: … Only the dealer is restricted"."""
    state = first_hand()
    deal(state, ["2C 3C 4C", "5C 6C 7C", "8C 9C 10C"], turn_up="2H")
    act(state, 1, "bid 3")
    assert legal(state, 2) == ["bid 0", "bid 1", "bid 2", "bid 3"]
    act(state, 2, "bid 0")
    assert "bid 0" not in legal(state, 0)


def test_trump_may_not_be_led_before_trumps_are_broken() -> None:
    """docs/games/jabberwocky.md, Play: "Trumps are not led until broken: a trump may not be led
    until a trump has been played to an earlier trick of the hand"."""
    state = first_hand()
    deal(state, ["2S 3S 4S", "AH 2C 3D", "5S 6S 7S"], turn_up="2H")
    assert state.trump == HEARTS
    make_bids(state, [0, 1, 0])
    assert legal(state, 1) == ["play 2C", "play 3D"]
    error = assert_illegal(state, 1, "play AH", "trump lead")
    assert "trump" in error.reason


def test_leader_holding_only_trumps_may_lead_one() -> None:
    """docs/games/jabberwocky.md, Play: "A player who holds nothing but trumps may lead one
    anyway"."""
    state = first_hand()
    deal(state, ["2S 3S 4S", "AH KH QH", "5S 6S 7S"], turn_up="2H")
    make_bids(state, [0, 3, 1])
    assert legal(state, 1) == ["play QH", "play KH", "play AH"]
    play_cards(state, ["AH", "5S", "2S"])
    assert state.trick_winners == [1]


def test_trump_played_when_void_breaks_trumps() -> None:
    """docs/games/jabberwocky.md, Play: "a trump has been played to an earlier trick of the hand
    (for example by a player who could not follow suit)" allows trump leads from the next trick."""
    state = first_hand()
    deal(state, ["4C 5S 6S", "2C 7S 8S", "3H 5H 9S"], turn_up="2H")
    make_bids(state, [0, 1, 1])
    # Seat 1 leads a club; seat 2 is void and trumps with the three of hearts.
    play_cards(state, ["2C", "3H", "4C"])
    assert state.trick_winners == [2]
    assert state.trump_broken
    assert legal(state, 2) == ["play 5H", "play 9S"]
    play_cards(state, ["5H"])
    assert state.trick == [(2, parse_card("5H"))]


def test_trump_lead_stays_barred_after_tricks_without_trumps() -> None:
    """docs/games/jabberwocky.md, Play: "a trump may not be led until a trump has been played to an
    earlier trick of the hand" - tricks without trumps leave the lead restricted."""
    state = first_hand()
    deal(state, ["4C 5H 6S", "2C 7S 8S", "3C 3H 9S"], turn_up="2H")
    make_bids(state, [0, 1, 1])
    play_cards(state, ["2C", "3C", "4C"])
    assert state.trick_winners == [0]
    assert not state.trump_broken
    assert legal(state, 0) == ["play 6S"]
    assert_illegal(state, 0, "play 5H", "trump lead")
    # Seat 0 leads a spade; seat 1 follows; seat 2 follows with 9S and wins.
    play_cards(state, ["6S", "7S", "9S"])
    assert state.trick_winners == [0, 2]
    assert not state.trump_broken
    # Seat 2 now holds only a trump, so it may lead it.
    assert legal(state, 2) == ["play 3H"]


def test_follow_suit_is_enforced() -> None:
    """docs/games/jabberwocky.md, Play: "A player who holds a card of the suit led must play one; a
    player who cannot may play any card"."""
    state = first_hand()
    deal(state, ["4C 5S 6S", "2C 7S 8S", "3C 3H 9S"], turn_up="2H")
    make_bids(state, [0, 1, 1])
    play_cards(state, ["7S"])
    assert legal(state, 2) == ["play 9S"]
    assert_illegal(state, 2, "play 3C", "follow suit")
    assert_illegal(state, 2, "play 3H", "follow suit")


@pytest.mark.parametrize(
    ("bids", "hand_scores"),
    [
        ([1, 3, 0], (0, 1, 1)),
        ([0, 2, 0], (1, 0, 1)),
        ([2, 0, 0], (0, 0, 1)),
    ],
)
def test_scoring_exact_one_point_else_zero(bids: list[int], hand_scores: tuple[int, ...]) -> None:
    """docs/games/jabberwocky.md, Scoring: "Exactly the bid: 1 point. Anything else: 0"."""
    state = first_hand()
    hands = ["5S 6S 7S", "AS KS QS", "2S 3S 4S"]
    play = ["AS", "2S", "5S", "KS", "3S", "6S", "QS", "4S", "7S"]
    result = play_hand(state, hands, "2H", bids, play)
    assert result.tricks == (0, 3, 0)
    assert result.hand_scores == hand_scores
    assert state.scores == list(hand_scores)
