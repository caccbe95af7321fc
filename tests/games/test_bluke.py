"""Bluke and its New Jersey variant (docs/games/bluke.md), on hand-built deals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from tests.helpers import (
    assert_illegal,
    at_hand,
    deal,
    deal_from_eldest,
    game,
    make_bids,
    play_cards,
    seat_at,
)
from tricktaker import GameState, RulesetError, load_ruleset, new_game
from tricktaker.bots import make_bot, play_game
from tricktaker.cards import HEARTS, HIGH_JOKER, LOW_JOKER, card_set, format_card, parse_card
from tricktaker.engine.actions import bid, play

NJ = {"new_jersey": True}


# ---------------------------------------------------------------------- helpers


def hand_of_size(
    size: int, *, options: Mapping[str, object] | None = None, players: int = 4
) -> GameState:
    """A 2-4 player game just before the deal of the first hand with ``size`` cards."""
    if options and options.get("new_jersey"):
        number = size  # 1, 2, ..., 13, ...
    else:
        number = 14 - size  # 13, 12, ..., 1, ...
    state = at_hand("bluke", players, number, options=options)
    assert state.hand_size == size
    return state


def legal_cards(state: GameState, seat: int) -> set[str]:
    return {format_card(a.value) for a in state.legal_actions(seat) if isinstance(a.value, int)}


def one_card_trick(
    cards: Sequence[str], turn_up: str, options: Mapping[str, object] | None = None
) -> int:
    """Play a 4-player 1-card hand where the seats, from the eldest, hold ``cards``;
    return the position (from the eldest) of the trick's winner."""
    state = hand_of_size(1, options=options)
    deal_from_eldest(state, cards, turn_up)
    eldest = state.eldest
    make_bids(state, [1] * 4)
    play_cards(state, cards)
    result = state.history[-1]
    winner = result.trick_winners[0]
    assert result.tricks[winner] == 1
    return (winner - eldest) % 4


# ------------------------------------------------------------------------ trump


def test_turn_up_fixes_trump() -> None:
    """docs/games/bluke.md, Deal and trump: "The next undealt card is turned face up and its suit is
    trump for the hand"."""
    state = hand_of_size(2)
    deal_from_eldest(state, ["AS 2C", "KS 3C", "QS 4C", "JS 5C"], "7H")
    assert state.trump == HEARTS
    assert state.turn_up == parse_card("7H")
    for seat in range(4):
        view = state.observe(seat)
        assert view.trump == HEARTS
        assert view.turn_up == parse_card("7H")


def test_seeded_turn_up_is_the_first_undealt_card() -> None:
    """docs/games/bluke.md, Deal and trump: "The next undealt card is turned face up and its suit is
    trump for the hand" (the seeded deal)."""
    for seed in range(20):
        state = game("bluke", 4, seed=seed)
        state.apply_chance()
        assert state.turn_up == state.rest[0]
        expected = None if state.turn_up >= 52 else state.turn_up // 13
        assert state.trump == expected


@pytest.mark.parametrize("bluke", ["HB", "LB"])
def test_bluke_turned_up_means_no_trump(bluke: str) -> None:
    """docs/games/bluke.md, Deal and trump: "If that card is a Bluke, the hand is played without a
    trump"."""
    state = hand_of_size(1)
    deal_from_eldest(state, ["5S", "2H", "AD", "KS"], bluke)
    assert state.turn_up == parse_card(bluke)
    assert state.trump is None
    assert state.observe(0).trump is None
    make_bids(state, [1] * 4)
    play_cards(state, ["5S", "2H", "AD", "KS"])
    assert state.history[-1].trick_winners == (seat_at_after(state, 3),)
    assert state.history[-1].trump is None


def seat_at_after(state: GameState, position: int) -> int:
    """The seat ``position`` places from the eldest of the hand just finished."""
    return (state.history[-1].dealer + 1 + position) % state.players


