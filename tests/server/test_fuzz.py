"""Fuzzed inputs (issue 28, point 5): the socket's messages, every HTTP body the server
reads and an uploaded house-rules file, drawn by hypothesis, bounded in time.

What must hold, whatever arrives: no server error (no 5xx, no traceback, no socket
dropped), no hang, and every refusal a problem body (HTTP: ``application/problem+json``
with its ``type``, ``title``, ``status`` and ``detail``, and ``field`` for an invalid
request) or an ``error`` message that the socket stays open after (docs/protocol.md).
The application runs in process (``TestClient``) on a SQLite file, its rate limits off
so that the examples are not refused for their number.
"""

from __future__ import annotations

import json
import os
import re
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from tricktaker.rules import presets
from tricktaker.server import create_app
from tricktaker.server.tables import messages as m

SCALE = float(os.environ.get("TRICKTAKER_FUZZ_SCALE", "1"))
"""How many times the examples below each fuzz test draws (a longer hunt, by hand:
``TRICKTAKER_FUZZ_SCALE=20``)."""


def examples(count: int) -> int:
    """``count`` examples, times :data:`SCALE`."""
    return max(1, round(count * SCALE))


FUZZ = settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)
"""Each fuzz test: a bounded number of examples, a few seconds in all."""

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=20)
    | st.sampled_from(["", "human", "random", "blackout", "hello", "action", "1", "-1"])
)
"""JSON scalars, the odd ones among them (huge integers, NaN, infinities)."""

JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
"""Any JSON value."""

SOCKET_CODES = {
    "bad_message",
    "too_large",
    "rate_limited",
    "unauthorized",
    "not_your_seat",
    "not_playing",
    "illegal",
    "not_allowed",
    "not_found",
    "unavailable",
    "hints_off",
    "not_your_turn",
}
"""The ``error`` codes docs/protocol.md lists."""


def as_text(value: Any) -> str:
    """``value`` as JSON text, NaN and infinities as Python's encoder writes them."""
    return json.dumps(value)


@pytest.fixture(scope="module")
def fuzz_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The application on a SQLite file, rate limits off, for the whole module."""
    folder = tmp_path_factory.mktemp("fuzz")
    app = create_app(f"sqlite:///{folder / 'fuzz.sqlite3'}", http_rate=None, socket_rate=None)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def check_answer(answer: Any) -> None:
    """An HTTP answer: never a server error; a refusal is a problem body."""
    assert answer.status_code < 500, (answer.status_code, answer.text[:2000])
    if answer.status_code < 400:
        return
    assert answer.headers["content-type"].startswith("application/problem+json"), answer.text
    body = answer.json()
    assert isinstance(body, dict), body
    assert body["status"] == answer.status_code, body
    assert {"type", "title", "detail"} <= set(body), body
    assert isinstance(body["detail"], str)
    assert body["detail"], body
    if answer.status_code == 422:  # an invalid request names the field, or the rule, at fault
        assert body.get("field") or body.get("rule"), body


# ------------------------------------------------------------ the socket's messages


@FUZZ
@given(value=JSON)
def test_the_message_parser_takes_any_json(value: Any) -> None:
    """The socket's parser (messages.CLIENT_MESSAGE) answers any JSON value with a
    client message or a ``ValidationError`` naming where it fails, nothing else."""
    try:
        message = m.CLIENT_MESSAGE.validate_python(value)
    except ValidationError as error:
        problems = error.errors()
        assert all("loc" in problem and problem["msg"] for problem in problems), problems
        return
    assert isinstance(
        message, m.Hello | m.ActionMessage | m.UndoMessage | m.HintMessage | m.ChatMessage | m.Ping
    )


MESSAGE_TYPES = st.sampled_from(["hello", "action", "undo", "hint", "chat", "ping", "pong", "x"])
"""The client's message types, and two it does not send."""

MESSAGE_FIELDS = st.sampled_from(
    ["type", "v", "token", "last_seq", "resume", "deltas", "event_acks", "id", "action", "text"]
)
"""Every field of a client message."""

MESSAGES = (
    st.builds(
        lambda kind, fields: {"type": kind, **fields},
        MESSAGE_TYPES,
        st.dictionaries(MESSAGE_FIELDS | st.text(max_size=6), JSON, max_size=4),
    )
    | JSON
)
"""Client messages: a type and fields drawn from the protocol's, or any JSON."""


