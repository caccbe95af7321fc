"""Several server processes on one PostgreSQL (issue 32, docs/deploy.md, Several
processes): one owner per table by a lease (a PostgreSQL advisory lock), a person's
socket on another process has its actions forwarded to the owner (the table does not
move), a process SIGKILLed loses its tables to the survivors, which replay them and
drive their bots (and close the sockets they forwarded with 1012: they reconnect);
SQLite refuses a second process.

Real ``tricktaker serve`` subprocesses over real sockets, on a real PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import httpx
import psycopg
import pytest
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed

from tests.postgres import PostgresServer
from tests.server.helpers import Player, Table, make_table
from tests.server.test_crash import choose, replay_with_seeded_chance
from tests.server.test_hints import auth, check_hint, finished
from tests.server_process import ServerProcess, free_port
from tricktaker.server.tables import forwarding, hints
from tricktaker.server.tables.leases import (
    BUSY_CODE,
    HANDOVER_CHANNEL,
    MOVED_CODE,
    PAYLOAD_BYTES,
    PostgresLeases,
)
from tricktaker.server.tables.views import Json

SHORT_GAME = {"game": "pluck", "options": {"hands": 2}}
"""Two hands of three players: long enough to be killed in, short enough to finish."""


@pytest.fixture
def database(postgres_server: PostgresServer) -> Iterator[str]:
    """A fresh database on the session's PostgreSQL."""
    url = postgres_server.create_database()
    try:
        yield url
    finally:
        postgres_server.drop_database(url)


def serve(url: str, tmp_path: Path, name: str) -> ServerProcess:
    """A started ``tricktaker serve`` on ``url``, logging to ``tmp_path/name.log``."""
    process = ServerProcess(url, free_port(), tmp_path / f"{name}.log")
    process.start()
    return process


def person_and_bots(http: httpx.Client, seed: int, **options: Any) -> Table:
    """A :data:`SHORT_GAME` table of one person (seat 0, the host) and two random bots."""
    return make_table(
        http, **SHORT_GAME, seats=["human", "random", "random"], host_seat=0, seed=seed, **options
    )


def last_seq(url: str, table_id: str) -> tuple[int, str]:
    """The table's last seq and status, read from the database."""
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as connection:
            seq = connection.execute(
                text("SELECT coalesce(max(seq), 0) FROM events WHERE table_id = :t"),
                {"t": table_id},
            ).scalar_one()
            status = connection.execute(
                text("SELECT status FROM tables WHERE id = :t"), {"t": table_id}
            ).scalar_one()
            return int(seq), str(status)
    finally:
        engine.dispose()


def play_until(player: Player, acks: dict[int, tuple[int, str]], moves: int | None) -> None:
    """Play ``player``'s turns (``moves`` of them, or to the game's end), keeping each
    acknowledged action by seq."""
    played = 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if player.view is not None and player.view["phase"] == "game_over":
            return
        if moves is not None and played >= moves:
            return
        if player.my_turn():
            action = choose(player)
            answer = player.act(action, f"m{player.seq}")
            assert answer["type"] == "ack", answer
            acks[answer["seq"]] = (player.seat or 0, action)
            played += 1
        else:
            player.receive(timeout=20)
    raise AssertionError("the game did not go on")


def watch_to_the_end(watcher: Player, last: int) -> list[int]:
    """Read a spectator's socket until it was told seq ``last``; the seqs of the
    events it was told, in order."""
    deadline = time.monotonic() + 60
    while watcher.seq < last:
        assert time.monotonic() < deadline, f"the spectator is at {watcher.seq} of {last}"
        watcher.receive(timeout=20)
    return [message["seq"] for message in watcher.messages if message["type"] == "event"]


def closed_with(player: Player) -> int | None:
    """The close code the server sent on ``player``'s socket (read until it closes)."""
    try:
        while True:
            player.receive(timeout=10)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None


