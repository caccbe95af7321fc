"""``tricktaker rules``: the shipped games, or one game in full.

For a shipped game the command prints the game's page (``docs/games/<id>.md``, shipped
with the package: rendered markdown on a terminal, the plain text of the page when the
output is piped), then the options with their current values and the schedule of hands
for one player count. A house-rules file has no page of its own: the command shows the
file's name, description, settings and options, and names the shipped page it builds on.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import BaseModel
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from tricktaker.docs import game_page, has_page, page_path
from tricktaker.engine import new_game
from tricktaker.engine.hooks import keeps_engine_bids
from tricktaker.rules import Ruleset, RulesetError, list_rulesets, load_ruleset
from tricktaker.rules.schema import Option

from .common import (
    command,
    default_players,
    fail,
    load_rules,
    make_console,
    paged,
    program_name,
    user_errors,
)

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
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-p",
            metavar="N",
            help="Show the schedule of hands for N players (default: 4 where the game"
            " allows it, else its smallest table).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """List every shipped game, or show one game: its rules page, options and schedule."""
    console = make_console()
    if game is None:
        if option or players is not None:
            fail("--option and --players need a GAME")
        list_games(console)
        return
    ruleset = load_rules(game, option)
    count = default_players(ruleset) if players is None else players
    with user_errors():
        ruleset.check_players(count)
    with paged(console):
        if is_shipped(game):
            show_game(console, ruleset, count)
        else:
            show_house_rules(console, ruleset, Path(game), count)


def is_shipped(game: str) -> bool:
    """Whether ``game`` names a shipped game (rather than a ruleset file)."""
    return not (game.endswith(".toml") or "/" in game) and game in list_rulesets()


def players_text(ruleset: Ruleset) -> str:
    """The allowed player counts, ``4`` or ``2-7``."""
    low, high = ruleset.spec.players.min, ruleset.spec.players.max
    return str(low) if low == high else f"{low}-{high}"


def list_games(console: Console) -> None:
    """The table of shipped games."""
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
    console.print(f"Details: {program_name()} rules GAME [--players N]", markup=False)


# ------------------------------------------------------------------ one game


def show_game(console: Console, ruleset: Ruleset, players: int) -> None:
    """A shipped game: its page, then its options and its schedule for ``players``."""
    spec = ruleset.spec
    if has_page(spec.id):
        show_page(console, game_page(spec.id))
    else:  # a game shipped without a page: its settings in words
        console.rule(Text(f"{spec.name} ({spec.id})"))
        console.print(Text(spec.description))
        show_facts(console, ruleset)
    console.rule(Text(f"{spec.name}: options and schedule"))
    show_options(console, ruleset)
    show_settings(console, ruleset)
    show_schedule(console, ruleset, players)


def show_settings(console: Console, ruleset: Ruleset) -> None:
    """The current values of a game's own settings (Pluck's quotas, Buckup's stakes)."""
    rows = settings_rows(ruleset)
    if not rows:
        return
    console.print(Text("Settings", style="bold"))
    for name, value, doc in rows:
        console.print(Text(f"  {name} = {value}" + (f" ({doc})" if doc else "")))


def show_page(console: Console, text: str) -> None:
    """A markdown page: rendered on a terminal, as it is written otherwise."""
    if console.is_terminal:
        console.print(Markdown(text))
    else:
        console.print(text.rstrip("\n"), markup=False, highlight=False, soft_wrap=True)
    console.print()


def show_house_rules(console: Console, ruleset: Ruleset, path: Path, players: int) -> None:
    """A ruleset file: what it says itself, and the shipped page it builds on."""
    spec = ruleset.spec
    console.rule(Text(f"{spec.name} ({spec.id})"))
    console.print(Text(spec.description))
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="bold")
    facts.add_column()
    facts.add_row("File", str(path))
    parent = base_game(path)
    if parent is None:
        facts.add_row("Based on", "no shipped game: every rule is in the file")
    else:
        base = load_ruleset(parent)
        facts.add_row(
            "Based on",
            f"{base.name}: its page ({page_path(parent)}, or: {command('rules', parent)})"
            " applies except where this file changes it",
        )
        changed = changed_fields(base.data, ruleset.data)
        facts.add_row("Changes", ", ".join(changed) if changed else "none")
    console.print(facts)
    show_facts(console, ruleset)
    if parent is None or ruleset.spec.notes != load_ruleset(parent).spec.notes:
        show_notes(console, ruleset)
    show_options(console, ruleset)
    show_schedule(console, ruleset, players)


