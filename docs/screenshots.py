"""Make the screenshots of the browser client in docs/images/ from the real page.

    .venv/bin/python docs/screenshots.py

starts `tricktaker serve` on a free loopback port with a fresh SQLite file, sets up
tables with bots over the HTTP API, plays seat 0 in Chromium (Debian's, or the one
``TRICKTAKER_CHROMIUM`` names) and saves, each at a laptop's size (``-desktop``,
1280x800) and a phone's (``-phone``, 390x844):

- ``lobby``: the lobby, with an open table listed;
- ``bidding``: Ann's bid at a Blackout table (the bids so far against the tricks);
- ``play``: the same table in the middle of a trick, Ann to play;
- ``hand-result``: how a hand went, after its last card (and ``scorecard-desktop``: the
  table's score sheet and its chart);
- ``standings``: the final standings of a short Blackout game;
- ``scorekeeper``: a score sheet kept for a real-card game, after six hands;
- ``replay``: a finished game's replay, every hand shown;
- ``review``: the coach's review of a seat in a finished table's 13-hand Blackout game,
  in its replay (its losses ranked, the model beside them): a minute or two of review at
  the server's default budget;
- ``pluck-phone``, ``euchre-desktop``, ``buckup-desktop`` and ``dark-phone``: the other
  games' tables, and the dark theme.

Seeds are fixed, so the pictures change only when the page does. Names given on the
command line make only those pictures (``docs/screenshots.py review``).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
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
DESKTOP = {"width": 1280, "height": 800}
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


SHORT_BLACKOUT = """extends = "blackout"
id = "short_blackout"
name = "Quick Blackout"

