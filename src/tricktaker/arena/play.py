"""One deal set of an arena: the same seeded game played once per rotation of the bots.

Deal set ``d`` is the game seeded ``seed + d``. In rotation ``r`` bot ``i`` sits at seat
``(i + r) % N``, so over the ``N`` rotations every bot plays every seat. Every chance
step (first dealer, shuffles, trump draws) comes from the game's seed, the hand number
and the redeal count only, so each seat gets the same cards in every rotation as long as
the game takes the same path: the deals can diverge where the players' choices change
what is dealt (Caller Clag's called hand sizes, Buckup's redeals, the replayed hands of
a cooperative game). Each hand's deal is fingerprinted so the arena can say how many
hands were dealt as in rotation 0.

A bot keeps its identity across the rotations: bot ``i`` of deal set ``d`` is seeded
from ``(seed, d, i)`` (a fresh bot for each game, the same seed in every rotation).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

from tricktaker.bots import Bot, make_bot
from tricktaker.engine import Action, ChanceOutcome, GameState, new_game
from tricktaker.engine.base import mix_seed
from tricktaker.memo import Memo
from tricktaker.rules import Ruleset, load_ruleset


class ArenaError(ValueError):
    """A setting of the arena that cannot be used (bot count, hands, workers)."""


@dataclass(frozen=True)
class ArenaConfig:
    """What an arena plays: the game (id or ruleset path, with options) and one bot name
    per seat; deal sets are played until every rotation has at least ``hands`` hands."""

    game: str
    bots: tuple[str, ...]
    hands: int = 100
    seed: int = 0
    options: Mapping[str, object] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return len(self.bots)


@dataclass(frozen=True)
class GameSummary:
    """One game of a deal set, with everything per bot (index into the arena's bots)."""

    rotation: int
    seating: tuple[int, ...]
    """The bot at each seat."""
    hands: int
    score_sums: tuple[int, ...]
    """Per bot: the sum of its seat's hand scores."""
    exact: tuple[int, ...]
    """Per bot: hands where it took exactly its bid (or Pluck quota)."""
    bid_hands: int
    """Hands with a bid for every seat (0 where the game has none)."""
    final_scores: tuple[int, ...]
    winners: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...]
    """Bots ranked together: a partnership, or each bot alone."""
    team_scores: tuple[int, ...]
    cooperative: bool
    deals: tuple[str, ...]
    """A fingerprint of each hand's deal (hand size and every shuffle of the deck)."""
    moves: tuple[int, ...] = ()
    """Per bot: decisions it made (with more than one legal action)."""
    think_seconds: tuple[float, ...] = field(default=(), compare=False)
    """Per bot: seconds it took over those decisions (not compared: machine time)."""


@dataclass(frozen=True)
class DealSetResult:
    """The games of one deal set, in rotation order."""

    deal_set: int
    seed: int
    games: tuple[GameSummary, ...]


_RULES: Memo[tuple[str, str], Ruleset] = Memo(maxsize=16)
"""Rulesets by game and options, loaded once per process (each worker plays many games)."""


def rules_of(config: ArenaConfig) -> Ruleset:
    """The arena's ruleset (loaded once per process)."""
    game, options = config.game, dict(config.options)
    key = (game, repr(sorted(options.items())))
    return _RULES.get(key, lambda: load_ruleset(game, options=options))


def check_config(config: ArenaConfig) -> Ruleset:
    """The ruleset, once the settings are known to work; raises :class:`ValueError`
    (:class:`ArenaError`, ``RulesetError``) naming the problem otherwise."""
    rules = rules_of(config)
    if not config.bots:
        raise ArenaError("give at least one bot")
    for name in config.bots:
        make_bot(name)
    if config.hands < 1:
        raise ArenaError(f"hands must be at least 1, not {config.hands}")
    rules.check_players(config.players)
    rules.hands_for(config.players)
    return rules


def game_seed(config: ArenaConfig, deal_set: int) -> int:
    """The seed of the game of deal set ``deal_set``."""
    return config.seed + deal_set


def bot_seed(seed: int, deal_set: int, bot: int) -> int:
    """The seed of bot ``bot`` in every game of deal set ``deal_set``."""
    return mix_seed(seed, deal_set, bot) & 0xFFFFFFFF


def seating(players: int, rotation: int) -> tuple[int, ...]:
    """The bot at each seat in rotation ``rotation``: bot ``i`` sits at ``(i + rotation) % N``."""
    return tuple((seat - rotation) % players for seat in range(players))


def seat_teams(state: GameState) -> tuple[tuple[int, ...], ...]:
    """The seats ranked together: the partnerships (and any seat outside them), or each
    seat alone."""
    partnerships = state.setup.partnerships
    if len(partnerships) < 2:
        return tuple((seat,) for seat in range(state.players))
    covered = {seat for team in partnerships for seat in team}
    alone = tuple((seat,) for seat in range(state.players) if seat not in covered)
    return tuple(partnerships) + alone