# ---------------------------------------------------------------------- ranking


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        (["AS", "2H", "LB", "HB"], 3),
        (["HB", "AH", "LB", "KS"], 0),
        (["AS", "AH", "LB", "KH"], 2),
        (["LB", "AH", "KH", "QH"], 0),
        (["LB", "AS", "HB", "AH"], 2),
        (["AS", "2H", "KS", "AD"], 1),
        (["5S", "KS", "AD", "QS"], 1),
        (["2C", "3H", "AH", "AC"], 2),
    ],
)
def test_ranking(cards: list[str], winner: int) -> None:
    """docs/games/bluke.md, Players and deck: "Strength in a trick, from the top: the Hi Bluke; the
    Lo Bluke; the trumps, ace down to two; the cards of the suit led, ace down to two"."""
    assert one_card_trick(cards, "7H") == winner


# ----------------------------------------------------------------------- play


def test_bluke_may_be_played_when_able_to_follow() -> None:
    """docs/games/bluke.md, Play: "a Bluke may always be played instead, even by a player who could
    follow suit"."""
    state = hand_of_size(3)
    deal_from_eldest(state, ["AS 2C 2D", "KS 3C LB", "QS 4C HB", "JS 5C 3D"], "7H")
    make_bids(state, [1] * 4)
    play_cards(state, ["AS"])
    second = seat_at(state, 1)
    assert legal_cards(state, second) == {"KS", "LB"}
    play_cards(state, ["LB"])
    third = seat_at(state, 2)
    assert legal_cards(state, third) == {"QS", "HB"}
    play_cards(state, ["QS", "JS"])
    assert state.trick_winners == [second]


def test_follow_suit_still_binds_other_cards() -> None:
    """docs/games/bluke.md, Play: "A player who holds a card of the suit led must play one, except
    that a Bluke may always be played instead"."""
    state = hand_of_size(3)
    deal_from_eldest(state, ["AS 2C 2D", "KS 3C LB", "QS 4C HB", "JS 5C 3D"], "7H")
    make_bids(state, [1] * 4)
    play_cards(state, ["AS"])
    assert_illegal(state, seat_at(state, 1), play(parse_card("3C")), "follow suit")


@pytest.mark.parametrize(
    ("lead", "others", "plays", "winner"),
    [
        ("LB", ["2S 3C 4D", "KC 5S 6D", "AH 7S 8D"], ["3C", "5S", "AH"], 0),
        ("LB", ["2S 3C 4D", "KC 5S HB", "AH 7S 8D"], ["3C", "HB", "AH"], 2),
        ("HB", ["2S 3C 4D", "KC 5S LB", "AH 7S 8D"], ["4D", "LB", "7S"], 0),
    ],
)
def test_led_bluke_sets_no_suit(
    lead: str, others: list[str], plays: list[str], winner: int
) -> None:
    """docs/games/bluke.md, Play: "A Bluke led sets no suit: every other player may play any card.
    The led Bluke wins the trick unless the other Bluke is played to it.\""""
    state = hand_of_size(3)
    deal_from_eldest(state, [f"{lead} 9C 9D", *others], "7H")
    make_bids(state, [1] * 4)
    play_cards(state, [lead])
    for position, (cards, card) in enumerate(zip(others, plays, strict=True), start=1):
        seat = seat_at(state, position)
        assert legal_cards(state, seat) == set(cards.split())
        play_cards(state, [card])
    assert state.trick_winners == [seat_at(state, winner)]


# ----------------------------------------------------------------------- bids


def test_bids_are_one_to_hand_size_by_default() -> None:
    """docs/games/bluke.md, Bidding: "A bid is a number of tricks from 1 up to the hand size: nobody
    may bid zero unless the option `min_bid` is set to 0"."""
    state = hand_of_size(3)
    deal_from_eldest(state, ["AS 2C 2D", "KS 3C 3D", "QS 4C 4D", "JS 5C 5D"], "7H")
    eldest = state.eldest
    assert state.to_act() == (eldest,)
    assert state.legal_actions(eldest) == [bid(1), bid(2), bid(3)]
    assert_illegal(state, eldest, bid(0), "minimum bid")
    assert_illegal(state, eldest, bid(4), "bid range")


