"""The table server: several people and bots at one table, over HTTP and a WebSocket.

Needs the ``server`` extra (``pip install 'tricktaker[server]'``). Start it with
``tricktaker serve``, or build the ASGI application with :func:`create_app`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fastapi import FastAPI


def create_app(
    db_url: str,
    *,
    bot_workers: int = 2,
    migrate: bool = True,
    http_rate: float | None = 20.0,
    socket_rate: float | None = 50.0,
) -> FastAPI:
    """The server's ASGI application on the database at ``db_url``; see
    :func:`tricktaker.server.app.create_app`."""
    from tricktaker.server.app import create_app as build

    return build(
        db_url,
        bot_workers=bot_workers,
        migrate=migrate,
        http_rate=http_rate,
        socket_rate=socket_rate,
    )


__all__ = ["create_app"]
