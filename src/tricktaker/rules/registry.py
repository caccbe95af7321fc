"""The registry of games' hooks by name, in the rules layer so that it imports no engine.

The package is layered ``cards < rules < engine < games``: each layer imports only the
layers below it. A ruleset names its hooks (``hooks = "pluck"``) and validates its
``[settings]`` with them, so loading a ruleset must find hooks by name; yet the hooks
are engine objects (subclasses of ``tricktaker.engine.hooks.GameHooks``) written in the
games. This module therefore keeps the name -> hooks registry and the ways a name is
found, knowing of the hooks only :class:`RulesHooks`, what the rules read of them
(``name`` and ``settings_model``). The engine plugs its part in from above:

* ``tricktaker.engine.hooks`` calls :func:`require_base` with ``GameHooks`` when it is
  imported, so that only its subclasses are taken as hooks. A game's module imports
  the engine to subclass ``GameHooks``, so the base is known before any game's class
  is checked; while it is not (no engine imported), nothing can be a game's hooks.
* Its public API (``register_hooks``, ``get_hooks``, ``known_hooks``,
  ``UnknownHooksError``, ``HOOKS_GROUP``) delegates to the functions here.

A name is found in three ways, in order:

1. hooks already registered with :func:`register` (the engine's ``register_hooks``
   decorator), which is how a game's module announces itself when it is imported;
2. the ``tricktaker.games`` entry-point group (:data:`HOOKS_GROUP`) of the installed
   packages: ``pluck = "tricktaker.games.pluck.hooks:PluckHooks"``;
3. a ``"module:Class"`` path given as the name, for a game that is not packaged.

A name found in (2) or (3) is imported once and then kept in the registry.
"""

from __future__ import annotations

import difflib
import importlib
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, ClassVar, Protocol

if TYPE_CHECKING:
    from pydantic import BaseModel

HOOKS_GROUP = "tricktaker.games"
"""The entry-point group in which installed packages declare their games' hooks."""

BASE_NAME = "tricktaker.engine.hooks.GameHooks"
"""The class every game's hooks subclass, named in error messages."""


class RulesHooks(Protocol):
    """What the rules layer reads of a game's hooks (the engine's ``GameHooks``)."""

    name: ClassVar[str]
    """The name a ruleset gives in ``hooks = "..."``."""
    settings_model: ClassVar[type[BaseModel] | None]
    """A pydantic model validating the ruleset's ``[settings]`` table, if any."""


class UnknownHooksError(KeyError):
    """A ruleset names hooks that are neither registered, declared nor importable."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


_REGISTRY: dict[str, RulesHooks] = {}
_BASE: list[type] = []


def require_base(base: type) -> None:
    """Take as hooks only subclasses of ``base`` (the engine's ``GameHooks``).

    Called by ``tricktaker.engine.hooks`` when it is imported; calling it again (the
    module reloaded) replaces the base.
    """
    _BASE[:] = [base]


def is_hooks_class(obj: object) -> bool:
    """Whether ``obj`` is a subclass of the engine's ``GameHooks``."""
    return isinstance(obj, type) and bool(_BASE) and issubclass(obj, _BASE[0])


def _class_path(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def register(hooks: type[RulesHooks], *, name: str | None = None) -> None:
    """Make ``hooks`` (a class) available to rulesets under ``name`` (default:
    ``hooks.name``); the engine's ``register_hooks`` checks the class, then calls this.

    Registering the same class again (a module imported twice) replaces the entry;
    another class under a name already taken is an error.
    """
    if not is_hooks_class(hooks):
        raise TypeError(f"{hooks!r} is not a subclass of {BASE_NAME}")
    key = hooks.name if name is None else name
    if not key:
        raise ValueError(f"{_class_path(hooks)} has no name: set its `name` class attribute")
    existing = _REGISTRY.get(key)
    if existing is not None and _class_path(type(existing)) != _class_path(hooks):
        raise ValueError(
            f"hooks {key!r} are already registered by {_class_path(type(existing))};"
            f" give {_class_path(hooks)} another name"
        )
    _REGISTRY[key] = hooks()


def known() -> list[str]:
    """The names rulesets can use now: registered hooks and declared entry points."""
    declared = {point.name for point in entry_points(group=HOOKS_GROUP)}
    return sorted(declared | set(_REGISTRY))


def find(name: str) -> RulesHooks:
    """The hooks a ruleset calls ``name``: registered, declared as an entry point of the
    ``tricktaker.games`` group, or a ``"module:Class"`` path (loaded once, then kept).

    Raises :class:`UnknownHooksError` (a ``KeyError``) saying what is known and how a
    game is plugged in.
    """
    hooks = _REGISTRY.get(name)
    if hooks is not None:
        return hooks
    cls = _load_path(name) if ":" in name else _load_entry_point(name)
    if not isinstance(_REGISTRY.get(name), cls):  # not registered by its own module
        register(cls, name=name)
    return _REGISTRY[name]


def _as_hooks_class(obj: object, where: str) -> type[RulesHooks]:
    if isinstance(obj, type) and is_hooks_class(obj):
        return obj
    raise UnknownHooksError(f"{where} is {obj!r}, not a subclass of {BASE_NAME}")


def _load_path(name: str) -> type[RulesHooks]:
    module_name, _, attribute = name.partition(":")
    try:
        obj: object = importlib.import_module(module_name)
    except ImportError as exc:
        raise UnknownHooksError(f"{name!r}: cannot import {module_name!r}: {exc}") from None
    for part in attribute.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise UnknownHooksError(f"{name!r}: {module_name!r} has no {attribute!r}") from None
    return _as_hooks_class(obj, repr(name))


def _load_entry_point(name: str) -> type[RulesHooks]:
    points = {point.value: point for point in entry_points(group=HOOKS_GROUP, name=name)}
    if not points:
        names = known()
        close = difflib.get_close_matches(name, names, n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise UnknownHooksError(
            f"unknown hooks {name!r} (known: {', '.join(names) or 'none'}).{hint}"
            " A game written in Python is"
            " plugged in by registering its GameHooks subclass with"
            " tricktaker.engine.hooks.register_hooks before the ruleset is loaded,"
            f" by declaring it in the {HOOKS_GROUP!r} entry-point group of its package,"
            ' or by naming it in the ruleset as hooks = "module:Class"'
        )
    if len(points) > 1:
        raise UnknownHooksError(
            f"{name!r} is declared by several installed packages: {', '.join(sorted(points))}"
        )
    (point,) = points.values()
    try:
        obj = point.load()
    except (ImportError, AttributeError) as exc:
        raise UnknownHooksError(
            f"{name!r}: cannot load the entry point {point.value!r}: {exc}"
        ) from None
    return _as_hooks_class(obj, f"{name!r} (entry point {point.value!r})")
