"""What the compiled kernel reads: a hand's rules, a state and a seat's knowledge as dicts.

The kernel states no rules of its own. :func:`hand_config` reads them from the loaded
ruleset (its setup flags, the hand's scoring formulas evaluated for every bid and trick
count, its trick points) and from the engine's card tables for the hand (each card's
effective suit and strength, which already encode trumps, Bluke jokers, bowers, suit
precedence and reversed ranks). Anything the kernel does not play is refused here with
:class:`KernelUnsupportedError`, whose message says why in a player's words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tricktaker.engine.base import BIDDING, PLAYING
from tricktaker.engine.setup import Setup
from tricktaker.engine.state import GameState
from tricktaker.engine.tables import FREE, CardTables
from tricktaker.kernel.native import native
from tricktaker.rules.ruleset import CompiledScoring, Ruleset

__all__ = [
    "BID_BASE",
    "KERNEL_HOOKS",
    "KernelUnsupportedError",
    "ResultTable",
    "check_ruleset",
    "config_of_state",
    "hand_config",
    "move_code",
    "state_dict",
]

BID_BASE = 64
"""A kernel move below 64 is a card; ``64 + b`` is the bid ``b``."""

MAX_PLAYERS = 16

PHASE_BIDDING, PHASE_PLAYING = 0, 1


class KernelUnsupportedError(ValueError):
    """The compiled kernel does not play this ruleset or this decision (the message says
    why); the search bots then use the Python search."""


KERNEL_HOOKS = frozenset({"buckup", "euchre", "pluck"})
"""The hook games whose card play the kernel searches (their other decisions, and every
other hook game, are searched in Python)."""


def check_ruleset(rules: Ruleset, players: int) -> Setup:
    """The ruleset's setup for ``players`` seats, or :class:`KernelUnsupportedError`
    naming the feature the kernel does not play."""
    hooks = rules.spec.hooks
    if rules.hooks is not None and hooks not in KERNEL_HOOKS:
        raise KernelUnsupportedError(
            f"{rules.name} has its own hand rules (the {hooks} hooks), which the"
            " compiled kernel does not play yet"
        )
    setup = Setup.of(rules, players)
    if players > MAX_PLAYERS:
        raise KernelUnsupportedError(f"the compiled kernel plays at most {MAX_PLAYERS} seats")
    return setup


@dataclass(frozen=True, slots=True)
class ResultTable:
    """A hook game's hand result per seat by the tricks its team takes, computed with the
    game's own scoring (:func:`tricktaker.kernel.results.result_table`): ``score`` and
    ``reward`` hold ``hand_size + 1`` entries per seat (the hand score, the search's
    reward); ``teams`` is each seat's team as a mask of seats.

    Where a seat's result depends on how the other seats' tricks fall too, ``outcomes``
    lists every way the tricks can fall (each seat's tricks in 4 bits, seat 0 lowest,
    sorted) with each seat's score and reward per outcome (``outcome_score``,
    ``outcome_reward``, players entries each); ``reward`` is then the best result a seat
    can reach with so many tricks (for the rollout policy)."""

    score: tuple[int, ...]
    reward: tuple[float, ...]
    teams: tuple[int, ...]
    outcomes: tuple[int, ...] = ()
    outcome_score: tuple[int, ...] = ()
    outcome_reward: tuple[float, ...] = ()


def move_code(kind_is_bid: bool, value: int) -> int:
    """The kernel's code of a card play or a bid."""
    return BID_BASE + value if kind_is_bid else value


_CONFIGS: dict[tuple[Any, ...], tuple[tuple[object, ...], Any]] = {}


