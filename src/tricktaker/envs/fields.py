"""What the research encoding asks of a game: its own fields, actions and phases.

A game written with hooks declares the capability ``"encoding"`` (see
:attr:`tricktaker.engine.hooks.GameHooks.capabilities`): an object following
:class:`GameEncoding`, e.g. ``"encoding": "tricktaker.games.pluck.encoding:ENCODING"``.
:class:`~tricktaker.envs.encoding.Encoding` lays out the fields every game shares (seats,
phase, cards, tricks, scores), then asks the game for the rest: the names, sizes and
meanings of its fields (:meth:`GameEncoding.add_fields`), its action kinds
(:meth:`GameEncoding.add_actions`) and, for each observation, their values
(:meth:`GameEncoding.encode`, through a :class:`FieldWriter`). A ruleset without hooks
(the Oh Hell family) has no game fields. The engine's bids (the fields ``bids``,
``bid_known``, ``bid_made`` and the actions ``bid N``) are encoded for every game that
keeps them (:func:`tricktaker.engine.hooks.keeps_engine_bids`).

This module imports no numpy: a game's encoding module imports these protocols only for
type checking, and writes its values through the writer without knowing the vector.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from tricktaker.engine.observation import Observation
    from tricktaker.engine.setup import Setup

__all__ = ["ActionSpace", "FieldLayout", "FieldWriter", "GameEncoding"]


class FieldLayout(Protocol):
    """Where a game adds its fields, in order, after the shared ones."""

    @property
    def players(self) -> int:
        """The player count the encoding is built for."""
        ...

    def add(self, name: str, size: int, meaning: str, low: float = 0.0, high: float = 1.0) -> None:
        """Add the field ``name`` of ``size`` numbers, each between ``low`` and ``high``;
        ``meaning`` is its line in docs/envs.md."""
        ...


class ActionSpace(Protocol):
    """Where a game adds its kinds of action, in order, after the engine's."""

    def add(self, kind: str, values: Sequence[int | str], meaning: str) -> None:
        """Add one index per value of ``kind`` (one index when ``values`` is empty: an
        action without a value, such as ``pass``)."""
        ...


class FieldWriter(Protocol):
    """How a game writes its fields' values for one observation (all start at 0).

    ``index`` is the position inside the field; seats are written relative to the
    observing seat (:meth:`relative`), as every per-seat field of the encoding.
    """

    @property
    def players(self) -> int:
        """The player count."""
        ...

    @property
    def seat(self) -> int:
        """The observing seat."""
        ...

    def relative(self, seat: int) -> int:
        """``seat`` seen from the observing seat: 0 is itself, 1 the player to its left."""
        ...

    def set(self, field: str, index: int = 0, value: float = 1.0) -> None:
        """Write ``value`` at ``index`` of ``field``."""
        ...

    def add(self, field: str, index: int = 0, value: float = 1.0) -> None:
        """Add ``value`` to what ``index`` of ``field`` holds (counts)."""
        ...

    def set_cards(self, field: str, cards: int, block: int = 0) -> None:
        """Write 1 at each card id of the bitset ``cards`` in the ``block``-th run of 54
        slots of ``field`` (a per-seat card field has one run per relative seat)."""
        ...

    def card(self, text: str) -> int:
        """The card id of ``text`` (``"AS"``, ``"10H"``, a joker's label in the ruleset)."""
        ...


@runtime_checkable
class GameEncoding(Protocol):
    """A game's part of the research encoding (its ``"encoding"`` capability).

    The layout must be the same for every state of the game at a player count: the
    fields and actions may depend on the setup, never on the cards.
    """

    @property
    def phases(self) -> tuple[str, ...]:
        """The game's own phase names, in the order the field ``phase`` lists them after
        the engine's (names the engine already has are not repeated)."""
        ...

    def add_fields(self, layout: FieldLayout, setup: Setup) -> None:
        """Add the game's fields, in order."""
        ...

    def add_actions(self, actions: ActionSpace, setup: Setup) -> None:
        """Add the game's own kinds of action, in order."""
        ...

    def encode(self, observation: Observation, out: FieldWriter) -> None:
        """Write the game's fields for ``observation``, from what it shows the seat only."""
        ...
