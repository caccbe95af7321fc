"""A memo of a part built from an observation, keyed on exactly what building it read.

The part is built from a stand-in for the observation that notes each field it reads
(and the game's ``present`` capability reads through the same stand-in), so the key is
made by the code that reads the inputs and cannot leave one out: when a later
observation holds the same values in those fields, and the other arguments are the
same, the part built before is given again.

Where a part needs less than a whole field (whether the seat's hand is hidden, not the
hand itself; a game's per-seat facts, not everything the game knows), the code asks
through :func:`derived`, and the fact itself is the input noted, worked out again from
the next observation to compare.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from operator import attrgetter
from typing import Any, Generic, TypeVar, cast

from tricktaker.engine import Observation

T = TypeVar("T")
Getter = str | Callable[[Observation], Any]
"""An input of a part: a field's name, or a function of the observation."""

_OBSERVATION = "_reading_observation"
_READ = "_reading_read"


class ReadingObservation:
    """An observation that notes each field (or property) read from it, with the value
    read, and each fact asked through :func:`derived`: :meth:`inputs`, in the order
    first read. A field once read is kept on the stand-in, so reading it again costs no
    more than reading it from the observation."""

    def __init__(self, observation: Observation) -> None:
        self.__dict__[_OBSERVATION] = observation
        self.__dict__[_READ] = []

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.__dict__[_OBSERVATION], name)
        self.__dict__[name] = value
        self.__dict__[_READ].append((name, value))
        return value

    def derive(self, fact: Callable[[Observation], T]) -> T:
        """``fact`` of the observation, noted as one input."""
        value = fact(self.__dict__[_OBSERVATION])
        self.__dict__[_READ].append((fact, value))
        return value

    def inputs(self) -> tuple[tuple[Getter, Any], ...]:
        """What was read: each field's name or fact, with its value."""
        return tuple(self.__dict__[_READ])


def derived(obs: Observation, fact: Callable[[Observation], T]) -> T:
    """``fact(obs)``; while ``obs`` is read for a memo (:class:`ReadsMemo`), the fact is
    the input noted instead of the fields it reads (so a part that needs to know only
    whether the hand is hidden is not built again when the hand's cards change)."""
    if isinstance(obs, ReadingObservation):
        return obs.derive(fact)
    return fact(obs)


class ReadsMemo(Generic[T]):
    """The last part ``build(observation, *arguments)`` made, given again while the
    inputs it read hold the same values and the arguments are equal. The part is
    shared, not copied: a caller must not change it."""

    __slots__ = ("_arguments", "_build", "_facts", "_fields", "_names", "_value", "_values")

    def __init__(self, build: Callable[..., T]) -> None:
        self._build = build
        self._names: tuple[str, ...] | None = None
        self._fields: Callable[[Observation], tuple[Any, ...]] = _no_fields
        """The fields read, fetched together (one call, one tuple to compare)."""
        self._values: tuple[Any, ...] = ()
        self._facts: tuple[tuple[Callable[[Observation], Any], Any], ...] = ()
        self._arguments: tuple[Hashable, ...] = ()
        self._value: T | None = None

    def read_fields(self) -> tuple[str, ...]:
        """The fields the last part read directly (part of what the memo is keyed on)."""
        return self._names or ()

    def get(self, observation: Observation, *arguments: Hashable) -> T:
        """The part for ``observation`` and ``arguments``, built again only when an input
        it read or an argument differs."""
        if (
            self._names is not None
            and self._arguments == arguments
            and self._fields(observation) == self._values
            and all(value == fact(observation) for fact, value in self._facts)
        ):
            return cast(T, self._value)
        reading = ReadingObservation(observation)
        value = self._build(cast(Observation, reading), *arguments)
        fields = [(g, v) for g, v in reading.inputs() if isinstance(g, str)]
        self._names = tuple(name for name, _ in fields)
        self._values = tuple(v for _, v in fields)
        self._fields = _getter(self._names)
        self._facts = tuple((g, v) for g, v in reading.inputs() if not isinstance(g, str))
        self._arguments = arguments
        self._value = value
        return value


def _no_fields(observation: Observation) -> tuple[Any, ...]:
    return ()


def _getter(names: tuple[str, ...]) -> Callable[[Observation], tuple[Any, ...]]:
    """The fields ``names`` of an observation, as a tuple."""
    if not names:
        return _no_fields
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda observation: (one(observation),)
    return cast("Callable[[Observation], tuple[Any, ...]]", attrgetter(*names))
