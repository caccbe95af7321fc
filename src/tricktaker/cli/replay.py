"""``tricktaker replay``: rebuild a recorded game exactly and show it hand by hand."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .common import fail, make_console, paged, unicode_ok, user_errors

if TYPE_CHECKING:  # the rest is imported when the command runs (a quick --help)
    from rich.console import Console
    from rich.table import Table

    from tricktaker.engine import HandResult
    from tricktaker.present.scorecard import ScoreRow

    from .render import Cards


def hand_table(row: ScoreRow, names: list[str], *, cooperative: bool, quotas: bool) -> Table:
    """One hand of the score sheet: a column per seat with bid (or quota, where any),
    tricks, score and total."""
    from rich.table import Table

    table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2))
    table.add_column("")
    for name in names:
        table.add_column(name, justify="right")
    if all(seat.bid is not None for seat in row.seats):
        table.add_row("quota" if quotas else "bid", *(str(seat.bid) for seat in row.seats))
    table.add_row("tricks", *(str(seat.tricks) for seat in row.seats))
    if not cooperative:
        table.add_row("score", *(f"{seat.score:+d}" for seat in row.seats))
        table.add_row("total", *(str(seat.total) for seat in row.seats))
    return table


def show_tricks(console: Console, hand: HandResult, names: list[str], cards: Cards) -> None:
    """Each seat's cards as dealt, then every trick with its winner."""
    from rich.text import Text

    for seat, dealt in enumerate(hand.deal):
        console.print(Text(f"    {names[seat]} held: {cards.hand(dealt)}"))
    for number, (trick, winner) in enumerate(
        zip(hand.trick_cards, hand.trick_winners, strict=True), start=1
    ):
        played = ",  ".join(f"{names[s]} {cards.card(c)}" for s, c in trick)
        console.print(Text(f"    trick {number}: {played}  -> {names[winner]}"))


