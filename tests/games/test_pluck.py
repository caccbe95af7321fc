"""Pluck (docs/games/pluck.md), on hand-built deals.

Most hands are built from the seventeen "triples" of tests/games/pluck_triples.py: each
triple is three cards of one effective suit when clubs are trump (the last one is AC, LJ,
BJ), and every seat holds exactly one card of every triple. Played triple by triple with
clubs as trump, every play follows suit and the holder of each triple's highest card wins
it, so a hand's trick counts (and hence the next hand's plucks) are chosen exactly.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tests.games.pluck_cases import (
    JOKER_PLUCKEE_DEAL,
    LABELS,
    PLUCK_DEAL,
    assert_illegal,
    holds,
    legal,
    name,
    names,
    new_pluck,
    play_triples,
    pluck_pair,
    second_hand,
    winners_for,
)
from tests.games.pluck_triples import triple_hands
from tests.helpers import act, deal, game
from tricktaker import RulesetError
from tricktaker.cards import (
    RANK_LABELS,
    SUIT_LETTERS,
    card_set,
    cards_of,
)
from tricktaker.games.pluck.hooks import pluck_order, quotas_for

# ------------------------------------------------------------------ deck, deal


def test_deck_of_51_with_2c_and_two_jokers() -> None:
    """docs/games/pluck.md, Players and deck: 51 cards, the standard deck without the 2 of
    diamonds, hearts and spades (the 2 of clubs stays), plus a big joker and a little joker."""
    state = new_pluck()
    deck = state.setup.deck
    assert len(deck) == len(set(deck)) == 51
    cards = {name(c) for c in deck}
    assert {"2D", "2H", "2S"}.isdisjoint(cards)
    assert {"2C", "BJ", "LJ"} <= cards
    standard = {r + s for s in SUIT_LETTERS for r in RANK_LABELS[1:]}
    assert cards == standard | {"2C", "BJ", "LJ"}
    assert state.setup.labels == LABELS


def test_exactly_three_players() -> None:
    """docs/games/pluck.md, Players and deck: exactly 3 players."""
    for players in (2, 4):
        with pytest.raises(RulesetError):
            game("pluck", players)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_all_51_dealt_17_each(seed: int) -> None:
    """docs/games/pluck.md, Hands and schedule: every hand deals the whole deck, 17 cards each,
    so 17 tricks."""
    state = game("pluck", 3, seed=seed)
    assert state.hand_size == 17
    state.apply_chance()
    assert [len(cards_of(h)) for h in state.hands] == [17, 17, 17]
    assert state.hands[0] | state.hands[1] | state.hands[2] == card_set(state.setup.deck)
    assert state.rest == ()
    for seat in range(3):
        assert state.observe(seat).hand == state.hands[seat]


def test_hand_built_deal_is_dealt_as_given() -> None:
    """docs/games/pluck.md, Hands and schedule: every hand deals the whole deck, 17 cards each."""
    state = new_pluck()
    deal(state, PLUCK_DEAL)
    for seat in range(3):
        assert names(state.hands[seat]) == set(PLUCK_DEAL[seat].split())


# ----------------------------------------------------------------------- quotas


def test_quotas_for_each_dealer() -> None:
    """docs/games/pluck.md, Bidding: the quotas are dealer 7, left of the dealer 6, right of the
    dealer 4."""
    assert quotas_for(0, (7, 6, 4)) == [7, 6, 4]
    assert quotas_for(1, (7, 6, 4)) == [4, 7, 6]
    assert quotas_for(2, (7, 6, 4)) == [6, 4, 7]


def test_quotas_rotate_as_the_deal_passes_left() -> None:
    """docs/games/pluck.md, Bidding: the quotas are dealer 7, left of the dealer 6, right of the
    dealer 4; Deal and trump: the deal passes to the left."""
    state = new_pluck({"hands": 3})
    expected = {0: [7, 6, 4], 1: [4, 7, 6], 2: [6, 4, 7]}
    for number, dealer in enumerate((0, 1, 2), start=1):
        assert state.dealer == dealer
        deal(state, triple_hands(winners_for(expected[dealer])))
        assert state.observe(0).extra["quotas"] == expected[dealer]
        # every seat exactly on quota: no plucks in the next hand
        assert state.phase_name == "call_trump"
        act(state, dealer, "call_trump C")
        play_triples(state)
        result = state.history[-1]
        assert result.number == number
        assert result.dealer == dealer
        assert result.bids == tuple(expected[dealer])
        assert result.extra["quotas"] == expected[dealer]
        assert result.hand_scores == (0, 0, 0)
    assert state.is_terminal()


# ------------------------------------------------------------------------ plucks


def test_no_plucks_in_the_first_hand() -> None:
    """docs/games/pluck.md, Plucks: plucks start from the second hand."""
    state = new_pluck()
    deal(state, PLUCK_DEAL)
    assert state.phase_name == "call_trump"
    assert state.to_act() == (0,)
    extra = state.observe(1).extra
    assert extra["plucks"] == []
    assert extra["plucks_pending"] == []
    assert extra["pluck_in_progress"] is None
    assert legal(state, 1) == []
    assert_illegal(state, 1, "pluck 7C", "turn order")


def test_no_plucks_after_a_hand_on_quota() -> None:
    """docs/games/pluck.md, Plucks: each trick above one's quota in the previous hand is a pluck
    to take from a player who fell short."""
    state = second_hand((7, 6, 4), PLUCK_DEAL)
    assert state.phase_name == "call_trump"
    assert state.observe(0).extra["plucks_pending"] == []


@pytest.mark.parametrize(
    ("surplus", "dealer", "order"),
    [
        # one plucker, two pluckees
        ([2, -1, -1], 1, [(0, 1), (0, 2)]),
        ([-1, 2, -1], 0, [(1, 0), (1, 2)]),
        ([3, -1, -2], 1, [(0, 2), (0, 2), (0, 1)]),
        # two pluckers, one pluckee: ties start with the dealer and go left
        ([1, 1, -2], 1, [(1, 2), (0, 2)]),
        ([1, 1, -2], 0, [(0, 2), (1, 2)]),
        ([1, 1, -2], 2, [(0, 2), (1, 2)]),
        ([1, -2, 1], 1, [(2, 1), (0, 1)]),
        ([1, -2, 1], 2, [(2, 1), (0, 1)]),
        ([1, -2, 1], 0, [(0, 1), (2, 1)]),
        # the most plucks first, whoever deals
        ([2, 1, -3], 1, [(0, 2), (0, 2), (1, 2)]),
        ([1, 2, -3], 0, [(1, 2), (1, 2), (0, 2)]),
        # one and one
        ([2, 0, -2], 1, [(0, 2), (0, 2)]),
        ([0, -3, 3], 0, [(2, 1), (2, 1), (2, 1)]),
        ([0, 0, 0], 2, []),
    ],
)
def test_pluck_order(surplus: list[int], dealer: int, order: list[tuple[int, int]]) -> None:
    """docs/games/pluck.md, Plucks: with three players the pairs follow from the counts; the
    player with the most plucks goes first, ties starting with the new dealer and going left."""
    assert pluck_order(surplus, dealer) == order
    taken = Counter(p for p, _ in order)
    suffered = Counter(q for _, q in order)
    for seat in range(3):
        assert taken[seat] == max(surplus[seat], 0)
        assert suffered[seat] == max(-surplus[seat], 0)


@pytest.mark.parametrize(
    ("first_tricks", "pending"),
    [
        ((9, 5, 3), [[0, 1], [0, 2]]),  # +2 -1 -1: one plucker, two pluckees
        ((8, 7, 2), [[1, 2], [0, 2]]),  # +1 +1 -2: tie, the new dealer (1) first
        ((8, 4, 5), [[2, 1], [0, 1]]),  # +1 -2 +1: tie, from the dealer (1) going left
        ((9, 6, 2), [[0, 2], [0, 2]]),  # +2 0 -2: one and one
        ((9, 7, 1), [[0, 2], [0, 2], [1, 2]]),  # +2 +1 -3: most plucks first
    ],
)
def test_plucks_owed_from_the_previous_hand(
    first_tricks: tuple[int, int, int], pending: list[list[int]]
) -> None:
    """docs/games/pluck.md, Plucks: each trick above quota in the previous hand is a pluck to
    take from a player who fell short, each trick short a pluck to suffer; the player with the
    most plucks goes first, ties starting with the new dealer and going left."""
    state = second_hand(first_tricks, PLUCK_DEAL)
    assert state.phase_name == "pluck"
    for seat in range(3):
        assert state.observe(seat).extra["plucks_pending"] == pending
    assert state.to_act() == (pending[0][0],)
    # the dealer may not name trump while plucks are owed
    if state.dealer != pending[0][0]:
        assert_illegal(state, state.dealer, "call_trump S", "turn order")
    else:
        assert_illegal(state, state.dealer, "call_trump S", "Pluck: plucks")


def test_one_plucker_two_pluckees() -> None:
    """docs/games/pluck.md, Plucks: the plucker gives the pluckee one card face down; the pluckee
    must give back their highest card of that card's suit."""
    state = second_hand((9, 5, 3), PLUCK_DEAL)
    assert state.to_act() == (0,)
    # the plucker may give any card it holds (seat 0 holds no joker)
    assert legal(state, 0) == [f"pluck {c}" for c in map(name, cards_of(state.hands[0]))]
    assert legal(state, 1) == legal(state, 2) == []
    pluck_pair(state, 0, "7D", 1, "JD")
    assert holds(state, 1, "7D")
    assert holds(state, 0, "JD")
    assert not holds(state, 1, "JD")
    pluck_pair(state, 0, "3S", 2, "AS")
    assert holds(state, 0, "AS")
    assert holds(state, 2, "3S")
    assert holds(state, 2, "LJ")  # the joker is never given back
    assert [len(cards_of(h)) for h in state.hands] == [17, 17, 17]
    assert state.phase_name == "call_trump"
    assert state.to_act() == (1,)
    assert state.observe(0).extra["plucks"] == [
        {"plucker": 0, "pluckee": 1, "given": "7D", "returned": "JD"},
        {"plucker": 0, "pluckee": 2, "given": "3S", "returned": "AS"},
    ]


