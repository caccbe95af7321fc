"""A request, and a whole table played by bots, leave no cyclic garbage in the server
(docs/deploy.md, Memory).

The server turns Python's automatic cyclic collector off and runs it rarely
(``tricktaker.server.collector``), so whatever a request leaves in reference cycles stays
in memory until then, with everything its frames held: ``bench/soak.py`` saw the
server's memory step up by tens of KB a table while Starlette's ``BaseHTTPMiddleware``
(``@app.middleware("http")``) ran every request in a task group of its own. The
application is called here as its ASGI server calls it, without a test client (which
makes cycles of its own), and the garbage is counted with the collector's
``DEBUG_SAVEALL``.
"""

from __future__ import annotations

import asyncio
import gc
from collections import Counter
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import orjson
from fastapi import FastAPI

from tricktaker.engine import GameRecord
from tricktaker.server.app import create_app

SHORT = 'extends = "blackout"\nid = "short_blackout"\nname = "Short"\n[schedule]\nsizes = "1..2"\n'
"""A game soon over: two short hands."""


async def call(
    app: FastAPI,
    method: str,
    path: str,
    body: dict[str, Any] | None = None,
    token: str | None = None,
) -> tuple[int, Any]:
    """One HTTP request to ``app`` as an ASGI server makes it: (status, JSON body)."""
    payload = orjson.dumps(body) if body is not None else b""
    headers = [(b"host", b"test"), (b"content-length", str(len(payload)).encode())]
    if body is not None:
        headers.append((b"content-type", b"application/json"))
    if token is not None:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("test", 80),
    }
    pending = [{"type": "http.request", "body": payload, "more_body": False}]
    sent: list[MutableMapping[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if pending:
            return pending.pop()
        await asyncio.Event().wait()  # the client stays until the answer is sent
        raise AssertionError("unreachable")

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    status = sent[0]["status"]
    data = b"".join(m.get("body", b"") for m in sent[1:])
    return status, orjson.loads(data) if data else None


async def bot_table(app: FastAPI) -> None:
    """A two-seat table of random bots, created, started, played to the end, its record
    fetched and replayed; and a few refusals."""
    status, created = await call(
        app, "POST", "/tables", {"ruleset_toml": SHORT, "seats": ["random", "random"]}
    )
    assert status == 201, created
    table = created["table"]["id"]
    status, _ = await call(app, "POST", f"/tables/{table}/start", token=created["host_token"])
    assert status == 204
    for _ in range(500):
        status, seen = await call(app, "GET", f"/tables/{table}")
        if seen["status"] == "finished":
            break
        await asyncio.sleep(0.01)
    else:
        raise AssertionError(f"table {table} did not finish")
    status, record = await call(app, "GET", f"/tables/{table}/record")
    assert status == 200
    GameRecord.from_json(record).replay()
    assert (await call(app, "GET", "/tables/no-such-table"))[0] == 404
    assert (await call(app, "POST", "/tables", {"game": "blackout", "seats": 5}))[0] == 422
    assert (await call(app, "GET", "/api/games"))[0] == 200


def test_requests_and_bot_tables_leave_no_reference_cycles(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'server.sqlite3'}", http_rate=None)
    garbage: Counter[str] = Counter()

    async def run() -> None:
        async with app.router.lifespan_context(app):  # the server's collector is on
            await bot_table(app)  # warm up: what a first table loads stays
            gc.collect()
            for _ in range(8):
                await bot_table(app)
            gc.set_debug(gc.DEBUG_SAVEALL)
            try:
                gc.collect()
                garbage.update(type(thing).__qualname__ for thing in gc.garbage)
            finally:
                gc.set_debug(0)
                gc.garbage.clear()

    asyncio.run(run())
    assert not garbage, f"reference cycles left by 8 tables: {garbage.most_common(10)}"
