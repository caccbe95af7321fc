"""Euchre hands built by hand, shared by the rules tests and the search tests: a new
game, a deal with its kitty, the auction's calls and the declarer's discards."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tests.helpers import game
from tricktaker import ChanceOutcome, GameState
from tricktaker.cards import parse_card
from tricktaker.engine.actions import Action
from tricktaker.games.euchre.hooks import AUCTION, DISCARD, PASS


def new(options: Mapping[str, object] | None = None, *, seed: int = 0) -> GameState:
    """A game with seat 0 dealing the first hand."""
    return game("euchre", 4, options=options, seed=seed, first_dealer=0)


def deal(state: GameState, hands: Sequence[str], kitty: str) -> None:
    """Deal ``hands[seat]`` to each seat and ``kitty`` to the kitty."""
    order = state.deck_order_for([h.split() for h in hands], kitty=kitty.split())
    state.apply_chance(ChanceOutcome("deal", order))


def call(state: GameState, *calls: str) -> None:
    """Make the calls (``3H``, ``NT``, ``pass``) in turn order."""
    for text in calls:
        seat = state.to_act()[0]
        state.apply(seat, Action(PASS) if text == PASS else Action(AUCTION, text))


def discard(state: GameState, cards: str) -> None:
    """The seat to act discards ``cards``, one at a time."""
    for card in cards.split():
        state.apply(state.to_act()[0], Action(DISCARD, parse_card(card)))
