"""The browser scorekeeper on a phone and between phones (docs/scorekeeper.md, In the
browser, The edit link): every control of the entry within a 390x844 screen (a 13-card
hand, seven players), the bids and antes as the server offers them, another phone keeping
the sheet with the edit link, and no serious accessibility violation. The real server runs
as a subprocess; the browser is Chromium."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

from playwright.sync_api import Page, Route, expect

from tests.server_process import ServerProcess
from tests.web.axe import assert_accessible
from tests.web.conftest import PHONE, NewPage
from tests.web.test_scorekeeper import PLAYERS, enter_hand, start_sheet, tap, totals_shown
from tricktaker.scorekeeper import ScoreSheet

SEVEN = ["Margaret", "Christopher", "Elizabeth", "Alexander", "Catherine", "Jonathan", "Josephine"]


def post(server: ServerProcess, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    """A request to the real server's API."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        server.url + path, data=json.dumps(body).encode(), method="POST", headers=headers
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def open_kept(page: Page, server: ServerProcess, made: dict[str, Any]) -> None:
    """Open a sheet made through the API as the browser that started it (which keeps its
    edit token, as the start page does)."""
    page.goto(f"{server.url}/#/")
    page.evaluate(
        """m => localStorage.setItem('tricktaker.sheet.' + m.id, JSON.stringify({
            token: m.edit_token, view: m.view_key, game: m.sheet.game, name: m.sheet.name,
            players: m.sheet.players, created: Date.now()}))""",
        made,
    )
    page.goto(f"{server.url}/#/score/{made['id']}")
    expect(page.locator(".sk-entry")).to_be_visible()


def off_screen(page: Page, selector: str, *, vertical: bool) -> list[str]:
    """The visible controls under ``selector`` that are not wholly inside the viewport
    (with the page scrolled to the top): across always, down with ``vertical``."""
    found: list[str] = page.evaluate(
        """([selector, vertical]) => {
            window.scrollTo(0, 0);
            const out = [];
            for (const node of document.querySelectorAll(selector)) {
                const r = node.getBoundingClientRect();
                if (!r.width || !r.height) continue;
                const across = r.left < 0 || r.right > window.innerWidth;
                const down = vertical && (r.top < 0 || r.bottom > window.innerHeight);
                if (across || down) out.push(`${node.textContent.trim()} ${JSON.stringify(r)}`);
            }
            return out;
        }""",
        [selector, vertical],
    )
    return found


ENTRY_CONTROLS = ".sk-entry button, .sk-entry input, .sk-entry select"


