"""What a player shares, over a real server process on SQLite and PostgreSQL
(docs/players.md, What you share; issue 31, point 4: "a player's page shows only what
they chose to share").

Ann keeps a score sheet and plays a game alone at a public table; Ben is a member of
her club, Cy another user, and a guest has no session. Each of her settings is seen
from each of them, on the page and on every route that answers her data (her page, the
page of her history, the members' statistics of her club), and her evening still names
her to the club's members.
"""

from __future__ import annotations

import time
from typing import Any

import httpx
from alembic import command
from sqlalchemy import create_engine, inspect, text

from tests.server_process import ServerProcess
from tricktaker.server.db import alembic_config, current_revision, upgrade

PASSWORD = "correct horse battery"
HOUSE = 'id = "two_hands"\nextends = "blackout"\n[schedule]\nsizes = "2, 3"\n'
PARTS = ("page", "history", "sheets", "ratings")


def _user(server: ServerProcess, name: str) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=30)
    made = client.post("/api/signup", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    client.headers["X-CSRF-Token"] = client.cookies["tricktaker_csrf"]
    return client


def _ok(answer: httpx.Response, status: int = 200) -> Any:
    assert answer.status_code == status, answer.text
    return answer.json()


def _ann_plays(ann: httpx.Client) -> tuple[str, str]:
    """A finished game at a public table (Ann and a bot: the away bot plays her seat)
    and a score sheet of hers with one hand; their ids."""
    body = {"ruleset_toml": HOUSE, "seats": ["human", "easy"], "host_seat": 0, "seed": 5}
    made = _ok(ann.post("/tables", json={**body, "name": "Ann", "grace_seconds": 0.05}), 201)
    table_id = made["table"]["id"]
    claim = {"seats": [{"id": table_id, "token": made["seat_token"]}]}
    assert _ok(ann.post("/api/me/claim", json=claim))["refused"] == 0
    host = {"Authorization": f"Bearer {made['host_token']}"}
    assert ann.post(f"/tables/{table_id}/start", headers=host).status_code == 204
    sheet = _ok(ann.post("/sheets", json={"game": "blackout", "players": ["Ann", "Zed"]}), 201)
    edit = {"Authorization": f"Bearer {sheet['edit_token']}"}
    hand = {"bids": [1, 0], "tricks": [1, 0], "trump": "hearts"}
    assert ann.post(f"/sheets/{sheet['id']}/hands", json=hand, headers=edit).is_success
    claim = {"sheets": [{"id": sheet["id"], "token": sheet["edit_token"]}]}
    assert _ok(ann.post("/api/me/claim", json=claim))["refused"] == 0
    deadline = time.monotonic() + 60
    while ann.get(f"/tables/{table_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the game never finished"
        time.sleep(0.1)
    return table_id, str(sheet["id"])


def _club(ann: httpx.Client, ben: httpx.Client) -> tuple[str, str]:
    """Ann's club, Ben a member, and a real-card evening's sheet with Ann and Ben on
    it, one hand entered: the club's and the evening's ids."""
    club = _ok(ann.post("/api/clubs", json={"name": "Sundays", "game": "blackout"}), 201)
    club_id = club["club"]["id"]
    invite = _ok(ann.post(f"/api/clubs/{club_id}/invites", json={}), 201)
    _ok(ben.post(f"/api/club-invites/{invite['code']}"))
    evening = _ok(ann.post(f"/api/clubs/{club_id}/evenings", json={"kind": "cards"}), 201)
    evening_id = evening["id"]
    body = {"players": ["Ann", "Ben", "Di"]}
    sheet = _ok(ann.post(f"/api/clubs/{club_id}/evenings/{evening_id}/sheets", json=body), 201)
    edit = {"Authorization": f"Bearer {sheet['edit_token']}"}
    hand = {"bids": [1, 0, 0], "tricks": [1, 0, 0], "trump": "hearts"}
    assert ann.post(f"/sheets/{sheet['id']}/hands", json=hand, headers=edit).is_success
    return club_id, evening_id


def _seen(client: httpx.Client) -> dict[str, bool]:
    """Which parts of Ann's page ``client`` gets (a part not shared is None), checked
    against the page's own ``shared`` and the history route's answer."""
    page = _ok(client.get("/api/players/ann"))
    got = {
        "page": page["statistics"] is not None,
        "history": page["history"] is not None,
        "sheets": page["sheets"] is not None,
        "ratings": page["ratings"] is not None,
    }
    assert page["shared"] == got
    assert ("joined" in page["player"]) == got["page"]
    games = client.get("/api/players/ann/games")
    if got["history"]:
        assert games.status_code == 200, games.text
    else:
        assert games.status_code == 403, games.text
        assert games.json()["type"].endswith("not-shared")
    return got


def _set(ann: httpx.Client, **parts: str) -> dict[str, str]:
    return dict(_ok(ann.put("/api/me/privacy", json=parts))["privacy"])


def test_a_player_shares_what_they_chose(server: ServerProcess) -> None:
    ann, ben, cy = _user(server, "Ann"), _user(server, "Ben"), _user(server, "Cyd")
    guest = httpx.Client(base_url=server.url, timeout=30)
    table_id, sheet_id = _ann_plays(ann)
    club_id, evening_id = _club(ann, ben)
    every = dict.fromkeys(PARTS, True)

    # The defaults: everything but the sheets to everyone; the sheets to Ann alone.
    defaults = {"page": "public", "history": "public", "sheets": "private", "ratings": "public"}
    assert _ok(ann.get("/api/me/privacy"))["privacy"] == defaults
    shown = {**every, "sheets": False}
    assert _seen(ann) == every
    for client in (ben, cy, guest):
        assert _seen(client) == shown
    public = _ok(guest.get("/api/players/ann"))
    assert public["privacy"] is None  # her settings are hers; the audiences are not
    assert public["audience"] == defaults
    assert [g["table"] for g in public["history"]["games"]] == [table_id]
    assert _ok(ann.get("/api/players/ann"))["privacy"] == defaults

    # Her club's members only: Ben sees what everyone saw; Cy and a guest only her name.
    assert _set(ann, page="clubs") == {**defaults, "page": "clubs"}
    assert _seen(ann) == every
    assert _seen(ben) == shown
    nothing = dict.fromkeys(PARTS, False)
    for client in (cy, guest):
        assert _seen(client) == nothing
        hidden = _ok(client.get("/api/players/ann"))
        assert hidden["player"] == {"name": "Ann"}
        assert hidden["audience"]["history"] == "clubs"  # capped by the page
        assert table_id not in client.get("/api/players/ann").text
    # A part's own audience: the sheets to the club, the history and ratings to nobody.
    _set(ann, sheets="clubs", history="private", ratings="private")
    assert _seen(ben) == {"page": True, "history": False, "sheets": True, "ratings": False}
    [sheet] = [s for s in _ok(ben.get("/api/players/ann"))["sheets"] if s["id"] == sheet_id]
    assert sheet["counted"]
    assert sheet["link"] == f"#/score/{sheet_id}"
    assert table_id not in ben.get("/api/players/ann").text
    assert _seen(cy) == nothing
    assert _seen(ann) == every

    # Nobody but herself: the club's members lose her statistics, not her standings.
    _set(ann, page="private")
    for client in (ben, cy, guest):
        assert _seen(client) == nothing
    assert _seen(ann) == every
    members = _ok(ben.get(f"/api/clubs/{club_id}/statistics"))["members"]
    assert [m["name"] for m in members] == ["Ben"]
    mine = _ok(ann.get(f"/api/clubs/{club_id}/statistics"))["members"]
    assert [m["name"] for m in mine] == ["Ann", "Ben"]  # her own, to herself
    evening = ben.get(f"/api/clubs/{club_id}/evenings/{evening_id}")
    assert evening.status_code == 200
    assert '"Ann"' in evening.text
    _set(ann, page="clubs")
    members = _ok(ben.get(f"/api/clubs/{club_id}/statistics"))["members"]
    assert sorted(m["name"] for m in members) == ["Ann", "Ben"]

    # Only Ann changes Ann's settings, with her session and its CSRF token.
    assert guest.get("/api/me/privacy").status_code == 401
    assert guest.put("/api/me/privacy", json={"page": "public"}).status_code == 401
    bare = httpx.Client(base_url=server.url, timeout=30, cookies=ann.cookies)
    assert bare.put("/api/me/privacy", json={"page": "public"}).status_code == 403
    assert _set(ben, page="private")["page"] == "private"  # Ben's own, not Ann's
    assert _ok(ann.get("/api/me/privacy"))["privacy"]["page"] == "clubs"
    for wrong in ({"page": "friends"}, {"page": 1}, {"rating": "public"}):
        assert ann.put("/api/me/privacy", json=wrong).status_code == 422, wrong
    for client in (ann, ben, cy, guest, bare):
        client.close()


def _columns(db_url: str) -> dict[str, list[str]]:
    engine = create_engine(db_url)
    try:
        found = inspect(engine)
        return {
            name: [c["name"] for c in found.get_columns(name)] for name in found.get_table_names()
        }
    finally:
        engine.dispose()


def test_the_privacy_migration_goes_up_and_down(db_url: str) -> None:
    """Migration 0016 adds ``player_privacy`` (a user's row goes with the user) and
    takes it away again, the users kept."""
    upgrade(db_url, "0015")
    assert "player_privacy" not in _columns(db_url)
    upgrade(db_url, "0016")
    assert _columns(db_url)["player_privacy"] == [
        "user_id",
        "page",
        "history",
        "sheets",
        "ratings",
        "updated_at",
    ]
    engine = create_engine(db_url)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO users (name, name_key, password_hash, created_at)"
                " VALUES ('Ann', 'ann', 'x', CURRENT_TIMESTAMP)"
            )
        )
        connection.execute(
            text(
                "INSERT INTO player_privacy (user_id, page, history, sheets, ratings, updated_at)"
                " SELECT id, 'clubs', 'public', 'private', 'public', CURRENT_TIMESTAMP FROM users"
            )
        )
    engine.dispose()
    command.downgrade(alembic_config(db_url), "0015")
    assert current_revision(db_url) == "0015"
    tables = _columns(db_url)
    assert "player_privacy" not in tables
    assert "users" in tables
    upgrade(db_url)
    assert "player_privacy" in _columns(db_url)
