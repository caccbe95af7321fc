"""One seat of a remote table over the WebSocket (protocol v1, ``docs/protocol.md``).

:func:`join_table` takes a seat through the HTTP API; :class:`SeatSession` keeps the
seat's :class:`~tricktaker.engine.Observation` up to date from ``welcome`` and ``event``
messages, asks its :class:`SeatPlayer` for a decision when the seat is to act (the
decision runs as its own task, so the socket keeps reading and pings are answered),
sends it with an id of its own, and reconnects with ``last_seq`` when the connection
drops, sending an unanswered action again under the same id (the server applies it once).
:meth:`SeatSession.hint_from_thread` asks the server's coach for a ``hint`` from another
thread (a prompt's), through the live connection.
It tries again with growing pauses (up to :data:`RETRY_CAP_SECONDS`) and gives up with
:class:`ServerGoneError` when no connection was welcomed for ``give_up_seconds``
(:data:`GIVE_UP_SECONDS`, or ``TRICKTAKER_RECONNECT_SECONDS``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import errno
import json
import os
import secrets
import time
import urllib.error
import urllib.request
from abc import ABC, abstractmethod
from typing import Any

from tricktaker.client.decode import ViewError, hand_result, observation
from tricktaker.client.links import TableLink
from tricktaker.engine import Observation
from tricktaker.engine.results import HandResult
from tricktaker.rules.ruleset import Ruleset

PROTOCOL_VERSION = 1
PING_SECONDS = 20.0
"""A ping is sent when nothing arrived for this long (the server answers ``pong``)."""
GAME_OVER = "game_over"
GIVE_UP_SECONDS = 120.0
"""How long a seat tries to reconnect, without one welcomed connection, before it gives up
(the environment's ``TRICKTAKER_RECONNECT_SECONDS`` overrides it)."""
RETRY_CAP_SECONDS = 10.0
"""The longest pause between two tries (they start at half a second and double)."""
HINT_WAIT_SECONDS = 30.0
"""How long a hint asked is waited for (the server's coach thinks for about a second,
in the bots' threads, which may be busy)."""


class ClientError(Exception):
    """Something the person must be told: the server refused (``status``: the HTTP
    status of the refusal), or cannot be reached."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class SeatLostError(ClientError):
    """The server refused the seat's token (given up, given to a bot, or wrong)."""


class ServerGoneError(ClientError):
    """No connection to the server was welcomed for the give-up time."""


class HintUnansweredError(ClientError):
    """A hint asked got no answer: the connection was down or dropped while the coach
    was thinking, the session had ended, or no answer came in time."""


def give_up_seconds() -> float:
    """:data:`GIVE_UP_SECONDS`, or ``TRICKTAKER_RECONNECT_SECONDS`` when it is a number."""
    given = os.environ.get("TRICKTAKER_RECONNECT_SECONDS", "")
    try:
        seconds = float(given)
    except ValueError:
        return GIVE_UP_SECONDS
    return seconds if seconds >= 0 else GIVE_UP_SECONDS


def _request(url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    request = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            result: dict[str, Any] = json.loads(answer.read().decode("utf-8"))
            return result
    except urllib.error.HTTPError as exc:
        try:
            detail = _detail(json.loads(exc.read().decode("utf-8"))) or exc.reason
        except (ValueError, AttributeError):
            detail = exc.reason
        raise ClientError(f"the server refused ({exc.code}): {detail}", exc.code) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ClientError(f"cannot reach the server at {url}: {reason}") from None


def _detail(problem: Any) -> str | None:
    """The reason in a refusal's JSON: its ``detail``, or the messages of a list of
    validation errors (``name: String should have at most 40 characters``)."""
    detail = problem.get("detail") if isinstance(problem, dict) else None
    if isinstance(detail, list):
        parts = []
        for item in detail:
            if isinstance(item, dict) and "msg" in item:
                where = [str(p) for p in item.get("loc") or () if p != "body"]
                parts.append(f"{'.'.join(where)}: {item['msg']}" if where else str(item["msg"]))
        return "; ".join(parts) or None
    return str(detail) if detail else None


def table_info(link: TableLink) -> dict[str, Any]:
    """The table as everyone sees it (``GET /tables/ID``)."""
    return _request(f"{link.base}/tables/{link.table}")


def join_table(link: TableLink, name: str | None, seat: int | None = None) -> tuple[int, str]:
    """Take a free seat (or ``seat``, 0-based) with the link's invite code, under ``name``
    (None: the server's default): the seat and its token."""
    if link.invite is None:
        raise ClientError(
            "the link has no invite code (…/tables/ID?invite=CODE): ask the host for the"
            " invite link, or come back to your seat with --token"
        )
    body: dict[str, Any] = {"invite": link.invite}
    if name is not None:
        body["name"] = name
    if seat is not None:
        body["seat"] = seat
    answer = _request(f"{link.base}/tables/{link.table}/join", body)
    return int(answer["seat"]), str(answer["seat_token"])


def table_rules(table: dict[str, Any]) -> Ruleset:
    """The ruleset of a table: the rules it publishes (house rules included) with its
    options; a shipped game by id from an older server."""
    from tricktaker.rules import load_ruleset
    from tricktaker.rules.errors import RulesetError

    options = {
        k: str(v).lower() if isinstance(v, bool) else str(v)
        for k, v in (table.get("options") or {}).items()
    }
    try:
        if table.get("ruleset"):  # the table's own rules, house rules included
            from tricktaker.rules.ruleset import ruleset_from_data

            return ruleset_from_data(table["ruleset"], options=options, source=table["game"])
        return load_ruleset(table["game"], options=options)
    except (RulesetError, LookupError, ValueError) as exc:
        raise ClientError(
            f"this client cannot load the table's game {table['game']!r}: {exc}"
        ) from None


def _why(exc: BaseException) -> str:
    """Why the connection dropped, in words: the server restarting or going away, not
    answering, else the library's own words."""
    import websockets

    if isinstance(exc, websockets.ConnectionClosed):
        frame = exc.rcvd
        if frame is not None and frame.code == 1012:
            return "the server is restarting"
        if frame is not None and frame.code == 1001:
            return "the server is going away"
        return "the connection closed"
    if isinstance(exc, ConnectionRefusedError) or getattr(exc, "errno", None) == errno.ECONNREFUSED:
        return "the server does not answer"
    return str(exc) or type(exc).__name__


class SeatPlayer(ABC):
    """Who plays the seat: told what happens, asked for decisions. The notices do
    nothing unless overridden; :meth:`decide` must be given."""

    @abstractmethod
    async def decide(self, obs: Observation) -> str | None:
        """The action to send (its text, ``play QD``), or None to leave the table."""

    def welcome(self, message: dict[str, Any], obs: Observation | None) -> None:  # noqa: B027
        """A (fresh) snapshot: the seat, the table, the whole view."""

    def event(  # noqa: B027
        self, message: dict[str, Any], prev: Observation | None, obs: Observation
    ) -> None:
        """One event of the game, with the seat's view before and after it."""

    def refused(self, error: dict[str, Any], obs: Observation | None) -> None:  # noqa: B027
        """The server refused the seat's action (``code``, ``message``, ``rule``)."""

    def notice(self, message: dict[str, Any]) -> None:  # noqa: B027
        """A ``table``, ``presence`` or ``chat`` message, or an error not about an action."""

    def dropped(self, attempt: int, reason: str) -> None:  # noqa: B027
        """The connection dropped; attempt ``attempt`` to reconnect follows."""


class LeaveTableError(Exception):
    """The player chose to leave (the seat stays theirs)."""


class SeatSession:
    """A seat at a remote table, played by ``player`` until the game ends."""

    def __init__(
        self,
        link: TableLink,
        token: str | None,
        player: SeatPlayer,
        *,
        give_up: float | None = None,
        retry_seconds: float = 0.5,
    ) -> None:
        self.link = link
        self.token = token
        self.player = player
        self.give_up = give_up_seconds() if give_up is None else give_up
        self.retry_seconds = retry_seconds
        self.welcomed = False
        """Whether the server has welcomed the seat's token once (it is good)."""
        self.connected = False
        """Whether the present connection was welcomed."""
        self.seat: int | None = None
        self.table: dict[str, Any] | None = None
        self.rules: Ruleset | None = None
        self.history: list[HandResult] = []
        self.obs: Observation | None = None
        self.last_seq: int | None = None
        self.prefix = secrets.token_hex(4)
        self.counter = 0
        self.in_flight: dict[str, Any] | None = None
        self.decision: asyncio.Task[str | None] | None = None
        self.resend = False
        """Whether the unanswered action goes again (after a reconnect's welcome)."""
        self.loop: asyncio.AbstractEventLoop | None = None
        """The loop the session runs in (set by :meth:`run`)."""
        self.socket: Any | None = None
        """The present connection, once it is open."""
        self.hints_asked: dict[str, asyncio.Future[dict[str, Any]]] = {}
        """The hints asked and not yet answered, by id."""
        self.hint_counter = 0

    # ---------------------------------------------------------------- running

    async def run(self) -> Observation | None:
        """Play until the game is over (the last observation); raises
        :class:`LeaveTableError` when the player leaves, :class:`SeatLostError` when the
        server refuses the seat, :class:`ServerGoneError` when no connection was welcomed
        for the give-up time, :class:`ClientError` for a game this client cannot load."""
        import websockets

        failures = 0
        since: float | None = None
        self.loop = asyncio.get_running_loop()
        try:
            while True:
                self.connected = False
                try:
                    async with websockets.connect(self.link.ws_url, max_size=2**24) as ws:
                        if await self._session(ws):
                            return self.obs
                except (OSError, websockets.ConnectionClosed, websockets.InvalidHandshake) as exc:
                    now = time.monotonic()
                    if self.connected or since is None:
                        failures, since = 0, now  # welcomed since the last failure
                    failures += 1
                    if now - since >= self.give_up:
                        raise ServerGoneError(self._gone()) from None
                    self.player.dropped(failures, _why(exc))
                    pause = min(self.retry_seconds * 2 ** (failures - 1), RETRY_CAP_SECONDS)
                    await asyncio.sleep(max(0.0, min(pause, since + self.give_up - now)))
        except ViewError as exc:
            raise ClientError(str(exc)) from None
        finally:
            if self.decision is not None:
                self.decision.cancel()

    def _gone(self) -> str:
        seconds = self.give_up
        waited = f"{seconds / 60:g} minutes" if seconds >= 90 else f"{seconds:g} seconds"
        return f"the server at {self.link.base} has not answered for {waited}: gave up"

    async def _session(self, ws: Any) -> bool:
        """One connection: True when the game is over."""
        hello = {"type": "hello", "v": PROTOCOL_VERSION, "token": self.token}
        hello["last_seq"] = self.last_seq
        await ws.send(json.dumps(hello))
        self.socket = ws
        receive: asyncio.Task[Any] = asyncio.ensure_future(ws.recv())
        try:
            while True:
                waits: set[asyncio.Future[Any]] = {receive}
                if self.decision is not None:
                    waits.add(self.decision)
                done, _ = await asyncio.wait(
                    waits, timeout=PING_SECONDS, return_when=asyncio.FIRST_COMPLETED
                )
                if not done:
                    await ws.send(json.dumps({"type": "ping"}))
                    continue
                if receive in done:
                    text = receive.result()
                    receive = asyncio.ensure_future(ws.recv())
                    if self._handle(json.loads(text)):
                        return True
                    if self.resend and self.in_flight is not None:
                        self.resend = False
                        await ws.send(json.dumps(self.in_flight))
                if self.decision is not None and self.decision.done():
                    choice = self.decision.result()
                    self.decision = None
                    if choice is None:
                        raise LeaveTableError
                    self.counter += 1
                    self.in_flight = {
                        "type": "action",
                        "id": f"{self.prefix}-{self.counter}",
                        "action": choice,
                    }
                    await ws.send(json.dumps(self.in_flight))
                self._maybe_decide()
        finally:
            self.socket = None
            for waiting in self.hints_asked.values():
                if not waiting.done():
                    waiting.set_exception(
                        HintUnansweredError("the connection dropped while the coach was thinking")
                    )
            receive.cancel()
            with contextlib.suppress(BaseException):
                await receive

    def _maybe_decide(self) -> None:
        obs = self.obs
        if (
            obs is not None
            and self.decision is None
            and self.in_flight is None
            and obs.seat in obs.to_act
            and obs.legal_actions
        ):
            self.decision = asyncio.ensure_future(self.player.decide(obs))

    # ---------------------------------------------------------------- hints

    async def ask_hint(self) -> dict[str, Any]:
        """Ask the server's coach for the values of the seat's choices now (protocol 1.4,
        docs/protocol.md, Hints): the server's ``hint`` message, or the ``error`` that
        refused it. Raises :class:`HintUnansweredError` when the connection is down or
        drops before the answer."""
        import websockets

        socket = self.socket
        if socket is None or not self.connected:
            raise HintUnansweredError("not connected to the server just now")
        self.hint_counter += 1
        hint_id = f"{self.prefix}-hint-{self.hint_counter}"
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.hints_asked[hint_id] = answer
        try:
            await socket.send(json.dumps({"type": "hint", "id": hint_id}))
            return await answer
        except websockets.ConnectionClosed:
            raise HintUnansweredError(
                "the connection dropped while the coach was thinking"
            ) from None
        finally:
            del self.hints_asked[hint_id]

    def hint_from_thread(self, timeout: float = HINT_WAIT_SECONDS) -> dict[str, Any]:
        """:meth:`ask_hint` from another thread than the session's (a prompt's), waiting
        at most ``timeout`` seconds; raises :class:`HintUnansweredError` where no answer
        came."""
        loop = self.loop
        if loop is None:
            raise HintUnansweredError("not connected to the server yet")
        try:
            future = asyncio.run_coroutine_threadsafe(self.ask_hint(), loop)
        except RuntimeError:  # the loop is closed: the session is over
            raise HintUnansweredError("the session with the server is over") from None
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise HintUnansweredError(f"no answer came in {timeout:g} seconds") from None
        except concurrent.futures.CancelledError:  # the session ended meanwhile
            raise HintUnansweredError("the session with the server is over") from None

    def _hint_answer(self, message: dict[str, Any]) -> bool:
        """Whether ``message`` answers a hint asked (a ``hint``, or an ``error`` with a
        hint's id): then it is handed to the one waiting for it."""
        kind = message.get("type")
        hint_id = message.get("id")
        waiting = self.hints_asked.get(hint_id) if isinstance(hint_id, str) else None
        if kind != "hint" and not (kind == "error" and waiting is not None):
            return False
        if waiting is not None and not waiting.done():
            waiting.set_result(message)
        return True

    # ------------------------------------------------------------- messages

    def _handle(self, message: dict[str, Any]) -> bool:
        """Take one message in; True when the game is over."""
        kind = message.get("type")
        if self._hint_answer(message):
            return False  # its seq is the one it was asked at: not the last one seen
        if isinstance(message.get("seq"), int):
            self.last_seq = message["seq"]
        if kind == "welcome":
            self.connected = self.welcomed = True
            self.seat = message["seat"]
            self.table = message["table"]
            view = message["view"]
            self.obs = None
            if view is not None:
                self.rules = table_rules(message["table"])
                self.obs = observation(view, self.rules)
                self.history = list(self.obs.history)
            self.player.welcome(message, self.obs)
            self.resend = self.in_flight is not None
            return self._over()
        if kind == "event":
            assert self.rules is not None
            prev = self.obs
            if message.get("hand_result") is not None:
                self.history.append(hand_result(message["hand_result"], self.rules.joker_labels))
            self.obs = observation(message["view"], self.rules, self.history)
            self.player.event(message, prev, self.obs)
            return self._over()
        if kind == "ack":
            if self.in_flight is not None and message.get("id") == self.in_flight["id"]:
                self.in_flight = None
            return False
        if kind == "error":
            if message.get("code") == "unauthorized" or message.get("code") == "not_found":
                raise SeatLostError(message.get("message") or "the server refused the seat")
            if self.in_flight is not None and message.get("id") == self.in_flight["id"]:
                self.in_flight = None
                self.player.refused(message, self.obs)
            else:
                self.player.notice(message)
            return False
        if kind == "table":
            self.table = message["table"]
        self.player.notice(message)
        return False

    def _over(self) -> bool:
        return self.obs is not None and self.obs.phase == GAME_OVER
