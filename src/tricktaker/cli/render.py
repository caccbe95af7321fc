"""Rich rendering shared by the commands: cards, the table seen by a seat, scorecards.

What to show is computed by :mod:`tricktaker.present` (the same data the browser and
the server get); this module only lays it out for a terminal.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.highlighter import Highlighter
from rich.table import Table
from rich.text import Text

from tricktaker.cards import SUIT_SYMBOLS
from tricktaker.engine import Observation
from tricktaker.present.panels import (
    bid_cell,
    bids_line,
    hand_view,
    hidden_hand_note,
    notes,
    seat_rows,
)
from tricktaker.present.scorecard import (
    OUTCOME_WORDS,
    Scorecard,
    ScoreRow,
    cooperative_line,
    outcome_counts,
    winners_line,
)
from tricktaker.present.text import (
    CardText,
    default_seat_name,
    describe_special,
    display_order,
    hand_groups,
    hand_heading,
    hand_order,
)

__all__ = [
    "Cards",
    "SuitColours",
    "bid_cell",
    "cooperative_line",
    "describe_special",
    "hand_groups",
    "hand_heading",
    "hand_order",
    "hand_result_table",
    "hidden_hand_note",
    "outcome_counts",
    "paint",
    "scorecard",
    "seat_names",
    "table_view",
    "winners_line",
]


@dataclass(frozen=True, slots=True)
class Cards(CardText):
    """How cards are written for people (:class:`~tricktaker.present.text.CardText`),
    with a hand numbered for choosing a card."""

    def numbered_hand(self, cards: Sequence[int], legal: Collection[int]) -> Text:
        """The hand as :meth:`hand` shows it, each card numbered in that order
        (``1)J♥ 2)9♥``); the cards not in ``legal`` are dimmed."""
        return self.hand_text(
            [[(card, False) for card in group] for group in hand_groups(cards)], legal
        )

    def held(self, obs: Observation, legal: Collection[int] | None = None) -> Text:
        """The seat's own hand as a player holds it (:func:`shown_groups`: trumps first,
        bowers among them, then the other suits alternating colours), each trump marked
        ``*`` and bold with a legend; numbered, the cards not in ``legal`` dimmed, when
        ``legal`` is given (the seat chooses a card)."""
        groups = shown_groups(obs, self)
        text = self.hand_text(groups, legal)
        if any(trump for group in groups for _, trump in group):
            text.append("   * = trump", style="dim")
        return text

    def hand_text(
        self, groups: Sequence[Sequence[tuple[int, bool]]], legal: Collection[int] | None
    ) -> Text:
        """Groups of (card, trump) with three spaces between groups; numbered when
        ``legal`` is given."""
        text = Text()
        number = 0
        for index, group in enumerate(groups):
            if index:
                text.append("   ")
            for position, (card, trump) in enumerate(group):
                number += 1
                if position:
                    text.append("  " if legal is not None else " ")
                style = "bold" if trump else ""
                if legal is not None:
                    text.append(f"{number})", style="dim")
                    if card not in legal:
                        style = "dim"
                text.append(self.card(card) + ("*" if trump else ""), style=style)
        if not groups:
            text.append("(none)")
        return text


def shown_groups(obs: Observation, cards: CardText) -> list[list[tuple[int, bool]]]:
    """The seat's cards in the order the presentation layer shows them
    (:func:`~tricktaker.present.text.display_order`, with
    :func:`~tricktaker.present.panels.hand_view`'s trump marks), grouped: the trumps,
    then each suit (empty when the seat may not look at its cards)."""
    order = display_order(obs)
    view = hand_view(obs, cards) or []
    groups: list[list[tuple[int, bool]]] = []
    last: object = None
    for card, shown in zip(order, view, strict=False):
        trump = bool(shown["trump"])
        key = "trump" if trump else shown["suit"]
        if not groups or key != last:
            groups.append([])
            last = key
        groups[-1].append((card, trump))
    return groups


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
    """``You`` for the human's seat, ``Seat K`` for the others, counted from 1.

    >>> seat_names(3, human=1)
    ['Seat 1', 'You', 'Seat 3']
    """
    return ["You" if seat == human else default_seat_name(seat) for seat in range(players)]


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
    levels: Mapping[int, str] | None = None,
) -> None:
    """Everything the seat may know, shown when it must act; a game with its own phases
    adds ``lines_after`` (label, text) and its own per-seat ``grid``. When the seat
    chooses a card of its hand, the hand is numbered and the cards not in ``numbered``
    (the legal ones) are dimmed. ``levels``: the bots' levels, shown beside their names
    in the grid (``Ben (easy)``)."""
    console.rule(Text(f"{turn} · {hand_heading(obs, names)}"))
    lines = Text()
    lines.append("Trump:   ", style="bold")
    lines.append(cards.trump(obs.trump, obs.turn_up, obs.trump_known))
    for flag in notes(obs):
        lines.append(f"\n         {flag}")
    lines.append("\nHand:    ", style="bold")
    if obs.hand is None:
        lines.append(hidden_hand_note(obs))
    else:
        lines.append_text(cards.held(obs, numbered))
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
    bids = bids_line(obs)
    if bids is not None:
        lines.append("\n" + str(bids["text"]), style="bold")
    console.print(paint(console, lines))
    if grid is not None:
        console.print(grid)
        return
    grid = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2))
    grid.add_column("Seat")
    grid.add_column("Bid", justify="right")
    grid.add_column("Won", justify="right")
    grid.add_column("Score", justify="right")
    for row in seat_rows(obs, names):
        marks = " (D)" if row["dealer"] else ""
        if row["to_act"]:
            marks += " <-"
        score = "-" if obs.cooperative else str(row["score"])
        won = obs.tricks_won[row["seat"]]
        name = with_level(str(row["name"]), row["seat"], levels)
        grid.add_row(name + marks, row["bid_text"], str(won), score)
    console.print(grid)


def with_level(name: str, seat: object, levels: Mapping[int, str] | None) -> str:
    """``Ben (easy)`` for a bot's seat, the name alone for a person's; a level given as a
    bot with settings (``ismcts:iterations=800``) by its kind alone.

    >>> with_level("Ben", 1, {1: "ismcts:iterations=800"}), with_level("Ann", 0, {1: "easy"})
    ('Ben (ismcts)', 'Ann')
    """
    if not levels or not isinstance(seat, int) or seat not in levels:
        return name
    return f"{name} ({levels[seat].split(':')[0]})"


def scorecard(sheet: Scorecard, *, details: bool = True, title: str | None = None) -> Table:
    """Per hand: size, dealer, trump and per seat ``bid/won score`` (running totals below);
    then the totals and the counts of Set / Over / Perfect hands."""
    names = sheet.names
    cooperative = sheet.cooperative
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
    for hand in sheet.rows:
        row = [str(hand.hand), str(hand.hand_size)]
        if details:
            row += [hand.dealer_name, hand.trump_text]
        for seat in hand.seats:
            cell = f"{seat.bid}/{seat.tricks}"
            if not cooperative:
                cell += f" {seat.score:+d}"
                if details:
                    cell += f"\n= {seat.total}"
            row.append(cell)
        if cooperative:
            row.append("yes" if hand.all_exact else "no")
        table.add_row(*row)
    pad = ["", ""] + (["", ""] if details else [])
    table.add_section()
    if not cooperative:
        table.add_row("Total", "", *pad[2:], *(str(v) for v in sheet.totals))
    counts = sheet.counts or [{"S": 0, "O": 0, "P": 0} for _ in names]
    table.add_row(
        "S/O/P", "", *pad[2:], *(" ".join(f"{k}{v}" for k, v in c.items()) for c in counts)
    )
    return table


def hand_result_table(
    hand: ScoreRow,
    names: Sequence[str],
    *,
    cooperative: bool,
    bid_header: str = "Bid",
    outcome_words: Mapping[str, str] = OUTCOME_WORDS,
) -> Table:
    """One finished hand: bids (or quotas), tricks, hand score and total per seat, and
    the outcome in the sheet's words (``outcome_words``)."""
    table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2))
    table.add_column("Seat")
    table.add_column(bid_header, justify="right")
    table.add_column("Won", justify="right")
    if not cooperative:
        table.add_column("Hand", justify="right")
        table.add_column("Total", justify="right")
    table.add_column("")
    labels = outcome_words
    for name, seat in zip(names, hand.seats, strict=True):
        row = [name, str(seat.bid), str(seat.tricks)]
        if not cooperative:
            row += [f"{seat.score:+d}", str(seat.total)]
        row.append(labels[seat.outcome or "P"])
        table.add_row(*row)
    return table


ORDINALS = ("1st", "2nd", "3rd")


def place_text(place: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ... ``11th``.

    >>> [place_text(n) for n in (1, 2, 3, 4, 11)]
    ['1st', '2nd', '3rd', '4th', '11th']
    """
    return ORDINALS[place - 1] if 1 <= place <= 3 else f"{place}th"


def standings_table(sheet: Scorecard, *, unit: str = "points") -> Table | None:
    """The ranking of the score sheet (its ``standings``): place, who (a seat, a team or
    the whole table) and total; None before any hand is scored."""
    if not sheet.standings:
        return None
    table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2))
    table.add_column("Place")
    table.add_column("Team" if sheet.teams else "Player")
    table.add_column(unit[0].upper() + unit[1:], justify="right")
    chips = unit.startswith("chips")
    for entry in sheet.standings:
        total = int(str(entry["total"]))
        place = int(str(entry["place"]))
        table.add_row(place_text(place), str(entry["name"]), f"{total:+d}" if chips else str(total))
    return table
