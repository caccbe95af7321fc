"""A table held in memory by the table service: a cache of the database, with its
sockets, the ids it has answered, who is away, its bots and its timers."""

from __future__ import annotations

import asyncio
import random
from collections import deque
from dataclasses import dataclass, field
from typing import Protocol

from tricktaker.bots import Bot
from tricktaker.engine import GameState, new_game
from tricktaker.rules.ruleset import Ruleset, ruleset_from_data
from tricktaker.server.tables import messages as m
from tricktaker.server.tables.store import CHAT_KEPT, SeatData, TableData
from tricktaker.server.tables.undo import practice
from tricktaker.server.tables.views import Json, SharedPart, ViewMemo


class Subscriber(Protocol):
    """A socket's sending side: messages are queued, never awaited by the table."""

    seat: int | None
    event_acks: bool
    """Whether an action this socket sent is answered by its event (protocol 1.2)."""

    def push(self, message: dict[str, Json], shared: SharedPart | None = None) -> None:
        """Queue ``message`` for sending (``shared``: the shared part of an event's
        views, which the view in it may hold)."""

    def close(self, code: int = 1008, reason: str = "") -> None:
        """Close the socket once the queued messages are sent (``code``, ``reason``:
        the close frame's; 1012 when the table moved to another server process)."""


def game_seed(table_seed: int, game_number: int) -> int:
    """The seed of a table's ``game_number``-th game (the first uses the table's seed)."""
    if game_number <= 1:
        return table_seed
    return random.Random(f"tricktaker-table:{table_seed}:{game_number}").getrandbits(32)


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of a game seeded ``seed`` (as ``tricktaker play``)."""
    from tricktaker.cli.common import bot_seed as cli_bot_seed

    return cli_bot_seed(seed, seat)


@dataclass(slots=True)
class Live:
    """A table held in memory: a cache of its stored data, its sockets and timers."""

    data: TableData
    state: GameState | None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: set[Subscriber] = field(default_factory=set)
    acks: dict[int, dict[str, int]] = field(default_factory=dict)
    """The seq of each action of this game that carried an id, by seat, then by id: a
    plain str-to-int map per seat, so that remembering an action makes no object the
    cyclic garbage collector scans (a tuple key for each action did: over a game of
    Bluke at 200 busy tables, some 165,000 more, which brought a whole collection,
    and its pause, within the game)."""
    replaced: set[int] = field(default_factory=set)
    bots: dict[tuple[int, str], Bot] = field(default_factory=dict)
    grace_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    timer_task: asyncio.Task[None] | None = None
    drive_task: asyncio.Task[None] | None = None
    chat_times: dict[int | None, list[float]] = field(default_factory=dict)
    chat: deque[m.ChatLine] = field(default_factory=lambda: deque(maxlen=CHAT_KEPT))
    """The table's last chat messages (at most ``CHAT_KEPT``), oldest first: a
    cache of the stored ones, read once when the table is loaded and kept up as
    messages are stored, so that a welcome needs no read of the database."""
    views: ViewMemo = field(default_factory=ViewMemo)
    """What the table's views share from one event to the next (the seats' last
    observations, the presentation's memo, the JSON written already); it goes with the
    table."""
    rules: Ruleset | None = None
    """The table's ruleset, built from its stored data once (:meth:`new_state`): a
    table's rules never change, a rematch has the same."""
    deals: tuple[tuple[int, ...], ...] | None = None
    """The deck order of each hand of the table's first game, for a table of a duplicate
    set (docs/duplicate.md, The same deals); None: the game is shuffled from its seed."""
    club: m.ClubPlace | None = None
    """The club and evening the table was made for (None: none), read with the table
    (:class:`~tricktaker.server.tables.belonging.Belonging`): it never changes."""
    used: float = 0.0
    """When the table was last asked for or played at (``time.monotonic()``): a table
    not being played leaves memory once this is long enough ago
    (:meth:`~tricktaker.server.tables.service.TableService.evict_idle`)."""

    def acked(self, seat: int, client_id: str) -> int | None:
        """The seq of the action that seat ``seat`` sent with id ``client_id`` in this
        game, if one was accepted."""
        ids = self.acks.get(seat)
        return ids.get(client_id) if ids is not None else None

    def remember(self, seat: int, client_id: str, seq: int) -> None:
        """Keep that seat ``seat``'s action ``client_id`` was stored as ``seq``."""
        ids = self.acks.get(seat)
        if ids is None:
            ids = self.acks[seat] = {}
        ids[client_id] = seq

    def connected(self, seat: int) -> bool:
        return any(s.seat == seat for s in self.subscribers)

    def seat_state(self, seat: SeatData) -> str:
        if seat.kind == "bot":
            return "bot"
        if seat.token_hash is None:
            return "replaced" if seat.seat in self.replaced else "free"
        if seat.seat in self.replaced:
            return "replaced"
        return "connected" if self.connected(seat.seat) else "away"

    def info(self) -> m.TableInfo:
        d = self.data
        return m.TableInfo(
            id=d.id,
            game=d.game,
            options=d.options,
            ruleset=d.ruleset_data,
            players=d.players,
            status=d.status,  # type: ignore[arg-type]
            game_number=d.game_number,
            seq=d.seq,
            grace_seconds=d.grace_seconds,
            move_timer=d.move_timer,
            seats=[self._seat_info(s) for s in d.seats],
            practice=self.is_practice(),
            hints=d.hints or self.is_practice(),
            club=self.club,
        )

    def is_practice(self) -> bool:
        """Whether this is a practice table (:func:`~tricktaker.server.tables.undo.practice`),
        where the person may take back an action and has the coach's hints: never a
        table of a duplicate set, whose play is compared with other tables'."""
        return self.deals is None and practice(self.data.seats, self.replaced)

    def _seat_info(self, seat: SeatData) -> m.SeatInfo:
        """A seat as everyone sees it: a person's seat a bot plays (``replaced``: they
        are away, or gave it up in a game) shows that bot in ``bot``."""
        state = self.seat_state(seat)
        return m.SeatInfo(
            seat=seat.seat,
            kind=seat.kind,  # type: ignore[arg-type]
            bot=self.plays_for(seat.seat) if state == "replaced" else seat.bot,
            name=seat.name,
            state=state,  # type: ignore[arg-type]
            open=seat.open_seat,
        )

    def new_state(self, game_number: int) -> GameState:
        """The start of the table's ``game_number``-th game (before its deal)."""
        d = self.data
        rules = self.rules
        if rules is None:
            rules = ruleset_from_data(d.ruleset_data, options=d.options, source=d.game)
            self.rules = rules
        deals = self.deals if game_number == 1 else None  # a rematch is shuffled
        return new_game(rules, players=d.players, seed=game_seed(d.seed, game_number), deals=deals)

    def plays_for(self, seat: int) -> str | None:
        """The bot spec that plays ``seat`` now, or None when a person does."""
        s = self.data.seats[seat]
        if s.kind == "bot":
            return s.bot
        if seat in self.replaced or s.token_hash is None:
            return self.data.away_bot
        return None


def subscriber_gone(live: Live, seat: int) -> bool:
    """Whether nobody holds ``seat`` any more (it left, or a bot took it)."""
    return live.data.seats[seat].token_hash is None
