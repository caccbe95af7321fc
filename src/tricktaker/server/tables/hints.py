"""The coach's hints at a table (docs/protocol.md, Hints; issue 29).

A seated person sends ``hint`` on their turn; the coach's values of every legal choice
(:func:`tricktaker.coach.hint`, from that seat's observation alone) are worked out in
the bots' threads, off the event loop, and sent to that socket alone. Hints are on at a
practice table (every other seat a bot), and elsewhere only where the host allowed them
in creating the table (:attr:`~tricktaker.server.tables.store.TableData.hints`); the
table's ``hints`` tells everyone seated whether they are on. Each hint asked is stored
(:func:`~tricktaker.server.tables.store.add_hint`) so that the game's record lists it
(:attr:`~tricktaker.engine.GameRecord.hints`): when the record's events held ``at``
of them. An undo that takes those events back moves the hint's ``at`` back to the events
kept (docs/protocol.md, the record's ``hints``): the stored hints in the undo's own
transaction (:attr:`~tricktaker.server.tables.store.Append.hints_back_to`), a hint still
being worked out by :meth:`HintDesk.rewind` before it is stored.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from tricktaker.coach import hint as coach_hint
from tricktaker.coach.model import Hint, value_unit
from tricktaker.engine import Action, Observation
from tricktaker.engine.actions import BID, PLAY
from tricktaker.present.game import game_present
from tricktaker.present.text import CardText, value_type, words
from tricktaker.rules.ruleset import Ruleset
from tricktaker.server.tables import messages as m
from tricktaker.server.tables import store
from tricktaker.server.tables.live import Live, Subscriber
from tricktaker.server.tables.store import TableData
from tricktaker.server.tables.undo import practice
from tricktaker.server.tables.views import Json

HINT_SECONDS = 1.0
"""How long the coach samples deals for one hint (read at each hint)."""

HINTS_PER_MINUTE = 12
"""The most hints one seat of a table may ask for in a minute (one at a time)."""

HINTS_OFF = (
    "Hints are off at this table: the host did not allow them, and another person plays here."
)
NOT_YOUR_TURN = "A hint is for your own turn: it is not your turn now."
TOO_MANY = f"Too many hints: at most {HINTS_PER_MINUTE} a minute, one at a time."
NO_GAME = "No game is being played at this table now."
NO_SEAT = "You hold no seat at this table."
TOO_LONG = (
    "This hint is too long to pass between the server processes: reconnect (through the"
    " proxy) to the process that holds the table to ask for it."
)


def fits(message: dict[str, Json], most_bytes: int | None) -> bool:
    """Whether ``message`` takes at most ``most_bytes`` as JSON (None: no limit)."""
    return most_bytes is None or len(orjson.dumps(message)) <= most_bytes


def hints_on(data: TableData, replaced: set[int], *, duplicate: bool = False) -> bool:
    """Whether the coach's hints are on at a table: always at a practice table, else
    where its host allowed them; a table of a duplicate set (``duplicate``) is compared
    with others, so it has them only where its host allowed them."""
    return data.hints or (not duplicate and practice(data.seats, replaced))


def choice_label(action: Action, rules: Ruleset) -> str:
    """A legal choice in words, as the terminal lists it: ``A♠``, ``bid 2``, ``pass``,
    ``pluck 7♥``; the game's own choices as the game words them (its ``present``
    capability)."""
    cards = CardText(labels=rules.joker_labels)
    own = game_present(rules).choice_label(action, cards)
    if own is not None:
        return own
    kind = action.kind
    shape = value_type(kind)
    if shape == "card" and isinstance(action.value, int):
        card = cards.card(action.value)
        return card if kind == PLAY else f"{words(kind)} {card}"
    if shape == "none":
        return words(kind)
    if kind == BID:
        return f"bid {action.value}"
    return f"{words(kind)} {words(str(action.value))}"


def hint_message(client_id: str, seq: int, obs: Observation, hint: Hint) -> dict[str, Json]:
    """The ``hint`` message (:class:`~tricktaker.server.tables.messages.HintAnswer`) of
    ``hint``, worked out for ``obs``: every choice's action text, label and values, and
    what they count (:func:`~tricktaker.coach.model.value_unit`)."""
    labels = obs.rules.joker_labels
    unit = value_unit(obs.rules)
    choices = [
        m.HintChoice(
            action=choice.action.text(labels=labels),
            label=choice_label(choice.action, obs.rules),
            mean=choice.mean,
            stderr=choice.stderr,
            make_chance=choice.make_chance,
            deals=choice.samples,
            best=choice.action == hint.best,
        )
        for choice in hint.choices
    ]
    return m.HintAnswer(
        id=client_id,
        seq=seq,
        seat=hint.seat,
        choices=choices,
        best=hint.best.text(labels=labels),
        model=hint.model,
        exact=hint.exact,
        deals=min((choice.samples for choice in hint.choices), default=0),
        seconds=round(hint.seconds, 3),
        unit=unit.name,
        chance=unit.chance,
    ).model_dump()


def _refused(client_id: str, code: str, message: str) -> dict[str, Json]:
    return m.Error(id=client_id, code=code, message=message).model_dump()


def _work_out(obs: Observation, seed: int) -> Hint:
    """The coach's hint for ``obs`` (run in a bot thread)."""
    return coach_hint(obs, seconds=HINT_SECONDS, seed=seed)


