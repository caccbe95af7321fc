"""The compiled kernel's binding: the typed objects of ``tricktaker.kernel.spec`` match
the fields the compiled module reads, its limits agree with the engine's, and malformed
inputs raise a Python exception (``tests/kernel/test_malformed_inputs.py`` throws many
more at every entry point under the sanitizers)."""

from __future__ import annotations

import dataclasses
from typing import Any, cast

import pytest

from tests.helpers import at_hand
from tricktaker.cards import NUM_CARD_IDS
from tricktaker.engine import tables
from tricktaker.engine.state import GameState
from tricktaker.kernel import (
    KernelUnsupportedError,
    config_of_state,
    kernel_state,
    limits,
    native,
    state_rules,
)
from tricktaker.kernel.spec import field_tables


def playing() -> GameState:
    """A Blackout hand in its card play, one card into the first trick."""
    state = at_hand("blackout", 4, 5, first_dealer=0)
    while state.is_chance():
        state.apply_chance()
    while state.phase_name != "playing":
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    seat = state.to_act()[0]
    state.apply(seat, state.legal_actions(seat)[0])
    return state


def test_the_typed_objects_have_the_fields_the_kernel_reads() -> None:
    for name, (ours, compiled) in field_tables().items():
        assert ours == compiled, name


def test_the_kernels_limits_agree_with_the_engine() -> None:
    known = limits()
    assert known.cards == NUM_CARD_IDS
    assert known.free_suit == tables.FREE
    assert known.suit_classes == tables.FREE + 1
    assert known.bid_base >= known.cards  # a move code is a card or a bid, never both
    assert known.bid_base + known.max_hand_size < 2**15
    assert known.max_outcome_tricks == 2**known.outcome_bits - 1
    assert known.max_players * known.outcome_bits <= 64  # an outcome key fits 64 bits
    assert len({known.phase_bidding, known.phase_playing, known.phase_over}) == 3
    state = playing()
    assert kernel_state(state).phase == known.phase_playing
    config = state_rules(state)
    assert len(config.suit_of) == known.cards
    assert len(config.key) == known.cards * known.suit_classes


def test_the_former_names_still_answer() -> None:
    import tricktaker.kernel
    from tricktaker.kernel import convert

    known = limits()
    assert known.bid_base == tricktaker.kernel.BID_BASE
    assert known.phase_playing == convert.PHASE_PLAYING
    with pytest.raises(AttributeError):
        _ = convert.NO_SUCH_LIMIT


@pytest.mark.parametrize(
    "trick",
    [((1,),), ((1, 2, 3),), ((99, 3),), ((0, 54),), ((0, -1),), (("a", 3),), (None,), 7, "ab"],
)
def test_a_malformed_trick_raises_instead_of_aborting(trick: Any) -> None:
    """The trick list that aborted the interpreter (std::out_of_range) now raises."""
    state = playing()
    bad = dataclasses.replace(kernel_state(state), trick=trick)
    config = config_of_state(state)
    with pytest.raises((TypeError, ValueError)):
        native().replay(config, bad, [])
    with pytest.raises((TypeError, ValueError)):
        native().playouts(config, bad, 1, 3, True, 0.0, -1)
    with pytest.raises((TypeError, ValueError)):
        native().estimate(config, bad, 0)


def test_a_state_that_contradicts_itself_raises() -> None:
    state = playing()
    good = kernel_state(state)
    config = config_of_state(state)
    n = state.players
    cases = [
        (dataclasses.replace(good, tricks=(1,) * n), "tricks add up to the tricks done"),
        (dataclasses.replace(good, to_play=n), r"state\.to_play must be in 0\.\.3"),
        (dataclasses.replace(good, trick=(good.trick[0],) * 2), "a card twice in the trick"),
        (dataclasses.replace(good, hands=(1 << 60,) * n), "holds bits outside its range"),
        (dataclasses.replace(good, bids=(99,) * n), r"state\.bids\[0\] must be in -1\.\.5"),
        (dataclasses.replace(good, bids=good.bids[:-1]), "state.bids needs 4 entries, not 3"),
    ]
    for bad, message in cases:
        with pytest.raises(ValueError, match=message):
            native().replay(config, bad, [])
    # Hands emptied: the seat to play has no card, which the rollouts notice.
    empty = dataclasses.replace(good, hands=(0,) * n)
    with pytest.raises(ValueError, match="no legal move"):
        native().playouts(config, empty, 1, 3, True, 0.0, -1)


def test_a_wrong_object_names_the_missing_field() -> None:
    state = playing()
    config = config_of_state(state)
    with pytest.raises(TypeError, match="state has no field hands"):
        native().replay(config, {"hands": []}, [])
    with pytest.raises(TypeError, match="expected a kernel config"):
        native().replay(kernel_state(state), kernel_state(state), [])
    with pytest.raises(TypeError, match=r"state\.hands must be a list or tuple, not str"):
        native().estimate(
            config, dataclasses.replace(kernel_state(state), hands=cast(Any, "abcd")), 0
        )


def test_a_config_the_kernel_does_not_play_is_refused_with_a_reason() -> None:
    rules = state_rules(playing())
    with pytest.raises(KernelUnsupportedError, match="seats"):
        dataclasses.replace(rules, players=40).build()
    with pytest.raises(ValueError, match=r"config\.suit_of needs 54 entries"):
        dataclasses.replace(rules, suit_of=rules.suit_of[:10]).build()
    with pytest.raises(ValueError, match=r"config\.score\[0\] must be in"):
        dataclasses.replace(rules, score=(2**40, *rules.score[1:])).build()


def test_a_hand_whose_scores_pass_the_kernels_range_is_left_to_the_python_search() -> None:
    """A Buckup pot can grow past what the kernel's scores hold (a 32-bit int): the result
    table refuses such a hand with KernelUnsupportedError, which the search bots catch
    to search the hand in Python, instead of the binding's ValueError ending the game."""
    from tricktaker.kernel.results import _check_scores
    from tricktaker.kernel.spec import KernelUnsupportedError, limits

    most = limits().score_limit
    _check_scores([most, -most, 0])
    with pytest.raises(KernelUnsupportedError, match="beyond the kernel's range"):
        _check_scores([0, most + 1])
    with pytest.raises(KernelUnsupportedError):
        _check_scores([-(2**63)])
