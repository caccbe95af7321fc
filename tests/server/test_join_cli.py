"""``tricktaker join URL``: people play seats of a table on a real server from their
terminals, with the screen and input of ``tricktaker play`` (driven here by stdin).

docs/protocol.md, Playing from the command line: the seat token is kept locally and the
same command takes the same seat back; Ctrl-C or ``quit`` leaves and says how to come back.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.server.conftest import LiveServer
from tricktaker.engine import GameRecord

ANSWERS = "".join(f"{i % 14}\n" for i in range(4000))
"""Typed answers: numbers 0 to 13 over and over. A bid is a number; a card is picked by
its number in the hand; a refused answer (the server's or the prompt's) is asked again,
so each turn ends with a legal choice."""


def join(link: str, seats_file: Path, typed: str, *extra: str) -> subprocess.Popen[str]:
    """``tricktaker join LINK`` in a subprocess reading ``typed`` as its input, its seat
    tokens kept in ``seats_file``."""
    env = dict(os.environ, TRICKTAKER_SEATS=str(seats_file), COLUMNS="100")
    answers = seats_file.with_suffix(f".{time.monotonic_ns()}.in")
    answers.write_text(typed, encoding="utf-8")
    with answers.open(encoding="utf-8") as stdin:
        return subprocess.Popen(
            [sys.executable, "-m", "tricktaker", "join", link, *extra],
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            # Ctrl-C as a terminal sends it, even where the test runner ignores SIGINT
            # (a background job inherits SIG_IGN, and Python then keeps ignoring it).
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )


def finish_all(processes: list[subprocess.Popen[str]], timeout: float) -> list[tuple[str, str]]:
    """Each process's output once all have ended, read at the same time (a pipe left
    unread fills up and stalls its writer, and with it the game)."""
    outputs: list[tuple[str, str]] = [("", "")] * len(processes)

    def read(index: int) -> None:
        outputs[index] = processes[index].communicate(timeout=timeout)

    threads = [threading.Thread(target=read, args=(i,)) for i in range(len(processes))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout + 5)
    for process in processes:
        if process.poll() is None:
            process.kill()
            raise AssertionError(f"{process.args!r} did not finish")
    return outputs


def wait_for(http: httpx.Client, table: str, seat: int, state: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        info = http.get(f"/tables/{table}").json()
        if info["seats"][seat]["state"] == state:
            return
        time.sleep(0.05)
    raise AssertionError(f"seat {seat} never became {state}: {info['seats'][seat]}")


@pytest.fixture
def http(live_server: LiveServer) -> httpx.Client:
    return httpx.Client(base_url=live_server.url, timeout=30)


def new_table(http: httpx.Client, seats: list[str], **options: object) -> tuple[str, str, str]:
    """A Blackout table: its id, invite link and host token."""
    made = http.post("/tables", json={"game": "blackout", "seats": seats, **options}).json()
    table = made["table"]["id"]
    base = str(http.base_url).rstrip("/")
    return table, f"{base}/tables/{table}?invite={made['invite']}", made["host_token"]


def start(http: httpx.Client, table: str, host_token: str) -> None:
    answer = http.post(f"/tables/{table}/start", headers={"Authorization": f"Bearer {host_token}"})
    assert answer.status_code == 204, answer.text


def test_two_people_play_a_whole_game_from_their_terminals(
    http: httpx.Client, tmp_path: Path
) -> None:
    """docs/protocol.md, Playing from the command line: two people join with the invite
    link and play to the end; each sees play's table and its own refusals named by rule."""
    table, link, host = new_table(http, ["human", "random", "random", "human"] + ["random"] * 3)
    ann = join(link, tmp_path / "ann.json", ANSWERS, "--name", "Ann")
    wait_for(http, table, 0, "connected")
    bob = join(link, tmp_path / "bob.json", ANSWERS, "--name", "Bob", "--seat", "3")
    wait_for(http, table, 3, "connected")
    start(http, table, host)
    outputs = finish_all([ann, bob], timeout=240)
    for process, (out, err) in zip((ann, bob), outputs, strict=True):
        assert process.returncode == 0, err[-3000:]
        assert "Final scorecard" in out
        assert "Your turn" in out
        assert "Hand 7 is over." in out
    ann_out, bob_out = outputs[0][0], outputs[1][0]
    assert "You took seat 0." in ann_out
    assert "You took seat 3." in bob_out
    assert "Bob" in ann_out  # the other person by name
    assert "(rule: " in ann_out + bob_out  # a refusal worded as play words it
    state = GameRecord.from_json(http.get(f"/tables/{table}/record").json()).replay()
    assert state.is_terminal()
    assert {e[0] for e in state.events if isinstance(e[0], int)} >= {0, 3}


def test_the_same_command_takes_the_same_seat_back(http: httpx.Client, tmp_path: Path) -> None:
    """docs/protocol.md, Playing from the command line: ``quit`` leaves and says how to
    come back; the same command again comes back to the seat (its token kept locally)
    and finishes the game."""
    seats_file = tmp_path / "seats.json"
    table, link, host = new_table(
        http, ["random", "human"] + ["random"] * 5, grace_seconds=0.2, seed=2
    )
    first = join(link, seats_file, "quit\n", "--name", "Cy")
    wait_for(http, table, 1, "connected")
    start(http, table, host)
    out, err = first.communicate(timeout=60)
    assert first.returncode == 130, err
    assert "You left the table" in out
    assert "Come back with: tricktaker join" in out
    assert seats_file.exists()
    again = join(link, seats_file, ANSWERS, "--name", "Cy")
    out, err = again.communicate(timeout=240)
    assert again.returncode == 0, err[-3000:]
    assert "Coming back to seat 1." in out
    assert "Final scorecard" in out
    info = http.get(f"/tables/{table}").json()
    assert info["seats"][1]["name"] == "Cy"
    assert info["status"] == "finished"


def test_ctrl_c_leaves_cleanly_and_says_how_to_come_back(
    http: httpx.Client, tmp_path: Path
) -> None:
    """docs/protocol.md, Playing from the command line: Ctrl-C while waiting leaves
    without a traceback and prints the command that comes back."""
    table, link, _ = new_table(http, ["human", "random", "random", "random"])
    person = join(link, tmp_path / "seats.json", "")
    wait_for(http, table, 0, "connected")
    person.send_signal(signal.SIGINT)
    out, err = person.communicate(timeout=30)
    assert person.returncode == 130, err
    assert "Traceback" not in err
    assert "--token" in out


def test_a_wrong_invite_is_a_clear_error(http: httpx.Client, tmp_path: Path) -> None:
    """docs/protocol.md, Errors: a wrong invite code is refused with the server's reason."""
    _, link, _ = new_table(http, ["human", "random", "random", "random"])
    person = join(link.replace("invite=", "invite=x"), tmp_path / "seats.json", "")
    _, err = person.communicate(timeout=30)
    assert person.returncode == 1
    assert "Error: the server refused (403)" in err
