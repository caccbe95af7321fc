"""The coach's hint speed: seconds per hint and deals reached, by game and decision kind.

For each game, positions of every decision kind (the phase, with more than one legal
choice) are reached by playing seeded games with the heuristic bot; each gets a hint at
the default budget (``hint(obs, seconds=1.0)``), and the table shows the median wall
seconds per hint, the median deals every choice was played out on, the deals per second
of the process's CPU time (steadier than the wall's on a shared machine), the choices, and
where the deals were played (the compiled kernel; Python up to the card play and the
kernel from there; or Python); ``--compare`` adds the deals that Python alone reaches in
the same budget where the kernel does not play the whole decision::

    cd bench && ../.venv/bin/python coach_speed.py --positions 3 --compare

``--staged-deals N`` times instead the staged path alone (``staged_totals``: the
decisions before the card play in Python, the card play in the kernel) on exactly ``N``
deals of one position per decision kind, best of three, in deals per CPU second: the
steadier figure on a loaded machine, to compare two trees by (the same deals give the
same sums, which it prints)::

    cd bench && ../.venv/bin/python coach_speed.py --positions 1 --staged-deals 60
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time
from collections import defaultdict

from tricktaker import list_rulesets, load_ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.bots.base import bot_decisions
from tricktaker.coach.values import hint, kernel_totals, staged_totals
from tricktaker.engine.observation import Observation


def default_games() -> str:
    """The first ruleset of the Oh Hell family and every ruleset with its own hooks (every
    hook game's decision kinds), in the order ``list_rulesets`` gives them."""
    names = list_rulesets()
    family = [name for name in names if load_ruleset(name).spec.hooks is None][:1]
    return ",".join(family + [name for name in names if load_ruleset(name).spec.hooks])


def table_size(name: str) -> int:
    """The seats at a table of ``name``: four where the ruleset allows them, else the
    nearest it allows."""
    seats = load_ruleset(name).spec.players
    return min(max(4, seats.min), seats.max)


def positions(name: str, per_kind: int, seeds: int = 12) -> dict[str, list[Observation]]:
    """Up to ``per_kind`` observations of each decision kind of ``name`` (by phase),
    from seeded games played by the heuristic bot, spread over the games."""
    found: defaultdict[str, list[Observation]] = defaultdict(list)
    for seed in range(seeds):
        taken: set[str] = set()
        players = table_size(name)
        state = new_game(load_ruleset(name), players=players, seed=seed)
        bot = make_bot("heuristic", seed=seed)
        for _, obs in itertools.islice(bot_decisions(state, [bot] * players), 400):
            kind = obs.phase
            if (
                kind not in taken
                and len(found.get(kind, ())) < per_kind
                and len(obs.legal_actions) > 1
            ):
                taken.add(kind)  # one position of a kind a game: different games
                found[kind].append(obs)
    return dict(found)


def where(obs: Observation) -> str:
    """Where the deals of a hint at ``obs`` are played: the compiled kernel, Python up to
    the card play and the kernel from there, or Python."""
    in_kernel = kernel_totals(obs, obs.legal_actions, seed=0, seconds=0.0, deals=1)
    if in_kernel is not None:
        return "kernel"
    staged = staged_totals(obs, obs.legal_actions, seed=0, stop=lambda done: done >= 1)
    return "Python" if staged is None else "Python, cards in kernel"


def timed_hint(obs: Observation, seconds: float, kernel: bool) -> tuple[float, int, int, float]:
    """One hint at ``obs``: its wall seconds, the deals every choice was played out on,
    the choices, and the deals per second of this process's CPU time (which the other
    processes on a loaded machine do not take)."""
    start, cpu = time.perf_counter(), time.process_time()
    found = hint(obs, seconds=seconds, seed=1, kernel=kernel)
    spent, used = time.perf_counter() - start, time.process_time() - cpu
    deals = min(choice.samples for choice in found.choices)
    return spent, deals, len(found.choices), deals / used if used > 0 else 0.0


def staged_rate(obs: Observation, deals: int, repeats: int = 3) -> tuple[float, float] | None:
    """The staged path's deals per CPU second at ``obs`` on exactly ``deals`` deals, best
    of ``repeats``, and the sum of its choices' totals (the same in every tree that
    computes the same values); None where the kernel plays the whole decision or the
    staged path does not play it."""
    if kernel_totals(obs, obs.legal_actions, seed=0, seconds=0.0, deals=1) is not None:
        return None
    best, total = float("inf"), 0.0
    for _ in range(repeats):
        cpu = time.process_time()
        totals = staged_totals(obs, obs.legal_actions, seed=1, stop=lambda done: done >= deals)
        if totals is None:
            return None
        best = min(best, time.process_time() - cpu)
        total = sum(choice.total for choice in totals)
    return deals / best if best > 0 else 0.0, total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=None, help="rulesets, comma-separated")
    parser.add_argument("--positions", type=int, default=3, help="positions per kind")
    parser.add_argument("--seconds", type=float, default=1.0, help="the hint's budget")
    parser.add_argument(
        "--compare",
        action="store_true",
        help="also time the hint in Python alone (kernel=False) where the kernel does not"
        " play the whole decision: the baseline, on the same machine at the same time",
    )
    parser.add_argument(
        "--staged-deals",
        type=int,
        default=None,
        help="time the staged path alone on this many deals of each kind's first position"
        " (best of three, deals per CPU second) instead of the hint",
    )
    args = parser.parse_args(argv)
    if args.staged_deals is not None:
        print(f"staged_totals on {args.staged_deals} deals: best of three, per CPU second")
        print(f"{'game':<12} {'decision':<15} {'choices':>7} {'per cpu s':>9}  sum of totals")
        for name in (args.games or default_games()).split(","):
            for kind, observations in positions(name, 1).items():
                found = staged_rate(observations[0], args.staged_deals)
                if found is not None:
                    choices = len(observations[0].legal_actions)
                    print(f"{name:<12} {kind:<15} {choices:>7} {found[0]:>9.0f}  {found[1]!r}")
        return 0
    print(f"hint(obs, seconds={args.seconds}): median over up to {args.positions} positions")
    header = (
        f"{'game':<12} {'decision':<15} {'pos':>3} {'choices':>7} {'seconds':>8} {'deals':>8}"
        f" {'per cpu s':>9}"
    )
    extra = f" {'Python alone':>12} {'per cpu s':>9}" if args.compare else ""
    print(f"{header}{extra}  played in")
    for name in (args.games or default_games()).split(","):
        for kind, observations in positions(name, args.positions).items():
            played_in = where(observations[0])
            runs = [timed_hint(obs, args.seconds, kernel=True) for obs in observations]
            alone = []
            if args.compare and played_in != "kernel":
                alone = [timed_hint(obs, args.seconds, kernel=False) for obs in observations]
            columns = zip(*runs, strict=True)
            spent, deals, choices, rate = (statistics.median(column) for column in columns)
            shown = ""
            if args.compare:
                shown = f" {'':>12} {'':>9}"
                if alone:
                    slow_deals = statistics.median(run[1] for run in alone)
                    slow_rate = statistics.median(run[3] for run in alone)
                    shown = f" {slow_deals:>12.0f} {slow_rate:>9.0f}"
            print(
                f"{name:<12} {kind:<15} {len(observations):>3} {choices:>7.0f} {spent:>8.2f}"
                f" {deals:>8.0f} {rate:>9.0f}{shown}  {played_in}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
