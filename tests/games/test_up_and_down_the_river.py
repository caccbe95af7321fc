"""Up and Down the River (docs/games/up_and_down_the_river.md): scoring and the optional hook."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from tests.helpers import act, assert_illegal, at_hand, deal, legal, make_bids, play_cards
from tricktaker import GameState, IllegalActionError, load_ruleset
from tricktaker.cards import HEARTS


def third_hand(players: int = 4, options: Mapping[str, object] | None = None) -> GameState:
    """Hand 3 (3 cards), dealt by seat 0, so seat 1 bids first and leads."""
    first_dealer = (-2) % players
    return at_hand(
        "up_and_down_the_river",
        players,
        3,
        options=options,
        first_dealer=first_dealer,
        dealer=0,
        hand_size=3,
    )


# Seat 1 wins the two spade tricks, then seat 2 wins the club trick with the ace.
HANDS = ["7S 8S 4C", "AS KS 2C", "3S 4S AC", "5S 6S 3C"]
PLAY = ["AS", "3S", "5S", "7S", "KS", "4S", "6S", "8S", "2C", "AC", "3C", "4C"]


def test_schedule_nineteen_hands() -> None:
    """docs/games/up_and_down_the_river.md, Hands and schedule: the table's 19 hands, 1 2 3 4 5 6 7
    8 9 10 9 8 7 6 5 4 3 2 1, for 4 and for 5 players."""
    sizes = [h.hand_size for h in load_ruleset("up_and_down_the_river").hands_for(5)]
    assert sizes == [*range(1, 11), *range(9, 0, -1)]


def test_turn_up_trump() -> None:
    """docs/games/up_and_down_the_river.md, Deal and trump: "The next undealt card is turned face up
    and its suit is trump for the hand"."""
    state = third_hand()
    deal(state, HANDS, turn_up="9H")
    assert state.trump == HEARTS
    assert state.observe(3).turn_up is not None


@pytest.mark.parametrize(
    ("bids", "hand_scores"),
    [
        # seat 0: bid 1, took 0 -> -1; seat 1: exact 2 -> 12; seat 2: bid 0 took 1 -> 1;
        # seat 3: exact 0 -> 5.
        ([1, 2, 0, 0], (-1, 12, 1, 5)),
        # seat 0: exact 0 -> 5; seat 1: bid 3 took 2 -> -1; seat 2: exact 1 -> 11;
        # seat 3: bid 3 took 0 -> -3.
        ([0, 3, 1, 3], (5, -1, 11, -3)),
        # seat 1 over: bid 0 took 2 -> 2.
        ([2, 0, 1, 0], (-2, 2, 11, 5)),
    ],
)
def test_scoring(bids: list[int], hand_scores: tuple[int, ...]) -> None:
    """docs/games/up_and_down_the_river.md, Scoring: "Exactly the bid, with a bid of 1 or more:
    tricks + 10. Exactly a bid of 0 (no tricks taken): 5. Anything else: tricks − bid, which is
    negative when the player fell short"."""
    state = third_hand()
    deal(state, HANDS, turn_up="9H")
    make_bids(state, bids)
    before = list(state.scores)
    play_cards(state, PLAY)
    result = state.history[-1]
    assert result.tricks == (0, 2, 1, 0)
    assert result.hand_scores == hand_scores
    assert state.scores == [b + h for b, h in zip(before, hand_scores, strict=True)]


def test_no_hook_by_default() -> None:
    """docs/games/up_and_down_the_river.md, Bidding: "Without the `hook` option the bids may add up
    to the number of tricks in the hand"."""
    state = third_hand()
    assert not state.hook
    deal(state, HANDS, turn_up="9H")
    act(state, 1, "bid 2")
    act(state, 2, "bid 1")
    act(state, 3, "bid 0")
    assert legal(state, 0) == ["bid 0", "bid 1", "bid 2", "bid 3"]
    act(state, 0, "bid 0")
    assert state.phase_name == "playing"


def test_hook_option() -> None:
    """docs/games/up_and_down_the_river.md, Options: "`hook` … The dealer, bidding last, may not
    make a bid that brings the total of all bids to the number of tricks in the hand"."""
    state = third_hand(options={"hook": True})
    assert state.hook
    deal(state, HANDS, turn_up="9H")
    act(state, 1, "bid 2")
    act(state, 2, "bid 1")
    act(state, 3, "bid 0")
    assert legal(state, 0) == ["bid 1", "bid 2", "bid 3"]
    assert_illegal(state, 0, "bid 0", "hook rule")
    act(state, 0, "bid 1")
    assert state.phase_name == "playing"


def test_bids_range_zero_to_hand_size() -> None:
    """docs/games/up_and_down_the_river.md, Bidding: "A bid is any number of tricks from 0 up to the
    hand size"."""
    state = third_hand()
    deal(state, HANDS, turn_up="9H")
    assert legal(state, 1) == ["bid 0", "bid 1", "bid 2", "bid 3"]
    before = state.record().dumps()
    with pytest.raises(IllegalActionError) as info:
        act(state, 1, "bid 4")
    assert info.value.rule == "bid range"
    assert state.record().dumps() == before
