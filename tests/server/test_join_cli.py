"""``tricktaker join URL``: people play seats of a table on a real server from their
terminals, with the screen and input of ``tricktaker play`` (driven here by stdin).

docs/protocol.md, Playing from the command line: the seat token is kept locally and the
same command takes the same seat back; Ctrl-C or ``quit`` leaves and says how to come back.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

import httpx
import pytest

from tests.server.helpers import wait_for_seats
from tests.server_process import ServerProcess, free_port
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
    """Wait until ``seat`` is in ``state``."""
    wait_for_seats(http, table, [seat], state)


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
    bob = join(link, tmp_path / "bob.json", ANSWERS, "--name", "Bob", "--seat", "4")
    wait_for(http, table, 3, "connected")
    start(http, table, host)
    outputs = finish_all([ann, bob], timeout=240)
    for process, (out, err) in zip((ann, bob), outputs, strict=True):
        assert process.returncode == 0, err[-3000:]
        assert "Final scorecard" in out
        assert "Your turn" in out
        assert "Hand 7 is over." in out
    ann_out, bob_out = outputs[0][0], outputs[1][0]
    assert "You took seat 1." in ann_out  # people count seats from 1
    assert "You took seat 4." in bob_out
    assert "Bob" in ann_out  # the other person by name
    assert "(rule: " in ann_out + bob_out  # a refusal worded as play words it
    state = GameRecord.from_json(http.get(f"/tables/{table}/record").json()).replay()
    assert state.is_terminal()
    assert {e[0] for e in state.events if isinstance(e[0], int)} >= {0, 3}


def test_the_same_command_takes_the_same_seat_back(http: httpx.Client, tmp_path: Path) -> None:
    """docs/protocol.md, Playing from the command line: ``quit`` leaves and says how to
    come back; the command printed (the same command) comes back to the seat, its token
    kept locally, and finishes the game."""
    seats_file = tmp_path / "seats.json"
    table, link, host = new_table(
        http, ["random", "human"] + ["random"] * 5, grace_seconds=0.2, seed=2
    )
    first = join(link, seats_file, "quit\n", "--name", "Cy")
    out, err = first.communicate(timeout=60)  # quit while waiting for the start
    assert first.returncode == 130, err
    assert "You left the table" in out
    printed = come_back_command(out)
    assert printed[1:] == ["join", link, "--seat", "2"]
    assert seats_file.stat().st_mode & 0o777 == 0o600
    start(http, table, host)
    again = run_printed(printed, seats_file, ANSWERS)
    out, err = again.communicate(timeout=240)
    assert again.returncode == 0, err[-3000:]
    assert "Coming back to seat 2." in out
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
    person = Terminal(link, tmp_path / "seats.json")  # the keyboard stays open
    wait_for(http, table, 0, "connected")
    person.process.send_signal(signal.SIGINT)
    status, out, err = person.finish(limit=30)
    assert status == 130, err
    assert "Traceback" not in err
    assert come_back_command(out)[1:] == ["join", link, "--seat", "1"]
    assert "(from another computer: " in out  # with the seat's token
    assert "--token" in out


def test_a_wrong_invite_is_a_clear_error(http: httpx.Client, tmp_path: Path) -> None:
    """docs/protocol.md, Errors: a wrong invite code is refused with the server's reason."""
    _, link, _ = new_table(http, ["human", "random", "random", "random"])
    person = join(link.replace("invite=", "invite=x"), tmp_path / "seats.json", "")
    _, err = person.communicate(timeout=30)
    assert person.returncode == 1
    assert "Error: the server refused (403)" in err


def come_back_command(out: str) -> list[str]:
    """The words of the ``Come back with: ...`` command printed in ``out``."""
    found = re.search(r"Come back with: (.+)", out)
    assert found is not None, out
    return shlex.split(found.group(1))