@pytest.mark.postgres
@pytest.mark.slow
def test_a_table_survives_its_process(database: str, tmp_path: Path) -> None:
    """A person plays at process A; their second device connects at B, which forwards
    its actions to A (the table stays at A: nothing logs a move); A is SIGKILLed
    mid-hand; B takes the table over by itself (its bots go on with nobody asking),
    closing the forwarded socket with 1012, and the person reconnects to B with resume
    and finishes. The record is the replay of exactly the accepted actions, each at the
    seq it was acknowledged with."""
    a = serve(database, tmp_path, "a")
    b = serve(database, tmp_path, "b")
    try:
        http_a = httpx.Client(base_url=a.url, timeout=30)
        http_b = httpx.Client(base_url=b.url, timeout=30)
        table = make_table(
            http_a,
            **SHORT_GAME,
            seats=["human", "random", "random"],
            host_seat=0,
            seed=32,
            grace_seconds=600,
        )
        # A second table, made and started at A, whose person never comes: its move
        # timer lets the away bot play, so only A drives it, until A dies.
        lonely = make_table(
            http_a,
            **SHORT_GAME,
            seats=["human", "random", "random"],
            host_seat=0,
            seed=33,
            grace_seconds=600,
            move_timer=0.05,
        )
        assert http_a.post(f"/tables/{lonely.id}/start", headers=lonely.host()).status_code == 204
        far = Player(b.ws_url, lonely.id, None)  # a spectator at B of A's table
        first = Player(a.ws_url, table.id, table.tokens[0])
        watcher = Player(a.ws_url, table.id, None)  # a spectator at A, which holds it
        assert http_a.post(f"/tables/{table.id}/start", headers=table.host()).status_code == 204
        first.until("welcome")
        acks: dict[int, tuple[int, str]] = {}
        play_until(first, acks, 3)

        second = Player(b.ws_url, table.id, table.tokens[0])  # forwarded to A
        play_until(second, acks, 3)
        assert second.view is not None
        assert second.view["phase"] != "game_over"
        assert moves_logged(a, b) == []

        a.kill()  # mid-hand
        with contextlib.suppress(ConnectionClosed, TimeoutError):
            while True:
                watcher.receive(timeout=5)
        before = last_seq(database, lonely.id)[0]
        deadline = time.monotonic() + 30
        while last_seq(database, lonely.id)[0] == before:  # B took it over by itself
            assert time.monotonic() < deadline, "nobody took over the lonely table"
            time.sleep(0.1)
        assert closed_with(second) == 1012  # B took the table: served at B from now on

        seen = second.seq
        again = Player(b.ws_url, table.id, table.tokens[0], last_seq=seen, resume=True)
        again.seat, again.seq, again.view = 0, seen, second.view  # the view held stands
        play_until(again, acks, None)
        deadline = time.monotonic() + 60
        while last_seq(database, lonely.id)[1] != "finished":
            assert time.monotonic() < deadline, "the lonely table did not finish"
            time.sleep(0.2)

        record = http_b.get(f"/tables/{table.id}/record").json()
        watcher_again = Player(b.ws_url, table.id, None, last_seq=watcher.seq, resume=True)
        watcher_again.seq = watcher.seq
        told = watch_to_the_end(watcher, watcher.seq)
        told += watch_to_the_end(watcher_again, len(record["events"]))
        # Every event from the game's welcome (the deal in it) on, once, in order.
        welcomed = [x["seq"] for x in watcher.messages if x["type"] == "welcome"]
        assert told[0] - 1 in welcomed
        assert told == list(range(told[0], len(record["events"]) + 1))
        lonely_record = http_b.get(f"/tables/{lonely.id}/record").json()
        assert watch_to_the_end(far, len(lonely_record["events"])) == list(
            range(far.messages[0]["seq"] + 1, len(lonely_record["events"]) + 1)
        )
        state = replay_with_seeded_chance(record)
        assert state.is_terminal()
        assert state.record(names=record["names"]).to_json() == record
        events = record["events"]
        for seq, (seat, action) in acks.items():
            assert events[seq - 1] == [seat, action], seq
        assert lonely_record["finished"]
    finally:
        a.stop()
        b.stop()


