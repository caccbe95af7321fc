"""Which tables a server process serves, as their leases change hands
(:mod:`~tricktaker.server.tables.leases`, docs/deploy.md, Several processes): a table
taken over from a process that died, one let go to another process that asked for it,
and the wait for a table's lease."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from tricktaker.server.errors import TableElsewhereError
from tricktaker.server.tables.cache import TableCache
from tricktaker.server.tables.leases import (
    HANDOVER_SECONDS,
    MOVED_CODE,
    ORPHAN_SECONDS,
    Leases,
)
from tricktaker.server.tables.live import Live

log = logging.getLogger("tricktaker.server")


class Owning:
    """Takes over, lets go and waits for the tables of one process: ``leases``, the
    process's; ``tables``, the tables it holds in memory; ``resume``, rebuilds tables
    taken over (their lease held) and lets their bots play."""

    def __init__(
        self,
        leases: Leases,
        tables: TableCache,
        resume: Callable[[list[str]], Awaitable[None]],
    ) -> None:
        self.leases = leases
        self.tables = tables
        self.resume = resume
        self.on_taken: Callable[[list[str]], None] | None = None
        """Called with the ids of tables this process took the lease of (the sockets it
        forwarded for them to their owner reconnect)."""
        self.check_forwarders: Callable[[], Awaitable[None]] | None = None
        """Called every ORPHAN_SECONDS: lets go of the remote seats of forwarding
        processes that died (:mod:`~tricktaker.server.tables.forwarding`)."""

    async def adopt_orphans(self) -> list[str]:
        """Take over every table in play whose lease is free (the process that held it
        died): replay its record and drive its bots. Their ids."""
        taken = await self.leases.orphans()
        if taken:
            log.info("took over %d tables: %s", len(taken), ", ".join(taken[:10]))
            self._taken(taken)
        await self.resume(taken)
        return taken

    async def adopt_forever(self) -> None:
        """Take over orphaned tables every ORPHAN_SECONDS; if the lease connection was
        lost (with every lease), hold the leases again (:meth:`hold_again`)."""
        while True:
            await asyncio.sleep(ORPHAN_SECONDS)
            try:
                if self.leases.broken():
                    await self.hold_again()
                await self.adopt_orphans()
                if self.check_forwarders is not None:
                    await self.check_forwarders()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database is away: again in a second
                log.warning("could not look for orphaned tables: %s", error)

    async def hold_again(self) -> None:
        """The lease connection was lost (the database restarted, or the network
        failed): open it again and take back the lease of every table held; a table
        that another process took meanwhile is let go. Until the database is back this
        raises, and the tables stay as they are (their writes are refused anyway)."""
        held = await self.leases.reconnect()
        for table_id in held:
            if not await self.leases.take(table_id):
                live = self.tables.cached(table_id)
                if live is not None:
                    await self.let_go(live)

    def hand_over(self, table_id: str) -> None:
        """Another process asked for a table this one holds: let it go (one being read
        from the database, once it is read: released before, the table would be served
        here without its lease, beside the process that asked)."""
        asyncio.get_running_loop().create_task(self._hand_over(table_id))

    async def _hand_over(self, table_id: str) -> None:
        try:
            # Read (or being read) under the id's loading lock: waits for that reading.
            live: Live | None = await self.tables.get(table_id, self._cached)
        except LookupError:
            live = None
        if live is None:
            self.leases.release(table_id)
        else:
            await self.let_go(live)

    async def _cached(self, table_id: str) -> Live:
        """The table if in memory (the loader of :meth:`_hand_over`, which reads nothing)."""
        live = self.tables.cached(table_id)
        if live is None:
            raise LookupError(table_id)
        return live

    async def let_go(self, live: Live) -> None:
        """Drop a table from memory and release its lease (under its lock, so between
        two actions): its timers and bots stop, its sockets are closed with
        :data:`~tricktaker.server.tables.leases.MOVED_CODE` (their clients reconnect)."""
        async with live.lock:
            self.drop(live)

    def drop(self, live: Live) -> None:
        """Let a table go now (its lock held, or the caller knows another process wrote
        to it): stop its timers and bots, close its sockets with
        :data:`~tricktaker.server.tables.leases.MOVED_CODE`, forget it and release its
        lease."""
        for task in [live.drive_task, live.timer_task, *live.grace_tasks.values()]:
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        live.grace_tasks.clear()
        for sub in list(live.subscribers):
            sub.close(MOVED_CODE, "the table moved to another server process: reconnect")
        live.subscribers.clear()
        if self.tables.cached(live.data.id) is live:
            self.tables.forget(live.data.id)
        else:
            self.leases.release(live.data.id)

    def _taken(self, table_ids: list[str]) -> None:
        if self.on_taken is not None:
            self.on_taken(table_ids)

    async def lease(self, table_id: str) -> None:
        """Hold the table's lease, asking its holder to let it go if another process
        has it (:class:`TableElsewhereError` if it does not within HANDOVER_SECONDS)."""
        leases = self.leases
        if await leases.take(table_id):
            self._taken([table_id])
            return
        # Claimed while asked for, so that no orphan scan (the holder's own, say) takes
        # the table in the moment between its holder letting it go and this one taking it.
        await leases.claim(table_id)
        try:
            deadline = time.monotonic() + HANDOVER_SECONDS
            while time.monotonic() < deadline:
                await leases.ask_handover(table_id)
                for _ in range(5):
                    await asyncio.sleep(0.05)
                    if await leases.take(table_id):
                        log.info("table %s handed over to this process", table_id)
                        self._taken([table_id])
                        return
        finally:
            leases.unclaim(table_id)
        raise TableElsewhereError()
