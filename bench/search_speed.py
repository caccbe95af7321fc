"""Speed of the search: tricktaker's search bots and their parts beside OpenSpiel's.

On the same positions of OpenSpiel's ``oh_hell(players=4, num_tricks_fixed=12)`` (our
ruleset ``bench/openspiel_oh_hell.toml``), at four points of a hand (a bid, early, mid
and late play, from seeded games played by the heuristic bot), it measures:

* simulations per second of our ``ISMCTSBot`` (iterations / time of a decision) and
  ``PIMCBot`` (rollouts / time), beside ``pyspiel.ISMCTSBot`` (``--sims`` simulations,
  random-rollout evaluator, built as ``bench/vs_openspiel.py`` builds it);
* random playouts to the hand's end from the position (clone included), our engine
  against OpenSpiel's ``clone()`` + random ``apply_action``: the like-for-like;
  and our search's own rollout policy;
* one determinization: our ``Determinizer(obs)`` and its ``sample(rng)``, beside
  OpenSpiel's ``state.resample_from_infostate(player, sampler)``;
* ``clone()`` and one ``apply`` (a card play; a bid at the bid) on each engine.

Each round times every figure on both engines back to back, the order alternating between
rounds; the table gives medians over the rounds and the median of the per-round speed
ratios. See ``bench/README.md``. Run with ``make bench-search``, or::

    .venv/bin/python bench/search_speed.py [--quick] [--rounds N] [--seconds S] [--json]

Without OpenSpiel (the ``bench`` extra) the script says so and reports our figures alone.
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from kernel_speed import (
    kernel_ismcts_rate,
    kernel_playout_rate,
    kernel_sample_us,
    openspiel_rollout_rate,
)
from openspiel_adapter import (
    HAND_SIZE,
    OPENSPIEL_GAME,
    OPENSPIEL_PARAMS,
    PLAYERS,
    OhHellAdapter,
    action_to_openspiel,
    card_to_openspiel,
    check_game,
)
from speed_common import (
    SECTIONS,
    Cell,
    Config,
    Metric,
    Results,
    calls_per_second,
    per_call_us,
    prepared_calls_per_second,
)
from tricktaker import GameState, Ruleset, new_game
from tricktaker.bots import Determinizer, ISMCTSBot, PIMCBot, make_bot
from tricktaker.bots import pimc as pimc_module
from tricktaker.bots.gamesearch import GameSearch, search_for
from tricktaker.bots.pimc import rollout_hand
from tricktaker.engine.actions import Action
from tricktaker.engine.observation import Observation
from tricktaker.kernel import available as kernel_available
from vs_openspiel import ISMCTS_UCT_C, ismcts_chooser, mix

PHASES: tuple[tuple[str, int, str], ...] = (
    ("bid", 0, "0..3 bids made"),
    ("early", PLAYERS + 4, "all bids, 4..7 cards played (trick 2)"),
    ("mid", PLAYERS + 20, "all bids, 20..23 cards played (trick 6)"),
    ("late", PLAYERS + 36, "all bids, 36..39 cards played (trick 10)"),
)
"""Each phase's name, the decisions made before its first position, and what that means.
A phase's k-th position is ``k % 4`` decisions later, so every seat of a trick appears."""

# --------------------------------------------------------------------------- positions


@dataclass(frozen=True, slots=True)
class Position:
    """One decision point, in both engines."""

    phase: str
    game_seed: int
    state: GameState
    seat: int
    observation: Observation
    next_action: Action
    """The heuristic bot's choice here (the action the apply timings apply)."""
    openspiel: Any
    """The same position as an OpenSpiel state, or None without OpenSpiel."""
    openspiel_action: int


