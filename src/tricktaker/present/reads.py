"""A memo of a part built from an observation, keyed on exactly what building it read.

The part is built from a stand-in for the observation that notes each field it reads
(and the game's ``present`` capability reads through the same stand-in), so the key is
made by the code that reads the inputs and cannot leave one out: when a later
observation holds the same values in those fields, and the other arguments are the
same, the part built before is given again.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar, cast

from tricktaker.engine import Observation

T = TypeVar("T")


class ReadingObservation:
    """An observation that notes each field (or property) read from it, with the value
    read: :attr:`read`, in the order first read."""

    __slots__ = ("_observation", "read")

    def __init__(self, observation: Observation) -> None:
        self._observation = observation
        self.read: dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._observation, name)
        self.read.setdefault(name, value)
        return value


def _same(old: Any, new: Any) -> bool:
    return old is new or bool(old == new)


class ReadsMemo(Generic[T]):
    """The last part ``build(observation, *arguments)`` made, given again while the
    fields it read hold the same values and the arguments are equal. The part is
    shared, not copied: a caller must not change it."""

    __slots__ = ("_arguments", "_build", "_read", "_value")

    def __init__(self, build: Callable[..., T]) -> None:
        self._build = build
        self._read: tuple[tuple[str, Any], ...] | None = None
        self._arguments: tuple[Hashable, ...] = ()
        self._value: T | None = None

    def read_fields(self) -> tuple[str, ...]:
        """The fields the last part read (what the memo is keyed on)."""
        return tuple(name for name, _ in self._read or ())

    def get(self, observation: Observation, *arguments: Hashable) -> T:
        """The part for ``observation`` and ``arguments``, built again only when a field
        it read or an argument differs."""
        read = self._read
        if (
            read is not None
            and self._arguments == arguments
            and all(_same(value, getattr(observation, name)) for name, value in read)
        ):
            return cast(T, self._value)
        reading = ReadingObservation(observation)
        value = self._build(cast(Observation, reading), *arguments)
        self._read = tuple(reading.read.items())
        self._arguments = arguments
        self._value = value
        return value
