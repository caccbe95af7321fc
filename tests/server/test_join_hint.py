"""``hint`` at a ``tricktaker join`` prompt asks the server's coach through the live
socket (docs/protocol.md, Hints; docs/coach.md): the server decides whether hints are
on and records each one asked; the terminal shows the answer with ``tricktaker play``'s
hint table, or the refusal in words, and prompts again.

A real server (uvicorn on a local port, or a ``tricktaker serve`` process) and the real
``tricktaker join`` command in a subprocess, over real sockets.
"""

from __future__ import annotations

import dataclasses
import re
import time
from pathlib import Path

import httpx
import pytest

from tests.server.test_join_cli import Terminal, new_table, start, wait_for
from tests.server_process import ServerProcess, free_port
from tricktaker.client.hints import REFUSALS, fits, hint_from_message, refusal_words
from tricktaker.coach import hint as coach_hint
from tricktaker.coach.model import MODEL
from tricktaker.engine import GameRecord, new_game
from tricktaker.rules import load_ruleset
from tricktaker.server.tables import hints

pytestmark = pytest.mark.usefixtures("quick_hints")

PRACTICE = ["human", "random", "random", "random"]
HINT_ROW = re.compile(
    r"^\s*(\S+)\s+([-\u2212]?\d+\.\d+) (?:±|\+/-) (\d+\.\d+)\s+(\d+)%\s*(←|<-)? *(coach)?\s*$"
)
"""A row of the hint table at a bid: the bid, its value ± its standard error, the chance
of making it, the coach's mark."""
ASSUMING = "Assuming the unseen cards"
"""The start of the model's line (the rest wraps)."""


def test_the_servers_hint_message_reads_back_into_the_coachs_hint() -> None:
    """docs/protocol.md, Hints: the ``hint`` message the server writes from the coach's
    :class:`Hint` reads back into the same hint for the seat's view; one for another
    decision does not fit it; each refusal code is said in words."""
    state = new_game(load_ruleset("blackout"), players=4, seed=3)
    while state.is_chance():
        state.apply_chance()
    seat = state.to_act()[0]
    obs = state.observe(seat)
    hint = coach_hint(obs, deals=40, seed=1)
    message = hints.hint_message("h1", 7, obs, hint)
    back = hint_from_message(message, obs)
    assert back == dataclasses.replace(hint, seconds=round(hint.seconds, 3))
    assert fits(back, obs)
    state.apply(seat, hint.best)
    later = state.observe(state.to_act()[0])
    assert not fits(back, later)
    refused = {"type": "error", "id": "h2", "code": "hints_off", "message": "off"}
    assert refusal_words(refused) == "The host has not allowed hints at this table."
    assert all(refusal_words({"code": code}) == words for code, words in REFUSALS.items())
    cannot = {"code": "not_allowed", "message": "The coach cannot value this: why"}
    assert refusal_words(cannot) == "The coach cannot value this: why"


