"""Rich rendering shared by the commands: cards, the table seen by a seat, scorecards."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.highlighter import Highlighter
from rich.table import Table
from rich.text import Text

from tricktaker.cards import (
    SUIT_NAMES,
    SUIT_SYMBOLS,
    card_rank,
    card_suit,
    format_card,
    pretty_card,
)
from tricktaker.engine import HandResult, Observation


@dataclass(frozen=True, slots=True)
class Cards:
    """How cards are written for people: ``A♠`` (or ``AS`` where symbols cannot print)."""

    labels: tuple[str, str] = ("HB", "LB")
    symbols: bool = True

    def card(self, card: int) -> str:
        if self.symbols:
            return pretty_card(card, labels=self.labels)
        return format_card(card, labels=self.labels)

    def suit(self, suit: int | None) -> str:
        if suit is None:
            return "no trump"
        if self.symbols:
            return f"{SUIT_SYMBOLS[suit]} {SUIT_NAMES[suit]}"
        return SUIT_NAMES[suit]

    def hand(self, cards: Sequence[int]) -> str:
        """Cards grouped by suit (jokers first), highest rank first within a suit."""
        groups = [[self.card(c) for c in group] for group in hand_groups(cards)]
        return "   ".join(" ".join(group) for group in groups) or "(none)"

    def numbered_hand(self, cards: Sequence[int], legal: Collection[int]) -> Text:
        """The hand as :meth:`hand` shows it, each card numbered in that order
        (``1)J♥ 2)9♥``); the cards not in ``legal`` are dimmed."""
        text = Text()
        number = 0
        for index, group in enumerate(hand_groups(cards)):
            if index:
                text.append("   ")
            for position, card in enumerate(group):
                number += 1
                if position:
                    text.append("  ")
                style = "" if card in legal else "dim"
                text.append(f"{number})", style="dim")
                text.append(self.card(card), style=style)
        return text

    def trump(self, trump: int | None, turn_up: int | None, known: bool = True) -> str:
        """``♥ hearts (turn-up 7♥)``, ``no trump``, ``not yet known``."""
        if not known:
            return "not yet known"
        text = self.suit(trump)
        if turn_up is not None:
            text += f" (turn-up {self.card(turn_up)})"
        return text


def hand_groups(cards: Sequence[int]) -> list[list[int]]:
    """The cards as a hand is shown: the jokers, then clubs, diamonds, hearts and spades,
    each suit from its highest rank down (empty groups left out).

    >>> from tricktaker.cards import parse_card, format_card
    >>> hand = [parse_card(text) for text in "2H JH 5H AS 9H".split()]
    >>> [[format_card(c) for c in group] for group in hand_groups(hand)]
    [['JH', '9H', '5H', '2H'], ['AS']]
    """
    groups = [sorted(c for c in cards if c >= 52)]
    for suit in range(4):
        in_suit = sorted((c for c in cards if card_suit(c) == suit), key=card_rank)
        groups.append(in_suit[::-1])
    return [group for group in groups if group]


def hand_order(cards: Sequence[int]) -> list[int]:
    """The cards in the order a hand shows them, so that card number ``k`` is
    ``hand_order(cards)[k - 1]``."""
    return [card for group in hand_groups(cards) for card in group]


SUIT_STYLES: tuple[str, str, str, str] = ("", "red", "red", "")
"""The style of each suit's cards (clubs, diamonds, hearts, spades): red and black."""
FOUR_COLOUR_STYLES: tuple[str, str, str, str] = ("green", "blue", "red", "")
"""A four-colour deck: clubs green, diamonds blue, hearts red, spades in the text colour."""


class SuitColours(Highlighter):
    """Colours the cards and suit symbols in text: red hearts and diamonds, or a
    four-colour deck. The console decides whether colour is shown at all (a terminal,
    ``NO_COLOR`` unset)."""

    def __init__(self, *, four_colour: bool = False) -> None:
        styles = FOUR_COLOUR_STYLES if four_colour else SUIT_STYLES
        self.patterns = [
            (re.compile(rf"(?:10|[2-9JQKA])?{symbol}"), style)
            for symbol, style in zip(SUIT_SYMBOLS, styles, strict=True)
            if style
        ]

    def highlight(self, text: Text) -> None:
        for pattern, style in self.patterns:
            text.highlight_regex(pattern, style)