def replay(
    file: Annotated[
        Path,
        typer.Argument(
            metavar="FILE", help="A record saved by play --record or simulate --record."
        ),
    ],
    tricks: Annotated[
        bool, typer.Option("--tricks", help="Also show every deal and every trick.")
    ] = False,
    web: Annotated[
        bool,
        typer.Option(
            "--web",
            help="Step through it in a web browser instead: serves the page on a free"
            " local port and opens it (needs the server extra; Ctrl-C stops it).",
        ),
    ] = False,
) -> None:
    """Replay a game record exactly and print it hand by hand with the final scores."""
    if web:
        replay_in_browser(file)
        return
    from rich.table import Table
    from rich.text import Text

    from tricktaker.engine import GameRecord, RecordError
    from tricktaker.present.game import game_present, hand_special_text
    from tricktaker.present.panels import panel_game
    from tricktaker.present.scorecard import scorecard

    from .render import (
        Cards,
        cooperative_line,
        outcome_counts,
        seat_names,
        standings_table,
        winners_line,
    )
    from .scorecards import hand_summary, has_bids, result_line

    console = make_console()
    with user_errors():
        record = GameRecord.load(file)
        try:
            state = record.replay()
        except (ArithmeticError, LookupError, TypeError, ValueError) as exc:
            if isinstance(exc, RecordError):
                raise
            fail(f"{file}: the record cannot be replayed ({type(exc).__name__}: {exc})")
    with paged(console):
        rules = state.rules
        cards = Cards(labels=rules.joker_labels, symbols=unicode_ok(console))
        names = list(record.names) if record.names is not None else seat_names(state.players)
        cooperative = state.setup.cooperative
        options = ", ".join(f"{k}={str(v).lower()}" for k, v in sorted(rules.options.items()))
        console.rule(Text(f"{rules.name} ({record.game})"))
        console.print(Text(f"Players: {state.players} ({', '.join(names)})   seed: {record.seed}"))
        console.print(Text(f"Options: {options or 'none'}"))
        game = game_present(rules)
        sheet = scorecard(
            state.history,
            names,
            cards,
            state.setup.partnerships,
            cooperative=cooperative,
            game=game,
        )
        for hand, sheet_row in zip(state.history, sheet.rows, strict=True):
            heading = (
                f"Hand {hand.number} · {hand.hand_size} card{'s' if hand.hand_size != 1 else ''}"
                f" · dealer {names[hand.dealer]} · trump {cards.trump(hand.trump, hand.turn_up)}"
            )
            special = hand_special_text(game, hand)
            console.print()
            console.print(Text(heading + (f" · {special}" if special else ""), style="bold"))
            quotas = sheet.layout == "quota"
            console.print(hand_table(sheet_row, names, cooperative=cooperative, quotas=quotas))
            for line in hand_summary(hand, names, cards, game):
                console.print(Text(f"  {line}"))
            if tricks:
                show_tricks(console, hand, names, cards)
        console.print()
        if not state.is_terminal():
            console.print(Text(f"The record ends before the game is over ({state.phase_name})."))
        console.rule(Text("Final" if state.is_terminal() else "Scores so far"))
        final = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2))
        final.add_column("Player")
        if not cooperative:
            final.add_column("Score", justify="right")
        bids = has_bids(state.history, state.players)
        if bids:
            final.add_column("S/O/P")
        stacks = sheet.stacks
        if stacks is not None:
            final.add_column("Stack", justify="right")
        for seat, name in enumerate(names):
            row = [name]
            if not cooperative:
                row.append(str(state.scores[seat]))
            if bids:
                row.append(outcome_counts(state.history, seat))
            if stacks is not None:
                row.append(str(stacks[seat]))
            final.add_row(*row)
        console.print(final)
        if not state.is_terminal():
            return
        standings = standings_table(sheet, unit=sheet.unit)
        if standings is not None and not cooperative:
            console.print()
            console.rule(Text("Final standings"))
            console.print(standings)
            console.print()
        if cooperative:
            console.print(Text(cooperative_line(state.hands_played, state.completed), style="bold"))
        elif panel_game(state.observe(0)) is not None:
            teams = state.setup.partnerships
            line = result_line(state.winners(), names, state.scores, teams, unit=sheet.unit)
            console.print(Text(line, style="bold"))
        else:
            console.print(Text(winners_line(state.winners(), names, state.scores), style="bold"))


def replay_in_browser(file: Path) -> None:
    """Serve the browser client on a free loopback port with the record loaded, print the
    replay's address and open it in the web browser; run until Ctrl-C."""
    import socket
    import tempfile
    import threading
    import time
    import webbrowser

    from tricktaker.engine import GameRecord

    from .serve import INSTALL_HINT

    try:
        import uvicorn

        from tricktaker.server import create_app
        from tricktaker.server.errors import RefusedError
        from tricktaker.server.web import load_replay
    except ImportError:
        fail(INSTALL_HINT)
    with user_errors():
        record = GameRecord.load(file)
    with tempfile.TemporaryDirectory(prefix="tricktaker-replay-") as folder:
        app = create_app(f"sqlite:///{Path(folder) / 'replay.sqlite3'}")
        try:
            replay_id = load_replay(app, record.to_json())
        except RefusedError as exc:
            fail(f"{file}: {exc.detail}")
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        url = f"http://127.0.0.1:{port}/#/replay?r={replay_id}"
        config = uvicorn.Config(app, log_level="warning", ws_max_size=64 * 1024)
        server = uvicorn.Server(config)

        def announce() -> None:
            while not server.started and not server.should_exit:
                time.sleep(0.05)
            if server.started:
                typer.echo(f"Replay of {file}: {url}")
                typer.echo("Open it in a browser if none opens; Ctrl-C stops the server.")
                webbrowser.open(url)

        threading.Thread(target=announce, daemon=True).start()
        server.run(sockets=[listener])
