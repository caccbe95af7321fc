"""Make the pictures of duplicate play in docs/images/.

    .venv/bin/python docs/duplicate_screenshots.py

as docs/screenshots.py makes the others (its server, pages and helpers). Three people
play today's Blackout challenge, each at a table of their own against the challenge's
seeded bots (each person's play is a bot client of the command line, ``tricktaker
bot``, in their seat); ``duplicate-daily-desktop`` and ``duplicate-daily-phone``
(390x844) show the challenge's page with the standings (the people's; the bots are one
click away). A club's set ("Thursday club") is played at two tables, a person and three
bots at each; ``duplicate-set-desktop`` and ``duplicate-set-phone`` show its page: its
tables, the standings and the first entrant's hands, each compared with everyone who
held the same cards. Desktop pictures are the whole page; a phone's is its screen from
the standings.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

import screenshots as shots  # docs/screenshots.py, beside this file


def seat_player(url: str, made: dict[str, Any], bot: str, seed: int) -> subprocess.Popen[bytes]:
    """Start the table ``made`` and let a bot client play its person's seat 0 with the
    seat's token (the person's name stays the seat's)."""
    table_id = made["table"]["id"]
    headers = {"Authorization": f"Bearer {made['host_token']}"}
    httpx.post(f"{url}/tables/{table_id}/start", headers=headers, timeout=30)
    link = f"{url}/tables/{table_id}?invite={made['invite']}"
    command = [sys.executable, "-m", "tricktaker", "bot", link, "--token", made["seat_token"]]
    command += ["--bots", bot, "--seed", str(seed)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def wait_finished(url: str, table_ids: list[str]) -> None:
    """Wait until every table's game is over."""
    deadline = time.monotonic() + 600
    for table_id in table_ids:
        while httpx.get(f"{url}/tables/{table_id}", timeout=30).json()["status"] != "finished":
            if time.monotonic() > deadline:
                raise SystemExit(f"table {table_id} did not finish")
            time.sleep(0.5)


def full_page(page: Page, name: str, size: dict[str, int]) -> None:
    """The whole page at a desktop's width; on a phone the screen from the standings."""
    if size["width"] < 500:
        page.evaluate("document.querySelector('#dup-standings-title').scrollIntoView()")
        shots.shoot(page, name, settle_ms=600)
        return
    page.wait_for_timeout(600)
    path = shots.IMAGES / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    print(f"{path.relative_to(shots.ROOT)}: {path.stat().st_size // 1024} KiB")


def daily(browser: Browser, url: str) -> None:
    """Three people's tables of today's Blackout challenge, then its page in Ann's browser."""
    players = []
    tables = []
    first: dict[str, Any] = {}
    for seed, (name, bot) in enumerate((("Ann", "heuristic"), ("Ben", "random"), ("Cleo", "pimc"))):
        made = httpx.post(
            f"{url}/duplicate/daily/blackout/play", json={"name": name}, timeout=30
        ).json()
        players.append(seat_player(url, made, bot, seed))
        tables.append(made["table"]["id"])
        first = first or made
    wait_finished(url, tables)
    for process in players:
        process.wait(timeout=60)
    # Ann's browser, which holds her seat: the hands she finished are shown to her
    # (docs/duplicate.md, No peeking).
    held = json.dumps({"seat": 0, "token": first["seat_token"]})
    keep_seat = (
        f"localStorage.setItem({json.dumps('tricktaker.seat.' + tables[0])}, {json.dumps(held)});"
    )
    for suffix, size in (("desktop", shots.DESKTOP), ("phone", shots.PHONE)):
        page = shots.new_page(browser, size)
        page.add_init_script(keep_seat)
        page.goto(f"{url}/#/daily/blackout")
        page.locator("#dup-standings").wait_for()
        full_page(page, f"duplicate-daily-{suffix}", size)
        page.context.close()


def club_set(browser: Browser, url: str) -> None:
    """A club's set at two tables, a person and three bots at each, then its page."""
    made = httpx.post(
        f"{url}/duplicate",
        json={"game": "blackout", "players": 4, "seed": 12, "name": "Thursday club"},
        timeout=30,
    ).json()
    set_id, headers = made["set"]["id"], {"Authorization": f"Bearer {made['host_token']}"}
    players, tables = [], []
    for seed, (name, bot) in enumerate((("Dora", "heuristic"), ("Eli", "pimc"))):
        table = httpx.post(
            f"{url}/duplicate/{set_id}/tables",
            json={"seats": ["human", "easy", "easy", "easy"], "host_seat": 0, "name": name},
            headers=headers,
            timeout=30,
        ).json()
        players.append(seat_player(url, table, bot, 10 + seed))
        tables.append(table["table"]["id"])
    wait_finished(url, tables)
    for process in players:
        process.wait(timeout=60)
    for suffix, size in (("desktop", shots.DESKTOP), ("phone", shots.PHONE)):
        page = shots.new_page(browser, size)
        page.goto(f"{url}/#/duplicate/{set_id}")
        page.locator("#dup-standings").wait_for()
        full_page(page, f"duplicate-set-{suffix}", size)
        page.context.close()


def main() -> None:
    """Make the pictures."""
    shots.IMAGES.mkdir(parents=True, exist_ok=True)
    chromium = os.environ.get("TRICKTAKER_CHROMIUM", "/usr/bin/chromium")
    with shots.server() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=shots.CHROMIUM_ARGS, headless=True
        )
        try:
            daily(browser, url)
            club_set(browser, url)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
