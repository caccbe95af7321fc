"""Soak of the table server: thousands of short tables, created, played, abandoned and
resumed, while the server's resident memory is sampled.

    python bench/soak.py [--tables 20000] [--db sqlite|postgresql|both] [--wave 500]
                         [--concurrency 24] [--game blackout] [--idle-seconds 10] [--json]

For each database the benchmark starts the real server, ``tricktaker serve --no-rate-limits``,
as a subprocess on a fresh database (a SQLite file, or a database on a PostgreSQL server it
starts itself: bench/server_load.py's way), with ``TRICKTAKER_IDLE_SECONDS`` set to
``--idle-seconds`` (how long a table no one uses stays in the server's memory). It then
creates ``--tables`` tables in waves of ``--wave``, at most ``--concurrency`` at a time,
each of a house-rules game of two short hands (``--game`` with ``[schedule] sizes =
"1..2"``), two seats, four kinds in turn:

- ``bots``: both seats bots; the host starts it and it plays itself to the end;
- ``clients``: a person's seat, played over a WebSocket by a protocol client (random legal
  actions), and a bot;
- ``abandoned``: the person plays one action and goes for good; after the table's grace
  period (0.2 s) the away bot finishes the game;
- ``resumed``: the person plays one action, goes, comes back within the grace period
  (``hello`` with ``resume: true`` and its last seq) and plays to the end.

Every table must finish; each finished game's record is fetched (``GET
/tables/{id}/record``) and replayed with :meth:`tricktaker.engine.GameRecord.replay`, which
checks its final scores. The server's resident memory (VmRSS in ``/proc/PID/status``) is
sampled every ``--sample-seconds`` and reported: at the start, its peak, at the end, and
its slope in MiB per thousand tables by a least-squares line over the second half of the
run (after the warm-up), which a server that keeps nothing per finished table holds
near zero.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

from tricktaker.engine import GameRecord, RecordError

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load_servers  # bench/load_servers.py: the databases and the server process
import server_load  # bench/server_load.py: run_async

KINDS = ("bots", "clients", "abandoned", "resumed")
"""The kinds of table, in turn."""

GRACE_SECONDS = 0.2
"""The grace period of the tables: an abandoned seat goes to the away bot after it."""

FINISH_LIMIT = 120.0
"""Seconds a table may take to finish before the soak counts it as stuck."""


def house_rules(game: str) -> str:
    """A house-rules file: ``game`` with two hands, of one card and two."""
    return f'extends = "{game}"\nid = "soak_{game}"\nname = "Soak"\n\n[schedule]\nsizes = "1..2"\n'


@dataclass
class Soak:
    """What one run saw."""

    tables: int = 0
    finished: int = 0
    replayed: int = 0
    failed_replays: int = 0
    actions: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    samples: list[tuple[int, float, int]] = field(default_factory=list)
    """(tables finished, seconds since the start, VmRSS in KiB)."""


# ---------------------------------------------------------------------------- one seat


class Seat:
    """A person's seat over the protocol: plays random legal actions."""

    def __init__(self, ws_base: str, table_id: str, token: str, rng: random.Random) -> None:
        self.url = f"{ws_base}/tables/{table_id}/ws"
        self.token = token
        self.rng = rng
        self.view: dict[str, Any] | None = None
        self.seq = 0
        self.seat: int | None = None
        self.finished = False
        self.count = 0

    async def play(self, soak: Soak, *, actions: int | None = None, resume: bool = False) -> None:
        """Connect and play until the game is over, or until ``actions`` actions were
        accepted (then the socket is closed: the person goes)."""
        async with connect(self.url, max_size=2**22, ping_interval=None) as socket:
            hello: dict[str, Any] = {"type": "hello", "v": 1, "token": self.token}
            if resume:
                hello.update(resume=True, last_seq=self.seq)
            await socket.send(orjson.dumps(hello).decode())
            done = 0
            pending: str | None = None
            async for raw in socket:
                message = orjson.loads(raw)
                kind = message.get("type")
                if kind in ("welcome", "event"):
                    self.view = message.get("view")
                    self.seq = int(message.get("seq", self.seq))
                    if kind == "welcome":
                        self.seat = message.get("seat")
                elif kind == "table" and message["table"]["status"] == "finished":
                    self.finished = True
                elif kind == "resumed" and int(message["seq"]) != self.seq:
                    continue  # the view held is stale until the missed events come
                elif kind == "ack" and message.get("id") == pending:
                    pending = None
                    done += 1
                    soak.actions += 1
                    if actions is not None and done >= actions:
                        return
                elif kind == "error":
                    soak.errors[f"error:{message.get('code')}"] += 1
                    if message.get("id") == pending:
                        pending = None
                view = self.view
                if self.finished or (view is not None and view.get("phase") == "game_over"):
                    return
                if pending is None and view is not None and self.seat in view.get("to_act", []):
                    pending = await self._act(socket, view)

    async def _act(self, socket: ClientConnection, view: dict[str, Any]) -> str | None:
        legal = view.get("legal_actions") or []
        if not legal:
            return None
        self.count += 1
        ident = f"a{self.count}"
        action = {"type": "action", "id": ident, "action": self.rng.choice(legal)}
        await socket.send(orjson.dumps(action).decode())
        return ident


