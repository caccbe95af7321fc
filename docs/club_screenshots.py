"""Make the pictures of a club's pages in docs/images/.

    .venv/bin/python docs/club_screenshots.py

as docs/screenshots.py makes the others (its server and pages). Ann starts the
Thursday club (Quick Blackout, four at a table) and invites Ben, Cyril, Dot and Eve,
who accept. A first evening has a table of the four of them, played, and one where Eve's
seat waits for her (still playing its first hand); a duplicate evening has two tables
of two members and two bots each, played to the end (the second's members played by the
random bot, so that the tables differ); a real-card evening is kept on a score sheet.
Nobody connects: the away bot plays the members' seats.
``club-desktop`` is Ann's view of the duplicate evening at 1280x800 (the whole page),
``club-phone`` Ben's at 390x844, ``club-table-phone`` Ben watching Eve's table (its
header's link back to the club), ``club-invite-phone`` Fay opening an invitation.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

import screenshots as shots  # docs/screenshots.py, beside this file

PASSWORD = "correct horse battery"
SHEET = [([0, 1, 0, 0], [0, 1, 0, 0]), ([1, 0, 1, 1], [1, 0, 1, 0]), ([1, 1, 0, 2], [1, 1, 0, 1])]
"""A real-card evening's three hands (bids, tricks), four players."""


def user(url: str, name: str) -> httpx.Client:
    """Sign ``name`` up; the client keeps the session and sends its CSRF token."""
    client = httpx.Client(base_url=url, timeout=30)
    client.post("/api/signup", json={"name": name, "password": PASSWORD}).raise_for_status()
    client.headers["X-CSRF-Token"] = client.cookies["tricktaker_csrf"]
    return client


def evening(ann: httpx.Client, club: str, kind: str, day: str, name: str) -> dict[str, Any]:
    """A planned evening."""
    made = ann.post(f"/api/clubs/{club}/evenings", json={"kind": kind, "day": day, "name": name})
    made.raise_for_status()
    return dict(made.json())


def table(
    ann: httpx.Client,
    club: str,
    night: str,
    people: list[httpx.Client],
    grace: float = 0.05,
    away: str = "easy",
) -> str:
    """A table of the evening with the people seated and bots in its other seats (the
    ``away`` bot plays the people's)."""
    seats = ["human"] * len(people) + ["easy"] * (4 - len(people))
    made = ann.post(
        f"/api/clubs/{club}/evenings/{night}/tables",
        json={"seats": seats, "grace_seconds": grace, "away_bot": away},
    )
    made.raise_for_status()
    table_id = str(made.json()["table"])
    for person in people:
        person.post(f"/api/clubs/{club}/tables/{table_id}/seat", json={}).raise_for_status()
    return table_id


def finished(client: httpx.Client, tables: list[str]) -> None:
    """Wait until every table's game is over."""
    for table_id in tables:
        while client.get(f"/tables/{table_id}").json()["status"] != "finished":
            time.sleep(0.2)


def log_in(page: Page, url: str, name: str) -> None:
    """Log ``name`` in on the account page."""
    page.goto(f"{url}/#/account")
    page.fill("#login-name", name)
    page.fill("#login-password", PASSWORD)
    page.locator("form[aria-labelledby=login-title] button[type=submit]").click()
    page.wait_for_selector("#account-logout")
    page.wait_for_function("!document.querySelector('.toast.shown')")


def main() -> None:
    """Make the four pictures."""
    with shots.server() as url, sync_playwright() as playwright:
        names = ("Ann", "Ben", "Cyril", "Dot", "Eve", "Fay")
        ann, ben, cyril, dot, eve, fay = (user(url, n) for n in names)
        body = {"name": "Thursday club", "ruleset_toml": shots.SHORT_BLACKOUT, "players": 4}
        club = ann.post("/api/clubs", json=body).json()["club"]["id"]
        code = ann.post(f"/api/clubs/{club}/invites", json={"days": 7}).json()["code"]
        for person in (ben, cyril, dot, eve):
            person.post(f"/api/club-invites/{code}").raise_for_status()
        first = evening(ann, club, "tables", "2026-11-19", "Week 1")
        tables = [table(ann, club, first["id"], [ann, ben, cyril, dot])]
        waits = table(ann, club, first["id"], [eve], grace=3600)  # Eve's: still playing
        ann.post(f"/api/clubs/{club}/evenings/{first['id']}/start", json={"bot": "easy"})
        cards = evening(ann, club, "cards", "2026-11-21", "At Dot's")
        sheet = ann.post(
            f"/api/clubs/{club}/evenings/{cards['id']}/sheets",
            json={"players": ["Ann", "Ben", "Cyril", "Dot"]},
        ).json()
        for bids, tricks in SHEET:
            ann.post(
                f"/sheets/{sheet['id']}/hands",
                json={"bids": bids, "tricks": tricks},
                headers={"Authorization": f"Bearer {sheet['edit_token']}"},
            ).raise_for_status()
        night = evening(ann, club, "duplicate", "2026-11-26", "Duplicate night")
        played = [
            table(ann, club, night["id"], [ann, ben]),
            table(ann, club, night["id"], [cyril, dot], away="random"),
        ]
        ann.post(f"/api/clubs/{club}/evenings/{night['id']}/start", json={"bot": "easy"})
        finished(ann, tables + played)
        browser = playwright.chromium.launch(
            executable_path=os.environ.get("TRICKTAKER_CHROMIUM", "/usr/bin/chromium"),
            args=shots.CHROMIUM_ARGS,
            headless=True,
        )
        laptop = shots.new_page(browser, shots.DESKTOP)
        log_in(laptop, url, "Ann")
        laptop.goto(f"{url}/#/club/{club}?evening={night['id']}")
        laptop.wait_for_selector(".club-table-card")
        laptop.wait_for_selector("[aria-label^='The members']")
        laptop.wait_for_timeout(400)
        path = shots.IMAGES / "club-desktop.png"
        laptop.screenshot(path=str(path), full_page=True)
        print(f"{path.relative_to(shots.ROOT)}: {path.stat().st_size // 1024} KiB")
        phone = shots.new_page(browser, shots.PHONE)
        log_in(phone, url, "Ben")
        phone.goto(f"{url}/#/club/{club}?evening={night['id']}")
        phone.wait_for_selector(".club-table-card")
        shots.shoot(phone, "club-phone")
        phone.goto(f"{url}/#/table/{waits}?watch=1")  # its header links back to the club
        phone.wait_for_selector(".tt-club")
        shots.shoot(phone, "club-table-phone")
        invited = ann.post(f"/api/clubs/{club}/invites", json={"days": 7}).json()
        guest = shots.new_page(browser, shots.PHONE)
        log_in(guest, url, "Fay")
        guest.goto(f"{url}/{invited['link']}")
        guest.wait_for_selector("text=Join Thursday club")
        shots.shoot(guest, "club-invite-phone")
        browser.close()
        for client in (ann, ben, cyril, dot, eve, fay):
            client.close()


if __name__ == "__main__":
    main()
