"""What the compiled kernel reads: a hand's rules and a state, as the typed objects of
:mod:`tricktaker.kernel.spec`, built from a ruleset, an observation or an engine state.

The kernel states no rules of its own. :func:`hand_config` reads them from the loaded
ruleset (its setup flags, the hand's scoring formulas evaluated for every bid and trick
count, its trick points) and from the engine's card tables for the hand (each card's
effective suit and strength, which already encode trumps, Bluke jokers, bowers, suit
precedence and reversed ranks). Anything the kernel does not play is refused here with
:class:`KernelUnsupportedError`, whose message says why in a player's words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from tricktaker.engine.base import BIDDING, PHASE_NAMES, PLAYING
from tricktaker.engine.hooks import capability
from tricktaker.engine.observation import Observation
from tricktaker.engine.setup import Setup
from tricktaker.engine.state import GameState
from tricktaker.engine.tables import CardTables
from tricktaker.kernel.spec import (
    KERNEL_CAPABILITY,
    KernelConfig,
    KernelState,
    KernelSupport,
    KernelUnsupportedError,
    limits,
)
from tricktaker.memo import Memo
from tricktaker.rules.expr import Formula
from tricktaker.rules.ruleset import CompiledScoring, Ruleset

__all__ = [
    "HandInputs",
    "KernelUnsupportedError",
    "PublicHand",
    "ResultTable",
    "check_ruleset",
    "config_of_state",
    "hand_config",
    "hand_plays",
    "hand_rules",
    "kernel_plays",
    "kernel_state",
    "move_code",
    "observed_state",
    "played_by_seat",
    "plays_whole",
    "public_state",
    "state_rules",
]

Made = TypeVar("Made")

_LIMITS = {
    "BID_BASE": "bid_base",
    "MAX_PLAYERS": "max_players",
    "PHASE_BIDDING": "phase_bidding",
    "PHASE_PLAYING": "phase_playing",
}


def __getattr__(name: str) -> int:
    """``BID_BASE`` (a kernel move below it is a card, ``BID_BASE + b`` the bid ``b``),
    ``MAX_PLAYERS``, ``PHASE_BIDDING`` and ``PHASE_PLAYING``: read from the compiled
    module (:func:`tricktaker.kernel.spec.limits`) when first asked for."""
    field = _LIMITS.get(name)
    if field is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value: int = getattr(limits(), field)
    return value


def kernel_plays(rules: Ruleset) -> bool:
    """Whether the kernel plays the ruleset: the Oh Hell family whole, a hook game's card
    play when the game declares it (its ``"kernel"`` capability, a
    :class:`~tricktaker.kernel.spec.KernelSupport`)."""
    if rules.hooks is None:
        return True
    support = capability(rules.hooks, KERNEL_CAPABILITY)
    return isinstance(support, KernelSupport) and (support.card_play or support.whole)


def plays_whole(rules: Ruleset) -> bool:
    """Whether the kernel plays the ruleset whole, bids and cards, with the hand's rules
    from the ruleset and the observation: the Oh Hell family, and a hook game that
    declares it (:attr:`KernelSupport.whole`); else it plays a hook game's cards only."""
    if rules.hooks is None:
        return True
    support = capability(rules.hooks, KERNEL_CAPABILITY)
    return isinstance(support, KernelSupport) and support.whole


def check_ruleset(rules: Ruleset, players: int) -> Setup:
    """The ruleset's setup for ``players`` seats, or :class:`KernelUnsupportedError`
    naming the feature the kernel does not play."""
    hooks = rules.spec.hooks
    if not kernel_plays(rules):
        raise KernelUnsupportedError(
            f"{rules.name} has its own hand rules (the {hooks} hooks), which the"
            " compiled kernel does not play yet"
        )
    setup = Setup.of(rules, players)
    most = limits().max_players
    if players > most:
        raise KernelUnsupportedError(f"the compiled kernel plays at most {most} seats")
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
    can reach with so many tricks (the kernel reads the outcomes then)."""

    score: tuple[int, ...]
    reward: tuple[float, ...]
    teams: tuple[int, ...]
    outcomes: tuple[int, ...] = ()
    outcome_score: tuple[int, ...] = ()
    outcome_reward: tuple[float, ...] = ()


def move_code(kind_is_bid: bool, value: int) -> int:
    """The kernel's code of a card play or a bid."""
    return limits().bid_base + value if kind_is_bid else value


