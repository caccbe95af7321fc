"""Hands and scorecards of the games with their own phases, laid out for a terminal:
Euchre (team points, contracts) and Buckup (chips won and lost, stacks), from the score
sheet that :mod:`tricktaker.present.scorecard` computes (Pluck, with a quota per seat,
is laid out like the bidding games by :func:`tricktaker.cli.render.scorecard`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table

from tricktaker.present.scorecard import (
    Scorecard,
    ScoreRow,
    hand_summary,
    has_bids,
    result_line,
    score_unit,
)

__all__ = [
    "game_hand_table",
    "game_scorecard",
    "hand_summary",
    "has_bids",
    "result_line",
    "score_unit",
    "team_scorecard",
]


def game_hand_table(hand: ScoreRow, names: Sequence[str]) -> Table:
    """One finished hand of a game without per-seat bids: tricks, hand score, total
    (and the stacks where chips are played for)."""
    table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2))
    if hand.teams:
        table.add_column("Team")
        table.add_column("Won", justify="right")
        table.add_column("Hand", justify="right")
        table.add_column("Total", justify="right")
        for team in hand.teams:
            table.add_row(team.name, str(team.tricks), f"{team.score:+d}", str(team.total))
        return table
    stacks = any(seat.stack is not None for seat in hand.seats)
    table.add_column("Seat")
    table.add_column("Won", justify="right")
    table.add_column("Chips" if stacks else "Hand", justify="right")
    if stacks:
        table.add_column("Stack", justify="right")
    table.add_column("Net" if stacks else "Total", justify="right")
    for name, seat in zip(names, hand.seats, strict=True):
        row = [name, str(seat.tricks), f"{seat.score:+d}"]
        if stacks:
            row.append(str(seat.stack))
        row.append(f"{seat.total:+d}" if stacks else str(seat.total))
        table.add_row(*row)
    return table


def game_scorecard(sheet: Scorecard, *, title: str | None = None) -> Table:
    """Per hand and in total, for a game without per-seat bids (Euchre, Buckup)."""
    if sheet.teams:
        return team_scorecard(sheet, title=title)
    names = sheet.names
    chips = any(row.seats[0].stack is not None for row in sheet.rows)
    table = Table(title=title, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("Dealer")
    table.add_column("Trump")
    if chips:
        table.add_column(sheet.column or "", justify="right")
    for name in names:
        table.add_column(name, justify="right")
    for hand in sheet.rows:
        row = [str(hand.hand), hand.dealer_name, hand.trump_text]
        if chips:
            row.append(hand.column_detail or "-->-")
        for seat in hand.seats:
            row.append(f"{seat.tricks} tr {seat.score:+d}")
        table.add_row(*row)
    table.add_section()
    pad = [""] * (3 if chips else 2)
    totals = [f"{v:+d}" if chips else str(v) for v in sheet.totals]
    table.add_row("Net" if chips else "Total", *pad, *totals)
    if sheet.stacks is not None:
        table.add_row("Stack", *pad, *(str(v) for v in sheet.stacks))
    return table


def team_scorecard(sheet: Scorecard, *, title: str | None = None) -> Table:
    """Per hand the game's own column (Euchre: the contract, whether it was made) and
    each team's points."""
    table = Table(title=title, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("Dealer")
    table.add_column(sheet.column or "")
    for team in sheet.teams:
        table.add_column(team["name"], justify="right")
    for hand in sheet.rows:
        row = [str(hand.hand), hand.dealer_name, hand.column_detail or ""]
        for points in hand.teams:
            row.append(f"{points.tricks} tr {points.score:+d} = {points.total}")
        table.add_row(*row)
    table.add_section()
    table.add_row("Total", "", "", *(str(total) for total in sheet.team_totals))
    return table
