"""A player's page in Chromium (#/player/NAME; docs/players.md): Ann, signed in, goes
from the header's name to her page (her rating beside the house rules it was earned
under, her statistics, her finished game with its replay link, her score sheet); a
guest on a phone sees the same page without the sheet, and the page fits 390 px; Ben's
Review link opens the replay with the coach's review of his seat."""

from __future__ import annotations

import time

import httpx
from playwright.sync_api import expect

from tests.server_process import ServerProcess
from tests.web.axe import assert_accessible
from tests.web.conftest import PHONE, NewPage

PASSWORD = "correct horse battery"
HOUSE = 'id = "two_hands"\nextends = "blackout"\n[schedule]\nsizes = "2, 3"\n'


def _user(url: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=30)
    made = client.post("/api/signup", json={"name": name, "password": PASSWORD})
    assert made.status_code == 201, made.text
    client.headers["X-CSRF-Token"] = client.cookies["tricktaker_csrf"]
    return client


def test_a_players_page(web_server: ServerProcess, new_page: NewPage) -> None:
    url = web_server.url
    ann, ben = _user(url, "Ann"), _user(url, "Ben")
    body = {"ruleset_toml": HOUSE, "seats": ["human", "human", "easy"], "host_seat": 0}
    made = ann.post("/tables", json={**body, "name": "Ann", "grace_seconds": 0.05}).json()
    table_id = made["table"]["id"]
    joined = ben.post(f"/tables/{table_id}/join", json={"invite": made["invite"], "name": "Ben"})
    seats = [(ann, made["seat_token"]), (ben, joined.json()["seat_token"])]
    for client, token in seats:
        claimed = client.post("/api/me/claim", json={"seats": [{"id": table_id, "token": token}]})
        assert claimed.json()["refused"] == 0
    host = {"Authorization": f"Bearer {made['host_token']}"}
    assert ann.post(f"/tables/{table_id}/start", headers=host).status_code == 204
    sheet = ann.post("/sheets", json={"game": "blackout", "players": ["Ann", "Cy", "Di"]}).json()
    edit = {"Authorization": f"Bearer {sheet['edit_token']}"}
    hand = {"bids": [1, 0, 0], "tricks": [1, 0, 0], "trump": "hearts"}
    assert ann.post(f"/sheets/{sheet['id']}/hands", json=hand, headers=edit).is_success
    ann.post("/api/me/claim", json={"sheets": [{"id": sheet["id"], "token": sheet["edit_token"]}]})
    deadline = time.monotonic() + 60
    while ann.get(f"/tables/{table_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the game never finished"
        time.sleep(0.1)

    page = new_page()
    page.goto(f"{url}/#/account")
    page.fill("#login-name", "ann")
    page.fill("#login-password", PASSWORD)
    page.locator("form[aria-labelledby=login-title] button[type=submit]").click()
    expect(page.locator("#account-link")).to_have_text("Ann")
    page.locator("#account-link").click()
    expect(page).to_have_url(f"{url}/#/player/Ann")
    expect(page.locator("h1")).to_have_text("Ann")
    ratings = page.locator(".player-rating-tile")
    expect(ratings).to_have_count(1)
    expect(ratings).to_contain_text("Blackout (house rules)")
    expect(page.locator(".player-stats")).to_have_count(2)  # the house rules, the sheet's
    expect(page.locator(".player-stats").first).to_contain_text("Bid accuracy")
    replay = page.locator(f'.player-games a[href="#/replay/{table_id}?game=1"]')
    expect(replay).to_be_visible()
    expect(page.locator("#player-sheets-title")).to_have_text("Your score sheets")
    expect(page.locator(f'a[href="#/score/{sheet["id"]}"]')).to_be_visible()
    page.locator(".player-stats summary").first.click()
    expect(page.locator(".player-stats table").first).to_be_visible()
    assert_accessible(page, context="player, own page")
    replay.click()
    expect(page.locator("#replay-review")).to_be_visible()
    assert page.console_errors == []  # type: ignore[attr-defined]

    phone = new_page(viewport=PHONE)
    phone.goto(f"{url}/#/player/ann")
    expect(phone.locator("h1")).to_have_text("Ann")
    expect(phone.locator(".player-games li")).to_have_count(1)
    expect(phone.locator("#player-sheets-title")).to_have_count(0)
    phone.locator(".player-stats summary").first.click()
    # The page itself fits (the header's own width: tests/web/test_account.py).
    assert phone.evaluate("document.getElementById('main').scrollWidth") <= PHONE["width"]
    assert_accessible(phone, context="player, a guest on a phone")
    phone.goto(f"{url}/#/player/Ben")  # Ben's Review link opens his seat's review
    review = phone.locator(f'.player-games a[href="#/replay/{table_id}?game=1&review=1"]')
    review.click()
    expect(phone.locator("#review")).to_be_visible()
    expect(phone.locator("#review-seat")).to_have_value("1")
    phone.goto(f"{url}/#/player/nobody")
    expect(phone.locator("h1")).to_have_text("No such player")
    assert [e for e in phone.console_errors if "status of 404" not in e] == []  # type: ignore[attr-defined]
    for client in (ann, ben):
        client.close()
