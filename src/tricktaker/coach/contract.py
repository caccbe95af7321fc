"""Whether a seat made its bid (its contract, its quota) in a finished hand: what the
coach's "chance of making it" counts.

A game says what making it means through the ``"coach"`` capability of its hooks
(:attr:`tricktaker.engine.hooks.GameHooks.capabilities`, e.g.
``"coach": "mygame.coach:COACH"``): an object following :class:`CoachFacts`. A game
that declares none (the Oh Hell family, a ruleset without hooks) makes a bid by taking
exactly that many tricks, when the hand's result has a bid for every seat; otherwise a
seat has nothing to make (Buckup's pots, for example).

In a cooperative ruleset (Cooperative Blackout) it is still the seat's own bid: there
the value itself is the team's success (:func:`tricktaker.coach.model.hand_points`, the
chance that every seat is exact), and the seat's own chance beside it shows how much of
the risk is its own bid's and how much the others'.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast, runtime_checkable

from tricktaker.engine.hooks import capability

if TYPE_CHECKING:
    from tricktaker.engine.results import HandResult
    from tricktaker.rules.ruleset import Ruleset

__all__ = ["COACH_CAPABILITY", "CoachFacts", "made_bid", "taken_exactly"]

COACH_CAPABILITY = "coach"
"""The capability name under which a game's hooks declare their :class:`CoachFacts`."""


@runtime_checkable
class CoachFacts(Protocol):
    """What the coach asks of a game (its ``"coach"`` capability)."""

    def made(
        self, result: HandResult, seat: int, partnerships: tuple[tuple[int, ...], ...]
    ) -> bool | None:
        """Whether ``seat`` made its bid (contract, quota) in the finished hand
        ``result`` (``partnerships``: the teams of seats that score together, empty when
        everyone plays alone); None when the seat had nothing to make in it (a
        defender, a hand thrown in)."""
        ...


def taken_exactly(result: HandResult, seat: int) -> bool | None:
    """The Oh Hell family's notion: ``seat`` took exactly the tricks it bid (None when
    the hand has no bid for every seat).

    >>> from tricktaker.engine.results import HandResult
    >>> hand = HandResult(1, 2, 0, None, None, ((), ()), (1, 0), (), (2, 0), (), (0, 0), (0, 0))
    >>> taken_exactly(hand, 0), taken_exactly(hand, 1)
    (False, True)
    """
    if len(result.bids) != len(result.tricks):
        return None
    return result.tricks[seat] == result.bids[seat]


def made_bid(
    rules: Ruleset,
    result: HandResult,
    seat: int,
    partnerships: tuple[tuple[int, ...], ...] = (),
) -> bool | None:
    """Whether ``seat`` made its bid in the finished hand ``result`` of a game played by
    ``rules`` (``partnerships``: the game's teams, ``state.setup.partnerships``): the
    game's own notion (its ``"coach"`` capability), else :func:`taken_exactly`."""
    facts = capability(rules.hooks, COACH_CAPABILITY)
    if facts is None:
        return taken_exactly(result, seat)
    if _CHECKED.get(id(facts)) is not facts:  # a protocol's isinstance is slow: once each
        if not isinstance(facts, CoachFacts):
            raise TypeError(f"{rules.id}: the game's coach facts {facts!r} are not CoachFacts")
        _CHECKED[id(facts)] = facts
    return cast(CoachFacts, facts).made(result, seat, partnerships)


_CHECKED: dict[int, object] = {}
"""The games' coach facts found to be :class:`CoachFacts`, by id (kept, so that an id is
not taken again by another object)."""
