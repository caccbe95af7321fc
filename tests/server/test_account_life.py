"""An account's whole life over a real server, on SQLite and PostgreSQL
(docs/accounts.md): changing the password, signing out the other
devices, deleting the account (what goes, what stays for other people), and failed
log-ins counted in the database, so that two server applications on one database share
the count.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import inspect, text
from sqlalchemy.orm import sessionmaker

from tests.server.people import PASSWORD, csrf, person, sign_up
from tests.server_process import ServerProcess
from tricktaker.server import create_app
from tricktaker.server.accounts import store
from tricktaker.server.accounts.cookies import csrf_token
from tricktaker.server.accounts.deletion import DELETED_NAME, delete_account
from tricktaker.server.accounts.limits import AccountLimits, TooManyTriesError, Window
from tricktaker.server.db import alembic_config, make_engine, upgrade

HOUSE = 'id = "two_hands"\nextends = "blackout"\n[schedule]\nsizes = "2, 3"\n'
"""Blackout cut to two hands (of 2 and 3 cards), a house ruleset: a short club game."""

NEW_PASSWORD = "a new and longer passphrase"


@pytest.fixture(scope="module")
def server(module_server: ServerProcess) -> ServerProcess:
    """The module's real server process, on SQLite and on PostgreSQL in turn."""
    return module_server


def _ok(answer: httpx.Response, status: int = 200) -> Any:
    assert answer.status_code == status, answer.text
    return answer.json() if answer.content else None


def _code(answer: httpx.Response) -> str:
    return str(answer.json()["type"]).rsplit("/", 1)[-1]


def _log_in(server: ServerProcess, name: str, password: str = PASSWORD) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=30)
    _ok(client.post("/api/login", json={"name": name, "password": password}))
    client.headers.update(csrf(client))
    return client


@pytest.mark.slow
def test_changing_the_password_ends_the_other_sessions(server: ServerProcess) -> None:
    """The current password is needed; every other session ends; this browser gets a
    new session (new cookies and CSRF token) and stays signed in."""
    phone = person(server, "pat.change")
    laptop = _log_in(server, "pat.change")
    old_session = phone.cookies["tricktaker_session"]
    wrong = phone.post(
        "/api/me/password",
        json={"current_password": "not the password", "new_password": NEW_PASSWORD},
    )
    assert wrong.status_code == 403, wrong.text
    assert _code(wrong) == "wrong-password"
    short = phone.post("/api/me/password", json={"current_password": PASSWORD, "new_password": "x"})
    assert short.status_code == 422, short.text
    assert _code(short) == "bad-password"
    changed = _ok(
        phone.post(
            "/api/me/password", json={"current_password": PASSWORD, "new_password": NEW_PASSWORD}
        )
    )
    assert changed["ended"] == 1
    assert changed["user"]["name"] == "pat.change"
    assert phone.cookies["tricktaker_session"] != old_session
    assert changed["csrf_token"] == phone.cookies["tricktaker_csrf"]
    phone.headers.update(csrf(phone))
    assert _ok(phone.get("/api/me"))["session"] == changed["session"]
    assert laptop.get("/api/me").status_code == 401
    [only] = _ok(phone.get("/api/me/sessions"))["sessions"]
    assert only["current"]
    old = httpx.post(f"{server.url}/api/login", json={"name": "pat.change", "password": PASSWORD})
    assert old.status_code == 401
    _log_in(server, "pat.change", NEW_PASSWORD)
    stale = httpx.post(
        f"{server.url}/api/me/password",
        json={"current_password": NEW_PASSWORD, "new_password": PASSWORD},
        cookies={"tricktaker_session": old_session},
        headers={"X-CSRF-Token": csrf_token(old_session)},
    )
    assert stale.status_code == 401, stale.text  # the old session is no more


def test_signing_out_the_other_devices(server: ServerProcess) -> None:
    """``DELETE /api/me/sessions/others`` ends every session but this one."""
    here = person(server, "sam.devices")
    there = [_log_in(server, "sam.devices") for _ in range(2)]
    assert len(_ok(here.get("/api/me/sessions"))["sessions"]) == 3
    assert _ok(here.delete("/api/me/sessions/others")) == {"ended": 2}
    assert all(client.get("/api/me").status_code == 401 for client in there)
    [only] = _ok(here.get("/api/me/sessions"))["sessions"]
    assert only["current"]
    assert _ok(here.delete("/api/me/sessions/others")) == {"ended": 0}
    assert httpx.delete(f"{server.url}/api/me/sessions/others").status_code == 401


