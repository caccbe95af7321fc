"""Three server processes on one PostgreSQL behind a real HAProxy (issue 32, point 3).

HAProxy is configured as docs/deploy.md, Several processes tells an operator to (a hash
of the path's first two segments, so that every request and socket of a table goes to
one process; health checks; WebSocket upgrades). People-like clients play whole games
through it, with bots at the other seats; the process that holds one of the tables is
SIGKILLed mid-hand, its tables are taken over and their clients reconnect (resume) and
finish; then every process is restarted in turn under play. Every record is the replay
of exactly the acknowledged actions, and no socket was sent a card it may not know.
"""

from __future__ import annotations

import contextlib
import random
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from tests.helpers import load_bench
from tests.postgres import PostgresServer, in_ci
from tests.server.helpers import Player, make_table
from tests.server.test_crash import replay_with_seeded_chance
from tests.server.test_server_properties import cards_in, knowledge
from tests.server_process import ServerProcess, free_port

SHORT_GAME = {"game": "pluck", "options": {"hands": 2}}
"""Two hands of three players: a whole game in a few seconds of bots."""

HAPROXY_CONFIG: str = load_bench("load_servers").HAPROXY_CONFIG
"""The proxy's configuration, as docs/deploy.md gives it ({host}, {port}, {servers}
filled): the load benchmark's own (bench/load_servers.py), so that both run the
documented one."""


def haproxy_binary() -> str:
    """HAProxy's path (skipped without it, failed under ``CI=true``)."""
    found = shutil.which("haproxy") or (
        "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None
    )
    if found is None:
        if in_ci():
            raise AssertionError("CI=true but haproxy is not installed (.ci/run installs it)")
        pytest.skip("haproxy is not installed (apt-get install haproxy)")
    return found


@pytest.fixture
def database(postgres_server: PostgresServer) -> Iterator[str]:
    """A fresh database on the session's PostgreSQL."""
    url = postgres_server.create_database()
    try:
        yield url
    finally:
        postgres_server.drop_database(url)


class Proxy:
    """HAProxy in front of ``servers``, on a port of its own."""

    def __init__(self, servers: list[ServerProcess], folder: Path) -> None:
        self.port = free_port()
        lines = "\n".join(f"    server s{i} 127.0.0.1:{s.port}" for i, s in enumerate(servers))
        config = folder / "haproxy.cfg"
        config.write_text(HAPROXY_CONFIG.format(host="127.0.0.1", port=self.port, servers=lines))
        check = subprocess.run(
            [haproxy_binary(), "-c", "-f", str(config)], capture_output=True, text=True
        )
        assert check.returncode == 0, check.stdout + check.stderr
        self.log = (folder / "haproxy.log").open("wb")
        self.process = subprocess.Popen(
            [haproxy_binary(), "-db", "-f", str(config)], stdout=self.log, stderr=self.log
        )
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 20
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/tables", timeout=2).status_code == 200:
                    return
            assert time.monotonic() < deadline, "HAProxy did not answer"
            time.sleep(0.1)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)
        self.log.close()


class Person:
    """A person at a seat, through the proxy: plays a seeded legal move when it is
    their turn, and reconnects (resume) whenever the socket is cut."""

    def __init__(self, ws_url: str, table_id: str, seat: int, token: str) -> None:
        self.ws_url, self.table_id, self.seat, self.token = ws_url, table_id, seat, token
        self.acks: dict[int, tuple[int, str]] = {}
        self.sockets: list[tuple[Player, int]] = []
        """Every socket it had, with the seq it started from (for the leak check)."""
        self.seq = 0
        self.reconnects = 0
        self.player = self._connect(resume=False)
        self.counter = 0

    def _connect(self, *, resume: bool) -> Player:
        deadline = time.monotonic() + 60
        while True:
            try:
                player = Player(
                    self.ws_url, self.table_id, self.token, last_seq=self.seq, resume=resume
                )
                player.seq = self.seq
                if resume:  # the view held still stands, unless events follow
                    player.view = self.player.view
                    while True:
                        first = player.receive(timeout=20)
                        if first["type"] in ("welcome", "resumed"):
                            break
                        assert first["type"] == "error", first
                        assert first["code"] == "unavailable", first
                        player.close()
                        raise ConnectionRefusedError(first["message"])
                player.seat = self.seat
                self.sockets.append((player, self.seq))
                return player
            except (ConnectionClosed, InvalidHandshake, InvalidStatus, OSError, TimeoutError):
                assert time.monotonic() < deadline, "the person could not reconnect"
                time.sleep(0.2)

    def over(self) -> bool:
        view = self.player.view
        return view is not None and view["phase"] == "game_over"

    def turn(self) -> None:
        """Read what came; play if it is this seat's turn (again after a cut)."""
        try:
            self._turn()
        except (ConnectionClosed, TimeoutError):
            self.reconnects += 1
            self.player = self._connect(resume=True)

    def _turn(self) -> None:
        p = self.player
        with contextlib.suppress(TimeoutError):
            p.receive(timeout=0.05)
        self.seq = max(self.seq, p.seq)
        if not p.my_turn() or p.view is None:
            return
        rng = random.Random(f"{self.table_id}:{self.seat}:{p.seq}")
        action = str(rng.choice(p.view["legal_actions"]))
        action_id = f"{self.seat}-{p.seq}"
        while True:
            answer = p.act(action, action_id)
            if answer["type"] == "ack":
                self.acks[answer["seq"]] = (self.seat, action)
                return
            assert answer["code"] == "unavailable", answer
            time.sleep(0.2)


