"""Romanian Whist (docs/games/romanian_whist.md): decks, no-trump 8-card hands, must trump, hook."""

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
from tricktaker.cards import HEARTS, RANK_LABELS, card_rank


def fifth_hand() -> GameState:
    """Hand 5 (3 cards) of a 3-player game, dealt by seat 0 (seat 1 is eldest)."""
    return at_hand("romanian_whist", 3, 5, first_dealer=2, dealer=0, hand_size=3)


@pytest.mark.parametrize(
    ("players", "size", "lowest"),
    [(3, 24, "9"), (4, 32, "7"), (5, 40, "5"), (6, 48, "3")],
)
def test_deck_by_player_count(players: int, size: int, lowest: str) -> None:
    """docs/games/romanian_whist.md, Players and deck: "The deck has 8 cards per player: the highest
    ranks of every suit, ace high" (3 players A-9, 24 cards; 4 players A-7, 32; 5 players A-5, 40; 6
    players A-3, 48)."""
    deck = load_ruleset("romanian_whist").deck(players)
    assert len(deck) == size == 8 * players
    ranks = {RANK_LABELS[card_rank(c)] for c in deck}
    assert min(card_rank(c) for c in deck) == RANK_LABELS.index(lowest)
    assert "A" in ranks
    assert all(c < 52 for c in deck)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_schedule(players: int) -> None:
    """docs/games/romanian_whist.md, Hands and schedule: "With n players: n hands of 1 card (each
    player deals one), then 2, 3, 4, 5, 6, 7, then n hands of 8 cards, then 7, 6, 5, 4, 3, 2, then n
    hands of 1: 3n + 12 hands"."""
    sizes = [h.hand_size for h in load_ruleset("romanian_whist").hands_for(players)]
    n = players
    assert sizes == [*[1] * n, *range(2, 8), *[8] * n, *range(7, 1, -1), *[1] * n]
    assert len(sizes) == 3 * n + 12


@pytest.mark.parametrize(("players", "number"), [(3, 10), (3, 12), (4, 11)])
def test_eight_card_hands_deal_every_card_at_no_trump(players: int, number: int) -> None:
    """docs/games/romanian_whist.md, Deal and trump: "The 8-card hands use the whole deck: there is
    no turn-up and they are played without a trump"."""
    state = at_hand("romanian_whist", players, number)
    assert state.hand_size == 8
    state.apply_chance()
    assert state.trump is None
    assert state.turn_up is None
    assert state.rest == ()
    dealt = set()
    for hand in state.dealt:
        dealt.update(hand)
    assert dealt == set(load_ruleset("romanian_whist").deck(players))
    assert state.observe(0).trump_known
    assert state.observe(0).turn_up is None


def test_turn_up_trump_below_eight_cards() -> None:
    """docs/games/romanian_whist.md, Deal and trump: "The next undealt card is turned face up and
    its suit is trump for the hand"."""
    state = fifth_hand()
    deal(state, ["KS JH 9D", "AS KD QC", "10H JC 9C"], turn_up="9H")
    assert state.trump == HEARTS
    assert state.observe(2).turn_up is not None


def test_must_trump_when_void() -> None:
    """docs/games/romanian_whist.md, Play: "A player who cannot follow suit must play a trump if
    they hold one"."""
    state = fifth_hand()
    deal(state, ["KS JH 9D", "AS KD QC", "10H JC 9C"], turn_up="9H")
    make_bids(state, [0, 1, 1])
    play_cards(state, ["AS"])
    assert legal(state, 2) == ["play 10H"]
    error = assert_illegal(state, 2, "play JC", "must trump")
    assert "trump" in error.reason
    play_cards(state, ["10H"])
    # Seat 0 holds a spade: following suit comes before trumping.
    assert legal(state, 0) == ["play KS"]
    assert_illegal(state, 0, "play JH", "follow suit")
    play_cards(state, ["KS"])
    assert state.trick_winners == [2]


def test_void_without_trumps_may_play_any_card() -> None:
    """docs/games/romanian_whist.md, Play: "A player who cannot follow suit must play a trump if
    they hold one. Only a player with neither may play any other card"."""
    state = fifth_hand()
    deal(state, ["KS JH 9D", "AS KD QC", "10D JC 9C"], turn_up="9H")
    make_bids(state, [0, 1, 1])
    play_cards(state, ["AS"])
    assert sorted(legal(state, 2)) == sorted(["play 10D", "play JC", "play 9C"])
    play_cards(state, ["JC", "KS"])
    assert state.trick_winners == [1]


def test_hook_on_the_last_bidder() -> None:
    """docs/games/romanian_whist.md, Bidding: "The eldest bids first … the dealer bids last. A bid
    is any number of tricks from 0 up to the hand size. Hook rule: the dealer may not make a bid
    that brings the total of all bids to the number of tricks in the hand"."""
    state = fifth_hand()
    deal(state, ["KS JH 9D", "AS KD QC", "10H JC 9C"], turn_up="9H")
    assert legal(state, 1) == ["bid 0", "bid 1", "bid 2", "bid 3"]
    act(state, 1, "bid 0")
    act(state, 2, "bid 1")
    assert state.to_act() == (0,)
    assert legal(state, 0) == ["bid 0", "bid 1", "bid 3"]
    assert_illegal(state, 0, "bid 2", "hook rule")
    act(state, 0, "bid 3")


@pytest.mark.parametrize(
    ("bids", "hand_scores"),
    [
        # Tricks: seat 0: 0, seat 1: 3, seat 2: 0.
        ([2, 3, 1], (-2, 8, -1)),
        ([0, 1, 0], (5, -2, 5)),
        ([1, 3, 0], (-1, 8, 5)),
    ],
)
def test_scoring(bids: list[int], hand_scores: tuple[int, ...]) -> None:
    """docs/games/romanian_whist.md, Scoring: "Exactly the bid: 5 + tricks. Anything else: minus the
    difference, −|tricks − bid|"."""
    state = fifth_hand()
    hands = ["JS 9D 10D", "AS KS QS", "9S 10S AD"]
    play = ["AS", "9S", "JS", "KS", "10S", "9D", "QS", "AD", "10D"]
    result = play_hand(state, hands, "9H", bids, play)
    assert result.tricks == (0, 3, 0)
    assert result.hand_scores == hand_scores
