"""The server's bounds on what one client, socket or table may hold of its memory
(docs/deploy.md, Limits): how long a table no one uses stays in memory, how many
messages wait for a socket that does not read, and how many sockets one address may
hold open. Each has a default and an environment variable that changes it."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

IDLE_SECONDS = 300.0
"""How long a table that is not being played (waiting for its start, or finished) and
that no socket watches stays in memory after it was last asked for; it is rebuilt from
the database when asked for again."""

SEND_BACKLOG = 1000
"""Messages queued for one socket, unsent because its client does not read, before the
server cuts it off (close code :data:`SLOW_READER_CODE`)."""

SOCKETS_PER_ADDRESS = 64
"""Live-play sockets one client address may hold open at once; the next is closed at
once (close code :data:`TOO_MANY_SOCKETS_CODE`)."""

SLOW_READER_CODE = 1008
"""The close code of a socket cut off for not reading (policy violation)."""

TOO_MANY_SOCKETS_CODE = 1008
"""The close code of a socket refused because its address holds too many."""

_ENVIRONMENT = {
    "idle_seconds": "TRICKTAKER_IDLE_SECONDS",
    "send_backlog": "TRICKTAKER_SEND_BACKLOG",
    "sockets_per_address": "TRICKTAKER_SOCKETS_PER_ADDRESS",
}
"""The environment variable that sets each bound."""


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """The server's bounds (see the module's constants for each)."""

    idle_seconds: float = IDLE_SECONDS
    send_backlog: int = SEND_BACKLOG
    sockets_per_address: int | None = SOCKETS_PER_ADDRESS
    """None: no limit (``tricktaker serve --no-rate-limits``, for load benchmarks)."""

    @classmethod
    def from_environment(cls, environment: Mapping[str, str] | None = None) -> ServerLimits:
        """The defaults, with those that ``TRICKTAKER_IDLE_SECONDS``,
        ``TRICKTAKER_SEND_BACKLOG`` and ``TRICKTAKER_SOCKETS_PER_ADDRESS`` set
        (``environment``: the process's environment by default)."""
        values = os.environ if environment is None else environment
        idle = values.get(_ENVIRONMENT["idle_seconds"])
        backlog = values.get(_ENVIRONMENT["send_backlog"])
        sockets = values.get(_ENVIRONMENT["sockets_per_address"])
        limits = cls(
            idle_seconds=float(idle) if idle else IDLE_SECONDS,
            send_backlog=int(backlog) if backlog else SEND_BACKLOG,
            sockets_per_address=int(sockets) if sockets else SOCKETS_PER_ADDRESS,
        )
        if limits.idle_seconds <= 0 or limits.send_backlog < 1:
            raise ValueError(
                f"{_ENVIRONMENT['idle_seconds']} and {_ENVIRONMENT['send_backlog']}"
                " must be positive"
            )
        if limits.sockets_per_address is not None and limits.sockets_per_address < 1:
            raise ValueError(f"{_ENVIRONMENT['sockets_per_address']} must be positive")
        return limits


class AddressSockets:
    """How many live-play sockets each client address holds open, at most ``limit``
    each (None: no limit). An address is forgotten when its last socket closes, so the
    map holds no more keys than there are open sockets."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.open: dict[str, int] = {}

    def enter(self, address: str) -> bool:
        """Count a new socket of ``address`` (False: it holds its limit already, and the
        socket is not counted)."""
        held = self.open.get(address, 0)
        if self.limit is not None and held >= self.limit:
            return False
        self.open[address] = held + 1
        return True

    def leave(self, address: str) -> None:
        """A socket of ``address`` that :meth:`enter` counted has closed."""
        held = self.open.get(address, 0) - 1
        if held > 0:
            self.open[address] = held
        else:
            self.open.pop(address, None)

    def refusal(self) -> str:
        """The close reason of a socket refused by :meth:`enter`."""
        return f"too many sockets from one address (at most {self.limit})"
