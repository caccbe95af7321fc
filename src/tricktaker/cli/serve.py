"""``tricktaker serve``: run the table server (needs the ``server`` extra)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .common import GameOptions, fail

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
            metavar="URL",
            help="The database: postgresql+psycopg://USER@HOST/NAME, or sqlite:///FILE"
            " (default: a SQLite file in your data folder).",
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
        typer.echo(f"Database: {path}")
    else:
        url = db
        typer.echo(f"Database: {url.split('@')[-1] if '@' in url else url}")
    try:
        if no_rate_limits:
            app = create_app(url, http_rate=None, socket_rate=None)
        else:
            app = create_app(url)
    except Exception as exc:  # a database that cannot be opened or upgraded
        fail(f"cannot open the database: {type(exc).__name__}: {exc}")
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"Serving on http://{shown}:{port}/  (API docs: http://{shown}:{port}/docs)")
    from .serve_table import loopback_base

    typer.echo(f"To play in a browser, open {loopback_base(host, port)}/")
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", ws_max_size=64 * 1024)
    if request is None:
        uvicorn.Server(config).run()
        return
    from .serve_table import serve_with_table

    serve_with_table(uvicorn.Server(config), loopback_base(host, port), request)