_CONFIGS: Memo[tuple[Any, ...], Any] = Memo(maxsize=256)
"""The kernel's configs of the hands of each ruleset, by what else they are built from."""


@dataclass(frozen=True, slots=True)
class HandInputs:
    """What one hand's kernel config is read from besides the ruleset and the seat count:
    the hand's size, scoring, misère and hook flags, the engine's card tables, the trump
    and turn-up, each seat's zero-bid streak, and for a hook game its ``result`` table
    (its scoring formulas are not the Oh Hell family's) and the seats ``active`` in its
    tricks (None: every seat)."""

    hand_size: int
    scoring: CompiledScoring | None
    misere: bool
    hook: bool
    tables: CardTables | None
    trump: int | None
    turn_up: int | None
    zero_streak: Sequence[int]
    result: ResultTable | None = None
    active: tuple[bool, ...] | None = None


def hand_config(rules: Ruleset, players: int, hand: HandInputs) -> Any:
    """The kernel's config of one hand (cached; the rules are read, never restated):
    :meth:`KernelConfig.build` of :func:`hand_rules`."""
    setup = _check_hand(rules, players, hand)
    no_zero, active_mask = _seat_masks(setup, hand)
    key = (
        players,
        hand.hand_size,
        hand.scoring,
        hand.misere,
        hand.hook,
        hand.tables,
        hand.turn_up,
        no_zero,
        hand.result,
        active_mask,
    )
    return _CONFIGS.get(key, lambda: hand_rules(rules, players, hand).build(), owner=rules)


def _check_hand(rules: Ruleset, players: int, hand: HandInputs) -> Setup:
    setup = check_ruleset(rules, players)
    if hand.tables is None:
        raise KernelUnsupportedError("the trump is not known yet (bidding before the trump)")
    if not plays_whole(rules) and hand.result is None:
        raise KernelUnsupportedError(f"{rules.name}: the kernel plays only its card play")
    return setup


def _seat_masks(setup: Setup, hand: HandInputs) -> tuple[int, int]:
    """The seats that may not bid 0 (a zero-bid streak at the limit) and the seats in the
    tricks (0: every seat), as masks."""
    limit = setup.zero_streak_limit
    no_zero = 0
    if limit is not None:
        for seat, streak in enumerate(hand.zero_streak):
            if streak >= limit:
                no_zero |= 1 << seat
    active = hand.active
    active_mask = 0 if active is None else sum(1 << s for s, on in enumerate(active) if on)
    return no_zero, active_mask


