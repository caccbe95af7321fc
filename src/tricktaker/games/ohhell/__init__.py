"""The Oh Hell family's own code: Caller Clag's calls as a game's hooks (:mod:`.hooks`),
the rules of a call (:mod:`.calls`: its action kinds, kinds of hand, modifiers and the
hand a call makes) and what the game declares to the other layers (:mod:`.encoding`,
:mod:`.scorekeeper`, :mod:`.policy`; its search and kernel support are the family's).

The rest of the family (Blackout, Bluke, Clag, Kachuful ...) is rules data only; the
engine plays it without hooks.
"""

from tricktaker.games.ohhell.hooks import CallerClagHooks

__all__ = ["CallerClagHooks"]
