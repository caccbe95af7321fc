"""The refusals of the server's services, as domain exceptions: what was refused and
why, in words for the person, with no knowledge of HTTP.

Each refusal is of one kind (:class:`NotFoundError`, :class:`NotSignedInError`,
:class:`NotAllowedError`, :class:`NotPossibleNowError`, :class:`InvalidRequestError`,
:class:`DamagedError`) and carries a short ``code`` (``table-full``), the ``detail`` and,
for a request's field at fault, the ``field``. One handler
(:func:`tricktaker.server.problems.problem_of`) turns a refusal into an HTTP status and
an RFC 9457 problem body; the live-play socket turns it into an ``error`` message.
"""

from __future__ import annotations

from typing import Any


class RefusedError(Exception):
    """A request the server refuses, with a message for the person."""

    def __init__(self, code: str, detail: str, *, field: str | None = None) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
        self.field = field

    def extra(self) -> dict[str, Any]:
        """More members of the refusal's problem body (none but for some refusals)."""
        return {}


# ------------------------------------------------------------ the kinds


class NotFoundError(RefusedError):
    """What the request names does not exist."""


class NotSignedInError(RefusedError):
    """The request holds no valid token for what it asks."""


class NotAllowedError(RefusedError):
    """The request's token does not allow what it asks."""


class NotPossibleNowError(RefusedError):
    """What the request asks is not possible in the state things are in."""


class InvalidRequestError(RefusedError):
    """The request is not valid (its ``field`` at fault, when one is)."""


class DamagedError(RefusedError):
    """Stored data cannot be read."""


class UnavailableError(RefusedError):
    """The database cannot be reached or written just now (it is stopped or restarting,
    or its disk is full): nothing was changed, and the same request (the same action id)
    may be sent again in a few seconds (``retry_after``)."""

    retry_after = 5
    """Seconds after which to try again (HTTP: the ``Retry-After`` header)."""

    def __init__(self, reason: str) -> None:
        super().__init__(
            "unavailable",
            f"The server cannot store anything just now ({reason}); nothing was changed:"
            f" try again in {self.retry_after} seconds.",
        )


# ------------------------------------------------------------ tables


class TableNotFoundError(NotFoundError):
    """There is no table of that id."""

    def __init__(self, table_id: str) -> None:
        super().__init__("no-such-table", f"There is no table {table_id!r}.")


class SeatNotFoundError(NotFoundError):
    """The table has no seat of that number."""

    def __init__(self, seat: int) -> None:
        super().__init__("no-such-seat", f"There is no seat {seat} at this table.")


class GameNotFoundError(NotFoundError):
    """The table has played no game of that number."""

    def __init__(self, number: int) -> None:
        super().__init__("no-such-game", f"This table has played no game {number}.")


class BadSeatTokenError(NotSignedInError):
    """The token is no seat's token at this table."""

    def __init__(self) -> None:
        super().__init__("bad-token", "That seat token is not valid at this table.")


class NotHostError(NotAllowedError):
    """Only the table's host may do that."""

    def __init__(self) -> None:
        super().__init__("not-host", "Only the table's host may do that.")


class TableFinishedError(NotPossibleNowError):
    """The game at the table is over."""

    def __init__(self) -> None:
        super().__init__("table-finished", "The game at this table is over.")


class SeatTakenError(NotPossibleNowError):
    """The seat asked for is not free."""

    def __init__(self, seat: int) -> None:
        super().__init__("seat-taken", f"Seat {seat} is not a free seat.")


class TableFullError(NotPossibleNowError):
    """Every seat of the table is taken."""

    def __init__(self) -> None:
        super().__init__("table-full", "Every seat at this table is taken.")


class TableElsewhereError(UnavailableError):
    """Another server process holds the table and did not let it go in time (it is
    busy, or the proxy routes the table to both): try again in a moment."""

    retry_after = 1

    def __init__(self) -> None:
        RefusedError.__init__(
            self,
            "unavailable",
            "Another server process serves this table just now; nothing was changed:"
            f" try again in {self.retry_after} second.",
        )


class TableMovedOnError(NotPossibleNowError):
    """Another server process wrote to the table."""

    def __init__(self) -> None:
        super().__init__("stale-table", "Another server wrote to this table; reconnect.")


# ------------------------------------------------------------ sheets


class SheetNotFoundError(NotFoundError):
    """There is no sheet of that id (None: the id cannot be one)."""

    def __init__(self, sheet_id: str | None = None) -> None:
        if sheet_id is None:
            super().__init__("no-sheet", "There is no such sheet.")
        else:
            super().__init__("no-sheet", f"There is no sheet {sheet_id!r}.")


class ReadOnlyError(NotAllowedError):
    """The sheet's view key only reads."""

    def __init__(self) -> None:
        super().__init__("read-only", "The view key cannot change the sheet.")


class EntryRefusedError(InvalidRequestError):
    """An entry the rules refuse, naming the ``rule``."""

    def __init__(self, reason: str, rule: str) -> None:
        super().__init__("entry-refused", reason)
        self.rule = rule

    def extra(self) -> dict[str, Any]:
        """The rule."""
        return {"rule": self.rule}


class EntryAfterEndError(NotPossibleNowError):
    """An entry the rules refuse because the game is over, naming the ``rule``."""

    def __init__(self, reason: str, rule: str) -> None:
        super().__init__("entry-refused", reason)
        self.rule = rule

    def extra(self) -> dict[str, Any]:
        """The rule."""
        return {"rule": self.rule}
