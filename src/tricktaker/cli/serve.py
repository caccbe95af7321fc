"""``tricktaker serve``: run the table server (needs the ``server`` extra)."""

from __future__ import annotations

import errno
import socket
from pathlib import Path
from typing import Annotated

import typer

from .common import GameOptions, fail

DB_EXAMPLES = (
    "--db takes a SQLite file (--db games.sqlite3, --db sqlite:///path/to/games.sqlite3)"
    " or a PostgreSQL URL (--db postgresql://USER:PASSWORD@HOST/NAME)"
)

INSTALL_HINT = (
    "the table server needs the server extra: pip install 'tricktaker[server]'"
    " (in a checkout: pip install -e '.[server]')"
)


def default_db_url() -> tuple[str, Path]:
    """The SQLite database in the user's data folder, and its path."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("tricktaker"))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "server.sqlite3"
    return f"sqlite:///{path}", path


def database_url(db: str) -> tuple[str, str]:
    """The database URL for ``--db`` and how to show it: a ``sqlite:`` or ``postgresql``
    URL (``postgresql://`` and ``postgres://`` with the server's driver, psycopg; shown
    without user and password), else a path to a SQLite file (made if missing, in a
    folder that exists). A clear error (exit 2) for anything else."""
    text = db.strip()
    if "://" in text:
        scheme = text.split("://", 1)[0].lower()
        if scheme in ("postgres", "postgresql"):  # the server's driver is psycopg (3)
            text, scheme = "postgresql+psycopg" + text[len(scheme) :], "postgresql+psycopg"
        if scheme.split("+")[0] in ("sqlite", "postgresql"):
            return text, text.split("@")[-1] if "@" in text else text
    if "://" in text or not text:
        fail(f"--db {db!r} is no database this server can use: {DB_EXAMPLES}")
    path = Path(text).expanduser().resolve()
    if path.is_dir():
        fail(f"--db {db}: that is a folder; give a file in it, e.g. --db {path / 'games.sqlite3'}")
    if not path.parent.is_dir():
        fail(f"--db {db}: the folder {path.parent} does not exist")
    return f"sqlite:///{path}", str(path)


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` for the server, before anything is announced; a
    clear error (exit 2) for a port in use or an address that cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET  # as uvicorn chooses
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if isinstance(exc, socket.gaierror):
            fail(f"--host {host}: no such address here ({exc.strerror})")
        if exc.errno == errno.EADDRINUSE:
            fail(
                f"port {port} on {host} is in use (another server?):"
                f" choose another with --port N (make serve PORT=N)"
            )
        if exc.errno == errno.EACCES:
            fail(f"port {port} on {host} needs more rights: choose a port above 1023 with --port N")
        fail(f"cannot listen on port {port} of {host}: {exc.strerror or exc}")
    return sock


def serve(
    host: Annotated[
        str, typer.Option("--host", help="The address to listen on.", metavar="HOST")
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", help="The port to listen on.", metavar="PORT")
    ] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            metavar="DB",
            help="The database: a SQLite file (a path, or sqlite:///FILE) or a PostgreSQL URL,"
            " postgresql://USER@HOST/NAME (default: a SQLite file in your data folder).",
        ),
    ] = None,
    no_rate_limits: Annotated[
        bool,
        typer.Option(
            "--no-rate-limits",
            help="Turn off the per-address HTTP and per-socket message rate limits"
            " (for load benchmarks on the loopback address; never on a public server).",
        ),
    ] = False,
    compress_sockets: Annotated[
        bool,
        typer.Option(
            "--compress-sockets",
            help="Offer WebSocket compression (permessage-deflate) to clients: a fifth of"
            " the bytes on the wire, for about 50 KB of the server's memory a socket.",
        ),
    ] = False,
    table: Annotated[
        str | None,
        typer.Option(
            "--table",
            metavar="GAME",
            help="Make a table of this game (an id or a house-rules .toml file), print the"
            " command that takes each human seat, and start the game once they are taken.",
        ),
    ] = None,
    players: Annotated[
        int | None,
        typer.Option("--players", metavar="N", help="The table's players (with --table)."),
    ] = None,
    seats: Annotated[
        str | None,
        typer.Option(
            "--seats",
            metavar="KINDS",
            help="Each seat, with --table: human or a bot, e.g. human,easy,easy,easy"
            " (default: one human seat, easy bots in the others).",
        ),
    ] = None,
    option: GameOptions = None,
) -> None:
    """Run the table server: tables with seats, bots and spectators, over HTTP and WebSockets."""
    try:
        import uvicorn

        from tricktaker.server import create_app
    except ImportError:
        fail(INSTALL_HINT)
    if not 0 < port < 65536:
        fail(f"--port must be 1 to 65535, not {port}")
    if table is None and (players is not None or seats is not None or option):
        fail("--players, --seats and --option go with --table GAME")
    request = None
    if table is not None:
        from .serve_table import table_request

        request = table_request(table, players, seats, option)
    if db is None:
        url, path = default_db_url()
        where = str(path)
    else:
        url, where = database_url(db)
    from tricktaker.server.tables.leases import SecondProcessError, serve_alone

    try:  # SQLite is served by one process (docs/deploy.md, Several processes)
        alone = serve_alone(url)  # held while this process serves
    except SecondProcessError as exc:
        fail(str(exc))
    sock = listening_socket(host, port)
    try:
        if no_rate_limits:
            app = create_app(url, http_rate=None, socket_rate=None)
        else:
            app = create_app(url)
    except Exception as exc:  # a database that cannot be opened or upgraded
        sock.close()
        from sqlalchemy.exc import ArgumentError

        if isinstance(exc, ArgumentError):
            fail(f"--db {db!r} is no database this server can use: {DB_EXAMPLES}")
        fail(f"cannot open the database {where}: {type(exc).__name__}: {exc}")
    typer.echo(f"Database: {where}")
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"Serving on http://{shown}:{port}/  (API docs: http://{shown}:{port}/docs)")
    from .serve_table import loopback_base

    typer.echo(
        f"To play in a browser, open {loopback_base(host, port)}/  (Ctrl-C stops the server)"
    )
    from tricktaker.server.tables.messages import MAX_SOCKET_FRAME_BYTES

    # The server reads messages up to 1 MiB, to answer one over 64 KiB before closing.
    # No WebSocket compression unless asked for (docs/deploy.md, Memory): each socket's
    # compressor holds about 50 KB, which stays after the socket closes until a whole
    # garbage collection.
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws_max_size=MAX_SOCKET_FRAME_BYTES,
        ws_per_message_deflate=compress_sockets,
    )
    try:
        if request is None:
            uvicorn.Server(config).run(sockets=[sock])
            return
        from .serve_table import serve_with_table

        serve_with_table(uvicorn.Server(config), loopback_base(host, port), request, sock)
    finally:
        if alone is not None:
            alone.close()
