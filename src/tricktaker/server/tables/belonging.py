"""What a stored table belongs to beyond itself, read by functions that the packages
owning it set: the deals of a duplicate set (:mod:`tricktaker.server.duplicate`) and the
club's evening it was made for (:mod:`tricktaker.server.clubs`). The table service reads
them when it loads a table; the tables' package imports neither of those packages.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from tricktaker.server.tables import messages as m
from tricktaker.server.tables.live import Live
from tricktaker.server.tables.store import Factory

Deals = tuple[tuple[int, ...], ...]
"""The deck order of each hand of a table's first game (a duplicate set's)."""

Run = Callable[..., Awaitable[Any]]
"""Runs a store function (its first argument the session factory) off the event loop
(``TableService.db``)."""


class Belonging:
    """The readers of what a table or a duplicate set belongs to; each None until the
    package that owns it sets it (then a table has no deals, no club)."""

    def __init__(self, run: Run) -> None:
        self._run = run
        self.deals_of: Callable[[Factory, str], Deals | None] | None = None
        """Reads the deals a stored table plays when it belongs to a duplicate set (None
        if not), given the sessions and the table's id: set by the duplicate routes;
        None: every table shuffles from its seed."""
        self.club_of: Callable[[Factory, str], m.ClubPlace | None] | None = None
        """Reads the club and evening a stored table was made for (None: none), given the
        sessions and the table's id: set by the club routes."""
        self.set_club_of: Callable[[Factory, str], m.ClubPlace | None] | None = None
        """Reads the club and evening a duplicate set was made for (None: none), given
        the sessions and the set's id: set by the club routes."""

    async def deals(self, table_id: str) -> Deals | None:
        """The deals the table plays (None: it shuffles from its seed)."""
        if self.deals_of is None:
            return None
        found: Deals | None = await self._run(self.deals_of, table_id)
        return found

    async def club(self, table_id: str) -> m.ClubPlace | None:
        """The club and evening the table was made for (None: none)."""
        if self.club_of is None:
            return None
        found: m.ClubPlace | None = await self._run(self.club_of, table_id)
        return found

    async def set_club(self, set_id: str) -> m.ClubPlace | None:
        """The club and evening the duplicate set was made for (None: none)."""
        if self.set_club_of is None:
            return None
        found: m.ClubPlace | None = await self._run(self.set_club_of, set_id)
        return found

    async def fill(self, live: Live, *, deals: bool = True) -> Live:
        """``live`` with what its table belongs to read in (its deals only with
        ``deals``: a table only looked at, not played here, needs none)."""
        table_id = live.data.id
        if deals:
            live.deals = await self.deals(table_id)
        live.club = await self.club(table_id)
        return live
