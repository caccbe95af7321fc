"""Undo at a practice table, over real sockets against a real server.

docs/protocol.md, Undo (protocol 1.3): at a table where one person plays and every
other seat is a bot, the person may take back their last bid or card; the server removes
it and every event after it (the bots' replies, the next deal), answers ``ack`` and
welcomes every socket afresh; refused (``not_allowed``, nothing changed) when another
person plays at the table, when there is nothing to take back, and once the game is
over. The undo is stored: a restart (kill -9 too) rebuilds the table after it, and the
game's record lists it (``undos``).
"""

from __future__ import annotations

import contextlib
import random
from typing import Any

import httpx
from sqlalchemy.orm import sessionmaker
from websockets.exceptions import ConnectionClosed

from tests.server.conftest import LiveServer
from tests.server.helpers import Player, make_table, start
from tests.server_process import ServerProcess
from tricktaker.engine import GameRecord
from tricktaker.server.db import make_engine
from tricktaker.server.tables import store
from tricktaker.server.tables.leases import MOVED_CODE
from tricktaker.server.tables.store import StoredEvent

PRACTICE = {"game": "blackout", "seats": ["human", "random", "random", "random"], "seed": 7}
KEPT = ("phase", "hand", "legal_actions", "to_act", "bid_made", "current_trick", "tricks_won")
"""The fields of a seat's view that an undo puts back as they were before its action."""


def turn(p: Player) -> dict[str, Any]:
    """Read until it is the player's turn; the view then."""
    while not p.my_turn():
        p.receive()
    assert p.view is not None
    return p.view


def undo(p: Player, undo_id: str) -> dict[str, Any]:
    """Send an undo and read until its answer (ack or error)."""
    p.send({"type": "undo", "id": undo_id})
    while True:
        message = p.receive()
        if message["type"] in ("ack", "error") and message.get("id") == undo_id:
            return message


def closed_with(player: Player) -> int | None:
    """The close code the server sent on ``player``'s socket (read until it closes)."""
    try:
        while True:
            player.receive(timeout=10)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None


def drain(*players: Player) -> None:
    for p in players:
        with contextlib.suppress(TimeoutError):
            while True:
                p.receive(timeout=0.5)


def assert_public(messages: list[dict[str, Any]]) -> None:
    """A spectator's messages hold no seat's own cards, actions or choices."""
    for message in messages:
        view = message.get("view")
        if view is None:
            continue
        assert view["hand"] is None, message["type"]
        assert view["legal_actions"] == []
        assert view["seat"] is None
        present = view.get("present") or {}
        assert present.get("hand") is None
        if message["type"] == "event":
            assert message["action"] is None


