"""Whole games over real WebSockets against a real uvicorn server on 127.0.0.1.

docs/protocol.md, Live play: the WebSocket: every event carries the table's seq; a
repeated action id is applied once and answered the same; a reconnecting client gets a
fresh snapshot; refused messages change nothing and name the rule.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.conftest import LiveServer
from tests.server.helpers import Player, make_table, replay_saved, start, start_and_welcome
from tricktaker.engine import GameRecord


def play_out(players: list[Player], rng: random.Random, *, limit: float = 120.0) -> None:
    """Play random legal moves for the humans until the game is over."""
    counter = 0
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if all(p.view is not None and p.view["phase"] == "game_over" for p in players):
            return
        busy = False
        for p in players:
            if p.my_turn():
                counter += 1
                try:
                    answer = p.act(p.random_action(rng), f"{p.seat}-{counter}")
                except TimeoutError:
                    raise AssertionError(str(p.messages[-3:])[-3000:]) from None
                assert answer["type"] == "ack", answer
                busy = True
            with contextlib.suppress(TimeoutError):
                while True:
                    p.receive(timeout=0)
                    busy = True
        if not busy:
            time.sleep(0.002)
    raise AssertionError("the game did not finish")


def test_two_people_and_two_bots_play_a_whole_game(
    live_server: LiveServer, http: httpx.Client, tmp_path: Path
) -> None:
    """docs/protocol.md, Live play: a game with people and bots to the end; the record
    downloaded equals the game and ``tricktaker replay`` replays it."""
    table = make_table(
        http, game="blackout", seats=["human", "random", "human", "easy"], host_seat=0, seed=11
    )
    players = [Player(live_server.ws_url, table.id, table.tokens[s]) for s in (0, 2)]
    watcher = Player(live_server.ws_url, table.id, None)
    start_and_welcome(http, table, [*players, watcher])
    play_out(players, random.Random(3))
    for p in players:
        p.close()
    # Every event reached the spectator in order, each seq once.
    watcher_events = []
    while True:
        try:
            message = watcher.receive(timeout=2)
        except TimeoutError:
            break
        watcher_events.append(message)
    seqs = [m["seq"] for m in watcher.messages if m["type"] == "event"]
    assert seqs == list(range(seqs[0], seqs[-1] + 1))
    assert all(m["view"]["hand"] is None for m in watcher.messages if m["type"] == "event")
    assert all(m["action"] is None for m in watcher.messages if m["type"] == "event")
    watcher.close()

    answer = http.get(f"/tables/{table.id}/record")
    assert answer.status_code == 200, answer.text
    record = GameRecord.from_json(answer.json())
    final = record.replay()
    assert final.is_terminal()
    assert record.finished
    assert record.final_scores == final.scores
    assert record.names == ["Seat 1", "Ben", "P2", "Dot"]
    assert final.record(names=record.names).to_json() == answer.json()
    assert len(record.events) == seqs[-1]
    replay_saved(answer.json(), tmp_path / "game.json")
    assert http.get(f"/tables/{table.id}").json()["status"] == "finished"


def test_a_repeated_action_id_is_applied_once(live_server: LiveServer, http: httpx.Client) -> None:
    """docs/protocol.md, Live play: sending the same id again applies it once and
    answers the same."""
    table = make_table(http, game="blackout", seats=["human"] * 4, seed=5)
    players = {s: Player(live_server.ws_url, table.id, t) for s, t in table.tokens.items()}
    start_and_welcome(http, table, players.values())
    p = next(p for p in players.values() if p.my_turn())
    action = p.random_action(random.Random(1))
    first = p.act(action, "same-id")
    second = p.act(action, "same-id")
    assert first == second
    assert first["type"] == "ack"
    events = [m for m in p.messages if m["type"] == "event" and m["actor"] == p.seat]
    assert len(events) == 1
    assert events[0]["action"] == action
    # Another seat sees the effect, never the action's text.
    other = next(q for q in players.values() if q is not p)
    seen = other.until("event")
    assert seen["actor"] == p.seat
    assert seen["action"] is None


def test_out_of_turn_and_illegal_actions_name_the_rule_and_change_nothing(
    live_server: LiveServer, http: httpx.Client
) -> None:
    """docs/protocol.md, Live play: a refused action is answered by an error naming
    the rule, and the table's seq does not move."""
    table = make_table(http, game="blackout", seats=["human"] * 4, seed=5)
    players = {s: Player(live_server.ws_url, table.id, t) for s, t in table.tokens.items()}
    start_and_welcome(http, table, players.values())
    waiting = next(p for p in players.values() if not p.my_turn())
    seq = waiting.seq
    refused = waiting.act("bid 0", "x1")
    assert refused["type"] == "error"
    assert refused["code"] == "illegal"
    assert refused["rule"] == "turn order"
    mover = next(p for p in players.values() if p.my_turn())
    wrong = mover.act("bid 99", "x2")
    assert wrong["type"] == "error"
    assert wrong["rule"]
    garbled = mover.act("dance", "x3")
    assert garbled["type"] == "error"
    assert garbled["rule"] == "actions"
    mover.send({"type": "ping"})
    assert mover.until("pong")["seq"] == seq
    assert http.get(f"/tables/{table.id}").json()["seq"] == seq


