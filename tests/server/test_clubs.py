"""Clubs and evenings over a real server process, on SQLite and PostgreSQL
(docs/clubs.md; docs/protocol.md, Clubs).

Ann makes a club with house rules (Blackout cut to two hands, three at a table),
invites Ben, who accepts; Cyd is no member and is refused everywhere, a guest too. A
duplicate evening of two tables, Ann at one and Ben at the other with bots, is started
together and played to the end (the away bot plays the people's seats: no socket
needed); its standings by points and by matchpoints agree with the duplicate set's own;
a real-card evening's score sheet counts in the members' statistics and on their
players' pages; no answer of the club's ever names a card.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text

from tests.server.people import PASSWORD, person
from tests.server_process import ServerProcess
from tricktaker.cards import parse_card
from tricktaker.server.db import alembic_config, current_revision, upgrade

HOUSE = 'id = "two_hands"\nextends = "blackout"\n[schedule]\nsizes = "2, 3"\n'
"""Blackout cut to two hands (of 2 and 3 cards), a house ruleset."""


@pytest.fixture(scope="module")
def server(module_server: ServerProcess) -> ServerProcess:
    """The module's real server process, on SQLite and on PostgreSQL in turn."""
    return module_server


def _no_card(value: Any, where: str = "answer") -> None:
    """No string anywhere in ``value`` is a card's name."""
    if isinstance(value, dict):
        for key, item in value.items():
            _no_card(item, f"{where}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _no_card(item, f"{where}[{index}]")
    elif isinstance(value, str):
        try:
            parse_card(value)
        except ValueError:
            return
        raise AssertionError(f"{where} names a card: {value!r}")


class Seen:
    """Every answer of the club's routes, checked for cards as it comes."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, answer: httpx.Response, status: int = 200) -> Any:
        assert answer.status_code == status, answer.text
        self.count += 1
        if answer.content:
            body = answer.json()
            _no_card(body)
            return body
        return None


@pytest.mark.slow
def test_a_clubs_evenings_standings_and_statistics(server: ServerProcess) -> None:
    """Issue 31, point 2: a club, an invitation accepted, a non-member and a guest
    refused, a duplicate evening of two tables played to the end, the standings, a
    real-card sheet in the members' statistics, and never a card in an answer."""
    seen = Seen()
    ann, ben, cy = person(server, "Ann"), person(server, "Ben"), person(server, "Cyd")
    guest = httpx.Client(base_url=server.url, timeout=30)
    made = seen(
        ann.post(
            "/api/clubs", json={"name": " Thursday  club ", "ruleset_toml": HOUSE, "players": 3}
        ),
        201,
    )
    club = made["club"]["id"]
    assert made["club"]["name"] == "Thursday club"
    assert made["club"]["rules"]["text"].startswith("Blackout (house rules)")
    assert made["role"] == "organiser"

    # Invitations: the code answered once; a revoked one accepts nobody.
    invite = seen(ann.post(f"/api/clubs/{club}/invites", json={"days": 2}), 201)
    code = invite["code"]
    assert invite["link"] == f"#/club-invite/{code}"
    assert seen(ben.get(f"/api/club-invites/{code}"))["member"] is False
    assert seen(ben.post(f"/api/club-invites/{code}"))["club"] == club
    assert seen(ben.get(f"/api/club-invites/{code}"))["member"] is True
    other = seen(ann.post(f"/api/clubs/{club}/invites", json={}), 201)
    seen(ann.delete(f"/api/clubs/{club}/invites/{other['id']}"), 204)
    refused = cy.post(f"/api/club-invites/{other['code']}")
    assert refused.status_code == 404
    assert refused.json()["type"].endswith("no-invite")
    listed = seen(ann.get(f"/api/clubs/{club}/invites"))["invites"]
    assert [i["revoked"] for i in listed] == [True, False]
    assert code not in str(listed)
    page = seen(ben.get(f"/api/clubs/{club}"))
    assert [(m["name"], m["role"]) for m in page["members"]] == [
        ("Ann", "organiser"),
        ("Ben", "member"),
    ]
    assert [c["club"]["id"] for c in seen(ben.get("/api/clubs"))["clubs"]] == [club]

    # A duplicate evening: two tables, one person and two bots each, started together.
    evening = seen(
        ann.post(f"/api/clubs/{club}/evenings", json={"kind": "duplicate", "name": "Week 1"}),
        201,
    )
    tables = [
        seen(
            ann.post(
                f"/api/clubs/{club}/evenings/{evening['id']}/tables",
                json={"seats": ["human", "easy", "easy"], "grace_seconds": 0.05},
            ),
            201,
        )["table"]
        for _ in range(2)
    ]
    sat = seen(ann.post(f"/api/clubs/{club}/tables/{tables[0]}/seat", json={}), 201)
    assert sat["seat"] == 0
    assert sat["seat_token"]
    seen(ben.post(f"/api/clubs/{club}/tables/{tables[1]}/seat", json={"seat": 0}), 201)
    again = ann.post(f"/api/clubs/{club}/tables/{tables[0]}/seat", json={})
    assert again.status_code == 409
    elsewhere = ann.post(f"/api/clubs/{club}/tables/{tables[1]}/seat", json={})
    assert elsewhere.status_code == 409  # the same deals at the other table
    assert elsewhere.json()["type"].endswith("seated-this-evening")
    early = ben.post(f"/api/clubs/{club}/evenings/{evening['id']}/start", json={})
    assert early.status_code == 403
    assert early.json()["type"].endswith("not-organiser")
    started = seen(ann.post(f"/api/clubs/{club}/evenings/{evening['id']}/start", json={}))
    assert sorted(started["started"]) == sorted(tables)
    deadline = time.monotonic() + 120
    while True:
        night = seen(ben.get(f"/api/clubs/{club}/evenings/{evening['id']}"))
        if all(t["status"] == "finished" for t in night["tables"]):
            break
        # No peeking: only the hands every table has finished are compared, and no
        # table's results are shown while another plays (it would tell the cards).
        least = min(t["hands_played"] for t in night["tables"])
        assert all(row["hands"] <= least for row in night["duplicate"])
        assert night["results"] == []
        assert time.monotonic() < deadline, "the evening never finished"
        time.sleep(0.3)
    assert [t["number"] for t in night["tables"]] == [1, 2]
    assert [t["seats"][0]["member"] for t in night["tables"]] == ["Ann", "Ben"]
    bots = [s for t in night["tables"] for s in t["seats"] if s["state"] == "bot"]
    assert len(bots) == 4
    assert not {s["name"] for s in bots} & {"Ann", "Ben"}  # a bot never has a member's name
    assert [r["bot"] is None for r in night["duplicate"]].count(True) == 2  # the members
    assert all(t["hands_played"] == 2 and t["hands"] == 2 for t in night["tables"])
    results = {row["name"]: row for row in night["results"]}
    assert set(results) == {"Ann", "Ben"}
    assert results["Ann"]["points"] == night["tables"][0]["scores"][0]
    # The evening's duplicate standings are the set's own (GET /duplicate/{set}).
    dup = seen(ann.get(f"/duplicate/{evening['duplicate_set']}"))
    assert [(r["number"], r["seat"], r["matchpoints"]) for r in dup["standings"]] == [
        (r["table"], r["seat"], r["matchpoints"]) for r in night["duplicate"]
    ]

    # The season's standings, by points and by matchpoints.
    points = seen(ann.get(f"/api/clubs/{club}/standings"))
    assert points["by"] == "points"
    assert {r["name"]: r["points"] for r in points["standings"]} == {
        "Ann": results["Ann"]["points"],
        "Ben": results["Ben"]["points"],
    }
    by_mp = seen(ann.get(f"/api/clubs/{club}/standings", params={"by": "matchpoints"}))
    set_rows = {(r["number"], r["seat"]): r for r in dup["standings"]}
    for row in by_mp["standings"]:
        number = 1 if row["name"] == "Ann" else 2
        assert row["matchpoints"] == set_rows[(number, 0)]["matchpoints"]
        assert row["boards"] == 2
        assert row["evenings"] == 1
    empty = seen(ann.get(f"/api/clubs/{club}/standings", params={"to": "2000-01-01"}))
    assert empty["standings"] == []
    assert empty["evenings"] == 0

    # A real-card evening: a sheet of Ann, Ben and a guest; its hand counts for both.
    cards = seen(ann.post(f"/api/clubs/{club}/evenings", json={"kind": "cards"}), 201)
    sheet = seen(
        ben.post(
            f"/api/clubs/{club}/evenings/{cards['id']}/sheets",
            json={"players": ["ann", "Ben", "Zed"]},
        ),
        201,
    )
    assert sheet["members"] == ["ann", "Ben", None]
    hand = {"bids": [1, 0, 1], "tricks": [1, 0, 1]}
    auth = {"Authorization": f"Bearer {sheet['edit_token']}"}
    added = ben.post(f"/sheets/{sheet['id']}/hands", json=hand, headers=auth)
    assert added.status_code in (200, 201), added.text
    no_tables = ann.post(f"/api/clubs/{club}/evenings/{cards['id']}/tables", json={})
    assert no_tables.status_code == 409
    figures = seen(ann.get(f"/api/clubs/{club}/statistics"))["members"]
    by_name = {m["name"]: m["statistics"] for m in figures}
    [ben_rules] = by_name["Ben"]
    assert ben_rules["games"] == 2
    assert ben_rules["sheets"] == 1
    assert ben_rules["total"]["hands"] == 3
    assert (
        ben_rules["total"]["perfect"] + ben_rules["total"]["set"] + ben_rules["total"]["over"] == 3
    )
    night = seen(ann.get(f"/api/clubs/{club}/evenings/{cards['id']}"))
    assert night["sheets"][0]["members"] == ["Ann", "Ben", None]
    assert night["sheets"][0]["hands"] == 1
    # The sheet counts on Ben's own page too (tricktaker.stats' sheet input).
    page_ben = ben.get("/api/players/Ben").json()
    house = [s for s in page_ben["statistics"] if s["rules"]["game"] == "two_hands"]
    assert house[0]["sheets"] == 1

    # Who may do what: Cyd (no member) and a guest are refused every club route.
    routes = [
        ("GET", f"/api/clubs/{club}", None),
        ("GET", f"/api/clubs/{club}/evenings/{evening['id']}", None),
        ("GET", f"/api/clubs/{club}/standings", None),
        ("GET", f"/api/clubs/{club}/statistics", None),
        ("GET", f"/api/clubs/{club}/invites", None),
        ("POST", f"/api/clubs/{club}/invites", {}),
        ("DELETE", f"/api/clubs/{club}/invites/{invite['id']}", None),
        ("POST", f"/api/clubs/{club}/evenings", {}),
        ("POST", f"/api/clubs/{club}/evenings/{evening['id']}/tables", {}),
        ("POST", f"/api/clubs/{club}/evenings/{evening['id']}/start", {}),
        ("POST", f"/api/clubs/{club}/evenings/{cards['id']}/sheets", {"players": ["Cy"]}),
        ("POST", f"/api/clubs/{club}/tables/{tables[0]}/seat", {}),
        ("POST", f"/api/clubs/{club}/tables/{tables[0]}/start", {}),
        ("PATCH", f"/api/clubs/{club}/members/Ben", {"role": "organiser"}),
        ("DELETE", f"/api/clubs/{club}/members/Ben", None),
    ]
    for method, path, body in routes:
        answer = cy.request(method, path, json=body)
        assert answer.status_code == 403, (method, path, answer.text)
        assert answer.json()["type"].endswith("not-member")
        answer = guest.request(method, path, json=body)
        assert answer.status_code == 401, (method, path, answer.text)
    for method, path, body in routes[4:]:  # the organisers' routes refuse a member
        if path.endswith(("/seat", "/sheets")):
            continue
        if method == "DELETE" and path.endswith("/members/Ben"):
            continue  # a member may leave by themself
        answer = ben.request(method, path, json=body)
        assert answer.status_code == 403, (method, path, answer.text)
    assert guest.get(f"/api/club-invites/{code}").status_code == 401
    assert guest.post("/api/clubs", json={"name": "x", "game": "blackout"}).status_code == 401
    # Without the CSRF header the session's POST is refused.
    bare = httpx.Client(base_url=server.url, timeout=30, cookies=ann.cookies)
    assert bare.post(f"/api/clubs/{club}/invites", json={}).status_code == 403
    # Roles: Ann appoints Ben; the last organiser cannot step down alone.
    seen(ann.patch(f"/api/clubs/{club}/members/ben", json={"role": "organiser"}))
    seen(ben.patch(f"/api/clubs/{club}/members/Ann", json={"role": "member"}))
    last = ben.patch(f"/api/clubs/{club}/members/Ben", json={"role": "member"})
    assert last.status_code == 409
    assert seen(ann.get(f"/api/clubs/{club}"))["role"] == "member"
    assert seen.count >= 25
    for client in (ann, ben, cy, guest, bare):
        client.close()


def test_the_clubs_migration_goes_up_and_down(db_url: str) -> None:
    """Migration 0013 adds the clubs' tables and takes them away again."""
    upgrade(db_url, "0011")
    engine = create_engine(db_url)
    assert "clubs" not in inspect(engine).get_table_names()
    engine.dispose()
    upgrade(db_url)
    assert current_revision(db_url) == "0016"
    engine = create_engine(db_url)
    names = set(inspect(engine).get_table_names())
    engine.dispose()
    assert {"clubs", "club_members", "club_invites", "club_evenings"} <= names
    assert {"club_tables", "club_sheets"} <= names
    command.downgrade(alembic_config(db_url), "0011")
    assert current_revision(db_url) == "0011"
    engine = create_engine(db_url)
    names = set(inspect(engine).get_table_names())
    engine.dispose()
    assert "clubs" not in names
    assert "tables" in names
    upgrade(db_url)
    assert current_revision(db_url) == "0016"


def test_an_expired_invitation_joins_nobody(client: TestClient, db_url: str) -> None:
    """An invitation past its expiry is refused as a revoked one is (404 ``no-invite``),
    whether looked at or accepted."""
    made = client.post("/api/signup", json={"name": "Ann", "password": PASSWORD})
    assert made.status_code == 201, made.text
    client.headers["X-CSRF-Token"] = client.cookies["tricktaker_csrf"]
    club = client.post("/api/clubs", json={"name": "Sundays", "game": "blackout"})
    assert club.status_code == 201, club.text
    code = client.post(f"/api/clubs/{club.json()['club']['id']}/invites", json={"days": 1})
    engine = create_engine(db_url)
    with engine.begin() as connection:
        connection.execute(
            text("UPDATE club_invites SET expires_at = :at"),
            {"at": datetime.now(UTC) - timedelta(minutes=1)},
        )
    engine.dispose()
    assert client.post("/api/logout").status_code == 204
    client.headers.pop("X-CSRF-Token")
    made = client.post("/api/signup", json={"name": "Ben", "password": PASSWORD})
    client.headers["X-CSRF-Token"] = client.cookies["tricktaker_csrf"]
    for method in ("GET", "POST"):
        answer = client.request(method, f"/api/club-invites/{code.json()['code']}")
        assert answer.status_code == 404, answer.text
        assert answer.json()["type"].endswith("no-invite")
    assert client.get("/api/clubs").json() == {"clubs": []}
