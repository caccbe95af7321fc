"""Accessibility, checked (issue 26): axe-core over every page of the browser client, in
a real Chromium against the real server, at desktop and phone size and in each theme
(light, dark, high contrast), with no serious or critical violation; and the lobby used
with the keyboard alone, from the first Tab to a created table.

axe-core comes from ``node_modules`` (``make jscheck``); see tests/web/axe.py.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.server_process import ServerProcess
from tests.web.axe import assert_accessible_in_themes, require_axe
from tests.web.conftest import PHONE, NewPage, create_table
from tests.web.table_helpers import offered, phase, sit, start
from tricktaker.bots import make_bot, play_game
from tricktaker.engine import new_game
from tricktaker.rules import load_ruleset

DESKTOP = {"width": 1280, "height": 800}
VIEWPORTS = [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]


@pytest.fixture(autouse=True)
def _axe_installed() -> None:
    """Skip (fail under CI=true) before any server starts when axe-core is missing."""
    require_axe()


def open_lobby(page: Page, server: ServerProcess) -> None:
    page.goto(f"{server.url}/#/")
    page.wait_for_selector("#new-table .game-list li.game >> nth=0")
    expect(page.locator("#create")).to_be_enabled()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_lobby_has_no_serious_violation(
    module_server: ServerProcess, new_page: NewPage, viewport: Any
) -> None:
    """The lobby as it opens, and with the house-rules box and an open table listed."""
    create_table(
        module_server, game="blackout", players=3, seats=["human", "easy", "easy"], name="Ann"
    )
    page = new_page(viewport=viewport)
    open_lobby(page, module_server)
    expect(page.locator(".open-table").first).to_be_visible()
    assert_accessible_in_themes(page, "lobby")
    page.locator('.game[data-game="__house__"] label').click()
    page.get_by_role("button", name="Start from an example").click()
    expect(page.locator("#house-status")).to_contain_text("✓")
    assert_accessible_in_themes(page, "lobby, house rules")


def test_the_invitation_pages_have_no_serious_violation(
    module_server: ServerProcess, new_page: NewPage
) -> None:
    """#/invite (the host waiting with the link) and #/join (the invited person)."""
    created = create_table(
        module_server,
        game="blackout",
        players=3,
        seats=["human", "human", "easy"],
        host_seat=0,
        name="Ann",
    )
    table_id = created["table"]["id"]
    host = new_page()
    host.goto(f"{module_server.url}/")
    host.evaluate(
        "([id, code]) => localStorage.setItem(`tricktaker.invite.${id}`, code)",
        [table_id, created["invite"]],
    )
    host.goto(f"{module_server.url}/#/invite/{table_id}")
    expect(host.locator("#invite-link")).to_be_visible()
    assert_accessible_in_themes(host, "invite")
    guest = new_page(viewport=PHONE)
    guest.goto(f"{module_server.url}/#/join/{table_id}?invite={created['invite']}")
    expect(guest.locator("#join-name")).to_be_visible()
    assert_accessible_in_themes(guest, "join, phone")


TWO_HANDS = """\
extends = "blackout"
id = "two_hand_blackout"
name = "Blackout"

[schedule]
sizes = "1..2"
"""
"""Blackout of two hands (1 and 2 cards), as a house-rules file may give it
(docs/rulesets.md), so that a test reaches the final standings quickly."""


def wait_for_turn(page: Page, wanted: str) -> None:
    """Wait until it is this page's turn in phase ``wanted``."""
    page.wait_for_function(
        """(wanted) => {
            const table = document.querySelector('.tt-page');
            return table && table.dataset.phase === wanted && !table.dataset.pending
                && !document.querySelector('.tt-dialog.tt-result')
                && document.querySelector('.tt-me [data-action]:not(.forbidden)');
        }""",
        arg=wanted,
        timeout=60_000,
    )


