"""The Oh Hell family's property tests' configurations (every shipped ruleset, player
count and option) and reference rules, written from docs/games/<id>.md independently of
the engine's tables (tests/test_properties.py)."""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import Final

from tricktaker import (
    HandResult,
    Ruleset,
    RulesetError,
    list_rulesets,
    load_ruleset,
)

# --------------------------------------------------------------- configurations

"""The games whose rules these checks know in detail (docs/games/README.md, Exact bidding
(the Oh Hell family)).
Other games (Pluck, Buckup, Euchre) get the engine-wide checks only: turn order, refused
actions, records, clones and no other seat's cards in an observation."""

INT_OPTION_VALUES: Final[dict[str, tuple[int, ...]]] = {
    # Small values keep long games short; the default is always included too.
    "max_hands": (5,),
    "hands": (2,),
    "target": (3,),
}
MAX_FULL_PRODUCT: Final = 128
"""Above this many option combinations a game gets each option alone and all its
switches together instead of the full product (Buckup has ten options)."""


@dataclass(frozen=True)
class Config:
    """One game to play: a shipped ruleset, a player count and options."""

    game: str
    players: int
    options: tuple[tuple[str, bool | int], ...] = ()

    @property
    def id(self) -> str:
        """``game-Np`` and the options that differ from their defaults."""
        defaults = _ruleset(self.game, ()).options
        changed = [
            name if isinstance(value, bool) else f"{name}={value}"
            for name, value in self.options
            if value != defaults[name]
        ]
        return "-".join([self.game, f"{self.players}p", *changed])

    def ruleset(self) -> Ruleset:
        return _ruleset(self.game, self.options)


@functools.cache
def _ruleset(game: str, options: tuple[tuple[str, bool | int], ...]) -> Ruleset:
    return load_ruleset(game, options=dict(options))


def _option_values(game: str) -> dict[str, list[bool | int]]:
    values: dict[str, list[bool | int]] = {}
    ruleset = load_ruleset(game)
    for name, option in ruleset.spec.options.items():
        if option.type == "bool":
            values[name] = [False, True]
            continue
        ints = {int(ruleset.options[name]), *INT_OPTION_VALUES.get(name, ())}
        if option.min is not None and name not in INT_OPTION_VALUES:
            ints.add(option.min)
        values[name] = sorted(ints)
    return values


def _option_combos(game: str) -> list[tuple[tuple[str, bool | int], ...]]:
    values = _option_values(game)
    names = sorted(values)
    combos = list(itertools.product(*(values[n] for n in names)))
    if len(combos) > MAX_FULL_PRODUCT:
        defaults = _ruleset(game, ()).options
        base = tuple(defaults[n] for n in names)
        combos = [base]
        for index, name in enumerate(names):
            for value in values[name]:
                if value != defaults[name]:
                    combos.append((*base[:index], value, *base[index + 1 :]))
        switches = tuple(True if isinstance(defaults[n], bool) else defaults[n] for n in names)
        combos.append(switches)
        small = tuple(
            INT_OPTION_VALUES[n][0] if n in INT_OPTION_VALUES else defaults[n] for n in names
        )
        combos.append(small)
    return [tuple(zip(names, combo, strict=True)) for combo in combos]


def all_configs() -> list[Config]:
    """Every valid combination of ruleset, option values and player count (for games
    with very many options: each option alone and all switches together)."""
    configs: list[Config] = []
    for game in list_rulesets():
        for options in _option_combos(game):
            try:
                rules = _ruleset(game, options)
            except RulesetError:
                continue  # e.g. blackout hook + simultaneous_bidding
            for players in rules.player_counts:
                try:
                    rules.check_players(players)
                    rules.hands_for(players)
                except RulesetError:
                    continue  # e.g. bluke extended with 4 players
                configs.append(Config(game, players, options))
    return configs


