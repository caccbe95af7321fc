"""Shared helpers for building hand-made positions in tests."""

from __future__ import annotations

import importlib
import importlib.util
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType

import pytest

from tricktaker import (
    ChanceOutcome,
    GameState,
    HandResult,
    IllegalActionError,
    load_ruleset,
    new_game,
)
from tricktaker.bots import make_bot, play_game
from tricktaker.cards import parse_card
from tricktaker.engine.actions import Action, bid, play

BENCH = Path(__file__).resolve().parents[1] / "bench"
"""The folder of the benchmarks (scripts, not a package)."""


def load_bench(name: str, module_name: str | None = None) -> ModuleType:
    """``bench/NAME.py`` as a module, loaded once and kept in ``sys.modules`` under
    ``module_name`` (default ``bench_NAME``): dataclasses look their module up there,
    and a benchmark that imports a neighbour by name (``import speed_common``) finds it
    when the neighbour was loaded under its own name."""
    key = module_name or f"bench_{name}"
    loaded = sys.modules.get(key)
    if loaded is not None:
        return loaded
    spec = importlib.util.spec_from_file_location(key, BENCH / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    spec.loader.exec_module(module)
    return module


OH_HELL_GAMES = (
    "blackout",
    "bluke",
    "caller_clag",
    "clag",
    "coop_blackout",
    "jabberwocky",
    "kachuful",
    "la_podrida",
    "romanian_whist",
    "seven_truf",
    "up_and_down_the_river",
)
"""The shipped games of the Oh Hell family (docs/games/README.md), in id order."""


def require_module(name: str, install: str) -> ModuleType:
    """Import an optional component's module. Under ``CI=true`` a missing one fails the
    test (CI must run it); elsewhere the test is skipped with the install hint."""
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        if os.environ.get("CI", "").lower() == "true":
            raise ImportError(f"{name} is missing in CI: {install}") from exc
        pytest.skip(f"{name} is not installed: {install}")


def game(
    name: str,
    players: int,
    *,
    options: Mapping[str, object] | None = None,
    seed: int = 0,
    first_dealer: int = 0,
) -> GameState:
    """A new game of a shipped ruleset (or a ruleset file path)."""
    return new_game(
        load_ruleset(name, options=options), players=players, seed=seed, first_dealer=first_dealer
    )


def at_hand(
    name: str,
    players: int,
    number: int,
    *,
    options: Mapping[str, object] | None = None,
    seed: int = 0,
    first_dealer: int = 0,
    dealer: int | None = None,
    hand_size: int | None = None,
) -> GameState:
    """A game at the start of scheduled hand ``number`` (1-based), before its deal;
    checked to be dealt by ``dealer`` with ``hand_size`` cards a seat where they are given.

    Earlier hands are played by random bots, so the scores are whatever they made.
    """
    state = game(name, players, options=options, seed=seed, first_dealer=first_dealer)
    bots = [make_bot("random", seed=s) for s in range(players)]
    while state.hands_played < number - 1:
        play_game(state, bots, until_hand_end=True)
    assert dealer is None or state.dealer == dealer
    assert hand_size is None or state.hand_size == hand_size
    return state


def deal(state: GameState, hands: Sequence[str], turn_up: str | None = None) -> None:
    """Deal the given hands (one string of cards per seat, e.g. ``"AS 10H"``)."""
    order = state.deck_order_for([h.split() for h in hands], turn_up=turn_up)
    state.apply_chance(ChanceOutcome("deal", order))


def make_bids(state: GameState, values: Sequence[int]) -> None:
    """Bid ``values[seat]`` for each seat, in the order the seats are asked."""
    while state.phase_name == "bidding":
        seat = state.to_act()[0]
        state.apply(seat, bid(values[seat]))


def play_cards(state: GameState, cards: Sequence[str]) -> None:
    """Play the cards in turn order (each by the seat whose turn it is)."""
    for card in cards:
        seat = state.to_act()[0]
        state.apply(seat, play(parse_card(card)))


def play_hand(
    state: GameState,
    hands: Sequence[str],
    turn_up: str | None,
    bids: Sequence[int],
    cards: Sequence[str],
) -> HandResult:
    """Deal ``hands``, bid ``bids[seat]`` for each seat, play ``cards`` in turn order and
    return the last finished hand's result."""
    deal(state, hands, turn_up=turn_up)
    make_bids(state, bids)
    play_cards(state, cards)
    return state.history[-1]


def finish_hand(state: GameState) -> None:
    """Finish the hand in progress: chance steps as the game's seed makes them, and each
    seat taking its first legal action."""
    number = state.hand_number
    while state.hand_number == number and not state.is_terminal():
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])


def act(state: GameState, seat: int, text: str) -> None:
    """Apply an action written as text, e.g. ``act(state, 2, "bid 3")``."""
    state.apply(seat, Action.parse(text))


def assert_illegal(
    state: GameState, seat: int, action: Action | str, rule: str
) -> IllegalActionError:
    """The action raises IllegalActionError naming exactly ``rule`` and changes nothing:
    neither the record nor any seat's observation."""
    before = state.record().dumps()
    views = [state.observe(s) for s in range(state.players)]
    with pytest.raises(IllegalActionError) as info:
        state.apply(seat, Action.parse(action) if isinstance(action, str) else action)
    assert info.value.rule == rule, str(info.value)
    assert state.record().dumps() == before
    assert [state.observe(s) for s in range(state.players)] == views
    return info.value


def legal(state: GameState, seat: int) -> list[str]:
    """The legal actions of ``seat``, as text."""
    return [str(a) for a in state.legal_actions(seat)]


def deal_from_eldest(state: GameState, hands: Sequence[str], turn_up: str | None) -> None:
    """Deal ``hands`` listed in playing order: the eldest's first, then clockwise."""
    n = state.players
    per_seat = [""] * n
    for i, cards in enumerate(hands):
        per_seat[(state.eldest + i) % n] = cards
    deal(state, per_seat, turn_up=turn_up)


def seat_at(state: GameState, position: int) -> int:
    """The seat ``position`` places clockwise from the eldest."""
    return (state.eldest + position) % state.players


def five_card_rules(folder: Path) -> Path:
    """House rules written in ``folder``: Blackout with a single hand of five cards."""
    path = folder / "five.toml"
    path.write_text(
        'id = "five"\nextends = "blackout"\n[schedule]\nsizes = "5"\n', encoding="utf-8"
    )
    return path


def python_output(code: str) -> str:
    """The standard output of ``python -c CODE`` in a fresh interpreter (which must
    succeed), without its surrounding white space."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip()