def test_two_pluckers_one_pluckee() -> None:
    """docs/games/pluck.md, Plucks: ties start with the (new) dealer and go left; the pluckee
    must give back their highest card of that card's suit."""
    state = second_hand((8, 7, 2), PLUCK_DEAL)
    # seat 1 (the new dealer) and seat 0 each have one pluck on seat 2
    pluck_pair(state, 1, "7H", 2, "AH")
    pluck_pair(state, 0, "2C", 2, "AC")
    assert holds(state, 1, "AH")
    assert holds(state, 0, "AC")
    assert holds(state, 2, "2C")
    assert state.phase_name == "call_trump"


def test_one_and_one_plucker_plucks_twice() -> None:
    """docs/games/pluck.md, Plucks: each trick above one's quota in the previous hand is a pluck."""
    state = second_hand((9, 6, 2), PLUCK_DEAL)
    pluck_pair(state, 0, "3D", 2, "AD")
    # the second pluck in diamonds: now the 3D is the pluckee's lowest, the KD its highest
    pluck_pair(state, 0, "4D", 2, "KD")
    assert names(state.hands[0]) >= {"AD", "KD"}
    assert names(state.hands[2]) >= {"3D", "4D", "QD"}
    assert len(state.observe(2).extra["plucks"]) == 2
    assert state.to_act() == (1,)


