"""Environment throughput: decisions per second of tricktaker's PettingZoo environment,
beside PettingZoo's own card games and OpenSpiel's ``oh_hell`` driven the same way.

Every environment is driven by the loop a learner runs: at each decision, the observation
(a numpy vector) and the legal-action mask of the player to act are built, one legal
action is drawn at random from the mask, and it is applied; chance steps (deals) are
inside the time. One process, one thread: the figures are per core.

- ``tricktaker:GAME``: ``tricktaker.envs.pettingzoo_env(GAME)``, its ``agent_iter()``
  loop (``last()`` builds the encoding and the mask, ``step()`` applies the action).
- ``pettingzoo:ENV``: PettingZoo's classic card games through the same loop
  (``leduc_holdem_v4``, ``texas_holdem_v4``; they need ``rlcard`` and ``pygame-ce``, the
  ``bench-envs`` extra). PettingZoo has no trick-taking game: poker is the closest.
- ``openspiel:oh_hell``: ``pyspiel`` directly (OpenSpiel has no PettingZoo env of its
  own without Shimmy): at each decision ``information_state_tensor(player)`` and
  ``legal_actions_mask(player)`` as numpy arrays, a random legal action,
  ``apply_action``; at chance nodes a uniform draw from ``legal_actions()`` (oh_hell's
  chance outcomes are uniform). ``openspiel:oh_hell, no tensor`` builds no observation
  (``legal_actions()`` only): the engine alone, for scale. The same 12-card, 4-player
  hand as
  ``bench/openspiel_oh_hell.toml``, which ``tricktaker:openspiel_oh_hell`` plays.

Usage::

    .venv/bin/python bench/env_throughput.py              # 5 rounds of 2 s per env
    .venv/bin/python bench/env_throughput.py --quick      # a smoke run
    .venv/bin/python bench/env_throughput.py --json
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

BENCH = Path(__file__).resolve().parent
OH_HELL_FILE = BENCH / "openspiel_oh_hell.toml"
TRICKTAKER_GAMES: tuple[tuple[str, str, int], ...] = (
    ("openspiel_oh_hell", str(OH_HELL_FILE), 4),
    ("blackout", "blackout", 4),
    ("bluke", "bluke", 4),
    ("pluck", "pluck", 3),
    ("euchre", "euchre", 4),
    ("buckup", "buckup", 4),
)
"""``(label, game, players)`` of the tricktaker environments measured."""
BASELINE = "openspiel:oh_hell"
"""The row the others are compared with, round by round."""
PETTINGZOO_GAMES: tuple[tuple[str, dict[str, int]], ...] = (
    ("leduc_holdem_v4", {}),
    ("texas_holdem_v4", {"num_players": 4}),
)


@dataclass
class Row:
    """One environment's result."""

    env: str
    players: int
    observation: int
    actions: int
    steps_per_second: float
    spread: float
    """Half the range of the rounds' figures, as a share of the median."""
    note: str = ""
    versus_openspiel: float | None = None
    """The median over the rounds of this rate over OpenSpiel oh_hell's in the same round
    (steadier than the rates when the machine's load changes)."""


Runner = Callable[[float], tuple[int, float]]
"""Plays for about the given seconds; returns ``(decisions, seconds)``."""


def aec_runner(make_env: Callable[[], Any]) -> tuple[Runner, int, int]:
    """A runner of a PettingZoo AEC env with action masks, and its sizes."""
    env = make_env()
    env.reset(seed=0)
    agent = env.agents[0]
    observation_size = int(np.prod(env.observation_space(agent)["observation"].shape))
    action_size = int(env.action_space(agent).n)
    rng = np.random.default_rng(0)

    def run(seconds: float) -> tuple[int, float]:
        steps, episode = 0, 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            env.reset(seed=episode)
            episode += 1
            for _agent in env.agent_iter():
                observation, _, termination, truncation, _ = env.last()
                if termination or truncation:
                    env.step(None)
                    continue
                legal = np.flatnonzero(observation["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
                steps += 1
        return steps, time.perf_counter() - start

    return run, observation_size, action_size


def openspiel_runner(*, tensors: bool = True) -> tuple[Runner, int, int]:
    """A runner of OpenSpiel's oh_hell through pyspiel, with the observation tensor and
    mask built at each decision (``tensors``) or only the legal actions."""
    import pyspiel

    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 12})
    rng = np.random.default_rng(0)

    def run(seconds: float) -> tuple[int, float]:
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.legal_actions()
                    state.apply_action(outcomes[rng.integers(len(outcomes))])
                    continue
                if tensors:
                    player = state.current_player()
                    np.asarray(state.information_state_tensor(player), dtype=np.float32)
                    mask = np.asarray(state.legal_actions_mask(player), dtype=np.int8)
                    legal = np.flatnonzero(mask)
                    state.apply_action(int(legal[rng.integers(len(legal))]))
                else:
                    actions = state.legal_actions()
                    state.apply_action(actions[rng.integers(len(actions))])
                steps += 1
        return steps, time.perf_counter() - start

    return run, game.information_state_tensor_size(), game.num_distinct_actions()


