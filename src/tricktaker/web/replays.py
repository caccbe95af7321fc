"""A game record replayed by the engine for the replay page, which opens at once
whatever the game's length.

A replay shows the whole game after it is over, so every hand is shown: each *frame* is
the table after one event of the record (a deal, a bid, a card, a pluck...), with every
seat's cards, the bids, the trick on the table, the tricks won and the scores. Frame 0
is the table before the first event; frame ``n`` the table after event ``n``.

Making every frame of a long game at once costs seconds and megabytes (a frame is a
whole table, some 2 KiB for seven seats), so :class:`Replay` makes them as they are
asked for:

* :meth:`Replay.outline`, at once: the game, the seats' names, the final scores, and
  each hand's place among the frames (``frame``: the frame where the hand begins, the
  frame before its first event; ``end``: the frame of its last event; ``tricks``: the
  frame where each trick is complete), which is all the page needs to step event by
  event, trick by trick and hand by hand;
* :meth:`Replay.hand`, on demand: one hand's frames, those after its ``frame`` up to
  the next hand's ``frame`` (the first hand's from frame 0, the last hand's to the last
  frame), the first whole and each other as its *change* from the frame before
  (:func:`frame_change`, applied by :func:`apply_change` and by the page);
* :meth:`Replay.scorecard`, on demand: the whole game's score sheet, as the
  presentation layer writes it for every client (the page cuts it to the hands over).

The engine steps the record once to open it, keeping a copy of the table every few
hundred events, so that any hand is made from the copy before it.

>>> from tricktaker.engine import new_game
>>> from tricktaker.rules import load_ruleset
>>> from tricktaker.bots import play_game, make_bot
>>> state = new_game(load_ruleset("blackout"), players=3, seed=1)
>>> _ = play_game(state, [make_bot("random", seed=s) for s in range(3)])
>>> replay = Replay(state.record())
>>> outline = replay.outline()
>>> outline["finished"], outline["steps"] == len(state.events), outline["names"][0]
(True, True, 'Seat 1')
>>> frames = all_frames(replay)
>>> len(frames) == len(state.events) + 1, frames[0]["step"], frames[-1]["phase"]
(True, 0, 'game_over')
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tricktaker.cards import SUIT_NAMES, CardError, parse_card
from tricktaker.engine import GameRecord, RecordError
from tricktaker.engine.actions import Action, ActionParseError
from tricktaker.engine.errors import IllegalActionError
from tricktaker.engine.observation import Observation
from tricktaker.engine.state import ChanceOutcome, GameState
from tricktaker.present import CardText, game_lines, narrate, scorecard
from tricktaker.present.panels import hand_view
from tricktaker.present.text import default_seat_name
from tricktaker.server.tables.views import observation_json, public_view

Json = Any
"""Plain JSON data."""

MAX_EVENTS = 20_000
"""The most events a record may have to be replayed here (a 7-player Buckup game that
reaches its 200-hand cap has some 8,000)."""

SNAPSHOT_EVERY = 400
"""Events between the copies of the table kept to make a hand's frames from: a hand is
made from at most this many events before it, and a replay of ``n`` events keeps about
``n / SNAPSHOT_EVERY`` copies."""

KEPT_HANDS = 16
"""Hands whose frames a replay keeps once made (the most recent), for stepping back and
forth across a hand's edge."""

PER_SEAT = ("hands", "trumps", "seat_extra", "seat_lines")
"""A frame's keys that hold one value a seat: a change gives only the seats that
changed (``seats``)."""


def frame_change(before: Mapping[str, Json], after: Mapping[str, Json]) -> dict[str, Json]:
    """``after`` written as its change from ``before``: its ``step``, every key whose
    value differs, except that a per-seat key (:data:`PER_SEAT`) goes under ``seats``
    with only the seats that changed, by their index as a string.

    >>> frame_change({"step": 1, "bids": [None, 2], "hands": [["AS"], ["KD"]]},
    ...              {"step": 2, "bids": [1, 2], "hands": [[], ["KD"]]})
    {'step': 2, 'bids': [1, 2], 'seats': {'hands': {'0': []}}}
    """
    change: dict[str, Json] = {"step": after["step"]}
    seats: dict[str, dict[str, Json]] = {}
    for key, value in after.items():
        old = before.get(key)
        if key == "step" or value == old:
            continue
        if key in PER_SEAT and isinstance(old, list) and len(old) == len(value):
            seats[key] = {
                str(s): v for s, (o, v) in enumerate(zip(old, value, strict=True)) if o != v
            }
        else:
            change[key] = value
    if seats:
        change["seats"] = seats
    return change


