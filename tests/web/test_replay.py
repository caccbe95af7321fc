"""Replays in a real Chromium: a record file stepped through event by event, trick by
trick and hand by hand with every hand shown; a finished table's game with its record to
download; ``tricktaker replay FILE --web``; the phone layout. No request leaves
127.0.0.1.

docs/protocol.md, HTTP API: GET /tables/{id}/record (public once the game is over).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, Response, expect

from tests.server_process import ServerProcess
from tests.web.conftest import PHONE, NewPage, create_table
from tests.web.test_lobby import assert_local, local_only
from tricktaker.bots import make_bot, play_game
from tricktaker.engine import GameRecord, new_game
from tricktaker.rules import load_ruleset


def record_file(
    folder: Path, game: str, players: int, seed: int, bot: str = "random", **options: object
) -> Path:
    """A whole game of ``bot`` bots saved as ``play --record`` saves it."""
    state = new_game(load_ruleset(game, options=options), players=players, seed=seed)
    play_game(state, [make_bot(bot, seed=seed + s) for s in range(players)])
    path = folder / f"{game}-{seed}.json"
    state.record().save(path)
    return path


def status(page: Page) -> str:
    return page.locator("#replay-status").inner_text()


def test_a_record_file_steps_through_by_event_trick_and_hand(
    module_server: ServerProcess, new_page: NewPage, tmp_path: Path
) -> None:
    """docs/games/pluck.md: 17 cards each; the replay shows all three hands, each trick
    with its winner, each hand's result on the sheet, and the final scores."""
    path = record_file(tmp_path, "pluck", 3, seed=7, hands=2)
    record = GameRecord.load(path)
    history = record.replay().history
    page = new_page()
    requests = local_only(page, module_server)
    page.goto(f"{module_server.url}/#/replay")
    page.set_input_files("#record-file", str(path))
    page.wait_for_url("**/#/replay?r=*")
    expect(page.locator("#replay-status")).to_contain_text(f"step 0 of {len(record.events)}")
    expect(page.locator("#replay-event")).to_have_text("Before the first deal.")
    page.click("#replay-forward")  # the deal: every hand shown
    expect(page.locator("#replay-event")).to_have_text("17 cards dealt to each.")
    expect(page.locator("#replay-said")).to_have_text(
        f"Step 1 of {len(record.events)}. 17 cards dealt to each."
    )
    for seat in range(3):
        cards = page.locator(f'.replay-seat[data-seat="{seat}"] .hand li')
        expect(cards).to_have_count(17)
    page.click("#replay-next-trick")
    first = history[0]
    winner = first.trick_winners[0]
    expect(page.locator("#replay-trick h3")).to_have_text(f"Trick won by Seat {winner + 1}")
    expect(page.locator("#replay-event")).to_contain_text(f"Seat {winner + 1} wins the trick")
    expect(page.locator("#replay-trick .trick-cards li")).to_have_count(3)
    expect(page.locator("#replay-status")).to_contain_text("Hand 1 of 2")
    for seat in range(3):  # one card played from each hand
        expect(page.locator(f'.replay-seat[data-seat="{seat}"] .hand li')).to_have_count(16)
    page.keyboard.press("Shift+ArrowRight")  # the second trick, from the keyboard
    expect(page.locator("#replay-trick h3")).to_have_text(
        f"Trick won by Seat {first.trick_winners[1] + 1}"
    )
    page.click("#replay-next-hand")
    expect(page.locator("#replay-status")).to_contain_text("Hand 2 of 2")
    expect(page.locator("#replay-hand option:checked")).to_have_text("Hand 2")
    rows = page.locator("#replay-sheet table.sc-table tbody tr")
    expect(rows).to_have_count(1)  # the first hand is over: the sheet of the table's page
    totals = page.locator("#replay-sheet tfoot .sc-totals td")
    expect(totals).to_have_text([str(t) for t in first.total_scores])
    page.keyboard.press("End")
    expect(page.locator("#replay-status")).to_contain_text("Game over")
    expect(rows).to_have_count(2)
    expect(totals).to_have_text([str(t) for t in history[1].total_scores])
    final = ", ".join(f"Seat {s + 1} {v}" for s, v in enumerate(record.final_scores or []))
    expect(page.locator(".replay-final")).to_contain_text(f"Final scores: {final}")
    page.keyboard.press("Home")
    expect(page.locator("#replay-status")).to_contain_text("step 0 of")
    assert page.console_errors == []  # type: ignore[attr-defined]
    assert_local(requests, module_server)


