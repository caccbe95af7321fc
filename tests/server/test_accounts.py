"""Player accounts over a real server process and real sockets, on SQLite and
PostgreSQL (``db_url``): docs/protocol.md, Accounts.

Sign up, log in (a wrong password and a name with no account refused alike), the
cookies' attributes, the CSRF token required of every request that carries the session
cookie (and not of the Bearer-token clients), sessions listed and revoked, a guest's
seats, table and sheet kept when they sign up, failed log-ins limited per name and per
address, and no password or session id in an answer or a log line.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from alembic import command
from sqlalchemy import create_engine, inspect

from tests.server.people import PASSWORD, csrf, sign_up
from tests.server_process import ServerProcess, free_port
from tricktaker.server import create_app
from tricktaker.server.db import alembic_config, current_revision, upgrade

ACCOUNT_TABLES = {"users", "account_sessions", "account_seats", "account_hosted", "account_sheets"}


@pytest.fixture(scope="module")
def server(module_server: ServerProcess) -> ServerProcess:
    """The module's real server process, on SQLite and on PostgreSQL in turn."""
    return module_server


def cookie_lines(reply: httpx.Response) -> dict[str, str]:
    """The ``Set-Cookie`` lines of ``reply``, by cookie name."""
    return {line.split("=", 1)[0]: line for line in reply.headers.get_list("set-cookie")}


def attributes(line: str) -> set[str]:
    """A ``Set-Cookie`` line's attributes, lower case, without the value."""
    return {part.strip().lower() for part in line.split(";")[1:]}


def problem_code(reply: httpx.Response) -> str:
    return str(reply.json()["type"]).rsplit("/", 1)[-1]


def test_sign_up_log_in_and_the_cookies(server: ServerProcess) -> None:
    """docs/protocol.md, Accounts: a new account is signed in at once, by an HttpOnly,
    SameSite=Lax session cookie on the path /, not Secure over plain HTTP; names are
    unique whatever their case and follow one rule; a wrong password and a name with no
    account get the same refusal; log-in works with the name in any case."""
    with httpx.Client(base_url=server.url, timeout=30) as ann:
        made = ann.post("/api/signup", json={"name": "Cid.Lee", "password": PASSWORD})
        assert made.status_code == 201, made.text
        lines = cookie_lines(made)
        session = ann.cookies["tricktaker_session"]
        assert attributes(lines["tricktaker_session"]) >= {"httponly", "samesite=lax", "path=/"}
        assert "secure" not in attributes(lines["tricktaker_session"])
        assert "httponly" not in attributes(lines["tricktaker_csrf"])
        assert attributes(lines["tricktaker_csrf"]) >= {"samesite=lax", "path=/"}
        assert made.json()["user"]["name"] == "Cid.Lee"
        assert made.json()["csrf_token"] == ann.cookies["tricktaker_csrf"]
        assert PASSWORD not in made.text
        assert session not in made.text
        me = ann.get("/api/me")
        assert me.status_code == 200
        assert me.json()["user"]["name"] == "Cid.Lee"
        assert me.json()["tables"] == []
        assert me.json()["sheets"] == []
        assert session not in me.text
        # another site's odd cookie on the same host does not hide the session
        odd = {"Cookie": f'prefs="{{a:1}}"; tricktaker_session={session}; x=a b'}
        assert httpx.get(f"{server.url}/api/me", headers=odd).status_code == 200

    with httpx.Client(base_url=server.url, timeout=30) as other:
        taken = other.post("/api/signup", json={"name": "cid.LEE", "password": PASSWORD})
        assert taken.status_code == 422
        assert problem_code(taken) == "name-taken"
        for name in ("ab", "a" * 33, "_ann", "ann lee", "anné"):
            bad = other.post("/api/signup", json={"name": name, "password": PASSWORD})
            assert bad.status_code == 422, name
            assert problem_code(bad) == "bad-name"
            assert bad.json()["field"] == "name"
        short = other.post("/api/signup", json={"name": "bob", "password": "seven77"})
        assert short.status_code == 422
        assert problem_code(short) == "bad-password"
        assert "seven77" not in short.text
        assert other.get("/api/me").status_code == 401

        wrong = other.post("/api/login", json={"name": "cid.lee", "password": "not the one"})
        nobody = other.post("/api/login", json={"name": "nobody", "password": "not the one"})
        assert wrong.status_code == nobody.status_code == 401
        assert wrong.json() == nobody.json()
        assert "set-cookie" not in wrong.headers
        right = other.post("/api/login", json={"name": "CID.LEE", "password": PASSWORD})
        assert right.status_code == 200, right.text
        assert other.get("/api/me").json()["user"]["name"] == "Cid.Lee"
    assert PASSWORD not in server.log.read_text(errors="replace")
    assert session not in server.log.read_text(errors="replace")


