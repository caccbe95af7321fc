"""Duplicate that is fair, over a real server process on SQLite and PostgreSQL
(docs/duplicate.md, No peeking, The daily challenge, Once a day, Bots in a set).

A set's standings show a hand's results to a viewer only once the viewer's own table has
finished it, or once every table of the set has; the daily challenge's deals come from
the server's secret, never sent; a day's challenge is played once by an account and
once by a browser; a table's seeded bots play on after the server is killed and started
again exactly as those of a table that never stopped.
"""

from __future__ import annotations

import datetime
import json
import time
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from tests.server.helpers import Player
from tests.server.people import person
from tests.server_process import ServerProcess
from tricktaker import load_ruleset
from tricktaker.duplicate import daily_seed, make_set
from tricktaker.engine import GameRecord
from tricktaker.engine.base import GAME_OVER, PHASE_NAMES


@pytest.fixture(scope="module")
def server(module_server: ServerProcess) -> ServerProcess:
    """The module's real server process, on SQLite and on PostgreSQL in turn."""
    return module_server


def _guest(server: ServerProcess) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=30)


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _start(http: httpx.Client, table: dict[str, Any]) -> None:
    answer = http.post(
        f"/tables/{table['table']['id']}/start", headers=_bearer(table["host_token"])
    )
    assert answer.status_code == 204, answer.text


def _seat_to_bot(http: httpx.Client, table: dict[str, Any], bot: str = "random") -> None:
    answer = http.put(
        f"/tables/{table['table']['id']}/seats/0/bot",
        json={"bot": bot},
        headers=_bearer(table["host_token"]),
    )
    assert answer.status_code == 204, answer.text


def _wait_finished(http: httpx.Client, table_id: str, limit: float = 180.0) -> None:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if http.get(f"/tables/{table_id}").json()["status"] == "finished":
            return
        time.sleep(0.2)
    raise AssertionError(f"table {table_id} did not finish")


def _shown(http: httpx.Client, path: str, token: str | None = None) -> dict[str, Any]:
    answer = http.get(path, headers=_bearer(token) if token else {})
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    hands = set(body["hands_shown"])
    for row in body["standings"]:  # nothing of a hidden hand, not even a count
        assert {board["hand"] for board in row["boards"]} <= hands
    return body


def test_no_peeking_at_a_set(server: ServerProcess) -> None:
    """docs/duplicate.md, No peeking: table 1 finishes every hand while table 2 waits
    for its person in hand 1; the standings show table 1's hands to table 1's person
    alone, nothing to table 2's person or anyone else, and everything to everyone once
    both tables are done."""
    http = _guest(server)
    made = http.post("/duplicate", json={"game": "blackout", "players": 4, "seed": 21}).json()
    set_id, host = made["set"]["id"], made["host_token"]
    tables = []
    for grace in (0.05, 600.0):  # table 1's person away at once: the away bot plays
        answer = http.post(
            f"/duplicate/{set_id}/tables",
            json={
                "seats": ["human", "random", "random", "random"],
                "host_seat": 0,
                "grace_seconds": grace,
                "away_bot": "random",
            },
            headers=_bearer(host),
        )
        assert answer.status_code == 201, answer.text
        tables.append(answer.json())
    one, two = tables
    _start(http, one)
    _start(http, two)
    _wait_finished(http, one["table"]["id"])
    path = f"/duplicate/{set_id}"
    everyone = _shown(http, path)
    assert (everyone["hands_shown"], everyone["standings"]) == ([], [])
    assert [t["hands_played"] for t in everyone["tables"]] == [13, 0]
    waiting = _shown(http, path, two["seat_token"])
    assert (waiting["hands_shown"], waiting["standings"]) == ([], [])
    done = _shown(http, path, one["seat_token"])
    assert done["hands_shown"] == list(range(1, 14))
    assert {(row["number"], row["hands"]) for row in done["standings"]} == {(1, 13)}
    assert _shown(http, path, "not-a-seat-token")["hands_shown"] == []
    # Table 1 is over, but neither it nor table 2 may be watched, nor table 1's record
    # read, while table 2 plays: its person would see the cards ahead.
    for table in tables:
        watcher = Player(server.ws_url, table["table"]["id"], None, hello=False)
        watcher.send({"type": "hello", "v": 1, "token": None, "last_seq": None})
        refused = watcher.until("error")
        assert refused["code"] == "unauthorized"
        assert "once every table of the set has finished" in refused["message"]
        watcher.close()
    early = http.get(f"/tables/{one['table']['id']}/record")
    assert (early.status_code, early.json()["type"].rsplit("/", 1)[-1]) == (403, "not-watchable")
    _seat_to_bot(http, two)
    _wait_finished(http, two["table"]["id"])
    after = _shown(http, path)
    assert after["hands_shown"] == list(range(1, 14))
    assert len(after["standings"]) == 8
    assert http.get(f"/tables/{one['table']['id']}/record").status_code == 200
    watcher = Player(server.ws_url, one["table"]["id"], None)
    assert watcher.seat is None  # welcomed as a spectator now
    watcher.close()
    http.close()


