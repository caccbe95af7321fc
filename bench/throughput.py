"""Random-playout throughput: tricktaker against OpenSpiel's ``oh_hell``, side by side.

The benchmark hand is one 4-player, 12-card hand of Blackout (``bench/blackout_12.toml``:
turn-up trump, bids 0..12, no hook, follow suit), which is the hand OpenSpiel plays with
``oh_hell(players=4, num_tricks_fixed=12)``. Both engines are driven by the same kind of
plain Python loop through their public APIs, choosing uniformly at random with one
:class:`random.Random`. See ``bench/README.md`` for how to read the output. A second table
times whole random hands in the compiled kernel (``tricktaker.kernel``) beside
OpenSpiel's all-C++ loop (``pyspiel.evaluate_bots`` with random bots).

Run with ``make bench``, or::

    .venv/bin/python bench/throughput.py [--quick] [--rounds N] [--seconds S] [--profile]

OpenSpiel (``pip install open-spiel``, the ``bench`` extra) is only a baseline: without it
the script says so and still reports tricktaker's numbers.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import importlib.metadata
import io
import itertools
import platform
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from tricktaker import GameState, Ruleset, load_ruleset, new_game

RULESET_PATH = Path(__file__).resolve().parent / "blackout_12.toml"
PLAYERS = 4
HAND_SIZE = 12
MID_HAND_PLAYS = 20
"""Per-call costs are taken after the bids and 20..23 card plays (all of the 6th trick)."""

OPENSPIEL_GAME = "oh_hell"
OPENSPIEL_PARAMS: dict[str, int] = {"players": PLAYERS, "num_tricks_fixed": HAND_SIZE}

T = TypeVar("T")


# --------------------------------------------------------------------------- tricktaker


def load_bench_rules() -> Ruleset:
    """The benchmark ruleset, checked to be one hand of :data:`HAND_SIZE` for 4 players."""
    rules = load_ruleset(RULESET_PATH)
    sizes = [hand.hand_size for hand in rules.hands_for(PLAYERS)]
    if sizes != [HAND_SIZE]:
        raise RuntimeError(f"{RULESET_PATH}: expected one hand of {HAND_SIZE}, got {sizes}")
    return rules


def play_tricktaker_hand(rules: Ruleset, seed: int, rng: random.Random) -> GameState:
    """One random playout of the benchmark hand (chance steps from ``seed``)."""
    state = new_game(rules, players=PLAYERS, seed=seed)
    while not state.is_terminal():
        if state.is_chance():
            state.apply_chance()
        else:
            seat = state.to_act()[0]
            actions = state.legal_actions(seat)
            state.apply(seat, rng.choice(actions))
    return state


def tricktaker_playouts(
    rules: Ruleset, hands: int, *, rng: random.Random, first_seed: int = 0
) -> None:
    """``hands`` random playouts with seeds ``first_seed``, ``first_seed + 1``, ..."""
    for seed in range(first_seed, first_seed + hands):
        play_tricktaker_hand(rules, seed, rng)


def tricktaker_steps(rules: Ruleset, seed: int = 0) -> tuple[int, int]:
    """``(chance steps, decisions)`` of one random playout of the benchmark hand."""
    rng = random.Random(seed)
    state = new_game(rules, players=PLAYERS, seed=seed)
    chance = decisions = 0
    while not state.is_terminal():
        if state.is_chance():
            state.apply_chance()
            chance += 1
        else:
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            decisions += 1
    return chance, decisions


def tricktaker_mid_hand_states(
    rules: Ruleset, count: int, *, seed: int = 0
) -> list[tuple[GameState, int]]:
    """``count`` mid-hand positions and the seat to act in each: after the deal, the bids
    and 20..23 card plays (so the 6th trick's lead and all three follows appear)."""
    rng = random.Random(seed)
    out: list[tuple[GameState, int]] = []
    for k in range(count):
        state = new_game(rules, players=PLAYERS, seed=seed + k)
        plays = 0
        target = MID_HAND_PLAYS + k % PLAYERS
        while plays < target:
            if state.is_chance():
                state.apply_chance()
                continue
            seat = state.to_act()[0]
            action = rng.choice(state.legal_actions(seat))
            if action.kind == "play":
                plays += 1
            state.apply(seat, action)
        out.append((state, state.to_act()[0]))
    return out


# ---------------------------------------------------------------------------- OpenSpiel


def import_pyspiel() -> tuple[Any, str]:
    """``(pyspiel module, version)``, or ``(None, why not)`` when it cannot be imported."""
    try:
        import pyspiel
    except ImportError as exc:
        return None, f"{exc}"
    try:
        version = importlib.metadata.version("open-spiel")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown version"
    return pyspiel, version


def load_openspiel_game(pyspiel: Any) -> Any:
    return pyspiel.load_game(OPENSPIEL_GAME, dict(OPENSPIEL_PARAMS))


def play_openspiel_hand(game: Any, rng: random.Random) -> Any:
    """One random playout of ``oh_hell``; every chance step (each card dealt, the trump
    card, ...) is an outcome picked uniformly from ``chance_outcomes()`` (they are uniform)."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            legal = state.legal_actions()
            state.apply_action(rng.choice(legal))
    return state


def openspiel_steps(game: Any, seed: int = 0) -> tuple[int, int]:
    """``(chance steps, decisions)`` of one random playout of ``oh_hell``."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    chance = decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            chance += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return chance, decisions


def openspiel_mid_hand_states(game: Any, count: int, *, seed: int = 0) -> list[Any]:
    """As :func:`tricktaker_mid_hand_states`: after all chance steps, the bids and
    20..23 card plays."""
    rng = random.Random(seed)
    bids_end = PLAYERS  # the first PLAYERS decisions are the bids
    out: list[Any] = []
    for k in range(count):
        state = game.new_initial_state()
        decisions = 0
        target = bids_end + MID_HAND_PLAYS + k % PLAYERS
        while decisions < target:
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
        out.append(state)
    return out


# ------------------------------------------------------------------------------ timing


def hands_per_second(play_one: Callable[[], object], seconds: float) -> float:
    """Play hands one after another for about ``seconds``; the rate achieved."""
    gc.collect()
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        play_one()
        hands += 1
        now = time.perf_counter()
        if now >= deadline:
            return hands / (now - start)


def per_call_us(
    fn: Callable[[T], object], items: Sequence[T], *, number: int, repeats: int
) -> float:
    """Median over ``repeats`` timings of the cost of one ``fn(item)`` call, in µs."""
    samples: list[float] = []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        for _ in range(number):
            for item in items:
                fn(item)
        elapsed = time.perf_counter() - start
        samples.append(elapsed / (number * len(items)) * 1e6)
    return statistics.median(samples)


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    order: str
    tricktaker: float
    openspiel: float | None

    @property
    def ratio(self) -> float | None:
        return None if self.openspiel is None else self.tricktaker / self.openspiel


def run_rounds(
    rules: Ruleset, game: Any, *, rounds: int, seconds: float, warmup: float
) -> list[Round]:
    """Paired timings of both engines, alternating which goes first."""
    seeds = itertools.count(1)
    tt_rng = random.Random(12345)
    os_rng = random.Random(54321)

    def tt_one() -> object:
        return play_tricktaker_hand(rules, next(seeds), tt_rng)

    def os_one() -> object:
        return play_openspiel_hand(game, os_rng)

    hands_per_second(tt_one, warmup)
    if game is not None:
        hands_per_second(os_one, warmup)
    results: list[Round] = []
    for number in range(1, rounds + 1):
        tt_first = game is None or number % 2 == 1
        os_rate: float | None = None
        if not tt_first:
            os_rate = hands_per_second(os_one, seconds)
        tt_rate = hands_per_second(tt_one, seconds)
        if tt_first and game is not None:
            os_rate = hands_per_second(os_one, seconds)
        order = "TT" if game is None else ("TT, OS" if tt_first else "OS, TT")
        results.append(Round(number, order, tt_rate, os_rate))
        print(_round_row(results[-1]), flush=True)
    return results


# ----------------------------------------------------------------------------- output


def _fmt(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def _round_row(r: Round) -> str:
    return (
        f"  {r.number:>5}  {r.order:<7} {r.tricktaker:>14,.0f} {_fmt(r.openspiel, '>14,.0f')}"
        f" {_fmt(r.ratio, '>9.2f')}"
    )


def print_header(rules: Ruleset, game: Any, os_version: str, args: argparse.Namespace) -> None:
    print("tricktaker random-playout throughput")
    print(f"  python      {platform.python_implementation()} {platform.python_version()}")
    print(f"  platform    {platform.platform()}")
    print(f"  tricktaker  {importlib.metadata.version('tricktaker')}")
    if game is None:
        print(f"  open_spiel  NOT AVAILABLE ({os_version})")
        print("              install it with: .venv/bin/pip install -e '.[bench]'")
        print("              (only tricktaker's numbers are reported)")
    else:
        print(f"  open_spiel  {os_version}")
    print(
        f"  hand        {PLAYERS} players x {HAND_SIZE} cards: tricktaker {RULESET_PATH.name}"
        f" vs OpenSpiel {OPENSPIEL_GAME}({OPENSPIEL_PARAMS})"
    )
    tt_chance, tt_decisions = tricktaker_steps(rules)
    steps = f"tricktaker {tt_chance} chance + {tt_decisions} decisions"
    if game is not None:
        os_chance, os_decisions = openspiel_steps(game)
        steps += f"; OpenSpiel {os_chance} chance + {os_decisions} decisions"
    print(f"  steps/hand  {steps}")
    print(f"  run         {args.rounds} rounds x ~{args.seconds:g} s per engine, order alternating")
    print()


def print_summary(results: list[Round]) -> None:
    tt = statistics.median(r.tricktaker for r in results)
    print()
    print(f"  median tricktaker  {tt:>10,.0f} hands/s")
    os_rates = [r.openspiel for r in results if r.openspiel is not None]
    ratios = [r.ratio for r in results if r.ratio is not None]
    if not os_rates or not ratios:
        print("  median OpenSpiel   (not measured)")
        return
    print(f"  median OpenSpiel   {statistics.median(os_rates):>10,.0f} hands/s")
    ratio = statistics.median(ratios)
    verdict = "MET" if ratio >= 1.0 else "NOT MET"
    print(
        f"  median ratio       {ratio:>10.2f} x  (tricktaker / OpenSpiel, per round;"
        f" range {min(ratios):.2f}..{max(ratios):.2f})"
    )
    print(f"  target ratio >= 1.0: {verdict}")


def print_call_costs(rules: Ruleset, game: Any, *, number: int, repeats: int) -> None:
    print()
    print(
        f"Per-call cost, µs (median of {repeats} timings over 40 mid-hand positions:"
        f" bids done, {MID_HAND_PLAYS}..{MID_HAND_PLAYS + PLAYERS - 1} cards played)"
    )
    rows: list[tuple[str, float]] = []
    tt_states = tricktaker_mid_hand_states(rules, 40)
    rows.append(
        (
            "tricktaker  state.clone()",
            per_call_us(lambda it: it[0].clone(), tt_states, number=number, repeats=repeats),
        )
    )
    rows.append(
        (
            "tricktaker  state.legal_actions(seat)",
            per_call_us(
                lambda it: it[0].legal_actions(it[1]), tt_states, number=number, repeats=repeats
            ),
        )
    )
    rows.append(
        (
            "tricktaker  state.observe(seat)",
            per_call_us(lambda it: it[0].observe(it[1]), tt_states, number=number, repeats=repeats),
        )
    )
    if game is not None:
        os_states = openspiel_mid_hand_states(game, 40)
        calls: list[tuple[str, Callable[[Any], object]]] = [
            ("OpenSpiel   state.clone()", lambda s: s.clone()),
            ("OpenSpiel   state.legal_actions()", lambda s: s.legal_actions()),
        ]
        if game.get_type().provides_observation_tensor:
            calls.append(
                ("OpenSpiel   state.observation_tensor()", lambda s: s.observation_tensor())
            )
        calls += [
            (
                "OpenSpiel   state.information_state_tensor()",
                lambda s: s.information_state_tensor(),
            ),
            (
                "OpenSpiel   state.information_state_string()",
                lambda s: s.information_state_string(),
            ),
        ]
        for label, fn in calls:
            rows.append((label, per_call_us(fn, os_states, number=number, repeats=repeats)))
    rows.append(
        (
            "(loop + lambda overhead, included above)",
            per_call_us(lambda it: None, tt_states, number=number, repeats=repeats),
        )
    )
    for label, cost in rows:
        print(f"  {label:<48} {cost:>9.2f}")
    if game is not None and not game.get_type().provides_observation_tensor:
        print(
            f"  ({OPENSPIEL_GAME} has no observation_tensor();"
            " its information-state calls stand in)"
        )


def print_profile(rules: Ruleset, hands: int, top: int = 20) -> None:
    """cProfile of the tricktaker playout loop, sorted by internal time."""
    rng = random.Random(7)
    profiler = cProfile.Profile()
    profiler.enable()
    tricktaker_playouts(rules, hands, rng=rng, first_seed=10_000)
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.strip_dirs().sort_stats(pstats.SortKey.TIME).print_stats(top)
    print()
    print(f"cProfile of {hands} tricktaker playouts (top {top} by tottime)")
    print(out.getvalue().rstrip())


# ------------------------------------------------------------------- compiled kernel


def print_kernel_rounds(
    rules: Ruleset, game: Any, *, rounds: int, seconds: float, os_loop: float | None
) -> None:
    """Whole hands of random play in the compiled kernel (a batch per call from Python,
    from 8 dealt hands at the first bid) beside OpenSpiel's all-C++ loop
    (``evaluate_bots`` with uniform random bots from ``new_initial_state()``, dealing
    included), paired rounds alternating which goes first."""
    from kernel_speed import kernel_playout_rate, openspiel_rollout_rate
    from tricktaker.kernel import available

    print()
    if not available():
        print("Compiled kernel: NOT BUILT (pip install -e . with a C++ compiler)")
        return
    dealt = []
    for seed in range(8):
        state = new_game(rules, players=PLAYERS, seed=seed)
        state.apply_chance()
        dealt.append(state)
    print("Compiled kernel: random hands per second (4 bids + 48 cards; no deal)")
    print(f"  {'round':>5}  {'kernel/s':>12} {'OS C++/s':>12} {'ratio':>8}")
    ratios, ours, theirs = [], [], []
    for number in range(1, rounds + 1):
        first = number % 2 == 1 or game is None
        os_rate = None
        if game is not None and not first:
            os_rate = openspiel_rollout_rate([game.new_initial_state()], seconds, number)
        rate = kernel_playout_rate(dealt, seconds, policy=False, seed=number)
        if game is not None and first:
            os_rate = openspiel_rollout_rate([game.new_initial_state()], seconds, number)
        ours.append(rate)
        if os_rate is not None:
            theirs.append(os_rate)
            ratios.append(rate / os_rate)
        print(
            f"  {number:>5}  {rate:>12,.0f} {_fmt(os_rate, '>12,.0f')}"
            f" {_fmt(None if os_rate is None else rate / os_rate, '>8.2f')}"
        )
    print(f"  median kernel      {statistics.median(ours):>10,.0f} hands/s")
    if ratios:
        ratio = statistics.median(ratios)
        print(f"  median OpenSpiel   {statistics.median(theirs):>10,.0f} hands/s (all-C++ loop)")
        print(
            f"  median ratio       {ratio:>10.2f} x  (range {min(ratios):.2f}..{max(ratios):.2f})"
        )
        print(f"  target ratio >= 0.5: {'MET' if ratio >= 0.5 else 'NOT MET'}")
    if os_loop:
        print(
            f"  kernel / OpenSpiel's Python loop above: {statistics.median(ours) / os_loop:.1f} x"
        )


# -------------------------------------------------------------------------------- main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a short smoke run (3 x 0.3 s)")
    parser.add_argument("--rounds", type=int, default=None, help="paired rounds (default 7)")
    parser.add_argument(
        "--seconds", type=float, default=None, help="seconds per engine per round (default 1.5)"
    )
    parser.add_argument(
        "--profile", action="store_true", help="also print a cProfile of the tricktaker loop"
    )
    args = parser.parse_args(argv)
    if args.rounds is None:
        args.rounds = 3 if args.quick else 7
    if args.seconds is None:
        args.seconds = 0.3 if args.quick else 1.5
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    rules = load_bench_rules()
    pyspiel, os_version = import_pyspiel()
    game = load_openspiel_game(pyspiel) if pyspiel is not None else None
    print_header(rules, game, os_version, args)
    print(f"  {'round':>5}  {'order':<7} {'tricktaker/s':>14} {'OpenSpiel/s':>14} {'ratio':>9}")
    results = run_rounds(
        rules,
        game,
        rounds=args.rounds,
        seconds=args.seconds,
        warmup=min(0.5, args.seconds),
    )
    print_summary(results)
    os_rates = [r.openspiel for r in results if r.openspiel is not None]
    print_kernel_rounds(
        rules,
        game,
        rounds=args.rounds,
        seconds=args.seconds,
        os_loop=statistics.median(os_rates) if os_rates else None,
    )
    print_call_costs(rules, game, number=5 if args.quick else 50, repeats=3 if args.quick else 7)
    if args.profile:
        print_profile(rules, 200 if args.quick else 2000)
    return 0


if __name__ == "__main__":
    sys.exit(main())
