"""The tables a server holds in memory: a cache of the database, bounded (docs/deploy.md,
Limits).

A table is read from the database the first time it is asked for, under a lock of its
id (so that many asking at once read it once), and stays while it is played or watched;
one not being played that no one watched or asked for during
:attr:`TableCache.idle_seconds` leaves memory, and is read again when asked for. The
lock of an id is let go when the last one waiting on it is done, so that ids asked for,
known or not, leave nothing behind.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterator

from tricktaker.server.limits import IDLE_SECONDS
from tricktaker.server.tables.live import Live

Load = Callable[[str], Awaitable[Live]]
"""Reads a table from the database into the cache (:meth:`TableCache.put`), given its id,
under the id's loading lock; it checks the cache first, as another may have read it."""


class TableCache:
    """The tables in memory by id, their loading locks, and the eviction of idle ones."""

    def __init__(self, idle_seconds: float = IDLE_SECONDS) -> None:
        self.idle_seconds = idle_seconds
        """How long a table not being played, that no socket watches, stays in memory
        after it was last asked for (:data:`~tricktaker.server.limits.IDLE_SECONDS`)."""
        self._tables: dict[str, Live] = {}
        self._loading: dict[str, tuple[asyncio.Lock, int]] = {}
        """The lock under which a table is read from the database, by table id, with how
        many wait on it: released when the last one is done."""
        self.on_forget: Callable[[str], None] | None = None
        """Called with the id of each table that leaves memory (its lease is let go:
        :mod:`tricktaker.server.tables.leases`)."""

    def __iter__(self) -> Iterator[Live]:
        return iter(list(self._tables.values()))

    def cached(self, table_id: str) -> Live | None:
        """The table if it is in memory (marked as asked for now), else None."""
        live = self._tables.get(table_id)
        if live is not None:
            live.used = time.monotonic()
        return live

    async def get(self, table_id: str, load: Load) -> Live:
        """The table, from memory or read by ``load`` under its id's lock."""
        cached = self.cached(table_id)
        if cached is not None:
            return cached
        lock, waiting = self._loading.get(table_id, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._loading[table_id] = (lock, waiting + 1)
        try:
            async with lock:
                return await load(table_id)
        finally:
            lock, waiting = self._loading[table_id]
            if waiting == 1:
                del self._loading[table_id]
            else:
                self._loading[table_id] = (lock, waiting - 1)

    def put(self, live: Live) -> None:
        """Hold a table read or made."""
        self._tables[live.data.id] = live

    def forget(self, table_id: str) -> None:
        """Drop a table from memory (it is read from the database when asked for)."""
        if self._tables.pop(table_id, None) is not None and self.on_forget is not None:
            self.on_forget(table_id)

    def holds(self, table_id: str) -> bool:
        """Whether the table is in memory now."""
        return table_id in self._tables

    def held(self) -> tuple[int, int]:
        """How many tables are in memory, and how many table ids are being loaded."""
        return len(self._tables), len(self._loading)

    def idle(self, live: Live, now: float) -> bool:
        """Whether ``live`` may leave memory: not being played (waiting for its start, or
        finished), no socket watches it, nothing runs for it or holds its lock, and no
        one asked for it for :attr:`idle_seconds`. A table being played stays: its
        bots, timers and grace periods run in memory, and it finishes by them."""
        return (
            live.data.status != "playing"
            and not live.subscribers
            and not live.lock.locked()
            and now - live.used >= self.idle_seconds
            and not live.grace_tasks
            and all(task is None or task.done() for task in (live.drive_task, live.timer_task))
        )

    def evict_idle(self) -> int:
        """Drop from memory every table :meth:`idle` finds idle; how many."""
        now = time.monotonic()
        idle = [table_id for table_id, live in self._tables.items() if self.idle(live, now)]
        for table_id in idle:
            self.forget(table_id)
        return len(idle)

    async def sweep(self) -> None:
        """Drop idle tables from memory, every half :attr:`idle_seconds` (at most a
        minute apart), until cancelled."""
        while True:
            await asyncio.sleep(min(60.0, max(0.05, self.idle_seconds / 2)))
            self.evict_idle()