def hand_rules(rules: Ruleset, players: int, hand: HandInputs) -> KernelConfig:
    """One hand's rules as the kernel reads them (:func:`hand_config` builds and caches
    them)."""
    setup = _check_hand(rules, players, hand)
    tables, result, scoring, turn_up = hand.tables, hand.result, hand.scoring, hand.turn_up
    assert tables is not None
    no_zero, active_mask = _seat_masks(setup, hand)
    size = hand.hand_size
    if result is not None:
        score: tuple[int, ...] = ()
        trick_points: tuple[int, ...] = ()
    else:
        if scoring is None:
            raise KernelUnsupportedError("the hand has no scoring the kernel can read")
        score = tuple(
            scoring.score_of(b, t, size, players) for b in range(size + 1) for t in range(size + 1)
        )
        points = scoring.trick_points
        trick_points = tuple(
            points(k=k, hand_size=size, players=players) if points is not None else 0
            for k in range(1, size + 1)
        )
    # The bots build on this package, so their bid model is imported when first needed.
    from tricktaker.bots.bid_model import values_for

    known = limits()
    strength = tables.key
    return KernelConfig(
        players=players,
        hand_size=size,
        trump=-1 if hand.trump is None else hand.trump,
        suit_of=tuple(tables.suit_of),
        rank_of=tuple(tables.rank_of),
        key=tuple(
            strength(card, led) for card in range(known.cards) for led in range(known.suit_classes)
        ),
        suit_masks=tuple(tables.suit_masks),
        trump_mask=tables.trump_mask,
        deck_mask=sum(1 << card for card in setup.deck),
        turn_up_mask=0 if turn_up is None else 1 << turn_up,
        follow_suit=setup.follow_suit,
        must_trump=setup.must_trump,
        trump_lead_after_broken=setup.trump_lead_after_broken,
        misere=hand.misere,
        cooperative=setup.cooperative,
        hook=hand.hook,
        sum_equals_hand=setup.sum_equals_hand,
        simultaneous=setup.simultaneous,
        min_bid=setup.min_bid,
        no_zero_seats=no_zero,
        score=score,
        trick_points=trick_points,
        reward_scale=10.0 + size,
        result_score=() if result is None else result.score,
        result_reward=() if result is None else result.reward,
        team=tuple(1 << s for s in range(players)) if result is None else result.teams,
        outcome_keys=() if result is None else result.outcomes,
        outcome_score=() if result is None else result.outcome_score,
        outcome_reward=() if result is None else result.outcome_reward,
        active=active_mask,
        opening_card=-1 if setup.opening_lead is None else setup.opening_lead,
        bid_value=values_for(players, size, tables, setup.deck) or (),
    )


def config_of_state(state: GameState) -> Any:
    """The kernel's config of the hand in progress in an engine state (cached, as
    :func:`hand_config` caches it)."""
    return _of_state(state, hand_config)


def state_rules(state: GameState) -> KernelConfig:
    """The rules of the hand in progress in an engine state, as the kernel reads them."""
    return _of_state(state, hand_rules)


