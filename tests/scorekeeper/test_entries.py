"""A hand entry defined once (docs/scorekeeper.md): the game's own part of an entry comes
from the game's ``scorekeeper`` capability, for the shipped games and for a game written
outside the package (Last Trick); sheet files and server entries written before the
capability still load."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tricktaker.scorekeeper import EntryError, ScoreSheet, sheet_from_json, sheet_to_json

PLUGIN = Path(__file__).resolve().parents[1] / "plugins" / "last_trick.toml"

OLD_EUCHRE_FILE: dict[str, Any] = {
    "format": "tricktaker-score-sheet",
    "version": 1,
    "game": "euchre",
    "options": {},
    "players": ["Ann", "Bob", "Cy", "Di"],
    "first_dealer": "Ann",
    "hands": [
        {
            "hand": 1,
            "dealer": "Ann",
            "hand_size": 5,
            "trump": None,
            "special": "4 hearts",
            "bids": {"Ann": None, "Bob": None, "Cy": None, "Di": None},
            "tricks": {"Ann": 5, "Bob": 0, "Cy": 0, "Di": 0},
            "scores": {"Ann": 2, "Bob": 0, "Cy": 2, "Di": 0},
            "totals": {"Ann": 2, "Bob": 0, "Cy": 2, "Di": 0},
            "contract": {"bidder": "Ann", "bid": "4H"},
        },
        {
            "hand": 2,
            "dealer": "Bob",
            "hand_size": 5,
            "trump": None,
            "special": "thrown in",
            "bids": {"Ann": None, "Bob": None, "Cy": None, "Di": None},
            "tricks": {"Ann": 0, "Bob": 0, "Cy": 0, "Di": 0},
            "scores": {"Ann": 0, "Bob": 0, "Cy": 0, "Di": 0},
            "totals": {"Ann": 2, "Bob": 0, "Cy": 2, "Di": 0},
            "contract": None,
        },
    ],
    "over": False,
    "winners": [],
}
"""docs/games/euchre.md, Scoring: a sheet file as the scorekeeper wrote it before the
game's steps moved to the game (Ann makes 4H with 5 tricks; then all four pass)."""

OLD_BUCKUP_FILE: dict[str, Any] = {
    "format": "tricktaker-score-sheet",
    "version": 1,
    "game": "buckup",
    "options": {},
    "players": ["A", "B", "C", "D"],
    "first_dealer": "D",
    "hands": [
        {
            "hand": 1,
            "dealer": "D",
            "hand_size": 5,
            "trump": None,
            "special": "pot 0 -> 55",
            "bids": {"A": None, "B": None, "C": None, "D": None},
            "tricks": {"A": 0, "B": 3, "C": 2, "D": 0},
            "scores": {"A": -10, "B": 13, "C": 2, "D": -60},
            "totals": {"A": -10, "B": 13, "C": 2, "D": -60},
            "ante": "kept",
            "decisions": {"A": ["fold"], "B": ["stay"], "C": ["stay"], "D": ["stay"]},
            "drawn": {"A": 0, "B": 3, "C": 1, "D": 5},
        }
    ],
    "over": False,
    "winners": [],
}
"""docs/games/buckup.md, Scoring, worked example, as the scorekeeper wrote it before."""


@pytest.mark.parametrize("old", [OLD_EUCHRE_FILE, OLD_BUCKUP_FILE], ids=["euchre", "buckup"])
def test_old_sheet_files_load_and_are_written_the_same(old: dict[str, Any]) -> None:
    """docs/scorekeeper.md, Files: a saved sheet reads back, every hand checked again, and
    is written byte for byte as it was."""
    sheet = sheet_from_json(json.loads(json.dumps(old)))
    assert sheet_to_json(sheet) == old