def paint(console: Console, text: Text) -> Text:
    """``text`` with the console's suit colours (unchanged on a console without them)."""
    highlighter = console.highlighter
    return highlighter(text) if isinstance(highlighter, SuitColours) else text


def seat_names(players: int, human: int | None = None) -> list[str]:
    """``You`` for the human's seat, ``Seat K`` for the others."""
    return ["You" if seat == human else f"Seat {seat}" for seat in range(players)]


def describe_call(call: dict[str, object]) -> str:
    """A Caller Clag call: ``5 cards, no_trump + nuloss``."""
    kind = call.get("kind") or "kind not yet called"
    text = f"{call.get('caller_size')} cards, {kind}"
    modifiers = call.get("modifiers")
    if isinstance(modifiers, list) and modifiers:
        text += " + " + ", ".join(str(m) for m in modifiers)
    return text


def describe_special(special: str | None, call: dict[str, object] | None) -> str:
    """A special hand or a Caller Clag call in words ('' when neither)."""
    if call is not None:
        return f"call: {describe_call(call)}"
    if special:
        return f"special hand: {special.replace('_', ' ')}"
    return ""


def hand_heading(obs: Observation, names: Sequence[str]) -> str:
    """``Hand 3 of 13 · 3 cards · dealer Seat 2``."""
    number = f"Hand {obs.hand_number}"
    if obs.hands_in_game is not None:
        number += f" of {obs.hands_in_game}"
    parts = [number]
    if obs.hand_size:
        parts.append(f"{obs.hand_size} card{'s' if obs.hand_size != 1 else ''}")
    parts.append(f"dealer {names[obs.dealer]}")
    return " · ".join(parts)


def hidden_hand_note(obs: Observation) -> str:
    """Why the seat cannot see its cards now."""
    if obs.phase == "call_size":
        return "(not dealt yet: the caller first calls the hand size)"
    if obs.pile:
        return "(hidden: your cards are a face-down pile, played in pile order)"
    if obs.rules.spec.hooks is not None:
        return "(not dealt yet)"
    return "(hidden: you bid blind, before looking at your cards)"


def bid_cell(obs: Observation, seat: int) -> str:
    value = obs.bids[seat]
    if value is not None:
        return str(value)
    return "bid" if obs.bid_made[seat] else "-"


def table_view(
    console: Console,
    obs: Observation,
    names: Sequence[str],
    cards: Cards,
    *,
    lines_after: Sequence[tuple[str, str]] = (),
    grid: Table | None = None,
    turn: str = "Your turn",
    numbered: Collection[int] | None = None,
) -> None:
    """Everything the seat may know, shown when it must act; a game with its own phases
    adds ``lines_after`` (label, text) and its own per-seat ``grid``. When the seat
    chooses a card of its hand, the hand is numbered and the cards not in ``numbered``
    (the legal ones) are dimmed."""
    console.rule(Text(f"{turn} · {hand_heading(obs, names)}"))
    lines = Text()
    lines.append("Trump:   ", style="bold")
    lines.append(cards.trump(obs.trump, obs.turn_up, obs.trump_known))
    extra = describe_special(obs.special, obs.call)
    flags = [extra] if extra else []
    if obs.misere:
        flags.append("misere: everyone bids 0")
    if obs.hook and obs.phase == "bidding":
        flags.append("hook: the last bid may not make the bids total the hand size")
    if obs.rules.spec.bidding.sum_equals_hand and obs.phase == "bidding":
        flags.append("the bids must total the hand size")
    if obs.rules.spec.bidding.style == "simultaneous" and obs.phase == "bidding":
        flags.append("simultaneous bidding: bids are revealed together")
    for flag in flags:
        lines.append(f"\n         {flag}")
    lines.append("\nHand:    ", style="bold")
    if obs.hand is None:
        lines.append(hidden_hand_note(obs))
    else:
        if numbered is not None:
            lines.append_text(cards.numbered_hand(obs.my_cards, numbered))
        else:
            lines.append(cards.hand(obs.my_cards))
        if obs.pile:
            lines.append("  (pile: played in an order you do not know)")
    if obs.current_trick:
        lines.append("\nTrick:   ", style="bold")
        lines.append(
            ",  ".join(f"{names[seat]} {cards.card(card)}" for seat, card in obs.current_trick)
        )
    elif obs.phase == "playing":
        lines.append("\nTrick:   ", style="bold")
        lines.append(f"{names[obs.leader]} to lead")
    for label, text in lines_after:
        lines.append("\n" + f"{label}:".ljust(8) + " ", style="bold")
        lines.append(text)
    console.print(paint(console, lines))
    if grid is not None:
        console.print(grid)
        return
    grid = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2))
    grid.add_column("Seat")
    grid.add_column("Bid", justify="right")
    grid.add_column("Won", justify="right")
    grid.add_column("Score", justify="right")
    for seat in range(obs.players):
        marks = " (D)" if seat == obs.dealer else ""
        if seat in obs.to_act:
            marks += " <-"
        score = "-" if obs.cooperative else str(obs.scores[seat])
        grid.add_row(names[seat] + marks, bid_cell(obs, seat), str(obs.tricks_won[seat]), score)
    console.print(grid)