def test_most_plucks_go_first() -> None:
    """docs/games/pluck.md, Plucks: the player with the most plucks to take goes first."""
    state = second_hand((9, 7, 1), PLUCK_DEAL)
    # seat 0 (+2) goes before seat 1 (+1), although seat 1 deals
    pluck_pair(state, 0, "3H", 2, "AH")
    pluck_pair(state, 0, "4H", 2, "KH")
    pluck_pair(state, 1, "8C", 2, "AC")
    assert state.phase_name == "call_trump"


def test_pluckee_may_have_to_return_the_card_just_received() -> None:
    """docs/games/pluck.md, Plucks: the pluckee must give back their highest card of that card's
    suit (which may be the card just received)."""
    state = second_hand((8, 4, 5), PLUCK_DEAL)
    before = list(state.hands)
    pluck_pair(state, 2, "AS", 1, "AS")
    assert state.hands == before
    pluck_pair(state, 0, "3H", 1, "10H")
    assert state.observe(1).extra["plucks"][0] == {
        "plucker": 2,
        "pluckee": 1,
        "given": "AS",
        "returned": "AS",
    }


def test_a_joker_may_not_be_given() -> None:
    """docs/games/pluck.md, Plucks: a plucker never passes a joker (Choices we made: no jokers in
    plucks)."""
    state = second_hand((8, 4, 5), PLUCK_DEAL)
    assert state.to_act() == (2,)
    assert holds(state, 2, "LJ")
    assert "pluck LJ" not in legal(state, 2)
    assert len(legal(state, 2)) == 16
    error = assert_illegal(state, 2, "pluck LJ", "Pluck: plucks")
    assert "joker" in error.reason
    # a card the plucker does not hold is refused too
    error = assert_illegal(state, 2, "pluck 2C", "Pluck: plucks")
    assert "2C" in error.reason
    # the pluckee may not act before the plucker has given a card
    assert_illegal(state, 1, "give_back BJ", "turn order")


def test_jokers_are_never_given_back() -> None:
    """docs/games/pluck.md, Plucks: jokers are never given back: a pluckee whose only cards above
    the given one are jokers returns its best card of the suit."""
    state = second_hand((8, 4, 5), JOKER_PLUCKEE_DEAL)
    # seat 1 holds BJ LJ 3S 4S; seat 2 plucks it with the 5S
    pluck_pair(state, 2, "5S", 1, "5S")
    assert holds(state, 1, "BJ")
    assert holds(state, 1, "LJ")
    act(state, 0, "pluck 4D")
    assert legal(state, 1) == ["give_back 4D"]
    for text in ("give_back BJ", "give_back LJ", "give_back 3D"):
        error = assert_illegal(state, 1, text, "Pluck: plucks")
        assert "give_back 4D" in error.reason
    act(state, 1, "give_back 4D")
    assert holds(state, 1, "BJ")
    assert holds(state, 1, "LJ")
    assert state.phase_name == "call_trump"


