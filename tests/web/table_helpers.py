"""Helpers of the browser-table tests: sit a page at a table (its seat token in the
browser's localStorage, as the lobby leaves it), read the choices the page offers, take
one, and foresee a game with the engine itself so that a test can pick a seed whose
first hands take the person through every phase of a game."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import httpx
from playwright.sync_api import Page, Position

from tests.server_process import ServerProcess
from tricktaker.bots import make_bot
from tricktaker.bots.base import decide
from tricktaker.cli.common import bot_seed
from tricktaker.engine.state import new_game
from tricktaker.rules import load_ruleset


def sit(
    page: Page,
    server: ServerProcess,
    table_id: str,
    *,
    seat: int | None,
    token: str | None,
    host_token: str | None = None,
    pause_ms: int | None = 0,
    watch: bool = False,
) -> None:
    """Open the table in ``page`` as the lobby would leave it: the seat token (and the
    host's token) in localStorage; ``pause_ms`` shortens the pause after a trick (None:
    the page's own pause)."""
    page.goto(f"{server.url}/")
    page.evaluate(
        """([id, seat, token, host, pause]) => {
            if (token) localStorage.setItem(`tricktaker.seat.${id}`, JSON.stringify({seat, token}));
            if (host) localStorage.setItem(`tricktaker.host.${id}`, host);
            if (pause === null) localStorage.removeItem("tricktaker.trickPauseMs");
            else localStorage.setItem("tricktaker.trickPauseMs", String(pause));
        }""",
        [table_id, seat, token, host_token, pause_ms],
    )
    page.goto(f"{server.url}/#/table/{table_id}{'?watch=1' if watch else ''}")
    page.wait_for_selector(".tt-page .tt-seat")


def offered(page: Page) -> list[str]:
    """The actions the page offers this seat now (buttons and highlighted cards),
    leaving out the bids it shows as forbidden."""
    actions: list[str] = page.eval_on_selector_all(
        ".tt-me [data-action]:not(.forbidden)", "els => els.map(e => e.dataset.action)"
    )
    return actions


def settled(page: Page) -> bool:
    """No action of this page is waiting for the server's answer."""
    return bool(page.evaluate("() => !document.querySelector('.tt-page')?.dataset.pending"))


def choose(legal: Sequence[str]) -> str:
    """The tests' player: stays in (Buckup), ends a call (Caller Clag), else takes the
    first action in text order."""
    for preferred in ("stay", "call_done"):
        if preferred in legal:
            return preferred
    return min(legal)


def result_open(page: Page) -> bool:
    """Whether the hand result is up (it stays until the player moves on)."""
    return bool(page.evaluate("() => !!document.querySelector('.tt-dialog.tt-result')"))


def next_hand(page: Page) -> bool:
    """Close the hand result if it is up ("Next hand"); answers whether it was."""
    if not result_open(page):
        return False
    page.locator(".tt-dialog .tt-next").click()
    page.wait_for_function("() => !document.querySelector('.tt-dialog.tt-result')")
    return True


def touch(page: Page, action: str, *, tap: bool = False) -> None:
    """Touch the control of ``action``: a card of the fanned hand where it shows (its
    top-left corner: the next card covers the rest of it), a button in its middle."""
    target = page.locator(f'.tt-me [data-action="{action}"]').first
    is_card = "tt-card" in (target.get_attribute("class") or "").split()
    position: Position | None = {"x": 8, "y": 16} if is_card else None
    if tap:
        target.tap(position=position)
    else:
        target.click(position=position)


def take_turn(page: Page) -> str | None:
    """If it is this page's turn, take :func:`choose`'s action by touching its button or
    card, wait for the server's answer and answer the action; else None. A hand result
    in the way is closed first."""
    if next_hand(page):
        return None
    if not settled(page):
        return None
    legal = offered(page)
    if not legal:
        return None
    action = choose(legal)
    touch(page, action)
    page.wait_for_function("() => !document.querySelector('.tt-page').dataset.pending")
    return action


def phase(page: Page) -> str:
    """The phase the page shows (``bidding``, ``playing``, ``game_over``...)."""
    return str(page.get_attribute(".tt-page", "data-phase") or "")


def hand_number(page: Page) -> int:
    """The hand number the page shows (0 before the first)."""
    return int(page.get_attribute(".tt-page", "data-hand") or 0)


def hand_cards(page: Page) -> list[str]:
    """The cards of this seat's hand, as the page shows them."""
    cards: list[str] = page.eval_on_selector_all(
        ".tt-hand .tt-card[data-card]", "els => els.map(e => e.dataset.card)"
    )
    return cards


def start(server: ServerProcess, table_id: str, host_token: str) -> None:
    """Start the table's game (``POST /tables/{id}/start``)."""
    reply = httpx.post(
        f"{server.url}/tables/{table_id}/start",
        headers={"Authorization": f"Bearer {host_token}"},
        timeout=30,
    )
    assert reply.status_code in (200, 204), reply.text


def foresee(
    game: str,
    options: dict[str, Any],
    seats: Sequence[str],
    seed: int,
    hands: int,
    chooser: Callable[[Sequence[str]], str] = choose,
) -> list[str]:
    """The actions seat 0 (the only person) takes in the first ``hands`` hands of a
    table seeded ``seed``, when it plays as ``chooser`` (:func:`choose`) does and the
    bots as the server runs them (each seeded from the game's seed and its seat)."""
    rules = load_ruleset(game, options=options)
    state = new_game(rules, players=len(seats), seed=seed)
    bots = {s: make_bot(spec, seed=bot_seed(seed, s)) for s, spec in enumerate(seats) if s != 0}
    taken: list[str] = []
    labels = rules.joker_labels
    while not state.is_terminal() and state.hands_played < hands:
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        if seat == 0:
            legal = {a.text(labels=labels): a for a in state.legal_actions(0)}
            text = chooser(list(legal))
            taken.append(text)
            state.apply(0, legal[text])
        else:
            state.apply(seat, decide(bots[seat], state.clone(), seat))
    return taken


def play_until(page: Page, done: Any, *, limit_s: float = 120.0) -> list[str]:
    """Take this page's turns until ``done(page)`` is true; answers the actions taken."""
    import time

    taken: list[str] = []
    deadline = time.monotonic() + limit_s
    while not done(page):
        assert time.monotonic() < deadline, f"still playing after {limit_s} s: {taken[-5:]}"
        action = take_turn(page)
        if action is None:
            page.wait_for_timeout(50)
        else:
            taken.append(action)
    return taken
