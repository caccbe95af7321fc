"""The coach's review of a finished table's game (issue 29; docs/protocol.md, Reviews).

``POST /tables/{id}/review`` asks for the review of one seat's decisions in one game of
the table (:func:`tricktaker.coach.review.review_record`), ``GET
/tables/{id}/review?seat=K&game=N`` follows it: none (nobody asked for it yet), queued,
running (``done`` of ``total`` decisions), then done, with the review as ``tricktaker
review --json`` prints it. A
finished review is stored with the table (the ``reviews`` table of the database), so
a second look, also after the server restarts, is answered at once without computing.

A record file's replay (``POST /api/replays``, ``tricktaker replay FILE --web``) is
reviewed the same way at ``/api/replays/{id}/review``, its review kept in memory while
the server runs, as the replay itself is.

Who may ask: anyone who may fetch the game's record (``GET /tables/{id}/record``:
anyone, once the game is over), by the same rule (:meth:`TableService.record
<tricktaker.server.tables.service.TableService.record>` is asked first). A review shows
one seat's cards and choices, which the record shows already; a game not yet finished
is refused, as its record is, since its review would show a hand still being played.

The reviews run off the event loop, one at a time for the whole server, in a thread of
their own (the coach's deals are played by the compiled kernel, which lets the event
loop run meanwhile); at most :data:`QUEUE_LIMIT` wait or run at once, and a request
past that is refused with 503 and ``Retry-After``. Each decision is valued with the
server's budget (:class:`ReviewBudget`: ``TRICKTAKER_REVIEW_SECONDS`` a decision, or
exactly ``TRICKTAKER_REVIEW_DEALS`` deals). A review under way lives in the memory of
the server process that runs it; with several processes (docs/scale.md) another one
answers it only once it is stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import threading
from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import Any, Literal

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, Field

from tricktaker.coach.review import Review, review_record
from tricktaker.engine.record import GameRecord
from tricktaker.server.deps import Body
from tricktaker.server.errors import (
    NotFoundError,
    RefusedError,
    SeatNotFoundError,
    UnavailableError,
)
from tricktaker.server.problems import PROBLEM_RESPONSES
from tricktaker.server.tables import review_store as store
from tricktaker.server.tables.service import TableService
from tricktaker.web.replays import Replay

log = logging.getLogger("tricktaker.server")

QUEUE_LIMIT = 8
"""How many reviews a server runs or keeps waiting at once (one runs at a time)."""

FAILED_KEPT = 32
"""How many failed reviews a server remembers (to tell whoever follows them why), and
reviews made while the database could not store them (answered from memory)."""

REPLAYS_KEPT = 32
"""How many reviews of record files' replays a server keeps (in memory, as the replays:
the least recently made go first)."""

SECONDS_VARIABLE = "TRICKTAKER_REVIEW_SECONDS"
"""The environment variable of the seconds each decision of a review is valued for."""

DEALS_VARIABLE = "TRICKTAKER_REVIEW_DEALS"
"""The environment variable of the deals each decision is valued over (instead of a
time; the same review every time)."""

DEFAULT_SECONDS = 1.0
"""A decision's budget unless the environment says otherwise: a seat's 75 decisions in
a 13-hand Blackout game of four (docs/screenshots.py's) took 80 s on two busy cores."""


@dataclass(frozen=True, slots=True)
class ReviewBudget:
    """What the server spends valuing each decision: ``seconds``, or exactly ``deals``
    deals when given (as ``tricktaker review --seconds/--deals``)."""

    seconds: float = DEFAULT_SECONDS
    deals: int | None = None

    @classmethod
    def from_environment(cls, environ: dict[str, str] | None = None) -> ReviewBudget:
        """The budget :data:`SECONDS_VARIABLE` and :data:`DEALS_VARIABLE` set (``ValueError``
        for a value that is not a positive number).

        >>> ReviewBudget.from_environment({"TRICKTAKER_REVIEW_DEALS": "40"})
        ReviewBudget(seconds=1.0, deals=40)
        """
        env = os.environ if environ is None else environ
        seconds, deals = DEFAULT_SECONDS, None
        if env.get(SECONDS_VARIABLE):
            seconds = float(env[SECONDS_VARIABLE])
            if not (math.isfinite(seconds) and seconds > 0):
                raise ValueError(f"{SECONDS_VARIABLE} must be a positive number of seconds")
        if env.get(DEALS_VARIABLE):
            deals = int(env[DEALS_VARIABLE])
            if deals < 1:
                raise ValueError(f"{DEALS_VARIABLE} must be a whole number from 1")
        return cls(seconds=seconds, deals=deals)

    def fits(self, review: Review) -> bool:
        """Whether ``review`` was made with this budget."""
        return review.seconds == self.seconds and review.deals == self.deals


class ReviewsBusyError(UnavailableError):
    """The server is running as many reviews as it takes: ask again later."""

    retry_after = 30

    def __init__(self) -> None:
        RefusedError.__init__(
            self,
            "reviews-busy",
            f"The server is reviewing {QUEUE_LIMIT} games already; ask again in"
            f" {self.retry_after} seconds.",
        )


class ReplayReviewRequest(Body):
    """Review one seat's decisions in a record file's replay."""

    seat: int = Field(ge=0, le=15, description="The seat to review, from 0.")


class ReviewRequest(Body):
    """Review one seat's decisions in a finished game of the table."""

    seat: int = Field(ge=0, le=15, description="The seat to review, from 0.")
    game: int | None = Field(
        default=None, ge=1, description="A game of the table, from 1 (default: the last)."
    )


ReviewState = Literal["none", "queued", "running", "done", "failed"]
"""Where a review is: not asked for (or forgotten by a restart before it was finished),
waiting its turn, being computed, finished, or failed."""


class ReviewProgress(BaseModel):
    """A review's progress, and the review once it is done."""

    table: str
    game: int
    seat: int
    status: ReviewState
    done: int = Field(description="Decisions valued so far.")
    total: int | None = Field(
        description="The seat's decisions with a choice (None until the review starts)."
    )
    ahead: int = Field(description="Reviews to be made before this one starts.")
    budget: str = Field(description="What each decision is valued with: '1 s', '40 deals'.")
    review: dict[str, Any] | None = Field(
        default=None,
        description="The review, once done, as `tricktaker review --json` prints it.",
    )
    detail: str | None = Field(default=None, description="Why a review failed.")


@dataclass(slots=True)
class _Job:
    """One review asked for: its game's record, and how far it is. ``table`` is a
    table's id, or a replay's (``replay``: a record file's replay, whose review is kept
    in memory only, as the replay is)."""

    table: str
    game: int
    seat: int
    record: GameRecord
    replay: bool = False
    status: ReviewState = "queued"
    done: int = 0
    total: int | None = None
    review: Review | None = None
    detail: str | None = None

    @property
    def key(self) -> tuple[bool, str, int, int]:
        return (self.replay, self.table, self.game, self.seat)


class _StoppedError(Exception):
    """The server is closing: the review under way is dropped."""


class ReviewDesk:
    """Runs the reviews a server is asked for, one at a time, off the event loop, and
    keeps each finished one in the database."""

    def __init__(self, service: TableService, budget: ReviewBudget | None = None) -> None:
        self.service = service
        self.budget = budget or ReviewBudget.from_environment()
        self._jobs: dict[tuple[bool, str, int, int], _Job] = {}
        """The reviews queued or running, and those kept aside (:attr:`_kept_aside`)."""
        self._waiting: deque[_Job] = deque()
        self._kept_aside: OrderedDict[tuple[bool, str, int, int], None] = OrderedDict()
        """The reviews that failed, or were made but could not be stored, that
        :attr:`_jobs` keeps (the last :data:`FAILED_KEPT`)."""
        self._replays: OrderedDict[tuple[str, int], Review] = OrderedDict()
        """The finished reviews of record files' replays (the last :data:`REPLAYS_KEPT`),
        by replay and seat."""
        self._runner: asyncio.Task[None] | None = None

    def _budget_text(self) -> str:
        budget = self.budget
        return f"{budget.deals} deals" if budget.deals is not None else f"{budget.seconds:g} s"

    def _progress(self, job: _Job) -> ReviewProgress:
        ahead = 0
        if job.status == "queued":
            running = any(j.status == "running" for j in self._jobs.values())
            ahead = next((i for i, j in enumerate(self._waiting) if j is job), 0) + running
        return ReviewProgress(
            table=job.table,
            game=job.game,
            seat=job.seat,
            status=job.status,
            done=job.done,
            total=job.total,
            ahead=ahead,
            budget=self._budget_text(),
            review=job.review.to_json() if job.review is not None else None,
            detail=job.detail,
        )

    def _done(self, table: str, game: int, seat: int, review: Review) -> ReviewProgress:
        total = len(review.decisions) + len(review.unvalued)
        return ReviewProgress(
            table=table,
            game=game,
            seat=seat,
            status="done",
            done=total,
            total=total,
            ahead=0,
            budget=self._budget_text(),
            review=review.to_json(),
        )

    async def _which(self, table_id: str, seat: int, game: int | None) -> int:
        """The game's number (the last one's when None), the seat checked."""
        data = (await self.service.live(table_id)).data
        if not 0 <= seat < data.players:
            raise SeatNotFoundError(seat)
        return data.game_number if game is None else game

    async def _stored(self, table_id: str, game: int, seat: int) -> Review | None:
        """The review stored for the seat's game with this server's budget, if any."""
        data = await self.service.db(store.load_review, table_id, game, seat)
        if data is None:
            return None
        try:
            review = Review.from_json(data)
        except (KeyError, TypeError, ValueError, StopIteration):
            return None  # another version's, or damaged: made again
        return review if self.budget.fits(review) else None

    async def ask(self, table_id: str, seat: int, game: int | None) -> ReviewProgress:
        """Start the review of ``seat`` in game ``game`` (None: the last) of the table,
        unless it is under way or stored; its progress."""
        number = await self._which(table_id, seat, game)
        job = self._jobs.get((False, table_id, number, seat))
        if job is not None and job.status != "failed":
            return self._progress(job)
        stored = await self._stored(table_id, number, seat)
        if stored is not None:
            return self._done(table_id, number, seat, stored)
        record = GameRecord.from_json(await self.service.record(table_id, game))
        job = self._jobs.get((False, table_id, number, seat))  # asked for meanwhile
        if job is not None and job.status != "failed":
            return self._progress(job)
        return self._queue(_Job(table_id, number, seat, record))

    def _queue(self, job: _Job) -> ReviewProgress:
        """Queue ``job`` (503 if the server reviews all it takes); its progress."""
        if sum(j.status in ("queued", "running") for j in self._jobs.values()) >= QUEUE_LIMIT:
            raise ReviewsBusyError
        self._kept_aside.pop(job.key, None)
        self._jobs[job.key] = job
        self._waiting.append(job)
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._run())
        return self._progress(job)

    def ask_replay(self, replay_id: str, record: GameRecord, seat: int) -> ReviewProgress:
        """Start the review of ``seat`` in a record file's replay (``record``, kept under
        ``replay_id``), unless it is under way or made; its progress."""
        if not 0 <= seat < record.players:
            raise SeatNotFoundError(seat)
        job = self._jobs.get((True, replay_id, 1, seat))
        if job is not None and job.status != "failed":
            return self._progress(job)
        made = self._replays.get((replay_id, seat))
        if made is not None and self.budget.fits(made):
            return self._done(replay_id, 1, seat, made)
        return self._queue(_Job(replay_id, 1, seat, record, replay=True))

    def look_replay(self, replay_id: str, record: GameRecord, seat: int) -> ReviewProgress:
        """The progress of the review of ``seat`` in a record file's replay, or the
        review (status ``none`` if nobody asked for it)."""
        if not 0 <= seat < record.players:
            raise SeatNotFoundError(seat)
        job = self._jobs.get((True, replay_id, 1, seat))
        if job is not None:
            return self._progress(job)
        made = self._replays.get((replay_id, seat))
        if made is not None and self.budget.fits(made):
            return self._done(replay_id, 1, seat, made)
        return ReviewProgress(
            table=replay_id,
            game=1,
            seat=seat,
            status="none",
            done=0,
            total=None,
            ahead=0,
            budget=self._budget_text(),
        )

    async def look(self, table_id: str, seat: int, game: int | None) -> ReviewProgress:
        """The progress of the review of ``seat`` in game ``game`` (None: the last), or
        the stored review; status ``none`` if nobody asked for it."""
        number = await self._which(table_id, seat, game)
        job = self._jobs.get((False, table_id, number, seat))
        if job is not None:
            return self._progress(job)
        stored = await self._stored(table_id, number, seat)
        if stored is not None:
            return self._done(table_id, number, seat, stored)
        await self.service.record(table_id, game)  # an unfinished game: refused as its record
        return ReviewProgress(
            table=table_id,
            game=number,
            seat=seat,
            status="none",
            done=0,
            total=None,
            ahead=0,
            budget=self._budget_text(),
        )

    async def _run(self) -> None:
        """Review the waiting games one after another."""
        while self._waiting:
            job = self._waiting.popleft()
            job.status = "running"
            try:
                review = await self._compute(job)
            except _StoppedError:
                return
            except Exception as error:
                log.exception("the review of %s failed", job.key)
                job.detail = f"The review failed ({type(error).__name__}: {error})."
                job.status = "failed"
                self._remember(job)
                continue
            job.review, job.status = review, "done"
            if job.replay:
                self._replays[(job.table, job.seat)] = review
                while len(self._replays) > REPLAYS_KEPT:
                    self._replays.popitem(last=False)
                del self._jobs[job.key]
                continue
            try:
                await self.service.db(
                    store.save_review, job.table, job.game, job.seat, review.to_json()
                )
            except RefusedError as error:  # the database is away: answered from memory
                log.warning("the review of %s was not stored: %s", job.key, error.detail)
                self._remember(job)
            else:
                del self._jobs[job.key]  # the stored review answers from now on

    def _remember(self, job: _Job) -> None:
        """Keep a failed review (or one made but not stored) among the last
        :data:`FAILED_KEPT`, to answer whoever follows it."""
        self._kept_aside[job.key] = None
        while len(self._kept_aside) > FAILED_KEPT:
            self._jobs.pop(self._kept_aside.popitem(last=False)[0], None)

    async def _compute(self, job: _Job) -> Review:
        """The review of ``job``, computed in a thread of its own (a daemon: a server
        that stops does not wait for it; it stops at its next decision)."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Review] = loop.create_future()
        closed = self.service.driver

        def progress(done: int, total: int) -> None:
            if closed.closed:
                raise _StoppedError
            job.done, job.total = done, total

        def settle(result: Review | None, error: BaseException | None) -> None:
            if answer.done():
                return
            if error is not None:
                answer.set_exception(error)
            else:
                answer.set_result(result)  # type: ignore[arg-type]

        def work() -> None:
            result: Review | None = None
            error: BaseException | None = None
            try:
                result = review_record(
                    job.record,
                    job.seat,
                    seconds=self.budget.seconds,
                    deals=self.budget.deals,
                    progress=progress,
                )
            except BaseException as failure:  # told to the event loop, which raises it
                error = failure
            with contextlib.suppress(RuntimeError):  # a closed event loop: nobody waits
                loop.call_soon_threadsafe(settle, result, error)

        threading.Thread(target=work, name="tricktaker-review", daemon=True).start()
        return await answer


def add_review_routes(router: APIRouter, service: TableService) -> ReviewDesk:
    """Add ``POST`` and ``GET /tables/{id}/review`` (and ``/api/replays/{id}/review``, a
    record file's replay's) to the tables' ``router``; the desk that runs the reviews."""
    desk = ReviewDesk(service)

    @router.post(
        "/tables/{table_id}/review",
        status_code=202,
        responses={200: {"description": "The review, stored already."}, **PROBLEM_RESPONSES},
    )
    async def ask_review(
        table_id: str, request: ReviewRequest, response: Response
    ) -> ReviewProgress:
        """Start the coach's review of one seat's decisions in a finished game (202, its
        progress), or answer the review stored already (200). Anyone may ask, once the
        game is over (as for its record); 503 with ``Retry-After`` when the server is
        reviewing as many games as it takes."""
        progress = await desk.ask(table_id, request.seat, request.game)
        if progress.status == "done":
            response.status_code = 200
        return progress

    @router.get("/tables/{table_id}/review", responses=PROBLEM_RESPONSES)
    async def look_review(
        table_id: str,
        seat: int = Query(ge=0, le=15, description="The seat reviewed, from 0."),
        game: int | None = Query(
            default=None, ge=1, description="A game of the table, from 1 (default: the last)."
        ),
    ) -> ReviewProgress:
        """A review's progress (queued, running: ``done`` of ``total`` decisions), or
        the finished review; status ``none`` if nobody has asked for it (POST starts it)."""
        return await desk.look(table_id, seat, game)

    def replay_record(request: Request, replay_id: str) -> GameRecord:
        """The record of the replay kept under ``replay_id`` (404 ``no-replay``)."""
        kept: OrderedDict[str, Replay] = request.app.state.replays
        replay = kept.get(replay_id)
        if replay is None:
            raise NotFoundError(
                "no-replay",
                "No such replay here (the server keeps the recent ones while it runs):"
                " open the record file again.",
            )
        return replay.record

    @router.post(
        "/api/replays/{replay_id}/review",
        status_code=202,
        responses={200: {"description": "The review, made already."}, **PROBLEM_RESPONSES},
    )
    async def ask_replay_review(
        replay_id: str, body: ReplayReviewRequest, request: Request, response: Response
    ) -> ReviewProgress:
        """Start the coach's review of one seat's decisions in a record file's replay
        (``POST /api/replays``; ``tricktaker replay FILE --web``), kept in memory while
        the server runs, as the replay is: 202, its progress, or 200 and the review."""
        record = replay_record(request, replay_id)
        progress = desk.ask_replay(replay_id, record, body.seat)
        if progress.status == "done":
            response.status_code = 200
        return progress

    @router.get("/api/replays/{replay_id}/review", responses=PROBLEM_RESPONSES)
    async def look_replay_review(
        replay_id: str,
        request: Request,
        seat: int = Query(ge=0, le=15, description="The seat reviewed, from 0."),
    ) -> ReviewProgress:
        """The progress of a replay's review, or the review (status ``none``: not asked)."""
        return desk.look_replay(replay_id, replay_record(request, replay_id), seat)

    return desk


__all__ = [
    "QUEUE_LIMIT",
    "ReviewBudget",
    "ReviewDesk",
    "ReviewProgress",
    "ReviewRequest",
    "ReviewsBusyError",
    "add_review_routes",
]
