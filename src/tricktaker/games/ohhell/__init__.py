"""The Oh Hell family's own code: Caller Clag's calls as a game's hooks (:mod:`.hooks`).

The rest of the family (Blackout, Bluke, Clag, Kachuful ...) is rules data only; the
engine plays it without hooks.
"""

from tricktaker.games.ohhell.hooks import CallerClagHooks

__all__ = ["CallerClagHooks"]
