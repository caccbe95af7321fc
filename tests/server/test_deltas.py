"""Protocol 1.1: views sent as changes to the clients that ask (``deltas`` in ``hello``).

docs/protocol.md, Views as changes: each event's view after the first is sent as the
top-level keys that changed (the ``present`` block's changed keys), and the keys gone;
the view a client makes of them is exactly the view a plain event carries.
"""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import httpx
import pytest

from tests.server.conftest import LiveServer
from tests.server.helpers import Player, make_table, start_and_welcome
from tricktaker import load_ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.bots.base import decide
from tricktaker.present import present_json
from tricktaker.rules import list_rulesets
from tricktaker.server.tables.messages import EventDelta
from tricktaker.server.tables.views import apply_delta, observation_json, view_delta


@pytest.mark.parametrize("game", list_rulesets())
def test_changes_rebuild_every_view_of_a_whole_game(game: str) -> None:
    """docs/protocol.md, Views as changes: from a whole view (with ``history``, as in a
    welcome), each next view rebuilt from its changes is that view, and the changes
    hold only what changed."""
    rules = load_ruleset(game)
    players = 4 if 4 in rules.player_counts else rules.player_counts[0]
    state = new_game(rules, players=players, seed=7)
    bots = [make_bot("random", seed=s) for s in range(players)]
    names = [f"P{s}" for s in range(players)]
    held = []
    for s in range(players):
        obs = state.observe(s)
        held.append({**observation_json(obs), "present": present_json(obs, names)})
    sent = 0
    while not state.is_terminal():
        if state.is_chance():
            state.apply_chance()
        else:
            seat = state.to_act()[0]
            state.apply(seat, decide(bots[seat], state, seat))
        for s in range(players):
            obs = state.observe(s)
            view = observation_json(obs, history=False)
            view["present"] = present_json(obs, names, with_scorecard=obs.hand_size == 1)
            changes = view_delta(held[s], view)
            assert changes is not None
            delta, removed = changes
            for key, value in delta.items():
                if key != "present":
                    assert held[s].get(key, object()) != value, key
            assert set(removed) == set(held[s]) - set(view)
            rebuilt = apply_delta(held[s], delta, removed)
            assert rebuilt == view
            sent += len(json.dumps({"delta": delta, "removed": removed}))
            held[s] = rebuilt
    assert sent > 0


def test_the_present_block_changes_key_by_key() -> None:
    """docs/protocol.md, Views as changes: ``present`` carries only its changed keys,
    merged into the block held, and ``seats`` only the changed fields of each changed
    row; a view without a block to merge into goes whole."""
    rows = [{"seat": 0, "to_act": True, "score": 3}, {"seat": 1, "to_act": False, "score": 5}]
    after = [{"seat": 0, "to_act": False, "score": 3}, {"seat": 1, "to_act": True, "score": 5}]
    last: dict[str, Any] = {"phase": "bid", "present": {"narration": [1], "seats": rows}}
    view: dict[str, Any] = {"phase": "bid", "present": {"narration": [], "seats": after}}
    changes = {
        "present": {"narration": [], "seats": {"0": {"to_act": False}, "1": {"to_act": True}}}
    }
    assert view_delta(last, view) == (changes, [])
    assert apply_delta(last, changes, []) == view
    assert last["present"]["narration"] == [1]  # the held view is not changed
    assert last["present"]["seats"][0]["to_act"] is True
    assert view_delta({"phase": "bid"}, view) == ({"present": view["present"]}, [])
    three = {"phase": "bid", "present": {"narration": [], "seats": [*after, after[0]]}}
    assert view_delta(last, three) == ({"present": three["present"]}, [])
    assert view_delta(last, {"phase": "bid", "present": {"narration": []}}) is None
    assert view_delta(last, {"phase": "over"}) is None


def drain(*clients: Player) -> None:
    for p in clients:
        with contextlib.suppress(TimeoutError):
            while True:
                p.receive(timeout=0)


def size(messages: list[dict[str, Any]]) -> int:
    return sum(len(json.dumps(m)) for m in messages if m["type"] == "event")


def test_a_client_of_changes_holds_the_views_a_plain_client_is_sent(
    live_server: LiveServer,
) -> None:
    """docs/protocol.md, Views as changes: a seat and a spectator asking for changes
    hold, after every event of a whole game, the very views that the same seat and a
    plain spectator are sent whole, for much less; a client that resumes with changes
    gets the first missed view whole."""
    http = httpx.Client(base_url=live_server.url, timeout=30)
    table = make_table(http, game="blackout", seats=["human", "random", "random", "random"], seed=4)
    plain = Player(live_server.ws_url, table.id, table.tokens[0])
    changes = Player(live_server.ws_url, table.id, table.tokens[0], deltas=True)
    watcher = Player(live_server.ws_url, table.id, None)
    watcher_changes = Player(live_server.ws_url, table.id, None, deltas=True)
    clients = (plain, changes, watcher, watcher_changes)
    start_and_welcome(http, table, clients)
    rng = random.Random(2)
    for n in range(10_000):
        drain(*clients)
        if changes.view is not None and changes.view["phase"] == "game_over":
            break
        if changes.my_turn():
            answer = changes.act(changes.random_action(rng), f"d{n}")
            assert answer["type"] == "ack", answer
        else:
            changes.receive(timeout=20)
    final = changes.seq
    for p in clients:
        while p.seq < final:
            p.receive(timeout=20)
    assert changes.views
    assert changes.views == plain.views
    assert watcher_changes.views == watcher.views
    for client, whole in ((changes, plain), (watcher_changes, watcher)):
        events = [m for m in client.messages if m["type"] == "event"]
        assert sum("delta" in m for m in events) >= len(events) - 2
        for message in events:
            if "delta" in message:  # the EventDelta schema, field for field
                assert EventDelta.model_validate(message).model_dump() == message
        assert size(client.messages) < 0.6 * size(whole.messages)

    resumed_at = final - 60
    back = Player(live_server.ws_url, table.id, table.tokens[0], resumed_at, resume=True)
    back_changes = Player(
        live_server.ws_url, table.id, table.tokens[0], resumed_at, resume=True, deltas=True
    )
    for p in (back, back_changes):
        assert p.receive()["type"] == "resumed"
        p.view = plain.views[resumed_at]
        replayed = [p.receive() for _ in range(final - resumed_at)]
        assert [m["seq"] for m in replayed] == list(range(resumed_at + 1, final + 1))
    first = back_changes.messages[1]
    assert "view" in first
    assert "delta" not in first
    assert all("delta" in m for m in back_changes.messages[2:])
    assert back_changes.views == back.views
    for p in (*clients, back, back_changes):
        p.close()
