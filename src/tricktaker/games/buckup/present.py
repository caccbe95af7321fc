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
from tricktaker.engine import HandResult, Observation
from tricktaker.games.buckup.view import BuckupView
from tricktaker.games.declared import seat_view
from tricktaker.present.game import ActionSeen, BasePresent, HandSeen, cards_lines
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
    YOU,
    CardText,
    plain,
    seat_name,
    value_type,
    verb,
    words,
)

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


def ante_text(ante: Any) -> str:
    """``ante 5 each, fold fee 5, 5 a card kept``."""
    if not isinstance(ante, Mapping):
        return plain(ante)
    parts = [f"ante {ante.get('ante')} each"]
    fold_fee = ante.get("fold_fee")
    parts.append(f"fold fee {fold_fee}" if fold_fee else "no fold fee")
    per = str(ante.get("fee_per", "kept")).replace("_", " ")
    parts.append(f"{ante.get('card_fee')} a card {per}")
    return ", ".join(parts)


def payment_text(payment: Any, names: Sequence[str]) -> str:
    """``Seat 2 pays 5 (ante)`` / ``You take 60 (win)``."""
    if not isinstance(payment, Mapping):
        return plain(payment)
    amount = payment.get("amount")
    paid = "pays" if not isinstance(amount, int) or amount >= 0 else "takes"
    who = seat_name(payment.get("seat"), names)
    if who == YOU:
        paid = paid.removesuffix("s")
    shown = abs(amount) if isinstance(amount, int) else amount
    reason = str(payment.get("reason", "")).replace("_", " ")
    return f"{who} {paid} {shown}" + (f" ({reason})" if reason else "")


def payment_groups(payments: Sequence[Any], names: Sequence[str]) -> list[str]:
    """Payments in order, runs of the same amount for the same reason joined:
    ``Seat 3, You, Seat 1 pay 5 (ante)``."""
    lines: list[str] = []
    run: list[Mapping[str, Any]] = []

    def flush() -> None:
        if len(run) == 1:
            lines.append(payment_text(run[0], names))
        elif run:
            who = ", ".join(seat_name(p.get("seat"), names) for p in run)
            lines.append(payment_text({**run[0], "seat": who}, names).replace(" pays ", " pay "))
        run.clear()

    for payment in payments:
        if not isinstance(payment, Mapping):
            flush()
            lines.append(plain(payment))
            continue
        if run and (payment.get("amount"), payment.get("reason")) != (
            run[0].get("amount"),
            run[0].get("reason"),
        ):
            flush()
        run.append(payment)
    flush()
    return lines


def payments_by_seat(payments: Sequence[Any], names: Sequence[str]) -> str:
    """Each seat's payments as their effect on its stack: ``You: ante -5, win +60``."""
    seats: dict[str, list[str]] = {}
    for payment in payments:
        if not isinstance(payment, Mapping) or not isinstance(payment.get("amount"), int):
            continue
        who = seat_name(payment.get("seat"), names)
        reason = str(payment.get("reason", "")).replace("_", " ")
        seats.setdefault(who, []).append(f"{reason} {-payment['amount']:+d}")
    return ";  ".join(f"{who}: {', '.join(items)}" for who, items in seats.items()) or "none"


def buckup_view(obs: Observation) -> BuckupView | None:
    """The seat's Buckup data, typed: the observation's view (read back from its JSON for
    an observation decoded from the wire); None when it has none."""
    return seat_view(obs, BuckupView, BuckupView.from_json)


def buckup_lines(view: BuckupView, names: Sequence[str], cards: CardText) -> list[Line]:
    """The pot, the ante, the face-up scare cards, the stock and each seat's payments
    this hand, the seat's own discards and draws, and who drew how many and whose face-up
    card went (public)."""
    lines: list[Line] = []

    def both(label: str, text: str) -> None:
        lines.append(Line(label, text, text))

    both("Pot", str(view.pot))
    both("Ante", ante_text(view.ante.describe()) if view.ante is not None else "not set yet")
    scare = view.scare_cards
    if scare is not None and any(c is not None for c in scare):
        both(
            "Face up",
            ",  ".join(f"{names[s]} {cards.card(c)}" for s, c in enumerate(scare) if c is not None),
        )
    both("Stock", f"{view.stock} cards")
    both("Payments", payments_by_seat([p.to_json() for p in view.payments], names))
    for label, own in (("Discarded", view.discarded), ("Drew", view.drew)):
        if own:  # the seat's own cards: no public form
            lines.append(Line(label, " ".join(cards.card(c) for c in own), None))
    if view.scare_discarded is not None:
        both("Scare discarded", plain(list(view.scare_discarded)))
    if view.drawn is not None:
        both("Drawn", plain(list(view.drawn)))
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
    action_headings: Mapping[str, str] = {"ante": "Choose the ante", "discard": "Discard"}

    def lines(self, obs: Observation, names: Sequence[str], cards: CardText) -> list[Line]:
        """The pot, ante, face-up cards, stock, payments, own discards and draws."""
        view = buckup_view(obs)
        return buckup_lines(view, names, cards) if view is not None else []

    def cards(self, obs: Observation, names: Sequence[str], cards: CardText) -> list[CardsLine]:
        """The seat's own discards and draws, drawn."""
        view = buckup_view(obs)
        if view is None:
            return []
        return cards_lines((("You discarded", view.discarded), ("You drew", view.drew)))

    def seats(self, obs: Observation) -> SeatFacts:
        """Each seat's chips and status (in, out, out for now)."""
        view = buckup_view(obs)
        if view is None:
            return SeatFacts()
        return SeatFacts(stack=view.stacks, status=view.status)

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
        view = buckup_view(obs)
        settings = obs.rules.data.get("settings")
        start = settings.get("starting_stack") if isinstance(settings, Mapping) else None
        if view is None or not isinstance(start, int):
            return None
        return [stack - start for stack in view.stacks]

    def hand_stacks(self, hand: HandResult) -> tuple[int, ...] | None:
        """Each seat's chips after the hand."""
        stacks = hand.extra.get("stacks")
        return tuple(int(v) for v in stacks) if isinstance(stacks, list) else None

    def action_text(self, seen: ActionSeen) -> str | None:
        """The ante set, and the choices without a value (stay, fold, redeal...)."""
        seat, action, new, names = seen.seat, seen.action, seen.new, seen.names
        name = names[seat]
        if action.kind == "ante":
            view = buckup_view(new)
            ante = view.ante if view is not None else None
            structure = ante_text(ante.describe()) if ante else words(str(action.value))
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
        old, now = buckup_view(prev), buckup_view(new)
        before = (old.payments if old is not None else ()) if same_hand else ()
        after = now.payments if now is not None else ()
        if len(after) > len(before):
            paid = [p.to_json() for p in after[len(before) :]]
            lines += [said("payment", line + ".") for line in payment_groups(paid, names)]
        return lines

    def summary(self, seen: HandSeen) -> list[TextLine]:
        """The pot, its winners, the burned, the payments and the ante."""
        hand, names = seen.hand, seen.names
        if "pot_before" not in hand.extra:
            return []
        return [TextLine(line, line) for line in pot_summary(hand.extra, names)]

    def row(self, seen: HandSeen) -> RowFacts:
        """The pot carried in, settled and carried over, its winners and the burned."""
        hand = seen.hand
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
