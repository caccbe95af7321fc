"""Train the search bots' bid model: how a sensible player's bid follows from its cards.

The hard bot weighs each sampled deal by how well it explains the bids already made
(``tricktaker.bots.search_ohhell``). That needs a model of a bid given a hand. This
script fits one from the hard bot's own bids: it deals fresh hands of the Oh Hell
family (Blackout's rules cut to one hand of each size: a turned-up trump, the hook, a
point a trick and 10 for an exact bid), lets the bot bid every seat in turn, and fits,
per number of players and hand size, an additive model by least squares:

    bid = intercept + sum over the hand's cards of value[trump or side suit][rank]

Each value table is then made to rise with the rank (a higher card is never worth
less; pool adjacent violators). Two rounds by default: the first bidder's search uses
the formula the bots use without a table (for the other seats' bids in its play-outs
and to weigh its deals by their bids), the second the first round's tables, so that
the tables fit the bids of the bot that reads them. It writes the tables, with each
one's error on held-out bids and the error of that formula, as
``src/tricktaker/bots/bid_model.json`` (the file the package ships; ``--out`` writes
elsewhere). The bots read a table only where it predicts the held-out bids better than
the formula.

    .venv/bin/python examples/train_bid_model.py --players 3-7 --sizes 1-17 --deals 600 \\
        --workers 2
    .venv/bin/python examples/train_bid_model.py --players 4 --sizes 12 --deals 100 \\
        --rounds 1 --out /tmp/bid_model.json

Same ``--seed``, same file (any ``--workers``). The measurements: bench/README.md,
"A learned bid model (issue 30)".
"""

from __future__ import annotations

import argparse
import collections
import json
import multiprocessing
import re
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from tricktaker.bots import make_bot
from tricktaker.bots.bid_model import MODEL_PATH, MODEL_VERSION, hand_features, use
from tricktaker.bots.search_ohhell import _formula_values
from tricktaker.engine import new_game
from tricktaker.rules.ruleset import Ruleset, load_ruleset

Array = npt.NDArray[np.float64]

BOT = "ismcts:iterations=2000:kernel_iterations=2000"
"""The bidder whose bids are fitted: the hard bot's search at a fixed budget (so that a
seed gives the same bids on any machine)."""

HELD_OUT = 0.2
"""The share of the deals kept out of the fit to measure its error."""

RIDGE = 1e-3
"""A little ridge penalty: the values of a hand's cards always add up over the same
number of cards, so the least-squares problem alone has many solutions."""

HOUSE_RULE = """extends = "blackout"
id = "bid_model_{players}_{size}"
name = "Blackout, one hand of {size}"
description = "Training ruleset of examples/train_bid_model.py"
source = "examples/train_bid_model.py"

[schedule]
sizes = "{size}"

[bidding]
hook = true

[options.hook]
default = true
"""


@dataclass(frozen=True)
class Job:
    players: int
    size: int
    first: int
    count: int
    seed: int
    bot: str


