"""Narration of the actions of games with their own phases, from the person's seat.

A card in another seat's action (a pluck, a give-back, a discard) is named only when
the person's own observation shows it: it is now in their hand. Otherwise the text
says that a card was given or discarded, never which.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tricktaker.cards import cards_of
from tricktaker.engine import Action, Observation

from .human import value_type, words
from .render import Cards
from .render_games import (
    ante_text,
    bid_text,
    card_text,
    contract_text,
    object_name,
    payment_groups,
    seat_name,
    suit_text,
)

PHRASES: dict[str, tuple[str, str]] = {
    "pass": ("pass", ""),
    "stay": ("stay", " in"),
    "fold": ("fold", ""),
    "out_for_now": ("go", " out for now"),
    "come_back": ("come", " back in"),
    "keep": ("keep", " the cards (no redeal)"),
    "concede": ("concede", ": the player in takes the pot uncontested"),
    "draw": ("draw", " back to five"),
    "redeal": ("demand", " a redeal (five low cards adding up to 19 or less)"),
    "take_pot": ("take", " the pot uncontested"),
    "play_on": ("play", " on"),
}
"""Kinds without a value: the verb and the rest of the sentence."""


def verb(name: str, base: str) -> str:
    """``You play`` / ``Seat 2 plays`` / ``Seat 1 passes``."""
    if name == "You":
        return f"{name} {base}"
    if base == "go":
        return f"{name} goes"
    if base.endswith(("s", "sh", "ch")):
        return f"{name} {base}es"
    return f"{name} {base}s"


def visible_card(seat: int, action: Action, new: Observation) -> int | None:
    """The action's card if the person may know it: their own, or now in their hand."""
    if not isinstance(action.value, int):
        return None
    if seat == new.seat:
        return action.value
    if new.hand is not None and new.hand >> action.value & 1:
        return action.value
    return None


def describe_game_action(
    seat: int,
    action: Action,
    prev: Observation,
    new: Observation,
    names: Sequence[str],
    cards: Cards,
) -> str:
    """One sentence about an action of a game's own phase (hidden cards stay hidden)."""
    name = names[seat]
    kind = action.kind
    kind_type = value_type(kind)
    if kind_type == "card":
        card = visible_card(seat, action, new)
        shown = cards.card(card) if card is not None else "a card"
        if kind == "pluck":
            shown = shown if card is not None else "a card face down"
            return f"{verb(name, 'pluck')} {_pluckee(prev, names)}, giving {shown}."
        if kind == "give_back":
            return f"{verb(name, 'give')} back {shown} to {_plucker(new, names)}."
        if kind == "discard":
            return f"{verb(name, 'discard')} {shown}."
        return f"{verb(name, words(kind))} {shown}."
    if kind_type == "none":
        base, rest = PHRASES.get(kind, (words(kind), ""))
        return f"{verb(name, base)}{rest}."
    value = str(action.value)
    if kind == "call_trump":
        return f"{verb(name, 'name')} {suit_text(value, cards)} as trump."
    if kind == "auction":
        return f"{verb(name, 'bid')} {bid_text(value, cards)}."
    if kind == "ante":
        ante = new.extra.get("ante")
        structure = ante_text(ante) if ante else words(value)
        return f"{verb(name, 'set')} the ante: {structure}."
    return f"{name}: {words(kind)} {words(value)}."


def _pluckee(prev: Observation, names: Sequence[str]) -> str:
    pending = prev.extra.get("plucks_pending") or []
    return object_name(pending[0][1], names) if pending else "a player"


def _plucker(new: Observation, names: Sequence[str]) -> str:
    done = new.extra.get("plucks") or []
    if done and isinstance(done[-1], Mapping):
        return object_name(done[-1].get("plucker"), names)
    return "the plucker"


def game_changes(
    prev: Observation, new: Observation, names: Sequence[str], cards: Cards
) -> list[str]:
    """What the game's own section says changed between two observations of one hand:
    a contract settled, the kitty taken, payments into or out of the pot."""
    lines: list[str] = []
    if new.hands_played != prev.hands_played:
        return lines
    same_hand = new.hand_number == prev.hand_number
    contract = new.extra.get("contract")
    had_contract = same_hand and isinstance(prev.extra.get("contract"), Mapping)
    if isinstance(contract, Mapping) and not had_contract:
        line = f"Contract: {contract_text(contract, names, cards)}."
        kitty = new.extra.get("kitty")
        if kitty:
            taken = " ".join(card_text(c, cards) for c in kitty)
            line += f" {verb(names[new.seat], 'take')} the kitty: {taken}."
        elif "kitty" in new.extra:
            declarer = contract.get("declarer", contract.get("bidder"))
            line += f" {seat_name(declarer, names)} takes the kitty and discards three cards."
        lines.append(line)
    if same_hand and prev.phase in ("draw", "restock") and prev.hand is not None and new.hand:
        drawn = cards_of(new.hand & ~prev.hand)
        if drawn:
            shown = " ".join(cards.card(c) for c in drawn)
            lines.append(f"{verb(names[new.seat], 'draw')} {shown}.")
    before = prev.extra.get("payments") if same_hand else []
    after = new.extra.get("payments")
    if isinstance(before, list) and isinstance(after, list) and len(after) > len(before):
        lines += [line + "." for line in payment_groups(after[len(before) :], names)]
    return lines
