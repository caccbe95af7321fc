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
    """The seats from the command line's options (errors exit with a message)."""
    try:
        if hotseat:
            if humans is not None:
                fail("give --hotseat (every seat a person) or --humans, not both")
            people = tuple(range(count))
        elif humans is not None:
            people = parse_seats(humans, count, "--humans")
        else:
            people = (seat if seat is not None else 0,)
        given = parse_names(names, count) if names is not None else None
    except ValueError as exc:
        fail(str(exc))
    if seat is not None and (not 0 <= seat < count):
        fail(f"--seat must be 0 to {count - 1} for {count} players, not {seat}")
    if seat is not None and humans is not None and seat not in people:
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


def parse_seats(text: str, players: int, option: str) -> tuple[int, ...]:
    """``"0,2"`` as seats (0-based, distinct, each below ``players``); ValueError says why.

    >>> parse_seats("2, 0", 4, "--humans")
    (0, 2)
    """
    seats: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        if not part.isdigit() or int(part) >= players:
            raise ValueError(f"{option}: {part!r} is not a seat (0 to {players - 1})")
        if int(part) in seats:
            raise ValueError(f"{option}: seat {part} is given twice")
        seats.append(int(part))
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
