"""How the easy (heuristic) bot fares in every shipped game at every player count.

For each game and each allowed player count, the arena plays duplicate deals: one
heuristic bot against random bots (in a partnership game the heuristic bots form one
team and the random bots the other), every bot in every seat in turn. The table gives
the heuristic's mean score per hand minus the random bots' mean, with its 95% interval
(each deal set one sample, as the arena computes its own intervals), the heuristic's
exact-bid rate beside the random bots', and the number of hands behind each row. In a
cooperative game the bots share one result, so there the difference is in exact hands
(the share of hands in which the bot took exactly its bid).

With ``--strong`` it adds the medium (pimc) and hard (ismcts) bots against heuristic
bots at one player count per game (4 where allowed), with the budgets given.

    .venv/bin/python bench/heuristic_table.py [--hands 200] [--min-sets 12] [--seed 0]
        [--games blackout,bluke] [--players 2,3] [--strong] [--strong-hands 40]
        [--medium pimc:...] [--hard ismcts:...]

The deal sets are the arena's (:func:`tricktaker.arena.play_deal_set`, as
:func:`tricktaker.arena.run_arena` plays them) and so are the per-bot statistics
(:func:`tricktaker.arena.bot_results`); the difference interval is
:func:`tricktaker.arena.mean_interval` over the per-deal-set differences. The script
plays deal sets until every rotation has ``--hands`` hands and there are at least
``--min-sets`` deal sets (the interval needs several samples). See ``bench/README.md``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from tricktaker.arena import (
    ArenaConfig,
    DealSetResult,
    check_config,
    mean_interval,
    play_deal_set,
    play_rotation,
)
from tricktaker.arena.stats import BotResult, Interval, bot_results
from tricktaker.rules import list_rulesets, load_ruleset

STRONG_PLAYERS = 4
"""Player count for the medium and hard rows (or the game's nearest allowed count)."""


@dataclass(frozen=True)
class Row:
    """One game at one player count: ``bot`` against ``against``."""

    game: str
    players: int
    bot: str
    against: str
    difference: Interval
    """Mean per hand of ``bot`` minus ``against`` (score, or exact share if cooperative)."""
    exact: float | None
    against_exact: float | None
    hands: int
    deal_sets: int
    cooperative: bool
    seconds: float
    note: str = ""


def lineup(game: str, players: int, bot: str, against: str) -> tuple[str, ...]:
    """One ``bot`` and ``players - 1`` of ``against``; in a partnership game ``bot`` holds
    every seat of the first team (the rotations keep partners together when the teams
    alternate round the table)."""
    rules = load_ruleset(game)
    teams = rules.spec.table.partnerships
    if teams:
        return tuple(bot if seat in teams[0] else against for seat in range(players))
    return (bot,) + (against,) * (players - 1)


def play(config: ArenaConfig, min_sets: int) -> list[DealSetResult]:
    """The arena's deal sets, in order, until every rotation has ``config.hands`` hands
    and at least ``min_sets`` deal sets are played."""
    check_config(config)
    played: list[DealSetResult] = []
    per_rotation = [0] * config.players
    while len(played) < min_sets or min(per_rotation) < config.hands:
        result = play_deal_set(config, len(played))
        played.append(result)
        for game in result.games:
            per_rotation[game.rotation] += game.hands
    return played


def set_differences(
    config: ArenaConfig, played: Sequence[DealSetResult]
) -> tuple[list[float], list[float]]:
    """Per deal set: the total of the ``config.bots[0]`` kind minus the total of the
    others (each averaged over its bots), and the hands."""
    mine = [i for i, name in enumerate(config.bots) if name == config.bots[0]]
    theirs = [i for i in range(config.players) if i not in mine]
    totals: list[float] = []
    counts: list[float] = []
    for result in played:
        total = 0.0
        for game in result.games:
            total += sum(game.score_sums[i] for i in mine) / len(mine)
            total -= sum(game.score_sums[i] for i in theirs) / len(theirs)
        totals.append(total)
        counts.append(sum(game.hands for game in result.games))
    return totals, counts


def exact_rate(results: Sequence[BotResult], indices: Sequence[int]) -> float | None:
    """The exact-bid rate over the bots at ``indices`` (None where nobody bids)."""
    bids = sum(results[i].bid_hands for i in indices)
    return sum(results[i].exact for i in indices) / bids if bids else None


def measure(
    game: str, players: int, bot: str, against: str, *, hands: int, min_sets: int, seed: int
) -> Row:
    """Play one row of the table."""
    if load_ruleset(game).cooperative:
        return measure_teams(game, players, bot, against, hands=hands, min_sets=min_sets, seed=seed)
    bots = lineup(game, players, bot, against)
    config = ArenaConfig(game, bots=bots, hands=hands, seed=seed)
    start = time.perf_counter()
    played = play(config, min_sets)
    totals, counts = set_differences(config, played)
    results = bot_results(bots, played)
    mine = [i for i, name in enumerate(bots) if name == bot]
    theirs = [i for i in range(players) if i not in mine]
    return Row(
        game=game,
        players=players,
        bot=bot,
        against=against,
        difference=mean_interval(totals, counts),
        exact=exact_rate(results, mine),
        against_exact=exact_rate(results, theirs),
        hands=results[0].hands,
        deal_sets=len(played),
        cooperative=False,
        seconds=time.perf_counter() - start,
        note=f"ahead in {sum(total > 0 for total in totals)} of {len(totals)} deal sets",
    )


def measure_teams(
    game: str, players: int, bot: str, against: str, *, hands: int, min_sets: int, seed: int
) -> Row:
    """A cooperative game: a table of ``bot`` against a table of ``against`` on the same
    seeds (the arena's games, :func:`tricktaker.arena.play_rotation`, first rotation:
    the seats hold the same bot), each game one sample; per game, the share of hands in
    which everyone was exact (each such hand moves the table on, so a higher share
    finishes the schedule in fewer hands)."""
    start = time.perf_counter()
    shares: list[list[float]] = [[], []]
    finished = [0, 0]
    played = [0, 0]
    deal_set = 0
    while deal_set < min_sets or min(played) < hands:
        for side, name in enumerate((bot, against)):
            config = ArenaConfig(game, bots=(name,) * players, hands=hands, seed=seed)
            check_config(config)
            state, _, _ = play_rotation(config, deal_set, 0)
            exact = sum(result.all_exact for result in state.history)
            shares[side].append(exact / len(state.history))
            finished[side] += bool(state.winners())
            played[side] += len(state.history)
        deal_set += 1
    gaps = [mine - theirs for mine, theirs in zip(shares[0], shares[1], strict=True)]
    return Row(
        game=game,
        players=players,
        bot=bot,
        against=against,
        difference=mean_interval(gaps, [1.0] * deal_set),
        exact=sum(shares[0]) / deal_set,
        against_exact=sum(shares[1]) / deal_set,
        hands=played[0],
        deal_sets=deal_set,
        cooperative=True,
        seconds=time.perf_counter() - start,
        note=f"finished {finished[0]} / {finished[1]} of {deal_set} games",
    )


def _signed(value: float) -> str:
    return f"{value:+.2f}"


def interval_text(interval: Interval, *, percent: bool = False) -> str:
    """``+1.23 [+0.45, +2.01]`` (in percentage points for exact shares)."""
    scale = 100.0 if percent else 1.0
    text = _signed(interval.mean * scale)
    if interval.low is not None and interval.high is not None:
        text += f" [{_signed(interval.low * scale)}, {_signed(interval.high * scale)}]"
    return text + (" pp exact" if percent else "")


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.0f}%"


