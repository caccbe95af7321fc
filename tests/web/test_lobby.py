"""The lobby in a real Chromium against the real server: every game with its rules page,
options with the right inputs and their defaults, a table with bots, house rules whose
errors show next to the line or option they concern, open tables, invitations, and the
phone-sized layout. No request leaves 127.0.0.1.

docs/protocol.md, HTTP API (the requests the lobby makes).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.server_process import ServerProcess
from tests.web.conftest import PHONE, NewPage, create_table
from tricktaker.rules import list_rulesets, load_ruleset

BAD_HOUSE_RULES = """\
id = "our_blackout"
name = "Our Blackout"
extends = "blackout"

[bidding]
hook = 3
"""


def local_only(page: Page, server: ServerProcess) -> list[str]:
    """Record every request the page makes; the list is checked by :func:`assert_local`."""
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    return requests


def assert_local(requests: list[str], server: ServerProcess) -> None:
    """Every request went to the server on 127.0.0.1 (or stayed in the page)."""
    assert requests, "the page made no request at all"
    elsewhere = [
        url
        for url in requests
        if not url.startswith(f"{server.url}/") and not url.startswith(("data:", "blob:"))
    ]
    assert elsewhere == []


def open_lobby(page: Page, server: ServerProcess) -> None:
    page.goto(f"{server.url}/#/")
    page.wait_for_selector("#new-table .game-list li.game >> nth=0")
    expect(page.locator("#create")).to_be_enabled()


def choose_game(page: Page, game: str) -> None:
    page.locator(f'.game[data-game="{game}"] label').click()
    expect(page.locator(f'.game[data-game="{game}"] input[type="radio"]')).to_be_checked()


def table_of(server: ServerProcess, table_id: str) -> dict[str, Any]:
    answer = httpx.get(f"{server.url}/tables/{table_id}", timeout=30)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def storage(page: Page, key: str) -> str | None:
    value: str | None = page.evaluate("key => localStorage.getItem(key)", key)
    return value


def test_the_lobby_lists_every_game_with_its_description_and_rules_page(
    module_server: ServerProcess, new_page: NewPage
) -> None:
    """Every shipped game, its one-line description and a link to its page, which
    opens docs/games/GAME.md as HTML from the server itself."""
    page = new_page()
    requests = local_only(page, module_server)
    open_lobby(page, module_server)
    games = list_rulesets()
    expect(page.locator(".game-list li.game:not(.house)")).to_have_count(len(games))
    for game in games:
        rules = load_ruleset(game)
        item = page.locator(f'.game[data-game="{game}"]')
        expect(item.locator(".game-name")).to_have_text(rules.name)
        expect(item.locator(".game-desc")).to_have_text(rules.spec.description)
        link = item.locator("a.rules-link")
        expect(link).to_have_attribute("href", f"/rules/{game}")
        expect(link).to_have_attribute("aria-label", f"Rules of {rules.name} (opens a new tab)")
    with page.context.expect_page() as opened:
        page.locator('.game[data-game="euchre"] a.rules-link').click()
    rules_page = opened.value
    rules_page.wait_for_load_state()
    assert rules_page.url == f"{module_server.url}/rules/euchre"
    expect(rules_page.locator("main.rules h1")).to_contain_text("Euchre")
    assert page.console_errors == []  # type: ignore[attr-defined]
    assert_local(requests, module_server)


def test_options_have_the_right_inputs_with_their_defaults(
    module_server: ServerProcess, new_page: NewPage
) -> None:
    """A switch for an on/off option, a number within its limits, a choice among few
    values; each shows its default and its description."""
    page = new_page()
    open_lobby(page, module_server)
    choose_game(page, "pluck")
    hands = page.locator("#opt-hands")
    expect(hands).to_have_attribute("type", "number")
    expect(hands).to_have_value("6")
    expect(hands).to_have_attribute("min", "1")
    expect(hands).to_have_attribute("max", "300")
    expect(page.locator("#opt-hands-help")).to_have_text("Number of hands in a game. Default: 6.")
    draw = page.locator("#opt-draw_for_dealer")
    expect(draw).to_have_attribute("role", "switch")
    expect(draw).not_to_be_checked()
    expect(page.locator("#opt-draw_for_dealer-help")).to_contain_text("Default: off.")
    expect(page.locator("#players")).to_have_value("3")  # Pluck is for three
    choose_game(page, "bluke")
    min_bid = page.locator("#opt-min_bid")
    assert min_bid.evaluate("el => el.tagName") == "SELECT"
    expect(min_bid).to_have_value("1")
    expect(page.locator("#opt-min_bid-help")).to_contain_text("Default: 1.")
    choose_game(page, "blackout")
    expect(page.locator("#opt-hook")).not_to_be_checked()
    expect(page.locator(".options .option")).to_have_count(
        len(load_ruleset("blackout").spec.options)
    )


def test_creating_a_table_with_bots_lands_on_the_table(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """POST /tables with the chosen game, options and seats; the host's and the seat's
    tokens are kept in the browser; the page goes to the table."""
    page = new_page()
    requests = local_only(page, web_server)
    open_lobby(page, web_server)
    choose_game(page, "pluck")
    page.fill("#opt-hands", "2")
    page.locator("#opt-hands").dispatch_event("change")
    page.fill("#host-name", "Ann")
    page.select_option("#seat-1", "random")
    page.select_option("#seat-2", "hard")
    page.click("#create")
    page.wait_for_url("**/#/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    table = table_of(web_server, table_id)
    assert table["game"] == "pluck"
    assert table["options"]["hands"] == 2
    seats = [(s["kind"], s["bot"]) for s in table["seats"]]
    assert seats == [("human", None), ("bot", "random"), ("bot", "hard")]
    assert table["seats"][0]["name"] == "Ann"
    seat = json.loads(storage(page, f"tricktaker.seat.{table_id}") or "null")
    assert seat["seat"] == 0
    assert len(seat["token"]) >= 40
    assert storage(page, f"tricktaker.host.{table_id}")
    page.wait_for_timeout(300)  # let the table's own page load what it needs
    assert_local(requests, web_server)


def test_pasted_house_rules_show_each_error_next_to_its_line(
    module_server: ServerProcess, new_page: NewPage
) -> None:
    """A house-rules file with a wrong value: the error, in the CLI's words, shows under
    the line that holds it, and the table cannot be made until it is fixed."""
    page = new_page()
    requests = local_only(page, module_server)
    open_lobby(page, module_server)
    page.locator('.game[data-game="__house__"] label').click()
    page.fill("#house-text", BAD_HOUSE_RULES)
    error = page.locator('#toml-view .toml-line.has-error .field-error[data-field="bidding.hook"]')
    expect(error).to_have_text("line 6:8 · bidding.hook: expected true or false, got the number 3")
    line = page.locator("#toml-view .toml-line.has-error")
    expect(line).to_have_count(1)
    expect(line).to_have_attribute("value", "6")
    expect(line.locator("code")).to_have_text("hook = 3")
    # A screen reader hears the status line once (the count and the first error), not
    # every error as an alert at every check while typing; the box is marked invalid.
    expect(page.locator("#house-status")).to_have_text(
        "1 error in the file; the first, line 6 (bidding.hook): expected true or false,"
        " got the number 3."
    )
    expect(page.locator("#house-rules [role=alert]")).to_have_count(0)
    expect(page.locator("#house-text")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#create")).to_be_disabled()
    page.fill("#house-text", BAD_HOUSE_RULES.replace("hook = 3", "hook = true"))
    expect(page.locator("#house-status")).to_contain_text("✓ Our Blackout")
    expect(page.locator("#toml-view .field-error")).to_have_count(0)
    expect(page.locator("#house-text")).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("#opt-hook")).to_be_checked()  # the option follows the file
    expect(page.locator("#create")).to_be_enabled()
    assert_local(requests, module_server)


def test_uploaded_house_rules_and_an_options_error_next_to_the_option(
    web_server: ServerProcess, new_page: NewPage, tmp_path: Path
) -> None:
    """An uploaded file is checked like a pasted one; an option's error shows next to
    that option; the table made from the file plays the house rules."""
    house = tmp_path / "our-pluck.toml"
    house.write_text('id = "our_pluck"\nname = "Our Pluck"\nextends = "pluck"\n', "utf-8")
    page = new_page()
    open_lobby(page, web_server)
    page.locator('.game[data-game="__house__"] label').click()
    page.set_input_files("#house-file", str(house))
    expect(page.locator("#house-status")).to_contain_text("✓ Our Pluck")
    expect(page.locator("#house-text")).to_have_value(house.read_text("utf-8"))
    page.fill("#opt-hands", "0")
    page.locator("#opt-hands").dispatch_event("change")
    error = page.locator('.option[data-option="hands"] .field-error')
    expect(error).to_contain_text("option hands: 0 is below the minimum 1")
    expect(page.locator("#create")).to_be_disabled()
    page.fill("#opt-hands", "1")
    page.locator("#opt-hands").dispatch_event("change")
    expect(page.locator("#house-status")).to_contain_text("✓ Our Pluck")
    expect(error).to_have_count(0)
    page.select_option("#seat-1", "easy")
    page.select_option("#seat-2", "easy")
    page.click("#create")
    page.wait_for_url("**/#/table/*")
    table = table_of(web_server, page.url.rsplit("/", 1)[1])
    assert table["game"] == "our_pluck"
    assert table["options"]["hands"] == 1


def test_a_table_with_a_person_to_invite_waits_with_its_invite_link(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """A seat for a person: the host sees the invite link to copy; the invited person
    opens it, gives a name and takes the seat; the host's page sees the seat taken."""
    host = new_page()
    open_lobby(host, web_server)
    choose_game(host, "blackout")
    host.select_option("#players", "3")
    host.select_option("#seat-1", "human")
    host.select_option("#seat-2", "open")
    expect(host.locator('label[for="seat-0"]')).to_have_text("Seat 1")
    expect(host.locator('label[for="seat-2"]')).to_have_text("Seat 3")
    host.fill("#host-name", "Ann")
    host.click("#create")
    host.wait_for_url("**/#/invite/*")
    table_id = host.url.rsplit("/", 1)[1]
    invite = storage(host, f"tricktaker.invite.{table_id}")
    assert invite
    link = f"{web_server.url}/#/join/{table_id}?invite={invite}"
    expect(host.locator("#invite-link")).to_have_value(link)
    expect(host.locator("#copy-invite")).to_be_visible()
    # Seats are numbered from 1 wherever a person reads them (the wire's seat 1 is "Seat 2").
    expect(host.locator(".seat-states")).to_contain_text("Seat 1: Ann")
    expect(host.locator(".seat-states")).to_contain_text("Seat 2: free: waiting for someone")
    expect(host.locator(".seat-states")).to_contain_text("Seat 3: free: open to anyone")
    guest = new_page()
    guest.goto(link)
    expect(guest.locator("h1")).to_have_text("Join a table of Blackout")
    seats_seen = guest.locator(".seat-states")
    expect(seats_seen).to_contain_text("Seat 2: free, kept for an invited player")
    expect(seats_seen).to_contain_text("Seat 3: free, open to anyone")
    guest.fill("#join-name", "Bob")
    guest.click("#join")
    guest.wait_for_url(f"**/#/table/{table_id}")
    assert json.loads(storage(guest, f"tricktaker.seat.{table_id}") or "null")["seat"] == 1
    expect(host.locator(".seat-states")).to_contain_text("Seat 2: Bob", timeout=10_000)
    expect(host.locator("#main [role=status]")).to_contain_text("1 seat still free")
    seats = table_of(web_server, table_id)["seats"]
    assert [s.get("open") for s in seats[1:]] == [False, True]


