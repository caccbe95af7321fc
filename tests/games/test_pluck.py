"""Pluck (docs/games/pluck.md), on hand-built deals.

Most hands are built from the seventeen "triples" of tests/games/pluck_triples.py: each
triple is three cards of one effective suit when clubs are trump (the last one is AC, LJ,
BJ), and every seat holds exactly one card of every triple. Played triple by triple with
clubs as trump, every play follows suit and the holder of each triple's highest card wins
it, so a hand's trick counts (and hence the next hand's plucks) are chosen exactly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from tests.games.pluck_triples import TRIPLES, triple_hands
from tests.helpers import act, deal, game, play_cards
from tricktaker import GameRecord, GameState, IllegalActionError, RulesetError, load_ruleset
from tricktaker.bots import make_bot, play_game
from tricktaker.cards import (
    CLUBS,
    RANK_LABELS,
    SUIT_LETTERS,
    card_set,
    cards_of,
    format_card,
    parse_card,
)
from tricktaker.games.pluck.hooks import pluck_order, quotas_for

LABELS = ("BJ", "LJ")

# A second-hand deal for the pluck mechanics (seat 1 holds BJ, seat 2 holds LJ).
PLUCK_DEAL = [
    "2C 3C 4C 5C 6C 3D 4D 5D 6D 7D 3H 4H 5H 6H 3S 4S 5S",
    "7C 8C 9C 10C 8D 9D 10D JD 7H 8H 9H 10H 6S 7S 8S 9S BJ",
    "JC QC KC AC QD KD AD JH QH KH AH 10S JS QS KS AS LJ",
]

# Seat 1 holds both jokers and only the 3S and 4S in spades.
JOKER_PLUCKEE_DEAL = [
    "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 4D 5D 6D 7D",
    "BJ LJ 3S 4S 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 3D",
    "8D 9D 10D JD QD KD AD 5S 6S 7S 8S 9S 10S JS QS KS AS",
]

# Seat 1 is void in clubs and holds the BJ; seat 2 holds the LJ, the KC and hearts.
JOKER_PLAY_DEAL = [
    "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC AC 3D 4D 5D 6D 7D",
    "BJ 8D 9D 10D JD QD KD AD 3H 4H 5H 6H 7H 8H 9H 10H JH",
    "KC LJ 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS QH KH AH",
]

# For spades as trump: seat 1 holds the LJ and two small spades, seat 2 no clubs.
TRUMP_LEAD_DEAL = [
    "2C 3C 4C 5C 6C 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
    "7C 8C 9C 10C JC QC KC AC LJ 3H 4H 5H 6H 7H 8H 3S 4S",
    "BJ 9H 10H JH QH KH AH 5S 6S 7S 8S 9S 10S JS QS KS AS",
]

# For spades as trump: seat 2 holds three hearts and otherwise only trumps.
ONLY_TRUMPS_DEAL = [
    "2C 3C 4C 5C 6C 7C 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
    "8C 9C 10C JC QC KC AC AD 3H 4H 5H 6H 7H 8H 9H 10H JH",
    "QH KH AH 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS BJ LJ",
]


# ---------------------------------------------------------------------- helpers


def new_pluck(options: Mapping[str, object] | None = None) -> GameState:
    """A game of Pluck with seat 0 as the first dealer, before the first deal."""
    return game("pluck", 3, options=options, first_dealer=0)


def name(card: int) -> str:
    return format_card(card, labels=LABELS)


def names(mask: int) -> set[str]:
    return {name(c) for c in cards_of(mask)}


def legal(state: GameState, seat: int) -> list[str]:
    return [a.text(labels=LABELS) for a in state.legal_actions(seat)]


def legal_cards(state: GameState, seat: int) -> set[str]:
    return {name(a.value) for a in state.legal_actions(seat) if isinstance(a.value, int)}


def holds(state: GameState, seat: int, card: str) -> bool:
    return bool((state.hands[seat] >> parse_card(card)) & 1)


def holder(state: GameState, card: str) -> int:
    return next(s for s in range(3) if holds(state, s, card))


def assert_illegal(state: GameState, seat: int, text: str, rule: str) -> IllegalActionError:
    """The action raises IllegalActionError naming ``rule`` and changes nothing."""
    before = state.record().dumps()
    hands = list(state.hands)
    with pytest.raises(IllegalActionError) as info:
        act(state, seat, text)
    assert info.value.rule == rule
    assert rule in str(info.value)
    assert state.record().dumps() == before
    assert state.hands == hands
    return info.value


def winners_for(tricks: Sequence[int]) -> list[int]:
    """Seventeen trick winners, one per triple, giving each seat ``tricks[seat]``."""
    out = [seat for seat in range(3) for _ in range(tricks[seat])]
    assert len(out) == 17
    return out


def play_triples(state: GameState) -> list[int]:
    """Play all 17 tricks triple by triple (clubs must be trump); return the tricks
    each seat was expected to take (the holder of each triple's top card)."""
    assert state.trump == CLUBS
    expected = [0, 0, 0]
    for triple in TRIPLES:
        expected[holder(state, triple[2])] += 1
    for triple in TRIPLES:
        leader = state.to_act()[0]
        by_seat = {holder(state, card): card for card in triple}
        assert len(by_seat) == 3
        play_cards(state, [by_seat[(leader + i) % 3] for i in range(3)])
    return expected


def play_scripted_hand(state: GameState, tricks: Sequence[int]) -> None:
    """Deal and play a whole hand without plucks in which the seats take ``tricks``."""
    deal(state, triple_hands(winners_for(tricks)))
    assert state.phase_name == "call_trump"
    act(state, state.dealer, "call_trump C")
    play_triples(state)
    assert state.history[-1].tricks == tuple(tricks)


def second_hand(
    first_tricks: Sequence[int],
    hands: Sequence[str],
    options: Mapping[str, object] | None = None,
) -> GameState:
    """A game (first dealer seat 0) whose first hand gave ``first_tricks``, with the
    second hand (dealer seat 1) dealt as ``hands``."""
    state = new_pluck(options)
    play_scripted_hand(state, first_tricks)
    assert state.dealer == 1
    deal(state, hands)
    return state


def pluck_pair(state: GameState, plucker: int, given: str, pluckee: int, returned: str) -> None:
    """One pluck: the plucker gives ``given``; the pluckee's forced return is ``returned``."""
    assert state.phase_name == "pluck"
    assert state.to_act() == (plucker,)
    act(state, plucker, f"pluck {given}")
    assert state.phase_name == "give_back"
    assert state.to_act() == (pluckee,)
    assert legal(state, pluckee) == [f"give_back {returned}"]
    assert state.observe(pluckee).legal_actions == tuple(state.legal_actions(pluckee))
    act(state, pluckee, f"give_back {returned}")


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


# ---------------------------------------------------------------- the opening


def test_holder_of_2c_leads_it() -> None:
    """docs/games/pluck.md, Play: the holder of the 2 of clubs leads it to the first trick."""
    state = new_pluck()
    deal(state, ONLY_TRUMPS_DEAL[1:] + ONLY_TRUMPS_DEAL[:1])  # the 2C goes to seat 2
    act(state, 0, "call_trump H")
    assert state.eldest == 1
    assert state.to_act() == (2,)
    assert legal(state, 2) == ["play 2C"]
    assert legal(state, 1) == []
    error = assert_illegal(state, 2, "play 3C", "opening lead")
    assert "2C" in error.reason
    assert_illegal(state, 2, "play KD", "opening lead")
    assert_illegal(state, 1, "play AC", "turn order")
    play_cards(state, ["2C"])
    assert state.trick == [(2, parse_card("2C"))]
    assert state.to_act() == (0,)


def test_2c_passed_in_a_pluck_is_led_by_its_new_holder() -> None:
    """docs/games/pluck.md, Play: the holder of the 2 of clubs leads it to the first trick."""
    state = second_hand((9, 5, 3), PLUCK_DEAL)
    pluck_pair(state, 0, "2C", 1, "10C")
    pluck_pair(state, 0, "3S", 2, "AS")
    act(state, 1, "call_trump H")
    assert state.to_act() == (1,)
    assert legal(state, 1) == ["play 2C"]
    assert_illegal(state, 1, "play 7C", "opening lead")
    assert_illegal(state, 0, "play 3C", "turn order")


# ------------------------------------------------------------------------ jokers


def test_big_joker_beats_little_joker() -> None:
    """docs/games/pluck.md, Players and deck: the jokers are the two highest trumps, the big
    joker above the little one."""
    state = new_pluck()
    deal(state, JOKER_PLAY_DEAL)
    act(state, 0, "call_trump C")
    play_cards(state, ["2C"])
    # seat 1 is void in clubs: its BJ is a club and must follow the trump lead
    assert legal_cards(state, 1) == {"BJ"}
    assert_illegal(state, 1, "play 8D", "follow suit")
    play_cards(state, ["BJ"])
    assert legal_cards(state, 2) == {"KC", "LJ"}
    assert_illegal(state, 2, "play AH", "follow suit")
    play_cards(state, ["LJ"])
    assert state.trick_winners == [1]


def test_jokers_beat_the_ace_of_trumps_and_follow_as_trumps() -> None:
    """docs/games/pluck.md, Players and deck: the jokers are the two highest trumps (big over
    little) and belong to the trump suit for following and leading."""
    state = new_pluck()
    deal(state, JOKER_PLAY_DEAL)
    act(state, 0, "call_trump C")
    play_cards(state, ["2C", "BJ", "KC"])
    assert state.trick_winners == [1]
    # hearts led: seat 2 holds hearts, so its LJ (a trump) may not be played
    play_cards(state, ["3H"])
    assert legal_cards(state, 2) == {"QH", "KH", "AH"}
    error = assert_illegal(state, 2, "play LJ", "follow suit")
    assert "hearts" in error.reason
    play_cards(state, ["AH", "3D"])
    assert state.trick_winners == [1, 2]
    # the LJ led is a trump lead: seat 0 must follow with a club
    play_cards(state, ["LJ"])
    clubs = {name(c) for c in cards_of(state.hands[0]) if c < 13}
    assert "AC" in clubs
    assert legal_cards(state, 0) == clubs
    assert_illegal(state, 0, "play 4D", "follow suit")
    play_cards(state, ["AC"])
    # seat 1 has no trump left: any card
    assert legal_cards(state, 1) == names(state.hands[1])
    play_cards(state, ["4H"])
    assert state.trick_winners == [1, 2, 2]


def test_joker_wins_as_a_trump_on_a_side_suit_lead() -> None:
    """docs/games/pluck.md, Play: a player void in the led suit may play any card, a trump or
    not; Players and deck: the jokers are the two highest trumps."""
    state = new_pluck()
    deal(state, JOKER_PLAY_DEAL)
    act(state, 0, "call_trump H")
    play_cards(state, ["2C"])
    # seat 1 is void in clubs: it may play anything, here the BJ (a heart now)
    assert legal_cards(state, 1) == names(state.hands[1])
    play_cards(state, ["BJ", "KC"])
    assert state.trick_winners == [1]
    assert state.trump_broken


# ------------------------------------------------------------------ trump leads


def test_trumps_may_not_be_led_until_broken() -> None:
    """docs/games/pluck.md, Play: trumps (the jokers included) may not be led until a trump has
    been played to a trick, unless the leader holds nothing but trumps."""
    state = new_pluck()
    deal(state, TRUMP_LEAD_DEAL)
    act(state, 0, "call_trump S")
    play_cards(state, ["2C", "AC", "9H"])
    assert state.trick_winners == [1]
    assert not state.trump_broken
    assert {"3S", "4S", "LJ"}.isdisjoint(legal_cards(state, 1))
    assert legal_cards(state, 1) == names(state.hands[1]) - {"3S", "4S", "LJ"}
    assert_illegal(state, 1, "play 3S", "trump lead")
    assert_illegal(state, 1, "play LJ", "trump lead")
    play_cards(state, ["7C"])
    # seat 2 is void in clubs and may play any card, a trump included
    assert legal_cards(state, 2) == names(state.hands[2])
    play_cards(state, ["5S", "3C"])
    assert state.trick_winners == [1, 2]
    assert state.trump_broken
    assert legal_cards(state, 2) == names(state.hands[2])
    play_cards(state, ["BJ"])
    assert legal_cards(state, 0) == names(state.hands[0])  # no trump: any card


def test_leader_with_only_trumps_may_lead_one() -> None:
    """docs/games/pluck.md, Play: trumps may be led before they are broken when the leader holds
    nothing but trumps."""
    state = new_pluck()
    deal(state, ONLY_TRUMPS_DEAL)
    act(state, 0, "call_trump S")
    play_cards(state, ["2C", "AC", "QH"])
    play_cards(state, ["3H", "AH", "3D"])
    play_cards(state, ["KH", "4D", "4H"])
    assert state.trick_winners == [1, 2, 2]
    assert not state.trump_broken
    assert state.to_act() == (2,)
    assert legal_cards(state, 2) == names(state.hands[2])
    assert "BJ" in legal_cards(state, 2)
    play_cards(state, ["LJ"])
    assert state.trump_broken


def test_clubs_as_trump_are_broken_by_the_2c() -> None:
    """docs/games/pluck.md, Play: when clubs are trump the opening 2 of clubs opens trumps at
    once."""
    for trump in ("C", "S"):
        state = new_pluck()
        deal(state, triple_hands(winners_for((7, 6, 4))))
        act(state, 0, f"call_trump {trump}")
        # the first triple: 2C, 3C, 4C, won by the 4C
        leader = state.to_act()[0]
        assert leader == holder(state, "2C")
        top = holder(state, "4C")
        by_seat = {holder(state, c): c for c in TRIPLES[0]}
        play_cards(state, [by_seat[(leader + i) % 3] for i in range(3)])
        winner = state.to_act()[0]
        assert winner == top
        hand = names(state.hands[winner])
        if trump == "C":
            assert state.trump_broken
            assert legal_cards(state, winner) == hand
        else:
            assert not state.trump_broken
            spades = {c for c in hand if c.endswith("S")}
            assert spades
            assert legal_cards(state, winner) == hand - spades - {"BJ", "LJ"}
            assert_illegal(state, winner, f"play {min(spades)}", "trump lead")


# ----------------------------------------------------------------------- results


def test_tricks_sum_to_17_and_scores_are_tricks_against_quota() -> None:
    """docs/games/pluck.md, Scoring: each player's result is their tricks minus their quota,
    reported per hand and in total."""
    state = new_pluck()
    play_scripted_hand(state, (9, 5, 3))
    result = state.history[-1]
    assert sum(result.tricks) == 17
    assert len(result.trick_cards) == 17
    assert result.bids == (7, 6, 4)
    assert result.hand_scores == (2, -1, -1)
    assert result.total_scores == (2, -1, -1)
    assert result.extra == {"quotas": [7, 6, 4], "plucks": []}
    assert state.scores == [2, -1, -1]
    data = result.to_json(labels=LABELS)
    assert data["quotas"] == [7, 6, 4]
    assert data["plucks"] == []


def test_two_hand_game_with_plucks_results_privacy_and_replay() -> None:
    """docs/games/pluck.md, End of the game: a game is `hands` hands (6 by default); Scoring:
    tricks against quota per hand and in total; Plucks: only the two players of a pluck see its
    cards; README.md, The library: a game replays exactly from its record."""
    state = new_pluck({"hands": 2})
    assert state.observe(0).hands_in_game == 2
    play_scripted_hand(state, (9, 5, 3))  # +2 -1 -1
    winners = [2, 1, 1, 1, 1, 2, 2, 2, 2, 1, 1, 0, 1, 2, 2, 0, 2]
    deal(state, triple_hands(winners))
    # seat 0 holds the QH and KS; seat 1 the AH and seat 2 the AS
    pluck_pair(state, 0, "QH", 1, "AH")
    pluck_pair(state, 0, "KS", 2, "AS")
    act(state, 1, "call_trump C")
    assert play_triples(state) == [4, 6, 7]
    assert state.is_terminal()
    result = state.history[-1]
    assert result.number == 2
    assert result.dealer == 1
    assert result.tricks == (4, 6, 7)
    assert sum(result.tricks) == 17
    assert result.bids == (4, 7, 6)
    assert result.hand_scores == (0, -1, 1)
    assert result.total_scores == (2, -2, 0)
    assert state.scores == [2, -2, 0]
    plucks = [
        {"plucker": 0, "pluckee": 1, "given": "QH", "returned": "AH"},
        {"plucker": 0, "pluckee": 2, "given": "KS", "returned": "AS"},
    ]
    assert result.extra == {"quotas": [4, 7, 6], "plucks": plucks}
    assert result.to_json(labels=LABELS)["plucks"] == plucks
    # the hand's record of play starts after the plucks
    assert "AH" in {name(c) for c in result.deal[0]}
    assert "QH" in {name(c) for c in result.deal[1]}
    # in the history each seat sees only the plucks it took part in
    hidden = [{**p, "given": None, "returned": None} for p in plucks]
    views: dict[int, list[dict[str, Any]]] = {
        seat: state.observe(seat).history[-1].extra["plucks"] for seat in range(3)
    }
    assert views[0] == plucks
    assert views[1] == [plucks[0], hidden[1]]
    assert views[2] == [hidden[0], plucks[1]]
    # the record has the plucks as actions and replays exactly
    text = state.record().dumps()
    record = GameRecord.loads(text)
    assert [0, "pluck QH"] in record.events
    assert [1, "give_back AH"] in record.events
    assert [1, "call_trump C"] in record.events
    again = record.replay()
    assert again.record().dumps() == text
    assert again.history == state.history
    assert again.scores == state.scores


def test_record_replays_in_the_middle_of_a_pluck() -> None:
    """README.md, The library: every game must be replayable from its record of actions."""
    state = second_hand((9, 5, 3), PLUCK_DEAL)
    pluck_pair(state, 0, "7D", 1, "JD")
    act(state, 0, "pluck 3S")
    again = GameRecord.loads(state.record().dumps()).replay()
    assert again.hands == state.hands
    assert again.phase_name == "give_back"
    assert again.to_act() == (2,)
    assert legal(again, 2) == ["give_back AS"]
    for seat in range(3):
        assert again.observe(seat).extra == state.observe(seat).extra


def test_game_length_is_the_hands_option() -> None:
    """docs/games/pluck.md, End of the game: a game is `hands` hands, 6 by default (each player
    deals twice)."""
    for options, hands in ((None, 6), ({"hands": 1}, 1), ({"hands": 4}, 4)):
        state = game("pluck", 3, options=options, seed=5, first_dealer=2)
        assert state.observe(0).hands_in_game == hands
        play_game(state, [make_bot("random", seed=s) for s in range(3)])
        assert state.is_terminal()
        assert state.hands_played == len(state.history) == hands
        totals = [0, 0, 0]
        for k, result in enumerate(state.history):
            dealer = (2 + k) % 3
            assert result.dealer == dealer
            assert sum(result.tricks) == 17
            assert result.bids == tuple(quotas_for(dealer, (7, 6, 4)))
            assert result.hand_scores == tuple(
                t - q for t, q in zip(result.tricks, result.bids, strict=True)
            )
            totals = [a + b for a, b in zip(totals, result.hand_scores, strict=True)]
            assert list(result.total_scores) == totals
            previous = state.history[k - 1] if k else None
            if previous is None:
                assert result.extra["plucks"] == []
            else:
                surplus = [t - q for t, q in zip(previous.tricks, previous.bids, strict=True)]
                pairs = [(p["plucker"], p["pluckee"]) for p in result.extra["plucks"]]
                assert pairs == pluck_order(surplus, dealer)
        assert state.scores == totals
        assert sum(totals) == 0
        record = GameRecord.loads(state.record().dumps())
        assert record.replay().history == state.history


def test_hands_option_bounds() -> None:
    """docs/games/pluck.md, End of the game: a game is `hands` hands."""
    assert load_ruleset("pluck", options={"hands": 3}).hook_settings.hands == 3
    with pytest.raises(RulesetError):
        load_ruleset("pluck", options={"hands": 0})
