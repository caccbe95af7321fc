"""The coach's Hint button at the browser table (src/tricktaker/web/static/table-hint.js)
in a real Chromium against the real server (docs/protocol.md, Hints; issue 29).

At a practice table the page shows that hints are on; on the person's turn a Hint button
sits beside the choices, and pressing it opens a panel listing every legal choice with its
value and error, the chance of making the bid, the coach's choice marked and the model in
a line; clicking a choice in the panel plays it, and the panel closes. On a phone the
panel fits the screen's width. At a table with other people the badge and the button show
only where the host allowed hints, as the lobby's box allows them.
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.server_process import ServerProcess
from tests.web.axe import assert_accessible_in_themes, axe_available
from tests.web.conftest import PHONE, NewPage, create_table
from tests.web.table_helpers import offered, settled, sit, start
from tests.web.test_lobby import choose_game, open_lobby, table_of
from tricktaker import list_rulesets, load_ruleset

DESKTOP: ViewportSize = {"width": 1280, "height": 900}


def sent_frames(page: Page) -> list[dict[str, Any]]:
    """Every message the page sends on its table socket, as it sends it (filled in)."""
    frames: list[dict[str, Any]] = []

    def watch(socket: Any) -> None:
        socket.on(
            "framesent",
            lambda payload: (
                frames.append(json.loads(payload)) if isinstance(payload, str) else None
            ),
        )

    page.on("websocket", watch)
    return frames


def my_turn(page: Page) -> list[str]:
    """Wait for this seat's turn (and the page settled); the actions it offers."""
    page.wait_for_function(
        "() => document.querySelectorAll('.tt-me .tt-controls [data-action], .tt-me .tt-hand"
        " [data-action]').length > 0 && !document.querySelector('.tt-page').dataset.pending",
        timeout=30_000,
    )
    return offered(page)


@pytest.mark.slow  # about 15 s each: the page, a game started, a second of hint
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_hint_panel_lists_every_choice_and_plays_the_one_clicked(
    web_server: ServerProcess, new_page: NewPage, viewport: ViewportSize
) -> None:
    made = create_table(
        web_server,
        game="blackout",
        players=4,
        seats=["human", "random", "random", "random"],
        host_seat=0,
        name="Ann",
        seed=21,
    )
    table_id = made["table"]["id"]
    phone = viewport["width"] < 500
    page = new_page(viewport=viewport, has_touch=phone, is_mobile=phone)
    frames = sent_frames(page)
    sit(page, web_server, table_id, seat=0, token=made["seat_token"], host_token=made["host_token"])
    start(web_server, table_id, made["host_token"])
    expect(page.locator(".tt-hints-on")).to_have_text("hints on")
    legal = my_turn(page)
    button = page.locator(".tt-me .tt-hint")
    expect(button).to_be_visible()
    button.click()
    panel = page.locator(".tt-hint-panel")
    expect(panel).to_be_visible(timeout=20_000)
    choices = panel.locator("[data-hint-action]")
    listed = choices.evaluate_all("els => els.map(e => e.dataset.hintAction)")
    assert sorted(listed) == sorted(legal)
    rows = panel.locator("tbody tr")
    expect(rows).to_have_count(len(legal))
    expect(panel.locator("tr.best")).to_have_count(1)
    expect(panel.locator("tr.best .tt-hint-mark")).to_have_text("\u2190 coach")
    expect(panel.locator(".tt-hint-model")).to_contain_text("Assuming the unseen cards")
    first_row = rows.first.locator("td")
    expect(first_row.nth(1)).to_contain_text("\u00b1")  # the value with its error
    if all(action.startswith("bid ") for action in legal):  # the chance of making it
        expect(first_row.nth(2)).to_have_text(re.compile(r"^\d{1,3}%$"))
    if axe_available():  # (CI has it: make jscheck)
        assert_accessible_in_themes(page, "the hint panel", include=[".tt-hint-panel"])
    if phone:  # the panel and its buttons within the phone's width
        assert page.evaluate("() => document.documentElement.scrollWidth") <= viewport["width"]
        box = panel.bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= viewport["width"] + 0.5
    # The last choice listed (not the coach's, where there are two) is played by a click.
    chosen = listed[-1]
    choices.last.click()
    expect(panel).to_be_hidden()
    page.wait_for_function("() => !document.querySelector('.tt-page').dataset.pending")
    assert settled(page)
    assert [f["id"][:2] for f in frames if f["type"] == "hint"] == ["h-"]
    assert [f["action"] for f in frames if f["type"] == "action"] == [chosen]
    expect(page.locator(".tt-error")).to_have_text("")
    assert page.console_errors == []  # type: ignore[attr-defined]