def test_forced_give_back_is_the_only_legal_action() -> None:
    """docs/games/pluck.md, Plucks: the pluckee must give back their highest card of that card's
    suit."""
    state = second_hand((9, 5, 3), PLUCK_DEAL)
    act(state, 0, "pluck 7D")
    assert legal(state, 1) == ["give_back JD"]
    assert legal(state, 0) == legal(state, 2) == []
    error = assert_illegal(state, 1, "give_back 8D", "Pluck: plucks")
    assert "give_back JD" in error.reason
    assert_illegal(state, 1, "give_back 7H", "Pluck: plucks")
    assert_illegal(state, 1, "play JD", "Pluck: plucks")
    assert_illegal(state, 0, "pluck 3D", "turn order")
    assert_illegal(state, 2, "give_back AD", "turn order")


def test_plucked_cards_seen_only_by_the_two_players() -> None:
    """docs/games/pluck.md, Plucks: the plucker gives the pluckee one card face down."""
    state = second_hand((9, 5, 3), PLUCK_DEAL)
    act(state, 0, "pluck 7D")
    for seat in (0, 1):
        assert state.observe(seat).extra["pluck_in_progress"] == {
            "plucker": 0,
            "pluckee": 1,
            "given": "7D",
        }
    assert state.observe(2).extra["pluck_in_progress"] == {
        "plucker": 0,
        "pluckee": 1,
        "given": None,
    }
    act(state, 1, "give_back JD")
    act(state, 0, "pluck 3S")
    assert state.observe(1).extra["pluck_in_progress"]["given"] is None
    assert state.observe(2).extra["pluck_in_progress"]["given"] == "3S"
    act(state, 2, "give_back AS")
    seen = {seat: state.observe(seat).extra["plucks"] for seat in range(3)}
    full = [
        {"plucker": 0, "pluckee": 1, "given": "7D", "returned": "JD"},
        {"plucker": 0, "pluckee": 2, "given": "3S", "returned": "AS"},
    ]
    assert seen[0] == full
    assert seen[1] == [full[0], {"plucker": 0, "pluckee": 2, "given": None, "returned": None}]
    assert seen[2] == [{"plucker": 0, "pluckee": 1, "given": None, "returned": None}, full[1]]
    third = state.observe(2)
    assert third.hand is not None
    assert names(third.hand).isdisjoint({"7D", "JD"})


def test_dealer_declares_any_suit() -> None:
    """docs/games/pluck.md, Dealer declares trump: the dealer names trump, any of the four suits."""
    for letter in SUIT_LETTERS:
        state = new_pluck()
        deal(state, PLUCK_DEAL)
        assert state.to_act() == (0,)
        assert legal(state, 0) == [f"call_trump {s}" for s in SUIT_LETTERS]
        assert legal(state, 1) == legal(state, 2) == []
        assert state.observe(1).trump is None
        act(state, 0, f"call_trump {letter}")
        assert state.trump == SUIT_LETTERS.index(letter)
        assert state.phase_name == "playing"
        for seat in range(3):
            assert state.observe(seat).trump == SUIT_LETTERS.index(letter)


def test_only_the_dealer_declares_trump() -> None:
    """docs/games/pluck.md, Dealer declares trump: the dealer names trump, any of the four suits."""
    state = new_pluck()
    deal(state, PLUCK_DEAL)
    assert_illegal(state, 1, "call_trump S", "turn order")
    assert_illegal(state, 2, "call_trump H", "turn order")
    assert_illegal(state, 0, "call_trump X", "Pluck: dealer declares trump")
    assert_illegal(state, 0, "play 2C", "Pluck: dealer declares trump")
    act(state, 0, "call_trump S")
    assert_illegal(state, 0, "call_trump H", "turn order")


def test_dealer_declares_after_the_plucks() -> None:
    """docs/games/pluck.md, Deal and trump: the deal, then the plucks, then the dealer names
    trump (any suit)."""
    state = second_hand((8, 7, 2), PLUCK_DEAL)
    assert state.dealer == 1
    assert_illegal(state, 1, "call_trump D", "Pluck: plucks")
    pluck_pair(state, 1, "7H", 2, "AH")
    assert_illegal(state, 1, "call_trump D", "turn order")
    pluck_pair(state, 0, "2C", 2, "AC")
    assert state.to_act() == (1,)
    act(state, 1, "call_trump D")
    assert state.trump == SUIT_LETTERS.index("D")
