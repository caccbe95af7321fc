"""Euchre at the table (docs/games/euchre.md): the auction, the high bid, who passed, the
contract, the kitty and discards (the declarer's alone), the teams' points; the sentence
of an auction bid and the contract once settled; the hand's contract on the score sheet.
Declared as the game's ``present`` capability (:mod:`tricktaker.present.game`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tricktaker.engine import Action, Observation
from tricktaker.games.declared import seat_view
from tricktaker.games.euchre.hooks import AUCTION
from tricktaker.games.euchre.view import EuchreContract, EuchreView
from tricktaker.present.game import ActionSeen, BasePresent, HandSeen, cards_lines
from tricktaker.present.parts import CardsLine, Line, Narration, RowFacts, TextLine
from tricktaker.present.text import (
    CardText,
    bid_text,
    card_text,
    seat_name,
    suit_text,
    team_text,
    verb,
)


def contract_text(contract: Mapping[str, Any], names: Sequence[str], cards: CardText) -> str:
    """``Seat 1: 4 tricks, ♥ hearts trump`` (declarer or bidder, tricks, trump)."""
    who = contract.get("declarer", contract.get("bidder"))
    trump = contract.get("trump")
    trump_words = "no trump" if trump in (None, "no_trump") else f"{suit_text(trump, cards)} trump"
    return f"{seat_name(who, names)}: {contract.get('tricks')} tricks, {trump_words}"


def euchre_view(obs: Observation) -> EuchreView | None:
    """The seat's Euchre data, typed: the observation's view (read back from its JSON for
    an observation decoded from the wire); None when it has none."""
    return seat_view(obs, EuchreView, EuchreView.from_json)


def contract_words(contract: EuchreContract, names: Sequence[str], cards: CardText) -> str:
    """``Seat 1: 4 tricks, ♥ hearts trump`` (or ``no trump``)."""
    trump = "no trump" if contract.trump is None else f"{cards.suit(contract.trump)} trump"
    return f"{seat_name(contract.declarer, names)}: {contract.tricks} tricks, {trump}"


def euchre_lines(
    view: EuchreView, obs: Observation, names: Sequence[str], cards: CardText
) -> list[Line]:
    """The auction, the high bid, who passed, the contract, the kitty and discards (the
    declarer's alone), the teams' points."""
    lines: list[Line] = []

    def both(label: str, text: str) -> None:
        lines.append(Line(label, text, text))

    shown = ",  ".join(f"{seat_name(s, names)} {bid_text(b, cards)}" for s, b in view.auction)
    both("Auction", shown or "no bid yet")
    if view.high_bid is not None:
        seat, bid = view.high_bid
        both("High bid", f"{seat_name(seat, names)} {bid_text(bid, cards)}")
    if view.passed:
        both("Passed", ", ".join(seat_name(s, names) for s in view.passed))
    if view.contract is not None:
        both("Contract", contract_words(view.contract, names, cards))
    for label, held in (("Kitty", view.kitty), ("Discards", view.discards)):
        if held is not None:
            lines.append(Line(label, " ".join(cards.card(c) for c in held) or "none", None))
    if obs.partnerships:
        parts = []
        for number, team in enumerate(obs.partnerships):
            part = f"{team_text(team, names)} {view.team_scores[number]}"
            tricks = view.team_tricks[number]
            part += f" ({tricks} trick{'s' if tricks != 1 else ''})"
            parts.append(part)
        target = view.target
        both("Points", ",  ".join(parts) + (f";  game to {target}" if target else ""))
    return lines


def contract_summary(extra: Mapping[str, Any], names: Sequence[str], cards: CardText) -> str:
    """``Contract Seat 1: 4 tricks, ♥ hearts trump (auction: ...); tricks by team: 4 - 1.``"""
    contract = extra.get("contract")
    if extra.get("thrown_in") or not isinstance(contract, Mapping):
        return "Thrown in: everyone passed."
    text = f"Contract {contract_text(contract, names, cards)}"
    auction = extra.get("auction")
    if isinstance(auction, list) and auction:
        bids = ", ".join(f"{seat_name(s, names)} {bid_text(b, cards)}" for s, b in auction)
        text += f" (auction: {bids})"
    tricks = extra.get("partnership_tricks")
    if isinstance(tricks, list):
        text += f"; tricks by team: {' - '.join(map(str, tricks))}"
    return text + "."


class EuchrePresent(BasePresent):
    """Euchre's panel, narration and score sheet."""

    own_panel = True
    bids_total = False
    hidden_note = "(not dealt yet)"
    column = "Contract"
    action_headings: Mapping[str, str] = {
        "auction": "Your bid in the auction",
        "discard": "Discard",
    }

    def lines(self, obs: Observation, names: Sequence[str], cards: CardText) -> list[Line]:
        """The auction, contract, kitty and points."""
        view = euchre_view(obs)
        return euchre_lines(view, obs, names, cards) if view is not None else []

    def cards(self, obs: Observation, names: Sequence[str], cards: CardText) -> list[CardsLine]:
        """The kitty and the discards, drawn, where the seat (the declarer) sees them."""
        view = euchre_view(obs)
        if view is None:
            return []
        return cards_lines((("Kitty", view.kitty), ("Discarded", view.discards)))

    def choice_label(self, action: Action, cards: CardText) -> str | None:
        """A bid in the auction in words (``4 ♥ hearts``, ``no trump (5)``)."""
        return bid_text(action.value, cards) if action.kind == AUCTION else None

    def read_word(self, word: str, obs: Observation) -> Action | str | None:
        """In the auction, any other single word is a bid (refused, when it is none,
        with what may be bid)."""
        if " " not in word and any(action.kind == AUCTION for action in obs.legal_actions):
            return Action(AUCTION, word.upper())
        return None

    def prompt(self, obs: Observation, cards: CardText) -> str | None:
        """A bid in the auction, where there is a choice."""
        legal = obs.legal_actions
        if len(legal) > 1 and any(action.kind == AUCTION for action in legal):
            return "Your bid (a number from the list, or e.g. 4h, nt, pass): "
        return None

    def action_text(self, seen: ActionSeen) -> str | None:
        """A bid in the auction."""
        seat, action, names, cards = seen.seat, seen.action, seen.names, seen.cards
        if action.kind != "auction":
            return None
        return f"{verb(names[seat], 'bid')} {bid_text(str(action.value), cards)}."

    def changes(
        self, prev: Observation, new: Observation, names: Sequence[str], cards: CardText
    ) -> list[Narration]:
        """The contract once settled, and the kitty the declarer takes."""
        if new.hands_played != prev.hands_played:
            return []
        view, before = euchre_view(new), euchre_view(prev)
        if view is None or view.contract is None:
            return []
        if new.hand_number == prev.hand_number and before is not None and before.contract:
            return []
        contract = view.contract
        line = f"Contract: {contract_words(contract, names, cards)}."
        public = (
            f"{line} {seat_name(contract.declarer, names)} takes the kitty and discards"
            " three cards."
        )
        if view.kitty:
            taken = " ".join(cards.card(c) for c in view.kitty)
            line += f" {verb(names[new.seat], 'take')} the kitty: {taken}."
        else:
            line = public
        return [Narration("contract", line, public, seat=contract.declarer)]

    def summary(self, seen: HandSeen) -> list[TextLine]:
        """The contract (or the hand thrown in), and the kitty where the seat saw it."""
        hand, names, cards = seen.hand, seen.names, seen.cards
        extra = hand.extra
        if "contract" not in extra and not extra.get("thrown_in"):
            return []
        line = contract_summary(extra, names, cards)
        lines = [TextLine(line, line)]
        if isinstance(extra.get("kitty"), list):
            kitty = " ".join(card_text(c, cards) for c in extra["kitty"])
            discards = " ".join(card_text(c, cards) for c in extra.get("discards") or [])
            line = f"Kitty: {kitty}" + (f";  discarded: {discards}" if discards else "")
            lines.append(TextLine(line, None))
        return lines

    def row(self, seen: HandSeen) -> RowFacts:
        """The contract and whether it was made (or the hand thrown in)."""
        hand, names, cards, partnerships = seen.hand, seen.names, seen.cards, seen.partnerships
        extra = hand.extra
        thrown_in = bool(extra.get("thrown_in"))
        contract = extra.get("contract")
        if not isinstance(contract, Mapping):
            return RowFacts(
                data={"contract": None, "thrown_in": thrown_in},
                column="thrown in" if thrown_in else "",
                column_detail="thrown in",
            )
        bidder = contract.get("bidder", contract.get("declarer"))
        made = any(bidder in team and hand.hand_scores[team[0]] > 0 for team in partnerships)
        text = contract_text(contract, names, cards)
        data = {
            "bidder": bidder,
            "tricks": contract.get("tricks"),
            "trump": contract.get("trump"),
            "text": text,
            "made": made,
        }
        return RowFacts(
            data={"contract": data, "thrown_in": thrown_in},
            column=text,
            column_detail=text + (" - made" if made else " - set"),
        )


PRESENT = EuchrePresent()
"""Euchre's ``present`` capability."""
