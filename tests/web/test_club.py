"""A club in Chromium (#/clubs, #/club/ID, #/club-invite/CODE; docs/clubs.md): Ben,
signed in, opens Ann's invitation link and joins; a duplicate evening of two tables
(Ann at one, Ben at the other, bots in the other seats) is played to the end and a
real-card evening kept on a sheet; the club's page shows the tables, the results, the
duplicate standings, the season's standings and the members' statistics, passes
axe-core, and fits a 390 px phone; the header's Clubs entry lists the club."""

from __future__ import annotations

import re
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


def test_a_clubs_evening_in_the_browser(web_server: ServerProcess, new_page: NewPage) -> None:
    url = web_server.url
    ann, ben = _user(url, "Ann"), _user(url, "Ben")
    made = ann.post("/api/clubs", json={"name": "Thursdays", "ruleset_toml": HOUSE, "players": 3})
    club = made.json()["club"]["id"]
    invite = ann.post(f"/api/clubs/{club}/invites", json={"days": 7}).json()

    page = new_page(viewport=PHONE)
    page.goto(f"{url}/#/account")
    page.fill("#login-name", "Ben")
    page.fill("#login-password", PASSWORD)
    page.locator("form[aria-labelledby=login-title] button[type=submit]").click()
    expect(page.locator("#account-link")).to_have_text("Ben")
    page.goto(f"{url}/{invite['link']}")
    join = page.get_by_role("button", name="Join Thursdays")
    expect(join).to_be_visible()
    assert_accessible(page, context="club invitation, phone")
    join.click()
    expect(page).to_have_url(f"{url}/#/club/{club}")
    expect(page.locator("h1")).to_have_text("Thursdays")
    expect(page.locator(".club-members li")).to_have_count(2)

    evening = ann.post(f"/api/clubs/{club}/evenings", json={"kind": "duplicate"}).json()
    body = {"seats": ["human", "easy", "easy"], "grace_seconds": 0.05}
    tables = [
        ann.post(f"/api/clubs/{club}/evenings/{evening['id']}/tables", json=body).json()["table"]
        for _ in range(2)
    ]
    ann.post(f"/api/clubs/{club}/tables/{tables[0]}/seat", json={})
    ben.post(f"/api/clubs/{club}/tables/{tables[1]}/seat", json={})
    ann.post(f"/api/clubs/{club}/evenings/{evening['id']}/start", json={})
    deadline = time.monotonic() + 90
    for table_id in tables:
        while ann.get(f"/tables/{table_id}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the evening never finished"
            time.sleep(0.2)
    cards = ann.post(f"/api/clubs/{club}/evenings", json={"kind": "cards"}).json()
    sheet = ann.post(
        f"/api/clubs/{club}/evenings/{cards['id']}/sheets",
        json={"players": ["Ann", "Ben", "Zed"]},
    ).json()
    edit = {"Authorization": f"Bearer {sheet['edit_token']}"}
    hand = {"bids": [1, 0, 1], "tricks": [1, 0, 1]}
    assert ann.post(f"/sheets/{sheet['id']}/hands", json=hand, headers=edit).is_success

    page.goto(f"{url}/#/club/{club}?evening={evening['id']}")
    cards_shown = page.locator(".club-table-card")
    expect(cards_shown).to_have_count(2)
    expect(cards_shown.first).to_contain_text("Finished after 2 hands")
    expect(page.get_by_role("region", name="Duplicate standings: matchpoints")).to_be_visible()
    expect(
        page.get_by_role("region", name="Results: members' points in finished games")
    ).to_be_visible()
    season = page.get_by_role("region", name="Season by points, 2 evenings")
    expect(season).to_contain_text("Ann")
    page.select_option("#club-by", "matchpoints")
    expect(
        page.get_by_role("region", name="Season by duplicate matchpoints, 2 evenings")
    ).to_contain_text("Ben")
    stats = page.get_by_role("region", name="The members' statistics in the club's games")
    expect(stats).to_contain_text("Blackout (house rules)")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert_accessible(page, context="club page, phone")
    page.select_option("#club-evening-pick", cards["id"])
    expect(page.get_by_role("region", name="Score sheets")).to_contain_text("Ann, Ben, Zed")
    page.locator("header a[href='#/clubs']").click()
    expect(page.locator(".club-item-name")).to_have_text("Thursdays")
    assert page.console_errors == []  # type: ignore[attr-defined]

    # The organiser's page on a laptop: her controls, an invitation link made and shown.
    laptop = new_page()
    laptop.goto(f"{url}/#/account")
    laptop.fill("#login-name", "Ann")
    laptop.fill("#login-password", PASSWORD)
    laptop.locator("form[aria-labelledby=login-title] button[type=submit]").click()
    expect(laptop.locator("#account-link")).to_have_text("Ann")
    laptop.goto(f"{url}/#/club/{club}?evening={evening['id']}")
    expect(laptop.get_by_role("button", name="Add a table")).to_be_visible()
    laptop.get_by_role("button", name="Make an invitation link").click()
    expect(laptop.get_by_label("Invitation link")).to_have_value(
        re.compile(r"#/club-invite/[\w-]+$")
    )
    expect(laptop.get_by_role("button", name=re.compile("^Revoke"))).to_have_count(2)
    assert_accessible(laptop, context="club page, organiser, desktop")
    assert laptop.console_errors == []  # type: ignore[attr-defined]
    for client in (ann, ben):
        client.close()
