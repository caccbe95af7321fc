"""``tricktaker serve --table GAME``: the server makes one table through its own HTTP API,
prints the command that takes each human seat, and starts the game as its host once
every human seat is taken."""

from __future__ import annotations

import json
import socket
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typer

from .common import command, default_players, fail, load_rules, parse_options, user_errors

POLL_SECONDS = 0.5
"""How often the host looks at the table while it waits for people."""


@dataclass
class TableRequest:
    """The table ``serve`` makes: the ``POST /tables`` body."""

    body: dict[str, Any]


@dataclass
class HostOutcome:
    """What the host thread reports back: a problem that stops the server, if any."""

    error: str | None = None
    done: threading.Event = field(default_factory=threading.Event)


def table_request(
    table: str, players: int | None, seats: str | None, options: list[str] | None
) -> TableRequest:
    """The ``POST /tables`` body for ``--table``, ``--players``, ``--seats`` and ``--option``;
    a clear error (exit 2) for a house-rules file that cannot be read or a malformed option.

    Without ``--seats`` the first seat is a person's and the others ``easy`` bots."""
    body: dict[str, Any] = {"options": parse_options(options)}
    path = Path(table)
    if table.endswith(".toml") or path.is_file():
        try:
            body["ruleset_toml"] = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            fail(f"cannot read the house-rules file {table}: {exc}")
    else:
        body["game"] = table
    if players is not None:
        body["players"] = players
    if seats is not None:
        kinds = [kind.strip() for kind in seats.split(",")]
        if not all(kinds):
            fail(f"--seats expects kinds separated by commas, like human,easy,easy; not {seats!r}")
        body["seats"] = kinds
    else:
        count = players
        if count is None:
            with user_errors():
                count = default_players(load_rules(table, options))
        body["seats"] = ["human"] + ["easy"] * (count - 1)
    return TableRequest(body)


def loopback_base(host: str, port: int) -> str:
    """The server's own address as seen from this machine: a wildcard becomes loopback."""
    if host in ("", "0.0.0.0"):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def _call(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """One request to the server; its JSON answer, or ``RuntimeError(detail)`` for a problem."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            text = answer.read()
    except urllib.error.HTTPError as exc:
        try:
            detail = json.loads(exc.read()).get("detail")
        except (ValueError, AttributeError):
            detail = None
        if not isinstance(detail, str):
            detail = json.dumps(detail) if detail is not None else f"HTTP {exc.code}"
        raise RuntimeError(detail) from None
    return json.loads(text) if text else None


def host_table(
    base: str, request: TableRequest, outcome: HostOutcome, stop: threading.Event
) -> None:
    """Make the table, print the join commands, and start the game when every human seat
    is taken. A problem making the table is put in ``outcome.error``."""
    try:
        made = _call(base, "POST", "/tables", request.body)
    except (RuntimeError, OSError) as exc:
        outcome.error = str(exc)
        outcome.done.set()
        return
    outcome.done.set()
    table, invite, token = made["table"]["id"], made["invite"], made["host_token"]
    humans = [s["seat"] for s in made["table"]["seats"] if s["kind"] == "human"]
    typer.echo(f"Table {table}: {made['table']['game']}, {made['table']['players']} players")
    link = f"{base}/tables/{table}?invite={invite}"
    if humans:
        typer.echo("To take a seat, run in a terminal:")
    for seat in humans:
        typer.echo(f"  seat {seat + 1}: {command('join', link, '--seat', str(seat + 1))}")
    if humans:
        typer.echo("The game starts as soon as every human seat is taken.")
    while not stop.is_set():
        try:
            info = _call(base, "GET", f"/tables/{table}")
            if info["status"] != "waiting":
                return
            if all(info["seats"][s]["state"] != "free" for s in humans):
                _call(base, "POST", f"/tables/{table}/start", token=token)
                typer.echo("All seats taken: the game has started")
                return
        except (RuntimeError, OSError) as exc:
            typer.echo(f"Waiting for the table: {exc}", err=True)
        stop.wait(POLL_SECONDS)


def serve_with_table(
    server: Any, base: str, request: TableRequest, sock: socket.socket | None = None
) -> None:
    """Run the ``uvicorn.Server`` ``server`` (on ``sock`` when given); once it is up, host
    the table. Exits with status 2 and the server's ``detail`` if the table cannot be
    made."""
    outcome = HostOutcome()
    stop = threading.Event()

    def host() -> None:
        while not server.started:
            if stop.wait(0.05):
                return
        host_table(base, request, outcome, stop)
        if outcome.error is not None:
            server.should_exit = True

    thread = threading.Thread(target=host, name="tricktaker-host", daemon=True)
    thread.start()
    try:
        server.run(sockets=None if sock is None else [sock])
    finally:
        stop.set()
    if outcome.error is not None:
        fail(outcome.error)
