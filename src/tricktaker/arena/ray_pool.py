"""Jobs spread over a Ray cluster, their results taken in order (``--ray ADDRESS``).

The Ray counterpart of :func:`tricktaker.arena.pool.ordered_results`: the same jobs
(each a game or a deal set, seeded from its number alone) give the same results in the
same order, so a run on a cluster prints what a local run prints. Needs the ``ray``
extra (``pip install 'tricktaker[ray]'``), imported only here and only when used; every
node of the cluster needs tricktaker installed (the same version) in the Python that
runs Ray.

``address`` is what ``ray.init`` takes: ``"local"`` starts a Ray instance on this machine
for the run (``workers`` CPUs, or all of them when ``workers`` is 1) and stops it after;
``"auto"`` joins the cluster this machine belongs to (``ray start`` ran here);
``"HOST:PORT"`` joins the cluster whose head is there; ``"ray://HOST:10001"`` connects
as a Ray client. A Ray already initialized in this process (``ray.init()`` in a notebook)
is used as it is, whatever the address.

Jobs go out in chunks of ``chunk`` (one task each, fewer round trips for short jobs),
at most two tasks per CPU of the cluster ahead of the result awaited; leaving the block
cancels the tasks whose results were not taken.
"""

from __future__ import annotations

import itertools
import socket
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

Job = TypeVar("Job")
Result = TypeVar("Result")

INSTALL = "pip install 'tricktaker[ray]'"


class RayUnavailableError(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached."""


def import_ray() -> Any:
    """The ``ray`` module, or :class:`RayUnavailableError` saying how to install it."""
    try:
        import ray
    except ImportError as exc:
        raise RayUnavailableError(f"--ray needs Ray: {INSTALL}") from exc
    return ray


def _run_chunk(function: Callable[[Any], Any], jobs: list[Any]) -> list[Any]:
    """A Ray task: the results of a chunk of jobs, in order."""
    return [function(job) for job in jobs]


def check_reachable(address: str, *, timeout: float = 5.0) -> None:
    """For a ``HOST:PORT`` address, fail within ``timeout`` seconds when nothing listens
    there (Ray itself keeps trying for minutes); other addresses are left to Ray."""
    host, sep, port = address.rpartition(":")
    if not sep or "://" in address or not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as exc:
        raise RayUnavailableError(
            f"nothing answers at {address}: is the Ray head started there"
            f" (ray start --head --port={port})? ({exc})"
        ) from exc


@contextmanager
def connect(address: str, *, cpus: int | None = None) -> Iterator[Any]:
    """The ``ray`` module connected to ``address`` (see the module notes); a Ray started
    here is shut down on leaving."""
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    if address != "local":
        check_reachable(address)
    try:
        if address == "local":
            ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise RayUnavailableError(f"cannot reach the Ray cluster at {address!r}: {exc}") from exc
    try:
        yield ray
    finally:
        ray.shutdown()


@contextmanager
def ray_results(
    function: Callable[[Job], Result],
    jobs: Iterable[Job],
    *,
    address: str,
    cpus: int | None = None,
    chunk: int = 1,
) -> Iterator[Iterator[Result]]:
    """``function(job)`` for each job, computed on the Ray cluster at ``address``, in
    the order of ``jobs``, lazily (``jobs`` may be endless). ``function`` and the jobs
    must be picklable; ``cpus``: the CPUs of a ``"local"`` instance (None: all)."""
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, not {chunk}")
    with connect(address, cpus=cpus) as ray:
        task = ray.remote(_run_chunk)
        shared = ray.put(function)
        width = int(ray.cluster_resources().get("CPU", 1)) or 1
        pending: deque[Any] = deque()
        try:
            yield _in_order(
                ray, task, shared, iter(jobs), chunk=chunk, ahead=2 * width, pending=pending
            )
        finally:
            for ref in pending:
                ray.cancel(ref)


def _in_order(
    ray: Any,
    task: Any,
    shared: Any,
    jobs: Iterator[Any],
    *,
    chunk: int,
    ahead: int,
    pending: deque[Any],
) -> Iterator[Any]:
    while True:
        part = list(itertools.islice(jobs, chunk))
        if part:
            pending.append(task.remote(shared, part))
        if pending and (len(pending) >= ahead or not part):
            yield from ray.get(pending.popleft())
        elif not part:
            return
