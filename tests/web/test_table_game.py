"""The rebuilt browser table in a real Chromium against the real server (issue 26): a
whole game of Blackout with two people in two browsers and two bots, where each person
sees the bids line, whose turn it is and the hand result after every hand (until they
move on), then the final standings; undo at a practice table (the card comes back to the
hand) and its refusal (nothing to take back yet; a table with a second person); the
page's themes; a spectator's hand result that moves on by itself."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Page, expect

from tests.server_process import ServerProcess
from tests.web.axe import assert_accessible_in_themes, require_axe
from tests.web.conftest import PHONE, NewPage, create_table
from tests.web.table_helpers import (
    choose,
    hand_cards,
    offered,
    phase,
    result_open,
    settled,
    sit,
    start,
    touch,
)

SHORT_BLACKOUT = """\
extends = "blackout"
id = "short_blackout"
name = "Blackout"

[schedule]
sizes = "1..3"
"""
"""Blackout of three hands (1, 2 and 3 cards): docs/games/blackout.md with a shorter
schedule, as a house-rules file may give it (docs/rulesets.md)."""

RESULT_TITLE = re.compile(r"(?:Hand (\d+) result|Last hand: hand (\d+))")


def join(server: ServerProcess, table_id: str, invite: str, name: str) -> dict[str, str]:
    """Take a free seat with the invite code (``POST /tables/{id}/join``)."""
    reply = httpx.post(
        f"{server.url}/tables/{table_id}/join", json={"invite": invite, "name": name}, timeout=30
    )
    assert reply.status_code == 200, reply.text
    data: dict[str, str] = reply.json()
    return data


def read_result(page: Page) -> int:
    """The hand number of the hand result that is up, checked: one row per player with
    a bid, the tricks and the points, and focus on its button; then closed with Enter."""
    dialog = page.locator(".tt-dialog.tt-result")
    expect(dialog).to_have_attribute("role", "dialog")
    title = dialog.locator("h2").inner_text()
    found = RESULT_TITLE.fullmatch(title)
    assert found, title
    expect(dialog.locator("tbody tr")).to_have_count(4)
    expect(dialog.locator("thead")).to_contain_text("Bid")
    expect(dialog.locator("thead")).to_contain_text("Points")
    expect(dialog.locator(".tt-next")).to_be_focused()
    page.keyboard.press("Enter")
    expect(dialog).to_have_count(0)
    return int(found.group(1) or found.group(2))


def check_turn(me: Page, other: Page, my_name: str) -> None:
    """It is ``me``'s turn: the page says so and rings its seat; the other person's page
    shows whose turn it is; the bids line is up in both."""
    expect(me.locator(".tt-turn")).to_have_text("Your turn")
    expect(me.locator(".tt-seat.me.to-act")).to_have_count(1)
    expect(other.locator(".tt-turn")).to_contain_text(re.compile(f"^{my_name} to (bid|play)$"))
    expect(me.locator(".tt-bids-line")).to_contain_text(re.compile(r"[Bb]ids"))


def test_a_whole_game_of_blackout_with_two_people_and_two_bots(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """docs/games/blackout.md (a three-hand schedule): Ann and Bob play with two bots;
    after every hand each of them sees the hand result (and the game waits for them:
    their next turn comes only once they move on); at every turn the turn line, the
    ring on the seat to act and the bids line are right; at the end both see the final
    standings with the winner, the replay and the record."""
    made = create_table(
        web_server,
        ruleset_toml=SHORT_BLACKOUT,
        players=4,
        seats=["human", "human", "easy", "easy"],
        host_seat=0,
        name="Ann",
        seed=21,
    )
    table_id = made["table"]["id"]
    bob_seat = join(web_server, table_id, made["invite"], "Bob")
    ann, bob = new_page(), new_page()
    sit(ann, web_server, table_id, seat=0, token=made["seat_token"], host_token=made["host_token"])
    sit(bob, web_server, table_id, seat=1, token=bob_seat["seat_token"])
    start(web_server, table_id, made["host_token"])

    seen: dict[str, list[int]] = {"Ann": [], "Bob": []}
    pages = {"Ann": (ann, bob), "Bob": (bob, ann)}
    for _ in range(600):
        if all(phase(p) == "game_over" and not result_open(p) for p in (ann, bob)):
            break
        moved = False
        for name, (me, other) in pages.items():
            if result_open(me):
                seen[name].append(read_result(me))
                moved = True
                continue
            if not settled(me) or not offered(me):
                continue
            check_turn(me, other, name)
            touch(me, choose(offered(me)))
            me.wait_for_function("() => !document.querySelector('.tt-page').dataset.pending")
            moved = True
        if not moved:
            ann.wait_for_timeout(50)
    assert seen == {"Ann": [1, 2, 3], "Bob": [1, 2, 3]}, seen

    for page in (ann, bob):
        over = page.locator(".tt-over")
        expect(over).to_be_visible()
        expect(over).to_contain_text("The game is over")
        expect(over.locator(".tt-standings li")).to_have_count(4)
        expect(over.locator(".tt-standings li.first").first).to_contain_text(
            re.compile("Ann|Bob|Cleo|Dot|[A-Z][a-z]+")
        )
        expect(over.locator(".tt-winner")).to_contain_text("!")
        expect(page.get_by_role("link", name="Replay this game")).to_be_visible()
        expect(page.get_by_role("link", name="Download the record")).to_be_visible()
        expect(page.locator(".tt-bids-line")).to_be_hidden()
    expect(ann.get_by_role("button", name="Rematch")).to_be_visible()
    expect(bob.get_by_role("button", name="Rematch")).to_have_count(0)  # the host's alone
    expect(bob.locator(".tt-undo")).to_be_hidden()  # two people: no practice table
    assert ann.console_errors == []  # type: ignore[attr-defined]
    assert bob.console_errors == []  # type: ignore[attr-defined]


def test_undo_at_a_practice_table_and_its_refusals(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """docs/protocol.md, Undo: alone with bots (a practice table), Ann is offered Undo;
    before she has done anything it is refused with the server's reason; after she plays
    a card, Undo brings the card back to her hand. At a table with a second person there
    is no Undo button, and Ctrl+Z is answered with the reason."""
    made = create_table(
        web_server,
        game="blackout",
        options={"reverse_deals": True},
        players=3,
        seats=["human", "easy", "easy"],
        host_seat=0,
        name="Ann",
        seed=5,
    )
    table_id = made["table"]["id"]
    page = new_page()
    sit(page, web_server, table_id, seat=0, token=made["seat_token"])
    start(web_server, table_id, made["host_token"])
    undo = page.get_by_role("button", name="Undo")
    expect(undo).to_be_visible()
    page.wait_for_function("() => document.querySelectorAll('.tt-me [data-action]').length > 0")
    bidding = [a for a in offered(page) if a.startswith("bid ")]
    if not any("bid " in line for line in page.locator(".tt-log li").all_inner_texts()):
        # Nothing of Ann's to take back yet: the server says so.
        undo.click()
        expect(page.locator(".tt-error")).to_have_text("Nothing to take back yet in this game.")
    touch(page, bidding[0])
    page.wait_for_function("() => !document.querySelector('.tt-page').dataset.pending")
    for _ in range(200):
        if settled(page) and offered(page) and offered(page)[0].startswith("play "):
            break
        page.wait_for_timeout(50)
    before = hand_cards(page)
    assert len(before) == 17
    card = offered(page)[0].split()[1]
    touch(page, f"play {card}")
    page.wait_for_function("() => !document.querySelector('.tt-page').dataset.pending")
    expect(page.locator(".tt-hand .tt-card")).to_have_count(16)
    assert card not in hand_cards(page)

    undo.click()
    expect(page.locator(".tt-hand .tt-card")).to_have_count(17)
    assert sorted(hand_cards(page)) == sorted(before)
    expect(page.locator(f'.tt-trick .tt-played[data-seat="0"] [data-card="{card}"]')).to_have_count(
        0
    )
    expect(page.locator(".tt-error")).to_have_text("")
    expect(page.locator(f'.tt-me [data-action="play {card}"]')).to_have_count(1)

    # A table with a second person: no Undo, and Ctrl+Z is told why.
    duo = create_table(
        web_server,
        game="blackout",
        players=3,
        seats=["human", "human", "easy"],
        host_seat=0,
        name="Ann",
        seed=5,
    )
    duo_id = duo["table"]["id"]
    join(web_server, duo_id, duo["invite"], "Bob")
    other = new_page()
    sit(other, web_server, duo_id, seat=0, token=duo["seat_token"])
    start(web_server, duo_id, duo["host_token"])
    expect(other.locator(".tt-hand .tt-card").first).to_be_visible()
    expect(other.locator(".tt-undo")).to_be_hidden()
    other.locator(".tt-felt").click(position={"x": 5, "y": 5})
    other.keyboard.press("Control+z")
    expect(other.locator(".tt-error")).to_have_text(
        "Undo is only for practice tables: another person plays here."
    )
    assert page.console_errors == []  # type: ignore[attr-defined]
    assert other.console_errors == []  # type: ignore[attr-defined]


def test_themes_are_chosen_remembered_and_a_spectator_moves_on(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """The top bar's theme menu draws the page dark or in high contrast and is
    remembered after a reload; sound is off until switched on. A spectator of a table
    of bots sees each hand result, which moves on by itself."""
    made = create_table(
        web_server,
        ruleset_toml=SHORT_BLACKOUT,
        players=3,
        seats=["easy", "easy", "easy"],
        seed=2,
    )
    table_id = made["table"]["id"]
    page = new_page()
    page.goto(f"{web_server.url}/")
    page.evaluate(
        "() => { localStorage.setItem('tricktaker.trickPauseMs', '0');"
        " localStorage.setItem('tricktaker.resultPauseMs', '300'); }"
    )
    page.goto(f"{web_server.url}/#/table/{table_id}?watch=1")
    page.wait_for_selector(".tt-page .tt-seat")
    start(web_server, table_id, made["host_token"])
    expect(page.locator(".tt-page")).to_have_attribute("data-phase", "game_over", timeout=60_000)
    expect(page.locator(".tt-over")).to_be_visible()
    expect(page.locator(".tt-over .tt-standings li")).to_have_count(3)
    expect(page.get_by_label("sound")).not_to_be_checked()

    theme = page.get_by_label("Theme")
    theme.select_option("dark")
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(21, 24, 27)", background
    theme.select_option("contrast")
    page.reload()
    expect(page.locator(".tt-page")).to_have_attribute("data-phase", "game_over")
    assert page.evaluate("() => document.documentElement.dataset.theme") == "contrast"
    expect(page.get_by_label("Theme")).to_have_value("contrast")
    background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(0, 0, 0)", background
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_the_table_is_accessible_in_every_theme(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """Issue 26, accessibility: axe-core finds no serious violation on the table while
    waiting for the players, bidding and playing, in the hand result and the final
    standings, in the light, dark and high-contrast themes, at desktop and phone sizes;
    the live region tells each event."""
    require_axe()
    made = create_table(
        web_server,
        ruleset_toml=SHORT_BLACKOUT,
        players=4,
        seats=["human", "easy", "easy", "easy"],
        host_seat=0,
        name="Ann",
        seed=3,
    )
    table_id = made["table"]["id"]
    page = new_page()
    sit(page, web_server, table_id, seat=0, token=made["seat_token"], host_token=made["host_token"])
    expect(page.locator(".tt-waiting")).to_be_visible()
    assert_accessible_in_themes(page, "table, waiting for the players")
    start(web_server, table_id, made["host_token"])
    checked: set[str] = set()
    for _ in range(600):
        if phase(page) == "game_over" and not result_open(page):
            break
        if result_open(page):
            if "result" not in checked:
                assert_accessible_in_themes(page, "table, hand result")
                checked.add("result")
            page.locator(".tt-dialog .tt-next").click()
            continue
        if not settled(page) or not offered(page):
            page.wait_for_timeout(50)
            continue
        now = phase(page)
        if now in ("bidding", "playing") and now not in checked:
            assert_accessible_in_themes(page, f"table, {now}")
            checked.add(now)
        touch(page, choose(offered(page)))
        page.wait_for_function("() => !document.querySelector('.tt-page').dataset.pending")
    assert checked == {"bidding", "playing", "result"}, checked
    expect(page.locator(".tt-over")).to_be_visible()
    assert_accessible_in_themes(page, "table, final standings")
    expect(page.locator(".tt-live")).not_to_be_empty()
    phone = new_page(viewport=PHONE, has_touch=True, is_mobile=True)
    sit(phone, web_server, table_id, seat=0, token=made["seat_token"])
    expect(phone.locator(".tt-over")).to_be_visible()
    assert_accessible_in_themes(phone, "table, phone, final standings")
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_a_refusal_writes_cards_with_suit_symbols_and_help_clears_it(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """Issue 26, small defects: a card the server names in a refusal is written as 3♦,
    not 3D; asking for help with "?" clears the refusal instead of leaving it under the
    help. Game: docs/games/blackout.md (reverse_deals: 13 cards in the first hand)."""
    made = create_table(
        web_server,
        game="blackout",
        options={"reverse_deals": True},
        players=4,
        seats=["human", "easy", "easy", "easy"],
        host_seat=0,
        name="Ann",
        seed=6,
    )
    table_id = made["table"]["id"]
    page = new_page()
    sit(page, web_server, table_id, seat=0, token=made["seat_token"])
    start(web_server, table_id, made["host_token"])
    typed = page.get_by_label("Type a card like QD, or a bid number, then Enter")
    for _ in range(200):
        if settled(page) and offered(page) and offered(page)[0].startswith("play "):
            break
        if settled(page) and offered(page):
            touch(page, choose(offered(page)))
            page.wait_for_function("() => !document.querySelector('.tt-page').dataset.pending")
        else:
            page.wait_for_timeout(50)
    held = set(hand_cards(page))
    missing = next(
        f"{rank}{suit}"
        for suit in "DHSC"
        for rank in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
        if f"{rank}{suit}" not in held
    )
    symbol = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}[missing[-1]]
    typed.fill(f"play {missing.lower()}")
    page.keyboard.press("Enter")
    expect(page.locator(".tt-error")).to_have_text(
        f"you do not hold {missing[:-1]}{symbol} (play a card from your hand)"
    )
    typed.fill("?")
    page.keyboard.press("Enter")
    expect(page.locator(".tt-help")).to_contain_text("You may: play ")
    expect(page.locator(".tt-error")).to_have_text("")
    expect(page.locator(".tt-error")).to_be_hidden()
    assert page.console_errors == []  # type: ignore[attr-defined]


COUNT_MOTION = """() => {
    window.moved = 0;
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (...args) {
        window.moved += 1;
        return animate.apply(this, args);
    };
}"""
"""Count, in the page, the Web Animations started (cards flying, tricks sliding)."""


def test_cards_move_unless_reduced_motion_is_asked(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """Issue 26: a card played flies to the felt and a trick slides to its winner; with
    prefers-reduced-motion nothing moves (no animation at all, the turn's glow too)."""
    counts: dict[str, int] = {}
    for motion in ("no-preference", "reduce"):
        made = create_table(
            web_server,
            game="blackout",
            options={"reverse_deals": True},
            players=3,
            seats=["human", "easy", "easy"],
            host_seat=0,
            name="Ann",
            seed=4,
        )
        table_id = made["table"]["id"]
        page = new_page(reduced_motion=motion)
        page.add_init_script(f"({COUNT_MOTION})();")
        sit(page, web_server, table_id, seat=0, token=made["seat_token"], pause_ms=300)
        start(web_server, table_id, made["host_token"])
        plays = 0
        for _ in range(400):
            if plays >= 4:
                break
            if not settled(page) or not offered(page):
                page.wait_for_timeout(50)
                continue
            action = choose(offered(page))
            plays += action.startswith("play ")
            touch(page, action)
            page.wait_for_function("() => !document.querySelector('.tt-page').dataset.pending")
        assert plays >= 4
        counts[motion] = page.evaluate("() => window.moved")
        running = page.evaluate("() => document.getAnimations().length")
        if motion == "reduce":
            assert running == 0
    assert counts["no-preference"] > 0, counts
    assert counts["reduce"] == 0, counts


def test_the_hand_is_played_from_the_keyboard(web_server: ServerProcess, new_page: NewPage) -> None:
    """Issue 26, keyboard: the cards of the hand are buttons; the arrow keys, Home and End
    move along the hand, Enter plays the focused card, and the focus stays on the hand
    while the others play (docs/games/blackout.md, reverse_deals: 17 cards at three)."""
    made = create_table(
        web_server,
        game="blackout",
        options={"reverse_deals": True},
        players=3,
        seats=["human", "easy", "easy"],
        host_seat=0,
        name="Ann",
        seed=9,
    )
    table_id = made["table"]["id"]
    page = new_page()
    sit(page, web_server, table_id, seat=0, token=made["seat_token"])
    start(web_server, table_id, made["host_token"])
    for _ in range(200):
        if settled(page) and offered(page) and offered(page)[0].startswith("play "):
            break
        if settled(page) and offered(page):
            page.locator(".tt-controls .tt-act:not(.forbidden)").first.focus()
            page.keyboard.press("Enter")
            page.wait_for_function("() => !document.querySelector('.tt-page').dataset.pending")
        else:
            page.wait_for_timeout(50)
    cards = hand_cards(page)
    focused = "() => document.activeElement?.dataset.card ?? null"
    page.locator(".tt-hand .tt-card").first.focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate(focused) == cards[1]
    page.keyboard.press("End")
    assert page.evaluate(focused) == cards[-1]
    page.keyboard.press("Home")
    assert page.evaluate(focused) == cards[0]
    legal = {a.split()[1] for a in offered(page)}
    for _ in range(len(cards)):
        if page.evaluate(focused) in legal:
            break
        page.keyboard.press("ArrowRight")
    chosen = page.evaluate(focused)
    page.keyboard.press("Enter")
    expect(page.locator(".tt-hand .tt-card")).to_have_count(len(cards) - 1)
    assert chosen not in hand_cards(page)
    # The card played is gone: the focus is on the card now in its place, and stays on
    # the hand while the others play.
    page.wait_for_function("() => document.querySelectorAll('.tt-me [data-action]').length > 0")
    assert page.evaluate("() => !!document.activeElement?.closest('.tt-hand')")
    assert page.console_errors == []  # type: ignore[attr-defined]
