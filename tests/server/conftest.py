"""Fixtures of the server tests: a database URL, an in-process client, a real server.

``db_url`` is the one place that names a database: parametrize it (SQLite, PostgreSQL)
and every server test runs on each.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.postgres import PostgresServer, in_ci, started_for_test
from tests.server.people import DATABASES
from tests.server_process import ServerProcess, free_port

try:
    import fastapi  # noqa: F401  (the server extra: skipped without it, except in CI)
except ImportError as missing:
    if in_ci():
        raise ImportError(
            "CI=true but the server extra is not installed: pip install -e '.[dev,server]'"
        ) from missing
    pytest.skip("the server extra is not installed", allow_module_level=True)

import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tricktaker.server import create_app
from tricktaker.server.tables.messages import MAX_SOCKET_FRAME_BYTES


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A real PostgreSQL server for the session, in a temporary directory removed at the
    end (see tests/postgres.py). Without PostgreSQL installed its tests are skipped,
    except under ``CI=true``, where they fail."""
    with started_for_test() as server:
        yield server


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database for one test: a SQLite file, or a new database on the
    session's real PostgreSQL server (dropped afterwards, open connections and all)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'server.sqlite3'}"
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    url = server.create_database()
    try:
        yield url
    finally:
        server.drop_database(url)


@pytest.fixture
def app(db_url: str) -> FastAPI:
    """The server's application on the test's database."""
    return create_app(db_url)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """An HTTP client talking to the application in process (lifespan run)."""
    with TestClient(app) as test_client:
        yield test_client


class LiveServer:
    """A real uvicorn server on 127.0.0.1 in a thread; ``url`` and ``ws_url`` address it."""

    def __init__(self, app: FastAPI) -> None:
        self.port = free_port()
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws_max_size=MAX_SOCKET_FRAME_BYTES,  # as tricktaker serve
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


@pytest.fixture
def live_server(app: FastAPI) -> Iterator[LiveServer]:
    """The application served by uvicorn on a free local port."""
    server = LiveServer(app)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def http(live_server: LiveServer) -> Iterator[httpx.Client]:
    """An HTTP client of the live server (modules with a server of their own define
    their own ``http``)."""
    with httpx.Client(base_url=live_server.url, timeout=30) as client:
        yield client


@pytest.fixture
def quick_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    """A twentieth of a second a hint (the in-process server reads it at each hint)."""
    from tricktaker.server.tables import hints

    monkeypatch.setattr(hints, "HINT_SECONDS", 0.05)


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """A real ``tricktaker serve`` process on ``db_url`` (each database in turn), stopped
    after the test: for the tests that kill it or restart it."""
    process = ServerProcess(db_url, free_port(), tmp_path / "server.log")
    process.start()
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture(scope="module", params=DATABASES)
def module_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """One real ``tricktaker serve`` process (no rate limits) for a whole module, on a
    SQLite file and then on a database of the session's real PostgreSQL server (dropped
    afterwards): for the modules whose tests each sign up names of their own
    (tests/server/people.py signs them up)."""
    folder = tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])
    url = f"sqlite:///{folder / 'server.sqlite3'}"
    postgres: PostgresServer | None = None
    if request.param == "postgresql":
        postgres = request.getfixturevalue("postgres_server")
        url = postgres.create_database()
    process = ServerProcess(url, free_port(), folder / "server.log")
    process.start()
    try:
        yield process
    finally:
        process.stop()
        if postgres is not None:
            postgres.drop_database(url)
