"""What the coach's values mean: the model of play behind them, and the shapes a hint
takes (docs/coach.md).

A choice's value is the seat's expected score for the hand in the game's own points
(points in the Oh Hell family and Pluck, the team's points in Euchre, chips in Buckup)
if the seat makes that choice now, under one stated model:

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

from tricktaker.engine.actions import Action
from tricktaker.engine.state import GameState

MODEL = (
    "the unseen cards dealt at random as far as what you saw allows (weighted by how"
    " likely the others' bids and calls were), then every player, you included, playing"
    " the hand out as the bots' quick policy does"
)
"""What the coach's values assume, in a sentence a player reads beside them."""


def hand_points(state: GameState, seat: int) -> int:
    """``seat``'s score for the hand just scored (``state.history[-1]``), in the game's
    points: a seat in a partnership scores its team's points."""
    return state.history[-1].hand_scores[seat]


@dataclass(frozen=True, slots=True)
class ChoiceValue:
    """One legal choice and what it is worth under the model."""

    action: Action
    mean: float
    """The seat's expected score for the hand, in the game's points."""
    stderr: float
    """The standard error of :attr:`mean` (0 for an exact value)."""
    make_chance: float | None
    """The chance of making the seat's bid (its contract, where a game has one), after
    this choice; None where the seat has no bid to make."""
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
