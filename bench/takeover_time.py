"""How long a table is without a server after its process dies (issue 32, point 4).

Two ``tricktaker serve`` processes on one PostgreSQL (started as the tests start one).
At process B, a table of three bots whose person never comes plays by its move timer
(``--move-timer``); B is SIGKILLed and the time is taken until (1) process A welcomes
the person's socket (its ``hello``: A takes the table's lease as soon as PostgreSQL has
seen B's connection end, by its orphan scan or by the hello itself, whose request
forwarded to B is not answered; ``GET /tables/ID`` is answered from the database by any
process and no longer measures this) and (2) the table's next event is stored with
nobody asking (A's scan for orphaned tables took it over and its bots play). Repeated
``--runs`` times; the medians and the worst are printed.

    .venv/bin/python bench/takeover_time.py --runs 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from sqlalchemy import create_engine, text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.postgres import started_for_test  # noqa: E402
from tests.server.helpers import Player, make_table  # noqa: E402
from tests.server_process import ServerProcess, free_port  # noqa: E402


def last_seq(url: str, table_id: str) -> int:
    """The table's last stored seq."""
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as connection:
            query = text("SELECT coalesce(max(seq), 0) FROM events WHERE table_id = :t")
            return int(connection.execute(query, {"t": table_id}).scalar_one())
    finally:
        engine.dispose()


def one_run(url: str, folder: Path, move_timer: float) -> tuple[float, float]:
    """Seconds from B's death to A welcoming the table's person, and to its next event."""
    a = ServerProcess(url, free_port(), folder / "a.log")
    b = ServerProcess(url, free_port(), folder / "b.log")
    a.start()
    b.start()
    try:
        http_b = httpx.Client(base_url=b.url, timeout=30)
        table = make_table(
            http_b,
            game="pluck",
            seats=["human", "random", "random"],
            host_seat=0,
            grace_seconds=600,
            move_timer=move_timer,
        )
        assert http_b.post(f"/tables/{table.id}/start", headers=table.host()).status_code == 204
        time.sleep(1.0)
        b.kill()
        died = time.monotonic()
        seq = last_seq(url, table.id)
        person = Player(a.ws_url, table.id, table.tokens[0])  # waits for its welcome
        answered = time.monotonic() - died
        person.close()
        while last_seq(url, table.id) == seq:
            time.sleep(0.01)
        moved = time.monotonic() - died
        return answered, moved
    finally:
        a.stop()
        b.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--move-timer", type=float, default=0.05)
    args = parser.parse_args()
    answered, moved = [], []
    with started_for_test() as server, tempfile.TemporaryDirectory() as folder:
        for _ in range(args.runs):
            url = server.create_database()
            first, second = one_run(url, Path(folder), args.move_timer)
            server.drop_database(url)
            answered.append(first)
            moved.append(second)
            print(f"answered after {first:.3f} s, next event after {second:.3f} s", flush=True)
    print(
        f"median: answered {statistics.median(answered):.3f} s (worst {max(answered):.3f}),"
        f" next event {statistics.median(moved):.3f} s (worst {max(moved):.3f})"
    )


if __name__ == "__main__":
    main()
