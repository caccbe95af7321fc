"""The browser scorekeeper on a phone for the games with their own entries
(docs/scorekeeper.md, In the browser): one hand each of Pluck (trump and tricks, no
bids), Euchre (the contract and its declarer), Buckup (the ante, who stayed or folded,
the cards drawn) and Caller Clag (the dealer's call, then the bids and who won each
trick). Each hand is a worked example of the game's page; the row the page shows is the
row the engine-driven ``GET /sheets/{id}`` answers."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.server_process import ServerProcess
from tests.web.conftest import PHONE, NewPage
from tests.web.test_scorekeeper import tap


@dataclass
class Hand:
    """What the keeper enters, by player's name where a player is asked."""

    game: str
    players: list[str]
    dealer: str
    trump: str | None = None
    bids: dict[str, int] = field(default_factory=dict)
    tricks: dict[str, int] = field(default_factory=dict)
    contract: tuple[str, str] | None = None
    ante: str | None = None
    decisions: dict[str, tuple[str, int]] = field(default_factory=dict)
    call: tuple[int, str, str] | None = None
    winners: list[str] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)


HANDS = {
    # docs/games/pluck.md, Bidding: quotas 7, 6, 4; 9, 5, 3 tricks score +2, -1, -1.
    "pluck": Hand(
        "pluck",
        ["Ann", "Bob", "Cy"],
        "Ann",
        trump="♥ hearts",
        tricks={"Ann": 9, "Bob": 5, "Cy": 3},
        totals=[2, -1, -1],
    ),
    # docs/games/euchre.md, Scoring: Ann (with Cy) makes 4H with 5 tricks: 2 points each.
    "euchre": Hand(
        "euchre",
        ["Ann", "Bob", "Cy", "Di"],
        "Di",
        contract=("4H", "Ann"),
        tricks={"Ann": 5, "Bob": 0, "Cy": 0, "Di": 0},
        totals=[2, 0, 2, 0],
    ),
    # docs/games/buckup.md, Scoring, worked example: stacks 490, 513, 502, 440.
    "buckup": Hand(
        "buckup",
        ["A", "B", "C", "D"],
        "D",
        ante="kept",
        decisions={"A": ("fold", 0), "B": ("stay", 3), "C": ("stay", 1), "D": ("stay", 5)},
        tricks={"A": 0, "B": 3, "C": 2, "D": 0},
        totals=[-10, 13, 2, -60],
    ),
    # docs/games/caller_clag.md, Scoring, example 2: ascending madness, 18, 14, 8.
    "caller_clag": Hand(
        "caller_clag",
        ["Ann", "Bob", "Cy"],
        "Cy",
        call=(4, "normal", "ascending_madness"),
        bids={"Ann": 2, "Bob": 1, "Cy": 0},
        tricks={"Ann": 2, "Bob": 1, "Cy": 1},
        winners=["Ann", "Bob", "Ann", "Cy"],
        totals=[18, 14, 8],
    ),
}


def asked(page: Page, pattern: str) -> str:
    """The player named by the step's heading ``NAME bids`` / ``NAME took``."""
    heading = page.locator(".sk-step h3").inner_text()
    found = re.fullmatch(pattern, heading)
    assert found, heading
    return found.group(1)


def enter(page: Page, hand: Hand) -> None:
    """Go through the page's steps for one hand, as the keeper would, and save it."""
    for _ in range(40):
        step = page.locator(".sk-step").get_attribute("data-step")
        heading = page.locator(".sk-step h3").inner_text()
        if step == "review":
            page.locator(".sk-save").click()
            return
        if step == "call":
            assert hand.call is not None
            size, kind, modifiers = hand.call
            page.fill("#sk-call-kind", kind)
            page.fill("#sk-call-mods", modifiers)
            tap(page, size)
        elif step == "bids":
            tap(page, hand.bids[asked(page, r"(.+) bids")])
        elif step == "tricks":
            tap(page, hand.tricks[asked(page, r"(.+) took")])
        elif step == "trump":
            page.get_by_role("button", name=hand.trump or "not entered", exact=True).click()
        elif step == "contract":
            assert hand.contract is not None
            page.fill("#sk-contract", hand.contract[0])
            page.get_by_role("button", name=hand.contract[1], exact=True).click()
        elif step == "ante":
            page.get_by_role("button", name=(hand.ante or "").replace("_", " "), exact=True).click()
        elif step == "decisions":
            for seat, name in enumerate(hand.players):
                decision, drawn = hand.decisions[name]
                page.fill(f"#sk-decisions-{seat}", decision)
                page.fill(f"#sk-drawn-{seat}", str(drawn))
            page.get_by_role("button", name="Next", exact=True).click()
        elif step == "trick_winners":
            trick = int(asked(page, r"Who won trick (\d+) of \d+\?"))
            page.get_by_role("button", name=hand.winners[trick - 1], exact=True).click()
        else:
            raise AssertionError(f"an unexpected step {step!r}: {heading}")
        expect(page.locator(".sk-step h3")).not_to_have_text(heading)  # the next step
    raise AssertionError("the hand never reached its review")


@pytest.mark.parametrize("game", list(HANDS))
def test_one_hand_of_each_games_own_entries_on_a_phone(
    module_server: ServerProcess, new_page: NewPage, game: str
) -> None:
    """docs/scorekeeper.md, In the browser: the page asks what the game needs, step by
    step, and the row it shows is the server's, scored by the game's rules."""
    hand = HANDS[game]
    page = new_page(viewport=PHONE)
    page.goto(f"{module_server.url}/#/")
    page.get_by_role("link", name="Keep score").click()
    page.select_option("#sk-game", game)
    while page.locator("input[id^='sk-name-']").count() > len(hand.players):
        page.get_by_role("button", name="Remove the last").click()
    for seat, name in enumerate(hand.players):
        page.fill(f"#sk-name-{seat}", name)
    page.select_option("#sk-dealer", label=hand.dealer)
    page.get_by_role("button", name="Start the sheet").click()
    expect(page.locator(".sk-entry")).to_be_visible()
    enter(page, hand)
    expect(page.locator(".sk-status")).to_have_text("saved")
    expect(page.locator(".sk-sheet tbody tr")).to_have_count(1)
    link = page.locator(".sk-view-link").input_value()
    found = re.search(r"#/score/([^?]+)\?view=(.+)$", link)
    assert found, link
    sheet = httpx.get(
        f"{module_server.url}/sheets/{found.group(1)}",
        params={"view": found.group(2)},
        timeout=30,
    ).json()
    (row,) = sheet["rows"]
    assert row["totals"] == hand.totals  # the rules' scores, as the game's page works them
    cells = page.locator(".sk-sheet tbody tr").first.locator("td").all_inner_texts()
    assert cells[0].startswith(f"{row['hand_size']} · {hand.players[row['dealer']]}")
    for seat, cell in enumerate(cells[1 : 1 + len(hand.players)]):
        *won, score, total = cell.split("\n")
        assert str(row["tricks"][seat]) in won[0]
        assert score == (f"{row['scores'][seat]:+d}" if row["scores"][seat] else "0")
        assert total == str(row["totals"][seat])
    assert page.console_errors == []  # type: ignore[attr-defined]
