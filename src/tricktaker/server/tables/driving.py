"""The bots of the tables a server holds, and their move timers: each plays off the
event loop, in a pool of threads, and submits its move as a person's would be.

A table's bots play in turn until a person is to act or the game ends
(:meth:`BotDriver.kick` starts them after every change). A person's move timer, where a
table has one, lets the table's away bot move for them when it runs out. A move the
database cannot store just now (:class:`~tricktaker.server.errors.UnavailableError`: it
is down, its disk full) is tried again every :data:`RETRY_SECONDS`, so that the bots and
the timers go on by themselves once it is back (docs/deploy.md, When the database goes
away).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from tricktaker.bots import Bot, make_bot
from tricktaker.bots.base import decide
from tricktaker.duplicate.bots import PositionSeededBot
from tricktaker.engine import GameState
from tricktaker.server.errors import UnavailableError
from tricktaker.server.tables.live import Live, bot_seed, game_seed
from tricktaker.server.tables.views import Json

log = logging.getLogger("tricktaker.server")

T = TypeVar("T")

RETRY_SECONDS = 1.0
"""How often a table's bots try again to store a move the database could not store."""

Submit = Callable[[Live, int, str], Awaitable["dict[str, Json] | None"]]
"""Checks, stores and tells a bot's move, given the table, the seat and the action's
text, with the table's lock held: the answer (an ``error`` message if refused)."""


class BotDriver:
    """Plays the bots and runs the move timers of every table, with ``workers`` threads;
    ``submit`` stores each move."""

    def __init__(self, submit: Submit, *, workers: int = 2) -> None:
        self._submit = submit
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="tricktaker-bot")
        self.closed = False
        """Set when the server closes: nothing is started any more."""

    def close(self) -> None:
        """Start nothing more, and let the threads go (a move being thought is dropped)."""
        self.closed = True
        self._pool.shutdown(wait=False, cancel_futures=True)

    async def think(self, function: Callable[..., T], *args: Any) -> T:
        """Run ``function(*args)`` in the bots' threads, off the event loop (a coach's
        hint, say: :mod:`tricktaker.server.tables.hints`). Raises ``RuntimeError`` once
        the server closes."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, function, *args)

    def kick(self, live: Live) -> None:
        """Let the bots (and the away bots) of a table play, off the event loop."""
        if self.closed or live.data.status != "playing":
            return
        if live.drive_task is None or live.drive_task.done():
            state = live.state
            if state is None or state.is_terminal():
                return
            if live.data.move_timer is None and all(
                live.plays_for(s) is None for s in state.to_act()
            ):
                return  # people are to act, with no move timer: nothing to drive
            live.drive_task = asyncio.get_running_loop().create_task(self._drive(live))

    def bot(self, live: Live, seat: int, spec: str) -> Bot:
        """The bot ``spec`` of ``seat`` at ``live``'s game, made once a game (seeded by it)."""
        key = (seat, spec)
        bot = live.bots.get(key)
        if bot is None:
            seed = bot_seed(game_seed(live.data.seed, live.data.game_number), seat)
            if live.deals is not None and live.data.game_number == 1:
                # A duplicate set's game: each choice from (seed, position), so a table
                # rebuilt after a restart plays on as one that never stopped.
                bot = live.bots[key] = PositionSeededBot(spec, seed)
            else:
                bot = live.bots[key] = make_bot(spec, seed=seed)
        return bot

    async def _drive(self, live: Live) -> None:
        """Play the bots' turns of a table until a person is to act or the game ends. A
        move the database cannot store just now (:class:`UnavailableError`: it is down,
        its disk full) is tried again every :data:`RETRY_SECONDS`, so that the bots go
        on by themselves once it is back (docs/deploy.md, When the database goes away)."""
        while True:
            try:
                await self._drive_bots(live)
                return
            except asyncio.CancelledError:
                raise
            except UnavailableError as error:
                log.warning("the bots of table %s wait: %s", live.data.id, error.detail)
                await asyncio.sleep(RETRY_SECONDS)
            except Exception:
                log.exception("the bots of table %s stopped", live.data.id)
                return

    async def _drive_bots(self, live: Live) -> None:
        loop = asyncio.get_running_loop()
        while not self.closed:
            state = live.state
            if state is None or live.data.status != "playing" or state.is_terminal():
                return
            movers = [(s, live.plays_for(s)) for s in state.to_act()]
            bots = [(s, spec) for s, spec in movers if spec is not None]
            if not bots:
                self.arm_timer(live, state)
                return
            seat, spec = bots[0]
            bot = self.bot(live, seat, spec)
            snapshot = state.clone()
            try:
                action = await loop.run_in_executor(self._pool, decide, bot, snapshot, seat)
            except RuntimeError:
                return  # the pool is shut down: the server is closing
            async with live.lock:
                if live.state is not state:
                    continue  # the table moved on while the bot thought
                labels = state.rules.joker_labels
                answer = await self._submit(live, seat, action.text(labels=labels))
                if answer is not None and answer["type"] == "error":
                    log.error("bot %s at table %s refused: %s", spec, live.data.id, answer)
                    return

    def arm_timer(self, live: Live, state: GameState) -> None:
        """Start the move timer of a person to act in ``state``, where the table has one."""
        limit = live.data.move_timer
        if limit is None or self.closed:
            return
        if live.timer_task is not None and not live.timer_task.done():
            live.timer_task.cancel()
        seq = live.data.seq

        async def expire() -> None:
            await asyncio.sleep(limit)
            while True:  # again every RETRY_SECONDS while the database cannot store it
                if live.data.seq != seq or live.state is not state or not state.to_act():
                    return
                seat = state.to_act()[0]
                bot = self.bot(live, seat, live.data.away_bot)
                loop = asyncio.get_running_loop()
                try:
                    action = await loop.run_in_executor(
                        self._pool, decide, bot, state.clone(), seat
                    )
                except RuntimeError:
                    return  # the pool is shut down: the server is closing
                async with live.lock:
                    if live.data.seq != seq:
                        return  # the person played in time after all
                    text = action.text(labels=state.rules.joker_labels)
                    try:
                        await self._submit(live, seat, text)
                        break
                    except UnavailableError as error:
                        log.warning(
                            "the move timer of table %s waits: %s", live.data.id, error.detail
                        )
                await asyncio.sleep(RETRY_SECONDS)
            self.kick(live)

        live.timer_task = asyncio.get_running_loop().create_task(expire())
