"""The arena's statistics: mean score per hand with a 95% interval, exact bids, wins and
an openskill (Plackett-Luce) rating per bot.

The interval treats each deal set as one independent sample (its games share the deals,
so their hands are not independent): the mean is the bot's total score over its total
hands, and its standard error is the ratio estimator's, from each deal set's total minus
the mean times its hands. When every deal set has the same number of hands this is the
ordinary Student t interval of the per-deal-set means.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

from .game_stats import EXACT_MEANING, SCORE_UNIT
from .play import DealSetResult, GameSummary

_T_975 = (
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
    2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
    2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
)  # fmt: skip
"""Student t quantiles at 0.975 for 1 to 30 degrees of freedom."""


def t_quantile(df: int) -> float:
    """The 0.975 quantile of Student's t with ``df`` degrees of freedom (a table up to 30,
    then the Cornish-Fisher expansion around the normal quantile, good to 4 decimals)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if df <= len(_T_975):
        return _T_975[df - 1]
    z = statistics.NormalDist().inv_cdf(0.975)
    terms = (
        (z**3 + z) / 4,
        (5 * z**5 + 16 * z**3 + 3 * z) / 96,
        (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
        (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160,
    )
    return z + sum(term / float(df) ** power for power, term in enumerate(terms, start=1))


@dataclass(frozen=True)
class Interval:
    """A mean with the half width of its 95% interval (None with fewer than 2 samples)."""

    mean: float
    half_width: float | None

    @property
    def low(self) -> float | None:
        return None if self.half_width is None else self.mean - self.half_width

    @property
    def high(self) -> float | None:
        return None if self.half_width is None else self.mean + self.half_width


def mean_interval(totals: Sequence[float], counts: Sequence[float]) -> Interval:
    """Mean per unit, ``sum(totals) / sum(counts)``, with a 95% t interval over the
    samples (sample ``k`` is ``totals[k]`` over ``counts[k]`` units, e.g. one deal set's
    points over its hands); with every count 1 it is the t interval of ``totals``.

    >>> interval = mean_interval([1, 2, 3, 4, 5], [1, 1, 1, 1, 1])
    >>> interval.mean, round(interval.half_width or 0, 4)
    (3.0, 1.9632)
    """
    if len(totals) != len(counts) or not totals:
        raise ValueError("give one count per total, and at least one")
    units = sum(counts)
    if units <= 0:
        raise ValueError("the counts must add up to more than 0")
    mean = sum(totals) / units
    samples = len(totals)
    if samples < 2:
        return Interval(mean, None)
    average = units / samples
    residuals = [
        (total - mean * count) / average for total, count in zip(totals, counts, strict=True)
    ]
    error = statistics.stdev(residuals) / math.sqrt(samples)
    return Interval(mean, t_quantile(samples - 1) * error)


def rate(bots: int, games: Iterable[GameSummary]) -> list[PlackettLuceRating]:
    """Each bot's openskill Plackett-Luce rating after the games in order: one update per
    game from the final ranking of its players or teams (cooperative games are skipped)."""
    model = PlackettLuce()
    ratings = [model.rating(name=str(bot)) for bot in range(bots)]
    for game in games:
        if game.cooperative or len(game.teams) < 2:
            continue
        teams = [[ratings[bot] for bot in team] for team in game.teams]
        updated = model.rate(teams, scores=[float(score) for score in game.team_scores])
        for team, rated in zip(game.teams, updated, strict=True):
            for bot, rating in zip(team, rated, strict=True):
                ratings[bot] = rating
    return ratings


@dataclass(frozen=True)
class BotResult:
    """One bot's results over the whole arena."""

    index: int
    name: str
    hands: int
    score: Interval
    """Mean score per hand, in the game's unit (:attr:`ArenaResult.score_unit`); with
    partnerships, the team's."""
    exact: int
    bid_hands: int
    games: int
    wins: int
    partners: tuple[int, ...]
    mu: float
    sigma: float
    ordinal: float
    moves: int = 0
    """Decisions it made with more than one legal action."""
    think_seconds: float = field(default=0.0, compare=False)
    """Seconds it took over them (not compared: machine time)."""

    @property
    def ms_per_move(self) -> float | None:
        """Mean milliseconds per decision (None if it never had a choice)."""
        return 1000 * self.think_seconds / self.moves if self.moves else None

    @property
    def exact_rate(self) -> float | None:
        return self.exact / self.bid_hands if self.bid_hands else None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.index,
            "name": self.name,
            "hands": self.hands,
            "mean_score": self.score.mean,
            "ci95": [self.score.low, self.score.high],
            "exact_bids": self.exact if self.bid_hands else None,
            "exact_rate": self.exact_rate,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "partners": list(self.partners),
            "rating": {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal},
            "moves": self.moves,
            "ms_per_move": self.ms_per_move,
        }


@dataclass(frozen=True)
class ArenaResult:
    """The arena's settings and results (deal sets in order, bots in the order given)."""

    game: str
    name: str
    options: dict[str, Any]
    bots: tuple[str, ...]
    hands: int
    seed: int
    deal_sets: int
    games: int
    hands_per_rotation: tuple[int, ...]
    duplicated: float | None
    """Share of the hands replayed in later rotations that were dealt as the first time."""
    partnerships: bool
    cooperative: bool
    results: tuple[BotResult, ...]
    interrupted: bool = False
    """Whether Ctrl-C ended the play early (the results cover the deal sets finished)."""
    score_unit: str = SCORE_UNIT
    """What a seat's score counts (the game's ``"stats"`` capability says, e.g. net chips)."""
    exact_meaning: str = EXACT_MEANING
    """What the column "Exact" counts (the game's ``"stats"`` capability says)."""

    @property
    def players(self) -> int:
        return len(self.bots)

    def to_json(self) -> dict[str, Any]:
        return {
            "settings": {
                "game": self.game,
                "name": self.name,
                "options": self.options,
                "players": self.players,
                "bots": list(self.bots),
                "hands": self.hands,
                "seed": self.seed,
            },
            "deal_sets": self.deal_sets,
            "games": self.games,
            "hands_per_rotation": list(self.hands_per_rotation),
            "duplicated": self.duplicated,
            "partnerships": self.partnerships,
            "cooperative": self.cooperative,
            "bots": [bot.to_json() for bot in self.results],
            "interrupted": self.interrupted,
        }


def duplicated_share(deal_sets: Sequence[DealSetResult]) -> float | None:
    """Share of hands dealt exactly as the same hand (by number) of the first rotation
    of their deal set that played it (None when no hand was played twice)."""
    matched = total = 0
    for result in deal_sets:
        first: dict[int, str] = {}
        for game in result.games:
            for hand, deal in enumerate(game.deals):
                if hand not in first:
                    first[hand] = deal
                    continue
                total += 1
                matched += deal == first[hand]
    return matched / total if total else None


def bot_results(bots: Sequence[str], deal_sets: Sequence[DealSetResult]) -> tuple[BotResult, ...]:
    """Each bot's results over the deal sets (in deal-set order, as the ratings need)."""
    games = [game for result in deal_sets for game in result.games]
    ratings = rate(len(bots), games)
    results = []
    for bot, name in enumerate(bots):
        totals = [sum(g.score_sums[bot] for g in r.games) for r in deal_sets]
        counts = [sum(g.hands for g in r.games) for r in deal_sets]
        partners = {
            other
            for game in games
            for team in game.teams
            if bot in team and len(team) > 1
            for other in team
            if other != bot
        }
        rating = ratings[bot]
        results.append(
            BotResult(
                index=bot,
                name=name,
                hands=sum(counts),
                score=mean_interval(totals, counts),
                exact=sum(game.exact[bot] for game in games),
                bid_hands=sum(game.bid_hands for game in games),
                games=len(games),
                wins=sum(bot in game.winners for game in games),
                partners=tuple(sorted(partners)),
                mu=rating.mu,
                sigma=rating.sigma,
                ordinal=rating.ordinal(),
                moves=sum(game.moves[bot] for game in games if game.moves),
                think_seconds=sum(game.think_seconds[bot] for game in games if game.think_seconds),
            )
        )
    return tuple(results)
