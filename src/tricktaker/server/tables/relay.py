"""Spectators of a table another server process serves (docs/deploy.md, Several
processes): the events reach them from the database.

With several processes on one PostgreSQL, the owner of a table (its lease:
:mod:`~tricktaker.server.tables.leases`) sends ``NOTIFY "tricktaker_t_<table id>",
'<table id>:<seq>'`` (the table's own channel) after each commit and each change of its
seats or status. A process with spectators' sockets on a table it does not hold
listens on that channel while it keeps a *mirror* of it
(a :class:`~tricktaker.server.tables.live.Live` that is not in its cache of tables it
serves), and on each notification reads the table back from the database and tells its
sockets the events past the mirror's seq, in order, as the owner told its own: so
"committed before told" and the order hold, and a notification lost or late costs
nothing but a delay (the next one, or the next look, reads everything since). A new game
or an undo is answered with a fresh ``welcome``, a change of seats or status with
``table_changed``. What is said at the table and not stored as an event (a chat line,
a seat's presence) comes in the notification itself (``'<table id>:<seq>:<message>'``),
and reaches the mirror's sockets at once, after the events notified before it; a new
mirror reads the table's recent chat and asks the owner for its seats' presence. A
person's socket is mirrored too (its welcome and events are its seat's), while its
requests are forwarded to the owner (:mod:`~tricktaker.server.tables.forwarding`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from tricktaker.server.tables import messages as m
from tricktaker.server.tables.live import Live, Subscriber
from tricktaker.server.tables.store import StoredEvent, TableData
from tricktaker.server.tables.telling import replayed, step, tell_events
from tricktaker.server.tables.undo import UNDO
from tricktaker.server.tables.views import Json

log = logging.getLogger("tricktaker.server")

Loaded = tuple[TableData, list[StoredEvent]]
"""A table's data and the events of its current game, as :func:`store.load_table` reads."""

Rebuild = Callable[[Live, int, list[StoredEvent]], Any]
"""Rebuilds a table's state after its game's stored events (``TableService._rebuild``)."""

Welcome = Callable[[Live, "int | None"], "dict[str, Json]"]
"""The ``welcome`` message of a socket (``TableService.welcome``)."""

Chat = Callable[[str], Awaitable[list[tuple[int | None, str, str, str]]]]
"""Reads a table's recent chat (``store.recent_chat``: seat, name, text, time)."""


