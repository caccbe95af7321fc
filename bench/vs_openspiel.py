"""Head to head inside OpenSpiel's ``oh_hell``: a tricktaker bot against OpenSpiel's ISMCTS.

The game is OpenSpiel's own ``oh_hell(players=4, num_tricks_fixed=12)``: OpenSpiel deals,
checks every move and scores. Our bot plays its seats through
``bench/openspiel_adapter.py``, which shows it only what its seat may see (its cards, the
trump card, the bids and the plays) as a tricktaker Observation, and maps its action back.

Duplicate deals: each deal (dealer, 48 cards and the trump card, drawn from a seeded
generator and applied as OpenSpiel chance outcomes) is played twice, our bot at seats
{0, 2} and then at {1, 3}, ``pyspiel.ISMCTSBot`` at the others. The per-deal difference
(our mean points per seat-hand minus theirs over both plays) gives the 95% interval.
With ``--vs-random`` each deal is played four times, our bot at one seat (0, 1, 2, 3 in
turn) and uniformly random players at the other three.

The opponent is OpenSpiel's ISMCTS at its tuned setting by default
(``bench/openspiel_settings.py``: ``--openspiel-setting old`` is the setting used before
issue 30); ``--sweep`` reruns the sweep that chose it (``bench/openspiel_sweep.py``).
Without ``--seed`` each run draws a fresh seed and prints it, so that nobody tunes to
fixed deals; ``--seed S`` replays a run. ``--bot clairvoyant`` seats the clairvoyant
reference (``bench/clairvoyant.py``), which sees every hand: the ceiling of what knowing
the cards is worth against the same opponents on the same deals.

    .venv/bin/python bench/vs_openspiel.py [--bot heuristic] [--hands 1000] [--sims 1000]
        [--vs-random] [--seed S] [--openspiel-setting tuned] [--workers 2] [--json]
        [--quick] [--sweep]

Needs OpenSpiel (``pip install -e '.[bench]'``). See ``bench/README.md``.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import importlib.metadata
import json
import math
import multiprocessing
import os
import platform
import random
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from openspiel_adapter import (
    BID_OFFSET,
    EXACT_BONUS,
    HAND_SIZE,
    NUM_CARDS,
    OPENSPIEL_GAME,
    OPENSPIEL_PARAMS,
    PLAYERS,
    OhHellAdapter,
    check_game,
)
from openspiel_settings import OLD, TUNED, IsmctsSetting, parse_setting
from tricktaker.bots import make_bot

Z95 = 1.959963984540054
ISMCTS_UCT_C = OLD.uct_c
"""uct_c of the setting :func:`ismcts_chooser` takes by default (the old one)."""
ISMCTS_SEATINGS: tuple[frozenset[int], ...] = (frozenset({0, 2}), frozenset({1, 3}))
RANDOM_SEATINGS: tuple[frozenset[int], ...] = tuple(frozenset({s}) for s in range(PLAYERS))

OPENSPIEL_BOT = "openspiel_ismcts"
"""``--bot`` seating OpenSpiel's own ISMCTS (``--sims``, ``--openspiel-setting``) in our
seat: the baseline against random players, measured by the same command (head to head,
the mirror match: its level against itself on those deals)."""

CLAIRVOYANT_BOT = "clairvoyant"
"""``--bot`` seating the clairvoyant reference (``bench/clairvoyant.py``): it sees every
hand; a measuring stick, never a product bot."""

CLAIRVOYANT_ITERATIONS = 4000
"""The clairvoyant reference's search iterations a move (``--clairvoyant-iterations``)."""


def fresh_seed() -> int:
    """A seed drawn from the operating system: a run without ``--seed`` plays new deals."""
    return int.from_bytes(os.urandom(4), "little") % (1 << 31)


Chooser = Callable[[Any], int]
"""Picks an OpenSpiel action in a state where its seat is to move."""


def mix(*parts: int) -> int:
    """A 31-bit seed from integers (stable across runs and platforms)."""
    value = 0x9E3779B9
    for part in parts:
        value = (value * 1_000_003 + part + 0x7F4A7C15) % (1 << 61)
    return value % (1 << 31)


