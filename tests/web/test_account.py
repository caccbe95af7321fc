"""The account page in Chromium (#/account; docs/protocol.md, Accounts): a guest with a
seat, a table and a sheet in this browser signs up (a refused name first, its error
read out by the field) and keeps them; the header names them; on a phone the same
person logs in, sees both browsers, and revokes the first, which is signed out."""

from __future__ import annotations

import httpx
from playwright.sync_api import expect

from tests.server_process import ServerProcess
from tests.web.axe import assert_accessible
from tests.web.conftest import PHONE, NewPage, create_table

PASSWORD = "correct horse battery"


def unexpected(errors: list[str]) -> list[str]:
    """The console's errors but for the refusals the test asks for (Chromium logs every
    answer of 401 and 422: the refused name and password, the revoked session)."""
    return [e for e in errors if not ("status of 401" in e or "status of 422" in e)]


def test_a_guest_signs_up_keeps_their_table_and_revokes_a_session(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    made = create_table(web_server, game="blackout", seats=["human", "easy"], host_seat=0)
    table_id = made["table"]["id"]
    sheet = httpx.post(
        f"{web_server.url}/sheets", json={"game": "blackout", "players": ["A", "B", "C"]}
    ).json()
    page = new_page()
    page.goto(f"{web_server.url}/")
    page.evaluate(
        """([id, seat, host, sheetId, edit]) => {
            localStorage.setItem(`tricktaker.seat.${id}`, JSON.stringify({seat: 0, token: seat}));
            localStorage.setItem(`tricktaker.host.${id}`, host);
            localStorage.setItem(`tricktaker.sheet.${sheetId}`, JSON.stringify({token: edit}));
        }""",
        [table_id, made["seat_token"], made["host_token"], sheet["id"], sheet["edit_token"]],
    )
    expect(page.locator("#account-link")).to_have_text("Log in")
    page.locator("#account-link").click()
    expect(page.locator("h1")).to_have_text("Your account")
    expect(page.locator("#account-keeps")).to_contain_text("1 table and 1 score sheet")
    assert_accessible(page, context="account, guest")

    page.fill("#signup-name", "a b")
    page.fill("#signup-password", PASSWORD)
    page.locator("form[aria-labelledby=signup-title] button[type=submit]").click()
    expect(page.locator("#signup-name-error")).to_contain_text("3 to 32 characters")
    expect(page.locator("#signup-name")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#signup-error")).to_contain_text("3 to 32 characters")
    page.fill("#signup-name", "Ann")
    page.locator("form[aria-labelledby=signup-title] button[type=submit]").click()
    expect(page.locator("h1")).to_have_text("Signed in as Ann")
    expect(page.locator("#account-link")).to_have_text("Ann")
    expect(page.locator(f'a[href="#/replay/{table_id}"]')).to_be_visible()
    expect(page.locator(f'a[href="#/score/{sheet["id"]}"]')).to_be_visible()
    expect(page.locator(".account-sessions li")).to_have_count(1)
    assert_accessible(page, context="account, signed in")
    assert unexpected(page.console_errors) == []  # type: ignore[attr-defined]

    phone = new_page(viewport=PHONE)
    phone.goto(f"{web_server.url}/#/account")
    phone.fill("#login-name", "ann")
    phone.fill("#login-password", "wrong password")
    phone.locator("form[aria-labelledby=login-title] button[type=submit]").click()
    expect(phone.locator("#login-error")).to_have_text(
        "That user name and password do not match an account."
    )
    phone.fill("#login-password", PASSWORD)
    phone.locator("form[aria-labelledby=login-title] button[type=submit]").click()
    expect(phone.locator(".account-sessions li")).to_have_count(2)
    expect(phone.locator(".account-sessions li.current")).to_contain_text("This browser")
    phone.locator(".account-sessions li:not(.current) button").click()
    expect(phone.locator(".account-sessions li")).to_have_count(1)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]

    page.reload()
    expect(page.locator("h1")).to_have_text("Your account")  # signed out there
    expect(page.locator("#account-link")).to_have_text("Log in")
    phone.locator("#account-logout").click()
    expect(phone.locator("h1")).to_have_text("Your account")
    expect(phone.locator("#account-link")).to_have_text("Log in")
    assert unexpected(phone.console_errors) == []  # type: ignore[attr-defined]
    assert unexpected(page.console_errors) == []  # type: ignore[attr-defined]