@pytest.mark.slow  # about 15 s: the page, a game started, a second of hint
def test_a_cooperative_hint_shows_the_chance_the_table_is_exact(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """In a cooperative ruleset (no seat scores points) the panel's values are the
    chance that every seat takes exactly its bid, as percentages with their errors, and
    it says so; the hint message says it too (``unit``, ``chance``)."""
    cooperative = next(name for name in list_rulesets() if load_ruleset(name).cooperative)
    made = create_table(
        web_server,
        game=cooperative,
        players=3,
        seats=["human", "random", "random"],
        host_seat=0,
        name="Ann",
        seed=4,
    )
    table_id = made["table"]["id"]
    page = new_page(viewport=DESKTOP)
    sit(page, web_server, table_id, seat=0, token=made["seat_token"], host_token=made["host_token"])
    start(web_server, table_id, made["host_token"])
    legal = my_turn(page)
    page.locator(".tt-me .tt-hint").click()
    panel = page.locator(".tt-hint-panel")
    expect(panel).to_be_visible(timeout=20_000)
    expect(panel.locator("tbody tr")).to_have_count(len(legal))
    expect(panel.locator("thead th").nth(1)).to_have_text("table exact")
    expect(panel.locator(".tt-hint-how")).to_contain_text("chance the table is exact this hand")
    values = panel.locator("tbody tr td:nth-child(2)").all_text_contents()
    assert values
    assert all(re.fullmatch(r"\d{1,3}(\.\d)?% \u00b1 \d{1,3}(\.\d)?%", v) for v in values), values
    expect(page.locator(".tt-error")).to_have_text("")
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_at_a_table_with_people_hints_show_only_where_the_host_allowed_them(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    for allowed in (False, True):
        made = create_table(
            web_server,
            game="blackout",
            players=4,
            seats=["human", "human", "random", "random"],
            host_seat=0,
            name="Ann",
            seed=3,
            hints=allowed,
        )
        table_id = made["table"]["id"]
        joined = httpx.post(
            f"{web_server.url}/tables/{table_id}/join",
            json={"invite": made["invite"], "name": "Bob"},
            timeout=30,
        ).json()
        ann, bob = new_page(), new_page()
        sit(ann, web_server, table_id, seat=0, token=made["seat_token"])
        sit(bob, web_server, table_id, seat=1, token=joined["seat_token"])
        start(web_server, table_id, made["host_token"])
        for page in (ann, bob):
            expect(page.locator(".tt-page")).not_to_have_attribute("data-phase", "waiting")
            badge = page.locator(".tt-hints-on")
            if allowed:
                expect(badge).to_be_visible()
            else:
                expect(badge).to_be_hidden()
        # Whoever is to act first has the button exactly where hints are on.
        ann.wait_for_function(
            "() => [...document.querySelectorAll('.tt-seat.to-act, .tt-mine .to-act')].length"
            " > 0 || document.querySelectorAll('.tt-me [data-action]').length > 0"
        )
        for page in (ann, bob):
            if offered(page):
                hint = page.locator(".tt-me .tt-hint")
                if allowed:
                    expect(hint).to_be_visible()
                else:
                    expect(hint).to_be_hidden()


def test_the_lobby_host_allows_hints_and_the_table_shows_them(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """The lobby's "Allow the coach's hints" box sends ``hints`` with the new table,
    whose page then shows that hints are on, before the game starts too."""
    page = new_page()
    open_lobby(page, web_server)
    choose_game(page, "blackout")
    page.fill("#host-name", "Ann")
    page.select_option("#seat-1", "human")  # a seat kept for someone invited
    page.check("#hints")
    page.click("#create")
    page.wait_for_url("**/#/invite/*")  # the host invites whoever takes the kept seat
    table_id = page.url.rsplit("/", 1)[1]
    table = table_of(web_server, table_id)
    assert table["hints"] is True
    assert table["practice"] is False  # another person's seat: hints by the host's leave
    page.goto(f"{web_server.url}/#/table/{table_id}")
    expect(page.locator(".tt-hints-on")).to_be_visible()