def apply_change(before: Mapping[str, Json], change: Mapping[str, Json]) -> dict[str, Json]:
    """The frame that ``change`` (of :func:`frame_change`) makes of ``before``, as the
    page makes it.

    >>> apply_change({"step": 1, "bids": [None, 2], "hands": [["AS"], ["KD"]]},
    ...              {"step": 2, "bids": [1, 2], "seats": {"hands": {"0": []}}})
    {'step': 2, 'bids': [1, 2], 'hands': [[], ['KD']]}
    """
    after = dict(before)
    after.update((k, v) for k, v in change.items() if k != "seats")
    for key, seats in (change.get("seats") or {}).items():
        values = list(before[key])
        for seat, value in seats.items():
            values[int(seat)] = value
        after[key] = values
    return after


def _strip_common(extra: Mapping[str, Json], shared: Mapping[str, Json]) -> dict[str, Json]:
    """The keys of one seat's ``extra`` that the public ``extra`` lacks or shows otherwise."""
    return {k: v for k, v in extra.items() if shared.get(k) != v}


def _whole_hand(state: GameState, obs: Observation) -> Observation:
    """``obs`` with the seat's cards even where it may not look at them yet (a blind
    bid): a replay shows every hand."""
    if obs.hand is None and state.hands[obs.seat]:
        return replace(obs, hand=state.hands[obs.seat])
    return obs


def frame(
    state: GameState, step: int, event: Sequence[Json] | None, names: Sequence[str]
) -> dict[str, Json]:
    """The table after ``step`` events (``event`` is the last one, as the record writes
    it: ``[seat, "bid 3"]`` or ``["deal", "AS 10H ..."]``), with every hand shown.

    ``hands`` are each seat's cards in the order the presentation layer shows a hand
    (trumps first, bowers among them), ``trumps`` how many of them lead that hand as
    trumps; ``lines`` are the game's own panel lines that every seat sees alike (Pluck's
    quotas, Euchre's contract, Buckup's pot), and ``seat_lines`` each seat's lines that
    only it sees (the kitty it took, the card it was given), all in the presentation
    layer's words. ``trick`` is the trick this event completed (its cards and winner),
    else None."""
    labels = state.rules.joker_labels
    observations = [state.observe(s) for s in range(state.players)]
    views = [observation_json(obs, history=False) for obs in observations]
    text_of = CardText(labels=labels)
    panel_lines = [game_lines(obs, names, text_of) for obs in observations]
    common = [
        {"label": line.label, "text": line.public}
        for line in panel_lines[0]
        if line.public is not None and line.label != "Teams"
    ]
    private = [
        [
            {"label": line.label, "text": line.text}
            for line in lines
            if line.text != line.public and line.label != "Teams"
        ]
        for lines in panel_lines
    ]
    shared = public_view(views)
    trump = state.trump if state.trump_known else None
    over = state.is_terminal()
    shown = [None if over else hand_view(_whole_hand(state, obs), text_of) for obs in observations]
    extra = shared.get("extra") or {}
    actor: int | None = None
    chance: str | None = None
    text = ""
    if event is not None:
        who, what = event
        if isinstance(who, str):
            chance, text = who, what
        else:
            actor, text = int(who), str(what)
    return {
        "step": step,
        "actor": actor,
        "chance": chance,
        "action": text,
        "phase": state.phase_name,
        "hand_number": shared["hand_number"],
        "hands_played": state.hands_played,
        "hands_in_game": shared["hands_in_game"],
        "hand_size": state.hand_size,
        "dealer": state.dealer,
        "special": shared["special"],
        "call": shared["call"],
        "trump": SUIT_NAMES[trump] if trump is not None else None,
        "turn_up": shared["turn_up"],
        "hands": [[c["card"] for c in cards or ()] for cards in shown],
        "trumps": [sum(1 for c in cards or () if c["trump"]) for cards in shown],
        "bids": list(state.bids),
        "tricks_won": list(state.tricks_won),
        "current_trick": [[s, text_of.code(c)] for s, c in state.trick],
        "trick": None,
        "trick_winners": list(state.trick_winners),
        "scores": list(state.scores),
        "to_act": list(state.to_act()),
        "extra": extra,
        "seat_extra": [_strip_common(v.get("extra") or {}, extra) for v in views],
        "lines": common,
        "seat_lines": private,
    }