def base_game(path: Path) -> str | None:
    """The shipped game a ruleset file builds on: the end of its ``extends`` chain, or the
    game whose hooks it uses; None for a file that stands alone."""
    seen: set[Path] = set()
    current = path
    while current not in seen:
        seen.add(current)
        try:
            data = tomllib.loads(current.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError):
            return None
        parent = data.get("extends")
        if not isinstance(parent, str):
            hooks = data.get("hooks")
            return hooks if isinstance(hooks, str) and hooks in list_rulesets() else None
        if not (parent.endswith(".toml") or "/" in parent):
            return parent if parent in list_rulesets() else None
        current = current.parent / parent
    return None


def changed_fields(base: Mapping[str, Any], data: Mapping[str, Any]) -> list[str]:
    """The dotted names of the fields whose values differ (``schedule.sizes``); the name,
    description, source and notes are not rules and are left out."""
    old, new = dict(_flatten(base)), dict(_flatten(data))
    skip = ("id", "name", "description", "source", "notes")
    return [
        key
        for key in sorted(old.keys() | new.keys())
        if key.split(".")[0] not in skip and old.get(key) != new.get(key)
    ]


def _flatten(data: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            yield from _flatten(value, f"{name}.")
        else:
            yield name, value


def show_facts(console: Console, ruleset: Ruleset) -> None:
    """The main settings of a ruleset, in words."""
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="bold")
    facts.add_column()
    facts.add_row("Players", players_text(ruleset))
    for name, text in glance(ruleset):
        facts.add_row(name, text)
    console.print(facts)


def show_notes(console: Console, ruleset: Ruleset) -> None:
    """The ruleset's notes, if it has any."""
    if not ruleset.spec.notes:
        return
    console.print(Text("Notes", style="bold"))
    notes = Table.grid(padding=(0, 1))
    notes.add_column()
    notes.add_column()
    for note in ruleset.spec.notes:
        notes.add_row("  -", note)
    console.print(notes)


def show_options(console: Console, ruleset: Ruleset) -> None:
    """The options table: type, default, and the current value (or the allowed values)."""
    if not ruleset.spec.options:
        console.print("Options: none")
        return
    changed = any(_changed(ruleset))
    table = Table(title="Options (--option NAME=VALUE)", title_justify="left")
    table.add_column("Option")
    table.add_column("Type")
    table.add_column("Default")
    table.add_column("Now" if changed else "Values")
    table.add_column("Description")
    for name, option, value in ruleset.describe_options():
        description = option.description
        if option.players:
            description += f" (players: {', '.join(map(str, option.players))})"
        if option.conflicts:
            description += f" (not with {', '.join(option.conflicts)})"
        shown = _show(value) if changed else option_range(option)
        table.add_row(name, option.type, _show(option.default), shown, description)
    console.print(table)


def option_range(option: Option) -> str:
    """The values an option takes, in words."""
    if option.type == "bool":
        return "true / false"
    low = "" if option.min is None else str(option.min)
    high = "" if option.max is None else str(option.max)
    return f"{low}..{high}" if low or high else "whole number"


# ------------------------------------------------------------------ schedule


def show_schedule(console: Console, ruleset: Ruleset, players: int) -> None:
    """The hands of a game for ``players`` players."""
    spec = ruleset.spec
    console.print(Text(f"Schedule for {players} players", style="bold"))
    console.print(Text(f"  {schedule_text(ruleset, players)}"))
    if spec.schedule.called or spec.hooks is not None:
        return
    marks = [f"hand {s.hand}: {s.name.replace('_', ' ')}" for s in spec.schedule.special]
    if spec.schedule.final_all_dealt:
        marks.append("last hand: every card dealt, no trump")
    if marks:
        console.print(Text(f"  * special hands: {', '.join(marks)}"))


