"""Jobs run here or in a pool of worker processes, their results taken in order.

Used by the arena (deal sets) and ``tricktaker simulate`` (games): the results come back
in the order of the jobs whatever the number of workers, so the output does not depend
on it. The workers ignore Ctrl-C: the main process gets it, stops taking results and
ends the workers, so the caller can report what finished.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from multiprocessing.pool import AsyncResult
from types import FrameType, TracebackType
from typing import Any, TypeVar

Job = TypeVar("Job")
Result = TypeVar("Result")


def _ignore_interrupts() -> None:
    """Worker start-up: Ctrl-C is for the main process, which ends the workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class CtrlC:
    """Ctrl-C for a loop over results: it stops the loop at once while a result is awaited,
    but only after the result in hand is fully counted (inside :meth:`held`), so totals
    and output always agree.

    >>> with CtrlC() as ctrl_c:
    ...     with ctrl_c.held():
    ...         total = 1 + 1

    It changes nothing where Ctrl-C is not Python's usual :class:`KeyboardInterrupt`
    (ignored, handled elsewhere, or outside the main thread).
    """

    def __init__(self) -> None:
        self.requested = False
        self._holding = False
        self._previous: Any = None

    def __enter__(self) -> CtrlC:
        if (
            threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        ):
            self._previous = signal.signal(signal.SIGINT, self._on_interrupt)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None

    def _on_interrupt(self, signum: int, frame: FrameType | None) -> None:
        if self._holding:
            self.requested = True
        else:
            raise KeyboardInterrupt

    @contextmanager
    def held(self) -> Iterator[None]:
        """Ctrl-C waits until the block is done, then raises :class:`KeyboardInterrupt`."""
        self._holding = True
        try:
            yield
        finally:
            self._holding = False
        if self.requested:
            raise KeyboardInterrupt


@contextmanager
def ordered_results(
    function: Callable[[Job], Result],
    jobs: Iterable[Job],
    *,
    workers: int = 1,
    ray: str | None = None,
    chunk: int = 1,
) -> Iterator[Iterator[Result]]:
    """``function(job)`` for each job, in the order of ``jobs``, lazily.

    With one worker the jobs run here, one at a time as the results are taken. With more,
    they run in a pool of ``workers`` processes, at most ``2 * workers`` ahead of the result
    awaited (``jobs`` may be endless); leaving the block ends the pool, dropping jobs whose
    results were not taken. ``function`` and the jobs must be picklable then.

    With ``ray`` (an address, see :mod:`tricktaker.arena.ray_pool`) they run on a Ray
    cluster instead, ``chunk`` jobs per task (``workers``: the CPUs of a ``"local"``
    instance, all of them for 1); the results are the same, in the same order.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if ray is not None:
        from .ray_pool import ray_results

        cpus = workers if workers > 1 else None
        with ray_results(function, jobs, address=ray, cpus=cpus, chunk=chunk) as stream:
            yield stream
        return
    if workers == 1:
        yield (function(job) for job in jobs)
        return
    # Workers forked from the fork server, not from this process, which may run threads
    # (a test runner's, a server's): a fork copies a lock another thread holds, and the
    # pool's end then waited for ever (seen once in tests/test_arena.py under pytest-xdist).
    context = multiprocessing.get_context("forkserver")
    pool = context.Pool(workers, initializer=_ignore_interrupts)
    try:
        yield _in_order(pool, function, iter(jobs), ahead=2 * workers)
    finally:
        pool.terminate()
        pool.join()


def _in_order(
    pool: multiprocessing.pool.Pool,
    function: Callable[[Job], Result],
    jobs: Iterator[Job],
    *,
    ahead: int,
) -> Iterator[Result]:
    pending: deque[AsyncResult[Result]] = deque()
    for job in jobs:
        pending.append(pool.apply_async(function, (job,)))
        if len(pending) >= ahead:
            yield pending.popleft().get()
    while pending:
        yield pending.popleft().get()
