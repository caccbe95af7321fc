"""A player's page over a real server process, on SQLite and PostgreSQL
(docs/players.md; docs/protocol.md, Players).

Two users play a short house-rules game together (their seats played by the away bot
once the grace runs out: no socket needed), one of them a game alone at an unlisted
table, and a third game of theirs is still being played; one keeps a score sheet of a
real-card game. Their pages show the statistics the records and the sheet give
(:mod:`tricktaker.stats` on the same records), a rating per fingerprint labelled with
the house rules, only finished games, the unlisted table's game to its player only,
and the sheet to its keeper only.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from tests.server.people import person
from tests.server_process import ServerProcess
from tricktaker.stats import rate_people, rated_game, record_line, statistics

HOUSE = 'id = "two_hands"\nextends = "blackout"\n[schedule]\nsizes = "2, 3"\n'
"""Blackout cut to two hands (of 2 and 3 cards), a house ruleset."""


@pytest.fixture(scope="module")
def server(module_server: ServerProcess) -> ServerProcess:
    """The module's real server process, on SQLite and on PostgreSQL in turn."""
    return module_server


def _claim(client: httpx.Client, **proofs: list[dict[str, str]]) -> None:
    answer = client.post("/api/me/claim", json=proofs)
    assert answer.status_code == 200, answer.text
    assert answer.json()["refused"] == 0


def _table(client: httpx.Client, seats: list[str], **more: Any) -> dict[str, Any]:
    body = {"ruleset_toml": HOUSE, "seats": seats, "host_seat": 0, "name": "Host", **more}
    made = client.post("/tables", json=body)
    assert made.status_code == 201, made.text
    return dict(made.json())


def _start(client: httpx.Client, made: dict[str, Any]) -> None:
    table_id = made["table"]["id"]
    auth = {"Authorization": f"Bearer {made['host_token']}"}
    assert client.post(f"/tables/{table_id}/start", headers=auth).status_code == 204


