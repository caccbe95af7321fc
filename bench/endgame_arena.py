"""Two bots against each other on the arena's duplicate deals, with the difference of
their mean scores per hand and its 95% interval over the deal sets (paired: both bots
play every deal set in every seat); each deal set's difference in points (per seat of a
side) and hands are listed too, so that runs can be pooled.

The seats alternate the two bots (A, B, A, B, ...); each deal set is played once per
rotation of the seats, as ``tricktaker arena`` plays it (the same games: this calls its
``play_deal_set``); each deal set's difference is printed on stderr as it comes. Used
for the exact endgame against the rollout at equal time (bench/README.md, "Exact
endgame") and for the hard bot against its earlier settings ("The hook games' own
phases and card play")::

    .venv/bin/python bench/endgame_arena.py GAME --players 4 --hands 100 --seed 5 \\
        --first "hard:kernel_iterations=100000000:time_budget=0.05:endgame_tricks=3" \\
        --second "hard:kernel_iterations=100000000:time_budget=0.05"
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import sys

import typer

from tricktaker.arena import ArenaConfig, DealSetResult
from tricktaker.arena.play import check_config, play_deal_set
from tricktaker.arena.pool import ordered_results
from tricktaker.arena.stats import mean_interval
from tricktaker.cli.common import parse_options


def side_totals(result: DealSetResult, side: tuple[int, ...]) -> tuple[float, int, float]:
    """A side's points per seat of it, hands, and seconds per move over one deal set."""
    points = 0.0
    hands = 0
    moves = 0
    seconds = 0.0
    for game in result.games:
        hands += game.hands
        points += sum(game.score_sums[bot] for bot in side) / len(side)
        moves += sum(game.moves[bot] for bot in side) if game.moves else 0
        seconds += sum(game.think_seconds[bot] for bot in side) if game.think_seconds else 0.0
    return points, hands, seconds / moves if moves else 0.0


def main(argv: list[str] | None = None) -> int:
    """Play the arena and print the means, the paired difference and its interval."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--first", required=True, help="bot A (a bot spec)")
    parser.add_argument("--second", required=True, help="bot B (a bot spec)")
    parser.add_argument(
        "--option",
        action="append",
        metavar="NAME=VALUE",
        help="a game option, as tricktaker arena takes it (repeatable), e.g. max_hands=1",
    )
    args = parser.parse_args(argv)
    try:
        options = parse_options(args.option)  # says what is wrong on stderr
    except typer.Exit as exc:
        return int(exc.exit_code)
    bots = tuple(args.first if seat % 2 == 0 else args.second for seat in range(args.players))
    config = ArenaConfig(
        game=args.game, bots=bots, hands=args.hands, seed=args.seed, options=options
    )
    try:
        check_config(config)
    except ValueError as exc:  # ArenaError, RulesetError: a bad game, option or bot
        print(f"Error: {exc}", file=sys.stderr)
        return 2
    first = tuple(range(0, args.players, 2))
    second = tuple(range(1, args.players, 2))
    played: list[DealSetResult] = []
    per_rotation = [0] * args.players
    run = functools.partial(play_deal_set, config)
    with ordered_results(run, itertools.count(), workers=args.workers) as stream:
        for result in stream:
            played.append(result)
            x, y = side_totals(result, first), side_totals(result, second)
            print(
                f"deal set {len(played)}: A - B {x[0] - y[0]:+.2f} over {x[1]} hands",
                file=sys.stderr,
                flush=True,
            )
            for game in result.games:
                per_rotation[game.rotation] += game.hands
            if min(per_rotation) >= args.hands:
                break
    a = [side_totals(result, first) for result in played]
    b = [side_totals(result, second) for result in played]
    hands = [hands for _, hands, _ in a]
    a_mean = mean_interval([points for points, _, _ in a], hands)
    b_mean = mean_interval([points for points, _, _ in b], hands)
    difference = mean_interval([x[0] - y[0] for x, y in zip(a, b, strict=True)], hands)
    report = {
        "game": args.game,
        "players": args.players,
        "seed": args.seed,
        "first": args.first,
        "second": args.second,
        "options": config.options,
        "deal_sets": len(played),
        "hands": sum(hands),
        "first_per_hand": [a_mean.mean, a_mean.low, a_mean.high],
        "second_per_hand": [b_mean.mean, b_mean.low, b_mean.high],
        "difference": [difference.mean, difference.low, difference.high],
        "ms_a_move": [1000 * sum(x[2] for x in a) / len(a), 1000 * sum(y[2] for y in b) / len(b)],
        "per_deal_set": [[x[0] - y[0], x[1]] for x, y in zip(a, b, strict=True)],
    }
    json.dump(report, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
