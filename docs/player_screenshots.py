"""Make the pictures of a player's page (#/player/NAME) in docs/images/.

    .venv/bin/python docs/player_screenshots.py

as docs/screenshots.py makes the others (its server and pages). Ann, Ben and Cyril sign
up and play four short games together at the server (the away bot plays their seats,
as nobody connects), two of them with the hook rule on, and Ann keeps a score sheet of
a real-card evening of Blackout. ``player-desktop`` is Ann's own page at 1280x800,
signed in (the statistics of the first rules opened by hand size and seat);
``player-phone`` is the same page as a guest sees it at 390x844. Then Ann shares her
page with her clubs' members only and her ratings with nobody (docs/players.md, What
you share): ``player-privacy-desktop`` is her form, saved; ``player-private-phone`` is
what the guest's phone shows of her page then.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

import screenshots as shots  # docs/screenshots.py, beside this file

PASSWORD = "correct horse battery"
EVENING = [  # a real-card evening of Blackout, four players, hands of 1 to 6
    ([0, 1, 0, 0], [0, 1, 0, 0]),
    ([1, 0, 1, 1], [1, 0, 1, 0]),
    ([1, 1, 0, 2], [1, 1, 0, 1]),
    ([2, 1, 0, 2], [2, 0, 1, 1]),
    ([1, 2, 1, 2], [1, 2, 1, 1]),
    ([2, 1, 2, 2], [2, 1, 1, 2]),
]


def user(url: str, name: str) -> httpx.Client:
    """Sign ``name`` up; the client keeps the session and sends its CSRF token."""
    client = httpx.Client(base_url=url, timeout=30)
    made = client.post("/api/signup", json={"name": name, "password": PASSWORD})
    made.raise_for_status()
    client.headers["X-CSRF-Token"] = client.cookies["tricktaker_csrf"]
    return client


def game(people: list[httpx.Client], seed: int, **options: bool) -> str:
    """A finished game of the people and a bot, each person's seat linked to them."""
    host = people[0]
    body = {
        "ruleset_toml": shots.SHORT_BLACKOUT,
        "options": options,
        "seats": ["human"] * len(people) + ["easy"],
        "host_seat": 0,
        "name": "Ann",
        "grace_seconds": 0.05,
        "seed": seed,
    }
    made = host.post("/tables", json=body).json()
    table_id = made["table"]["id"]
    tokens = [made["seat_token"]]
    for person in people[1:]:
        name = person.get("/api/me").json()["user"]["name"]
        joined = person.post(
            f"/tables/{table_id}/join", json={"invite": made["invite"], "name": name}
        )
        tokens.append(joined.json()["seat_token"])
    for person, token in zip(people, tokens, strict=True):
        person.post("/api/me/claim", json={"seats": [{"id": table_id, "token": token}]})
    host.post(
        f"/tables/{table_id}/start", headers={"Authorization": f"Bearer {made['host_token']}"}
    )
    while host.get(f"/tables/{table_id}").json()["status"] != "finished":
        time.sleep(0.2)
    return table_id


def main() -> None:
    """Make the two pictures."""
    with shots.server() as url, sync_playwright() as playwright:
        ann, ben, cy = (user(url, name) for name in ("Ann", "Ben", "Cyril"))
        game([ann, ben, cy], 1)
        game([ann, ben, cy], 2)
        game([ann, cy], 3, hook=True)
        game([ann, ben], 4, hook=True)
        sheet = ann.post(
            "/sheets", json={"game": "blackout", "players": ["Ann", "Ben", "Cyril", "Dot"]}
        )
        sheet_id, token = sheet.json()["id"], sheet.json()["edit_token"]
        for bids, tricks in EVENING:
            hand = {"bids": bids, "tricks": tricks, "trump": "hearts"}
            ann.post(
                f"/sheets/{sheet_id}/hands", json=hand, headers={"Authorization": f"Bearer {token}"}
            )
        ann.post("/api/me/claim", json={"sheets": [{"id": sheet_id, "token": token}]})
        browser = playwright.chromium.launch(
            executable_path=os.environ.get("TRICKTAKER_CHROMIUM", "/usr/bin/chromium"),
            args=shots.CHROMIUM_ARGS,
            headless=True,
        )
        laptop = shots.new_page(browser, shots.DESKTOP)
        laptop.goto(f"{url}/#/account")
        laptop.fill("#login-name", "Ann")
        laptop.fill("#login-password", PASSWORD)
        laptop.locator("form[aria-labelledby=login-title] button[type=submit]").click()
        laptop.wait_for_selector("#account-logout")
        laptop.locator("#account-link").click()
        laptop.wait_for_selector(".player-stats")
        laptop.locator(".player-stats summary").first.click()
        laptop.wait_for_function("!document.querySelector('.toast.shown')")  # 'Signed in'
        shots.shoot(laptop, "player-desktop")
        phone = shots.new_page(browser, shots.PHONE)
        phone.goto(f"{url}/#/player/Ann")
        phone.wait_for_selector(".player-stats")
        shots.shoot(phone, "player-phone")
        laptop.select_option("#privacy-page", label="Members of my clubs")
        laptop.select_option("#privacy-ratings", label="Only me")
        laptop.locator("#privacy-save").click()
        laptop.wait_for_selector("#privacy-status:has-text('Saved')")
        laptop.locator("#player-privacy-title").scroll_into_view_if_needed()
        laptop.evaluate("document.getElementById('player-privacy-title').scrollIntoView()")
        shots.shoot(laptop, "player-privacy-desktop")
        phone.reload()
        phone.wait_for_selector(".player-not-shared")
        shots.shoot(phone, "player-private-phone")
        browser.close()


if __name__ == "__main__":
    main()
