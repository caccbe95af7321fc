"""``tricktaker review``: what each of a seat's choices in a recorded game was worth, the
hands in a sentence each and the costliest choices ranked (docs/coach.md).

The computation is :func:`tricktaker.coach.review.cached_review`; this module parses the
command line, shows the progress and prints.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from .common import (
    FAILURE,
    INTERRUPTED,
    command,
    fail,
    make_console,
    paged,
    progress_bar,
    user_errors,
)

if TYPE_CHECKING:  # the rest is imported when the command runs (a quick --help)
    from rich.console import Console
    from rich.table import Table

    from tricktaker.coach.review import ChoiceFigure, Review, ReviewedDecision
    from tricktaker.present.game import GamePresent
    from tricktaker.rules import Ruleset

    from .render import Cards


def review(
    file: Annotated[
        Path,
        typer.Argument(
            metavar="RECORD", help="A game record saved by play --record or simulate --record."
        ),
    ],
    seat: Annotated[
        int,
        typer.Option("--seat", metavar="K", help="The seat to review, counted from 1.", min=1),
    ] = 1,
    seconds: Annotated[
        float,
        typer.Option(
            "--seconds",
            metavar="S",
            help="Time to value each decision (more: smaller uncertainty).",
            min=0.01,
        ),
    ] = 1.0,
    deals: Annotated[
        int | None,
        typer.Option(
            "--deals",
            metavar="N",
            help="Value each decision over exactly N deals instead (the same review every time).",
            min=1,
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the review as JSON instead.")
    ] = False,
) -> None:
    """Review a recorded game: for every decision of one seat, the value of the choice
    made against the best choice, each hand in a sentence and the costliest choices."""
    from rich.text import Text

    from tricktaker.coach.review import cached_review, reviewed_decisions
    from tricktaker.engine import GameRecord

    with user_errors():
        record = GameRecord.load(file)
        if seat > record.players:
            fail(f"--seat {seat}: the game has {record.players} seats (1 to {record.players})")
        total = len(reviewed_decisions(record, seat - 1))
        state = record.replay()
    err = make_console(stderr=True)
    progress = progress_bar(err, unit="decisions")
    try:
        with progress:
            task = progress.add_task(f"Reviewing seat {seat}", total=total)
            result, cached = cached_review(
                file,
                seat - 1,
                seconds=seconds,
                deals=deals,
                progress=lambda done, _: progress.update(task, completed=done),
            )
    except KeyboardInterrupt:
        err.print(Text("Interrupted: no review."))
        raise typer.Exit(INTERRUPTED) from None
    except NotImplementedError as exc:
        fail(f"{file}: the coach cannot value this game's decisions: {exc}", status=FAILURE)
    if as_json:
        data = result.to_json()
        data["cached"] = cached
        sys.stdout.write(json.dumps(data) + "\n")
        return
    console = make_console()
    with paged(console):
        print_review(console, result, state.rules, file, cached=cached)


def print_review(
    console: Console, result: Review, rules: Ruleset, file: Path, *, cached: bool
) -> None:
    """The review on ``console``: the model beside the figures, every hand's decisions
    and sentence, then the costliest choices ranked."""
    from rich.text import Text

    from tricktaker.present.game import game_present

    from .common import unicode_ok
    from .render import Cards

    cards = Cards(labels=rules.joker_labels, symbols=unicode_ok(console))
    game = game_present(rules)
    who = f"seat {result.seat + 1}" + (f" ({result.name})" if result.name else "")
    console.rule(Text(f"Review of {rules.name} ({result.game}): {who}"))
    budget = f"{result.deals} deals" if result.deals is not None else f"{result.seconds:g} s"
    what = f"the {result.unit} in" if result.chance else f"{result.unit} you could expect from"
    console.print(
        Text(
            f"Values: {what} the hand after each choice,"
            f" ± their standard error ({budget} a decision"
            f"{', from the cache' if cached else ''})."
        )
    )
    console.print(Text(f"They assume {result.model}."))
    for hand in result.hands:
        console.print()
        scored = f" · scored {hand.points:+d}" if hand.points is not None else ""
        if result.chance and hand.points is not None:
            scored = " · the table was exact" if hand.points else " · the table was not exact"
        console.print(Text(f"Hand {hand.number}{scored}", style="bold"))
        console.print(Text(f"  {shown_words(hand.summary, cards)}"))
        decisions = [d for d in result.decisions if d.moment.hand == hand.number]
        if decisions:
            console.print(
                decision_table(decisions, rules, cards, game, ranked=False, chance=result.chance)
            )
    console.print()
    console.rule(Text("Largest losses"))
    losses = result.losses()
    if not losses:
        console.print(Text("None: every choice was the coach's."))
    else:
        console.print(
            decision_table(list(losses), rules, cards, game, ranked=True, chance=result.chance)
        )
        console.print(
            Text(
                f"Find a moment with {command('replay', file, '--tricks')} (its hand and"
                f" trick), or at its step in {command('replay', file, '--web')}."
            ),
            soft_wrap=True,
        )
    if result.unvalued:
        where = ", ".join(f"hand {m.hand} decision {m.decision}" for m in result.unvalued)
        console.print(Text(f"Not valued (no score to play out to): {where}."), soft_wrap=True)
    count = len(result.decisions)
    given_up = f"on the {result.unit}" if result.chance else f"{result.unit} expected"
    console.print()
    console.print(
        Text(
            f"In all: {_figure(result.total_cost, cards, result.chance)} {given_up} given up over"
            f" {count} decision{'s' if count != 1 else ''} with a choice.",
            style="bold",
        )
    )


def decision_table(
    decisions: list[ReviewedDecision],
    rules: Ruleset,
    cards: Cards,
    game: GamePresent,
    *,
    ranked: bool,
    chance: bool = False,
) -> Table:
    """The decisions, one a row: where (the hand too when ``ranked``), the choice made
    and its value, the best choice and its value, the cost (``chance``: the values are
    chances, shown as percentages)."""
    from rich.table import Table

    table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2))
    if ranked:
        table.add_column("#", justify="right")
        table.add_column("hand", justify="right")
    table.add_column("decision", justify="right")
    table.add_column("trick", justify="right")
    table.add_column("step", justify="right")
    table.add_column("made")
    table.add_column("value", justify="right")
    table.add_column("best")
    table.add_column("value", justify="right")
    table.add_column("cost", justify="right")
    for rank, decision in enumerate(decisions, 1):
        moment = decision.moment
        trick = str(moment.trick) if moment.trick is not None else ""
        best = (
            "" if decision.best.action == moment.made else label(decision.best, rules, cards, game)
        )
        row = [str(moment.decision), trick, str(moment.event - 1)]
        if ranked:
            row = [str(rank), str(moment.hand), *row]
        row += [
            label(decision.made, rules, cards, game),
            value_text(decision.made, cards, chance),
            best or "same",
            value_text(decision.best, cards, chance) if best else "",
            _figure(decision.cost, cards, chance) if decision.cost > 0 else "",
        ]
        table.add_row(*row)
    return table


def label(choice: ChoiceFigure, rules: Ruleset, cards: Cards, game: GamePresent) -> str:
    """A choice as the terminal names it (``A♠``, ``bid 2``, the game's own words)."""
    from tricktaker.engine.actions import BID, Action

    from .human import action_label

    action = Action.parse(choice.action, labels=rules.joker_labels)
    text = action_label(action, cards, game, bare_cards=False)
    return f"bid {text}" if action.kind == BID else text


def value_text(choice: ChoiceFigure, cards: Cards, chance: bool = False) -> str:
    """A value with its standard error: ``12.5 ± 0.4`` (a chance: ``62% ± 3%``)."""
    from .human import chance_with_error, value_with_error

    if chance:
        return chance_with_error(choice.mean, choice.stderr, symbols=cards.symbols)
    return value_with_error(choice.mean, choice.stderr, symbols=cards.symbols)


def _figure(value: float, cards: Cards, chance: bool = False) -> str:
    """One decimal (a chance: a whole percentage), a real minus sign where the console
    has symbols."""
    text = f"{value:.0%}" if chance else f"{value:.1f}"
    return text.replace("-", "\N{MINUS SIGN}") if cards.symbols else text


CARD_WORD = re.compile(r"\b(10|[2-9JQKA])([CDHS])\b")
"""A card as records write it (``JH``), in a review's sentences."""


def shown_words(sentence: str, cards: Cards) -> str:
    """A review's sentence as the console shows cards (``J♥``); plain ASCII without
    symbols."""
    from tricktaker.cards import parse_card

    if not cards.symbols:
        return sentence.replace("\N{MINUS SIGN}", "-")
    return CARD_WORD.sub(lambda match: cards.card(parse_card(match.group(0))), sentence)