@pytest.mark.postgres
@pytest.mark.slow
def test_a_table_asked_for_is_no_orphan_and_a_lease_taken_twice_goes_once(
    database: str, tmp_path: Path
) -> None:
    """The leases' two races: a table whose holder died while another process asked for
    it (:meth:`~PostgresLeases.claim`) is taken by that process, never by another's
    orphan scan in between (the scan of the process that let it go took it back, and
    the table was asked for again and again until the asker gave up); and a lease taken
    by two callers at once (a request and the orphan scan) is let go by one release
    (an advisory lock taken twice by one session stayed locked after it)."""
    a = serve(database, tmp_path, "a")
    try:
        http = httpx.Client(base_url=a.url, timeout=30)
        table = make_table(http, **SHORT_GAME, seats=["random"] * 3, seed=34, move_timer=60)
        assert http.post(f"/tables/{table.id}/start", headers=table.host()).status_code == 204
    finally:
        a.kill()  # the table is in play, and nobody holds it

    async def races() -> None:
        loop = asyncio.get_running_loop()
        asker, other = PostgresLeases(database, "asker"), PostgresLeases(database, "other")
        asker.start(loop)
        other.start(loop)
        try:
            await asker.claim(table.id)
            assert await other.orphans() == []
            assert (
                list(await asyncio.gather(asker.take(table.id), asker.take(table.id))) == [True] * 2
            )
            asker.release(table.id)
            assert await other.orphans() == []  # still claimed
            asker.unclaim(table.id)  # not awaited, as release: in order on its connection
            deadline = time.monotonic() + 10
            while not (taken := await other.orphans()):  # released once, unclaimed
                assert time.monotonic() < deadline, "the table stayed locked"
                await asyncio.sleep(0.05)
            assert taken == [table.id]
            assert not await asker.take(table.id)
        finally:
            asker.close()
            other.close()

    asyncio.run(races())


@pytest.mark.postgres
@pytest.mark.slow
def test_chat_and_presence_reach_another_process_at_once(database: str, tmp_path: Path) -> None:
    """A spectator at process B of a table A serves hears A's chat and its seats'
    presence as they happen, with no event to carry them (the game has not started): the
    presence A says when B's mirror asks, a chat line, a person leaving; a spectator who
    comes after is welcomed with the chat and the presence as A has them. ``GET
    /tables/{id}`` at B reads the table without taking it from A."""
    a = serve(database, tmp_path, "a")
    b = serve(database, tmp_path, "b")
    try:
        http = httpx.Client(base_url=a.url, timeout=30)
        table = make_table(http, **SHORT_GAME, seats=["human", "random", "random"], host_seat=0)
        person = Player(a.ws_url, table.id, table.tokens[0])
        watcher = Player(b.ws_url, table.id, None)
        assert watcher.messages[-1]["table"]["seats"][0]["state"] == "away"  # B has no socket
        said = watcher.until("presence", timeout=10)  # A's answer to B's mirror
        assert (said["seat"], said["state"]) == (0, "connected")
        # Reading the table at B answers from the database and leaves it at A (its
        # person's socket there stays open and is heard below).
        details = httpx.get(f"{b.url}/tables/{table.id}", timeout=30)
        assert details.status_code == 200, details.text
        assert details.json()["id"] == table.id
        assert httpx.get(f"{b.url}/tables/nosuchtable", timeout=30).status_code == 404
        person.send({"type": "chat", "text": "hello from A"})
        line = watcher.until("chat", timeout=10)["line"]
        assert (line["seat"], line["text"]) == (0, "hello from A")

        later = Player(b.ws_url, table.id, None)
        welcome = later.messages[-1]
        assert [x["text"] for x in welcome["chat"]] == ["hello from A"]
        assert welcome["table"]["seats"][0]["state"] == "connected"

        person.close()
        gone = watcher.until("presence", timeout=10)
        assert (gone["seat"], gone["state"]) == (0, "away")
        assert later.until("presence", timeout=10)["state"] == "away"
        assert all(x["type"] != "event" for x in watcher.messages + later.messages)
    finally:
        a.stop()
        b.stop()


