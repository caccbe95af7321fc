"""The browser table on a phone (a 390x844 viewport, touch): every card of the hand and
every control lies inside the screen without scrolling (13 cards in Blackout, 17 in
Pluck), nothing scrolls sideways, the cards are big enough to tap, and a tap plays; the
score sheet fits too (it scrolls inside its own box)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.server_process import ServerProcess
from tests.web.conftest import PHONE, NewPage, create_table
from tests.web.table_helpers import (
    choose,
    hand_number,
    next_hand,
    offered,
    settled,
    sit,
    start,
    touch,
)

WIDTH = PHONE["width"]
HEIGHT = PHONE["height"]
MIN_TAP = 40
"""The smallest width and height of a card to tap, in CSS pixels."""


def outside(page: Page) -> list[str]:
    """The visible controls of the table that reach outside the screen's width."""
    found: list[str] = page.evaluate(
        """(width) => {
            const bad = [];
            const all = document.querySelectorAll(
              '.tt-page button, .tt-page input, .tt-page select, .tt-page a, .tt-page .tt-card');
            for (const el of all) {
              const box = el.getBoundingClientRect();
              if (box.width === 0 || box.height === 0) continue;
              if (el.closest('.sc-scroll')) continue;  // the sheet scrolls in its own box
              if (box.left < -0.5 || box.right > width + 0.5) {
                bad.push(`${el.tagName} ${el.textContent.slice(0, 20)} ${box.left}-${box.right}`);
              }
            }
            return bad;
        }""",
        WIDTH,
    )
    return found


def check_fits(page: Page) -> None:
    """Nothing reaches past the phone's width, and the cards are tappable."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= WIDTH
    assert outside(page) == []
    # Measured in one call: the bots play on, and the hand may be drawn again between
    # two calls (a card from one drawing has no box in the next).
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('.tt-hand .tt-card')].map((card) => {
            const box = card.getBoundingClientRect();
            return {width: box.width, height: box.height};
        })"""
    )
    assert boxes
    for box in boxes:
        assert box["width"] >= MIN_TAP, box
        assert box["height"] >= MIN_TAP, box


def in_reach(page: Page) -> list[str]:
    """The cards of the hand and the choices that lie outside the screen as it is first
    shown (not scrolled): each one's whole box must be inside 390x844."""
    found: list[str] = page.evaluate(
        """([width, height]) => {
            const bad = [];
            if (window.scrollY !== 0) bad.push(`scrolled by ${window.scrollY}`);
            const all = document.querySelectorAll(
              '.tt-hand .tt-card, .tt-controls button, .tt-controls select, .tt-turn');
            for (const el of all) {
              const box = el.getBoundingClientRect();
              if (box.width === 0 || box.height === 0) continue;
              if (box.left < -0.5 || box.right > width + 0.5 || box.top < -0.5
                  || box.bottom > height + 0.5) {
                const name = el.getAttribute('aria-label') || el.textContent.slice(0, 20);
                bad.push(`${name} ${box.left}-${box.right} x ${box.top}-${box.bottom}`);
              }
            }
            return bad;
        }""",
        [WIDTH, HEIGHT],
    )
    return found


def my_turn(page: Page) -> list[str]:
    """Wait for this seat's turn; answers the actions offered."""
    page.wait_for_function(
        "() => document.querySelectorAll('.tt-me [data-action]').length > 0"
        " && !document.querySelector('.tt-page').dataset.pending"
    )
    return offered(page)


def tap(page: Page, action: str) -> None:
    """Tap the control or card of ``action`` and wait for the server's answer."""
    touch(page, action, tap=True)
    page.wait_for_function("() => !document.querySelector('.tt-page').dataset.pending")
    expect(page.locator(".tt-error")).to_have_text("")


@pytest.fixture
def phone(new_page: NewPage) -> Page:
    """A page the size of a phone, with touch."""
    return new_page(viewport=PHONE, has_touch=True, is_mobile=True)


