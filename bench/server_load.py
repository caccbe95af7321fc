"""Load on the table server: many tables at once, four people each, over real WebSockets.

    python bench/server_load.py [--tables 50,200,500] [--db sqlite|postgresql|both]
                                [--seconds 30] [--max-actions N] [--game bluke] [--json]
                                [--repeat N] [--baseline-src OLD_CHECKOUT] [--whole-views]
                                [--pin] [--stagger SECONDS]

For each number of tables (and each database) the benchmark starts the real server,
``tricktaker serve --host 127.0.0.1 --port P --db URL --no-rate-limits``, as a
subprocess on a fresh database (a SQLite file in a temporary folder, or a new database
on a PostgreSQL server it starts itself in a temporary folder, with PostgreSQL's default,
durable settings). It creates the tables through the HTTP API (four human seats each:
the host takes seat 0, three people join with the invite code), connects four WebSocket
clients per table, starts every table, and then each client plays a random legal move
as soon as its view says it is to act, for ``--seconds`` seconds or ``--max-actions``
accepted actions, whichever comes first. A finished game is followed at once by a
rematch (the host's client asks for it), so a table never stops.

The clients ask for their views as changes (protocol 1.1, ``deltas`` in ``hello``, as a
client that cares for its CPU would), and apply them to the view they hold, and for their
actions to be answered by their events (protocol 1.2, ``event_acks``: no ``ack``
message); ``--whole-views`` makes them ask for neither (protocol 1.0), and a server
before 1.2 or 1.1 (``--baseline-src``) is asked again for what it knows (the ``views``
and ``acks`` columns say what they got).

With ``--pin`` (Linux) the server runs on the first core and the generator on the others,
so that neither takes the other's core (on 2 cores: the server, its database thread
included, on one core; the generator on the other); a PostgreSQL server is left where
the system puts it.

With ``--stagger S`` the tables do not start together: each starts at a random moment
within the first ``S`` seconds (uniformly), and the warm-up begins once the last has
started. Tables that start together play the same game in step (every game deals the
same number of cards in the same order), so each phase of the game weighs on the server
at one time, for every table: the short hands of Bluke, with a hand ending every few
actions, cost more an action than the long ones, and all tables reach them at once.
Staggered over about one game (``--stagger 70`` for Bluke at 200 tables), the tables are
spread over the phases of the game, as the tables of a card room are.

It only ever talks to 127.0.0.1. All the clients run in this one process, on one asyncio
event loop (uvloop's when installed; messages decoded with orjson, the cyclic GC tuned
like the server's), so that the load generator takes as little of the machine as it
can: on a 2-core machine the generator and the server share the cores, and the figures
are the server's under that handicap (the generator's CPU share is reported beside the
server's).

Reported, over the measured window (after ``--warmup`` seconds):

- accepted actions per second (acks received);
- latency of an action: from the moment a client sends it to the moment that client
  receives its event (``own``), and to the moment each of the three other clients of
  the table receives it (``others``), p50 and p99 in milliseconds. Every accepted
  action is committed to the database before it is broadcast, so this includes the
  commit;
- the server process's resident memory (VmRSS, and its peak VmHWM) at the end, from
  ``/proc``;
- CPU used by the server and by the load generator, as a share of one core;
- the server's CPU time per accepted action (the figure least disturbed by other work
  on a shared machine), and the generator's (``gen ms``);
- what the database wrote per accepted action (``KiB/act``): on SQLite, what the server
  process sent to storage (``write_bytes`` in ``/proc/PID/io``: its write-ahead log and
  the checkpoints into the database file); on PostgreSQL, how far its write-ahead log
  moved on (the table files, written later by PostgreSQL's own processes, not counted);
- errors: ``error`` messages from the server by code, dropped sockets, failed requests,
  and tracebacks in the server's log.

With ``--baseline-src DIR`` the server of another checkout (``DIR/src`` first on
``PYTHONPATH``, e.g. a ``git worktree`` of an older commit) runs the same load in turns
with this one, ``--repeat`` times each, and the medians and their ratios are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx

T = TypeVar("T")

SETUP_CONCURRENCY = 16
"""HTTP requests and socket openings in flight at once while tables are set up."""


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` on a new event loop: uvloop's (the server's too) when installed."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coroutine)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(coroutine)


sys.path.insert(0, str(Path(__file__).resolve().parent))
# The clients and the servers live beside: bench/load_clients.py, bench/load_servers.py.
from load_clients import Client, Stats, Table, apply_changes, make_table  # noqa: E402, F401
from load_servers import (  # noqa: E402
    HOST,  # noqa: F401  (the tests and bench/soak.py read these here)
    Cluster,
    Server,
    Written,
    checkpoint,  # noqa: F401
    postgres_databases,
    prime_wal,  # noqa: F401
    sqlite_databases,
    wal_position,  # noqa: F401
)


def percentile(values: list[float], q: float) -> float | None:
    """The ``q`` quantile (0..1) of ``values``, None when there are none."""
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=1000, method="inclusive")[round(q * 1000) - 1]


async def run_load(
    server: Server | Cluster,
    *,
    tables: int,
    game: str,
    seconds: float,
    warmup: float,
    max_actions: int | None,
    seed: int,
    think_ms: float = 0.0,
    changes: bool = True,
    stagger: float = 0.0,
    timeline: float = 0.0,
    written: Written | None = None,
) -> dict[str, Any]:
    """Set up ``tables`` tables on ``server``, play for ``seconds``; the figures.
    ``changes``: the clients ask for views as changes (protocol 1.1); ``stagger``: each
    table starts at a random moment within that many seconds."""
    stats = Stats(max_actions=max_actions, think_s=think_ms / 1000, changes=changes)
    rng = random.Random(seed)
    gate = asyncio.Semaphore(SETUP_CONCURRENCY)
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    async with httpx.AsyncClient(base_url=server.base, limits=limits, timeout=120) as http:

        async def one_table(i: int) -> Table:
            async with gate:
                return await make_table(http, game, seed * 100_000 + i)

        setup_start = time.perf_counter()
        made = await asyncio.gather(*(one_table(i) for i in range(tables)))
        clients = [
            Client(t, seat, stats, random.Random(rng.getrandbits(32)))
            for t in made
            for seat in range(4)
        ]

        async def open_one(client: Client) -> None:
            async with gate:
                await client.open(server.ws_base)

        await asyncio.gather(*(open_one(c) for c in clients))
        setup_s = time.perf_counter() - setup_start
        readers = [asyncio.create_task(c.run(http)) for c in clients]

        async def start(table: Table, delay: float) -> None:
            await asyncio.sleep(delay)
            async with gate:
                answer = await http.post(
                    f"/tables/{table.id}/start",
                    headers={"Authorization": f"Bearer {table.host_token}"},
                )
                if answer.status_code != 204:
                    stats.errors[f"start:{answer.status_code}"] += 1

        await asyncio.gather(*(start(t, rng.uniform(0, stagger)) for t in made))
        # The generator's cyclic GC is off while it measures (collected after): its
        # pauses would count as the server's latency.
        gc.collect()
        gc.freeze()
        gc.disable()
        await asyncio.sleep(warmup)
        stats.measuring = True
        cpu_server0, cpu_client0 = server.cpu_seconds(), time.process_time()
        wrote0 = written(server) if written is not None else 0
        began = time.perf_counter()
        while time.perf_counter() - began < seconds and not stats.stopping:
            await asyncio.sleep(0.05)
        stats.stopping = True
        window = time.perf_counter() - began
        stats.measuring = False
        cpu_server = server.cpu_seconds() - cpu_server0
        cpu_client = time.process_time() - cpu_client0
        wrote = written(server) - wrote0 if written is not None else None
        memory = server.proc_status()
        gc.enable()
        gc.unfreeze()
        await asyncio.sleep(0.5)  # let the last answers arrive before closing
        for c in clients:
            if c.socket is not None:
                await c.socket.close()
        for task in readers:
            with contextlib.suppress(Exception):
                await task
    errors = dict(stats.errors)
    tracebacks = server.tracebacks()
    if tracebacks:
        errors["server tracebacks"] = tracebacks
    row: dict[str, Any] = {
        "tables": tables,
        "clients": len(clients),
        "game": game,
        "think_ms": think_ms,
        "setup_s": round(setup_s, 1),
        "seconds": round(window, 1),
        "actions": stats.actions,
        "actions_per_s": round(stats.actions / window, 1) if window else 0.0,
        "games_finished": stats.games_finished,
        "own_p50_ms": _round(percentile(stats.own_ms, 0.5)),
        "own_p99_ms": _round(percentile(stats.own_ms, 0.99)),
        "others_p50_ms": _round(percentile(stats.others_ms, 0.5)),
        "others_p99_ms": _round(percentile(stats.others_ms, 0.99)),
        "latencies": len(stats.own_ms),
        "server_rss_mib": round(memory.get("VmRSS", 0) / 1024, 1),
        "server_peak_rss_mib": round(memory.get("VmHWM", 0) / 1024, 1),
        "server_cpu_pct": round(100 * cpu_server / window, 0) if window else 0.0,
        "client_cpu_pct": round(100 * cpu_client / window, 0) if window else 0.0,
        "server_cpu_ms_per_action": round(1000 * cpu_server / stats.actions, 2)
        if stats.actions
        else None,
        "client_cpu_ms_per_action": round(1000 * cpu_client / stats.actions, 2)
        if stats.actions
        else None,
        "written_kib_per_action": round(wrote / 1024 / stats.actions, 2)
        if wrote is not None and stats.actions
        else None,
        "views": "changes"
        if all(c.changes for c in clients)
        else "whole"
        if not any(c.changes for c in clients)
        else "mixed",
        "acks": "events"
        if all(c.event_acks for c in clients)
        else "acks"
        if not any(c.event_acks for c in clients)
        else "mixed",
        "errors": errors,
    }
    if timeline > 0:
        row["timeline"] = timeline_rows(stats, began, timeline)
    return row


def timeline_rows(stats: Stats, began: float, step: float) -> list[dict[str, Any]]:
    """The sender's latencies in windows of ``step`` seconds from ``began``: for each,
    its start (seconds into the measured window), how many, p50, p99 and the largest."""
    bins: dict[int, list[float]] = {}
    for at, ms in zip(stats.own_at, stats.own_ms, strict=True):
        bins.setdefault(int((at - began) // step), []).append(ms)
    return [
        {
            "at_s": round(index * step, 1),
            "n": len(values),
            "p50_ms": _round(percentile(values, 0.5)),
            "p99_ms": _round(percentile(values, 0.99)),
            "max_ms": _round(max(values)),
        }
        for index, values in sorted(bins.items())
    ]


def format_timeline(row: dict[str, Any]) -> list[str]:
    """``--timeline``'s lines for one run: a window a line (none without it)."""
    if "timeline" not in row:
        return []
    lines = [f"  timeline ({row['db']}, {row['tables']} tables): at s, actions, p50, p99, max ms"]
    for w in row.get("timeline", []):
        lines.append(
            f"  {w['at_s']:>7.1f} {w['n']:>7} {w['p50_ms']:>7.1f} {w['p99_ms']:>7.1f}"
            f" {w['max_ms']:>7.1f}"
        )
    return lines


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def cpu_split(pin: bool) -> tuple[set[int] | None, set[int] | None]:
    """With ``--pin``, the server's cores (the first one) and the generator's (the
    others); without, None for both (the system places them)."""
    if not pin:
        return None, None
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        raise SystemExit("--pin needs at least 2 cores")
    return {cpus[0]}, set(cpus[1:])