def test_min_bid_zero_option() -> None:
    """docs/games/bluke.md, Options: "`min_bid` (int, 0 or 1, default `1`): the lowest bid allowed.
    With `0`, a player may bid to take no tricks"."""
    state = hand_of_size(3, options={"min_bid": 0})
    deal_from_eldest(state, ["AS 2C 2D", "KS 3C 3D", "QS 4C 4D", "JS 5C 5D"], "7H")
    assert state.legal_actions(state.eldest) == [bid(0), bid(1), bid(2), bid(3)]
    state.apply(state.eldest, bid(0))
    assert state.bids[state.eldest] == 0


def test_bidding_order_eldest_first_clockwise_once_each() -> None:
    """docs/games/bluke.md, Bidding: "The eldest bids first, then each player in turn clockwise,
    once each"."""
    state = hand_of_size(2)
    deal_from_eldest(state, ["AS 2C", "KS 3C", "QS 4C", "JS 5C"], "7H")
    order = []
    for position in range(4):
        seat = state.to_act()[0]
        assert seat == seat_at(state, position)
        assert_illegal(state, (seat + 1) % 4, bid(1), "turn order")
        state.apply(seat, bid(2))
        order.append(seat)
    assert sorted(order) == [0, 1, 2, 3]
    assert state.phase_name == "playing"
    assert state.to_act() == (state.eldest,)


# -------------------------------------------------------------------- scoring


@pytest.mark.parametrize(
    ("bid_", "tricks", "score"),
    [
        (3, 4, 31),
        (3, 0, -30),
        (2, 4, 22),
        (5, 5, 50),
        (1, 1, 10),
        (1, 0, -10),
        (0, 0, 0),
        (0, 2, 2),
    ],
)
def test_scoring_formula(bid_: int, tricks: int, score: int) -> None:
    """docs/games/bluke.md, Scoring: "at least as many tricks as the bid: 10 × bid, plus 1 for each
    trick above the bid; fewer tricks than the bid (set): −10 × bid"."""
    rules = load_ruleset("bluke", options={"min_bid": 0})
    assert rules.scoring.score(bid=bid_, tricks=tricks, hand_size=13, players=4) == score


def test_sample_scorecard() -> None:
    """docs/games/bluke.md, Scoring, example 2: a hand of 13 with bids 3, 3, 2, 5 and tricks 4, 0,
    4, 5 scores 31, −30, 22, 50; "A later hand of 11 with bids 1, 4, 1, 3 and tricks 2, 5, 1, 3
    scores 11, 41, 10, 30". With the published sample's middle row the running totals are 22, −29,
    −18, 112."""
    scoring = load_ruleset("bluke").scoring

    def row(size: int, bids: list[int], tricks: list[int]) -> list[int]:
        return [
            scoring.score(bid=b, tricks=t, hand_size=size, players=4)
            for b, t in zip(bids, tricks, strict=True)
        ]

    first = row(13, [3, 3, 2, 5], [4, 0, 4, 5])
    assert first == [31, -30, 22, 50]
    # The published sample's hand-12 row (bids 2/4/5/3, tricks 1/2/3/5) is the one the page
    # warns about (docs/games/bluke.md, Choices we made):
    # its tricks sum to 11. Its per-seat scores are still what the totals imply.
    second = row(12, [2, 4, 5, 3], [1, 2, 3, 5])
    assert second == [-20, -40, -50, 32]
    third = row(11, [1, 4, 1, 3], [2, 5, 1, 3])
    assert third == [11, 41, 10, 30]
    totals = [a + b + c for a, b, c in zip(first, second, third, strict=True)]
    assert totals == [22, -29, -18, 112]


