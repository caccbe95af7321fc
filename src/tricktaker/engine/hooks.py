"""Named Python hooks: what a ruleset's data cannot say (exchanges, auctions, money).

A ruleset names its hooks (``hooks = "pluck"``); the engine calls them at fixed points
of every hand and otherwise runs its own phases (deal, trick play, records,
observations). Hooks are stateless objects registered by name; a game's changing
data lives in ``state.ext``, an object with a ``copy()`` method, so that
:meth:`GameState.clone` stays independent.

The engine stands below the games and never imports a game by name; the registry
itself is kept in the rules layer (:mod:`tricktaker.rules.registry`), below the engine,
because loading a ruleset finds its hooks, and this module registers
:class:`GameHooks` there as the class every game's hooks subclass. The functions here
are the public API. :func:`get_hooks` finds the hooks a ruleset names in three ways, in
order:

1. hooks already registered with :func:`register_hooks` (a class decorator), which is
   how a game's module announces itself when it is imported;
2. the ``tricktaker.games`` entry-point group (:data:`HOOKS_GROUP`) of the installed
   packages: ``pluck = "tricktaker.games.pluck.hooks:PluckHooks"``. The shipped games are
   declared there in ``pyproject.toml``, and a game in another package is declared the
   same way in its own, so ``tricktaker play their_game.toml`` finds it;
3. a ruleset may also name the class itself, ``hooks = "mypackage.mygame:MyHooks"``
   (any importable module), for a game that is not packaged.

A name found in (2) or (3) is imported once and then kept in the registry.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from pydantic import BaseModel

from tricktaker.engine.actions import Action
from tricktaker.engine.base import DEAL, ChanceOutcome
from tricktaker.rules import registry
from tricktaker.rules.registry import HOOKS_GROUP as HOOKS_GROUP
from tricktaker.rules.registry import UnknownHooksError as UnknownHooksError

if TYPE_CHECKING:
    import random

    from tricktaker.engine.observation import Observation
    from tricktaker.engine.results import HandResult
    from tricktaker.engine.state import GameState
    from tricktaker.engine.view import GameView


class Copyable(Protocol):
    def copy(self) -> Any: ...


@dataclass(frozen=True, slots=True)
class HandScore:
    """What a game's hooks say about a finished hand."""

    hand_scores: tuple[int, ...]
    bids: tuple[int, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)


