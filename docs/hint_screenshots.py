"""Make the pictures of the coach's hint at the browser table in docs/images/.

    .venv/bin/python docs/hint_screenshots.py

as docs/screenshots.py makes the others (its server, pages and helpers): Ann alone with
three bots at a Blackout table (a practice table: hints are on), at her bid of the
fourth hand, presses Hint; ``hint-desktop`` (the whole page at 1280 wide, the "hints
on" badge by the title) and ``hint-phone`` (390x844, scrolled to the panel) show it:
every bid with its value and error, the chance of making it, the coach's choice and the
model. Seeds are fixed; the values are sampled for a second, so their last digits vary
from one run to the next.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

import screenshots as shots  # docs/screenshots.py, beside this file


def hint(browser: Browser, url: str, suffix: str, size: dict[str, int]) -> None:
    """Ann's hint at her fourth bid, the panel in view."""
    seats = ["human", "easy", "easy", "easy"]
    made = shots.table(url, game="blackout", players=4, seats=seats, seed=21)
    page = shots.new_page(browser, size)
    shots.sit(page, url, made)
    shots.play(
        page, lambda shown, legal: shown["hand"] >= 4 and any(a.startswith("bid") for a in legal)
    )
    page.locator(".tt-me .tt-hint").click()
    panel = page.locator(".tt-hint-panel")
    panel.wait_for(state="visible", timeout=30_000)
    if size["width"] < 500:  # the panel under the choices: scrolled up into view
        page.evaluate("document.querySelector('.tt-hint-panel').scrollIntoView({block: 'end'})")
        shots.shoot(page, f"hint-{suffix}", settle_ms=600)
    else:  # the whole page: the "hints on" badge by the title, the panel under the bids
        page.wait_for_timeout(600)
        path = shots.IMAGES / f"hint-{suffix}.png"
        page.screenshot(path=str(path), full_page=True)
        print(f"{path.relative_to(shots.ROOT)}: {path.stat().st_size // 1024} KiB")
    page.context.close()


def main() -> None:
    """Make both pictures."""
    shots.IMAGES.mkdir(parents=True, exist_ok=True)
    chromium = os.environ.get("TRICKTAKER_CHROMIUM", "/usr/bin/chromium")
    with shots.server() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=shots.CHROMIUM_ARGS, headless=True
        )
        try:
            for suffix, size in (("desktop", shots.DESKTOP), ("phone", shots.PHONE)):
                hint(browser, url, suffix, size)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
