"""Named Python hooks for games whose rules data cannot fully say (registered on import)."""

from tricktaker.games import buckup, euchre, pluck

__all__ = ["buckup", "euchre", "pluck"]
