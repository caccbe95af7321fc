"""What the shipped games each wrote alike: the capabilities their own package defines,
the game's own data on the state, the seat's view read back from an observation, and
the registration of the game's action kinds.

A shipped game defines most of its capabilities in a module of its package named for
the capability, as an attribute of the capability's name in capitals (Euchre's
``search`` is ``tricktaker.games.euchre.search:SEARCH``); :func:`package_capabilities`
writes those paths.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from tricktaker.engine.actions import register_action_kind

if TYPE_CHECKING:
    from tricktaker.engine.observation import Observation
    from tricktaker.engine.state import GameState

__all__ = [
    "OWN_CAPABILITIES",
    "action_kinds_of",
    "card_play_capabilities",
    "own_data",
    "package_capabilities",
    "register_action_kinds",
    "seat_view",
]

DataT = TypeVar("DataT")
ViewT = TypeVar("ViewT")

OWN_CAPABILITIES = ("search", "policy", "encoding", "stats", "scorekeeper", "present")
"""The capabilities that Pluck, Euchre and Buckup each define in their own package."""


def package_capabilities(package: str, names: Sequence[str] = OWN_CAPABILITIES) -> dict[str, str]:
    """Each capability of ``names`` as the ``"module:attribute"`` path of its module in
    ``package``, named for it, and its attribute, its name in capitals.

    >>> package_capabilities("tricktaker.games.euchre", ("search", "present"))["present"]
    'tricktaker.games.euchre.present:PRESENT'
    """
    return {name: f"{package}.{name}:{name.upper()}" for name in names}


def card_play_capabilities(package: str) -> dict[str, str]:
    """The capabilities of a game whose tricks the kernel plays and whose own phases it
    leaves to Python (Pluck, Euchre, Buckup): :data:`OWN_CAPABILITIES` from ``package``,
    and the kernel's card play."""
    return {**package_capabilities(package), "kernel": "tricktaker.kernel.spec:CARD_PLAY"}


def own_data(state: GameState, kind: type[DataT]) -> DataT:
    """The game's own data kept in ``state.ext``, which the game's ``init_game`` made
    of ``kind``."""
    data = state.ext
    assert isinstance(data, kind)
    return data


def seat_view(
    observation: Observation, kind: type[ViewT], read: Callable[[Mapping[str, Any]], ViewT]
) -> ViewT | None:
    """The seat's view, of the game's ``kind``; for an observation read from JSON (a
    remote seat's, which has no view), the view ``read`` back from its wire form; None
    when it has neither."""
    view = observation.view
    if isinstance(view, kind):
        return view
    if view is None and observation.extra:
        return read(observation.extra)
    return None


_REGISTERED: list[tuple[str, dict[str, str]]] = []
"""Each call of :func:`register_action_kinds`: the calling module's name and its kinds."""


def register_action_kinds(kinds: Mapping[str, str]) -> None:
    """Make each of a game's action kinds readable, with the type of its value
    (:func:`~tricktaker.engine.actions.register_action_kind`); they are kept under the
    calling module's name, for :func:`action_kinds_of`."""
    for kind, value in kinds.items():
        register_action_kind(kind, value)
    caller = sys._getframe(1).f_globals.get("__name__", "")
    _REGISTERED.append((str(caller), dict(kinds)))


def action_kinds_of(package: str) -> dict[str, str]:
    """The action kinds registered by the modules of ``package`` (a game's package, as
    ``type(hooks).__module__`` without its last part), each with its value's type
    (``card``, ``int``, ``str`` or ``none``), in the order registered; for the generated
    table of each game's action words in docs/protocol.md."""
    found: dict[str, str] = {}
    for module, kinds in _REGISTERED:
        if module == package or module.startswith(package + "."):
            found.update(kinds)
    return found