def rising(values: Sequence[float], counts: Sequence[float]) -> list[float]:
    """The closest values (least squares, weighted by ``counts``) that never fall from
    one rank to the next (pool adjacent violators): a higher card is never worth less.

    >>> rising([1.0, 0.0, 2.0], [1.0, 1.0, 1.0])
    [0.5, 0.5, 2.0]
    """
    blocks: list[list[float]] = []  # [mean, weight, length]
    for value, weight in zip(values, counts, strict=True):
        blocks.append([value, max(weight, 1e-9), 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            mean, weight_, length = blocks.pop()
            last = blocks[-1]
            total = last[1] + weight_
            last[0] = (last[0] * last[1] + mean * weight_) / total
            last[1], last[2] = total, last[2] + length
    return [block[0] for block in blocks for _ in range(int(block[2]))]


def ruleset(players: int, size: int) -> Ruleset:
    """Blackout cut to one hand of ``size`` cards (written to a temporary file)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"bid_model_{players}_{size}.toml"
        path.write_text(HOUSE_RULE.format(players=players, size=size))
        return load_ruleset(path)


Row = tuple[int, int, int, float]
"""A bid: the hand, the trump suit, the bid and the formula's estimate of the hand."""


def bids_of(job: Job) -> list[Row]:
    """Every seat's bid in the job's deals."""
    rules = ruleset(job.players, job.size)
    rows: list[Row] = []
    for deal in range(job.first, job.first + job.count):
        state = new_game(rules, players=job.players, seed=job.seed * 1_000_003 + deal)
        state.apply_chance()
        bots = [
            make_bot(job.bot, seed=job.seed * 7919 + deal * job.players + seat)
            for seat in range(job.players)
        ]
        while True:
            seat = state.to_act()[0]
            obs = state.observe(seat)
            if obs.phase != "bidding":
                break
            action = bots[seat].act(obs)
            formula = _formula_values(obs)
            if obs.trump is not None and obs.hand is not None and formula is not None:
                hand = obs.hand
                estimate = sum(formula[card] for card in range(54) if (hand >> card) & 1)
                rows.append((hand, obs.trump, int(action.value), estimate))
            state.apply(seat, action)
    return rows


def fit(rows: Sequence[Row]) -> dict[str, Any]:
    """The additive model of the bids, its held-out error and the formula's."""
    features = np.array([hand_features(hand, trump) for hand, trump, _, _ in rows])
    bids = np.array([bid for _, _, bid, _ in rows], dtype=float)
    formula = np.array([estimate for _, _, _, estimate in rows])
    cut = int(len(rows) * (1 - HELD_OUT))
    x = np.hstack([features, np.ones((len(rows), 1))])
    penalty = RIDGE * np.eye(x.shape[1])
    penalty[-1, -1] = 0.0
    weights: Array = np.linalg.solve(x[:cut].T @ x[:cut] + penalty, x[:cut].T @ bids[:cut])
    seen = features[:cut].sum(axis=0)
    for kind in (slice(0, 13), slice(13, 26)):
        weights[kind] = rising(list(weights[kind]), list(seen[kind]))
    weights[26] += float(np.mean(bids[:cut] - x[:cut] @ weights))  # the intercept again
    error = bids[cut:] - x[cut:] @ weights
    formula_error = bids[cut:] - formula[cut:]
    return {
        "trump": [round(float(v), 4) for v in weights[:13]],
        "side": [round(float(v), 4) for v in weights[13:26]],
        "intercept": round(float(weights[26]), 4),
        "bids": len(rows),
        "held_out": len(rows) - cut,
        "error_sd": round(float(np.sqrt(np.mean(error**2))), 4),
        "formula_error_sd": round(float(np.sqrt(np.mean(formula_error**2))), 4),
    }


def parse_list(text: str) -> list[int]:
    """``"3,4"`` or ``"1-13"`` or a mix."""
    out: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        out += range(int(low), int(high or low) + 1)
    return out


def train_round(
    configs: Sequence[tuple[int, int]],
    *,
    deals: int,
    seed: int,
    bot: str,
    workers: int,
    model: Path | None,
    label: str,
) -> dict[str, Any]:
    """One round: every configuration's bids by ``bot`` reading the model file
    ``model`` (None: the formula), each worker a fresh process, and the fitted tables."""
    chunk = max(1, deals // (4 * workers))
    jobs = [
        Job(players, size, first, min(chunk, deals - first), seed, bot)
        for players, size in configs
        for first in range(0, deals, chunk)
    ]
    rows: dict[tuple[int, int], list[Row]] = {config: [] for config in configs}
    left = collections.Counter((job.players, job.size) for job in jobs)
    tables: dict[str, Any] = {}
    started = time.perf_counter()
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers, initializer=use, initargs=(model,)) as pool:
        for job, part in zip(jobs, pool.imap(bids_of, jobs), strict=True):
            config = (job.players, job.size)
            rows[config] += part
            left[config] -= 1
            if left[config]:
                continue
            table = tables[f"{job.players}x{job.size}"] = fit(rows[config])
            print(
                f"{label}: {job.players} players, {job.size} cards: {table['bids']} bids, "
                f"error {table['error_sd']:.2f} tricks (formula "
                f"{table['formula_error_sd']:.2f}), {time.perf_counter() - started:.0f}s",
                file=sys.stderr,
                flush=True,
            )
    return tables


def model_data(tables: dict[str, Any], args: argparse.Namespace, rounds: int) -> dict[str, Any]:
    return {
        "version": MODEL_VERSION,
        "family": "oh_hell",
        "trained_on": "Blackout's rules cut to one hand (turned-up trump, hook, "
        "a point a trick and 10 for an exact bid), a 52-card deck",
        "bot": args.bot,
        "deals": args.deals,
        "seed": args.seed,
        "rounds": rounds,
        "tables": tables,
    }


def write_model(data: dict[str, Any], path: Path) -> None:
    # One line a list of values, so that the file reads as tables.
    text = re.sub(
        r"\[\s+([^\[\]]*?)\s+\]",
        lambda match: "[" + " ".join(match.group(1).split()) + "]",
        json.dumps(data, indent=1),
    )
    path.write_text(text + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", default="4", help="numbers of players, e.g. 3,4,5 or 3-7")
    parser.add_argument("--sizes", default="1-13", help="hand sizes, e.g. 1-13")
    parser.add_argument("--deals", type=int, default=400, help="deals per players and size")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the bots")
    parser.add_argument("--bot", default=BOT, help="the bidder (a bot spec)")
    parser.add_argument("--workers", type=int, default=1, help="processes dealing and bidding")
    parser.add_argument(
        "--rounds",
        type=int,
        default=2,
        help="rounds: the first bidder uses the formula, each next one the last round's tables",
    )
    parser.add_argument("--out", type=Path, default=MODEL_PATH, help="the model file to write")
    args = parser.parse_args(argv)
    if args.deals < 10 or args.workers < 1 or args.rounds < 1:
        parser.error("--deals must be at least 10, --workers and --rounds at least 1")
    configs = [
        (players, size)
        for players in parse_list(args.players)
        for size in parse_list(args.sizes)
        if players * size < 52  # the turned-up trump needs a card left over
    ]
    model: Path | None = None
    with tempfile.TemporaryDirectory() as folder:
        for round_ in range(1, args.rounds + 1):
            tables = train_round(
                configs,
                deals=args.deals,
                seed=args.seed + round_ - 1,
                bot=args.bot,
                workers=args.workers,
                model=model,
                label=f"round {round_}",
            )
            model = Path(folder) / f"round{round_}.json"
            write_model(model_data(tables, args, round_), model)
        write_model(model_data(tables, args, args.rounds), args.out)
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