@dataclass(slots=True)
class _Hand:
    """A hand's place among the frames (see :meth:`Replay.outline`)."""

    number: int
    frame: int
    tricks: list[int] = field(default_factory=list)
    end: int | None = None


class Replay:
    """A record replayed for the page (see the module's docstring), the seats called
    ``names`` (default: the record's names, else ``Seat 1``, ``Seat 2``...).

    Raises :class:`~tricktaker.engine.RecordError` for a record that does not replay, and
    ValueError for names that do not fit its seats. Safe to use from several threads."""

    def __init__(self, record: GameRecord, names: Sequence[str] | None = None) -> None:
        if len(record.events) > MAX_EVENTS:
            raise RecordError(f"the record has {len(record.events)} events, more than {MAX_EVENTS}")
        given = names if names is not None else record.names
        seats = list(given) if given else [default_seat_name(s) for s in range(record.players)]
        if len(seats) != record.players:
            raise ValueError(f"{len(seats)} names for {record.players} seats")
        self.record = record
        self.names = seats
        # The table before the first event, set up (and checked) by the engine.
        self.start = replace(record, events=[], final_scores=None, finished=False).replay()
        self.labels = self.start.rules.joker_labels
        self.hands: list[_Hand] = []
        self.snapshots: list[tuple[int, GameState]] = []
        self._kept: OrderedDict[int, dict[str, Json]] = OrderedDict()
        self._sheet: dict[str, Json] | None = None
        self._lock = threading.Lock()
        self.final = self._outline()

    def _apply(self, state: GameState, event: Sequence[Json]) -> Action | None:
        """Apply one event of the record to ``state``; the action, if a seat acted."""
        who, text = event
        if isinstance(who, str):
            cards = tuple(parse_card(c, labels=self.labels) for c in str(text).split())
            state.apply_chance(ChanceOutcome(who, cards))
            return None
        action = Action.parse(str(text), labels=self.labels)
        state.apply(int(who), action)
        return action

    def _outline(self) -> GameState:
        """Step the record once, checking each event as :meth:`GameRecord.replay` does:
        note each hand's frames and tricks, keep the copies, answer the final table."""
        state = self.start.clone()
        self.snapshots.append((0, self.start))
        for step, event in enumerate(self.record.events, start=1):
            if not self.hands or self.hands[-1].number != state.hands_played + 1:
                self.hands.append(_Hand(number=state.hands_played + 1, frame=step - 1))
                if step - 1 - self.snapshots[-1][0] >= SNAPSHOT_EVERY:
                    self.snapshots.append((step - 1, state.clone()))
            played, tricks = state.hands_played, len(state.trick_cards)
            who, text = event
            if not isinstance(who, str | int) or isinstance(who, bool):
                raise RecordError(f"event {step}: {who!r} is neither a seat nor a chance step")
            try:
                self._apply(state, event)
            except (IllegalActionError, ActionParseError, CardError) as exc:
                raise RecordError(f"event {step} ({who} {str(text)[:40]!r}): {exc}") from None
            hand = self.hands[-1]
            if state.hands_played > played:  # the hand ended with this event
                if len(state.history[-1].trick_cards) > len(hand.tricks):
                    hand.tricks.append(step)
                hand.end = step
            elif len(state.trick_cards) > tricks:
                hand.tricks.append(step)
        if not self.hands:
            self.hands.append(_Hand(number=1, frame=0))
        self.record.check_end(state)
        return state

    def outline(self) -> dict[str, Json]:
        """What the page needs to open: ``game``, ``name``, ``players``, ``names``,
        ``seed``, ``options``, ``partnerships``, ``cooperative``, ``finished``,
        ``final_scores``, ``winners``, ``steps`` (the last frame's number: the record's
        events), ``undos`` (the actions taken back in the game, if any) and ``hands``
        (each hand's ``number``, ``frame``, ``end`` (None if the record stops in it) and
        ``tricks``, as the module's docstring says)."""
        final = self.final
        return {
            "game": self.record.game,
            "name": final.rules.name,
            "players": self.record.players,
            "names": self.names,
            "seed": self.record.seed,
            "options": dict(final.rules.options),
            "partnerships": [list(team) for team in final.setup.partnerships],
            "cooperative": final.setup.cooperative,
            "finished": final.is_terminal(),
            "final_scores": list(final.scores),
            "winners": final.winners() if final.is_terminal() else [],
            "steps": len(self.record.events),
            "undos": len(getattr(self.record, "undos", None) or ()),
            "hands": [
                {"number": h.number, "frame": h.frame, "end": h.end, "tricks": h.tricks}
                for h in self.hands
            ],
        }

    def hand(self, number: int) -> dict[str, Json]:
        """Hand ``number``'s frames (1 for the first; see the module's docstring):
        ``hand``, ``first`` and ``last`` (the frames' numbers) and ``frames``, the first
        whole and each other as its change from the one before (:func:`frame_change`).
        Raises LookupError for a hand the game does not have."""
        if not 1 <= number <= len(self.hands):
            raise LookupError(f"no hand {number}: the game has {len(self.hands)}")
        with self._lock:
            made = self._kept.get(number)
            if made is not None:
                self._kept.move_to_end(number)
                return made
        made = self._make(number)
        with self._lock:
            self._kept[number] = made
            while len(self._kept) > KEPT_HANDS:
                self._kept.popitem(last=False)
        return made

    def _make(self, number: int) -> dict[str, Json]:
        start = self.hands[number - 1].frame  # the table the hand's frames follow
        first = 0 if number == 1 else start + 1
        last = self.hands[number].frame if number < len(self.hands) else len(self.record.events)
        at, kept = max((s for s in self.snapshots if s[0] <= start), key=lambda s: s[0])
        state = kept.clone()
        events = self.record.events
        for event in events[at:start]:
            self._apply(state, event)
        text_of = CardText(labels=self.labels)
        trick_frames = set(self.hands[number - 1].tricks)
        frames: list[dict[str, Json]] = []
        previous: dict[str, Json] | None = None
        if first == 0:
            previous = frame(state, 0, None, self.names)
            previous["narration"] = []
            frames.append(previous)
        for step in range(start + 1, last + 1):
            who, text = events[step - 1]
            actor = None if isinstance(who, str) else int(who)
            before = state.observe(actor if actor is not None else 0)
            tricks = len(state.trick_cards)
            action = self._apply(state, (who, text))
            after = state.observe(actor if actor is not None else 0)
            lines = narrate(before, after, self.names, text_of, actor=actor, action=action)
            shown = frame(state, step, [who, text], self.names)
            # A chance step is told as everyone is told it; an action as its actor saw it.
            said = [line.text if actor is not None else line.public for line in lines]
            shown["narration"] = [line for line in said if line]
            if step in trick_frames:
                done = state.history[-1] if len(state.trick_cards) <= tricks else state
                shown["trick"] = {
                    "cards": [[s, text_of.code(c)] for s, c in done.trick_cards[-1]],
                    "winner": done.trick_winners[-1],
                }
            frames.append(shown if previous is None else frame_change(previous, shown))
            previous = shown
        return {"hand": number, "first": first, "last": last, "frames": frames}

    def scorecard(self) -> dict[str, Json]:
        """The whole game's score sheet, as the presentation layer writes it."""
        with self._lock:
            if self._sheet is None:
                final = self.final
                self._sheet = scorecard(
                    final.history,
                    self.names,
                    CardText(labels=self.labels),
                    final.setup.partnerships,
                    cooperative=final.setup.cooperative,
                    hooks=final.rules.spec.hooks,
                ).to_json()
            return self._sheet


def all_frames(replay: Replay) -> list[dict[str, Json]]:
    """Every frame of ``replay`` whole, as the page builds them hand by hand (for tests
    and the command line; the page never asks for them all)."""
    frames: list[dict[str, Json]] = []
    for number in range(1, len(replay.hands) + 1):
        previous: dict[str, Json] | None = None
        for item in replay.hand(number)["frames"]:
            previous = dict(item) if previous is None else apply_change(previous, item)
            frames.append(previous)
    return frames
