"""The fields of a game state, declared once so that the state's parts (core, bidding,
trick play) can live in separate modules and still be type-checked."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tricktaker.engine.tables import CardTables
from tricktaker.rules.ruleset import CompiledScoring, HandSpec, Ruleset

if TYPE_CHECKING:
    from tricktaker.engine.actions import Action
    from tricktaker.engine.hooks import GameHooks
    from tricktaker.engine.results import HandResult
    from tricktaker.engine.setup import Setup

DEAL, TRUMP_DRAW, BIDDING, PILE_SHUFFLE, PLAYING, GAME_OVER, HOOK = range(7)
PHASE_NAMES = (
    "deal",
    "trump_draw",
    "bidding",
    "pile_shuffle",
    "playing",
    "game_over",
    "hook",
)
CHANCE_PHASES = frozenset({DEAL, TRUMP_DRAW, PILE_SHUFFLE})

_MASK64 = (1 << 64) - 1


def mix_seed(*parts: int) -> int:
    """A well-spread 64-bit number from integers (splitmix64), the same on every platform."""
    value = 0x9E3779B97F4A7C15
    for part in parts:
        value = (value ^ (part & _MASK64)) * 0xBF58476D1CE4E5B9 & _MASK64
        value = (value ^ (value >> 31)) * 0x94D049BB133111EB & _MASK64
        value ^= value >> 29
    return value


@dataclass(frozen=True, slots=True)
class ChanceOutcome:
    """The result of a chance step: ``deal`` (the shuffled deck, top first),
    ``second_deck`` (one card of a second deck), ``piles`` (each seat's pile,
    concatenated), or a kind a game's hooks define."""

    kind: str
    cards: tuple[int, ...]


class StateFields:
    """Every attribute of :class:`~tricktaker.engine.state.GameState`, with its type."""

    __slots__ = (
        "_bid_cache",
        "_hook_cache",
        "_legal_cache",
        "active",
        "bid_count",
        "bids",
        "cards_seen",
        "completed",
        "dealer",
        "dealer_draw",
        "dealt",
        "events",
        "ext",
        "first_dealer",
        "first_dealer_given",
        "given_deals",
        "hand_size",
        "hands",
        "hands_played",
        "history",
        "hook",
        "hooks",
        "kitty",
        "leader",
        "phase",
        "pile_pos",
        "piles",
        "redeals",
        "rest",
        "rules",
        "schedule_pos",
        "scores",
        "scoring",
        "seed",
        "setup",
        "shuffle_seats",
        "spec",
        "tables",
        "to_play",
        "trick",
        "trick_cards",
        "trick_winners",
        "tricks_won",
        "trump",
        "trump_broken",
        "trump_known",
        "turn_up",
        "zero_streak",
    )

    rules: Ruleset
    setup: Setup
    hooks: GameHooks | None
    ext: Any
    seed: int
    given_deals: tuple[tuple[int, ...], ...] | None
    scores: list[int]
    zero_streak: list[int]
    history: list[HandResult]
    events: list[tuple[object, ...]]
    hands_played: int
    schedule_pos: int
    completed: bool
    dealer_draw: list[tuple[int, int]]
    first_dealer: int
    first_dealer_given: bool
    dealer: int
    spec: HandSpec
    hand_size: int
    hook: bool
    scoring: CompiledScoring
    phase: int
    hands: list[int]
    piles: list[list[int]] | None
    pile_pos: list[int]
    dealt: list[list[int]]
    kitty: list[int]
    rest: tuple[int, ...]
    turn_up: int | None
    trump: int | None
    trump_known: bool
    tables: CardTables | None
    bids: list[int | None]
    bid_count: int
    tricks_won: list[int]
    trick: list[tuple[int, int]]
    trick_cards: list[tuple[tuple[int, int], ...]]
    trick_winners: list[int]
    leader: int
    to_play: int
    active: list[bool] | None
    trump_broken: bool
    cards_seen: list[bool]
    shuffle_seats: tuple[int, ...]
    _legal_cache: int
    redeals: int
    _bid_cache: tuple[int, list[int]] | None
    _hook_cache: tuple[int, tuple[Action, ...]] | None
    """A hook phase's legal actions as last listed for a seat, with the seat: an action
    of them is applied without listing them again (cleared whenever the state moves)."""

    @property
    def eldest(self) -> int:
        return (self.dealer + 1) % self.setup.players

    @property
    def hand_number(self) -> int:
        """1-based number of the hand in progress (or of the last hand when over)."""
        return self.hands_played + (0 if self.phase == GAME_OVER else 1)

    def to_act(self) -> tuple[int, ...]:
        raise NotImplementedError

    def start_play(self, leader: int | None = None) -> None:
        raise NotImplementedError

    def set_trump(self, trump: int | None) -> None:
        raise NotImplementedError

    def _score_hand(self) -> None:
        raise NotImplementedError

    def _use_spec(self, spec: HandSpec) -> None:
        raise NotImplementedError

    def _prepare_hand(self) -> None:
        raise NotImplementedError

    def _rng(self, step: str) -> random.Random:
        raise NotImplementedError

    def _after_bidding_trump_known(self) -> None:
        raise NotImplementedError
