"""The browser harness itself: Debian's Chromium reaches the real server on loopback."""

from __future__ import annotations

from tests.server_process import ServerProcess
from tests.web.conftest import NewPage, create_table


def test_chromium_reaches_the_real_server(web_server: ServerProcess, new_page: NewPage) -> None:
    """A table made over HTTP is listed by the server to a real browser page."""
    table = create_table(web_server, game="blackout", players=3, seats=["human", "easy", "easy"])
    page = new_page()
    reply = page.goto(f"{web_server.url}/tables")
    assert reply is not None
    assert reply.status == 200
    assert table["table"]["id"] in page.content()
