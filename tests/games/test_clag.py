"""Clag (docs/games/clag.md): the twenty-hand schedule, the special hands 8-14 and their scoring."""

from __future__ import annotations

import pytest

from tests.helpers import act, assert_illegal, at_hand, deal, legal, make_bids, play_cards
from tricktaker import GameState, load_ruleset
from tricktaker.cards import CLUBS, HEARTS, card_set, format_card, parse_card


def clag_hand(number: int) -> GameState:
    """Scheduled hand ``number`` of a 3-player game, dealt by seat 0 (seat 1 is eldest)."""
    state = at_hand("clag", 3, number, first_dealer=(1 - number) % 3)
    assert state.dealer == 0
    assert state.hand_number == number
    return state


def play_out(state: GameState) -> None:
    """Finish the hand in progress, each seat taking its first legal action."""
    number = state.hand_number
    while state.hand_number == number and not state.is_terminal():
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


# Seat 1 leads tiny spades; seats 2 and 0 hold no spades. Hearts would win every trick if
# they were trumps.
SPADES_VS_VOIDS = ["AD KD QD JD 10D 9D 8D", "2S 3S 4S 5S 6S 7S 8S", "AH KH QH JH 10H 9H 8H"]
SPADES_VS_VOIDS_PLAY = [
    c
    for i in range(7)
    for c in (
        SPADES_VS_VOIDS[1].split()[i],
        SPADES_VS_VOIDS[2].split()[i],
        SPADES_VS_VOIDS[0].split()[i],
    )
]

# Seat 1 wins two spade tricks, then seat 2 wins all five diamond tricks (seat 0 discards
# hearts). Tricks: seat 0: 0, seat 1: 2, seat 2: 5.
SPLIT = ["4S 5S 2H 3H 4H 5H 6H", "AS KS 2D 3D 4D 5D 6D", "2S 3S 7D 8D 9D 10D JD"]
SPLIT_PLAY = [
    "AS", "2S", "4S",
    "KS", "3S", "5S",
    "2D", "7D", "2H",
    "8D", "3H", "3D",
    "9D", "4H", "4D",
    "10D", "5H", "5D",
    "JD", "6H", "6D",
]  # fmt: skip


def test_schedule_twenty_hands() -> None:
    """docs/games/clag.md, Hands and schedule: hands 1-7 of 1 to 7 cards, hands 8-14 of 7 cards,
    hands 15-20 of 6 down to 1: "This holds for 3, 4, 5, 6 and 7 players alike: 20 hands"."""
    for players in (3, 7):
        sizes = [h.hand_size for h in load_ruleset("clag").hands_for(players)]
        assert sizes == [*range(1, 8), *[7] * 7, *range(6, 0, -1)]


@pytest.mark.parametrize(
    ("number", "name"),
    [
        (8, "no_trump"),
        (9, "bid_before_trump"),
        (10, "blind_bid"),
        (11, "blind_pile"),
        (12, "misere"),
        (13, "misere_no_trump"),
        (14, None),
        (7, None),
    ],
)
def test_special_hands_are_named(number: int, name: str | None) -> None:
    """docs/games/clag.md, Hands and schedule: "hands 8 to 13 are the special hands …, hand 14 is a
    normal 7-card hand"; Special hands: "Hand 8, no trump" … "Hand 13, misère at no trump"."""
    state = clag_hand(number)
    state.apply_chance()
    assert state.observe(1).special == name


def test_hand_8_no_trump() -> None:
    """docs/games/clag.md, Special hands: "Hand 8, no trump. No card is turned up; the hand is
    played without a trump" - so a void hearts holder cannot trump."""
    state = clag_hand(8)
    deal(state, SPADES_VS_VOIDS, turn_up="7H")
    assert state.trump is None
    assert state.turn_up is None
    view = state.observe(2)
    assert view.trump_known
    assert view.trump is None
    assert view.turn_up is None
    make_bids(state, [0, 7, 0])
    play_cards(state, SPADES_VS_VOIDS_PLAY)
    result = state.history[-1]
    assert result.trump is None
    assert result.tricks == (0, 7, 0)
    assert result.special == {"name": "no_trump"}
    assert result.hand_scores == (10, 24, 10)