def test_a_long_games_record_opens_with_a_few_bytes_and_steps_to_its_last_hand(
    module_server: ServerProcess, new_page: NewPage, tmp_path: Path
) -> None:
    """docs/games/buckup.md, Options: four_card_deal lets 7 players play; a game of 200
    hands (hands, max_hands) of easy bots (random bots' pots outgrow the numbers a
    browser reads exactly), its record over the server's usual 64 KiB. The page opens
    it with fewer bytes than the record itself (the whole frames it once fetched were
    some 100 times the record), shows its first frame, and steps to the last hand and
    back across a hand's edge, fetching each hand's frames as it needs them."""
    path = record_file(
        tmp_path, "buckup", 7, seed=1, bot="easy", four_card_deal=True, hands=200, max_hands=200
    )
    record = GameRecord.load(path)
    size = len(json.dumps(record.to_json(), separators=(",", ":")))
    assert size > 64 * 1024
    page = new_page()
    answers: list[Response] = []
    page.on("response", lambda r: answers.append(r) if "/api/" in r.url else None)
    page.goto(f"{module_server.url}/#/replay")
    page.set_input_files("#record-file", str(path))
    page.wait_for_url("**/#/replay?r=*", timeout=30_000)
    steps = len(record.events)
    expect(page.locator("#replay-status")).to_contain_text(f"step 0 of {steps}")
    expect(page.locator("#replay-event")).to_have_text("Before the first deal.")
    expect(page.locator("#replay-hand option")).to_have_count(200)
    page.keyboard.press("ArrowRight")  # the dealer's choice of ante, then the deal:
    page.keyboard.press("ArrowRight")  # 7 hands of 4 cards, from the opening's frames
    expect(page.locator("#replay-said")).to_contain_text(
        f"Step 2 of {steps}. 4 cards dealt to each."
    )
    expect(page.locator(".replay-seat .hand li")).to_have_count(28)
    opening = [a for a in answers if re.search(r"/api/replays(/[^/]+)?$", a.url)]
    assert [a.request.method for a in opening] == ["POST", "GET"]
    for answer in opening:  # the record sent, then the replay opened at its address
        assert len(answer.body()) < size, (answer.url, len(answer.body()), size)
    before = len(answers)
    page.locator("#replay-step").fill(str(steps // 2))  # the slider, to the middle
    expect(page.locator("#replay-status")).to_contain_text(f"step {steps // 2} of {steps}")
    expect(page.locator("#replay-said")).to_contain_text(f"Step {steps // 2} of {steps}.")
    asked = [int(a.url.rsplit("/", 1)[-1]) for a in answers[before:] if "/hands/" in a.url]
    # The opening's prefetch of hand 2 may answer late, under load; besides it, only the
    # middle's hand and those either side of it are fetched.
    near = sorted(n for n in asked if n != 2)
    assert 1 <= len(near) <= 3, asked
    assert near[-1] - near[0] <= 2, asked
    page.locator("#replay-step").blur()  # the page's keys again, not the slider's
    before = len(answers)
    page.keyboard.press("End")
    expect(page.locator("#replay-status")).to_contain_text("Game over")
    expect(page.locator("#replay-status")).to_contain_text(f"step {steps} of {steps}")
    expect(page.locator("#replay-hand option:checked")).to_have_text("Hand 200")
    expect(page.locator(".replay-final")).to_contain_text("Final scores:")
    expect(page.locator("#replay-sheet table.sc-table tbody tr")).to_have_count(200)
    hands = [a for a in answers[before:] if "/hands/" in a.url]
    assert hands
    assert all(len(a.body()) < 64 * 1024 for a in hands)
    assert any(a.url.endswith("/hands/200") for a in hands)
    page.keyboard.press("PageUp")  # the start of the last hand: the end of hand 199
    expect(page.locator("#replay-status")).to_contain_text("Hand 200")
    at = int(re.findall(r"step (\d+) of", status(page))[0])
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-status")).to_contain_text(f"step {at + 1} of {steps}")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # into hand 199's frames
    expect(page.locator("#replay-status")).to_contain_text(f"step {at - 1} of {steps}")
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_a_file_that_is_not_a_record_is_refused_with_a_reason(
    module_server: ServerProcess, new_page: NewPage, tmp_path: Path
) -> None:
    bad = tmp_path / "notes.json"
    bad.write_text('{"hello": 1}', encoding="utf-8")
    page = new_page()
    page.goto(f"{module_server.url}/#/replay")
    page.set_input_files("#record-file", str(bad))
    expect(page.locator("#record-error")).to_contain_text("notes.json cannot be replayed")
    expect(page.locator("#record-error")).to_contain_text("not a tricktaker record")


def finished_table(server: ServerProcess) -> tuple[str, dict[str, Any]]:
    """A table of bots that has played one hand of Pluck to the end, and its record."""
    created = create_table(
        server, game="pluck", options={"hands": 1}, seats=["random"] * 3, seed=11
    )
    table_id = created["table"]["id"]
    headers = {"Authorization": f"Bearer {created['host_token']}"}
    started = httpx.post(f"{server.url}/tables/{table_id}/start", headers=headers, timeout=30)
    assert started.status_code == 204, started.text
    deadline = time.monotonic() + 60
    while httpx.get(f"{server.url}/tables/{table_id}", timeout=30).json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    record: dict[str, Any] = httpx.get(f"{server.url}/tables/{table_id}/record", timeout=30).json()
    return table_id, record


def test_a_finished_tables_game_replays_and_its_record_downloads(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """A table's game, once over: stepped through, and its record downloaded as the
    same JSON that GET /tables/{id}/record answers."""
    table_id, record = finished_table(web_server)
    page = new_page(accept_downloads=True)
    requests = local_only(page, web_server)
    page.goto(f"{web_server.url}/#/replay/{table_id}")
    expect(page.locator("#replay-status")).to_contain_text(f"step 0 of {len(record['events'])}")
    names = httpx.get(f"{web_server.url}/api/tables/{table_id}/replay", timeout=30).json()["names"]
    assert len(set(names)) == 3  # the record's names, else the table's
    expect(page.locator(".replay-seat h3")).to_contain_text(names)
    page.click("#replay-end")
    expect(page.locator("#replay-status")).to_contain_text("Game over")
    with page.expect_download() as download:
        page.click("#download-record")
    saved = download.value.path()
    assert json.loads(Path(saved).read_text(encoding="utf-8")) == record
    assert download.value.suggested_filename == f"pluck-{table_id}.json"
    assert_local(requests, web_server)


def test_replay_web_serves_and_opens_the_record(new_page: NewPage, tmp_path: Path) -> None:
    """``tricktaker replay FILE --web`` serves the replay on a free loopback port and
    prints its address (the browser it opens here is a command that does nothing)."""
    path = record_file(tmp_path, "euchre", 4, seed=3)
    env = {**os.environ, "BROWSER": "true", "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "tricktaker", "replay", str(path), "--web"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"(http://127\.0\.0\.1:\d+)/#/replay\?r=\S+", line)
        assert found, line
        page = new_page()
        page.goto(found[0])
        expect(page.locator("#replay-title")).to_have_text(load_ruleset("euchre").name)
        events = len(GameRecord.load(path).events)
        expect(page.locator("#replay-status")).to_contain_text(f"step 0 of {events}")
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_the_replay_fits_a_phone(
    module_server: ServerProcess, new_page: NewPage, tmp_path: Path
) -> None:
    """At 390x844: nothing wider than the screen, controls big enough to tap, cards with
    names a screen reader reads."""
    path = record_file(tmp_path, "blackout", 4, seed=2)
    body = json.loads(path.read_text(encoding="utf-8"))
    replay = httpx.post(f"{module_server.url}/api/replays", json=body, timeout=30).json()
    page = new_page(viewport=PHONE)
    page.goto(f"{module_server.url}/#/replay?r={replay['id']}")
    page.click("#replay-next-hand")
    page.click("#replay-next-hand")
    page.click("#replay-forward")
    expect(page.locator(".replay-seat .hand li").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for button in page.locator(".replay-controls button").all():
        box = button.bounding_box()
        assert box is not None
        assert box["height"] >= 44
        assert box["x"] + box["width"] <= PHONE["width"]
    label = page.locator(".replay-seat .hand [role=img]").first.get_attribute("aria-label")
    assert label is not None
    assert re.fullmatch(
        r"(ace|king|queen|jack|\d+|ten|nine|eight|seven|six|five|four|three|two)"
        r" of (clubs|diamonds|hearts|spades)",
        label,
    ), label