def schedule_text(ruleset: Ruleset, players: int) -> str:
    """The hand sizes for ``players`` players in words (special hands marked ``*``)."""
    sched = ruleset.spec.schedule
    if sched.called:
        return (
            f"called: each dealer (the caller) calls the hand size, {sched.called_min} to"
            f" {sched.called_max} cards (fewer than 52 cards dealt in all), then the kind"
            f" of hand; the game lasts {sched.called_hands} hands."
        )
    try:
        hands = ruleset.hands_for(players)
    except RulesetError as exc:
        return f"not playable: {exc}"
    if not keeps_engine_bids(ruleset.hooks) and len({h.hand_size for h in hands}) == 1:
        return f"{hands[0].hand_size} cards each, every hand; {game_length(ruleset, players)}"
    sizes = " ".join(f"{h.hand_size}*" if h.name else str(h.hand_size) for h in hands)
    text = f"{sizes}  ({len(hands)} hands)"
    if sched.advance == "when_all_exact":
        text += f"; a size is replayed until all are exact, at most {sched.max_hands} hands"
    return text


def game_length(ruleset: Ruleset, players: int) -> str:
    """How long a game with its own phases lasts: a fixed number of hands, or open-ended
    (then with the ruleset's notes that say how it ends)."""
    hooks = ruleset.hooks
    hands: int | None = None
    if hooks is not None:
        try:
            hands = hooks.hands_in_game(new_game(ruleset, players=players, seed=0))
        except (RulesetError, ValueError):
            hands = None
    if hands is not None:
        return f"the game lasts {hands} hand{'s' if hands != 1 else ''}."
    text = "open-ended: the game has no fixed number of hands."
    endings = [note for note in ruleset.spec.notes if ENDING.search(note)]
    if endings:
        text += " " + " ".join(endings)
    if has_page(ruleset.id):
        text += f" See {page_path(ruleset.id)}, End of the game."
    return text


# ------------------------------------------------------------------ in words


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
    play = "follow suit" if spec.play.follow_suit else "no need to follow suit"
    if spec.play.must_trump:
        play += ", must trump when void"
    if spec.play.trump_lead == "after_broken":
        play += ", trumps led only once broken"
    if spec.deck.jokers:
        play += f", jokers {spec.play.jokers}"
    if not keeps_engine_bids(ruleset.hooks):
        return hooks_glance(ruleset, deck, trump, play)
    bidding = f"{spec.bidding.style}, lowest bid {spec.bidding.min_bid}"
    if spec.bidding.hook:
        bidding += ", hook (the bids may not total the hand size)"
    if spec.bidding.sum_equals_hand:
        bidding += ", the bids must total the hand size"
    if spec.bidding.zero_streak_limit is not None:
        bidding += f", at most {spec.bidding.zero_streak_limit} zero bids in a row"
        if spec.bidding.zero_streak_min_players:
            bidding += f" (with {spec.bidding.zero_streak_min_players}+ players)"
    rows = [("Deck", deck), ("Trump", trump), ("Bidding", bidding), ("Play", play)]
    if ruleset.cooperative:
        rows.append(("Result", "cooperative: the whole table wins or loses together"))
    else:
        rows.append(("Scoring", scoring_text(ruleset)))
    return rows


def scoring_text(ruleset: Ruleset) -> str:
    """The scoring formulas in words."""
    sc = ruleset.spec.scoring
    text = f"exact: {sc.exact}"
    if sc.exact_zero is not None:
        text += f"; exact zero: {sc.exact_zero}"
    if sc.over is not None:
        text += f"; over: {sc.over}"
    if sc.under is not None:
        text += f"; under: {sc.under}"
    if sc.over is None or sc.under is None:
        text += f"; otherwise: {sc.otherwise}"
    if sc.trick_points:
        text += f"; plus per trick k: {sc.trick_points}"
    return text


def hooks_glance(ruleset: Ruleset, deck: str, trump: str, play: str) -> list[tuple[str, str]]:
    """The main settings of a game with its own phases (named hooks and ``[settings]``)."""
    spec = ruleset.spec
    rows = [("Deck", deck)]
    if spec.trump.method != "none":
        rows.append(("Trump", trump))
    if spec.table.partnerships:
        teams = " vs ".join(
            " & ".join(str(seat + 1) for seat in team) for team in spec.table.partnerships
        )
        rows.append(("Teams", f"seats {teams}"))
    rows.append(("Play", play))
    rows.append(("Phases", f"{spec.hooks}: the game's own phases, bidding and scoring"))
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


def _changed(ruleset: Ruleset) -> list[bool]:
    return [value != option.default for _, option, value in ruleset.describe_options()]


def _show(value: bool | int | None) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
