"""Euchre at the table (docs/games/euchre.md): the auction, the high bid, who passed, the
contract, the kitty and discards (the declarer's alone), the teams' points; the sentence
of an auction bid and the contract once settled; the hand's contract on the score sheet.
Declared as the game's ``present`` capability (:mod:`tricktaker.present.game`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tricktaker.engine import Action, HandResult, Observation
from tricktaker.present.game import BasePresent, other_lines
from tricktaker.present.parts import CardsLine, Line, Narration, RowFacts, TextLine
from tricktaker.present.text import (
    CardText,
    bid_text,
    card_text,
    cards_text,
    contract_text,
    seat_name,
    team_text,
    verb,
)

KEYS = frozenset(
    {
        "auction",
        "high_bid",
        "passed",
        "contract",
        "kitty",
        "discards",
        "team_scores",
        "team_tricks",
        "target",
    }
)
"""The keys of the game's data shown as its own lines."""


def euchre_lines(obs: Observation, names: Sequence[str], cards: CardText) -> list[Line]:
    """The auction, the high bid, who passed, the contract, the kitty and discards (the
    declarer's alone), the teams' points."""
    extra = obs.extra
    lines: list[Line] = []

    def both(label: str, text: str) -> None:
        lines.append(Line(label, text, text))

    auction = extra.get("auction")
    if isinstance(auction, list):
        shown = ",  ".join(f"{seat_name(s, names)} {bid_text(b, cards)}" for s, b in auction)
        both("Auction", shown or "no bid yet")
    high = extra.get("high_bid")
    if isinstance(high, Mapping):
        both("High bid", f"{seat_name(high.get('seat'), names)} {bid_text(high.get('bid'), cards)}")
    passed = extra.get("passed")
    if passed:
        both("Passed", ", ".join(seat_name(s, names) for s in passed))
    contract = extra.get("contract")
    if isinstance(contract, Mapping):
        both("Contract", contract_text(contract, names, cards))
    if extra.get("kitty") is not None:
        lines.append(Line("Kitty", cards_text(extra["kitty"], cards), None))
    if extra.get("discards") is not None:
        lines.append(Line("Discards", cards_text(extra["discards"], cards), None))
    scores, tricks = extra.get("team_scores"), extra.get("team_tricks")
    if obs.partnerships and isinstance(scores, list):
        parts = []
        for number, team in enumerate(obs.partnerships):
            part = f"{team_text(team, names)} {scores[number]}"
            if isinstance(tricks, list):
                part += f" ({tricks[number]} trick{'s' if tricks[number] != 1 else ''})"
            parts.append(part)
        target = extra.get("target")
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

    def lines(self, obs: Observation, names: Sequence[str], cards: CardText) -> list[Line]:
        """The auction, contract, kitty and points, then any other key of the data."""
        return euchre_lines(obs, names, cards) + other_lines(obs, KEYS, frozenset())

    def cards(self, obs: Observation, names: Sequence[str], cards: CardText) -> list[CardsLine]:
        """The kitty and the discards, drawn, where the seat (the declarer) sees them."""
        shown: list[CardsLine] = []
        for key, label in (("kitty", "Kitty"), ("discards", "Discarded")):
            value = obs.extra.get(key)
            if isinstance(value, list) and value:
                shown.append(CardsLine(label, tuple(str(c) for c in value)))
        return shown

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
        """A bid in the auction."""
        if action.kind != "auction":
            return None
        return f"{verb(names[seat], 'bid')} {bid_text(str(action.value), cards)}."

    def changes(
        self, prev: Observation, new: Observation, names: Sequence[str], cards: CardText
    ) -> list[Narration]:
        """The contract once settled, and the kitty the declarer takes."""
        if new.hands_played != prev.hands_played:
            return []
        same_hand = new.hand_number == prev.hand_number
        contract = new.extra.get("contract")
        had_contract = same_hand and isinstance(prev.extra.get("contract"), Mapping)
        if not isinstance(contract, Mapping) or had_contract:
            return []
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
        return [Narration("contract", line, public, seat=declarer)]

    def summary(self, hand: HandResult, names: Sequence[str], cards: CardText) -> list[TextLine]:
        """The contract (or the hand thrown in), and the kitty where the seat saw it."""
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

    def row(
        self,
        hand: HandResult,
        names: Sequence[str],
        cards: CardText,
        partnerships: Sequence[Sequence[int]],
    ) -> RowFacts:
        """The contract and whether it was made (or the hand thrown in)."""
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
