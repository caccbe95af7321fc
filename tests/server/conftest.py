"""Fixtures of the server tests: a database URL, an in-process client, a real server.

``db_url`` is the one place that names a database: parametrize it (SQLite, PostgreSQL)
and every server test runs on each.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed")

import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tricktaker.server import create_app

POSTGRES_ENV = "TRICKTAKER_TEST_POSTGRES"
"""Names a PostgreSQL server for the tests (``postgresql+psycopg://USER@HOST:PORT/DB``,
a user who may create databases); without it the PostgreSQL runs are skipped."""


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database for one test: a SQLite file, or a new database on the
    PostgreSQL server named by ``TRICKTAKER_TEST_POSTGRES`` (dropped afterwards)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'server.sqlite3'}"
        return
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set")
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"tricktaker_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def app(db_url: str) -> FastAPI:
    """The server's application on the test's database."""
    return create_app(db_url)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """An HTTP client talking to the application in process (lifespan run)."""
    with TestClient(app) as test_client:
        yield test_client


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class LiveServer:
    """A real uvicorn server on 127.0.0.1 in a thread; ``url`` and ``ws_url`` address it."""

    def __init__(self, app: FastAPI) -> None:
        self.port = free_port()
        config = uvicorn.Config(
            app, host="127.0.0.1", port=self.port, log_level="warning", ws_max_size=64 * 1024
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
