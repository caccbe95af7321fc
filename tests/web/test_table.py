"""The browser table (src/tricktaker/web/static/table.js) in a real Chromium against the
real server: two people in two browsers and two bots play a whole game, one reloads the
page mid-hand and gets the seat back; an away person's seat is played by a bot, which
everyone sees, until the person comes back on another device; the hook and an illegal
card show the engine's own messages; a finished trick stays in view; keyboard play."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
from playwright.sync_api import Page, expect

from tests.server_process import ServerProcess, free_port
from tests.web.conftest import NewPage, create_table
from tests.web.table_helpers import (
    choose,
    hand_cards,
    hand_number,
    next_hand,
    offered,
    phase,
    settled,
    sit,
    start,
    take_turn,
)
from tricktaker.engine.state import new_game
from tricktaker.rules import load_ruleset


def join(server: ServerProcess, table_id: str, invite: str, name: str) -> dict[str, str]:
    """Take a free seat with the invite code (``POST /tables/{id}/join``)."""
    reply = httpx.post(
        f"{server.url}/tables/{table_id}/join", json={"invite": invite, "name": name}, timeout=30
    )
    assert reply.status_code == 200, reply.text
    data: dict[str, str] = reply.json()
    return data


def send_chat(page: Page, text: str) -> None:
    """Type a chat line and press Send until the page takes it: a line sent while the
    page's socket is reconnecting (a loaded machine) stays in the box, unsent, and a
    person presses Send again; the box empties once the socket has sent it."""
    box = page.get_by_role("textbox", name="Chat message")
    box.fill(text)
    for _ in range(20):
        page.get_by_role("button", name="Send").click()
        try:
            expect(box).to_have_value("", timeout=1_000)
            return
        except AssertionError:
            continue
    raise AssertionError(f"the page never sent the chat line {text!r}")


def test_two_people_and_two_bots_play_a_whole_game(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """docs/protocol.md, Live play: two people at one table from two browsers play a
    whole (short) game of Caller Clag with two bots (the host seats one from the page);
    Bob reloads the page in the middle of a hand and is back in his seat with the same
    cards; chat is shown as text; the host starts a rematch."""
    made = create_table(
        web_server,
        game="caller_clag",
        options={"hands": 2},
        players=4,
        seats=["human", "human", "human", "random"],
        host_seat=0,
        name="Ann",
        seed=7,
    )
    table_id = made["table"]["id"]
    bob_seat = join(web_server, table_id, made["invite"], "Bob")
    ann, bob = new_page(), new_page()
    sit(ann, web_server, table_id, seat=0, token=made["seat_token"], host_token=made["host_token"])
    sit(bob, web_server, table_id, seat=1, token=bob_seat["seat_token"])
    expect(ann.locator(".tt-waiting")).to_contain_text("Waiting for the players")
    expect(ann.locator(".tt-invite")).to_have_attribute("href", f"#/invite/{table_id}")
    expect(bob.locator(".tt-invite")).to_have_count(0)  # the host's alone
    ann.get_by_role("button", name="Start the game").click()
    expect(ann.locator(".tt-error")).to_have_text(
        "Seat 3 is still free: invite someone or give it to a bot."
    )
    ann.get_by_role("button", name="Seat a bot").click()
    expect(ann.locator(".tt-waiting")).to_contain_text("Cleo: bot (easy)")
    ann.get_by_role("button", name="Start the game").click()
    for page in (ann, bob):
        expect(page.locator(".tt-page")).not_to_have_attribute("data-phase", "waiting")

    send_chat(ann, "<b>good luck</b> Bob")
    expect(ann.locator(".tt-chat-lines li").last).to_have_text("Ann: <b>good luck</b> Bob")
    line = bob.locator(".tt-chat-lines li").last
    expect(line).to_have_text("Ann: <b>good luck</b> Bob")
    assert line.locator("b", has_text="good luck").count() == 0, "chat is text, never markup"

    reloaded = False
    deadline = 400
    while not (phase(ann) == "game_over" and phase(bob) == "game_over"):
        deadline -= 1
        assert deadline > 0, "the game did not end"
        # A page whose game is over keeps its last hand's result up (checked below):
        # the other page may still have turns to take.
        moved = [None if phase(page) == "game_over" else take_turn(page) for page in (ann, bob)]
        if not reloaded and phase(bob) == "playing" and len(hand_cards(bob)) >= 2:
            before = hand_cards(bob)
            bob.reload()
            expect(bob.locator(".tt-me .tt-seat-name")).to_have_text("Bob (you)")
            assert hand_cards(bob) == before, "the reload gave Bob back his own hand"
            reloaded = True
        if moved == [None, None]:
            ann.wait_for_timeout(50)
    assert reloaded, "Bob never had two cards to play: no reload happened"
    for page in (ann, bob):
        # The last hand's result comes first; "Final standings" leads to the end.
        expect(page.locator(".tt-dialog.tt-result")).to_be_visible()
        expect(page.locator(".tt-dialog .tt-next")).to_have_text("Final standings")
        next_hand(page)
        expect(page.locator(".tt-over")).to_contain_text("The game is over")
        expect(page.locator(".tt-over .tt-standings li")).to_have_count(4)
        page.get_by_role("button", name="Scorecard").click()
        expect(page.locator(".sc-table tbody tr")).to_have_count(2)
        expect(page.locator(".sc-chart")).to_be_visible()
    expect(ann.locator(".tt-presence")).to_contain_text("Bob: connected")
    record = httpx.get(f"{web_server.url}/tables/{table_id}/record?game=1", timeout=30).json()
    with ann.expect_download() as download:
        ann.get_by_role("link", name="Download the record").click()
    saved = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert saved == record
    replay = bob.get_by_role("link", name="Replay this game")
    expect(replay).to_have_attribute("href", f"#/replay/{table_id}?game=1")
    ann.get_by_role("button", name="Rematch").click()
    for page in (ann, bob):
        expect(page.locator(".tt-page")).not_to_have_attribute("data-phase", "game_over")
        expect(page.locator(".tt-over")).to_be_hidden()
    bob.goto(f"{web_server.url}/#/replay/{table_id}?game=1")  # the link seen at the end
    expect(bob.locator("#replay-status")).to_contain_text("step 0 of")
    bob.keyboard.press("End")
    expect(bob.locator("#replay-status")).to_contain_text("Game over")
    # The one refused start (409) is logged by the browser itself; nothing else is.
    errors = [e for e in ann.console_errors if "409 (Conflict)" not in e]  # type: ignore[attr-defined]
    assert errors == []
    assert bob.console_errors == []  # type: ignore[attr-defined]


def test_an_away_seat_is_played_by_a_bot_until_its_person_returns_on_another_device(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """docs/protocol.md, Live play (presence): when Ann's browser goes away, everyone sees
    that a bot plays for her; with her token on another device she has her seat back."""
    made = create_table(
        web_server,
        game="blackout",
        players=3,
        seats=["human", "random", "random"],
        host_seat=0,
        name="Ann",
        seed=3,
        grace_seconds=0.3,
    )
    table_id = made["table"]["id"]
    laptop = new_page()
    sit(laptop, web_server, table_id, seat=0, token=made["seat_token"])
    watcher = new_page()
    sit(watcher, web_server, table_id, seat=None, token=None, watch=True)
    expect(watcher.locator(".tt-presence")).to_contain_text("Ann: connected")
    start(web_server, table_id, made["host_token"])
    expect(laptop.locator(".tt-hand .tt-card").first).to_be_visible()
    expect(watcher.locator(".tt-prompt")).to_have_text("You are watching this table.")
    assert hand_cards(watcher) == [], "a spectator sees nobody's hand"

    laptop.context.close()
    expect(watcher.locator(".tt-presence")).to_contain_text("Ann: a bot plays for them")
    phone = new_page()
    sit(phone, web_server, table_id, seat=0, token=made["seat_token"])
    expect(phone.locator(".tt-me .tt-seat-name")).to_have_text("Ann (you)")
    expect(watcher.locator(".tt-presence")).to_contain_text("Ann: connected")
    assert watcher.console_errors == []  # type: ignore[attr-defined]
    assert phone.console_errors == []  # type: ignore[attr-defined]


def hook_seed() -> tuple[int, list[str]]:
    """A seed of a 3-player Blackout with the hook where Ann (seat 0) bids last in the
    first hand and one bid is forbidden to her, and her legal bids there."""
    from tricktaker.bots import make_bot
    from tricktaker.bots.base import decide
    from tricktaker.cli.common import bot_seed

    rules = load_ruleset("blackout", options={"hook": True})
    for seed in range(1, 200):
        state = new_game(rules, players=3, seed=seed)
        bots = {s: make_bot("random", seed=bot_seed(seed, s)) for s in (1, 2)}
        while state.is_chance() or state.to_act()[0] != 0:
            if state.is_chance():
                state.apply_chance()
            else:
                seat = state.to_act()[0]
                state.apply(seat, decide(bots[seat], state.clone(), seat))
        legal = [a.text() for a in state.legal_actions(0)]
        if state.phase_name == "bidding" and len(legal) <= state.hand_size:
            return seed, legal
    raise AssertionError("no seed puts the hook on Ann in the first hand")


def wait_turn(page: Page) -> list[str]:
    """Wait until it is this page's turn; answers what it offers."""
    page.wait_for_function(
        "() => document.querySelectorAll('.tt-me [data-action]').length > 0"
        " && !document.querySelector('.tt-page').dataset.pending"
    )
    return offered(page)


