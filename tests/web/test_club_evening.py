"""A club's duplicate evening from the first sign-up to the season's standings, every
step through Chromium as people take it (docs/clubs.md, docs/duplicate.md).

Ann signs up, starts a club whose house rules are a ruleset file of two short hands,
makes an invitation link; Ben signs up and opens it, Cat opens it as a guest and signs
up on the invitation's page; both join.
Ann plans a duplicate evening of two tables, Ben and Ann take the seats of the first,
Cat the first seat of the second, Ann starts both (a bot in every free seat), and the
three play their cards and bids by clicking them until both games are over. The club's
page then shows the evening's duplicate standings, and they are checked against the
two tables' records scored by the project's own duplicate scoring; the season's
standings count the evening. The pages are photographed into ``$TRICKTAKER_SHOTS``
when it names a folder (the evening live and over, desktop and phone).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.server_process import ServerProcess
from tests.web.axe import assert_accessible
from tests.web.conftest import PHONE, NewPage
from tests.web.table_helpers import next_hand, offered, phase, settled, touch
from tricktaker.duplicate.results import table_results
from tricktaker.duplicate.scoring import standings
from tricktaker.engine.record import GameRecord, replay

pytestmark = pytest.mark.slow

PASSWORD = "correct horse battery"
HOUSE = 'id = "weeknight"\nextends = "blackout"\n[schedule]\nsizes = "1, 2"\n'
"""The club's house rules: Blackout cut to two hands (one card, then two)."""


