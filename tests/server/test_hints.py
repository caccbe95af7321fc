"""The coach's hints at a server table, over real sockets against a real server.

docs/protocol.md, Hints (protocol 1.4): a seated person sends ``hint`` on their turn and
that socket alone is answered with the coach's values of every legal choice (from the
seat's observation only); hints are on at a practice table, and at a table with other
people only where the host allowed them (the table's ``hints``, which everyone sees);
refusals are ``error`` messages (``hints_off``, ``not_your_turn``, ``not_your_seat``,
``rate_limited``, ``not_playing``). The game's record lists when each hint was asked
(``hints``), also once the server is restarted, and replays unchanged.
"""

from __future__ import annotations

import math
import time
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from tests.server.conftest import LiveServer
from tests.server.helpers import Player, make_table, start
from tests.server.test_server_properties import cards_in, knowledge
from tests.server_process import ServerProcess
from tricktaker import load_ruleset, new_game
from tricktaker.coach.model import MODEL
from tricktaker.engine import GameRecord, RecordError
from tricktaker.server import create_app
from tricktaker.server.db import current_revision, upgrade
from tricktaker.server.tables import hints

pytestmark = pytest.mark.usefixtures("quick_hints")

PRACTICE = {
    "game": "blackout",
    "seats": ["human", "random", "random", "random"],
    "seed": 11,
    "away_bot": "random",
}
TWO_PEOPLE = {"game": "blackout", "seats": ["human", "human", "random", "random"], "seed": 5}


def ask(p: Player, hint_id: str) -> dict[str, Any]:
    """Send ``hint`` and read until its answer (``hint`` or ``error``, with its id)."""
    p.send({"type": "hint", "id": hint_id})
    while True:
        message = p.receive()
        if message["type"] in ("hint", "error") and message.get("id") == hint_id:
            return message