def sweep_configs(configs: list[Config]) -> list[Config]:
    """Every player count with the default options, and every valid combination of
    options with two of the player counts it allows (chosen in rotation)."""
    chosen: list[Config] = []
    by_options: dict[tuple[str, tuple[tuple[str, bool | int], ...]], list[Config]] = {}
    for config in configs:
        by_options.setdefault((config.game, config.options), []).append(config)
    for index, ((game, options), group) in enumerate(by_options.items()):
        defaults = _ruleset(game, ()).options
        if all(defaults[name] == value for name, value in options):
            chosen.extend(group)
            continue
        picks = {index % len(group), (index + len(group) // 2) % len(group)}
        chosen.extend(group[i] for i in sorted(picks))
    return chosen


CONFIGS: Final = all_configs()
SWEEP_CONFIGS: Final = sweep_configs(CONFIGS)


# ------------------------------------------------------------ reference rules
# Written from the rules pages (docs/games/<id>.md) independently of the engine's tables.


def effective_suit(card: int, trump: int | None, jokers_trump: bool) -> int | None:
    """The suit a card follows and leads as; None for a free Bluke (docs/games/bluke.md,
    Play; with `new_jersey` the Blukes are trumps: Options)."""
    if card >= 52:
        return trump if jokers_trump and trump is not None else None
    return card // 13


def reference_legal(
    hand: list[int],
    trick: list[tuple[int, int]],
    *,
    trump: int | None,
    jokers_trump: bool,
    must_trump: bool,
    trump_lead_after_broken: bool,
    trump_broken: bool,
) -> set[int]:
    """The cards a player may play (docs/games/<id>.md, Play: follow suit, Blukes, must
    trump, no trump lead until broken)."""

    def suit(card: int) -> int | None:
        return effective_suit(card, trump, jokers_trump)

    if not trick:
        if trump_lead_after_broken and trump is not None and not trump_broken:
            others = {c for c in hand if suit(c) != trump}
            if others:
                return others
        return set(hand)
    led = suit(trick[0][1])
    if led is None:  # a Bluke led sets no suit
        return set(hand)
    free = {c for c in hand if suit(c) is None}
    follow = {c for c in hand if suit(c) == led}
    if follow:
        return follow | free
    if must_trump and trump is not None:
        trumps = {c for c in hand if suit(c) == trump}
        if trumps:
            return trumps | free
    return set(hand)


def reference_winner(
    trick: tuple[tuple[int, int], ...],
    *,
    trump: int | None,
    jokers_trump: bool,
    nuloss: bool,
    precedence: str | None,
) -> int:
    """The seat winning a complete trick (docs/games/<id>.md, Players and deck: trumps, led
    suit, Blukes; docs/games/caller_clag.md, Special hands: suit precedence, `nuloss`)."""

    def rank(card: int) -> int:
        if card >= 52:
            return 14 if card == 52 else 13
        return 12 - card % 13 if nuloss else card % 13

    led = effective_suit(trick[0][1], trump, jokers_trump)

    def key(card: int) -> tuple[int, ...]:
        suit = effective_suit(card, trump, jokers_trump)
        if suit is None:
            return (9, rank(card))
        if precedence is not None:
            return (5, 3 - precedence.index("CDHS"[suit]), rank(card))
        if trump is not None and suit == trump:
            return (4, rank(card))
        if suit == led:
            return (3, rank(card))
        return (0,)

    best = max(range(len(trick)), key=lambda i: (key(trick[i][1]), -i))
    return trick[best][0]


NO_TRUMP_KINDS: Final = frozenset({"no_trump", "misere_no_trump", "all_dealt_no_trump"})
MISERE_KINDS: Final = frozenset({"misere", "misere_no_trump"})


def reference_scores(game: str, options: dict[str, bool | int], hr: HandResult) -> list[int]:
    """Each seat's score for a hand, from the Scoring section of each game's page."""
    special = hr.special or {}
    kind = special.get("kind", special.get("name"))
    modifiers = list(special.get("modifiers", []))
    size = hr.hand_size
    out: list[int] = []
    for b, t in zip(hr.bids, hr.tricks, strict=True):
        exact = b == t
        if game == "blackout":
            if options.get("alternate_scoring"):
                score = 10 + b if exact else 0
            else:
                score = t + (10 if exact else 0)
        elif game == "bluke":
            score = 10 * b + (t - b) if t >= b else -10 * b
        elif game in ("clag", "caller_clag"):
            if kind in MISERE_KINDS:
                score = 10 if t == 0 else -2 * t
            elif any(m.endswith("_madness") for m in modifiers):
                score = 10 if exact else 0
            else:
                score = 10 + 2 * t if exact else 0
        elif game == "coop_blackout":
            score = 0
        elif game == "jabberwocky":
            score = 1 if exact else 0
        elif game == "kachuful":
            score = 10 + t if exact else 0
        elif game == "la_podrida":
            score = t + (10 if exact else 0)
        elif game == "romanian_whist":
            score = 5 + t if exact else -abs(t - b)
        elif game == "seven_truf":
            if exact and b >= 1:
                score = 10 * b
            elif b == 0 and t == 0:
                score = 5 * size
            else:
                score = t
        elif game == "up_and_down_the_river":
            if exact:
                score = 5 if b == 0 else t + 10
            else:
                score = t - b
        else:  # pragma: no cover - a new ruleset: add its scoring here
            raise AssertionError(f"no reference scoring for {game}")
        out.append(score)
    for k, winner in enumerate(hr.trick_winners, start=1):
        if "ascending_madness" in modifiers:
            out[winner] += 2 * k
        elif "descending_madness" in modifiers:
            out[winner] += 2 * (size - k + 1)
    return out