def test_undo_a_bid_and_a_card_at_a_practice_table(
    live_server: LiveServer, http: httpx.Client
) -> None:
    table = make_table(http, **PRACTICE, host_seat=0, name="Ann")
    info = http.get(f"/tables/{table.id}").json()
    assert info["practice"] is True
    assert [s["name"] for s in info["seats"]] == ["Ann", "Ben", "Cleo", "Dot"]
    me = Player(live_server.ws_url, table.id, table.tokens[0])
    watcher = Player(live_server.ws_url, table.id, None)
    start(http, table)
    me.until("welcome")
    watcher.until("welcome")

    # Nothing to take back before the seat's first action.
    before = turn(me)
    refused = undo(me, "u0")
    assert refused["code"] == "not_allowed"
    assert refused["message"] == "Nothing to take back yet in this game."

    # A bid taken back: the seat's turn again, the same decision, a welcome everywhere.
    bid = before["legal_actions"][-1]
    assert me.act(bid, "b1")["type"] == "ack"
    after_bid = turn(me)  # the bots replied (or the bidding went round to us again)
    assert after_bid["bid_made"][0]
    seq_before_undo = me.seq
    mark = len(me.messages)
    ack = undo(me, "u1")
    assert ack["type"] == "ack", ack
    assert ack["seq"] == seq_before_undo + 1
    welcomes = [m for m in me.messages[mark:] if m["type"] == "welcome"]
    assert len(welcomes) == 1
    back = welcomes[0]["view"]
    assert welcomes[0]["seq"] == ack["seq"]
    assert welcomes[0]["table"]["practice"] is True
    for key in KEPT:
        assert back[key] == before[key], key
    assert undo(me, "u1") == ack  # a repeated id is answered the same, undone once
    assert me.messages[-2]["type"] != "welcome"

    # Bid again (another bid), then a card, then take the card back.
    other = before["legal_actions"][0]
    assert me.act(other, "b2")["type"] == "ack"
    while True:
        view = turn(me)
        if view["phase"] == "playing":
            break
        assert me.act(view["legal_actions"][0], f"b{me.seq}")["type"] == "ack"
    card = view["legal_actions"][0]
    assert me.act(card, "c1")["type"] == "ack"
    mark = len(me.messages)
    assert undo(me, "u2")["type"] == "ack"
    back = next(m for m in me.messages[mark:] if m["type"] == "welcome")["view"]
    for key in KEPT:
        assert back[key] == view[key], key
    assert card.split()[-1] in back["hand"]

    # The next action is narrated from the view the welcome gave.
    assert me.act(card, "c2")["type"] == "ack"
    told = next(m for m in me.messages if m["type"] == "event" and m["seq"] == me.seq)
    assert told["view"]["present"]["narration"]

    # The game to its end; then nothing more can be taken back.
    rng = random.Random(2)
    while me.view is None or me.view["phase"] != "game_over":
        if me.my_turn():
            assert me.act(me.random_action(rng), f"p{me.seq}")["type"] == "ack"
        else:
            me.receive()
    over = undo(me, "u3")
    assert (over["code"], over["message"]) == (
        "not_allowed",
        "The game is over: nothing can be taken back now.",
    )
    drain(watcher)
    assert [m["type"] for m in watcher.messages].count("welcome") == 4  # 2 undos
    assert_public(watcher.messages)

    record_json = http.get(f"/tables/{table.id}/record").json()
    record = GameRecord.from_json(record_json)
    assert record.names == ["Ann", "Ben", "Cleo", "Dot"]
    assert [u["seat"] for u in record.undos] == [0, 0]
    first, second = record.undos
    assert first["events"][0] == [0, bid]
    # The card, and whatever the bots had played after it before the undo arrived (the
    # undo takes back the seat's last action and everything after it).
    assert second["events"][0] == [0, card]
    assert all(event[0] != 0 for event in second["events"][1:])
    assert record.events[first["at"]] == [0, other]
    assert record.events[second["at"]] == [0, card]
    assert record.replay().scores == record.final_scores
    me.close()
    watcher.close()


def test_undo_is_refused_where_another_person_plays(
    live_server: LiveServer, http: httpx.Client
) -> None:
    table = make_table(
        http, game="blackout", seats=["human", "human", "random", "random"], host_seat=0, seed=3
    )
    assert http.get(f"/tables/{table.id}").json()["practice"] is False
    people = [Player(live_server.ws_url, table.id, table.tokens[s]) for s in (0, 1)]
    start(http, table)
    for p in people:
        p.until("welcome")
    mover = next(p for p in people if p.my_turn()) if any(p.my_turn() for p in people) else None
    while mover is None:
        for p in people:
            with contextlib.suppress(TimeoutError):
                p.receive(timeout=0.2)
        mover = next((p for p in people if p.my_turn()), None)
    assert mover.view is not None
    assert mover.act(mover.view["legal_actions"][0], "a1")["type"] == "ack"
    drain(*people)
    seq = http.get(f"/tables/{table.id}").json()["seq"]
    held = [dict(p.view or {}) for p in people]
    marks = [len(p.messages) for p in people]
    refused = undo(mover, "u1")
    assert refused == {
        "type": "error",
        "id": "u1",
        "code": "not_allowed",
        "message": "Undo is only for practice tables: another person plays here.",
        "rule": None,
    }
    drain(*people)
    assert http.get(f"/tables/{table.id}").json()["seq"] == seq
    assert [p.view for p in people] == held
    for p, mark in zip(people, marks, strict=True):
        assert [m["type"] for m in p.messages[mark:]] in (["error"], [])
    spectator = Player(live_server.ws_url, table.id, None)
    refused = undo(spectator, "u2")
    assert refused["code"] == "not_your_seat"
    for p in [*people, spectator]:
        p.close()


