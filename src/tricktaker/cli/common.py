"""Shared plumbing of the commands: consoles, errors, loading games, bots and seeds.

rich, the engine, the rules and the bots are imported inside the functions that use
them, so a command's ``--help`` stays quick.
"""

from __future__ import annotations

import os
import random
import re
import shlex
import shutil
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress

    from tricktaker.bots import Bot
    from tricktaker.engine import GameRecord, GameState
    from tricktaker.rules import Ruleset

USAGE_ERROR = 2
"""Exit status when the command line asks for something that cannot be done: an unknown
game, bot or option, a bad value, a file argument that is missing or not a valid record
(the status typer gives its own usage errors)."""

FAILURE = 1
"""Exit status when a valid request fails while it runs (a file cannot be written)."""

INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT), once the finished part has been reported."""


def make_console(*, stderr: bool = False) -> Console:
    """A console for this invocation: colour only on a terminal, and no markup, so text
    from ruleset files prints as written (styles come from ``Text`` objects).

    Off a terminal (pipes, tests) the width is fixed so output is deterministic.
    """
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    terminal = stream.isatty()
    width = None if terminal or os.environ.get("COLUMNS") else 100
    return Console(
        stderr=stderr,
        highlight=False,
        markup=False,
        emoji=False,
        width=width,
        # On a terminal rich reads NO_COLOR itself (None); elsewhere there is no colour.
        no_color=None if terminal else True,
        color_system="auto" if terminal else None,
    )


@contextmanager
def paged(console: Console) -> Iterator[None]:
    """Print a long page through a pager when a person reads it on a terminal (stdin
    and stdout both terminals): ``$PAGER``, else ``less``, with colours kept and no
    paging when the page fits the screen (``LESS=FRX`` unless ``LESS`` is set). Piped
    or redirected output is printed as it is, plain and unpaged."""
    if not (console.is_terminal and sys.stdin.isatty()) or console.is_dumb_terminal:
        yield
        return
    os.environ.setdefault("LESS", "FRX")
    with console.pager(styles=True):
        yield


def progress_bar(console: Console, *, unit: str) -> Progress:
    """A progress bar on ``console`` (done/total ``unit``, time elapsed and time left),
    shown only on a terminal and cleared when it ends."""
    from rich.progress import (
        BarColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        TextColumn(f"{{task.completed}}/{{task.total}} {unit}"),
        TimeElapsedColumn(),
        TextColumn("elapsed,"),
        TimeRemainingColumn(),
        TextColumn("left"),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )


def unicode_ok(console: Console) -> bool:
    """Whether the console can print suit symbols."""
    encoding = (console.encoding or "").lower()
    try:
        "♣♦♥♠→✓".encode(encoding or "ascii")
    except (LookupError, UnicodeEncodeError):
        return False
    return True


PROGRAM = "tricktaker"
"""The name of the installed command (the console script of pyproject.toml)."""


def _this_program() -> Path | None:
    """The ``tricktaker`` script running now: ``sys.argv[0]`` when it is that script, else
    the script beside this Python (``python -m tricktaker.cli`` in a virtual
    environment), else None."""
    argv0 = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if argv0 is not None and argv0.stem == PROGRAM and argv0.suffix in ("", ".exe"):
        found = shutil.which(str(argv0)) if argv0.parent == Path() else str(argv0)
        if found:
            return Path(os.path.abspath(found))
    beside = Path(sys.executable).parent / PROGRAM
    for candidate in (beside, beside.with_suffix(".exe")):
        if candidate.is_file():
            return Path(os.path.abspath(candidate))
    return None


def program_name() -> str:
    """The command as the user can type it here, for every command the CLI prints:
    ``tricktaker`` when that name on ``PATH`` is this same program, else this program's
    path, relative to the current directory when that is shorter (``.venv/bin/tricktaker``
    after ``make``), quoted for the shell when it needs quoting."""
    program = _this_program()
    if program is None:
        return PROGRAM
    on_path = shutil.which(PROGRAM)
    if on_path is not None:
        try:
            if os.path.samefile(on_path, program):
                return PROGRAM
        except OSError:
            pass
    text = str(program)
    try:
        relative = os.path.relpath(program)
    except ValueError:  # another drive (Windows)
        relative = text
    if len(relative) < len(text):
        text = relative if os.sep in relative else os.path.join(os.curdir, relative)
    return shlex.quote(text)


def command(*words: str | Path) -> str:
    """A command line to print: this program (:func:`program_name`) and ``words``, each
    quoted for the shell where it needs it (``play --resume 'my game.json'``)."""
    return " ".join([program_name(), *(shlex.quote(str(word)) for word in words)])


def plural(count: int, word: str, many: str | None = None) -> str:
    """``count`` and ``word``, in the plural unless the count is one (``many``, else
    ``word`` + ``s``).

    >>> plural(1, "hand"), plural(6, "complete hand"), plural(0, "deal set")
    ('1 hand', '6 complete hands', '0 deal sets')
    >>> plural(2, "rotation"), plural(1, "policy", "policies"), plural(3, "policy", "policies")
    ('2 rotations', '1 policy', '3 policies')
    """
    return f"{count} {word if count == 1 else many or word + 's'}"


def fail(message: str, *, status: int = USAGE_ERROR) -> NoReturn:
    """Print ``Error: message`` on stderr (as typer does for its own usage errors) and exit
    with ``status``: :data:`USAGE_ERROR` (the default) or :data:`FAILURE`. No traceback.

    Further lines of a message are indented under the first.
    """
    err = make_console(stderr=True)
    lines = str(message).strip().splitlines() or ["unknown error"]
    err.print(f"Error: {lines[0]}", markup=False, soft_wrap=True)
    for line in lines[1:]:
        err.print(f"  {line}", markup=False, soft_wrap=True)
    raise typer.Exit(status)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the library's errors about user input into a clean exit with status 2."""
    from tricktaker.engine import RecordError
    from tricktaker.rules import RulesetError

    try:
        yield
    except (RulesetError, RecordError) as exc:
        fail(user_words(str(exc)))


