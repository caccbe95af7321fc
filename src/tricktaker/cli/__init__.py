"""The ``tricktaker`` command line: thin commands over the library.

``tricktaker rules``, ``play``, ``simulate`` and ``replay``; run ``tricktaker --help``.
"""

from __future__ import annotations

import typer

from .arena import arena
from .play import play
from .replay import replay
from .rules_cmd import rules
from .simulate import simulate

app = typer.Typer(
    name="tricktaker",
    help="Trick-taking games (the Oh Hell family, Pluck, Euchre, Buckup): rules, play"
    " against bots, simulate, replay.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
app.command("rules")(rules)
app.command("play")(play)
app.command("simulate")(simulate)
app.command("replay")(replay)
app.command("arena")(arena)


def main() -> None:
    """Entry point of the ``tricktaker`` script."""
    app()


__all__ = ["app", "main"]
