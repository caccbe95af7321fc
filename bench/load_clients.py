"""The clients of bench/server_load.py: people-like players on real WebSockets
(:class:`Client`), each holding its seat's view as the protocol says, and what they
measure (:class:`Stats`). Split from bench/server_load.py, unchanged."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed


@dataclass
class Stats:
    """What the clients saw in the measured window."""

    measuring: bool = False
    stopping: bool = False
    actions: int = 0
    own_ms: list[float] = field(default_factory=list)
    own_at: list[float] = field(default_factory=list)
    """When each of ``own_ms`` was measured (``time.perf_counter``), for ``--timeline``."""
    others_ms: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    games_finished: int = 0
    max_actions: int | None = None
    think_s: float = 0.0
    changes: bool = True
    """Clients ask for views as changes (protocol 1.1; ``--whole-views``: not)."""


@dataclass
class Table:
    """One table of the benchmark: its tokens and the send times of its actions."""

    id: str
    host_token: str
    invite: str
    tokens: dict[int, str] = field(default_factory=dict)
    sent_at: dict[int, float] = field(default_factory=dict)
    early: dict[int, list[float]] = field(default_factory=dict)
    seen: Counter[int] = field(default_factory=Counter)
    rematched: set[int] = field(default_factory=set)


def apply_changes(view: dict[str, Any], message: dict[str, Any]) -> None:
    """Apply an event's changes (protocol 1.1, docs/protocol.md, Views as changes) to the
    view held, in place: top-level keys replaced or removed, the ``present`` block's
    keys replaced, and its ``seats`` rows merged field by field when sent as an object."""
    for key in message["removed"]:
        view.pop(key, None)
    for key, value in message["delta"].items():
        block = view.get(key)
        if key == "present" and isinstance(block, dict):
            for part, now in value.items():
                if part == "seats" and isinstance(now, dict):
                    rows = block["seats"]
                    for seat, fields in now.items():
                        rows[int(seat)].update(fields)
                else:
                    block[part] = now
        else:
            view[key] = value


class Client:
    """One seat's WebSocket client: plays a random legal move whenever it is to act."""

    def __init__(self, table: Table, seat: int, stats: Stats, rng: random.Random) -> None:
        self.table = table
        self.seat = seat
        self.stats = stats
        self.rng = rng
        self.socket: ClientConnection | None = None
        self.view: dict[str, Any] | None = None
        self.inflight: tuple[str, str, float] | None = None
        self.count = 0
        self.changes = False
        """Whether the server sends this client its views as changes (protocol 1.1)."""
        self.event_acks = False
        """Whether its actions are answered by their events (protocol 1.2)."""

    async def open(self, ws_base: str) -> None:
        """Connect, say hello with the seat token, and wait for the welcome."""
        self.socket = await connect(
            f"{ws_base}/tables/{self.table.id}/ws",
            max_size=2**22,
            compression=None,
            open_timeout=60,
            ping_interval=None,
        )
        hello: dict[str, Any] = {"type": "hello", "v": 1, "token": self.table.tokens[self.seat]}
        asks: list[dict[str, Any]] = [{}]
        if self.stats.changes:  # protocol 1.2, then 1.1 for a server before 1.2
            asks[:0] = [{"deltas": True, "event_acks": True}, {"deltas": True}]
        for ask in asks:
            await self.socket.send(orjson.dumps({**hello, **ask}).decode())
            welcome = orjson.loads(await self.socket.recv())
            if welcome.get("type") == "welcome":
                break
        else:
            raise RuntimeError(f"expected a welcome, got {welcome}")
        self.changes = bool(ask.get("deltas"))
        self.event_acks = bool(ask.get("event_acks"))
        self.view = welcome.get("view")

    async def run(self, http: httpx.AsyncClient) -> None:
        """Read messages and act until the socket closes."""
        assert self.socket is not None
        try:
            async for raw in self.socket:
                await self.handle(orjson.loads(raw), http)
        except ConnectionClosed as closed:
            if not self.stats.stopping:
                code = closed.rcvd.code if closed.rcvd is not None else "none"
                self.stats.errors[f"socket closed ({code})"] += 1
        except Exception as exc:  # a bug of the client: count it, never hide it
            self.stats.errors[f"client {type(exc).__name__}: {exc}"[:120]] += 1

    async def handle(self, message: dict[str, Any], http: httpx.AsyncClient) -> None:
        now = time.perf_counter()
        kind = message.get("type")
        stats = self.stats
        if kind == "event":
            if "delta" in message:
                assert self.view is not None
                apply_changes(self.view, message)
            else:
                self.view = message["view"]
            actor = message.get("actor")
            seq = int(message["seq"])
            if isinstance(actor, int) and message.get("chance") is None:
                self.timed(actor, seq, message.get("action"), now)
            if "id" in message:  # protocol 1.2: the event is the action's ack
                self.acked(message["id"])
            if self.view is not None and self.view.get("phase") == "game_over":
                await self.rematch(int(message["game_number"]), http)
        elif kind == "ack":
            self.acked(message.get("id"))
        elif kind == "error":
            if self.inflight is not None and message.get("id") == self.inflight[0]:
                self.inflight = None
            if stats.measuring or message.get("code") != "not_playing":
                stats.errors[f"error:{message.get('code')}"] += 1
        elif kind == "welcome":
            self.view = message.get("view")
            if self.inflight is not None and self.inflight[0] != "thinking":
                self.inflight = None
        await self.maybe_act()

    def acked(self, ident: object) -> None:
        """The action ``ident`` was accepted: count it (once measuring)."""
        stats = self.stats
        if self.inflight is not None and ident == self.inflight[0]:
            self.inflight = None
            if stats.measuring:
                stats.actions += 1
                if stats.max_actions is not None and stats.actions >= stats.max_actions:
                    stats.stopping = True

    def timed(self, actor: int, seq: int, action: str | None, now: float) -> None:
        """Record the latency of the action event ``seq`` as this client saw it."""
        table, stats = self.table, self.stats
        if actor == self.seat:
            if self.inflight is None or action != self.inflight[1]:
                return
            sent = self.inflight[2]
            if stats.measuring:
                stats.own_ms.append((now - sent) * 1000)
                stats.own_at.append(now)
                for arrived in table.early.pop(seq, []):
                    stats.others_ms.append((arrived - sent) * 1000)
            else:
                table.early.pop(seq, None)
            if table.seen[seq] < 3:
                table.sent_at[seq] = sent
            else:
                table.seen.pop(seq, None)
            return
        table.seen[seq] += 1
        sent_at = table.sent_at.get(seq)
        if sent_at is None:
            table.early.setdefault(seq, []).append(now)
        elif stats.measuring:
            stats.others_ms.append((now - sent_at) * 1000)
        if table.seen[seq] >= 3 and sent_at is not None:
            table.seen.pop(seq, None)
            table.sent_at.pop(seq, None)

    def may_act(self) -> bool:
        """Whether this seat is to act, with no action of its own in flight."""
        view = self.view
        if self.stats.stopping or self.inflight is not None or view is None:
            return False
        return self.seat in (view.get("to_act") or []) and bool(view.get("legal_actions"))

    async def maybe_act(self) -> None:
        """Send a random legal action if this seat is to act and none is in flight
        (after a think time, with ``--think-ms``)."""
        if not self.may_act():
            return
        if self.stats.think_s > 0:
            self.inflight = ("thinking", "", 0.0)
            asyncio.get_running_loop().create_task(self.act_later())
            return
        await self.send_action()

    async def act_later(self) -> None:
        """Think (uniformly 0 to twice the mean think time), then act on the view."""
        await asyncio.sleep(self.rng.uniform(0, 2 * self.stats.think_s))
        self.inflight = None
        if self.may_act():
            with contextlib.suppress(ConnectionClosed):
                await self.send_action()

    async def send_action(self) -> None:
        """Send a random legal action of the current view."""
        assert self.view is not None
        legal = self.view["legal_actions"]
        self.count += 1
        action = self.rng.choice(legal)
        ident = f"s{self.seat}-{self.count}"
        self.inflight = (ident, action, time.perf_counter())
        assert self.socket is not None
        message = {"type": "action", "id": ident, "action": action}
        await self.socket.send(orjson.dumps(message).decode())

    async def rematch(self, game_number: int, http: httpx.AsyncClient) -> None:
        """The host's client asks for a rematch once a game is over."""
        if self.seat != 0 or game_number in self.table.rematched or self.stats.stopping:
            return
        self.table.rematched.add(game_number)
        self.stats.games_finished += 1
        answer = await http.post(
            f"/tables/{self.table.id}/rematch",
            headers={"Authorization": f"Bearer {self.table.host_token}"},
        )
        if answer.status_code != 204:
            self.stats.errors[f"rematch:{answer.status_code}"] += 1


async def make_table(http: httpx.AsyncClient, game: str, seed: int) -> Table:
    """A table of four human seats: the host sits at seat 0, three people join."""
    answer = await http.post(
        "/tables",
        json={
            "game": game,
            "players": 4,
            "seats": ["human"] * 4,
            "host_seat": 0,
            "name": "Host",
            "public": False,
            "seed": seed,
        },
    )
    answer.raise_for_status()
    data = answer.json()
    table = Table(data["table"]["id"], data["host_token"], data["invite"])
    table.tokens[0] = data["seat_token"]
    for seat in (1, 2, 3):
        joined = await http.post(
            f"/tables/{table.id}/join",
            json={"invite": table.invite, "name": f"P{seat}", "seat": seat},
        )
        joined.raise_for_status()
        table.tokens[seat] = joined.json()["seat_token"]
    return table