# The scorecard's first hand, played: seat 0 is the eldest (first dealer 3). The Lo Bluke
# is turned up (no trump); the Hi Bluke stays undealt. Each seat holds three of each suit
# plus one deuce; seat 0 takes the A-K-Q-J tricks, seat 2 the 10-9-8-7 tricks, seat 3 the
# 6-5-4-3 tricks and the last trick of deuces.
SCORECARD_DEAL = [
    "AC 9C 5C AD 9D 5D AH 9H 5H AS 9S 5S 2C",
    "JC 7C 3C JD 7D 3D JH 7H 3H JS 7S 3S 2D",
    "KC 10C 4C KD 10D 4D KH 10H 4H KS 10S 4S 2H",
    "QC 8C 6C QD 8D 6D QH 8H 6H QS 8S 6S 2S",
]
SCORECARD_PLAY = [
    *("AC JC KC QC", "AD JD KD QD", "AH JH KH QH", "AS JS KS QS"),  # seat 0 leads, wins
    "9C 7C 10C 8C",  # seat 0 leads, seat 2 wins
    *("10D 8D 9D 7D", "10H 8H 9H 7H", "10S 8S 9S 7S"),  # seat 2 leads, wins
    "4C 6C 5C 3C",  # seat 2 leads, seat 3 wins
    *("6D 5D 3D 4D", "6H 5H 3H 4H", "6S 5S 3S 4S"),  # seat 3 leads, wins
    "2S 2C 2D 2H",  # seat 3 leads the last trick at no trump and wins
]


def test_sample_scorecard_first_hand_played() -> None:
    """docs/games/bluke.md, Scoring, example 2: "four players, hand of 13. Bids 3, 3, 2, 5; tricks
    4, 0, 4, 5", scoring 31, −30, 22, 50."""
    state = game("bluke", 4, first_dealer=3)
    assert state.hand_size == 13
    assert state.eldest == 0
    deal(state, SCORECARD_DEAL, turn_up="LB")
    assert state.trump is None
    make_bids(state, [3, 3, 2, 5])
    play_cards(state, " ".join(SCORECARD_PLAY).split())
    result = state.history[0]
    assert result.bids == (3, 3, 2, 5)
    assert result.tricks == (4, 0, 4, 5)
    assert result.hand_scores == (31, -30, 22, 50)
    assert result.total_scores == (31, -30, 22, 50)
    assert state.scores == [31, -30, 22, 50]
    assert [result.outcome(s) for s in range(4)] == ["O", "S", "O", "P"]
    assert result.turn_up == LOW_JOKER
    assert result.trump is None
    assert state.hand_size == 12
    assert state.dealer == 0


def test_played_hand_scores_set_and_overtricks() -> None:
    """docs/games/bluke.md, Scoring: "at least as many tricks as the bid: 10 × bid, plus 1 for each
    trick above the bid; fewer tricks than the bid (set): −10 × bid"."""
    state = hand_of_size(2)
    deal_from_eldest(state, ["AH KH", "2S 3S", "4S 5S", "6S 7S"], "8H")
    make_bids(state, [1, 1, 1, 2])  # by seat
    play_cards(state, ["AH", "2S", "4S", "6S", "KH", "3S", "5S", "7S"])
    result = state.history[-1]
    eldest = seat_at_after(state, 0)
    assert result.tricks[eldest] == 2
    expected = []
    for seat in range(4):
        b, t = result.bids[seat], result.tricks[seat]
        expected.append(10 * b + (t - b) if t >= b else -10 * b)
    assert list(result.hand_scores) == expected
    assert result.hand_scores[eldest] == 10 * result.bids[eldest] + (2 - result.bids[eldest])


# --------------------------------------------------------------- New Jersey


def test_new_jersey_first_hand_has_one_card() -> None:
    """docs/games/bluke.md, Options: "`new_jersey` … The schedule runs 1, 2, …, 13, 12, …, 1"."""
    state = game("bluke", 4, options=NJ)
    assert state.hand_size == 1
    rules = load_ruleset("bluke", options=NJ)
    assert [h.hand_size for h in rules.hands_for(4)] == [*range(1, 14), *range(12, 0, -1)]


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        (["AH", "LB", "HB", "KH"], 2),
        (["AS", "AH", "LB", "2C"], 2),
        (["AS", "LB", "KS", "2C"], 1),
        (["HB", "AH", "LB", "KS"], 0),
        (["AS", "2H", "KS", "AD"], 1),
    ],
)
def test_new_jersey_blukes_are_highest_trumps(cards: list[str], winner: int) -> None:
    """docs/games/bluke.md, Options: "`new_jersey` … the Blukes become the two highest trumps: the
    Hi Bluke above the Lo Bluke above the ace of trumps"."""
    assert one_card_trick(cards, "7H", NJ) == winner


