"""The pieces the presentation layer is written in, shared by the layer and by each
game's ``present`` capability (:mod:`tricktaker.present.game`): a labelled panel line,
a line of cards drawn in the panel, a line of narration, a line of a hand's summary,
the per-seat facts of the seat rows and a game's part of a score sheet's row.

Each piece that a seat may read carries a ``public`` form (None when it names cards only
this seat may know), which spectators are told.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Json = Any
"""Plain JSON data."""


@dataclass(frozen=True, slots=True)
class Line:
    """A labelled line of a game's panel (``Quotas: Ann 7, Bob 4``), with its ``public``
    form for spectators (None when it is about cards only this seat knows)."""

    label: str
    text: str
    public: str | None

    def to_json(self) -> dict[str, Json]:
        """The value as plain JSON data."""
        return {"label": self.label, "text": self.text, "public": self.public}


@dataclass(frozen=True, slots=True)
class CardsLine:
    """Cards a game's panel draws as cards (Euchre's kitty, the card a pluck gave):
    ``label`` beside them, and an optional ``note`` said before them. A line the seat
    alone may see (its own cards, or cards given to it) is never public."""

    label: str
    cards: tuple[str, ...]
    note: str | None = None
    public: bool = False

    def to_json(self) -> dict[str, Json]:
        """The value as plain JSON data."""
        return {
            "label": self.label,
            "cards": list(self.cards),
            "note": self.note,
            "public": self.public,
        }


@dataclass(frozen=True, slots=True)
class Narration:
    """One line of narration.

    ``kind``: ``bid``, ``bid_hidden``, ``bids_revealed``, ``call``, ``play``, ``trick``,
    ``action`` (a game's own phase), ``dealt``, ``face_down``, ``special``, ``trump``,
    ``piles``, ``contract``, ``draw``, ``payment``, ``hand_over``, ``summary``,
    ``next_hand``. ``seat`` is the seat the line is about (the actor, the trick's
    winner), ``mine`` whether that is the observing seat, ``bold`` whether the terminal
    stresses it, ``cards`` the trick's cards (``[[seat, "7H"], ...]``) for ``trick``,
    ``hand`` the hand's number for ``hand_over``.
    """

    kind: str
    text: str
    public: str | None
    seat: int | None = None
    mine: bool = False
    bold: bool = False
    cards: tuple[tuple[int, str], ...] = ()
    hand: int | None = None

    def to_json(self) -> dict[str, object]:
        """The value as plain JSON data."""
        data: dict[str, object] = {
            "kind": self.kind,
            "text": self.text,
            "public": self.public,
            "seat": self.seat,
            "mine": self.mine,
            "bold": self.bold,
        }
        if self.cards:
            data["cards"] = [[s, c] for s, c in self.cards]
        if self.hand is not None:
            data["hand"] = self.hand
        return data


def said(
    kind: str,
    text: str,
    *,
    public: bool = True,
    seat: int | None = None,
    mine: bool = False,
    bold: bool = False,
    cards: tuple[tuple[int, str], ...] = (),
    hand: int | None = None,
) -> Narration:
    """A line whose public form is the line itself (or None where not ``public``)."""
    return Narration(kind, text, text if public else None, seat, mine, bold, cards, hand)


@dataclass(frozen=True, slots=True)
class TextLine:
    """A line of text as the seat may read it, and its ``public`` form (None: the line is
    about cards only this seat may know, and a spectator is not told it)."""

    text: str
    public: str | None

    def to_json(self) -> dict[str, Json]:
        """The value as plain JSON data."""
        return {"text": self.text, "public": self.public}


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """What a game adds to the seat rows, one value per seat (each None where the game
    has none): a ``quota`` shown instead of the bid, a ``stack`` of chips shown instead
    of the score, and a ``status`` word (``out_for_now``)."""

    quota: tuple[int, ...] | None = None
    stack: tuple[int, ...] | None = None
    status: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class RowFacts:
    """A game's part of a finished hand's row of the score sheet: ``data`` (plain JSON
    keys added to the row, such as a contract or the pot), ``column`` (the text of the
    sheet's own column for the hand, as the browser shows it), ``column_detail`` (the
    same as the terminal writes it, where it says more)."""

    data: dict[str, Json] = field(default_factory=dict)
    column: str | None = None
    column_detail: str | None = None