CAPTION_WATCH = """() => {
    window.captions = [];
    new MutationObserver(() => {
        const text = document.querySelector('.tt-trick-caption')?.textContent ?? '';
        const last = window.captions.at(-1);
        if (!last || last[0] !== text) window.captions.push([text, performance.now()]);
    }).observe(document.querySelector('.tt-trick'), {childList: true, subtree: true});
}"""
"""Record, in the page, each caption of the trick area and when it appeared."""


def test_the_hook_and_an_illegal_card_show_the_rule_that_forbids_them(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """docs/games/blackout.md, Options (hook): the forbidden bid is shown with the reason,
    and trying it shows the engine's message; a card that does not follow suit is refused
    with "you must follow suit". Keyboard play: "?" lists the choices, a bid typed as a
    number, a card typed as "q d", Enter for a forced card; a finished trick stays in
    view, and can be seen again."""
    seed, legal_bids = hook_seed()
    made = create_table(
        web_server,
        game="blackout",
        options={"hook": True},
        players=3,
        seats=["human", "random", "random"],
        host_seat=0,
        name="Ann",
        seed=seed,
    )
    table_id = made["table"]["id"]
    page = new_page()
    sit(page, web_server, table_id, seat=0, token=made["seat_token"], pause_ms=None)
    start(web_server, table_id, made["host_token"])
    assert sorted(wait_turn(page)) == sorted(legal_bids)

    forbidden = page.locator(".tt-controls .tt-act.forbidden")
    expect(forbidden).to_have_count(1)
    number = forbidden.inner_text()
    expect(page.locator(".tt-hook")).to_contain_text(f"you may not bid {number}")
    forbidden.click()
    expect(page.locator(".tt-error")).to_have_text(
        "the last bid may not make the total equal 1 tricks (hook rule)"
    )
    page.get_by_label("Type a card like QD, or a bid number, then Enter").fill("?")
    page.keyboard.press("Enter")
    expect(page.locator(".tt-help")).to_have_text(f"You may: {', '.join(legal_bids)}.")
    page.get_by_label("Type a card like QD, or a bid number, then Enter").fill(
        legal_bids[0].split()[1]
    )
    page.keyboard.press("Enter")
    expect(page.locator(".tt-seat.me")).to_contain_text(f"Bid {legal_bids[0].split()[1]}")
    expect(page.locator(".tt-bids-line")).to_contain_text("Bids")

    # One card in the first hand: the play is forced, and Enter plays it.
    wait_turn(page)
    page.evaluate(CAPTION_WATCH)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    page.keyboard.press("Enter")
    caption = page.locator(".tt-trick-caption")
    expect(caption).to_contain_text("takes the trick")
    expect(page.locator(".tt-trick .tt-played")).to_have_count(3)
    page.wait_for_function(
        "() => window.captions.length > 1 && !window.captions.at(-1)[0].includes('takes')"
    )
    shown: list[tuple[str, float]] = page.evaluate("() => window.captions")
    start_at = next(i for i, (text, _) in enumerate(shown) if "takes the trick" in text)
    held = shown[start_at + 1][1] - shown[start_at][1]
    assert held >= 1400, f"the finished trick was in view {held:.0f} ms: {shown}"
    page.evaluate("() => localStorage.setItem('tricktaker.trickPauseMs', '0')")
    # The one-card hand is over: its result stays until Ann moves on.
    expect(page.locator(".tt-dialog.tt-result")).to_be_visible()
    expect(page.locator(".tt-dialog .tt-next")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".tt-dialog.tt-result")).to_have_count(0)
    wait_turn(page)  # nothing moves while Ann thinks: she looks at the last trick again
    page.get_by_role("button", name="Last trick").click()
    expect(caption).to_contain_text("Last trick")
    expect(page.locator(".tt-trick .tt-played")).to_have_count(3)
    page.get_by_role("button", name="Last trick").click()

    typed = refused = False
    for _ in range(300):
        if typed and refused:
            break
        if next_hand(page):
            continue
        if not settled(page) or not offered(page):
            page.wait_for_timeout(50)
            continue
        legal = offered(page)
        dim = page.locator(".tt-hand .tt-card.dim")
        trick = page.locator(".tt-trick .tt-played [data-card]")
        if not refused and legal[0].startswith("play") and dim.count() and trick.count():
            led = trick.first.get_attribute("data-card") or ""
            suit = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[led[-1]]
            dim.first.click(position={"x": 8, "y": 16})
            expect(page.locator(".tt-error")).to_have_text(
                f"you must follow suit ({suit} led) (follow suit)"
            )
            refused = True
            continue
        action = choose(legal)
        if not typed and action.startswith("play ") and len(action) == 7:
            rank, suit_letter = action[5], action[6]
            page.get_by_label("Type a card like QD, or a bid number, then Enter").fill(
                f"{rank.lower()} {suit_letter.lower()}"
            )
            page.keyboard.press("Enter")
            page.wait_for_function("() => !document.querySelector('.tt-page').dataset.pending")
            expect(page.locator(".tt-error")).to_have_text("")
            typed = True
            continue
        take_turn(page)
    assert typed, f"no card was typed by hand {hand_number(page)}"
    assert refused, f"no card that does not follow suit was tried by hand {hand_number(page)}"
    assert page.console_errors == []  # type: ignore[attr-defined]


