"""What one seat knows of the hidden cards: one description per game, read by every sampler.

A search samples complete positions that one seat cannot tell apart from the real one
(as OpenSpiel's ``ResampleFromInfostate``). What the seat knows of the cards it cannot
see is stated once, as :class:`HiddenFacts`: which cards are unseen, how many of them
each other seat holds now, the effective suits each has shown it cannot hold, the cards
known to be with a seat, and, where the hard facts couple the cards of several suits,
the weighted choices of a split (:class:`SplitChoices`). A game's determinizer (the
``determinizer`` of its search support, :mod:`tricktaker.bots.gamesearch`) gives it by
its ``hidden_facts()`` method (:class:`DescribesHiddenFacts`); the Python samplers place
the cards from it, and the compiled kernel's sampler
(:mod:`tricktaker.kernel.hookgames`) reads the same object, so neither reaches into the
other's internals.

Soft evidence (a bid, a trump call, a stay: likelier with some cards than others) is no
hard fact; a sampler weighs it on top of these facts, and names the models it weighs in
:attr:`HiddenFacts.soft_evidence` (the kernel does not weigh them).

Rebuilding a position is the engine's too, so that nothing above it writes a state's
fields: :func:`hand_start` is the game at the start of the observed hand (its public
past: the hands played, the scores, the finished hands, the dealer), on which a sampler
replays the hand with sampled cards through the engine (which checks every action); and
:func:`with_hidden` gives a copy of such a replayed sample other hidden cards (and the
hidden events that dealt them), which is what a replay with those cards would give when
no public action depends on them.

The engine imports nothing from the games or the bots: a game describes its own facts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from tricktaker.engine.state import GameState

if TYPE_CHECKING:
    from tricktaker.engine.observation import Observation

__all__ = [
    "DescribesHiddenFacts",
    "HiddenFacts",
    "HiddenFactsError",
    "SplitChoices",
    "hand_start",
    "with_hidden",
]


class HiddenFactsError(ValueError):
    """The seat's knowledge of the hidden cards cannot be stated as :class:`HiddenFacts`
    (e.g. cards it saw were shuffled into a stock others drew from: where they are is
    weighed by counting worlds, not by counts and voids)."""


@dataclass(frozen=True, slots=True)
class SplitChoices:
    """The weighted choices that place the unseen cards between two seats when the hard
    facts couple the suits (e.g. Pluck after plucks the seat did not see).

    The cards of ``unknown`` (:class:`HiddenFacts`) go to ``first`` or ``second``. The
    choices form a graph: ``nodes[i]`` lists, for choice point ``i`` (node 0 first), the
    options ``(weight, next node or -1 at the end, index into lists)``; an option puts
    the cards of one card set of ``lists[index]`` (drawn uniformly) with ``first``.
    Drawing each option with probability proportional to its weight draws every
    consistent placement with equal probability.
    """

    first: int
    second: int
    nodes: tuple[tuple[tuple[float, int, int], ...], ...]
    lists: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class HiddenFacts:
    """What ``seat`` knows of the cards it cannot see, at one moment of a hand.

    * ``unknown``: the cards to place (a card set): every card the seat has not seen
      and whose place it does not know;
    * ``hidden``: the seats that hold some of them (in the order they are filled);
    * ``counts[s]``: how many of ``unknown`` seat ``s`` holds now (the rest are out of
      play: the undealt cards, a kitty, a stock, a discard pile);
    * ``voids[s]``: the effective suits (bits 0-3, 4 for free Blukes) ``s`` cannot
      hold, as it showed by its play;
    * ``fixed[s]``: cards known to be in ``s``'s hand now, besides ``unknown``;
    * ``split``: when set, the cards of ``unknown`` are placed by its weighted choices
      instead of by ``counts`` and ``voids``;
    * ``soft_evidence``: the models of the other seats' choices that the game's own
      sampler weighs on top of these facts (names, for the reader).

    Every placement that respects these facts is equally likely.

    >>> facts = HiddenFacts(
    ...     seat=0, hidden=(1, 2), counts=(0, 1, 1), voids=(0, 0b1, 0),
    ...     unknown=(1 << 0) | (1 << 13), fixed=(0, 0, 0),
    ... )
    >>> facts.players, facts.unknown_cards()
    (3, [0, 13])
    """

    seat: int
    hidden: tuple[int, ...]
    counts: tuple[int, ...]
    voids: tuple[int, ...]
    unknown: int
    fixed: tuple[int, ...]
    split: SplitChoices | None = None
    soft_evidence: tuple[str, ...] = ()

    @property
    def players(self) -> int:
        """The number of seats."""
        return len(self.counts)

    def unknown_cards(self) -> list[int]:
        """The cards of :attr:`unknown`, lowest first."""
        out = []
        rest = self.unknown
        while rest:
            low = rest & -rest
            out.append(low.bit_length() - 1)
            rest ^= low
        return out


class DescribesHiddenFacts(Protocol):
    """A sampler that states what its seat knows of the hidden cards."""

    def hidden_facts(self) -> HiddenFacts:
        """The hard facts the sampler places the hidden cards by; raises
        :class:`HiddenFactsError` where they cannot be stated so."""
        ...


def hand_start(obs: Observation, *, step_back_first_dealer: bool = True) -> GameState:
    """The game at the start of the hand ``obs`` is in, before its deal, with the public
    past the seat sees: the hands played (and the schedule's position), the scores, the
    finished hands, the dealer draw, and ``obs.dealer`` dealing. The first dealer is set
    back by the dealer's steps of the hands played (as the game really had it) unless
    ``step_back_first_dealer`` is false. What the game's own data held at the start of
    the hand is the game's to restore (its hooks' data in ``state.ext``).

    >>> from tricktaker import load_ruleset, new_game
    >>> game = new_game(load_ruleset("euchre"), players=4, seed=3)
    >>> start = hand_start(game.observe(0))
    >>> start.phase_name, start.dealer == game.dealer, start.hands_played
    ('deal', True, 0)
    """
    n = obs.players
    state = GameState(obs.rules, players=n, seed=0, first_dealer=obs.dealer)
    first_dealer = obs.dealer
    if step_back_first_dealer:
        first_dealer = (obs.dealer - state.setup.dealer_step * obs.hands_played) % n
    state.set_past(
        hands_played=obs.hands_played,
        schedule_position=obs.hands_played,
        scores=obs.scores,
        history=obs.history,
        first_dealer=first_dealer,
        dealer_draw=obs.dealer_draw,
    )
    return state


def with_hidden(
    replayed: GameState,
    *,
    hands: Mapping[int, int] | Sequence[int] | None = None,
    dealt: Mapping[int, Sequence[int]] | Sequence[Sequence[int]] | None = None,
    kitty: Sequence[int] | None = None,
    events: Mapping[int, tuple[object, ...]] | None = None,
) -> GameState:
    """A copy of ``replayed`` (a position rebuilt by replaying a hand) with other hidden
    cards: ``hands`` (card sets now), ``dealt`` (in order), ``kitty``, for every seat or
    some (see :meth:`GameState.replace_cards`), and ``events``: recorded events to put
    in place of the hidden ones at their indexes (the deal's chance outcome, a hidden
    exchange). The caller keeps the position one that a replay of the same public
    actions with these cards reaches; the original is left unchanged.
    """
    state = replayed.clone()
    if events:
        past = state.events
        for index, event in events.items():
            past[index] = event
    state.replace_cards(hands=hands, dealt=dealt, kitty=kitty)
    return state
