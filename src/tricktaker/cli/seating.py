"""Who sits where in ``tricktaker play``: the seats people play (one, several at one
terminal, or all), a bot for every other seat, and the players' names."""

from __future__ import annotations

from dataclasses import dataclass

from .common import fail, split_names


@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where: the seats people play, a bot for every other seat, the names."""

    humans: tuple[int, ...]
    bots: dict[int, str]
    names: tuple[str, ...] | None


def seating(
    count: int,
    *,
    seat: int | None,
    humans: str | None,
    hotseat: bool,
    bots: str | None,
    names: str | None,
) -> Seating:
    """The seats from the command line's options (errors exit with a message). People
    count seats from 1 (``--seat 1``, ``--humans 1,3``); the result's seats are 0-based,
    as the engine and the records count them."""
    try:
        if hotseat:
            if humans is not None:
                fail("give --hotseat (every seat a person) or --humans, not both")
            people = tuple(range(count))
        elif humans is not None:
            people = parse_seats(humans, count, "--humans")
        else:
            people = (check_seat(seat, count, "--seat") if seat is not None else 0,)
        given = parse_names(names, count) if names is not None else None
        if seat is not None:
            check_seat(seat, count, "--seat")
    except ValueError as exc:
        fail(str(exc))
    if seat is not None and humans is not None and seat - 1 not in people:
        fail(f"--seat {seat} is not one of the --humans seats")
    others = [s for s in range(count) if s not in people]
    kinds = split_names(bots or "heuristic")
    if others and len(kinds) == 1:
        kinds = kinds * len(others)
    if len(kinds) != len(others) and others:
        fail(f"--bots needs one bot name, or {len(others)} (one per other seat), not {len(kinds)}")
    if not others and bots is not None:
        fail("every seat is played by a person: --bots has no seat to fill")
    return Seating(people, dict(zip(others, kinds, strict=False)), given)


def check_seat(number: int, players: int, option: str) -> int:
    """The 0-based seat of seat ``number`` as people count them (from 1); ValueError says
    why it is not a seat of the table.

    >>> check_seat(1, 4, "--seat")
    0
    >>> check_seat(0, 4, "--seat")
    Traceback (most recent call last):
    ...
    ValueError: --seat 0: seats are numbered from 1 (1 to 4 for 4 players)
    """
    if number == 0:
        raise ValueError(
            f"{option} 0: seats are numbered from 1 (1 to {players} for {players} players)"
        )
    if not 1 <= number <= players:
        raise ValueError(f"{option} must be 1 to {players} for {players} players, not {number}")
    return number - 1


def parse_seats(text: str, players: int, option: str) -> tuple[int, ...]:
    """``"1,3"`` (seats as people count them, from 1) as 0-based seats, distinct and in
    order; ValueError says why.

    >>> parse_seats("3, 1", 4, "--humans")
    (0, 2)
    """
    seats: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        if part == "0":
            raise ValueError(f"{option}: seats are numbered from 1 (1 to {players}), not 0")
        if not part.isdigit() or not 1 <= int(part) <= players:
            raise ValueError(f"{option}: {part!r} is not a seat (1 to {players})")
        if int(part) - 1 in seats:
            raise ValueError(f"{option}: seat {part} is given twice")
        seats.append(int(part) - 1)
    return tuple(sorted(seats))


def parse_names(text: str, players: int) -> tuple[str, ...]:
    """``"Ann,Bob,Cy"`` as one name per seat; ValueError says what is wrong."""
    names = tuple(n.strip() for n in text.split(","))
    if len(names) != players:
        raise ValueError(
            f"--names needs {players} names (one per seat, in seat order), not {len(names)}"
        )
    for name in names:
        if not name:
            raise ValueError("--names: a name is empty")
        if len(name) > 20:
            raise ValueError(f"--names: {name[:20]!r}... is longer than 20 characters")
    if len({n.lower() for n in names}) != len(names):
        raise ValueError("--names: two seats have the same name")
    return names