def seat_at(server: ServerProcess, page: Page, **table: Any) -> None:
    """Create a table with seat 0 for ``page``, start it and open it."""
    made = create_table(server, host_seat=0, name="Ann", **table)
    table_id = made["table"]["id"]
    sit(page, server, table_id, seat=0, token=made["seat_token"])
    start(server, table_id, made["host_token"])


def test_a_four_player_table_fits_a_phone_through_three_hands(
    web_server: ServerProcess, phone: Page
) -> None:
    """Bids and cards are tapped on a phone for three hands of Blackout; at every turn
    every control is inside the screen, and so is the score sheet afterwards."""
    seat_at(
        web_server,
        phone,
        game="blackout",
        players=4,
        seats=["human", "random", "random", "random"],
        seed=11,
    )
    turns = 0
    while hand_number(phone) <= 3:
        if next_hand(phone):
            continue
        if not settled(phone) or not offered(phone):
            phone.wait_for_timeout(40)
            continue
        check_fits(phone)
        assert in_reach(phone) == []
        tap(phone, choose(offered(phone)))
        turns += 1
    assert turns >= 6
    next_hand(phone)
    phone.get_by_role("button", name="Scorecard").click()
    expect(phone.locator(".sc-table tbody tr")).to_have_count(3)
    check_fits(phone)
    assert phone.console_errors == []  # type: ignore[attr-defined]


def test_seventeen_cards_fit_a_phone(web_server: ServerProcess, phone: Page) -> None:
    """A Pluck hand of 17 cards wraps inside the screen; a card is played by a tap, once
    even when tapped twice in a hurry."""
    seat_at(
        web_server,
        phone,
        game="pluck",
        players=3,
        seats=["human", "random", "random"],
        seed=4,
    )
    legal = my_turn(phone)
    expect(phone.locator(".tt-hand .tt-card")).to_have_count(17)
    check_fits(phone)
    assert in_reach(phone) == []
    while not legal[0].startswith("play "):  # the trump call comes first when Ann deals
        tap(phone, choose(legal))
        legal = my_turn(phone)
    assert in_reach(phone) == []
    # A hurried double tap plays the card once (the second tap is not sent).
    phone.locator(f'.tt-me [data-action="{choose(legal)}"]').dblclick(position={"x": 8, "y": 16})
    phone.wait_for_function("() => !document.querySelector('.tt-page').dataset.pending")
    expect(phone.locator(".tt-error")).to_have_text("")
    expect(phone.locator(".tt-hand .tt-card")).to_have_count(16)
    check_fits(phone)
    assert phone.console_errors == []  # type: ignore[attr-defined]


def test_thirteen_cards_and_the_bids_fit_a_phone(web_server: ServerProcess, phone: Page) -> None:
    """docs/games/blackout.md, Options (reverse_deals: 13 cards each at four players in
    the first hand): the whole hand, the bid buttons and the bids line lie inside the
    screen without scrolling while bidding and while playing; the hand result fits too."""
    seat_at(
        web_server,
        phone,
        game="blackout",
        options={"reverse_deals": True},
        players=4,
        seats=["human", "random", "random", "random"],
        seed=3,
    )
    seen: set[str] = set()
    for _ in range(400):
        if seen >= {"bid", "play"}:
            break
        if next_hand(phone):
            continue
        if not settled(phone) or not offered(phone):
            phone.wait_for_timeout(40)
            continue
        legal = offered(phone)
        verb = legal[0].split()[0]
        if verb not in seen:
            if verb == "bid":
                expect(phone.locator(".tt-hand .tt-card")).to_have_count(13)
            check_fits(phone)
            assert in_reach(phone) == []
            bids = phone.locator(".tt-bids-line").bounding_box()
            assert bids is not None
            assert bids["y"] + bids["height"] <= HEIGHT
            seen.add(verb)
        tap(phone, choose(legal))
    assert seen >= {"bid", "play"}
    assert phone.console_errors == []  # type: ignore[attr-defined]
