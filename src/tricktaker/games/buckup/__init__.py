"""Buckup (docs/games/buckup.md): the game's rules (:mod:`.hooks`) and its money
(:mod:`.money`), and what it offers the layers above the engine, declared in
:attr:`BuckupHooks.capabilities`."""

from tricktaker.games.buckup.hooks import BuckupHooks

__all__ = ["BuckupHooks"]