# ---------------------------------------------------------------------------- one table


async def finish(http: httpx.AsyncClient, table_id: str) -> bool:
    """Wait until the table's status is finished (False: not within the limit)."""
    deadline = time.monotonic() + FINISH_LIMIT
    while time.monotonic() < deadline:
        answer = await http.get(f"/tables/{table_id}")
        if answer.status_code == 200 and answer.json()["status"] == "finished":
            return True
        await asyncio.sleep(0.2)
    return False


async def check_record(http: httpx.AsyncClient, table_id: str, soak: Soak) -> None:
    """Fetch the table's finished game's record and replay it."""
    answer = await http.get(f"/tables/{table_id}/record")
    if answer.status_code != 200:
        soak.errors[f"record:{answer.status_code}"] += 1
        soak.failed_replays += 1
        return
    try:
        GameRecord.from_json(answer.json()).replay()
    except RecordError as exc:
        soak.errors[f"replay: {exc}"[:100]] += 1
        soak.failed_replays += 1
        return
    soak.replayed += 1


async def one_table(
    http: httpx.AsyncClient, ws_base: str, rules: str, kind: str, seed: int, soak: Soak
) -> None:
    """Create, play and check one table of ``kind``."""
    rng = random.Random(seed)
    seats = ["random", "random"] if kind == "bots" else ["human", "random"]
    body: dict[str, Any] = {
        "ruleset_toml": rules,
        "seats": seats,
        "public": False,
        "seed": seed,
        "grace_seconds": GRACE_SECONDS if kind == "abandoned" else 60.0,
    }
    if kind != "bots":
        body["host_seat"] = 0
    created = await http.post("/tables", json=body)
    if created.status_code != 201:
        soak.errors[f"create:{created.status_code}"] += 1
        return
    data = created.json()
    table_id = data["table"]["id"]
    host = {"Authorization": f"Bearer {data['host_token']}"}
    soak.tables += 1
    soak.kinds[kind] += 1
    seat = None if kind == "bots" else Seat(ws_base, table_id, data["seat_token"], rng)
    if seat is not None:
        started = asyncio.get_running_loop().create_task(
            seat.play(soak, actions=None if kind == "clients" else 1)
        )
        await asyncio.sleep(0)
    answer = await http.post(f"/tables/{table_id}/start", headers=host)
    if answer.status_code != 204:
        soak.errors[f"start:{answer.status_code}"] += 1
        return
    if seat is not None:
        await started
        if kind == "resumed" and not seat.finished:
            await asyncio.sleep(rng.uniform(0.1, 0.5))
            await seat.play(soak, resume=True)
    if not await finish(http, table_id):
        soak.errors["not finished"] += 1
        return
    soak.finished += 1
    await check_record(http, table_id, soak)


# ---------------------------------------------------------------------------- a run


async def sample_memory(
    server: load_servers.Server, soak: Soak, began: float, every: float
) -> None:
    """Sample the server's VmRSS every ``every`` seconds."""
    while True:
        with contextlib.suppress(OSError, KeyError):
            rss = server.proc_status()["VmRSS"]
            soak.samples.append((soak.finished, time.monotonic() - began, rss))
        await asyncio.sleep(every)


async def run_soak(server: load_servers.Server, args: argparse.Namespace) -> tuple[Soak, float]:
    """Run the waves of tables against ``server``; what was seen, and the seconds taken."""
    await server.ready()
    soak = Soak()
    rules = house_rules(args.game)
    limits = httpx.Limits(max_connections=args.concurrency * 2)
    began = time.monotonic()
    sampler = asyncio.get_running_loop().create_task(
        sample_memory(server, soak, began, args.sample_seconds)
    )
    gate = asyncio.Semaphore(args.concurrency)

    async def gated(index: int) -> None:
        async with gate:
            try:
                await one_table(
                    http, server.ws_base, rules, KINDS[index % len(KINDS)], index + 1, soak
                )
            except Exception as exc:  # a failure of the soak's client: counted, not hidden
                soak.errors[f"client {type(exc).__name__}: {exc}"[:100]] += 1

    async with httpx.AsyncClient(base_url=server.base, limits=limits, timeout=60) as http:
        for start in range(0, args.tables, args.wave):
            wave = range(start, min(args.tables, start + args.wave))
            await asyncio.gather(*(gated(i) for i in wave))
            if not args.json:
                rss = soak.samples[-1][2] / 1024 if soak.samples else 0.0
                print(
                    f"  {soak.finished:>6} finished, {time.monotonic() - began:7.1f} s,"
                    f" RSS {rss:6.1f} MiB",
                    flush=True,
                )
    sampler.cancel()
    with contextlib.suppress(OSError, KeyError):
        soak.samples.append(
            (soak.finished, time.monotonic() - began, server.proc_status()["VmRSS"])
        )
    return soak, time.monotonic() - began


