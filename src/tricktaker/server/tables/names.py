"""The names people see at a table: each person's as given (made unique at the table),
each bot's a short family name (:func:`~tricktaker.bots.names.bot_name`, its level
shown beside it by the clients), and a seat nobody holds its number counted from 1
(:func:`~tricktaker.present.text.default_seat_name`); the protocol's seat indices stay
0-based."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from tricktaker.bots.names import bot_name
from tricktaker.present.text import default_seat_name

if TYPE_CHECKING:
    from tricktaker.server.tables.store import SeatData


def unique_name(name: str, taken: Collection[str]) -> str:
    """``name`` (its spaces trimmed), or ``name 2``, ``name 3``... when another seat
    of the table is called so already (compared without regard to case).

    >>> unique_name("Ann", ["ann", "Bob"]), unique_name("Ann", ["Ann", "Ann 2"])
    ('Ann 2', 'Ann 3')
    >>> unique_name(" Cy ", [])
    'Cy'
    """
    name = " ".join(name.split())
    used = {n.casefold() for n in taken}
    if name.casefold() not in used:
        return name
    number = 2
    while f"{name} {number}".casefold() in used:
        number += 1
    return f"{name} {number}"


def seat_names(seats: Sequence[SeatData]) -> list[str]:
    """Each seat's name as people see it: the name stored with the seat (a person's, or
    a bot's family name); a bot seat stored without one (a table made before bots had
    names) gets :func:`~tricktaker.bots.names.bot_name`, and a seat nobody holds its
    number counted from 1."""
    names: list[str | None] = [s.name for s in seats]
    for s in seats:
        if names[s.seat] is None and s.kind == "bot":
            names[s.seat] = bot_name(s.seat, [n for n in names if n is not None])
    return [n if n is not None else default_seat_name(i) for i, n in enumerate(names)]


def others(seats: Sequence[SeatData], seat: int) -> list[str]:
    """The names stored with the seats other than ``seat``."""
    return [s.name for s in seats if s.seat != seat and s.name is not None]