def _of_state(state: GameState, hand: Callable[[Ruleset, int, HandInputs], Made]) -> Made:
    """``hand`` (:func:`hand_config` or :func:`hand_rules`) of the hand in progress."""
    _check_state(state)
    result = None
    if not plays_whole(state.rules):
        from tricktaker.kernel.results import result_table

        result = result_table(state)
    inputs = HandInputs(
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
    return hand(state.rules, state.players, inputs)


def _check_state(state: GameState) -> None:
    check_ruleset(state.rules, state.players)
    if not plays_whole(state.rules) and state.phase != PLAYING:
        raise KernelUnsupportedError(
            f"in {state.rules.name} the kernel plays the cards only, not the {state.phase_name}"
        )
    if state.phase not in (BIDDING, PLAYING):
        raise KernelUnsupportedError(f"the kernel plays bids and cards, not the {state.phase_name}")
    if state.piles is not None or state.spec.pile or state.spec.blind_hand:
        raise KernelUnsupportedError("the kernel does not play face-down piles")


@dataclass(frozen=True, slots=True)
class PublicHand:
    """The public facts of a hand in progress that the kernel's state is made of, as an
    engine state (:meth:`of_state`) and a seat's observation (:meth:`of_observation`)
    both hold them; :func:`public_state` makes the :class:`KernelState` of them and the
    seats' hands."""

    bids: tuple[int | None, ...]
    """Each seat's bid (None: not made, or hidden from the seat)."""
    bid_count: int
    """The bids made (hidden ones too)."""
    tricks_won: tuple[int, ...]
    trick_winners: tuple[int, ...]
    """The winner of each finished trick, in order."""
    trick: tuple[tuple[int, int], ...]
    """The trick in progress, as (seat, card) pairs."""
    leader: int
    to_play: int
    """The seat to play a card (the leader while the seats bid)."""
    dealer: int
    bidding: bool
    """Whether the seats are bidding (else they play the cards)."""
    trump_broken: bool

    @classmethod
    def of_state(cls, state: GameState) -> PublicHand:
        """The public facts of the hand in progress in an engine state."""
        return cls(
            bids=tuple(state.bids),
            bid_count=state.bid_count,
            tricks_won=tuple(state.tricks_won),
            trick_winners=tuple(state.trick_winners),
            trick=tuple(state.trick),
            leader=state.leader,
            to_play=state.to_play,
            dealer=state.dealer,
            bidding=state.phase == BIDDING,
            trump_broken=state.trump_broken,
        )

    @classmethod
    def of_observation(cls, obs: Observation) -> PublicHand:
        """The public facts of the observed hand, as the seat sees them (others' hidden
        bids None)."""
        bidding = obs.phase == PHASE_NAMES[BIDDING]
        return cls(
            bids=obs.bids,
            bid_count=sum(obs.bid_made),
            tricks_won=obs.tricks_won,
            trick_winners=obs.trick_winners,
            trick=obs.current_trick,
            leader=obs.leader,
            to_play=obs.to_act[0] if obs.to_act and not bidding else obs.leader,
            dealer=obs.dealer,
            bidding=bidding,
            trump_broken=obs.trump_broken,
        )


def public_state(
    public: PublicHand,
    hands: tuple[int, ...],
    *,
    hand_size: int,
    trick_points: Formula | None,
    first_bidder: int = -1,
) -> KernelState:
    """The kernel's state of a hand in progress: its public facts and the seats' hands
    (a seat's own only, in a world's public state), each seat's trick points by the
    hand's ``trick_points`` formula (None: none), and for simultaneous bids the seat that
    bids first (-1: none). Bids not made or hidden are -1 (a world guesses them)."""
    n = len(hands)
    points = [0] * n
    if trick_points is not None:
        for k, winner in enumerate(public.trick_winners, start=1):
            points[winner] += trick_points(k=k, hand_size=hand_size, players=n)
    bids = tuple(-1 if b is None else b for b in public.bids)
    known = limits()
    return KernelState(
        hands=hands,
        bids=bids,
        tricks=public.tricks_won,
        points=tuple(points),
        trick=public.trick,
        leader=public.leader,
        to_play=public.to_play,
        tricks_done=len(public.trick_winners),
        bid_count=public.bid_count,
        bid_sum=sum(b for b in bids if b > 0),
        eldest=(public.dealer + 1) % n,
        phase=known.phase_bidding if public.bidding else known.phase_playing,
        broken=public.trump_broken,
        first_bidder=first_bidder,
    )


def observed_state(
    obs: Observation, *, trick_points: Formula | None, first_bidder: int = -1
) -> KernelState:
    """The public state of the observed hand for a world of the seat's: its own cards
    only, the other seats' hidden bids -1 (:func:`public_state`)."""
    assert obs.hand is not None
    hands = tuple(obs.hand if seat == obs.seat else 0 for seat in range(obs.players))
    return public_state(
        PublicHand.of_observation(obs),
        hands,
        hand_size=obs.hand_size,
        trick_points=trick_points,
        first_bidder=first_bidder,
    )


def played_by_seat(obs: Observation) -> tuple[int, ...]:
    """The cards each seat has played this hand, as masks."""
    played = [0] * obs.players
    for trick in (*obs.tricks, obs.current_trick):
        for seat, card in trick:
            played[seat] |= 1 << card
    return tuple(played)


def hand_plays(obs: Observation) -> tuple[tuple[int, int], ...]:
    """The card plays of this hand so far, in order, as (seat, card) pairs (all public)."""
    return tuple(pair for trick in (*obs.tricks, obs.current_trick) for pair in trick)


def kernel_state(state: GameState) -> KernelState:
    """The kernel's state of the hand in progress in an engine state (every hand known)."""
    _check_state(state)
    return public_state(
        PublicHand.of_state(state),
        tuple(state.hands),
        hand_size=state.hand_size,
        trick_points=state.scoring.trick_points,
    )