def test_bad_messages_get_errors(live_server: LiveServer, http: httpx.Client) -> None:
    """docs/protocol.md, Live play: malformed JSON, an unknown type, a message over the
    size limit and a missing hello are answered by errors; the socket stays usable."""
    table = make_table(http, game="blackout", seats=["human", "random", "random", "random"])
    p = Player(live_server.ws_url, table.id, table.tokens[0])
    p.socket.send("{not json")
    assert p.until("error")["code"] == "bad_message"
    p.send({"type": "shout"})
    assert p.until("error")["code"] == "bad_message"
    p.socket.send(json.dumps({"type": "chat", "text": "x" * 20_000}))
    assert p.until("error")["code"] == "too_large"
    p.send({"type": "chat", "text": "<b>hi</b>"})
    chat = p.until("chat")
    assert chat["line"]["text"] == "<b>hi</b>"
    assert chat["line"]["name"] == "P0"
    for _ in range(300):
        p.send({"type": "ping"})
    answers = [p.receive()["type"] for _ in range(300)]
    assert "error" in answers
    assert p.messages[-1]["type"] in ("pong", "error")
    assert any(m.get("code") == "rate_limited" for m in p.messages)
    stranger = Player(live_server.ws_url, table.id, None, hello=False)
    stranger.send({"type": "action", "id": "1", "action": "bid 0"})
    assert stranger.until("error")["code"] == "unauthorized"
    stranger.send({"type": "hello", "v": 1, "token": "not-a-token"})
    assert stranger.until("error")["code"] == "unauthorized"


def test_reconnect_gets_a_fresh_snapshot_and_the_same_seat(
    live_server: LiveServer, http: httpx.Client
) -> None:
    """docs/protocol.md, Live play: a client that comes back with its token and last
    seq gets its seat and a snapshot at the current seq."""
    table = make_table(http, game="blackout", seats=["human", "random", "random", "random"])
    p = Player(live_server.ws_url, table.id, table.tokens[0])
    start(http, table)
    p.until("welcome")
    rng = random.Random(2)
    for n in range(3):
        while not p.my_turn():
            p.receive()
        assert p.act(p.random_action(rng), f"a{n}")["type"] == "ack"
    while not p.my_turn():  # the bots wait for seat 0 now: the seq stays put
        p.receive()
    last = p.seq
    p.close()
    back = Player(live_server.ws_url, table.id, table.tokens[0], last_seq=last)
    assert back.seat == 0
    assert back.seq >= last
    assert back.view is not None
    assert back.view["seat"] == 0
    assert back.view["hand"] is not None
    assert back.seq == http.get(f"/tables/{table.id}").json()["seq"]


def test_a_person_gone_past_the_grace_period_is_played_by_a_bot(
    live_server: LiveServer, http: httpx.Client
) -> None:
    """docs/protocol.md, Live play: after the grace period a bot plays the seat, and
    everyone sees that it does, until the person comes back."""
    table = make_table(
        http, game="blackout", seats=["human", "human", "random", "random"], grace_seconds=0.2
    )
    stays = Player(live_server.ws_url, table.id, table.tokens[0])
    goes = Player(live_server.ws_url, table.id, table.tokens[1])
    start(http, table)
    stays.until("welcome")
    goes.close()
    while True:
        message = stays.receive()
        if (
            message["type"] == "presence"
            and message["seat"] == 1
            and message["state"] == "replaced"
        ):
            break
    # The bot plays seat 1: events by seat 1 arrive without the person.
    rng = random.Random(0)
    while not any(m["type"] == "event" and m["actor"] == 1 for m in stays.messages):
        if stays.my_turn():
            assert stays.act(stays.random_action(rng), f"s{stays.seq}")["type"] == "ack"
        else:
            stays.receive()
    back = Player(live_server.ws_url, table.id, table.tokens[1])
    assert back.seat == 1
    while True:
        message = stays.receive()
        if message["type"] == "presence" and message["seat"] == 1:
            assert message["state"] == "connected"
            break


