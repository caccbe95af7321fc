"""23-card auction Euchre (docs/games/euchre.md): the game's rules (:mod:`.hooks`), and
what it offers the layers above the engine, declared in :attr:`EuchreHooks.capabilities`."""

from tricktaker.games.euchre.hooks import EuchreHooks

__all__ = ["EuchreHooks"]
