"""The engine-built swap of two hidden cards, for the leak tests (the research encoding's,
tests/envs/test_leaks.py, and the coach's hints, tests/coach/test_hint_leak.py): the
same game replayed from a deal in which two cards a seat cannot know changed places."""

from __future__ import annotations

from tricktaker import ChanceOutcome, GameState, IllegalActionError, new_game
from tricktaker.engine.actions import Action

CARD_ACTIONS = ("play", "pluck", "give_back", "discard")
"""Actions that name a card: whoever sees the action knows the card."""
MAPPED_CHANCE = ("deal", "piles", "draw", "restock")
"""Chance outcomes made of the hand's own cards (a second deck's trump card is not)."""


def hidden_cards(state: GameState, seat: int, start: int) -> list[int]:
    """Cards of the deck that ``seat`` cannot know now: neither its own, nor played, nor
    named by an action of this hand (plucked, discarded), nor the turn-up, nor a face-up
    Buckup scare card, nor a card whose holder must lead (Pluck's 2C)."""
    known = state.hands[seat]
    for _, action in state.events[start:]:
        if isinstance(action, Action) and action.kind in CARD_ACTIONS:
            assert isinstance(action.value, int)
            known |= 1 << action.value
    for _, card in [*(play for trick in state.trick_cards for play in trick), *state.trick]:
        known |= 1 << card  # played, maybe from a face-down pile (play_pile names no card)
    if state.turn_up is not None:
        known |= 1 << state.turn_up
    if state.setup.opening_lead is not None:
        known |= 1 << state.setup.opening_lead  # its holder leads (Pluck's 2C): public
    for card in getattr(state.ext, "scare", None) or []:
        if card is not None:
            known |= 1 << card
    return [card for card in state.setup.deck if not (known >> card) & 1]


def holder(state: GameState, card: int) -> int:
    """The seat holding ``card``, or -1 (kitty, stock, undealt)."""
    return next((s for s in range(state.players) if (state.hands[s] >> card) & 1), -1)


def swapped_replay(state: GameState, a: int, b: int, start: int) -> GameState | None:
    """The same game with cards ``a`` and ``b`` exchanged in the current hand's chance
    outcomes, replayed with the same actions; None if an action becomes illegal."""

    def swap(card: int) -> int:
        return b if card == a else a if card == b else card

    other = new_game(
        state.rules, players=state.players, seed=state.seed, first_dealer=state.first_dealer
    )
    try:
        for index, (who, what) in enumerate(state.events):
            if isinstance(what, ChanceOutcome):
                if index >= start and what.kind in MAPPED_CHANCE:
                    what = ChanceOutcome(what.kind, tuple(swap(c) for c in what.cards))
                other.apply_chance(what)
            else:
                assert isinstance(who, int)
                assert isinstance(what, Action)
                other.apply(who, what)
    except IllegalActionError:
        return None
    return other
