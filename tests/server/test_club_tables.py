"""A club's tables over a real server process, on SQLite and PostgreSQL: what the
organiser's start does to the seats nobody took (docs/clubs.md, Evenings)."""

from __future__ import annotations

import httpx

from tests.server_process import ServerProcess

PASSWORD = "correct horse battery"
HOUSE = 'id = "one_hand"\nextends = "blackout"\n[schedule]\nsizes = "1"\n'


def _signed_up(server: ServerProcess, name: str) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=30)
    made = client.post("/api/signup", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    client.headers["X-CSRF-Token"] = client.cookies["tricktaker_csrf"]
    return client


def test_a_bot_started_in_a_free_seat_never_has_a_members_name(server: ServerProcess) -> None:
    """Seat 1's bot is "Ben" at any table; at a club with a member Ben, the bot the
    start puts in a free seat 1 is named otherwise, so that the club's page never shows
    "Ben (bot)" beside Ben at another table."""
    ann, ben = _signed_up(server, "Ann"), _signed_up(server, "Ben")
    try:
        made = ann.post("/api/clubs", json={"name": "Club", "ruleset_toml": HOUSE, "players": 3})
        assert made.status_code == 201, made.text
        club = made.json()["club"]["id"]
        invite = ann.post(f"/api/clubs/{club}/invites", json={}).json()
        assert ben.post(f"/api/club-invites/{invite['code']}").status_code == 200
        evening = ann.post(f"/api/clubs/{club}/evenings", json={"kind": "duplicate"}).json()
        path = f"/api/clubs/{club}/evenings/{evening['id']}"
        seats = {"seats": ["human", "human", "easy"]}
        tables = [ann.post(f"{path}/tables", json=seats).json()["table"] for _ in range(2)]
        for person, table in ((ben, tables[0]), (ann, tables[1])):
            sat = person.post(f"/api/clubs/{club}/tables/{table}/seat", json={"seat": 0})
            assert sat.status_code == 201, sat.text
        started = ann.post(f"{path}/start", json={"bot": "easy"})
        assert started.status_code == 200, started.text
        views = ann.get(path).json()["tables"]
        names = [[(s["name"], s["state"]) for s in view["seats"]] for view in views]
        bots = [name for table in names for name, state in table if state == "bot"]
        assert len(bots) == 4, names
        assert not {"ann", "ben"} & {name.casefold() for name in bots}, names
        assert [view["seats"][0]["member"] for view in views] == ["Ben", "Ann"], names
    finally:
        ann.close()
        ben.close()
