"""7 Truf (docs/games/seven_truf.md): 32 cards, no-trump 8-card hands, hook, its scoring."""

from __future__ import annotations

import pytest

from tests.helpers import act, assert_illegal, at_hand, deal, game, legal, make_bids, play_cards
from tricktaker import GameState, RulesetError, load_ruleset
from tricktaker.cards import HEARTS, RANK_LABELS, card_rank


def third_hand() -> GameState:
    """Hand 3 (3 cards), dealt by seat 0 (seat 1 is eldest)."""
    return at_hand("seven_truf", 4, 3, first_dealer=2, dealer=0, hand_size=3)


# Seat 1 wins two spade tricks; seat 2 wins the club trick. Tricks: 0, 2, 1, 0.
HANDS = ["JS QS 9C", "AS KS 7C", "7S 8S AC", "9S 10S 8C"]
PLAY = ["AS", "7S", "9S", "JS", "KS", "8S", "10S", "QS", "7C", "AC", "8C", "9C"]


def test_thirty_two_card_deck() -> None:
    """docs/games/seven_truf.md, Players and deck: "32 cards: A K Q J 10 9 8 7 in clubs, diamonds,
    hearts and spades, ace high"."""
    deck = load_ruleset("seven_truf").deck(4)
    assert len(deck) == 32
    assert {RANK_LABELS[card_rank(c)] for c in deck} == {"A", "K", "Q", "J", "10", "9", "8", "7"}


def test_four_players_only() -> None:
    """docs/games/seven_truf.md, Players and deck: "Exactly 4 players"."""
    for players in (3, 5):
        with pytest.raises(RulesetError):
            game("seven_truf", players)


def test_schedule() -> None:
    """docs/games/seven_truf.md, Hands and schedule: the table's 22 hands, 1 2 3 4 5 6 7 8 8 8 8 7 6
    5 4 3 2 1 8 8 8 8 (hands 8-11 and 19-22 of 8 cards, at no trump)."""
    sizes = [h.hand_size for h in load_ruleset("seven_truf").hands_for(4)]
    assert sizes == [*range(1, 8), 8, 8, 8, 8, *range(7, 0, -1), 8, 8, 8, 8]


@pytest.mark.parametrize("number", [8, 11, 19, 22])
def test_eight_card_hands_at_no_trump(number: int) -> None:
    """docs/games/seven_truf.md, Special hands: "The eight 8-card hands (8–11 and 19–22) are always
    played without a trump, since all 32 cards are dealt"."""
    state = at_hand("seven_truf", 4, number)
    assert state.hand_size == 8
    state.apply_chance()
    assert state.trump is None
    assert state.turn_up is None
    assert state.observe(1).trump is None


def test_turn_up_trump_below_eight_cards() -> None:
    """docs/games/seven_truf.md, Deal and trump: "In hands of 1 to 7 cards the next undealt card is
    turned face up and its suit is trump"."""
    state = third_hand()
    deal(state, HANDS, turn_up="7H")
    assert state.trump == HEARTS


def test_hook_on_the_dealer() -> None:
    """docs/games/seven_truf.md, Bidding: "The eldest bids first, then each player in turn
    clockwise, once each; the dealer bids last. A bid is any number of tricks from 0 up to the hand
    size … Hook rule: the dealer may not make a bid that brings the total of all bids to the number
    of tricks in the hand"."""
    state = third_hand()
    deal(state, HANDS, turn_up="7H")
    assert legal(state, 1) == ["bid 0", "bid 1", "bid 2", "bid 3"]
    act(state, 1, "bid 2")
    act(state, 2, "bid 1")
    act(state, 3, "bid 0")
    assert state.to_act() == (0,)
    assert legal(state, 0) == ["bid 1", "bid 2", "bid 3"]
    assert_illegal(state, 0, "bid 0", "hook rule")


@pytest.mark.parametrize(
    ("bids", "hand_scores"),
    [
        # Seat 1 exact 2 -> 20; seat 2 exact 1 -> 10; seat 3 passes and takes nothing ->
        # 5 x 3 = 15; seat 0 bid 1 and took nothing -> 0 (1 per trick).
        ([1, 2, 1, 0], (0, 20, 10, 15)),
        # Seat 1 passes but takes 2 -> 2; seat 2 bid 2, took 1 -> 1; seat 3 bid 1 -> 0.
        ([2, 0, 2, 1], (0, 2, 1, 0)),
        # Seat 1 bid 3, took 2 -> 2; seat 2 passed, took 1 -> 1; seat 3 passed -> 15.
        ([2, 3, 0, 0], (0, 2, 1, 15)),
        # Seat 1 bid 1, took 2 (over) -> 2.
        ([0, 1, 1, 0], (15, 2, 10, 15)),
    ],
)
def test_scoring(bids: list[int], hand_scores: tuple[int, ...]) -> None:
    """docs/games/seven_truf.md, Scoring: "A bid of 1 or more, made exactly: 10 × bid. A pass (bid
    0) with no tricks taken: 5 × hand size … Anything else, a missed bid or a pass that took tricks:
    1 point per trick taken"."""
    state = third_hand()
    deal(state, HANDS, turn_up="7H")
    make_bids(state, bids)
    play_cards(state, PLAY)
    result = state.history[-1]
    assert result.tricks == (0, 2, 1, 0)
    assert result.hand_scores == hand_scores