class GameHooks:
    """Base class of a game's hooks; each method's default is the standard behaviour."""

    name: ClassVar[str] = ""
    settings_model: ClassVar[type[BaseModel] | None] = None
    """A pydantic model validating the ruleset's ``[settings]`` table."""
    engine_bids: ClassVar[bool] = False
    """Whether the game keeps the engine's bids and the ruleset's scoring of them (as the
    Oh Hell family does: Caller Clag's calls only change the hand), rather than scoring
    hands its own way without bids (Pluck's quotas, Euchre's auction, Buckup's pot).
    Layers above the engine read it through :func:`keeps_engine_bids`."""
    hand_data_only: ClassVar[bool] = False
    """Whether the game's own data (``state.ext``) is the hand in progress's only (as
    Caller Clag's call) and nothing carries over from earlier hands (as Pluck's plucks
    owed or Buckup's pot do): then :func:`~tricktaker.engine.state.game_at_hand` may
    rebuild the game at a later hand from its public facts."""
    capabilities: ClassVar[Mapping[str, str | object]] = {}
    """What the game offers the layers above the engine, by capability name.

    Each value is the object itself or a ``"module:attribute"`` path, imported the
    first time a layer asks (so a game's hooks never import its panel or its search).
    The layers ask by name and define what they expect of the object:

    * ``"present"``: the panel and narration (:mod:`tricktaker.present`);
    * ``"search"`` and ``"policy"``: the search bots' facts and the heuristic bot's
      decisions for the game's own action kinds (:mod:`tricktaker.bots`);
    * ``"kernel"``: that the compiled search kernel plays the game's card phase (a
      :class:`tricktaker.kernel.spec.KernelSupport`);
    * ``"scorekeeper"``: the steps of a hand on a score sheet kept for real cards;
    * ``"encoding"``: the game's fields in the research encoding (:mod:`tricktaker.envs`);
    * ``"stats"``: the game's own figures in simulation statistics.

    A game that declares none of them still plays, records and replays; each layer then
    uses its default, the Oh Hell family's behaviour.
    """
    _loaded: ClassVar[dict[str, object]]

    @classmethod
    def capability(cls, name: str) -> object | None:
        """The object the game declares for capability ``name``, or None.

        A ``"module:attribute"`` path is imported once per class; an import error says
        which game declared it.
        """
        declared = cls.capabilities.get(name)
        if declared is None or not isinstance(declared, str):
            return declared
        loaded: dict[str, object] | None = cls.__dict__.get("_loaded")
        if loaded is None:
            loaded = {}
            cls._loaded = loaded
        if name not in loaded:
            module_name, _, attribute = declared.partition(":")
            try:
                obj: object = importlib.import_module(module_name)
                for part in attribute.split("."):
                    obj = getattr(obj, part)
            except (ImportError, AttributeError) as exc:
                raise ImportError(
                    f"the {cls.name or cls.__qualname__} game declares its {name!r}"
                    f" capability as {declared!r}, which cannot be loaded: {exc}"
                ) from exc
            loaded[name] = obj
        return loaded[name]

    def settings(self, state: GameState) -> Any:
        """The ruleset's validated ``[settings]`` (an instance of :attr:`settings_model`)."""
        return state.rules.hook_settings

    def init_game(self, state: GameState) -> Copyable | None:
        """Game-level data kept in ``state.ext`` (stacks, plucks owed, team scores)."""
        return None

    def begin_hand(self, state: GameState) -> None:
        """Start a hand; by default the next step is the deal."""
        state.phase = DEAL

    def after_deal(self, state: GameState) -> None:
        """Continue after the deal; by default the trump is fixed and bids are taken."""
        state.prepare_hand()

    def to_act(self, state: GameState) -> tuple[int, ...]:
        """The seats that may act in a hook phase."""
        return ()

    def legal_actions(self, state: GameState, seat: int) -> list[Action]:
        """The actions ``seat`` may take in a hook phase."""
        return []

    def why_illegal(self, state: GameState, seat: int, action: Action) -> tuple[str, str]:
        """Reason and rule for an action the hook phase does not accept."""
        options = ", ".join(str(a) for a in self.legal_actions(state, seat)[:8])
        return f"{action} is not possible now (possible: {options})", self.name

    def apply(self, state: GameState, seat: int, action: Action) -> None:
        """Apply a legal action of a hook phase."""
        raise NotImplementedError(f"{self.name} hooks take no actions")

    def chance_kind(self, state: GameState) -> str | None:
        """The kind of chance step pending in a hook phase, if any."""
        return None

    def sample_chance(self, state: GameState, rng: random.Random) -> ChanceOutcome:
        raise NotImplementedError(f"{self.name} hooks have no chance steps")

    def check_chance(self, state: GameState, outcome: ChanceOutcome) -> str | None:
        """Why a given outcome is impossible now; None when it is fine."""
        return None

    def apply_chance(self, state: GameState, outcome: ChanceOutcome) -> None:
        raise NotImplementedError(f"{self.name} hooks have no chance steps")

    def hands_in_game(self, state: GameState) -> int | None:
        """How many hands the game has, when that is fixed in advance."""
        return None

    def phase_name(self, state: GameState) -> str:
        """The name of the hook phase in progress."""
        return self.name

    def score_hand(self, state: GameState) -> HandScore:
        """Scores of a finished hand: by default the ruleset's formulas on the bids and
        tricks (:meth:`GameState.standard_hand_scores`), for a game that keeps them."""
        bids = tuple([b if b is not None else 0 for b in state.bids])
        return HandScore(hand_scores=tuple(state.standard_hand_scores()), bids=bids)

    def describe_call(self, state: GameState) -> dict[str, object] | None:
        """What has been called for the hand in progress, as public JSON data (a caller's
        hand size, kind and modifiers): the observations' ``call`` and the finished
        hand's ``special``. None (the default): nothing is called."""
        return None

    def public_actions(self, obs: Observation) -> list[tuple[int, Action]]:
        """The actions of the game's own phases in ``obs``'s hand so far that every
        seat knows of, in order, each with the seat that took it, as ``obs`` shows them
        (Caller Clag's calls, read back from the observation's ``call``): what a sampler
        replays to rebuild the hand (:mod:`tricktaker.engine.resample`) and what a seat
        that only receives observations (a remote table) says another seat did. The
        default: none (a game whose own actions a sampler rebuilds its own way)."""
        return []

    def game_over(self, state: GameState) -> bool:
        """Whether the game ends after the hand just scored."""
        return False

    def view(self, state: GameState, seat: int) -> GameView | None:
        """The game's own part of ``seat``'s observation (only what it may know), as a
        typed :class:`~tricktaker.engine.view.GameView` (None: the game adds nothing).

        The observation keeps it as ``observation.view``; ``observation.extra`` is its
        ``to_json()``, the form the wire and the records carry.
        """
        return None

    def redact(self, result: HandResult, seat: int) -> HandResult:
        """A finished hand as ``seat`` may see it (private parts removed)."""
        return result


