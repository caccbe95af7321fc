"""``tricktaker simulate``: many seeded games between bots, summarised or as JSON lines."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from tricktaker.bots import play_game
from tricktaker.engine import GameState
from tricktaker.rules import Ruleset

from .common import (
    BOTS_HELP,
    GameArgument,
    GameOptions,
    default_players,
    fail,
    load_rules,
    make_bots,
    make_console,
    record_path,
    save_record,
    split_names,
    start_game,
)
from .sim_stats import tally_for


def game_json(state: GameState, rules: Ruleset, bots: list[str]) -> dict[str, Any]:
    """One finished game as JSON data (one line of ``--json`` output)."""
    data: dict[str, Any] = {
        "game": rules.id,
        "options": dict(rules.options),
        "players": state.players,
        "seed": state.seed,
        "first_dealer": state.first_dealer,
        "bots": bots,
        "final_scores": list(state.scores),
        "winners": state.winners(),
        "hands_played": state.hands_played,
        "hands": [hand.to_json(labels=rules.joker_labels) for hand in state.history],
    }
    if state.setup.cooperative:
        data["completed"] = state.completed
    if state.setup.partnerships:
        data["partnerships"] = [list(team) for team in state.setup.partnerships]
    return data


def simulate(
    game: GameArgument,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-n",
            metavar="N",
            help="Players (default: the number of --bots, else 4 if allowed).",
            min=1,
        ),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-g", metavar="K", help="Games to play.", min=1)
    ] = 100,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            "-b",
            metavar="B1,B2,...",
            help=f"One bot per seat, comma separated ({BOTS_HELP}). Default: heuristic.",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", "-s", metavar="S", help="Game k (0-based) is seeded S + k.")
    ] = 0,
    option: GameOptions = None,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print one JSON object per game per line instead."),
    ] = False,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record", metavar="DIR", help="Save each game's record into DIR.", file_okay=False
        ),
    ] = None,
) -> None:
    """Play seeded games between bots and report results by seat (scores, bids or quotas,
    contracts or chips, wins)."""
    console = make_console()
    err = make_console(stderr=True)
    rules = load_rules(game, option)
    names = split_names(bots) if bots is not None else None
    if names is not None and not names:
        fail("--bots needs at least one bot name")
    count = players if players is not None else len(names) if names else default_players(rules)
    if names is None:
        names = ["heuristic"] * count
    if len(names) != count:
        fail(f"--bots gives {len(names)} bot(s) for {count} players: give one per seat")
    make_bots(dict(enumerate(names)), seed)
    tally = tally_for(rules, start_game(rules, count, seed))
    paths: list[Path] = []
    progress = Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )
    with progress:
        task = progress.add_task(escape(rules.name), total=games)
        for k in range(games):
            game_seed = seed + k
            state = start_game(rules, count, game_seed)
            seated = make_bots(dict(enumerate(names)), game_seed)
            play_game(state, [seated[s] for s in range(count)])
            tally.add(state)
            if as_json:
                sys.stdout.write(json.dumps(game_json(state, rules, names)) + "\n")
            if record is not None:
                path = record_path(record, f"{rules.id}-seed{game_seed}")
                save_record(state, path)
                paths.append(path)
            progress.advance(task)
    if record is not None:
        where = err if as_json else console
        where.print(Text(f"Records saved: {len(paths)} file(s) in {record}"))
    if as_json:
        return
    chosen = [
        f"{k}={str(v).lower()}"
        for k, v in rules.options.items()
        if v != rules.spec.options[k].default
    ]
    console.print(
        Text(
            f"{rules.name}: {games} game(s), {count} players, seeds {seed}..{seed + games - 1}"
            + (f", options {', '.join(chosen)}" if chosen else "")
        )
    )
    console.print(tally.table(names))
    for note in tally.notes():
        console.print(Text(note))