def test_the_daily_challenge_once_a_day_with_a_secret(server: ServerProcess) -> None:
    """docs/duplicate.md, The daily challenge and Once a day: the deals come from the
    server's secret (stored, never sent); an account plays a game's challenge once and a
    browser holding its seat token once, each refused with its table; the standings
    name an account's seat by the account and show a hand only to those who finished it
    while the day lasts."""
    ann = person(server, "AnnDaily")
    guest = _guest(server)
    game = "blackout"
    first = ann.post(f"/duplicate/daily/{game}/play", json={})
    assert first.status_code == 201, first.text
    table = first.json()
    again = ann.post(f"/duplicate/daily/{game}/play", json={"name": "Ann again"})
    assert again.status_code == 409, again.text
    assert again.json()["table"] == table["table"]["id"]
    assert f"#/table/{table['table']['id']}" in again.json()["detail"]
    mine = guest.post(f"/duplicate/daily/{game}/play", json={"name": "Gus"}).json()
    twice = guest.post(
        f"/duplicate/daily/{game}/play", json={}, headers=_bearer(mine["seat_token"])
    )
    assert (twice.status_code, twice.json()["table"]) == (409, mine["table"]["id"])
    path = f"/duplicate/daily/{game}"
    assert _shown(ann, path)["hands_shown"] == []
    _seat_to_bot(ann, table, "easy")
    _start(ann, table)
    _wait_finished(ann, table["table"]["id"])
    seen = _shown(ann, path)
    assert seen["hands_shown"] == list(range(1, 14))
    ann_row = next(row for row in seen["standings"] if row["seat"] == 0)
    assert (ann_row["name"], ann_row["account"]) == ("AnnDaily", "AnnDaily")
    assert _shown(guest, path)["hands_shown"] == []  # Gus has not played; the day goes on
    assert _shown(guest, path, mine["seat_token"])["hands_shown"] == []
    record = ann.get(f"/tables/{table['table']['id']}/record")  # not while the day lasts
    assert (record.status_code, record.json()["type"].rsplit("/", 1)[-1]) == (403, "not-watchable")
    today = datetime.datetime.now(datetime.UTC).date()
    rules = load_ruleset(game)
    public = make_set(rules, players=4, seed=daily_seed(today, rules.id, b""))
    engine = create_engine(server.db_url)
    with engine.connect() as connection:
        secret = connection.execute(
            text("SELECT value FROM server_secrets WHERE name = 'daily'")
        ).scalar_one()
        deals = connection.execute(
            text("SELECT deals FROM duplicate_sets WHERE preset = :game AND day = :day"),
            {"game": game, "day": today.isoformat()},
        ).scalar_one()
    engine.dispose()
    stored = deals if isinstance(deals, list) else json.loads(deals)
    assert stored != public.to_json()["deals"]  # not the deals of the date alone
    assert len(secret) == 64
    assert secret not in seen.__repr__() + first.text + again.text
    ann.close()
    guest.close()


def _play_first_legal(player: Player, until_events: int | None) -> None:
    """Play the person's seat (its first legal action) until the game ends or, given
    ``until_events``, until the table's seq passes it."""
    count = 0
    while True:
        assert player.view is not None
        if player.view["phase"] == PHASE_NAMES[GAME_OVER]:
            return
        if until_events is not None and player.seq >= until_events:
            return
        if player.my_turn():
            count += 1
            answer = player.act(str(player.view["legal_actions"][0]), f"a{player.seq}-{count}")
            assert answer["type"] != "error", answer
        else:
            try:
                player.receive(timeout=60)
            except TimeoutError:
                return


@pytest.mark.slow
def test_seeded_bots_play_on_alike_after_a_restart(server: ServerProcess) -> None:
    """docs/duplicate.md, Bots in a set: a table of a set whose server is killed (SIGKILL)
    and started again mid-game goes on exactly as a table of the set that never stopped,
    the person playing alike at both. Random bots: each choice is a draw, so a bot made
    again from its seed alone would draw otherwise from there."""
    http = _guest(server)
    made = http.post("/duplicate", json={"game": "blackout", "players": 4, "seed": 5}).json()
    set_id, host = made["set"]["id"], made["host_token"]
    tables = []
    for _ in range(2):
        answer = http.post(
            f"/duplicate/{set_id}/tables",
            json={"seats": ["human", "random", "random", "random"], "host_seat": 0},
            headers=_bearer(host),
        )
        tables.append(answer.json())
    for table in tables:
        _start(http, table)
    ids = [table["table"]["id"] for table in tables]
    steady = Player(server.ws_url, ids[0], tables[0]["seat_token"])
    _play_first_legal(steady, None)
    steady.close()
    _wait_finished(http, ids[0])
    broken = Player(server.ws_url, ids[1], tables[1]["seat_token"])
    _play_first_legal(broken, 60)
    broken.close()
    server.kill()
    server.start()
    again = Player(server.ws_url, ids[1], tables[1]["seat_token"])
    _play_first_legal(again, None)
    again.close()
    _wait_finished(http, ids[1])
    records = [
        GameRecord.from_json(http.get(f"/tables/{table_id}/record").json()) for table_id in ids
    ]
    assert records[0].events == records[1].events
    http.close()