def test_hint_at_a_practice_table_lists_every_choice_and_the_record_keeps_it(
    http: httpx.Client, tmp_path: Path
) -> None:
    """At a practice table, ``hint`` typed at the join prompt prints a row for every
    legal choice with its value and the coach's choice marked, the model, and the prompt
    again; the server's record lists the hint asked at that position."""
    table, link, host = new_table(http, PRACTICE, seed=11, away_bot="random", grace_seconds=0.2)
    ann = Terminal(link, tmp_path / "ann.json", "--name", "Ann")
    try:
        wait_for(http, table, 0, "connected")
        start(http, table, host)
        ann.wait_printed("Your bid")
        assert "hint for the coach's values" in ann.printed()  # hints are on here
        ann.type("hint")
        ann.wait_printed(ASSUMING)
        ann.wait_printed("quick policy does.")
        after = ann.printed().split("Coach (", 1)[1]
        ann.type("quit")  # a bot plays the seat out
        status, out, err = ann.finish()
    finally:
        ann.stop()
    assert status == 130, err
    assert "Traceback" not in err
    assert re.match(r"\d+ deals, \d+\.\d s\): points you can expect from this hand", after)
    table_text, model = after.split(ASSUMING)
    assert " ".join(f"{ASSUMING}{model}".split()).startswith(f"Assuming {MODEL}.")
    found = [HINT_ROW.match(line) for line in table_text.splitlines()[2:] if line.strip()]
    rows = [row for row in found if row is not None]
    assert len(rows) == len(found), table_text
    shown = [row.group(1) for row in rows]
    means = [float(row.group(2).replace("\u2212", "-")) for row in rows]
    assert means == sorted(means, reverse=True)  # best first
    assert [row.group(6) for row in rows] == ["coach"] + [None] * (len(rows) - 1)
    prompts_after = out.split(ASSUMING, 1)[1]
    assert "Your bid" in prompts_after  # asked again
    deadline = time.monotonic() + 90
    while http.get(f"/tables/{table}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the game never finished"
        time.sleep(0.2)
    data = http.get(f"/tables/{table}/record").json()
    ((asked),) = data["hints"]
    assert asked["seat"] == 0
    record = GameRecord.from_json(data)
    then = dataclasses.replace(
        record, events=record.events[: asked["at"]], final_scores=None, finished=False
    ).replay()
    legal = then.observe(0).legal_actions
    assert sorted(shown, key=int) == sorted((str(action.value) for action in legal), key=int)


@pytest.mark.slow  # 5 to 14 s: server and terminals started on the shared cores
def test_hint_at_a_table_with_people_is_refused_where_the_host_did_not_allow_it(
    http: httpx.Client, tmp_path: Path
) -> None:
    """At a table with another person and hints not allowed, ``hint`` at the prompt says
    so in words (``hints_off``), and the prompt comes again; nothing is recorded."""
    table, link, host = new_table(http, ["human", "human", "random", "random"], seed=5)
    people = [Terminal(link, tmp_path / f"{n}.json", "--name", n) for n in ("Ann", "Bob")]
    try:
        for seat in (0, 1):
            wait_for(http, table, seat, "connected")
        start(http, table, host)
        deadline = time.monotonic() + 60
        while not any("Your bid" in p.printed() for p in people):
            assert time.monotonic() < deadline, people[0].printed()[-2000:]
            time.sleep(0.05)
        person = next(p for p in people if "Your bid" in p.printed())
        assert "hint for the coach's values" not in person.printed()
        person.type("hint")
        person.wait_printed(REFUSALS["hints_off"])
        refused_at = person.printed().index(REFUSALS["hints_off"])
        time.sleep(0.3)
        assert "Your bid" in person.printed()[refused_at:]  # the prompt again
    finally:
        for p in people:
            p.stop()
    assert http.get(f"/tables/{table}").json()["hints"] is False


@pytest.mark.slow  # 5 to 14 s: server and terminals started on the shared cores
def test_a_connection_dropped_while_the_coach_thinks_is_said(tmp_path: Path) -> None:
    """The server goes away while the coach thinks: the terminal says there is no hint
    and why, and prompts again (then tries to reconnect, as after any drop)."""
    server = ServerProcess(f"sqlite:///{tmp_path / 's.sqlite3'}", free_port(), tmp_path / "log")
    server.start()
    try:
        made = httpx.post(
            f"{server.url}/tables",
            json={
                "game": "blackout",
                "seats": PRACTICE,
                "seed": 2,
                # The first hand has 13 cards, so the coach spends its whole time
                # budget: a 1-card hand's million deals can be done in 0.3 s.
                "options": {"reverse_deals": True},
            },
        ).json()
        table = made["table"]["id"]
        link = f"{server.url}/tables/{table}?invite={made['invite']}"
        person = Terminal(link, tmp_path / "seats.json", TRICKTAKER_RECONNECT_SECONDS="2")
        try:
            person.wait_printed("Waiting for the host")
            headers = {"Authorization": f"Bearer {made['host_token']}"}
            assert httpx.post(f"{server.url}/tables/{table}/start", headers=headers).is_success
            person.wait_printed("Your bid")
            person.type("hint")  # the server's coach thinks for a second
            time.sleep(0.3)
            server.kill()
            person.wait_printed("No hint: ")
            status, out, err = person.finish(limit=60)
        finally:
            person.stop()
    finally:
        server.stop()
    assert status == 1, out + err
    said = out.split("No hint: ", 1)[1]
    assert said.startswith(
        ("the connection dropped while the coach was thinking", "not connected to the server")
    ), said[:200]
    assert "Type hint to ask again." in said
    assert "Your bid" in said  # the prompt again
    assert "Traceback" not in err
