"""Make the pictures of the coach's hint at the browser table in docs/images/.

    .venv/bin/python docs/hint_screenshots.py

as docs/screenshots.py makes the others (its server, pages and helpers): Ann alone with
three bots at a Blackout table (a practice table: hints are on), at her bid of the
fourth hand, presses Hint; ``hint-desktop`` (the whole page at 1280 wide, the "hints
on" badge by the title) and ``hint-phone`` (390x844, scrolled to the panel) show it:
every bid with its value and error, the chance of making it, the coach's choice and the
model. ``hint-coop-desktop`` is the same at a Cooperative Blackout table (three seats):
Ann's first bid from the third hand on with two bids or more to choose from; the values
there are the chance that the whole table is exact this hand, in percent.
``--coop`` makes that picture alone. Seeds are fixed; the values are sampled for a
second, so their last digits vary from one run to the next.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

import screenshots as shots  # docs/screenshots.py, beside this file


def hint(
    browser: Browser,
    url: str,
    suffix: str,
    size: dict[str, int],
    *,
    game: str = "blackout",
    seats: tuple[str, ...] = ("human", "easy", "easy", "easy"),
    from_hand: int = 4,
    least_bids: int = 1,
) -> None:
    """Ann's hint at her first bid from hand ``from_hand`` on with ``least_bids`` bids or
    more to choose from, the panel in view."""
    made = shots.table(url, game=game, players=len(seats), seats=list(seats), seed=21)
    page = shots.new_page(browser, size)
    shots.sit(page, url, made)
    shots.play(
        page,
        lambda shown, legal: (
            shown["hand"] >= from_hand and sum(a.startswith("bid") for a in legal) >= least_bids
        ),
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
    """Make the pictures (``--coop``: the cooperative one alone)."""
    coop_only = "--coop" in sys.argv[1:]
    shots.IMAGES.mkdir(parents=True, exist_ok=True)
    chromium = os.environ.get("TRICKTAKER_CHROMIUM", "/usr/bin/chromium")
    with shots.server() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=shots.CHROMIUM_ARGS, headless=True
        )
        try:
            if not coop_only:
                for suffix, size in (("desktop", shots.DESKTOP), ("phone", shots.PHONE)):
                    hint(browser, url, suffix, size)
            seats = ("human", "easy", "easy")
            hint(
                browser,
                url,
                "coop-desktop",
                shots.DESKTOP,
                game="coop_blackout",
                seats=seats,
                from_hand=3,
                least_bids=2,
            )
        finally:
            browser.close()


if __name__ == "__main__":
    main()