_H = TypeVar("_H", bound=GameHooks)

registry.require_base(GameHooks)


def register_hooks(hooks: type[_H], *, name: str | None = None) -> type[_H]:
    """Make a game's hooks available to rulesets under ``name`` (default: ``hooks.name``).

    Use it as a class decorator in the game's module::

        @register_hooks
        class MyHooks(GameHooks):
            name = "mygame"

    Registering the same class again (a module imported twice) replaces the entry;
    another class under a name already taken is an error.
    """
    if not (isinstance(hooks, type) and issubclass(hooks, GameHooks)):
        raise TypeError(f"{hooks!r} is not a subclass of tricktaker.engine.hooks.GameHooks")
    registry.register(hooks, name=name)
    return hooks


def keeps_engine_bids(hooks: GameHooks | None) -> bool:
    """Whether a ruleset's game takes the engine's bids and scores them by the ruleset's
    formulas: every ruleset without hooks (the Oh Hell family), and a game whose hooks
    say so (:attr:`GameHooks.engine_bids`). A layer asks this, not whether a ruleset has
    hooks, where bids matter (a bid field, a bid to make, a score for exact bids).

    >>> from tricktaker.rules import load_ruleset
    >>> [keeps_engine_bids(load_ruleset(game).hooks) for game in ("blackout", "pluck")]
    [True, False]
    """
    return hooks is None or hooks.engine_bids


def capability(hooks: GameHooks | None, name: str) -> object | None:
    """The object a ruleset's game declares for capability ``name``; None when the
    ruleset has no hooks (the Oh Hell family) or its game does not declare it.

    >>> from tricktaker.rules import load_ruleset
    >>> capability(load_ruleset("blackout").hooks, "present") is None
    True
    """
    return None if hooks is None else hooks.capability(name)


def known_hooks() -> list[str]:
    """The names rulesets can use now: registered hooks and declared entry points."""
    return registry.known()


def get_hooks(name: str) -> GameHooks:
    """The hooks a ruleset calls ``name``: registered, declared as an entry point of the
    ``tricktaker.games`` group, or a ``"module:Class"`` path (loaded once, then kept).

    Raises :class:`UnknownHooksError` (a ``KeyError``) saying what is known and how a
    game is plugged in.
    """
    hooks = registry.find(name)
    if not isinstance(hooks, GameHooks):  # the registry takes only GameHooks subclasses
        raise UnknownHooksError(f"{name!r} is {hooks!r}, not a GameHooks instance")
    return hooks
