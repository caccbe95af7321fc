"""What the coach's values mean: the model of play behind them, and the shapes a hint
takes (docs/coach.md).

A choice's value is the seat's expected score for the hand in the game's own points
(points in the Oh Hell family and Pluck, the team's points in Euchre, chips in Buckup)
if the seat makes that choice now, under one stated model. In a cooperative ruleset
(Cooperative Blackout: no seat scores points, the table succeeds when every seat takes
exactly its bid) a hand scores 1 when the whole table is exact and 0 otherwise, so a
value is the chance that the table is exact this hand (:func:`value_unit` says which
for a ruleset, so that a person reads a percentage there, not points). The model:

- the cards the seat cannot see are dealt at random among the places they could be,
  consistent with everything the seat saw (its cards, the cards played, the voids
  shown), each deal weighted by how likely the other seats' earlier choices were with
  those cards (the search bots' determinizer and its weight);
- from then on, every seat, the coached one included, plays the hand out with the
  search bots' quick policy (the game's ``rollout_action``), which plays each deal as if
  it saw every hand of it.

The same model gives the sampled values of :mod:`tricktaker.coach.values` and the exact
ones of :mod:`tricktaker.coach.exact`, which enumerate every consistent deal instead
of sampling, so the two can be checked against each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tricktaker.engine.actions import Action
from tricktaker.engine.state import GameState

if TYPE_CHECKING:
    from tricktaker.engine.results import HandResult
    from tricktaker.rules.ruleset import Ruleset

MODEL = (
    "the unseen cards dealt at random as far as what you saw allows (weighted by how"
    " likely the others' bids and calls were), then every player, you included, playing"
    " the hand out as the bots' quick policy does"
)
"""What the coach's values assume, in a sentence a player reads beside them."""


def hand_points(state: GameState, seat: int) -> int:
    """``seat``'s score for the hand just scored (``state.history[-1]``), in the game's
    points: a seat in a partnership scores its team's points; in a cooperative ruleset,
    where no seat scores, 1 when every seat took exactly its bid and 0 otherwise (its
    mean over deals is the chance that the table is exact)."""
    return result_points(state.history[-1], seat, cooperative=state.setup.cooperative)


def result_points(result: HandResult, seat: int, *, cooperative: bool) -> int:
    """``seat``'s score in the finished hand ``result`` as the coach counts it
    (:func:`hand_points`): its hand score, or in a ``cooperative`` ruleset 1 when every
    seat took exactly its bid and 0 otherwise."""
    if cooperative:
        return 1 if result.all_exact else 0
    return result.hand_scores[seat]


@dataclass(frozen=True, slots=True)
class ValueUnit:
    """What a ruleset's coach values count, for the people who read them."""

    name: str
    """The values' unit in words: ``points``, ``chips``, or ``chance the table is
    exact`` where the values are chances."""
    chance: bool
    """Whether the values are chances from 0 to 1 (shown as percentages), not points."""


CHANCE_UNIT = ValueUnit("chance the table is exact", chance=True)
"""The unit of a cooperative ruleset's values: the chance that every seat takes exactly
its bid this hand."""


def value_unit(rules: Ruleset) -> ValueUnit:
    """What the coach's values count in a game played by ``rules``: the chance that the
    table is exact (:data:`CHANCE_UNIT`) in a cooperative ruleset, else the first word of
    the game's score unit (its ``present`` capability: ``points``, ``chips``).

    >>> from tricktaker import load_ruleset
    >>> value_unit(load_ruleset("blackout"))
    ValueUnit(name='points', chance=False)
    >>> value_unit(load_ruleset("coop_blackout")).chance
    True
    """
    if rules.cooperative:
        return CHANCE_UNIT
    from tricktaker.present.game import game_present

    words = game_present(rules).unit.split()
    return ValueUnit(words[0] if words else "points", chance=False)


@dataclass(frozen=True, slots=True)
class ChoiceValue:
    """One legal choice and what it is worth under the model."""

    action: Action
    mean: float
    """The seat's expected score for the hand, in the game's points (in a cooperative
    ruleset, the chance that the table is exact: :func:`value_unit`)."""
    stderr: float
    """The standard error of :attr:`mean` (0 for an exact value)."""
    make_chance: float | None
    """The chance of making the seat's bid (its contract, where a game has one), after
    this choice; None where the seat has no bid to make. In a cooperative ruleset it is
    the seat's own bid, beside :attr:`mean`'s whole table's."""
    samples: int
    """The deals the value was estimated over (for an exact value, the consistent deals
    enumerated)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """The coach's values for one decision of one seat: every legal choice, best first."""

    seat: int
    choices: tuple[ChoiceValue, ...]
    """Every legal choice, the best (highest mean) first."""
    best: Action
    """The choice the coach would take."""
    exact: bool
    """Whether the values are exact (every consistent deal enumerated) or sampled."""
    seconds: float
    """How long the values took to compute."""
    model: str = MODEL
    """What the values assume (:data:`MODEL`)."""

    def value_of(self, action: Action) -> ChoiceValue:
        """The value of one of the choices (``KeyError`` if it was not legal)."""
        for choice in self.choices:
            if choice.action == action:
                return choice
        raise KeyError(action)