def test_an_undo_survives_kill_9_and_a_resumed_client_gets_a_welcome(
    server: ServerProcess,
) -> None:
    http = httpx.Client(base_url=server.url, timeout=30)
    table = make_table(http, **PRACTICE, host_seat=0, name="Ann")
    me = Player(server.ws_url, table.id, table.tokens[0])
    start(http, table)
    me.until("welcome")
    before = turn(me)
    seen = me.seq
    assert me.act(before["legal_actions"][0], "b1")["type"] == "ack"
    turn(me)
    mark = len(me.messages)
    ack = undo(me, "u1")
    assert ack["type"] == "ack"
    after = next(m for m in me.messages[mark:] if m["type"] == "welcome")
    me.close()
    server.kill()
    server.start()
    back = Player(server.ws_url, table.id, table.tokens[0])
    welcome = next(m for m in back.messages if m["type"] == "welcome")
    assert welcome["seq"] == ack["seq"]
    assert welcome["view"] == after["view"]
    assert undo(back, "u1") == ack  # the undo's id is remembered across the restart
    # A client that resumes from before the undo gets a fresh welcome, not events.
    resumed = Player(server.ws_url, table.id, table.tokens[0], seen, resume=True)
    first = resumed.receive()
    assert first["type"] == "welcome"
    assert first["view"] == after["view"]
    # Play on from there: the bid taken back is gone from the game.
    assert back.act(before["legal_actions"][-1], "b2")["type"] == "ack"
    for p in (back, resumed):
        p.close()


def test_a_bot_thinking_when_the_undo_arrives_does_not_play_its_stale_move(
    live_server: LiveServer, http: httpx.Client
) -> None:
    """docs/protocol.md, Undo: a bot's move worked out before the undo is dropped; the
    bots go on from the table after it."""
    slow = "ismcts:iterations=1000000:time_budget=1.0"
    table = make_table(
        http, game="blackout", seats=["human", slow, slow, slow], host_seat=0, seed=5
    )
    me = Player(live_server.ws_url, table.id, table.tokens[0])
    start(http, table)
    me.until("welcome")
    before = turn(me)
    assert me.act(before["legal_actions"][0], "b1")["type"] == "ack"
    ack = undo(me, "u1")  # a bot is thinking about its reply to the bid now
    assert ack["type"] == "ack", ack
    assert me.my_turn()
    again = before["legal_actions"][-1]
    told = me.act(again, "b2")
    assert told == {"type": "ack", "id": "b2", "seq": ack["seq"] + 1}
    turn(me)  # the bots played on to the seat's next turn, none stopped
    events = [m for m in me.messages if m["type"] == "event" and m["seq"] > ack["seq"]]
    assert events[0]["actor"] == 0
    assert events[0]["action"] == again
    assert [e["seq"] for e in events] == list(range(ack["seq"] + 1, me.seq + 1))
    me.close()


def test_an_undo_the_sequence_guard_refuses_lets_the_table_go(
    live_server: LiveServer, http: httpx.Client, db_url: str
) -> None:
    """docs/deploy.md, Several server processes: when another process has written to the
    table behind this one's back (its stored seq moved on), an undo's write is refused
    whole, as an action's is: nothing is taken back, the table is let go here and its
    sockets are closed with 1012; the client that reconnects finds the table as stored."""
    table = make_table(http, **PRACTICE, host_seat=0, name="Ann")
    me = Player(live_server.ws_url, table.id, table.tokens[0])
    start(http, table)
    me.until("welcome")
    bid = turn(me)["legal_actions"][0]
    assert me.act(bid, "b1")["type"] == "ack"
    view = turn(me)
    assert view["phase"] == "playing"
    card = view["legal_actions"][0]

    # Another process plays this seat's card: one more event stored under this one.
    engine = make_engine(db_url)
    try:
        factory = sessionmaker(engine, expire_on_commit=False)
        loaded = store.load_table(factory, table.id)
        assert loaded is not None
        data = loaded[0]
        elsewhere = StoredEvent(data.seq + 1, data.game_number, 0, card, "elsewhere")
        store.append_events(factory, table.id, data.seq, [elsewhere], "playing")
        me.send({"type": "undo", "id": "u1"})
        assert closed_with(me) == MOVED_CODE
        loaded = store.load_table(factory, table.id)
        assert loaded is not None
        assert [e.client_id for e in loaded[1]].count("elsewhere") == 1
        assert loaded[1][-1].who != "undo"  # the bid was not taken back
    finally:
        engine.dispose()

    again = Player(live_server.ws_url, table.id, table.tokens[0])  # welcomed
    assert again.view is not None
    assert card.split()[-1] not in again.view["hand"]
    assert again.view["bid_made"][0]