def hand_config(
    rules: Ruleset,
    players: int,
    *,
    hand_size: int,
    scoring: CompiledScoring | None,
    misere: bool,
    hook: bool,
    tables: CardTables | None,
    trump: int | None,
    turn_up: int | None,
    zero_streak: list[int],
    result: ResultTable | None = None,
    active: tuple[bool, ...] | None = None,
) -> Any:
    """The kernel's config of one hand (cached; the rules are read, never restated).

    A hook game's hand gives its ``result`` table (its scoring formulas are not the Oh
    Hell family's) and the seats ``active`` in its tricks (None: every seat)."""
    core = native()
    setup = check_ruleset(rules, players)
    if tables is None:
        raise KernelUnsupportedError("the trump is not known yet (bidding before the trump)")
    if rules.hooks is not None and result is None:
        raise KernelUnsupportedError(f"{rules.name}: the kernel plays only its card play")
    limit = setup.zero_streak_limit
    no_zero = 0
    if limit is not None:
        for seat, streak in enumerate(zero_streak):
            if streak >= limit:
                no_zero |= 1 << seat
    active_mask = 0 if active is None else sum(1 << s for s, on in enumerate(active) if on)
    key = (
        id(rules),
        players,
        hand_size,
        id(scoring),
        misere,
        hook,
        id(tables),
        turn_up,
        no_zero,
        result,
        active_mask,
    )
    found = _CONFIGS.get(key)
    owners = (rules, scoring, tables)
    if found is not None and all(a is b for a, b in zip(found[0], owners, strict=True)):
        return found[1]
    size = hand_size
    if result is not None:
        score, trick_points = [0] * (size + 1) ** 2, [0] * size
    else:
        if scoring is None:
            raise KernelUnsupportedError("the hand has no scoring the kernel can read")
        score = [
            scoring.score_of(b, t, size, players) for b in range(size + 1) for t in range(size + 1)
        ]
        points = scoring.trick_points
        trick_points = [
            points(k=k, hand_size=size, players=players) if points is not None else 0
            for k in range(1, size + 1)
        ]
    strength = tables.key
    config = core.make_config(
        {
            "players": players,
            "hand_size": size,
            "trump": -1 if trump is None else trump,
            "suit_of": list(tables.suit_of),
            "rank_of": list(tables.rank_of),
            "key": [strength(card, led) for card in range(54) for led in range(FREE + 1)],
            "suit_masks": list(tables.suit_masks),
            "trump_mask": tables.trump_mask,
            "deck_mask": sum(1 << card for card in setup.deck),
            "turn_up_mask": 0 if turn_up is None else 1 << turn_up,
            "follow_suit": setup.follow_suit,
            "must_trump": setup.must_trump,
            "trump_lead_after_broken": setup.trump_lead_after_broken,
            "misere": misere,
            "cooperative": setup.cooperative,
            "hook": hook,
            "sum_equals_hand": setup.sum_equals_hand,
            "simultaneous": setup.simultaneous,
            "min_bid": setup.min_bid,
            "no_zero_seats": no_zero,
            "score": score,
            "trick_points": trick_points,
            "reward_scale": 10.0 + size,
            "table_result": result is not None,
            "result_score": list(result.score) if result is not None else [],
            "result_reward": list(result.reward) if result is not None else [],
            "team": list(result.teams) if result is not None else [1 << s for s in range(players)],
            "outcome_keys": list(result.outcomes) if result is not None else [],
            "outcome_score": list(result.outcome_score) if result is not None else [],
            "outcome_reward": list(result.outcome_reward) if result is not None else [],
            "active": active_mask,
            "opening_card": -1 if setup.opening_lead is None else setup.opening_lead,
        }
    )
    if len(_CONFIGS) > 256:
        _CONFIGS.clear()
    _CONFIGS[key] = (owners, config)
    return config


def config_of_state(state: GameState) -> Any:
    """The kernel's config of the hand in progress in an engine state."""
    _check_state(state)
    result = None
    if state.rules.hooks is not None:
        from tricktaker.kernel.results import result_table

        result = result_table(state)
    return hand_config(
        state.rules,
        state.players,
        hand_size=state.hand_size,
        scoring=state.scoring,
        misere=state.spec.misere,
        hook=state.hook,
        tables=state.tables,
        trump=state.trump,
        turn_up=state.turn_up,
        zero_streak=state.zero_streak,
        result=result,
        active=None if state.active is None else tuple(state.active),
    )


def _check_state(state: GameState) -> None:
    check_ruleset(state.rules, state.players)
    if state.rules.hooks is not None and state.phase != PLAYING:
        raise KernelUnsupportedError(
            f"in {state.rules.name} the kernel plays the cards only, not the {state.phase_name}"
        )
    if state.phase not in (BIDDING, PLAYING):
        raise KernelUnsupportedError(f"the kernel plays bids and cards, not the {state.phase_name}")
    if state.piles is not None or state.spec.pile or state.spec.blind_hand:
        raise KernelUnsupportedError("the kernel does not play face-down piles")


def state_dict(state: GameState) -> dict[str, Any]:
    """The kernel's state of the hand in progress in an engine state (every hand known)."""
    _check_state(state)
    n = state.players
    points = [0] * n
    formula = state.scoring.trick_points
    if formula is not None:
        for k, winner in enumerate(state.trick_winners, start=1):
            points[winner] += formula(k=k, hand_size=state.hand_size, players=n)
    bids = [-1 if b is None else b for b in state.bids]
    return {
        "hands": list(state.hands),
        "bids": bids,
        "tricks": list(state.tricks_won),
        "points": points,
        "trick": [list(pair) for pair in state.trick],
        "leader": state.leader,
        "to_play": state.to_play,
        "tricks_done": len(state.trick_cards),
        "bid_count": state.bid_count,
        "bid_sum": sum(b for b in bids if b > 0),
        "eldest": state.eldest,
        "phase": PHASE_BIDDING if state.phase == BIDDING else PHASE_PLAYING,
        "broken": state.trump_broken,
        "first_bidder": -1,
    }