[schedule]
sizes = "1..3"
"""
"""A Blackout of three hands, to reach the final standings quickly."""

NAMES = ["Ann", "Margaret", "Steve", "Betsy"]


def table(url: str, **body: Any) -> dict[str, Any]:
    """Create a table (POST /tables) with Ann in seat 0, and start it."""
    made: dict[str, Any] = httpx.post(
        f"{url}/tables", json={"host_seat": 0, "name": "Ann", **body}, timeout=30
    ).json()
    headers = {"Authorization": f"Bearer {made['host_token']}"}
    httpx.post(f"{url}/tables/{made['table']['id']}/start", headers=headers, timeout=30)
    return made


def new_page(browser: Browser, size: dict[str, int], theme: str | None = None) -> Page:
    """A page in a fresh context of ``size`` (a phone's is a touch screen), with the
    reader's ``theme`` chosen."""
    phone = size["width"] < 500
    context = browser.new_context(
        viewport=size,  # type: ignore[arg-type]
        is_mobile=phone,
        has_touch=phone,
        reduced_motion="reduce",
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    if theme is not None:
        page.add_init_script(f"localStorage.setItem('tricktaker.theme', '{theme}')")
    return page


def sit(page: Page, url: str, made: dict[str, Any]) -> None:
    """Open the table in ``page`` with Ann's seat token stored as the lobby stores it."""
    table_id = made["table"]["id"]
    page.goto(f"{url}/")
    page.evaluate(
        """([id, token, host]) => {
            localStorage.setItem(`tricktaker.seat.${id}`, JSON.stringify({seat: 0, token}));
            localStorage.setItem(`tricktaker.host.${id}`, host);
            localStorage.setItem("tricktaker.trickPauseMs", "0");
        }""",
        [table_id, made["seat_token"], made["host_token"]],
    )
    page.goto(f"{url}/#/table/{table_id}")
    page.wait_for_selector(".tt-page .tt-seat")


def offered(page: Page) -> list[str]:
    """The actions the page offers Ann now."""
    actions: list[str] = page.eval_on_selector_all(
        ".tt-me [data-action]:not(.forbidden)", "els => els.map(e => e.dataset.action)"
    )
    return actions


def state(page: Page) -> dict[str, Any]:
    """What the page shows now: the phase, the hand number, cards on the table, whether
    the hand result is up, and whether an action waits for the server."""
    found: dict[str, Any] = page.evaluate(
        """() => {
            const root = document.querySelector('.tt-page');
            return {
                phase: root?.dataset.phase ?? '',
                hand: Number(root?.dataset.hand || 0),
                pending: !!root?.dataset.pending,
                result: !!document.querySelector('.tt-dialog.tt-result'),
                dialog: !!document.querySelector('.tt-dialog'),
                onTable: document.querySelectorAll('.tt-trick .tt-played').length,
            };
        }"""
    )
    return found


def choose(legal: list[str]) -> str:
    """Ann's choice: stay in (Buckup), end a call, else the first action in text order."""
    for preferred in ("stay", "call_done"):
        if preferred in legal:
            return preferred
    return min(legal)


def touch(page: Page, action: str) -> None:
    """Touch the control of ``action`` (a card of the fanned hand at its visible corner)
    and wait for the server's answer."""
    target = page.locator(f'.tt-me [data-action="{action}"]').first
    is_card = "tt-card" in (target.get_attribute("class") or "").split()
    target.click(position={"x": 8, "y": 16} if is_card else None)
    page.wait_for_function("() => !document.querySelector('.tt-page').dataset.pending")


def play(
    page: Page, stop: Callable[[dict[str, Any], list[str]], bool], limit_s: float = 180
) -> None:
    """Take Ann's turns until ``stop(shown, offered)`` holds; hand results are closed
    unless ``stop`` wants one."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        shown = state(page)
        legal = offered(page) if not shown["pending"] and not shown["dialog"] else []
        if stop(shown, legal):
            return
        if shown["result"]:
            page.locator(".tt-dialog .tt-next").click()
            continue
        if shown["phase"] == "game_over":
            raise SystemExit("the game ended before the picture")
        if legal:
            touch(page, choose(legal))
        else:
            page.wait_for_timeout(50)
    raise SystemExit("the table did not reach the picture in time")


def shoot(page: Page, name: str, *, settle_ms: int = 400) -> None:
    """Save the page's screen as docs/images/NAME.png and say its size."""
    page.wait_for_timeout(settle_ms)
    path = IMAGES / f"{name}.png"
    page.screenshot(path=str(path))
    print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KiB")


def lobby(browser: Browser, url: str) -> None:
    table(url, game="pluck", players=3, seats=["human", "open", "easy"], public=True)
    for suffix, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page = new_page(browser, size)
        page.goto(f"{url}/#/")
        page.wait_for_load_state("networkidle")
        shoot(page, f"lobby-{suffix}", settle_ms=800)
        page.context.close()


def blackout(browser: Browser, url: str, suffix: str, size: dict[str, int]) -> None:
    """Bidding, play and the hand result at a Blackout table with three bots."""
    made = table(url, game="blackout", players=4, seats=["human", "easy", "easy", "easy"], seed=21)
    page = new_page(browser, size)
    sit(page, url, made)
    play(page, lambda shown, legal: shown["hand"] >= 5 and any(a.startswith("bid") for a in legal))
    shoot(page, f"bidding-{suffix}")
    play(
        page,
        lambda shown, legal: shown["onTable"] >= 2 and any(a.startswith("play") for a in legal),
    )
    shoot(page, f"play-{suffix}")
    play(page, lambda shown, _: shown["result"])
    shoot(page, f"hand-result-{suffix}")
    if suffix == "desktop":
        page.locator(".tt-dialog .tt-next").click()
        page.get_by_role("button", name="Scorecard").click()
        shoot(page, "scorecard-desktop", settle_ms=800)
    page.context.close()


def standings(browser: Browser, url: str, suffix: str, size: dict[str, int]) -> None:
    """The final standings of a three-hand Blackout."""
    seats = ["human", "easy", "easy", "easy"]
    made = table(url, ruleset_toml=SHORT_BLACKOUT, players=4, seats=seats, seed=8)
    page = new_page(browser, size)
    sit(page, url, made)
    play(page, lambda shown, _: shown["phase"] == "game_over" and not shown["result"])
    shoot(page, f"standings-{suffix}", settle_ms=800)
    page.context.close()


def other_game(browser: Browser, url: str, name: str, size: dict[str, int], **body: Any) -> None:
    """Another game's table in the middle of a hand, Ann to play a card."""
    theme = body.pop("theme", None)
    made = table(url, **body)
    page = new_page(browser, size, theme=theme)
    sit(page, url, made)
    play(
        page,
        lambda shown, legal: shown["onTable"] >= 1 and any(a.startswith("play") for a in legal),
    )
    shoot(page, name)
    page.context.close()


def scorekeeper(browser: Browser, url: str) -> None:
    """A Blackout score sheet of a real-card game after six hands."""
    made = httpx.post(
        f"{url}/sheets", json={"game": "blackout", "players": NAMES}, timeout=30
    ).json()
    headers = {"Authorization": f"Bearer {made['edit_token']}"}
    hands = [
        ([0, 1, 0, 1], [0, 0, 0, 1]),
        ([1, 0, 1, 1], [1, 0, 1, 0]),
        ([1, 1, 0, 0], [1, 1, 1, 0]),
        ([2, 1, 0, 0], [2, 1, 0, 1]),
        ([1, 2, 1, 0], [1, 2, 1, 1]),
        ([2, 2, 1, 2], [2, 1, 1, 2]),
    ]
    for number, (bids, tricks) in enumerate(hands, start=1):
        reply = httpx.post(
            f"{url}/sheets/{made['id']}/hands",
            json={"id": f"shot-{number}", "hand": number, "bids": bids, "tricks": tricks},
            headers=headers,
            timeout=30,
        )
        if reply.status_code >= 400:
            raise SystemExit(f"hand {number} refused: {reply.text}")
    for suffix, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page = new_page(browser, size)
        page.goto(f"{url}/#/")
        page.evaluate(
            """m => localStorage.setItem('tricktaker.sheet.' + m.id, JSON.stringify({
                token: m.edit_token, view: m.view_key, game: m.sheet.game, name: m.sheet.name,
                players: m.sheet.players, created: Date.now()}))""",
            made,
        )
        page.goto(f"{url}/#/score/{made['id']}")
        page.wait_for_selector(".sk-entry")
        shoot(page, f"scorekeeper-{suffix}", settle_ms=800)
        page.context.close()


def replay(browser: Browser, url: str) -> None:
    """A finished Blackout game's replay, some way into its fourth hand."""
    from tricktaker import load_ruleset, new_game
    from tricktaker.bots import make_bot, play_game

    game = new_game(load_ruleset("blackout"), players=4, seed=5)
    play_game(game, [make_bot("easy", seed=seat) for seat in range(4)])
    record = game.record(names=NAMES).to_json()
    uploaded = httpx.post(f"{url}/api/replays", json=record, timeout=60).json()
    for suffix, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page = new_page(browser, size)
        page.goto(f"{url}/#/replay?r={uploaded['id']}")
        page.wait_for_selector(".replay")
        page.locator("body").press("PageDown")
        page.locator("body").press("PageDown")
        page.locator("body").press("PageDown")
        for _ in range(7):
            page.locator("body").press("ArrowRight")
        shoot(page, f"replay-{suffix}", settle_ms=800)
        page.context.close()


def review(browser: Browser, url: str) -> None:
    """The coach's review of the first seat of a finished Blackout table (four easy
    bots, 13 hands), its losses on screen, at each size."""
    made = httpx.post(
        f"{url}/tables", json={"game": "blackout", "players": 4, "seats": ["easy"] * 4, "seed": 5}
    ).json()
    table_id = made["table"]["id"]
    headers = {"Authorization": f"Bearer {made['host_token']}"}
    httpx.post(f"{url}/tables/{table_id}/start", headers=headers, timeout=30)
    while httpx.get(f"{url}/tables/{table_id}", timeout=30).json()["status"] != "finished":
        time.sleep(0.2)
    started = time.monotonic()
    for suffix, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page = new_page(browser, size)
        page.goto(f"{url}/#/replay/{table_id}")
        page.wait_for_selector(".replay")
        page.click("#replay-review")
        page.click("#review-start")
        page.wait_for_function(
            "document.getElementById('review-total') ||"
            " /^No review|failed/.test(document.getElementById('review-status').textContent)",
            timeout=600_000,
        )
        if not page.locator("#review-total").count():
            raise SystemExit(f"no review: {page.locator('#review-status').inner_text()}")
        if suffix == "desktop":
            print(f"the review took {time.monotonic() - started:.0f} s")
        page.locator("#review").scroll_into_view_if_needed()
        page.evaluate("document.getElementById('review').scrollIntoView({block: 'start'})")
        shoot(page, f"review-{suffix}", settle_ms=600)
        page.context.close()


def main(names: list[str] | None = None) -> None:
    """Make every screenshot (or the ones ``names`` names: ``review``)."""
    IMAGES.mkdir(parents=True, exist_ok=True)
    chromium = os.environ.get("TRICKTAKER_CHROMIUM", "/usr/bin/chromium")
    only = {"review": review}
    with server() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=CHROMIUM_ARGS, headless=True
        )
        if names:
            try:
                for name in names:
                    only[name](browser, url)
            finally:
                browser.close()
            return
        try:
            lobby(browser, url)
            for suffix, size in (("desktop", DESKTOP), ("phone", PHONE)):
                blackout(browser, url, suffix, size)
                standings(browser, url, suffix, size)
            scorekeeper(browser, url)
            replay(browser, url)
            review(browser, url)
            pluck = ["human", "easy", "easy"]
            other_game(
                browser, url, "pluck-phone", PHONE, game="pluck", players=3, seats=pluck, seed=4
            )
            four = ["human", "easy", "easy", "easy"]
            other_game(
                browser,
                url,
                "euchre-desktop",
                DESKTOP,
                game="euchre",
                players=4,
                seats=four,
                seed=3,
            )
            six = ["human", "easy", "easy", "easy", "easy", "easy"]
            other_game(
                browser, url, "buckup-desktop", DESKTOP, game="buckup", players=6, seats=six, seed=2
            )
            other_game(
                browser,
                url,
                "dark-phone",
                PHONE,
                game="blackout",
                players=4,
                seats=four,
                seed=9,
                theme="dark",
            )
        finally:
            browser.close()


if __name__ == "__main__":
    main(sys.argv[1:])
