"""The arena: bots compared over duplicate deals, with intervals, wins and ratings.

>>> from tricktaker.arena import ArenaConfig, run_arena
>>> config = ArenaConfig("blackout", bots=("heuristic", "random", "random"), hands=10)
>>> result = run_arena(config)
>>> result.deal_sets, result.games, result.duplicated
(1, 3, 1.0)
>>> [bot.name for bot in result.results]
['heuristic', 'random', 'random']

Deal sets (the games seeded ``seed``, ``seed + 1``, ...) are played one after another
until every rotation has at least ``hands`` hands; each deal set plays the game once per
rotation of the bots through the seats (:mod:`tricktaker.arena.play`). Games are always
played to their natural end. With ``workers > 1`` deal sets run in a process pool; the
results are collected in deal-set order, so they are the same for any number of workers.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager

from .play import (
    ArenaConfig,
    ArenaError,
    DealSetResult,
    GameSummary,
    bot_seed,
    check_config,
    game_seed,
    play_deal_set,
    play_rotation,
    seating,
)
from .stats import (
    ArenaResult,
    BotResult,
    Interval,
    bot_results,
    duplicated_share,
    mean_interval,
    t_quantile,
)

Progress = Callable[[int], None]
"""Called after each deal set (in order) with the hands played so far by the rotation
that has the fewest, capped at the target."""


def run_arena(
    config: ArenaConfig, *, workers: int = 1, progress: Progress | None = None
) -> ArenaResult:
    """Play the arena and compute its results; raises :class:`ValueError` for settings
    that cannot be used (see :func:`check_config`)."""
    rules = check_config(config)
    if workers < 1:
        raise ArenaError(f"workers must be at least 1, not {workers}")
    played: list[DealSetResult] = []
    per_rotation = [0] * config.players
    with _deal_sets(config, workers) as stream:
        for result in stream:
            played.append(result)
            for game in result.games:
                per_rotation[game.rotation] += game.hands
            if not any(game.hands for game in result.games):
                raise ArenaError("the games end before any hand is played")
            if progress is not None:
                progress(min(min(per_rotation), config.hands))
            if min(per_rotation) >= config.hands:
                break
    partnered = any(len(team) > 1 for game in played[0].games for team in game.teams)
    return ArenaResult(
        game=rules.id,
        name=rules.name,
        options=dict(rules.options),
        bots=config.bots,
        hands=config.hands,
        seed=config.seed,
        deal_sets=len(played),
        games=sum(len(result.games) for result in played),
        hands_per_rotation=tuple(per_rotation),
        duplicated=duplicated_share(played),
        partnerships=partnered,
        cooperative=rules.cooperative,
        results=bot_results(config.bots, played),
    )


@contextmanager
def _deal_sets(config: ArenaConfig, workers: int) -> Iterator[Iterator[DealSetResult]]:
    """Deal sets 0, 1, 2, ... in order, played here or in a pool of ``workers`` processes
    (a few ahead of the one awaited; those not needed are cancelled at the end)."""
    if workers == 1:
        yield (play_deal_set(config, deal_set) for deal_set in itertools.count())
        return
    executor = ProcessPoolExecutor(max_workers=workers)
    try:
        yield _in_order(executor, config, ahead=2 * workers)
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def _in_order(
    executor: ProcessPoolExecutor, config: ArenaConfig, *, ahead: int
) -> Iterator[DealSetResult]:
    pending: deque[Future[DealSetResult]] = deque()
    for deal_set in itertools.count():
        pending.append(executor.submit(play_deal_set, config, deal_set))
        if len(pending) >= ahead:
            yield pending.popleft().result()


__all__ = [
    "ArenaConfig",
    "ArenaError",
    "ArenaResult",
    "BotResult",
    "DealSetResult",
    "GameSummary",
    "Interval",
    "Progress",
    "bot_seed",
    "check_config",
    "game_seed",
    "mean_interval",
    "play_deal_set",
    "play_rotation",
    "run_arena",
    "seating",
    "t_quantile",
]
