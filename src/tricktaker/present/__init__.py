"""The presentation layer: what a table shows a seat, computed once from its observation
and written as plain JSON-able data, for the terminal, the browser and the scorekeeper.

:func:`present_json` gives five parts:

- ``scorecard``: the running score sheet (:mod:`tricktaker.present.scorecard`);
- ``narration``: what happened since the previous observation
  (:mod:`tricktaker.present.narrate`);
- ``panel``: the hand's heading, trump and notes and the game's own panel
  (:mod:`tricktaker.present.panels`), as labelled lines and cards that the game's
  ``present`` capability writes (:mod:`tricktaker.present.game`);
- ``seats``: one row per seat;
- ``hand``: the seat's own cards in the order they are shown, trumps marked.

Cards are written as codes (``AS``, ``10H``) in data and with suit symbols (``A♠``) in
text; there is never any markup. Only the observation is read, so nothing a seat may
not know can appear. :func:`public_present` gives spectators the part that every seat's
block shows alike. The JSON is described in docs/protocol.md, Views.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tricktaker.engine import Action, HandResult, Observation

from .game import BasePresent, GamePresent, game_present
from .narrate import Narration, narrate
from .panels import bids_line, game_lines, hand_view, panel, seat_rows
from .parts import CardsLine, Line, RowFacts, SeatFacts
from .reads import ReadsMemo
from .scorecard import (
    Scorecard,
    ScoreRow,
    TextLine,
    observation_scorecard,
    score_row,
    scorecard,
)
from .text import SYMBOLS, CardText

__all__ = [
    "SYMBOLS",
    "BasePresent",
    "CardText",
    "CardsLine",
    "GamePresent",
    "Line",
    "Narration",
    "PresentMemo",
    "RowFacts",
    "ScoreRow",
    "Scorecard",
    "SeatFacts",
    "TextLine",
    "bids_line",
    "game_lines",
    "game_present",
    "hand_view",
    "narrate",
    "observation_scorecard",
    "panel",
    "present_json",
    "public_present",
    "scorecard",
    "seat_rows",
]

Json = Any
"""Plain JSON data."""


class PresentMemo:
    """The last panel, seat rows and score sheet built, with what they were built from,
    so that the seats of one event (and the events after it) that would build the same
    parts share them instead. The panel and the rows are keyed on exactly what building
    them read of the observation (:class:`~tricktaker.present.reads.ReadsMemo`: the
    fields, the game's reading included, and the facts asked through
    :func:`~tricktaker.present.reads.derived`), so no input can be left out of the key;
    the sheet on the seat's finished hands (the same objects), names, teams and game.
    The parts are shared, not copied: a caller must not change them."""

    __slots__ = (
        "_panel",
        "_row_json",
        "_rows",
        "_score_rows",
        "_sheet",
        "_sheet_key",
    )

    def __init__(self) -> None:
        self._panel: ReadsMemo[dict[str, Json]] = ReadsMemo(panel)
        """The panel, keyed on the fields of the observation that building it read."""
        self._rows: ReadsMemo[list[dict[str, Json]]] = ReadsMemo(seat_rows)
        """The seat rows, the same way."""
        self._sheet_key: tuple[Any, ...] | None = None
        self._sheet: dict[str, Json] = {}
        self._score_rows: dict[int, tuple[HandResult, ScoreRow]] = {}
        """Each finished hand's row of the sheet, by the hand's identity (the hand is
        kept, so that its id is not reused), for the settings of ``_sheet_key``."""
        self._row_json: dict[int, tuple[ScoreRow, dict[str, Json]]] = {}
        """Each of those rows as JSON, by the row's identity (the row is kept)."""

    def seat_rows(self, obs: Observation, names: Sequence[str]) -> list[dict[str, Json]]:
        """:func:`seat_rows` of ``obs``, built again only when a field of the observation
        it read (or a name) differs."""
        return self._rows.get(obs, tuple(names))

    def panel(self, obs: Observation, names: Sequence[str], cards: CardText) -> dict[str, Json]:
        """:func:`panel` of ``obs``, built again only when a field of the observation it
        read (the game's own reading included), a name or the card labels differ."""
        return self._panel.get(obs, tuple(names), cards)

    def scorecard(self, obs: Observation, names: Sequence[str], cards: CardText) -> dict[str, Json]:
        """The seat's score sheet as JSON, built again only when its finished hands (the
        same objects), names, teams or card labels differ; the row of a hand already
        written (the same object) is not made again."""
        key = (
            obs.history,
            tuple(names),
            obs.partnerships,
            obs.cooperative,
            obs.rules.spec.hooks,
            cards.labels,
            cards.symbols,
        )
        old = self._sheet_key
        if (
            old is not None
            and len(old[0]) == len(key[0])
            and all(a is b for a, b in zip(old[0], key[0], strict=True))
            and old[1:] == key[1:]
        ):
            return self._sheet
        known = self._score_rows
        if old is None or old[1:] != key[1:] or len(known) > _ROWS_KEPT:
            known.clear()
            self._row_json.clear()
        rows = []
        for hand in obs.history:
            hit = known.get(id(hand))
            if hit is None or hit[0] is not hand:
                row = score_row(
                    hand,
                    names,
                    cards,
                    obs.partnerships,
                    cooperative=obs.cooperative,
                    game=game_present(obs.rules),
                )
                hit = known[id(hand)] = (hand, row)
            rows.append(hit[1])
        self._sheet = observation_scorecard(obs, names, cards, rows).to_json(self._written_row)
        self._sheet_key = key
        return self._sheet

    def _written_row(self, row: ScoreRow) -> dict[str, Json]:
        """``row`` as JSON, written once (the sheet of every hand's end holds it)."""
        hit = self._row_json.get(id(row))
        if hit is None or hit[0] is not row:
            hit = self._row_json[id(row)] = (row, row.to_json())
        return hit[1]