@contextlib.contextmanager
def pinned(cpus: set[int] | None) -> Iterator[None]:
    """Run this process (the load generator) on ``cpus`` for a while (None: as it is)."""
    if cpus is None:
        yield
        return
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cpus)
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


def measure(
    db: str, counts: list[int], args: argparse.Namespace, log_dir: Path
) -> list[dict[str, Any]]:
    """Run every table count on one kind of database (a fresh database and server each),
    ``--repeat`` times, and as often against the baseline if there is one (in turns, so
    that both see the same load from the rest of the machine)."""
    rows: list[dict[str, Any]] = []
    server_cpus, client_cpus = cpu_split(args.pin)
    variants: list[tuple[str, str | None]] = [("new", None)]
    if args.baseline_src:
        variants.append(("base", str(Path(args.baseline_src).resolve() / "src")))
    databases = sqlite_databases() if db == "sqlite" else postgres_databases(args.cold_wal)
    with databases as (fresh, written):
        for count in counts:
            for repeat in range(args.repeat):
                turn = variants if repeat % 2 == 0 else variants[::-1]
                for name, src in turn:
                    url = fresh()
                    log = log_dir / f"server-{db}-{count}-{name}-{repeat}.log"
                    server: Server | Cluster
                    if args.processes:
                        server = Cluster(url, log, args.processes, src, server_cpus)
                    else:
                        server = Server(url, log, src, server_cpus)
                    try:
                        run_async(server.ready())
                        with pinned(client_cpus):
                            row = run_async(
                                run_load(
                                    server,
                                    tables=count,
                                    game=args.game,
                                    seconds=args.seconds,
                                    warmup=args.warmup,
                                    max_actions=args.max_actions,
                                    seed=args.seed,
                                    think_ms=args.think_ms,
                                    changes=not args.whole_views,
                                    stagger=args.stagger,
                                    timeline=args.timeline,
                                    written=written,
                                )
                            )
                    finally:
                        server.stop()
                    row["db"] = db
                    row["variant"] = name
                    rows.append(row)
                    if not args.json:
                        print(format_row(row), flush=True)
                        for line in format_timeline(row):
                            print(line, flush=True)
    return rows