def one_answer(socket: Any) -> dict[str, Any]:
    """The one message that answers what was just sent."""
    answer: dict[str, Any] = socket.receive_json()
    return answer


@FUZZ
@given(
    frames=st.lists(
        MESSAGES.map(as_text) | st.text(max_size=200) | st.binary(max_size=200), max_size=6
    )
)
def test_any_frame_on_the_socket_is_answered(fuzz_client: TestClient, frames: list[Any]) -> None:
    """Frames sent to a table's socket before any ``hello`` took (the table does not
    exist: a ``hello`` is answered ``not_found``): each text or binary frame, whatever
    it holds, is answered by one message, an ``error`` of a documented code or a
    ``pong``, and the socket stays open for the next."""
    with fuzz_client.websocket_connect("/tables/no-such-table/ws") as socket:
        for frame in [*frames, as_text({"type": "ping"})]:
            if isinstance(frame, bytes):
                socket.send_bytes(frame)
            else:
                socket.send_text(frame)
            answer = one_answer(socket)
            if answer["type"] == "pong":
                continue
            assert answer["type"] == "error", answer
            assert answer["code"] in SOCKET_CODES, answer
            assert answer["message"], answer
        assert answer["type"] == "pong"  # the last, a ping: still open


@pytest.fixture(scope="module")
def seated(fuzz_client: TestClient) -> dict[str, str]:
    """A started table of one person and three bots: its id and the person's token."""
    created = fuzz_client.post(
        "/tables",
        json={"game": "blackout", "seats": ["human", "random", "random", "random"], "host_seat": 0},
    )
    assert created.status_code == 201, created.text
    data = created.json()
    started = fuzz_client.post(
        f"/tables/{data['table']['id']}/start",
        headers={"Authorization": f"Bearer {data['host_token']}"},
    )
    assert started.status_code == 204, started.text
    return {"id": data["table"]["id"], "token": data["seat_token"]}


@FUZZ
@given(
    actions=st.lists(
        st.text(max_size=30) | st.sampled_from(["bid 1", "play AS", "play 10H"]),
        min_size=1,
        max_size=5,
    )
)
def test_any_action_text_from_a_seat_is_answered(
    fuzz_client: TestClient, seated: dict[str, str], actions: list[str]
) -> None:
    """A seated person sends actions of any text: each is answered (by its id) with an
    ``ack`` or an ``error`` of a documented code, and the socket stays open."""
    with fuzz_client.websocket_connect(f"/tables/{seated['id']}/ws") as socket:
        socket.send_text(as_text({"type": "hello", "v": 1, "token": seated["token"]}))
        while one_answer(socket)["type"] != "welcome":
            pass
        for number, text in enumerate(actions):
            action_id = f"fuzz-{number}"
            socket.send_text(as_text({"type": "action", "id": action_id, "action": text}))
            while True:
                answer = one_answer(socket)
                if answer.get("id") == action_id and answer["type"] in ("ack", "error"):
                    break
            if answer["type"] == "error":
                assert answer["code"] in SOCKET_CODES, answer


def test_a_malformed_action_is_answered_with_its_id(
    fuzz_client: TestClient, seated: dict[str, str]
) -> None:
    """Found by the fuzzing above: an action whose text is empty was answered by a
    ``bad_message`` without its id, so a client waiting for the answer to its id waited
    for ever. A refused message that carries a readable id is answered with it."""
    with fuzz_client.websocket_connect(f"/tables/{seated['id']}/ws") as socket:
        socket.send_text(as_text({"type": "hello", "v": 1, "token": seated["token"]}))
        while one_answer(socket)["type"] != "welcome":
            pass
        socket.send_text(as_text({"type": "action", "id": "empty", "action": ""}))
        answer = one_answer(socket)
        while answer["type"] != "error":
            answer = one_answer(socket)
        assert answer["id"] == "empty", answer
        assert answer["code"] == "bad_message", answer
        assert answer["field"] == "action", answer


# ------------------------------------------------------------ HTTP bodies