def test_hand_9_bids_before_trump_is_exposed() -> None:
    """docs/games/clag.md, Special hands: "Hand 9, bid before trump. Players see their cards and
    bid, but the turn-up is exposed only once all bids are in"."""
    state = clag_hand(9)
    deal(state, SPADES_VS_VOIDS, turn_up="7H")
    assert state.phase_name == "bidding"
    for value in (0, 7):
        for seat in range(3):
            view = state.observe(seat)
            assert not view.trump_known
            assert view.trump is None
            assert view.turn_up is None
            assert view.hand is not None
        act(state, state.to_act()[0], f"bid {value}")
    act(state, 0, "bid 0")
    assert state.phase_name == "playing"
    view = state.observe(0)
    assert view.trump_known
    assert view.turn_up == parse_card("7H")
    assert view.trump == HEARTS
    # Hearts are trumps now: seat 2 (void in spades) trumps the first trick.
    play_cards(state, ["2S", "8H", "8D"])
    assert state.trick_winners == [2]
    play_out(state)
    assert state.history[-1].special == {"name": "bid_before_trump"}
    assert state.history[-1].turn_up == parse_card("7H")


def test_hand_10_bids_before_players_see_their_cards() -> None:
    """docs/games/clag.md, Special hands: "Hand 10, blind bid. The trump is turned up as usual, but
    everyone bids before looking at their own cards; the cards are seen once all bids are in"."""
    state = clag_hand(10)
    deal(state, SPADES_VS_VOIDS, turn_up="7C")
    assert state.phase_name == "bidding"
    for value in (1, 2):
        for seat in range(3):
            view = state.observe(seat)
            assert view.hand is None
            assert view.my_cards == []
            assert not state.hand_visible(seat)
        act(state, state.to_act()[0], f"bid {value}")
    for seat in range(3):
        assert state.observe(seat).hand is None
    act(state, 0, "bid 3")
    assert state.phase_name == "playing"
    for seat in range(3):
        assert state.observe(seat).hand == card_set(SPADES_VS_VOIDS[seat].split())
    assert state.trump == CLUBS
    play_out(state)
    assert state.history[-1].special == {"name": "blind_bid"}


PILES = ["8H 2C 9S 10S JS QS 8D", "KS 2H 3H 4H 5H 6H 7H", "2D AS 3S 4S 5S 6S 7S"]


def pile_trick(state: GameState, number: int) -> tuple[tuple[int, str], ...]:
    """Each seat in turn plays the next card of its pile: the (seat, card) pairs of the
    hand's trick ``number`` (0: the first)."""
    for _ in range(state.players):
        act(state, state.to_act()[0], "play_pile")
    return tuple((seat, format_card(card)) for seat, card in state.trick_cards[number])


def test_hand_11_blind_pile_play_pile_only_in_deal_order() -> None:
    """docs/games/clag.md, Special hands: "Hand 11, blind pile. … on their turn a player plays the
    next card of their pile (the `play_pile` action), the first card dealt to them first. There is
    no duty to follow suit, since there is no choice. Tricks are won as usual"."""
    state = clag_hand(11)
    deal(state, PILES, turn_up="3C")
    assert state.trump == CLUBS
    for seat in range(3):
        assert state.observe(seat).hand is None
    make_bids(state, [1, 2, 3])
    assert state.phase_name == "playing"
    assert legal(state, 1) == ["play_pile"]
    assert_illegal(state, 1, "play KS", "blind pile")
    # Seat 1's KS leads; seat 2 plays its first card 2D although it holds spades.
    assert pile_trick(state, 0) == ((1, "KS"), (2, "2D"), (0, "8H"))
    assert state.trick_winners == [1]
    # Seat 1 leads 2H, seat 2 plays AS, seat 0 plays 2C: the trump wins as usual.
    assert pile_trick(state, 1) == ((1, "2H"), (2, "AS"), (0, "2C"))
    assert state.trick_winners == [1, 0]
    for seat in range(3):
        assert state.observe(seat).hand is None
    while state.hand_number == 11:
        seat = state.to_act()[0]
        assert legal(state, seat) == ["play_pile"]
        act(state, seat, "play_pile")
    result = state.history[-1]
    assert result.special == {"name": "blind_pile"}
    assert result.deal == tuple(cards(pile) for pile in PILES)
    for seat in range(3):
        played = tuple(card for trick in result.trick_cards for s, card in trick if s == seat)
        assert played == cards(PILES[seat])


