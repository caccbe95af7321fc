"""A real PostgreSQL server for the tests, started in a temporary directory.

:class:`PostgresServer` finds PostgreSQL's programs (``initdb``, ``pg_ctl``,
``postgres``) on ``PATH`` or under ``/usr/lib/postgresql/*/bin``, makes a new cluster in
a fresh temporary directory, starts it on a free port of 127.0.0.1 with durability
turned off (a test database need not survive a power cut), and gives each test a new,
empty database (``CREATE DATABASE ... TEMPLATE template0``), dropped when the test ends.
``initdb`` and ``postgres`` refuse to run as root: as root, they run as the ``postgres``
user, which owns the temporary directory.

Stopping removes the directory; an ``atexit`` hook stops a server that a crashed run
left behind. Under ``CI=true`` (:func:`in_ci`) a missing PostgreSQL must fail the tests,
never skip them: CI is where the PostgreSQL runs are guaranteed.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

PROGRAMS = ("initdb", "pg_ctl", "postgres")
"""The PostgreSQL programs the tests need, all from the same directory."""

USER = "tricktaker"
"""The superuser role that ``initdb`` creates; it connects with trust authentication."""

DATABASE = "tricktaker"
"""The database the server starts with, besides PostgreSQL's own."""

SETTINGS = (
    "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
    "-c max_connections=200 -c shared_buffers=32MB"
)
"""Server settings for tests: fast and small, not durable."""


class PostgresUnavailableError(RuntimeError):
    """PostgreSQL's programs are not installed, or the server could not start."""


def in_ci() -> bool:
    """Whether the tests run in CI (``CI=true``), where nothing may be skipped."""
    return os.environ.get("CI", "").strip().lower() in {"true", "1", "yes"}


def find_bin_dir() -> Path | None:
    """The directory holding ``initdb``, ``pg_ctl`` and ``postgres``: the one on
    ``PATH`` first, then the newest ``/usr/lib/postgresql/<version>/bin``; None if
    there is none."""
    on_path = shutil.which("initdb")
    candidates: list[Path] = []
    if on_path is not None:
        candidates.append(Path(on_path).resolve().parent)
    versions = glob.glob("/usr/lib/postgresql/*/bin")
    versions.sort(key=lambda path: _version_key(Path(path).parent.name), reverse=True)
    candidates.extend(Path(path) for path in versions)
    for directory in candidates:
        if all(os.access(directory / name, os.X_OK) for name in PROGRAMS):
            return directory
    return None


