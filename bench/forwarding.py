"""What a forwarded action costs (issue 32): a person's action sent to the process that
holds the table (direct) against one sent to another process, which forwards it to the
holder through PostgreSQL and tells its socket the ack once its mirror has told the
action's event (docs/deploy.md, Several server processes).

Two ``tricktaker serve`` processes on one PostgreSQL (started as the tests start one).
Each game is a table made at process A (one person, two random bots); the person's
socket is at A (direct) or at B (forwarded), and plays every turn of the seat at once,
one action at a time. The time from sending an action to its ``ack`` is taken; the
medians, the 90th percentiles and the actions a second of one socket are printed.

    .venv/bin/python bench/forwarding.py --games 6
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.postgres import started_for_test  # noqa: E402
from tests.server.helpers import Player, make_table  # noqa: E402
from tests.server_process import ServerProcess, free_port  # noqa: E402


def play_game(http: httpx.Client, ws_url: str, seed: int) -> list[float]:
    """One game at the table server ``http``'s process, its person at ``ws_url``: the
    seconds each of the person's actions took to be acknowledged."""
    table = make_table(
        http, game="pluck", seats=["human", "random", "random"], host_seat=0, seed=seed
    )
    person = Player(ws_url, table.id, table.tokens[0])
    assert http.post(f"/tables/{table.id}/start", headers=table.host()).status_code == 204
    rng = random.Random(seed)
    took: list[float] = []
    try:
        while True:
            if person.view is not None and person.view["phase"] == "game_over":
                return took
            if person.my_turn():
                action = person.random_action(rng)
                began = time.perf_counter()
                answer = person.act(action, f"a{len(took)}")
                took.append(time.perf_counter() - began)
                assert answer["type"] == "ack", answer
            else:
                person.receive(timeout=20)
    finally:
        person.close()


def report(name: str, took: list[float]) -> None:
    """Print one way's figures."""
    ordered = sorted(took)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    print(
        f"{name}: {len(took)} actions, median {1000 * statistics.median(took):.2f} ms,"
        f" p90 {1000 * p90:.2f} ms, {len(took) / sum(took):.0f} actions/s on one socket",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    with started_for_test() as server, tempfile.TemporaryDirectory() as folder:
        url = server.create_database()
        a = ServerProcess(url, free_port(), Path(folder) / "a.log")
        b = ServerProcess(url, free_port(), Path(folder) / "b.log")
        a.start()
        b.start()
        try:
            http = httpx.Client(base_url=a.url, timeout=30)
            direct: list[float] = []
            forwarded: list[float] = []
            for game in range(args.games):  # alternately, so both see the same load
                direct += play_game(http, a.ws_url, 1000 + game)
                forwarded += play_game(http, b.ws_url, 1000 + game)
            report("direct", direct)
            report("forwarded", forwarded)
            ratio = statistics.median(forwarded) / statistics.median(direct)
            print(f"forwarded / direct, medians: {ratio:.2f}")
        finally:
            a.stop()
            b.stop()
            server.drop_database(url)


if __name__ == "__main__":
    main()
