"""Duplicate sets and the daily challenge on the server (docs/duplicate.md, On a server)."""

from tricktaker.server.duplicate.routes import duplicate_router

__all__ = ["duplicate_router"]
