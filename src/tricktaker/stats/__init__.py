"""A player's statistics and ratings, from finished games' records and score sheets
(issue 31; docs/players.md). Pure: no server, no database.

- :mod:`~tricktaker.stats.rulesets`: a ruleset's fingerprint and its description;
- :mod:`~tricktaker.stats.games`: one seat's part of a finished game (a record
  replayed, or a score sheet's game);
- :mod:`~tricktaker.stats.tally`: the statistics per fingerprint (points per hand, bid
  accuracy, Set / Over / Perfect, by hand size and seat position from the dealer);
- :mod:`~tricktaker.stats.ratings`: openskill ratings of people per fingerprint.
"""

from tricktaker.stats.games import GameLine, HandLine, game_line, record_line, seat_teams
from tricktaker.stats.ratings import PersonRating, RatedGame, rate_people, rated_game
from tricktaker.stats.rulesets import RulesLabel, fingerprint, rules_label
from tricktaker.stats.tally import Bucket, RulesStatistics, statistics

__all__ = [
    "Bucket",
    "GameLine",
    "HandLine",
    "PersonRating",
    "RatedGame",
    "RulesLabel",
    "RulesStatistics",
    "fingerprint",
    "game_line",
    "rate_people",
    "rated_game",
    "record_line",
    "rules_label",
    "seat_teams",
    "statistics",
]
