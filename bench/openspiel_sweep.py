"""The sweep that chose OpenSpiel's ISMCTS setting for ``bench/vs_openspiel.py``.

Every candidate setting (``bench/openspiel_settings.py``) plays the same duplicate deals
against the same reference, OpenSpiel's ISMCTS at the benchmark's old setting
(``uct_c`` 2, max visit count): the candidate at seats {0, 2} and the reference at
{1, 3}, then swapped. Both sides run the same number of simulations a move, so the
comparison does not depend on the machine's load, and the time a move is reported for
each side (the setting changes what a simulation explores, hardly what it costs). The
settings are ranked by the candidate's mean points a hand less the reference's, with a
95% interval over the per-deal differences.

Stage one sweeps ``uct_c`` with the max-visit-count final policy; stage two tries the
other final policies ``ISMCTSBot`` offers (normalized visit count, max value) at stage
one's best ``uct_c``. Its child selection is UCB1 only (no PUCT: see
``openspiel_settings``). The reference row (``uct_c`` 2, max visit count, against
itself) is 0 by construction and not played.

    .venv/bin/python bench/vs_openspiel.py --sweep [--hands 64] [--sims 1000] [--seed S]
        [--workers 1] [--json] [--quick]

``--hands`` counts a setting's hands (64 unless given). Results: ``bench/README.md``,
"Against OpenSpiel, tuned (issue 30)".
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from openspiel_adapter import PLAYERS
from openspiel_settings import FINAL_POLICIES, OLD, IsmctsSetting
from vs_openspiel import (
    ISMCTS_SEATINGS,
    Chooser,
    Match,
    Side,
    _game,
    deal_actions,
    interval,
    ismcts_chooser,
    merge,
    mix,
    play_hand,
)

SWEEP_UCT_C: tuple[float, ...] = (0.7, 2.0, 4.0, 6.0, 10.0, 15.0, 40.0)
"""Stage one's ``uct_c`` values (with the max-visit-count final policy)."""

SWEEP_HANDS = 64
"""Hands a setting plays unless ``--hands`` says otherwise (32 duplicate deals)."""

REFERENCE = OLD
"""The opponent of every candidate: the benchmark's setting before the sweep."""


@dataclass(frozen=True)
class SweepJob:
    """One duplicate deal for one candidate setting."""

    index: int
    chance: tuple[int, ...]
    candidate: IsmctsSetting
    sims: int
    seed: int


def play_sweep_deal(job: SweepJob) -> Match:
    """The candidate at seats {0, 2} then {1, 3} of one deal, the reference elsewhere."""
    game, _ = _game()
    match = Match(ours=Side(job.candidate.label), theirs=Side(REFERENCE.label))
    ours_points: list[float] = []
    theirs_points: list[float] = []
    for play, seating in enumerate(ISMCTS_SEATINGS):
        choosers: list[Chooser] = []
        for seat in range(PLAYERS):
            setting = job.candidate if seat in seating else REFERENCE
            seat_seed = mix(job.seed, job.index, play, seat)
            choosers.append(ismcts_chooser(game, seat_seed, job.sims, setting))
        points, bids, won = play_hand(game, job.chance, choosers, seating, match)
        for seat in range(PLAYERS):
            side = match.ours if seat in seating else match.theirs
            side.record(points[seat], bids[seat], won[seat])
            (ours_points if seat in seating else theirs_points).append(points[seat])
    match.per_deal_ours.append(statistics.fmean(ours_points))
    match.per_deal_theirs.append(statistics.fmean(theirs_points))
    match.per_deal_diff.append(match.per_deal_ours[-1] - match.per_deal_theirs[-1])
    return match


def play_setting(
    candidate: IsmctsSetting,
    deals: Sequence[tuple[int, ...]],
    *,
    sims: int,
    seed: int,
    workers: int,
) -> dict[str, Any]:
    """One candidate against the reference on ``deals``: its row of the sweep."""
    jobs = [SweepJob(i, chance, candidate, sims, seed) for i, chance in enumerate(deals)]
    match = Match(ours=Side(candidate.label), theirs=Side(REFERENCE.label))
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        parts: Iterator[Match]
        if workers > 1:
            pool = stack.enter_context(multiprocessing.get_context("spawn").Pool(workers))
            parts = pool.imap(play_sweep_deal, jobs)
        else:
            parts = map(play_sweep_deal, jobs)
        for part in parts:
            merge(match, part)
    diff, low, high = interval(match.per_deal_diff)
    ours, theirs = match.ours.summary(), match.theirs.summary()
    return {
        "setting": candidate.label,
        "uct_c": candidate.uct_c,
        "final_policy": candidate.final_policy,
        "deals": len(deals),
        "hands": match.hands,
        "diff_per_hand": diff,
        "diff_95": [low, high],
        "candidate_points": ours["mean_points"],
        "reference_points": theirs["mean_points"],
        "candidate_exact": ours["exact_rate"],
        "reference_exact": theirs["exact_rate"],
        "candidate_ms_per_move_mean": ours["ms_per_move_mean"],
        "reference_ms_per_move_mean": theirs["ms_per_move_mean"],
        "per_deal_diff": match.per_deal_diff,
        "seconds": round(time.perf_counter() - started, 1),
    }