def _shoot(page: Page, name: str) -> None:
    """A full-page picture of ``page`` into ``$TRICKTAKER_SHOTS``, when it is set."""
    folder = os.environ.get("TRICKTAKER_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def _sign_up(page: Page, url: str, name: str) -> None:
    """Sign up on the account page, as a person does, with no pause after a trick."""
    page.goto(f"{url}/#/account")
    page.evaluate("localStorage.setItem('tricktaker.trickPauseMs', '0')")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.locator("form[aria-labelledby=signup-title] button[type=submit]").click()
    expect(page.locator("#account-link")).to_have_text(name)


def _cells(page: Page, region: str) -> list[list[str]]:
    """The body rows of the figures table named ``region``, cell by cell."""
    rows: list[list[str]] = page.get_by_role("region", name=region).evaluate(
        """box => [...box.querySelectorAll('tbody tr')].map(
            tr => [...tr.children].map(cell => cell.textContent.trim()))"""
    )
    return rows


def _turn(page: Page, chooser: Callable[[list[str]], str]) -> bool:
    """Take this page's turn if it has one (``chooser`` picks among the bids or cards
    it offers, clicked as a person does), closing a hand's result first; answers
    whether it acted."""
    if next_hand(page) or not settled(page):
        return False
    legal = offered(page)
    if not legal:
        return False
    touch(page, chooser(legal))
    page.wait_for_function("() => !document.querySelector('.tt-page').dataset.pending")
    return True


def _tenths(value: float) -> str:
    """A figure the server rounds to 2 decimals, as the page writes it to 1 (JavaScript's
    toFixed rounds a half away from zero)."""
    exact = Decimal(str(round(value, 2)))
    return str(abs(exact).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


def _percent(value: float) -> str:
    return f"{_tenths(value)}%"


def _signed(value: float) -> str:
    text = _tenths(value)
    return text if text == "0.0" else f"\u2212{text}" if value < 0 else f"+{text}"


def test_a_club_plays_a_duplicate_evening_in_the_browser(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    url = web_server.url
    ann, ben, cat = new_page(), new_page(viewport=PHONE), new_page(viewport=PHONE)

    # Ann starts the club, its house rules a ruleset file, and makes an invitation link.
    _sign_up(ann, url, "Ann")
    ann.goto(f"{url}/#/clubs")
    ann.fill("#club-name", "Thursdays")
    ann.select_option("#club-game", "")
    ann.fill("#club-toml", HOUSE)
    ann.fill("#club-players", "3")
    ann.get_by_role("button", name="Start the club").click()
    expect(ann.locator("h1")).to_have_text("Thursdays")
    club = ann.url.rsplit("/", 1)[1]
    expect(ann.locator(".club-head")).to_contain_text("3 at a table · 2 hands")
    ann.get_by_role("button", name="Make an invitation link").click()
    link = ann.get_by_label("Invitation link").input_value()

    # Ben signs up, then opens the link; Cat opens it first, a guest, and signs up on
    # the invitation's page, which then shows her the invitation. Both join.
    _sign_up(ben, url, "Ben")
    ben.goto(link)
    cat.goto(link)
    cat.evaluate("localStorage.setItem('tricktaker.trickPauseMs', '0')")
    expect(cat.locator("h1")).to_have_text("An invitation to a club")
    _shoot(cat, "club-invite-guest-phone")
    assert_accessible(cat, context="club invitation, a guest, phone")
    cat.fill("#signup-name", "Cat")
    cat.fill("#signup-password", PASSWORD)
    cat.locator("form[aria-labelledby=signup-title] button[type=submit]").click()
    expect(cat.locator("#account-link")).to_have_text("Cat")
    for person in (ben, cat):
        person.get_by_role("button", name="Join Thursdays").click()
        expect(person.locator("h1")).to_have_text("Thursdays")
    ann.reload()
    expect(ann.locator(".club-members li")).to_have_count(3)

    # Ann plans a duplicate evening of two tables, a bot in the last seat of each.
    ann.locator("summary", has_text="Plan an evening").click()
    ann.fill("#club-plan-name", "Opening night")
    ann.select_option("#club-plan-kind", "duplicate")
    ann.get_by_role("button", name="Plan the evening").click()
    expect(ann.locator(".club-evening-name")).to_contain_text("Opening night")
    for count in (1, 2):
        ann.select_option("#club-table-bots", "1")
        ann.get_by_role("button", name="Add a table").click()
        expect(ann.locator(".club-table-card")).to_have_count(count)
    evening = ann.locator("#club-evening-pick").input_value()
    club_page = f"{url}/#/club/{club}?evening={evening}"

    # Ben takes the first table's first seat, Cat the second's; Ann the first's second.
    # The table's page names the club's evening, a link back to it.
    back_to_evening = re.compile(rf"#/club/{re.escape(club)}\?evening={re.escape(evening)}$")
    for person, number in ((ben, 1), (cat, 2), (ann, 1)):
        person.goto(club_page)
        card = person.locator(".club-table-card", has_text=f"Table {number}")
        card.get_by_role("button", name="Take a seat").click()
        person.wait_for_selector(".tt-page .tt-seat")
        back = person.locator(".tt-where .tt-club")
        expect(back).to_contain_text("Thursdays · Opening night, ")
        expect(back).to_contain_text(f" · table {number}")
    expect(ben.locator(".tt-waiting")).to_contain_text("The club's organisers start the game")
    _shoot(ben, "club-table-waiting-phone")
    ben.locator(".tt-club").click()
    expect(ben).to_have_url(back_to_evening)
    expect(ben.locator(".club-table-card")).to_have_count(2)
    ben.go_back()
    ben.wait_for_selector(".tt-page .tt-seat")
    ann.goto(club_page)
    ann.get_by_role("button", name="Start every waiting table").click()
    expect(ann.locator(".club-table-card[data-status=playing]")).to_have_count(2)
    _shoot(ann, "club-evening-live-desktop")
    ben.goto(club_page)
    first, second = (ben.locator(".club-table-card", has_text=f"Table {n}") for n in (1, 2))
    expect(first).to_contain_text("Ben (you)")
    expect(first.get_by_role("link", name="Play at your seat")).to_be_visible()
    # No peeking: the other table, dealt the same cards, is not to be watched yet.
    expect(second.get_by_role("link", name="Watch")).to_have_count(0)
    expect(second).to_contain_text("Watching opens once every table has finished")
    bots = ben.locator(".club-seats li", has_text="(bot)").all_inner_texts()
    assert len(bots) == 3, bots  # a bot in a free seat is named as no member is
    assert not any(name in text for text in bots for name in ("Ann", "Ben", "Cat")), bots
    _shoot(ben, "club-evening-live-phone")
    # The tables are read again every 5 s: the focus stays on the link it was on.
    first.get_by_role("link", name="Play at your seat").focus()
    with ben.expect_response(lambda answer: "/evenings/" in answer.url, timeout=10_000):
        pass
    ben.wait_for_timeout(100)
    focused = ben.evaluate(
        "() => [document.activeElement.textContent,"
        " document.activeElement.closest('.club-table-card')?.querySelector('h4').textContent]"
    )
    assert focused[0] == "Play at your seat", focused
    assert focused[1].startswith("Table 1"), focused
    ben.go_back()
    ben.wait_for_selector(".tt-page .tt-seat")
    ann.locator(".club-table-card", has_text="Table 1").get_by_role(
        "link", name="Play at your seat"
    ).click()
    ann.wait_for_selector(".tt-page .tt-seat")
    expect(ann.locator(".tt-where .tt-club")).to_be_visible()
    _shoot(ann, "club-table-playing-desktop")

    # The three play every bid and card by clicking them, until both games are over:
    # Ann and Ben take the first choice offered, Cat (Ben's cards at the other table)
    # the last, so that the two tables part ways.
    people: list[tuple[Page, Callable[[list[str]], str]]] = [(ann, min), (ben, min), (cat, max)]
    deadline = time.monotonic() + 60
    while not all(phase(person) == "game_over" for person, _ in people):
        assert time.monotonic() < deadline, [phase(person) for person, _ in people]
        moved = [_turn(p, chooser) for p, chooser in people if phase(p) != "game_over"]
        if not any(moved):
            ann.wait_for_timeout(50)

    # The club's page: the standings of the evening, as the records score them.
    ann.goto(club_page)
    expect(ann.locator(".club-table-card[data-status=finished]")).to_have_count(2)
    expect(ann.get_by_role("link", name="Replay", exact=True)).to_have_count(2)
    duplicate = "Duplicate standings: matchpoints"
    expect(ann.get_by_role("region", name=duplicate)).to_be_visible()
    data = ann.evaluate(
        "([c, e]) => fetch(`/api/clubs/${c}/evenings/${e}`).then(r => r.json())",
        [club, evening],
    )
    results = []
    seat_names: dict[str, str] = {}
    final: dict[str, int] = {}  # each seat's final score, by its name
    for view in data["tables"]:
        record = httpx.get(f"{url}/tables/{view['table']}/record", timeout=30)
        assert record.status_code == 200, record.text
        state = replay(GameRecord.from_json(record.json()))
        assert len(state.history) == 2
        entrants = [f"{view['number']}:{seat}" for seat in range(3)]
        results.extend(table_results(state, entrants))
        for seat in view["seats"]:
            seat_names[f"{view['number']}:{seat['seat']}"] = seat["name"]
            final[seat["name"]] = state.scores[seat["seat"]]
    expected = standings(results)
    shown = _cells(ann, duplicate)
    assert len(shown) == len(expected) == 6
    place = 0
    for index, (row, standing) in enumerate(zip(shown, expected, strict=True)):
        table, seat = standing.entrant.split(":")
        name = seat_names[standing.entrant]
        before = expected[index - 1] if index else None
        tied = before is not None and (before.percent, before.against_average) == (
            standing.percent,
            standing.against_average,
        )
        place = place if tied else index + 1
        assert row[1] in (name, f"{name} (bot)", f"{name} (you)"), (row, standing)
        assert [row[0], *row[2:]] == [
            str(place),
            _percent(standing.percent),
            f"{standing.matchpoints} of {standing.top}",
            _signed(standing.against_average),
            f"Table {table}, seat {int(seat) + 1}",
            str(standing.hands),
        ], (row, standing)
    assert {seat_names["1:0"], seat_names["1:1"], seat_names["2:0"]} == {"Ben", "Ann", "Cat"}
    _shoot(ann, "club-evening-over-desktop")

    # The season: the members' final scores summed (one game each), then ranked by the
    # evening's matchpoints, each board once.
    by_points = _cells(ann, "Season by points, 1 evening")
    assert {row[1]: (row[2], row[3]) for row in by_points} == {
        name: (str(final[name]), "1") for name in ("Ann", "Ben", "Cat")
    }
    ann.select_option("#club-by", "matchpoints")
    season = "Season by duplicate matchpoints, 1 evening"
    expect(ann.get_by_role("region", name=season)).to_be_visible()
    by_entrant = {standing.entrant: standing for standing in expected}
    people_names = {"Ann", "Ben", "Cat"}
    members = {name: by_entrant[k] for k, name in seat_names.items() if name in people_names}
    for row in _cells(ann, season):
        standing = members[row[1]]
        place = 1 + sum(other.percent > standing.percent for other in members.values())
        assert [row[0], *row[2:]] == [
            str(place),
            _percent(standing.percent),
            f"{standing.matchpoints} of {standing.top}",
            "2",
            "1",
        ], (row, standing)
    assert sorted(row[1] for row in _cells(ann, season)) == sorted(people_names)
    cat.goto(club_page)
    expect(cat.get_by_role("region", name=duplicate)).to_be_visible()
    _shoot(cat, "club-evening-over-phone")
    assert cat.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # The other table's game (Ben's, with the cards Cat held), replayed from the club's
    # page: the set is over, so its record may be read.
    cat.locator(".club-table-card", has_text="Table 1").get_by_role(
        "link", name="Replay", exact=True
    ).click()
    expect(cat).to_have_url(re.compile(r"#/replay/[\w-]+\?game=1$"))
    expect(cat.locator("#replay-title")).to_be_visible()
    cat.go_back()

    # The duplicate set's page, each hand compared, as the club's page links it: the
    # same places and figures.
    for person, size in ((ann, "desktop"), (cat, "phone")):
        person.get_by_role("link", name="The duplicate set's page").click()
        expect(person.locator("#dup-standings tbody tr")).to_have_count(6)
        _shoot(person, f"club-evening-duplicate-{size}")
    on_set = ann.eval_on_selector_all(
        "#dup-standings tbody tr",
        "rows => rows.map(r => [r.querySelector('.dup-rank').textContent,"
        " r.querySelector('.dup-where').textContent])",
    )
    assert sorted(on_set) == sorted([row[0], row[5]] for row in shown)
    cat.locator(".dup-club").click()  # the set leads back to the club's evening
    expect(cat).to_have_url(back_to_evening)
    expect(cat.locator("h1")).to_have_text("Thursdays")
    for person, _ in people:
        assert person.console_errors == []  # type: ignore[attr-defined]
