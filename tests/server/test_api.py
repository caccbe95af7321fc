"""The table server's HTTP API: tables, seats, host actions, records and problem bodies.

docs/protocol.md, HTTP API and Errors.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.helpers import make_table
from tricktaker import load_ruleset
from tricktaker.engine import GameRecord
from tricktaker.rules import list_rulesets
from tricktaker.server.problems import MEDIA_TYPE


def problem_of(answer: Any, status: int) -> dict[str, Any]:
    """The problem body of a refused request, checked for its shape."""
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith(MEDIA_TYPE)
    body: dict[str, Any] = answer.json()
    assert {"type", "title", "status", "detail"} <= set(body)
    assert body["status"] == status
    return body


def test_create_list_join_and_details(client: TestClient) -> None:
    """docs/protocol.md, HTTP API: a created table is listed with its invite; people
    join free seats and get tokens; the details show who sits where."""
    created = client.post(
        "/tables",
        json={
            "game": "bluke",
            "seats": ["human", "human", "easy", "human"],
            "host_seat": 0,
            "name": "Ann",
        },
    )
    assert created.status_code == 201, created.text
    data = created.json()
    table_id = data["table"]["id"]
    assert data["seat"] == 0
    assert len(data["seat_token"]) >= 43  # 256 random bits, URL-safe
    listed = client.get("/tables").json()
    assert [t["table"]["id"] for t in listed] == [table_id]
    assert listed[0]["invite"] is None  # its free seats are kept for the invited
    bob = client.post(
        f"/tables/{table_id}/join", json={"invite": data["invite"], "name": "Bob", "seat": 3}
    )
    assert bob.json()["seat"] == 3
    cy = client.post(f"/tables/{table_id}/join", json={"invite": data["invite"], "name": "Cy"})
    assert cy.json()["seat"] == 1
    full = client.post(f"/tables/{table_id}/join", json={"invite": data["invite"], "name": "Di"})
    assert problem_of(full, 409)["type"].endswith("/table-full")
    seats = client.get(f"/tables/{table_id}").json()["seats"]
    assert [(s["name"], s["kind"], s["state"]) for s in seats] == [
        ("Ann", "human", "away"),
        ("Cy", "human", "away"),
        ("Cleo", "bot", "bot"),
        ("Bob", "human", "away"),
    ]
    assert "token" not in str(seats)


def test_the_list_never_gives_a_seat_kept_for_an_invitee(client: TestClient) -> None:
    """docs/protocol.md, HTTP API: a public table is listed for anyone to watch; the list
    gives a code for its open seats only, never the invite code: a stranger cannot
    take a seat the host keeps for someone invited."""
    kept = client.post(
        "/tables", json={"game": "blackout", "seats": ["human", "human", "easy"], "host_seat": 0}
    ).json()
    mixed = client.post(
        "/tables", json={"game": "blackout", "seats": ["human", "open", "human"], "host_seat": 0}
    ).json()
    listed = {t["table"]["id"]: t for t in client.get("/tables").json()}
    assert listed[kept["table"]["id"]]["invite"] is None
    assert kept["invite"] not in str(listed)
    assert mixed["invite"] not in str(listed)
    code = listed[mixed["table"]["id"]]["invite"]
    assert code
    assert [s["open"] for s in listed[mixed["table"]["id"]]["table"]["seats"]] == [
        False,
        True,
        False,
    ]
    mixed_id = mixed["table"]["id"]
    refused = client.post(
        f"/tables/{mixed_id}/join", json={"invite": code, "name": "Eve", "seat": 2}
    )
    assert problem_of(refused, 403)["type"].endswith("/seat-kept")
    stranger = client.post(f"/tables/{mixed_id}/join", json={"invite": code, "name": "Eve"})
    assert stranger.json()["seat"] == 1
    full = client.post(f"/tables/{mixed_id}/join", json={"invite": code, "name": "Fay"})
    assert problem_of(full, 403)["type"].endswith("/seat-kept")
    assert client.get("/tables").json()[-1]["invite"] is None  # no open seat left
    invited = client.post(
        f"/tables/{mixed_id}/join", json={"invite": mixed["invite"], "name": "Bo"}
    )
    assert invited.json()["seat"] == 2
    for name in ("kept", "nobody"):
        wrong = client.post(
            f"/tables/{kept['table']['id']}/join", json={"invite": name, "name": "X"}
        )
        assert problem_of(wrong, 403)["type"].endswith("/bad-invite")


def test_names_are_unique_at_a_table_and_bots_have_family_names(client: TestClient) -> None:
    """docs/protocol.md, HTTP API: a second "Ann" is "Ann 2" (whatever the case); a bot
    seat has a short family name, never a person's, its level kept in ``bot``; a host
    without a name is "Seat 1" (seats are counted from 1 in names)."""
    created = client.post(
        "/tables",
        json={"game": "blackout", "seats": ["human", "easy", "human", "human"], "host_seat": 0},
    ).json()
    table_id, invite = created["table"]["id"], created["invite"]
    assert [s["name"] for s in created["table"]["seats"]] == ["Seat 1", "Ben", None, None]
    for name in ("ann", " Ann "):
        joined = client.post(f"/tables/{table_id}/join", json={"invite": invite, "name": name})
        assert joined.status_code == 200, joined.text
    seats = client.get(f"/tables/{table_id}").json()["seats"]
    assert [(s["name"], s["bot"]) for s in seats] == [
        ("Seat 1", None),
        ("Ben", "easy"),
        ("ann", None),
        ("Ann 2", None),
    ]
    host = {"Authorization": f"Bearer {created['host_token']}"}
    put = client.put(f"/tables/{table_id}/seats/3/bot", json={"bot": "random"}, headers=host)
    assert put.status_code == 204
    named = client.post(
        "/tables",
        json={"game": "blackout", "seats": ["easy", "human"], "host_seat": 1, "name": "Ada"},
    ).json()
    assert [s["name"] for s in named["table"]["seats"]] == ["Ben", "Ada"]
    seats = client.get(f"/tables/{table_id}").json()["seats"]
    assert [s["name"] for s in seats] == ["Seat 1", "Ben", "ann", "Dot"]


def test_tokens_are_stored_only_as_hashes(client: TestClient, db_url: str) -> None:
    """docs/protocol.md, HTTP API: a seat token is stored by the server only as a hash."""
    from sqlalchemy import create_engine, text

    table = make_table(client, game="blackout", seats=["human", "random", "random", "random"])
    engine = create_engine(db_url)
    with engine.connect() as connection:
        dump = str(connection.execute(text("SELECT * FROM seats")).all())
        dump += str(connection.execute(text("SELECT * FROM tables")).all())
    engine.dispose()
    assert table.tokens[0] not in dump
    assert table.host_token not in dump


def test_host_actions_need_the_host_token(client: TestClient) -> None:
    """docs/protocol.md, HTTP API: start, bots and rematch are the host's."""
    table = make_table(client, game="blackout", seats=["human", "random", "random", "random"])
    seat_token = {"Authorization": f"Bearer {table.tokens[0]}"}
    assert problem_of(client.post(f"/tables/{table.id}/start", headers=seat_token), 403)
    assert problem_of(client.post(f"/tables/{table.id}/start"), 403)
    bot = client.put(f"/tables/{table.id}/seats/1/bot", json={"bot": "easy"}, headers=seat_token)
    problem_of(bot, 403)
    rematch = client.post(f"/tables/{table.id}/rematch", headers=table.host())
    assert problem_of(rematch, 409)["type"].endswith("/not-finished")