def action_word(text: str) -> str:
    return text.replace("_", " ")


def scorecard(
    history: Sequence[HandResult],
    names: Sequence[str],
    cards: Cards,
    *,
    cooperative: bool = False,
    details: bool = True,
    title: str | None = None,
) -> Table:
    """Per hand: size, dealer, trump and per seat ``bid/won score`` (running totals below);
    then the totals and the counts of Set / Over / Perfect hands."""
    table = Table(title=title, title_justify="left", show_lines=False)
    table.add_column("#", justify="right")
    table.add_column("Cards", justify="right")
    if details:
        table.add_column("Dealer")
        table.add_column("Trump")
    for name in names:
        table.add_column(name, justify="right")
    if cooperative:
        table.add_column("All exact")
    for hand in history:
        row = [str(hand.number), str(hand.hand_size)]
        if details:
            row += [names[hand.dealer], cards.trump(hand.trump, hand.turn_up)]
        for seat in range(len(names)):
            cell = f"{hand.bids[seat]}/{hand.tricks[seat]}"
            if not cooperative:
                cell += f" {hand.hand_scores[seat]:+d}"
                if details:
                    cell += f"\n= {hand.total_scores[seat]}"
            row.append(cell)
        if cooperative:
            row.append("yes" if hand.all_exact else "no")
        table.add_row(*row)
    pad = ["", ""] + (["", ""] if details else [])
    table.add_section()
    if not cooperative:
        totals = history[-1].total_scores if history else tuple(0 for _ in names)
        table.add_row("Total", "", *pad[2:], *(str(v) for v in totals))
    table.add_row("S/O/P", "", *pad[2:], *(outcome_counts(history, s) for s in range(len(names))))
    return table


def outcome_counts(history: Sequence[HandResult], seat: int) -> str:
    """``S1 O2 P5``: hands set (under), over and perfect for ``seat``."""
    counts = {"S": 0, "O": 0, "P": 0}
    for hand in history:
        counts[hand.outcome(seat)] += 1
    return " ".join(f"{key}{value}" for key, value in counts.items())


def hand_result_table(
    hand: HandResult, names: Sequence[str], *, cooperative: bool, bid_header: str = "Bid"
) -> Table:
    """One finished hand: bids (or quotas), tricks, hand score and total per seat."""
    table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2))
    table.add_column("Seat")
    table.add_column(bid_header, justify="right")
    table.add_column("Won", justify="right")
    if not cooperative:
        table.add_column("Hand", justify="right")
        table.add_column("Total", justify="right")
    table.add_column("")
    labels = {"S": "set", "O": "over", "P": "exact"}
    if bid_header != "Bid":
        labels = {"S": "short", "O": "over", "P": "made"}
    for seat, name in enumerate(names):
        row = [name, str(hand.bids[seat]), str(hand.tricks[seat])]
        if not cooperative:
            row += [f"{hand.hand_scores[seat]:+d}", str(hand.total_scores[seat])]
        row.append(labels[hand.outcome(seat)])
        table.add_row(*row)
    return table


def winners_line(winners: Sequence[int], names: Sequence[str], scores: Sequence[int]) -> str:
    """``Winner: Seat 2 (87 points)`` or ``Winners (tied): ...``."""
    if not winners:
        return "No winner."
    best = scores[winners[0]]
    who = ", ".join(names[s] for s in winners)
    if len(winners) == 1:
        return f"Winner: {who} with {best} points."
    return f"Winners (tied): {who} with {best} points."


def cooperative_line(hands_played: int, completed: bool) -> str:
    """The result of a cooperative game."""
    result = "completed: the table wins" if completed else "not completed: the table loses"
    return f"Hands played: {hands_played}. The schedule was {result}."
