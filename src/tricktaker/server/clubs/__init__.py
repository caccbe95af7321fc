"""Clubs and their evenings (issue 31, point 2; docs/clubs.md): members joined by
invitation, organisers, house rules, evenings of tables, duplicate evenings and
real-card evenings, the season's standings and the members' statistics.

:func:`clubs_router` gives the routes; the server's application mounts it.
"""

from tricktaker.server.clubs.routes import clubs_router

__all__ = ["clubs_router"]
