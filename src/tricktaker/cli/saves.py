"""Saved games of ``tricktaker play``: the game record plus who sits where.

A save file is versioned JSON::

    {"format": "tricktaker-save", "version": 1,
     "humans": [0, 2], "bots": {"1": "heuristic", "3": "pimc"},
     "names": ["Ann", "Cy", "Bob", "Di"] or null,
     "record": {...the game record that --record writes...}}

It is written again after every action, so ``tricktaker play --resume FILE`` carries on
from the exact position: the record is replayed (any inconsistency is an error) and
the bots are seeded again from the game's seed and the number of events.

>>> from tricktaker import load_ruleset, new_game
>>> state = new_game(load_ruleset("blackout"), players=3, seed=1)
>>> saved = SavedGame(state.record(), humans=(0,), bots={1: "random", 2: "heuristic"})
>>> again = SavedGame.loads(saved.dumps())
>>> again.humans, again.bots, again.replay().seed
((0,), {1: 'random', 2: 'heuristic'}, 1)
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from tricktaker.engine import GameState, RecordError
from tricktaker.engine.record import RECORD_FORMAT, GameRecord

from .common import program_name, unused_path

SAVE_FORMAT = "tricktaker-save"
SAVE_VERSION = 1


class SaveError(ValueError):
    """A save file that cannot be read or carried on."""


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A game in progress: its record, the seats people play, the bots and the names."""

    record: GameRecord
    humans: tuple[int, ...]
    bots: Mapping[int, str]
    names: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "humans": list(self.humans),
            "bots": {str(seat): name for seat, name in sorted(self.bots.items())},
            "names": list(self.names) if self.names is not None else None,
            "record": self.record.to_json(),
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    def write(self, path: Path) -> None:
        """Write the file whole or not at all (a new file moved over the old one)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        partial.write_text(self.dumps() + "\n", encoding="utf-8")
        os.replace(partial, path)

    @classmethod
    def loads(cls, text: str) -> SavedGame:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SaveError(f"not a saved game: the file is not JSON ({exc.msg})") from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: Path) -> SavedGame:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise SaveError(f"{path}: cannot read the saved game: {reason}") from None
        try:
            return cls.loads(text)
        except SaveError as exc:
            raise SaveError(f"{path}: {exc}") from None

    @classmethod
    def from_json(cls, data: object) -> SavedGame:
        if isinstance(data, dict) and data.get("format") == RECORD_FORMAT:
            raise SaveError(
                f"this is a game record, not a saved game: {program_name()} replay shows it"
            )
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveError("not a saved game (no 'format': 'tricktaker-save' field)")
        if data.get("version") != SAVE_VERSION:
            raise SaveError(
                f"saved-game version {data.get('version')!r} is not supported"
                f" (this program reads {SAVE_VERSION})"
            )
        try:
            record = GameRecord.from_json(data.get("record"))
        except RecordError as exc:
            raise SaveError(f"the saved game is damaged: {exc}") from None
        players = record.players
        humans = data.get("humans")
        if (
            not isinstance(humans, list)
            or not humans
            or not all(_is_seat(s, players) for s in humans)
            or len(set(humans)) != len(humans)
        ):
            raise SaveError(
                f"the saved game is damaged: 'humans' must list seats 0 to {players - 1}"
            )
        bots = data.get("bots")
        others = [s for s in range(players) if s not in humans]
        if (
            not isinstance(bots, dict)
            or sorted(bots) != sorted(str(s) for s in others)
            or not all(isinstance(v, str) for v in bots.values())
        ):
            raise SaveError("the saved game is damaged: 'bots' must name a bot for each other seat")
        names = data.get("names")
        if names is not None and (
            not isinstance(names, list)
            or len(names) != players
            or not all(isinstance(n, str) and n for n in names)
        ):
            raise SaveError(f"the saved game is damaged: 'names' must be {players} names")
        return cls(
            record=record,
            humans=tuple(humans),
            bots={int(seat): name for seat, name in bots.items()},
            names=tuple(names) if names is not None else None,
        )

    def replay(self) -> GameState:
        """The game at the saved position."""
        try:
            return self.record.replay()
        except RecordError as exc:
            raise SaveError(f"the saved game is damaged: {exc}") from None


def _is_seat(value: object, players: int) -> bool:
    return type(value) is int and 0 <= value < players


def resume_seed(game_seed: int, events: int) -> int:
    """The seed the bots get when a game is carried on after ``events`` events."""
    return random.Random(f"tricktaker-resume:{game_seed}:{events}").getrandbits(32)


def save_folder() -> Path:
    """Where saves go when no ``--save FILE`` is given: the user's data folder."""
    from platformdirs import user_data_path

    return user_data_path("tricktaker") / "saves"


def new_save_path(stem: str, folder: Path | None = None) -> Path:
    """A save file not yet taken: ``stem.json``, ``stem-2.json`` ..."""
    return unused_path(folder if folder is not None else save_folder(), stem)


def saved_game_kind(path: str) -> str | None:
    """``"save"`` or ``"record"`` when the file at ``path`` is one (else None): a GAME
    argument that is one of these gets a pointer to the right command."""
    file = Path(path)
    if not file.is_file():
        return None
    try:
        with file.open(encoding="utf-8") as handle:
            start = handle.read(4096)
    except (OSError, UnicodeDecodeError):
        return None
    if not start.lstrip().startswith("{"):
        return None
    for kind, marker in (("save", SAVE_FORMAT), ("record", RECORD_FORMAT)):
        if f'"{marker}"' in start:
            return kind
    return "json"


class Saver:
    """Writes the save file after every action; a failure is reported once, and play
    goes on without saving."""

    def __init__(
        self,
        console: Console,
        state: GameState,
        path: Path,
        *,
        humans: Sequence[int],
        bots: dict[int, str],
        names: Sequence[str] | None,
        record_names: Sequence[str] | None = None,
        hints: list[dict[str, Any]] | None = None,
    ) -> None:
        self.console = console
        self.state = state
        self.path = path
        self.humans = tuple(humans)
        self.bots = bots
        self.names = tuple(names) if names is not None else None
        self.record_names = list(record_names) if record_names is not None else None
        """The seats' names as the record keeps them (every seat named, bots too)."""
        self.hints = hints if hints is not None else []
        """When a person asked for a hint (:attr:`GameRecord.hints`): the list the table
        adds to, saved with the record."""
        self.saved_events = -1
        self.saved_hints = 0
        self.broken = False

    def __call__(self) -> None:
        if self.broken or (
            len(self.state.events) == self.saved_events and len(self.hints) == self.saved_hints
        ):
            return
        record = GameRecord.of(self.state, names=self.record_names, hints=self.hints)
        saved = SavedGame(record, self.humans, self.bots, self.names)
        try:
            saved.write(self.path)
        except OSError as exc:
            self.broken = True
            reason = exc.strerror or str(exc)
            self.console.print(
                Text(f"Cannot save the game to {self.path}: {reason}; playing on unsaved.", "red")
            )
            return
        self.saved_events = len(self.state.events)
        self.saved_hints = len(self.hints)

    @property
    def ok(self) -> bool:
        return not self.broken and self.saved_events >= 0
