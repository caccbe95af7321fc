"""Observations: everything one seat may know, and nothing more.

Bots, the command line and any other client only ever see an :class:`Observation`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from tricktaker.cards import cards_of
from tricktaker.engine.actions import Action
from tricktaker.engine.results import HandResult
from tricktaker.engine.tables import CardTables
from tricktaker.rules.ruleset import Ruleset

if TYPE_CHECKING:
    from tricktaker.engine.hooks import GameHooks
    from tricktaker.engine.state import GameState
    from tricktaker.engine.view import GameView


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
    """The game's own information for this seat (plucks, auction, kitty, pot, stacks) as
    JSON data: ``view.to_json()`` (empty when the game adds none)."""
    view: GameView | None = None
    """The game's own information for this seat, typed (card ids, seats, counts): what
    its hooks' :meth:`~tricktaker.engine.hooks.GameHooks.view` gives; None when the game
    adds none, or for an observation decoded from JSON, which has only :attr:`extra`."""

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


_FIELD_SETTERS: tuple[tuple[str, Any], ...] = tuple(
    (item.name, getattr(Observation, item.name).__set__) for item in fields(Observation)
)
"""Each field of :class:`Observation` with the setter of its slot, for :func:`_observation`."""


def _observation(values: dict[str, Any]) -> Observation:
    """An :class:`Observation` from a value for every field: the same object as
    ``Observation(**values)``, made without the frozen dataclass's ``__init__`` (which
    sets each of the many fields through ``object.__setattr__``, a good part of the cost
    of every observation)."""
    observation = object.__new__(Observation)
    for name, set_field in _FIELD_SETTERS:
        set_field(observation, values[name])
    return observation


def _redacted_history(
    history: list[HandResult], hooks: GameHooks, seat: int
) -> tuple[HandResult, ...]:
    """The finished hands as ``seat`` may see them (each redacted once by ``hooks`` and
    kept with the hand: :attr:`HandResult.seen_by`)."""
    seen = []
    for result in history:
        redacted = result.seen_by.get(seat)
        if redacted is None:
            redacted = result.seen_by[seat] = hooks.redact(result, seat)
        seen.append(redacted)
    return tuple(seen)


SHARED_FIELDS: tuple[str, ...] = (
    "players",
    "rules",
    "phase",
    "hand_number",
    "hands_in_game",
    "hands_played",
    "hand_size",
    "dealer",
    "special",
    "call",
    "trump",
    "trump_known",
    "turn_up",
    "bid_made",
    "hook",
    "misere",
    "pile",
    "tricks_won",
    "current_trick",
    "leader",
    "tricks",
    "trick_winners",
    "trump_broken",
    "scores",
    "to_act",
    "cooperative",
    "tables",
    "dealer_draw",
    "partnerships",
    "active",
)
"""The fields of :class:`Observation` that every seat sees alike (public knowledge):
:func:`build_observations` makes them once, as the same objects in each seat's
observation. The others (``seat``, ``hand``, ``cards_in_hand``, ``bids``,
``legal_actions``, ``history``, ``extra`` and ``view``) are each seat's own."""


def _shared_values(state: GameState) -> dict[str, Any]:
    """The :data:`SHARED_FIELDS` of every seat's observation of ``state``; nothing here
    depends on the seat."""
    setup = state.setup
    hooks = state.hooks
    spec = state.spec
    trump_known = state.trump_known
    if hooks is not None:
        hands_in_game: int | None = hooks.hands_in_game(state)
    else:
        hands_in_game = (
            None if setup.called or setup.advance_when_all_exact else len(setup.schedule)
        )
    return {
        "players": setup.players,
        "rules": state.rules,
        "phase": state.phase_name,
        "hand_number": state.hand_number,
        "hands_in_game": hands_in_game,
        "hands_played": state.hands_played,
        "hand_size": state.hand_size,
        "dealer": state.dealer,
        "special": spec.name,
        "call": state.called(),
        "trump": state.trump if trump_known else None,
        "trump_known": trump_known,
        "turn_up": state.turn_up if trump_known else None,
        "bid_made": tuple([b is not None for b in state.bids]),
        "hook": state.hook,
        "misere": spec.misere,
        "pile": state.piles is not None or spec.pile or spec.blind_hand,
        "tricks_won": tuple(state.tricks_won),
        "current_trick": tuple(state.trick),
        "leader": state.leader,
        "tricks": tuple(state.trick_cards),
        "trick_winners": tuple(state.trick_winners),
        "trump_broken": state.trump_broken,
        "scores": tuple(state.scores),
        "to_act": state.to_act(),
        "cooperative": setup.cooperative,
        "tables": state.tables if trump_known else None,
        "dealer_draw": tuple(state.dealer_draw),
        "partnerships": setup.partnerships,
        "active": tuple(state.active) if state.active is not None else None,
    }


def _seat_observation(
    state: GameState,
    seat: int,
    shared: dict[str, Any],
    bids: tuple[int | None, ...] | None,
    history: tuple[HandResult, ...] | None,
) -> Observation:
    """``seat``'s observation: ``shared`` (:func:`_shared_values`) and the seat's own
    fields. ``bids`` and ``history`` are the seats' common ones where every seat sees the
    same (None: the seat's own are made here)."""
    n = state.setup.players
    if not 0 <= seat < n:
        raise ValueError(f"there is no seat {seat} in a {n}-player game")
    over = state.is_terminal()
    if bids is None:
        bids = tuple(b if s == seat else None for s, b in enumerate(state.bids))
    hooks = state.hooks
    view: GameView | None = None
    if hooks is not None:
        history = _redacted_history(state.history, hooks, seat)
        view = hooks.view(state, seat)
    elif history is None:
        history = tuple(state.history)
    visible = state.cards_seen[seat] and not over
    values = dict(shared)
    values["seat"] = seat
    values["hand"] = state.hands[seat] if visible else None
    values["cards_in_hand"] = 0 if over else state.hands[seat].bit_count()
    values["bids"] = bids
    values["legal_actions"] = tuple(state.legal_actions(seat))
    values["history"] = history
    values["extra"] = view.to_json() if view is not None else {}
    values["view"] = view
    return _observation(values)


def _common_bids(state: GameState) -> tuple[int | None, ...] | None:
    """The bids as every seat sees them, or None while simultaneous bids are hidden (each
    seat sees only its own)."""
    if state.setup.simultaneous and state.bid_count != state.setup.players:
        return None
    return tuple(state.bids)


def build_observation(state: GameState, seat: int) -> Observation:
    """The observation of ``seat`` in ``state`` (used by :meth:`GameState.observe`)."""
    history = tuple(state.history) if state.hooks is None else None
    return _seat_observation(state, seat, _shared_values(state), _common_bids(state), history)


def build_observations(state: GameState) -> list[Observation]:
    """Every seat's observation of ``state``, in seat order (used by
    :meth:`GameState.observe_all`): each equals ``build_observation(state, seat)``, and
    the :data:`SHARED_FIELDS` are made once, the same objects in all of them (so that a
    caller writing each seat's view can write those once)."""
    shared = _shared_values(state)
    bids = _common_bids(state)
    history = tuple(state.history) if state.hooks is None else None
    return [
        _seat_observation(state, seat, shared, bids, history) for seat in range(state.setup.players)
    ]