_ROWS_KEPT = 1000
"""Score rows a :class:`PresentMemo` keeps before it forgets them all."""


def present_json(
    obs: Observation,
    names: Sequence[str],
    previous: Observation | None = None,
    *,
    actor: int | None = None,
    action: Action | None = None,
    with_scorecard: bool = True,
    memo: PresentMemo | None = None,
) -> dict[str, Json]:
    """The seat's presentation block: ``{"scorecard", "narration", "panel", "seats"}``.

    ``names`` are the seats' names. ``previous`` is the same seat's observation one
    step before (``actor``'s ``action``, or a chance step when None); without it the
    narration is empty. Without ``with_scorecard`` the scorecard is None (it changes
    only when a hand ends). With ``memo`` the seat rows and the score sheet are taken
    from it when they would be built the same (the same output, built once).
    """
    cards = CardText(labels=obs.rules.joker_labels)
    lines: list[Narration] = []
    if previous is not None:
        lines = narrate(previous, obs, names, cards, actor=actor, action=action)
    sheet: dict[str, Json] | None = None
    if with_scorecard:
        if memo is not None:
            sheet = memo.scorecard(obs, names, cards)
        else:
            sheet = observation_scorecard(obs, names, cards).to_json()
    return {
        "scorecard": sheet,
        "narration": [line.to_json() for line in lines],
        "panel": memo.panel(obs, names, cards) if memo is not None else panel(obs, names, cards),
        "seats": memo.seat_rows(obs, names) if memo is not None else seat_rows(obs, names),
        "hand": hand_view(obs, cards),
    }


def _same_in_all(lists: list[list[dict[str, Json]]], key: str) -> list[dict[str, Json]]:
    """The items of the first list that have a ``public`` form which every other list
    has too, in an item with the same ``key`` (in order); each written in public form."""
    kept: list[dict[str, Json]] = []
    positions = [0] * len(lists)
    for item in lists[0]:
        public = item.get("public")
        if public is None:
            continue
        found = []
        for index, other in enumerate(lists[1:], 1):
            at = next(
                (
                    k
                    for k in range(positions[index], len(other))
                    if other[k].get(key) == item.get(key) and other[k].get("public") == public
                ),
                None,
            )
            if at is None:
                break
            found.append((index, at))
        else:
            for index, at in found:
                positions[index] = at + 1
            shown = {k: v for k, v in item.items() if k not in ("mine", "cards")}
            if "cards" in item and all(lists[i][a].get("cards") == item["cards"] for i, a in found):
                shown["cards"] = item["cards"]
            shown["text"] = public
            if "mine" in item:
                shown["mine"] = False
            kept.append(shown)
    return kept


def public_present(blocks: list[dict[str, Json]], common: Any) -> dict[str, Json]:
    """The spectators' block: what every seat's block shows alike. ``common`` is the
    function that keeps the common part of JSON values (``tricktaker.server.tables.views.common``)
    and lines with a public form are kept where every seat has the same one, cards drawn
    where they are public and every seat has them."""
    narration = _same_in_all([b["narration"] for b in blocks], "kind")
    panel_lines = _same_in_all([b["panel"]["lines"] for b in blocks], "label")
    panels = common(
        [{k: v for k, v in b["panel"].items() if k not in ("lines", "cards")} for b in blocks]
    )
    if isinstance(panels, dict):
        panels["lines"] = panel_lines
        panels["cards"] = [
            shown
            for shown in blocks[0]["panel"].get("cards") or []
            if shown.get("public") and all(shown in b["panel"].get("cards") or [] for b in blocks)
        ]
        panels["hand_note"] = None
    sheet = None
    if all(b["scorecard"] is not None for b in blocks):
        sheets = [b["scorecard"] for b in blocks]
        sheet = common([{**s, "rows": [{**r, "summary": []} for r in s["rows"]]} for s in sheets])
        if isinstance(sheet, dict) and isinstance(sheet.get("rows"), list):
            for number, row in enumerate(sheet["rows"]):
                if isinstance(row, dict):
                    row["summary"] = _same_in_all(
                        [s["rows"][number]["summary"] for s in sheets], "public"
                    )
    return {
        "scorecard": sheet,
        "narration": narration,
        "panel": panels,
        "seats": common([b["seats"] for b in blocks]),
        "hand": None,
    }
