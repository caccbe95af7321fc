"""What the search bots need to know about each game, registered by the game's hooks.

The search bots (:mod:`tricktaker.bots.pimc`, :mod:`tricktaker.bots.ismcts`) are the
same for every game; a :class:`GameSearch` supplies the game-specific parts:

- ``determinizer(obs)``: an object whose ``sample(rng)`` returns a complete
  :class:`GameState` the observing seat cannot tell apart from the real one (its
  cards, every card it has seen, the voids shown, the public and its own private
  actions of the hand so far), with everything hidden sampled; it may also have a
  ``weight(state)`` method, the relative likelihood of a sample given what the other
  seats did (:func:`sample_weight`), which the bots use as an importance weight;
- ``rollout_action(state, seat, actions)``: a fast policy that sees every hand, used
  to play a sampled state to the end of the hand (it must handle every decision the
  game's hand asks for);
- ``rewards(state)``: each seat's result of the hand just scored
  (``state.history[-1]``), scaled to about ``[-1, 1]``; partners share a result.

``searched`` names the action kinds the bots search; any other decision is left to
the heuristic bot (``None``: search every decision). ``exploration``,
``model_opponents``, ``opponent_noise`` and ``rivalry`` are the ISMCTS bot's defaults for
the game: its UCB1 constant, how the other seats move in its tree and in its rollouts, and
how much their results count against the searching seat's (see
:class:`~tricktaker.bots.ismcts.ISMCTSBot`).

A game declares its search support as the ``"search"`` capability of its hooks
(:attr:`~tricktaker.engine.hooks.GameHooks.capabilities`, e.g.
``"search": "mygame.search:SEARCH"``, loaded the first time a bot asks); a ruleset
without hooks (the Oh Hell family) gets :data:`~tricktaker.bots.search_ohhell.OH_HELL`.
:func:`search_for` finds it; no table here names a game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from tricktaker.engine.actions import Action
from tricktaker.engine.hooks import GameHooks, UnknownHooksError, capability, get_hooks
from tricktaker.engine.observation import Observation
from tricktaker.engine.state import GameState

__all__ = ["SEARCH_CAPABILITY", "GameSearch", "Sampler", "sample_weight", "search_for"]

SEARCH_CAPABILITY = "search"
"""The capability name under which a game's hooks declare their :class:`GameSearch`."""


class Sampler(Protocol):
    """Samples complete states consistent with one observation."""

    def sample(self, rng: random.Random) -> GameState:
        """One complete state consistent with the observation."""
        ...


def sample_weight(sampler: Sampler, state: GameState) -> float:
    """How much a sampled state counts: the sampler's ``weight(state)`` when it has
    one (e.g. how likely the other seats' bids were with these cards), else 1."""
    weigh = getattr(sampler, "weight", None)
    return 1.0 if weigh is None else float(weigh(state))


@dataclass(frozen=True, slots=True)
class GameSearch:
    """The game-specific parts of the search bots (see the module notes)."""

    determinizer: Callable[[Observation], Sampler]
    rollout_action: Callable[[GameState, int, list[Action]], Action]
    rewards: Callable[[GameState], list[float]]
    searched: frozenset[str] | None = None
    model_opponents: bool = False
    """Whether ISMCTS should, by default, let the other seats' tree moves follow
    ``rollout_action`` with their sampled cards rather than UCB."""
    exploration: float = 0.7
    """ISMCTS's default UCB1 constant (rewards are scaled to about ``[-1, 1]``)."""
    opponent_noise: float = 0.0
    """ISMCTS's default chance that another seat's rollout move is uniformly random
    rather than ``rollout_action``'s (a hedge against opponents who play otherwise
    than the full-information policy)."""

    rivalry: float = 0.0
    """ISMCTS's default weight of the other seats' mean result against a seat's own
    (0: a seat plays for its own result only; 1: for its margin over the others)."""

    opponents: str = "search"
    """ISMCTS's default model of the other seats (its ``opponents`` setting): ``search``,
    each as the search's own player; ``learned``, each one's kind learned at the table
    (a random player or one who bids by its cards; the kernel's searches only)."""

    own_phases: str = "tree"
    """How ISMCTS chooses, by default, a decision of the game's own phases that the kernel
    does not search (its ``own_phases`` setting): ``tree``, by the Python tree search;
    ``flat``, every legal choice played out on the same sampled deals, the phases up to
    the card play by ``rollout_action`` and the cards by the kernel (the coach's values,
    :func:`tricktaker.coach.values.staged_totals`), the best mean kept."""

    def searches(self, kind: str) -> bool:
        """Whether the search bots search decisions of this action kind."""
        return self.searched is None or kind in self.searched


def search_for(hooks: GameHooks | str | None) -> GameSearch:
    """The search support of the games using ``hooks`` (a ruleset's hooks object or their
    name; None: the Oh Hell family), as the game declares it (its ``"search"``
    capability).

    >>> from tricktaker.rules import load_ruleset
    >>> search_for(load_ruleset("blackout").hooks).rivalry
    1.0
    """
    if hooks is None:
        from tricktaker.bots.search_ohhell import OH_HELL

        return OH_HELL
    name = hooks if isinstance(hooks, str) else hooks.name
    try:
        found = capability(get_hooks(hooks) if isinstance(hooks, str) else hooks, SEARCH_CAPABILITY)
    except UnknownHooksError:
        found = None
    if not isinstance(found, GameSearch):
        raise NotImplementedError(f"the search bots do not play games with {name} hooks")
    return found
