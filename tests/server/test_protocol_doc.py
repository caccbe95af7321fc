"""docs/protocol.md says everything a client receives: its generated parts are up to date,
every field of every view the server builds is named on the page, the table of each
game's action words lists every action kind a game registers, and what the page says of
``seq`` (on ``welcome``, ``event``, ``presence``, ``table`` and ``pong``) and of action
ids being per seat holds against a real server."""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx

from tests.server.conftest import LiveServer
from tests.server.helpers import Player, make_table, start
from tricktaker import list_rulesets, load_ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.engine.actions import action_kinds
from tricktaker.games.declared import action_kinds_of
from tricktaker.present import present_json
from tricktaker.server import protocol_doc
from tricktaker.server.protocol_games import games_markdown
from tricktaker.server.tables.views import observation_json, public_view

PAGE = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def documented_names() -> set[str]:
    """Every name written as code on the page before its generated message schemas
    (whose property names are the messages', not the views')."""
    text = PAGE.read_text(encoding="utf-8").split("## Message schemas", 1)[0]
    names: set[str] = set()
    prose = text.split("```")[::2]  # the code blocks between fences are examples
    for span in re.findall(r"`([^`]+)`", "\n".join(prose)):
        names.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", span))
    return names


def keys_of(value: Any, path: str) -> Iterator[tuple[str, str]]:
    """Every key of ``value`` at any depth, with where it was found; the keys of a
    changed seat row (``"3"``) are seat numbers, not names."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if not key.isdigit():
                yield key, path
            yield from keys_of(inner, f"{path}.{key}")
    elif isinstance(value, list):
        for inner in value:
            yield from keys_of(inner, f"{path}[]")


def views_of_a_game(game: str, seed: int) -> Iterator[dict[str, Any]]:
    """Views as the server builds them (tables/views.py: the observation's JSON and its
    present block, narrated from the seat's last view; and the spectators' view) along a
    whole game of random bots, every few steps."""
    rules = load_ruleset(game)
    players = 4 if 4 in rules.player_counts else rules.player_counts[0]
    state = new_game(rules, players=players, seed=seed)
    bots = [make_bot("random", seed=seed + s) for s in range(players)]
    names = [f"Seat {s + 1}" for s in range(players)]
    last: list[Any] = [None] * players
    step = 0
    while not state.is_terminal():
        hands = state.hands_played
        if state.is_chance():
            state.apply_chance()
        else:
            seat = state.to_act()[0]
            state.apply(seat, bots[seat].act(state.observe(seat)))
        step += 1
        # Every few steps of the first two hands, the ends of the first three, and the
        # game's end (the views' keys are the same in later hands).
        early = hands < 2 and step % 3 == 0
        ended = state.hands_played != hands and hands < 3
        if not (early or ended or state.is_terminal()):
            continue
        views = []
        for seat in range(players):
            observation = state.observe(seat)
            view = observation_json(observation)
            view["present"] = present_json(observation, names, last[seat])
            last[seat] = observation
            views.append(view)
        yield from views
        yield public_view(views)


def test_the_generated_parts_of_the_page_are_up_to_date() -> None:
    """``python -m tricktaker.server.protocol_doc --check``: the message schemas and
    the table of each game's action words and own view fields match the code."""
    assert protocol_doc.main(["--check", str(PAGE)]) == 0
    page = PAGE.read_text(encoding="utf-8")
    assert games_markdown() in page
    for game in list_rulesets():
        assert f"| `{game}` |" in page


def test_every_action_kind_a_game_registers_is_in_the_table() -> None:
    """Every action kind the shipped games register (and the engine's own) has its row
    in the generated table: a game that adds an action kind changes the page."""
    table = games_markdown()
    shipped = action_kinds_of("tricktaker")
    assert shipped, "no game registered an action kind"
    for kind in {*shipped, "bid", "play", "play_pile"}:
        assert kind in action_kinds()
        assert f"`{kind}`" in table, kind


def test_every_view_field_the_server_sends_is_on_the_page() -> None:
    """Every key of every view the server builds (the observation, its ``extra``, its
    ``present`` block, finished hands; seats' and spectators' views) in a whole game of
    each shipped game is named on the page. A key the server starts sending without the
    page naming it fails here.

    Checked to fail: with the six fields the page once left out (``known``,
    ``status_text``, ``dealer_name``, ``reason``, ``forbidden``, ``bids_so_far``) taken
    out of the names it writes, all six were reported, each with where it is sent."""
    documented = documented_names()
    missing: dict[str, str] = {}
    for game in list_rulesets():
        for view in views_of_a_game(game, seed=3):
            for key, path in keys_of(view, game):
                if key not in documented:
                    missing.setdefault(key, path)
    assert not missing, f"view fields docs/protocol.md does not name: {missing}"


def test_seq_on_each_message_is_as_the_page_says(live_server: LiveServer) -> None:
    """docs/protocol.md, Sequence numbers: the deal is stored when the game starts and
    is in the welcome (seq 1), so the first event is seq 2 and the events run on
    without a gap; ``presence``, ``table`` and ``pong`` carry the last event's number
    and take none of their own; action ids are per seat."""
    http = httpx.Client(base_url=live_server.url, timeout=30)
    table = make_table(http, game="blackout", players=3, seats=["human", "human", "random"], seed=5)
    first = Player(live_server.ws_url, table.id, table.tokens[0])
    assert first.messages[-1]["seq"] == 0  # nothing stored before the game starts
    first.send({"type": "ping"})
    assert first.until("pong")["seq"] == 0
    start(http, table)
    changed = first.until("table")
    welcome = first.until("welcome")
    assert changed["seq"] == welcome["seq"] == 1
    assert welcome["view"]["hand"]  # the deal (event 1) is in the welcome's view
    second = Player(live_server.ws_url, table.id, table.tokens[1])
    presence = first.until("presence")
    assert presence["seat"] == 1
    assert presence["state"] == "connected"
    rng = random.Random(5)
    seqs: list[int] = []
    counters = {0: 0, 1: 0}
    acks: list[int] = []
    while first.view is not None and first.view["phase"] != "game_over" and len(seqs) < 20:
        acted = False
        for player in (first, second):
            if player.my_turn():
                assert player.seat is not None
                counters[player.seat] += 1
                # Both seats count their ids from 1: an id is the seat's own.
                answer = player.act(player.random_action(rng), f"a{counters[player.seat]}")
                assert answer["type"] == "ack", answer
                acks.append(answer["seq"])
                acted = True
        if not acted:  # a bot's turn, or a view not yet read: read what has come
            for player in (first, second):
                with contextlib.suppress(TimeoutError):
                    player.receive(timeout=0.2)
        seqs = [m["seq"] for m in first.messages if m["type"] == "event"]
    assert seqs[0] == 2
    # Each action was applied as a new event, whichever seat sent an id the other used.
    assert counters[0]
    assert counters[1]
    assert len(set(acks)) == len(acks)
    assert seqs == list(range(2, 2 + len(seqs)))
    first.send({"type": "ping"})
    pong = first.until("pong")
    events = [m["seq"] for m in first.messages if m["type"] == "event"]
    assert pong["seq"] == events[-1]  # the last event stored; the pong takes no number
    first.close()
    second.close()
    http.close()
