"""Make the screenshots of the browser client in docs/images/ from the real page.

    .venv/bin/python docs/screenshots.py

starts `tricktaker serve` on a free loopback port with a fresh SQLite file, sets up
tables with bots over the HTTP API, plays seat 0 in Chromium (Debian's, or the one
``TRICKTAKER_CHROMIUM`` names) and saves:

- ``lobby.png``: the lobby;
- ``table.png``: a Blackout table in the middle of a hand, the person to play;
- ``scorecard.png``: the score sheet and its chart after six hands;
- ``phone.png``: a Pluck table on a phone-sized screen (390x844).

Seeds are fixed, so the pictures change only when the page does.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def server() -> Iterator[str]:
    """`tricktaker serve` on a fresh database; yields its address."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        args = [sys.executable, "-m", "tricktaker", "serve", "--port", str(port)]
        args += ["--db", f"sqlite:///{Path(tmp) / 'shots.sqlite3'}", "--no-rate-limits"]
        log = (Path(tmp) / "server.log").open("wb")
        process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"{url}/tables", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the server did not start: see {log.name}")
                time.sleep(0.2)
            yield url
        finally:
            process.terminate()
            process.wait(timeout=20)
            log.close()


def table(url: str, **body: Any) -> dict[str, Any]:
    """Create a table (POST /tables) with Ann in seat 0, and start it."""
    made: dict[str, Any] = httpx.post(
        f"{url}/tables", json={"host_seat": 0, "name": "Ann", **body}, timeout=30
    ).json()
    headers = {"Authorization": f"Bearer {made['host_token']}"}
    httpx.post(f"{url}/tables/{made['table']['id']}/start", headers=headers, timeout=30)
    return made


def sit(page: Page, url: str, made: dict[str, Any]) -> None:
    """Open the table in ``page`` with Ann's seat token stored as the lobby stores it."""
    table_id = made["table"]["id"]
    page.goto(f"{url}/")
    page.evaluate(
        """([id, token]) => {
            localStorage.setItem(`tricktaker.seat.${id}`, JSON.stringify({seat: 0, token}));
            localStorage.setItem("tricktaker.trickPauseMs", "0");
        }""",
        [table_id, made["seat_token"]],
    )
    page.goto(f"{url}/#/table/{table_id}")
    page.wait_for_selector(".tt-page .tt-seat")


def offered(page: Page) -> list[str]:
    """The actions the page offers Ann now."""
    actions: list[str] = page.eval_on_selector_all(
        ".tt-me [data-action]:not(.forbidden)", "els => els.map(e => e.dataset.action)"
    )
    return actions


def my_turn(page: Page) -> list[str]:
    """Wait for Ann's turn; answers what the page offers."""
    page.wait_for_function(
        "() => (document.querySelectorAll('.tt-me [data-action]').length > 0"
        " && !document.querySelector('.tt-page').dataset.pending)"
        " || document.querySelector('.tt-page').dataset.phase === 'game_over'"
    )
    return offered(page)


def act(page: Page, action: str) -> None:
    """Touch the control of ``action`` and wait for the server's answer."""
    page.locator(f'.tt-me [data-action="{action}"]').first.click()
    page.wait_for_function("() => !document.querySelector('.tt-page').dataset.pending")


def play_until(page: Page, hand: int, *, cards_on_table: int = 0) -> None:
    """Play Ann's turns (the lowest choice) until hand ``hand`` and her turn to play a
    card with ``cards_on_table`` cards already played to the trick."""
    while True:
        legal = my_turn(page)
        number = int(page.get_attribute(".tt-page", "data-hand") or 0)
        on_table = page.locator(".tt-trick .tt-played").count()
        if number >= hand and legal and legal[0].startswith("play") and on_table >= cards_on_table:
            return
        act(page, min(legal))


def shoot(page: Page, name: str) -> None:
    """Save the page's screen as docs/images/NAME.png and say its size."""
    path = IMAGES / f"{name}.png"
    page.screenshot(path=str(path))
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KiB")


def lobby(browser: Browser, url: str) -> None:
    page = browser.new_page(viewport=DESKTOP)  # type: ignore[arg-type]
    table(url, game="pluck", players=3, seats=["human", "human", "easy"], public=True)
    page.goto(f"{url}/#/")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)
    shoot(page, "lobby")
    page.close()


def blackout(browser: Browser, url: str) -> None:
    seats = ["human", "easy", "easy", "easy"]
    made = table(url, game="blackout", players=4, seats=seats, seed=21)
    page = browser.new_page(viewport=DESKTOP)  # type: ignore[arg-type]
    sit(page, url, made)
    play_until(page, 5, cards_on_table=2)
    shoot(page, "table")
    play_until(page, 7)
    page.get_by_role("button", name="Scorecard").click()
    page.locator(".tt-score").scroll_into_view_if_needed()
    path = IMAGES / "scorecard.png"
    page.locator(".tt-score").screenshot(path=str(path))
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KiB")
    page.close()


def phone(browser: Browser, url: str) -> None:
    made = table(url, game="pluck", players=3, seats=["human", "easy", "easy"], seed=4)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)  # type: ignore[arg-type]
    page = context.new_page()
    sit(page, url, made)
    play_until(page, 1, cards_on_table=1)
    shoot(page, "phone")
    context.close()


def main() -> None:
    """Make every screenshot."""
    IMAGES.mkdir(parents=True, exist_ok=True)
    chromium = os.environ.get("TRICKTAKER_CHROMIUM", "/usr/bin/chromium")
    with server() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=CHROMIUM_ARGS, headless=True
        )
        try:
            lobby(browser, url)
            blackout(browser, url)
            phone(browser, url)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