def test_the_page_reconnects_when_the_server_comes_back(tmp_path: Path, new_page: NewPage) -> None:
    """docs/protocol.md, Live play: when the connection drops (here the server is killed
    and started again on the same database) the page says so, reconnects by itself and
    shows the same seat and cards."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'db.sqlite3'}", free_port(), tmp_path / "log")
    server.start()
    try:
        made = create_table(
            server,
            game="blackout",
            players=3,
            seats=["human", "random", "random"],
            host_seat=0,
            name="Ann",
            seed=5,
        )
        table_id = made["table"]["id"]
        page = new_page()
        sit(page, server, table_id, seat=0, token=made["seat_token"])
        start(server, table_id, made["host_token"])
        legal = wait_turn(page)
        cards = hand_cards(page)
        server.kill()
        expect(page.locator(".tt-connection")).to_have_text("Connection lost: reconnecting\u2026")
        server.start()
        expect(page.locator(".tt-connection")).to_be_hidden(timeout=20_000)
        assert hand_cards(page) == cards
        assert sorted(wait_turn(page)) == sorted(legal)
    finally:
        server.stop()


def test_a_seat_given_to_a_bot_leaves_its_page_watching(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """docs/protocol.md, HTTP API (seats/{seat}/bot): when the host gives Bob's seat to
    a bot for good, Bob's page says so and goes on as a spectator's; a table that does
    not exist says so."""
    made = create_table(
        web_server,
        game="blackout",
        players=3,
        seats=["human", "human", "random"],
        host_seat=0,
        name="Ann",
        seed=9,
    )
    table_id = made["table"]["id"]
    bob_seat = join(web_server, table_id, made["invite"], "Bob")
    bob = new_page()
    sit(bob, web_server, table_id, seat=1, token=bob_seat["seat_token"])
    expect(bob.locator(".tt-me .tt-seat-name")).to_have_text("Bob (you)")
    reply = httpx.put(
        f"{web_server.url}/tables/{table_id}/seats/1/bot",
        json={"bot": "random"},
        headers={"Authorization": f"Bearer {made['host_token']}"},
        timeout=30,
    )
    assert reply.status_code == 204, reply.text
    expect(bob.locator(".tt-error")).to_contain_text("You are watching this table")
    expect(bob.locator(".tt-prompt")).to_have_text("You are watching this table.")
    assert bob.evaluate(f"() => localStorage.getItem('tricktaker.seat.{table_id}')") is None

    bob.goto(f"{web_server.url}/#/table/no-such-table?watch=1")
    expect(bob.locator(".tt-waiting")).to_contain_text("There is no such table")


def test_labels_four_colours_and_no_third_party_requests(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """Issue 12, usable by everyone: every card and control has a name a screen reader
    reads ("queen of diamonds"); the four-colour deck draws diamonds blue and is
    remembered after a reload; the page asks nothing of any other address."""
    made = create_table(
        web_server,
        game="pluck",
        players=3,
        seats=["human", "random", "random"],
        host_seat=0,
        name="Ann",
        seed=4,
    )
    table_id = made["table"]["id"]
    page = new_page()
    addresses: list[str] = []
    page.on("request", lambda request: addresses.append(request.url))
    page.on("websocket", lambda socket: addresses.append(socket.url))
    sit(page, web_server, table_id, seat=0, token=made["seat_token"])
    start(web_server, table_id, made["host_token"])
    wait_turn(page)

    names = page.eval_on_selector_all(
        ".tt-hand .tt-card", "els => els.map(e => e.querySelector('.tt-card-name').textContent)"
    )
    assert len(names) == 17
    for name in names:
        assert re.fullmatch(
            r"((ace|king|queen|jack|ten|nine|eight|seven|six|five|four|three|two)"
            r" of (clubs|diamonds|hearts|spades)|(high|low) joker \((BJ|LJ)\))(, .+)?",
            name,
        ), name
    nameless = page.eval_on_selector_all(
        ".tt-page button, .tt-page input, .tt-page select",
        "els => els.filter(e => !(e.getAttribute('aria-label') || e.labels?.length"
        " || e.textContent.trim())).map(e => e.outerHTML)",
    )
    assert nameless == []

    def diamond_colours() -> set[str]:
        colours: list[str] = page.eval_on_selector_all(
            ".tt-hand svg[data-card$='D'] text", "els => els.map(e => e.getAttribute('fill'))"
        )
        return set(colours)

    assert diamond_colours() == {"#c4161c"}
    page.get_by_label("four-colour deck").check()
    assert diamond_colours() == {"#1f5fbf"}
    page.reload()
    wait_turn(page)
    expect(page.get_by_label("four-colour deck")).to_be_checked()
    assert diamond_colours() == {"#1f5fbf"}

    local = (web_server.url, web_server.ws_url)
    assert [a for a in addresses if not a.startswith(local)] == []
    assert any(a.startswith(web_server.ws_url) for a in addresses)


def test_a_dead_connection_is_noticed_and_replaced(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """Issue 12, reconnection: when the network changes under an open socket (emulated:
    the page goes offline and says it is back online, as after a switch from Wi-Fi to
    mobile data) the page finds the socket dead by a ping, says so, and connects again
    to the same seat once the network is back."""
    made = create_table(
        web_server,
        game="blackout",
        players=3,
        seats=["human", "random", "random"],
        host_seat=0,
        name="Ann",
        seed=1,
    )
    table_id = made["table"]["id"]
    page = new_page()
    sit(page, web_server, table_id, seat=0, token=made["seat_token"])
    start(web_server, table_id, made["host_token"])
    legal = wait_turn(page)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    conditions = {"latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
    cdp.send("Network.emulateNetworkConditions", {"offline": True, **conditions})
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(page.locator(".tt-connection")).to_have_text(
        "Connection lost: reconnecting\u2026", timeout=10_000
    )
    cdp.send("Network.emulateNetworkConditions", {"offline": False, **conditions})
    expect(page.locator(".tt-connection")).to_be_hidden(timeout=20_000)
    expect(page.locator(".tt-me .tt-seat-name")).to_have_text("Ann (you)")
    assert sorted(wait_turn(page)) == sorted(legal)