class HintDesk:
    """Answers the tables' ``hint`` messages: ``think`` runs a function off the event
    loop (the bots' threads), ``db`` a store function."""

    def __init__(
        self,
        think: Callable[..., Awaitable[Any]],
        db: Callable[..., Awaitable[Any]],
    ) -> None:
        self._think = think
        self._db = db
        self._asked: dict[tuple[str, int], deque[float]] = {}
        """When each seat of each table asked, over the last minute."""
        self._busy: set[tuple[str, int]] = set()
        """The seats whose hint is being worked out."""
        self._working: dict[tuple[str, int], list[int]] = {}
        """The hints being worked out, by table and seat: ``[game number, at]``, the
        ``at`` they will be stored with (an undo meanwhile moves it back)."""

    def rewind(self, table_id: str, game_number: int, kept: int) -> None:
        """An undo at table ``table_id`` kept ``kept`` events of game ``game_number``:
        the hints being worked out there that were asked beyond them will be stored at
        ``kept``, as the undo moved the stored ones (called with the table's lock held,
        under which a worked-out hint is stored)."""
        for (table, _), asked in self._working.items():
            if table == table_id and asked[0] == game_number and asked[1] > kept:
                asked[1] = kept

    def _allow(self, key: tuple[str, int], now: float) -> bool:
        """Take one hint from the seat's budget (None left: refused)."""
        if key in self._busy:
            return False
        asked = self._asked.get(key)
        if asked is None:
            if len(self._asked) > 1000:  # forget the seats that asked nothing lately
                for old in [k for k, v in self._asked.items() if not v or now - v[-1] > 60]:
                    del self._asked[old]
            asked = self._asked[key] = deque()
        while asked and now - asked[0] > 60.0:
            asked.popleft()
        if len(asked) >= HINTS_PER_MINUTE:
            return False
        asked.append(now)
        return True

    async def answer(
        self,
        live: Live,
        subscriber: Subscriber,
        client_id: str,
        *,
        most_bytes: int | None = None,
    ) -> dict[str, Json]:
        """A socket's ``hint``: the ``hint`` message for its seat, or an ``error``
        (``not_your_seat``, ``hints_off``, ``not_playing``, ``not_your_turn``,
        ``rate_limited``; ``unavailable`` where the message would be longer than
        ``most_bytes``, which a hint forwarded from another process sets). The hint
        asked is stored before it is answered, and not where it is refused."""
        async with live.lock:
            seat = subscriber.seat
            if seat is None or subscriber not in live.subscribers:
                return _refused(client_id, "not_your_seat", NO_SEAT)
            d = live.data
            state = live.state
            if not hints_on(d, live.replaced, duplicate=live.deals is not None):
                return _refused(client_id, "hints_off", HINTS_OFF)
            if state is None or d.status != "playing" or state.is_terminal():
                return _refused(client_id, "not_playing", NO_GAME)
            if seat not in state.to_act() or state.is_chance():
                return _refused(client_id, "not_your_turn", NOT_YOUR_TURN)
            key = (d.id, seat)
            if not self._allow(key, time.monotonic()):
                return _refused(client_id, "rate_limited", TOO_MANY)
            obs = state.observe(seat)
            seq, game_number = d.seq, d.game_number
            asked = self._working[key] = [game_number, len(state.events)]
            self._busy.add(key)
        try:
            try:
                hint = await self._think(_work_out, obs, seq)
            except ValueError as exc:  # a decision the coach cannot value
                return _refused(client_id, "not_allowed", f"The coach cannot value this: {exc}")
            message = hint_message(client_id, seq, obs, hint)
            if not fits(message, most_bytes):
                return _refused(client_id, "unavailable", TOO_LONG)
            async with live.lock:  # not while an undo moves the hints back
                await self._db(store.add_hint, d.id, game_number, seat, asked[1])
        finally:
            self._busy.discard(key)
            self._working.pop(key, None)
        return message
