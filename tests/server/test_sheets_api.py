"""The score sheets of the server (docs/scorekeeper.md, In the browser and on the server):
created, entered hand by hand, refused, corrected, read with the view key, exported and
imported, each on SQLite and PostgreSQL (``db_url``)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tricktaker.scorekeeper import ScoreSheet
from tricktaker.server import create_app

PLAYERS = ["Ann", "Bob", "Cy", "Di"]
HOOK_HANDS: list[
    dict[str, Any]
] = [  # Blackout with the hook: hands of 1, 2 and 3 cards, Ann deals first
    {"bids": [1, 0, 1, 0], "tricks": [1, 0, 0, 0]},
    {"bids": [0, 0, 1, 0], "tricks": [0, 1, 1, 0]},
]
HOUSE_RULES = """\
extends = "blackout"
id = "short_blackout"
name = "Short Blackout"
"""


@pytest.fixture
def http(db_url: str) -> Iterator[TestClient]:
    """The server in process on the test's database, without the rate limit."""
    with TestClient(create_app(db_url, http_rate=None)) as client:
        yield client


class Sheet:
    """A sheet created through the API, with its credentials."""

    def __init__(self, http: TestClient, **body: Any) -> None:
        created = http.post("/sheets", json=body)
        assert created.status_code == 201, created.text
        data = created.json()
        self.http, self.id = http, data["id"]
        self.token, self.view_key = data["edit_token"], data["view_key"]
        self.first = data["sheet"]

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def get(self) -> dict[str, Any]:
        answer = self.http.get(f"/sheets/{self.id}", headers=self.auth)
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    def add(self, **hand: Any) -> Any:
        return self.http.post(f"/sheets/{self.id}/hands", headers=self.auth, json=hand)


def test_create_enter_hands_and_read_the_sheet(http: TestClient) -> None:
    """docs/scorekeeper.md, In the browser and on the server: the sheet says whose deal,
    the hand size, the trump rule, who bids first and what to enter; the scores are the
    library's (docs/games/blackout.md, Scoring), and the view key reads the same sheet."""
    sheet = Sheet(http, game="blackout", players=PLAYERS, first_dealer="Cy")
    nxt = sheet.first["next"]
    assert (nxt["hand"], nxt["dealer"], nxt["hand_size"], nxt["bids_first"]) == (1, 2, 1, "Di")
    assert nxt["trump_rule"] == "the turned-up card"
    assert nxt["enter"] == ["bids", "trump", "tricks"]
    assert sheet.first["rows"] == []
    assert sheet.first["can_edit"]
    reference = ScoreSheet("blackout", PLAYERS, first_dealer="Cy")
    hands: list[dict[str, Any]] = [
        {"bids": [0, 0, 1, 0], "tricks": [0, 0, 1, 0], "trump": "hearts"},
        {"bids": [1, 0, 0, 1], "tricks": [1, 1, 0, 0]},
        {"bids": [1, 1, 1, 1], "tricks": [0, 1, 1, 1], "trump": "none"},
    ]
    for number, hand in enumerate(hands, start=1):
        answer = sheet.add(hand=number, **hand)
        assert answer.status_code == 200, answer.text
        assert answer.json()["applied"]
        assert answer.json()["hand"] == number
        reference.add(**hand)
    data = sheet.get()
    assert data["totals"] == list(reference.totals)
    assert [r["scores"] for r in data["rows"]] == [list(r.scores) for r in reference.rows]
    assert [r["trump"] for r in data["rows"]] == ["hearts", None, "no trump"]
    assert data["rows"][1]["outcomes"] == ["P", "O", "P", "S"]
    assert data["counts"][3] == {"S": 1, "O": 0, "P": 2}
    assert data["next"]["hand_size"] == reference.next_hand().hand_size == 4
    assert data["next"]["dealer"] == 1  # the deal passes to the left: Cy, Di, Ann, Bob
    watched = http.get(f"/sheets/{sheet.id}", params={"view": sheet.view_key})
    assert watched.status_code == 200
    seen = watched.json()
    assert not seen["can_edit"]
    assert seen["view_key"] is None
    assert seen["rows"] == data["rows"]
    assert seen["version"] == data["version"] == 3