def sit_at_two_hands(server: ServerProcess, new_page: NewPage, viewport: Any) -> Page:
    """A person (Ann) and three easy bots at a two-hand Blackout, started: the person's
    page, waiting for its first bid."""
    created = create_table(
        server,
        ruleset_toml=TWO_HANDS,
        players=4,
        seats=["human", "easy", "easy", "easy"],
        host_seat=0,
        name="Ann",
        seed=3,
    )
    table_id = created["table"]["id"]
    start(server, table_id, created["host_token"])
    page = new_page(viewport=viewport)
    sit(page, server, table_id, seat=0, token=created["seat_token"])
    wait_for_turn(page, "bidding")
    return page


def act(page: Page) -> None:
    """Take the first action the page offers (a bid or a card)."""
    page.locator(f'.tt-me [data-action="{offered(page)[0]}"]').first.click()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_table_has_no_serious_violation_bidding_playing_and_at_the_hand_result(
    web_server: ServerProcess, new_page: NewPage, viewport: Any
) -> None:
    """The table at the person's bid, at the person's card, and with the hand result up;
    meanwhile a screen reader hears the game in the page's live region (the turn, the
    hand's result)."""
    page = sit_at_two_hands(web_server, new_page, viewport)
    live = page.locator(".tt-live")
    expect(live).to_have_attribute("aria-live", "polite")
    page.evaluate(
        """() => {
            window.saidAloud = [];
            const live = document.querySelector('.tt-live');
            new MutationObserver(() => {
                if (live.textContent) window.saidAloud.push(live.textContent);
            }).observe(live, { childList: true, characterData: true, subtree: true });
        }"""
    )
    assert_accessible_in_themes(page, "table, bidding")
    act(page)
    wait_for_turn(page, "playing")
    assert_accessible_in_themes(page, "table, playing")
    act(page)
    expect(page.locator(".tt-dialog.tt-result")).to_be_visible(timeout=30_000)
    assert_accessible_in_themes(page, "table, hand result")
    page.wait_for_function("() => window.saidAloud.some((text) => /Hand 1/.test(text))")
    said: list[str] = page.evaluate("() => window.saidAloud")
    assert any("turn" in text.lower() for text in said), said


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_final_standings_have_no_serious_violation(
    web_server: ServerProcess, new_page: NewPage, viewport: Any
) -> None:
    """The table at the end of the game, the final standings up."""
    page = sit_at_two_hands(web_server, new_page, viewport)
    while phase(page) != "game_over":
        page.wait_for_function(
            """() => {
                const table = document.querySelector('.tt-page');
                return table.dataset.phase === 'game_over'
                    || document.querySelector('.tt-dialog.tt-result')
                    || (!table.dataset.pending
                        && document.querySelector('.tt-me [data-action]:not(.forbidden)'));
            }""",
            timeout=60_000,
        )
        if phase(page) == "game_over":
            break
        if page.locator(".tt-dialog.tt-result .tt-next").count():
            page.locator(".tt-dialog.tt-result .tt-next").click()
        else:
            act(page)
            page.wait_for_function("() => !document.querySelector('.tt-page').dataset.pending")
    last = page.locator(".tt-dialog.tt-result .tt-next")  # "Final standings"
    expect(last).to_be_visible(timeout=30_000)
    last.click()
    expect(page.locator(".tt-standings").first).to_be_visible(timeout=30_000)
    assert_accessible_in_themes(page, "table, final standings")


