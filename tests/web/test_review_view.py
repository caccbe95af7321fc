"""The coach's review in a finished table's replay, in a real Chromium (issue 29; docs/coach.md,
A review in the browser): Review opened, a seat picked, its losses listed costliest first
with the model beside them, a loss's link moving the replay to the moment before the
choice; at 390x844 nothing wider than the screen; no serious accessibility violation in
any theme (axe-core). No request leaves 127.0.0.1.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.server_process import ServerProcess, free_port
from tests.web.axe import assert_accessible_in_themes
from tests.web.conftest import PHONE, NewPage
from tests.web.test_lobby import assert_local, local_only
from tests.web.test_replay import finished_table
from tricktaker.coach.model import MODEL
from tricktaker.server.tables.reviews import DEALS_VARIABLE

DEALS = 8
"""The deals the server values each decision over in this test (its review budget)."""


@pytest.fixture
def review_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ServerProcess]:
    """The real server on a fresh SQLite file, reviewing over :data:`DEALS` deals."""
    monkeypatch.setenv(DEALS_VARIABLE, str(DEALS))
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'server.sqlite3'}", free_port(), tmp_path / "server.log"
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.slow
def test_the_review_lists_a_seats_losses_and_each_moves_the_replay(
    review_server: ServerProcess, new_page: NewPage
) -> None:
    """Seat 2's review of a hand of Pluck: asked for, then every hand's sentence, the
    losses ranked as the server's review ranks them, the model sentence; a loss's link
    shows the replay's frame before that choice; in another browser the review, made
    already, shows as soon as the seat is picked, and the phone layout fits 390 pixels."""
    table_id, record = finished_table(review_server)
    page = new_page()
    requests = local_only(page, review_server)
    page.goto(f"{review_server.url}/#/replay/{table_id}")
    steps = len(record["events"])
    expect(page.locator("#replay-status")).to_contain_text(f"step 0 of {steps}")
    expect(page.locator("#review")).to_be_hidden()
    page.click("#replay-review")
    expect(page.locator("#review-title")).to_have_text("Coach's review")
    names = page.locator("#review-seat option").all_inner_texts()
    assert len(names) == 3
    expect(page.locator("#review-status")).to_contain_text(
        f"{names[0]}'s decisions have not been reviewed yet"
    )
    page.select_option("#review-seat", "1")
    page.click("#review-start")
    expect(page.locator("#review-total")).to_contain_text(names[1], timeout=60_000)
    expect(page.locator("#review-status")).to_contain_text(f"({DEALS} deals a decision)")

    answer = httpx.get(
        f"{review_server.url}/tables/{table_id}/review", params={"seat": 1}, timeout=30
    ).json()
    review: dict[str, Any] = answer["review"]
    assert answer["status"] == "done"
    assert review["losses"], "a random bot's hand of Pluck with no costly choice"
    links = page.locator("#review-losses li .review-moment")
    expect(links).to_have_count(len(review["losses"]))
    events = [int(e) for e in links.evaluate_all("(all) => all.map((a) => a.dataset.event)")]
    assert events == [loss["event"] for loss in review["losses"]]
    expect(page.locator("#review-hands li")).to_have_count(len(review["hands"]))
    expect(page.locator("#review-hands li").first).to_contain_text(
        review["hands"][0]["summary"].split(" ")[0]
    )
    expect(page.locator("#review-model")).to_contain_text(MODEL.split(" (")[0])
    assert_accessible_in_themes(page, "review", include=["#review"])

    page_total = page.locator("#review-total").inner_text()
    last = review["losses"][-1]
    links.last.click()
    expect(links.last).to_have_attribute("aria-current", "step")
    expect(page.locator("#replay-status")).to_contain_text(f"step {last['event'] - 1} of {steps}")
    expect(page.locator("#replay-forward")).to_be_in_viewport()
    page.click("#replay-forward")  # the next step is the choice itself
    expect(page.locator("#replay-event")).to_contain_text(names[1])
    assert page.console_errors == []  # type: ignore[attr-defined]
    assert_local(requests, review_server)

    phone = new_page(viewport=PHONE)
    phone.goto(f"{review_server.url}/#/replay/{table_id}")
    phone.click("#replay-review")
    phone.select_option("#review-seat", "1")  # reviewed before: shown at once
    expect(phone.locator("#review-losses li")).to_have_count(len(review["losses"]))
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = phone.locator("#review-start").bounding_box()
    assert box is not None
    assert box["height"] >= 44
    assert box["x"] + box["width"] <= PHONE["width"]
    model = phone.locator("#review-model").bounding_box()
    assert model is not None
    assert model["x"] >= 0
    assert model["x"] + model["width"] <= PHONE["width"]

    # The same record opened as a file (tricktaker replay FILE --web): the same review.
    uploaded = httpx.post(f"{review_server.url}/api/replays", json=record, timeout=30).json()
    page.goto(f"{review_server.url}/#/replay?r={uploaded['id']}")
    page.click("#replay-review")
    page.select_option("#review-seat", "1")
    page.click("#review-start")
    expect(page.locator("#review-losses li")).to_have_count(len(review["losses"]))
    expect(page.locator("#review-total")).to_have_text(page_total)