def summary(rows: list[dict[str, Any]]) -> list[str]:
    """Medians over the repeats of each (db, tables, variant), and the ratio of the new
    server's figures to the baseline's when there is one."""
    groups: dict[tuple[str, int], dict[str, list[dict[str, Any]]]] = {}
    for row in rows:
        key = (row["db"], row["tables"])
        groups.setdefault(key, {}).setdefault(row.get("variant", "new"), []).append(row)
    keys = (
        "actions_per_s",
        "own_p50_ms",
        "own_p99_ms",
        "others_p99_ms",
        "server_rss_mib",
        "server_cpu_ms_per_action",
        "written_kib_per_action",
    )
    lines = []
    for (db, tables), variants in groups.items():
        medians = {
            name: {k: statistics.median(r[k] or 0.0 for r in group) for k in keys}
            for name, group in variants.items()
        }
        for name, med in medians.items():
            lines.append(
                f"median {name:<4} {db:<10} {tables:>4} tables: {med['actions_per_s']:.0f}"
                f" actions/s, own p50 {med['own_p50_ms']:.1f} ms, p99 {med['own_p99_ms']:.1f}"
                f" ms, others p99 {med['others_p99_ms']:.1f} ms, RSS"
                f" {med['server_rss_mib']:.0f} MiB, server CPU"
                f" {med['server_cpu_ms_per_action']:.2f} ms an action, written"
                f" {med['written_kib_per_action']:.2f} KiB an action (n={len(variants[name])})"
            )
        if "base" in medians and "new" in medians:
            new, base = medians["new"], medians["base"]
            parts = [f"{k} x{new[k] / base[k]:.2f}" for k in keys if base[k]]
            lines.append(f"ratio new/base {db} {tables} tables: " + ", ".join(parts))
    return lines


