"""What the shipped games' hooks classes each declared alike: the capabilities their
own package defines, and the game's own data on the state.

A shipped game defines most of its capabilities in a module of its package named for
the capability, as an attribute of the capability's name in capitals (Euchre's
``search`` is ``tricktaker.games.euchre.search:SEARCH``); :func:`package_capabilities`
writes those paths.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from tricktaker.engine.state import GameState

__all__ = ["OWN_CAPABILITIES", "own_data", "package_capabilities"]

DataT = TypeVar("DataT")

OWN_CAPABILITIES = ("search", "policy", "encoding", "stats", "scorekeeper", "present")
"""The capabilities that Pluck, Euchre and Buckup each define in their own package."""


def package_capabilities(package: str, names: Sequence[str] = OWN_CAPABILITIES) -> dict[str, str]:
    """Each capability of ``names`` as the ``"module:attribute"`` path of its module in
    ``package``, named for it, and its attribute, its name in capitals.

    >>> package_capabilities("tricktaker.games.euchre", ("search", "present"))["present"]
    'tricktaker.games.euchre.present:PRESENT'
    """
    return {name: f"{package}.{name}:{name.upper()}" for name in names}


def own_data(state: GameState, kind: type[DataT]) -> DataT:
    """The game's own data kept in ``state.ext``, which the game's ``init_game`` made
    of ``kind``."""
    data = state.ext
    assert isinstance(data, kind)
    return data
