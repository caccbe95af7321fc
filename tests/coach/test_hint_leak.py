"""Issue 29, a hint on request: hints leak nothing. Two states of the same game that
differ only in cards the seat cannot know (other players' cards, the kitty, the stock)
give that seat the same hint, with the same seed and deals, as the research encoding's
leak test (tests/envs/test_leaks.py) checks its vectors.

The second state is built with the engine: the game so far is replayed with the same
actions from a deal in which two cards hidden from the seat have changed places (in
every chance outcome of the hand: the deal, the draws). Positions are every decision
kind of every game (tests/coach/positions.py), a swap that makes an earlier action
impossible is passed over.
"""

from __future__ import annotations

import itertools

import pytest

from tests.coach.positions import decisions
from tests.helpers import OH_HELL_GAMES
from tests.swaps import hidden_cards, holder, swapped_replay
from tricktaker import ChanceOutcome, GameState
from tricktaker.cards import cards_of
from tricktaker.coach.values import hint

GAMES = ("blackout", "caller_clag", "pluck", "euchre", "buckup", "bluke", "la_podrida")
"""Every hook game and Oh Hell family games with different schedules and scoring."""


def hand_start(state: GameState) -> int | None:
    """The index among the state's events of the current hand's last deal (None before
    its deal)."""
    start = None
    for index, (_, what) in enumerate(state.events):
        if isinstance(what, ChanceOutcome) and what.kind == "deal":
            start = index
    return start


def swapped(state: GameState, seat: int) -> GameState | None:
    """``state`` with two cards hidden from ``seat``, held by different places, swapped
    (the first such pair whose replay stays legal); None when there is none."""
    start = hand_start(state)
    if start is None:
        return None
    hidden = hidden_cards(state, seat, start)
    for a, b in itertools.combinations(hidden, 2):
        if holder(state, a) == holder(state, b) and holder(state, a) != -1:
            continue
        other = swapped_replay(state, a, b, start)
        if other is None:
            continue
        if other.hands != state.hands or other.kitty != state.kitty or other.rest != state.rest:
            return other
    return None


@pytest.mark.parametrize("name", GAMES)
def test_cards_the_seat_cannot_see_change_nothing_in_its_hint(name: str) -> None:
    """At every decision kind (and a later position of each), swapping two hidden cards
    between places the seat cannot see leaves its observation and its hint (same seed,
    same deals) exactly as they were."""
    checked = 0
    skip = 1 if name in OH_HELL_GAMES else 0
    for state, obs in decisions(name, seeds=2, per_kind=1, skip=skip):
        other = swapped(state, obs.seat)
        if other is None:
            continue
        assert cards_of(other.hands[obs.seat]) == cards_of(state.hands[obs.seat])
        theirs = other.observe(obs.seat)
        assert theirs == obs
        assert hint(theirs, deals=5, seed=9).choices == hint(obs, deals=5, seed=9).choices
        checked += 1
    assert checked >= 2, f"{name}: only {checked} positions could be swapped"


def test_the_swap_changes_what_a_holder_is_hinted() -> None:
    """The test above can fail: the same kind of swap, seen by a seat holding one of the
    cards, changes its hint."""
    for state, obs in decisions("bluke", seeds=1, per_kind=3):
        if obs.phase != "playing" or state.hand_size < 3:
            continue
        holders = [s for s in range(state.players) if s != obs.seat]
        a = cards_of(state.hands[obs.seat])[0]
        b = cards_of(state.hands[holders[0]])[0]
        other = swapped_replay(state, a, b, hand_start(state) or 0)
        if other is None:
            continue
        theirs = other.observe(obs.seat)
        assert theirs != obs
        assert hint(theirs, deals=5, seed=9).choices != hint(obs, deals=5, seed=9).choices
        return
    pytest.fail("no position to swap a held card")
