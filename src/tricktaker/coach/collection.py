"""Fewer collections of Python's cyclic garbage collector while the coach samples.

A hint clones and plays out thousands of engine states, each step a few small objects
freed at once by reference counting; with the collector's default threshold (a young
collection every 700 new container objects) it stops to scan the states in flight about
once a deal, 2 to 7% of a staged hint's time on the 2-core machine (more in the morning's
profile) that no garbage comes of. :func:`fewer_collections` raises the young threshold
for as long as any hint in the process samples and restores the process's own setting
when the last one ends (the cyclic garbage left meanwhile is collected then as always):
never a process-wide change beyond the hint.
"""

from __future__ import annotations

import gc
import threading
from contextlib import ContextDecorator
from types import TracebackType

__all__ = ["YOUNG_THRESHOLD", "fewer_collections"]

YOUNG_THRESHOLD = 10_000
"""The young generation's threshold while a hint samples (the default is 700)."""


class _Collections(ContextDecorator):
    """The threshold raised while any user is inside (counted across threads) and the
    saved one restored when the last leaves."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._inside = 0
        self._saved: tuple[int, int, int] | None = None
        self._set: tuple[int, int, int] | None = None

    def __enter__(self) -> _Collections:
        with self._lock:
            if self._inside == 0:
                saved = gc.get_threshold()
                self._saved, self._set = saved, None
                young, middle, old = saved
                if 0 < young < YOUNG_THRESHOLD:  # 0: the process turned collection off
                    self._set = (YOUNG_THRESHOLD, middle, old)
                    gc.set_threshold(*self._set)
            self._inside += 1
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        with self._lock:
            self._inside -= 1
            if self._inside == 0:
                # Restored only where nobody changed it meanwhile (theirs is kept).
                saved, set_ = self._saved, self._set
                if saved is not None and set_ is not None and gc.get_threshold() == set_:
                    gc.set_threshold(*saved)
                self._saved = self._set = None


_COLLECTIONS = _Collections()


def fewer_collections() -> _Collections:
    """A context manager (and decorator) under which the collector's young threshold is
    :data:`YOUNG_THRESHOLD` (where the process's is lower and not 0), restored as it was
    when the last of the process's hints leaves it."""
    return _COLLECTIONS
