"""La Podrida (docs/games/la_podrida.md): counter-clockwise dealer and deal, hook, must trump."""

from __future__ import annotations

import pytest

from tests.helpers import (
    act,
    assert_illegal,
    at_hand,
    deal,
    finish_hand,
    game,
    legal,
    make_bids,
    play_cards,
)
from tricktaker import ChanceOutcome, GameState, IllegalActionError, load_ruleset
from tricktaker.cards import HEARTS, parse_card


def four_card_hand() -> GameState:
    """4 players, hand 11 (the first hand of 4 cards), dealt by seat 0 (seat 1 is eldest)."""
    return at_hand("la_podrida", 4, 11, first_dealer=2, dealer=0, hand_size=4)


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (3, [*range(17, 4, -1), 4, 4, 4, *range(5, 18)]),
        (4, [*range(13, 4, -1), 4, 4, 4, 4, *range(5, 14)]),
        (5, [*range(10, 4, -1), *[4] * 5, *range(5, 11)]),
        (6, [8, 7, 6, 5, *[4] * 6, 5, 6, 7, 8]),
        (7, [7, 6, 5, *[4] * 7, 5, 6, 7]),
        (8, [6, 5, *[4] * 8, 5, 6]),
    ],
)
def test_schedule(players: int, sizes: list[int]) -> None:
    """docs/games/la_podrida.md, Hands and schedule: "From the largest hand, `52 // players` cards,
    down to 5; then one hand of 4 cards for each player; then 5 back up to the largest hand" (29,
    22, 17, 14, 13 and 12 hands for 3 to 8 players)."""
    got = [h.hand_size for h in load_ruleset("la_podrida").hands_for(players)]
    assert got == sizes
    assert len(got) == {3: 29, 4: 22, 5: 17, 6: 14, 7: 13, 8: 12}[players]


def test_dealer_rotates_counter_clockwise() -> None:
    """docs/games/la_podrida.md, Hands and schedule: "After each hand the deal passes to the right:
    if seat 2 dealt, seat 1 deals next"."""
    state = game("la_podrida", 5, first_dealer=1)
    for _ in range(4):
        finish_hand(state)
    assert [h.dealer for h in state.history] == [1, 0, 4, 3]
    assert state.dealer == 2


def test_deal_goes_counter_clockwise_from_the_dealers_right() -> None:
    """docs/games/la_podrida.md, Deal and trump: "The dealer deals the cards one at a time
    counter-clockwise, starting with the player on their right and ending with themselves"."""
    state = game("la_podrida", 5, first_dealer=2)
    assert state.deal_order() == [1, 0, 4, 3, 2]
    deck = tuple(sorted(load_ruleset("la_podrida").deck(5)))
    state.apply_chance(ChanceOutcome("deal", deck))
    # Cards are dealt one at a time: seat 1 gets the 1st, 6th, 11th ... card of the deck.
    assert state.dealt[1][:3] == [deck[0], deck[5], deck[10]]
    assert state.dealt[0][:2] == [deck[1], deck[6]]
    assert state.dealt[4][0] == deck[2]
    assert state.dealt[3][0] == deck[3]
    assert state.dealt[2][0] == deck[4]
    # The next undealt card is turned up.
    assert state.turn_up == deck[50]


def test_bidding_and_play_clockwise_from_dealers_left_dealer_last_with_hook() -> None:
    """docs/games/la_podrida.md, Bidding: "The player on the dealer's left (the eldest) bids first,
    then each player in turn clockwise, once each; the dealer bids last. … Hook rule: the dealer may
    not make a bid that brings the total of all bids to the number of tricks in the hand"; Play:
    "play goes clockwise"."""
    state = game("la_podrida", 5, first_dealer=2)
    state.apply_chance()
    order = []
    made = 0
    while state.phase_name == "bidding":
        seat = state.to_act()[0]
        order.append(seat)
        if seat == 2:
            size = state.hand_size
            assert f"bid {size - made}" not in legal(state, 2)
            assert_illegal(state, 2, f"bid {size - made}", "hook rule")
        options = legal(state, seat)
        assert "bid 0" in options or seat == 2
        act(state, seat, options[min(1, len(options) - 1)])
        made += state.bids[seat] or 0
    assert order == [3, 4, 0, 1, 2]
    assert state.to_act() == (3,)
    state.apply(3, state.legal_actions(3)[0])
    assert state.to_act() == (4,)


