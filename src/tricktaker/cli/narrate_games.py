"""The terminal's narration: the lines :mod:`tricktaker.present.narrate` computes from
the person's observations (a card in another seat's action is named only when the
person's own observation shows it), as the terminal prints them."""

from __future__ import annotations

from tricktaker.present.narrate import Narration

TRICK_MARK = "  -> "
"""Before the line that gives a trick to its winner."""


def shown(line: Narration, *, hotseat: bool) -> bool:
    """Whether the terminal prints ``line``: a person is not told their own bid (they
    just typed it) unless several people share the terminal; nor that they have bid
    when bids are simultaneous."""
    if not line.mine:
        return True
    if line.kind == "bid_hidden":
        return False
    return line.kind != "bid" or hotseat


def styled(line: Narration) -> tuple[str, str]:
    """The text of ``line`` as printed, and its style."""
    text = TRICK_MARK + line.text if line.kind == "trick" else line.text
    return text, "bold" if line.bold else ""
