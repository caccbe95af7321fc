"""The sequence guard of the stored record: events are appended only by the writer that
knows the table's current sequence number, in one transaction (docs/deploy.md, Several
server processes on one database)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import sessionmaker

from tricktaker.server.db import EventRow, make_engine, upgrade
from tricktaker.server.tables import store
from tricktaker.server.tables.store import SeatData, StoredEvent, TableData


def _table(table_id: str = "guarded") -> TableData:
    return TableData(
        id=table_id,
        game="bluke",
        preset="bluke",
        ruleset_data={},
        options={},
        players=4,
        seed=7,
        status="playing",
        public=False,
        host_token_hash="0" * 64,
        invite_code=f"invite-{table_id}",
        grace_seconds=60.0,
        game_number=1,
        seq=0,
        move_timer=None,
        away_bot="easy",
        seats=[SeatData(s, "human") for s in range(4)],
    )


def test_a_writer_with_a_stale_sequence_number_stores_nothing(db_url: str) -> None:
    upgrade(db_url)
    engine = make_engine(db_url)
    try:
        factory = sessionmaker(engine, expire_on_commit=False)
        store.create_table(factory, _table(), None)
        first = [
            StoredEvent(1, 1, "deal", "AS KS", None),
            StoredEvent(2, 1, 1, "bid 2", "c-1"),
        ]
        store.append_events(factory, "guarded", 0, first, "playing")
        # A second writer that still believes the table is at seq 0 is refused, whole.
        with pytest.raises(store.StaleTableError):
            store.append_events(
                factory, "guarded", 0, [StoredEvent(1, 1, 2, "bid 3", "c-9")], "finished"
            )
        store.append_events(
            factory, "guarded", 2, [StoredEvent(3, 1, 2, "bid 1", None)], "finished"
        )
        loaded = store.load_table(factory, "guarded")
        assert loaded is not None
        data, events = loaded
        assert data.seq == 3
        assert data.status == "finished"
        assert [(e.seq, e.who, e.text, e.client_id) for e in events] == [
            (1, "deal", "AS KS", None),
            (2, 1, "bid 2", "c-1"),
            (3, 2, "bid 1", None),
        ]
    finally:
        engine.dispose()


def test_a_group_commit_writes_every_table_and_refuses_only_the_stale_one(db_url: str) -> None:
    """Several tables' events in one transaction (group commit): each caller is answered
    once its events are committed; a table whose stored seq moved on is refused alone,
    and nothing of it is written."""
    upgrade(db_url)
    engine = make_engine(db_url)
    try:
        factory = sessionmaker(engine, expire_on_commit=False)
        for name in ("t0", "t1", "t2"):
            store.create_table(factory, _table(name), None)
        store.append_events(factory, "t1", 0, [StoredEvent(1, 1, 0, "bid 1", None)], "playing")

        def bid(seq: int, text: str) -> list[StoredEvent]:
            return [StoredEvent(seq, 1, 0, text, f"c-{seq}")]

        async def run(function: Any, *args: Any) -> list[bool]:
            return await asyncio.to_thread(function, factory, *args)

        async def write_all() -> list[BaseException | None]:
            writer = store.GroupCommit(run)
            appends = [
                store.Append("t0", 0, bid(1, "bid 2"), "playing"),
                store.Append("t1", 0, bid(1, "bid 3"), "playing"),  # stale: t1 is at 1
                store.Append("t2", 0, bid(1, "bid 4"), "finished"),
            ]
            results = await asyncio.gather(
                *(writer.append(a) for a in appends), return_exceptions=True
            )
            assert writer.transactions >= 1
            return [r if isinstance(r, BaseException) else None for r in results]

        outcome = asyncio.run(write_all())
        assert outcome[0] is None
        assert outcome[2] is None
        assert isinstance(outcome[1], store.StaleTableError)
        texts: dict[str, Any] = {}
        for name in ("t0", "t1", "t2"):
            loaded = store.load_table(factory, name)
            assert loaded is not None
            texts[name] = (loaded[0].seq, loaded[0].status, [e.text for e in loaded[1]])
        assert texts == {
            "t0": (1, "playing", ["bid 2"]),
            "t1": (1, "playing", ["bid 1"]),
            "t2": (1, "finished", ["bid 4"]),
        }
        # The fast path: one transaction for tables that are all current.
        assert store.append_many(
            factory,
            [
                store.Append("t0", 1, bid(2, "bid 0"), "playing"),
                store.Append("t1", 1, bid(2, "bid 0"), "playing"),
            ],
        ) == [True, True]
        assert store.append_many(factory, [store.Append("t0", 1, bid(2, "x"), "playing")]) == [
            False
        ]
        # Rows written straight to the driver read back through the ORM like any other:
        # every column, the time stamp as an aware datetime.
        stamp = datetime.now(UTC)
        assert store.append_many(
            factory,
            [
                store.Append("t0", 2, [StoredEvent(3, 2, "deal", "AS 2H", None)], "playing"),
                store.Append("t2", 1, [StoredEvent(2, 1, 3, "play QD", "c-q")], "finished"),
            ],
        ) == [True, True]
        with factory() as session:
            rows = session.scalars(
                select(EventRow).where(EventRow.seq >= 2).order_by(EventRow.id)
            ).all()
        got = [
            (r.table_id, r.seq, r.game_number, r.seat, r.chance, r.text, r.client_id) for r in rows
        ]
        assert got[-2:] == [
            ("t0", 3, 2, None, "deal", "AS 2H", None),
            ("t2", 2, 1, 3, None, "play QD", "c-q"),
        ]
        for row in rows[-2:]:
            when = row.created_at
            if when.tzinfo is None:  # SQLite keeps no zone: the server writes UTC
                when = when.replace(tzinfo=UTC)
            assert abs((when - stamp).total_seconds()) < 60
        # Statuses and game numbers change with the events in the same transaction, and
        # only where the table's last event is the one expected: a change that comes
        # too late (t1 has an event after seq 1) is refused alone.
        assert store.append_many(
            factory,
            [
                store.Append("t0", 3, [StoredEvent(4, 3, "deal", "KS", None)], "playing", 3),
                store.Append("t1", 1, [], "finished"),
                store.Append("t2", 2, [], "playing", 2),
            ],
        ) == [True, False, True]
        states = {}
        for name in ("t0", "t1", "t2"):
            loaded = store.load_table(factory, name)
            assert loaded is not None
            states[name] = (loaded[0].seq, loaded[0].status, loaded[0].game_number)
        assert states == {"t0": (4, "playing", 3), "t1": (2, "playing", 1), "t2": (2, "playing", 2)}
    finally:
        engine.dispose()
