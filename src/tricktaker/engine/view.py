"""A game's own part of an observation, typed: :class:`GameView`.

The engine's :class:`~tricktaker.engine.observation.Observation` holds what every
trick-taking game shares (hands, bids, tricks, scores). What a game adds (Pluck's plucks,
Euchre's auction and kitty, Buckup's pot and stacks) is the game's *view*: an object its
hooks make for one seat (:meth:`GameHooks.view <tricktaker.engine.hooks.GameHooks.view>`),
usually a frozen dataclass of card ids, seats and counts, so that bots and the layers
above read it with types instead of parsing card strings back.

A view becomes JSON only at the wire and in records: ``observation.extra`` is
``view.to_json()``.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

__all__ = ["GameView"]


@runtime_checkable
class GameView(Protocol):
    """What a game's hooks give for one seat's observation (see :mod:`tricktaker.engine.view`).

    A view must be immutable and compare by value (a frozen dataclass does both), since
    observations are compared and shared.
    """

    def to_json(self) -> dict[str, Any]:
        """The view as plain JSON data (``observation.extra``): cards as their text
        (``"AS"``, ``"10H"``), seats and counts as numbers."""
        ...
