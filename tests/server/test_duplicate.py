"""Duplicate sets and the daily challenge on the server (docs/duplicate.md, On a server;
docs/protocol.md, Duplicate sets), on SQLite and PostgreSQL: the same deals in the same
seats at every table of a set, the standings from the tables' finished hands, the host
alone makes a set's tables, the daily challenge against seeded bots, the migration."""

from __future__ import annotations

import datetime
import time
from typing import Any

import httpx
import pytest
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect

from tests.server.conftest import LiveServer
from tests.server.helpers import Player
from tricktaker import load_ruleset
from tricktaker.cards import format_card
from tricktaker.duplicate import make_set, standings, table_results
from tricktaker.engine import ChanceOutcome, GameRecord
from tricktaker.server.db import alembic_config, current_revision, upgrade
from tricktaker.server.tables.store import game_events
from tricktaker.server.tables.undo import NOT_IN_DUPLICATE


def dealt(event: tuple[object, ...]) -> tuple[int, ...]:
    """The deck order a record's chance event dealt."""
    outcome = event[1]
    assert isinstance(outcome, ChanceOutcome), event
    return outcome.cards


def _code(answer: Any) -> str:
    """The short code of a problem body's ``type``."""
    return str(answer.json()["type"]).rsplit("/", 1)[-1]


def _wait_finished(client: TestClient, table_id: str, limit: float = 120.0) -> None:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if client.get(f"/tables/{table_id}").json()["status"] == "finished":
            return
        time.sleep(0.1)
    raise AssertionError(f"table {table_id} did not finish")