@pytest.fixture(scope="module")
def places(fuzz_client: TestClient) -> dict[str, Any]:
    """Real ids and tokens to put in the paths and headers (a table, a sheet), and a
    finished game's record."""
    client = fuzz_client
    table = client.post("/tables", json={"game": "blackout", "host_seat": 0}).json()
    sheet = client.post("/sheets", json={"game": "blackout", "players": ["A", "B", "C"]})
    assert sheet.status_code == 201, sheet.text
    played = client.post(
        "/tables", json={"game": "pluck", "options": {"hands": 1}, "seats": ["random"] * 3}
    ).json()
    played_id = played["table"]["id"]
    started = client.post(
        f"/tables/{played_id}/start", headers={"Authorization": f"Bearer {played['host_token']}"}
    )
    assert started.status_code == 204, started.text
    deadline = time.monotonic() + 60
    while client.get(f"/tables/{played_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not finish"
        time.sleep(0.05)
    duplicate = client.post("/duplicate", json={"game": "blackout", "players": 3})
    assert duplicate.status_code == 201, duplicate.text
    return {
        "table_id": table["table"]["id"],
        "set_id": duplicate.json()["set"]["id"],
        "game": "blackout",
        "host": table["host_token"],
        "invite": table["invite"],
        "sheet_id": sheet.json()["id"],
        "edit": sheet.json()["edit_token"],
        "record": client.get(f"/tables/{played_id}/record").json(),
    }


def valid_bodies(places: dict[str, Any]) -> dict[str, Any]:
    """A body each operation takes (by path template), for the fuzzing to change."""
    hand = {"bids": [1, 0, 0], "tricks": [1, 0, 0]}
    claim = {
        "seats": [{"id": places["table_id"], "token": places["host"]}],
        "hosts": [{"id": places["table_id"], "token": places["host"]}],
        "sheets": [{"id": places["sheet_id"], "token": places["edit"]}],
    }
    return {
        "/tables": {"game": "blackout", "seats": ["human", "random", "random"], "host_seat": 0},
        "/tables/{table_id}/join": {"invite": places["invite"], "name": "Fuzz", "seat": 1},
        "/tables/{table_id}/seats/{seat}/bot": {"bot": "random"},
        "/tables/{table_id}/review": {"seat": 0, "game": 1},
        "/api/replays/{replay_id}/review": {"seat": 0},
        "/sheets": {"game": "blackout", "players": ["A", "B", "C"], "first_dealer": "B"},
        "/sheets/import": {"sheet": {"game": "blackout", "players": ["A", "B"], "rows": []}},
        "/sheets/{sheet_id}/hands": hand,
        "/sheets/{sheet_id}/hands/{number}": hand,
        "/sheets/{sheet_id}/check": {"bids": [1, None, None]},
        "/sheets/{sheet_id}/undo": {"hand": 1},
        "/api/rulesets/check": {"toml": preset_text("blackout"), "players": 4},
        "/api/replays": places["record"],
        "/duplicate": {"game": "blackout", "players": 3, "seed": 5, "name": "Fuzz"},
        "/duplicate/{set_id}/tables": {"seats": ["human", "random", "random"], "host_seat": 0},
        "/duplicate/daily/{game}/play": {"name": "Fuzz"},
        "/api/signup": {"name": "fuzz_user", "password": "a fuzzed password", "claim": claim},
        "/api/login": {"name": "fuzz_user", "password": "a fuzzed password", "claim": claim},
        "/api/me/claim": claim,
        "/api/me/password": {
            "current_password": "a fuzzed password",
            "new_password": "another fuzzed password",
        },
        "/api/me/privacy": {"page": "public", "history": "clubs", "sheets": "private"},
        "/api/clubs": {"name": "Fuzz club", "game": "blackout", "players": 3},
        "/api/clubs/{club_id}/invites": {"days": 3},
        "/api/club-invites/{code}": {},
        "/api/clubs/{club_id}/evenings": {"day": "2026-01-02", "kind": "duplicate"},
        "/api/clubs/{club_id}/evenings/{evening_id}/tables": {"seats": ["human", "easy", "easy"]},
        "/api/clubs/{club_id}/evenings/{evening_id}/start": {"bot": "easy"},
        "/api/clubs/{club_id}/evenings/{evening_id}/sheets": {"players": ["A", "B", "C"]},
        "/api/clubs/{club_id}/tables/{table_id}/seat": {"seat": 1},
        "/api/clubs/{club_id}/tables/{table_id}/start": {"bot": "easy"},
    }


@st.composite
def changed(draw: Any, value: Any) -> Any:
    """``value`` with one of its parts, at any depth, replaced by any JSON, dropped,
    doubled, or a new key added."""
    if isinstance(value, dict) and value:
        key = draw(st.sampled_from([*sorted(value), None]))
        if key is None:
            return {**value, draw(st.text(max_size=6)): draw(JSON)}
        change = draw(st.sampled_from(["deeper", "deeper", "replace", "drop"]))
        new = dict(value)
        if change == "drop":
            del new[key]
        elif change == "replace":
            new[key] = draw(JSON)
        else:
            new[key] = draw(changed(value[key]))
        return new
    if isinstance(value, list) and value:
        index = draw(st.integers(min_value=0, max_value=len(value) - 1))
        change = draw(st.sampled_from(["deeper", "deeper", "replace", "drop", "double"]))
        items = list(value)
        if change == "drop":
            del items[index]
        elif change == "double":
            items.insert(index, items[index])
        elif change == "replace":
            items[index] = draw(JSON)
        else:
            items[index] = draw(changed(value[index]))
        return items
    return draw(JSON | st.sampled_from([0, -1, 2**64, "", None, [], {}]))


def writing_operations(client: TestClient) -> list[tuple[str, str, list[str]]]:
    """Every POST and PUT of ``/openapi.json``: method, path template, and the names of
    its JSON body's fields (empty: none known)."""
    schema = client.get("/openapi.json").json()
    found = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method not in ("post", "put"):
                continue
            content = operation.get("requestBody", {}).get("content", {})
            body = content.get("application/json", {}).get("schema", {})
            if "$ref" in body:
                body = schema["components"]["schemas"][body["$ref"].rsplit("/", 1)[1]]
            found.append((method.upper(), path, sorted(body.get("properties", {}))))
    return found


def test_every_writing_operation_is_fuzzed(fuzz_client: TestClient, places: dict[str, Any]) -> None:
    """Every POST and PUT the server has is fuzzed below, each from a body it takes."""
    paths = {path for _, path, _ in writing_operations(fuzz_client)}
    assert len(paths) >= 14
    assert paths - {"/tables/{table_id}/leave", "/tables/{table_id}/start", "/api/logout"} - {
        p for p in paths if p.endswith(("rematch", "edit-link"))
    } <= set(valid_bodies(places))


PATH_PARAMETER = re.compile(r"\{(\w+)\}")


def fill(path: str, places: dict[str, Any], draw: Any) -> str:
    """``path`` with its parameters filled: the real table's or sheet's id, or a drawn
    value (an unknown id, a number, any text)."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        real = places.get(name)
        choice = draw(st.sampled_from(["real", "number", "text"]))
        if choice == "real" and real is not None:
            return str(real)
        if choice == "number" or real is None:
            return str(draw(st.integers(min_value=-3, max_value=20)))
        return str(draw(st.text(alphabet="abcXYZ019-_", min_size=1, max_size=12)))

    return PATH_PARAMETER.sub(value, path)


@st.composite
def requests(
    draw: Any, operations: list[tuple[str, str, list[str]]], places: dict[str, Any]
) -> tuple[str, str, dict[str, str], bytes]:
    """A request to one of ``operations``: its path filled, a token or none, and a body
    of its own fields with any values, any JSON, or any bytes."""
    method, path, fields = draw(st.sampled_from(operations))
    url = fill(path, places, draw)
    token = draw(st.sampled_from([None, places["host"], places["edit"], "nonsense"]))
    headers = {"content-type": "application/json"}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    kind = draw(st.sampled_from(["changed", "changed", "changed", "fields", "json", "bytes"]))
    valid = valid_bodies(places).get(path)
    if kind == "changed" and valid is not None:
        body = valid
        for _ in range(draw(st.integers(min_value=1, max_value=3))):
            body = draw(changed(body))
        body = as_text(body).encode()
    elif kind == "bytes":
        body = draw(st.binary(max_size=300))
    elif kind == "json" or not fields:
        body = as_text(draw(JSON)).encode()
    else:
        keys = st.sampled_from(fields) | st.text(max_size=6)
        body = as_text(draw(st.dictionaries(keys, JSON, max_size=len(fields) + 1))).encode()
    return method, url, headers, body


@settings(FUZZ, max_examples=examples(250))
@given(data=st.data())
def test_any_body_of_any_writing_operation(
    fuzz_client: TestClient, places: dict[str, Any], data: st.DataObject
) -> None:
    """Every POST and PUT, given its own fields with any values, any JSON or any bytes,
    answers without a server error, and every refusal is a problem body (a 422 naming
    its field)."""
    operations = writing_operations(fuzz_client)
    method, url, headers, body = data.draw(requests(operations, places))
    check_answer(fuzz_client.request(method, url, headers=headers, content=body))
    fuzz_client.cookies.clear()  # a session a fuzzed sign-up made: the next request is a guest's


@pytest.mark.parametrize("body", [b"null", b"[]", b"3", b'"text"'])
def test_a_body_that_is_no_json_object_cannot_be_read(fuzz_client: TestClient, body: bytes) -> None:
    """Found by the fuzzing above: a body that is JSON but not an object (``null``) got a
    422 naming no field. docs/protocol.md, Errors: a body that cannot be read at all is
    a 400 ``bad-json``, as one that is not JSON."""
    answer = fuzz_client.post("/tables", content=body, headers={"content-type": "application/json"})
    check_answer(answer)
    assert answer.status_code == 400, answer.text
    assert answer.json()["type"].endswith("/bad-json")
    assert "JSON object" in answer.json()["detail"]


def test_an_unknown_game_names_the_game_field(fuzz_client: TestClient) -> None:
    """Found by the fuzzing above: a sheet or table of an unknown game (``""``) was refused
    without naming the field at fault; it names ``game``."""
    for path, body in [
        ("/sheets", {"game": "", "players": ["A", "B", "C"]}),
        ("/tables", {"game": "no such game"}),
    ]:
        answer = fuzz_client.post(path, json=body)
        check_answer(answer)
        assert answer.status_code == 422, answer.text
        assert answer.json()["field"] == "game", answer.json()


# ------------------------------------------------------------ house-rules files


def preset_text(game: str) -> str:
    """A shipped ruleset's TOML text."""
    return (Path(presets.__file__).parent / f"{game}.toml").read_text(encoding="utf-8")


def toml_value(value: Any) -> str:
    """``value`` written as a TOML value (a table inline)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value) if value == value and abs(value) != float("inf") else "nan"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        items = ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items())
        return "{" + items + "}"
    return '""'


TOML_VALUES = st.recursive(
    st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(["1..max", "deck // players", "0", "-1", "tricks + 10", "max..1", "1..0"]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
"""Values a house-rules file may hold in a field."""


def assignments(text: str) -> list[tuple[int, str]]:
    """The lines of a TOML file that set a value (``key = value``): number and key."""
    return [
        (number, line.split("=", 1)[0].strip())
        for number, line in enumerate(text.splitlines())
        if "=" in line and not line.lstrip().startswith(("#", "["))
    ]


GAMES = ["blackout", "pluck", "euchre", "buckup", "caller_clag", "bluke", "la_podrida"]
"""Shipped rulesets a house-rules file starts from."""


@st.composite
def house_rules(draw: Any) -> str:
    """A shipped ruleset's file with some of its values changed to any value, a line
    dropped, or a key added."""
    text = preset_text(draw(st.sampled_from(GAMES)))
    lines = text.splitlines()
    places = assignments(text)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        number, key = draw(st.sampled_from(places))
        change = draw(st.sampled_from(["value", "value", "drop", "add"]))
        if change == "value":
            lines[number] = f"{key} = {toml_value(draw(TOML_VALUES))}"
        elif change == "drop":
            lines[number] = ""
        else:
            lines[number] += f"\n{draw(st.text(alphabet='abcdefgh_', min_size=1, max_size=8))} = 1"
    return "\n".join(lines)


@settings(FUZZ, max_examples=examples(200))
@given(toml=house_rules() | st.text(max_size=200), players=st.none() | st.integers(-1, 12))
def test_any_house_rules_file(fuzz_client: TestClient, toml: str, players: int | None) -> None:
    """A house-rules file changed anyhow, uploaded to make a table and to the ruleset
    check: a table or a problem body naming the field at fault, and the check's answer
    (``ok`` or its errors), never a server error."""
    body: dict[str, Any] = {"ruleset_toml": toml}
    if players is not None:
        body["players"] = players
    check_answer(fuzz_client.post("/tables", json=body))
    checked = fuzz_client.post("/api/rulesets/check", json={"toml": toml, "players": players})
    check_answer(checked)
    if checked.status_code == 200:
        assert isinstance(checked.json()["ok"], bool), checked.json()
    try:
        tomllib.loads(toml)
    except tomllib.TOMLDecodeError:
        assert checked.status_code != 200 or not checked.json()["ok"]
