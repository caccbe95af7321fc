"""Chat at a table: a seated player's line stored, told to the table's sockets here and
to other processes' (docs/protocol.md, Chat); at most 5 lines in 10 seconds a seat."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from tricktaker.server.tables import messages as m
from tricktaker.server.tables import store
from tricktaker.server.tables.live import subscriber_gone
from tricktaker.server.tables.views import Json, seat_names_of

if TYPE_CHECKING:
    from tricktaker.server.tables.live import Live
    from tricktaker.server.tables.service import TableService

CHAT_LINES = 5
"""The most chat lines a seat may send in :data:`CHAT_SECONDS`."""
CHAT_SECONDS = 10.0


async def say(
    service: TableService, live: Live, seat: int | None, text: str
) -> dict[str, Json] | None:
    """Store and send a chat message; an error message if the sender holds no seat or
    is too fast."""
    now = asyncio.get_running_loop().time()
    if seat is None or subscriber_gone(live, seat):
        return m.Error(code="not_your_seat", message="Only seated players chat.").model_dump()
    times = [t for t in live.chat_times.get(seat, []) if now - t < CHAT_SECONDS]
    if len(times) >= CHAT_LINES:
        return m.Error(
            code="rate_limited", message="Too many chat messages: at most 5 in 10 seconds."
        ).model_dump()
    times.append(now)
    live.chat_times[seat] = times
    name = seat_names_of(live)[seat]
    at = await service.db(store.add_chat, live.data.id, seat, name, text)
    line = m.ChatLine(seat=seat, name=name, text=text, at=at)
    live.chat.append(line)
    message = m.Chat(seq=live.data.seq, line=line).model_dump()
    for sub in list(live.subscribers):
        sub.push(message)
    service.leases.say(live.data.id, live.data.seq, message)  # other processes' sockets
    return None