def _table(client: TestClient, set_id: str, token: str, seats: list[str]) -> dict[str, Any]:
    made = client.post(
        f"/duplicate/{set_id}/tables",
        json={"seats": seats},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert made.status_code == 201, made.text
    return dict(made.json())


def _start(client: TestClient, table: dict[str, Any]) -> None:
    started = client.post(
        f"/tables/{table['table']['id']}/start",
        headers={"Authorization": f"Bearer {table['host_token']}"},
    )
    assert started.status_code == 204, started.text


def _record(client: TestClient, table_id: str) -> GameRecord:
    answer = client.get(f"/tables/{table_id}/record", params={"game": 1})
    assert answer.status_code == 200, answer.text
    return GameRecord.from_json(answer.json())


def test_a_set_played_at_two_tables(client: TestClient) -> None:
    """docs/duplicate.md, The same deals and Standings: two tables of a set, with
    different bots, deal the set's deals in the same seats; the standings are the
    scoring module's over the tables' records."""
    made = client.post("/duplicate", json={"game": "blackout", "players": 4, "seed": 9})
    assert made.status_code == 201, made.text
    body = made.json()
    set_id, token = body["set"]["id"], body["host_token"]
    assert body["set"]["hands"] == 13
    assert "deals" not in body["set"]  # the cards are never sent
    # Only the set's host makes its tables.
    seats = ["easy", "random", "random", "random"]
    nobody = client.post(f"/duplicate/{set_id}/tables", json={"seats": seats})
    assert (nobody.status_code, _code(nobody)) == (401, "no-token")
    wrong = client.post(
        f"/duplicate/{set_id}/tables", json={"seats": seats}, headers={"Authorization": "Bearer x"}
    )
    assert (wrong.status_code, _code(wrong)) == (403, "not-host")
    assert client.get("/duplicate/nosuchset").status_code == 404
    tables = [
        _table(client, set_id, token, seats),
        _table(client, set_id, token, ["random", "easy", "random", "random"]),
    ]
    for table in tables:
        assert table["table"]["practice"] is False
        _start(client, table)
    for table in tables:
        _wait_finished(client, table["table"]["id"])
    records = [_record(client, table["table"]["id"]) for table in tables]
    states = [record.replay() for record in records]
    expected = make_set(load_ruleset("blackout"), players=4, seed=9)
    for state in states:
        assert [h.deal for h in state.history] == [h.deal for h in states[0].history]
        assert dealt(state.events[0]) == expected.deals[0]
    assert [h.bids for h in states[0].history] != [h.bids for h in states[1].history]
    answer = client.get(f"/duplicate/{set_id}").json()
    assert [(t["number"], t["status"], t["hands_played"]) for t in answer["tables"]] == [
        (1, "finished", 13),
        (2, "finished", 13),
    ]
    rows = answer["standings"]
    own = standings(
        table_results(states[0], [f"1:{s}" for s in range(4)])
        + table_results(states[1], [f"2:{s}" for s in range(4)])
    )
    assert [(r["number"], r["seat"]) for r in rows] == [
        tuple(map(int, row.entrant.split(":"))) for row in own
    ]
    assert [r["matchpoints"] for r in rows] == [row.matchpoints for row in own]
    assert all(r["top"] == 26 and r["hands"] == 13 for r in rows)
    assert abs(sum(r["percent"] for r in rows) - 400) < 0.1
    assert rows[0]["boards"][0]["entrants"] == 2
    by_average = client.get(f"/duplicate/{set_id}", params={"order": "average"}).json()
    averages = [r["against_average"] for r in by_average["standings"]]
    assert averages == sorted(averages, reverse=True)


def test_a_game_that_cannot_be_dealt_duplicate_is_refused(client: TestClient) -> None:
    """docs/duplicate.md, Which games: the refusal names why."""
    answer = client.post("/duplicate", json={"game": "caller_clag", "players": 4})
    assert answer.status_code == 422
    assert _code(answer) == "not-duplicate"
    assert "calls each hand" in answer.json()["detail"]
    listed = [game["game"] for game in client.get("/duplicate/daily").json()]
    assert "blackout" in listed
    assert "caller_clag" not in listed
    assert "coop_blackout" not in listed
    missing = client.get("/duplicate/daily/coop_blackout")
    assert (missing.status_code, _code(missing)) == (404, "no-daily")
    assert client.get("/duplicate/daily/nosuchgame").status_code == 404
    bad_day = client.get("/duplicate/daily/blackout", params={"day": "2026-13-40"})
    assert bad_day.status_code == 422


def test_the_daily_challenge_against_seeded_bots(client: TestClient) -> None:
    """docs/duplicate.md, The daily challenge and Bots in a set: one set a game and day;
    each person's table has the same seeded bots, so two tables played alike are the
    same game; the standings hide the hands from a viewer who played none."""
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    first = client.get("/duplicate/daily/jabberwocky").json()
    assert first["set"]["day"] == today
    assert client.get("/duplicate/daily/jabberwocky").json()["set"]["id"] == first["set"]["id"]
    other = client.get("/duplicate/daily/jabberwocky", params={"day": "2026-01-01"}).json()
    assert other["set"]["id"] != first["set"]["id"]
    tables = []
    for name in ("Ann", "Bob"):
        made = client.post("/duplicate/daily/jabberwocky/play", json={"name": name})
        assert made.status_code == 201, made.text
        table = made.json()
        info = table["table"]
        assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot", "bot"]
        assert info["seats"][0]["name"] == name
        assert (info["practice"], info["hints"]) == (False, False)  # no undo, no coach
        tables.append(table)
    # Both people let the same seeded bot play for them: the same game, move for move.
    for table in tables:
        given = client.put(
            f"/tables/{table['table']['id']}/seats/0/bot",
            json={"bot": "easy"},
            headers={"Authorization": f"Bearer {table['host_token']}"},
        )
        assert given.status_code == 204, given.text
        _start(client, table)
    for table in tables:
        _wait_finished(client, table["table"]["id"])
    # The records are not public while the day lasts (docs/duplicate.md, No peeking):
    # the stored events compared.
    service = client.app.state.service  # type: ignore[attr-defined]
    one, two = (
        [(e.who, e.text) for e in client.portal.call(service.db, game_events, t["table"]["id"], 1)]  # type: ignore[union-attr]
        for t in tables
    )
    assert one == two
    # docs/duplicate.md, No peeking: while the day lasts, a viewer who has not finished a
    # hand (here: nobody's seat) sees none of its results.
    answer = client.get("/duplicate/daily/jabberwocky").json()
    assert (answer["hands_shown"], answer["standings"]) == ([], [])
    assert [t["hands_played"] for t in answer["tables"]] == [13, 13]


def test_the_duplicate_migration_goes_up_and_down(db_url: str) -> None:
    """Migration 0011 adds the sets and their tables, and takes them away again."""
    upgrade(db_url, "0010")
    engine = create_engine(db_url)
    assert "duplicate_sets" not in inspect(engine).get_table_names()
    engine.dispose()
    upgrade(db_url)
    assert current_revision(db_url) == "0016"
    engine = create_engine(db_url)
    names = set(inspect(engine).get_table_names())
    columns = {c["name"] for c in inspect(engine).get_columns("duplicate_tables")}
    engine.dispose()
    assert {"duplicate_sets", "duplicate_tables"} <= names
    assert columns == {"table_id", "set_id", "number", "created_at"}
    command.downgrade(alembic_config(db_url), "0010")
    assert current_revision(db_url) == "0010"
    engine = create_engine(db_url)
    names = set(inspect(engine).get_table_names())
    engine.dispose()
    assert "duplicate_sets" not in names
    assert "tables" in names
    upgrade(db_url)
    assert current_revision(db_url) == "0016"


@pytest.mark.slow
def test_a_table_rebuilt_after_a_restart_deals_the_sets_deals(db_url: str) -> None:
    """docs/duplicate.md, The same deals: the server keeps a table's deals with its set,
    so a table rebuilt from the database (a restart) deals the hands still to come from
    them, not from its seed's own shuffle."""
    from tricktaker.server import create_app

    expected = make_set(load_ruleset("blackout"), players=3, seed=77)
    with TestClient(create_app(db_url)) as client:
        made = client.post("/duplicate", json={"game": "blackout", "players": 3, "seed": 77})
        set_id, token = made.json()["set"]["id"], made.json()["host_token"]
        answer = client.post(
            f"/duplicate/{set_id}/tables",
            json={"seats": ["human", "random", "random"], "host_seat": 0, "name": "Ann"},
            headers={"Authorization": f"Bearer {token}"},
        )
        table = answer.json()
        _start(client, table)
    table_id = table["table"]["id"]
    with TestClient(create_app(db_url)) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        live = client.portal.call(service.live, table_id)  # type: ignore[union-attr]
        assert live.deals == expected.deals
        assert live.state.given_deals == expected.deals
        given = client.put(
            f"/tables/{table_id}/seats/0/bot",
            json={"bot": "random"},
            headers={"Authorization": f"Bearer {table['host_token']}"},
        )
        assert given.status_code == 204, given.text
        _wait_finished(client, table_id)
        record = _record(client, table_id)
    deals = [text for who, text in record.events if who == "deal"]
    labels = load_ruleset("blackout").joker_labels
    assert deals == [
        " ".join(format_card(card, labels=labels) for card in order) for order in expected.deals
    ]


def test_nothing_is_taken_back_and_no_hint_is_given_at_a_challenge_table(
    live_server: LiveServer, http: httpx.Client
) -> None:
    """docs/duplicate.md, The daily challenge (docs/protocol.md, Duplicate sets): a table
    of a set is never a practice table, even with one person and bots: over the live
    socket an undo is refused and the coach gives no hint."""
    made = http.post("/duplicate/daily/blackout/play", json={"name": "Ann"}).json()
    table_id = made["table"]["id"]
    start = http.post(
        f"/tables/{table_id}/start", headers={"Authorization": f"Bearer {made['host_token']}"}
    )
    assert start.status_code == 204, start.text
    ann = Player(live_server.ws_url, table_id, made["seat_token"])
    while not ann.my_turn():
        ann.receive()
    assert ann.view is not None
    ann.send({"type": "hint", "id": "h1"})
    while (answer := ann.receive())["type"] not in ("hint", "error"):
        pass
    assert (answer["type"], answer.get("code")) == ("error", "hints_off")
    assert ann.act(ann.view["legal_actions"][0], "a1")["type"] == "ack"
    ann.send({"type": "undo", "id": "u1"})
    while (answer := ann.receive()).get("id") != "u1":
        pass
    assert answer["type"] == "error"
    assert answer["message"] == NOT_IN_DUPLICATE
    ann.close()
