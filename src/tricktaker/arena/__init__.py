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
played to their natural end. With ``workers > 1`` deal sets run in a process pool
(:mod:`tricktaker.arena.pool`); the results are collected in deal-set order, so they are
the same for any number of workers.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable

from .game_stats import EXACT_MEANING, SCORE_UNIT, game_stats
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
from .pool import CtrlC, ordered_results
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
    config: ArenaConfig,
    *,
    workers: int = 1,
    progress: Progress | None = None,
    stop_on_interrupt: bool = False,
    ray: str | None = None,
) -> ArenaResult:
    """Play the arena and compute its results; raises :class:`ValueError` for settings
    that cannot be used (see :func:`check_config`).

    With ``ray`` (a Ray address, :mod:`tricktaker.arena.ray_pool`) the deal sets run on
    a Ray cluster; the results are those of a local run.

    With ``stop_on_interrupt``, Ctrl-C (:class:`KeyboardInterrupt`) ends the play and the
    results cover the deal sets finished by then (``interrupted`` is set); with none
    finished, the interrupt is raised again.
    """
    rules = check_config(config)
    if workers < 1:
        raise ArenaError(f"workers must be at least 1, not {workers}")
    played: list[DealSetResult] = []
    per_rotation = [0] * config.players
    interrupted = False
    deal_sets = functools.partial(play_deal_set, config)
    try:
        with (
            CtrlC() as ctrl_c,
            ordered_results(deal_sets, itertools.count(), workers=workers, ray=ray) as stream,
        ):
            for result in stream:
                with ctrl_c.held():
                    if not any(game.hands for game in result.games):
                        raise ArenaError("the games end before any hand is played")
                    played.append(result)
                    for game in result.games:
                        per_rotation[game.rotation] += game.hands
                    if progress is not None:
                        progress(min(min(per_rotation), config.hands))
                if min(per_rotation) >= config.hands:
                    break
    except KeyboardInterrupt:
        if not stop_on_interrupt or not played:
            raise
        interrupted = True
    partnered = any(len(team) > 1 for game in played[0].games for team in game.teams)
    stats = game_stats(rules)
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
        interrupted=interrupted,
        score_unit=stats.score_unit if stats is not None else SCORE_UNIT,
        exact_meaning=stats.exact_meaning if stats is not None else EXACT_MEANING,
    )


__all__ = [
    "ArenaConfig",
    "ArenaError",
    "ArenaResult",
    "BotResult",
    "CtrlC",
    "DealSetResult",
    "GameSummary",
    "Interval",
    "Progress",
    "bot_seed",
    "check_config",
    "game_seed",
    "mean_interval",
    "ordered_results",
    "play_deal_set",
    "play_rotation",
    "run_arena",
    "seating",
    "t_quantile",
]