def test_the_table_before_the_game_and_to_a_spectator_has_no_serious_violation(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """The table waiting for its players (the host's page, a seat still free), and a
    game of bots as a spectator watches it on a phone."""
    waiting = create_table(
        web_server,
        game="blackout",
        players=3,
        seats=["human", "human", "easy"],
        host_seat=0,
        name="Ann",
    )
    host = new_page()
    sit(
        host,
        web_server,
        waiting["table"]["id"],
        seat=0,
        token=waiting["seat_token"],
        host_token=waiting["host_token"],
    )
    expect(host.locator(".tt-page")).to_have_attribute("data-phase", re.compile(r".+"))
    assert_accessible_in_themes(host, "table, waiting for players")
    bots = create_table(
        web_server, game="blackout", players=4, seats=["easy"] * 4, seed=5, name="Ann"
    )
    start(web_server, bots["table"]["id"], bots["host_token"])
    watcher = new_page(viewport=PHONE)
    sit(watcher, web_server, bots["table"]["id"], seat=None, token=None, watch=True)
    # The table of bots plays on: between two hands the page may show the deal (with the
    # hand result up for a few seconds), which is checked as well as any other moment.
    expect(watcher.locator(".tt-page")).to_have_attribute(
        "data-phase", re.compile("deal|bidding|playing|hand_over|game_over"), timeout=20_000
    )
    assert_accessible_in_themes(watcher, "table, a spectator on a phone")


def start_sheet(page: Page, server: ServerProcess) -> None:
    """Start a Blackout sheet from the scorekeeper's form, as a person would."""
    page.goto(f"{server.url}/#/score")
    page.select_option("#sk-game", "blackout")
    for seat, name in enumerate(["Ann", "Bob", "Cy", "Di"]):
        page.fill(f"#sk-name-{seat}", name)
    page.get_by_role("button", name="Start the sheet").click()
    expect(page.locator(".sk-entry")).to_be_visible()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_scorekeeper_has_no_serious_violation(
    module_server: ServerProcess, new_page: NewPage, viewport: Any
) -> None:
    """The scorekeeper's form, then a sheet at its first bid."""
    page = new_page(viewport=viewport)
    page.goto(f"{module_server.url}/#/score")
    expect(page.locator("#sk-game")).to_be_visible()
    assert_accessible_in_themes(page, "scorekeeper, new sheet")
    start_sheet(page, module_server)
    expect(page.locator(".sk-numbers button").first).to_be_visible()
    assert_accessible_in_themes(page, "scorekeeper, a sheet")


def record_file(folder: Path) -> Path:
    """Two hands of Pluck by random bots, saved as ``play --record`` saves them."""
    state = new_game(load_ruleset("pluck", options={"hands": 2}), players=3, seed=5)
    play_game(state, [make_bot("random", seed=5 + s) for s in range(3)])
    path = folder / "pluck.json"
    state.record().save(path)
    return path


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_replay_has_no_serious_violation(
    module_server: ServerProcess, new_page: NewPage, tmp_path: Path, viewport: Any
) -> None:
    """The replay's file form, then a record at its first trick and at its end."""
    page = new_page(viewport=viewport)
    page.goto(f"{module_server.url}/#/replay")
    expect(page.locator("#record-file")).to_be_attached()
    assert_accessible_in_themes(page, "replay, open a record")
    page.set_input_files("#record-file", str(record_file(tmp_path)))
    page.wait_for_url("**/#/replay?r=*")
    expect(page.locator("#replay-status")).to_contain_text("step 0")
    page.click("#replay-next-trick")
    assert_accessible_in_themes(page, "replay, a trick")
    page.click("#replay-end")
    expect(page.locator("#replay-status")).to_contain_text("Game over")
    assert_accessible_in_themes(page, "replay, game over")


def focused(page: Page) -> str:
    """The focused element as ``tag#id`` (``tag[name=value]`` for a radio button)."""
    text: str = page.evaluate(
        """() => {
            const e = document.activeElement;
            if (!e || e === document.body) return 'body';
            if (e.type === 'radio') return `${e.tagName.toLowerCase()}[name=${e.name}]`;
            return `${e.tagName.toLowerCase()}#${e.id}`;
        }"""
    )
    return text


def tab_to(page: Page, wanted: str, *, limit: int = 80) -> list[str]:
    """Press Tab until ``wanted`` (as :func:`focused` writes it) has the focus; answers
    the stops on the way. Fails if it is not reached, or if a stop shows no focus ring."""
    stops: list[str] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        now = focused(page)
        stops.append(now)
        ring = page.evaluate(
            """() => {
                const e = document.activeElement;
                const s = getComputedStyle(e);
                return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0)
                    || s.boxShadow !== 'none';
            }"""
        )
        assert ring, f"{now} has the focus but shows no focus ring"
        if now == wanted:
            return stops
    raise AssertionError(f"Tab never reached {wanted}: {stops}")


def test_a_table_is_created_with_the_keyboard_alone(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """From the top of the lobby, Tab, the arrow keys, typing and Enter alone choose a
    game (Pluck), name the host, give seat 2 to a hard bot and create the table: the
    page lands on the table, and the server has the table as chosen. Every stop on the
    way shows where the focus is."""
    page = new_page()
    open_lobby(page, web_server)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.locator("body").focus()
    tab_to(page, "input[name=game]")
    expect(page.locator("#game-blackout")).to_be_focused()
    for _ in range(10):
        if page.evaluate("() => document.activeElement.value") == "pluck":
            break
        page.keyboard.press("ArrowDown")  # radio buttons move (and check) with the arrows
    expect(page.locator("#game-pluck")).to_be_checked()
    tab_to(page, "input#host-name")
    page.keyboard.type("Ann")
    tab_to(page, "select#seat-1")
    page.keyboard.press("ArrowDown")  # A person -> the first bot, etc.: pick "hard"
    for _ in range(10):
        if page.evaluate("() => document.activeElement.value") == "hard":
            break
        page.keyboard.press("ArrowDown")
    expect(page.locator("#seat-1")).to_have_value("hard")
    tab_to(page, "button#create")
    page.keyboard.press("Enter")
    page.wait_for_url("**/#/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    table = httpx.get(f"{web_server.url}/tables/{table_id}", timeout=30).json()
    assert table["game"] == "pluck"
    assert table["seats"][0]["name"] == "Ann"
    assert (table["seats"][1]["kind"], table["seats"][1]["bot"]) == ("bot", "hard")


def test_a_link_to_another_page_takes_the_focus_to_it(
    module_server: ServerProcess, new_page: NewPage
) -> None:
    """Following a link with the keyboard (the lobby's Keep score) takes the focus to the
    new page's heading, which a screen reader then reads, and the next Tab goes on into
    that page, not back to the top bar."""
    page = new_page()
    open_lobby(page, module_server)
    link = page.get_by_role("link", name="Keep score")
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/#/score")
    expect(page.locator("#sk-game")).to_be_visible()
    heading = page.locator("#main h1").first
    expect(heading).to_be_focused()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.getElementById('main').contains(document.activeElement)")


def test_the_polled_lists_keep_the_focus_and_say_only_what_changed(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """The lobby's open tables (polled every 5 s) and the invitation's seats (every 2 s)
    are live regions: a poll that finds nothing new leaves them as they are (a screen
    reader would read again whatever is put back), and a reader's focus on a table's
    Watch link stays there (it was lost at every poll); a seat taken is drawn again."""
    created = create_table(
        web_server,
        game="blackout",
        players=3,
        seats=["human", "human", "easy"],
        host_seat=0,
        name="Ann",
    )
    table_id = created["table"]["id"]
    lobby = new_page()
    open_lobby(lobby, web_server)
    watch = lobby.locator(f"#watch-{table_id}")
    watch.focus()
    lobby.evaluate("() => { document.activeElement.dataset.mark = 'kept'; }")
    with lobby.expect_response(lambda r: r.url.endswith("/tables")):
        pass  # the next poll (the list is the same)
    expect(watch).to_be_focused()
    expect(watch).to_have_attribute("data-mark", "kept")

    host = new_page()
    host.goto(f"{web_server.url}/#/invite/{table_id}")
    seats = host.locator(".seat-states li")
    expect(seats.nth(1)).to_have_text("Seat 2: free: waiting for someone")
    host.evaluate("() => { document.querySelector('.seat-states li').dataset.mark = 'kept'; }")
    for _ in range(2):
        with host.expect_response(lambda r: r.url.endswith(f"/tables/{table_id}")):
            pass
    expect(seats.first).to_have_attribute("data-mark", "kept")
    joined = httpx.post(
        f"{web_server.url}/tables/{table_id}/join",
        json={"invite": created["invite"], "name": "Bob"},
        timeout=30,
    )
    assert joined.status_code == 200, joined.text
    expect(seats.nth(1)).to_have_text("Seat 2: Bob")