def test_old_server_entries_load() -> None:
    """docs/scorekeeper.md, The HTTP API: entries stored with every game's fields (empty
    where the game has none) load into each game's entry."""
    empty: dict[str, Any] = {
        "contract": None,
        "declarer": None,
        "ante": None,
        "decisions": [],
        "drawn": [],
    }
    bluke = ScoreSheet("bluke", ["John", "Margaret", "Steve", "Betsy"])
    entry = bluke.entry_from_json(
        {"bids": [3, 3, 2, 5], "tricks": [4, 0, 4, 5], "trick_winners": [], "trump": None}
        | {"call": None}
        | empty
    )
    assert bluke.add_entry(entry).scores == (31, -30, 22, 50)
    assert entry.game is None
    assert entry.to_json() == {
        "bids": [3, 3, 2, 5],
        "tricks": [4, 0, 4, 5],
        "trick_winners": [],
        "trump": None,
        "call": None,
    }
    euchre = ScoreSheet("euchre", ["Ann", "Bob", "Cy", "Di"])
    data = {"bids": [], "tricks": [5, 0, 0, 0], **empty, "contract": "4h", "declarer": 0}
    entry = euchre.entry_from_json(data)
    assert euchre.add_entry(entry).scores == (2, 0, 2, 0)
    assert entry.to_json()["contract"] == "4H"
    assert euchre.entry_from_json(entry.to_json()) == entry
    buckup = ScoreSheet("buckup", ["A", "B", "C", "D"], first_dealer="D")
    data = {
        "tricks": [0, 3, 2, 0],
        **empty,
        "ante": "kept",
        "decisions": [["fold"], ["stay"], ["stay"], ["stay"]],
        "drawn": [0, 3, 1, 5],
    }
    entry = buckup.entry_from_json(data)
    buckup.add_entry(entry)
    assert buckup.chips() == ((490, 513, 502, 440), 55)
    assert buckup.entry_from_json(entry.to_json()) == entry


def test_a_game_field_the_game_does_not_have_is_refused() -> None:
    """docs/games/blackout.md: Blackout has bids and tricks, no contract."""
    sheet = ScoreSheet("blackout", ["Ann", "Bob", "Cy"])
    with pytest.raises(EntryError, match="takes no contract"):
        sheet.add(bids=[1, 0, 0], tricks=[1, 0, 0], contract="4H")


def test_a_game_written_outside_the_package_keeps_its_sheet() -> None:
    """tests/plugins/last_trick.py: Last Trick declares its scorekeeper steps (each
    player's stake); a stake of 1 on the last trick won scores +1, a stake of 2 lost -2,
    on top of a point a trick."""
    import tests.plugins.last_trick  # noqa: F401  (registers the game's Python rules)

    sheet = ScoreSheet(str(PLUGIN), ["Ann", "Bob", "Cy", "Di"])
    nxt = sheet.next_hand()
    assert nxt.trick_points  # the stakes ride on who won the last trick
    assert not sheet.has_bids()
    (step,) = sheet.game_steps()
    assert (step.name, step.kind, step.low, step.high) == ("stakes", "seat_number", 0, 2)
    with pytest.raises(EntryError, match="stake 3 is not possible"):
        sheet.add(tricks=[2, 1, 1, 1], trick_winners=[0, 1, 2, 3, 0], stakes=[1, 0, 3, 0])
    with pytest.raises(EntryError, match="who won each"):
        sheet.add(tricks=[2, 1, 1, 1], stakes=[1, 0, 2, 0])
    row = sheet.add(tricks=[2, 1, 1, 1], trick_winners=[0, 1, 2, 3, 0], stakes=[1, 0, 2, 0])
    assert row.scores == (3, 1, -1, 1)
    entry = sheet.entries[0]
    assert entry.to_json()["stakes"] == [1, 0, 2, 0]
    assert sheet.entry_from_json(entry.to_json()) == entry
    data = json.loads(json.dumps(sheet_to_json(sheet)))
    assert data["hands"][0]["stakes"] == {"Ann": 1, "Bob": 0, "Cy": 2, "Di": 0}
    assert sheet_from_json(data).totals == sheet.totals
