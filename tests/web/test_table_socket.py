"""The browser's table socket (src/tricktaker/web/static/table-socket.js) asks for views
as changes (protocol 1.1) and hands the page every event with its whole view: in a real
Chromium against the real server, it holds the very views a socket of whole views is
sent, event by event, over a whole game."""

from __future__ import annotations

import json
from typing import Any

from tests.server_process import ServerProcess
from tests.web.conftest import NewPage, create_table
from tests.web.table_helpers import start

WATCH = """async (tableId) => {
  const { TableSocket } = await import("/table-socket.js");
  const watch = (deltas) => {
    const got = { views: {}, frames: 0, changes: 0, over: false };
    const socket = new TableSocket(tableId, null, (message) => {
      if (message.type === "event") {
        got.views[message.seq] = JSON.stringify(message.view);
        if (message.view.phase === "game_over") got.over = true;
      }
    }, () => {});
    socket.deltas = deltas;
    socket.socket.addEventListener("message", (event) => {
      got.frames += 1;
      if (JSON.parse(event.data).delta !== undefined) got.changes += 1;
    });
    got.socket = socket;
    return got;
  };
  window.watched = { changes: watch(true), whole: watch(false) };
}"""

RESULT = """() => {
  const out = {};
  for (const [name, got] of Object.entries(window.watched)) {
    out[name] = { views: got.views, frames: got.frames, changes: got.changes, over: got.over,
                  deltas: got.socket.deltas };
  }
  return out;
}"""


def test_the_socket_of_changes_holds_the_whole_views(
    web_server: ServerProcess, new_page: NewPage
) -> None:
    """docs/protocol.md, Views as changes: the page's socket asks for changes and gives
    the page, after every event of a whole game, exactly the view a socket of whole
    views is sent."""
    made = create_table(
        web_server,
        game="caller_clag",
        options={"hands": 2},
        players=4,
        seats=["random", "random", "random", "random"],
        seed=5,
    )
    table_id = made["table"]["id"]
    page = new_page()
    page.goto(f"{web_server.url}/")
    page.evaluate(WATCH, table_id)
    page.wait_for_function("() => window.watched.changes.socket.greeted")
    page.wait_for_function("() => window.watched.whole.socket.greeted")
    start(web_server, table_id, made["host_token"])
    page.wait_for_function(
        "() => window.watched.changes.over && window.watched.whole.over", timeout=60_000
    )
    page.wait_for_timeout(300)
    got: dict[str, Any] = page.evaluate(RESULT)
    changes, whole = got["changes"], got["whole"]
    assert changes["deltas"] is True
    assert whole["deltas"] is False  # set off before its hello: it asked for whole views
    assert whole["changes"] == 0
    assert changes["changes"] > 0.8 * len(changes["views"])
    assert len(changes["views"]) > 20
    assert changes["views"].keys() == whole["views"].keys()
    for seq, view in whole["views"].items():
        assert json.loads(changes["views"][seq]) == json.loads(view), seq