def test_new_jersey_trump_lead_forces_an_only_bluke() -> None:
    """docs/games/bluke.md, Options: "`new_jersey` … a player who must follow a trump lead and whose
    only trump is a Bluke must play it"."""
    state = hand_of_size(3, options=NJ)
    deal_from_eldest(state, ["5H 2C 2D", "LB AS KC", "QS 4C 4D", "JS 5C 5D"], "7H")
    make_bids(state, [1] * 4)
    play_cards(state, ["5H"])
    second = seat_at(state, 1)
    assert legal_cards(state, second) == {"LB"}
    assert_illegal(state, second, play(parse_card("AS")), "follow suit")
    play_cards(state, ["LB"])
    assert legal_cards(state, seat_at(state, 2)) == {"QS", "4C", "4D"}


def test_new_jersey_trump_lead_any_trump_follows() -> None:
    """docs/games/bluke.md, Options: "`new_jersey` … They belong to the trump suit"."""
    state = hand_of_size(3, options=NJ)
    deal_from_eldest(state, ["5H 2C 2D", "LB 2H AS", "QS 4C 4D", "JS 5C 5D"], "7H")
    make_bids(state, [1] * 4)
    play_cards(state, ["5H"])
    assert legal_cards(state, seat_at(state, 1)) == {"LB", "2H"}


def test_new_jersey_no_bluke_while_holding_the_led_suit() -> None:
    """docs/games/bluke.md, Options: "`new_jersey` … a player holding a card of a plain (non-trump)
    suit that was led may not play a Bluke instead"."""
    state = hand_of_size(3, options=NJ)
    deal_from_eldest(state, ["AS 2C 2D", "HB 3S 4C", "QS 4D LB", "JS 5C 5D"], "7H")
    make_bids(state, [1] * 4)
    play_cards(state, ["AS"])
    second = seat_at(state, 1)
    assert legal_cards(state, second) == {"3S"}
    assert_illegal(state, second, play(HIGH_JOKER), "follow suit")
    play_cards(state, ["3S"])
    assert legal_cards(state, seat_at(state, 2)) == {"QS"}


def test_new_jersey_void_player_may_trump_with_a_bluke() -> None:
    """docs/games/bluke.md, Options: "`new_jersey` … the Blukes become the two highest trumps" (a
    player void in the led suit may play one, and it wins as the top trump)."""
    state = hand_of_size(3, options=NJ)
    deal_from_eldest(state, ["AS 2C 2D", "HB 4C 5D", "QS 4D 6D", "AH 5C 7D"], "7H")
    make_bids(state, [1] * 4)
    play_cards(state, ["AS"])
    assert legal_cards(state, seat_at(state, 1)) == {"HB", "4C", "5D"}
    play_cards(state, ["HB", "QS", "AH"])
    assert state.trick_winners == [seat_at(state, 1)]


def test_new_jersey_led_bluke_is_a_trump_lead() -> None:
    """docs/games/bluke.md, Options: "`new_jersey` … They belong to the trump suit: a player who
    must follow a trump lead" (a led Bluke calls for trumps)."""
    state = hand_of_size(3, options=NJ)
    deal_from_eldest(state, ["LB 2C 2D", "2H AS KC", "QS 4C 4D", "JS 5C 5D"], "7H")
    make_bids(state, [1] * 4)
    play_cards(state, ["LB"])
    second = seat_at(state, 1)
    assert legal_cards(state, second) == {"2H"}
    assert_illegal(state, second, play(parse_card("AS")), "follow suit")


def test_new_jersey_turned_up_bluke_keeps_standard_blukes() -> None:
    """docs/games/bluke.md, Options: "`new_jersey` … When a Bluke is the turn-up, the hand has no
    trump and both Blukes keep their standard powers for that hand"."""
    state = hand_of_size(3, options=NJ)
    deal_from_eldest(state, ["AS 2C 2D", "LB 3S 4C", "QS 4D 6D", "KS 5C 7D"], "HB")
    assert state.trump is None
    make_bids(state, [1] * 4)
    play_cards(state, ["AS"])
    assert legal_cards(state, seat_at(state, 1)) == {"LB", "3S"}
    play_cards(state, ["LB", "QS", "KS"])
    assert state.trick_winners == [seat_at(state, 1)]


