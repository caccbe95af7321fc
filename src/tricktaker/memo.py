"""One bounded memo for values derived from inputs that do not change.

A :class:`Memo` keeps at most ``maxsize`` values, dropping the least recently used. The
caller builds the key from exactly what the computation reads, in the same place, so
the key cannot drift from the inputs:

>>> squares = Memo[int, int](maxsize=2)
>>> squares.get(3, lambda: 3 * 3)
9
>>> squares.get(3, lambda: -1)  # computed once: the second function is not called
9
>>> len(squares), 3 in squares
(1, True)

A value derived from a live object (a loaded ruleset, a state) can be tied to it with
``owner``: the object is held weakly and compared by identity, never by an ``id()``
that a later object could reuse, and its entries go when it does. The key then holds
only the other inputs:

>>> class Rules:
...     pass
>>> encodings = Memo[int, str](maxsize=8)
>>> rules, other = Rules(), Rules()
>>> encodings.get(4, lambda: "four seats", owner=rules)
'four seats'
>>> encodings.get(4, lambda: "again", owner=rules), encodings.get(4, lambda: "b", owner=other)
('four seats', 'b')
>>> del rules
>>> len(encodings)  # the first rules are gone, and their value with them
1

This module is the bottom layer: it imports nothing of the package, so every layer may
use it. Values must not be mutated by their readers (they are shared).
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["Memo"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(Generic[K, V]):
    """At most ``maxsize`` values by key, least recently used dropped first.

    Safe to share between threads: a value may be computed twice by two threads that
    ask at once (the first stored wins), never stored half made. A value that refers to
    its owner keeps the owner alive until the value is dropped as least recently used.
    """

    def __init__(self, maxsize: int) -> None:
        if maxsize < 1:
            raise ValueError(f"a memo keeps at least 1 value, not {maxsize}")
        self.maxsize = maxsize
        self._values: OrderedDict[tuple[int, K], V] = OrderedDict()
        self._owners: dict[int, tuple[weakref.ref[object], int]] = {}
        """Live owners by ``id()``: a weak reference and how many values they have."""
        self._collected: list[int] = []
        """Owners found dead by the garbage collector, dropped at the next call (the
        collector may run in the middle of any call, so its callback only appends)."""
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: K, compute: Callable[[], V], *, owner: object = None) -> V:
        """The value for ``key`` (of ``owner``, when given), computed by ``compute()`` the
        first time and kept until it is the least recently used beyond ``maxsize`` (or
        ``owner`` is collected)."""
        with self._lock:
            slot = self._find(key, owner)
            if slot is not None and slot in self._values:
                self._values.move_to_end(slot)
                self.hits += 1
                return self._values[slot]
            self.misses += 1
        value = compute()
        with self._lock:
            slot = self._find(key, owner)
            if slot is not None and slot in self._values:  # another thread stored it
                self._values.move_to_end(slot)
                return self._values[slot]
            slot = self._add(key, owner)
            self._values[slot] = value
            while len(self._values) > self.maxsize:
                dropped, _ = self._values.popitem(last=False)
                self._release(dropped[0])
        return value

    def peek(self, key: K, *, owner: object = None) -> V | None:
        """The value kept for ``key`` (of ``owner``, when given), or None; nothing is
        computed."""
        with self._lock:
            slot = self._find(key, owner)
            if slot is None or slot not in self._values:
                return None
            self._values.move_to_end(slot)
            return self._values[slot]

    def put(self, key: K, value: V, *, owner: object = None) -> None:
        """Keep ``value`` for ``key`` (of ``owner``, when given), replacing what was kept:
        for a value that is revised as more is learnt."""
        with self._lock:
            slot = self._find(key, owner)
            if slot is None or slot not in self._values:
                slot = self._add(key, owner)
            self._values[slot] = value
            self._values.move_to_end(slot)
            while len(self._values) > self.maxsize:
                dropped, _ = self._values.popitem(last=False)
                self._release(dropped[0])

    def contains(self, key: K, *, owner: object = None) -> bool:
        """Whether a value is kept for ``key`` (of ``owner``, when given)."""
        with self._lock:
            slot = self._find(key, owner)
            return slot is not None and slot in self._values

    def __contains__(self, key: object) -> bool:
        """Whether a value is kept for ``key`` without an owner."""
        with self._lock:
            self._purge()
            return (0, key) in self._values

    def __len__(self) -> int:
        with self._lock:
            self._purge()
            return len(self._values)

    def clear(self) -> None:
        """Forget every value."""
        with self._lock:
            self._values.clear()
            self._owners.clear()
            self._collected.clear()

    # The methods below run with the lock held.

    def _find(self, key: K, owner: object) -> tuple[int, K] | None:
        """The internal key, ``(0, key)`` without an owner and ``(id(owner), key)`` for
        a live owner that has values (None when it has none)."""
        self._purge()
        if owner is None:
            return (0, key)
        entry = self._owners.get(id(owner))
        if entry is None or entry[0]() is not owner:
            return None
        return (id(owner), key)

    def _add(self, key: K, owner: object) -> tuple[int, K]:
        """The internal key of a value about to be stored (its owner counted)."""
        if owner is None:
            return (0, key)
        ident = id(owner)
        entry = self._owners.get(ident)
        if entry is not None and entry[0]() is not owner:  # a dead owner's id, reused
            self._forget(ident)
            entry = None
        if entry is None:
            collected = self._collected
            entry = (weakref.ref(owner, lambda _: collected.append(ident)), 0)
        self._owners[ident] = (entry[0], entry[1] + 1)
        return (ident, key)

    def _release(self, ident: int) -> None:
        """One value of ``ident`` dropped: an owner with none left is no longer held."""
        if ident == 0:
            return
        ref, count = self._owners[ident]
        if count > 1:
            self._owners[ident] = (ref, count - 1)
        else:
            del self._owners[ident]

    def _purge(self) -> None:
        while self._collected:
            ident = self._collected.pop()
            entry = self._owners.get(ident)
            if entry is not None and entry[0]() is None:
                self._forget(ident)

    def _forget(self, ident: int) -> None:
        """Drop an owner and its values."""
        self._owners.pop(ident, None)
        for slot in [s for s in self._values if s[0] == ident]:
            del self._values[slot]