def turn(p: Player) -> dict[str, Any]:
    """Read until it is the player's turn; the view then."""
    while not p.my_turn():
        p.receive()
    assert p.view is not None
    return p.view


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def finished(http: httpx.Client, table_id: str, limit: float = 60.0) -> None:
    """Wait until the table's game is over."""
    deadline = time.monotonic() + limit
    while http.get(f"/tables/{table_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the game never finished"
        time.sleep(0.1)


def check_hint(message: dict[str, Any], view: dict[str, Any], seq: int) -> None:
    """A hint answers for every legal choice of ``view``, best first, with its values."""
    assert message["type"] == "hint", message
    assert message["seq"] == seq
    assert message["seat"] == view["seat"]
    choices = message["choices"]
    assert sorted(c["action"] for c in choices) == sorted(view["legal_actions"])
    means = [c["mean"] for c in choices]
    assert means == sorted(means, reverse=True)
    assert [c["action"] for c in choices if c["best"]] == [message["best"]]
    assert message["model"] == MODEL
    for c in choices:
        assert c["label"]
        assert math.isfinite(c["mean"])
        assert c["stderr"] >= 0
        assert c["deals"] >= message["deals"] >= 1
        assert c["make_chance"] is None or 0 <= c["make_chance"] <= 1
    if view["phase"] == "bidding":  # the Oh Hell family: a bid to make
        assert all(c["make_chance"] is not None for c in choices)
        assert {c["label"] for c in choices} == {
            f"bid {a.split()[1]}" for a in view["legal_actions"]
        }


@pytest.mark.slow  # about 8 s: six hints, then a bot plays the 13-hand game out
def test_hints_at_a_practice_table_every_turn_and_the_record_lists_them(
    live_server: LiveServer, http: httpx.Client, db_url: str
) -> None:
    table = make_table(http, **PRACTICE, host_seat=0, name="Ann")
    info = http.get(f"/tables/{table.id}").json()
    assert info["practice"] is True
    assert info["hints"] is True
    p = Player(live_server.ws_url, table.id, table.tokens[0])
    assert ask(p, "early")["code"] == "not_playing"
    start(http, table)
    p.until("welcome")
    asked: list[tuple[int, dict[str, Any]]] = []
    for number in range(1, 7):  # the first hand's bid and cards, then a bot plays on
        view = turn(p)
        answer = ask(p, f"h{number}")
        check_hint(answer, view, p.seq)
        asked.append((p.seq, answer))
        assert p.act(answer["best"], f"a{number}")["type"] in ("ack", "event")
    left = http.post(f"/tables/{table.id}/leave", headers=auth(table.tokens[0]))
    assert left.status_code == 204
    finished(http, table.id)
    record = http.get(f"/tables/{table.id}/record").json()
    # Each hint names no card the seat could not see then (its choices' texts).
    known, pattern = knowledge(record)
    for seq, answer in asked:
        assert cards_in(answer, pattern) <= known[0][seq], answer
    assert record["hints"] == [{"seat": 0, "at": seq} for seq, _ in asked]
    replayed = GameRecord.from_json(record).replay()
    assert list(replayed.scores) == record["final_scores"]
    p.close()
    # A server started afresh on the same database finds the same hints.
    with TestClient(create_app(db_url)) as client:
        assert client.get(f"/tables/{table.id}/record").json()["hints"] == record["hints"]


def undo(p: Player, undo_id: str) -> dict[str, Any]:
    """Send an undo and read until its answer (``ack`` or ``error``, with its id)."""
    p.send({"type": "undo", "id": undo_id})
    while True:
        message = p.receive()
        if message["type"] in ("ack", "error") and message.get("id") == undo_id:
            return message


@pytest.mark.slow  # about 10 s: a real server process, two one-second hints, a game
def test_a_hint_asked_at_a_position_an_undo_took_back_moves_to_where_it_returned(
    server: ServerProcess, db_url: str
) -> None:
    """docs/protocol.md, Hints and Undo: a hint asked, then an undo of the seat's action
    before it: the record still lists the hint, its ``at`` the undo's (the position the
    undo returned to), never beyond the record's events; the same whether the hint was
    stored before the undo came or was still being worked out (the server process thinks
    a second a hint); the record replays, and a restarted server reads the same."""
    http = httpx.Client(base_url=server.url, timeout=30)
    table = make_table(http, **PRACTICE, host_seat=0, name="Ann")
    me = Player(server.ws_url, table.id, table.tokens[0])
    start(http, table)
    me.until("welcome")
    first = turn(me)
    back_to = me.seq  # the record's events before the seat's first action
    assert me.act(first["legal_actions"][0], "b1")["type"] == "ack"
    later = turn(me)
    assert me.seq > back_to
    check_hint(ask(me, "h1"), later, me.seq)  # stored at me.seq, then taken back
    assert undo(me, "u1")["type"] == "ack"
    assert turn(me)["legal_actions"] == first["legal_actions"]
    assert me.act(first["legal_actions"][-1], "b2")["type"] == "ack"
    turn(me)
    me.send({"type": "hint", "id": "h2"})  # worked out while the undo comes
    assert undo(me, "u2")["type"] == "ack"
    while not any(m.get("id") == "h2" for m in me.messages):
        me.receive()
    answer = next(m for m in me.messages if m.get("id") == "h2")
    assert answer["type"] == "hint", answer
    assert me.act(turn(me)["legal_actions"][0], "b3")["type"] == "ack"
    left = http.post(f"/tables/{table.id}/leave", headers=auth(table.tokens[0]))
    assert left.status_code == 204
    me.close()
    finished(http, table.id)
    record = http.get(f"/tables/{table.id}/record").json()
    assert [u["at"] for u in record["undos"]] == [back_to, back_to]
    assert record["hints"] == [{"seat": 0, "at": back_to}, {"seat": 0, "at": back_to}]
    assert all(hint["at"] <= len(record["events"]) for hint in record["hints"])
    replayed = GameRecord.from_json(record).replay()
    assert list(replayed.scores) == record["final_scores"]
    server.kill()
    server.start()
    again = httpx.Client(base_url=server.url, timeout=30)
    assert again.get(f"/tables/{table.id}/record").json()["hints"] == record["hints"]
    http.close()
    again.close()


def test_a_record_with_a_hint_beyond_its_events_is_refused() -> None:
    """docs/protocol.md, the record's ``hints``: an ``at`` beyond the events names no
    position of the game (nor does a seat the game does not have)."""
    state = new_game(load_ruleset("blackout"), players=3, seed=1)
    state.apply_chance()
    data = GameRecord.of(state, hints=[{"seat": 0, "at": len(state.events)}]).to_json()
    assert GameRecord.from_json(data).hints == [{"seat": 0, "at": 1}]
    for hint, words in (
        ({"seat": 0, "at": len(state.events) + 1}, "not a position of the record's 1 events"),
        ({"seat": 0, "at": -1}, "not a position"),
        ({"seat": 3, "at": 0}, "not a seat of the game"),
    ):
        with pytest.raises(RecordError, match=words):
            GameRecord.from_json({**data, "hints": [hint]})


def test_hints_at_a_table_with_people_only_where_the_host_allowed_them(
    live_server: LiveServer, http: httpx.Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    closed = make_table(http, **TWO_PEOPLE)
    assert http.get(f"/tables/{closed.id}").json()["hints"] is False
    people = [Player(live_server.ws_url, closed.id, closed.tokens[s]) for s in (0, 1)]
    watcher = Player(live_server.ws_url, closed.id, None)
    start(http, closed)
    for p in people:
        p.until("welcome")
    to_act = next(p for p in people if turn_or_none(p))
    refused = ask(to_act, "x1")
    assert refused["code"] == "hints_off"
    assert "host" in refused["message"]
    assert ask(watcher, "x2")["code"] == "not_your_seat"
    for p in [*people, watcher]:
        p.close()

    allowed = make_table(http, **TWO_PEOPLE, hints=True)
    assert http.get(f"/tables/{allowed.id}").json()["hints"] is True
    people = [Player(live_server.ws_url, allowed.id, allowed.tokens[s]) for s in (0, 1)]
    start(http, allowed)
    welcomes = [p.until("welcome") for p in people]
    assert all(w["table"]["hints"] is True for w in welcomes)  # everyone sees them on
    waiting = [p for p in people if not turn_or_none(p)]
    for p in waiting:
        assert ask(p, "y1")["code"] == "not_your_turn"
    to_act = next(p for p in people if turn_or_none(p))
    assert to_act.view is not None
    check_hint(ask(to_act, "y2"), to_act.view, to_act.seq)
    # One at a time: a second hint sent while the first is worked out is refused.
    monkeypatch.setattr(hints, "HINT_SECONDS", 0.5)
    to_act.send({"type": "hint", "id": "z1"})
    second = ask(to_act, "z2")
    assert second["type"] == "error", second
    assert second["code"] == "rate_limited"
    assert to_act.until("hint")["id"] == "z1"
    for p in people:
        p.close()


def turn_or_none(p: Player) -> bool:
    """Whether it is ``p``'s turn, once every seat's turn is known (read until a person
    is to act)."""
    while (
        p.view is None or not p.view["to_act"] or any(s >= 2 for s in p.view["to_act"])
    ):  # the bots' seats (2 and 3) still to act
        p.receive()
    return p.my_turn()


def test_the_hints_migration_goes_up_and_down(db_url: str) -> None:
    """The eighth migration adds the table's ``hints`` (off for the tables made before)
    and the hints asked; going back drops both."""
    upgrade(db_url, "0007")
    upgrade(db_url, "0008")
    assert current_revision(db_url) == "0008"
    engine = create_engine(db_url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM hints")).scalar() == 0
        assert connection.execute(text("SELECT count(*) FROM tables WHERE hints")).scalar() == 0
    engine.dispose()
    from alembic import command

    from tricktaker.server.db import alembic_config

    command.downgrade(alembic_config(db_url), "0007")
    assert current_revision(db_url) == "0007"
    engine = create_engine(db_url)
    with engine.connect() as connection:
        names = set(connection.execute(text("SELECT * FROM tables")).keys())
    engine.dispose()
    assert "hints" not in names
