"""The shipped games whose rules data cannot fully say: Pluck, Euchre and Buckup.

Each module defines a :class:`~tricktaker.engine.hooks.GameHooks` subclass and
registers it with :func:`~tricktaker.engine.hooks.register_hooks` when imported.
The engine never imports this package by name: ``pyproject.toml`` declares the hooks
in the ``tricktaker.games`` entry-point group, and the engine loads the one module a
ruleset names (``hooks = "pluck"``) when that ruleset is loaded, as it would for a
game from another package. This package therefore imports none of its modules.
"""
