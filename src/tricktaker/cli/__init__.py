"""The ``tricktaker`` command line: thin commands over the library.

``tricktaker rules``, ``play``, ``simulate``, ``replay`` and ``arena``; run
``tricktaker --help``.

Start-up is kept short: this module imports only typer. Each command lives in its own
module, imported (with the engine, the rules and rich) only when that command runs or
shows its help; the top-level help lists the commands from :data:`COMMANDS` without
importing them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Annotated

import typer
from typer._click.exceptions import UsageError
from typer.core import TyperArgument, TyperGroup, TyperOption

if TYPE_CHECKING:
    from typer._click import Command, Context, HelpFormatter

COMMANDS: dict[str, tuple[str, str]] = {
    "rules": ("rules_cmd", "List the shipped games, or show one game's rules and schedule."),
    "play": ("play", "Play a game in the terminal against bots."),
    "simulate": ("simulate", "Play seeded games between bots; results by seat."),
    "replay": ("replay", "Replay a game record hand by hand."),
    "review": ("review", "Review a recorded game: what each choice of a seat was worth."),
    "arena": ("arena", "Compare bots over duplicate deals."),
    "duplicate": ("duplicate_cmd", "Play a duplicate set at several tables of bots; standings."),
    "serve": ("serve", "Run the table server: play together over the network."),
    "join": ("join", "Play a seat of a table on a server, in the terminal."),
    "bot": ("botcmd", "Seat one of our bots at a table on a server."),
    "score": ("score", "Keep score of a game played with real cards, every entry checked."),
}
"""Each command: the module under ``tricktaker.cli`` that defines it (a function of the
same name) and its one-line summary for ``tricktaker --help``."""


class _Argument(TyperArgument):
    """An argument shown by its name alone: ``GAME``, not ``{GAME}`` and ``GAME <str>``."""

    def display_type_rich(self, ctx: Context) -> str | None:
        return None

    def _usage_display_name(self) -> str:
        name = self.display_name_raw
        if not self.required and not name.startswith("["):
            name = f"[{name}]"
        return name if self.nargs == 1 else f"{name}..."


class _Option(TyperOption):
    """An option whose value is shown by its metavar, else its name (``--bots BOTS``),
    never by a type placeholder such as ``<str>``."""

    def display_type_rich(self, ctx: Context) -> str | None:
        if self.metavar is None and not self.is_flag:
            return (self.name or "value").upper()
        return super().display_type_rich(ctx)


def _plain_help(command: Command) -> Command:
    """The command with its parameters shown as plain names in its help."""
    for param in command.params:
        if isinstance(param, TyperArgument):
            param.__class__ = _Argument
        elif isinstance(param, TyperOption):
            param.__class__ = _Option
    return command


class LazyCommands(TyperGroup):
    """The command group, importing each command's module only when it is used."""

    def list_commands(self, ctx: Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        loaded = self.commands.get(cmd_name)
        if loaded is None and cmd_name in COMMANDS:
            module, summary = COMMANDS[cmd_name]
            function = getattr(importlib.import_module(f"{__name__}.{module}"), cmd_name)
            single = typer.Typer(rich_markup_mode=None, add_completion=False)
            single.command(cmd_name, short_help=summary)(function)
            loaded = _plain_help(typer.main.get_command(single))
            self.commands[cmd_name] = loaded
        return loaded

    def resolve_command(
        self, ctx: Context, args: list[str]
    ) -> tuple[str | None, Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except UsageError as error:
            from difflib import get_close_matches

            close = get_close_matches(args[0], list(COMMANDS)) if args else []
            if close and "Did you mean" not in error.message:
                suggestions = ", ".join(map(repr, close))
                error.message = f"{error.message.rstrip('.')}. Did you mean {suggestions}?"
            raise

    def format_commands(self, ctx: Context, formatter: HelpFormatter) -> None:
        rows = [(name, summary) for name, (_, summary) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


app = typer.Typer(
    name="tricktaker",
    cls=LazyCommands,
    help="Trick-taking games (the Oh Hell family and its relatives: `tricktaker rules`"
    " lists them): rules, play against bots, simulate, replay and compare bots.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"tricktaker {version('tricktaker')}")
        raise typer.Exit()


@app.callback()
def options(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Print the version and exit.",
            callback=_print_version,
            is_eager=True,
            expose_value=True,
        ),
    ] = False,
) -> None:
    """Trick-taking games: rules, play against bots, simulate, replay, arena."""


def main() -> None:
    """Entry point of the ``tricktaker`` script (and of ``python -m tricktaker``)."""
    app()


__all__ = ["COMMANDS", "app", "main"]