def slope_per_thousand(samples: list[tuple[int, float, int]]) -> float | None:
    """MiB of VmRSS per thousand tables finished, by least squares over the second half
    of the samples (None with fewer than three distinct table counts there)."""
    half = samples[len(samples) // 2 :]
    xs = [done / 1000 for done, _, _ in half]
    ys = [rss / 1024 for _, _, rss in half]
    if len(set(xs)) < 3:
        return None
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / spread


def rss_by_thousand(samples: list[tuple[int, float, int]]) -> list[float]:
    """The last VmRSS sample (MiB) of each thousand tables finished, in order: the
    shape of the run (a rise to the collector's threshold, then a level)."""
    last: dict[int, int] = {}
    for done, _, rss in samples:
        last[done // 1000] = rss
    return [round(last[k] / 1024, 1) for k in sorted(last)]


def row_of(db: str, soak: Soak, seconds: float, tracebacks: int) -> dict[str, Any]:
    """The figures of one run."""
    rss = [kib / 1024 for _, _, kib in soak.samples] or [0.0]
    slope = slope_per_thousand(soak.samples)
    return {
        "db": db,
        "tables": soak.tables,
        "kinds": dict(soak.kinds),
        "finished": soak.finished,
        "replayed": soak.replayed,
        "failed_replays": soak.failed_replays,
        "actions": soak.actions,
        "seconds": round(seconds, 1),
        "tables_per_s": round(soak.finished / seconds, 1) if seconds > 0 else None,
        "rss_start_mib": round(rss[0], 1),
        "rss_peak_mib": round(max(rss), 1),
        "rss_end_mib": round(rss[-1], 1),
        "slope_mib_per_1000": round(slope, 3) if slope is not None else None,
        "samples": len(soak.samples),
        "rss_mib_by_thousand": rss_by_thousand(soak.samples),
        "errors": dict(soak.errors),
        "tracebacks": tracebacks,
    }


@contextlib.contextmanager
def databases(db: str) -> Iterator[Callable[[], str]]:
    """A function that makes a fresh database URL of kind ``db``."""
    if db == "sqlite":
        with load_servers.sqlite_databases() as (fresh, _written):
            yield fresh
    else:
        with load_servers.postgres_databases(cold_wal=True) as (fresh, _written):
            yield fresh


def measure(db: str, args: argparse.Namespace) -> dict[str, Any]:
    """One soak run on a fresh database of kind ``db``."""
    os.environ["TRICKTAKER_IDLE_SECONDS"] = str(args.idle_seconds)
    with databases(db) as fresh, tempfile.TemporaryDirectory() as folder:
        server = load_servers.Server(fresh(), Path(folder) / "server.log")
        try:
            soak, seconds = server_load.run_async(run_soak(server, args))
            tracebacks = server.tracebacks()
        finally:
            server.stop()
    return row_of(db, soak, seconds, tracebacks)


def format_rows(rows: list[dict[str, Any]]) -> list[str]:
    """The figures as a table."""
    lines = [
        "db          tables  finished  replayed  failed   s      tables/s  RSS start"
        "  peak   end (MiB)  slope MiB/1000  errors"
    ]
    for r in rows:
        slope = r["slope_mib_per_1000"]
        lines.append(
            f"{r['db']:<11} {r['tables']:>6}  {r['finished']:>8}  {r['replayed']:>8}"
            f"  {r['failed_replays']:>6}  {r['seconds']:>6.0f}  {r['tables_per_s'] or 0:>8.1f}"
            f"  {r['rss_start_mib']:>9.1f}  {r['rss_peak_mib']:>5.1f}  {r['rss_end_mib']:>5.1f}"
            f"      {'-' if slope is None else f'{slope:+.3f}':>14}  {sum(r['errors'].values())}"
            f" (+{r['tracebacks']} tracebacks)"
        )
    return lines


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=400, help="tables per database")
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--wave", type=int, default=500, help="tables per wave")
    parser.add_argument("--concurrency", type=int, default=24, help="tables at once")
    parser.add_argument("--game", default="blackout", help="the game the house rules extend")
    parser.add_argument("--idle-seconds", type=float, default=10.0)
    parser.add_argument("--sample-seconds", type=float, default=1.0)
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    args = parse_args(argv)
    kinds = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    rows = []
    for db in kinds:
        if not args.json:
            print(f"{db}: {args.tables} tables, {args.concurrency} at once", flush=True)
        rows.append(measure(db, args))
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print("\n".join(format_rows(rows)))
        for row in rows:
            for error, count in row["errors"].items():
                print(f"  {row['db']}: {count} x {error}")
    return rows


if __name__ == "__main__":
    main()
