"""The server keeps its word (issue 28): each black-box point where the server and
``docs/protocol.md`` disagreed, checked from outside against a real ``tricktaker serve``
process over real sockets, on SQLite and on PostgreSQL.

One server process per database serves the whole module (a process start costs about
two seconds); each test makes its own tables, so none sees another's.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.server.helpers import Player, Table, make_table, start
from tests.server_process import ServerProcess, free_port
from tricktaker.server.app import HTTP_BURST, HTTP_RATE_PER_SECOND
from tricktaker.server.problems import MEDIA_TYPE
from tricktaker.server.tables.messages import (
    MAX_MESSAGE_BYTES,
    MAX_SOCKET_FRAME_BYTES,
    MAX_SOCKET_MESSAGE_BYTES,
)

PROTOCOL_DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"

ONE_HAND = """extends = "blackout"
id = "one_hand_blackout"
name = "Blackout, one hand of one card"

[schedule]
sizes = "1"
"""
"""A game over after one bid and one card a seat: a table soon finished."""


@pytest.fixture
def served(module_server: ServerProcess) -> ServerProcess:
    """A real ``tricktaker serve`` process (no rate limits) for the module, on a SQLite
    file or a database of the session's real PostgreSQL server (tests/server/conftest.py)."""
    return module_server


@pytest.fixture
def http(served: ServerProcess) -> Iterator[httpx.Client]:
    """An HTTP client of the module's server."""
    with httpx.Client(base_url=served.url, timeout=30) as client:
        yield client


def problem(answer: httpx.Response, status: int) -> dict[str, Any]:
    """The problem body of a refusal with ``status``, checked for its shape."""
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith(MEDIA_TYPE)
    body: dict[str, Any] = answer.json()
    assert {"type", "title", "status", "detail"} <= set(body)
    assert body["status"] == status
    return body


def seated(served: ServerProcess, http: httpx.Client, **body: Any) -> tuple[Table, Player]:
    """A table (``body`` as ``POST /tables`` takes it) and seat 0's player, welcomed."""
    table = make_table(http, **body)
    return table, Player(served.ws_url, table.id, table.tokens[0])


def still_usable(player: Player, seq: int) -> None:
    """The socket still answers (a ping gets its pong) and the table is at ``seq``."""
    player.send({"type": "ping"})
    assert player.until("pong")["seq"] == seq


def read_until_closed(player: Player) -> None:
    """Read what was sent before the socket's close (a presence...) until the close."""
    while True:
        player.receive(timeout=10)


BAD_FRAMES: list[tuple[str | bytes, str | None]] = [
    (b"\x81\x00binary", None),
    ("{not json", None),
    ("[1, 2]", None),
    ('"hello"', None),
    ('{"type": "shout"}', "type"),
    ('{"action": "bid 1", "id": "a"}', "type"),
    ('{"type": "action", "action": "bid 1"}', "id"),
    ('{"type": "action", "id": 5, "action": "bid 1"}', "id"),
    ('{"type": "action", "id": "a", "action": ["bid", 1]}', "action"),
    ('{"type": "chat", "text": ""}', "text"),
    ('{"type": "hello", "v": "one"}', "v"),
    ('{"type": "ping", "extra": 1}', "extra"),
]
"""Frames that are no protocol message, and the field each error must name (None: the
frame as a whole is at fault)."""


def test_every_bad_frame_gets_an_error_naming_its_field_and_changes_nothing(
    served: ServerProcess, http: httpx.Client
) -> None:
    """docs/protocol.md, Live play: "A refused message changes nothing and is answered
    by `error`" ... "`bad_message` (a binary frame, not JSON, not a JSON object, an
    unknown `type`, a missing field or one of the wrong type, an unknown field; `field`
    names the field at fault)" ... "After any of them the socket stays open and the
    table is as it was"."""
    table, player = seated(served, http, game="blackout", seats=["human", "human"])
    start(http, table)  # nobody acts but the people: the table waits for them
    player.until("welcome")
    before = http.get(f"/tables/{table.id}").json()
    for frame, field in BAD_FRAMES:
        player.socket.send(frame)
        error = player.until("error")
        assert error["code"] == "bad_message", (frame, error)
        assert error.get("field") == field, (frame, error)
        assert error["message"], frame
        still_usable(player, before["seq"])
    assert http.get(f"/tables/{table.id}").json() == before
    player.close()


