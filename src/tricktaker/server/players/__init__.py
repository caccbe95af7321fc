"""Players' pages (issue 31; docs/players.md): statistics, ratings and the history of a
user's games, from the stored records and score sheets."""

from tricktaker.server.players.routes import Players, players_router

__all__ = ["Players", "players_router"]
