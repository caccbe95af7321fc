"""What sockets receive: a seat's view is its own observation; spectators see only what
every seat sees.

docs/protocol.md, Views: the spectator's view is the part that every seat's view shows
alike; cards are written ``AS``, ``10H``.
"""

from __future__ import annotations

import json
import random
import re

import httpx
import pytest

from tests.present.helpers import step_with_bots
from tests.server.conftest import LiveServer
from tests.server.helpers import Player, make_table
from tests.server.test_live_play import play_out
from tricktaker import load_ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.present import present_json
from tricktaker.rules import list_rulesets
from tricktaker.server.tables.views import common, observation_json, public_view, seat_views

CARD = re.compile(r'"((?:10|[2-9JQKA])[SHDC]|HB|LB)"')


def cards_in(data: object) -> set[str]:
    """Every card written anywhere in ``data``."""
    return set(CARD.findall(json.dumps(data)))


def test_common_keeps_only_what_all_share() -> None:
    """docs/protocol.md, Views: a value any two seats see differently is None."""
    assert common([{"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 3]}]) == {"a": 1, "b": [1, None]}
    assert common([[1, 2], [1]]) is None
    assert common([{"a": 1, "k": "AS"}, {"a": 1}]) == {"a": 1}


@pytest.mark.parametrize("game", list_rulesets())
def test_the_public_view_shows_no_card_some_seat_does_not_see(game: str) -> None:
    """docs/protocol.md, Views: at every step of a whole game, every card in the
    spectators' view is in every seat's view, and a seat's view is its observation."""
    rules = load_ruleset(game)
    players = 4 if 4 in rules.player_counts else rules.player_counts[0]
    state = new_game(rules, players=players, seed=3)
    bots = [make_bot("random", seed=s) for s in range(players)]
    steps = 0
    while not state.is_terminal() and steps < 400:
        steps += 1
        step_with_bots(state, bots)
        views = seat_views(state)
        for seat, view in enumerate(views):
            assert view == observation_json(state.observe(seat))
            assert view["seat"] == seat
        public = public_view(views)
        assert public["hand"] is None
        assert public["legal_actions"] == []
        shown = cards_in(public)
        for view in views:
            assert shown <= cards_in(view), shown - cards_in(view)


PRETTY = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])")


def cards_shown(data: object) -> set[str]:
    """Every card in ``data``, written ``AS`` or ``A♠`` (both counted as ``AS``)."""
    text = json.dumps(data, ensure_ascii=False)
    letters = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
    return cards_in(data) | {rank + letters[suit] for rank, suit in PRETTY.findall(text)}


@pytest.mark.parametrize("game", list_rulesets())
def test_the_present_blocks_show_no_card_the_receiver_may_not_see(game: str) -> None:
    """docs/protocol.md, Views: a seat's ``present`` block names only cards its own view
    shows (or showed the step before: a card it just gave away), and the spectators'
    block only cards every seat's block names alike."""
    rules = load_ruleset(game)
    players = 4 if 4 in rules.player_counts else rules.player_counts[0]
    state = new_game(rules, players=players, seed=5)
    bots = [make_bot("random", seed=s) for s in range(players)]
    names = [f"P{s}" for s in range(players)]
    before = [state.observe(s) for s in range(players)]
    steps = 0
    while not state.is_terminal() and steps < 300:
        steps += 1
        actor, action = step_with_bots(state, bots)
        views = []
        for seat in range(players):
            obs = state.observe(seat)
            view = observation_json(obs)
            view["present"] = present_json(obs, names, before[seat], actor=actor, action=action)
            known = cards_in(view) | cards_in(observation_json(before[seat]))
            assert cards_shown(view["present"]) <= known, cards_shown(view["present"]) - known
            views.append(view)
            before[seat] = obs
        public = public_view(views)
        shown = cards_shown(public["present"])
        for view in views:
            assert shown <= cards_shown(view["present"])
        for line in public["present"]["narration"]:
            assert line["text"] == line["public"]


def test_the_server_sends_present_blocks_to_seats_and_spectators(live_server: LiveServer) -> None:
    """docs/protocol.md, Views, The present block: a welcome carries the scorecard, and at
    a game's start the narration of its first deal (else none); each event the narration
    of that event, and the event that ends a hand the whole scorecard again; a
    spectator's lines are in their public form, so a pluck's card never reaches it."""
    http = httpx.Client(base_url=live_server.url, timeout=30)
    table = make_table(
        http, game="pluck", options={"hands": 2}, seats=["human", "random", "random"], seed=4
    )
    person = Player(live_server.ws_url, table.id, table.tokens[0])
    watcher = Player(live_server.ws_url, table.id, None)
    assert http.post(f"/tables/{table.id}/start", headers=table.host()).status_code == 204
    for client in (person, watcher):
        welcome = client.until("welcome")
        opening = welcome["view"]["present"]["narration"]
        assert {line["kind"] for line in opening} <= {"dealt", "trump"}
        assert any(line["kind"] == "dealt" for line in opening)
        assert welcome["view"]["present"]["scorecard"]["rows"] == []
    play_out([person], random.Random(1))
    events = [m for m in person.messages if m["type"] == "event"]
    told = [line["text"] for m in events for line in m["view"]["present"]["narration"]]
    assert any(" wins the trick (" in line for line in told)
    assert "Hand 1 is over." in told
    ends = [m for m in events if m["hand_result"] is not None]
    assert [len(m["view"]["present"]["scorecard"]["rows"]) for m in ends] == [1, 2]
    # after the first event (a gap: there is no earlier view to narrate from) only the
    # events that end a hand carry the scorecard
    assert all(m["view"]["present"]["scorecard"] is None for m in events[1:] if m not in ends)
    final = ends[-1]["view"]
    assert final["present"]["scorecard"]["totals"] == final["scores"]
    while watcher.view is None or watcher.view["phase"] != "game_over":
        watcher.receive()
    watched = [m for m in watcher.messages if m["type"] == "event"]
    watcher.close()
    person.close()
    lines = [line for m in watched for line in m["view"]["present"]["narration"]]
    assert lines
    assert all(line["text"] == line["public"] for line in lines)
    plucks = [line["text"] for line in lines if " plucks " in line["text"]]
    assert plucks
    assert all(text.endswith("giving a card face down.") for text in plucks)