def test_a_message_over_64_kib_gets_an_error_then_close_1009(
    served: ServerProcess, http: httpx.Client
) -> None:
    """docs/protocol.md, Live play: "`too_large` (over 16 KiB)" ... "A socket that sends
    a message over 64 KiB receives `too_large` and is closed with code 1009 (message too
    big); a message over 1 MiB is not read at all, so its socket is closed with code
    1009 at once, with no `error` before"."""
    _table, player = seated(served, http, game="blackout", seats=["human", "random"])
    player.socket.send(json.dumps({"type": "chat", "text": "x" * (MAX_MESSAGE_BYTES + 10)}))
    assert player.until("error")["code"] == "too_large"  # over 16 KiB: the socket stays
    still_usable(player, 0)
    player.socket.send(json.dumps({"type": "chat", "text": "x" * (MAX_SOCKET_MESSAGE_BYTES + 1)}))
    error = player.until("error")
    assert error["code"] == "too_large"
    assert str(MAX_SOCKET_MESSAGE_BYTES) in error["message"]
    with pytest.raises(ConnectionClosed) as closed:
        assert player.receive(timeout=10) is None  # nothing after the error but the close
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1009
    _table, huge = seated(served, http, game="blackout", seats=["human", "random"])
    # Only the frame's header, which says 2 MiB follow: the server must refuse on the
    # length alone. (Sending the 2 MiB too is a race: the server closes while they are
    # still coming, its kernel then resets the connection, and the close frame can be
    # lost on the way, as TCP does with unread data.)
    length = 2 * MAX_SOCKET_FRAME_BYTES
    huge.socket.socket.sendall(bytes([0x81, 0x80 | 127]) + length.to_bytes(8, "big") + b"mask")
    with pytest.raises(ConnectionClosed) as cut:
        read_until_closed(huge)
    assert cut.value.rcvd is not None
    assert cut.value.rcvd.code == 1009


def test_a_refused_action_id_may_be_sent_again_once_the_action_is_legal(
    served: ServerProcess, http: httpx.Client
) -> None:
    """docs/protocol.md, Live play: "A refused message changes nothing" ... "A refused
    action's id is not kept: the same id may be sent again, with the same action once it
    has become legal or with another, and is checked afresh (only an accepted action
    keeps its id, see below)"."""
    table, player = seated(
        served, http, game="blackout", seats=["human", "random", "random", "random"]
    )
    start(http, table)
    player.until("welcome")
    while not player.my_turn():
        player.receive()
    assert player.view is not None
    for card in player.view["hand"]:  # bidding: no card may be played yet
        refused = player.act(f"play {card}", f"card-{card}")
        assert (refused["type"], refused["code"]) == ("error", "illegal"), refused
    bid = player.view["legal_actions"][0]
    assert player.act("bid 99", "bid")["code"] == "illegal"
    assert player.act(bid, "bid")["type"] == "ack"  # the same id, another action
    while not (player.my_turn() and player.view["legal_actions"][0].startswith("play ")):
        player.receive()
    played = player.view["legal_actions"][0]
    accepted = player.act(played, f"card-{played.split()[1]}")
    assert accepted["type"] == "ack", accepted
    again = player.act(played, f"card-{played.split()[1]}")  # an accepted id: the same ack
    assert again == accepted
    player.close()


