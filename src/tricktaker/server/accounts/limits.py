"""The limits on guessing passwords: failed log-ins per user name and per address, and
sign-ups per address (docs/protocol.md, Accounts; docs/deploy.md, Limits).

Each key (a name's lower case, an address) has a bucket of tries that fills again at a
steady rate; a failed log-in takes one from both its name's bucket and its address's,
and a log-in is refused (429, with ``Retry-After``) while either is empty, before the
password is checked, whether or not the name has a user: so the refusal says nothing
of which names exist. A right password takes nothing. The buckets are kept in the
server process's memory (forgotten at a restart, each process its own).
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

from tricktaker.server.errors import RefusedError


class TooManyTriesError(RefusedError):
    """Too many failed log-ins (or sign-ups) just now: try again in ``retry_after``
    seconds (HTTP 429 with ``Retry-After``)."""

    def __init__(self, what: str, retry_after: int) -> None:
        super().__init__("too-many-tries", f"Too many {what}: try again in {retry_after} s.")
        self.retry_after = retry_after


@dataclass(slots=True)
class _Bucket:
    tries: float
    stamp: float


class TriesLimit:
    """Per key, ``burst`` tries at once, then one every ``every`` seconds; forgotten all
    together past ``keys_kept`` keys (a full bucket is the same as a forgotten one)."""

    def __init__(self, burst: int, every: float, keys_kept: int = 100_000) -> None:
        self.burst = burst
        self.every = every
        self.keys_kept = keys_kept
        self._buckets: dict[str, _Bucket] = {}
        self._lock = threading.Lock()

    def _filled(self, key: str, now: float) -> _Bucket | None:
        bucket = self._buckets.get(key)
        if bucket is not None:
            bucket.tries = min(self.burst, bucket.tries + (now - bucket.stamp) / self.every)
            bucket.stamp = now
            if bucket.tries >= self.burst:
                del self._buckets[key]
                return None
        return bucket

    def wait(self, key: str, now: float) -> int:
        """Whole seconds until ``key`` may try again (0: it may now)."""
        with self._lock:
            bucket = self._filled(key, now)
            if bucket is None or bucket.tries >= 1.0:
                return 0
            return max(1, math.ceil((1.0 - bucket.tries) * self.every))

    def spend(self, key: str, now: float) -> None:
        """Take one try from ``key``'s bucket."""
        with self._lock:
            bucket = self._filled(key, now)
            if bucket is None:
                if len(self._buckets) >= self.keys_kept:
                    self._buckets.clear()
                bucket = self._buckets[key] = _Bucket(float(self.burst), now)
            bucket.tries = max(0.0, bucket.tries - 1.0)


@dataclass(frozen=True, slots=True)
class AccountLimits:
    """The limits of the account routes (None: none, for benchmarks)."""

    per_name: TriesLimit
    """Failed log-ins per user name: 5 at once, then one a minute."""
    per_address: TriesLimit
    """Failed log-ins per address: 20 at once, then one every 6 seconds."""
    signups: TriesLimit
    """Sign-ups per address: 5 at once, then one every 10 minutes."""

    @classmethod
    def default(cls) -> AccountLimits:
        """The server's limits."""
        return cls(TriesLimit(5, 60.0), TriesLimit(20, 6.0), TriesLimit(5, 600.0))

    def check_login(self, name_key: str, address: str, now: float) -> None:
        """Refuse a log-in while its name or address has no tries left."""
        wait = max(self.per_name.wait(name_key, now), self.per_address.wait(address, now))
        if wait:
            raise TooManyTriesError("failed log-ins", wait)

    def failed_login(self, name_key: str, address: str, now: float) -> None:
        """Count a failed log-in against its name and address."""
        self.per_name.spend(name_key, now)
        self.per_address.spend(address, now)

    def check_signup(self, address: str, now: float) -> None:
        """Refuse a sign-up while the address has made too many; count this one."""
        wait = self.signups.wait(address, now)
        if wait:
            raise TooManyTriesError("new accounts from this address", wait)
        self.signups.spend(address, now)