def test_new_jersey_turned_up_bluke_led_sets_no_suit() -> None:
    """docs/games/bluke.md, Options: "`new_jersey` … both Blukes keep their standard powers for that
    hand" and Play: "A Bluke led sets no suit"."""
    state = hand_of_size(3, options=NJ)
    deal_from_eldest(state, ["LB 2C 2D", "AS 3S 4C", "QS 4D 6D", "KS 5C 7D"], "HB")
    make_bids(state, [1] * 4)
    play_cards(state, ["LB"])
    assert legal_cards(state, seat_at(state, 1)) == {"AS", "3S", "4C"}
    play_cards(state, ["4C"])
    assert legal_cards(state, seat_at(state, 2)) == {"QS", "4D", "6D"}


# ---------------------------------------------------------------- schedules


def test_extended_three_player_game_starts_at_17() -> None:
    """docs/games/bluke.md, Options: "`extended` (bool, default `false`, 3 players only): the
    schedule starts and ends at 17 cards instead of 13"."""
    state = game("bluke", 3, options={"extended": True})
    assert state.hand_size == 17
    state.apply_chance()
    assert [h.bit_count() for h in state.hands] == [17, 17, 17]
    assert len(state.rest) == 3
    assert state.turn_up == state.rest[0]
    rules = load_ruleset("bluke", options={"extended": True})
    sizes = [h.hand_size for h in rules.hands_for(3)]
    assert sizes == [*range(17, 0, -1), *range(2, 18)]


@pytest.mark.parametrize(("players", "final_hand", "size"), [(3, 26, 18), (6, 16, 9)])
def test_all_dealt_final_hand(players: int, final_hand: int, size: int) -> None:
    """docs/games/bluke.md, Options: "`all_dealt_final` … one extra last hand deals the whole
    54-card deck, with no turn-up and no trump. It needs a player count that divides 54: 2 players
    (27 cards each), 3 (18), 6 (9) or 9 (6)"."""
    options = {"all_dealt_final": True}
    state = at_hand("bluke", players, final_hand, options=options)
    assert state.hand_size == size
    state.apply_chance()
    assert [h.bit_count() for h in state.hands] == [size] * players
    everything = 0
    for cards in state.hands:
        everything |= cards
    assert everything == card_set(range(54))
    assert state.rest == ()
    assert state.turn_up is None
    assert state.trump is None
    play_game(state, [make_bot("random", seed=s) for s in range(players)])
    assert state.is_terminal()
    last = state.history[-1]
    assert last.number == final_hand
    assert last.hand_size == size
    assert last.trump is None
    assert last.turn_up is None
    assert len(state.history) == final_hand


def test_all_dealt_final_needs_an_even_division() -> None:
    """docs/games/bluke.md, Options: "`all_dealt_final` … It needs a player count that divides 54 …
    any other count is refused" (not with 4 players)."""
    rules = load_ruleset("bluke", options={"all_dealt_final": True})
    with pytest.raises(RulesetError, match="all_dealt_final"):
        new_game(rules, players=4, seed=0)


@pytest.mark.parametrize("players", range(5, 16))
def test_five_or_more_players_leave_two_cards_undealt(players: int) -> None:
    """docs/games/bluke.md, Hands and schedule: "With more players the largest hand is `52 //
    players` cards, so that at least two cards stay undealt for the turn-up; the schedule falls from
    it to 1 and climbs back"."""
    state = game("bluke", players, seed=players)
    assert state.hand_size == 52 // players
    state.apply_chance()
    assert len(state.rest) >= 2
    assert [h.bit_count() for h in state.hands] == [52 // players] * players
    assert state.turn_up == state.rest[0]


def test_deal_passes_left() -> None:
    """docs/games/bluke.md, Hands and schedule: "After each hand the deal passes to the left"."""
    state = game("bluke", 4, seed=9, first_dealer=2)
    bots = [make_bot("random", seed=s) for s in range(4)]
    dealers = []
    for _ in range(6):
        dealers.append(state.dealer)
        play_game(state, bots, until_hand_end=True)
    assert dealers == [2, 3, 0, 1, 2, 3]
    assert [h.dealer for h in state.history] == dealers
