"""Admitting a live-play socket: at most so many open at once from one client address
(docs/deploy.md, Limits); the next is accepted only to be closed at once with a reason
that says why."""

from __future__ import annotations

from fastapi import WebSocket

from tricktaker.server.limits import TOO_MANY_SOCKETS_CODE, AddressSockets
from tricktaker.server.tables.service import TableService
from tricktaker.server.tables.ws import QUEUE_LIMIT, RATE_PER_SECOND, serve_socket


async def serve_counted(
    service: TableService,
    socket: WebSocket,
    table_id: str,
    sockets: AddressSockets,
    *,
    rate: float | None = RATE_PER_SECOND,
    backlog: int = QUEUE_LIMIT,
) -> None:
    """Serve ``socket`` (:func:`~tricktaker.server.tables.ws.serve_socket`) if its address
    holds fewer than ``sockets.limit`` open; else close it (:data:`TOO_MANY_SOCKETS_CODE`,
    :meth:`AddressSockets.refusal`)."""
    address = socket.client.host if socket.client is not None else "?"
    if not sockets.enter(address):
        await socket.accept()
        await socket.close(code=TOO_MANY_SOCKETS_CODE, reason=sockets.refusal())
        return
    try:
        await serve_socket(service, socket, table_id, rate=rate, backlog=backlog)
    finally:
        sockets.leave(address)
