"""The sequence guard of the stored record: events are appended only by the writer that
knows the table's current sequence number, in one transaction (docs/deploy.md, Several
server processes on one database)."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import sessionmaker

from tricktaker.server import store
from tricktaker.server.db import make_engine, upgrade
from tricktaker.server.store import SeatData, StoredEvent, TableData


def _table() -> TableData:
    return TableData(
        id="guarded",
        game="bluke",
        preset="bluke",
        ruleset_data={},
        options={},
        players=4,
        seed=7,
        status="playing",
        public=False,
        host_token_hash="0" * 64,
        invite_code="invite-guarded",
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
