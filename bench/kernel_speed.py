"""Timings of the compiled search kernel (``tricktaker.kernel``) for bench/search_speed.py
and bench/throughput.py, beside OpenSpiel's all-C++ random playouts (``evaluate_bots``).

Each function times a list of positions and returns a rate (per second) or a cost (µs);
the callers put them in their tables next to OpenSpiel's figures of the same round.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Sequence
from typing import Any

from tricktaker import GameState
from tricktaker.bots import ISMCTSBot
from tricktaker.engine.observation import Observation
from tricktaker.kernel import config_of_state, kernel_state, kernel_world, native

__all__ = [
    "kernel_ismcts_rate",
    "kernel_playout_rate",
    "kernel_sample_us",
    "openspiel_rollout_rate",
]


def kernel_ismcts_rate(observations: Sequence[Observation], iterations: int, seed: int) -> float:
    """ISMCTS iterations per second of the hard bot searching in the kernel, one decision
    per observation (the Python work of each decision, the world's set-up, included)."""
    work = 0
    spent = 0.0
    for index, obs in enumerate(observations):
        bot = ISMCTSBot(seed=seed + index, iterations=iterations)
        gc.collect()
        start = time.perf_counter()
        bot.act(obs)
        spent += time.perf_counter() - start
        work += bot.last_iterations
    return work / spent


def _batches(run: Any, seconds: float) -> float:
    """Calls ``run(n)`` (n units of work) with growing n for about ``seconds``; units/s."""
    n, done, spent = 16, 0, 0.0
    while spent < seconds:
        start = time.perf_counter()
        run(n)
        spent += time.perf_counter() - start
        done += n
        n = min(n * 2, 1 << 16)
    return done / spent


def kernel_playout_rate(
    states: Sequence[GameState], seconds: float, *, policy: bool, seed: int
) -> float:
    """Playouts per second to the hand's end in the kernel (random moves, or the search's
    rollout policy), from copies of each state; a batch per call from Python."""
    core = native()
    prepared = [(config_of_state(s), kernel_state(s)) for s in states]
    share = seconds / len(prepared)
    rates = [
        _batches(lambda n, c=c, d=d: core.playouts(c, d, seed, n, policy, 0.0, -1), share)
        for c, d in prepared
    ]
    return len(rates) / sum(1 / r for r in rates)


def kernel_sample_us(observations: Sequence[Observation], seconds: float, seed: int) -> float:
    """µs per determinization in the kernel (its world made once per observation,
    untimed, as a search makes it once per decision)."""
    core = native()
    worlds = [kernel_world(obs) for obs in observations]
    share = seconds / len(worlds)
    rates = [_batches(lambda n, w=w: core.sample_loop(w, seed, n), share) for w in worlds]
    return 1e6 * sum(1 / r for r in rates) / len(rates)


def openspiel_rollout_rate(states: Sequence[Any], seconds: float, seed: int) -> float:
    """OpenSpiel's all-C++ random playouts per second: ``pyspiel.evaluate_bots`` on a
    ``clone()`` of the state with four uniform random bots (``make_uniform_random_bot``),
    which plays the hand to its end in C++ (one Python call a playout)."""
    import pyspiel

    players = states[0].num_players()
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(players)]
    share = seconds / len(states)
    rates = []
    for state in states:
        calls, start = 0, time.perf_counter()
        while time.perf_counter() - start < share:
            pyspiel.evaluate_bots(state.clone(), bots, seed + calls)
            calls += 1
        rates.append(calls / (time.perf_counter() - start))
    return len(rates) / sum(1 / r for r in rates)
