"""Duplicate in a real Chromium against the real server (docs/duplicate.md, On a server):
"Play today's challenge" from the lobby makes the person's table of the day's deals and
opens it; a set's page shows its tables and standings, reordered and hand by hand; both
pages pass axe-core in every theme, at desktop and phone size."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.server_process import ServerProcess
from tests.web.axe import assert_accessible_in_themes, require_axe
from tests.web.conftest import PHONE, NewPage

DESKTOP = {"width": 1280, "height": 800}


def test_play_todays_challenge_from_the_lobby(
    module_server: ServerProcess, new_page: NewPage
) -> None:
    """docs/duplicate.md, The daily challenge and Once a day: from the lobby to one's own
    table of it, and back, refused a second; the page has no serious accessibility
    violation."""
    require_axe()
    page = new_page()
    page.goto(f"{module_server.url}/#/")
    page.locator("#daily-link").click()
    page.wait_for_url("**/#/daily")
    expect(page.locator("#daily-game")).to_have_value("blackout")
    expect(page.locator("#dup-empty")).to_be_visible()  # nobody has played yet
    assert_accessible_in_themes(page, "daily challenge")
    page.locator("#daily-game").select_option("jabberwocky")
    page.wait_for_url("**/#/daily/jabberwocky")
    expect(page.locator("#daily-title")).to_contain_text("Jabberwocky")
    page.locator("#daily-name").fill("Ann")
    page.locator("#daily-play").click()
    page.wait_for_url("**/#/table/*")
    table_id = page.url.rsplit("/", 1)[1]
    info = httpx.get(f"{module_server.url}/tables/{table_id}", timeout=30).json()
    assert info["game"] == "jabberwocky"
    assert info["seats"][0]["name"] == "Ann"
    assert [s["kind"] for s in info["seats"]] == ["human", "bot", "bot", "bot"]
    assert info["practice"] is False
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()
    # Once a day (docs/duplicate.md): back on the challenge's page, this browser is told
    # it has played, with its table, and asking again is refused with that table.
    page.goto(f"{module_server.url}/#/daily/jabberwocky")
    played = page.locator("#daily-played a")
    expect(played).to_have_attribute("href", f"#/table/{table_id}")
    page.locator("#daily-play").click()
    expect(page.locator("#daily-error")).to_contain_text("played today's challenge already")
    errors = page.console_errors  # type: ignore[attr-defined]
    assert [e for e in errors if "status of 409" not in e] == []  # the refusal's own


def _played_set(server: ServerProcess) -> str:
    """A set of Blackout at three seats, played to the end at two tables of bots."""
    made = httpx.post(
        f"{server.url}/duplicate",
        json={"game": "blackout", "players": 3, "seed": 3, "name": "Thursday"},
        timeout=30,
    ).json()
    headers = {"Authorization": f"Bearer {made['host_token']}"}
    tables = []
    for seats in (["easy", "random", "random"], ["random", "easy", "random"]):
        table = httpx.post(
            f"{server.url}/duplicate/{made['set']['id']}/tables",
            json={"seats": seats},
            headers=headers,
            timeout=30,
        ).json()
        start = httpx.post(
            f"{server.url}/tables/{table['table']['id']}/start",
            headers={"Authorization": f"Bearer {table['host_token']}"},
            timeout=30,
        )
        assert start.status_code == 204, start.text
        tables.append(table["table"]["id"])
    deadline = time.monotonic() + 120
    for table_id in tables:
        while httpx.get(f"{server.url}/tables/{table_id}", timeout=30).json()["status"] != (
            "finished"
        ):
            assert time.monotonic() < deadline, "the bots' games did not finish"
            time.sleep(0.2)
    return str(made["set"]["id"])


@pytest.mark.parametrize(
    "viewport", [pytest.param(DESKTOP, id="desktop"), pytest.param(PHONE, id="phone")]
)
def test_a_sets_page(module_server: ServerProcess, new_page: NewPage, viewport: Any) -> None:
    """docs/duplicate.md, Standings: the set's tables, the standings by matchpoints or
    by the average, each entrant's hands; no serious accessibility violation."""
    require_axe()
    set_id = _played_set(module_server)
    page = new_page(viewport=viewport)
    page.goto(f"{module_server.url}/#/duplicate/{set_id}")
    expect(page.locator("h1")).to_have_text("Thursday")
    expect(page.locator("#dup-tables li")).to_have_count(2)
    rows = page.locator("#dup-standings tbody tr")
    expect(rows).to_have_count(6)
    answer = httpx.get(f"{module_server.url}/duplicate/{set_id}", timeout=30).json()
    first = answer["standings"][0]
    expect(rows.first).to_contain_text(first["name"])
    expect(rows.first).to_contain_text(f"{first['percent']:.1f}%")
    expect(page.locator("#dup-boards tbody tr")).to_have_count(answer["set"]["hands"])
    assert_accessible_in_themes(page, "duplicate set")
    page.get_by_role("button", name="Against the average").click()
    expect(page.get_by_role("button", name="Against the average")).to_have_attribute(
        "aria-pressed", "true"
    )
    by_average = httpx.get(
        f"{module_server.url}/duplicate/{set_id}", params={"order": "average"}, timeout=30
    ).json()["standings"]
    expect(rows.first).to_contain_text(by_average[0]["name"])
    last = by_average[-1]
    page.locator("#dup-entrant").select_option(f"{last['number']}:{last['seat']}")
    expect(page.locator("#dup-boards caption")).to_contain_text(last["name"])
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_a_set_dealt_and_its_table_made_in_the_browser(
    module_server: ServerProcess, new_page: NewPage
) -> None:
    """docs/duplicate.md, On a server: the lobby's "Deal a duplicate set" makes a set
    (this browser keeps its host token), whose page then makes its tables: the first
    seat the host's, the others people or bots; both pages pass axe-core."""
    require_axe()
    page = new_page()
    page.goto(f"{module_server.url}/#/")
    page.locator("#duplicate-link").click()
    page.wait_for_url("**/#/duplicate")
    assert_accessible_in_themes(page, "new duplicate set")
    page.locator("#dup-new-game").select_option("jabberwocky")
    page.locator("#dup-new-players").fill("3")
    page.locator("#dup-new-name").fill("Friday")
    page.locator("#dup-new-make").click()
    page.wait_for_url("**/#/duplicate/*")
    set_id = page.url.rsplit("/", 1)[1]
    expect(page.locator("h1")).to_have_text("Friday")
    expect(page.locator("#dup-make-table")).to_be_visible()
    assert_accessible_in_themes(page, "duplicate set, its host")
    page.locator("#dup-host-name").fill("Ann")
    page.locator("#dup-seat-2").select_option("random")
    page.locator("#dup-seat-3").select_option("easy")
    page.locator("#dup-make-table").click()
    page.wait_for_url("**/#/table/*")
    answer = httpx.get(f"{module_server.url}/duplicate/{set_id}", timeout=30).json()
    assert answer["set"]["game"] == "jabberwocky"
    assert answer["set"]["players"] == 3
    (table,) = answer["tables"]
    info = httpx.get(f"{module_server.url}/tables/{table['table']}", timeout=30).json()
    assert [(s["kind"], s["bot"]) for s in info["seats"]] == [
        ("human", None),
        ("bot", "random"),
        ("bot", "easy"),
    ]
    assert info["seats"][0]["name"] == "Ann"
    # Another browser sees the set but cannot make its tables.
    other = new_page()
    other.goto(f"{module_server.url}/#/duplicate/{set_id}")
    expect(other.locator("#dup-tables li")).to_have_count(1)
    expect(other.locator("#dup-make-table")).to_have_count(0)
    assert page.console_errors == []  # type: ignore[attr-defined]
