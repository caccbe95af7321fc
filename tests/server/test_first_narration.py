"""The first action of a game is narrated to the sockets that watched it start.

docs/protocol.md, Events: each event's view carries the narration since the view the
receiver held, for the first event of a game too (its welcome held the deal). Issue 26:
the browser's play-by-play always missed the first action of a game.
"""

from __future__ import annotations

import httpx

from tests.server.conftest import LiveServer
from tests.server.helpers import Player, make_table


def test_the_first_action_of_a_game_is_narrated_to_every_socket(
    live_server: LiveServer, http: httpx.Client
) -> None:
    table = make_table(http, game="blackout", seats=["human", "human"], host_seat=0, seed=4)
    people = [Player(live_server.ws_url, table.id, table.tokens[s]) for s in (0, 1)]
    watcher = Player(live_server.ws_url, table.id, None)
    assert http.post(f"/tables/{table.id}/start", headers=table.host()).status_code == 204
    for p in [*people, watcher]:
        p.until("welcome")
    mover = next(p for p in people if p.my_turn())
    action = mover.view["legal_actions"][0] if mover.view else ""
    assert mover.act(action, "first")["type"] == "ack"
    for p in [*people, watcher]:
        told = [m for m in p.messages if m["type"] == "event"]
        event = told[0] if told else p.until("event")
        narration = event["view"]["present"]["narration"]
        assert narration, (p.seat, event["view"]["present"])
        assert any(line.get("seat") == mover.seat for line in narration), narration
    for p in [*people, watcher]:
        p.close()


def test_the_welcome_at_a_games_start_tells_the_first_hands_opening(
    live_server: LiveServer, http: httpx.Client
) -> None:
    """docs/protocol.md, the present block: a welcome sent as a game starts narrates the
    first hand's deal and trump (the play by play begins with them; the heading shows
    the hand), to
    the players and to a spectator alike; the narration names no card a seat may not see."""
    table = make_table(http, game="blackout", seats=["human", "human"], host_seat=0, seed=4)
    people = [Player(live_server.ws_url, table.id, table.tokens[s]) for s in (0, 1)]
    watcher = Player(live_server.ws_url, table.id, None)  # each read the table's welcome
    assert http.post(f"/tables/{table.id}/start", headers=table.host()).status_code == 204
    for p in [*people, watcher]:
        welcome = p.until("welcome")
        lines = welcome["view"]["present"]["narration"]
        kinds = [line["kind"] for line in lines]
        assert "dealt" in kinds, lines
        assert any(line["kind"] == "trump" and "Trump" in line["text"] for line in lines), lines
    for p in [*people, watcher]:
        p.close()
