"""Pluck, Euchre and Buckup in the browser table, through every phase of a hand: a seed
is picked with the engine so that the person (seat 0) meets each phase, the page then
offers exactly the actions the engine foresaw (the same game, move for move), and each
phase's own display is checked as it comes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.server_process import ServerProcess
from tests.web.conftest import NewPage, create_table
from tests.web.table_helpers import (
    choose,
    foresee,
    hand_number,
    next_hand,
    offered,
    phase,
    settled,
    sit,
    touch,
)

Check = Callable[[Page, str], None]
Chooser = Callable[[Sequence[str]], str]


def seed_for(
    game: str,
    options: dict[str, Any],
    seats: Sequence[str],
    hands: int,
    verbs: set[str],
    chooser: Chooser = choose,
) -> tuple[int, list[str]]:
    """The first seed whose first ``hands`` hands take seat 0 (playing as ``chooser``)
    through every verb of ``verbs``, and the actions it takes there."""
    for seed in range(1, 300):
        taken = foresee(game, options, seats, seed, hands, chooser)
        if verbs <= {action.split()[0] for action in taken}:
            return seed, taken
    raise AssertionError(f"no seed takes seat 0 of {game} through {sorted(verbs)}")


def play_game(
    server: ServerProcess,
    page: Page,
    game: str,
    options: dict[str, Any],
    seats: list[str],
    hands: int,
    verbs: set[str],
    check: Check,
    *,
    whole: bool = True,
    chooser: Chooser = choose,
) -> list[str]:
    """Play seat 0 of a table of ``game`` to the end (or, unless ``whole``, through
    ``hands`` hands) in ``page``, calling ``check`` before each action; answers the
    actions taken, checked against the engine's."""
    seed, foreseen = seed_for(game, options, seats, hands, verbs, chooser)
    made = create_table(
        server,
        game=game,
        options=options,
        players=len(seats),
        seats=seats,
        host_seat=0,
        name="Ann",
        seed=seed,
    )
    table_id = made["table"]["id"]
    sit(page, server, table_id, seat=0, token=made["seat_token"], host_token=made["host_token"])
    page.get_by_role("button", name="Start the game").click()
    taken: list[str] = []
    for _ in range(2000):
        if phase(page) == "game_over" or (not whole and hand_number(page) > hands):
            break
        if next_hand(page):  # each hand's result stays until the player moves on
            continue
        if not settled(page) or not offered(page):
            page.wait_for_timeout(40)
            continue
        legal = offered(page)
        action = chooser(legal)
        check(page, action)
        touch(page, action)
        page.wait_for_function("() => !document.querySelector('.tt-page').dataset.pending")
        expect(page.locator(".tt-error")).to_have_text("")
        taken.append(action)
    if whole:
        assert phase(page) == "game_over", f"the game did not end: {taken[-5:]}"
    next_hand(page)
    assert taken[: len(foreseen)] == foreseen, "the page offered other actions than the engine"
    page.get_by_role("button", name="Scorecard").click()
    expect(page.locator(".sc-table tbody tr").first).to_be_visible()
    expect(page.locator(".sc-chart")).to_be_visible()
    assert page.console_errors == []  # type: ignore[attr-defined]
    return taken


@pytest.fixture
def page(new_page: NewPage) -> Page:
    """One browser page."""
    return new_page()


def test_pluck_quotas_plucks_and_the_trump_call(module_server: ServerProcess, page: Page) -> None:
    """docs/games/pluck.md, Bidding and Plucks: the quotas are shown; after the first
    hand the plucks come: Ann plucks (chooses the card to give), and is plucked (sees the
    card received and gives one back); the trump is called."""
    seen: set[str] = set()

    def check(page: Page, action: str) -> None:
        verb = action.split()[0]
        seen.add(verb)
        expect(page.locator(".tt-seat.me")).to_contain_text("Quota")
        if verb == "give_back":
            expect(page.locator(".tt-hand .tt-note").last).to_contain_text("You received")
            expect(page.locator(".tt-hand .tt-card.received")).to_have_count(1)
            expect(page.locator(".tt-hand")).to_contain_text("Give back")
        if verb == "call_trump":
            expect(page.get_by_role("group", name="Name trumps")).to_be_visible()
            expect(page.get_by_role("button", name="call trump \u2663 clubs")).to_be_visible()
        if verb == "pluck":
            expect(page.locator(".tt-hand")).to_contain_text("Pluck: choose the card to give")

    play_game(
        module_server,
        page,
        "pluck",
        {"hands": 3},
        ["human", "random", "random"],
        3,
        {"call_trump", "pluck", "give_back", "play"},
        check,
    )
    assert {"call_trump", "pluck", "give_back", "play"} <= seen
    expect(page.locator(".tt-panel")).to_contain_text("Quotas")
    expect(page.locator(".tt-panel")).to_contain_text("Plucks")