def play_rotation(
    config: ArenaConfig, deal_set: int, rotation: int
) -> tuple[GameState, tuple[str, ...], Clock]:
    """Play one game of the deal set with the bots rotated; the finished state, the
    fingerprint of each hand's deal and each seat's thinking time."""
    rules = rules_of(config)
    players = config.players
    seats = seating(players, rotation)
    bots = [make_bot(config.bots[bot], seed=bot_seed(config.seed, deal_set, bot)) for bot in seats]
    state = new_game(rules, players=players, seed=game_seed(config, deal_set))
    clock = Clock(players)
    return state, _play(state, bots, clock), clock


@dataclass
class Clock:
    """Per seat: decisions made (with a real choice) and the seconds they took."""

    players: int
    moves: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.moves = [0] * self.players
        self.seconds = [0.0] * self.players


def _play(state: GameState, bots: Sequence[Bot], clock: Clock) -> tuple[str, ...]:
    """Play to the end (as :func:`tricktaker.bots.play_game`), noting the deals and
    timing every decision that had more than one legal action (an observation made for
    :meth:`Bot.act` is built before the clock starts; a bot with ``choose`` is timed with
    any observation it asks for)."""
    shuffles: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
    timer = time.perf_counter
    while not state.is_terminal():
        if state.is_chance():
            hand, size = state.hands_played, state.hand_size
            state.apply_chance()
            outcome = state.events[-1][-1]
            if isinstance(outcome, ChanceOutcome) and outcome.kind == "deal":
                shuffles.setdefault(hand, []).append((size, outcome.cards))
            continue
        for seat in state.to_act():
            bot = bots[seat]
            choose: Callable[..., Action] | None = getattr(bot, "choose", None)
            if choose is None:  # as decide(): observe only for bots that need it
                observation = state.observe(seat)
                legal = observation.legal_actions
                start = timer()
                action = bot.act(observation)
            else:
                legal = tuple(state.legal_actions(seat))
                start = timer()
                action = choose(seat, legal, partial(state.observe, seat))
            if len(legal) > 1:
                clock.seconds[seat] += timer() - start
                clock.moves[seat] += 1
            state.apply(seat, action)
    return tuple(_digest(shuffles.get(hand, [])) for hand in range(len(state.history)))


def _digest(shuffles: list[tuple[int, tuple[int, ...]]]) -> str:
    return hashlib.blake2b(repr(shuffles).encode(), digest_size=8).hexdigest()


def summarize(
    state: GameState,
    rotation: int,
    seats: tuple[int, ...],
    deals: tuple[str, ...],
    clock: Clock | None = None,
) -> GameSummary:
    """A finished game by bot rather than by seat (``seats``: the bot at each seat)."""
    players = state.players
    moves = [0] * players
    seconds = [0.0] * players
    if clock is not None:
        for seat in range(players):
            moves[seats[seat]] = clock.moves[seat]
            seconds[seats[seat]] = clock.seconds[seat]
    sums = [0] * players
    exact = [0] * players
    bid_hands = 0
    for hand in state.history:
        for seat in range(players):
            sums[seats[seat]] += hand.hand_scores[seat]
        if len(hand.bids) == players:
            bid_hands += 1
            for seat in range(players):
                exact[seats[seat]] += int(hand.tricks[seat] == hand.bids[seat])
    finals = [0] * players
    for seat in range(players):
        finals[seats[seat]] = state.scores[seat]
    teams = seat_teams(state)
    return GameSummary(
        rotation=rotation,
        seating=seats,
        hands=len(state.history),
        score_sums=tuple(sums),
        exact=tuple(exact),
        bid_hands=bid_hands,
        final_scores=tuple(finals),
        winners=tuple(sorted(seats[seat] for seat in state.winners())),
        teams=tuple(tuple(seats[seat] for seat in team) for team in teams),
        team_scores=tuple(max(state.scores[seat] for seat in team) for team in teams),
        cooperative=state.setup.cooperative,
        deals=deals,
        moves=tuple(moves),
        think_seconds=tuple(seconds),
    )


def play_deal_set(config: ArenaConfig, deal_set: int) -> DealSetResult:
    """Play deal set ``deal_set``: one game per rotation (this runs in the workers)."""
    games = []
    for rotation in range(config.players):
        state, deals, clock = play_rotation(config, deal_set, rotation)
        seats = seating(config.players, rotation)
        games.append(summarize(state, rotation, seats, deals, clock))
    return DealSetResult(deal_set=deal_set, seed=game_seed(config, deal_set), games=tuple(games))
