"""``tricktaker rules``: the shipped games, or one game in full."""

from __future__ import annotations

import re
from typing import Annotated

import typer
from pydantic import BaseModel
from rich.console import Console
from rich.table import Table
from rich.text import Text

from tricktaker.engine import new_game
from tricktaker.rules import Ruleset, RulesetError, list_rulesets, load_ruleset
from tricktaker.rules.schema import Option

from .common import fail, load_rules, make_console, user_errors

ENDING = re.compile(
    r"\b(game ends|ends after|a game is|game:|game lasts|until the\b|to \d+ points)",
    re.IGNORECASE,
)
"""Notes that say how a game ends."""


def rules(
    game: Annotated[
        str | None,
        typer.Argument(
            metavar="[GAME]",
            help="A game id (see the list) or the path of a .toml ruleset file.",
            show_default=False,
        ),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            metavar="NAME=VALUE",
            help="Apply an option before showing the game (repeatable).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """List every shipped game, or show one game: rules, options and hand schedule."""
    console = make_console()
    if game is None:
        if option:
            fail("--option needs a GAME")
        list_games(console)
        return
    show_game(console, load_rules(game, option))


def players_text(ruleset: Ruleset) -> str:
    low, high = ruleset.spec.players.min, ruleset.spec.players.max
    return str(low) if low == high else f"{low}-{high}"


def list_games(console: Console) -> None:
    table = Table(title="Games", title_justify="left")
    table.add_column("Game", no_wrap=True)
    table.add_column("Name")
    table.add_column("Players", justify="center")
    table.add_column("Options")
    for game_id in list_rulesets():
        with user_errors():
            ruleset = load_ruleset(game_id)
        table.add_row(
            game_id, ruleset.name, players_text(ruleset), ", ".join(ruleset.spec.options) or "-"
        )
    console.print(table)
    console.print("Details: tricktaker rules GAME", markup=False)


def option_range(option: Option) -> str:
    if option.type == "bool":
        return "true / false"
    low = "" if option.min is None else str(option.min)
    high = "" if option.max is None else str(option.max)
    return f"{low}..{high}" if low or high else "whole number"


def glance(ruleset: Ruleset) -> list[tuple[str, str]]:
    """The main settings in words."""
    spec = ruleset.spec
    deck = f"ranks {spec.deck.ranks}"
    if spec.deck.ranks_by_players:
        per = ", ".join(f"{n}p: {r}" for n, r in sorted(spec.deck.ranks_by_players.items()))
        deck += f" ({per})"
    if spec.deck.exclude:
        deck += f", without {' '.join(spec.deck.exclude)}"
    if spec.deck.jokers:
        deck += f", two jokers ({' / '.join(spec.deck.joker_labels)})"
    trump = spec.trump.method.replace("_", " ")
    if spec.trump.method == "rotate":
        trump += ": " + " ".join(spec.trump.rotation)
    bidding = f"{spec.bidding.style}, lowest bid {spec.bidding.min_bid}"
    if spec.bidding.hook:
        bidding += ", hook (the bids may not total the hand size)"
    if spec.bidding.sum_equals_hand:
        bidding += ", the bids must total the hand size"
    if spec.bidding.zero_streak_limit is not None:
        bidding += f", at most {spec.bidding.zero_streak_limit} zero bids in a row"
        if spec.bidding.zero_streak_min_players:
            bidding += f" (with {spec.bidding.zero_streak_min_players}+ players)"
    play = "follow suit" if spec.play.follow_suit else "no need to follow suit"
    if spec.play.must_trump:
        play += ", must trump when void"
    if spec.play.trump_lead == "after_broken":
        play += ", trumps led only once broken"
    if spec.deck.jokers:
        play += f", jokers {spec.play.jokers}"
    sc = spec.scoring
    scoring = f"exact: {sc.exact}"
    if sc.exact_zero is not None:
        scoring += f"; exact zero: {sc.exact_zero}"
    if sc.over is not None:
        scoring += f"; over: {sc.over}"
    if sc.under is not None:
        scoring += f"; under: {sc.under}"
    if sc.over is None or sc.under is None:
        scoring += f"; otherwise: {sc.otherwise}"
    if sc.trick_points:
        scoring += f"; plus per trick k: {sc.trick_points}"
    if spec.hooks is not None:
        return hooks_glance(ruleset, deck, trump, play)
    rows = [("Deck", deck), ("Trump", trump), ("Bidding", bidding), ("Play", play)]
    if ruleset.cooperative:
        rows.append(("Result", "cooperative: the whole table wins or loses together"))
    else:
        rows.append(("Scoring", scoring))
    return rows


def hooks_glance(ruleset: Ruleset, deck: str, trump: str, play: str) -> list[tuple[str, str]]:
    """The main settings of a game with its own phases (named hooks and ``[settings]``)."""
    spec = ruleset.spec
    rows = [("Deck", deck)]
    if spec.trump.method != "none":
        rows.append(("Trump", trump))
    if spec.table.partnerships:
        teams = " vs ".join(" & ".join(map(str, team)) for team in spec.table.partnerships)
        rows.append(("Teams", f"seats {teams}"))
    rows.append(("Play", play))
    rows.append(
        ("Hooks", f"{spec.hooks}: the game's own phases, bidding and scoring (see the notes)")
    )
    settings = settings_rows(ruleset)
    if settings:
        shown = [
            f"{name} = {value}" + (f" ({doc})" if doc else "") for name, value, doc in settings
        ]
        rows.append(("Settings", "; ".join(shown)))
    return rows


def settings_rows(ruleset: Ruleset) -> list[tuple[str, str, str]]:
    """``[settings]`` as (name, value, description), from the hooks' validated model."""
    model = ruleset.hook_settings
    if not isinstance(model, BaseModel):
        return [(k, _value(v), "") for k, v in ruleset.spec.settings.items()]
    fields = type(model).model_fields
    return [(name, _value(getattr(model, name)), fields[name].description or "") for name in fields]


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ", ".join(_value(v) for v in value)
    return str(value)


def game_length(ruleset: Ruleset) -> str:
    """How a game with its own phases ends: a fixed number of hands, or its notes' words."""
    hooks = ruleset.hooks
    hands: int | None = None
    if hooks is not None:
        try:
            state = new_game(ruleset, players=ruleset.player_counts[0], seed=0)
            hands = hooks.hands_in_game(state)
        except (RulesetError, ValueError):
            hands = None
    endings = [note for note in ruleset.spec.notes if ENDING.search(note)]
    if hands is not None:
        text = f"the game lasts {hands} hand{'s' if hands != 1 else ''}."
    else:
        text = "open-ended: the game has no fixed number of hands."
    if endings:
        text += " From the notes: " + " ".join(endings)
    elif hands is None:
        text += " It ends when the game's own rule says so."
    return text


def single_size(ruleset: Ruleset) -> int | None:
    """The hand size when every hand of every table has the same size, else None."""
    sizes: set[int] = set()
    for players in ruleset.player_counts:
        try:
            sizes |= {hand.hand_size for hand in ruleset.hands_for(players)}
        except RulesetError:
            return None
    return sizes.pop() if len(sizes) == 1 else None


def schedule_rows(ruleset: Ruleset) -> list[tuple[str, str]]:
    """One row per allowed player count: the hand sizes (special hands marked)."""
    spec = ruleset.spec.schedule
    rows: list[tuple[str, str]] = []
    for players in ruleset.player_counts:
        try:
            hands = ruleset.hands_for(players)
        except RulesetError as exc:
            rows.append((str(players), f"not playable: {exc}"))
            continue
        sizes = " ".join(f"{h.hand_size}*" if h.name else str(h.hand_size) for h in hands)
        rows.append((str(players), f"{sizes}  ({len(hands)} hands)"))
    if spec.advance == "when_all_exact":
        rows.append(("", f"a size is replayed until all are exact; at most {spec.max_hands} hands"))
    return rows


def show_game(console: Console, ruleset: Ruleset) -> None:
    spec = ruleset.spec
    console.rule(Text(f"{spec.name} ({spec.id})"))
    console.print(Text(spec.description))
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="bold")
    facts.add_column()
    facts.add_row("Players", players_text(ruleset))
    if spec.source:
        facts.add_row("Source", spec.source)
    facts.add_row("File", ruleset.source)
    for name, text in glance(ruleset):
        facts.add_row(name, text)
    console.print(facts)
    if spec.notes:
        console.print(Text("Notes (decisions)", style="bold"))
        notes = Table.grid(padding=(0, 1))
        notes.add_column()
        notes.add_column()
        for note in spec.notes:
            notes.add_row("  -", note)
        console.print(notes)
    if spec.options:
        table = Table(title="Options (--option NAME=VALUE)", title_justify="left")
        table.add_column("Option")
        table.add_column("Type")
        table.add_column("Default")
        table.add_column("Now" if any(_changed(ruleset)) else "Values")
        table.add_column("Description")
        for name, option, value in ruleset.describe_options():
            description = option.description
            if option.players:
                description += f" (players: {', '.join(map(str, option.players))})"
            if option.conflicts:
                description += f" (not with {', '.join(option.conflicts)})"
            shown = _show(value) if any(_changed(ruleset)) else option_range(option)
            table.add_row(name, option.type, _show(option.default), shown, description)
        console.print(table)
    else:
        console.print("Options: none")
    size = single_size(ruleset)
    if spec.hooks is not None and size is not None:
        console.print(Text("Schedule", style="bold"))
        console.print(Text(f"  {size} cards each, every hand; {game_length(ruleset)}"))
        return
    console.print(Text("Schedule (hand sizes by players)", style="bold"))
    if spec.schedule.called:
        sched = spec.schedule
        console.print(
            Text(
                f"  called: each dealer (the caller) calls the hand size, {sched.called_min} to"
                f" {sched.called_max} cards (fewer than 52 cards dealt in all), then the kind"
                f" of hand; the game lasts {sched.called_hands} hands."
            )
        )
        return
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right")
    table.add_column()
    for players, text in schedule_rows(ruleset):
        table.add_row(players, text)
    console.print(table)
    marks = [f"hand {s.hand}: {s.name.replace('_', ' ')}" for s in spec.schedule.special]
    if spec.schedule.final_all_dealt:
        marks.append("last hand: every card dealt, no trump")
    if marks:
        console.print(Text(f"  * special hands: {', '.join(marks)}"))


def _changed(ruleset: Ruleset) -> list[bool]:
    return [value != option.default for _, option, value in ruleset.describe_options()]


def _show(value: bool | int) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