def test_start_needs_every_seat_taken_and_a_bot_can_take_one(client: TestClient) -> None:
    """docs/protocol.md, HTTP API: the host starts once every seat is taken or a bot's."""
    created = client.post("/tables", json={"game": "blackout", "players": 3}).json()
    table_id, host = created["table"]["id"], {"Authorization": f"Bearer {created['host_token']}"}
    refused = problem_of(client.post(f"/tables/{table_id}/start", headers=host), 409)
    assert "Seat 1, Seat 2 and Seat 3 are still free" in refused["detail"]
    for seat in range(3):
        put = client.put(
            f"/tables/{table_id}/seats/{seat}/bot", json={"bot": "random"}, headers=host
        )
        assert put.status_code == 204, put.text
    assert client.post(f"/tables/{table_id}/start", headers=host).status_code == 204
    again = problem_of(client.post(f"/tables/{table_id}/start", headers=host), 409)
    assert again["type"].endswith("/already-started")


def test_a_bot_game_finishes_its_record_downloads_and_a_rematch_starts(client: TestClient) -> None:
    """docs/protocol.md, HTTP API: a finished game's record, then a rematch with the same
    seats; the record is refused while a game is being played."""
    table = make_table(client, game="jabberwocky", seats=["random"] * 4, seed=9)
    assert problem_of(client.get(f"/tables/{table.id}/record"), 409)
    assert client.post(f"/tables/{table.id}/start", headers=table.host()).status_code == 204
    deadline = time.monotonic() + 60
    while client.get(f"/tables/{table.id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    first = client.get(f"/tables/{table.id}/record")
    assert first.status_code == 200
    record = GameRecord.from_json(first.json())
    assert record.finished
    assert record.seed == 9
    assert record.names == ["Ada", "Ben", "Cleo", "Dot"]
    assert record.replay().record(names=record.names).to_json() == first.json()
    assert client.post(f"/tables/{table.id}/rematch", headers=table.host()).status_code == 204
    details = client.get(f"/tables/{table.id}").json()
    assert details["game_number"] == 2
    assert [s["bot"] for s in details["seats"]] == ["random"] * 4
    assert client.get(f"/tables/{table.id}/record?game=1").json() == first.json()


def test_leave_frees_the_seat_and_a_wrong_token_is_refused(client: TestClient) -> None:
    """docs/protocol.md, HTTP API: leave gives the seat up; a wrong token gets 401."""
    table = make_table(client, game="blackout", seats=["human", "human", "random", "random"])
    bad = client.post(f"/tables/{table.id}/leave", headers={"Authorization": "Bearer nope"})
    assert problem_of(bad, 401)["type"].endswith("/bad-token")
    left = client.post(
        f"/tables/{table.id}/leave", headers={"Authorization": f"Bearer {table.tokens[1]}"}
    )
    assert left.status_code == 204
    seats = client.get(f"/tables/{table.id}").json()["seats"]
    assert seats[1]["state"] == "free"
    again = client.post(
        f"/tables/{table.id}/leave", headers={"Authorization": f"Bearer {table.tokens[1]}"}
    )
    problem_of(again, 401)


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"game": "nosuchgame"}, "game", "unknown game"),
        ({"game": "blackout", "options": {"nope": "1"}}, "options", "unknown option"),
        ({"game": "blackout", "players": 9}, "players", "Blackout"),
        ({"game": "blackout", "seats": ["human", "wizard", "easy", "easy"]}, "seats[1]", "wizard"),
        (
            {"game": "blackout", "seats": ["human", "easy", "ismcts:iterations=0", "easy"]},
            "seats[2]",
            "iterations must be at least 1",
        ),
        ({"game": "blackout", "away_bot": "nobody"}, "away_bot", "unknown bot"),
        ({"game": "blackout", "seats": ["human", "human"], "players": 4}, "seats", "one entry"),
        (
            {"ruleset_toml": 'extends = "blackout"\nid = "hx"\n[bidding]\nhook = 3\n'},
            "bidding.hook",
            "house-rules.toml:4:8",
        ),
        ({"ruleset_toml": "id = [\n"}, "ruleset_toml", "not valid TOML"),
        ({}, "game", "either game"),
        ({"game": "blackout", "grace_seconds": -1}, "grace_seconds", "grace_seconds"),
        # JSON's true is no number: a strict body refuses it (lax validation read it as 1).
        ({"game": "blackout", "players": True}, "players", "integer"),
        ({"game": "blackout", "seed": False}, "seed", "integer"),
    ],
)
def test_bad_tables_are_refused_with_a_problem_naming_the_field(
    client: TestClient, body: dict[str, Any], field: str | None, words: str
) -> None:
    """docs/protocol.md, Errors: a ruleset or request error is a 422 problem body whose
    ``field`` names the field at fault (the ruleset's errors as the command line gives them)."""
    answer = problem_of(client.post("/tables", json=body), 422)
    assert answer.get("field") == field
    assert words in answer["detail"]


