"""The narration of what happened between two observations of one seat: bids, calls,
cards played and tricks won, the deal, the trump, the end of a hand, and the game's own
actions and changes as its ``present`` capability words them (plucks and give-backs,
auctions and contracts, antes and payments, for example).

A card in another seat's action (a pluck, a give-back, a discard) is named only when
the seat's own observation shows it: it is now in its hand. Otherwise the text says
that a card was given or discarded, never which. Each line also has a ``public`` form
(None when it is only the seat's to know), which spectators are told.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from tricktaker.engine import Action, Observation
from tricktaker.engine.actions import BID, PLAY, PLAY_PILE

from .game import ActionSeen, game_present
from .parts import Narration, TextLine, said
from .scorecard import summary_lines
from .text import (
    CardText,
    describe_special,
    hand_heading,
    value_type,
    verb,
    visible_card,
    words,
)

__all__ = [
    "Narration",
    "action_lines",
    "card_lines",
    "change_lines",
    "describe_game_action",
    "narrate",
    "said",
    "summary",
    "visible_card",
]


# ------------------------------------------------------------ actions


def describe_game_action(seen: ActionSeen) -> str:
    """One sentence about an action of a game's own phase, as the game's ``present``
    capability words it, else in general words; a card is named only when the seat may
    know it (never when ``seen.hide``: the public form)."""
    own = game_present(seen.new.rules).action_text(seen)
    if own is not None:
        return own
    seat, action, new, names, cards, hide = (
        seen.seat,
        seen.action,
        seen.new,
        seen.names,
        seen.cards,
        seen.hide,
    )
    name = names[seat]
    kind = action.kind
    kind_type = value_type(kind)
    if kind_type == "card":
        card = None if hide else visible_card(seat, action, new)
        shown = cards.card(card) if card is not None else "a card"
        return f"{verb(name, words(kind))} {shown}."
    if kind_type == "none":
        return f"{verb(name, words(kind))}."
    return f"{name}: {words(kind)} {words(str(action.value))}."


def action_lines(
    seat: int,
    action: Action,
    prev: Observation,
    new: Observation,
    names: Sequence[str],
    cards: CardText,
) -> list[Narration]:
    """What ``seat``'s ``action`` looked like from ``new``'s seat."""
    name = names[seat]
    mine = seat == new.seat
    kind = action.kind
    if kind == BID:
        if new.rules.spec.bidding.style == "simultaneous":
            lines = [
                said(
                    "bid_hidden",
                    f"{name} has bid (hidden until every bid is in).",
                    seat=seat,
                    mine=mine,
                )
            ]
            if all(new.bid_made) and not all(prev.bid_made):
                bids = ",  ".join(
                    f"{names[s]} {b}" for s, b in enumerate(new.bids) if b is not None
                )
                lines.append(said("bids_revealed", f"Bids revealed: {bids}", bold=True))
            return lines
        return [said("bid", f"{verb(name, 'bid')} {action.value}.", seat=seat, mine=mine)]
    if kind in (PLAY, PLAY_PILE):
        return card_lines(seat, prev, new, names, cards)
    seen = ActionSeen(seat, action, prev, new, names, cards)
    text = describe_game_action(seen)
    public = describe_game_action(dataclasses.replace(seen, hide=True))
    return [Narration("action", text, public, seat=seat, mine=mine)]


def card_lines(
    seat: int, prev: Observation, new: Observation, names: Sequence[str], cards: CardText
) -> list[Narration]:
    """A card played, and the trick's winner when it completes a trick."""
    trick: tuple[tuple[int, int], ...] | None = None
    winner = -1
    if new.hands_played > prev.hands_played:
        last = new.history[-1]
        trick, winner = last.trick_cards[-1], last.trick_winners[-1]
    elif len(new.tricks) > len(prev.tricks):
        trick, winner = new.tricks[-1], new.trick_winners[-1]
    card = trick[-1][1] if trick else new.current_trick[-1][1]
    source = " from the pile" if prev.pile else ""
    mine = seat == new.seat
    lines = [
        said(
            "play", f"{verb(names[seat], 'play')} {cards.card(card)}{source}.", seat=seat, mine=mine
        )
    ]
    if trick is not None:
        shown = ",  ".join(f"{names[s]} {cards.card(c)}" for s, c in trick)
        lines.append(
            said(
                "trick",
                f"{verb(names[winner], 'win')} the trick ({shown})",
                seat=winner,
                mine=winner == new.seat,
                bold=True,
                cards=tuple((s, cards.code(c)) for s, c in trick),
            )
        )
    return lines


# ------------------------------------------------------------ changes


def change_lines(
    prev: Observation, new: Observation, names: Sequence[str], cards: CardText
) -> list[Narration]:
    """What changed between ``prev`` and ``new`` besides the action itself: the end of a
    hand (its summary, and the next hand's heading unless the game is over), the deal,
    a special hand, the trump, the piles, and the game's own changes (as its
    ``present`` capability words them)."""
    lines: list[Narration] = []
    if new.hands_played > prev.hands_played:
        hand = new.history[-1]
        lines.append(said("hand_over", f"Hand {hand.number} is over.", bold=True, hand=hand.number))
        game = game_present(new.rules)
        lines += [summary(line) for line in summary_lines(hand, names, cards, game)]
        if new.phase != "game_over":
            lines.append(said("next_hand", hand_heading(new, names)))
        return lines
    if prev.phase == "deal" and new.phase != "deal":
        size = new.hand_size
        lines.append(said("dealt", f"{size} card{'s' if size != 1 else ''} dealt to each."))
        if new.hand is None:
            lines.append(said("face_down", "Your cards stay face down for now.", public=False))
        if new.special:
            lines.append(said("special", describe_special(new.special, None).capitalize() + "."))
    if new.trump_known and not prev.trump_known:
        lines.append(said("trump", f"Trump: {cards.trump(new.trump, new.turn_up)}"))
    if prev.phase == "pile_shuffle" and new.phase == "playing":
        lines.append(
            said("piles", "The hands are shuffled into face-down piles, played in pile order.")
        )
    return lines + game_present(new.rules).changes(prev, new, names, cards)


def summary(line: TextLine) -> Narration:
    """A line of a finished hand's summary."""
    return Narration("summary", line.text, line.public)


def narrate(
    prev: Observation,
    new: Observation,
    names: Sequence[str],
    cards: CardText,
    *,
    actor: int | None = None,
    action: Action | None = None,
) -> list[Narration]:
    """Everything ``new``'s seat is told between ``prev`` and ``new`` (one step apart:
    ``actor``'s ``action``, or a chance step such as a deal when ``action`` is None)."""
    lines: list[Narration] = []
    if action is not None and actor is not None:
        lines += action_lines(actor, action, prev, new, names, cards)
    return lines + change_lines(prev, new, names, cards)
