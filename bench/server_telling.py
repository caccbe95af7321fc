"""What telling an action costs the table server, in-process: many tables played in turn.

    python bench/server_telling.py [--tables 200] [--actions 60000] [--game bluke]
                                   [--repeat 3] [--baseline-src OLD_CHECKOUT] [--json]

The table server's CPU an action (``bench/server_load.py``) is mostly telling: making
each seat's view after the action (its observation, its ``present`` block), finding
what changed since the view the socket holds, and writing the message. This benchmark
times that part alone, on one core, without sockets, a database or a load generator:
``--tables`` tables of the game, four people each, are played in turn (one random
legal action at a table, then the next table, as a busy server's loop does), and each
action is applied, its chance steps resolved and its events told
(``tricktaker.server.tables.telling.tell_events``) to four sockets that ask for views as
changes and for events as acks (protocol 1.2). Each socket is the server's own
``Connection`` on a socket that keeps nothing: every message is encoded as it would be
sent. A finished game is followed by a new one.

Reported: microseconds an action (median over the repeats of each run's mean), for every
action and split by kind: an action that ends a hand (told with the next hand's deal)
and every other. With ``--baseline-src DIR`` the same is run, in turns, with the
``tricktaker`` package of another checkout (``DIR/src``), in a subprocess each, and the
ratios are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


class _Socket:
    """A socket that takes every message at once and keeps none."""

    async def send_text(self, text: str) -> None:
        return None

    async def close(self, code: int = 1000) -> None:
        return None


def run_once(tables: int, actions: int, game: str, seed: int) -> dict[str, Any]:
    """Play ``actions`` actions over ``tables`` tables in turn; the timings (in this
    process, with whatever ``tricktaker`` it imports)."""
    from tricktaker import load_ruleset, new_game
    from tricktaker.cards import format_card
    from tricktaker.engine import Action, ChanceOutcome
    from tricktaker.server.tables.live import Live
    from tricktaker.server.tables.store import SeatData, StoredEvent, TableData
    from tricktaker.server.tables.telling import tell_events
    from tricktaker.server.tables.ws import Connection

    rules = load_ruleset(game)
    players = 4
    rng = random.Random(seed)

    def table(index: int) -> Any:
        data = TableData(
            id=f"bench-{index}",
            game=game,
            preset=game,
            ruleset_data={},
            options={},
            players=players,
            seed=index,
            status="playing",
            public=False,
            host_token_hash="",
            invite_code="",
            grace_seconds=60.0,
            game_number=1,
            seq=0,
            move_timer=None,
            away_bot="easy",
            seats=[SeatData(s, "human", name=f"P{s}", token_hash="x") for s in range(players)],
        )
        live = Live(data=data, state=None)
        for s in range(players):
            conn = Connection(_Socket(), rate=None)  # type: ignore[arg-type]
            conn.seat, conn.deltas, conn.event_acks = s, True, True
            live.subscribers.add(conn)
        return SimpleNamespace(live=live, state=None, game_number=0)

    def start(t: Any) -> None:
        t.game_number += 1
        t.live.data.game_number = t.game_number
        state = new_game(rules, players=players, seed=rng.getrandbits(32))
        while state.is_chance():
            state.apply_chance()
        t.state = state
        t.live.data.seq += len(state.events)

    def stored_events(t: Any, before: Any, after: Any, client: str) -> list[Any]:
        labels = after.rules.joker_labels
        out = []
        for index, (who, what) in enumerate(after.events[len(before.events) :]):
            seq = t.live.data.seq + 1 + index
            if isinstance(what, ChanceOutcome):
                cards = " ".join(format_card(c, labels=labels) for c in what.cards)
                out.append(StoredEvent(seq, t.game_number, what.kind, cards, None))
            else:
                assert isinstance(what, Action)
                text = what.text(labels=labels)
                out.append(
                    StoredEvent(seq, t.game_number, who, text, client if index == 0 else None)
                )
        return out

    async def play() -> dict[str, Any]:
        all_tables = [table(i) for i in range(tables)]
        for t in all_tables:
            start(t)
        plain: list[float] = []
        ends: list[float] = []
        gc.collect()
        gc.freeze()
        gc.disable()
        clock = time.perf_counter
        done = 0
        while done < actions:
            for t in all_tables:
                state = t.state
                if state.is_terminal():
                    start(t)
                    state = t.state
                seat = state.to_act()[0]
                action = rng.choice(state.legal_actions(seat))
                by = next(c for c in t.live.subscribers if c.seat == seat)
                began = clock()
                after = state.clone()
                after.apply(seat, action)
                steps = []
                while after.is_chance() and not after.is_terminal():
                    steps.append(after.clone())
                    after.apply_chance()
                stored = stored_events(t, state, after, f"a{done}")
                t.live.state = after
                t.live.data.seq += len(stored)
                tell_events(t.live, state, after, stored, by, steps)
                await asyncio.sleep(0)  # the outbox's end-of-round send
                took = clock() - began
                (ends if len(after.history) > len(state.history) else plain).append(took)
                t.state = after
                done += 1
                if done >= actions:
                    break
        gc.enable()
        gc.unfreeze()
        every = plain + ends
        return {
            "tables": tables,
            "actions": len(every),
            "us_per_action": 1e6 * statistics.fmean(every),
            "us_plain": 1e6 * statistics.fmean(plain) if plain else None,
            "us_hand_end": 1e6 * statistics.fmean(ends) if ends else None,
            "hand_ends": len(ends),
        }

    return asyncio.run(play())


KEYS = ("us_per_action", "us_plain", "us_hand_end")


def _median(values: list[float | None]) -> float | None:
    """The median of the values given (None when there are none)."""
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def _us(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def in_subprocess(src: Path, args: argparse.Namespace) -> dict[str, Any]:
    """One run with the ``tricktaker`` package of ``src`` first on ``PYTHONPATH``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(src), env.get("PYTHONPATH")]))
    argv = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--once",
        "--tables",
        str(args.tables),
        "--actions",
        str(args.actions),
        "--game",
        args.game,
        "--seed",
        str(args.seed),
    ]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--actions", type=int, default=200_000)
    parser.add_argument("--game", default="bluke")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline-src", default=None)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--once", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.tables < 1 or args.actions < 1:
        parser.error("--tables and --actions: at least 1")
    if args.once:
        print(json.dumps(run_once(args.tables, args.actions, args.game, args.seed)))
        return []
    variants = [("new", ROOT / "src")]
    if args.baseline_src:
        variants.append(("base", Path(args.baseline_src).resolve() / "src"))
    rows: list[dict[str, Any]] = []
    for repeat in range(args.repeat):
        for name, src in variants if repeat % 2 == 0 else variants[::-1]:
            row = {"variant": name, **in_subprocess(src, args)}
            rows.append(row)
            if not args.json:
                print(
                    f"{name:<5} {row['tables']} tables, {row['actions']} actions:"
                    f" {_us(row['us_per_action'])} us an action, {_us(row['us_plain'])} us a"
                    f" plain one, {_us(row['us_hand_end'])} us one that ends a hand"
                    f" ({row['hand_ends']} of them)",
                    flush=True,
                )
    medians = {
        name: {k: _median([r[k] for r in rows if r["variant"] == name]) for k in KEYS}
        for name, _ in variants
    }
    if args.json:
        print(json.dumps({"rows": rows, "medians": medians}, indent=2))
        return rows
    for name, med in medians.items():
        print(
            f"median {name}: {_us(med['us_per_action'])} us an action, plain"
            f" {_us(med['us_plain'])}, ending a hand {_us(med['us_hand_end'])}"
        )
    if "base" in medians:
        new, base = medians["new"], medians["base"]
        ratios = [f"{k} x{n / b:.2f}" for k in KEYS if (n := new[k]) is not None and (b := base[k])]
        print("ratio new/base: " + ", ".join(ratios))
    return rows


if __name__ == "__main__":
    main()
