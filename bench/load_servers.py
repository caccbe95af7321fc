"""The servers bench/server_load.py (and bench/soak.py) run: the databases (SQLite
files, a PostgreSQL started with its durable settings), one ``tricktaker serve``
process, or several behind HAProxy (:class:`Cluster`, configured as docs/deploy.md
says). Split from bench/server_load.py, unchanged."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
"""The only address the benchmark talks to."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def tricktaker_command() -> list[str]:
    """The ``tricktaker`` command of this interpreter's environment."""
    beside = Path(sys.executable).parent / "tricktaker"
    if beside.exists():
        return [str(beside)]
    return [sys.executable, "-m", "tricktaker"]


# ---------------------------------------------------------------------------- databases


Written = Callable[["Server | Cluster"], int]
"""Bytes the database has written so far, given the server using it: what the server
process wrote to storage (SQLite), or the position in PostgreSQL's write-ahead log."""


@contextlib.contextmanager
def sqlite_databases() -> Iterator[tuple[Callable[[], str], Written]]:
    """Yields a function that makes a fresh SQLite database URL (removed at the end),
    and :data:`Written`: what the server process wrote to storage (its log and its
    checkpoints into the database file)."""
    folder = Path(tempfile.mkdtemp(prefix="tricktaker-load-"))
    counter = iter(range(1, 10**6))
    try:
        yield (
            lambda: f"sqlite:///{folder / f'load-{next(counter)}.sqlite3'}",
            lambda server: server.write_bytes(),
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


WAL_PRIMED_MIB = 1024
"""Write-ahead log that the benchmark's PostgreSQL server writes before the first run
(PostgreSQL's default ``max_wal_size``), so that its runs recycle log files as a server
that has run for a while does (:func:`prime_wal`)."""


def prime_wal(port: int, user: str, mebibytes: int) -> None:
    """Bring a new PostgreSQL cluster's write-ahead log to the state of one that has
    been running: write ``mebibytes`` of log, one 16 MiB file after another, then
    checkpoint, which keeps those files to be reused (renamed) for the log to come.

    A new cluster has one log file. Under this load (some 2 KiB of log an event, 6 to 7
    MiB a second) it must then make a new file every two or three seconds, and with
    ``wal_init_zero`` (on by default) it writes the whole file with zeros first: the
    commit waiting on it took 70 to 80 ms instead of 30, every time, which was most of
    PostgreSQL's p99. A server that has been running reuses the files its checkpoints
    release and makes none; :func:`postgres_databases` checkpoints before each run too,
    so that each run starts from the same state."""
    import psycopg

    with psycopg.connect(
        host=HOST, port=port, user=user, dbname="postgres", autocommit=True
    ) as connection:
        size = connection.execute(
            "SELECT setting::int FROM pg_settings WHERE name = 'wal_segment_size'"
        ).fetchone()
        segment = int(size[0]) if size else 16 * 2**20
        for _ in range(max(1, mebibytes * 2**20 // segment)):
            # A record in the log (not in a transaction), then on to the next file.
            connection.execute("SELECT pg_logical_emit_message(false, 'tricktaker-bench', 'x')")
            connection.execute("SELECT pg_switch_wal()")
        connection.execute("CHECKPOINT")


def wal_position(port: int, user: str) -> int:
    """The PostgreSQL server's write-ahead log position, in bytes."""
    import psycopg

    with psycopg.connect(
        host=HOST, port=port, user=user, dbname="postgres", autocommit=True
    ) as connection:
        row = connection.execute("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn").fetchone()
        return int(row[0]) if row else 0


def checkpoint(port: int, user: str) -> None:
    """Checkpoint the PostgreSQL server: the log files the last run filled are released
    to be reused, and every run starts just after a checkpoint."""
    import psycopg

    with psycopg.connect(
        host=HOST, port=port, user=user, dbname="postgres", autocommit=True
    ) as connection:
        connection.execute("CHECKPOINT")


@contextlib.contextmanager
def postgres_databases(cold_wal: bool = False) -> Iterator[tuple[Callable[[], str], Written]]:
    """Yields a function that makes a fresh database on a PostgreSQL server started for
    the benchmark (tests/postgres.py, but with PostgreSQL's durable default settings:
    fsync and synchronous commit on), checkpointed first, and :data:`Written`: the
    position in the write-ahead log. Unless ``cold_wal``, the server's write-ahead log
    is primed first (:func:`prime_wal`). The server and its folder are removed at the
    end."""
    sys.path.insert(0, str(ROOT))
    from tests import postgres

    postgres.SETTINGS = "-c max_connections=300 -c shared_buffers=128MB"
    server = postgres.PostgresServer()
    server.start()

    def fresh() -> str:
        url = server.create_database()
        checkpoint(server.port, postgres.USER)
        return url

    try:
        if not cold_wal:
            prime_wal(server.port, postgres.USER, WAL_PRIMED_MIB)
        yield fresh, lambda _server: wal_position(server.port, postgres.USER)
    finally:
        server.stop()


# ---------------------------------------------------------------------------- the server


class Server:
    """``tricktaker serve`` as a subprocess on a free port, its output in a log file."""

    def __init__(
        self, db_url: str, log_path: Path, src: str | None = None, cpus: set[int] | None = None
    ) -> None:
        self.port = free_port()
        self.log_path = log_path
        self.base = f"http://{HOST}:{self.port}"
        self.ws_base = f"ws://{HOST}:{self.port}"
        argv = [
            *tricktaker_command(),
            "serve",
            "--host",
            HOST,
            "--port",
            str(self.port),
            "--db",
            db_url,
            "--no-rate-limits",
        ]
        self._log = log_path.open("w")
        env = dict(os.environ)
        if src is not None:  # a baseline: the package from another checkout's src/
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [src, env.get("PYTHONPATH")]))
        self.process = subprocess.Popen(argv, stdout=self._log, stderr=subprocess.STDOUT, env=env)
        if cpus is not None:  # --pin: the server on a core of its own
            os.sched_setaffinity(self.process.pid, cpus)

    async def ready(self, timeout: float = 60.0) -> None:
        """Wait until the server answers HTTP."""
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(base_url=self.base) as http:
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise SystemExit(f"the server exited:\n{self.log_tail()}")
                with contextlib.suppress(httpx.TransportError):
                    if (await http.get("/tables")).status_code == 200:
                        return
                await asyncio.sleep(0.1)
        raise SystemExit(f"the server did not answer in {timeout:.0f} s:\n{self.log_tail()}")

    def proc_status(self) -> dict[str, int]:
        """VmRSS and VmHWM of the server process, in KiB."""
        found: dict[str, int] = {}
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0])
        return found

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the server process has used."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = os.sysconf("SC_CLK_TCK")
        return (int(fields[11]) + int(fields[12])) / ticks

    def write_bytes(self) -> int:
        """Bytes the server process has sent to storage (``/proc/PID/io``)."""
        for line in Path(f"/proc/{self.process.pid}/io").read_text().splitlines():
            key, _, value = line.partition(":")
            if key == "write_bytes":
                return int(value)
        return 0

    def log_tail(self, lines: int = 30) -> str:
        self._log.flush()
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def tracebacks(self) -> int:
        """Tracebacks the server wrote to its log (errors it logged)."""
        self._log.flush()
        return self.log_path.read_text(errors="replace").count("Traceback")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._log.close()