def run_printed(words: list[str], seats_file: Path, typed: str) -> subprocess.Popen[str]:
    """A command as the program printed it (its program too), reading ``typed``."""
    assert Path(words[0]).name == "tricktaker", words
    env = dict(os.environ, TRICKTAKER_SEATS=str(seats_file), COLUMNS="100")
    answers = seats_file.with_suffix(f".{time.monotonic_ns()}.in")
    answers.write_text(typed, encoding="utf-8")
    program = shutil.which(words[0])
    assert program is not None, f"{words[0]} cannot be run as printed"
    with answers.open(encoding="utf-8") as stdin:
        return subprocess.Popen(
            words, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
        )


class Terminal:
    """``tricktaker join`` with a keyboard that stays open (a pipe): what it printed so
    far is read in a thread, character by character (a prompt ends no line)."""

    def __init__(self, link: str, seats_file: Path, *extra: str, **env: str) -> None:
        environment = dict(os.environ, TRICKTAKER_SEATS=str(seats_file), COLUMNS="100", **env)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tricktaker", "join", link, *extra],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        self.out: list[str] = []
        self.err: list[str] = []
        for stream, kept in ((self.process.stdout, self.out), (self.process.stderr, self.err)):
            threading.Thread(target=self._read, args=(stream, kept), daemon=True).start()

    @staticmethod
    def _read(stream: IO[str] | None, kept: list[str]) -> None:
        assert stream is not None
        while text := stream.read(1):
            kept.append(text)

    def printed(self) -> str:
        return "".join(self.out)

    def wait_printed(self, text: str, limit: float = 60) -> None:
        deadline = time.monotonic() + limit
        while text not in self.printed():
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise AssertionError(f"{text!r} never printed: {self.printed()[-3000:]}")
            time.sleep(0.05)

    def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def end_input(self) -> None:
        """Ctrl-D: the keyboard's input ends."""
        assert self.process.stdin is not None
        self.process.stdin.close()

    def finish(self, limit: float = 60) -> tuple[int, str, str]:
        """The exit status, stdout and stderr once the command has ended by itself."""
        try:
            status = self.process.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError(f"still running: {self.printed()[-3000:]}") from None
        time.sleep(0.2)  # the readers take the last characters
        return status, self.printed(), "".join(self.err)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()


def test_two_people_at_one_computer_each_come_back_to_their_own_seat(
    http: httpx.Client, tmp_path: Path
) -> None:
    """docs/protocol.md, Playing from the command line: each seat taken from a computer
    keeps its own token; the second person gets a seat of their own (not the first
    person's), and each one's command, run again, comes back to their own seat."""
    seats_file = tmp_path / "seats.json"
    table, link, _ = new_table(http, ["human", "human", "random", "random"])
    ann = Terminal(link, seats_file, "--name", "Ann")
    wait_for(http, table, 0, "connected")
    bob = Terminal(link, seats_file, "--name", "Bob")
    bob.wait_printed("You took seat 2.")
    wait_for(http, table, 1, "connected")
    ann.stop()
    assert ann.process.returncode == 130
    again = [Terminal(link, seats_file, "--name", "Ann")]
    try:
        again[0].wait_printed("Coming back to seat 1.")
        wait_for(http, table, 0, "connected")
        bob.stop()
        again.append(Terminal(link, seats_file, "--seat", "2"))
        again[1].wait_printed("Coming back to seat 2.")
        wait_for(http, table, 1, "connected")
    finally:
        for person in (ann, bob, *again):
            person.stop()
    names = [seat["name"] for seat in http.get(f"/tables/{table}").json()["seats"][:2]]
    assert names == ["Ann", "Bob"]


def test_a_kept_seat_given_up_since_is_replaced_by_a_free_one(
    http: httpx.Client, tmp_path: Path
) -> None:
    """docs/protocol.md, Playing from the command line: the kept token is tried first;
    when the server no longer knows it (the seat was given up), the command takes a free
    seat instead of failing, and keeps the new token."""
    seats_file = tmp_path / "seats.json"
    table, link, _ = new_table(http, ["human", "human", "random", "random"])
    first = join(link, seats_file, "quit\n", "--name", "Fay")
    assert first.wait(timeout=60) == 130
    kept = json.loads(seats_file.read_text())
    (entry,) = kept.values()
    (seat,) = entry["seats"]
    given_up = http.post(
        f"/tables/{table}/leave", headers={"Authorization": f"Bearer {seat['token']}"}
    )
    assert given_up.status_code in (200, 204), given_up.text
    again = Terminal(link, seats_file, "--name", "Fay")
    try:
        again.wait_printed("Coming back to seat 1.")
        again.wait_printed("Seat 1 is no longer yours")
        again.wait_printed("You took seat 1.")
        wait_for(http, table, 0, "connected")
    finally:
        again.stop()
    (entry,) = json.loads(seats_file.read_text()).values()
    assert [s["seat"] for s in entry["seats"]] == [0]
    assert entry["seats"][0]["token"] != seat["token"]


