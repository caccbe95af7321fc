"""A determinizer for any game whose only hidden part of a hand is the cards dealt.

A game written outside the package (or a simple hook game) gets search support without
writing a sampler: when nothing of a hand is hidden but the cards dealt (no exchange, no
kitty, no cards drawn), :class:`ReplayDeterminizer` places the unseen cards exactly
uniformly by the counting sampler (:class:`~tricktaker.bots.determinize.CardPlacement`:
each other seat holds its cards less those it played, none of a suit it showed void in),
then rebuilds the hand on the engine's start of the observed hand
(:func:`~tricktaker.engine.resample.hand_start`): a forced deal, the game's own public
actions before the trick play (which the game's hooks read from the observation:
:meth:`~tricktaker.engine.hooks.GameHooks.public_actions`, or ``actions_before_play``),
and the cards played, every action checked by the engine.
Later samples copy the first and change its hidden cards
(:func:`~tricktaker.engine.resample.with_hidden`), as a replay would.

The facts it samples by are its :meth:`ReplayDeterminizer.hidden_facts`, which the
compiled kernel can read too.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tricktaker.bots.determinize import CardPlacement, known_voids
from tricktaker.cards import cards_of
from tricktaker.engine.actions import Action, play
from tricktaker.engine.base import ChanceOutcome
from tricktaker.engine.observation import Observation
from tricktaker.engine.resample import HiddenFacts, hand_start, with_hidden
from tricktaker.engine.setup import Setup
from tricktaker.engine.state import GameState

__all__ = ["PublicActions", "ReplayDeterminizer"]

PublicActions = Callable[[Observation], list[tuple[int, Action]]]
"""The hand's public actions before its trick play, ``(seat, action)`` in order, as the
observation shows them (e.g. each seat's stake)."""


class ReplayDeterminizer:
    """Samples states consistent with one observation of a game whose only hidden part
    of a hand is the cards dealt (see the module notes).

    ``actions_before_play``: the reader of the hand's public actions before the trick
    play (by default the game's hooks' :meth:`~tricktaker.engine.hooks.GameHooks.public_actions`).
    """

    def __init__(
        self, obs: Observation, *, actions_before_play: PublicActions | None = None
    ) -> None:
        if obs.phase == "game_over":
            raise ValueError("the game is over: there is nothing to determinize")
        self.obs = obs
        n, me = obs.players, obs.seat
        self.base = hand_start(obs)
        self.dealt = obs.phase != "deal"
        self.template: GameState | None = None
        self.played: list[list[int]] = [[] for _ in range(n)]
        self.plays = [pair for trick in (*obs.tricks, obs.current_trick) for pair in trick]
        for seat, card in self.plays:
            self.played[seat].append(card)
        hooks = obs.rules.hooks
        if actions_before_play is not None:
            self.before = actions_before_play(obs)
        else:
            self.before = hooks.public_actions(obs) if hooks is not None else []
        if self.dealt and obs.hand is None:
            raise ValueError("the seat cannot see its cards")
        size = obs.hand_size if self.dealt else 0
        counts = [0 if s == me else size - len(self.played[s]) for s in range(n)]
        seen = obs.played | (obs.hand or 0)
        if obs.turn_up is not None:
            seen |= 1 << obs.turn_up
        unknown = [c for c in Setup.of(obs.rules, n).deck if not (seen >> c) & 1]
        suit_of = obs.tables.suit_of if obs.tables is not None else None
        self.placement = CardPlacement(
            n,
            [s for s in range(n) if s != me],
            unknown,
            [suit_of[c] if suit_of is not None else 0 for c in unknown],
            counts,
            known_voids(obs),
        )

    def hidden_facts(self) -> HiddenFacts:
        """The hard facts the hidden cards are placed by: the other seats' unseen cards
        and the voids they showed."""
        return self.placement.hidden_facts(self.obs.seat)

    def sample(self, rng: random.Random) -> GameState:
        """A complete state consistent with the observation."""
        if not self.dealt:
            return self.base.clone()
        obs = self.obs
        held, _ = self.placement.sample_cards(rng)
        held[obs.seat] = cards_of(obs.hand or 0)
        dealt = [self.played[s] + held[s] for s in range(obs.players)]
        if self.template is not None:
            return with_hidden(
                self.template,
                hands=[sum(1 << c for c in cards) for cards in held],
                dealt=dealt,
            )
        state = self.base.clone()
        state.apply_chance(ChanceOutcome("deal", state.deck_order_for(dealt)))
        for seat, action in self.before:
            state.apply(seat, action)
        for seat, card in self.plays:
            state.apply(seat, play(card))
        if state.phase_name != obs.phase or state.hands[obs.seat] != obs.hand:
            raise ValueError(f"cannot replay the observation (stuck in {state.phase_name})")
        self.template = state.clone()
        return state
