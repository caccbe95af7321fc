"""Short family names for bot seats.

A table shows a bot seat by a name a person can say aloud ("Ada", "Ben", ...) with the
bot's level beside it ("Ada (easy)"), never by a seat number or a policy's name.
:func:`bot_name` picks the name: deterministic (the same seat and the same taken names give
the same name), and never one already taken at the table, compared without regard to case.

>>> bot_name(0, [])
'Ada'
>>> bot_name(1, ["Ann"])
'Ben'
>>> bot_name(0, ["ada", "Ben"])
'Cleo'
"""

from __future__ import annotations

from collections.abc import Collection

#: The names, in the order they are tried: short, easy to tell apart, one a letter.
BOT_NAMES: tuple[str, ...] = (
    "Ada",
    "Ben",
    "Cleo",
    "Dot",
    "Eli",
    "Fay",
    "Gus",
    "Hal",
    "Ivy",
    "Jo",
    "Kit",
    "Lou",
    "Max",
    "Nell",
    "Olly",
    "Pip",
    "Quin",
    "Rose",
    "Sam",
    "Tess",
    "Una",
    "Vic",
    "Wren",
    "Zed",
)


def bot_name(seat: int, taken: Collection[str]) -> str:
    """The name for the bot at ``seat`` (0-based), none of ``taken`` (case-insensitive).

    Seat ``s`` prefers the ``s``-th name (seat 0 "Ada", seat 1 "Ben", ...), so that the bots
    of a table read in seat order; a name already taken moves it on to the next free one.
    Should every name be taken (a table of more than two dozen seats), a numbered name is
    made ("Ada 2", ...), still none of ``taken``.

    >>> bot_name(2, ["Cleo", "Dot"])
    'Eli'
    >>> bot_name(len(BOT_NAMES) - 1, [])
    'Zed'
    >>> bot_name(0, BOT_NAMES)
    'Ada 2'
    """
    if seat < 0:
        raise ValueError(f"a seat is 0 or more, not {seat}")
    used = {name.strip().casefold() for name in taken}
    count = len(BOT_NAMES)
    for step in range(count):
        name = BOT_NAMES[(seat + step) % count]
        if name.casefold() not in used:
            return name
    number = 2
    while True:
        for step in range(count):
            name = f"{BOT_NAMES[(seat + step) % count]} {number}"
            if name.casefold() not in used:
                return name
        number += 1