def test_a_person_who_takes_a_seat_mid_game_is_named(http: httpx.Client, tmp_path: Path) -> None:
    """docs/protocol.md, Live play: a ``table`` message brings the seats' new names; a
    person who takes a seat given up during the game is told by their name."""
    table, link, host = new_table(
        http, ["human", "human", "random", "random"], seed=4, grace_seconds=0.2
    )
    ann = Terminal(link, tmp_path / "ann.json", "--name", "Ann")
    wait_for(http, table, 0, "connected")
    bob = Terminal(link, tmp_path / "bob.json", "--name", "Bob")
    gus: Terminal | None = None
    try:
        wait_for(http, table, 1, "connected")
        start(http, table, host)
        ann.wait_printed("Hand 1 of 13")
        (entry,) = json.loads((tmp_path / "bob.json").read_text()).values()
        token = entry["seats"][0]["token"]
        left = http.post(f"/tables/{table}/leave", headers={"Authorization": f"Bearer {token}"})
        assert left.status_code in (200, 204), left.text
        gus = Terminal(link, tmp_path / "gus.json", "--name", "Gus")
        gus.wait_printed("You took seat 2.")
        ann.wait_printed("Gus is at the table.")
    finally:
        for person in (ann, bob, gus):
            if person is not None:
                person.stop()


def test_quit_while_waiting_leaves_at_once(http: httpx.Client, tmp_path: Path) -> None:
    """docs/protocol.md, Playing from the command line: ``quit`` typed while the game has
    not started, or while others play, leaves at once and says how to come back; so does
    the end of input (Ctrl-D)."""
    table, link, host = new_table(
        http, ["human", "human", "random", "random"], seed=4, grace_seconds=0.2
    )
    ann = Terminal(link, tmp_path / "ann.json", "--name", "Ann")
    wait_for(http, table, 0, "connected")
    bob = Terminal(link, tmp_path / "bob.json", "--name", "Bob")
    try:
        wait_for(http, table, 1, "connected")
        bob.type("quit")  # before the game starts
        status, out, err = bob.finish()
        assert status == 130, err
        assert "You left the table" in out
        assert come_back_command(out)[1:] == ["join", link, "--seat", "2"]
        start(http, table, host)
        ann.wait_printed("Your bid")  # Bob's seat is played by a bot while he is away
        again = Terminal(link, tmp_path / "bob.json")
        try:
            again.wait_printed("Coming back to seat 2.")
            ann.wait_printed("Bob is at the table")
            if "Your bid" in again.printed():  # his turn already: answer it
                again.type("0")
            again.end_input()  # Ctrl-D while Ann is to act (her prompt is open)
            status, out, err = again.finish()
            assert status == 130, err
            assert "Come back with:" in out
        finally:
            again.stop()
    finally:
        ann.stop()
        bob.stop()


def test_a_client_whose_server_is_gone_stops_and_says_how_to_come_back(tmp_path: Path) -> None:
    """docs/protocol.md, Live play: a client reconnects after a drop, but not for ever:
    with no connection for the give-up time (here 3 s) it stops with exit status 1, the
    reason and the command that comes back."""
    port = free_port()
    server = ServerProcess(f"sqlite:///{tmp_path / 'server.sqlite3'}", port, tmp_path / "log")
    server.start()
    try:
        made = httpx.post(
            f"{server.url}/tables", json={"game": "blackout", "seats": ["human", "random"]}
        ).json()
        link = f"{server.url}/tables/{made['table']['id']}?invite={made['invite']}"
        person = Terminal(link, tmp_path / "seats.json", TRICKTAKER_RECONNECT_SECONDS="3")
        try:
            person.wait_printed("Waiting for the host")
            server.kill()
            status, out, err = person.finish(limit=90)
        finally:
            person.stop()
    finally:
        server.stop()
    assert status == 1, out + err
    assert "reconnecting" in out
    assert out.count("Connection lost") == 1
    assert f"Error: the server at {server.url} has not answered for 3 seconds: gave up." in err
    found = re.search(r"come back with: (.+)", err)
    assert found is not None, err
    assert shlex.split(found.group(1))[1:] == ["join", link, "--seat", "1"]


