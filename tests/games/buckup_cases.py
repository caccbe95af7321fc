"""The hand-built Buckup cases of tests/games/test_buckup.py and test_buckup_pot.py: a
new game, its data and view, antes, draws and stays, and the check that an illegal action
changes nothing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from tests.helpers import act, deal, game
from tricktaker import (
    ChanceOutcome,
    GameState,
    IllegalActionError,
)
from tricktaker.cards import parse_card
from tricktaker.engine.actions import Action
from tricktaker.games.buckup.hooks import BuckupData

START = 500

# Case hands (seat 0 deals; trump spades by the turn-up 2S unless said otherwise).
TOP_TRUMPS = "AH KH QH JH 10H"
"""Five top hearts: with hearts trump, every trick."""
FILLER = ["2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D", "7C 8C 9C 10C JC", "7D 8D 9D 10D JD"]


# ---------------------------------------------------------------------- helpers


def new(
    players: int = 4,
    *,
    options: Mapping[str, object] | None = None,
    seed: int = 0,
    dealer: int = 0,
) -> GameState:
    return game("buckup", players, options=options, seed=seed, first_dealer=dealer)


def data(state: GameState) -> BuckupData:
    assert isinstance(state.ext, BuckupData)
    return state.ext


def view(state: GameState, seat: int = 0) -> Mapping[str, Any]:
    return state.observe(seat).extra


def conserved(state: GameState) -> bool:
    d = data(state)
    return sum(d.stacks) + d.pot == START * state.players


def start(state: GameState, hands: Sequence[str], turn_up: str, ante: str = "kept") -> None:
    """The dealer sets the ante, then the given hands are dealt."""
    act(state, state.dealer, f"ante {ante}")
    deal(state, hands, turn_up=turn_up)


def draw(state: GameState, seat: int, discards: str = "", drawn: str | None = None) -> None:
    """After ``stay`` / ``come_back``: discard, say draw, and resolve the draw."""
    for card in discards.split():
        act(state, seat, f"discard {card}")
    act(state, seat, "draw")
    if drawn is not None:
        cards = tuple(parse_card(c) for c in drawn.split())
        state.apply_chance(ChanceOutcome("draw", cards))
    while state.is_chance() and state.phase_name in ("draw", "restock"):
        state.apply_chance()


def stay(state: GameState, seat: int, discards: str = "", drawn: str | None = None) -> None:
    act(state, seat, "stay")
    draw(state, seat, discards, drawn)


def payments(state: GameState, reason: str) -> list[tuple[int, int]]:
    return [(p.seat, p.amount) for p in data(state).ledger.payments if p.reason == reason]


def last_extra(state: GameState) -> dict[str, object]:
    return state.history[-1].extra


def assert_illegal(state: GameState, seat: int, text: str, rule: str) -> None:
    """The action raises IllegalActionError naming ``rule`` and changes nothing."""
    before = state.record().dumps()
    views = [state.observe(s) for s in range(state.players)]
    with pytest.raises(IllegalActionError) as info:
        state.apply(seat, Action.parse(text))
    assert info.value.rule == rule, str(info.value)
    assert state.record().dumps() == before
    assert [state.observe(s) for s in range(state.players)] == views


LOW = "2C 3D 4H 5S 5C"
"""A low hand: no card above a five."""


def four_hands() -> list[str]:
    """Four hands of a suit's top five each (spades, hearts, clubs, diamonds)."""
    return ["AS KS QS JS 10S", "AH KH QH JH 10H", "AC KC QC JC 10C", "AD KD QD JD 10D"]