def _played_club_table(ann: httpx.Client, ben: httpx.Client) -> tuple[str, str]:
    """A club of Ann's that Ben joins, and an evening's table the two play with a bot
    (the away bot plays their seats: nobody connects) to its end."""
    club = _ok(
        ann.post("/api/clubs", json={"name": "Life club", "ruleset_toml": HOUSE, "players": 3}),
        201,
    )["club"]["id"]
    code = _ok(ann.post(f"/api/clubs/{club}/invites", json={}), 201)["code"]
    _ok(ben.post(f"/api/club-invites/{code}"))
    evening = _ok(ann.post(f"/api/clubs/{club}/evenings", json={"kind": "tables"}), 201)["id"]
    table = _ok(
        ann.post(
            f"/api/clubs/{club}/evenings/{evening}/tables",
            json={"seats": ["human", "human", "easy"], "grace_seconds": 0.05},
        ),
        201,
    )["table"]
    _ok(ann.post(f"/api/clubs/{club}/tables/{table}/seat", json={"seat": 0}), 201)
    _ok(ben.post(f"/api/clubs/{club}/tables/{table}/seat", json={"seat": 1}), 201)
    _ok(ann.post(f"/api/clubs/{club}/evenings/{evening}/start", json={}))
    deadline = time.monotonic() + 120
    while _ok(ann.get(f"/tables/{table}"))["status"] != "finished":
        assert time.monotonic() < deadline, "the game never finished"
        time.sleep(0.2)
    return club, table


@pytest.mark.slow
def test_deleting_an_account(server: ServerProcess) -> None:
    """The password is needed; the only organiser of a club with other members hands it
    over first; then the account's sessions, name and page go, the name is free again,
    and the finished game, Ben's standings and Ben's rating stay as they were, the
    deleted player's seat named "deleted player"."""
    ann, ben = person(server, "Ann.Gone"), person(server, "Ben.Stays")
    other_device = _log_in(server, "Ann.Gone")
    club, table = _played_club_table(ann, ben)
    solo = _ok(ann.post("/api/clubs", json={"name": "Ann alone", "ruleset_toml": HOUSE}), 201)
    standings = _ok(ben.get(f"/api/clubs/{club}/standings"))["standings"]
    ben_row = next(row for row in standings if row["name"] == "Ben.Stays")
    ben_page = _ok(ben.get("/api/players/Ben.Stays"))
    assert ben_page["ratings"], "the game two people played is rated"
    assert _ok(ann.get("/api/players/Ann.Gone"))["history"]["games"]

    wrong = ann.request("DELETE", "/api/me", json={"password": "not the password"})
    assert wrong.status_code == 403, wrong.text
    assert _code(wrong) == "wrong-password"
    assert [c["id"] for c in _ok(ann.get("/api/me"))["hand_over"]] == [club]
    refused = ann.request("DELETE", "/api/me", json={"password": PASSWORD})
    assert refused.status_code == 409, refused.text
    assert _code(refused) == "hand-over-first"
    assert refused.json()["clubs"] == [{"id": club, "name": "Life club"}]
    assert "Life club" in refused.json()["detail"]
    _ok(ann.patch(f"/api/clubs/{club}/members/Ben.Stays", json={"role": "organiser"}))
    assert _ok(ann.get("/api/me"))["hand_over"] == []
    deleted = ann.request("DELETE", "/api/me", json={"password": PASSWORD})
    assert deleted.status_code == 204, deleted.text
    assert "tricktaker_session" not in ann.cookies

    # What was Ann's is gone: her sessions, her log-in, her page, her membership.
    assert other_device.get("/api/me").status_code == 401
    gone = httpx.post(f"{server.url}/api/login", json={"name": "Ann.Gone", "password": PASSWORD})
    assert gone.status_code == 401
    assert ben.get("/api/players/Ann.Gone").status_code == 404
    assert ben.get("/api/players/deleted player").status_code == 404
    engine = make_engine(server.db_url)  # a club whose only member she was is gone
    try:
        with engine.connect() as connection:
            clubs = connection.execute(text("SELECT id FROM clubs")).scalars().all()
    finally:
        engine.dispose()
    assert club in clubs
    assert solo["club"]["id"] not in clubs
    members = _ok(ben.get(f"/api/clubs/{club}"))["members"]
    assert [(m["name"], m["role"]) for m in members] == [("Ben.Stays", "organiser")]
    # What is other people's stays, without her name.
    after = _ok(ben.get(f"/api/clubs/{club}/standings"))["standings"]
    assert [row for row in after if row["name"] == "Ben.Stays"] == [ben_row]
    assert "Ann.Gone" not in str(after)
    assert _ok(ben.get("/api/players/Ben.Stays"))["ratings"] == ben_page["ratings"]
    seats = _ok(ben.get(f"/tables/{table}"))["seats"]
    assert [s["name"] for s in seats][:2] == ["deleted player", "Ben.Stays"]
    record = ben.get(f"/tables/{table}/record", params={"game": 1})
    assert record.status_code == 200, record.text
    assert "Ann.Gone" not in record.text
    assert "Ann.Gone" not in ben.get("/api/players/Ben.Stays").text

    # The name is free again, for a new account that holds none of the old one's games.
    again = person(server, "ann.gone")
    page = _ok(again.get("/api/players/ann.gone"))
    assert page["history"]["games"] == []
    assert page["ratings"] == []


