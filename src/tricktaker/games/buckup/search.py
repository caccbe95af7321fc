"""Search support for Buckup (docs/games/buckup.md): the ante, the 19 redeal, stay
or fold (and out for now), the discards and the draw, and the tricks, with the chips
at stake.

The determinizer is :class:`~tricktaker.games.buckup.sampler.BuckupDeterminizer` (what a
seat knows, how the hidden cards are sampled); the public history it reads is
:mod:`tricktaker.games.buckup.history`. This module holds the rest of the search: the
rollout policy and the rewards.

**Rollout policy** (:func:`rollout_action`; it sees every hand but decides the money
from its own cards): the default ante; always demand a 19 redeal; stay when the hand
after the draw is worth enough tricks for the pot and the players already in; discard
the side cards below a king; play cards with full information: lead a card nobody can
beat, else the lowest; follow with the cheapest card no later player can beat, else
the lowest (the card play of every game where each trick counts:
:func:`tricktaker.bots.rollout.rollout_card`).

**Rewards** (:func:`rewards`): a seat's chips won or lost in the hand plus its equal
share of the pot carried to the next hand (the next pot is everyone's to win; without
the share a burn into a pot that comes back would count in full), over the largest pot
the hand could reach before the settlement (mostly within -1.5 to 1.5).
"""

from __future__ import annotations

from tricktaker.bots.gamesearch import GameSearch
from tricktaker.bots.rollout import rollout_card
from tricktaker.engine.actions import PLAY, Action
from tricktaker.engine.state import GameState
from tricktaker.games.buckup.history import (
    Step,
    hand_strength,
    public_script,
    strength_needed,
    throwaways,
)
from tricktaker.games.buckup.hooks import (
    A_DRAW,
    A_REDEAL,
    A_STAY,
    ANTE_ACTION,
    COME_BACK,
    CONCEDE,
    DISCARD_ACTIONS,
    DRAW,
    FOLD,
    FULL_HAND,
    OUT_FOR_NOW,
    REDEAL,
    STAY,
)
from tricktaker.games.buckup.sampler import BuckupDeterminizer

__all__ = [
    "SEARCH",
    "BuckupDeterminizer",
    "Step",
    "public_script",
    "rewards",
    "rollout_action",
]


# ---------------------------------------------------------------- rollout policy


def _stays(state: GameState, seat: int, kinds: set[str]) -> bool:
    """Whether a seat stays in (or comes back) with its own cards and the money."""
    return hand_strength(state.hands[seat], state.trump) >= strength_needed(state, seat, kinds)


def rollout_action(state: GameState, seat: int, actions: list[Action]) -> Action:
    """The rollout policy (see the module notes) for every decision of a hand."""
    kind = actions[0].kind
    if kind == PLAY:
        return rollout_card(state, seat, actions)
    if kind == DRAW:  # the discards: throw the side cards below a king, then draw
        throw = throwaways(state.hands[seat], state.trump)
        return DISCARD_ACTIONS[throw[0]] if throw else A_DRAW
    if kind == ANTE_ACTION:
        return next(a for a in actions if a.value == "kept")
    if kind in (REDEAL, "keep"):
        return A_REDEAL
    kinds = {a.kind: a for a in actions}
    stays = _stays(state, seat, set(kinds))
    if CONCEDE in kinds:
        return kinds[COME_BACK] if stays else kinds[CONCEDE]
    if COME_BACK in kinds:
        return kinds[COME_BACK] if stays else kinds[FOLD]
    if STAY in kinds:
        return A_STAY if stays else kinds.get(OUT_FOR_NOW) or kinds.get(FOLD) or A_STAY
    return actions[0]


# ------------------------------------------------------------------- rewards


def rewards(state: GameState) -> list[float]:
    """Each seat's chips won or lost in the hand just scored plus its equal share of the
    pot carried over, over the largest pot the hand could reach before the settlement
    (the pot carried in, everyone's ante and a draw fee for five cards)."""
    result = state.history[-1]
    extra = result.extra
    n = state.players
    ante = extra.get("ante") or {}
    most = int(ante.get("ante", 0)) + FULL_HAND * int(ante.get("card_fee", 0))
    scale = float(max(1, int(extra["pot_before"]) + n * most))
    share = int(extra["pot_after"]) / n
    return [(score + share) / scale for score in result.hand_scores]


SEARCH = GameSearch(
    determinizer=BuckupDeterminizer,
    rollout_action=rollout_action,
    rewards=rewards,
    searched=None,
    own_phases="flat",
)
"""The search support of Buckup (its hooks' ``"search"`` capability). Its ante, stay or
fold, discard and draw are chosen by flat play-outs (bench/README.md, "Buckup's own
decisions by flat play-outs (issue 30)")."""
