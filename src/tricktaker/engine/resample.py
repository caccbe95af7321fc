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

The engine imports nothing from the games or the bots: a game describes its own facts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["DescribesHiddenFacts", "HiddenFacts", "HiddenFactsError", "SplitChoices"]


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