def test_hand_11_blind_pile_hands_never_visible_while_bidding() -> None:
    """docs/games/clag.md, Special hands: "Hand 11, blind pile. Each player's cards stay a face-down
    pile. Everyone bids without seeing them"."""
    state = clag_hand(11)
    deal(state, PILES, turn_up="3C")
    act(state, 1, "bid 0")
    act(state, 2, "bid 7")
    for seat in range(3):
        assert state.observe(seat).hand is None
        assert not state.hand_visible(seat)
    act(state, 0, "bid 1")
    for seat in range(3):
        assert state.observe(seat).hand is None
        assert state.observe(seat).pile


@pytest.mark.parametrize(("number", "trump"), [(12, CLUBS), (13, None)])
def test_misere_only_bid_zero(number: int, trump: int | None) -> None:
    """docs/games/clag.md, Special hands: "Hand 12, misère. The trump is turned up; every player
    bids 0 (no other bid is allowed) and tries to take no tricks" and "Hand 13, misère at no
    trump"."""
    state = clag_hand(number)
    deal(state, SPLIT, turn_up="2C")
    assert state.trump == trump
    assert state.observe(1).misere
    for seat in (1, 2, 0):
        assert legal(state, seat) == ["bid 0"]
        error = assert_illegal(state, seat, "bid 1", "misere")
        assert "0" in error.reason
        act(state, seat, "bid 0")
    assert state.phase_name == "playing"


@pytest.mark.parametrize(
    ("number", "turn_up", "trump", "name"),
    [(12, "2C", CLUBS, "misere"), (13, "7H", None, "misere_no_trump")],
)
def test_misere_scoring(number: int, turn_up: str, trump: int | None, name: str) -> None:
    """docs/games/clag.md, Scoring: "Misère hands (12 and 13): no tricks at all: 10; otherwise −2
    for each trick taken"."""
    state = clag_hand(number)
    deal(state, SPLIT, turn_up=turn_up)
    make_bids(state, [0, 0, 0])
    play_cards(state, SPLIT_PLAY)
    result = state.history[-1]
    assert result.trump == trump
    assert result.tricks == (0, 2, 5)
    assert result.special == {"name": name}
    assert result.hand_scores == (10, -4, -10)


@pytest.mark.parametrize(
    ("bids", "hand_scores"),
    [
        ([0, 2, 5], (10, 14, 20)),
        ([1, 2, 4], (0, 14, 0)),
        ([0, 3, 6], (10, 0, 0)),
    ],
)
def test_hand_14_normal_scoring(bids: list[int], hand_scores: tuple[int, ...]) -> None:
    """docs/games/clag.md, Hands and schedule: "hand 14 is a normal 7-card hand"; Scoring: "Normal
    hands (all but 12 and 13): exactly the bid: 10 + 2 × tricks; anything else: 0"."""
    state = clag_hand(14)
    deal(state, SPLIT, turn_up="2C")
    assert state.trump == CLUBS
    make_bids(state, bids)
    play_cards(state, SPLIT_PLAY)
    result = state.history[-1]
    assert result.tricks == (0, 2, 5)
    assert result.special is None
    assert result.hand_scores == hand_scores


def test_normal_hand_uses_turn_up_trump() -> None:
    """docs/games/clag.md, Deal and trump: "The next undealt card is turned face up and its suit is
    trump for the hand" (hand 14 is normal), so a void hearts holder trumps."""
    state = clag_hand(14)
    deal(state, SPADES_VS_VOIDS, turn_up="7H")
    assert state.trump == HEARTS
    make_bids(state, [0, 0, 7])
    play_cards(state, ["2S", "8H", "8D"])
    assert state.trick_winners == [2]
