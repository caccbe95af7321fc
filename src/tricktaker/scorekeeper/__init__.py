"""Keep score at a real card table: a sheet that knows every game's rules.

:class:`ScoreSheet` takes what the table reports hand by hand (calls, bids, tricks),
checks each entry with the engine's rules, scores it with the engine's scoring, and
says when the game ends and who won. :mod:`tricktaker.scorekeeper.export` writes the
sheet as CSV, JSON and Markdown and reads a JSON sheet back. See docs/scorekeeper.md.
"""

from tricktaker.scorekeeper.export import (
    sheet_from_json,
    sheet_to_csv,
    sheet_to_json,
    sheet_to_markdown,
)
from tricktaker.scorekeeper.sheet import (
    CallEntry,
    Change,
    EntryError,
    HandEntry,
    NextHand,
    Row,
    ScoreSheet,
    SheetError,
)

__all__ = [
    "CallEntry",
    "Change",
    "EntryError",
    "HandEntry",
    "NextHand",
    "Row",
    "ScoreSheet",
    "SheetError",
    "sheet_from_json",
    "sheet_to_csv",
    "sheet_to_json",
    "sheet_to_markdown",
]