def test_the_csrf_token_is_required_with_the_cookie(server: ServerProcess) -> None:
    """docs/protocol.md, Accounts, CSRF: every POST, PUT, PATCH or DELETE that carries the
    session cookie needs the session's X-CSRF-Token (403 ``csrf`` without it, or with a
    wrong one), the table API too; Bearer-token clients without the cookie work as
    before; a log-in sent as a form or plain text (what another site can send) is not
    read."""
    with httpx.Client(base_url=server.url, timeout=30) as ann:
        sign_up(ann, "dora")
        table = {"game": "blackout", "seats": ["human", "easy"], "host_seat": 0}
        for headers in ({}, {"X-CSRF-Token": "0" * 64}):
            refused = ann.post("/api/me/claim", json={}, headers=headers)
            assert refused.status_code == 403
            assert problem_code(refused) == "csrf"
            assert ann.post("/tables", json=table, headers=headers).status_code == 403
            assert ann.delete("/api/me/sessions", headers=headers).status_code == 403
        assert ann.post("/api/me/claim", json={}, headers=csrf(ann)).status_code == 200
        made = ann.post("/tables", json=table, headers=csrf(ann))
        assert made.status_code == 201, made.text
        assert ann.get("/api/me").status_code == 200  # reading needs no token

    with httpx.Client(base_url=server.url, timeout=30) as bot:  # no cookie: as today
        made = bot.post("/tables", json=table)
        assert made.status_code == 201, made.text
        started = bot.post(
            f"/tables/{made.json()['table']['id']}/start",
            headers={"Authorization": f"Bearer {made.json()['host_token']}"},
        )
        assert started.status_code == 204, started.text
        for content_type in ("text/plain", "application/x-www-form-urlencoded"):
            forged = bot.post(
                "/api/login",
                content=f'{{"name": "dora", "password": "{PASSWORD}"}}',
                headers={"Content-Type": content_type},
            )
            assert forged.status_code in (400, 422), content_type
            assert "tricktaker_session" not in bot.cookies


def test_sessions_are_listed_and_revoked(server: ServerProcess) -> None:
    """docs/protocol.md, Accounts, Sessions: each browser signed in is a session with its
    user agent; the user revokes another one (that browser is signed out, its cookies
    taken back), logs out (the old cookie no longer works), and logs out everywhere."""
    phone = httpx.Client(base_url=server.url, timeout=30, headers={"User-Agent": "Phone/1"})
    laptop = httpx.Client(base_url=server.url, timeout=30, headers={"User-Agent": "Laptop/2"})
    desk = httpx.Client(base_url=server.url, timeout=30)
    with phone, laptop, desk:
        sign_up(phone, "eve")
        for client in (laptop, desk):
            logged = client.post("/api/login", json={"name": "eve", "password": PASSWORD})
            assert logged.status_code == 200, logged.text
        listed = laptop.get("/api/me/sessions").json()["sessions"]
        assert len(listed) == 3
        assert {s["user_agent"] for s in listed} >= {"Phone/1", "Laptop/2"}
        mine = [s for s in listed if s["current"]]
        assert [s["user_agent"] for s in mine] == ["Laptop/2"]
        phone_id = next(s["id"] for s in listed if s["user_agent"] == "Phone/1")
        assert all(set(s) >= {"created_at", "last_seen_at", "expires_at"} for s in listed)

        revoked = laptop.delete(f"/api/me/sessions/{phone_id}", headers=csrf(laptop))
        assert revoked.status_code == 204
        gone = phone.get("/api/me")
        assert gone.status_code == 401
        assert 'tricktaker_session=""' in gone.headers.get("set-cookie", "")
        again = laptop.delete(f"/api/me/sessions/{phone_id}", headers=csrf(laptop))
        assert again.status_code == 404

        old = desk.cookies["tricktaker_session"]
        assert desk.post("/api/logout", headers=csrf(desk)).status_code == 204
        assert "tricktaker_session" not in desk.cookies
        stale = httpx.get(f"{server.url}/api/me", cookies={"tricktaker_session": old})
        assert stale.status_code == 401
        assert len(laptop.get("/api/me/sessions").json()["sessions"]) == 1

        sign_up(desk, "fay")  # another user's session is not eve's to revoke
        bob_session = desk.get("/api/me").json()["session"]
        other = laptop.delete(f"/api/me/sessions/{bob_session}", headers=csrf(laptop))
        assert other.status_code == 404
        for method, path in (
            ("GET", "/api/me/sessions"),
            ("DELETE", "/api/me/sessions"),
            ("DELETE", f"/api/me/sessions/{bob_session}"),
            ("POST", "/api/logout"),
        ):  # a guest: nothing to list or revoke (log-out answers 204 and does nothing)
            guest = httpx.request(method, f"{server.url}{path}")
            assert guest.status_code == (204 if path == "/api/logout" else 401), path
        assert desk.get("/api/me").status_code == 200
        assert laptop.delete("/api/me/sessions", headers=csrf(laptop)).status_code == 204
        assert laptop.get("/api/me").status_code == 401
        assert desk.get("/api/me").status_code == 200


