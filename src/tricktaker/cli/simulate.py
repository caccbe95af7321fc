"""``tricktaker simulate``: many seeded games between bots, summarised or as JSON lines.

Game ``k`` is played by :func:`play_one` from the seed ``S + k`` alone, here, in a
worker process (``--workers``) or on a Ray cluster (``--ray``); the results are taken in
game order, so the output (and a ``--dataset``) is the same for any number of workers.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tricktaker.memo import Memo

from .common import (
    BOTS_HELP,
    INTERRUPTED,
    GameArgument,
    GameOptions,
    RayOption,
    default_players,
    fail,
    load_rules,
    make_bots,
    make_console,
    parse_options,
    plural,
    progress_bar,
    record_path,
    save_record,
    split_names,
    start_game,
)

if TYPE_CHECKING:  # the rest is imported when the command runs (a quick --help)
    from tricktaker.datasets.record import GameRows
    from tricktaker.datasets.writer import DatasetWriter
    from tricktaker.engine import GameRecord, GameState
    from tricktaker.rules import Ruleset

    from .sim_stats import Tally


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


@dataclass(frozen=True)
class SimJob:
    """What every game of a simulation shares (sent to the worker processes)."""

    game: str
    options: Mapping[str, str]
    players: int
    bots: tuple[str, ...]
    as_json: bool
    record: bool
    dataset: bool = False


@dataclass(frozen=True)
class GameOutcome:
    """One finished game, as the main process needs it: its totals, its JSON line (with
    ``--json``), its record (with ``--record``) and its decisions (with ``--dataset``)."""

    seed: int
    tally: Tally
    json_line: str | None
    record: GameRecord | None
    rows: GameRows | None = None


_RULES: Memo[tuple[str, tuple[tuple[str, str], ...]], Ruleset] = Memo(maxsize=16)
"""Rulesets by game and options, loaded once per worker process."""


def _rules(game: str, options: tuple[tuple[str, str], ...]) -> Ruleset:
    from tricktaker.rules import load_ruleset

    return _RULES.get((game, options), lambda: load_ruleset(game, options=dict(options)))


def play_one(job: SimJob, game_seed: int) -> GameOutcome:
    """Play the game seeded ``game_seed`` between the job's bots."""
    from tricktaker.bots import play_game

    from .sim_stats import tally_for

    rules = _rules(job.game, tuple(sorted(job.options.items())))
    state = start_game(rules, job.players, game_seed)
    seated = make_bots(dict(enumerate(job.bots)), game_seed)
    rows = None
    if job.dataset:
        from tricktaker.datasets.record import play_recorded

        rows = play_recorded(state, [seated[s] for s in range(job.players)])
    else:
        play_game(state, [seated[s] for s in range(job.players)])
    tally = tally_for(rules, state)
    tally.add(state)
    line = json.dumps(game_json(state, rules, list(job.bots))) if job.as_json else None
    return GameOutcome(game_seed, tally, line, state.record() if job.record else None, rows)


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
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            "-w",
            metavar="W",
            help="Processes playing games (the output is the same for any number).",
            min=1,
        ),
    ] = 1,
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
    dataset: Annotated[
        Path | None,
        typer.Option(
            "--dataset",
            metavar="DIR",
            help="Write every decision (observation, legal actions, action, outcome) as"
            " Parquet files into DIR, a new directory (the datasets extra; docs/datasets.md).",
            file_okay=False,
        ),
    ] = None,
    ray: RayOption = None,
) -> None:
    """Play seeded games between bots and report results by seat (scores, bids or quotas,
    contracts or chips, wins)."""
    from rich.markup import escape
    from rich.text import Text

    from tricktaker.arena.pool import CtrlC, ordered_results
    from tricktaker.arena.ray_pool import RayUnavailableError

    from .sim_stats import tally_for

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
        fail(f"--bots gives {plural(len(names), 'bot')} for {count} players: give one per seat")
    make_bots(dict(enumerate(names)), seed)
    tally = tally_for(rules, start_game(rules, count, seed))
    job = SimJob(
        game,
        parse_options(option),
        count,
        tuple(names),
        as_json,
        record is not None,
        dataset is not None,
    )
    writer = open_dataset_writer(dataset, rules, count, names, seed) if dataset else None
    paths: list[Path] = []
    played = 0
    progress = progress_bar(err, unit="games")
    seeds = range(seed, seed + games)
    try:
        with (  # the workers start before the progress bar's refresh thread
            CtrlC() as ctrl_c,
            ordered_results(
                functools.partial(play_one, job), seeds, workers=workers, ray=ray, chunk=4
            ) as stream,
            progress,
        ):
            task = progress.add_task(escape(rules.name), total=games)
            for outcome in stream:
                with ctrl_c.held():
                    tally.merge(outcome.tally)
                    if outcome.json_line is not None:
                        sys.stdout.write(outcome.json_line + "\n")
                    if record is not None and outcome.record is not None:
                        path = record_path(record, f"{rules.id}-seed{outcome.seed}")
                        save_record(outcome.record, path)
                        paths.append(path)
                    if writer is not None and outcome.rows is not None:
                        writer.add(outcome.rows)
                    played += 1
                    progress.advance(task)
    except KeyboardInterrupt:
        pass
    except RayUnavailableError as exc:
        fail(str(exc))
    if writer is not None:
        writer.close()
        where = err if as_json else console
        size = writer.bytes_written
        where.print(
            Text(
                f"Dataset: {plural(writer.rows, 'decision')} of {plural(writer.games, 'game')} in"
                f" {plural(len(writer.files), 'file')}, {size:,} bytes"
                f" ({size / max(writer.rows, 1):.1f} bytes a decision) in {dataset}"
            )
        )
    if record is not None:
        where = err if as_json else console
        where.print(Text(f"Records saved: {plural(len(paths), 'file')} in {record}"))
    if not as_json and played:
        report(rules, tally, names, seed, played)
    if played < games:
        err.print(
            Text(
                f"Interrupted after {played} of {games} games"
                + ("; the results above cover the games that finished." if played else ".")
            )
        )
        raise typer.Exit(INTERRUPTED)


def open_dataset_writer(
    directory: Path, rules: Ruleset, players: int, names: list[str], seed: int
) -> DatasetWriter:
    """A writer for ``--dataset DIR`` (exits with a message when it cannot be used)."""
    try:
        from tricktaker.datasets.writer import DatasetError, DatasetWriter
        from tricktaker.envs.encoding import Encoding, EncodingError
    except ImportError as exc:
        fail(f"--dataset needs pyarrow and numpy: pip install 'tricktaker[datasets]' ({exc})")
    try:
        encoding = Encoding.of(rules, players)
        return DatasetWriter(
            directory,
            encoding=encoding,
            game=rules.id,
            bots=names,
            settings={
                "options": dict(rules.options),
                "players": players,
                "seed": seed,
            },
        )
    except (DatasetError, EncodingError) as exc:
        fail(str(exc))


def report(rules: Ruleset, tally: Tally, names: list[str], seed: int, games: int) -> None:
    """Print the summary of ``games`` games seeded from ``seed``."""
    from rich.text import Text

    console = make_console()
    chosen = [
        f"{k}={str(v).lower()}"
        for k, v in rules.options.items()
        if v != rules.spec.options[k].default
    ]
    console.print(
        Text(
            f"{rules.name}: {plural(games, 'game')}, {tally.players} players,"
            f" seeds {seed}..{seed + games - 1}"
            + (f", options {', '.join(chosen)}" if chosen else "")
        )
    )
    console.print(tally.table(names))
    for note in tally.notes():
        console.print(Text(note))