def test_a_refused_entry_names_the_rule_and_changes_nothing(http: TestClient) -> None:
    """docs/games/blackout.md, Options: with the hook the dealer may not bring the bids
    to the number of tricks; docs/scorekeeper.md: tricks must add up to the hand size.
    A refused entry is a problem body with the rule's words; the sheet is unchanged."""
    sheet = Sheet(http, game="blackout", players=PLAYERS, options={"hook": True})
    for hand in HOOK_HANDS:
        assert sheet.add(**hand).status_code == 200
    before = sheet.get()
    checked = http.post(
        f"/sheets/{sheet.id}/check", headers=sheet.auth, json={"bids": [1, 0, 1, 1]}
    )
    assert checked.status_code == 422
    body = checked.json()
    assert checked.headers["content-type"].startswith("application/problem+json")
    assert body["rule"] == "hook rule"
    assert body["detail"] == "Cy, the dealer, may not bid 1: the bids would total the 3 tricks"
    assert http.post(
        f"/sheets/{sheet.id}/check", headers=sheet.auth, json={"bids": [1, 0, None, 1]}
    ).json()["ok"]
    refused = sheet.add(bids=[1, 0, 1, 1], tricks=[1, 1, 1, 0])
    assert refused.status_code == 422
    assert refused.json()["rule"] == "hook rule"
    short = sheet.add(bids=[1, 0, 2, 1], tricks=[1, 1, 0, 0])
    assert short.status_code == 422
    assert short.json()["rule"] == "tricks total the hand size"
    assert short.json()["detail"] == (
        "the tricks must add up to the hand size: 1 + 1 + 0 + 0 = 2, not 3"
    )
    wrong_hand = sheet.add(hand=7, bids=[1, 0, 2, 1], tricks=[1, 1, 1, 0])
    assert wrong_hand.status_code == 409
    assert wrong_hand.json()["field"] == "hand"
    assert sheet.get() == before


def test_a_correction_rescores_every_later_hand_and_says_what_changed(
    http: TestClient,
) -> None:
    """docs/scorekeeper.md, Corrections: a past hand corrected, every later score is
    recomputed and the answer lists what changed; a correction that breaks a rule is
    refused and changes nothing; undo takes back the last hand."""
    sheet = Sheet(http, game="blackout", players=PLAYERS, options={"hook": True})
    for hand in HOOK_HANDS:
        assert sheet.add(**hand).status_code == 200
    fixed = http.put(
        f"/sheets/{sheet.id}/hands/1",
        headers=sheet.auth,
        json={"id": "fix-1", "bids": [1, 0, 1, 0], "tricks": [0, 0, 1, 0]},
    )
    assert fixed.status_code == 200, fixed.text
    reference = ScoreSheet("blackout", PLAYERS, options={"hook": True})
    reference.add(**HOOK_HANDS[0])
    reference.add(**HOOK_HANDS[1])
    expected = reference.fix(1, reference.entry(bids=[1, 0, 1, 0], tricks=[0, 0, 1, 0]))
    changes = fixed.json()["changes"]
    assert [(c["hand"], c["player"], c["what"], c["old"], c["new"]) for c in changes] == [
        (c.hand, PLAYERS[c.seat], c.what, c.old, c.new) for c in expected
    ]
    assert {(c["hand"], c["player"]) for c in changes} >= {(1, "Ann"), (2, "Cy")}
    assert fixed.json()["sheet"]["totals"] == list(reference.totals)
    again = http.put(
        f"/sheets/{sheet.id}/hands/1",
        headers=sheet.auth,
        json={"id": "fix-1", "bids": [1, 0, 1, 0], "tricks": [0, 0, 1, 0]},
    )
    assert not again.json()["applied"]
    assert again.json()["changes"] == changes
    broken = http.put(
        f"/sheets/{sheet.id}/hands/2",
        headers=sheet.auth,
        json={"bids": [0, 0, 1, 0], "tricks": [0, 1, 0, 0]},
    )
    assert broken.status_code == 422
    assert broken.json()["rule"] == "tricks total the hand size"
    assert sheet.get()["totals"] == list(reference.totals)
    undone = http.post(f"/sheets/{sheet.id}/undo", headers=sheet.auth, json={"hand": 2})
    assert undone.status_code == 200
    assert len(undone.json()["sheet"]["rows"]) == 1
    assert sheet.get()["next"]["hand"] == 2


def test_the_view_key_reads_but_cannot_write(http: TestClient) -> None:
    """docs/scorekeeper.md, The read-only link: the view key reads the sheet and its
    exports; only the edit token changes it."""
    sheet = Sheet(http, game="blackout", players=PLAYERS)
    hand = {"bids": [1, 0, 0, 0], "tricks": [1, 0, 0, 0]}
    as_viewer = {"Authorization": f"Bearer {sheet.view_key}"}
    refused = http.post(f"/sheets/{sheet.id}/hands", headers=as_viewer, json=hand)
    assert refused.status_code == 403
    nobody = http.post(f"/sheets/{sheet.id}/hands", json=hand)
    assert nobody.status_code == 401
    with_view = http.post(f"/sheets/{sheet.id}/hands", params={"view": sheet.view_key}, json=hand)
    assert with_view.status_code == 401
    assert http.get(f"/sheets/{sheet.id}", params={"view": "guess"}).status_code == 403
    assert http.get(f"/sheets/{sheet.id}").status_code == 401
    assert http.get("/sheets/nothing-here", params={"view": "x"}).status_code == 404
    for path in ("undo", "check"):
        assert (
            http.post(f"/sheets/{sheet.id}/{path}", headers=as_viewer, json={}).status_code == 403
        )
    assert sheet.get()["rows"] == []
    exported = http.get(f"/sheets/{sheet.id}/export.csv", params={"view": sheet.view_key})
    assert exported.status_code == 200