HAPROXY_CONFIG = """\
global
    maxconn 8000

defaults
    mode http
    timeout connect 2s
    timeout client 1h
    timeout server 1h
    timeout tunnel 1h
    option redispatch
    retries 3

frontend tables
    bind {host}:{port}
    default_backend servers

backend servers
    # /tables/ID/... and /tables/ID/ws: the same table, the same process.
    balance uri path-only depth 2
    hash-type consistent
    option httpchk GET /tables
    timeout check 3s
    default-server check inter 500ms fall 2 rise 1
{servers}
"""
"""HAProxy in front of several processes, as docs/deploy.md, Several server processes
configures it."""


class Cluster:
    """``processes`` ``tricktaker serve`` processes on one database behind HAProxy
    (``--processes``): the first started alone (it migrates the schema), then the others;
    the figures are the processes' summed."""

    def __init__(
        self,
        db_url: str,
        log_path: Path,
        processes: int,
        src: str | None = None,
        cpus: set[int] | None = None,
    ) -> None:
        self.db_url, self.log_path, self.processes = db_url, log_path, processes
        self.src, self.cpus = src, cpus
        self.servers: list[Server] = []
        self.port = free_port()
        self.base = f"http://{HOST}:{self.port}"
        self.ws_base = f"ws://{HOST}:{self.port}"
        self.proxy: subprocess.Popen[bytes] | None = None

    async def ready(self, timeout: float = 60.0) -> None:
        """Start the processes one after the other, then HAProxy; wait until it answers."""
        for i in range(self.processes):
            log = self.log_path.with_name(f"{self.log_path.stem}-p{i}.log")
            server = Server(self.db_url, log, self.src, self.cpus)
            self.servers.append(server)
            await server.ready(timeout)
        haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
        lines = "\n".join(f"    server s{i} {HOST}:{s.port}" for i, s in enumerate(self.servers))
        config = self.log_path.with_name(f"{self.log_path.stem}-haproxy.cfg")
        config.write_text(HAPROXY_CONFIG.format(host=HOST, port=self.port, servers=lines))
        out = self.log_path.with_name(f"{self.log_path.stem}-haproxy.log").open("wb")
        self.proxy = subprocess.Popen([haproxy, "-db", "-f", str(config)], stdout=out, stderr=out)
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(base_url=self.base) as http:
            while time.monotonic() < deadline:
                with contextlib.suppress(httpx.TransportError):
                    if (await http.get("/tables")).status_code == 200:
                        return
                await asyncio.sleep(0.1)
        raise SystemExit("HAProxy did not answer")

    def proc_status(self) -> dict[str, int]:
        """VmRSS and VmHWM of the processes, summed, in KiB."""
        found: dict[str, int] = {}
        for server in self.servers:
            for key, value in server.proc_status().items():
                found[key] = found.get(key, 0) + value
        return found

    def cpu_seconds(self) -> float:
        """CPU time the processes have used (not HAProxy's)."""
        return sum(server.cpu_seconds() for server in self.servers)

    def write_bytes(self) -> int:
        """Bytes the processes have sent to storage."""
        return sum(server.write_bytes() for server in self.servers)

    def log_tail(self, lines: int = 30) -> str:
        return "\n".join(server.log_tail(lines) for server in self.servers)

    def tracebacks(self) -> int:
        """Tracebacks the processes wrote to their logs."""
        return sum(server.tracebacks() for server in self.servers)

    def stop(self) -> None:
        if self.proxy is not None:
            self.proxy.terminate()
            self.proxy.wait(timeout=15)
        for server in self.servers:
            server.stop()
