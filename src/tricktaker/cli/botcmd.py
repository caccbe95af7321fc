"""``tricktaker bot URL --bots hard``: one of our bots takes a seat of a remote table.

The bot joins a free seat with the invite link (or comes back to a seat with
``--token``), plays until the game ends and prints one line per hand and the result.
Its thinking runs in a thread, so the socket keeps answering while it thinks.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .common import BOTS_HELP, FAILURE, INTERRUPTED, fail

if TYPE_CHECKING:
    from tricktaker.bots import Bot
    from tricktaker.client.links import TableLink
    from tricktaker.client.session import SeatPlayer
    from tricktaker.engine import Observation

CLIENT_HINT = (
    "playing at a remote table needs the websockets library, part of the server extra:"
    " pip install 'tricktaker[server]' (in a checkout: pip install -e '.[server]')"
)

InviteUrl = Annotated[
    str,
    typer.Argument(
        metavar="URL",
        help="The table's invite link, http://HOST:PORT/tables/ID?invite=CODE.",
        show_default=False,
    ),
]
"""The ``URL`` argument of ``tricktaker join`` and ``tricktaker bot``."""

SeatOption = Annotated[
    int | None,
    typer.Option(
        "--seat",
        metavar="K",
        help="The seat to take, numbered from 1 (default: a free one).",
        show_default=False,
    ),
]
"""The ``--seat`` option of ``tricktaker join`` and ``tricktaker bot``."""


def remote_link(url: str) -> TableLink:
    """The table an invite link names; a player-facing error when the websockets library
    is missing or the link is malformed."""
    try:
        import websockets  # noqa: F401
    except ImportError:
        fail(CLIENT_HINT)
    from tricktaker.client.links import LinkError, parse_link

    try:
        return parse_link(url)
    except LinkError as exc:
        fail(str(exc))


def bot_player(bot: Bot, *, quiet: bool = False) -> SeatPlayer:
    """A :class:`~tricktaker.client.session.SeatPlayer` that asks ``bot`` (in a thread)."""
    from tricktaker.client.session import SeatPlayer

    class BotPlayer(SeatPlayer):
        lost = False
        seat: int | None = None

        async def decide(self, obs: Observation) -> str | None:
            action = await asyncio.to_thread(bot.act, obs)
            return action.text(labels=obs.rules.joker_labels)

        def welcome(self, message: dict[str, Any], obs: Observation | None) -> None:
            self.seat = message["seat"]
            if self.lost:
                self.lost = False
                typer.echo("Reconnected.", err=True)
            if not quiet and self.seat is not None:
                table = message["table"]
                where = f"seat {self.seat + 1} of table {table['id']} ({table['game']})"
                state = "" if obs is not None else ", waiting for the host to start"
                typer.echo(f"Seated at {where}{state}.")

        def event(
            self, message: dict[str, Any], prev: Observation | None, obs: Observation
        ) -> None:
            result = message.get("hand_result")
            if result is not None and not quiet:
                typer.echo(f"Hand {result['hand']}: scores {', '.join(map(str, obs.scores))}.")

        def refused(self, error: dict[str, Any], obs: Observation | None) -> None:
            typer.echo(f"Refused: {error.get('message')}", err=True)

        def dropped(self, attempt: int, reason: str) -> None:
            if not self.lost:
                self.lost = True
                typer.echo(f"Connection lost ({reason}); reconnecting...", err=True)

    return BotPlayer()


def bot(
    url: InviteUrl,
    bots: Annotated[
        str,
        typer.Option("--bots", "-b", metavar="BOT", help=f"The bot to seat ({BOTS_HELP})."),
    ] = "heuristic",
    name: Annotated[
        str | None,
        typer.Option(
            "--name", metavar="NAME", help="The name shown at the table (default: the bot)."
        ),
    ] = None,
    seat: SeatOption = None,
    token: Annotated[
        str | None,
        typer.Option("--token", metavar="TOKEN", help="Come back to a seat with its token."),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed", "-s", metavar="S", help="Seed of the bot's choices (default: random)."
        ),
    ] = None,
) -> None:
    """Seat one of our bots at a remote table; it plays until the game ends."""
    link = remote_link(url)
    from tricktaker.bots import make_bot, parse_bot_spec
    from tricktaker.client.session import ClientError, SeatSession, ServerGoneError, join_table

    from .common import command, random_seed
    from .join import seat_index

    index = seat_index(seat)
    spec = bots.strip()
    try:
        parse_bot_spec(spec)
        chosen = make_bot(spec, seed=seed if seed is not None else random_seed())
    except ValueError as exc:
        fail(str(exc))
    try:
        if token is None:
            taken, token = join_table(link, name or spec.split(":")[0], index)
            typer.echo(f"Joined seat {taken + 1}; seat token: {token}")
        session = SeatSession(link, token, bot_player(chosen))
        final = asyncio.run(session.run())
    except KeyboardInterrupt:
        back = command("bot", url.strip(), "--bots", spec, "--token", token or "")
        typer.echo(f"Stopped. Come back with: {back}")
        raise typer.Exit(INTERRUPTED) from None
    except ServerGoneError as exc:
        back = command("bot", url.strip(), "--bots", spec, "--token", token or "")
        fail(f"{exc}.\nOnce the server is back, come back with: {back}", status=FAILURE)
    except ClientError as exc:
        fail(str(exc), status=FAILURE)
    if final is not None:
        scores = ", ".join(f"seat {s + 1} {v}" for s, v in enumerate(final.scores))
        typer.echo(f"Game over: {scores}.")
