"""Versioned JSON game records: ruleset, options, seed and every event; they replay exactly.

>>> from tricktaker import load_ruleset, new_game
>>> from tricktaker.bots import play_game, make_bot
>>> state = new_game(load_ruleset("jabberwocky"), players=3, seed=1)
>>> play_game(state, [make_bot("random", seed=s) for s in range(3)])
>>> text = state.record().dumps()
>>> replay(GameRecord.loads(text)).scores == state.scores
True
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tricktaker.cards import CardError, format_card, parse_card
from tricktaker.engine.actions import Action, ActionParseError
from tricktaker.engine.errors import IllegalActionError, RecordError
from tricktaker.rules.ruleset import RulesetError, ruleset_from_data

if TYPE_CHECKING:
    from tricktaker.engine.state import GameState

RECORD_FORMAT = "tricktaker-record"
RECORD_VERSION = 1


def program_name() -> str:
    """This program and its version, as a record names its writer."""
    from tricktaker._version import __version__

    return f"tricktaker {__version__}"


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game as data. ``events`` are ``[seat, "bid 3"]`` or ``["deal", "AS 10H ..."]``."""

    game: str
    ruleset: dict[str, Any]
    options: dict[str, Any]
    players: int
    seed: int
    first_dealer: int
    first_dealer_given: bool
    events: list[list[Any]]
    final_scores: list[int] | None
    finished: bool
    names: list[str] | None = None
    """The seats' names, when the game was played with names (optional)."""
    undos: list[dict[str, Any]] = field(default_factory=list)
    """Actions taken back at a practice table, in order: ``{"seat": s, "at": n,
    "events": [...]}``, where seat ``s`` took back its last action when ``events`` held
    ``n`` events; ``events`` are the record events then removed (not in :attr:`events`).
    A replay ignores them: :attr:`events` alone make the game (optional)."""
    hints: list[dict[str, Any]] = field(default_factory=list)
    """When a seat asked the coach for a hint, in order: ``{"seat": s, "at": n}``, seat
    ``s`` asked when :attr:`events` held ``n`` events (before its action, event ``n + 1``
    or later; a hint asked at a position an undo took back is at the position the undo
    returned to, so ``n`` never exceeds the events: a record that says otherwise is
    refused). A replay ignores them (optional)."""
    program: str | None = None
    """The program and version that wrote the record, e.g. ``"tricktaker 0.1.0"``
    (optional; a replay ignores it)."""

    @classmethod
    def of(
        cls,
        state: GameState,
        *,
        names: Sequence[str] | None = None,
        undos: Sequence[Mapping[str, Any]] = (),
        hints: Sequence[Mapping[str, Any]] = (),
    ) -> GameRecord:
        labels = state.setup.labels
        events: list[list[Any]] = []
        for event in state.events:
            if event[0] == "chance":
                outcome = event[1]
                cards = " ".join(format_card(c, labels=labels) for c in outcome.cards)  # type: ignore[attr-defined]
                events.append([outcome.kind, cards])  # type: ignore[attr-defined]
            else:
                seat, action = event
                assert isinstance(action, Action)
                events.append([seat, action.text(labels=labels)])
        return cls(
            game=state.rules.id,
            ruleset=state.rules.data,
            options=dict(state.rules.options),
            players=state.players,
            seed=state.seed,
            first_dealer=state.first_dealer,
            first_dealer_given=state.first_dealer_given,
            events=events,
            final_scores=list(state.scores) if state.is_terminal() else None,
            finished=state.is_terminal(),
            names=list(names) if names is not None else None,
            undos=[dict(undo) for undo in undos],
            hints=[dict(hint) for hint in hints],
            program=program_name(),
        )

    def with_names(self, names: Sequence[str] | None) -> GameRecord:
        """The same record with the seats' names ``names``."""
        return replace(self, names=list(names) if names is not None else None)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "first_dealer_given": self.first_dealer_given,
            "finished": self.finished,
            "final_scores": self.final_scores,
            "ruleset": self.ruleset,
            "events": self.events,
        }
        if self.names is not None:
            data["names"] = list(self.names)
        if self.undos:
            data["undos"] = [dict(undo) for undo in self.undos]
        if self.hints:
            data["hints"] = [dict(hint) for hint in self.hints]
        if self.program is not None:
            data["program"] = self.program
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(
                f"not a tricktaker record: the file is not JSON ({exc.msg})"
            ) from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise RecordError(f"{path}: cannot read the record: {exc}") from None
        try:
            return cls.loads(text)
        except RecordError as exc:
            raise RecordError(f"{path}: {exc}") from None

    @classmethod
    def from_json(cls, data: object) -> GameRecord:
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise RecordError("not a tricktaker record (no 'format': 'tricktaker-record' field)")
        version = data.get("version")
        if version != RECORD_VERSION:
            raise RecordError(
                f"record version {version!r} is not supported (this program reads {RECORD_VERSION})"
            )
        required = {
            "game": str,
            "ruleset": dict,
            "options": dict,
            "players": int,
            "seed": int,
            "first_dealer": int,
            "events": list,
            "finished": bool,
        }
        for name, kind in required.items():
            if not isinstance(data.get(name), kind):
                raise RecordError(f"record field {name!r} is missing or not a {kind.__name__}")
        scores = data.get("final_scores")
        if scores is not None and (
            not isinstance(scores, list) or not all(isinstance(v, int) for v in scores)
        ):
            raise RecordError("record field 'final_scores' must be a list of whole numbers")
        for index, event in enumerate(data["events"]):
            if not (isinstance(event, list) and len(event) == 2 and isinstance(event[1], str)):
                raise RecordError(f"event {index + 1} is malformed: {event!r}")
        names = data.get("names")
        if names is not None and (
            not isinstance(names, list)
            or len(names) != data["players"]
            or not all(isinstance(name, str) for name in names)
        ):
            raise RecordError("record field 'names' must be a list of one name per seat")
        undos = data.get("undos", [])
        if not isinstance(undos, list) or not all(
            isinstance(undo, dict)
            and isinstance(undo.get("seat"), int)
            and isinstance(undo.get("at"), int)
            and isinstance(undo.get("events"), list)
            for undo in undos
        ):
            raise RecordError("record field 'undos' must be a list of {seat, at, events} objects")
        hints = data.get("hints", [])
        if not isinstance(hints, list) or not all(
            isinstance(hint, dict) and type(hint.get("seat")) is int and type(hint.get("at")) is int
            for hint in hints
        ):
            raise RecordError("record field 'hints' must be a list of {seat, at} objects")
        for hint in hints:
            if not 0 <= hint["seat"] < data["players"]:
                raise RecordError(f"a hint names seat {hint['seat']}, not a seat of the game")
            if not 0 <= hint["at"] <= len(data["events"]):
                raise RecordError(
                    f"a hint is at event {hint['at']}, not a position of the record's"
                    f" {len(data['events'])} events (0 to {len(data['events'])})"
                )
        program = data.get("program")
        if program is not None and not isinstance(program, str):
            raise RecordError("record field 'program' must be text")
        return cls(
            **{name: data[name] for name in required},
            first_dealer_given=data.get("first_dealer_given", True) is not False,
            final_scores=scores,
            names=names,
            undos=undos,
            hints=hints,
            program=program,
        )

    def replay(self) -> GameState:
        """Rebuild the game by applying every event; any inconsistency is a RecordError."""
        from tricktaker.engine.state import ChanceOutcome, new_game

        try:
            rules = ruleset_from_data(
                self.ruleset, options=self.options, source=f"record of {self.game}"
            )
            given = self.first_dealer if self.first_dealer_given else None
            state = new_game(rules, players=self.players, seed=self.seed, first_dealer=given)
        except (RulesetError, ValueError) as exc:
            raise RecordError(f"the record's game cannot be set up: {exc}") from None
        if state.first_dealer != self.first_dealer:
            raise RecordError(
                f"the seed gives seat {state.first_dealer} as first dealer,"
                f" but the record says seat {self.first_dealer}"
            )
        labels = state.setup.labels
        for index, (who, text) in enumerate(self.events, start=1):
            try:
                if isinstance(who, str):
                    cards = tuple(parse_card(c, labels=labels) for c in text.split())
                    state.apply_chance(ChanceOutcome(who, cards))
                elif isinstance(who, int) and not isinstance(who, bool):
                    state.apply(who, Action.parse(text, labels=labels))
                else:
                    raise RecordError(f"event {index}: {who!r} is neither a seat nor a chance step")
            except (IllegalActionError, ActionParseError, CardError) as exc:
                raise RecordError(f"event {index} ({who} {text[:40]!r}): {exc}") from None
        self.check_end(state)
        return state

    def check_end(self, state: GameState) -> None:
        """Check that ``state``, this record's events replayed, ends as the record says:
        with its final scores, and finished when it says so (a :class:`RecordError` if not)."""
        if self.final_scores is not None and state.scores != self.final_scores:
            raise RecordError(
                f"the replayed scores {state.scores} differ from the recorded {self.final_scores}"
            )
        if self.finished and not state.is_terminal():
            raise RecordError("the record says the game finished, but its events end early")


def replay(record: GameRecord) -> GameState:
    """Replay a record into the final state."""
    return record.replay()