def test_a_guest_keeps_their_seats_table_and_sheet(server: ServerProcess) -> None:
    """Issue 31, point 1: a guest who signs up (or logs in) keeps the seat, the table and
    the sheet their browser's tokens prove; tokens that prove nothing link nothing, and
    a seat or table linked to one user is not another's."""
    with httpx.Client(base_url=server.url, timeout=30) as guest:
        made = guest.post(
            "/tables", json={"game": "blackout", "seats": ["human", "easy"], "host_seat": 0}
        ).json()
        table_id = made["table"]["id"]
        sheet = guest.post("/sheets", json={"game": "blackout", "players": ["A", "B", "C"]})
        assert sheet.status_code == 201, sheet.text
        sheet_id = sheet.json()["id"]
        claim = {
            "seats": [
                {"id": table_id, "token": made["seat_token"]},
                {"id": table_id, "token": made["host_token"]},  # not a seat token
            ],
            "hosts": [{"id": table_id, "token": made["host_token"]}],
            "sheets": [
                {"id": sheet_id, "token": sheet.json()["edit_token"]},
                {"id": sheet_id, "token": sheet.json()["view_key"]},  # only reads
            ],
        }
        answer = sign_up(guest, "gus", claim=claim)
        assert answer["claimed"] == {
            "seats": [{"table_id": table_id, "seat": 0}],
            "hosted": [table_id],
            "sheets": [sheet_id],
            "refused": 2,
        }
        me = guest.get("/api/me").json()
        assert me["tables"] == [{"id": table_id, "seats": [0], "host": True}]
        assert me["sheets"] == [{"id": sheet_id}]
        for secret in (made["seat_token"], made["host_token"], sheet.json()["edit_token"]):
            assert secret not in str(answer)
            assert secret not in str(me)
        # the same tokens again: nothing changes
        again = guest.post("/api/me/claim", json=claim, headers=csrf(guest)).json()
        assert again["seats"] == [{"table_id": table_id, "seat": 0}]

    with httpx.Client(base_url=server.url, timeout=30) as thief:
        stolen = sign_up(thief, "hal", claim={"seats": claim["seats"], "hosts": claim["hosts"]})
        assert stolen["claimed"]["seats"] == []
        assert stolen["claimed"]["hosted"] == []
        assert thief.get("/api/me").json()["tables"] == []
        unknown = {
            "seats": [{"id": "nope", "token": "x"}],
            "sheets": [{"id": "nope", "token": "y"}],
        }
        assert thief.post("/api/me/claim", json=unknown, headers=csrf(thief)).json()["refused"] == 2
        anonymous = httpx.post(f"{server.url}/api/me/claim", json=claim)
        assert anonymous.status_code == 401