@pytest.mark.postgres
@pytest.mark.slow
def test_a_hello_the_holder_does_not_let_go_for_is_told_to_reconnect(
    database: str, tmp_path: Path
) -> None:
    """A person's socket reaches a process while another holds the table's lease and
    does not let it go (here the test's own session, which never answers): after
    HANDOVER_SECONDS the hello is answered ``unavailable`` and the socket closed with
    1013 (try again later), which the client follows by reconnecting, rather than left
    open with no welcome; once the lease is free the reconnect is welcomed."""
    a = serve(database, tmp_path, "a")
    try:
        http = httpx.Client(base_url=a.url, timeout=30)
        table = make_table(http, **SHORT_GAME, seats=["human", "random", "random"], host_seat=0)
        with psycopg.connect(database.replace("+psycopg", ""), autocommit=True) as other:

            def take() -> bool:
                query = "SELECT pg_try_advisory_lock(hashtextextended(%s, 0))"
                return bool(other.execute(query, (table.id,)).fetchall()[0][0])

            other.execute(f"NOTIFY {HANDOVER_CHANNEL}, '{table.id}'")  # A lets it go
            deadline = time.monotonic() + 30
            while not take():
                assert time.monotonic() < deadline, "A did not let the table go"
                time.sleep(0.05)
            person = Player(a.ws_url, table.id, None, hello=False)
            person.send({"type": "hello", "v": 1, "token": table.tokens[0]})
            assert closed_with(person) == BUSY_CODE
            assert [x["code"] for x in person.messages] == ["unavailable"]
        again = Player(a.ws_url, table.id, table.tokens[0])  # the lease went with `other`
        assert again.seat == 0
    finally:
        a.stop()


