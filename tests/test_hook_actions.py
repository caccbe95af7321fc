"""A hook phase's legal actions, listed once per position: an action of the list is
applied without listing them again, and anything else still gets the full check."""

from __future__ import annotations

import pytest

from tricktaker import GameState, load_ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.engine.actions import Action
from tricktaker.engine.errors import IllegalActionError


def reach(phase: str, seed: int = 3) -> GameState:
    """A four-seat game of Euchre played by the heuristic bot up to ``phase``."""
    state = new_game(load_ruleset("euchre"), players=4, seed=seed)
    bot = make_bot("heuristic", seed=seed)
    for _ in range(200):
        if state.phase_name == phase:
            return state
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        state.apply(seat, bot.act(state.observe(seat)))
    raise AssertionError(f"no {phase} reached")


def unlisted(state: GameState) -> GameState:
    """A copy of ``state`` that has worked out nothing yet (its lists forgotten)."""
    copy = state.clone()
    copy.replace_cards()
    return copy


def outside(state: GameState) -> tuple[object, ...]:
    """What the outside can see of a state: its record and every observation."""
    return state.record().dumps(), tuple(state.observe(s) for s in range(state.players))


@pytest.mark.parametrize("phase", ["auction", "discard"])
def test_a_listed_action_is_applied_as_a_checked_one(phase: str) -> None:
    state = reach(phase)
    seat = state.to_act()[0]
    for action in state.legal_actions(seat):
        listed, checked = state.clone(), unlisted(state)
        listed.apply(seat, action)  # the very object its list holds
        checked.apply(seat, Action(action.kind, action.value))  # an equal one, unlisted
        assert outside(listed) == outside(checked)


def test_an_illegal_action_is_refused_after_the_list() -> None:
    state = reach("discard")
    seat = state.to_act()[0]
    listed = state.legal_actions(seat)
    held = {action.value for action in listed}
    other = next(card for card in range(52) if card not in held)
    before = outside(state)
    for action in (Action("discard", other), Action("pass"), Action("discard", "AS")):
        with pytest.raises(IllegalActionError) as info:
            state.apply(seat, action)
        assert info.value.rule
        assert info.value.reason
        assert outside(state) == before
    with pytest.raises(IllegalActionError):
        state.apply((seat + 1) % 4, listed[0])  # listed for another seat
    assert outside(state) == before
    assert state.legal_actions(seat) == listed


def test_the_returned_list_is_the_callers_own() -> None:
    state = reach("auction")
    seat = state.to_act()[0]
    listed = state.legal_actions(seat)
    first = list(listed)
    listed.clear()
    listed.append(Action("discard", 0))
    assert state.legal_actions(seat) == first
    with pytest.raises(IllegalActionError):
        state.apply(seat, Action("discard", 0))


def test_a_moved_position_lists_its_actions_again() -> None:
    state = reach("discard")
    seat = state.to_act()[0]
    listed = state.legal_actions(seat)
    copy = state.clone()  # a clone keeps the list: it is the same position
    gone = listed[0]
    copy.replace_cards(hands={seat: copy.hands[seat] & ~(1 << int(gone.value))})
    assert gone not in copy.legal_actions(seat)
    with pytest.raises(IllegalActionError):
        copy.apply(seat, gone)
    state.apply(seat, gone)  # the original is not changed by its clone's moves
    assert gone not in state.legal_actions(seat)
