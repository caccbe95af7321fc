"""Last Trick's search support, as a plugin author writes it: the ``"search"`` capability
of :class:`~tests.plugins.last_trick.LastTrickHooks`.

Nothing of a hand is hidden but the cards dealt, so the generic
:class:`~tricktaker.bots.replay.ReplayDeterminizer` samples it, replaying the stakes (the
public actions before the trick play, which the hooks read from the game's view:
:meth:`~tests.plugins.last_trick.LastTrickHooks.public_actions`). The rollout stakes
nothing and plays the shared card policy of games where every trick counts; a hand's reward is
its score over its most (the tricks plus the largest stake).
"""

from __future__ import annotations

from tests.plugins.last_trick import LastTrickSettings
from tricktaker.bots.gamesearch import GameSearch
from tricktaker.bots.replay import ReplayDeterminizer
from tricktaker.bots.rollout import rollout_card
from tricktaker.engine.actions import PLAY, Action
from tricktaker.engine.state import GameState

__all__ = ["SEARCH"]


def rollout_action(state: GameState, seat: int, actions: list[Action]) -> Action:
    """Stake nothing; play the cards as every game where each trick counts."""
    if actions[0].kind == PLAY:
        return rollout_card(state, seat, actions)
    return min(actions, key=lambda action: int(action.value))


def rewards(state: GameState) -> list[float]:
    """Each seat's score of the hand just scored over the tricks plus the largest stake."""
    result = state.history[-1]
    settings = state.rules.hook_settings
    most = result.hand_size + (settings.max_stake if isinstance(settings, LastTrickSettings) else 0)
    return [score / most for score in result.hand_scores]


SEARCH = GameSearch(
    determinizer=ReplayDeterminizer,
    rollout_action=rollout_action,
    rewards=rewards,
)
"""Last Trick's search support (its hooks' ``"search"`` capability)."""
