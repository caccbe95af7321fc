"""An account's whole life on the account page in Chromium (#/account;
docs/accounts.md): Ann signs out her other device, changes her password (a wrong current
one read out by its field first), is told to hand her club over before she may delete
the account, hands it over, and deletes it on her phone with its confirmation; she is a
guest again and her name logs in no more."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.server.people import PASSWORD, person
from tests.server_process import ServerProcess
from tests.web.axe import assert_accessible
from tests.web.conftest import PHONE, NewPage

NEW_PASSWORD = "a new and longer passphrase"


def unexpected(errors: list[str]) -> list[str]:
    """The console's errors but for the refusals the test asks for (Chromium logs every
    answer of 401 and 403: the wrong password, the session signed out)."""
    return [e for e in errors if not ("status of 401" in e or "status of 403" in e)]


def log_in(page: Page, url: str, password: str) -> None:
    """Log Ann in on the account page."""
    page.goto(f"{url}/#/account")
    page.fill("#login-name", "ann")
    page.fill("#login-password", password)
    page.locator("form[aria-labelledby=login-title] button[type=submit]").click()
    expect(page.locator("h1")).to_have_text("Signed in as Ann")


def snap(page: Page, name: str) -> None:
    """Keep a picture of the page for a person to look at, when
    ``TRICKTAKER_SHOTS`` names a folder."""
    folder = os.environ.get("TRICKTAKER_SHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


@pytest.mark.slow
def test_an_account_from_password_change_to_deletion(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    url = web_server.url
    ann, ben = person(web_server, "Ann"), person(web_server, "Ben")
    made = ann.post("/api/clubs", json={"name": "Sunday table", "game": "blackout", "players": 4})
    assert made.status_code == 201, made.text
    club = made.json()["club"]["id"]
    code = ann.post(f"/api/clubs/{club}/invites", json={}).json()["code"]
    assert ben.post(f"/api/club-invites/{code}").status_code == 200

    page = new_page()
    log_in(page, url, PASSWORD)
    expect(page.locator(".account-sessions li")).to_have_count(2)
    page.locator("#account-logout-others").click()
    expect(page.locator(".account-sessions li")).to_have_count(1)
    assert ann.get("/api/me").status_code == 401  # the other device is signed out

    page.fill("#password-current", "not my password")
    page.fill("#password-new", NEW_PASSWORD)
    page.locator("form[aria-labelledby=password-title] button[type=submit]").click()
    expect(page.locator("#password-current-error")).to_have_text(
        "That is not your account's password."
    )
    expect(page.locator("#password-current")).to_have_attribute("aria-invalid", "true")
    page.fill("#password-current", PASSWORD)
    page.locator("form[aria-labelledby=password-title] button[type=submit]").click()
    expect(page.locator("h1")).to_have_text("Signed in as Ann")
    expect(page.locator("#password-current")).to_have_value("")
    expect(page.locator(".account-sessions li")).to_have_count(1)

    # The account page leads to the player's own page, where what is shared is chosen.
    page.locator("#account-player-page").click()
    expect(page.locator("#player-privacy-title")).to_have_text("What you share")
    page.goto(f"{url}/#/account")
    expect(page.locator("h1")).to_have_text("Signed in as Ann")

    # The only organiser of a club with a member hands it over first.
    expect(page.locator("#delete-hand-over")).to_contain_text("Sunday table")
    page.check("#delete-sure")
    expect(page.locator("#delete-account")).to_be_disabled()
    assert_accessible(page, context="account, password and deletion")
    snap(page, "account-life-desktop")

    again = httpx.Client(base_url=url, timeout=30)
    signed = again.post("/api/login", json={"name": "Ann", "password": NEW_PASSWORD})
    assert signed.status_code == 200, signed.text
    again.headers["X-CSRF-Token"] = again.cookies["tricktaker_csrf"]
    handed = again.patch(f"/api/clubs/{club}/members/Ben", json={"role": "organiser"})
    assert handed.status_code == 200, handed.text

    phone = new_page(viewport=PHONE)
    log_in(phone, url, NEW_PASSWORD)
    expect(phone.locator("#delete-hand-over")).to_have_count(0)
    expect(phone.locator("#delete-account")).to_be_disabled()  # until the box is ticked
    phone.fill("#delete-password", NEW_PASSWORD)
    phone.check("#delete-sure")
    expect(phone.locator("#delete-account")).to_be_enabled()
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    snap(phone, "account-life-phone")
    phone.locator("#delete-account").click()
    expect(phone.locator("h1")).to_have_text("Your account")
    expect(phone.locator("#account-link")).to_have_text("Log in")
    gone = httpx.post(f"{url}/api/login", json={"name": "Ann", "password": NEW_PASSWORD})
    assert gone.status_code == 401
    assert ben.get("/api/players/Ann").status_code == 404
    page.reload()
    expect(page.locator("h1")).to_have_text("Your account")  # signed out there too
    assert unexpected(page.console_errors) == []  # type: ignore[attr-defined]
    assert unexpected(phone.console_errors) == []  # type: ignore[attr-defined]
