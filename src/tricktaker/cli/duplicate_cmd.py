"""``tricktaker duplicate``: play a duplicate set on this machine, one table for each
``--table`` of bots, and print the standings (docs/duplicate.md, From the command line).
"""

from __future__ import annotations

from typing import Annotated

import typer

from tricktaker.cli.common import (
    BOTS_HELP,
    GameArgument,
    GameOptions,
    bot_seed,
    fail,
    load_rules,
    make_bots,
    make_console,
    random_seed,
    split_names,
)


def duplicate(
    game: GameArgument,
    table: Annotated[
        list[str],
        typer.Option(
            "--table",
            "-t",
            metavar="BOTS",
            help=f"One table's bots, seat by seat, comma-separated (repeatable; {BOTS_HELP}).",
        ),
    ],
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", help="Players at each table (default: the tables')."),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", "-s", help="The seed the set's deals come from (default: random)."),
    ] = None,
    option: GameOptions = None,
    order: Annotated[
        str,
        typer.Option("--order", help="Order the standings by matchpoints or average."),
    ] = "matchpoints",
    hands: Annotated[
        bool,
        typer.Option("--hands", help="Also list each entrant's percentage on every hand."),
    ] = False,
) -> None:
    """Play a duplicate set: the same deals in the same seats at every --table, each score
    compared with everyone who held the same cards (matchpoints and against the seat's
    average, docs/duplicate.md).

    Example: tricktaker duplicate blackout --table easy,random,random,random
    --table random,easy,random,random
    """
    from rich.table import Table

    from tricktaker.bots import play_game
    from tricktaker.duplicate import (
        METHODS,
        DuplicateError,
        make_set,
        standings,
        table_results,
    )
    from tricktaker.duplicate.bots import PositionSeededBot

    if order not in METHODS:
        fail(f"--order is matchpoints or average, not {order!r}")
    rules = load_rules(game, option)
    seats = [split_names(text) for text in table]
    count = players if players is not None else len(seats[0])
    for number, bots in enumerate(seats, start=1):
        if len(bots) != count:
            fail(f"table {number} names {len(bots)} bots: give one for each of the {count} seats")
    chosen = seed if seed is not None else random_seed()
    try:
        the_set = make_set(rules, players=count, seed=chosen)
    except DuplicateError as exc:
        fail(str(exc))
    console = make_console()
    console.print(
        f"{rules.name}, {count} players, {the_set.hands} hands at {len(seats)} tables"
        f" (seed {chosen})"
    )
    results = []
    who: dict[str, str] = {}
    for number, bots in enumerate(seats, start=1):
        state = the_set.new_game(rules)
        make_bots(dict(enumerate(bots)), the_set.seed)  # every name checked first
        play_game(
            state,
            [PositionSeededBot(bots[s], bot_seed(the_set.seed, s)) for s in range(count)],
        )
        entrants = [f"{number}:{seat}" for seat in range(count)]
        for seat, bot in enumerate(bots):
            who[entrants[seat]] = f"Table {number}, seat {seat + 1} ({bot})"
        results.extend(table_results(state, entrants))
    rows = standings(results, method="average" if order == "average" else "matchpoints")
    out = Table(title="Standings")
    out.add_column("#", justify="right")
    out.add_column("Entrant")
    out.add_column("Matchpoints", justify="right")
    out.add_column("Score", justify="right")
    out.add_column("vs average", justify="right")
    out.add_column("Points", justify="right")
    for rank, row in enumerate(rows, start=1):
        out.add_row(
            str(rank),
            who[row.entrant],
            f"{row.matchpoints}/{row.top}",
            f"{row.percent:.1f}%",
            f"{row.against_average:+.1f}",
            f"{row.score:g}",
        )
    console.print(out)
    if hands:
        each = Table(title="Each hand's score (percent of the top)")
        each.add_column("Entrant")
        for hand in range(1, the_set.hands + 1):
            each.add_column(str(hand), justify="right")
        for row in rows:
            each.add_row(who[row.entrant], *(f"{board.percent:.0f}" for board in row.boards))
        console.print(each)
