"""Named Python hooks for games whose rules data cannot fully say (registered on import)."""

from tricktaker.games import pluck

__all__ = ["pluck"]
