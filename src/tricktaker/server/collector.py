"""The cyclic garbage collector while the server serves: no pause but a rare one.

Python's collector stops the whole process while it scans a generation, and a scan
takes time in proportion to the objects it visits. Under load the server keeps many
objects for a moment (each socket's last view, each table's game and its last
observations: some 100,000 at 200 busy tables), and makes almost no cyclic garbage:
collections under load found none. Left to its thresholds, the collector scanned those
objects again and again: with Python's defaults a third of the server's CPU went to it
(``bench/server_load.py``, 200 busy tables); with raised thresholds or young collections
on a timer, every young collection still visited the objects alive at that moment, and
stopped every table for 30 to 60 ms, the worst latencies of a run.

:class:`Collector` turns the automatic collector off (objects are still freed the usual
way, when the last reference to them goes) and runs a whole collection only when the
objects made since the last one, net of those freed, exceed both what that collection
left alive and :data:`MIN_GROWTH`, or when the process's resident memory grew by more
than both half of what it was after the last one and :data:`MIN_RSS_GROWTH` (a count of
objects says little of their bytes: ``bench/soak.py`` found per-table garbage of few
objects but some 50 KB, which the object count alone let pile up to hundreds of MiB),
or every :data:`FULL_SECONDS` (Python's own rule for its oldest generation waits for a
quarter more). What start-up made is frozen
(``gc.freeze``) and never scanned. A whole collection stops the server for a time that
grows with its tables (about 0.5 s at 200 busy tables and 0.7 s at 500 on a 2-core
machine, ``bench/README.md``): with a steady heap, once in ten minutes.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import time

log = logging.getLogger(__name__)

CHECK_SECONDS = 0.5
"""How often the heap's growth is checked."""

FULL_SECONDS = 600.0
"""The longest time between whole collections."""

MIN_GROWTH = 1_000_000
"""Objects made (net) since the last collection below which none runs before
:data:`FULL_SECONDS`."""

MIN_RSS_GROWTH = 64 * 1024 * 1024
"""Bytes of resident memory gained since the last collection below which that alone
runs none."""

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int | None:
    """The process's resident memory now (None where ``/proc`` does not tell it)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


_active = 0
"""Collectors running in this process."""
_was_enabled = True
"""Whether the automatic collector was on before the first of them started."""


class Collector:
    """Runs the cyclic garbage collector on the heap's growth while the server serves
    (see the module's text); :meth:`start` in the server's event loop, :meth:`stop` at
    its end."""

    def __init__(
        self,
        check_seconds: float = CHECK_SECONDS,
        full_seconds: float = FULL_SECONDS,
        min_growth: int = MIN_GROWTH,
        min_rss_growth: int = MIN_RSS_GROWTH,
    ) -> None:
        self.check_seconds = check_seconds
        self.full_seconds = full_seconds
        self.min_growth = min_growth
        self.min_rss_growth = min_rss_growth
        self.resident_after: int | None = None
        """The resident memory the last whole collection left (None: not known)."""
        self._task: asyncio.Task[None] | None = None
        self.live = 0
        """Objects the last whole collection left alive (not counting frozen ones)."""
        self.runs = 0
        """Whole collections run so far."""

    def start(self) -> None:
        """Turn the automatic collector off, freeze what start-up made (it lives as long
        as the server) and start checking the heap's growth."""
        global _active, _was_enabled
        if self._task is not None:
            return
        if _active == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _active += 1
        gc.collect()
        gc.freeze()
        self.live = 0
        self.resident_after = resident_bytes()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop checking, collect what the server made (start-up's objects, still set
        aside, are not walked: in a process with a large heap, such as a test worker,
        that walk is what a whole collection costs) and give the collector back its
        automatic mode (as it was before the first :meth:`start` in this process, once no
        other collector runs: tests run several servers in one process), which then
        looks after the objects set aside."""
        global _active
        task, self._task = self._task, None
        if task is None:
            return
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        _active -= 1
        gc.collect()
        if _active == 0:
            gc.unfreeze()
            if _was_enabled:
                gc.enable()

    def growth(self) -> int:
        """Objects made since the last collection, net of those freed (Python's own
        count, kept without a scan)."""
        return gc.get_count()[0]

    def due(self) -> bool:
        """Whether the heap grew enough for a whole collection: in objects, or in
        resident memory."""
        if self.growth() > max(self.min_growth, self.live):
            return True
        before = self.resident_after
        if before is None:
            return False
        now = resident_bytes()
        return now is not None and now - before > max(self.min_rss_growth, before // 2)

    def collect(self) -> int:
        """A whole collection (frozen objects aside): the objects it freed."""
        began = time.perf_counter()
        freed = gc.collect()
        took = (time.perf_counter() - began) * 1000
        self.live = len(gc.get_objects())
        self.resident_after = resident_bytes()
        self.runs += 1
        log.info("garbage collection: %d objects freed in %.0f ms", freed, took)
        return freed

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        last = loop.time()
        while True:
            await asyncio.sleep(self.check_seconds)
            if self.due() or loop.time() - last >= self.full_seconds:
                self.collect()
                last = loop.time()