def test_open_tables_take_a_seat_or_watch(web_server: ServerProcess, new_page: NewPage) -> None:
    """GET /tables in the lobby: a seat left open to anyone is taken from the list, and
    anyone may watch as a spectator (no seat token kept); a table whose free seat is kept
    for an invited person is listed to watch only (docs/protocol.md, who may take a
    seat)."""
    kept = create_table(
        web_server,
        game="pluck",
        players=3,
        seats=["human", "human", "easy"],
        host_seat=0,
        name="Bea",
    )
    created = create_table(
        web_server,
        game="blackout",
        players=3,
        seats=["human", "open", "easy"],
        host_seat=0,
        name="Ann",
    )
    table_id = created["table"]["id"]
    page = new_page()
    requests = local_only(page, web_server)
    open_lobby(page, web_server)
    entry = page.locator(f'.open-table[data-table="{table_id}"]')
    expect(entry).to_contain_text("Blackout")
    expect(entry).to_contain_text("1 open seat")
    kept_entry = page.locator(f'.open-table[data-table="{kept["table"]["id"]}"]')
    expect(kept_entry).to_contain_text("to watch")
    expect(kept_entry.get_by_role("link", name="Take a seat at Pluck")).to_have_count(0)
    expect(kept_entry.get_by_role("link", name="Watch Pluck as a spectator")).to_be_visible()
    entry.get_by_role("link", name="Take a seat at Blackout").click()
    page.wait_for_url(f"**/#/join/{table_id}?invite=*")
    page.fill("#join-name", "Cy")
    page.click("#join")
    page.wait_for_url(f"**/#/table/{table_id}")
    assert table_of(web_server, table_id)["seats"][1]["name"] == "Cy"
    watcher = new_page()
    open_lobby(watcher, web_server)
    watcher.locator(f'.open-table[data-table="{table_id}"]').get_by_role(
        "link", name="Watch Blackout as a spectator"
    ).click()
    watcher.wait_for_url(f"**/#/table/{table_id}?watch=1")
    expect(watcher.locator(".error-panel")).to_have_count(0)
    assert storage(watcher, f"tricktaker.seat.{table_id}") is None
    assert_local(requests, web_server)


@pytest.mark.parametrize("viewport", [PHONE], ids=["390x844"])
def test_the_lobby_fits_a_phone_and_every_control_is_labelled(
    module_server: ServerProcess, new_page: NewPage, viewport: Any
) -> None:
    """At 390x844 nothing is wider than the screen, the buttons are big enough to tap,
    and every control has a name a screen reader reads; the keyboard reaches them."""
    page = new_page(viewport=viewport)
    open_lobby(page, module_server)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = page.locator("#create").bounding_box()
    assert box is not None
    assert box["height"] >= 44
    assert box["x"] + box["width"] <= PHONE["width"]
    unnamed = page.evaluate(
        """() => [...document.querySelectorAll('#main input, #main select, #main button,'
                + ' #main textarea, #main a')]
            .filter(e => e.offsetParent !== null)
            .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')
                         && !e.textContent.trim())
            .map(e => e.outerHTML.slice(0, 80))"""
    )
    assert unnamed == []
    page.focus("#game-blackout")
    page.keyboard.press("ArrowDown")  # radio buttons move with the arrow keys
    expect(page.locator("#game-bluke")).to_be_checked()
    expect(page.locator("#game-bluke")).to_be_focused()