def test_export_and_import_round_trip(http: TestClient) -> None:
    """docs/scorekeeper.md, Export and import: the JSON export is imported back as a new
    sheet with the same hands and totals (house rules travel with it); the CSV has one
    row per hand and the S/O/P rows; a sheet changed by hand is refused."""
    sheet = Sheet(http, ruleset_toml=HOUSE_RULES, players=["Ann", "Bob", "Cy"])
    assert sheet.first["name"] == "Short Blackout"
    for hand in (
        {"bids": [1, 0, 0], "tricks": [1, 0, 0]},
        {"bids": [0, 1, 0], "tricks": [0, 2, 0]},
    ):
        assert sheet.add(**hand).status_code == 200
    original = sheet.get()
    exported = http.get(f"/sheets/{sheet.id}/export.json", headers=sheet.auth)
    assert exported.status_code == 200
    assert "attachment" in exported.headers["content-disposition"]
    data = exported.json()
    assert data["ruleset_toml"] == HOUSE_RULES
    imported = http.post("/sheets/import", json={"sheet": data})
    assert imported.status_code == 201, imported.text
    copy = imported.json()
    assert copy["id"] != sheet.id
    assert copy["edit_token"] != sheet.token
    assert copy["sheet"]["rows"] == original["rows"]
    assert copy["sheet"]["totals"] == original["totals"]
    assert copy["sheet"]["name"] == "Short Blackout"
    data["hands"][1]["totals"]["Bob"] += 10
    odd = http.post("/sheets/import", json={"sheet": {**data, "options": {"hook": [1]}}})
    assert odd.status_code == 422
    assert odd.json()["field"] == "options"
    tampered = http.post("/sheets/import", json={"sheet": data})
    assert tampered.status_code == 422
    assert "changed by hand" in tampered.json()["detail"]
    lines = list(
        csv.reader(io.StringIO(http.get(f"/sheets/{sheet.id}/export.csv", headers=sheet.auth).text))
    )
    assert lines[0][:5] == ["hand", "dealer", "cards", "trump", "special"]
    assert [line[0] for line in lines[1:]] == ["1", "2", "S", "O", "P"]
    markdown = http.get(f"/sheets/{sheet.id}/export.md", headers=sheet.auth).text
    assert markdown.startswith("# Short Blackout: score sheet")


def test_a_repeated_entry_id_is_applied_once(http: TestClient, db_url: str) -> None:
    """docs/scorekeeper.md, In the browser and on the server: a request repeated with the
    same entry id (a retry after a dropped connection) is applied once; what was answered
    is stored (a second server on the same database sees it)."""
    sheet = Sheet(http, game="blackout", players=PLAYERS)
    hand = {"id": "phone-1", "hand": 1, "bids": [1, 0, 0, 0], "tricks": [1, 0, 0, 0]}
    first = sheet.add(**hand)
    second = sheet.add(**hand)
    assert first.json()["applied"]
    assert not second.json()["applied"]
    assert second.json()["hand"] == 1
    assert first.json()["sheet"] == second.json()["sheet"]
    assert len(sheet.get()["rows"]) == 1
    with TestClient(create_app(db_url, http_rate=None)) as other:
        seen = other.get(f"/sheets/{sheet.id}", headers=sheet.auth).json()
        assert seen["version"] == 1
        assert len(seen["rows"]) == 1
        later = {"id": "phone-2", "hand": 2, "bids": [0, 0, 1, 0], "tricks": [0, 1, 1, 0]}
        assert other.post(f"/sheets/{sheet.id}/hands", headers=sheet.auth, json=later).json()[
            "applied"
        ]
    # The first server's cached sheet is behind; it reads the stored log again.
    assert sheet.get()["version"] == 2
    retried = sheet.add(**{**hand, "id": "phone-2"})
    assert not retried.json()["applied"]
    assert retried.json()["hand"] == 2


def test_creating_a_sheet_checks_the_game_and_the_players(http: TestClient) -> None:
    """docs/scorekeeper.md: an unknown game, a repeated name or an unknown first dealer
    is refused with a problem naming the field."""
    unknown = http.post("/sheets", json={"game": "snap", "players": PLAYERS})
    assert unknown.status_code == 422
    assert "snap" in unknown.json()["detail"]
    twice = http.post("/sheets", json={"game": "blackout", "players": ["Ann", "ann", "Cy"]})
    assert twice.status_code == 422
    assert twice.json()["field"] == "players"
    dealer = http.post(
        "/sheets", json={"game": "blackout", "players": PLAYERS, "first_dealer": "Zed"}
    )
    assert dealer.status_code == 422
    assert dealer.json()["field"] == "first_dealer"