@pytest.mark.slow
def test_sqlite_refuses_a_second_process(tmp_path: Path) -> None:
    """SQLite is one process: a second ``tricktaker serve`` on the same file says so."""
    url = f"sqlite:///{tmp_path / 'one.sqlite3'}"
    first = serve(url, tmp_path, "first")
    try:
        second = subprocess.run(
            [sys.executable, "-m", "tricktaker", "serve", "--db", url, "--port", str(free_port())],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert second.returncode != 0
        said = second.stdout + second.stderr
        assert "another tricktaker serve already serves this SQLite database" in said, said
        assert "PostgreSQL" in said
    finally:
        first.stop()
    restarted = serve(url, tmp_path, "restarted")  # the lock went with the first
    restarted.stop()


def turn_of(player: Player, after: int) -> bool:
    """Read ``player``'s socket until it was told seq ``after`` and then until it is its
    seat's turn (True) or the game is over (False)."""
    deadline = time.monotonic() + 60
    while player.seq < after:
        assert time.monotonic() < deadline, f"the device is at {player.seq} of {after}"
        player.receive(timeout=20)
    while True:
        assert time.monotonic() < deadline, "the seat's turn did not come"
        if player.view is not None and player.view["phase"] == "game_over":
            return False
        if player.my_turn():
            return True
        player.receive(timeout=20)


def moves_logged(*processes: ServerProcess) -> list[str]:
    """The lines of the processes' logs that say a table moved to them."""
    lines = []
    for process in processes:
        for line in process.log.read_text().splitlines():
            if "handed over to this process" in line or "took over" in line:
                lines.append(line)
    return lines


@pytest.mark.postgres
@pytest.mark.slow
def test_two_devices_of_one_seat_on_two_processes_leave_the_table_where_it_is(
    database: str, tmp_path: Path
) -> None:
    """With no proxy, one seat's two devices reach two processes: A, which holds the
    table, and B, which forwards the device's actions to A. They play the seat's turns
    alternately for a whole game: the table never moves (no log line of a handover or
    takeover, A's device never closed), each action is applied once (an action sent
    again through B is acknowledged at its first seq), and the record is the replay of
    exactly the acknowledged actions."""
    a = serve(database, tmp_path, "a")
    b = serve(database, tmp_path, "b")
    try:
        http = httpx.Client(base_url=a.url, timeout=30)
        table = person_and_bots(http, 77)
        devices = [Player(a.ws_url, table.id, table.tokens[0])]
        devices.append(Player(b.ws_url, table.id, table.tokens[0]))
        assert [d.seat for d in devices] == [0, 0]
        assert http.post(f"/tables/{table.id}/start", headers=table.host()).status_code == 204
        rng = random.Random(7)
        acks: dict[int, tuple[int, str]] = {}
        last, turn = 0, 0
        while turn_of(devices[turn % 2], last):
            device = devices[turn % 2]
            action = device.random_action(rng)
            answer = device.act(action, f"move-{turn}")
            assert answer["type"] == "ack", answer
            assert answer["seq"] not in acks
            acks[answer["seq"]] = (0, action)
            last = answer["seq"]
            if turn == 1:  # the same id again, through B: the first seq, nothing new
                again = device.act(action, f"move-{turn}")
                assert (again["type"], again["seq"]) == ("ack", answer["seq"])
            turn += 1
        assert turn >= 4
        for device in devices:
            turn_of(device, last)
        record = http.get(f"/tables/{table.id}/record").json()
        events = record["events"]
        for seq, played in acks.items():
            assert events[seq - 1] == list(played), seq
        assert sum(1 for e in events if e[0] == 0) == len(acks)
        state = replay_with_seeded_chance(record)
        assert state.is_terminal()
        assert state.record(names=record["names"]).to_json() == record
        assert moves_logged(a, b) == []
        devices[0].send({"type": "ping"})  # A's device is still open
        assert devices[0].until("pong")["type"] == "pong"
    finally:
        a.stop()
        b.stop()


@pytest.mark.postgres
@pytest.mark.slow
def test_a_forwarding_process_that_dies_leaves_its_seat_away(database: str, tmp_path: Path) -> None:
    """A person's only socket is at B, forwarded to A, which holds the table: the seat
    counts as connected at A (its turn waits for the person). B is SIGKILLed: A finds
    B's liveness lock free, lets the remote seat go, and once the grace runs out the
    away bot plays the seat's turn."""
    a = serve(database, tmp_path, "a")
    b = serve(database, tmp_path, "b")
    try:
        http = httpx.Client(base_url=a.url, timeout=30)
        table = person_and_bots(http, 91, grace_seconds=0.5)
        person = Player(b.ws_url, table.id, table.tokens[0])
        assert http.post(f"/tables/{table.id}/start", headers=table.host()).status_code == 204
        assert turn_of(person, 0)
        time.sleep(1.5)  # past the grace: connected through B, nobody plays the seat
        waiting = last_seq(database, table.id)[0]
        assert waiting == person.seq
        b.kill()
        deadline = time.monotonic() + 20
        while last_seq(database, table.id)[0] == waiting:
            assert time.monotonic() < deadline, "the seat of the dead forwarder stayed held"
            time.sleep(0.1)
        assert moves_logged(a) == []
    finally:
        a.stop()
        b.stop()


def answer_to(player: Player, the_id: str) -> dict[str, object]:
    """Read ``player``'s socket until the ``hint`` or ``error`` that answers ``the_id``."""
    while True:
        message = player.receive(timeout=20)
        if message["type"] in ("hint", "error") and message.get("id") == the_id:
            return message


@pytest.mark.postgres
@pytest.mark.slow
def test_a_hint_asked_through_another_process_is_the_owners(database: str, tmp_path: Path) -> None:
    """docs/deploy.md, Several processes: a seat's device at B, which does not hold the
    table, asks for a hint on its turn; A, the owner, works it out from the seat's
    observation and stores it, and B tells it to that socket alone: every legal choice
    valued, at the seq it was asked. A hint asked meanwhile by the seat's device at A is
    refused ``rate_limited`` (or B's is, whichever came first): one budget a seat.
    The record lists the one hint given, and the table never moved."""
    a = serve(database, tmp_path, "a")
    b = serve(database, tmp_path, "b")
    try:
        http = httpx.Client(base_url=a.url, timeout=30)
        table = person_and_bots(http, 41, away_bot="random")
        at_a = Player(a.ws_url, table.id, table.tokens[0])
        at_b = Player(b.ws_url, table.id, table.tokens[0])
        assert http.post(f"/tables/{table.id}/start", headers=table.host()).status_code == 204
        assert turn_of(at_b, 0)
        assert turn_of(at_a, at_b.seq)
        assert at_b.view is not None
        view, seq = at_b.view, at_b.seq
        at_b.send({"type": "hint", "id": "via-b"})
        time.sleep(0.2)  # most likely B's reaches A first; either order is checked
        at_a.send({"type": "hint", "id": "at-a"})
        answers = {"via-b": answer_to(at_b, "via-b"), "at-a": answer_to(at_a, "at-a")}
        given = [k for k, v in answers.items() if v["type"] == "hint"]
        refused = [k for k, v in answers.items() if v.get("code") == "rate_limited"]
        assert (len(given), len(refused)) == (1, 1), answers
        check_hint(answers[given[0]], view, seq)
        assert not [x for x in at_a.messages if x.get("id") == "via-b"]
        assert not [x for x in at_b.messages if x.get("id") == "at-a"]
        left = http.post(f"/tables/{table.id}/leave", headers=auth(table.tokens[0]))
        assert left.status_code == 204  # the away bot plays the seat to the game's end
        finished(http, table.id)
        record = http.get(f"/tables/{table.id}/record").json()
        assert record["hints"] == [{"seat": 0, "at": seq}]
        assert moves_logged(a, b) == []
    finally:
        a.stop()
        b.stop()


def test_a_hint_is_measured_against_what_a_notification_carries() -> None:
    """docs/deploy.md, Several processes: the owner answers a forwarded hint in a
    notification, so one longer than ``HINT_BYTES`` is refused ``unavailable`` (and not
    stored); ``fits`` measures the message as JSON, and without a limit all fit."""
    choice = {"action": "play 10H", "label": "10♥", "mean": 8.123456789, "best": False}
    small: dict[str, Json] = {"type": "hint", "choices": [choice] * 10}
    large: dict[str, Json] = {"type": "hint", "choices": [choice] * 200}
    assert hints.fits(small, forwarding.HINT_BYTES)
    assert not hints.fits(large, forwarding.HINT_BYTES)
    assert hints.fits(large, None)
    assert forwarding.HINT_BYTES < PAYLOAD_BYTES


class _SilentOwner:
    """A forwarder's leases whose table's owner holds the lease and never answers."""

    answers_channel = "here"

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def forward(self, table_id: str, request: dict[str, Any]) -> None:
        self.sent.append(request)

    def holds(self, table_id: str) -> bool:
        return False

    async def take(self, table_id: str) -> bool:
        return False


@pytest.mark.parametrize("kind", ["hint", "act"])
def test_a_forwarded_request_unanswered(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/deploy.md, Several processes: an owner that holds the table but does not
    answer in time: a forwarded hint is answered ``unavailable`` and its socket stays
    open (the owner may only be slow to work it out); an action's socket is closed with
    1012, to reconnect."""
    monkeypatch.setattr(forwarding, "FORWARD_SECONDS", 0.3)
    monkeypatch.setattr(forwarding, "HINT_FORWARD_SECONDS", 0.3)
    leases = _SilentOwner()
    forwarder = forwarding.Forwarding(cast(Any, SimpleNamespace(leases=leases)))
    closed: list[int] = []
    socket = SimpleNamespace(seat=0, close=lambda code, reason="": closed.append(code))
    forwarder.sockets["k"] = ("t1", cast(Any, socket))
    forwarder._keys[id(socket)] = "k"
    live = cast(Any, SimpleNamespace(data=SimpleNamespace(id="t1", seq=3)))
    answer = asyncio.run(forwarder.act(live, cast(Any, socket), kind, "x1", "play 4C"))
    assert [r["kind"] for r in leases.sent] == [kind]
    if kind == "hint":
        assert answer is not None
        assert (answer["type"], answer["code"], answer["id"]) == ("error", "unavailable", "x1")
        assert answer["message"] == forwarding.HINT_LATE
        assert closed == []
    else:
        assert answer is None
        assert closed == [MOVED_CODE]
