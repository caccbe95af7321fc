"""Pluck at the table (docs/games/pluck.md): the quotas, the plucks done (with the cards
the seat saw), the pluck under way and the plucks to come; the sentences of a pluck and
a give-back; the hand's quotas and plucks on the score sheet, counted in tricks over
quota. Declared as the game's ``present`` capability (:mod:`tricktaker.present.game`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tricktaker.engine import Action, Observation
from tricktaker.games.declared import seat_view
from tricktaker.games.pluck.hooks import CALL_TRUMP
from tricktaker.games.pluck.view import PluckMove, PluckView
from tricktaker.present.game import ActionSeen, BasePresent, HandSeen
from tricktaker.present.parts import CardsLine, Line, RowFacts, SeatFacts, TextLine
from tricktaker.present.text import (
    CardText,
    card_text,
    conjugate,
    object_name,
    seat_name,
    suit_text,
    verb,
    visible_card,
)

QUOTA_WORDS = {"S": "short", "O": "over", "P": "made"}
"""How a hand's outcome against a quota is said."""


def pluck_view(obs: Observation) -> PluckView | None:
    """The seat's Pluck data, typed: the observation's view (read back from its JSON for
    an observation decoded from the wire); None when it has none."""
    return seat_view(
        obs, PluckView, lambda extra: PluckView.from_json(extra, obs.rules.joker_labels)
    )


def pluck_words(
    plucker: Any, pluckee: Any, given: str | None, returned: str | None, names: Sequence[str]
) -> str:
    """``Seat 1 plucked you (gave 3♥, got back J♥)``: the cards (already in words) only
    when they are known."""
    text = f"{seat_name(plucker, names)} plucked {object_name(pluckee, names)}"
    if given is not None:
        text += f" (gave {given}, got back {returned or 'a card'})"
    return text


def pluck_line(pluck: Mapping[str, Any], names: Sequence[str], cards: CardText) -> str:
    """A pluck of a finished hand's record (cards as codes) in words."""
    given, returned = pluck.get("given"), pluck.get("returned")
    return pluck_words(
        pluck.get("plucker"),
        pluck.get("pluckee"),
        card_text(given, cards) if given is not None else None,
        card_text(returned, cards),
        names,
    )


def move_line(move: PluckMove, names: Sequence[str], cards: CardText, *, hide: bool = False) -> str:
    """A pluck of the hand in progress in words (``hide``: without its cards)."""
    given = None if hide or move.given is None else cards.card(move.given)
    returned = None if hide or move.returned is None else cards.card(move.returned)
    return pluck_words(move.plucker, move.pluckee, given, returned, names)


def pluck_lines(view: PluckView, names: Sequence[str], cards: CardText) -> list[Line]:
    """The quotas, the plucks done (with the cards the seat saw), the pluck under way and
    the plucks to come."""
    lines: list[Line] = []
    pending = list(view.plucks_pending)
    if view.quotas:
        text = ",  ".join(f"{names[s]} {q}" for s, q in enumerate(view.quotas))
        lines.append(Line("Quotas", text, text))
    if view.plucks:
        text = ";  ".join(move_line(p, names, cards) for p in view.plucks)
        public = ";  ".join(move_line(p, names, cards, hide=True) for p in view.plucks)
        lines.append(Line("Plucks", text, public))
    current = view.pluck_in_progress
    if current is not None:
        plucker = seat_name(current.plucker, names)
        pluckee = object_name(current.pluckee, names)
        gave = cards.card(current.given) if current.given is not None else "a card face down"
        start = f"{conjugate(plucker, 'pluck')} {pluckee}, giving "
        rest = " the highest card of its suit goes back"
        lines.append(Line("Now", f"{start}{gave};{rest}", f"{start}a card face down;{rest}"))
        pending = pending[1:]
    if pending:
        counts: dict[tuple[int, int], int] = {}
        for pair in pending:
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
    action_headings: Mapping[str, str] = {
        "pluck": "Pluck: choose the card to give",
        "give_back": "Give back",
        "call_trump": "Name trumps",
    }

    def lines(self, obs: Observation, names: Sequence[str], cards: CardText) -> list[Line]:
        """The quotas and plucks."""
        view = pluck_view(obs)
        return pluck_lines(view, names, cards) if view is not None else []

    def cards(self, obs: Observation, names: Sequence[str], cards: CardText) -> list[CardsLine]:
        """The card a pluck under way gave, where the seat sees it."""
        view = pluck_view(obs)
        current = view.pluck_in_progress if view is not None else None
        if current is None or current.given is None:
            return []
        note = (
            f"{seat_name(current.plucker, names)} plucks from {seat_name(current.pluckee, names)}"
        )
        return [CardsLine("Card given", (cards.code(current.given),), note)]

    def seats(self, obs: Observation) -> SeatFacts:
        """Each seat's quota, shown instead of a bid."""
        view = pluck_view(obs)
        return SeatFacts(quota=view.quotas if view is not None else None)

    def received(self, obs: Observation) -> int:
        """The card the pluck under way gave this seat."""
        view = pluck_view(obs)
        current = view.pluck_in_progress if view is not None else None
        if current is None or current.pluckee != obs.seat or current.given is None:
            return 0
        return 1 << current.given

    def choice_label(self, action: Action, cards: CardText) -> str | None:
        """A trump to name as its suit (``♥ hearts``)."""
        return suit_text(action.value, cards) if action.kind == CALL_TRUMP else None

    def prompt(self, obs: Observation, cards: CardText) -> str | None:
        """The dealer's choice of trump, where there is a choice."""
        legal = obs.legal_actions
        if len(legal) > 1 and all(action.kind == CALL_TRUMP for action in legal):
            return "Name trump (a number from the list, C, D, H, S or the suit's name): "
        return None

    def action_text(self, seen: ActionSeen) -> str | None:
        """A pluck (the card given, where the seat may know it), a give-back, and the
        dealer's trump call."""
        seat, action, prev, new = seen.seat, seen.action, seen.prev, seen.new
        names, cards, hide = seen.names, seen.cards, seen.hide
        name = names[seat]
        if action.kind == CALL_TRUMP:
            return f"{verb(name, 'name')} {suit_text(str(action.value), cards)} as trump."
        if action.kind not in ("pluck", "give_back"):
            return None
        card = None if hide else visible_card(seat, action, new)
        shown = cards.card(card) if card is not None else "a card"
        if action.kind == "pluck":
            shown = shown if card is not None else "a card face down"
            before = pluck_view(prev)
            pending = before.plucks_pending if before is not None else ()
            pluckee = object_name(pending[0][1], names) if pending else "a player"
            return f"{verb(name, 'pluck')} {pluckee}, giving {shown}."
        after = pluck_view(new)
        done = after.plucks if after is not None else ()
        plucker = object_name(done[-1].plucker, names) if done else "the plucker"
        return f"{verb(name, 'give')} back {shown} to {plucker}."

    def summary(self, seen: HandSeen) -> list[TextLine]:
        """The quotas and the plucks before play."""
        hand, names, cards = seen.hand, seen.names, seen.cards
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

    def row(self, seen: HandSeen) -> RowFacts:
        """The hand's quotas and plucks (with the cards, where the seat saw them)."""
        hand, names, cards = seen.hand, seen.names, seen.cards
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
