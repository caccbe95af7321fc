"""What bench/search_speed.py's rows are made of: the run's settings, a row (metric) and
its per-round figures, and the timing loops."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "SECTIONS",
    "Cell",
    "Config",
    "Metric",
    "Results",
    "calls_per_second",
    "per_call_us",
    "prepared_calls_per_second",
]


def calls_per_second(fn: Callable[[Any], object], items: Sequence[Any], seconds: float) -> float:
    """Call ``fn`` on each item, round after round, for about ``seconds``; calls per second."""
    gc.collect()
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for item in items:
            fn(item)
        calls += len(items)
        now = time.perf_counter()
        if now >= deadline:
            return calls / (now - start)


def prepared_calls_per_second(
    prepare: Callable[[Any], Any],
    fn: Callable[[Any, Any], object],
    items: Sequence[Any],
    seconds: float,
    *,
    batch: int = 50,
) -> float:
    """As :func:`calls_per_second`, timing only ``fn(prepare(item), item)``'s second part
    (``prepare``, e.g. a clone for an apply to change, runs untimed beforehand)."""
    gc.collect()
    calls = 0
    spent = 0.0
    while spent < seconds:
        work = [(prepare(item), item) for item in items for _ in range(batch)]
        start = time.perf_counter()
        for obj, item in work:
            fn(obj, item)
        spent += time.perf_counter() - start
        calls += len(work)
    return calls / spent


def per_call_us(rate: float) -> float:
    """The cost of one call, in µs, at ``rate`` calls per second."""
    return 1e6 / rate


@dataclass(frozen=True, slots=True)
class Config:
    rounds: int
    seconds: float
    per_phase: int
    iterations: int
    """Our ISMCTS iterations per decision."""
    pimc_determinizations: int
    pimc_min_determinizations: int
    pimc_rollouts: int
    sims: int
    """OpenSpiel ISMCTS simulations per decision."""
    seed: int
    kernel_iterations: int = 10_000
    """ISMCTS iterations per decision in the compiled kernel."""


@dataclass(frozen=True, slots=True)
class Metric:
    """One row of the table: our figure, OpenSpiel's and how they compare."""

    key: str
    section: str
    label: str
    rate: bool
    """True: a rate (higher is faster); False: a cost in µs (lower is faster)."""
    ours: Callable[[list[Any], int], float]
    theirs: Callable[[list[Any], int], float] | None = None
    theirs_from: str | None = None
    """Show (and compare with) another metric's OpenSpiel figure of the same round."""


@dataclass
class Cell:
    """The per-round figures of one metric in one phase."""

    ours: list[float] = field(default_factory=list)
    theirs: list[float | None] = field(default_factory=list)

    def ratios(self, rate: bool) -> list[float]:
        """Per round, how many times as fast tricktaker is (above 1: faster)."""
        out = []
        for o, t in zip(self.ours, self.theirs, strict=True):
            if t is not None and o > 0 and t > 0:
                out.append(o / t if rate else t / o)
        return out


SECTIONS = {
    "search": "Search bots: simulations per second over one decision each",
    "playout": "Playouts to the hand's end from the position, per second (clone included)",
    "determinize": "One determinization, µs per call",
    "state": "State operations, µs per call",
}


Results = dict[str, dict[str, Cell]]
"""Per metric key, per phase: the per-round figures."""
