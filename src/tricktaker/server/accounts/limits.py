"""The limits on guessing passwords: failed log-ins per user name and per address, and
sign-ups per address (docs/accounts.md, Limits; docs/deploy.md, Limits).

Each failed log-in is a row of ``account_failures`` (migration 0015), once under its
name's key and once under its address, kept for its window: a log-in is refused (429,
with ``Retry-After``) while the name or the address has as many failures in the last
window as its limit allows, before the password is checked, and whether or not the name
has a user, so the refusal says nothing of which names exist. A right password counts
nothing. A wrong current password given to change the password or delete the account
counts as a failed log-in of that account's name. Sign-ups are counted per address the
same way.

The rows are in the database, so every server process on it counts the same tries (an
attacker gains nothing by spreading them over the processes behind a proxy), and a
restart forgets nothing. A key is stored as the SHA-256 of its kind and value, never in
clear; rows older than the longest window are removed as new ones come.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import DateTime, Index, Integer, String, delete, select
from sqlalchemy.orm import Mapped, Session, mapped_column, sessionmaker

from tricktaker.server.accounts.store import aware
from tricktaker.server.db import Base, hash_token, now
from tricktaker.server.errors import RefusedError

Factory = sessionmaker[Session]


class TooManyTriesError(RefusedError):
    """Too many failed log-ins (or sign-ups) just now: try again in ``retry_after``
    seconds (HTTP 429 with ``Retry-After``)."""

    def __init__(self, what: str, retry_after: int) -> None:
        super().__init__("too-many-tries", f"Too many {what}: try again in {retry_after} s.")
        self.retry_after = retry_after


class AccountFailureRow(Base):
    """A failed log-in (or a sign-up) counted against one key: ``kind`` (``name``,
    ``address`` or ``signup``) and the SHA-256 of the kind and the key."""

    __tablename__ = "account_failures"
    __table_args__ = (
        Index("ix_account_failures_kind_key", "kind", "key_hash", "created_at"),
        Index("ix_account_failures_created_at", "created_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(16))
    key_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True, slots=True)
class Window:
    """At most ``tries`` counted in any ``seconds`` (a sliding window)."""

    tries: int
    seconds: float

    @property
    def length(self) -> timedelta:
        """The window as a duration."""
        return timedelta(seconds=self.seconds)


def _key_hash(kind: str, key: str) -> str:
    return hash_token(f"{kind}:{key}")


def wait_of(factory: Factory, kind: str, key: str, window: Window, at: datetime) -> int:
    """Whole seconds until ``key`` may try again under ``window`` (0: it may now): the
    time until the oldest of its last ``tries`` failures leaves the window."""
    with factory() as session:
        stamps = session.scalars(
            select(AccountFailureRow.created_at)
            .where(
                AccountFailureRow.kind == kind,
                AccountFailureRow.key_hash == _key_hash(kind, key),
                AccountFailureRow.created_at > at - window.length,
            )
            .order_by(AccountFailureRow.created_at.desc())
            .limit(window.tries)
        ).all()
    if len(stamps) < window.tries:
        return 0
    left = (aware(stamps[-1]) + window.length - at).total_seconds()
    return max(1, math.ceil(left))


def count(factory: Factory, keys: list[tuple[str, str]], at: datetime, keep: timedelta) -> None:
    """Count one try against each ``(kind, key)``, and remove every row older than
    ``keep`` (the longest window)."""
    with factory() as session, session.begin():
        session.execute(delete(AccountFailureRow).where(AccountFailureRow.created_at <= at - keep))
        for kind, key in keys:
            session.add(AccountFailureRow(kind=kind, key_hash=_key_hash(kind, key), created_at=at))


@dataclass(frozen=True, slots=True)
class AccountLimits:
    """The limits of the account routes, counted in the database (None in their place:
    none, for benchmarks). Each method takes the database's session factory first (run
    it through :meth:`~tricktaker.server.deps.Database.run`)."""

    per_name: Window = Window(5, 300.0)
    """Failed log-ins per user name: 5 in any 5 minutes."""
    per_address: Window = Window(20, 120.0)
    """Failed log-ins per address: 20 in any 2 minutes."""
    signups: Window = Window(5, 3600.0)
    """Sign-ups per address: 5 in any hour."""
    clock: Callable[[], datetime] = field(default=now, compare=False)
    """The time now (UTC)."""

    @classmethod
    def default(cls) -> AccountLimits:
        """The server's limits."""
        return cls()

    @property
    def _keep(self) -> timedelta:
        return max(self.per_name.length, self.per_address.length, self.signups.length)

    def check_login(self, factory: Factory, name_key: str, address: str) -> None:
        """Refuse a log-in (or a check of the password) while its name or address has no
        tries left."""
        at = self.clock()
        wait = max(
            wait_of(factory, "name", name_key, self.per_name, at),
            wait_of(factory, "address", address, self.per_address, at),
        )
        if wait:
            raise TooManyTriesError("failed log-ins", wait)

    def failed_login(self, factory: Factory, name_key: str, address: str) -> None:
        """Count a failed log-in against its name and address."""
        count(factory, [("name", name_key), ("address", address)], self.clock(), self._keep)

    def check_signup(self, factory: Factory, address: str) -> None:
        """Refuse a sign-up while the address has made too many; count this one."""
        at = self.clock()
        wait = wait_of(factory, "signup", address, self.signups, at)
        if wait:
            raise TooManyTriesError("new accounts from this address", wait)
        count(factory, [("signup", address)], at, self._keep)