def test_seats_are_numbered_from_1(tmp_path: Path) -> None:
    """Everything a person types numbers seats from 1: ``--seat 0`` is refused clearly,
    before anything is sent."""
    person = join("http://127.0.0.1:9/tables/T?invite=X", tmp_path / "s.json", "", "--seat", "0")
    out, err = person.communicate(timeout=60)
    assert person.returncode == 2, out + err
    assert "--seat 0: seats are numbered from 1 (--seat 1 is the first seat)" in err


def test_the_name_is_asked_on_a_terminal(http: httpx.Client, tmp_path: Path) -> None:
    """Without --name, a person at a terminal is asked for their name; off a terminal the
    server names the seat, so two people joined without names are not both "Player"."""
    table, link, _ = new_table(http, ["human", "human", "human", "random"])
    leader, follower = pty.openpty()
    env = dict(os.environ, TRICKTAKER_SEATS=str(tmp_path / "tty.json"), COLUMNS="100")
    process = subprocess.Popen(
        [sys.executable, "-m", "tricktaker", "join", link],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    os.close(follower)
    try:
        seen = b""
        deadline = time.monotonic() + 60
        while b"Your name at the table:" not in seen:
            assert time.monotonic() < deadline, seen
            ready, _, _ = select.select([leader], [], [], 1)
            if ready:
                seen += os.read(leader, 4096)
        os.write(leader, b"Eve\n")
        wait_for(http, table, 0, "connected")
        others = [join(link, tmp_path / f"{n}.json", "") for n in ("a", "b")]
        for process_ in others:
            process_.communicate(timeout=60)  # the end of input: they take a seat and leave
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
        os.close(leader)
    names = [seat["name"] for seat in http.get(f"/tables/{table}").json()["seats"][:3]]
    assert names[0] == "Eve"
    assert "Player" not in names
    assert None not in names
    assert len(set(names)) == 3


@pytest.mark.slow
def test_a_caller_clag_seat_hears_each_callers_calls(http: httpx.Client, tmp_path: Path) -> None:
    """docs/games/caller_clag.md, docs/protocol.md, Playing from the command line: a
    person joins a Caller Clag table, calls when dealing, and hears each other caller's
    size, kind and finished call, which the terminal reads back from the calls its view
    shows (the game's own public actions) as ``play`` says them."""
    made = http.post(
        "/tables",
        json={
            "game": "caller_clag",
            "seats": ["human", "random", "random"],
            "options": {"hands": 3},
            "seed": 11,
        },
    ).json()
    table = made["table"]["id"]
    link = f"{str(http.base_url).rstrip('/')}/tables/{table}?invite={made['invite']}"
    ann = join(link, tmp_path / "ann.json", ANSWERS, "--name", "Ann")
    wait_for(http, table, 0, "connected")
    start(http, table, made["host_token"])
    ((out, err),) = finish_all([ann], timeout=180)
    assert ann.returncode == 0, err[-3000:]
    assert "Final scorecard" in out
    text = re.sub(r"\s+", " ", out)
    others = r"(?!You )[A-Z]\w+(?: \w+)?"
    sizes = re.findall(rf"{others} calls a hand of [3-7] cards\.", text)
    finished = re.findall(rf"{others} finishes the call: [3-7] cards, \w+", text)
    assert len(sizes) >= 2, text[-3000:]  # the two bots' hands: each deals once
    assert len(finished) >= 2, text[-3000:]
    state = GameRecord.from_json(http.get(f"/tables/{table}/record").json()).replay()
    assert state.is_terminal()
    assert state.hands_played == 3
