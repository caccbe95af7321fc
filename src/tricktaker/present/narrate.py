"""The narration of what happened between two observations of one seat: bids, calls,
cards played and tricks won, plucks and give-backs, auctions and contracts, antes and
payments, the deal, the trump, and the end of a hand.

A card in another seat's action (a pluck, a give-back, a discard) is named only when
the seat's own observation shows it: it is now in its hand. Otherwise the text says
that a card was given or discarded, never which. Each line also has a ``public`` form
(None when it is only the seat's to know), which spectators are told.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tricktaker.cards import cards_of
from tricktaker.engine import Action, Observation
from tricktaker.engine.actions import (
    BID,
    CALL_DONE,
    CALL_KIND,
    CALL_MODIFIER,
    CALL_SIZE,
    PLAY,
    PLAY_PILE,
)

from .scorecard import TextLine, summary_lines
from .text import (
    CardText,
    ante_text,
    bid_text,
    card_text,
    contract_text,
    describe_call,
    describe_special,
    hand_heading,
    object_name,
    payment_groups,
    seat_name,
    suit_text,
    value_type,
    verb,
    words,
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


@dataclass(frozen=True, slots=True)
class Narration:
    """One line of narration.

    ``kind``: ``bid``, ``bid_hidden``, ``bids_revealed``, ``call``, ``play``, ``trick``,
    ``action`` (a game's own phase), ``dealt``, ``face_down``, ``special``, ``trump``,
    ``piles``, ``contract``, ``draw``, ``payment``, ``hand_over``, ``summary``,
    ``next_hand``. ``seat`` is the seat the line is about (the actor, the trick's
    winner), ``mine`` whether that is the observing seat, ``bold`` whether the terminal
    stresses it, ``cards`` the trick's cards (``[[seat, "7H"], ...]``) for ``trick``,
    ``hand`` the hand's number for ``hand_over``.
    """

    kind: str
    text: str
    public: str | None
    seat: int | None = None
    mine: bool = False
    bold: bool = False
    cards: tuple[tuple[int, str], ...] = ()
    hand: int | None = None

    def to_json(self) -> dict[str, object]:
        """The value as plain JSON data."""
        data: dict[str, object] = {
            "kind": self.kind,
            "text": self.text,
            "public": self.public,
            "seat": self.seat,
            "mine": self.mine,
            "bold": self.bold,
        }
        if self.cards:
            data["cards"] = [[s, c] for s, c in self.cards]
        if self.hand is not None:
            data["hand"] = self.hand
        return data


def said(
    kind: str,
    text: str,
    *,
    public: bool = True,
    seat: int | None = None,
    mine: bool = False,
    bold: bool = False,
    cards: tuple[tuple[int, str], ...] = (),
    hand: int | None = None,
) -> Narration:
    """A line whose public form is the line itself (or None where not ``public``)."""
    return Narration(kind, text, text if public else None, seat, mine, bold, cards, hand)


# ------------------------------------------------------------ actions


def visible_card(seat: int, action: Action, new: Observation) -> int | None:
    """The action's card if ``new``'s seat may know it: its own, or now in its hand."""
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
    cards: CardText,
    *,
    hide: bool = False,
) -> str:
    """One sentence about an action of a game's own phase; a card is named only when the
    seat may know it (never when ``hide``: the public form)."""
    name = names[seat]
    kind = action.kind
    kind_type = value_type(kind)
    if kind_type == "card":
        card = None if hide else visible_card(seat, action, new)
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
    if kind == CALL_SIZE:
        text = f"{verb(name, 'call')} a hand of {action.value} cards."
    elif kind == CALL_KIND:
        text = f"{verb(name, 'call')} {str(action.value).replace('_', ' ')}."
    elif kind == CALL_MODIFIER:
        text = f"{verb(name, 'add')} the modifier {action.value}."
    elif kind == CALL_DONE:
        call = describe_call(new.call) if new.call is not None else "?"
        text = f"{verb(name, 'finish')} the call: {call}."
    elif kind in (PLAY, PLAY_PILE):
        return card_lines(seat, prev, new, names, cards)
    else:
        text = describe_game_action(seat, action, prev, new, names, cards)
        public = describe_game_action(seat, action, prev, new, names, cards, hide=True)
        return [Narration("action", text, public, seat=seat, mine=mine)]
    return [said("call", text, seat=seat, mine=mine)]


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


def game_changes(
    prev: Observation, new: Observation, names: Sequence[str], cards: CardText
) -> list[Narration]:
    """What a game's own section says changed between two observations of one hand:
    a contract settled, the kitty taken, cards drawn, payments into or out of the pot."""
    lines: list[Narration] = []
    if new.hands_played != prev.hands_played:
        return lines
    same_hand = new.hand_number == prev.hand_number
    contract = new.extra.get("contract")
    had_contract = same_hand and isinstance(prev.extra.get("contract"), Mapping)
    if isinstance(contract, Mapping) and not had_contract:
        line = f"Contract: {contract_text(contract, names, cards)}."
        declarer = contract.get("declarer", contract.get("bidder"))
        public = line
        if "kitty" in new.extra:
            public += f" {seat_name(declarer, names)} takes the kitty and discards three cards."
        kitty = new.extra.get("kitty")
        if kitty:
            taken = " ".join(card_text(c, cards) for c in kitty)
            line += f" {verb(names[new.seat], 'take')} the kitty: {taken}."
        else:
            line = public
        lines.append(Narration("contract", line, public, seat=declarer))
    if same_hand and prev.phase in ("draw", "restock") and prev.hand is not None and new.hand:
        drawn = cards_of(new.hand & ~prev.hand)
        if drawn:
            shown = " ".join(cards.card(c) for c in drawn)
            text = f"{verb(names[new.seat], 'draw')} {shown}."
            lines.append(said("draw", text, public=False, seat=new.seat, mine=True))
    before = prev.extra.get("payments") if same_hand else []
    after = new.extra.get("payments")
    if isinstance(before, list) and isinstance(after, list) and len(after) > len(before):
        lines += [
            said("payment", line + ".") for line in payment_groups(after[len(before) :], names)
        ]
    return lines


def change_lines(
    prev: Observation, new: Observation, names: Sequence[str], cards: CardText
) -> list[Narration]:
    """What changed between ``prev`` and ``new`` besides the action itself: the end of a
    hand (its summary, and the next hand's heading unless the game is over), the deal,
    a special hand, the trump, the piles, and the game's own changes."""
    lines: list[Narration] = []
    if new.hands_played > prev.hands_played:
        hand = new.history[-1]
        lines.append(said("hand_over", f"Hand {hand.number} is over.", bold=True, hand=hand.number))
        lines += [summary(line) for line in summary_lines(hand, names, cards)]
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
    if new.rules.spec.hooks is not None:
        lines += game_changes(prev, new, names, cards)
    return lines


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
