"""What the checked game of tests/properties/family_checked.py checks of an observation:
which fields carry cards of the hand in progress, which are public, an observation's
content for comparing, and the cards it shows."""

from __future__ import annotations

import dataclasses
from typing import Final

from tricktaker import (
    Observation,
)
from tricktaker.cards import cards_of

CARD_FIELDS: Final = frozenset({"hand", "turn_up", "current_trick", "tricks", "legal_actions"})
"""Observation fields that carry cards of the hand in progress."""
PUBLIC_FIELDS: Final = frozenset(
    {
        "seat",
        "players",
        "rules",
        "phase",
        "hand_number",
        "hands_in_game",
        "hands_played",
        "hand_size",
        "dealer",
        "special",
        "call",
        "trump",
        "trump_known",
        "cards_in_hand",
        "bids",
        "bid_made",
        "hook",
        "misere",
        "pile",
        "tricks_won",
        "leader",
        "trick_winners",
        "trump_broken",
        "scores",
        "to_act",
        "cooperative",
        "tables",
        "history",
        "dealer_draw",
        "partnerships",
        "active",
    }
)
GAME_FIELDS: Final = frozenset({"extra", "view"})
"""A game's own section (plucks, kitty, pot), typed (``view``) and as JSON (``extra``);
empty in the Oh Hell games."""
"""Fields with no card of the hand in progress (``history`` holds finished, fully played hands)."""


NOT_COMPARED_ON_REPLAY: Final = frozenset({"rules", "dealer_draw"})
"""``rules`` is another (equal) object after replay; the replayed dealer draw has its own
test in test_records.py."""


def observation_key(obs: Observation) -> tuple[object, ...]:
    """An observation's content, for comparing observations of different Ruleset objects."""
    return tuple(
        getattr(obs, f.name)
        for f in dataclasses.fields(obs)
        if f.name not in NOT_COMPARED_ON_REPLAY
    )


def exposed_cards(obs: Observation, *, turn_up_from_deck: bool) -> set[int]:
    """Every card of the hand in progress that the observation shows."""
    shown: set[int] = set()
    if obs.hand is not None:
        shown.update(cards_of(obs.hand))
    if obs.turn_up is not None and turn_up_from_deck:
        shown.add(obs.turn_up)
    for _, card in obs.current_trick:
        shown.add(card)
    for trick in obs.tricks:
        shown.update(card for _, card in trick)
    for action in obs.legal_actions:
        if action.kind == "play":
            assert isinstance(action.value, int)
            shown.add(action.value)
    return shown


def hand_kind(obs: Observation) -> str | None:
    """The special kind of the hand in progress (Clag's schedule or a Caller Clag call)."""
    if obs.call is not None:
        kind = obs.call.get("kind")
        return kind if isinstance(kind, str) else None
    return obs.special