def verdict(interval: Interval) -> str:
    """✓ when the interval lies above zero, ✗ when below, ~ otherwise."""
    if interval.low is not None and interval.low > 0:
        return "✓"
    if interval.high is not None and interval.high < 0:
        return "✗"
    return "~"


def markdown(rows: Sequence[Row], title: str) -> str:
    """The rows as a Markdown table."""
    lines = [
        f"| Game | Players | {title} per hand [95%] | | exact (bot / others) | hands | deal sets"
        " | notes |",
        "|---|---:|---|:-:|---|---:|---:|---|",
    ]
    for row in rows:
        shown = interval_text(row.difference, percent=row.cooperative)
        lines.append(
            f"| {row.game} | {row.players} | {shown}"
            f" | {verdict(row.difference)} | {_rate(row.exact)} / {_rate(row.against_exact)}"
            f" | {row.hands} | {row.deal_sets} | {row.note} |"
        )
    return "\n".join(lines)


def strong_players(game: str) -> int:
    """The player count for the medium and hard rows: 4, or the nearest allowed."""
    counts = load_ruleset(game).player_counts
    return min(counts, key=lambda n: (abs(n - STRONG_PLAYERS), n))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="hands per rotation (at least)")
    parser.add_argument("--min-sets", type=int, default=12, help="deal sets (at least)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", default="", help="comma-separated ids (default: all)")
    parser.add_argument("--players", default="", help="comma-separated counts (default: all)")
    parser.add_argument("--strong", action="store_true", help="add medium and hard rows")
    parser.add_argument(
        "--strong-games", default="", help="ids for the strong rows (default: --games)"
    )
    parser.add_argument("--strong-hands", type=int, default=40)
    parser.add_argument("--strong-sets", type=int, default=6)
    parser.add_argument("--medium", default="medium")
    parser.add_argument("--hard", default="hard")
    parser.add_argument("--no-easy", action="store_true", help="skip the heuristic rows")
    args = parser.parse_args(argv)
    games = [g for g in args.games.split(",") if g] or list_rulesets()
    counts = {int(n) for n in args.players.split(",") if n}
    if not args.no_easy:
        rows = []
        for game in games:
            for players in load_ruleset(game).player_counts:
                if counts and players not in counts:
                    continue
                row = measure(
                    game,
                    players,
                    "heuristic",
                    "random",
                    hands=args.hands,
                    min_sets=args.min_sets,
                    seed=args.seed,
                )
                rows.append(row)
                shown = interval_text(row.difference, percent=row.cooperative)
                print(
                    f"{game} {players}: {shown} {verdict(row.difference)}"
                    f" exact {_rate(row.exact)}/{_rate(row.against_exact)}"
                    f" ({row.hands} hands, {row.seconds:.0f} s)",
                    file=sys.stderr,
                    flush=True,
                )
        print(markdown(rows, "heuristic − random"))
    if args.strong:
        for level in (args.medium, args.hard):
            strong = []
            for game in [g for g in args.strong_games.split(",") if g] or games:
                players = strong_players(game)
                row = measure(
                    game,
                    players,
                    level,
                    "heuristic",
                    hands=args.strong_hands,
                    min_sets=args.strong_sets,
                    seed=args.seed,
                )
                strong.append(row)
                print(
                    f"{level} {game} {players}: {interval_text(row.difference)}"
                    f" ({row.hands} hands, {row.seconds:.0f} s)",
                    file=sys.stderr,
                    flush=True,
                )
            print()
            print(markdown(strong, f"{level} − heuristic"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