def measure(
    label: str, players: int, made: tuple[Runner, int, int], rounds: int, seconds: float
) -> Row:
    """The median decisions per second over ``rounds`` timed rounds (after a warm-up)."""
    run, observation, actions = made
    run(min(0.2, seconds))
    rates = []
    for _ in range(rounds):
        steps, elapsed = run(seconds)
        rates.append(steps / elapsed)
    median = statistics.median(rates)
    spread = (max(rates) - min(rates)) / 2 / median if median else 0.0
    return Row(label, players, observation, actions, median, spread)


Entry = tuple[str, int, tuple[Runner, int, int] | str]
"""``(label, players, runner and sizes)``, or a note saying why it cannot run here."""


def entries() -> list[Entry]:
    """Every environment of the benchmark, ready to run (or why it is not)."""
    from tricktaker.envs import pettingzoo_env

    out: list[Entry] = []
    for label, game, players in TRICKTAKER_GAMES:
        made = aec_runner(partial(pettingzoo_env, game, players=players))
        out.append((f"tricktaker:{label}", players, made))
    for name, kwargs in PETTINGZOO_GAMES:
        players = int(kwargs.get("num_players", 2))
        try:
            with warnings.catch_warnings():  # its "old creation API" notice
                warnings.simplefilter("ignore", DeprecationWarning)
                module = importlib.import_module(f"pettingzoo.classic.{name}")
        except ImportError as exc:
            out.append((f"pettingzoo:{name}", players, f"not run: {exc}"))
            continue
        out.append((f"pettingzoo:{name}", players, aec_runner(partial(module.env, **kwargs))))
    for tensors, label in ((True, "openspiel:oh_hell"), (False, "openspiel:oh_hell, no tensor")):
        try:
            run, size, actions = openspiel_runner(tensors=tensors)
        except ImportError as exc:
            out.append((label, 4, f"not run: {exc}"))
        else:
            out.append((label, 4, (run, size if tensors else 0, actions)))
    return out


def rows(rounds: int, seconds: float) -> list[Row]:
    """Every environment measured: each round runs every environment in turn (so that a
    change of the machine's load falls on all of them), the median of the rounds."""
    todo = entries()
    rates: dict[str, list[float]] = {label: [] for label, _, made in todo}
    for _, _, made in todo:
        if not isinstance(made, str):
            made[0](min(0.2, seconds))  # warm-up
    for _ in range(rounds):
        for label, _, made in todo:
            if not isinstance(made, str):
                steps, elapsed = made[0](seconds)
                rates[label].append(steps / elapsed)
    base = rates.get(BASELINE) or []
    out: list[Row] = []
    for label, players, made in todo:
        if isinstance(made, str):
            out.append(Row(label, players, 0, 0, 0.0, 0.0, made))
            continue
        median = statistics.median(rates[label])
        spread = (max(rates[label]) - min(rates[label])) / 2 / median if median else 0.0
        ratio = (
            statistics.median(r / b for r, b in zip(rates[label], base, strict=True))
            if base
            else None
        )
        out.append(Row(label, players, made[1], made[2], median, spread, "", ratio))
    return out


def table(results: list[Row]) -> str:
    """The results as a Markdown table."""
    lines = [
        "| environment | players | observation | actions | decisions/s | µs/decision | ±"
        " | × oh_hell |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in results:
        if row.note:
            lines.append(f"| {row.env} | {row.players} | | | {row.note} | | | |")
            continue
        micro = 1e6 / row.steps_per_second
        ratio = f"{row.versus_openspiel:.2f}" if row.versus_openspiel is not None else ""
        lines.append(
            f"| {row.env} | {row.players} | {row.observation or '-'} | {row.actions}"
            f" | {row.steps_per_second:,.0f} | {micro:,.0f} | {row.spread:.0%}"
            f" | {ratio} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds per env")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per round")
    parser.add_argument("--quick", action="store_true", help="1 round of 0.3 s")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    rounds, seconds = (1, 0.3) if args.quick else (args.rounds, args.seconds)
    results = rows(rounds, seconds)
    if args.json:
        print(json.dumps([asdict(row) for row in results], indent=2))
    else:
        python = sys.version.split()[0]
        print(f"# {rounds} round(s) of {seconds} s per environment, one process, Python {python}")
        print(table(results))


if __name__ == "__main__":
    main()
