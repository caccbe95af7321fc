"""The coach's review of a finished table's game over HTTP (issue 29; docs/protocol.md,
Reviews): asked for, followed to the end, stored with the table and answered at once
the second time and after a restart; refused for a game not finished (its review would
show hands still being played), for seats and games the table lacks, with problem bodies.
Each test runs on SQLite and on the real PostgreSQL server (``db_url``).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text

from tricktaker.coach.review import review_record
from tricktaker.engine import GameRecord
from tricktaker.server import create_app
from tricktaker.server.db import alembic_config, current_revision, upgrade
from tricktaker.server.tables import reviews

DEALS = 8
"""The deals each decision is valued over in these tests (the server's budget)."""


@pytest.fixture
def review_client(db_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The server on ``db_url`` reviewing each decision over :data:`DEALS` deals."""
    monkeypatch.setenv(reviews.DEALS_VARIABLE, str(DEALS))
    with TestClient(create_app(db_url)) as client:
        yield client


def finished_table(client: TestClient, **body: Any) -> str:
    """A table of bots that has played one hand of Pluck to the end (its id)."""
    settings = {"game": "pluck", "options": {"hands": 1}, "seats": ["random"] * 3, "seed": 11}
    created = client.post("/tables", json={**settings, **body})
    assert created.status_code == 201, created.text
    table_id: str = created.json()["table"]["id"]
    host = {"Authorization": f"Bearer {created.json()['host_token']}"}
    assert client.post(f"/tables/{table_id}/start", headers=host).status_code == 204
    deadline = time.monotonic() + 60
    while client.get(f"/tables/{table_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    return table_id


def followed(client: TestClient, table_id: str, seat: int) -> list[dict[str, Any]]:
    """``GET /tables/{id}/review`` until the review is done (or failed): every answer."""
    answers = []
    deadline = time.monotonic() + 120
    while True:
        reply = client.get(f"/tables/{table_id}/review", params={"seat": seat})
        assert reply.status_code == 200, reply.text
        answers.append(reply.json())
        if answers[-1]["status"] in ("done", "failed"):
            return answers
        assert time.monotonic() < deadline, answers[-1]
        time.sleep(0.05)


@pytest.mark.slow
def test_a_finished_games_review_is_followed_to_its_end_and_stored(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two seats asked for at once: the first queued, the second behind it; each
    followed (done never goes back, up to total) to the review the coach makes of the
    record with the same deals; asked for again it is answered at once (200, done), and
    a server restarted on the same database finds it without computing it again."""
    monkeypatch.setenv(reviews.DEALS_VARIABLE, str(DEALS))
    with TestClient(create_app(db_url)) as client:
        table_id = finished_table(client)
        record = GameRecord.from_json(client.get(f"/tables/{table_id}/record").json())
        first = client.post(f"/tables/{table_id}/review", json={"seat": 0})
        second = client.post(f"/tables/{table_id}/review", json={"seat": 2, "game": 1})
        assert first.status_code == second.status_code == 202
        assert first.json()["status"] == "queued"
        assert first.json()["budget"] == f"{DEALS} deals"
        assert second.json()["status"] == "queued"
        # The first may already be made on a fast machine (a few deals); if it is still
        # under way after the second was answered, it was so when the second was queued.
        still = client.get(f"/tables/{table_id}/review", params={"seat": 0}).json()
        if still["status"] in ("queued", "running"):
            assert second.json()["ahead"] >= 1
        else:
            assert still["status"] == "done", still["detail"]
        served: dict[int, dict[str, Any]] = {}
        for seat in (0, 2):
            answers = followed(client, table_id, seat)
            done = [a["done"] for a in answers]
            assert done == sorted(done)
            final = answers[-1]
            assert final["status"] == "done", final["detail"]
            assert final["done"] == final["total"] > 0
            served[seat] = final["review"]
            assert final["review"]["seat"] == seat
            reviewed = final["review"]["decisions"] + final["review"]["unvalued"]
            assert len(reviewed) == final["total"]
            costs = [loss["cost"] for loss in final["review"]["losses"]]
            assert costs == sorted(costs, reverse=True)
        assert served[0] == review_record(record, 0, deals=DEALS).to_json()
        again = client.post(f"/tables/{table_id}/review", json={"seat": 0})
        assert again.status_code == 200
        assert again.json()["status"] == "done"
        assert again.json()["review"] == final_review(client, table_id, 0)
    # the server stopped; another starts on its database

    engine = create_engine(db_url)
    with engine.connect() as connection:
        stored = connection.execute(text("SELECT seat FROM reviews ORDER BY seat")).scalars()
        assert list(stored) == [0, 2]
    engine.dispose()
    with TestClient(create_app(db_url)) as restarted:
        looked = restarted.get(f"/tables/{table_id}/review", params={"seat": 2, "game": 1})
        assert looked.status_code == 200
        assert looked.json()["status"] == "done"
        assert looked.json()["review"] == served[2]
    monkeypatch.setenv(reviews.DEALS_VARIABLE, str(DEALS + 1))  # another budget
    with TestClient(create_app(db_url)) as other:
        looked = other.get(f"/tables/{table_id}/review", params={"seat": 2})
        assert looked.json()["status"] == "none"


def final_review(client: TestClient, table_id: str, seat: int) -> dict[str, Any]:
    """The review the server answers for ``seat`` (done already)."""
    reply = client.get(f"/tables/{table_id}/review", params={"seat": seat})
    assert reply.json()["status"] == "done"
    review: dict[str, Any] = reply.json()["review"]
    return review


def problem_of(reply: Any, status: int, code: str) -> dict[str, Any]:
    """The reply's problem body, checked to have ``status`` and ``code``."""
    assert reply.status_code == status, reply.text
    assert reply.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = reply.json()
    assert body["status"] == status
    assert body["type"].endswith(f"/{code}"), body
    return body


def test_a_review_is_refused_for_a_game_not_finished_and_what_the_table_lacks(
    review_client: TestClient,
) -> None:
    """A game being played is not reviewed (it would show the seat's hand to anyone, as
    its record would: 409 not-finished, as GET /tables/{id}/record); nor a seat, a game
    or a table that does not exist (404); nor a seat that is not a number from 0 (422).
    A review nobody asked for is status none."""
    client = review_client
    created = client.post(
        "/tables",
        json={
            "game": "blackout",
            "players": 3,
            "seats": ["human", "random", "random"],
            "host_seat": 0,
        },
    ).json()
    playing = created["table"]["id"]
    before = client.post(f"/tables/{playing}/review", json={"seat": 1})
    problem_of(before, 409, "not-finished")  # no game played yet
    host = {"Authorization": f"Bearer {created['host_token']}"}
    assert client.post(f"/tables/{playing}/start", headers=host).status_code == 204
    for seat in (0, 1):
        refused = client.post(f"/tables/{playing}/review", json={"seat": seat})
        assert "not finished" in problem_of(refused, 409, "not-finished")["detail"]
        looked = client.get(f"/tables/{playing}/review", params={"seat": seat})
        problem_of(looked, 409, "not-finished")
        assert client.get(f"/tables/{playing}/record").status_code == 409  # the same rule

    finished = finished_table(client)
    problem_of(client.post(f"/tables/{finished}/review", json={"seat": 3}), 404, "no-such-seat")
    problem_of(client.get(f"/tables/{finished}/review", params={"seat": 5}), 404, "no-such-seat")
    asked = client.post(f"/tables/{finished}/review", json={"seat": 0, "game": 2})
    problem_of(asked, 404, "no-such-game")
    problem_of(client.post("/tables/nothere/review", json={"seat": 0}), 404, "no-such-table")
    problem_of(client.post(f"/tables/{finished}/review", json={"seat": -1}), 422, "invalid-request")
    problem_of(
        client.post(f"/tables/{finished}/review", json={"seat": "0"}), 422, "invalid-request"
    )
    problem_of(client.get(f"/tables/{finished}/review"), 422, "invalid-request")
    untouched = client.get(f"/tables/{finished}/review", params={"seat": 1})
    assert untouched.status_code == 200
    assert untouched.json()["status"] == "none"


def test_a_server_reviewing_all_it_takes_refuses_more_with_retry_after(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reviews are bounded (reviews.QUEUE_LIMIT, here 1): one more is 503
    reviews-busy with Retry-After, and the one under way goes on."""
    monkeypatch.setattr(reviews, "QUEUE_LIMIT", 1)
    monkeypatch.setenv(reviews.SECONDS_VARIABLE, "0.5")  # slow enough to be under way
    with TestClient(create_app(db_url)) as client:
        table_id = finished_table(client)
        assert client.post(f"/tables/{table_id}/review", json={"seat": 0}).status_code == 202
        busy = client.post(f"/tables/{table_id}/review", json={"seat": 1})
        problem_of(busy, 503, "reviews-busy")
        assert busy.headers["Retry-After"] == str(reviews.ReviewsBusyError.retry_after)
        under_way = client.get(f"/tables/{table_id}/review", params={"seat": 0}).json()
        assert under_way["status"] in ("queued", "running")
        assert under_way["budget"] == "0.5 s"


def test_a_record_files_replay_is_reviewed_and_kept_while_the_server_runs(
    review_client: TestClient,
) -> None:
    """``tricktaker replay FILE --web`` (POST /api/replays): its Review asks
    /api/replays/{id}/review, the same review as the coach's of the record; asked again,
    answered at once; a replay or seat the server lacks is 404."""
    client = review_client
    table_id = finished_table(client)
    record = client.get(f"/tables/{table_id}/record").json()
    replay_id = client.post("/api/replays", json=record).json()["id"]
    path = f"/api/replays/{replay_id}/review"
    assert client.get(path, params={"seat": 1}).json()["status"] == "none"
    asked = client.post(path, json={"seat": 1})
    assert asked.status_code == 202
    deadline = time.monotonic() + 120
    while (answer := client.get(path, params={"seat": 1}).json())["status"] != "done":
        assert answer["status"] in ("queued", "running"), answer
        assert time.monotonic() < deadline
        time.sleep(0.05)
    expected = review_record(GameRecord.from_json(record), 1, deals=DEALS).to_json()
    assert answer["review"] == expected
    again = client.post(path, json={"seat": 1})
    assert again.status_code == 200
    assert again.json()["review"] == expected
    problem_of(client.post(path, json={"seat": 3}), 404, "no-such-seat")
    problem_of(client.get("/api/replays/gone/review", params={"seat": 0}), 404, "no-replay")


def test_the_reviews_table_migrates_up_and_down(db_url: str) -> None:
    """Migration 0009 adds the reviews table (a review kept with its table) and takes
    it away again; the tables stored before are kept."""
    upgrade(db_url, "0008")
    engine = create_engine(db_url)
    assert "reviews" not in inspect(engine).get_table_names()
    engine.dispose()
    upgrade(db_url)
    assert current_revision(db_url) == "0016"
    engine = create_engine(db_url)
    columns = {c["name"] for c in inspect(engine).get_columns("reviews")}
    assert columns == {
        "id",
        *("table_id", "game_number", "seat", "seconds", "deals", "review", "created_at"),
    }
    engine.dispose()
    command.downgrade(alembic_config(db_url), "0008")
    assert current_revision(db_url) == "0008"
    engine = create_engine(db_url)
    assert "reviews" not in inspect(engine).get_table_names()
    assert "tables" in inspect(engine).get_table_names()
    engine.dispose()
    upgrade(db_url)
    assert current_revision(db_url) == "0016"