def test_http_refusals_have_the_documented_status(
    served: ServerProcess, http: httpx.Client
) -> None:
    """docs/protocol.md, Errors: "400 (a body that cannot be read at all: not JSON"
    ... "or none; `bad-json`, no `field`)" ... "404 (no such table, seat or game:
    `no-such-table`, `no-such-seat`, `no-such-game`), 409 (not possible now: the table is
    full, the seat is taken, the game started or is not over)" ... "422 (an invalid
    request or ruleset; `field` names the field, a query parameter's too, such as `game`
    for `record?game=0`)"."""
    table = make_table(http, game="blackout", seats=["human", "human", "random", "random"])
    garbled = http.post(
        f"/tables/{table.id}/join",
        content=b'{"invite": "x", "name": ',
        headers={"content-type": "application/json"},
    )
    body = problem(garbled, 400)
    assert body["type"].endswith("/bad-json")
    assert "JSON" in body["detail"]
    assert "field" not in body
    garbled = http.post(
        "/tables", content=b"\xff\xfe", headers={"content-type": "application/json"}
    )
    assert problem(garbled, 400)["type"].endswith("/bad-json")
    seat = http.post(
        f"/tables/{table.id}/join", json={"invite": table.invite, "name": "Z", "seat": 9}
    )
    assert problem(seat, 404)["type"].endswith("/no-such-seat")
    assert problem(http.get(f"/tables/{table.id}/record?game=99"), 404)["type"].endswith(
        "/no-such-game"
    )
    for garbage in ("-1", "0", "two"):
        refused = problem(http.get(f"/tables/{table.id}/record?game={garbage}"), 422)
        assert refused["field"] == "game", refused
    assert problem(http.get(f"/tables/{table.id}/record"), 409)["type"].endswith("/not-finished")
    assert problem(http.get("/tables/nothing-here/record?game=1"), 404)["type"].endswith(
        "/no-such-table"
    )


def test_an_action_when_no_game_is_played_is_not_playing(
    served: ServerProcess, http: httpx.Client
) -> None:
    """docs/protocol.md, Live play: "`not_playing` (no game is being played at the
    table: before the host starts it, or once it is over"."""
    table, player = seated(served, http, ruleset_toml=ONE_HAND, seats=["human", "random"])
    early = player.act("bid 0", "early")
    assert early["code"] == "not_playing", early
    start(http, table)
    player.until("welcome")
    turn = 0
    while not any(
        m["type"] == "table" and m["table"]["status"] == "finished" for m in player.messages
    ):
        if player.my_turn():
            assert player.view is not None
            answer = player.act(player.view["legal_actions"][0], f"a{turn}")
            assert answer["type"] == "ack", answer
            turn += 1
        else:
            player.receive()
    late = player.act("play AS", "late")
    assert late["code"] == "not_playing", late
    assert late.get("rule") is None
    player.close()


def test_a_seat_given_up_in_a_game_shows_its_bot_and_the_table_is_told(
    served: ServerProcess, http: httpx.Client
) -> None:
    """docs/protocol.md, Live play: "`presence`: a seat's state changed" ... "Every
    socket at the table receives it. A seat a person gives up during a game is
    `replaced`, its `bot` the table's `away_bot`: in the table's `seats` a `replaced`
    seat shows the bot that plays it, until someone takes the seat"."""
    table = make_table(
        http, game="blackout", seats=["human", "human", "random", "random"], away_bot="random"
    )
    people = [Player(served.ws_url, table.id, table.tokens[s]) for s in (0, 1)]
    watcher = Player(served.ws_url, table.id, None)
    start(http, table)
    for person in (*people, watcher):
        person.until("welcome")
    left = http.post(
        f"/tables/{table.id}/leave", headers={"Authorization": f"Bearer {table.tokens[0]}"}
    )
    assert left.status_code == 204, left.text
    for socket in (people[1], watcher):
        while True:
            message = socket.until("presence")
            if message["seat"] == 0:
                break
        assert message["state"] == "replaced", message
    seat = http.get(f"/tables/{table.id}").json()["seats"][0]
    assert (seat["state"], seat["bot"]) == ("replaced", "random"), seat
    for person in (*people, watcher):
        person.close()


