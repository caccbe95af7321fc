"""The test databases: the PostgreSQL runs use a real server, and every test starts
from an empty database, whichever the database (tests/postgres.py, ``db_url``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from tests.postgres import PostgresServer, PostgresUnavailableError, find_bin_dir, in_ci

LEFTOVER = "left_by_an_earlier_test"


@pytest.mark.postgres
def test_the_postgresql_runs_talk_to_a_real_server(postgres_server: PostgresServer) -> None:
    """A real PostgreSQL answers over TCP on 127.0.0.1, not a stand-in."""
    engine = create_engine(postgres_server.create_database())
    try:
        with engine.connect() as connection:
            version = connection.execute(text("SELECT version()")).scalar_one()
            address = connection.execute(text("SELECT inet_server_addr()")).scalar_one()
    finally:
        engine.dispose()
    assert str(version).startswith("PostgreSQL ")
    assert str(address) == "127.0.0.1"
    assert engine.dialect.name == "postgresql"


@pytest.mark.parametrize("turn", ["first", "second"])
def test_a_table_made_by_one_test_is_gone_in_the_next(db_url: str, turn: str) -> None:
    """Each test gets an empty database: the table the other turn made is not there
    (whichever turn runs first), even though an open connection is left behind."""
    engine = create_engine(db_url)
    connection = engine.connect()
    assert inspect(connection).get_table_names() == []
    connection.execute(text(f"CREATE TABLE {LEFTOVER} (turn TEXT)"))
    connection.execute(text(f"INSERT INTO {LEFTOVER} VALUES (:turn)"), {"turn": turn})
    connection.commit()
    # The connection stays open on purpose: dropping the database must not wait for it.


@pytest.mark.postgres
def test_a_stopped_server_leaves_no_directory_behind() -> None:
    """Stopping removes the server's temporary directory, and stopping twice is safe."""
    if find_bin_dir() is None and not in_ci():
        pytest.skip("PostgreSQL is not installed")
    server = PostgresServer()
    server.start()
    root = server.root
    assert root is not None
    assert (root / "data" / "PG_VERSION").is_file()
    server.stop()
    server.stop()
    assert not root.exists()


def test_a_server_that_cannot_start_says_why_and_leaves_nothing(tmp_path: Path) -> None:
    """Programs that are not there give a clear error, and no directory is left."""
    server = PostgresServer(bin_dir=tmp_path)
    with pytest.raises(PostgresUnavailableError, match=r"initdb failed|No such file"):
        server.start()
    assert server.root is None
