"""Where a bot's bids lose points: exact, over and under by bidding position.

Plays OpenSpiel's ``oh_hell`` (4 players, 12 tricks) as ``vs_openspiel.py --vs-random``
does (the same deals and seeds for a given ``--seed``: each deal four times, our bot at
one seat in turn, uniformly random players at the others) and counts, per bidding
position (1 = the first bidder, 4 = the dealer, who bids last and may not make the bids
total 12), the seat-hands, their mean points, the exact bids and the hands that took more
tricks than bid (over) or fewer (under), with the mean bid and tricks. The JSON lists
each deal's mean points (over its four seatings), so that two bots' runs on the same seed
can be compared deal by deal (``--compare A.json B.json``: the paired difference with its
95% interval).

    cd bench && ../.venv/bin/python bid_positions.py \
        --bot "ismcts:iterations=3000:kernel_iterations=3000" --hands 300 [--seed 0] [--json]

Needs OpenSpiel (``pip install -e '.[bench]'``). See bench/README.md, "Bidding from the
trick distribution (issue 30)".
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from openspiel_adapter import PLAYERS
from vs_openspiel import (
    RANDOM_SEATINGS,
    Chooser,
    Match,
    Side,
    _game,
    deal_actions,
    mix,
    our_chooser,
    play_hand,
    random_chooser,
)

POSITIONS = PLAYERS
"""Bidding positions: the first bidder (the dealer's left) is 1, the dealer is 4."""


@dataclass
class Position:
    """What one bidding position's seat-hands came to."""

    points: list[float] = field(default_factory=list)
    bids: list[int] = field(default_factory=list)
    won: list[int] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        n = len(self.points)
        if n == 0:
            return {"hands": 0}
        return {
            "hands": n,
            "mean_points": round(statistics.fmean(self.points), 3),
            "exact": sum(b == w for b, w in zip(self.bids, self.won, strict=True)),
            "over": sum(w > b for b, w in zip(self.bids, self.won, strict=True)),
            "under": sum(w < b for b, w in zip(self.bids, self.won, strict=True)),
            "mean_bid": round(statistics.fmean(self.bids), 3),
            "mean_tricks": round(statistics.fmean(self.won), 3),
        }


def play_deal(job: tuple[int, tuple[int, ...], str, int]) -> list[tuple[int, float, int, int]]:
    """One deal in the four seatings: (position, points, bid, tricks) of our seat each."""
    index, chance, bot, seed = job
    game, adapter = _game()
    dealer = chance[1]
    match = Match(ours=Side(bot), theirs=Side(""))
    rows = []
    for play, seating in enumerate(RANDOM_SEATINGS):
        choosers: list[Chooser] = []
        for seat in range(PLAYERS):
            seat_seed = mix(seed, index, play, seat)
            if seat in seating:
                choosers.append(our_chooser(bot, seat_seed, seat, adapter, match.ours))
            else:
                choosers.append(random_chooser(seat_seed))
        points, bids, won = play_hand(game, chance, choosers, seating, match)
        (seat,) = seating
        position = (seat - dealer - 1) % PLAYERS + 1
        rows.append((position, points[seat], bids[seat], won[seat]))
    return rows


def run(*, bot: str, hands: int, seed: int, workers: int) -> dict[str, Any]:
    """The match's summary per position and in all."""
    deals = max(1, math.ceil(hands / len(RANDOM_SEATINGS)))
    deal_rng = random.Random(mix(seed, 0xDEA1))
    jobs = [(deal, tuple(deal_actions(deal_rng)), bot, seed) for deal in range(deals)]
    positions = {p: Position() for p in range(1, POSITIONS + 1)}
    total = Position()
    started = time.perf_counter()
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            parts = list(pool.imap(play_deal, jobs))
    else:
        parts = [play_deal(job) for job in jobs]
    for rows in parts:
        for position, points, bid_made, won in rows:
            for into in (positions[position], total):
                into.points.append(points)
                into.bids.append(bid_made)
                into.won.append(won)
    return {
        "bot": bot,
        "seed": seed,
        "hands": len(total.points),
        "seconds": round(time.perf_counter() - started, 1),
        "total": total.summary(),
        "positions": {str(p): positions[p].summary() for p in positions},
        "per_deal_points": [statistics.fmean(row[1] for row in rows) for rows in parts],
    }


def agreement(deals: int, iterations: int, seed: int) -> dict[str, Any]:
    """The first bid of ``deals`` deals of the same ruleset (tricktaker's side, the first
    bidder's view), chosen by the tree (the kernel's ISMCTS, the Oh Hell family's
    defaults) and by the trick distribution at the same budget: how often they agree,
    the mean of the distribution's bid less the tree's, and their seconds."""
    from openspiel_adapter import RULESET_PATH
    from tricktaker import load_ruleset, new_game
    from tricktaker.kernel import kernel_search
    from tricktaker.kernel.bidding import kernel_bid

    rules = load_ruleset(str(RULESET_PATH))
    same = 0
    gaps: list[int] = []
    seconds = {"tree": 0.0, "distribution": 0.0}
    for deal in range(deals):
        state = new_game(rules, players=PLAYERS, seed=mix(seed, deal))
        state.apply_chance()
        obs = state.observe(state.to_act()[0])
        start = time.perf_counter()
        tree, _ = kernel_search(
            obs,
            seed=deal,
            iterations=iterations,
            time_budget=None,
            exploration=0.3,
            noise=0.5,
            model_opponents=0,
            weighted=True,
            rivalry=1.0,
        )
        middle = time.perf_counter()
        choice = kernel_bid(
            obs, seed=deal, rollouts=iterations, noise=0.5, rivalry=1.0, time_budget=None
        )
        seconds["tree"] += middle - start
        seconds["distribution"] += time.perf_counter() - middle
        assert isinstance(tree.value, int)
        assert isinstance(choice.action.value, int)
        same += tree == choice.action
        gaps.append(choice.action.value - tree.value)
    return {
        "deals": deals,
        "iterations": iterations,
        "same": same,
        "distribution_less_tree": statistics.fmean(gaps),
        "higher": sum(g > 0 for g in gaps),
        "lower": sum(g < 0 for g in gaps),
        "seconds": seconds,
    }


def compare(first: str, second: str) -> dict[str, Any]:
    """The paired difference per hand of two runs' JSON on the same deals (first less
    second), with a normal 95% interval over the deals."""
    with open(first) as a, open(second) as b:
        x, y = json.load(a), json.load(b)
    if x["seed"] != y["seed"] or len(x["per_deal_points"]) != len(y["per_deal_points"]):
        raise SystemExit("the runs are not on the same deals (seed and hands must agree)")
    diff = [p - q for p, q in zip(x["per_deal_points"], y["per_deal_points"], strict=True)]
    mean = statistics.fmean(diff)
    half = 1.959963984540054 * statistics.stdev(diff) / math.sqrt(len(diff))
    return {
        "first": x["bot"],
        "second": y["bot"],
        "deals": len(diff),
        "difference": [mean, mean - half, mean + half],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", nargs=2, metavar=("A.json", "B.json"))
    parser.add_argument(
        "--agreement",
        type=int,
        metavar="DEALS",
        help="only compare the first bid of DEALS deals, tree against distribution",
    )
    parser.add_argument("--bot", default="ismcts:iterations=3000:kernel_iterations=3000")
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args()
    if args.compare:
        print(json.dumps(compare(*args.compare)))
        return
    if args.agreement:
        iterations = 3000
        print(json.dumps(agreement(args.agreement, iterations, args.seed)))
        return
    summary = run(bot=args.bot, hands=args.hands, seed=args.seed, workers=args.workers)
    if args.json:
        print(json.dumps(summary, indent=1))
        return
    print(
        f"{summary['bot']}: {summary['hands']} hands, seed {summary['seed']}, "
        f"{summary['seconds']} s"
    )
    print(
        f"{'position':<10} {'hands':>6} {'points':>7} {'exact':>6} {'over':>5} {'under':>6} "
        f"{'bid':>6} {'tricks':>7}"
    )
    rows = [*((p, s) for p, s in summary["positions"].items()), ("all", summary["total"])]
    for name, s in rows:
        print(
            f"{name:<10} {s['hands']:>6} {s['mean_points']:>7.2f} {s['exact']:>6} "
            f"{s['over']:>5} {s['under']:>6} {s['mean_bid']:>6.2f} {s['mean_tricks']:>7.2f}"
        )


if __name__ == "__main__":
    main()