def deal_actions(rng: random.Random) -> list[int]:
    """The chance outcomes of one deal: tricks, dealer, 48 cards to seats 0, 1, 2, 3, ...,
    and the trump card."""
    dealer = rng.randrange(PLAYERS)
    cards = rng.sample(range(NUM_CARDS), PLAYERS * HAND_SIZE + 1)
    return [HAND_SIZE, dealer, *cards]


def dealt_state(game: Any, chance: Sequence[int]) -> Any:
    """A new OpenSpiel state with ``chance`` applied (each checked to be a legal outcome)."""
    state = game.new_initial_state()
    for action in chance:
        if not state.is_chance_node():
            raise RuntimeError("the deal has more chance outcomes than the game")
        if action not in {a for a, _ in state.chance_outcomes()}:
            raise RuntimeError(f"{action} is not a chance outcome here")
        state.apply_action(action)
    if state.is_chance_node():
        raise RuntimeError("the deal has fewer chance outcomes than the game")
    return state


_BIDS_RE = re.compile(r"Bids:\s+([-\d ]+)")
_WON_RE = re.compile(r"Tricks Won:\s+([\d ]+)")


def final_bids_and_tricks(state: Any) -> tuple[list[int], list[int]]:
    """Bids and tricks won, read from the finished game (the harness sees everything)."""
    text = str(state)
    bids, won = _BIDS_RE.search(text), _WON_RE.search(text)
    if bids is None or won is None:
        raise RuntimeError("cannot read bids and tricks from the final state")
    return [int(x) for x in bids.group(1).split()], [int(x) for x in won.group(1).split()]