HEADER = (
    f"{'server':<6} {'db':<10} {'tables':>6} {'actions/s':>9} {'own p50':>8} {'own p99':>8} "
    f"{'oth p50':>8} {'oth p99':>8} {'RSS MiB':>8} {'srv CPU':>7} {'gen CPU':>7} {'ms/act':>6}"
    f" {'gen ms':>6} {'KiB/act':>7} {'views':>7} {'acks':>6}  errors"
)


def format_row(row: dict[str, Any]) -> str:
    """One line of the text report (latencies in ms)."""

    def ms(key: str) -> str:
        value = row[key]
        return "-" if value is None else f"{value:.1f}"

    errors = ", ".join(f"{k} {v}" for k, v in sorted(row["errors"].items())) or "none"
    views = row.get("views", "whole")
    acks = row.get("acks", "acks")
    return (
        f"{row.get('variant', 'new'):<6} {row['db']:<10} {row['tables']:>6} "
        f"{row['actions_per_s']:>9.1f} "
        f"{ms('own_p50_ms'):>8} {ms('own_p99_ms'):>8} {ms('others_p50_ms'):>8} "
        f"{ms('others_p99_ms'):>8} {row['server_rss_mib']:>8.1f} "
        f"{row['server_cpu_pct']:>6.0f}% {row['client_cpu_pct']:>6.0f}% "
        f"{row['server_cpu_ms_per_action'] or 0:>6.2f} "
        f"{row.get('client_cpu_ms_per_action') or 0:>6.2f} "
        f"{row.get('written_kib_per_action') or 0:>7.2f} {views:>7} {acks:>6}  {errors}"
    )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tables", default="50,200,500", help="Concurrent tables, comma-separated counts."
    )
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="sqlite")
    parser.add_argument("--seconds", type=float, default=30.0, help="The measured window.")
    parser.add_argument("--warmup", type=float, default=2.0, help="Play before measuring.")
    parser.add_argument("--max-actions", type=int, default=None, help="Stop after N actions.")
    parser.add_argument("--game", default="bluke", help="The shipped game every table plays.")
    parser.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="Mean think time of a player before each move (uniform, 0 to twice it);"
        " 0: act as fast as the server answers (the default).",
    )
    parser.add_argument(
        "--whole-views",
        action="store_true",
        help="Clients ask for whole views (protocol 1.0) instead of views as changes (1.1;"
        " a server before 1.1 sends whole views either way).",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="Give the server the first core and the load generator the others (Linux), so"
        " that neither takes the other's; the database server is left where it is.",
    )
    parser.add_argument(
        "--stagger",
        type=float,
        default=0.0,
        help="Start each table at a random moment within this many seconds (uniformly),"
        " so that the tables are not in step; 0: all start together (the default).",
    )
    parser.add_argument(
        "--timeline",
        type=float,
        default=0.0,
        help="Also print the sender's latencies (p50, p99, max) in windows of this many"
        " seconds over the measured window; 0: not (the default).",
    )
    parser.add_argument(
        "--cold-wal",
        action="store_true",
        help="PostgreSQL: do not prime the new server's write-ahead log first (each run"
        " then makes, and fills with zeros, a new log file every few seconds).",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=0,
        help="Run this many server processes on the database behind HAProxy (PostgreSQL;"
        " docs/deploy.md, Several server processes); 0: one process, no proxy (the default).",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1, help="Runs of each table count.")
    parser.add_argument(
        "--baseline-src",
        default=None,
        help="Also run, in turns, the server of another checkout of tricktaker (its src/"
        " first on PYTHONPATH; e.g. a git worktree of an older commit) and print ratios.",
    )
    parser.add_argument("--json", action="store_true", help="Print the rows as JSON.")
    parser.add_argument(
        "--logs", default=None, help="Keep the servers' logs in this folder (default: removed)."
    )
    args = parser.parse_args(argv)
    try:
        args.counts = [int(x) for x in args.tables.split(",") if x.strip()]
    except ValueError:
        parser.error(f"--tables: comma-separated numbers, not {args.tables!r}")
    if not args.counts or min(args.counts) < 1:
        parser.error("--tables: at least one table")
    if args.stagger < 0:
        parser.error("--stagger: a number of seconds, 0 or more")
    if args.timeline < 0:
        parser.error("--timeline: a number of seconds, 0 or more")
    return args


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    """Run the benchmark; the rows are printed (as text or JSON) and returned."""
    args = parse_args(argv)
    kinds = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    log_dir = Path(args.logs or tempfile.mkdtemp(prefix="tricktaker-load-logs-"))
    log_dir.mkdir(parents=True, exist_ok=True)
    if not args.json:
        print(
            f"{args.game}, 4 human seats a table, {args.seconds:.0f} s measured after "
            f"{args.warmup:.0f} s"
            f"{f' (tables started over {args.stagger:.0f} s)' if args.stagger else ''}"
            f", think time {args.think_ms:.0f} ms; clients and server"
            f" share this machine's {os.cpu_count()} cores"
            f"{' (server on one, generator on the others)' if args.pin else ''}; latencies in ms"
            " (own: to the sender, oth: to the other 3 seats)"
        )
        print(HEADER, flush=True)
    rows: list[dict[str, Any]] = []
    try:
        for db in kinds:
            rows.extend(measure(db, args.counts, args, log_dir))
    finally:
        if args.logs is None:
            shutil.rmtree(log_dir, ignore_errors=True)
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for line in summary(rows):
            print(line)
    return rows


if __name__ == "__main__":
    main()