class Relay:
    """The mirrors of the tables this process watches for another: by table id."""

    def __init__(
        self,
        load: Callable[[str], Awaitable[Loaded | None]],
        rebuild: Rebuild,
        welcome: Welcome,
        chat: Chat | None = None,
        ask_presence: Callable[[str], Awaitable[None]] | None = None,
        follow: Callable[[str, bool], None] | None = None,
        fill: Callable[[Live], Awaitable[Live]] | None = None,
    ) -> None:
        self._load = load
        self._rebuild = rebuild
        self._welcome = welcome
        self._chat = chat
        self._ask_presence = ask_presence
        self._follow = follow
        """Starts (True) or stops (False) hearing a table's notifications
        (``Leases.follow``, ``Leases.unfollow``)."""
        self._fill = fill
        """Reads what a table belongs to into a mirror (``Belonging.fill``: a duplicate
        set's deals, which its state is rebuilt with, and its club)."""
        self.mirrors: dict[str, Live] = {}
        """The mirrored tables, by id (each has at least one socket)."""
        self.presence: dict[str, dict[int, str]] = {}
        """The seats' presence at each mirrored table as its owner said it, by seat
        (a seat's person is connected to the owner, or away, there)."""
        self._dirty: set[str] = set()
        self._running: dict[str, asyncio.Task[None]] = {}
        self._asking: set[asyncio.Task[None]] = set()
        """The presence asks sent once a table's channel is listened on."""
        self._held_back: dict[str, list[dict[str, Json]]] = {}
        """What was said at a table while its mirror caught up with events notified
        before it: told after them."""

    async def _read(self, table_id: str) -> Loaded | None:
        """The table as the database has it; its seq is its last event read's (the
        table's last seq is read apart from its events, and may be newer)."""
        loaded = await self._load(table_id)
        if loaded is None or not loaded[1]:
            return loaded
        data, events = loaded
        return dataclasses.replace(data, seq=events[-1].seq), events

    def watched(self, table_id: str) -> bool:
        """Whether this process has spectators on the table for another process."""
        return table_id in self.mirrors

    async def watch(
        self, table_id: str, subscriber: Subscriber, resume_from: int | None, limit: int
    ) -> Live | None:
        """Attach a spectator's socket (or a seat's, ``subscriber.seat``, whose requests
        are forwarded) to the table's mirror (made from the database if
        none), sending it a welcome or, with ``resume_from``, what it missed (at most
        ``limit`` events back). None if there is no such table."""
        live = self.mirrors.get(table_id)
        if live is None:
            loaded = await self._read(table_id)
            if loaded is None:
                return None
            chat = await self._chat(table_id) if self._chat is not None else []
            belongs = Live(data=loaded[0], state=None)
            if self._fill is not None:
                await self._fill(belongs)
            live = self.mirrors.get(table_id)  # another socket may have made it meanwhile
            if live is None:
                live = self._mirror(loaded, belongs)
                live.chat.extend(m.ChatLine(seat=s, name=n, text=t, at=a) for s, n, t, a in chat)
                self.mirrors[table_id] = live
                if self._follow is not None:
                    self._follow(table_id, True)  # then read again, once listened on
                if self._ask_presence is not None:
                    with contextlib.suppress(Exception):  # unknown, as before: away
                        await self._ask_presence(table_id)
        async with live.lock:
            replay = None
            d = live.data
            behind = None if resume_from is None else d.seq - resume_from
            if live.state is not None and behind is not None and 0 <= behind <= limit:
                loaded = await self._read(table_id)
                if loaded is not None and loaded[0].seq == d.seq:
                    start = live.new_state(d.game_number)
                    replay = replayed(live, start, subscriber.seat, d.seq - behind, loaded[1])
            # Added once read: what is said meanwhile is in its welcome's presence, and
            # its first message is its welcome (or ``resumed``).
            live.subscribers.add(subscriber)
            for message in replay or [self.welcome(live, subscriber.seat)]:
                subscriber.push(self._with_presence(live, message))
        self.notified(table_id)  # anything committed while it was read
        return live

    def listened(self, table_id: str) -> None:
        """The table's channel is listened on now: ask its owner again for its seats'
        presence (said before, the answer may have come before the channel was heard)."""
        ask = self._ask_presence
        if table_id in self.mirrors and ask is not None:
            task = asyncio.get_running_loop().create_task(self._ask_quietly(ask, table_id))
            self._asking.add(task)
            task.add_done_callback(self._asking.discard)

    @staticmethod
    async def _ask_quietly(ask: Callable[[str], Awaitable[None]], table_id: str) -> None:
        with contextlib.suppress(Exception):  # unknown, as before: away
            await ask(table_id)

    def welcome(self, live: Live, seat: int | None) -> dict[str, Json]:
        """A mirror's ``welcome``, its seats' presence as the owner said it."""
        return self._with_presence(live, self._welcome(live, seat))

    def _with_presence(self, live: Live, message: dict[str, Json]) -> dict[str, Json]:
        """``message`` with the table's seats in it (a welcome's, a ``table_changed``'s,
        a ``resumed``'s) as the owner said their presence, not as this process sees
        them (it has none of their sockets)."""
        said = self.presence.get(live.data.id)
        table = message.get("table")
        if not said or not isinstance(table, dict) or not isinstance(table.get("seats"), list):
            return message
        seats = []
        for seat in table["seats"]:
            if isinstance(seat, dict) and isinstance(seat.get("seat"), int):
                state = said.get(seat["seat"])
                if state is not None and seat.get("state") in ("connected", "away"):
                    seat = {**seat, "state": state}
            seats.append(seat)
        return {**message, "table": {**table, "seats": seats}}

    def said(self, table_id: str, message: dict[str, Any]) -> None:
        """The owner said ``message`` at the table (a chat line, a seat's presence):
        tell the mirror's sockets, after the events notified before it."""
        live = self.mirrors.get(table_id)
        if live is None:
            return
        if table_id in self._running:
            self._held_back.setdefault(table_id, []).append(message)
            return
        self._say(live, message)

    def _say(self, live: Live, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "chat":
            try:
                live.chat.append(m.Chat.model_validate(message).line)
            except ValueError:
                return
        elif kind == "presence":
            seat, state = message.get("seat"), message.get("state")
            if not isinstance(seat, int) or not isinstance(state, str):
                return
            self.presence.setdefault(live.data.id, {})[seat] = state
        else:
            return
        for sub in list(live.subscribers):
            sub.push(message)

    def _mirror(self, loaded: Loaded, belongs: Live) -> Live:
        """A mirror of the table as ``loaded``, with the deals and club of ``belongs``."""
        data, events = loaded
        live = Live(data=data, state=None, deals=belongs.deals, club=belongs.club)
        live.state = self._rebuild(live, data.game_number, events)
        return live

    def unwatch(self, live: Live) -> None:
        """Forget a mirror no socket watches any more."""
        if not live.subscribers and self.mirrors.get(live.data.id) is live:
            del self.mirrors[live.data.id]
            self.presence.pop(live.data.id, None)
            if self._follow is not None:
                self._follow(live.data.id, False)

    def notified(self, table_id: str) -> None:
        """The owner committed something at the table: catch its mirror up (once at a
        time; a notification meanwhile makes it read again after)."""
        if table_id not in self.mirrors:
            return
        self._dirty.add(table_id)
        if table_id not in self._running:
            task = asyncio.get_running_loop().create_task(self._catch_up(table_id))
            self._running[table_id] = task

    async def _catch_up(self, table_id: str) -> None:
        try:
            while table_id in self._dirty:
                self._dirty.discard(table_id)
                live = self.mirrors.get(table_id)
                if live is None:
                    return
                try:
                    loaded = await self._read(table_id)
                except Exception:
                    log.warning("could not read table %s for its spectators", table_id)
                    await asyncio.sleep(1.0)
                    self._dirty.add(table_id)
                    continue
                if loaded is not None:
                    async with live.lock:
                        try:
                            self._tell(live, loaded)
                        except Exception:  # told afresh: a welcome from what is stored
                            log.exception("table %s: its spectators are welcomed again", table_id)
                            self._welcome_all(live, loaded)
        finally:
            self._running.pop(table_id, None)
            live = self.mirrors.get(table_id)
            for message in self._held_back.pop(table_id, []):
                if live is not None:
                    self._say(live, message)

    def _welcome_all(self, live: Live, loaded: Loaded) -> None:
        """Rebuild the mirror from what is stored and welcome each of its sockets."""
        fresh = self._mirror(loaded, live)
        live.data, live.state = fresh.data, fresh.state
        for sub in list(live.subscribers):
            sub.push(self.welcome(live, sub.seat))

    def _tell(self, live: Live, loaded: Loaded) -> None:
        """Tell the mirror's sockets what the database has past the mirror's seq."""
        data, events = loaded
        held = live.data
        if data.seq < held.seq:
            return  # an older read than what was told
        new = [e for e in events if e.seq > held.seq]
        same_game = data.game_number == held.game_number and live.state is not None
        if not same_game or any(e.who == UNDO for e in new) or (new and new[0].seq != held.seq + 1):
            self._welcome_all(live, loaded)
            return
        before = live.state
        assert before is not None
        after = before.clone()
        labels = after.rules.joker_labels
        for e in new:
            step(after, e, labels)
        changed = (data.status, data.seats) != (held.status, held.seats)
        live.data = data
        live.state = after
        if new:
            tell_events(live, before, after, new)
        if changed:
            message = m.TableChanged(seq=data.seq, table=live.info()).model_dump()
            message = self._with_presence(live, message)
            for sub in list(live.subscribers):
                sub.push(message)