def test_the_move_timer_plays_for_a_person_who_waits_too_long(
    live_server: LiveServer, http: httpx.Client
) -> None:
    """docs/protocol.md, HTTP API: with a move timer, a bot plays one move for a person
    who thinks longer than it; the person keeps the seat."""
    table = make_table(
        http, game="blackout", seats=["human", "random", "random", "random"], move_timer=0.3
    )
    p = Player(live_server.ws_url, table.id, table.tokens[0])
    start(http, table)
    p.until("welcome")
    while not any(m["type"] == "event" and m["actor"] == 0 for m in p.messages):
        p.receive()
    timed_out = next(m for m in p.messages if m["type"] == "event" and m["actor"] == 0)
    assert timed_out["action"] is not None
    assert not any(m["type"] == "presence" and m["state"] == "replaced" for m in p.messages)
    assert http.get(f"/tables/{table.id}").json()["seats"][0]["state"] == "connected"


def test_a_bot_thinking_hard_does_not_delay_another_table(
    live_server: LiveServer, http: httpx.Client
) -> None:
    """docs/protocol.md, Live play: bots think off the event loop, so a table whose bots
    think for a second each move does not delay the play at another table."""
    slow = "ismcts:iterations=1000000:time_budget=1.0"
    busy = make_table(http, game="blackout", seats=[slow] * 4)
    start(http, busy)
    table = make_table(http, game="blackout", seats=["human", "random", "random", "random"])
    p = Player(live_server.ws_url, table.id, table.tokens[0])
    start(http, table)
    p.until("welcome")
    rng = random.Random(4)
    times = []
    for n in range(12):
        while not p.my_turn():
            p.receive()
        began = time.monotonic()
        assert p.act(p.random_action(rng), f"q{n}")["type"] == "ack"
        times.append(time.monotonic() - began)
    # Were the bots thinking on the event loop, each answer would wait about a second.
    assert sorted(times)[len(times) // 2] < 0.25, times
    assert max(times) < 0.9, times
    # The busy table's bots were thinking meanwhile, and they do move.
    deadline = time.monotonic() + 30
    while http.get(f"/tables/{busy.id}").json()["seq"] < 2:
        assert time.monotonic() < deadline
        time.sleep(0.1)


def test_a_seat_given_to_a_bot_closes_its_socket(
    live_server: LiveServer, http: httpx.Client
) -> None:
    """docs/protocol.md, Live play: a socket whose seat is given to a bot is told so and
    closed; it can no longer act for that seat."""
    table = make_table(http, game="blackout", seats=["human", "human", "random", "random"])
    p = Player(live_server.ws_url, table.id, table.tokens[1])
    answer = http.put(
        f"/tables/{table.id}/seats/1/bot", json={"bot": "random"}, headers=table.host()
    )
    assert answer.status_code == 204
    refusal = p.until("error")
    assert refusal["code"] == "unauthorized"
    with pytest.raises(ConnectionClosed):
        p.receive(timeout=5)
    back = Player(live_server.ws_url, table.id, table.tokens[1], hello=False)
    back.send({"type": "hello", "v": 1, "token": table.tokens[1]})
    assert back.until("error")["code"] == "unauthorized"


def test_chat_is_stored_rate_limited_and_shown_on_return(
    live_server: LiveServer, http: httpx.Client
) -> None:
    """docs/protocol.md, Live play: chat is plain text, at most 5 messages in 10 seconds,
    kept with the table and sent again in the welcome; spectators read it."""
    table = make_table(http, game="blackout", seats=["human", "human", "random", "random"])
    ann = Player(live_server.ws_url, table.id, table.tokens[0])
    watcher = Player(live_server.ws_url, table.id, None)
    for n in range(5):
        ann.send({"type": "chat", "text": f"hello {n} <script>"})
        assert ann.until("chat")["line"]["text"] == f"hello {n} <script>"
    ann.send({"type": "chat", "text": "one too many"})
    assert ann.until("error")["code"] == "rate_limited"
    assert [watcher.until("chat")["line"]["seat"] for _ in range(5)] == [0] * 5
    watcher.send({"type": "chat", "text": "may I?"})
    assert watcher.until("error")["code"] == "not_your_seat"
    ann.close()
    back = Player(live_server.ws_url, table.id, table.tokens[0])
    welcome = next(m for m in back.messages if m["type"] == "welcome")
    assert [line["text"] for line in welcome["chat"]] == [f"hello {n} <script>" for n in range(5)]


@pytest.mark.parametrize(
    ("game", "options"),
    [("blackout", {"simultaneous_bidding": True}), ("pluck", {}), ("euchre", {}), ("buckup", {})],
)
def test_people_play_games_with_their_own_phases(
    live_server: LiveServer, http: httpx.Client, game: str, options: dict[str, bool]
) -> None:
    """docs/protocol.md, Live play: simultaneous bids, Pluck's plucks, Euchre's auction
    and kitty, Buckup's antes and draws, played by people over sockets to the end."""
    players = 3 if game == "pluck" else 4
    seats = ["human", "human", *["random"] * (players - 2)]
    table = make_table(http, game=game, options=options, seats=seats, seed=21)
    people = [Player(live_server.ws_url, table.id, table.tokens[s]) for s in (0, 1)]
    start_and_welcome(http, table, people)
    play_out(people, random.Random(8))
    record = GameRecord.from_json(http.get(f"/tables/{table.id}/record").json())
    assert record.replay().is_terminal()
    mine = [m for p in people for m in p.messages if m["type"] == "event"]
    assert all(m["action"] is None or m["actor"] == m["view"]["seat"] for m in mine)


def test_the_plain_messages_are_what_their_models_give() -> None:
    """docs/protocol.md, Messages: the event and ack messages the server builds as plain
    dicts (for speed) are exactly what the schemas of ``Event`` and ``Ack`` describe."""
    from tricktaker.server.tables import messages as m

    view = {"seat": 1, "hand": ["AS"], "present": {"narration": []}}
    for event in (
        m.event_message(5, 1, 2, None, "bid 3", view, None),
        m.event_message(6, 2, None, "deal", None, view, {"bids": [1, 2]}),
    ):
        assert m.Event.model_validate(event).model_dump() == event
        assert list(m.Event.model_validate(event).model_dump()) == list(event)
    ack = m.ack_message("c-1", 9)
    assert m.Ack.model_validate(ack).model_dump() == ack


def test_a_client_that_resumes_gets_exactly_the_events_it_missed(
    live_server: LiveServer, http: httpx.Client
) -> None:
    """docs/protocol.md, Live play: a client that reconnects with ``resume`` and its last
    seq gets ``resumed`` and then each missed event as it was sent live (its own view
    only); a spectator the public one; from another game, a welcome."""
    table = make_table(http, game="blackout", seats=["human", "random", "random", "random"])
    stays = Player(live_server.ws_url, table.id, table.tokens[0])
    goes = Player(live_server.ws_url, table.id, table.tokens[0])
    watcher = Player(live_server.ws_url, table.id, None)
    start_and_welcome(http, table, [stays, goes, watcher])
    rng = random.Random(5)
    while not stays.my_turn():
        stays.receive()
    while goes.seq < stays.seq:
        goes.receive()
    while watcher.seq < stays.seq:
        watcher.receive()
    last = stays.seq
    goes.close()
    watcher.close()
    for n in range(3):
        assert stays.act(stays.random_action(rng), f"r{n}")["type"] == "ack"
        while not stays.my_turn():
            stays.receive()
    now = stays.seq
    assert now > last + 3
    opened = [m for m in stays.messages if m["type"] == "welcome"][-1]["seq"]
    live_events = {m["seq"]: m for m in stays.messages if m["type"] == "event"}
    assert sorted(live_events) == list(range(opened + 1, now + 1))

    # From the game's welcome (right after the deal) and from a later event.
    for since in sorted({opened, last}):
        back = Player(live_server.ws_url, table.id, table.tokens[0], since, resume=True)
        resumed = back.receive()
        assert resumed["type"] == "resumed"
        assert (resumed["seat"], resumed["last_seq"], resumed["seq"]) == (0, since, now)
        replayed = [back.receive() for _ in range(now - since)]
        assert replayed == [live_events[seq] for seq in range(since + 1, now + 1)]
        assert any(e["action"] is not None for e in replayed)  # its own actions' text
        back.close()

    spectator = Player(live_server.ws_url, table.id, None, last, resume=True)
    assert spectator.receive()["type"] == "resumed"
    seen = [spectator.receive() for _ in range(now - last)]
    assert [e["seq"] for e in seen] == list(range(last + 1, now + 1))
    for e in seen:
        assert e["view"]["hand"] is None
        assert e["action"] is None
        assert e["view"]["legal_actions"] == []

    # Before the current game (or with no resume): a fresh snapshot.
    for again in (
        Player(live_server.ws_url, table.id, table.tokens[0], 0, resume=True),
        Player(live_server.ws_url, table.id, table.tokens[0], last),
    ):
        first = again.messages[0] if again.messages else again.receive()
        assert first["type"] == "welcome"
        assert first["seq"] == now