def _version_key(name: str) -> tuple[int, ...]:
    """``"15"`` -> ``(15,)``, ``"9.6"`` -> ``(9, 6)``; other names sort first."""
    try:
        return tuple(int(part) for part in name.split("."))
    except ValueError:
        return (-1,)


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class PostgresServer:
    """One PostgreSQL server in a temporary directory, for one test session.

    >>> with PostgresServer() as server:  # doctest: +SKIP
    ...     url = server.create_database()
    """

    def __init__(self, bin_dir: Path | None = None, settings: str | None = None) -> None:
        """``bin_dir`` holds PostgreSQL's programs (found if None); ``settings`` are the
        server's ``-c`` options (:data:`SETTINGS` if None: fast, not durable)."""
        found = bin_dir or find_bin_dir()
        if found is None:
            raise PostgresUnavailableError(
                "PostgreSQL is not installed: no initdb, pg_ctl and postgres on PATH or "
                "under /usr/lib/postgresql/*/bin (on Debian: apt-get install postgresql)"
            )
        self.bin_dir = found
        self.settings = SETTINGS if settings is None else settings
        self.as_root = os.geteuid() == 0
        self.root: Path | None = None
        self.port = 0
        self.running = False
        self._admin: Any = None
        self._counter = itertools.count(1)

    @property
    def data_dir(self) -> Path:
        """The cluster's data directory."""
        assert self.root is not None, "the server was not started"
        return self.root / "data"

    @property
    def socket_dir(self) -> Path:
        """The directory of the server's Unix socket."""
        assert self.root is not None, "the server was not started"
        return self.root / "socket"

    @property
    def log_file(self) -> Path:
        """The server's log, quoted when it fails to start."""
        assert self.root is not None, "the server was not started"
        return self.root / "server.log"

    def url(self, database: str = DATABASE) -> str:
        """The SQLAlchemy URL of ``database`` on this server."""
        return f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{database}"

    def _run(self, *command: str) -> subprocess.CompletedProcess[str]:
        """Run one of PostgreSQL's programs, as the ``postgres`` user when root."""
        argv = [str(self.bin_dir / command[0]), *command[1:]]
        if self.as_root:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        result = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)
        if result.returncode != 0:
            raise PostgresUnavailableError(
                f"{command[0]} failed ({result.returncode}): "
                f"{(result.stderr or result.stdout).strip()}{self._log_tail()}"
            )
        return result

    def _log_tail(self) -> str:
        """The end of the server's log, for an error message; empty if none."""
        try:
            lines = self.log_file.read_text(errors="replace").splitlines()[-15:]
        except (OSError, AssertionError):
            return ""
        return "\nserver log:\n" + "\n".join(lines) if lines else ""

    def start(self) -> None:
        """Make the cluster and start the server on a free port (tried three times);
        on failure, remove what was made and raise :class:`PostgresUnavailableError`."""
        try:
            self._start()
        except BaseException as error:
            self.stop()
            if isinstance(error, Exception) and not isinstance(error, PostgresUnavailableError):
                raise PostgresUnavailableError(f"PostgreSQL did not start: {error}") from error
            raise

    def _start(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="tricktaker-pg-"))
        atexit.register(self.stop)
        self.socket_dir.mkdir()
        if self.as_root:
            shutil.chown(self.root, "postgres", "postgres")
            shutil.chown(self.socket_dir, "postgres", "postgres")
        self._run(
            "initdb",
            "-D",
            str(self.data_dir),
            "-U",
            USER,
            "--auth=trust",
            "--encoding=UTF8",
            "--no-locale",
            "--no-sync",
        )
        for attempt in range(3):
            self.port = free_port()
            options = f"-p {self.port} -k {self.socket_dir} -h 127.0.0.1 {self.settings}"
            try:
                self._run(
                    "pg_ctl", "-D", str(self.data_dir), "-l", str(self.log_file),
                    "-o", options, "-w", "-t", "60", "start",
                )  # fmt: skip
            except PostgresUnavailableError:
                if attempt == 2:
                    raise
                continue
            break
        self.running = True
        import psycopg

        self._admin = psycopg.connect(
            host="127.0.0.1", port=self.port, user=USER, dbname="postgres", autocommit=True
        )
        self._admin.execute(f'CREATE DATABASE "{DATABASE}"')

    def version(self) -> str:
        """The server's ``SELECT version()``."""
        row = self._admin.execute("SELECT version()").fetchone()
        return str(row[0])

    def create_database(self) -> str:
        """A new, empty database (``t_<n>``), returned as a SQLAlchemy URL."""
        name = f"t_{next(self._counter)}"
        self._admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        return self.url(name)

    def drop_database(self, url: str) -> None:
        """Drop the database of ``url``, closing any connection a test left open."""
        name = url.rsplit("/", 1)[1]
        self._admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        """Stop the server at once and remove its directory; safe to call twice."""
        if self._admin is not None:
            self._admin.close()
            self._admin = None
        if self.running:
            self.running = False
            # A server already gone is no error: the directory is removed all the same.
            with contextlib.suppress(PostgresUnavailableError, subprocess.TimeoutExpired):
                self._run("pg_ctl", "-D", str(self.data_dir), "-m", "immediate", "-w", "stop")
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None
        atexit.unregister(self.stop)

    def __enter__(self) -> PostgresServer:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


@contextlib.contextmanager
def started_for_test() -> Iterator[PostgresServer]:
    """A started :class:`PostgresServer` for a test or fixture, stopped and removed at the
    end. Without PostgreSQL installed the test is skipped, except under ``CI=true``,
    where it fails."""
    import pytest

    try:
        server = PostgresServer()
        server.start()  # removes what it made if it fails
    except PostgresUnavailableError as error:
        if in_ci():
            pytest.fail(f"CI=true but no PostgreSQL server for the tests: {error}")
        pytest.skip(f"no PostgreSQL server for the tests: {error}")
    try:
        yield server
    finally:
        server.stop()