def owner_pid(url: str, table_id: str) -> int:
    """The pid of the server process that holds the table's lease (from its lease
    connection's application_name)."""
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as connection:
            name = connection.execute(
                text(
                    "SELECT a.application_name FROM pg_locks l"
                    " JOIN pg_stat_activity a ON a.pid = l.pid"
                    " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
                    " AND ((l.classid::bigint << 32) | l.objid::bigint)"
                    " = hashtextextended(:t, 0)"
                ),
                {"t": table_id},
            ).scalar_one()
    finally:
        engine.dispose()
    return int(str(name).rsplit(" ", 1)[1])


def new_tables(http: httpx.Client, ws_url: str, count: int, seed: int) -> list[Person]:
    """``count`` started tables, each a person and two bots, the person connected."""
    people = []
    for i in range(count):
        table = make_table(
            http,
            **SHORT_GAME,
            seats=["human", "random", "heuristic"],
            host_seat=0,
            seed=seed + i,
            grace_seconds=600,
        )
        person = Person(ws_url, table.id, 0, table.tokens[0])
        started = http.post(f"/tables/{table.id}/start", headers=table.host())
        assert started.status_code == 204, started.text
        people.append(person)
    return people


def play(people: list[Person], until: float, *, stop: threading.Event | None = None) -> None:
    """Play every person's turns until every game is over (or ``stop`` is set)."""
    while not all(p.over() for p in people):
        assert time.monotonic() < until, [
            (p.table_id, p.seq, p.reconnects, p.player.view and p.player.view["to_act"])
            for p in people
        ]
        if stop is not None and stop.is_set():
            return
        for p in people:
            if not p.over():
                p.turn()


def check_records(http: httpx.Client, people: list[Person]) -> None:
    """Each record is the replay of its actions, every ack at its seq, no card leaked."""
    for person in people:
        answer = http.get(f"/tables/{person.table_id}/record")
        assert answer.status_code == 200, answer.text
        record = answer.json()
        state = replay_with_seeded_chance(record)
        assert state.is_terminal()
        assert state.record(names=record["names"]).to_json() == record
        for seq, (seat, action) in person.acks.items():
            assert record["events"][seq - 1] == [seat, action], seq
        known, pattern = knowledge(record)
        for player, start in person.sockets:
            seq = start
            for message in player.messages:
                if message["type"] in ("event", "welcome"):
                    seq = message["seq"]
                allowed = known[person.seat][min(seq, len(known[person.seat]) - 1)]
                leaked = cards_in(message, pattern) - allowed
                assert not leaked, (seq, message)


@pytest.mark.postgres
@pytest.mark.slow
def test_three_processes_behind_haproxy(database: str, tmp_path: Path) -> None:
    """Whole games through HAProxy; one process SIGKILLed mid-hand; a rolling restart."""
    servers = [ServerProcess(database, free_port(), tmp_path / f"s{i}.log") for i in range(3)]
    for server in servers:
        server.start()
    proxy = Proxy(servers, tmp_path)
    try:
        http = httpx.Client(base_url=proxy.url, timeout=30)
        people = new_tables(http, proxy.ws_url, 4, seed=3200)
        deadline = time.monotonic() + 120
        while not any(p.player.view and p.player.view["hands_played"] >= 1 for p in people):
            for p in people:
                p.turn()
            assert time.monotonic() < deadline
        # SIGKILL the process that holds the first table, mid-hand.
        victim_pid = owner_pid(database, people[0].table_id)
        victim = next(s for s in servers if s.process and s.process.pid == victim_pid)
        victim.kill()
        play(people, deadline)
        assert people[0].reconnects >= 1
        check_records(http, people)
        victim.start()

        # A rolling restart of all three under play: nothing lost.
        done = threading.Event()

        def restart_each() -> None:
            for server in servers:
                time.sleep(0.5)
                server.stop()
                server.start()
            done.set()

        rolling = threading.Thread(target=restart_each)
        rolling.start()
        deadline = time.monotonic() + 180
        batch = 0
        while not done.is_set():  # games begun and finished while the processes restart
            batch += 1
            people = new_tables(http, proxy.ws_url, 3, seed=3300 + 10 * batch)
            play(people, deadline)
            check_records(http, people)
        rolling.join(timeout=120)
        assert done.is_set()
    finally:
        proxy.stop()
        for server in servers:
            server.stop()


def test_haproxy_config_is_the_documented_one() -> None:
    """docs/deploy.md shows the configuration this test runs HAProxy with."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "deploy.md").read_text()
    for line in HAPROXY_CONFIG.splitlines():
        if line.strip() and "{" not in line:
            assert line in docs, line
