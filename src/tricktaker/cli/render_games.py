"""What the games with a panel of their own show at the table, laid out for a terminal:
the game's panel lines (such as Pluck's plucks, Euchre's auction and contract, Buckup's
pot) and a grid of the seats, both computed by :mod:`tricktaker.present.panels` (and the
game's ``present`` capability) from what the seat may know."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.table import Table

from tricktaker.engine import Observation
from tricktaker.present import panels
from tricktaker.present.game import game_present
from tricktaker.present.text import bid_text, suit_text, team_of

from .render import Cards, with_level

__all__ = ["Lines", "bid_text", "game_lines", "seat_grid", "suit_text", "team_of"]

Lines = list[tuple[str, str]]


def game_lines(obs: Observation, names: Sequence[str], cards: Cards) -> Lines:
    """The game's own information for the seat, as labelled lines (teams first)."""
    return [(line.label, line.text) for line in panels.game_lines(obs, names, cards)]


def seat_grid(
    obs: Observation, names: Sequence[str], levels: Mapping[int, str] | None = None
) -> Table:
    """One row per seat: quota or team or status and stack, tricks won and score."""
    rows = panels.seat_rows(obs, names)
    quotas = any(row["quota"] is not None for row in rows)
    stacks = any(row["stack"] is not None for row in rows)
    status = any(row["status"] is not None for row in rows)
    grid = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2))
    grid.add_column("Seat")
    if obs.partnerships:
        grid.add_column("Team")
    if quotas:
        grid.add_column("Quota", justify="right")
    if status:
        grid.add_column("Status")
    grid.add_column("Won", justify="right")
    if stacks:
        grid.add_column("Stack", justify="right")
    grid.add_column("Net" if stacks else "Score", justify="right")
    net = game_present(obs.rules).net(obs) if stacks else None
    for row in rows:
        marks = " (D)" if row["dealer"] else ""
        if row["to_act"]:
            marks += " <-"
        cells = [with_level(str(row["name"]), row["seat"], levels) + marks]
        if obs.partnerships:
            cells.append("with " + row["partners"] if row["partners"] else "-")
        if quotas:
            cells.append(str(row["quota"]))
        if status:
            cells.append(str(row["status_text"]))
        cells.append(str(row["tricks"]) if row["tricks"] is not None else "-")
        if stacks:
            cells.append(str(row["stack"]))
        score = row["score"]
        if net is not None:  # the stacks now, not the scores of the hands settled
            score = net[int(str(row["seat"]))]
        cells.append(f"{score:+d}" if stacks else str(score))
        grid.add_row(*cells)
    return grid