_PLACED = re.compile(
    r"^(?P<file>[\w.-]+\.toml)(?::\d+:\d+)?: (?P<field>[\w.()-]+): (?P<text>.+)$", re.S
)
"""A ruleset message placed in a file: ``bluke.toml:12:11: players: Bluke is for ...``."""


def user_words(message: str) -> str:
    """A ruleset message in the user's terms: the place in a shipped ruleset file (an
    internal file the user never wrote) is left out; a place in the user's own
    house-rules file stays, so they can find the line.

    >>> user_words("bluke.toml:12:11: players: Bluke is for 2 to 15 players, not 16")
    'Bluke is for 2 to 15 players, not 16'
    >>> user_words("mine/house.toml:3:9: players: Mine is for 3 players, not 4")
    'mine/house.toml:3:9: players: Mine is for 3 players, not 4'
    """
    from tricktaker.rules import list_rulesets

    found = _PLACED.match(message)
    if found is None:
        return message
    shipped = {f"{game}.toml" for game in list_rulesets()}
    if found["file"] not in shipped or Path(found["file"]).is_file():
        return message
    return found["text"]


def unknown_game(game: str) -> str | None:
    """Why ``game`` names no game, with the nearest names (\"did you mean\"), or None
    when it is a shipped game or a file path.

    >>> unknown_game("blakout").split(" (")[0]
    "unknown game 'blakout': did you mean blackout?"
    >>> unknown_game("blackout") is None
    True
    """
    import difflib

    from tricktaker.rules import list_rulesets

    if game.endswith(".toml") or "/" in game or os.sep in game:
        return None
    games = list(list_rulesets())
    if game in games:
        return None
    close = difflib.get_close_matches(game.lower(), games, n=1, cutoff=0.6)
    if not close:
        return f"unknown game {game!r}; the games are: {', '.join(games)}"
    return f"unknown game {game!r}: did you mean {close[0]}? ({program_name()} rules lists them)"


def parse_options(pairs: Sequence[str] | None) -> dict[str, str]:
    """``["hook=true", "min_bid=0"]`` as a dict; a bare ``NAME`` means ``NAME=true``."""
    options: dict[str, str] = {}
    for pair in pairs or ():
        name, sep, value = pair.partition("=")
        name = name.strip()
        if not name:
            fail(f"--option expects NAME=VALUE, not {pair!r}")
        if not sep:
            value = "true"
        if name in options:
            fail(f"option {name} is given twice")
        options[name] = value.strip()
    return options


def load_rules(game: str, options: Sequence[str] | None) -> Ruleset:
    """The game by id or ruleset file path, with ``--option`` values applied."""
    from tricktaker.rules import load_ruleset

    chosen = parse_options(options)
    unknown = unknown_game(game)
    if unknown is not None:
        fail(unknown)
    with user_errors():
        return load_ruleset(game, options=chosen)