def _finished(client: httpx.Client, table_id: str) -> None:
    deadline = time.monotonic() + 90
    while client.get(f"/tables/{table_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the game never finished"
        time.sleep(0.1)


@pytest.mark.slow
def test_players_pages(server: ServerProcess) -> None:
    """Issue 31, point 1: statistics per fingerprint from the finished games' records
    and the sheet's hands; ratings from the one game two people played, as
    tricktaker.stats gives them; a game being played shows nowhere (its hidden cards
    and its hands alike); the unlisted table's game and the sheet are Ann's alone."""
    ann, ben = person(server, "Ann"), person(server, "ben.b")
    guest = httpx.Client(base_url=server.url, timeout=30)
    # A public table: Ann, Ben and a bot; nobody connects, so the away bot plays the
    # people's seats once their grace (a twentieth of a second) runs out.
    shared = _table(ann, ["human", "human", "easy"], grace_seconds=0.05, seed=3)
    shared_id = shared["table"]["id"]
    joined = ben.post(
        f"/tables/{shared_id}/join", json={"invite": shared["invite"], "name": "Ben"}
    ).json()
    _claim(ann, seats=[{"id": shared_id, "token": shared["seat_token"]}])
    _claim(ben, seats=[{"id": shared_id, "token": joined["seat_token"]}])
    # An unlisted table: Ann against a bot.
    alone = _table(ann, ["human", "easy"], grace_seconds=0.05, public=False, seed=4)
    alone_id = alone["table"]["id"]
    _claim(ann, seats=[{"id": alone_id, "token": alone["seat_token"]}])
    for made in (shared, alone):
        _start(ann, made)
    for table_id in (shared_id, alone_id):
        _finished(guest, table_id)
    # A game being played: Ann's seat waits for her (an hour's grace).
    live = _table(ann, ["human", "easy"], grace_seconds=3600)
    live_id = live["table"]["id"]
    _claim(ann, seats=[{"id": live_id, "token": live["seat_token"]}])
    _start(ann, live)
    # A real-card game on a score sheet, Ann one of its players (her name in any case).
    sheet = ann.post("/sheets", json={"game": "blackout", "players": ["ANN", "Zed", "Cy"]})
    assert sheet.status_code == 201, sheet.text
    sheet_id, edit = sheet.json()["id"], sheet.json()["edit_token"]
    hand = {"bids": [1, 0, 0], "tricks": [1, 0, 0], "trump": "hearts"}
    auth = {"Authorization": f"Bearer {edit}"}
    added = ann.post(f"/sheets/{sheet_id}/hands", json=hand, headers=auth)
    assert added.status_code in (200, 201), added.text
    _claim(ann, sheets=[{"id": sheet_id, "token": edit}])

    mine = ann.get("/api/players/ann").json()
    public = guest.get("/api/players/ANN").json()
    assert mine["own"]
    assert not public["own"]
    assert mine["player"]["name"] == public["player"]["name"] == "Ann"

    # The same figures from the records themselves (tricktaker.stats).
    records = {
        table_id: guest.get(f"/tables/{table_id}/record", params={"game": 1}).json()
        for table_id in (shared_id, alone_id)
    }
    lines = [record_line(records[shared_id], 0), record_line(records[alone_id], 0)]
    expected = statistics(lines)
    house = [entry for entry in mine["statistics"] if entry["rules"]["game"] == "two_hands"]
    assert len(house) == 1
    assert house[0]["rules"]["text"].startswith("Blackout (house rules)")
    assert house[0]["games"] == 2
    assert house[0]["total"] == expected[0].to_json()["total"]
    assert house[0]["by_hand_size"] == expected[0].to_json()["by_hand_size"]
    assert house[0]["by_position"] == expected[0].to_json()["by_position"]
    assert public["statistics"] == mine["statistics"]
    # The sheet's hand counts, in its own fingerprint (Blackout, shipped rules).
    real = [entry for entry in mine["statistics"] if entry["rules"]["game"] == "blackout"]
    assert real[0]["sheets"] == 1
    assert real[0]["total"]["perfect"] == 1
    assert real[0]["total"]["hands"] == 1

    # History: finished games only; the unlisted one to Ann alone.
    own_games = {(g["table"], g["game"]) for g in mine["history"]["games"]}
    seen_games = {(g["table"], g["game"]) for g in public["history"]["games"]}
    assert own_games == {(shared_id, 1), (alone_id, 1)}
    assert seen_games == {(shared_id, 1)}
    assert live_id not in ann.get("/api/players/ann").text
    assert alone_id not in guest.get("/api/players/ann").text
    first = mine["history"]["games"][0]
    assert first["replay"] == f"#/replay/{first['table']}?game=1"
    # Sheets: Ann's own page only.
    assert mine["sheets"] == [
        {
            "id": sheet_id,
            "rules": real[0]["rules"],
            "players": ["ANN", "Zed", "Cy"],
            "seat": 0,
            "hands": 1,
            "over": False,
            "counted": True,
            "link": f"#/score/{sheet_id}",
        }
    ]
    assert public["sheets"] is None
    # Another user (Ben, signed in) sees what a guest sees of Ann's page.
    as_ben = ben.get("/api/players/ann").json()
    assert not as_ben["own"]
    assert as_ben["sheets"] is None
    assert as_ben["history"] == public["history"]
    assert alone_id not in ben.get("/api/players/ann/games").text
    assert edit not in ann.get("/api/players/ann").text

    # Ratings: the shared game alone is rated (two people); the same numbers as
    # tricktaker.stats gives from its record.
    line_ben = record_line(records[shared_id], 1)
    game = rated_game(
        fingerprint=lines[0].label.fingerprint,
        finished_at=datetime.now(UTC),
        key="k",
        teams=[(0,), (1,), (2,)],
        totals=[lines[0].total, line_ben.total, 0],
        people={0: "Ann", 1: "ben.b"},
        cooperative=False,
    )
    assert game is not None
    expected_ratings = rate_people([game])[lines[0].label.fingerprint]
    [rating] = mine["ratings"]
    assert rating["games"] == 1
    assert rating["rules"]["fingerprint"] == lines[0].label.fingerprint
    assert rating == {"rules": rating["rules"], **expected_ratings["Ann"].to_json()}
    [ben_rating] = ben.get("/api/players/Ben.B").json()["ratings"]
    assert ben_rating["mu"] == round(expected_ratings["ben.b"].mu, 3)
    assert rating["ordinal"] == pytest.approx(rating["mu"] - 3 * rating["sigma"], abs=0.002)

    # Paging and refusals.
    paged = ann.get("/api/players/ann/games", params={"limit": 1}).json()
    assert paged["total"] == 2
    assert paged["next_offset"] == 1
    rest = ann.get("/api/players/ann/games", params={"offset": 1}).json()
    assert rest["next_offset"] is None
    assert [g["table"] for g in paged["games"] + rest["games"]] == [
        g["table"] for g in mine["history"]["games"]
    ]
    missing = guest.get("/api/players/nobody")
    assert missing.status_code == 404
    assert missing.json()["type"].endswith("no-player")
    assert guest.get("/api/players/ann/games", params={"limit": 0}).status_code == 422
    for client in (ann, ben, guest):
        client.close()
