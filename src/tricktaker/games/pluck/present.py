"""Pluck at the table (docs/games/pluck.md): the quotas, the plucks done (with the cards
the seat saw), the pluck under way and the plucks to come; the sentences of a pluck and
a give-back; the hand's quotas and plucks on the score sheet, counted in tricks over
quota. Declared as the game's ``present`` capability (:mod:`tricktaker.present.game`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tricktaker.cards import parse_card
from tricktaker.engine import Action, HandResult, Observation
from tricktaker.present.game import BasePresent, other_lines
from tricktaker.present.parts import CardsLine, Line, RowFacts, SeatFacts, TextLine
from tricktaker.present.text import (
    CardText,
    card_text,
    conjugate,
    object_name,
    seat_name,
    verb,
    visible_card,
)

KEYS = frozenset({"quotas", "plucks", "plucks_pending", "pluck_in_progress"})
"""The keys of the game's data shown as its own lines."""
QUOTA_WORDS = {"S": "short", "O": "over", "P": "made"}
"""How a hand's outcome against a quota is said."""


def pluck_line(pluck: Mapping[str, Any], names: Sequence[str], cards: CardText) -> str:
    """``Seat 1 plucked you (gave 3♥, got back J♥)``; the cards only when they are known."""
    plucker = seat_name(pluck.get("plucker"), names)
    text = f"{plucker} plucked {object_name(pluck.get('pluckee'), names)}"
    given, returned = pluck.get("given"), pluck.get("returned")
    if given is not None:
        text += f" (gave {card_text(given, cards)}, got back {card_text(returned, cards)})"
    return text


def pluck_lines(extra: Mapping[str, Any], names: Sequence[str], cards: CardText) -> list[Line]:
    """The quotas, the plucks done (with the cards the seat saw), the pluck under way and
    the plucks to come."""
    lines: list[Line] = []
    pending = list(extra.get("plucks_pending") or [])
    quotas = extra.get("quotas")
    if isinstance(quotas, list) and quotas:
        text = ",  ".join(f"{names[s]} {q}" for s, q in enumerate(quotas))
        lines.append(Line("Quotas", text, text))
    plucks = extra.get("plucks") or []
    if plucks:
        text = ";  ".join(pluck_line(p, names, cards) for p in plucks)
        hidden = [{**p, "given": None, "returned": None} for p in plucks]
        lines.append(Line("Plucks", text, ";  ".join(pluck_line(p, names, cards) for p in hidden)))
    current = extra.get("pluck_in_progress")
    if isinstance(current, Mapping):
        plucker = seat_name(current.get("plucker"), names)
        pluckee = object_name(current.get("pluckee"), names)
        given = current.get("given")
        gave = card_text(given, cards) if given is not None else "a card face down"
        start = f"{conjugate(plucker, 'pluck')} {pluckee}, giving "
        rest = " the highest card of its suit goes back"
        lines.append(Line("Now", f"{start}{gave};{rest}", f"{start}a card face down;{rest}"))
        pending = pending[1:]
    if pending:
        counts: dict[tuple[int, int], int] = {}
        for plucker_seat, pluckee_seat in pending:
            pair = (plucker_seat, pluckee_seat)
            counts[pair] = counts.get(pair, 0) + 1
        shown = [
            f"{conjugate(seat_name(a, names), 'pluck')} {object_name(b, names)}"
            + (f" x{n}" if n > 1 else "")
            for (a, b), n in counts.items()
        ]
        text = ";  ".join(shown)
        lines.append(Line("To come", text, text))
    return lines


class PluckPresent(BasePresent):
    """Pluck's panel, narration and score sheet."""

    own_panel = True
    bids_total = False
    hidden_note = "(not dealt yet)"
    layout = "quota"
    unit = "tricks over quota"
    outcome_words = QUOTA_WORDS
    action_headings: Mapping[str, str] = {"pluck": "Pluck: choose the card to give"}

    def lines(self, obs: Observation, names: Sequence[str], cards: CardText) -> list[Line]:
        """The quotas and plucks, then any other key of the game's data."""
        return pluck_lines(obs.extra, names, cards) + other_lines(obs, KEYS, frozenset())

    def cards(self, obs: Observation, names: Sequence[str], cards: CardText) -> list[CardsLine]:
        """The card a pluck under way gave, where the seat sees it."""
        current = obs.extra.get("pluck_in_progress")
        if not isinstance(current, Mapping) or not current.get("given"):
            return []
        note = (
            f"{seat_name(current.get('plucker'), names)} plucks from"
            f" {seat_name(current.get('pluckee'), names)}"
        )
        return [CardsLine("Card given", (str(current["given"]),), note)]

    def seats(self, obs: Observation) -> SeatFacts:
        """Each seat's quota, shown instead of a bid."""
        quotas = obs.extra.get("quotas")
        return SeatFacts(quota=tuple(quotas) if isinstance(quotas, list) else None)

    def received(self, obs: Observation) -> int:
        """The card the pluck under way gave this seat."""
        current = obs.extra.get("pluck_in_progress")
        if not isinstance(current, Mapping) or current.get("pluckee") != obs.seat:
            return 0
        given = current.get("given")
        if not given:
            return 0
        return 1 << parse_card(str(given), labels=obs.rules.joker_labels)

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
        """A pluck (the card given, where the seat may know it) and a give-back."""
        if action.kind not in ("pluck", "give_back"):
            return None
        name = names[seat]
        card = None if hide else visible_card(seat, action, new)
        shown = cards.card(card) if card is not None else "a card"
        if action.kind == "pluck":
            shown = shown if card is not None else "a card face down"
            pending = prev.extra.get("plucks_pending") or []
            pluckee = object_name(pending[0][1], names) if pending else "a player"
            return f"{verb(name, 'pluck')} {pluckee}, giving {shown}."
        done = new.extra.get("plucks") or []
        plucker = "the plucker"
        if done and isinstance(done[-1], Mapping):
            plucker = object_name(done[-1].get("plucker"), names)
        return f"{verb(name, 'give')} back {shown} to {plucker}."

    def summary(self, hand: HandResult, names: Sequence[str], cards: CardText) -> list[TextLine]:
        """The quotas and the plucks before play."""
        extra = hand.extra
        if "quotas" not in extra:
            return []
        quotas = ", ".join(f"{seat_name(s, names)} {q}" for s, q in enumerate(extra["quotas"]))
        plucks = extra.get("plucks") or []
        line = f"Quotas: {quotas}.  Plucks before play: {len(plucks)}."
        lines = [TextLine(line, line)]
        for pluck in plucks:
            hidden = {**pluck, "given": None, "returned": None}
            lines.append(
                TextLine(
                    f"  {pluck_line(pluck, names, cards)}", f"  {pluck_line(hidden, names, cards)}"
                )
            )
        return lines

    def row(
        self,
        hand: HandResult,
        names: Sequence[str],
        cards: CardText,
        partnerships: Sequence[Sequence[int]],
    ) -> RowFacts:
        """The hand's quotas and plucks (with the cards, where the seat saw them)."""
        extra = hand.extra
        if not isinstance(extra.get("quotas"), list):
            return RowFacts()
        plucks = [
            {
                "plucker": p.get("plucker"),
                "pluckee": p.get("pluckee"),
                "given": p.get("given"),
                "returned": p.get("returned"),
                "text": pluck_line(p, names, cards),
            }
            for p in extra.get("plucks") or []
            if isinstance(p, Mapping)
        ]
        return RowFacts(data={"quotas": [int(q) for q in extra["quotas"]], "plucks": plucks})


PRESENT = PluckPresent()
"""Pluck's ``present`` capability."""