def test_four_players_thirteen_cards_trump_from_second_deck() -> None:
    """docs/games/la_podrida.md, Deal and trump: "When the whole deck is dealt (4 players with 13
    cards each) there is nothing to turn up: a card is drawn at random from a second, separately
    shuffled deck, and its suit is trump"."""
    state = game("la_podrida", 4, first_dealer=0)
    assert state.hand_size == 13
    state.apply_chance()
    assert state.rest == ()
    assert state.phase_name == "trump_draw"
    assert state.is_chance()
    assert not state.observe(1).trump_known
    before = state.record().dumps()
    with pytest.raises(IllegalActionError):
        state.apply_chance(ChanceOutcome("deal", (parse_card("5H"),)))
    assert state.record().dumps() == before
    state.apply_chance(ChanceOutcome("second_deck", (parse_card("5H"),)))
    assert state.trump == HEARTS
    assert state.turn_up == parse_card("5H")
    assert state.phase_name == "bidding"
    assert state.observe(2).trump == HEARTS


def test_second_deck_draw_is_seeded() -> None:
    """docs/games/la_podrida.md, Deal and trump: "a card is drawn at random from a second,
    separately shuffled deck" (drawn from the game's seed, so a game replays exactly)."""
    trumps = []
    for _ in range(2):
        state = game("la_podrida", 4, first_dealer=0, seed=5)
        state.apply_chance()
        state.apply_chance()
        assert state.turn_up is not None
        assert state.trump == state.turn_up // 13
        trumps.append(state.turn_up)
    assert trumps[0] == trumps[1]


def test_cards_left_means_ordinary_turn_up() -> None:
    """docs/games/la_podrida.md, Deal and trump: "The next undealt card is turned face up and its
    suit is trump for the hand"."""
    state = game("la_podrida", 5, first_dealer=0)
    state.apply_chance()
    assert state.phase_name == "bidding"
    assert state.turn_up is not None
    assert state.trump == state.turn_up // 13


def test_must_trump_when_void() -> None:
    """docs/games/la_podrida.md, Play: "A player who holds a card of the suit led must play one. A
    player who cannot follow suit must play a trump if they hold one. Only a player with neither may
    play any other card"."""
    state = four_card_hand()
    deal(
        state,
        ["8S 9S 10S 4C", "AS KS QS 2C", "3H 5D 4D AC", "5S 6S 7S 3C"],
        turn_up="2H",
    )
    assert state.trump == HEARTS
    make_bids(state, [1, 3, 1, 0])
    play_cards(state, ["AS"])
    assert legal(state, 2) == ["play 3H"]
    assert_illegal(state, 2, "play AC", "must trump")
    assert_illegal(state, 2, "play 4D", "must trump")
    play_cards(state, ["3H"])
    assert_illegal(state, 3, "play 3C", "follow suit")
    play_cards(state, ["5S", "8S"])
    assert state.trick_winners == [2]


@pytest.mark.parametrize(
    ("bids", "hand_scores"),
    [
        ([1, 3, 1, 0], (0, 13, 11, 10)),
        ([2, 2, 0, 1], (0, 3, 1, 0)),
    ],
)
def test_scoring_one_per_trick_plus_ten_if_exact(
    bids: list[int], hand_scores: tuple[int, ...]
) -> None:
    """docs/games/la_podrida.md, Scoring: "Each trick taken scores 1 point. A player who takes
    exactly the number of tricks bid scores 10 more"."""
    state = four_card_hand()
    deal(
        state,
        ["8S 9S 10S 4C", "AS KS QS 2C", "2S 3S 4S AC", "5S 6S 7S 3C"],
        turn_up="2H",
    )
    make_bids(state, bids)
    play_cards(state, ["AS", "2S", "5S", "8S", "KS", "3S", "6S", "9S"])
    play_cards(state, ["QS", "4S", "7S", "10S", "2C", "AC", "3C", "4C"])
    result = state.history[-1]
    assert result.tricks == (0, 3, 1, 0)
    assert result.hand_scores == hand_scores
