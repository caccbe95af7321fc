"""Observations: everything one seat may know, and nothing more.

Bots, the command line and any other client only ever see an :class:`Observation`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tricktaker.cards import cards_of
from tricktaker.engine.actions import Action
from tricktaker.engine.results import HandResult
from tricktaker.engine.tables import CardTables
from tricktaker.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from tricktaker.engine.state import GameState


@dataclass(frozen=True, slots=True)
class Observation:
    """What ``seat`` may know at one moment of the game.

    ``hand`` is the seat's own cards as a bitset, or None while it may not look at them
    (blind bidding, a face-down pile). ``bids`` shows a bid only once the seat may know
    it (in simultaneous bidding, only its own until all are in). ``tables`` tells how
    cards rank this hand once the trump is known (public knowledge).
    """

    seat: int
    players: int
    rules: Ruleset
    phase: str
    hand_number: int
    hands_in_game: int | None
    hands_played: int
    hand_size: int
    dealer: int
    special: str | None
    call: dict[str, object] | None
    trump: int | None
    trump_known: bool
    turn_up: int | None
    hand: int | None
    cards_in_hand: int
    bids: tuple[int | None, ...]
    bid_made: tuple[bool, ...]
    hook: bool
    misere: bool
    pile: bool
    tricks_won: tuple[int, ...]
    current_trick: tuple[tuple[int, int], ...]
    leader: int
    tricks: tuple[tuple[tuple[int, int], ...], ...]
    trick_winners: tuple[int, ...]
    trump_broken: bool
    scores: tuple[int, ...]
    to_act: tuple[int, ...]
    legal_actions: tuple[Action, ...]
    cooperative: bool
    history: tuple[HandResult, ...]
    tables: CardTables | None
    dealer_draw: tuple[tuple[int, int], ...] = ()
    """The cards drawn for the first dealer, ``(seat, card)``, when drawn at the table."""
    partnerships: tuple[tuple[int, ...], ...] = ()
    """Teams of seats that score together (Euchre), empty when everyone plays alone."""
    active: tuple[bool, ...] | None = None
    """Seats taking part in the tricks of this hand (None: everyone)."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """The game's own information for this seat (plucks, auction, kitty, pot, stacks)."""

    @property
    def my_cards(self) -> list[int]:
        """The seat's own cards (empty when it may not look at them)."""
        return cards_of(self.hand) if self.hand is not None else []

    @property
    def played(self) -> int:
        """Bitset of every card played so far this hand."""
        mask = 0
        for trick in self.tricks:
            for _, card in trick:
                mask |= 1 << card
        for _, card in self.current_trick:
            mask |= 1 << card
        return mask

    @property
    def is_my_turn(self) -> bool:
        return self.seat in self.to_act


def build_observation(state: GameState, seat: int) -> Observation:
    """The observation of ``seat`` in ``state`` (used by :meth:`GameState.observe`)."""
    n = state.players
    if not 0 <= seat < n:
        raise ValueError(f"there is no seat {seat} in a {n}-player game")
    over = state.is_terminal()
    all_bids_in = state.bid_count == n
    if state.setup.simultaneous and not all_bids_in:
        bids = tuple(b if s == seat else None for s, b in enumerate(state.bids))
    else:
        bids = tuple(state.bids)
    visible = state.cards_seen[seat] and not over
    if state.piles is not None and visible:
        hand: int | None = state.hands[seat]
    elif visible:
        hand = state.hands[seat]
    else:
        hand = None
    schedule = state.setup.schedule
    hooks = state.hooks
    history = tuple(state.history)
    extra: Mapping[str, Any] = {}
    if hooks is not None:
        history = tuple(hooks.redact(result, seat) for result in history)
        extra = hooks.observe(state, seat)
    return Observation(
        seat=seat,
        players=n,
        rules=state.rules,
        phase=state.phase_name,
        hand_number=state.hand_number,
        hands_in_game=(
            hooks.hands_in_game(state)
            if hooks is not None
            else None
            if state.setup.called or state.setup.advance_when_all_exact
            else len(schedule)
        ),
        hands_played=state.hands_played,
        hand_size=state.hand_size,
        dealer=state.dealer,
        special=state.spec.name,
        call=state.call.describe() if state.call is not None else None,
        trump=state.trump if state.trump_known else None,
        trump_known=state.trump_known,
        turn_up=state.turn_up if state.trump_known else None,
        hand=hand,
        cards_in_hand=0 if over else state.hands[seat].bit_count(),
        bids=bids,
        bid_made=tuple(b is not None for b in state.bids),
        hook=state.hook,
        misere=state.spec.misere,
        pile=state.piles is not None or state.spec.pile or state.spec.blind_hand,
        tricks_won=tuple(state.tricks_won),
        current_trick=tuple(state.trick),
        leader=state.leader,
        tricks=tuple(state.trick_cards),
        trick_winners=tuple(state.trick_winners),
        trump_broken=state.trump_broken,
        scores=tuple(state.scores),
        to_act=state.to_act(),
        legal_actions=tuple(state.legal_actions(seat)),
        cooperative=state.setup.cooperative,
        history=history,
        tables=state.tables if state.trump_known else None,
        dealer_draw=tuple(state.dealer_draw),
        partnerships=state.setup.partnerships,
        active=tuple(state.active) if state.active is not None else None,
        extra=extra,
    )
