"""The limits on every HTTP request, before its route: the size of its body and the
requests one address may make a second (docs/protocol.md, Errors; docs/deploy.md,
Limits).

This is plain ASGI middleware, not Starlette's ``BaseHTTPMiddleware`` (what
``@app.middleware("http")`` makes): that one runs each request's route in a task group
of its own and cancels it at the end, which leaves some 40 objects in reference cycles
a request (frames, tracebacks, a ``CancelledError``, the task group's scopes) holding
the request's locals until the next whole collection; ``bench/soak.py`` saw them pile
up to tens of KB a table. Here a request that passes the limits goes on to the
application with nothing around it.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping
from typing import Any

from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tricktaker.server.deps import MAX_BODY_BYTES, RateLimits
from tricktaker.server.problems import MEDIA_TYPE, problem

_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
"""The methods whose request may carry a body sent in chunks, without a length."""


def problem_response(
    status: int, body: dict[str, Any], headers: Mapping[str, str] | None = None
) -> JSONResponse:
    """An RFC 9457 problem body as a response."""
    return JSONResponse(body, status_code=status, media_type=MEDIA_TYPE, headers=headers)


class RequestLimits:
    """ASGI middleware: a request whose body is over its limit is answered 413, one
    over its address's rate 429 with ``Retry-After``, before it reaches ``app``.

    ``body_limits`` maps (method, path) to the bytes a body may have where that is not
    :data:`~tricktaker.server.deps.MAX_BODY_BYTES`; ``buckets`` counts each address's
    requests (None: no rate limit); ``exempt`` are paths a ``GET`` or ``HEAD`` of which is
    not counted (the browser client's files: a page's first load asks for all of them
    at once)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        body_limits: Mapping[tuple[str, str], int],
        buckets: RateLimits | None,
        exempt: Collection[str],
    ) -> None:
        self.app = app
        self.body_limits = body_limits
        self.buckets = buckets
        self.exempt = exempt

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method: str = scope["method"]
        path: str = scope["path"]
        limit = self.body_limits.get((method, path), MAX_BODY_BYTES)
        size = Headers(scope=scope).get("content-length")
        if size is not None and (not size.isdigit() or int(size) > limit):
            await self._too_large(limit)(scope, receive, send)
            return
        if size is None and method in _BODY_METHODS:
            # A body sent in chunks, without a length: read it up to the limit here,
            # and hand what was read on as one message.
            read = await _read_body(receive, limit)
            if read is None:
                await self._too_large(limit)(scope, receive, send)
                return
            receive = _replay(read, receive)
        refused = self._rate_refusal(scope, method, path)
        if refused is not None:
            await refused(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _rate_refusal(self, scope: Scope, method: str, path: str) -> JSONResponse | None:
        """The 429 answer to a request over its address's rate (None: it may pass)."""
        buckets = self.buckets
        if buckets is None or (method in ("GET", "HEAD") and path in self.exempt):
            return None
        client = scope.get("client")
        address = client[0] if client else "?"
        if buckets.take(address, time.monotonic()):
            return None
        wait = buckets.retry_after(address)
        return problem_response(
            429,
            problem(429, "rate-limited", f"Too many requests: try again in {wait} s."),
            {"Retry-After": str(wait)},
        )

    @staticmethod
    def _too_large(limit: int) -> JSONResponse:
        return problem_response(
            413, problem(413, "too-large", f"A request may be at most {limit} bytes.")
        )


async def _read_body(receive: Receive, limit: int) -> Message | None:
    """The whole request body as one ``http.request`` message, read from ``receive``
    (None: it is over ``limit`` bytes; what is left of it is not read)."""
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] != "http.request":  # the client went: hand that on
            return message
        body += message.get("body", b"")
        if len(body) > limit:
            return None
        if not message.get("more_body", False):
            return {"type": "http.request", "body": bytes(body), "more_body": False}


def _replay(first: Message, receive: Receive) -> Receive:
    """``receive``, after it gave ``first`` once."""
    pending: list[Message] = [first]

    async def replayed() -> Message:
        if pending:
            return pending.pop()
        return await receive()

    return replayed
