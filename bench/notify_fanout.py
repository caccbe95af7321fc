"""What a process that watches none of a table's events pays for hearing them: one
channel for every table (``tricktaker_events``, as the server had it) against a channel
per table (as it has now: docs/scale.md, The table server).

On one PostgreSQL (started as the tests start one), a sender sends ``--notifications``
notifications ``'<table id>:<seq>'`` over ``--tables`` tables, ``--batch`` to a statement
(as :mod:`tricktaker.server.tables.leases` coalesces them). A listener (a connection of
its own, read by a thread, as the server's) watches ``--watched`` of the tables: with
one channel it hears every notification and drops those of tables it does not watch;
with a channel per table it LISTENs to those it watches alone. The figures: the
listener thread's CPU time and its PostgreSQL backend's (read from ``/proc``: the
database runs here) per notification sent, the sender's time per notification, and a
``LISTEN``/``UNLISTEN`` round trip (what a channel per table costs each mirror made
and dropped).

    .venv/bin/python bench/notify_fanout.py --notifications 100000
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.postgres import started_for_test  # noqa: E402

ONE_CHANNEL = "tricktaker_events"


def channel_of(table_id: str) -> str:
    """A table's own channel (a quoted identifier: table ids mix cases)."""
    return f"tricktaker_t_{table_id}"


def backend_cpu(pid: int) -> float:
    """The CPU seconds (user and system) the PostgreSQL backend ``pid`` used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def listen(
    url: str, channels: list[str], watched: set[str], expected: int, out: dict[str, Any]
) -> None:
    """Listen on ``channels`` until ``expected`` notifications of the ``watched`` tables
    came (then a quiet half second); the thread's CPU time and the counts in ``out``."""
    with psycopg.connect(url, autocommit=True) as connection:
        for channel in channels:
            connection.execute(f'LISTEN "{channel}"')
        out["backend"] = connection.info.backend_pid
        out["ready"].set()
        start = time.thread_time()
        heard = kept = 0
        while True:
            got = 0
            for notice in connection.notifies(timeout=0.5):
                got += 1
                heard += 1
                table_id = notice.payload.partition(":")[0]
                if table_id in watched:  # what the server's listener would pass on
                    kept += 1
            if not got and kept >= expected:
                break
        out["cpu"] = time.thread_time() - start
        out["heard"], out["kept"] = heard, kept


def run(url: str, mode: str, args: argparse.Namespace) -> dict[str, float]:
    """One mode (``one`` or ``per-table``): the figures per notification sent."""
    tables = [f"T{n:011d}" for n in range(args.tables)]
    watched = tables[: args.watched]
    channels = [ONE_CHANNEL] if mode == "one" else [channel_of(t) for t in watched]
    per_table = args.notifications // args.tables
    expected = per_table * len(watched)
    out: dict[str, Any] = {"ready": threading.Event()}
    listener = threading.Thread(target=listen, args=(url, channels, set(watched), expected, out))
    listener.start()
    if not out["ready"].wait(30):
        raise SystemExit("the listener did not connect")
    backend_before = backend_cpu(out["backend"])
    payloads = [f"{t}:{seq}" for seq in range(per_table) for t in tables]
    sent = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as sender:
        for start in range(0, len(payloads), args.batch):
            batch = payloads[start : start + args.batch]
            if mode == "one":
                sender.execute(
                    "SELECT pg_notify(%s, payload) FROM unnest(%s::text[]) AS payload",
                    (ONE_CHANNEL, batch),
                )
            else:
                sender.execute(
                    "SELECT pg_notify('tricktaker_t_' || split_part(payload, ':', 1), payload)"
                    " FROM unnest(%s::text[]) AS payload",
                    (batch,),
                )
    sending = time.perf_counter() - sent
    listener.join()
    backend = backend_cpu(out["backend"]) - backend_before
    n = len(payloads)
    return {
        "listener_us": out["cpu"] / n * 1e6,
        "backend_us": backend / n * 1e6,
        "sender_us": sending / n * 1e6,
        "heard": out["heard"],
        "kept": out["kept"],
    }


def listen_round_trip(url: str, count: int) -> float:
    """The median seconds of a ``LISTEN`` then ``UNLISTEN`` of a table's channel."""
    times = []
    with psycopg.connect(url, autocommit=True) as connection:
        for n in range(count):
            channel = channel_of(f"R{n:011d}")
            start = time.perf_counter()
            connection.execute(f'LISTEN "{channel}"')
            connection.execute(f'UNLISTEN "{channel}"')
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notifications", type=int, default=100_000)
    parser.add_argument("--tables", type=int, default=1_000)
    parser.add_argument("--watched", type=int, default=10)
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with started_for_test() as server:
        url = server.create_database().replace("postgresql+psycopg://", "postgresql://", 1)
        for mode in ("one", "per-table") * args.runs:
            f = run(url, mode, args)
            print(
                f"{mode:9}: listener thread {f['listener_us']:.2f} us, its backend"
                f" {f['backend_us']:.2f} us, sender {f['sender_us']:.2f} us a notification"
                f" ({f['heard']:.0f} heard, {f['kept']:.0f} of watched tables)",
                flush=True,
            )
        print(f"LISTEN + UNLISTEN: median {listen_round_trip(url, 500) * 1e3:.3f} ms")
        server.drop_database(url)


if __name__ == "__main__":
    main()
