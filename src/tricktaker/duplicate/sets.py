"""Duplicate sets: a game's deals fixed up front, played in the same seats at every table.

A set is a ruleset with its options, a number of players, a seed and every hand's deck
order (docs/duplicate.md, The same deals). Each table of the set starts its game with
:meth:`DuplicateSet.new_game`: the engine deals each hand from the set's deck order by
the ruleset's own dealing rules (:func:`tricktaker.engine.new_game`'s ``deals``), and the
set's seed gives the first dealer and every other chance step (a second deck's trump
card), so seat ``k`` holds the same cards at every table, hand after hand.

>>> from tricktaker import load_ruleset
>>> rules = load_ruleset("blackout")
>>> one = make_set(rules, players=4, seed=7)
>>> first, second = one.new_game(), one.new_game()
>>> first.apply_chance(); second.apply_chance()
>>> first.hands == second.hands
True
>>> DuplicateSet.from_json(one.to_json()) == one
True
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tricktaker.cards import format_card, parse_card
from tricktaker.engine import GameState, new_game
from tricktaker.engine.base import mix_seed
from tricktaker.engine.setup import Setup
from tricktaker.rules.ruleset import Ruleset, RulesetError, ruleset_from_data

SHUFFLE_STEP = 0x0D0B1E
"""Mixed into a set's seed with the hand's number to shuffle that hand's deck."""


class DuplicateError(ValueError):
    """A duplicate set cannot be made or read: the message says why, for a person."""


def duplicate_refusal(rules: Ruleset, players: int) -> str | None:
    """Why ``rules`` at ``players`` seats cannot be played duplicate, or None when it
    can (docs/duplicate.md, Which games): every table must play the same hands, of
    the same sizes, in the same order, each seat scored for itself."""
    try:
        setup = Setup.of(rules, players)
    except RulesetError as exc:
        return str(exc)
    name = rules.name
    if setup.called or not setup.schedule:
        return f"In {name} the dealer calls each hand, so the tables would not play the same hands."
    if setup.hooks is not None:
        return (
            f"{name} has rules of its own beyond the exact-bidding family's;"
            " it is not dealt duplicate."
        )
    if setup.advance_when_all_exact:
        return (
            f"In {name} a hand is played again until everyone is exact,"
            " so the tables would part ways."
        )
    if setup.cooperative:
        return f"{name} is played by the whole table together: there is no seat's score to compare."
    return None


def set_hands(rules: Ruleset, players: int) -> int:
    """How many hands a game of ``rules`` at ``players`` seats lasts (its schedule, cut
    at the ruleset's most hands)."""
    setup = Setup.of(rules, players)
    hands = len(setup.schedule)
    return min(hands, setup.max_hands) if setup.max_hands is not None else hands


@dataclass(frozen=True, slots=True)
class DuplicateSet:
    """A game's deals fixed up front (see the module notes); make one with :func:`make_set`."""

    game: str
    """The ruleset's id."""
    ruleset: Mapping[str, Any]
    """The ruleset's data (as a record keeps it)."""
    options: Mapping[str, Any]
    players: int
    seed: int
    """Every table's game seed: the first dealer, the seeded bots, other chance steps."""
    deals: tuple[tuple[int, ...], ...]
    """Each hand's deck order, top first."""

    @property
    def hands(self) -> int:
        return len(self.deals)

    def rules(self) -> Ruleset:
        """The set's ruleset with its options."""
        return ruleset_from_data(self.ruleset, options=self.options, source=self.game)

    def new_game(self, rules: Ruleset | None = None) -> GameState:
        """A table's game of this set, before its first deal (``rules``: the set's ruleset,
        when the caller has built it already)."""
        return new_game(
            rules if rules is not None else self.rules(),
            players=self.players,
            seed=self.seed,
            deals=self.deals,
        )

    def to_json(self) -> dict[str, Any]:
        """The set as JSON: each deal a line of card names, top first."""
        labels = self.rules().joker_labels
        return {
            "game": self.game,
            "ruleset": dict(self.ruleset),
            "options": dict(self.options),
            "players": self.players,
            "seed": self.seed,
            "deals": [
                " ".join(format_card(c, labels=labels) for c in order) for order in self.deals
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DuplicateSet:
        """Read back :meth:`to_json` (a :class:`DuplicateError` if it does not fit)."""
        try:
            rules = ruleset_from_data(data["ruleset"], options=data["options"], source=data["game"])
            labels = rules.joker_labels
            deals = tuple(
                tuple(parse_card(name, labels=labels) for name in line.split())
                for line in data["deals"]
            )
            made = cls(
                game=str(data["game"]),
                ruleset=dict(data["ruleset"]),
                options=dict(data["options"]),
                players=int(data["players"]),
                seed=int(data["seed"]),
                deals=deals,
            )
            deck = sorted(Setup.of(rules, made.players).deck)
        except (KeyError, TypeError, ValueError, RulesetError) as exc:
            raise DuplicateError(f"not a duplicate set: {exc}") from None
        if any(sorted(order) != deck for order in deals):
            raise DuplicateError("not a duplicate set: a deal is not an order of the whole deck")
        return made


def make_set(rules: Ruleset, *, players: int, seed: int) -> DuplicateSet:
    """The duplicate set of ``rules`` at ``players`` seats whose deals come from ``seed``
    (a :class:`DuplicateError` where the game cannot be played duplicate)."""
    refusal = duplicate_refusal(rules, players)
    if refusal is not None:
        raise DuplicateError(refusal)
    deck = Setup.of(rules, players).deck
    deals = []
    for hand in range(set_hands(rules, players)):
        order = list(deck)
        random.Random(mix_seed(seed, SHUFFLE_STEP, hand)).shuffle(order)
        deals.append(tuple(order))
    return DuplicateSet(
        game=rules.id,
        ruleset=dict(rules.data),
        options=dict(rules.options),
        players=players,
        seed=seed,
        deals=tuple(deals),
    )


def daily_seed(day: datetime.date, game: str, secret: bytes) -> int:
    """The seed of ``game``'s daily challenge on ``day`` on a server whose secret is
    ``secret`` (docs/duplicate.md, The daily challenge): an HMAC-SHA256 of the day and the
    game under the secret, so nobody who lacks the secret can work the deals out.

    >>> day = datetime.date(2026, 11, 28)
    >>> daily_seed(day, "blackout", b"k") == daily_seed(day, "blackout", b"k")
    True
    >>> daily_seed(day, "blackout", b"k") == daily_seed(day, "blackout", b"other")
    False
    """
    message = f"tricktaker-daily:{day.isoformat()}:{game}".encode()
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    return int.from_bytes(digest[:4], "big")


def default_players(rules: Ruleset) -> int:
    """The seats a daily challenge of ``rules`` has: four where the game allows, else its
    fewest."""
    counts = list(rules.player_counts)
    return 4 if 4 in counts else counts[0]
