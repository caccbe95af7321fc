"""The presentation layer: what a table shows a seat, computed once from its observation
and written as plain JSON-able data, for the terminal, the browser and the scorekeeper.

:func:`present_json` gives four parts:

- ``scorecard``: the running score sheet (:mod:`tricktaker.present.scorecard`);
- ``narration``: what happened since the previous observation
  (:mod:`tricktaker.present.narrate`);
- ``panel``: the hand's heading, trump and notes and the game's own panel
  (:mod:`tricktaker.present.panels`);
- ``seats``: one row per seat.

Cards are written as codes (``AS``, ``10H``) in data and with suit symbols (``A♠``) in
text; there is never any markup. Only the observation is read, so nothing a seat may
not know can appear. :func:`public_present` gives spectators the part that every seat's
block shows alike. The JSON is described in docs/protocol.md, Views.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tricktaker.engine import Action, Observation

from .narrate import Narration, narrate
from .panels import Line, game_lines, panel, seat_rows
from .scorecard import Scorecard, ScoreRow, TextLine, observation_scorecard, scorecard
from .text import SYMBOLS, CardText

__all__ = [
    "SYMBOLS",
    "CardText",
    "Line",
    "Narration",
    "ScoreRow",
    "Scorecard",
    "TextLine",
    "game_lines",
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


def present_json(
    obs: Observation,
    names: Sequence[str],
    previous: Observation | None = None,
    *,
    actor: int | None = None,
    action: Action | None = None,
    with_scorecard: bool = True,
) -> dict[str, Json]:
    """The seat's presentation block: ``{"scorecard", "narration", "panel", "seats"}``.

    ``names`` are the seats' names. ``previous`` is the same seat's observation one
    step before (``actor``'s ``action``, or a chance step when None); without it the
    narration is empty. Without ``with_scorecard`` the scorecard is None (it changes
    only when a hand ends).
    """
    cards = CardText(labels=obs.rules.joker_labels)
    lines: list[Narration] = []
    if previous is not None:
        lines = narrate(previous, obs, names, cards, actor=actor, action=action)
    return {
        "scorecard": (
            observation_scorecard(obs, names, cards).to_json() if with_scorecard else None
        ),
        "narration": [line.to_json() for line in lines],
        "panel": panel(obs, names, cards),
        "seats": seat_rows(obs, names),
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
    function that keeps the common part of JSON values (``tricktaker.server.views.common``)
    and lines with a public form are kept where every seat has the same one."""
    narration = _same_in_all([b["narration"] for b in blocks], "kind")
    panel_lines = _same_in_all([b["panel"]["lines"] for b in blocks], "label")
    panels = common([{k: v for k, v in b["panel"].items() if k != "lines"} for b in blocks])
    if isinstance(panels, dict):
        panels["lines"] = panel_lines
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
    }
