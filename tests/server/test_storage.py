"""The server's storage: schema migrations, rebuilding tables from the database, the
protocol page in sync with the message models, and ``tricktaker serve``.

docs/protocol.md: every accepted action is stored before anyone is told of it; a table in
memory is only a cache of the database.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, create_engine, text
from typer.testing import CliRunner

from tests.server.helpers import make_table
from tests.server_process import free_port
from tricktaker import load_ruleset
from tricktaker.cli import app as cli_app
from tricktaker.engine import GameRecord
from tricktaker.server import create_app
from tricktaker.server.db import current_revision, hash_token, upgrade
from tricktaker.server.protocol_doc import updated

ROOT = Path(__file__).resolve().parents[2]
FIRST_TABLE_COLUMNS = (
    "id, created_at, game, preset, ruleset_toml, ruleset_data, options, players, seed, status,"
    " public, host_token_hash, invite_code, grace_seconds, game_number, seq"
)
"""The columns of the ``tables`` table as the first migration makes it."""


def database_at(db_url: str, revision: str) -> Engine:
    """The database at ``db_url`` migrated up to ``revision`` (an older one), opened."""
    upgrade(db_url, revision)
    return create_engine(db_url)


def test_the_server_upgrades_a_database_made_by_the_first_migration(db_url: str) -> None:
    """docs/protocol.md, HTTP API: an older database is upgraded at start and its tables
    keep working (the second migration adds chat, the move timer and the away bot)."""
    engine = database_at(db_url, "0001")
    assert current_revision(db_url) == "0001"
    with engine.begin() as connection:
        connection.execute(
            text(
                f"INSERT INTO tables ({FIRST_TABLE_COLUMNS}) VALUES ('old1', :at, 'blackout',"
                " 'blackout', NULL, :data, '{}', 4, 3, 'waiting', :public, :host, 'inv1', 60.0,"
                " 0, 0)"
            ),
            {
                "at": datetime.now(UTC),
                "data": json.dumps(load_ruleset("blackout").data),
                "public": True,
                "host": hash_token("host-secret"),
            },
        )
        for seat in range(4):
            connection.execute(
                text(
                    "INSERT INTO seats (table_id, seat, kind, bot)"
                    " VALUES ('old1', :s, 'bot', 'random')"
                ),
                {"s": seat},
            )
    engine.dispose()
    with TestClient(create_app(db_url)) as client:
        assert current_revision(db_url) == "0016"
        details = client.get("/tables/old1").json()
        assert details["move_timer"] is None
        assert [s["bot"] for s in details["seats"]] == ["random"] * 4
        started = client.post("/tables/old1/start", headers={"Authorization": "Bearer host-secret"})
        assert started.status_code == 204, started.text


def test_a_tables_sequence_number_moves_from_its_row_to_its_last_event(db_url: str) -> None:
    """docs/deploy.md, Several server processes: a table's sequence number is its last
    event's. The fifth migration drops the row's copy and keeps every event (on SQLite
    the table is made again: its events, seats and chat must not go with it); going
    back makes the copy again from the events."""
    from tricktaker.server.db import make_engine
    from tricktaker.server.tables import store

    engine = database_at(db_url, "0004")
    with engine.begin() as connection:
        connection.execute(
            text(
                f"INSERT INTO tables ({FIRST_TABLE_COLUMNS}, away_bot) VALUES ('t4', :at,"
                " 'bluke', 'bluke', NULL, '{}', '{}', 4, 3, 'playing', :public, :host, 'inv4',"
                " 60.0, 1, 3, 'easy')"
            ),
            {"at": datetime.now(UTC), "public": True, "host": hash_token("h")},
        )
        for seat in range(4):
            connection.execute(
                text("INSERT INTO seats (table_id, seat, kind) VALUES ('t4', :s, 'human')"),
                {"s": seat},
            )
        for seq, who, what in ((1, None, "AS KS QS JS"), (2, 0, "bid 1"), (3, 1, "bid 2")):
            connection.execute(
                text(
                    "INSERT INTO events (table_id, seq, game_number, seat, chance, text,"
                    " created_at) VALUES ('t4', :seq, 1, :seat, :chance, :text, :at)"
                ),
                {
                    "seq": seq,
                    "seat": who,
                    "chance": "deal" if who is None else None,
                    "text": what,
                    "at": datetime.now(UTC),
                },
            )
    engine.dispose()
    upgrade(db_url)
    assert current_revision(db_url) == "0016"
    ours = make_engine(db_url)
    try:
        from sqlalchemy.orm import sessionmaker

        loaded = store.load_table(sessionmaker(ours), "t4")
        assert loaded is not None
        data, events = loaded
        assert data.seq == 3
        assert [e.text for e in events] == ["AS KS QS JS", "bid 1", "bid 2"]
        assert len(data.seats) == 4
    finally:
        ours.dispose()
    from alembic import command

    from tricktaker.server.db import alembic_config

    command.downgrade(alembic_config(db_url), "0004")  # back: the copy made from the events
    engine = create_engine(db_url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT seq FROM tables WHERE id = 't4'")).scalar() == 3
        assert connection.execute(text("SELECT count(*) FROM events")).scalar() == 3
    engine.dispose()


def test_a_restarted_server_rebuilds_a_table_from_its_events(db_url: str) -> None:
    """docs/protocol.md: a table in memory is a cache; a new server on the same database
    rebuilds an unfinished game by replaying its stored events and its bots play on."""
    with TestClient(create_app(db_url)) as client:
        table = make_table(
            client, game="blackout", seats=["human", "random", "random", "random"], seed=4
        )
        assert client.post(f"/tables/{table.id}/start", headers=table.host()).status_code == 204
        seq = client.get(f"/tables/{table.id}").json()["seq"]
        assert seq >= 1
    with TestClient(create_app(db_url)) as client:
        assert client.get(f"/tables/{table.id}").json()["seq"] >= seq
        # The person leaves: a bot takes the seat and the game runs to its end.
        left = client.post(
            f"/tables/{table.id}/leave", headers={"Authorization": f"Bearer {table.tokens[0]}"}
        )
        assert left.status_code == 204
        deadline = time.monotonic() + 60
        while client.get(f"/tables/{table.id}").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        record = GameRecord.from_json(client.get(f"/tables/{table.id}/record").json())
    assert record.replay().is_terminal()
    engine = create_engine(db_url)
    with engine.connect() as connection:
        stored = connection.execute(
            text(f"SELECT seq FROM events WHERE table_id = '{table.id}' ORDER BY seq")
        ).all()
    engine.dispose()
    assert [row[0] for row in stored] == list(range(1, len(record.events) + 1))


def test_the_protocol_page_has_the_schemas_of_the_current_messages() -> None:
    """docs/protocol.md, Message schemas: generated from the models and kept in sync
    (python -m tricktaker.server.protocol_doc)."""
    page = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert updated(page) == page
    for name in ("hello", "action", "welcome", "event", "ack", "error", "presence"):
        assert f"#### `{name}`" in page


def test_serve_help_fits() -> None:
    """``tricktaker serve --help`` fits 80 and 100 columns and names ``--db DB`` (a
    SQLite file's path or a database URL, docs/deploy.md)."""
    for columns in (80, 100):
        result = CliRunner().invoke(cli_app, ["serve", "--help"], terminal_width=columns)
        assert result.exit_code == 0
        assert "--db DB" in result.stdout
        assert max(len(line) for line in result.stdout.splitlines()) <= columns


def test_serve_without_the_extra_says_how_to_install_it(tmp_path: Path) -> None:
    """docs/protocol.md: the server needs the server extra; without it, serve says so."""
    code = (
        "import sys; sys.modules['uvicorn'] = None; sys.modules['fastapi'] = None\n"
        "from tricktaker.cli import main; sys.argv = ['tricktaker', 'serve']; main()"
    )
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 2
    assert "pip install 'tricktaker[server]'" in done.stderr


@pytest.mark.slow
def test_serve_starts_and_prints_where_its_data_is(tmp_path: Path) -> None:
    """docs/protocol.md: ``tricktaker serve`` listens on 127.0.0.1 and says where its
    SQLite file is (in the user's data folder)."""
    port = free_port()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    process = subprocess.Popen(
        [sys.executable, "-m", "tricktaker", "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        second = process.stdout.readline()
        assert first.strip() == f"Database: {tmp_path / 'tricktaker' / 'server.sqlite3'}"
        assert f"http://127.0.0.1:{port}/" in second
        deadline = time.monotonic() + 30
        while True:
            try:
                assert httpx.get(f"http://127.0.0.1:{port}/tables").json() == []
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_sqlite_checkpoints_are_made_apart_from_the_commits(tmp_path: Path) -> None:
    """docs/deploy.md, SQLite: the server's commits never copy the write-ahead log into
    the database file themselves; a checkpointer does, in its own thread, and the log
    is gone once the server has stopped. Nothing committed is lost either way."""
    from tricktaker.server.db import WalCheckpointer, make_engine

    path = tmp_path / "wal.sqlite3"
    engine = make_engine(f"sqlite:///{path}", checkpoint_apart=True)
    wal = Path(f"{path}-wal")
    try:
        with engine.begin() as connection:
            connection.execute(text("CREATE TABLE t (x TEXT)"))
        empty = path.stat().st_size
        for _ in range(100):  # some 4 MB of log: past the 1,000 pages SQLite would keep
            with engine.begin() as connection:
                connection.execute(text("INSERT INTO t VALUES (:x)"), [{"x": "y" * 4000}] * 10)
        assert path.stat().st_size == empty  # every page is still in the log only
        assert wal.stat().st_size > 4_000_000
        checkpointer = WalCheckpointer(engine, interval=0.01)
        checkpointer.start()
        deadline = time.monotonic() + 30
        while checkpointer.runs < 1:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert path.stat().st_size > 4_000_000  # copied into the database file
        checkpointer.stop()
        with engine.connect() as connection:
            assert connection.execute(text("SELECT count(*) FROM t")).scalar() == 1000
    finally:
        engine.dispose()
    assert not wal.exists()  # the last connection to close removed the log


def test_a_rematch_and_the_chat_are_what_a_restarted_server_finds(db_url: str) -> None:
    """docs/protocol.md, HTTP API and Live play: a rematch's game number and status are
    stored with its deal, and the chat with the table; a new server on the same
    database plays the second game on and shows the chat in its welcome."""
    with TestClient(create_app(db_url)) as client:
        table = make_table(client, game="jabberwocky", seats=["human", *["random"] * 3])
        assert client.post(f"/tables/{table.id}/start", headers=table.host()).status_code == 204
        with client.websocket_connect(f"/tables/{table.id}/ws") as socket:
            socket.send_text(json.dumps({"type": "hello", "v": 1, "token": table.tokens[0]}))
            assert json.loads(socket.receive_text())["type"] == "welcome"
            socket.send_text(json.dumps({"type": "chat", "text": "good luck"}))
            while json.loads(socket.receive_text())["type"] != "chat":
                pass
        given = client.put(
            f"/tables/{table.id}/seats/0/bot", json={"bot": "random"}, headers=table.host()
        )
        assert given.status_code == 204  # a bot plays the seat from now on
        deadline = time.monotonic() + 60
        while client.get(f"/tables/{table.id}").json()["status"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        rematch = client.post(f"/tables/{table.id}/rematch", headers=table.host())
        assert rematch.status_code == 204
        seq = client.get(f"/tables/{table.id}").json()["seq"]
    engine = create_engine(db_url)
    with engine.connect() as connection:
        row = connection.execute(
            text(f"SELECT game_number, status FROM tables WHERE id = '{table.id}'")
        ).one()
        dealt = connection.execute(
            text(f"SELECT count(*) FROM events WHERE table_id = '{table.id}' AND game_number = 2")
        ).scalar()
    engine.dispose()
    assert tuple(row) == (2, "playing")
    assert dealt is not None
    assert dealt >= 1  # the second game's deal, stored with it
    with TestClient(create_app(db_url)) as client:
        details = client.get(f"/tables/{table.id}").json()
        assert (details["game_number"], details["status"]) == (2, "playing")
        assert details["seq"] >= seq
        with client.websocket_connect(f"/tables/{table.id}/ws") as socket:
            socket.send_text(json.dumps({"type": "hello", "v": 1}))
            welcome = json.loads(socket.receive_text())
        assert [line["text"] for line in welcome["chat"]] == ["good luck"]
