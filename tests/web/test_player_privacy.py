"""What a player shares, in Chromium (#/player/NAME; docs/players.md, What you share):
Ann, signed in, finds her settings on her own page, shares her page with her clubs'
members only and her ratings with nobody, and saves; a guest on a phone then sees her
name and a plain list of what she does not share, and none of her figures; Ann shares
her page again and the guest sees her statistics but not her ratings."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from tests.server_process import ServerProcess
from tests.web.axe import assert_accessible
from tests.web.conftest import PHONE, NewPage

PASSWORD = "correct horse battery"


def test_a_player_chooses_what_others_see(web_server: ServerProcess, new_page: NewPage) -> None:
    url = web_server.url
    ann = httpx.Client(base_url=url, timeout=30)
    assert ann.post("/api/signup", json={"name": "Ann", "password": PASSWORD}).status_code == 201
    ann.headers["X-CSRF-Token"] = ann.cookies["tricktaker_csrf"]
    sheet = ann.post("/sheets", json={"game": "blackout", "players": ["Ann", "Cy", "Di"]}).json()
    edit = {"Authorization": f"Bearer {sheet['edit_token']}"}
    hand = {"bids": [1, 0, 0], "tricks": [1, 0, 0], "trump": "hearts"}
    assert ann.post(f"/sheets/{sheet['id']}/hands", json=hand, headers=edit).is_success
    ann.post("/api/me/claim", json={"sheets": [{"id": sheet["id"], "token": sheet["edit_token"]}]})

    page = new_page()
    page.goto(f"{url}/#/account")
    page.fill("#login-name", "ann")
    page.fill("#login-password", PASSWORD)
    page.locator("form[aria-labelledby=login-title] button[type=submit]").click()
    expect(page.locator("#account-link")).to_have_text("Ann")
    page.locator("#account-link").click()
    expect(page.locator("#player-privacy-title")).to_have_text("What you share")
    expect(page.locator("#privacy-page")).to_have_value("public")
    expect(page.locator("#privacy-sheets")).to_have_value("private")
    expect(page.locator(".player-head")).to_contain_text("shown to everyone")
    page.select_option("#privacy-page", label="Members of my clubs")
    page.select_option("#privacy-ratings", label="Only me")
    page.locator("#privacy-save").click()
    expect(page.locator("#privacy-status")).to_contain_text("Saved")
    assert ann.get("/api/me/privacy").json()["privacy"] == {
        "page": "clubs",
        "history": "public",
        "sheets": "private",
        "ratings": "private",
    }
    page.reload()
    expect(page.locator("#privacy-page")).to_have_value("clubs")
    expect(page.locator(".player-head")).to_contain_text("the members of your clubs")
    expect(page.locator(".player-stats")).to_have_count(1)  # her own page: everything
    assert_accessible(page, context="player, own settings")

    phone = new_page(viewport=PHONE)
    phone.goto(f"{url}/#/player/Ann")
    expect(phone.locator("h1")).to_have_text("Ann")
    notice = phone.locator(".player-not-shared")
    expect(notice).to_contain_text("What Ann does not share with you")
    expect(notice).to_contain_text("shared only with the members of Ann's clubs")
    expect(notice.locator("a[href='#/account']")).to_be_visible()
    expect(phone.locator(".player-stats")).to_have_count(0)
    expect(phone.locator("#player-history-title")).to_have_count(0)
    expect(phone.locator("#player-privacy-title")).to_have_count(0)
    assert phone.evaluate("document.getElementById('main').scrollWidth") <= PHONE["width"]
    assert_accessible(phone, context="player, not shared with a guest")

    page.select_option("#privacy-page", label="Everyone")
    page.locator("#privacy-save").click()
    expect(page.locator("#privacy-status")).to_contain_text("Saved")
    phone.reload()
    expect(phone.locator(".player-stats")).to_have_count(1)
    expect(phone.locator("#player-history-title")).to_be_visible()
    expect(notice).to_contain_text("The ratings")
    expect(notice).to_contain_text("shared with nobody but Ann")
    expect(notice).to_contain_text("The score sheets kept")  # private by default
    assert page.console_errors == []  # type: ignore[attr-defined]
    assert phone.console_errors == []  # type: ignore[attr-defined]
    ann.close()
