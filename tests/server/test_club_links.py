"""A club's tables and duplicate sets name their club, over a real server process, on
SQLite and PostgreSQL (docs/protocol.md, the table's ``club``; docs/clubs.md, What a
club's tables show): ``GET /tables/{id}`` and the socket's welcome say the club, the
evening and the table's number, as the table was made and as a restarted server reads
it back; another table says null; a duplicate evening's set says its club too."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.postgres import PostgresServer
from tests.server.helpers import Player
from tests.server.people import person
from tests.server_process import ServerProcess, free_port

HOUSE = 'id = "one_hand"\nextends = "blackout"\n[schedule]\nsizes = "1"\n'


def test_a_clubs_table_and_set_name_the_club_and_evening(server: ServerProcess) -> None:
    """Ann's Thursday club has a duplicate evening with two tables: each says the club,
    the evening and its number (to a guest too: whoever may see the table), before and
    after the server restarts; a table made in the lobby says ``club: null``."""
    ann = person(server, "Ann")
    guest = httpx.Client(base_url=server.url, timeout=30)
    try:
        made = ann.post(
            "/api/clubs", json={"name": "Thursday club", "ruleset_toml": HOUSE, "players": 3}
        )
        assert made.status_code == 201, made.text
        club = made.json()["club"]["id"]
        body = {"kind": "duplicate", "name": "Week 1", "day": "2026-11-26"}
        evening = ann.post(f"/api/clubs/{club}/evenings", json=body).json()
        path = f"/api/clubs/{club}/evenings/{evening['id']}/tables"
        seats = {"seats": ["human", "easy", "easy"]}
        tables = [ann.post(path, json=seats).json()["table"] for _ in range(2)]
        expected = {
            "id": club,
            "name": "Thursday club",
            "evening": {"id": evening["id"], "day": "2026-11-26", "name": "Week 1"},
        }
        for number, table in enumerate(tables, 1):
            assert guest.get(f"/tables/{table}").json()["club"] == {**expected, "number": number}
        sat = ann.post(f"/api/clubs/{club}/tables/{tables[1]}/seat", json={"seat": 0})
        assert sat.status_code == 201, sat.text
        seated = Player(server.ws_url, tables[1], sat.json()["seat_token"])
        try:  # the member at the table reads the club in the socket's welcome
            welcome = next(m for m in seated.messages if m["type"] == "welcome")
            assert welcome["table"]["club"] == {**expected, "number": 2}
        finally:
            seated.close()
        standings = guest.get(f"/duplicate/{evening['duplicate_set']}").json()
        assert standings["set"]["club"] == {**expected, "number": None}

        plain = guest.post("/tables", json={"game": "blackout", "seats": ["human", "easy"]})
        assert plain.status_code == 201, plain.text
        plain_id = plain.json()["table"]["id"]
        assert plain.json()["table"]["club"] is None

        server.stop()  # read back from the database by a new process
        server.start()
        for number, table in enumerate(tables, 1):
            assert guest.get(f"/tables/{table}").json()["club"] == {**expected, "number": number}
        assert guest.get(f"/tables/{plain_id}").json()["club"] is None
        made_set = guest.post("/duplicate", json={"game": "blackout", "players": 3}).json()
        assert guest.get(f"/duplicate/{made_set['set']['id']}").json()["set"]["club"] is None
    finally:
        ann.close()
        guest.close()


@pytest.mark.postgres
@pytest.mark.slow
def test_a_spectator_on_another_process_reads_the_club(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    """Two processes on one PostgreSQL: Ann's club table is held by the first; a guest
    watching it through the second (a mirror, docs/deploy.md) reads its club in the
    welcome, as the holder's own sockets do."""
    url = postgres_server.create_database()
    first = ServerProcess(url, free_port(), tmp_path / "first.log")
    second = ServerProcess(url, free_port(), tmp_path / "second.log")
    ann: httpx.Client | None = None
    try:
        first.start()
        second.start()
        ann = person(first, "Ann")
        made = ann.post("/api/clubs", json={"name": "Club", "ruleset_toml": HOUSE, "players": 3})
        club = made.json()["club"]["id"]
        evening = ann.post(f"/api/clubs/{club}/evenings", json={"day": "2026-11-26"}).json()
        path = f"/api/clubs/{club}/evenings/{evening['id']}/tables"
        table = ann.post(path, json={"seats": ["human", "easy", "easy"]}).json()["table"]
        watcher = Player(second.ws_url, table, None)
        try:
            welcome = next(m for m in watcher.messages if m["type"] == "welcome")
        finally:
            watcher.close()
        assert welcome["table"]["club"] == {
            "id": club,
            "name": "Club",
            "evening": {"id": evening["id"], "day": "2026-11-26", "name": None},
            "number": 1,
        }
    finally:
        if ann is not None:
            ann.close()
        second.stop()
        first.stop()
        postgres_server.drop_database(url)
