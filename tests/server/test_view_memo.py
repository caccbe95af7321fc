"""The views sent after each event share what did not change (the seat rows, the panel,
the score sheet, a hand's cards), and are still exactly the views built from scratch.

docs/protocol.md, Views: each seat's view is its own observation with its ``present``
block; the block's scorecard comes only when a hand has ended.
"""

from __future__ import annotations

import json
import random
from types import SimpleNamespace
from typing import Any

import pytest

from tests.present.helpers import step_with_bots
from tricktaker import load_ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.cards import format_card
from tricktaker.engine import Action, ChanceOutcome, GameState, Observation
from tricktaker.present import PresentMemo
from tricktaker.rules import list_rulesets
from tricktaker.server.tables.store import StoredEvent
from tricktaker.server.tables.views import (
    ViewMemo,
    event_present,
    event_views,
    observation_json,
)


def scratch_view(
    obs: Observation,
    names: list[str],
    previous: Observation | None,
    actor: int | None,
    action: Action | None,
) -> dict[str, Any]:
    """A seat's view after an event, built with no memo and no cache of hands."""
    view = observation_json(obs, history=False)
    labels = obs.rules.joker_labels
    hand = [format_card(c, labels=labels) for c in obs.my_cards] if obs.hand is not None else None
    assert view["hand"] == hand
    view["hand"] = hand
    view["present"] = event_present(obs, names, previous, actor, action)  # no memo
    return view


def stored(state: GameState, seq: int, game_number: int) -> StoredEvent:
    """The state's last event, as the server stores it."""
    labels = state.rules.joker_labels
    who, what = state.events[-1]
    if isinstance(what, ChanceOutcome):
        text = " ".join(format_card(c, labels=labels) for c in what.cards)
        return StoredEvent(seq, game_number, what.kind, text, None)
    assert isinstance(who, int)
    assert isinstance(what, Action)
    return StoredEvent(seq, game_number, who, what.text(labels=labels), None)


@pytest.mark.parametrize("game", list_rulesets())
def test_event_views_equal_views_built_from_scratch(game: str) -> None:
    """docs/protocol.md, Views: over two whole games at one table, every seat's view
    after every event is, byte for byte, the view built from its observation alone."""
    rules = load_ruleset(game)
    players = 4 if 4 in rules.player_counts else rules.player_counts[0]
    names = [f"Player {s}" for s in range(players)]
    seats = [SimpleNamespace(seat=s, name=names[s]) for s in range(players)]
    live: Any = SimpleNamespace(
        data=SimpleNamespace(id=f"memo-{game}", seats=seats), views=ViewMemo()
    )
    rng = random.Random(game)
    seq = 0
    events = 0
    for game_number in (1, 2):
        state = new_game(rules, players=players, seed=rng.getrandbits(32))
        bots = [make_bot("random", seed=rng.getrandbits(32)) for _ in range(players)]
        previous: dict[int, Observation | None] = dict.fromkeys(range(players))
        while not state.is_terminal():
            actor, action = step_with_bots(state, bots)
            seq += 1
            e = stored(state, seq, game_number)
            observations = state.observe_all()
            for s, built in enumerate(event_views(live, e, observations)[0]):
                obs = state.observe(s)
                expected = scratch_view(obs, names, previous[s], actor, action)
                assert json.dumps(built) == json.dumps(expected), (game, seq, s)
                previous[s] = obs
            events += 1
    assert events > 20


def test_the_memo_builds_again_when_what_it_reads_changes() -> None:
    """docs/protocol.md, Views: the seat rows follow the turn; the same inputs give the
    very same rows (shared), new ones give new rows."""
    rules = load_ruleset("bluke")
    state = new_game(rules, players=4, seed=5)
    while state.is_chance():
        state.apply_chance()
    memo = PresentMemo()
    names = ["A", "B", "C", "D"]
    first = memo.seat_rows(state.observe(0), names)
    assert memo.seat_rows(state.observe(1), names) is first
    seat = state.to_act()[0]
    state.apply(seat, state.legal_actions(seat)[0])
    after = memo.seat_rows(state.observe(0), names)
    assert after is not first
    assert [r["to_act"] for r in after] != [r["to_act"] for r in first]
