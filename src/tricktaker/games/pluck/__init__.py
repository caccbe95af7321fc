"""Pluck (docs/games/pluck.md): the game's rules (:mod:`.hooks`), and what it offers the
layers above the engine, declared in :attr:`PluckHooks.capabilities`."""

from tricktaker.games.pluck.hooks import PluckHooks

__all__ = ["PluckHooks"]
