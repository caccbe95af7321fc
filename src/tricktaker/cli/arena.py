"""``tricktaker arena``: bots compared over duplicate deals (see :mod:`tricktaker.arena`)."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from .common import (
    BOTS_HELP,
    INTERRUPTED,
    GameArgument,
    GameOptions,
    RayOption,
    fail,
    load_rules,
    make_console,
    parse_options,
    plural,
    progress_bar,
    split_names,
)

if TYPE_CHECKING:  # the rest is imported when the command runs (a quick --help)
    from rich.table import Table
    from rich.text import Text

    from tricktaker.arena import ArenaResult, BotResult


def arena(
    game: GameArgument,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            metavar="B1,B2,...",
            help=f"One bot per seat, comma separated ({BOTS_HELP}); they rotate through the seats.",
            show_default=False,
        ),
    ],
    players: Annotated[
        int | None,
        typer.Option(
            "--players", "-n", metavar="N", help="Players (default: the number of --bots).", min=1
        ),
    ] = None,
    hands: Annotated[
        int,
        typer.Option(
            "--hands",
            "-k",
            metavar="K",
            help="Play deal sets until each rotation has K hands.",
            min=1,
        ),
    ] = 100,
    workers: Annotated[
        int,
        typer.Option("--workers", "-w", metavar="W", help="Processes playing deal sets.", min=1),
    ] = 1,
    seed: Annotated[
        int, typer.Option("--seed", "-s", metavar="S", help="Deal set d is the game seeded S + d.")
    ] = 0,
    option: GameOptions = None,
    ray: RayOption = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object with settings and results.")
    ] = False,
) -> None:
    """Compare bots over duplicate deals: each deal set is played once per rotation of the
    bots through the seats; mean score per hand with a 95% interval, exact bids, wins and
    an openskill rating per bot."""
    from rich.markup import escape
    from rich.text import Text

    from tricktaker.arena import ArenaConfig, check_config, run_arena
    from tricktaker.arena.ray_pool import RayUnavailableError

    rules = load_rules(game, option)
    names = split_names(bots)
    if not names:
        fail("--bots needs at least one bot name")
    count = players if players is not None else len(names)
    if len(names) != count:
        fail(f"--bots gives {plural(len(names), 'bot')} for {count} players: give one per seat")
    config = ArenaConfig(
        game=game, bots=tuple(names), hands=hands, seed=seed, options=parse_options(option)
    )
    try:
        check_config(config)
    except ValueError as exc:
        fail(str(exc))
    err = make_console(stderr=True)
    progress = progress_bar(err, unit="hands")
    try:
        with progress:
            task = progress.add_task(escape(f"{rules.name} arena"), total=hands)
            result = run_arena(
                config,
                workers=workers,
                progress=lambda done: progress.update(task, completed=done),
                stop_on_interrupt=True,
                ray=ray,
            )
    except KeyboardInterrupt:
        err.print(Text("Interrupted before the first deal set finished: no results."))
        raise typer.Exit(INTERRUPTED) from None
    except RayUnavailableError as exc:
        fail(str(exc))
    if as_json:
        data = result.to_json()
        data["settings"]["workers"] = workers
        sys.stdout.write(json.dumps(data) + "\n")
    else:
        console = make_console()
        changed = [
            f"{k}={str(v).lower()}"
            for k, v in rules.options.items()
            if v != rules.spec.options[k].default
        ]
        for line in report(result, changed):
            console.print(line)
    if result.interrupted:
        done = min(result.hands_per_rotation)
        err.print(
            Text(
                f"Interrupted after {plural(result.deal_sets, 'deal set')}: {done} of {hands} hands"
                " per rotation; the results above cover the deal sets that finished."
            )
        )
        raise typer.Exit(INTERRUPTED)


def report(result: ArenaResult, chosen: list[str]) -> list[Text | Table]:
    """The arena's results as printable lines and a table (``chosen``: options set)."""
    from rich.text import Text

    rotations = result.players
    head = (
        f"{result.name} arena: {plural(result.deal_sets, 'deal set')}"
        f" x {plural(rotations, 'rotation')}"
        f" = {result.games} games, seeds {result.seed}..{result.seed + result.deal_sets - 1},"
        f" hands per rotation {min(result.hands_per_rotation)} or more"
        + (f", options {', '.join(chosen)}" if chosen else "")
    )
    return [Text(head), table(result), *(Text(note) for note in notes(result))]


def table(result: ArenaResult) -> Table:
    """The results by bot, in at most 100 columns with names up to 16 characters (longer
    names wrap within their column)."""
    from rich import box
    from rich.table import Table

    grid = Table(
        title="Results by bot",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        collapse_padding=True,
    )
    grid.add_column("#", justify="right")
    grid.add_column("Name", overflow="fold")
    if result.partnerships:
        grid.add_column("Partner", no_wrap=True)
    for title in ("Hands", "Mean/hand ± 95%", "Exact", "Wins", "Rating", "ms/move"):
        grid.add_column(title, justify="right", no_wrap=True)
    grid.add_column("Ordinal", justify="right", no_wrap=True)
    for bot in result.results:
        row = [str(bot.index), bot.name]
        if result.partnerships:
            row.append(", ".join(map(str, bot.partners)) or "-")
        row += [
            str(bot.hands),
            interval_text(bot),
            f"{100 * bot.exact_rate:.1f}%" if bot.exact_rate is not None else "-",
            f"{bot.wins} ({100 * bot.win_rate:.1f}%)",
            f"{bot.mu:.1f} ± {bot.sigma:.1f}",
            f"{bot.ms_per_move:.1f}" if bot.ms_per_move is not None else "-",
            f"{bot.ordinal:.2f}",
        ]
        grid.add_row(*row)
    return grid


def interval_text(bot: BotResult) -> str:
    """``+5.74 ± 1.03`` (the half width of the 95% interval; none from one deal set)."""
    half = bot.score.half_width
    return f"{bot.score.mean:+.2f}" + (f" ± {half:.2f}" if half is not None else "")


def notes(result: ArenaResult) -> list[str]:
    unit = f"the team's {result.score_unit}" if result.partnerships else result.score_unit
    lines = [
        f"Mean/hand: {unit} per hand, ± the half width of its 95% interval (Student t over"
        f" the {plural(result.deal_sets, 'deal set')}: each deal set's total over its hands in all"
        " rotations). Rating: mu ± sigma.",
        f"Exact: {result.exact_meaning}; '-' where there are no bids."
        " Wins: games won; ties count each winner"
        + ("; a team's win counts for both partners." if result.partnerships else "."),
    ]
    if result.cooperative:
        lines.append("Rating: none (a cooperative game has no ranking); wins: games completed.")
    else:
        lines.append(
            "Rating: openskill Plackett-Luce, one update per game from the final ranking;"
            " ordinal = mu - 3 sigma."
        )
    lines.append(
        "ms/move: a bot's mean thinking time per decision with more than one legal action"
        " (machine time: it varies between runs and with the load)."
    )
    if result.duplicated is not None:
        lines.append(
            f"Duplicate deals: {100 * result.duplicated:.1f}% of the replayed hands were dealt"
            " as in the deal set's first game."
        )
    return lines