def openspiel_mirror(game: Any, state: GameState, actions: Sequence[Action]) -> Any:
    """The OpenSpiel state with ``state``'s deal and then ``actions``."""
    mirror = game.new_initial_state()
    mirror.apply_action(HAND_SIZE)
    mirror.apply_action(state.dealer)
    for i in range(PLAYERS * HAND_SIZE):  # OpenSpiel deals seat 0, 1, 2, 3, 0, ...
        mirror.apply_action(card_to_openspiel(state.dealt[i % PLAYERS][i // PLAYERS]))
    assert state.turn_up is not None
    mirror.apply_action(card_to_openspiel(state.turn_up))
    for action in actions:
        mirror.apply_action(action_to_openspiel(action))
    return mirror


def play_to(
    rules: Ruleset,
    game_seed: int,
    decisions: int,
    phase: str,
    *,
    game: Any = None,
    adapter: OhHellAdapter | None = None,
) -> Position | None:
    """The position after ``decisions`` heuristic-bot decisions of the game seeded
    ``game_seed``, or None when the seat to act there has only one legal action."""
    state = new_game(rules, players=PLAYERS, seed=game_seed)
    state.apply_chance()
    dealt = state.clone()
    bots = [make_bot("heuristic", seed=mix(game_seed, seat)) for seat in range(PLAYERS)]
    actions: list[Action] = []
    for _ in range(decisions):
        seat = state.to_act()[0]
        action = bots[seat].act(state.observe(seat))
        state.apply(seat, action)
        actions.append(action)
    seat = state.to_act()[0]
    observation = state.observe(seat)
    if len(observation.legal_actions) < 2:
        return None
    next_action = bots[seat].act(observation)
    mirror = None
    if game is not None:
        mirror = openspiel_mirror(game, dealt, actions)
        if adapter is None:
            adapter = OhHellAdapter(rules)
        if mirror.current_player() != seat or adapter.observe(mirror, seat) != observation:
            raise RuntimeError(f"game {game_seed}: the OpenSpiel position differs from ours")
    return Position(
        phase=phase,
        game_seed=game_seed,
        state=state,
        seat=seat,
        observation=observation,
        next_action=next_action,
        openspiel=mirror,
        openspiel_action=action_to_openspiel(next_action),
    )


def make_positions(
    rules: Ruleset, per_phase: int, *, seed: int = 0, game: Any = None
) -> dict[str, list[Position]]:
    """``per_phase`` positions of each phase, from games seeded from ``seed`` on (a game
    whose position offers a single legal action is skipped for the next seed)."""
    adapter = OhHellAdapter(rules) if game is not None else None
    out: dict[str, list[Position]] = {}
    for index, (phase, first, _) in enumerate(PHASES):
        game_seed = seed * 100_000 + index * 10_000
        found: list[Position] = []
        for k in range(per_phase):
            while True:
                position = play_to(
                    rules, game_seed, first + k % PLAYERS, phase, game=game, adapter=adapter
                )
                game_seed += 1
                if position is not None:
                    found.append(position)
                    break
        out[phase] = found
    return out


# ------------------------------------------------------------------------------ timing


def random_playout_tricktaker(state: GameState, rng: random.Random) -> GameState:
    """A full-information random playout of a clone of ``state`` to the hand's end."""
    trial = state.clone()
    start = trial.hands_played
    while trial.hands_played == start and not trial.is_terminal():
        if trial.is_chance():
            trial.apply_chance()
            continue
        seat = trial.to_act()[0]
        trial.apply(seat, rng.choice(trial.legal_actions(seat)))
    return trial


def random_playout_openspiel(state: Any, rng: random.Random) -> Any:
    """OpenSpiel's ``clone()``, then random ``apply_action`` to the end (one hand)."""
    trial = state.clone()
    while not trial.is_terminal():
        trial.apply_action(rng.choice(trial.legal_actions()))
    return trial


def policy_playout(state: GameState, search: GameSearch) -> GameState:
    """A clone of ``state`` played to the hand's end by our search's rollout policy."""
    trial = state.clone()
    rollout_hand(trial, search)
    return trial


def pimc_rollouts(bot: PIMCBot, observation: Observation) -> int:
    """How many rollouts ``bot`` runs for one decision (counted, untimed)."""
    count = 0
    original = pimc_module.rollout_hand

    def counting(*args: Any, **kwargs: Any) -> None:
        nonlocal count
        count += 1
        original(*args, **kwargs)

    pimc_module.rollout_hand = counting
    try:
        bot.act(observation)
    finally:
        pimc_module.rollout_hand = original
    if not count:
        raise RuntimeError("counted no PIMC rollouts: does PIMCBot still call pimc.rollout_hand?")
    return count


# ---------------------------------------------------------------------------- metrics


def pimc_bot(config: Config, position: Position) -> PIMCBot:
    """Our PIMC bot for ``position``: the same seed every round, so every round does the
    same work."""
    return PIMCBot(
        seed=mix(config.seed, position.game_seed, 3),
        determinizations=config.pimc_determinizations,
        rollouts=config.pimc_rollouts,
        min_determinizations=config.pimc_min_determinizations,
        kernel=0,
    )


def build_metrics(config: Config, game: Any, pimc_work: dict[int, int]) -> list[Metric]:
    """The table's rows, with the functions that time them (``game``: OpenSpiel's or None;
    ``pimc_work``: the rollouts of each position's PIMC decision, by game seed)."""
    seconds = config.seconds
    search = search_for(None)
    tt_rng = random.Random(mix(config.seed, 1))
    os_rng = random.Random(mix(config.seed, 2))
    os_sampler = None
    if game is not None:
        import pyspiel

        os_sampler = pyspiel.UniformProbabilitySampler(mix(config.seed, 5), 0.0, 1.0)

    def ours_ismcts(positions: list[Position], round_: int) -> float:
        work = 0
        spent = 0.0
        for position in positions:
            bot = ISMCTSBot(
                seed=mix(config.seed, position.game_seed, 4),
                iterations=config.iterations,
                kernel=0,
            )
            gc.collect()
            start = time.perf_counter()
            bot.act(position.observation)
            spent += time.perf_counter() - start
            work += bot.last_iterations
        return work / spent

    def ours_pimc(positions: list[Position], round_: int) -> float:
        work = 0
        spent = 0.0
        for position in positions:
            bot = pimc_bot(config, position)
            gc.collect()
            start = time.perf_counter()
            bot.act(position.observation)
            spent += time.perf_counter() - start
            work += pimc_work[position.game_seed]
        return work / spent

    def ours_sample(positions: list[Position], round_: int) -> float:
        # One Determinizer per position, built untimed and reused, as a search reuses it.
        samplers = {p.game_seed: Determinizer(p.observation) for p in positions}
        return per_call_us(
            calls_per_second(lambda p: samplers[p.game_seed].sample(tt_rng), positions, seconds)
        )

    def theirs_ismcts(positions: list[Position], round_: int) -> float:
        spent = 0.0
        for position in positions:
            seed = mix(config.seed, position.game_seed, round_)
            choose = ismcts_chooser(game, seed, config.sims)
            gc.collect()
            start = time.perf_counter()
            choose(position.openspiel)
            spent += time.perf_counter() - start
        return config.sims * len(positions) / spent

    metrics = [
        Metric(
            "ismcts",
            "search",
            "ISMCTSBot iterations/s (Python) | ISMCTSBot sims/s",
            True,
            ours_ismcts,
            theirs_ismcts if game is not None else None,
        ),
        Metric(
            "kernel_ismcts",
            "search",
            "ISMCTSBot in the kernel | (ISMCTSBot, as above)",
            True,
            lambda ps, r: kernel_ismcts_rate(
                [p.observation for p in ps], config.kernel_iterations, mix(config.seed, r)
            ),
            theirs_from="ismcts",
        ),
        Metric(
            "pimc",
            "search",
            "PIMCBot rollouts/s (Python) | (ISMCTSBot, as above)",
            True,
            ours_pimc,
            theirs_from="ismcts",
        ),
        Metric(
            "random_playout",
            "playout",
            "random playout | clone() + random apply_action",
            True,
            lambda ps, r: calls_per_second(
                lambda p: random_playout_tricktaker(p.state, tt_rng), ps, seconds
            ),
            (
                lambda ps, r: calls_per_second(
                    lambda p: random_playout_openspiel(p.openspiel, os_rng), ps, seconds
                )
            )
            if game is not None
            else None,
        ),
        Metric(
            "policy_playout",
            "playout",
            "our search's rollout policy | (random, as above)",
            True,
            lambda ps, r: calls_per_second(lambda p: policy_playout(p.state, search), ps, seconds),
            theirs_from="random_playout",
        ),
        Metric(
            "kernel_random_playout",
            "playout",
            "kernel random playouts | evaluate_bots(random)",
            True,
            lambda ps, r: kernel_playout_rate(
                [p.state for p in ps], seconds, policy=False, seed=mix(config.seed, r)
            ),
            (
                lambda ps, r: openspiel_rollout_rate(
                    [p.openspiel for p in ps], seconds, mix(config.seed, r)
                )
            )
            if game is not None
            else None,
        ),
        Metric(
            "kernel_policy_playout",
            "playout",
            "kernel rollout policy | (evaluate_bots, as above)",
            True,
            lambda ps, r: kernel_playout_rate(
                [p.state for p in ps], seconds, policy=True, seed=mix(config.seed, r)
            ),
            theirs_from="kernel_random_playout",
        ),
        Metric(
            "determinizer",
            "determinize",
            "Determinizer(obs) | (no counterpart)",
            False,
            lambda ps, r: per_call_us(
                calls_per_second(lambda p: Determinizer(p.observation), ps, seconds)
            ),
        ),
        Metric(
            "sample",
            "determinize",
            "Determinizer.sample(rng) | resample_from_infostate",
            False,
            ours_sample,
            (
                lambda ps, r: per_call_us(
                    calls_per_second(
                        lambda p: p.openspiel.resample_from_infostate(p.seat, os_sampler),
                        ps,
                        seconds,
                    )
                )
            )
            if game is not None
            else None,
        ),
        Metric(
            "kernel_sample",
            "determinize",
            "kernel determinization | resample_from_infostate",
            False,
            lambda ps, r: kernel_sample_us(
                [p.observation for p in ps], seconds, mix(config.seed, r)
            ),
            theirs_from="sample",
        ),
        Metric(
            "clone",
            "state",
            "GameState.clone() | state.clone()",
            False,
            lambda ps, r: per_call_us(calls_per_second(lambda p: p.state.clone(), ps, seconds)),
            (
                lambda ps, r: per_call_us(
                    calls_per_second(lambda p: p.openspiel.clone(), ps, seconds)
                )
            )
            if game is not None
            else None,
        ),
        Metric(
            "apply",
            "state",
            "apply(seat, action) | apply_action(action)",
            False,
            lambda ps, r: per_call_us(
                prepared_calls_per_second(
                    lambda p: p.state.clone(),
                    lambda s, p: s.apply(p.seat, p.next_action),
                    ps,
                    seconds,
                )
            ),
            (
                lambda ps, r: per_call_us(
                    prepared_calls_per_second(
                        lambda p: p.openspiel.clone(),
                        lambda s, p: s.apply_action(p.openspiel_action),
                        ps,
                        seconds,
                    )
                )
            )
            if game is not None
            else None,
        ),
        Metric(
            "overhead",
            "state",
            "(timing loop overhead, included above)",
            False,
            lambda ps, r: per_call_us(calls_per_second(lambda p: None, ps, seconds)),
        ),
    ]
    if not kernel_available():  # not built: the kernel's rows are left out
        metrics = [m for m in metrics if not m.key.startswith("kernel_")]
    return metrics


# ------------------------------------------------------------------------------ rounds


def run_rounds(
    metrics: list[Metric],
    positions: dict[str, list[Position]],
    *,
    rounds: int,
    openspiel: bool,
    note: Callable[[str], None],
) -> Results:
    """Every metric in every phase, on both engines back to back, ``rounds`` times; the
    engine timed first alternates between rounds."""
    results: Results = {m.key: {phase: Cell() for phase in positions} for m in metrics}
    for number in range(1, rounds + 1):
        ours_first = not openspiel or number % 2 == 1
        started = time.perf_counter()
        for metric in metrics:
            for phase, items in positions.items():
                cell = results[metric.key][phase]
                theirs: float | None = None
                if metric.theirs is not None and not ours_first:
                    theirs = metric.theirs(items, number)
                ours = metric.ours(items, number)
                if metric.theirs is not None and ours_first:
                    theirs = metric.theirs(items, number)
                if metric.theirs_from is not None:
                    theirs = results[metric.theirs_from][phase].theirs[-1]
                cell.ours.append(ours)
                cell.theirs.append(theirs)
        order = "ours first" if ours_first else "OpenSpiel first"
        if not openspiel:
            order = "tricktaker only"
        note(f"  round {number}/{rounds} ({order}) took {time.perf_counter() - started:.1f} s")
    return results


# ----------------------------------------------------------------------------- output


def summarize(metrics: list[Metric], results: Results) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for metric in metrics:
        for phase, cell in results[metric.key].items():
            theirs = [t for t in cell.theirs if t is not None]
            ratios = cell.ratios(metric.rate)
            rows.append(
                {
                    "metric": metric.key,
                    "section": metric.section,
                    "label": metric.label,
                    "unit": "per second" if metric.rate else "µs",
                    "phase": phase,
                    "tricktaker": statistics.median(cell.ours),
                    "openspiel": statistics.median(theirs) if theirs else None,
                    "speed_ratio": statistics.median(ratios) if ratios else None,
                    "speed_ratio_range": [min(ratios), max(ratios)] if ratios else None,
                    "rounds_tricktaker": cell.ours,
                    "rounds_openspiel": cell.theirs,
                }
            )
    return rows


def _figure(value: float | None, rate: bool) -> str:
    if value is None:
        return "-"
    return f"{value:,.0f}" if rate else f"{value:,.2f}"


def format_table(metrics: list[Metric], rows: list[dict[str, Any]], rounds: int) -> str:
    by_metric = {m.key: m for m in metrics}
    lines = [
        f"Medians of {rounds} paired round(s). speed x: how many times as fast tricktaker is"
        " (our rate / OpenSpiel's,",
        "or OpenSpiel's µs / ours), the median of the per-round values; above 1: tricktaker"
        " is faster.",
        "Labels read 'ours | OpenSpiel'.",
        "",
        f"  {'':<52} {'phase':<6} {'tricktaker':>11} {'OpenSpiel':>11} {'speed x':>8}  range",
    ]
    section = None
    label = None
    for row in rows:
        metric = by_metric[row["metric"]]
        if metric.section != section:
            section = metric.section
            lines.append(SECTIONS[section])
        shown = metric.label if metric.label != label else ""
        label = metric.label
        ratio = row["speed_ratio"]
        spread = row["speed_ratio_range"]
        lines.append(
            f"  {shown:<52} {row['phase']:<6} {_figure(row['tricktaker'], metric.rate):>11}"
            f" {_figure(row['openspiel'], metric.rate):>11}"
            f" {'-' if ratio is None else f'{ratio:.3g}':>8}"
            f"  {'' if spread is None else f'{spread[0]:.3g}..{spread[1]:.3g}'}"
        )
    return "\n".join(lines)


CAVEAT = (
    "Wall-clock figures on a shared machine vary by +-20% from run to run: read the speed\n"
    "ratios (each taken within one round, both engines back to back) before the absolute\n"
    "figures, and compare absolute figures only between runs on the same machine."
)

NOTES = (
    "Not the same work per simulation: OpenSpiel's ISMCTS runs in C++ (resample, tree,\n"
    "random rollout, no Python per step); ours samples exactly (voids respected), weighs\n"
    "samples by the bids and rolls out with a greedy policy, in Python or in the kernel (C++).\n"
    "The kernel rows run their loops in C++, called once per decision or batch: their\n"
    "counterpart is OpenSpiel's all-C++ evaluate_bots with random bots. OpenSpiel's oh_hell\n"
    "resample ignores shown voids and keeps nothing per information state, so our\n"
    "Determinizer has no counterpart there.\n"
    "The playout rows are the like-for-like: one Python loop through each engine's API."
)


def header(
    config: Config,
    positions: dict[str, list[Position]],
    os_version: str,
    available: bool,
    pimc_note: str,
) -> list[str]:
    lines = [
        "tricktaker search speed beside OpenSpiel",
        f"  python      {platform.python_implementation()} {platform.python_version()}",
        f"  platform    {platform.platform()}",
        f"  tricktaker  {importlib.metadata.version('tricktaker')}",
    ]
    if available:
        lines.append(f"  open_spiel  {os_version}")
    else:
        lines += [
            f"  open_spiel  NOT AVAILABLE ({os_version})",
            "              install it with: .venv/bin/pip install -e '.[bench]'",
            "              (only tricktaker's figures are reported)",
        ]
    lines += [
        f"  game        {OPENSPIEL_GAME}({OPENSPIEL_PARAMS}) = bench/openspiel_oh_hell.toml",
        f"  positions   {config.per_phase} per phase, from heuristic-bot games"
        f" (seed {config.seed}), the seat to act having 2+ legal actions:",
    ]
    for phase, _, what in PHASES:
        seeds = ", ".join(str(p.game_seed) for p in positions[phase])
        lines.append(f"    {phase:<6} {what}; games {seeds}")
    lines += [
        f"  ours        ISMCTSBot(iterations={config.iterations}, kernel=0);"
        f" in the kernel ISMCTSBot(iterations={config.kernel_iterations});"
        "\n             "
        f" PIMCBot(determinizations={config.pimc_determinizations}, kernel=0,"
        f" rollouts={config.pimc_rollouts},"
        f" min_determinizations={config.pimc_min_determinizations})",
        f"              PIMC {pimc_note}",
        f"  OpenSpiel   ISMCTSBot(uct_c={ISMCTS_UCT_C}, max_simulations={config.sims},"
        " RandomRolloutEvaluator(1), max_world_samples=-1,",
        "              MAX_VISIT_COUNT); resample_from_infostate(player,"
        " UniformProbabilitySampler)",
        f"  run         {config.rounds} rounds; micro-timings ~{config.seconds:g} s each;"
        " order alternating",
    ]
    return lines


# -------------------------------------------------------------------------------- main


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


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--rounds", type=int, default=None, help="paired rounds (default 5)")
    parser.add_argument(
        "--seconds", type=float, default=None, help="seconds per micro-timing (default 0.2)"
    )
    parser.add_argument(
        "--positions", type=int, default=None, help="positions per phase (default 4)"
    )
    parser.add_argument(
        "--iterations", type=int, default=None, help="our ISMCTS iterations (default 400)"
    )
    parser.add_argument(
        "--kernel-iterations",
        type=int,
        default=None,
        help="ISMCTS iterations in the compiled kernel (default 10000)",
    )
    parser.add_argument(
        "--sims", type=int, default=None, help="OpenSpiel ISMCTS simulations (default 1000)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the positions and bots")
    parser.add_argument(
        "--json", action="store_true", help="print the summary as JSON (progress on stderr)"
    )
    args = parser.parse_args(argv)
    quick = args.quick
    defaults = {
        "rounds": 1 if quick else 5,
        "seconds": 0.01 if quick else 0.2,
        "positions": 1 if quick else 4,
        "iterations": 10 if quick else 400,
        "kernel_iterations": 100 if quick else 10_000,
        "sims": 50 if quick else 1000,
    }
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if min(args.rounds, args.positions, args.iterations, args.sims) < 1 or args.seconds <= 0:
        parser.error("--rounds, --positions, --iterations, --sims and --seconds must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    config = Config(
        rounds=args.rounds,
        seconds=args.seconds,
        per_phase=args.positions,
        iterations=args.iterations,
        pimc_determinizations=1 if args.quick else 24,
        pimc_min_determinizations=1 if args.quick else 6,
        pimc_rollouts=1 if args.quick else 160,
        sims=args.sims,
        seed=args.seed,
        kernel_iterations=args.kernel_iterations,
    )
    out: Callable[[str], None] = print
    if args.json:

        def out(line: str) -> None:
            print(line, file=sys.stderr, flush=True)

    pyspiel, os_version = import_pyspiel()
    game = None
    if pyspiel is not None:
        game = pyspiel.load_game(OPENSPIEL_GAME, dict(OPENSPIEL_PARAMS))
        check_game(game)
    rules = OhHellAdapter().rules
    positions = make_positions(rules, config.per_phase, seed=config.seed, game=game)
    pimc_work = {
        p.game_seed: pimc_rollouts(pimc_bot(config, p), p.observation)
        for items in positions.values()
        for p in items
    }
    metrics = build_metrics(config, game, pimc_work)
    pimc_counts = {
        phase: [pimc_work[p.game_seed] for p in items] for phase, items in positions.items()
    }
    pimc_note = "rollouts per decision: " + "; ".join(
        f"{phase} {', '.join(map(str, counts))}" for phase, counts in pimc_counts.items()
    )
    for line in header(config, positions, os_version, game is not None, pimc_note):
        out(line)
    out("")
    results = run_rounds(
        metrics, positions, rounds=config.rounds, openspiel=game is not None, note=out
    )
    rows = summarize(metrics, results)
    if args.json:
        summary = {
            "config": {
                "rounds": config.rounds,
                "seconds": config.seconds,
                "positions_per_phase": config.per_phase,
                "ismcts_iterations": config.iterations,
                "kernel_ismcts_iterations": config.kernel_iterations,
                "pimc": {
                    "determinizations": config.pimc_determinizations,
                    "rollouts": config.pimc_rollouts,
                    "min_determinizations": config.pimc_min_determinizations,
                    "rollouts_per_decision": pimc_counts,
                },
                "openspiel_sims": config.sims,
                "seed": config.seed,
                "games": {phase: [p.game_seed for p in ps] for phase, ps in positions.items()},
            },
            "machine": {
                "python": platform.python_version(),
                "platform": platform.platform(),
                "open_spiel": os_version if game is not None else None,
                "tricktaker": importlib.metadata.version("tricktaker"),
            },
            "rows": rows,
        }
        print(json.dumps(summary, indent=2))
        return 0
    print()
    print(format_table(metrics, rows, config.rounds))
    print()
    print(NOTES)
    print()
    print(CAVEAT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
