"""Pluck (docs/games/pluck.md), the play: the opening lead of the 2C, the jokers, trump
leads, and results (tricks against quota, the game's length, privacy and replays), on
hand-built deals of tests/games/pluck_cases.py."""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.pluck_cases import (
    JOKER_PLAY_DEAL,
    LABELS,
    ONLY_TRUMPS_DEAL,
    PLUCK_DEAL,
    TRUMP_LEAD_DEAL,
    assert_illegal,
    holder,
    legal,
    legal_cards,
    name,
    names,
    new_pluck,
    play_scripted_hand,
    play_triples,
    pluck_pair,
    second_hand,
    winners_for,
)
from tests.games.pluck_triples import TRIPLES, triple_hands
from tests.helpers import act, deal, game, play_cards
from tricktaker import GameRecord, RulesetError, load_ruleset
from tricktaker.bots import make_bot, play_game
from tricktaker.cards import (
    cards_of,
    parse_card,
)
from tricktaker.games.pluck.hooks import pluck_order, quotas_for

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