@pytest.mark.slow
def test_failed_log_ins_are_limited_per_name_and_per_address(tmp_path: Path) -> None:
    """docs/protocol.md, Accounts, Limits: five failed log-ins for one name, then 429
    with Retry-After, for the right password too, alike for a name with no account; and
    twenty failed log-ins from one address, whatever the names."""
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'server.sqlite3'}", free_port(), tmp_path / "log", rate_limits=True
    )
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            sign_up(client, "ann")
            client.cookies.clear()

            def log_in(name: str, password: str) -> httpx.Response:
                return client.post("/api/login", json={"name": name, "password": password})

            for name in ("ann", "nobody"):
                for _ in range(5):
                    assert log_in(name, "wrong password").status_code == 401
                limited = log_in(name, PASSWORD)
                assert limited.status_code == 429, limited.text
                assert problem_code(limited) == "too-many-tries"
                assert int(limited.headers["Retry-After"]) >= 1
            # 20 failures from this address in all (then one more every 6 seconds)
            statuses = [log_in(f"user{n}", "wrong password").status_code for n in range(10)]
            assert statuses == [401] * 10
            for n in range(10, 40):  # what refilled while these were answered, then 429
                if log_in(f"user{n}", "wrong password").status_code == 429:
                    break
            else:
                raise AssertionError("the address was not limited")
    finally:
        server.stop()


@pytest.fixture
def logged_server(db_url: str) -> Iterator[str]:
    """The server under uvicorn on a local port, with uvicorn's access log and every
    log line at INFO and above."""
    config = uvicorn.Config(
        create_app(db_url), host="127.0.0.1", port=free_port(), log_level="info"
    )
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started:
        assert time.monotonic() < deadline
        assert thread.is_alive()
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{config.port}"
    finally:
        running.should_exit = True
        thread.join(timeout=20)


def test_no_password_or_session_id_in_a_log_line(
    logged_server: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 31, point 4: passwords and session ids appear in no log line (uvicorn's
    access log, the server's and the database's own lines at INFO), nor any answer."""
    caplog.set_level(logging.INFO)
    answers: list[str] = []
    with httpx.Client(base_url=logged_server, timeout=30) as client:
        answers.append(client.post("/api/signup", json={"name": "ann", "password": PASSWORD}).text)
        session = client.cookies["tricktaker_session"]
        answers.append(client.get("/api/me").text)
        answers.append(client.get("/api/me/sessions").text)
        answers.append(client.post("/api/logout", headers=csrf(client)).text)
        answers.append(client.post("/api/login", json={"name": "ann", "password": "x" * 9}).text)
        answers.append(client.post("/api/login", json={"name": "ann", "password": PASSWORD}).text)
        answers.append(client.post("/api/signup", json={"name": "a", "password": PASSWORD}).text)
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "/api/login" in logged  # the access log was on
    for secret in (PASSWORD, session, "x" * 9):
        assert secret not in logged
        assert all(secret not in answer for answer in answers)


def test_the_account_tables_migrate_up_and_down(db_url: str) -> None:
    """Migration 0010 adds the users, sessions and links, and takes them away again; the
    tables before it stay."""
    upgrade(db_url, "0009")
    upgrade(db_url, "0010")
    assert current_revision(db_url) is not None
    engine = create_engine(db_url)
    assert set(inspect(engine).get_table_names()) >= ACCOUNT_TABLES
    engine.dispose()
    command.downgrade(alembic_config(db_url), "0009")
    engine = create_engine(db_url)
    names = set(inspect(engine).get_table_names())
    engine.dispose()
    assert not ACCOUNT_TABLES & names
    assert {"tables", "sheets", "reviews"} <= names


def test_the_cookie_is_secure_behind_an_https_proxy(server: ServerProcess) -> None:
    """docs/deploy.md, Accounts behind a proxy: a request that a trusted proxy says came
    over HTTPS (X-Forwarded-Proto, from 127.0.0.1) gets Secure cookies."""
    made = httpx.post(
        f"{server.url}/api/signup",
        json={"name": "ivy", "password": PASSWORD},
        headers={"X-Forwarded-Proto": "https"},
    )
    assert made.status_code == 201, made.text
    for line in cookie_lines(made).values():
        assert "secure" in attributes(line)
