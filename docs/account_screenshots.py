"""Make the pictures of the account page (#/account) in docs/images/.

    .venv/bin/python docs/account_screenshots.py

as docs/screenshots.py makes the others (its server and pages): ``account-login-phone``
(a guest's page at 390x844: what an account is for, the log-in and sign-up forms, a
refused name read out by its field), ``account-desktop`` (Ann signed in at 1280x800
after signing up as a guest who held a table and a score sheet: both kept, and her two
browsers, each with its Revoke button), ``account-phone`` (the same on her phone),
``account-life-desktop`` (her sessions, the password form and the deletion panel
telling her to hand her club over first) and ``account-life-phone`` (the deletion's
confirmation filled in on her phone, docs/accounts.md).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

import screenshots as shots  # docs/screenshots.py, beside this file

PASSWORD = "correct horse battery"
DESKTOP_AGENT = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36"
FIREFOX_AGENT = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"
PHONE_AGENT = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15"
    " Version/18.0 Mobile/15E148 Safari/604.1"
)


def guest(browser: Browser, url: str, size: dict[str, int], agent: str) -> Page:
    """A new browser of ``size`` holding a table's seat and host tokens and a sheet."""
    made: dict[str, Any] = httpx.post(
        f"{url}/tables",
        json={"game": "blackout", "seats": ["human", "easy", "easy", "easy"], "host_seat": 0},
        timeout=30,
    ).json()
    sheet = httpx.post(
        f"{url}/sheets", json={"game": "bluke", "players": ["Ann", "Bob", "Cy", "Di"]}, timeout=30
    ).json()
    page = shots.new_page(browser, size)
    page.context.set_extra_http_headers({"User-Agent": agent})
    page.goto(f"{url}/")
    page.evaluate(
        """([id, seat, host, sheetId, edit]) => {
            localStorage.setItem(`tricktaker.seat.${id}`, JSON.stringify({seat: 0, token: seat}));
            localStorage.setItem(`tricktaker.host.${id}`, host);
            localStorage.setItem(`tricktaker.sheet.${sheetId}`, JSON.stringify({token: edit}));
        }""",
        [
            made["table"]["id"],
            made["seat_token"],
            made["host_token"],
            sheet["id"],
            sheet["edit_token"],
        ],
    )
    page.goto(f"{url}/#/account")
    page.wait_for_selector("#signup-name")
    return page


def submit(page: Page, form: str, name: str, password: str) -> None:
    """Fill and send the ``form`` (login, signup)."""
    page.fill(f"#{form}-name", name)
    page.fill(f"#{form}-password", password)
    page.locator(f"form[aria-labelledby={form}-title] button[type=submit]").click()


def main() -> None:
    """Make the three pictures."""
    with shots.server() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=os.environ.get("TRICKTAKER_CHROMIUM", "/usr/bin/chromium"),
            args=shots.CHROMIUM_ARGS,
            headless=True,
        )
        laptop = guest(browser, url, shots.DESKTOP, DESKTOP_AGENT)
        submit(laptop, "signup", "Ann", PASSWORD)
        laptop.wait_for_selector(".account-sessions li")

        phone = guest(browser, url, shots.PHONE, PHONE_AGENT)
        submit(phone, "login", "ann", "not her password")
        phone.wait_for_function("document.querySelector('#login-error').textContent !== ''")
        shots.shoot(phone, "account-login-phone")
        submit(phone, "login", "ann", PASSWORD)
        phone.wait_for_selector(".account-sessions li >> nth=1")
        laptop.reload()
        laptop.wait_for_selector(".account-sessions li >> nth=1")
        shots.shoot(laptop, "account-desktop")
        shots.shoot(phone, "account-phone")
        life(url, laptop, phone)
        browser.close()


def life(url: str, laptop: Page, phone: Page) -> None:
    """The account's own panels: Ann runs a club Ben joined, so the deletion panel asks
    her to hand it over; on her phone, the confirmation filled in."""
    ann = httpx.Client(base_url=url, timeout=30, headers={"User-Agent": FIREFOX_AGENT})
    ann.post("/api/login", json={"name": "Ann", "password": PASSWORD}).raise_for_status()
    ann.headers["X-CSRF-Token"] = ann.cookies["tricktaker_csrf"]
    club = ann.post("/api/clubs", json={"name": "Sunday table", "game": "blackout"}).json()
    code = ann.post(f"/api/clubs/{club['club']['id']}/invites", json={}).json()["code"]
    ben = httpx.Client(base_url=url, timeout=30)
    ben.post("/api/signup", json={"name": "Ben", "password": PASSWORD}).raise_for_status()
    ben.headers["X-CSRF-Token"] = ben.cookies["tricktaker_csrf"]
    ben.post(f"/api/club-invites/{code}").raise_for_status()
    laptop.reload()
    laptop.wait_for_selector("#delete-hand-over")
    laptop.evaluate("document.getElementById('password-title').scrollIntoView()")
    shots.shoot(laptop, "account-life-desktop")
    phone.reload()
    phone.wait_for_selector("#delete-password")
    phone.fill("#delete-password", PASSWORD)
    phone.check("#delete-sure")
    phone.evaluate("document.getElementById('delete-title').scrollIntoView()")
    shots.shoot(phone, "account-life-phone")


if __name__ == "__main__":
    main()