def sweep(
    *,
    hands: int,
    sims: int,
    seed: int,
    workers: int = 1,
    uct_values: Sequence[float] = SWEEP_UCT_C,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Both stages on the same deals; the rows ranked best first."""
    _game()
    deal_rng = random.Random(mix(seed, 0xDEA1))
    deals = [tuple(deal_actions(deal_rng)) for _ in range(max(1, -(-hands // 2)))]
    rows: list[dict[str, Any]] = []

    def played(candidate: IsmctsSetting, stage: int) -> None:
        row = play_setting(candidate, deals, sims=sims, seed=seed, workers=workers) | {
            "stage": stage
        }
        rows.append(row)
        if progress is not None:
            low, high = row["diff_95"]
            progress(
                f"stage {stage} {row['setting']:<40} {row['diff_per_hand']:+.2f} "
                f"[{low:+.2f}, {high:+.2f}]  ms/move {row['candidate_ms_per_move_mean']:.1f} "
                f"vs {row['reference_ms_per_move_mean']:.1f}  {row['seconds']:.0f}s"
            )

    for uct_c in uct_values:
        candidate = IsmctsSetting(uct_c, "max_visit_count")
        if candidate != REFERENCE:
            played(candidate, 1)
    stage_one = [*rows, {"uct_c": REFERENCE.uct_c, "diff_per_hand": 0.0}]
    best = max(stage_one, key=lambda row: float(row["diff_per_hand"]))["uct_c"]
    for policy in FINAL_POLICIES:
        if policy != "max_visit_count":
            played(IsmctsSetting(float(best), policy), 2)
    rows.sort(key=lambda row: -float(row["diff_per_hand"]))
    return {
        "reference": REFERENCE.describe(sims),
        "sims": sims,
        "seed": seed,
        "deals": len(deals),
        "hands_per_setting": 2 * len(deals),
        "best_uct_c_stage_one": best,
        "rows": rows,
    }


def format_sweep(summary: dict[str, Any]) -> str:
    """The sweep's table, best first."""
    lines = [
        f"OpenSpiel ISMCTS settings against {REFERENCE.label} ({summary['sims']} simulations "
        f"each), {summary['deals']} duplicate deals ({summary['hands_per_setting']} hands) a "
        f"setting, seed {summary['seed']}",
        "",
        f"{'rank':>4} {'stage':>5} {'setting':<40} {'diff/hand':>9} {'95% interval':>17} "
        f"{'pts':>6} {'ref pts':>7} {'exact':>6} {'ref':>6} {'ms/move':>8} {'ref':>6}",
    ]
    for rank, row in enumerate(summary["rows"], 1):
        low, high = row["diff_95"]
        lines.append(
            f"{rank:>4} {row['stage']:>5} {row['setting']:<40} {row['diff_per_hand']:>+9.2f} "
            f"{f'[{low:+.2f}, {high:+.2f}]':>17} {row['candidate_points']:>6.2f} "
            f"{row['reference_points']:>7.2f} {row['candidate_exact']:>6.1%} "
            f"{row['reference_exact']:>6.1%} {row['candidate_ms_per_move_mean']:>8.1f} "
            f"{row['reference_ms_per_move_mean']:>6.1f}"
        )
    lines.append(f"(reference {REFERENCE.label} against itself: 0 by construction)")
    return "\n".join(lines)


def sweep_main(args: argparse.Namespace, *, hands_given: bool) -> int:
    """``vs_openspiel.py --sweep``: run the sweep with the command's options."""
    quick = bool(args.quick)
    summary = sweep(
        hands=args.hands if hands_given and not quick else (2 if quick else SWEEP_HANDS),
        sims=20 if quick else args.sims,
        seed=args.seed,
        workers=args.workers,
        uct_values=(6.0,) if quick else SWEEP_UCT_C,
        progress=lambda line: print(line, file=sys.stderr, flush=True),
    )
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(format_sweep(summary))
    return 0


if __name__ == "__main__":
    import vs_openspiel

    raise SystemExit(vs_openspiel.main(["--sweep", *sys.argv[1:]]))
