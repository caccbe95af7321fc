"""Score sheets on the server: the edit link another phone keeps the sheet with, and what
the sheet offers to enter (the engine's bids, Buckup's antes), on SQLite and PostgreSQL
(``db_url``). docs/scorekeeper.md, The edit link and The HTTP API."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.test_sheets_api import PLAYERS, Sheet, http
from tricktaker.games.buckup.scorekeeper import ante_choices
from tricktaker.scorekeeper import ScoreSheet

__all__ = ["http"]

HAND = {"bids": [1, 0, 0, 0], "tricks": [1, 0, 0, 0]}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_an_edit_link_edits_until_replaced_or_revoked(http: TestClient) -> None:
    """docs/scorekeeper.md, The edit link: the keeper gives out an edit key; with it
    another browser reads and enters hands; a new link shuts out the old one, and a
    revoked link edits nothing; the view key never edits; only the keeper's own token
    gives out or revokes the link."""
    sheet = Sheet(http, game="blackout", players=PLAYERS)
    assert sheet.first["owner"]
    assert not sheet.first["edit_link"]
    path = f"/sheets/{sheet.id}"
    made = http.post(f"{path}/edit-link", headers=sheet.auth)
    assert made.status_code == 200, made.text
    key = made.json()["edit_key"]
    assert key not in (sheet.token, sheet.view_key)
    assert sheet.get()["edit_link"]

    as_link = bearer(key)
    seen = http.get(path, headers=as_link).json()
    assert seen["can_edit"]
    assert not seen["owner"]
    assert seen["view_key"] == sheet.view_key
    added = http.post(f"{path}/hands", headers=as_link, json=HAND)
    assert added.status_code == 200, added.text
    assert len(sheet.get()["rows"]) == 1
    # The link's holder cannot give out links, nor take the keeper's away.
    for method in ("post", "delete"):
        refused = getattr(http, method)(f"{path}/edit-link", headers=as_link)
        assert refused.status_code == 403
        assert refused.json()["type"].endswith("not-keeper")
    # Nor can the view key, as a bearer or as ?view=.
    as_viewer = bearer(sheet.view_key)
    assert http.post(f"{path}/hands", headers=as_viewer, json=HAND).status_code == 403
    assert http.post(f"{path}/edit-link", headers=as_viewer).status_code == 403
    assert http.post(f"{path}/edit-link", params={"view": sheet.view_key}).status_code == 401

    newer = http.post(f"{path}/edit-link", headers=sheet.auth).json()["edit_key"]
    assert newer != key
    stale = http.post(f"{path}/hands", headers=as_link, json=HAND)
    assert stale.status_code == 403
    assert "replaced or revoked" in stale.json()["detail"]
    assert http.get(path, headers=bearer(newer)).json()["can_edit"]

    revoked = http.delete(f"{path}/edit-link", headers=sheet.auth)
    assert revoked.status_code == 200
    assert http.get(path, headers=bearer(newer)).status_code == 403
    assert not sheet.get()["edit_link"]
    assert len(sheet.get()["rows"]) == 1  # nothing the refused keys sent was kept
    assert http.post(f"{path}/hands", headers=sheet.auth, json=HAND | {"bids": [0, 1, 0, 0]})


def test_bluke_offers_bids_from_one(http: TestClient) -> None:
    """docs/games/bluke.md, Bidding: a bid is from 1 up to the hand size, never 0; the
    sheet's next hand and each check answer the bids the next bidder may make."""
    sheet = Sheet(http, game="bluke", players=PLAYERS)
    offer = sheet.first["next"]["bid_offer"]
    assert offer == {"seat": 1, "bids": list(range(1, 14)), "forbidden": []}
    checked = http.post(f"/sheets/{sheet.id}/check", headers=sheet.auth, json={"bids": [None, 3]})
    assert checked.status_code == 200, checked.text
    assert checked.json()["bid_offer"]["seat"] == 2
    assert checked.json()["bid_offer"]["bids"][0] == 1
    zero = http.post(f"/sheets/{sheet.id}/check", headers=sheet.auth, json={"bids": [None, 0]})
    assert zero.status_code == 422
    assert zero.json()["rule"] == "minimum bid"


def test_the_hooks_forbidden_bid_comes_with_its_reason(http: TestClient) -> None:
    """docs/games/blackout.md, Options: with the hook the dealer may not bring the bids to
    the hand size; the offer names that bid and why. A correction's bids are checked
    against the hand corrected (``hand``), the later hands aside."""
    sheet = Sheet(http, game="blackout", players=PLAYERS, options={"hook": True})
    check = f"/sheets/{sheet.id}/check"
    answer = http.post(check, headers=sheet.auth, json={"bids": [None, 1, 0, 0]}).json()
    assert answer["bid_offer"] == {
        "seat": 0,
        "bids": [1],
        "forbidden": [
            {"bid": 0, "reason": "Ann, the dealer, may not bid 0: the bids would total the 1 trick"}
        ],
    }
    assert sheet.add(bids=[1, 1, 0, 0], tricks=[1, 0, 0, 0]).status_code == 200
    fixing = http.post(check, headers=sheet.auth, json={"hand": 1, "bids": []}).json()
    assert fixing["bid_offer"] == {"seat": 1, "bids": [0, 1], "forbidden": []}
    assert fixing["next"]["hand"] == 1
    wrong = http.post(check, headers=sheet.auth, json={"hand": 3, "bids": []})
    assert wrong.status_code == 409


def test_buckup_antes_and_decisions_come_from_the_rules(http: TestClient) -> None:
    """docs/games/buckup.md, Chips, antes and the pot; Stay or fold; Options (out_for_now):
    the antes the dealer may choose and the decisions a player may announce are the
    engine's."""
    plain = Sheet(http, game="buckup", players=PLAYERS)
    nxt: dict[str, Any] = plain.first["next"]
    steps = {step["name"]: step for step in nxt["steps"]}
    assert steps["ante"]["choices"] == list(ante_choices(ScoreSheet("buckup", PLAYERS).game_copy()))
    assert steps["ante"]["choices"][0] == "kept"
    assert steps["decisions"]["choices"] == ["stay", "fold"]
    assert steps["decisions"]["count"]["name"] == "drawn"
    assert nxt["enter"] == ["ante", "decisions", "drawn", "tricks"]
    assert nxt["bid_offer"] is None
    ofn = Sheet(http, game="buckup", players=PLAYERS, options={"out_for_now": True})
    (_, decisions) = ofn.first["next"]["steps"]
    assert "out_for_now" in decisions["choices"]
    blackout = Sheet(http, game="blackout", players=PLAYERS)
    assert blackout.first["next"]["steps"] == []
