"""The coach's review of a cooperative game in the browser's replay (issue 29; docs/coach.md,
Cooperative Blackout): its values are the chance that the whole table is exact, and the
page says so in percentages, each hand as the table was exact or not, never in points.
The record is opened as a file's replay (POST /api/replays), in a real Chromium against
the real server.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from tests.server_process import ServerProcess, free_port
from tests.web.conftest import NewPage
from tricktaker import list_rulesets, load_ruleset, new_game
from tricktaker.bots import make_bot, play_game
from tricktaker.coach.model import CHANCE_UNIT
from tricktaker.server.tables.reviews import DEALS_VARIABLE


@pytest.fixture
def review_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ServerProcess]:
    """The real server on a fresh SQLite file, reviewing over 8 deals a decision."""
    monkeypatch.setenv(DEALS_VARIABLE, "8")
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'server.sqlite3'}", free_port(), tmp_path / "server.log"
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.slow  # about 10 s: the server, the page, a short review
def test_a_cooperative_review_shows_the_chance_the_table_is_exact(
    review_server: ServerProcess, new_page: NewPage
) -> None:
    cooperative = next(name for name in list_rulesets() if load_ruleset(name).cooperative)
    state = new_game(load_ruleset(cooperative, options={"max_hands": 3}), players=3, seed=5)
    play_game(state, [make_bot("heuristic", seed=5 + seat) for seat in range(3)])
    record = state.record().to_json()
    uploaded = httpx.post(f"{review_server.url}/api/replays", json=record, timeout=30).json()
    page = new_page()
    page.goto(f"{review_server.url}/#/replay?r={uploaded['id']}")
    page.click("#replay-review")
    page.select_option("#review-seat", "0")
    page.click("#review-start")
    expect(page.locator("#review-total")).to_be_visible(timeout=60_000)
    expect(page.locator("#review-model")).to_contain_text(f"A value is the {CHANCE_UNIT.name}")
    hands = page.locator("#review-hands li")
    expect(hands).to_have_count(len(state.history))
    for index, result in enumerate(state.history):
        exact = "exact" if result.all_exact else "not exact"
        expect(hands.nth(index)).to_contain_text(f"(the table was {exact})")
    losses = page.locator("#review-losses li")  # two in this game (the third hand's)
    expect(losses).to_have_count(2)
    expect(losses.first).to_contain_text(f"% on the {CHANCE_UNIT.name}")
    expect(losses.first.locator(".review-figures")).to_contain_text("% \u00b1 ")
    assert "points" not in page.locator("#review").inner_text()
    assert page.console_errors == []  # type: ignore[attr-defined]