def _limits(at: list[datetime]) -> AccountLimits:
    return AccountLimits(Window(3, 60.0), Window(5, 60.0), Window(2, 600.0), clock=lambda: at[0])


def test_the_limits_are_a_sliding_window_in_the_database(db_url: str) -> None:
    """A name's failures count for their window only; the wait is until the oldest of
    the last ``tries`` leaves it; the address's limit counts every name."""
    upgrade(db_url)
    engine = make_engine(db_url)
    factory = sessionmaker(engine)
    at = [datetime(2026, 1, 1, 12, 0, tzinfo=UTC)]
    limits = _limits(at)
    try:
        for second in (0, 10, 20):
            at[0] = datetime(2026, 1, 1, 12, 0, second, tzinfo=UTC)
            limits.check_login(factory, "ann", "1.2.3.4")
            limits.failed_login(factory, "ann", "1.2.3.4")
        with pytest.raises(TooManyTriesError) as refused:
            limits.check_login(factory, "ann", "5.6.7.8")
        assert refused.value.retry_after == 40  # the failure at :00 leaves at 1:00
        limits.check_login(factory, "bob", "5.6.7.8")  # another name, another address
        at[0] += timedelta(seconds=41)
        limits.check_login(factory, "ann", "1.2.3.4")  # one slot free again
        limits.failed_login(factory, "ann", "1.2.3.4")
        with pytest.raises(TooManyTriesError):
            limits.check_login(factory, "ann", "1.2.3.4")
        for _ in range(2):  # five from the address in the last 60 s (:10 to 1:01)
            limits.failed_login(factory, "cy", "1.2.3.4")
        with pytest.raises(TooManyTriesError):
            limits.check_login(factory, "dee", "1.2.3.4")
        limits.check_signup(factory, "1.2.3.4")
        limits.check_signup(factory, "1.2.3.4")
        with pytest.raises(TooManyTriesError):
            limits.check_signup(factory, "1.2.3.4")
    finally:
        engine.dispose()


@pytest.mark.slow
def test_two_applications_on_one_database_share_the_count(db_url: str) -> None:
    """Failed log-ins spread over two server applications on one database count as
    one: five failures for a name, three at one and two at the other, and both refuse
    the next (the right password too) with Retry-After; a wrong current password
    when changing it counts the same."""
    first = TestClient(create_app(db_url))
    second = TestClient(create_app(db_url))
    with first, second:
        sign_up(first, "lee.limits")
        first.headers.update(csrf(first))
        for client, tries in ((second, 3), (first, 1)):
            for _ in range(tries):
                bad = client.post("/api/login", json={"name": "Lee.Limits", "password": "nope1234"})
                assert bad.status_code == 401, bad.text
        wrong = first.post(
            "/api/me/password", json={"current_password": "nope1234", "new_password": PASSWORD}
        )
        assert wrong.status_code == 403, wrong.text
        for client in (first, second):
            refused = client.post("/api/login", json={"name": "lee.limits", "password": PASSWORD})
            assert refused.status_code == 429, refused.text
            assert _code(refused) == "too-many-tries"
            assert 1 <= int(refused.headers["Retry-After"]) <= 300
        also = first.post(
            "/api/me/password", json={"current_password": PASSWORD, "new_password": PASSWORD}
        )
        assert also.status_code == 429, also.text


def test_the_migration_goes_down_and_up_with_a_deleted_account(db_url: str) -> None:
    """Migration 0015: going back, a deleted account's empty name key becomes ``~`` and
    its id (no user name can be it) and the failures' table goes; up again, both are
    back and the blank account is marked deleted again."""
    upgrade(db_url)
    engine = make_engine(db_url)
    factory = sessionmaker(engine)
    try:
        kept = store.create_user(factory, "Kim", "kim", "not-a-real-hash")
        gone = store.create_user(factory, "Lou", "lou", "not-a-real-hash")
        delete_account(factory, gone.id)
        command.downgrade(alembic_config(db_url), "0014")
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT id, name_key FROM users")).all()
        keys: dict[int, str | None] = {row[0]: row[1] for row in rows}
        assert keys == {kept.id: "kim", gone.id: f"~{gone.id}"}
        assert "account_failures" not in inspect(engine).get_table_names()
        upgrade(db_url)
        assert "account_failures" in inspect(engine).get_table_names()
        assert store.password_of(factory, "kim") is not None
        with factory() as session:
            row = session.get(store.UserRow, gone.id)
            assert row is not None
            assert row.name == DELETED_NAME
            assert row.name_key is None
            assert row.deleted_at is not None
    finally:
        engine.dispose()