def test_house_rules_make_a_table(client: TestClient) -> None:
    """docs/protocol.md, HTTP API: an uploaded house-rules file makes a table."""
    toml = 'extends = "blackout"\nid = "house_blackout"\n[bidding]\nhook = true\n'
    created = client.post("/tables", json={"ruleset_toml": toml, "seats": ["random"] * 4})
    assert created.status_code == 201, created.text
    assert created.json()["table"]["game"] == "house_blackout"


def test_unknown_tables_large_bodies_and_floods_get_problems(client: TestClient) -> None:
    """docs/protocol.md, Errors: 404 for no such table, 413 over 64 KiB, 429 when flooded."""
    assert problem_of(client.get("/tables/nope"), 404)["type"].endswith("/no-such-table")
    big = client.post(
        "/tables", content=b"{" + b" " * 70_000 + b"}", headers={"content-type": "application/json"}
    )
    problem_of(big, 413)

    def chunks() -> Iterator[bytes]:  # no Content-Length: the body arrives in chunks
        yield b"{"
        for _ in range(70):
            yield b" " * 1_000
        yield b"}"

    chunked = client.post("/tables", content=chunks(), headers={"content-type": "application/json"})
    problem_of(chunked, 413)
    small = client.post(
        "/tables",
        content=iter([b'{"game": "blackout", ', b'"seats": ["random", "random", "random"]}']),
        headers={"content-type": "application/json"},
    )
    assert small.status_code == 201, small.text
    # Flood with the cheapest request (no table to look up), so that a slow machine still
    # sends them faster than the limit refills.
    statuses = [client.get("/tables/nope").status_code for _ in range(120)]
    assert 429 in statuses
    # The limit is per address, whatever the path; flooded on, /tables is refused too
    # (not just the next request: on a busy machine the budget refills in between).
    answers = (client.get("/tables") for _ in range(120))
    refused = next((a for a in answers if a.status_code == 429), None)
    assert refused is not None, "flooding /tables was never refused"
    problem_of(refused, 429)


@pytest.mark.parametrize("game", list_rulesets())
def test_bots_play_every_game_through_the_server(client: TestClient, game: str) -> None:
    """docs/protocol.md, Live play: every phase of every game works at a table (plucks,
    auctions, antes, calls, blind and simultaneous bids); the stored record replays."""
    rules = load_ruleset(game)
    players = 4 if 4 in rules.player_counts else rules.player_counts[0]
    table = make_table(client, game=game, players=players, seats=["random"] * players, seed=2)
    assert client.post(f"/tables/{table.id}/start", headers=table.host()).status_code == 204
    deadline = time.monotonic() + 120
    while client.get(f"/tables/{table.id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    data = client.get(f"/tables/{table.id}/record").json()
    record = GameRecord.from_json(data)
    assert record.replay().record(names=record.names).to_json() == data
    assert record.seed == 2


def test_the_protocol_pages_example_table_is_made(client: TestClient) -> None:
    """docs/protocol.md, HTTP API: the example request to create a table works."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text("utf-8")
    example = page.split("Creating a table:", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    created = client.post("/tables", json=json.loads(example))
    assert created.status_code == 201, created.text
    assert created.json()["table"]["options"]["hook"] is True
    assert created.json()["seat"] == 0