@dataclass
class Side:
    """Everything measured for one side (our bot or the opponents)."""

    name: str
    points: list[float] = field(default_factory=list)
    """Points of each seat-hand played."""
    exact: int = 0
    over: int = 0
    """Seat-hands that took more tricks than bid."""
    under: int = 0
    """Seat-hands that took fewer tricks than bid."""
    move_seconds: list[float] = field(default_factory=list)
    choice_seconds: list[float] = field(default_factory=list)
    """The moves with more than one legal action (a forced move takes a search no time)."""
    adapter_seconds: list[float] = field(default_factory=list)
    """For our bot: the part of each move spent building its Observation."""

    def record(self, points: float, bid: int, won: int) -> None:
        self.points.append(points)
        self.exact += won == bid
        self.over += won > bid
        self.under += won < bid

    def summary(self) -> dict[str, Any]:
        times = sorted(self.move_seconds)
        n = len(self.points)

        def ms(x: float) -> float:
            return round(1000 * x, 3)

        return {
            "name": self.name,
            "seat_hands": n,
            "mean_points": statistics.fmean(self.points) if n else math.nan,
            "exact_rate": self.exact / n if n else math.nan,
            "over": self.over,
            "under": self.under,
            "moves": len(times),
            "ms_per_move_mean": ms(statistics.fmean(times)) if times else None,
            "ms_per_move_median": ms(times[len(times) // 2]) if times else None,
            "ms_per_move_p95": ms(times[int(0.95 * (len(times) - 1))]) if times else None,
            "ms_per_move_max": ms(times[-1]) if times else None,
            "choices": len(self.choice_seconds),
            "ms_per_choice_mean": ms(statistics.fmean(self.choice_seconds))
            if self.choice_seconds
            else None,
            "ms_per_choice_median": ms(statistics.median(self.choice_seconds))
            if self.choice_seconds
            else None,
            "adapter_ms_per_move_mean": ms(statistics.fmean(self.adapter_seconds))
            if self.adapter_seconds
            else None,
        }


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and a normal 95% interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, -math.inf, math.inf
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


@dataclass
class Match:
    ours: Side
    theirs: Side
    per_deal_diff: list[float] = field(default_factory=list)
    per_deal_ours: list[float] = field(default_factory=list)
    per_deal_theirs: list[float] = field(default_factory=list)
    hands: int = 0


def play_hand(
    game: Any,
    chance: Sequence[int],
    choosers: Sequence[Chooser],
    ours: frozenset[int],
    match: Match,
) -> tuple[list[float], list[int], list[int]]:
    """Play one hand from the deal ``chance``; returns each seat's points, bid and tricks."""
    state = dealt_state(game, chance)
    clock = time.perf_counter
    while not state.is_terminal():
        seat = state.current_player()
        choice = len(state.legal_actions()) > 1
        start = clock()
        action = choosers[seat](state)
        spent = clock() - start
        side = match.ours if seat in ours else match.theirs
        side.move_seconds.append(spent)
        if choice:
            side.choice_seconds.append(spent)
        if action not in state.legal_actions():
            raise RuntimeError(f"seat {seat} chose the illegal action {action}")
        state.apply_action(action)
    points = [float(x) for x in state.returns()]
    bids, won = final_bids_and_tricks(state)
    exact = [b == w for b, w in zip(bids, won, strict=True)]
    for seat in range(PLAYERS):
        expected = won[seat] + (EXACT_BONUS if exact[seat] else 0)
        if points[seat] != expected:
            raise RuntimeError(f"seat {seat}: OpenSpiel scored {points[seat]}, not {expected}")
    match.hands += 1
    return points, bids, won


class TimeMatch:
    """Our time budget per move, set to OpenSpiel's: the median of its last ``keep``
    decisions with a real choice (a forced move takes it no time), less our own overhead
    beyond the search (building the Observation and the kernel's world), measured the
    same way over our last decisions. It follows the machine's load as theirs does."""

    def __init__(self, keep: int = 64, start: float = 0.020) -> None:
        self.theirs: collections.deque[float] = collections.deque(maxlen=keep)
        self.overhead: collections.deque[float] = collections.deque(maxlen=keep)
        self.start = start

    def budget(self) -> float:
        theirs = statistics.median(self.theirs) if self.theirs else self.start
        extra = statistics.median(self.overhead) if self.overhead else 0.0
        return max(0.001, theirs - extra)


_TIME_MATCH = TimeMatch()


_KEPT: dict[tuple[str, int], Any] = {}
"""Our bots kept from deal to deal (``--keep-bots``), by name and seat, in this process."""


def our_chooser(
    bot_name: str,
    seed: int,
    seat: int,
    adapter: OhHellAdapter,
    side: Side,
    match_time: bool = False,
    keep: bool = False,
) -> Chooser:
    """Our bot at ``seat`` (with ``keep``, the one this process already seated there in
    an earlier deal, if any: a match against the same players, as a table keeps its bot
    from hand to hand)."""
    if keep:
        if (bot_name, seat) not in _KEPT:
            _KEPT[bot_name, seat] = make_bot(bot_name, seed=seed)
        bot = _KEPT[bot_name, seat]
    else:
        bot = make_bot(bot_name, seed=seed)
    clock = time.perf_counter
    if match_time and not hasattr(bot, "time_budget"):
        raise ValueError(f"--match-time needs a bot with a time budget, not {bot_name}")

    def choose(state: Any) -> int:
        start = clock()
        observation = adapter.observe(state, seat)
        side.adapter_seconds.append(clock() - start)
        budget = None
        if match_time and len(state.legal_actions()) > 1:
            budget = _TIME_MATCH.budget()
            bot.time_budget = budget
        action = adapter.to_openspiel(bot.act(observation))
        if budget is not None:
            _TIME_MATCH.overhead.append(max(0.0, clock() - start - budget))
        return action

    return choose


def ismcts_chooser(game: Any, seed: int, sims: int, setting: IsmctsSetting = OLD) -> Chooser:
    """OpenSpiel's ISMCTS with ``setting`` (the old one unless given: ``search_speed.py``
    times it so) and ``sims`` simulations a move; its times feed :class:`TimeMatch`."""
    bot = setting.bot(seed, sims)

    def choose(state: Any) -> int:
        start = time.perf_counter()
        action = int(bot.step(state))
        if len(state.legal_actions()) > 1:
            _TIME_MATCH.theirs.append(time.perf_counter() - start)
        return action

    return choose


def clairvoyant_chooser(job: DealJob, seed: int, seat: int, adapter: OhHellAdapter) -> Chooser:
    """The clairvoyant reference at ``seat``, with ``job.clairvoyant_opponents`` as its
    model of the other seats (by default: against random players random, head to head
    our rollout policy, half random; ``bench/clairvoyant.py``)."""
    from clairvoyant import ClairvoyantReference

    reference = ClairvoyantReference(
        seat,
        seed,
        opponents=job.clairvoyant_opponents or ("random" if job.vs_random else "policy"),
        iterations=job.clairvoyant_iterations,
        adapter=adapter,
    )
    return reference.choose


def random_chooser(seed: int) -> Chooser:
    rng = random.Random(seed)

    def choose(state: Any) -> int:
        actions = state.legal_actions()
        return int(actions[rng.randrange(len(actions))])

    return choose


@dataclass(frozen=True)
class DealJob:
    """One duplicate deal to play in every seating."""

    index: int
    chance: tuple[int, ...]
    bot: str
    sims: int
    seed: int
    vs_random: bool
    match_time: bool = False
    setting: IsmctsSetting = TUNED
    clairvoyant_iterations: int = CLAIRVOYANT_ITERATIONS
    clairvoyant_opponents: str | None = None
    keep_bots: bool = False
    bid_bot: str | None = None


_GAME: dict[str, Any] = {}


def _game() -> tuple[Any, OhHellAdapter]:
    """This process's OpenSpiel game and adapter (made once per worker)."""
    if not _GAME:
        import pyspiel

        game = pyspiel.load_game(OPENSPIEL_GAME, OPENSPIEL_PARAMS)
        check_game(game)
        _GAME["game"], _GAME["adapter"] = game, OhHellAdapter()
    return _GAME["game"], _GAME["adapter"]


def _seat_chooser(
    name: str, job: DealJob, game: Any, adapter: OhHellAdapter, seat: int, seed: int, match: Match
) -> Chooser:
    """The chooser of ``name`` (ours, OpenSpiel's ISMCTS or the clairvoyant) at our ``seat``."""
    if name == OPENSPIEL_BOT:
        return ismcts_chooser(game, seed, job.sims, job.setting)
    if name == CLAIRVOYANT_BOT:
        return clairvoyant_chooser(job, seed, seat, adapter)
    return our_chooser(name, seed, seat, adapter, match.ours, job.match_time, job.keep_bots)


def _bids_apart(bidder: Chooser, player: Chooser) -> Chooser:
    """A seat that bids with ``bidder`` and plays its cards with ``player`` (``--bid-bot``)."""

    def choose(state: Any) -> int:
        bidding = min(state.legal_actions()) >= BID_OFFSET
        return (bidder if bidding else player)(state)

    return choose


def play_deal(job: DealJob) -> Match:
    """Play one deal in every seating; the deal's part of the match."""
    game, adapter = _game()
    seatings = RANDOM_SEATINGS if job.vs_random else ISMCTS_SEATINGS
    match = Match(ours=Side(job.bot), theirs=Side(""))
    ours_points: list[float] = []
    theirs_points: list[float] = []
    for play, seating in enumerate(seatings):
        choosers: list[Chooser] = []
        for seat in range(PLAYERS):
            seat_seed = mix(job.seed, job.index, play, seat)
            if seat in seating:
                chooser = _seat_chooser(job.bot, job, game, adapter, seat, seat_seed, match)
                if job.bid_bot is not None:
                    bidder = _seat_chooser(
                        job.bid_bot, job, game, adapter, seat, mix(seat_seed, 0xB1D), match
                    )
                    chooser = _bids_apart(bidder, chooser)
                choosers.append(chooser)
            elif job.vs_random:
                choosers.append(random_chooser(seat_seed))
            else:
                choosers.append(ismcts_chooser(game, seat_seed, job.sims, job.setting))
        points, bids, won = play_hand(game, job.chance, choosers, seating, match)
        for seat in range(PLAYERS):
            side = match.ours if seat in seating else match.theirs
            side.record(points[seat], bids[seat], won[seat])
            (ours_points if seat in seating else theirs_points).append(points[seat])
    match.per_deal_ours.append(statistics.fmean(ours_points))
    match.per_deal_theirs.append(statistics.fmean(theirs_points))
    match.per_deal_diff.append(match.per_deal_ours[-1] - match.per_deal_theirs[-1])
    return match


def merge(total: Match, part: Match) -> None:
    """Add one deal's results to the match."""
    for mine, theirs in ((total.ours, part.ours), (total.theirs, part.theirs)):
        mine.points += theirs.points
        mine.exact += theirs.exact
        mine.over += theirs.over
        mine.under += theirs.under
        mine.move_seconds += theirs.move_seconds
        mine.choice_seconds += theirs.choice_seconds
        mine.adapter_seconds += theirs.adapter_seconds
    total.per_deal_diff += part.per_deal_diff
    total.per_deal_ours += part.per_deal_ours
    total.per_deal_theirs += part.per_deal_theirs
    total.hands += part.hands


def run(
    *,
    bot: str,
    hands: int,
    sims: int,
    seed: int,
    vs_random: bool,
    workers: int = 1,
    match_time: bool = False,
    setting: IsmctsSetting = TUNED,
    clairvoyant_iterations: int = CLAIRVOYANT_ITERATIONS,
    clairvoyant_opponents: str | None = None,
    keep_bots: bool = False,
    bid_bot: str | None = None,
    progress: Callable[[str], None] | None = None,
    progress_seconds: float = 10.0,
) -> dict[str, Any]:
    """Play the match and return its summary (see :func:`report`). The deals and every
    bot's seed depend only on ``seed``, so ``workers`` changes only the time taken;
    ``setting``: OpenSpiel's ISMCTS wherever it plays."""
    _game()
    ours = [name for name in (bot, bid_bot) if name not in (None, OPENSPIEL_BOT, CLAIRVOYANT_BOT)]
    for name in ours:
        make_bot(name, seed=0)  # fail early on an unknown name
    if match_time and not ours:
        raise ValueError(f"--match-time needs a bot of ours with a time budget, not {bot}")
    seatings = RANDOM_SEATINGS if vs_random else ISMCTS_SEATINGS
    opponent = "random" if vs_random else f"openspiel_ismcts_{sims}"
    deals = max(1, math.ceil(hands / len(seatings)))
    match = Match(
        ours=Side(bot if bid_bot is None else f"{bid_bot} bids, {bot} plays"), theirs=Side(opponent)
    )
    deal_rng = random.Random(mix(seed, 0xDEA1))
    jobs = [
        DealJob(
            deal,
            tuple(deal_actions(deal_rng)),
            bot,
            sims,
            seed,
            vs_random,
            match_time,
            setting,
            clairvoyant_iterations,
            clairvoyant_opponents,
            keep_bots,
            bid_bot,
        )
        for deal in range(deals)
    ]
    started = last_note = time.perf_counter()
    with contextlib.ExitStack() as stack:
        parts: Iterator[Match]
        if workers > 1:
            pool = stack.enter_context(multiprocessing.get_context("spawn").Pool(workers))
            parts = pool.imap(play_deal, jobs)
        else:
            parts = map(play_deal, jobs)
        for done, part in enumerate(parts, 1):
            merge(match, part)
            now = time.perf_counter()
            if progress is not None and (now - last_note >= progress_seconds or done == deals):
                last_note = now
                progress(progress_line(match, done, deals, now - started))
    summary = report(match, deals=deals, seatings=seatings)
    summary["config"] = {
        "bot": bot,
        "bid_bot": bid_bot,
        "opponent": opponent,
        "hands_requested": hands,
        "sims": sims if bot == OPENSPIEL_BOT or not vs_random else None,
        "seed": seed,
        "vs_random": vs_random,
        "workers": workers,
        "match_time": match_time,
        "keep_bots": keep_bots,
        "ismcts": setting.describe(sims) if bot == OPENSPIEL_BOT or not vs_random else None,
        "clairvoyant_iterations": clairvoyant_iterations
        if CLAIRVOYANT_BOT in (bot, bid_bot)
        else None,
        "clairvoyant_opponents": (clairvoyant_opponents or ("random" if vs_random else "policy"))
        if CLAIRVOYANT_BOT in (bot, bid_bot)
        else None,
    }
    summary["seconds"] = round(time.perf_counter() - started, 1)
    summary["machine"] = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "open_spiel": _version("open-spiel"),
        "tricktaker": _version("tricktaker"),
    }
    return summary


def _version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def progress_line(match: Match, done: int, deals: int, elapsed: float) -> str:
    diff, low, high = interval(match.per_deal_diff)
    ours_ms = 1000 * statistics.fmean(match.ours.move_seconds or [0.0])
    theirs_ms = 1000 * statistics.fmean(match.theirs.move_seconds or [0.0])
    eta = elapsed / done * (deals - done)
    return (
        f"deal {done}/{deals} ({match.hands} hands)  "
        f"{match.ours.name} {statistics.fmean(match.ours.points):.2f}  "
        f"{match.theirs.name} {statistics.fmean(match.theirs.points):.2f}  "
        f"diff {diff:+.2f} [{low:+.2f}, {high:+.2f}]  "
        f"ms/move {ours_ms:.1f} vs {theirs_ms:.1f}  "
        f"{elapsed:.0f}s elapsed, ~{eta:.0f}s left"
    )


def report(match: Match, *, deals: int, seatings: Sequence[frozenset[int]]) -> dict[str, Any]:
    diff, low, high = interval(match.per_deal_diff)
    _, ours_low, ours_high = interval(match.per_deal_ours)
    _, theirs_low, theirs_high = interval(match.per_deal_theirs)
    return {
        "deals": deals,
        "hands": match.hands,
        "seatings": [sorted(s) for s in seatings],
        "ours": match.ours.summary() | {"points_95": [ours_low, ours_high]},
        "theirs": match.theirs.summary() | {"points_95": [theirs_low, theirs_high]},
        "diff_per_hand": diff,
        "diff_95": [low, high],
        "per_deal_diff": match.per_deal_diff,
        "per_deal_ours": match.per_deal_ours,
        "per_deal_theirs": match.per_deal_theirs,
    }


def format_report(summary: dict[str, Any]) -> str:
    config = summary["config"]
    ours, theirs = summary["ours"], summary["theirs"]
    ismcts = config["ismcts"]
    lines = [
        f"OpenSpiel {OPENSPIEL_GAME}{OPENSPIEL_PARAMS}: {config['bot']} vs {config['opponent']}"
        + (f" (ISMCTS {ismcts['setting']})" if ismcts else ""),
        f"{summary['deals']} duplicate deals, {summary['hands']} hands "
        f"(ours at seats {' then '.join(str(s) for s in summary['seatings'])}), "
        f"seed {config['seed']}, {summary['seconds']}s",
        "",
        f"{'side':<22} {'pts/hand':>9} {'95% interval':>17} {'exact':>7} {'over':>6} "
        f"{'under':>6} {'ms/move mean':>13} {'median':>8} {'p95':>8} {'max':>8}",
    ]
    for side in (ours, theirs):
        low, high = side["points_95"]
        lines.append(
            f"{side['name']:<22} {side['mean_points']:>9.3f} "
            f"{f'[{low:.2f}, {high:.2f}]':>17} {side['exact_rate']:>7.1%} "
            f"{side['over']:>6} {side['under']:>6} {side['ms_per_move_mean']:>13.3f} "
            f"{side['ms_per_move_median']:>8.3f} "
            f"{side['ms_per_move_p95']:>8.3f} {side['ms_per_move_max']:>8.3f}"
        )
    if ours["choices"] and theirs["choices"]:
        lines.append(
            f"ms a move with a choice, mean / median: {ours['name']} "
            f"{ours['ms_per_choice_mean']:.3f} / {ours['ms_per_choice_median']:.3f}, "
            f"{theirs['name']} {theirs['ms_per_choice_mean']:.3f} / "
            f"{theirs['ms_per_choice_median']:.3f}"
        )
    if ours["adapter_ms_per_move_mean"] is not None:
        lines.append(
            f"(our ms/move includes {ours['adapter_ms_per_move_mean']:.3f} ms "
            "to build the Observation from the OpenSpiel state)"
        )
    low, high = summary["diff_95"]
    lines += [
        "",
        f"difference (ours - theirs) per hand: {summary['diff_per_hand']:+.3f}, "
        f"95% interval [{low:+.3f}, {high:+.3f}] (over per-deal differences)",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="A tricktaker bot against OpenSpiel's ISMCTS (or random players) "
        "inside OpenSpiel's oh_hell, on duplicate deals."
    )
    parser.add_argument(
        "--bot",
        default="heuristic",
        help=f"our bot, by make_bot name; {OPENSPIEL_BOT} seats OpenSpiel's ISMCTS "
        "there (the baseline, with --vs-random)",
    )
    parser.add_argument(
        "--hands", type=int, default=1000, help="hands to play (rounded up to whole deals)"
    )
    parser.add_argument("--sims", type=int, default=1000, help="ISMCTS simulations per move")
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed for the deals and all bots (default: a fresh one, drawn and printed)",
    )
    parser.add_argument(
        "--openspiel-setting",
        type=parse_setting,
        default=TUNED,
        metavar="SETTING",
        help=f"OpenSpiel's ISMCTS: tuned (the default, {TUNED.label}), old ({OLD.label}, "
        "the setting before issue 30) or uct_c=C[:final=POLICY]",
    )
    parser.add_argument(
        "--clairvoyant-iterations",
        type=int,
        default=CLAIRVOYANT_ITERATIONS,
        help=f"search iterations a move of --bot {CLAIRVOYANT_BOT}",
    )
    parser.add_argument(
        "--clairvoyant-opponents",
        choices=("random", "search", "policy"),
        default=None,
        help=f"what --bot {CLAIRVOYANT_BOT} assumes of the other seats (bench/clairvoyant.py; "
        "default: random against random players, policy head to head)",
    )
    parser.add_argument(
        "--sweep",
        action="store_true",
        help="rerun the sweep of OpenSpiel ISMCTS settings (bench/openspiel_sweep.py; "
        "takes --hands a setting, --sims, --seed, --workers, --json, --quick)",
    )
    parser.add_argument(
        "--vs-random", action="store_true", help="one seat ours, three uniformly random"
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="processes playing deals in parallel"
    )
    parser.add_argument(
        "--match-time",
        action="store_true",
        help="give our bot, move by move, the median time of OpenSpiel's last 64 moves "
        "(less our overhead beyond the search); needs a bot with a time budget",
    )
    parser.add_argument(
        "--keep-bots",
        action="store_true",
        help="keep our bot at each seat from deal to deal (within a worker), as a table "
        "keeps it from hand to hand: a bot that learns its opponents learns across deals",
    )
    parser.add_argument(
        "--bid-bot",
        default=None,
        metavar="BOT",
        help="who makes our seats' bids, as --bot names them (default: --bot itself); "
        "--bot then plays their cards: splits a gap between bidding and card play",
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument(
        "--quick", action="store_true", help="smoke run: 8 hands, 100 sims (clairvoyant: 200)"
    )
    parser.add_argument(
        "--progress-seconds", type=float, default=10.0, help="seconds between progress lines"
    )
    hands_given = "--hands" in (sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv)
    if args.quick:
        args.hands, args.sims, args.clairvoyant_iterations = 8, 100, 200
    if args.match_time and args.vs_random:
        parser.error("--match-time measures OpenSpiel's ISMCTS, which --vs-random does not play")
    if min(args.hands, args.sims, args.workers, args.clairvoyant_iterations) < 1:
        parser.error("--hands, --sims, --workers and --clairvoyant-iterations must be positive")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("OpenSpiel is not installed: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    if args.seed is None:
        args.seed = fresh_seed()
        print(
            f"seed {args.seed} (drawn for this run; --seed {args.seed} replays it)", file=sys.stderr
        )
    if args.sweep:
        from openspiel_sweep import sweep_main

        return sweep_main(args, hands_given=hands_given)
    summary = run(
        bot=args.bot,
        hands=args.hands,
        sims=args.sims,
        seed=args.seed,
        vs_random=args.vs_random,
        workers=args.workers,
        match_time=args.match_time,
        setting=args.openspiel_setting,
        clairvoyant_iterations=args.clairvoyant_iterations,
        clairvoyant_opponents=args.clairvoyant_opponents,
        keep_bots=args.keep_bots,
        bid_bot=args.bid_bot,
        progress=lambda line: print(line, file=sys.stderr, flush=True),
        progress_seconds=args.progress_seconds,
    )
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(format_report(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
