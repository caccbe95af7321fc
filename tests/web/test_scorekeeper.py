"""The browser scorekeeper (docs/scorekeeper.md, In the browser): a phone keeps a few
hands of Blackout with the big buttons, a second browser follows the read-only link,
a bid the rules refuse shows the rule, and a hand entered offline is saved once the
connection is back. The real server runs as a subprocess; the browser is Chromium."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.server_process import ServerProcess
from tests.web.conftest import PHONE, NewPage
from tricktaker.scorekeeper import ScoreSheet

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def start_sheet(page: Page, server: ServerProcess, *, hook: bool) -> None:
    """Start a Blackout sheet from the page's form, reached from the lobby's Keep score
    link (Ann deals first)."""
    page.goto(f"{server.url}/#/")
    page.get_by_role("link", name="Keep score").click()
    page.select_option("#sk-game", "blackout")
    if hook:
        page.check("#sk-opt-hook")
    for seat, name in enumerate(PLAYERS):
        page.fill(f"#sk-name-{seat}", name)
    page.get_by_role("button", name="Start the sheet").click()
    expect(page.locator(".sk-entry")).to_be_visible()


def tap(page: Page, value: int) -> None:
    """Tap a number on the big buttons (a bid, or a player's tricks): big enough for a
    thumb and within the screen's width."""
    button = page.locator(f".sk-numbers button[data-value='{value}']")
    expect(button).to_be_visible()
    expect(button).to_be_enabled()
    # The page may draw its buttons again (when the sheet's poll answers) between two
    # calls, and a button being replaced has no box for a moment: measure until it has.
    box: dict[str, float] = {}
    for _ in range(50):
        box = button.evaluate(
            "b => { const r = b.getBoundingClientRect();"
            " return {x: r.x, width: r.width, height: r.height}; }"
        )
        if box["height"] > 0:
            break
        page.wait_for_timeout(100)
    assert box["height"] >= 48, box
    width = page.viewport_size["width"] if page.viewport_size else PHONE["width"]
    assert box["x"] >= 0, box
    assert box["x"] + box["width"] <= width, box
    button.click()


def enter_hand(page: Page, number: int, bids: list[int], tricks: list[int], trump: str) -> None:
    """Enter hand ``number``: the bids and tricks in bidding order, and the trump. The
    dealer's tricks are not asked: the page fills in the only count that adds up
    (docs/scorekeeper.md, In the browser), marked on the review."""
    expect(page.locator(".sk-next-head")).to_contain_text(f"Hand {number}")
    order = [(number + i) % 4 for i in range(4)]  # the dealer is seat number - 1
    for seat in order:
        expect(page.locator(".sk-step h3")).to_have_text(f"{PLAYERS[seat]} bids")
        tap(page, bids[seat])
    page.get_by_role("button", name=trump).click()
    for seat in order[:-1]:
        expect(page.locator(".sk-step h3")).to_have_text(f"{PLAYERS[seat]} took")
        tap(page, tricks[seat])
    dealer = order[-1]
    filled = page.locator(".sk-review li.sk-filled")
    expect(filled).to_contain_text(f"{PLAYERS[dealer]} {tricks[dealer]} (filled in")
    page.locator(".sk-save").click()


def totals_shown(page: Page) -> list[str]:
    return page.locator(".sk-totals td").all_inner_texts()[:4]


def test_keep_blackout_on_a_phone_and_follow_it_read_only(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """docs/scorekeeper.md, In the browser: the keeper's phone enters hands with big
    buttons and sees the sheet after each; the read-only link follows it in another
    browser; docs/games/blackout.md, Options: with the hook, the dealer's bid that
    would make the bids total the hand size is refused, with the rule shown."""
    keeper = new_page(viewport=PHONE)
    start_sheet(keeper, web_server, hook=True)
    expect(keeper.locator(".sk-next-head")).to_have_text(
        "Hand 1 · 1 card · Ann deals · Bob bids first"
    )
    reference = ScoreSheet("blackout", PLAYERS, options={"hook": True})
    hands = [
        ([1, 0, 1, 0], [1, 0, 0, 0], "♥ hearts"),
        ([0, 0, 1, 0], [0, 1, 1, 0], "no trump"),
    ]
    for number, (bids, tricks, trump) in enumerate(hands, start=1):
        enter_hand(keeper, number, bids, tricks, trump)
        expect(keeper.locator(".sk-status")).to_have_text("saved")
        expect(keeper.locator(".sk-sheet tbody tr")).to_have_count(number)
        reference.add(bids=bids, tricks=tricks)
        assert totals_shown(keeper) == [str(t) for t in reference.totals]

    link = keeper.locator(".sk-view-link").input_value()
    assert re.search(r"#/score/[^?]+\?view=", link)
    viewer = new_page(viewport=PHONE)
    viewer.goto(link)
    expect(viewer.locator(".sk-sheet tbody tr")).to_have_count(2)
    expect(viewer.locator(".sk-entry")).to_have_count(0)  # nothing to enter with
    expect(viewer.locator(".sk-fix")).to_have_count(0)

    # Hand 3: Cy deals; Di, Ann and Bob bid 1, 1, 0; the hook forbids Cy's 1: offered
    # disabled, with the rule's words.
    expect(keeper.locator(".sk-next-head")).to_contain_text("Hand 3 · 3 cards · Cy deals")
    for name, value in (("Di", 1), ("Ann", 1), ("Bob", 0)):
        expect(keeper.locator(".sk-step h3")).to_have_text(f"{name} bids")
        tap(keeper, value)
    expect(keeper.locator(".sk-step h3")).to_have_text("Cy bids")
    expect(keeper.locator(".sk-numbers button[data-value='1']")).to_be_disabled()
    expect(keeper.locator(".sk-forbidden-why")).to_have_text(
        "Not 1: Cy, the dealer, may not bid 1: the bids would total the 3 tricks"
    )
    tap(keeper, 2)
    keeper.get_by_role("button", name="♠ spades").click()
    for name, value in (("Di", 1), ("Ann", 0), ("Bob", 1)):
        expect(keeper.locator(".sk-step h3")).to_have_text(f"{name} took")
        tap(keeper, value)
    keeper.locator(".sk-save").click()
    expect(keeper.locator(".sk-status")).to_have_text("saved")
    reference.add(bids=[1, 0, 2, 1], tricks=[0, 1, 1, 1])
    assert totals_shown(keeper) == [str(t) for t in reference.totals]

    expect(viewer.locator(".sk-sheet tbody tr")).to_have_count(3, timeout=10_000)
    expect(viewer.locator(".sk-totals td")).to_have_text([str(t) for t in reference.totals])
    expect(viewer.locator(".sk-chart svg")).to_have_count(1)
    assert keeper.console_errors == []  # type: ignore[attr-defined]
    assert viewer.console_errors == []  # type: ignore[attr-defined]


def test_hands_entered_offline_are_saved_when_the_connection_is_back(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """docs/scorekeeper.md, In the browser: with the connection down the keeper goes on
    entering (the page asks the size of a hand it cannot know yet); the hands wait in the
    browser, shown "offline", and are sent in order once the connection is back. One the
    rules refuse (docs/scorekeeper.md: the tricks must add up to the hand size) comes back
    on the screen with the rule, the next one waiting; corrected, both are saved once,
    with the rules' scores, and a reload keeps the sheet."""
    page = new_page(viewport=PHONE)
    start_sheet(page, web_server, hook=False)
    page.context.set_offline(True)
    # Two tricks of one: Bob and Cy took one each, so no count of Ann's adds up: asked.
    expect(page.locator(".sk-next-head")).to_contain_text("Hand 1")
    for name, value in (("Bob", 0), ("Cy", 0), ("Di", 0), ("Ann", 1)):
        expect(page.locator(".sk-step h3")).to_have_text(f"{name} bids")
        tap(page, value)
    page.get_by_role("button", name="not entered").click()
    for name, value in (("Bob", 1), ("Cy", 1), ("Di", 0), ("Ann", 0)):
        expect(page.locator(".sk-step h3")).to_have_text(f"{name} took")
        tap(page, value)
    page.locator(".sk-save").click()
    expect(page.locator(".sk-status")).to_contain_text("offline")
    expect(page.locator(".sk-next-head")).to_contain_text("Hand 2 · Bob deals")
    expect(page.locator(".sk-step h3")).to_have_text("How many cards in this hand?")
    tap(page, 2)
    for name, value in (("Cy", 0), ("Di", 1), ("Ann", 1), ("Bob", 0)):
        expect(page.locator(".sk-step h3")).to_have_text(f"{name} bids")
        tap(page, value)
    page.get_by_role("button", name="not entered").click()
    for name, value in (("Cy", 0), ("Di", 1), ("Ann", 1)):
        expect(page.locator(".sk-step h3")).to_have_text(f"{name} took")
        tap(page, value)
    expect(page.locator(".sk-review li.sk-filled")).to_contain_text("Bob 0 (filled in")
    page.locator(".sk-save").click()
    expect(page.locator(".sk-waiting")).to_have_count(2)
    expect(page.locator(".sk-status")).to_contain_text("2 waiting")

    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    problem = page.locator(".sk-problem")
    expect(problem).to_contain_text("Hand 1 was not saved", timeout=20_000)
    expect(problem).to_contain_text(
        "the tricks must add up to the hand size: 0 + 1 + 1 + 0 = 2, not 1"
    )
    expect(problem).to_contain_text("Rule: tricks total the hand size")
    expect(page.locator(".sk-status")).to_contain_text("1 waiting")
    page.get_by_role("button", name="Back").click()
    for name, value in (("Bob", 0), ("Cy", 0), ("Di", 0)):
        expect(page.locator(".sk-step h3")).to_have_text(f"{name} took")
        tap(page, value)
    expect(page.locator(".sk-review li.sk-filled")).to_contain_text("Ann 1 (filled in")
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".sk-status")).to_have_text("saved", timeout=20_000)
    expect(page.locator(".sk-waiting")).to_have_count(0)
    expect(page.locator(".sk-sheet tbody tr")).to_have_count(2)
    reference = ScoreSheet("blackout", PLAYERS)
    reference.add(bids=[1, 0, 0, 0], tricks=[1, 0, 0, 0])
    reference.add(bids=[1, 0, 0, 1], tricks=[1, 0, 0, 1])
    assert totals_shown(page) == [str(t) for t in reference.totals]
    page.reload()
    expect(page.locator(".sk-sheet tbody tr")).to_have_count(2)
    expect(page.locator(".sk-next-head")).to_contain_text("Hand 3 · 3 cards · Cy deals")
    errors: list[str] = page.console_errors  # type: ignore[attr-defined]
    expected = ("ERR_INTERNET_DISCONNECTED", "status of 422")
    assert [e for e in errors if not any(word in e for word in expected)] == []


def test_correct_a_hand_export_import_and_print(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """docs/scorekeeper.md, In the browser: Correct on a row shows the hand as entered,
    each part changed on its own (the rest kept), and the page lists the totals that
    changed; Export JSON downloads a sheet that imports back as a new sheet with the same
    totals; printing shows the sheet only."""
    page = new_page(viewport=PHONE)
    start_sheet(page, web_server, hook=False)
    enter_hand(page, 1, [1, 0, 0, 0], [1, 0, 0, 0], "♣ clubs")
    enter_hand(page, 2, [0, 1, 0, 0], [0, 1, 1, 0], "♦ diamonds")
    expect(page.locator(".sk-sheet tbody tr")).to_have_count(2)

    page.get_by_role("button", name="Correct hand 1").click()
    expect(page.locator(".sk-entry h2")).to_have_text("Correct hand 1")
    review = page.locator(".sk-review li")
    expect(review).to_have_text(
        [
            re.compile(r"^Bids: Ann 1, Bob 0, Cy 0, Di 0"),
            re.compile(r"^Trump: ♣ clubs"),
            re.compile(r"^Tricks: Ann 1, Bob 0, Cy 0, Di 0"),
        ]
    )
    page.get_by_role("button", name="Change: Bids: Ann 1, Bob 0, Cy 0, Di 0").click()
    for name, value in (("Bob", 0), ("Cy", 1), ("Di", 0), ("Ann", 0)):
        expect(page.locator(".sk-step h3")).to_have_text(f"{name} bids")
        tap(page, value)
    expect(review.first).to_have_text(re.compile(r"^Bids: Ann 0, Bob 0, Cy 1, Di 0"))
    page.get_by_role("button", name=re.compile("^Change: Tricks")).click()
    for name, value in (("Bob", 0), ("Cy", 1), ("Di", 0)):
        expect(page.locator(".sk-step h3")).to_have_text(f"{name} took")
        expect(page.locator(".sk-numbers [aria-pressed='true']")).to_have_count(1)  # the old count
        tap(page, value)
    expect(review.nth(1)).to_have_text(re.compile(r"^Trump: ♣ clubs"))  # kept as it was
    page.get_by_role("button", name="Save the correction of hand 1").click()
    notice = page.locator(".sk-notice")
    expect(notice).to_contain_text("Hand 1 was corrected. Totals changed:")
    reference = ScoreSheet("blackout", PLAYERS)
    reference.add(bids=[0, 0, 1, 0], tricks=[0, 0, 1, 0])
    reference.add(bids=[0, 1, 0, 0], tricks=[0, 1, 1, 0])
    expect(page.locator(".sk-totals td")).to_have_text([str(t) for t in reference.totals])
    assert page.locator(".sk-changed").count() >= 2  # Ann's and Cy's cells of hand 1 at least

    with page.expect_download() as download:
        page.get_by_role("link", name="Export JSON").click()
    exported = download.value.path()
    first_url = page.url
    page.get_by_role("link", name="Start or import another sheet").click()
    page.set_input_files("#sk-import-file", str(exported))
    expect(page).to_have_url(re.compile(r"#/score/[^/?]+$"))
    assert page.url != first_url  # a new sheet
    expect(page.locator(".sk-sheet tbody tr")).to_have_count(2)
    expect(page.locator(".sk-totals td")).to_have_text([str(t) for t in reference.totals])

    page.emulate_media(media="print")
    expect(page.locator(".sk-sheet")).to_be_visible()
    for hidden in (".topbar", ".sk-entry", ".sk-share", ".sk-status", ".sk-fix"):
        expect(page.locator(hidden).first).to_be_hidden()
    assert page.console_errors == []  # type: ignore[attr-defined]