def test_every_control_is_on_a_phones_screen_with_13_cards_and_7_players(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """docs/scorekeeper.md, In the browser: on a 390x844 phone every control of each step
    (a 13-card hand of Bluke: bids 1 to 13, the trump, the tricks, the review) is on the
    screen without scrolling, and each row's Correct button is within its width even when
    seven players' columns make the sheet scroll sideways."""
    page = new_page(viewport=PHONE)
    four = post(web_server, "/sheets", {"game": "bluke", "players": PLAYERS})
    open_kept(page, web_server, four)
    expect(page.locator(".sk-next-head")).to_contain_text("13 cards")
    bids = [3, 3, 2, 5]  # Ann deals: Bob, Cy, Di, Ann bid
    for seat in (1, 2, 3, 0):
        expect(page.locator(".sk-step h3")).to_have_text(f"{PLAYERS[seat]} bids")
        assert off_screen(page, ENTRY_CONTROLS, vertical=True) == []
        tap(page, bids[seat])
    expect(page.locator(".sk-step h3")).to_have_text("Trump")
    assert off_screen(page, ENTRY_CONTROLS, vertical=True) == []
    page.get_by_role("button", name="♠ spades").click()
    for seat, count in ((1, 4), (2, 0), (3, 4)):
        expect(page.locator(".sk-step h3")).to_have_text(f"{PLAYERS[seat]} took")
        assert off_screen(page, ENTRY_CONTROLS, vertical=True) == []
        tap(page, count)
    expect(page.locator(".sk-save")).to_be_visible()
    assert off_screen(page, ENTRY_CONTROLS, vertical=True) == []
    page.locator(".sk-save").click()
    expect(page.locator(".sk-status")).to_have_text("saved")
    assert off_screen(page, ".sk-fix", vertical=False) == []

    seven = post(web_server, "/sheets", {"game": "bluke", "players": SEVEN})
    for tricks in ([1] * 7, [1] * 6 + [0]):  # hands of 7 and 6 cards
        hand = {"bids": [1] * 7, "tricks": tricks}
        post(web_server, f"/sheets/{seven['id']}/hands", hand, seven["edit_token"])
    open_kept(page, web_server, seven)
    expect(page.locator(".sk-fix")).to_have_count(2)
    wide = page.evaluate("document.querySelector('.sk-sheet').scrollWidth")
    assert wide > PHONE["width"]  # the sheet itself is wider than the phone
    assert off_screen(page, ".sk-fix", vertical=False) == []
    page.locator(".sk-fix").nth(1).click()
    expect(page.locator(".sk-entry h2")).to_have_text("Correct hand 2")
    assert off_screen(page, ENTRY_CONTROLS, vertical=True) == []
    page.get_by_role("button", name=re.compile("^Change: Bids")).click()
    expect(page.locator(".sk-step h3")).to_have_text("Elizabeth bids")
    assert off_screen(page, ENTRY_CONTROLS, vertical=True) == []
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_bluke_offers_no_zero_bid(web_server: ServerProcess, new_page: NewPage) -> None:
    """docs/games/bluke.md, Bidding: a bid is from 1 up to the hand size; the page offers
    the bids the server says each bidder may make: 1 to 13, never 0, for every bidder."""
    page = new_page(viewport=PHONE)
    open_kept(page, web_server, post(web_server, "/sheets", {"game": "bluke", "players": PLAYERS}))
    for seat in (1, 2, 3, 0):
        expect(page.locator(".sk-step h3")).to_have_text(f"{PLAYERS[seat]} bids")
        values = page.locator(".sk-numbers button").evaluate_all(
            "bs => bs.map(b => Number(b.dataset.value))"
        )
        assert values == list(range(1, 14))
        tap(page, 1)


def test_buckup_antes_are_the_servers(web_server: ServerProcess, new_page: NewPage) -> None:
    """docs/games/buckup.md, Chips, antes and the pot: the ante buttons are the choices the
    server's sheet offers (here the server's answer narrowed to two: the page shows those
    two, so it restates no list of its own)."""
    page = new_page(viewport=PHONE)
    made = post(web_server, "/sheets", {"game": "buckup", "players": PLAYERS})

    def narrowed(route: Route) -> None:
        answer = route.fetch()
        sheet = answer.json()
        if sheet.get("next"):
            ante = next(step for step in sheet["next"]["steps"] if step["name"] == "ante")
            ante["choices"] = ["drawn", "kept"]
        route.fulfill(response=answer, json=sheet)

    page.route(re.compile(r".*/sheets/[^/]+$"), narrowed)
    open_kept(page, web_server, made)
    expect(page.locator(".sk-step h3")).to_have_text("The dealer's ante")
    expect(page.locator(".sk-step .sk-buttons button")).to_have_text(["drawn", "kept"])


def test_another_phone_keeps_the_sheet_with_the_edit_link(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """docs/scorekeeper.md, The edit link: the keeper makes an edit link (shown with its QR
    code); a second browser opens it and enters a hand, which the keeper's page shows; the
    read-only link still cannot edit; a new link shuts the second browser out."""
    keeper = new_page(viewport=PHONE)
    start_sheet(keeper, web_server, hook=False)
    keeper.get_by_role("button", name="Make an edit link").click()
    link = keeper.locator(".sk-edit-link-text").input_value()
    assert re.search(r"#/score/[^?]+\?edit=[\w-]{20,}$", link)
    expect(keeper.get_by_role("img", name="QR code of the edit link")).to_be_visible()
    view_link = keeper.locator(".sk-view-link").input_value()

    helper = new_page(viewport=PHONE)
    helper.goto(link)
    expect(helper.locator(".sk-entry")).to_be_visible()
    expect(helper).to_have_url(re.compile(r"#/score/[^?]+$"))  # the key left the address
    enter_hand(helper, 1, [1, 0, 0, 0], [1, 0, 0, 0], "♥ hearts")
    expect(helper.locator(".sk-status")).to_have_text("saved")
    expect(keeper.locator(".sk-sheet tbody tr")).to_have_count(1, timeout=15_000)
    reference = ScoreSheet("blackout", PLAYERS)
    reference.add(bids=[1, 0, 0, 0], tricks=[1, 0, 0, 0])
    assert totals_shown(keeper) == [str(t) for t in reference.totals]
    expect(helper.locator(".sk-make-link")).to_have_count(0)  # only the keeper gives links

    viewer = new_page(viewport=PHONE)
    viewer.goto(view_link)
    expect(viewer.locator(".sk-sheet tbody tr")).to_have_count(1)
    expect(viewer.locator(".sk-entry")).to_have_count(0)
    expect(viewer.locator(".sk-edit-link")).to_have_count(0)

    keeper.get_by_role("button", name="Make a new link").click()
    expect(keeper.locator(".sk-edit-link-text")).not_to_have_value(link)
    helper.reload()
    expect(helper.locator(".sk-problem")).to_contain_text("replaced or revoked", timeout=15_000)
    expect(helper.locator(".sk-entry")).to_have_count(0)
    errors = [e for e in helper.console_errors if "status of 403" not in e]  # type: ignore[attr-defined]
    assert errors == []


def test_the_scorekeeper_pages_have_no_serious_accessibility_violation(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """The start page, the keeper's sheet (the bids, then the review) and the read-only
    sheet, on a phone: axe-core finds no serious violation."""
    page = new_page(viewport=PHONE)
    page.goto(f"{web_server.url}/#/score")
    expect(page.locator("#sk-game option").first).to_be_attached()
    assert_accessible(page, "scorekeeper start, phone")
    made = post(web_server, "/sheets", {"game": "blackout", "players": PLAYERS})
    open_kept(page, web_server, made)
    assert_accessible(page, "scorekeeper bids, phone")
    enter_hand(page, 1, [1, 0, 0, 0], [1, 0, 0, 0], "no trump")
    expect(page.locator(".sk-status")).to_have_text("saved")
    page.get_by_role("button", name="Make an edit link").click()
    expect(page.locator(".sk-qr")).to_be_visible()
    # The toast saying so fades in (0.2 s): axe measures its colours once it is shown.
    page.wait_for_function("getComputedStyle(document.getElementById('toast')).opacity === '1'")
    assert_accessible(page, "scorekeeper sheet with its edit link, phone")
    page.get_by_role("button", name="Correct hand 1").click()
    assert_accessible(page, "scorekeeper correction, phone")
    viewer = new_page(viewport=PHONE)
    viewer.goto(f"{web_server.url}/#/score/{made['id']}?view={made['view_key']}")
    expect(viewer.locator(".sk-sheet tbody tr")).to_have_count(1)
    assert_accessible(viewer, "scorekeeper read-only, phone")
    wide = post(web_server, "/sheets", {"game": "bluke", "players": SEVEN})
    post(
        web_server,
        f"/sheets/{wide['id']}/hands",
        {"bids": [1] * 7, "tricks": [1] * 7},
        wide["edit_token"],
    )
    viewer.goto(f"{web_server.url}/#/score/{wide['id']}?view={wide['view_key']}")
    expect(viewer.locator(".sk-sheet tbody tr")).to_have_count(1)
    assert_accessible(viewer, "scorekeeper read-only, seven players (scrolls sideways), phone")


def test_a_hand_is_entered_with_the_keyboard_alone(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """docs/scorekeeper.md, In the browser: every step is a set of buttons the keyboard
    reaches; after each answer the focus is on the next question (so Tab and Enter enter a
    whole hand), and on Save at the review."""
    page = new_page()
    made = post(web_server, "/sheets", {"game": "blackout", "players": PLAYERS})
    open_kept(page, web_server, made)
    page.locator(".sk-numbers button").first.focus()
    for name in ("Bob", "Cy", "Di", "Ann"):  # each bids 0: Enter on the first button
        expect(page.locator(".sk-step h3")).to_have_text(f"{name} bids")
        expect(page.locator(".sk-numbers button").first).to_be_focused()
        page.keyboard.press("Enter")
    expect(page.locator(".sk-step h3")).to_have_text("Trump")
    page.keyboard.press("Tab")  # clubs -> diamonds
    page.keyboard.press("Enter")
    for name in ("Bob", "Cy"):
        expect(page.locator(".sk-step h3")).to_have_text(f"{name} took")
        page.keyboard.press("Enter")  # 0
    expect(page.locator(".sk-step h3")).to_have_text("Di took")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # 1
    expect(page.locator(".sk-review")).to_contain_text("Trump: ♦ diamonds")
    expect(page.locator(".sk-save")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".sk-sheet tbody tr")).to_have_count(1)
    reference = ScoreSheet("blackout", PLAYERS)
    reference.add(bids=[0, 0, 0, 0], tricks=[0, 0, 0, 1], trump="diamonds")
    expect(page.locator(".sk-status")).to_have_text("saved")
    assert totals_shown(page) == [str(t) for t in reference.totals]
