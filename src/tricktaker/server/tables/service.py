"""The table service: one writer per table, the database as the truth, views as observations.

An action arrives → it is checked by the engine (``GameState.check``) → it is applied
to a copy of the table's state, with the seeded chance steps that follow it → the new
record events are appended in one transaction and committed → only then is the copy
kept and every socket told. A table in memory is only a cache, rebuilt by replaying
its stored events (:meth:`TableService.live`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from tricktaker.bots.names import bot_name
from tricktaker.cards import format_card
from tricktaker.engine import (
    Action,
    ActionParseError,
    ChanceOutcome,
    GameRecord,
    GameState,
    IllegalActionError,
)
from tricktaker.present.text import default_seat_name
from tricktaker.server.db import hash_token, open_code
from tricktaker.server.deps import Database
from tricktaker.server.errors import (
    BadSeatTokenError,
    GameNotFoundError,
    NotAllowedError,
    NotHostError,
    NotPossibleNowError,
    SeatNotFoundError,
    SeatTakenError,
    TableFinishedError,
    TableFullError,
    TableMovedOnError,
    TableNotFoundError,
)
from tricktaker.server.limits import IDLE_SECONDS
from tricktaker.server.tables import messages as m
from tricktaker.server.tables import store
from tricktaker.server.tables.belonging import Belonging
from tricktaker.server.tables.cache import TableCache
from tricktaker.server.tables.driving import BotDriver
from tricktaker.server.tables.forwarding import Forwarding
from tricktaker.server.tables.hints import HintDesk
from tricktaker.server.tables.leases import Leases
from tricktaker.server.tables.live import (
    Live,
    Subscriber,
)
from tricktaker.server.tables.names import others, unique_name
from tricktaker.server.tables.owning import Owning
from tricktaker.server.tables.relay import Relay
from tricktaker.server.tables.store import SeatData, StoredEvent, TableData
from tricktaker.server.tables.telling import replayed, tell_events
from tricktaker.server.tables.undo import effective, take_back, undo_of
from tricktaker.server.tables.views import Json, public_view, seat_names_of, seat_view

log = logging.getLogger("tricktaker.server")

REPLAY_LIMIT = 500
"""The most missed events a reconnecting client is sent (``hello`` with ``resume``);
further behind, it gets a fresh ``welcome``."""

T = TypeVar("T")


class TableService:
    """Every table of one server process. Create with :meth:`open`; close with :meth:`close`."""

    def __init__(
        self,
        database: Database,
        *,
        bot_workers: int = 2,
        idle_seconds: float = IDLE_SECONDS,
        leases: Leases | None = None,
    ) -> None:
        self.database = database
        self.leases = leases if leases is not None else Leases()
        """Which tables this process serves (:mod:`~tricktaker.server.tables.leases`)."""
        self.writer = store.GroupCommit(self.db)
        self.tables_held = TableCache(idle_seconds)
        """The tables in memory (docs/deploy.md, Limits)."""
        self.driver = BotDriver(self._bot_move, workers=bot_workers)
        """The tables' bots and move timers."""
        self.hint_desk = HintDesk(self.driver.think, self.db)
        """The coach's hints asked at the tables (worked out in the bots' threads)."""
        self.tables_held.on_forget = self.leases.release
        self.relay = Relay(
            lambda table_id: self.db(store.load_table, table_id),
            self._rebuild,
            self.welcome,
            lambda table_id: self.db(store.recent_chat, table_id),
            self.leases.ask_presence,
            lambda table_id, on: (self.leases.follow if on else self.leases.unfollow)(table_id),
            lambda live: self.belonging.fill(live),
        )
        """The spectators of tables another process serves
        (:mod:`~tricktaker.server.tables.relay`)."""
        self.owning = Owning(self.leases, self.tables_held, self._resume)
        """Takes tables over, lets them go, waits for their leases."""
        self.forwarding = Forwarding(self)
        """Forwarded seats' sockets (:mod:`~tricktaker.server.tables.forwarding`)."""
        self._sweeper: asyncio.Task[None] | None = None
        self._adopter: asyncio.Task[None] | None = None
        self.belonging = Belonging(self.db)
        """Reads a table's duplicate deals and club, as their packages set it."""
        self.watch_refusal: Callable[[str], Awaitable[str | None]] | None = None
        """Why a table may not be watched nor its first game's record read just now (None:
        it may): set by the duplicate router, for the tables of a set (docs/duplicate.md,
        No peeking)."""

    async def open(self) -> None:
        """Rebuild every unfinished table that is being played, so that its bots resume
        (with PostgreSQL, every one no other process holds; then, every
        :data:`~tricktaker.server.tables.leases.ORPHAN_SECONDS`, those whose process
        died)."""
        loop = asyncio.get_running_loop()
        self.leases.on_handover = self.owning.hand_over
        self.leases.on_events = self.relay.notified
        self.leases.watching = self.relay.watched
        self.leases.on_said = self.relay.said
        self.leases.on_presence_asked = self._say_presence
        self.leases.on_forwarded = self.forwarding.received
        self.leases.on_answer = self.forwarding.answered
        self.leases.on_listened = self.relay.listened
        self.owning.on_taken = self.forwarding.owner_changed
        self.owning.check_forwarders = lambda: self.forwarding.check_origins(self.leases.alive)
        self.leases.start(loop)
        if self.leases.shared:
            await self.owning.adopt_orphans()
            self._adopter = loop.create_task(self.owning.adopt_forever())
        else:
            ids = await self.db(store.table_ids, statuses=["playing"], public_only=False)
            await self._resume(ids)
        self._sweeper = loop.create_task(self.tables_held.sweep())

    async def _resume(self, ids: list[str]) -> None:
        """Rebuild the tables ``ids`` being played (their lease held), so that their
        bots resume."""
        for table_id in ids:
            try:
                live = await self.live(table_id)
            except TableNotFoundError:
                continue
            state = live.state
            if state is not None and state.is_chance() and not state.is_terminal():
                # Stopped between a game's start and its deal: deal now (from the seed).
                async with live.lock:
                    await self._commit_and_tell(live, state.clone(), [], state, tell=False)
            self._after_start(live)

    async def close(self) -> None:
        """Stop timers and bots (the database is closed after)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._adopter is not None:
            self._adopter.cancel()
        self.driver.closed = True
        for live in self.tables_held:
            tasks = [live.drive_task, live.timer_task, *live.grace_tasks.values()]
            for task in tasks:
                if task is not None:
                    task.cancel()
        self.driver.close()
        self.leases.close()

    async def db(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a :mod:`tricktaker.server.tables.store` function off the event loop."""
        return await self.database.run(function, *args, **kwargs)

    # ------------------------------------------------------------ loading

    async def live(self, table_id: str) -> Live:
        """The table, from memory or rebuilt from the database
        (:class:`TableNotFoundError` if none)."""
        return await self.tables_held.get(table_id, self._load)

    async def _load(self, table_id: str) -> Live:
        """The table from memory, or read from the database into it (its loading lock is
        held)."""
        cached = self.tables_held.cached(table_id)
        if cached is not None:
            return cached
        await self.owning.lease(table_id)
        try:
            loaded = await self.db(store.load_table, table_id)
        except BaseException:
            self.leases.release(table_id)
            raise
        if loaded is None:
            self.leases.release(table_id)
            raise TableNotFoundError(table_id)
        data, events = loaded
        chat = await self.db(store.recent_chat, table_id)
        live = await self.belonging.fill(Live(data=data, state=None, used=time.monotonic()))
        live.state = self._rebuild(live, data.game_number, events)
        live.chat.extend(m.ChatLine(seat=s, name=n, text=t, at=a) for s, n, t, a in chat)
        for e in events:
            if e.client_id is not None:
                taken = undo_of(e)
                seat = taken[0] if taken is not None else e.who
                if isinstance(seat, int):
                    live.remember(seat, e.client_id, e.seq)
        self.tables_held.put(live)
        if self.leases.shared and data.status == "playing":
            # Taken over on a request (another process held it): its bots go on here.
            self._after_start(live)
        return live

    def holds(self, table_id: str) -> bool:
        """Whether the table is in memory now."""
        return self.tables_held.holds(table_id)

    def held(self) -> tuple[int, int]:
        """How many tables are in memory, and how many table ids are being loaded."""
        return self.tables_held.held()

    def evict_idle(self) -> int:
        """Drop every idle table from memory (:meth:`TableCache.idle`); how many."""
        return self.tables_held.evict_idle()

    def _rebuild(self, live: Live, game_number: int, events: list[StoredEvent]) -> GameState | None:
        """The state of the table's ``game_number``-th game after its stored ``events``
        (its undos applied); None before its first game."""
        if game_number == 0:
            return None
        events = effective(events)[0]
        probe = live.new_state(game_number)
        record = GameRecord(
            game=probe.rules.id,
            ruleset=probe.rules.data,
            options=dict(probe.rules.options),
            players=live.data.players,
            seed=probe.seed,
            first_dealer=probe.first_dealer,
            first_dealer_given=False,
            events=[[e.who, e.text] for e in events],
            final_scores=None,
            finished=False,
        )
        state = record.replay()
        state.given_deals = probe.given_deals  # the hands still to deal come from them
        return state

    # ------------------------------------------------------------ tables

    async def create(
        self,
        data: TableData,
        ruleset_toml: str | None,
        *,
        deals: tuple[tuple[int, ...], ...] | None = None,
    ) -> Live:
        """Store a new table and hold it (``deals``: its first game's deck orders, a
        duplicate set's, stored by the caller)."""
        await self.db(store.create_table, data, ruleset_toml)
        await self.leases.take(data.id)  # a new id: no other process holds it
        live = Live(data=data, state=None, used=time.monotonic(), deals=deals)
        self.tables_held.put(live)
        return live

    async def tables(self) -> list[m.TableInfo]:
        """The public tables not finished, oldest first (those held by another server
        process as the database has them: a seat's person shows as away or connected
        only where the table is held)."""
        ids = await self.db(store.table_ids, statuses=["waiting", "playing"], public_only=True)
        infos = []
        for table_id in ids:
            live = await self.peek(table_id)
            if live is not None:
                infos.append(live.info())
        return infos

    async def peek(self, table_id: str) -> Live | None:
        """The table as this process holds it, or (with several processes) as the
        database has it, without taking it from its process: for reads across tables
        (its state is not rebuilt). None if there is no such table."""
        if not self.leases.shared:
            try:
                return await self.live(table_id)
            except TableNotFoundError:
                return None
        cached = self.tables_held.cached(table_id)
        if cached is not None:
            return cached
        loaded = await self.db(store.load_table, table_id)
        if loaded is None:
            return None
        return await self.belonging.fill(Live(loaded[0], None, used=time.monotonic()), deals=False)

    def seat_of(self, live: Live, token: str | None) -> int:
        """The seat whose token this is (:class:`BadSeatTokenError` if none)."""
        if token:
            digest = hash_token(token)
            for s in live.data.seats:
                if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                    return s.seat
        raise BadSeatTokenError()

    def check_host(self, live: Live, token: str | None) -> None:
        """Refuse (:class:`NotHostError`) unless ``token`` is the table's host token."""
        if not token or not secrets.compare_digest(hash_token(token), live.data.host_token_hash):
            raise NotHostError()

    async def join(
        self, table_id: str, invite: str, name: str, seat: int | None
    ) -> tuple[int, str]:
        """Sit a person at a free human seat; their new seat token is returned once."""
        from tricktaker.server.db import new_token

        live = await self.live(table_id)
        async with live.lock:
            # As bytes: compare_digest refuses str with characters outside ASCII.
            code, invite_code = invite.encode(), live.data.invite_code.encode()
            listed = secrets.compare_digest(code, open_code(live.data.invite_code).encode())
            if not listed and not secrets.compare_digest(code, invite_code):
                raise NotAllowedError("bad-invite", "That invite code is not this table's.")
            if live.data.status == "finished":
                raise TableFinishedError()
            free = [s for s in live.data.seats if s.kind == "human" and s.token_hash is None]
            if seat is not None:
                if not 0 <= seat < live.data.players:
                    raise SeatNotFoundError(seat)
                free = [s for s in free if s.seat == seat]
                if not free:
                    raise SeatTakenError(seat)
            if listed and free and not any(s.open_seat for s in free):
                # The list's code takes open seats only: the others are kept for invitees.
                raise NotAllowedError(
                    "seat-kept",
                    "That seat is kept for someone the host invited: ask the host for the"
                    " invite link.",
                )
            free = [s for s in free if s.open_seat or not listed]
            if not free:
                raise TableFullError()
            token = new_token()
            taken = others(live.data.seats, free[0].seat)
            given = unique_name(name, taken) if name.strip() else None
            if given is None:
                given = unique_name(default_seat_name(free[0].seat), taken)
            chosen = dataclasses.replace(free[0], token_hash=hash_token(token), name=given)
            await self.db(store.set_seat, table_id, chosen)
            live.data.seats[chosen.seat] = chosen
            self._table_changed(live)
            if live.data.status == "playing" and not live.connected(chosen.seat):
                self._start_grace(live, chosen.seat)
            return chosen.seat, token

    async def leave(self, table_id: str, token: str | None) -> int:
        """Give up a seat: it is free again (a bot plays it meanwhile, during a game)."""
        live = await self.live(table_id)
        async with live.lock:
            seat = self.seat_of(live, token)
            s = dataclasses.replace(live.data.seats[seat], token_hash=None, name=None)
            await self.db(store.set_seat, table_id, s)
            live.data.seats[seat] = s
            self._drop_seat_sockets(live, seat)
            if live.data.status == "playing":
                live.replaced.add(seat)
            self._presence(live, seat)  # replaced (a bot plays it), or free
            self._table_changed(live)
        self.kick(live)
        return seat

    async def set_bot(
        self, table_id: str, token: str | None, seat: int, bot: str, *, avoid: Sequence[str] = ()
    ) -> None:
        """The host gives a seat to a bot for good (its person, if any, loses it); the
        bot's name is none of the table's others nor of ``avoid`` (a club's members)."""
        live = await self.live(table_id)
        async with live.lock:
            self.check_host(live, token)
            if not 0 <= seat < live.data.players:
                raise SeatNotFoundError(seat)
            if live.data.status == "finished":
                raise TableFinishedError()
            taken = [*others(live.data.seats, seat), *avoid]
            s = SeatData(seat, "bot", bot, bot_name(seat, taken))
            await self.db(store.set_seat, table_id, s)
            live.data.seats[seat] = s
            self._drop_seat_sockets(live, seat)
            live.replaced.discard(seat)
            self._presence(live, seat)
            self._table_changed(live)
        self.kick(live)

    async def start(self, table_id: str, token: str | None, *, rematch: bool = False) -> None:
        """The host starts the game (or, once it is over, a rematch with the same seats):
        the new game's number and status are stored with its deal, in one transaction."""
        live = await self.live(table_id)
        async with live.lock:
            self.check_host(live, token)
            d = live.data
            if rematch and d.status != "finished":
                raise NotPossibleNowError("not-finished", "A rematch starts once the game is over.")
            if not rematch and d.status != "waiting":
                raise NotPossibleNowError("already-started", "This table's game has started.")
            free = [s.seat for s in d.seats if s.kind == "human" and s.token_hash is None]
            if free:
                names = [default_seat_name(s) for s in free]
                listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
                verb = "is" if len(names) == 1 else "are"
                raise NotPossibleNowError(
                    "seats-free",
                    f"{listed} {verb} still free: invite someone or give it to a bot.",
                )
            number = d.game_number + 1
            state = live.new_state(number)
            kept = d.game_number, live.state, live.acks
            d.game_number = number
            live.state, live.acks = state, {}
            try:  # the status changes with the deal: the table's new state is told then
                await self._commit_and_tell(live, state, [], None, tell=False)
            except BaseException:
                d.game_number, live.state, live.acks = kept
                raise
            live.bots.clear()
            live.replaced.clear()
            info = live.info()
            for sub in list(live.subscribers):
                sub.push(self.welcome(live, sub.seat, info))
        self._after_start(live)

    def _after_start(self, live: Live) -> None:
        for s in live.data.seats:
            if s.kind == "human" and not live.connected(s.seat):
                self._start_grace(live, s.seat)
        self.kick(live)

    async def check_watchable(self, table_id: str, game_number: int = 1) -> None:
        """Refuse (:class:`NotAllowedError` ``not-watchable``) to show the first game of a
        table that :attr:`watch_refusal` says may not be watched yet."""
        if game_number == 1 and self.watch_refusal is not None:
            reason = await self.watch_refusal(table_id)
            if reason is not None:
                raise NotAllowedError("not-watchable", reason)

    async def record(self, table_id: str, game_number: int | None) -> dict[str, Json]:
        """The JSON record of a finished game of the table (as ``--record`` writes it)."""
        live = await self.live(table_id)
        d = live.data
        number = d.game_number if game_number is None else game_number
        if game_number is not None and not 1 <= game_number <= d.game_number:
            raise GameNotFoundError(game_number)
        if number == 0 or (number == d.game_number and d.status != "finished"):
            raise NotPossibleNowError(
                "not-finished",
                f"Game {max(number, 1)} of this table is not finished; its record is not"
                " public yet.",
            )
        await self.check_watchable(table_id, number)
        events = await self.db(store.game_events, table_id, number)
        kept, undos = effective(events)
        hints = await self.db(store.game_hints, table_id, number)
        state = self._rebuild(live, number, kept)
        assert state is not None
        names = seat_names_of(live)
        return GameRecord.of(state, names=names, undos=undos, hints=hints).to_json()

    # ------------------------------------------------------------ live play

    def welcome(
        self, live: Live, seat: int | None, info: m.TableInfo | None = None
    ) -> dict[str, Json]:
        """The ``welcome`` message for ``seat`` (None: a spectator), with the table's
        recent chat; ``info``: the table's, when made already."""
        state = live.state
        view: dict[str, Json] | None = None
        if state is not None:
            # At a game's start (nothing but chance steps yet) the welcome tells the
            # first hand's opening: its heading, the deal, the trump.
            fresh = None
            if all(event[0] == "chance" for event in state.events):
                fresh = live.new_state(live.data.game_number)
            if seat is None:
                view = public_view(
                    [
                        seat_view(live, state.observe(s), fresh.observe(s) if fresh else None)
                        for s in range(state.players)
                    ]
                )
            else:
                view = seat_view(live, state.observe(seat), fresh.observe(seat) if fresh else None)
        table = info if info is not None else live.info()
        return m.Welcome(
            seat=seat, seq=live.data.seq, table=table, view=view, chat=list(live.chat)
        ).model_dump()

    async def connect(
        self,
        table_id: str,
        token: str | None,
        subscriber: Subscriber,
        *,
        resume_from: int | None = None,
    ) -> Live:
        """Attach a socket (a seat with its token, or a spectator) and send it a welcome,
        or, with ``resume_from`` (the last seq the client saw), what it missed since
        when that is in the current game and at most :data:`REPLAY_LIMIT` events. A
        socket on a table another process serves is served from a mirror (relay.py), a
        seat's requests forwarded to the owner (forwarding.py; if none answers, the
        table comes here)."""
        if token is None:
            await self.check_watchable(table_id)
        if (
            self.leases.shared
            and not self.tables_held.holds(table_id)
            and not await self.leases.take(table_id)
        ):
            seat = (
                None if token is None else await self.forwarding.attach(table_id, token, subscriber)
            )
            if token is None or seat is not None:
                subscriber.seat = seat
                mirror = await self.relay.watch(table_id, subscriber, resume_from, REPLAY_LIMIT)
                if mirror is None:
                    self.forwarding.detach(table_id, subscriber)
                    raise TableNotFoundError(table_id)
                return mirror
        live = await self.live(table_id)
        seat = None if token is None else self.seat_of(live, token)
        subscriber.seat = seat
        async with live.lock:
            live.subscribers.add(subscriber)
            replay = None
            d = live.data
            if (
                resume_from is not None
                and live.state is not None
                and 0 <= d.seq - resume_from <= REPLAY_LIMIT
            ):
                events = await self.db(store.game_events, table_id, d.game_number)
                start = live.new_state(d.game_number)
                replay = replayed(live, start, seat, resume_from, events)
            for message in replay or [self.welcome(live, seat)]:
                subscriber.push(message)
            if seat is not None:
                self.seat_connected(live, subscriber)
        return live

    def seat_connected(self, live: Live, subscriber: Subscriber) -> None:
        """A seat's socket (here, or a ``RemoteSeat`` at another process) is one of the
        table's subscribers now: its grace stops, its bot gives the seat back."""
        seat = subscriber.seat
        assert seat is not None
        live.subscribers.add(subscriber)
        task = live.grace_tasks.pop(seat, None)
        if task is not None:
            task.cancel()
        live.replaced.discard(seat)
        self._presence(live, seat)

    def _drop_seat_sockets(self, live: Live, seat: int) -> None:
        """Close the sockets of a seat its person no longer holds."""
        for sub in [x for x in live.subscribers if x.seat == seat]:
            live.subscribers.discard(sub)
            sub.push(
                m.Error(code="unauthorized", message="You no longer hold this seat.").model_dump()
            )
            sub.close()

    def disconnect(self, live: Live, subscriber: Subscriber) -> None:
        """Detach a socket; a person gone longer than the grace period gets a bot."""
        if subscriber not in live.subscribers:
            return
        live.subscribers.discard(subscriber)
        if self.relay.mirrors.get(live.data.id) is live:
            self.forwarding.detach(live.data.id, subscriber)
            self.relay.unwatch(live)  # a spectator of a table another process serves
            return
        seat = subscriber.seat
        if seat is not None and not live.connected(seat) and live.data.seats[seat].kind == "human":
            self._presence(live, seat)
            if live.data.status == "playing":
                self._start_grace(live, seat)
        if live.data.status == "finished" and not live.subscribers:
            self.tables_held.forget(live.data.id)  # a cache entry no one uses

    def _start_grace(self, live: Live, seat: int) -> None:
        if self.driver.closed or seat in live.grace_tasks:
            return

        async def wait() -> None:
            await asyncio.sleep(live.data.grace_seconds)
            live.grace_tasks.pop(seat, None)
            if not live.connected(seat) and live.data.status == "playing":
                live.replaced.add(seat)
                self._presence(live, seat)
                self.kick(live)

        live.grace_tasks[seat] = asyncio.get_running_loop().create_task(wait())

    def _presence(self, live: Live, seat: int) -> None:
        state = live.seat_state(live.data.seats[seat])
        message = m.Presence(seq=live.data.seq, seat=seat, state=state).model_dump()  # type: ignore[arg-type]
        self._tell_all(live, message)
        self.leases.say(live.data.id, live.data.seq, message)  # other processes' sockets

    def _say_presence(self, table_id: str) -> None:
        """Another process asked for the presence of the seats of a table held here
        (it made a mirror of it): say each person's seat's."""
        live = self.tables_held.cached(table_id)
        if live is not None:
            for s in live.data.seats:
                if s.kind == "human":
                    state = live.seat_state(s)
                    message = m.Presence(seq=live.data.seq, seat=s.seat, state=state)  # type: ignore[arg-type]
                    self.leases.say(table_id, live.data.seq, message.model_dump())

    def _table_changed(self, live: Live) -> None:
        self._tell_all(live, m.TableChanged(seq=live.data.seq, table=live.info()).model_dump())
        self.leases.notify(live.data.id, live.data.seq)

    def _tell_all(self, live: Live, message: dict[str, Json]) -> None:
        for sub in list(live.subscribers):
            sub.push(message)

    async def act(
        self, live: Live, subscriber: Subscriber, client_id: str, text: str
    ) -> dict[str, Json] | None:
        """A person's action from their socket: the answer (``ack`` or ``error``), or
        None when the action's event, sent to this socket, carried its id instead
        (protocol 1.2, ``event_acks``)."""
        async with live.lock:
            seat = subscriber.seat
            if seat is None or subscriber not in live.subscribers:
                return _not_your_seat(client_id)
            answer = await self._submit(live, seat, client_id, text, by=subscriber)
        self.kick(live)
        return answer

    async def hint(self, live: Live, subscriber: Subscriber, client_id: str) -> dict[str, Json]:
        """A person's ``hint`` from their socket (docs/protocol.md, Hints): the coach's
        values of their legal choices, or an ``error``
        (:meth:`~tricktaker.server.tables.hints.HintDesk.answer`)."""
        return await self.hint_desk.answer(live, subscriber, client_id)

    async def undo(self, live: Live, subscriber: Subscriber, client_id: str) -> dict[str, Json]:
        """A person's undo from their socket (docs/protocol.md, Undo): the answer,
        ``ack`` (every socket of the table then has a fresh welcome) or ``error``."""
        async with live.lock:
            seat = subscriber.seat
            if seat is None or subscriber not in live.subscribers:
                return _not_your_seat(client_id)
            answer = await take_back(self, live, seat, client_id)
        self.kick(live)
        return answer

    async def _submit(
        self,
        live: Live,
        seat: int,
        client_id: str | None,
        text: str,
        *,
        by: Subscriber | None = None,
    ) -> dict[str, Json] | None:
        """Check, store and tell one action (the table's lock is held); ``by``: the
        socket it came from. The answer, or None when its event carried it to ``by``."""
        if client_id is not None:
            acked = live.acked(seat, client_id)
            if acked is not None:
                return m.ack_message(client_id, acked)
        # A refused action is not kept: it changed nothing, and its id may be sent again.
        state = live.state
        if state is None or live.data.status != "playing":
            over = "is over" if live.data.status == "finished" else "has not started"
            return m.Error(
                id=client_id, code="not_playing", message=f"The game at this table {over}."
            ).model_dump()
        try:
            labels = state.rules.joker_labels
            try:
                action = Action.parse(text, labels=labels)
            except ActionParseError as exc:
                raise IllegalActionError(f"{exc}", rule="actions") from None
            state.check(seat, action)
        except IllegalActionError as exc:
            return m.Error(
                id=client_id, code="illegal", message=exc.reason, rule=exc.rule
            ).model_dump()
        after = state.clone()
        after.apply(seat, action)
        seq = await self._commit_and_tell(live, after, [(seat, action, client_id)], state, by=by)
        if client_id is not None:
            live.remember(seat, client_id, seq)
        if by is not None and by.event_acks and client_id is not None:
            return None
        return m.ack_message(client_id or "", seq)

    async def _commit_and_tell(
        self,
        live: Live,
        after: GameState,
        actions: list[tuple[int, Action, str | None]],
        before: GameState | None,
        *,
        tell: bool = True,
        by: Subscriber | None = None,
    ) -> int:
        """Resolve the chance steps that follow, store every new event, then tell the
        sockets (``by``: the socket the action came from); returns the seq of the first
        new event (the action's)."""
        steps: list[GameState] = []
        keep = tell and bool(live.subscribers)
        while after.is_chance() and not after.is_terminal():
            if keep:
                steps.append(after.clone())
            after.apply_chance()
        d = live.data
        start = len(before.events) if before is not None else 0
        new = after.events[start:]
        labels = after.rules.joker_labels
        stored: list[StoredEvent] = []
        for index, event in enumerate(new):
            seq = d.seq + 1 + index
            who, what = event
            if isinstance(what, ChanceOutcome):
                cards = " ".join(format_card(c, labels=labels) for c in what.cards)
                stored.append(StoredEvent(seq, d.game_number, what.kind, cards, None))
            else:
                assert isinstance(who, int)
                assert isinstance(what, Action)
                action = what
                client = actions[0][2] if actions and index == 0 else None
                stored.append(
                    StoredEvent(seq, d.game_number, who, action.text(labels=labels), client)
                )
        status = "finished" if after.is_terminal() else "playing"
        if stored or status != d.status:
            try:
                changed = status if status != d.status else None
                number = d.game_number if changed is not None else None
                await self.writer.append(store.Append(d.id, d.seq, stored, changed, number))
            except store.StaleTableError:
                # Another process wrote to it (the sequence guard): let it go here, its
                # sockets closed with the moved code, so that their clients reconnect.
                self.owning.drop(live)
                raise TableMovedOnError() from None
        first = d.seq + 1
        live.state = after
        live.used = time.monotonic()
        d.seq += len(stored)
        if tell and live.subscribers and stored:
            if before is None:  # a new game: its events are told from its start
                before, steps = live.new_state(d.game_number), []
            tell_events(live, before, after, stored, by, steps)
        if status != d.status:
            d.status = status
            self._table_changed(live)
        elif stored:
            self.leases.notify(d.id, d.seq)
        return first

    # ------------------------------------------------------------ bots and timers

    def kick(self, live: Live) -> None:
        """Let the bots (and the away bots) of a table play, off the event loop."""
        self.driver.kick(live)

    async def _bot_move(self, live: Live, seat: int, text: str) -> dict[str, Json] | None:
        """A bot's move (or an away bot's, for a person whose time ran out), submitted as a
        person's would be (the table's lock is held)."""
        return await self._submit(live, seat, None, text)


def _not_your_seat(client_id: str) -> dict[str, Json]:
    """The ``error`` answer to a socket's request when it holds no seat at the table."""
    return m.Error(
        id=client_id, code="not_your_seat", message="You hold no seat at this table."
    ).model_dump()
