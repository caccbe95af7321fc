"""Buckup at the table (docs/games/buckup.md): the pot, the ante, the face-up scare
cards, the stock and each seat's payments this hand, its chips and status, its own
discards and draws; the sentences of its choices, the cards drawn and the payments;
the pot on the score sheet, counted in chips won or lost. Declared as the game's
``present`` capability (:mod:`tricktaker.present.game`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tricktaker.cards import cards_of
from tricktaker.engine import Action, HandResult, Observation
from tricktaker.present.game import BasePresent, other_lines
from tricktaker.present.parts import (
    CardsLine,
    Line,
    Narration,
    RowFacts,
    SeatFacts,
    TextLine,
    said,
)
from tricktaker.present.text import (
    CardText,
    ante_text,
    card_text,
    cards_text,
    payment_groups,
    payments_by_seat,
    seat_name,
    value_type,
    verb,
    words,
)

KEYS = frozenset(
    {"pot", "ante", "scare_cards", "stock", "payments", "discarded", "drew", "stacks", "status"}
)
"""The keys of the game's data shown as its own lines or in the seat rows."""
PUBLIC_KEYS = frozenset({"drawn", "scare_discarded"})
"""The other keys, shown as ``Key: value`` lines, that every seat sees alike."""
PHRASES: dict[str, tuple[str, str]] = {
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
"""The game's choices without a value: the verb and the rest of the sentence."""


def buckup_lines(extra: Mapping[str, Any], names: Sequence[str], cards: CardText) -> list[Line]:
    """The pot, the ante, the face-up scare cards, the stock and each seat's payments
    this hand, and the seat's own discards and draws."""
    lines: list[Line] = []

    def both(label: str, text: str) -> None:
        lines.append(Line(label, text, text))

    if "pot" in extra:
        both("Pot", str(extra["pot"]))
    if "ante" in extra:
        both("Ante", ante_text(extra["ante"]) if extra["ante"] else "not set yet")
    scare = extra.get("scare_cards")
    if isinstance(scare, list) and any(c is not None for c in scare):
        both(
            "Face up",
            ",  ".join(
                f"{names[s]} {card_text(c, cards)}" for s, c in enumerate(scare) if c is not None
            ),
        )
    if "stock" in extra:
        both("Stock", f"{extra['stock']} cards")
    payments = extra.get("payments")
    if isinstance(payments, list):
        both("Payments", payments_by_seat(payments, names))
    for key, label in (("discarded", "Discarded"), ("drew", "Drew")):
        own = extra.get(key)
        if isinstance(own, list) and own:  # the seat's own cards: no public form
            lines.append(Line(label, cards_text(own, cards), None))
    return lines


def pot_summary(extra: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """The pot carried in and out, who won it, who was burned, the payments."""
    winners = extra.get("winners") or []
    burned = extra.get("burned") or []
    settled = extra.get("pot_settled")
    line = f"Pot: {extra.get('pot_before')} carried in"
    line += f", {settled} at settlement" if settled is not None else ""
    line += f", {extra.get('pot_after')} carried over."
    if winners:
        line += f"  Won by {', '.join(seat_name(s, names) for s in winners)}."
    else:
        line += "  Nobody took 2 tricks: the pot stays."
    if burned:
        line += f"  Burned: {', '.join(seat_name(s, names) for s in burned)}."
    lines = [line]
    payments = extra.get("payments")
    if isinstance(payments, list) and payments:
        lines.append("Payments: " + payments_by_seat(payments, names) + ".")
    if extra.get("ante"):
        lines.append(f"Ante: {ante_text(extra['ante'])}.")
    return lines


class BuckupPresent(BasePresent):
    """Buckup's panel, narration and score sheet."""

    own_panel = True
    bids_total = False
    hidden_note = "(not dealt yet)"
    layout = "chips"
    unit = "chips net"
    column = "Pot"

    def lines(self, obs: Observation, names: Sequence[str], cards: CardText) -> list[Line]:
        """The pot, ante, face-up cards, stock and payments, then the other keys."""
        return buckup_lines(obs.extra, names, cards) + other_lines(obs, KEYS, PUBLIC_KEYS)

    def cards(self, obs: Observation, names: Sequence[str], cards: CardText) -> list[CardsLine]:
        """The seat's own discards and draws, drawn."""
        shown: list[CardsLine] = []
        for key, label in (("discarded", "You discarded"), ("drew", "You drew")):
            value = obs.extra.get(key)
            if isinstance(value, list) and value:
                shown.append(CardsLine(label, tuple(str(c) for c in value)))
        return shown

    def seats(self, obs: Observation) -> SeatFacts:
        """Each seat's chips and status (in, out, out for now)."""
        stacks = obs.extra.get("stacks")
        status = obs.extra.get("status")
        return SeatFacts(
            stack=tuple(stacks) if isinstance(stacks, list) else None,
            status=tuple(status) if isinstance(status, list) else None,
        )

    def net(self, obs: Observation) -> list[int] | None:
        """Each seat's chips won or lost so far, as its stack shows them now (a player's
        score is their stack minus the starting stack), counting this hand's payments
        before the hand is settled.

        >>> from tricktaker import load_ruleset, new_game
        >>> state = new_game(load_ruleset("buckup"), players=4, seed=5)
        >>> while state.observe(0).extra.get("pot") == 0:
        ...     if state.is_chance():
        ...         state.apply_chance()
        ...     else:
        ...         seat = state.to_act()[0]
        ...         state.apply(seat, state.observe(seat).legal_actions[0])
        >>> obs = state.observe(0)
        >>> obs.scores, obs.extra["stacks"][0] - 500 == PRESENT.net(obs)[0] != 0
        ((0, 0, 0, 0), True)
        """
        stacks = obs.extra.get("stacks")
        settings = obs.rules.data.get("settings")
        start = settings.get("starting_stack") if isinstance(settings, Mapping) else None
        if not isinstance(stacks, list) or not isinstance(start, int):
            return None
        return [int(stack) - start for stack in stacks]

    def hand_stacks(self, hand: HandResult) -> tuple[int, ...] | None:
        """Each seat's chips after the hand."""
        stacks = hand.extra.get("stacks")
        return tuple(int(v) for v in stacks) if isinstance(stacks, list) else None

    def action_text(
        self,
        seat: int,
        action: Action,
        prev: Observation,
        new: Observation,
        names: Sequence[str],
        cards: CardText,
        *,
        hide: bool,
    ) -> str | None:
        """The ante set, and the choices without a value (stay, fold, redeal...)."""
        name = names[seat]
        if action.kind == "ante":
            ante = new.extra.get("ante")
            structure = ante_text(ante) if ante else words(str(action.value))
            return f"{verb(name, 'set')} the ante: {structure}."
        if action.kind in PHRASES and value_type(action.kind) == "none":
            base, rest = PHRASES[action.kind]
            return f"{verb(name, base)}{rest}."
        return None

    def changes(
        self, prev: Observation, new: Observation, names: Sequence[str], cards: CardText
    ) -> list[Narration]:
        """The cards the seat drew, and payments into or out of the pot."""
        lines: list[Narration] = []
        if new.hands_played != prev.hands_played:
            return lines
        same_hand = new.hand_number == prev.hand_number
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

    def summary(self, hand: HandResult, names: Sequence[str], cards: CardText) -> list[TextLine]:
        """The pot, its winners, the burned, the payments and the ante."""
        if "pot_before" not in hand.extra:
            return []
        return [TextLine(line, line) for line in pot_summary(hand.extra, names)]

    def row(
        self,
        hand: HandResult,
        names: Sequence[str],
        cards: CardText,
        partnerships: Sequence[Sequence[int]],
    ) -> RowFacts:
        """The pot carried in, settled and carried over, its winners and the burned."""
        extra = hand.extra
        if "pot_before" not in extra:
            return RowFacts()
        pot = {
            "before": extra.get("pot_before"),
            "settled": extra.get("pot_settled"),
            "after": extra.get("pot_after"),
            "winners": list(extra.get("winners") or []),
            "burned": list(extra.get("burned") or []),
            "ante": dict(extra["ante"]) if isinstance(extra.get("ante"), Mapping) else None,
            "ante_text": ante_text(extra["ante"]) if extra.get("ante") else None,
        }
        before, after = pot["before"], pot["after"]
        return RowFacts(
            data={"pot": pot},
            column=f"{'' if before is None else before}\u2192{'' if after is None else after}",
            column_detail=f"{'-' if before is None else before}->{'-' if after is None else after}",
        )


PRESENT = BuckupPresent()
"""Buckup's ``present`` capability."""