def test_euchre_auction_contract_kitty_and_discards(
    module_server: ServerProcess, page: Page
) -> None:
    """docs/games/euchre.md, Bidding and Kitty and discard: the auction is bid on
    buttons, the declarer (only) sees the kitty and discards three cards; the contract
    and the teams' points are shown."""
    seen: set[str] = set()

    def check(page: Page, action: str) -> None:
        verb = action.split()[0]
        seen.add(verb)
        if verb in ("auction", "pass"):
            expect(page.get_by_role("button", name="Pass")).to_be_visible()
            expect(page.get_by_role("button", name="bid five tricks, no trump")).to_be_visible()
        if verb == "discard":
            expect(page.locator(".tt-panel")).to_contain_text("Contract")
            expect(page.locator(".tt-panel .tt-panel-cards", has_text="Kitty")).to_be_visible()
            expect(page.locator(".tt-hand")).to_contain_text("Discard: touch a highlighted card")

    play_game(
        module_server,
        page,
        "euchre",
        {"target": 1},
        ["human", "random", "random", "random"],
        1,
        {"auction", "discard", "play"},
        check,
    )
    assert {"auction", "discard", "play"} <= seen
    expect(page.locator(".tt-seat.me")).to_contain_text("partner")


def test_buckup_ante_stay_draw_pot_and_chips(module_server: ServerProcess, page: Page) -> None:
    """docs/games/buckup.md, Chips, antes and the pot; Stay or fold: the dealer sets the
    ante, each player stays or folds, discards and draws; the pot and every player's
    chips are shown."""
    seen: set[str] = set()

    def check(page: Page, action: str) -> None:
        verb = action.split()[0]
        seen.add(verb)
        expect(page.locator(".tt-seat.me")).to_contain_text("Chips")
        if verb == "ante":
            expect(page.get_by_role("group", name="Choose the ante")).to_be_visible()
        if verb == "stay":
            expect(page.get_by_role("button", name="Stay")).to_be_visible()
            expect(page.locator(".tt-panel")).to_contain_text("Pot")
        if verb == "discard":
            expect(page.get_by_role("button", name="Draw")).to_be_visible()

    play_game(
        module_server,
        page,
        "buckup",
        {"hands": 1, "max_hands": 1},
        ["human", "random", "random", "random"],
        1,
        {"ante", "stay", "discard", "draw", "play"},
        check,
    )
    assert {"ante", "stay", "discard", "draw", "play"} <= seen
    others = page.locator(".tt-ring .tt-seat").all()
    assert len(others) == 3
    for seat in others:
        expect(seat).to_contain_text("Chips")


def out_for_now_first(legal: Sequence[str]) -> str:
    """The person goes out for now when it may, comes back when asked, else plays as
    :func:`choose` does."""
    for preferred in ("out_for_now", "come_back"):
        if preferred in legal:
            return preferred
    return choose(legal)


def test_buckup_out_for_now(module_server: ServerProcess, page: Page) -> None:
    """docs/games/buckup.md, Out for now: with the option, a player may go out for now
    instead of folding; the page offers it beside Stay and Fold, and the seat shows
    its status."""
    seen: list[str] = []

    def check(page: Page, action: str) -> None:
        seen.append(action)
        if action == "out_for_now":
            expect(page.get_by_role("button", name="Out for now")).to_be_visible()
            expect(page.get_by_role("button", name="Stay")).to_be_visible()
        if action == "come_back":
            expect(page.get_by_role("button", name="Come back")).to_be_visible()

    play_game(
        module_server,
        page,
        "buckup",
        {"hands": 1, "max_hands": 1, "out_for_now": True},
        ["human", "random", "random", "random"],
        1,
        {"out_for_now"},
        check,
        chooser=out_for_now_first,
    )
    assert "out_for_now" in seen
    if "come_back" not in seen:  # out for good at the end of the decisions
        expect(page.locator(".tt-seat.me")).to_contain_text("out")


def test_caller_clag_calls(module_server: ServerProcess, page: Page) -> None:
    """docs/games/caller_clag.md, Deal and trump: the dealer calls the number of cards,
    then the kind of hand and its modifiers; the call is shown in the heading."""
    seen: set[str] = set()

    def check(page: Page, action: str) -> None:
        verb = action.split()[0]
        seen.add(verb)
        if verb == "call_size":
            expect(page.get_by_role("group", name="Call the number of cards")).to_be_visible()
        if verb == "call_kind":
            expect(page.get_by_role("button", name="call kind no trump")).to_be_visible()
        if verb == "call_done":
            expect(page.get_by_role("combobox", name="Add to the call")).to_be_visible()
            expect(page.locator(".tt-where .tt-call")).not_to_be_empty()

    play_game(
        module_server,
        page,
        "caller_clag",
        {"hands": 2},
        ["human", "random", "random", "random"],
        2,
        {"call_size", "call_kind", "call_done", "play"},
        check,
    )
    assert {"call_size", "call_kind", "call_done", "play"} <= seen


def test_simultaneous_bids_stay_hidden_until_all_are_in(
    module_server: ServerProcess, page: Page
) -> None:
    """docs/games/blackout.md, Options (simultaneous_bidding): the others' bids show only
    that they are made until every bid is in."""

    def check(page: Page, action: str) -> None:
        if action.startswith("bid "):
            others = page.locator(".tt-ring .tt-seat").all()
            assert len(others) == 2
            for seat in others:
                expect(seat).to_contain_text("Bid bid")
            expect(page.locator(".tt-log")).to_contain_text("hidden until every bid is in")

    play_game(
        module_server,
        page,
        "blackout",
        {"simultaneous_bidding": True},
        ["human", "random", "random"],
        2,
        {"bid", "play"},
        check,
        whole=False,
    )
