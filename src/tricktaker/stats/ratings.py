"""Ratings for people: openskill's Plackett-Luce model (as the arena rates bots), one
rating per ruleset fingerprint, so that house variants never mix.

A rated game is a finished, competitive game in which two people or more with an
account sat (each at one seat): only their seats are ranked, one update per game from
the final totals of their teams (a partnership, or each seat alone); a team of bots
and guests only is left out of the ranking. A bot is not a person whose skill grows:
counting it as an opponent would let anyone raise a rating by beating easy bots
again and again, and a guest cannot be followed from one game to the next. A
cooperative game, a game where one user held two seats, and a game whose people all
sat on one team are not rated.

Everything is recomputed from the games in the order they finished (ties in order of
their keys), so the same records always give the same numbers.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating

__all__ = ["PersonRating", "RatedGame", "rate_people", "rated_game"]


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished game as the ratings see it: its people's teams and the teams' totals."""

    fingerprint: str
    finished_at: datetime
    key: str
    """Orders games that finished at the same moment (e.g. ``"table:game"``)."""
    teams: tuple[tuple[Hashable, ...], ...]
    """The people of each team that ranks (a team without people is left out)."""
    scores: tuple[int, ...]
    """Each team's final total (higher is better)."""


def rated_game(
    *,
    fingerprint: str,
    finished_at: datetime,
    key: str,
    teams: Sequence[Sequence[int]],
    totals: Sequence[int],
    people: Mapping[int, Hashable],
    cooperative: bool,
) -> RatedGame | None:
    """The rated form of a finished game, from its seats' ``teams`` (each seat alone, or
    the partnerships), each team's ``totals`` and the person at each seat that one holds
    (``people``: seat to a user's id); None when the game is not rated (see the module)."""
    if cooperative:
        return None
    held = list(people.values())
    if len(set(held)) != len(held):
        return None  # one user at two seats: not ranked against themselves
    ranked: list[tuple[Hashable, ...]] = []
    scores: list[int] = []
    for team, total in zip(teams, totals, strict=True):
        members = tuple(people[seat] for seat in team if seat in people)
        if members:
            ranked.append(members)
            scores.append(total)
    if len(ranked) < 2:
        return None
    return RatedGame(fingerprint, finished_at, key, tuple(ranked), tuple(scores))


@dataclass(frozen=True, slots=True)
class PersonRating:
    """A person's rating under one fingerprint: openskill's mean skill ``mu``, its
    uncertainty ``sigma``, the conservative ``ordinal`` (mu - 3 sigma) and the rated
    games it rests on."""

    mu: float
    sigma: float
    ordinal: float
    games: int

    def to_json(self) -> dict[str, Any]:
        """The rating, rounded to 3 decimals."""
        return {
            "mu": round(self.mu, 3),
            "sigma": round(self.sigma, 3),
            "ordinal": round(self.ordinal, 3),
            "games": self.games,
        }


def rate_people(games: Iterable[RatedGame]) -> dict[str, dict[Hashable, PersonRating]]:
    """Every person's rating per fingerprint after ``games``, taken in the order they
    finished (then by key): ``{fingerprint: {person: rating}}``. A person starts at
    openskill's default (mu 25, sigma 25/3)."""
    model = PlackettLuce()
    ratings: dict[str, dict[Hashable, PlackettLuceRating]] = {}
    played: dict[str, dict[Hashable, int]] = {}
    for game in sorted(games, key=lambda g: (g.finished_at, g.key)):
        held = ratings.setdefault(game.fingerprint, {})
        counts = played.setdefault(game.fingerprint, {})
        teams = [[held.get(person) or model.rating() for person in team] for team in game.teams]
        updated = model.rate(teams, scores=[float(score) for score in game.scores])
        for team, rated in zip(game.teams, updated, strict=True):
            for person, rating in zip(team, rated, strict=True):
                held[person] = rating
                counts[person] = counts.get(person, 0) + 1
    return {
        key: {
            person: PersonRating(r.mu, r.sigma, r.ordinal(), played[key][person])
            for person, r in held.items()
        }
        for key, held in ratings.items()
    }