def test_the_lobby_lists_every_player_count_a_game_accepts(http: httpx.Client) -> None:
    """docs/protocol.md, The browser client's routes: "`players`: every player count a
    table of the game may have, with some option (each option's `players_range` says the
    range with it turned from its default, when it changes it)" ... "`POST /tables` takes
    such a count with that option only"."""
    games = http.get("/api/games").json()
    widened = 0
    for game in games:
        low, high = game["players"]["min"], game["players"]["max"]
        for option in game["options"]:
            changed = option.get("players_range")
            if changed is None:
                continue
            widened += 1
            assert low <= changed["min"] <= changed["max"] <= high, (game["id"], option)
            value = not option["default"]
            made = http.post(
                "/tables",
                json={
                    "game": game["id"],
                    "players": changed["max"],
                    "options": {option["name"]: value},
                    "seats": ["random"] * changed["max"],
                },
            )
            assert made.status_code == 201, (game["id"], option["name"], made.text)
        top = http.post("/tables", json={"game": game["id"], "players": high + 1})
        assert top.status_code == 422, (game["id"], top.text)
    assert widened >= 1  # a shipped game has an option that widens its range
    buckup = next(g for g in games if g["id"] == "buckup")
    assert buckup["players"] == {"min": 4, "max": 9}


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[ServerProcess]:
    """A real server with its rate limits on (SQLite: the limits know no database)."""
    process = ServerProcess(
        f"sqlite:///{tmp_path / 'limited.sqlite3'}",
        free_port(),
        tmp_path / "server.log",
        rate_limits=True,
    )
    process.start()
    try:
        yield process
    finally:
        process.stop()


def test_the_http_rate_limit_is_the_documented_bucket_with_retry_after(
    limited: ServerProcess,
) -> None:
    """docs/protocol.md, Errors: "429 (more than 20 requests a second from one address,
    after a burst of 20: a token bucket; `Retry-After` says how many seconds to wait)"
    ... "The bucket holds 20 requests and fills at 20 a second: after a pause an address may
    send 20 requests at once, then 20 a second; a refused request takes nothing from
    it. The browser client's own files (`/`, `/app.js`...) are not counted"."""
    assert HTTP_RATE_PER_SECOND == 20
    assert HTTP_BURST == 20
    time.sleep(HTTP_BURST / HTTP_RATE_PER_SECOND + 0.2)  # the start's requests refilled
    with httpx.Client(base_url=limited.url, timeout=30) as http:
        began = time.monotonic()
        answers = [http.get("/api/bots") for _ in range(3 * int(HTTP_BURST))]
        spent = time.monotonic() - began
        page = [http.get(path).status_code for path in ("/", "/app.js", "/app.js")]
    passed = sum(a.status_code == 200 for a in answers)
    refused = [a for a in answers if a.status_code == 429]
    assert passed + len(refused) == len(answers)
    assert HTTP_BURST <= passed <= HTTP_BURST + math.ceil(spent * HTTP_RATE_PER_SECOND) + 1
    for answer in refused:
        assert problem(answer, 429)["type"].endswith("/rate-limited")
        wait = int(answer.headers["retry-after"])
        assert 1 <= wait <= math.ceil(1 / HTTP_RATE_PER_SECOND) + 1
    assert page == [200, 200, 200]  # the browser client's files are not counted


def test_each_test_here_quotes_the_doc() -> None:
    """Every sentence the tests of this module quote (between double quotes in their
    docstrings, ``...`` parting the pieces) is in docs/protocol.md as written."""
    doc = " ".join(PROTOCOL_DOC.read_text(encoding="utf-8").split())
    quoted = 0
    for name, test in globals().items():
        if not name.startswith("test_") or test.__doc__ is None:
            continue
        text = " ".join(test.__doc__.split())
        for quote in re.findall(r'"([^"]+)"', text):
            for piece in quote.split(" ... "):
                assert piece.strip(" .") in doc, (name, piece)
                quoted += 1
    assert quoted >= 10