def default_players(rules: Ruleset) -> int:
    """The usual table: 4 when allowed (with these options), else the first count allowed."""
    from tricktaker.rules import RulesetError

    counts = list(rules.player_counts)
    preferred = [4, *counts] if 4 in counts else counts
    for count in preferred:
        try:
            rules.check_players(count)
        except RulesetError:
            continue
        return count
    return counts[0]


def start_game(rules: Ruleset, players: int, seed: int) -> GameState:
    """A new game, with player-count and schedule problems reported as usage errors."""
    from tricktaker.engine import new_game

    with user_errors():
        rules.check_players(players)
        rules.hands_for(players)
        return new_game(rules, players=players, seed=seed)


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for a game seeded ``game_seed`` (deterministic)."""
    return random.Random(f"tricktaker-bot:{game_seed}:{seat}").getrandbits(32)


def make_bots(names: Mapping[int, str], game_seed: int) -> dict[int, Bot]:
    """A bot for each seat named in ``names``, seeded from the game's seed and the seat."""
    from tricktaker.bots import make_bot

    bots: dict[int, Bot] = {}
    for seat, name in names.items():
        try:
            bots[seat] = make_bot(name, seed=bot_seed(game_seed, seat))
        except ValueError as exc:
            fail(str(exc))
    return bots


BOTS_HELP = (
    "bots: random, heuristic, pimc, ismcts, or a level: easy, medium, hard;"
    " budgets as NAME:KEY=VALUE, e.g. ismcts:iterations=800;"
    " a trained policy as policy:path=FILE.npz (the envs extra)"
)
"""What the ``--bots`` options accept."""


def split_names(text: str) -> list[str]:
    """``"random, heuristic"`` as ``["random", "heuristic"]``."""
    return [part.strip() for part in text.split(",") if part.strip()]


def random_seed() -> int:
    """A fresh seed for a game the user did not seed (printed so it can be replayed)."""
    return random.SystemRandom().randrange(1_000_000)


def record_path(directory: Path, stem: str) -> Path:
    """A new file ``DIR/stem.json`` (``stem-2.json`` ... if taken); the folder is created."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"{directory}: cannot create the record folder: {exc.strerror}", status=FAILURE)
    return unused_path(directory, stem)


def unused_path(folder: Path, stem: str) -> Path:
    """The first of ``folder/stem.json``, ``folder/stem-2.json`` ... that does not exist."""
    path = folder / f"{stem}.json"
    number = 2
    while path.exists():
        path = folder / f"{stem}-{number}.json"
        number += 1
    return path


def save_record(game: GameState | GameRecord, path: Path) -> None:
    """Write the game's record (from a state or a record made already); a failure ends
    the command with an error."""
    from tricktaker.engine import GameState

    record = game.record() if isinstance(game, GameState) else game
    try:
        record.save(path)
    except OSError as exc:
        fail(f"{path}: cannot write the record: {exc.strerror}", status=FAILURE)


GameArgument = Annotated[
    str,
    typer.Argument(metavar="GAME", help="A game id (tricktaker rules lists them) or a .toml file."),
]
"""The GAME argument shared by the commands."""

GameOptions = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-o",
        metavar="NAME=VALUE",
        help="A game option, e.g. --option hook=true (repeatable).",
        show_default=False,
    ),
]
"""The repeatable ``--option NAME=VALUE`` shared by the commands."""

RayOption = Annotated[
    str | None,
    typer.Option(
        "--ray",
        metavar="ADDRESS",
        help="Play on a Ray cluster (the ray extra): HOST:PORT of its head, auto (this"
        " machine's cluster) or local (a Ray instance here, --workers CPUs). Same results"
        " as a local run. See docs/scale.md.",
        show_default=False,
    ),
]
"""``--ray ADDRESS`` of ``simulate`` and ``arena`` (:mod:`tricktaker.arena.ray_pool`)."""

ResumableGameArgument = Annotated[
    str | None,
    typer.Argument(
        metavar="GAME",
        help="A game id (tricktaker rules lists them) or a .toml file; leave it out with --resume.",
        show_default=False,
    ),
]
"""The optional ``GAME`` argument of ``tricktaker play`` and ``tricktaker score``."""

FourColourOption = Annotated[
    bool,
    typer.Option(
        "--four-colour",
        "--four-color",
        help="A four-colour deck: clubs green, diamonds blue, hearts red.",
    ),
]
"""``--four-colour`` of the commands that show cards at a table (``play``, ``join``)."""
