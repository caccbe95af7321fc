"""Undo at a practice table: a person playing alone against bots takes back their last
action (docs/protocol.md, Undo).

An undo is stored as an event of its own, appended like any other (the events stay
append-only, the sequence guard unchanged): its kind is ``undo`` (where a chance step's
kind goes) and its text the seat and the seq of the seat's action taken back
(``"0 17"``). That action and every event after it, up to the undo, are then no longer
part of the game: :func:`effective` gives the events that make the game, and the undos
as the game record writes them (:attr:`~tricktaker.engine.GameRecord.undos`), so that
a table rebuilt from its stored events (a restart, a kill -9) is the table after the
undo.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tricktaker.server.errors import TableMovedOnError
from tricktaker.server.tables import messages as m
from tricktaker.server.tables import store
from tricktaker.server.tables.store import SeatData, StoredEvent

if TYPE_CHECKING:
    from tricktaker.server.tables.live import Live
    from tricktaker.server.tables.service import TableService
    from tricktaker.server.tables.views import Json

UNDO = "undo"
"""The kind of a stored undo (never a chance step's kind)."""

NOT_PRACTICE = "Undo is only for practice tables: another person plays here."
NOT_IN_DUPLICATE = "Nothing is taken back at a duplicate table: its play is compared with others'."
NOTHING_YET = "Nothing to take back yet in this game."
GAME_OVER = "The game is over: nothing can be taken back now."
NO_GAME = "No game is being played at this table yet."


def practice(seats: Sequence[SeatData], replaced: set[int]) -> bool:
    """Whether a table is a practice table: exactly one seat is a person's, and that
    person holds it (every other seat is a bot; no seat is free, kept for someone
    invited, or played by a bot for a person who is away)."""
    people = [s for s in seats if s.kind == "human"]
    return len(people) == 1 and people[0].token_hash is not None and people[0].seat not in replaced


def undo_text(seat: int, first_seq: int) -> str:
    """The stored text of seat ``seat``'s undo of its action stored as ``first_seq``."""
    return f"{seat} {first_seq}"


def undo_of(event: StoredEvent) -> tuple[int, int] | None:
    """The seat and the first seq taken back, when ``event`` is an undo (else None)."""
    if event.who != UNDO:
        return None
    seat, first = event.text.split()
    return int(seat), int(first)


def effective(events: Sequence[StoredEvent]) -> tuple[list[StoredEvent], list[dict[str, Any]]]:
    """The events that make the game, undos applied, and the undos as a game record
    writes them: ``{"seat", "at", "events"}``, where ``at`` is the number of events the
    game kept then and ``events`` those taken back (``[who, text]``, as in a record).

    >>> e = [StoredEvent(n, 1, w, t, None) for n, w, t in
    ...      [(1, "deal", "AS"), (2, 0, "bid 1"), (3, 1, "bid 0"), (4, "undo", "0 2")]]
    >>> kept, undos = effective(e)
    >>> [k.seq for k in kept], undos
    ([1], [{'seat': 0, 'at': 1, 'events': [[0, 'bid 1'], [1, 'bid 0']]}])
    """
    kept: list[StoredEvent] = []
    undos: list[dict[str, Any]] = []
    for e in events:
        taken = undo_of(e)
        if taken is None:
            kept.append(e)
            continue
        seat, first = taken
        cut = next((i for i, k in enumerate(kept) if k.seq >= first), len(kept))
        removed = kept[cut:]
        del kept[cut:]
        undos.append({"seat": seat, "at": cut, "events": [[r.who, r.text] for r in removed]})
    return kept, undos


def last_action(kept: Sequence[StoredEvent], seat: int) -> int | None:
    """The index in ``kept`` of seat ``seat``'s last action (None: it has taken none)."""
    for index in range(len(kept) - 1, -1, -1):
        if kept[index].who == seat:
            return index
    return None


async def take_back(
    service: TableService, live: Live, seat: int, client_id: str
) -> dict[str, Json]:
    """Take back seat ``seat``'s last action and every event after it (the table's
    lock is held): store the undo, rebuild the game without them, welcome every
    socket again. A refusal changes nothing."""
    acked = live.acked(seat, client_id)
    if acked is not None:  # a repeated id: answered the same, never undone twice
        return m.ack_message(client_id, acked)
    d = live.data
    state = live.state
    refusal = None
    if not live.is_practice():
        refusal = NOT_PRACTICE if live.deals is None else NOT_IN_DUPLICATE
    elif state is None or d.status == "waiting":
        refusal = NO_GAME
    elif d.status == "finished" or state.is_terminal():
        refusal = GAME_OVER
    kept: list[StoredEvent] = []
    index = None
    if refusal is None:
        kept = effective(await service.db(store.game_events, d.id, d.game_number))[0]
        index = last_action(kept, seat)
        if index is None:
            refusal = NOTHING_YET
    if refusal is not None or index is None:
        message = refusal or NOTHING_YET
        return m.Error(id=client_id, code="not_allowed", message=message).model_dump()
    rebuilt = service._rebuild(live, d.game_number, kept[:index])
    assert rebuilt is not None
    assert seat in rebuilt.to_act()
    taken = StoredEvent(d.seq + 1, d.game_number, UNDO, undo_text(seat, kept[index].seq), client_id)
    try:
        # The hints asked beyond the events kept move back to them (with the undo).
        await service.writer.append(store.Append(d.id, d.seq, [taken], hints_back_to=index))
    except store.StaleTableError:
        # Another process wrote to it (the sequence guard): let it go here as an
        # action's write does, its sockets closed with the moved code.
        service.owning.drop(live)
        raise TableMovedOnError() from None
    service.hint_desk.rewind(d.id, d.game_number, index)
    # A bot's move or a timer begun before the undo finds the table moved on
    # (another state, another seq) and is dropped.
    d.seq = taken.seq
    service.leases.notify(d.id, d.seq)
    live.state = rebuilt
    live.remember(seat, client_id, taken.seq)
    live.bots.clear()
    if live.timer_task is not None:
        live.timer_task.cancel()
    info = live.info()
    for sub in list(live.subscribers):
        sub.push(service.welcome(live, sub.seat, info))
    return m.ack_message(client_id, taken.seq)
