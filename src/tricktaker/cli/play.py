"""``tricktaker play``: people against bots in the terminal.

One person plays one seat (``--seat K``), or several people share the terminal
(``--humans 1,3``, ``--hotseat``: pass-and-play; seats are counted from 1 on the
command line and on the screen, from 0 in the engine and the records). Each person is
shown only their own observation (``state.observe(seat)``); bots act from theirs.
Everything narrated is public: bids once revealed, calls, cards played, trick winners
and hand results, plus what the person's own observation shows (a card passed to them,
the kitty they take). With several people, each one's narration is held back until
their next turn, after a screen that asks to pass the terminal on (the screen and its
scrollback wiped), so no one sees another's cards.

The game is saved after every action (``--save FILE``, or a file in the user's data
folder); ``quit`` or Ctrl-C says where, and ``tricktaker play --resume FILE`` carries on.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.table import Table as RichTable
from rich.text import Text

from tricktaker.bots import Bot
from tricktaker.bots.names import bot_name
from tricktaker.cards import parse_card, pretty_card
from tricktaker.engine import Action, GameRecord, GameState, IllegalActionError, Observation
from tricktaker.present.game import game_present
from tricktaker.present.narrate import action_lines, change_lines
from tricktaker.present.panels import panel_game
from tricktaker.present.scorecard import observation_scorecard
from tricktaker.present.scorecard import scorecard as score_sheet

from .common import (
    BOTS_HELP,
    FAILURE,
    INTERRUPTED,
    FourColourOption,
    GameOptions,
    ResumableGameArgument,
    command,
    default_players,
    fail,
    load_rules,
    make_bots,
    plural,
    program_name,
    random_seed,
    record_path,
    save_record,
    start_game,
    unicode_ok,
)
from .human import (
    RANK_WORDS,
    card_choice,
    legal_cards,
    lists_choices,
    prompt_text,
    read_reply,
    show_choices,
    show_hint,
)
from .narrate_games import shown, styled
from .render import (
    Cards,
    SuitColours,
    cooperative_line,
    hand_heading,
    hand_result_table,
    paint,
    scorecard,
    seat_names,
    standings_table,
    table_view,
    winners_line,
)
from .render_games import game_lines, seat_grid
from .saves import SavedGame, SaveError, Saver, new_save_path, resume_seed, saved_game_kind
from .scorecards import game_hand_table, game_scorecard, has_bids, result_line
from .seating import Seating, seating

CARD_TOKEN = re.compile(r"\b(10|[2-9JQKA])([CDHS])\b")
"""A card written with a suit letter in an engine message (``JD``), shown as ``J♦``."""


SEAT_MENTION = re.compile(r"\(seat (\d+)\)")
"""A seat named by number in an engine message (``(seat 2)``), shown by its name."""


class GameAbandonedError(Exception):
    """A person quit (``quit``, end of input)."""


@dataclass(slots=True)
class View:
    """What one person at the table is told, from their seat: narration waits in
    ``lines`` until it may be shown (at once with one person; at their next turn when
    several share the terminal)."""

    seat: int
    names: list[str]
    prev: Observation
    lines: list[RenderableType] = field(default_factory=list)

    def say(self, text: str, style: str = "") -> None:
        self.lines.append(Text(text, style=style))

    def add(self, renderable: RenderableType) -> None:
        self.lines.append(renderable)

    def heading(self, text: str) -> None:
        self.lines.append(Rule(Text(text)))


class Table:
    """A game in progress between people and bots, narrated on a console."""

    def __init__(
        self,
        console: Console,
        state: GameState,
        humans: Sequence[int],
        bots: dict[int, Bot],
        cards: Cards,
        *,
        names: Sequence[str] | None = None,
        save: Callable[[], None] | None = None,
        levels: Mapping[int, str] | None = None,
        hints: list[dict[str, Any]] | None = None,
    ) -> None:
        self.console = console
        self.state = state
        self.humans = tuple(humans)
        self.bots = bots
        self.cards = cards
        self.given_names = tuple(names) if names is not None else None
        self.labels = table_names(state.players, self.humans, bots, self.given_names)
        """Each seat's name for the whole table: the given names, else ``Seat K`` for a
        person and a short name for a bot (``Ada``)."""
        self.levels = levels or {}
        """The bots' levels by seat, shown beside their names in the seat grid."""
        self.save = save or (lambda: None)
        self.hints = hints if hints is not None else []
        """When a person asked for a hint, as the record keeps it
        (:attr:`~tricktaker.engine.GameRecord.hints`)."""
        self.hotseat = len(self.humans) > 1
        self.views = {
            seat: View(seat, self.names_for(seat), state.observe(seat)) for seat in self.humans
        }
        self.viewer: int | None = None if self.hotseat else self.humans[0]
        """The person whose screen it is (None before the first turn with several)."""
        self.simultaneous = state.rules.spec.bidding.style == "simultaneous"
        self.game_panel = panel_game(state.observe(self.humans[0])) is not None
        """Whether the game declares a panel of its own (Pluck, Euchre, Buckup): its seat grid,
        its result line."""
        self.partnerships = state.setup.partnerships

    def names_for(self, seat: int) -> list[str]:
        """The seats' names as ``seat`` is told them: the given names, else ``You`` for
        its own seat and the table's names (:attr:`labels`) for the others."""
        if self.given_names is not None:
            return list(self.given_names)
        return ["You" if other == seat else name for other, name in enumerate(self.labels)]

    def name(self, seat: int) -> str:
        """The seat's name when speaking to the whole table."""
        return self.labels[seat]

    # ------------------------------------------------------------ the loop

    def run(self) -> None:
        """Play to the end; raises :class:`GameAbandonedError` if a person quits."""
        state = self.state
        for view in self.views.values():
            view.add(Text(""))
            view.heading(hand_heading(view.prev, view.names))
        if self.viewer is not None:
            self.flush(self.viewer)
        while not state.is_terminal():
            action: Action | None = None
            seat = -1
            if state.is_chance():
                state.apply_chance()
            else:
                seat = self.next_seat(state.to_act())
                if seat in self.views:
                    self.save()
                    self.turn_to(seat)
                    action = self.ask(seat)
                else:
                    action = self.bots[seat].act(state.observe(seat))
                state.apply(seat, action)
                self.save()
            for view in self.views.values():
                new = state.observe(view.seat)
                if action is not None:
                    self.narrate_action(view, seat, action, new)
                self.narrate_changes(view, new)
                view.prev = new
            if not self.hotseat and self.viewer is not None:
                self.flush(self.viewer)
        self.save()
        self.viewer = self.humans[0] if self.viewer is None else self.viewer
        self.flush(self.viewer)

    def next_seat(self, waiting: Sequence[int]) -> int:
        """Who acts next: the person at the screen if waiting, else another person, else
        the first bot waiting (several act in turn when bids are simultaneous)."""
        if self.viewer is not None and self.viewer in waiting:
            return self.viewer
        return next((s for s in waiting if s in self.views), waiting[0])

    def turn_to(self, seat: int) -> None:
        """Give the screen to ``seat``: with several people, before each person's turn
        (the first included) wipe the screen and its scrollback, so nothing of another's
        hand can be scrolled back to, and wait until the person named is ready; then show
        what happened since their last turn."""
        if self.hotseat and seat != self.viewer:
            if self.viewer is not None:  # the first time, the screen holds no hand yet
                self.wipe()
            name = self.name(seat)
            try:
                line = self.console.input(
                    Text(f"Pass to {name}: press Enter when {name} is ready ")
                )
            except EOFError:
                raise GameAbandonedError from None
            if line.strip().lower() in ("q", "quit", "exit"):
                raise GameAbandonedError
            self.wipe()
        self.viewer = seat
        self.flush(seat)

    def wipe(self) -> None:
        """Clear a terminal's screen and its scrollback (ESC[3J), the cursor home; nothing
        off a terminal."""
        console = self.console
        if console.is_terminal and not console.is_dumb_terminal:
            console.file.write("\x1b[H\x1b[2J\x1b[3J")
            console.file.flush()

    def flush(self, seat: int) -> None:
        """Print the narration waiting for ``seat``."""
        view = self.views[seat]
        for item in view.lines:
            if isinstance(item, Text):
                self.console.print(paint(self.console, item), soft_wrap=True)
            else:
                self.console.print(item)
        view.lines.clear()

    def say(self, text: str, style: str = "") -> None:
        self.console.print(paint(self.console, Text(text, style=style)), soft_wrap=True)

    # --------------------------------------------------------- the person

    def ask(self, seat: int) -> Action:
        """Show the table to ``seat`` and read its decision until it is legal."""
        obs = self.state.observe(seat)
        view = self.views[seat]
        names = view.names
        turn = "Your turn" if names[seat] == "You" else f"{names[seat]}'s turn"
        self.console.print()
        self.show_turn(obs, names, turn, legal_cards(obs))
        while True:
            read = self.read_choice(obs, names, painted=True)
            if read is None:
                raise GameAbandonedError
            line, action = read
            try:
                self.state.check(seat, action)
            except IllegalActionError as exc:
                self.say(self.refusal(line, action, exc, obs), "red")
                continue
            return action

    def show_turn(
        self, obs: Observation, names: Sequence[str], turn: str, numbered: frozenset[int] | None
    ) -> None:
        """The table as ``obs`` shows it, headed ``turn``, with the choices listed where
        the phase lists them."""
        if self.game_panel:
            lines = game_lines(obs, names, self.cards)
            grid = seat_grid(obs, names, self.levels)
            table_view(
                self.console,
                obs,
                names,
                self.cards,
                lines_after=lines,
                grid=grid,
                turn=turn,
                numbered=numbered,
            )
        else:
            table_view(
                self.console,
                obs,
                names,
                self.cards,
                turn=turn,
                numbered=numbered,
                levels=self.levels,
            )
        if lists_choices(obs):
            show_choices(self.console, obs, self.cards)

    def read_choice(
        self, obs: Observation, names: Sequence[str], *, painted: bool
    ) -> tuple[str, Action] | None:
        """Read lines until one names an action (answering ``?`` and ``scores`` on the
        way): the line and its action, or None when the person quits or input ends.
        ``painted`` gives the prompt the console's suit colours."""
        while True:
            prompt = Text(prompt_text(obs, self.cards))
            try:
                line = self.console.input(paint(self.console, prompt) if painted else prompt)
            except EOFError:
                return None
            reply = read_reply(line, obs, self.cards)
            if reply.command == "quit":
                return None
            if reply.command == "help":
                show_choices(self.console, obs, self.cards)
                continue
            if reply.command == "scores":
                self.print_scorecard(obs, names)
                continue
            if reply.command == "hint":
                self.hint(obs)
                continue
            if reply.error is not None or reply.action is None:
                self.say(f"Not understood: {self.card_words(reply.error or '', obs)}", "red")
                continue
            return line, reply.action

    def hint(self, obs: Observation) -> None:
        """Show the coach's values of ``obs``'s choices and note in the record that the
        seat asked for them at this decision."""
        from tricktaker.coach.values import UnreachableDecisionError

        try:
            show_hint(self.console, obs, self.cards)
        except (NotImplementedError, UnreachableDecisionError) as exc:
            self.say(f"The coach cannot value this decision: {exc}", "red")
            return
        asked = {"seat": obs.seat, "at": len(self.state.events)}
        if not self.hints or self.hints[-1] != asked:
            self.hints.append(asked)
            self.save()

    def refusal(self, line: str, action: Action, exc: IllegalActionError, obs: Observation) -> str:
        """``Not allowed: ...``, naming the card when a number or a rank picked it, and
        the seats by their names."""
        text = line.strip()
        reason = self.card_words(str(exc), obs)
        seats = self.views[obs.seat].names
        reason = SEAT_MENTION.sub(lambda match: f"({seats[int(match.group(1))]})", reason)
        picked = text.isdigit() or text.lower() in RANK_WORDS
        if picked and card_choice(obs) is not None and isinstance(action.value, int):
            card = self.cards.card(action.value)
            stop = " (to stop, type quit)" if text.lower() == "q" else ""
            return f"Not allowed ({text} is {card}): {reason}{stop}"
        return f"Not allowed: {reason}"

    def card_words(self, message: str, obs: Observation) -> str:
        """An engine message with its cards written as the table shows them (``J♦``)
        where the message is about cards."""
        if not self.cards.symbols or card_choice(obs) is None:
            return message

        def pretty(match: re.Match[str]) -> str:
            return pretty_card(parse_card(match.group(0)))

        return CARD_TOKEN.sub(pretty, message)

    def print_scorecard(self, obs: Observation, names: Sequence[str]) -> None:
        if not obs.history:
            self.say("No hand has been scored yet.")
            return
        self.console.print(self.card_table(obs, names))

    def card_table(
        self,
        obs: Observation,
        names: Sequence[str],
        *,
        details: bool = True,
        title: str | None = None,
    ) -> RichTable:
        """The scorecard: per-seat bids (or quotas) where the game has them, else the
        game's; its suits in colour like the rest of the table."""
        sheet = observation_scorecard(obs, names, self.cards)
        if has_bids(obs.history, obs.players):
            table = scorecard(sheet, details=details, title=title)
        else:
            table = game_scorecard(sheet, title=title)
        for column in table.columns:
            column.highlight = True  # with the console's highlighter: the suit colours
        return table

    # ----------------------------------------------------------- narration

    def narrate_action(self, view: View, seat: int, action: Action, new: Observation) -> None:
        """Tell ``view``'s person what ``seat``'s ``action`` showed them."""
        for line in action_lines(seat, action, view.prev, new, view.names, self.cards):
            if shown(line, hotseat=self.hotseat):
                view.say(*styled(line))

    def narrate_changes(self, view: View, new: Observation) -> None:
        """Tell ``view``'s person what else changed since their last observation: the
        end of a hand (with its result and the scorecard), the deal, the trump..."""
        prev = view.prev
        names = view.names
        lines = change_lines(prev, new, names, self.cards)
        if new.hands_played <= prev.hands_played:
            for line in lines:
                view.say(*styled(line))
            return
        view.add(Text(""))
        for line in lines:
            if line.kind in ("hand_over", "summary"):
                view.say(*styled(line))
        hand = new.history[-1]
        game = game_present(new.rules)
        last = score_sheet([hand], names, self.cards, self.partnerships, game=game)
        quotas = last.layout == "quota"
        row = last.rows[0]
        if len(hand.bids) == new.players:
            header = "Quota" if quotas else "Bid"
            view.add(
                hand_result_table(
                    row,
                    names,
                    cooperative=new.cooperative,
                    bid_header=header,
                    outcome_words=last.outcome_words,
                )
            )
        else:
            view.add(game_hand_table(row, names))
        heading = [line.text for line in lines if line.kind == "next_hand"]
        if heading:  # from the observation alone (join uses it too): not after the last hand
            what = "quota/won over" if quotas else "bid/won score"
            title = f"Scorecard ({what})" if has_bids(new.history, new.players) else None
            view.add(self.card_table(new, names, details=False, title=title))
            view.add(Text(""))
            view.heading(heading[0])

    # -------------------------------------------------------------- the end

    def finish(self) -> None:
        state = self.state
        viewer = self.viewer if self.viewer is not None else self.humans[0]
        obs = state.observe(viewer)
        names = self.views[viewer].names
        self.console.print()
        self.console.rule(Text("Final scorecard"))
        self.console.print(self.card_table(obs, names))
        sheet = observation_scorecard(obs, names, self.cards)
        standings = standings_table(sheet, unit=sheet.unit)
        if standings is not None and not obs.cooperative:
            self.console.print()
            self.console.rule(Text("Final standings"))
            self.console.print(standings)
            self.console.print()
        if obs.cooperative:
            self.say(cooperative_line(state.hands_played, state.completed), "bold")
        elif self.game_panel:
            winners = state.winners()
            line = result_line(winners, names, state.scores, self.partnerships, unit=sheet.unit)
            self.say(line, "bold")
        else:
            self.say(winners_line(state.winners(), names, state.scores), "bold")


def table_names(
    players: int, humans: Sequence[int], bots: Collection[int], given: Sequence[str] | None
) -> list[str]:
    """Each seat's name: the ``given`` names, else ``Seat K`` (counted from 1) for a
    person and a short family name for a bot (:func:`~tricktaker.bots.names.bot_name`).

    >>> table_names(4, [0], [1, 2, 3], None)
    ['Seat 1', 'Ben', 'Cleo', 'Dot']
    >>> table_names(3, [0, 1], [2], ["Ann", "Bob", "Cy"])
    ['Ann', 'Bob', 'Cy']
    """
    if given is not None:
        return list(given)
    names = seat_names(players)
    taken = [names[seat] for seat in humans]
    for seat in sorted(bots):
        names[seat] = bot_name(seat, taken)
        taken.append(names[seat])
    return names


def play_console(*, four_colour: bool) -> Console:
    """The console of a game: suit colours on a terminal (red hearts and diamonds, or a
    four-colour deck), none when ``NO_COLOR`` is set or off a terminal; no markup, so
    text from ruleset files prints as written. Off a terminal the width is fixed."""
    terminal = sys.stdout.isatty()
    return Console(
        highlight=True,
        highlighter=SuitColours(four_colour=four_colour),
        markup=False,
        emoji=False,
        width=None if terminal or os.environ.get("COLUMNS") else 100,
        no_color=None if terminal else True,
        color_system="auto" if terminal else None,
    )


def play(
    game: ResumableGameArgument = None,
    players: Annotated[
        int | None,
        typer.Option(
            "--players",
            "-n",
            metavar="N",
            help="Players at the table (default: 4 if allowed).",
            min=1,
        ),
    ] = None,
    option: GameOptions = None,
    seed: Annotated[
        int | None,
        typer.Option("--seed", "-s", metavar="S", help="Seed of the deal (default: random)."),
    ] = None,
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat",
            metavar="K",
            help="Your seat, counted from 1 (default 1).",
            show_default=False,
        ),
    ] = None,
    humans: Annotated[
        str | None,
        typer.Option(
            "--humans",
            "--seats",
            metavar="K,K",
            help="Seats played by people at this terminal, e.g. 1,3 (pass-and-play).",
        ),
    ] = None,
    hotseat: Annotated[
        bool,
        typer.Option("--hotseat", help="Every seat is played by a person at this terminal."),
    ] = False,
    names: Annotated[
        str | None,
        typer.Option(
            "--names",
            metavar="A,B,...",
            help="A name for every seat, in seat order, e.g. Ann,Bob,Cy,Di.",
        ),
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            "-b",
            help="Bot for the other seats, or a comma list with one per other seat"
            f" ({BOTS_HELP}; default heuristic).",
            show_default=False,
        ),
    ] = None,
    four_colour: FourColourOption = False,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save",
            metavar="FILE",
            help="Save the game to FILE after every action (default: a file in your data folder).",
            dir_okay=False,
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option("--resume", metavar="FILE", help="Carry on a saved game.", dir_okay=False),
    ] = None,
    record: Annotated[
        Path | None,
        typer.Option(
            "--record", metavar="DIR", help="Save the game record into DIR.", file_okay=False
        ),
    ] = None,
) -> None:
    """Play a game in the terminal against bots, alone or with friends at one terminal
    (type ? at a prompt for help)."""
    console = play_console(four_colour=four_colour)
    if resume is not None:
        given = {
            "GAME": game,
            "--players": players,
            "--option": option,
            "--seed": seed,
            "--seat": seat,
            "--humans": humans,
            "--hotseat": hotseat or None,
            "--names": names,
            "--bots": bots,
        }
        clashing = [key for key, value in given.items() if value is not None]
        if clashing:
            fail(f"--resume carries on a saved game as it was: leave out {', '.join(clashing)}")
        state, seated, path, hints = resumed(resume, save)
    else:
        if game is None:
            fail(f"give a GAME to play ({program_name()} rules lists them), or --resume FILE")
        kind = saved_game_kind(game)
        if kind == "save":
            fail(f"{game}: that looks like a saved game: use {command('play', '--resume', game)}")
        if kind == "record":
            fail(f"{game}: that is a game record: {command('replay', game)} shows it")
        if kind == "json":
            fail(
                f"{game}: that is a JSON file, not a game: a saved game is carried on with --resume"
            )
        rules = load_rules(game, option)
        count = players if players is not None else default_players(rules)
        game_seed = seed if seed is not None else random_seed()
        state = start_game(rules, count, game_seed)
        seated = seating(count, seat=seat, humans=humans, hotseat=hotseat, bots=bots, names=names)
        path = save if save is not None else new_save_path(f"{rules.id}-seed{game_seed}")
        hints = []
    play_on(
        console,
        state,
        seated,
        path,
        record=record,
        auto_save=save is None and resume is None,
        hints=hints,
    )


def resumed(path: Path, save: Path | None) -> tuple[GameState, Seating, Path, list[dict[str, Any]]]:
    """The saved game's state, seats, file and hints asked (errors exit with a message)."""
    try:
        saved = SavedGame.load(path)
        state = saved.replay()
    except SaveError as exc:
        message = str(exc)
        fail(message if message.startswith(str(path)) else f"{path}: {message}")
    seated = Seating(saved.humans, dict(saved.bots), saved.names)
    return state, seated, save or path, list(saved.record.hints)


def play_on(
    console: Console,
    state: GameState,
    seated: Seating,
    path: Path,
    *,
    record: Path | None,
    auto_save: bool,
    hints: list[dict[str, Any]] | None = None,
) -> None:
    """Seat the bots, play to the end or until a person stops, and say where the game is.
    ``hints``: the hints asked so far (a resumed game's), to which the game's add."""
    rules = state.rules
    resuming = bool(state.events)
    bot_seed = resume_seed(state.seed, len(state.events)) if resuming else state.seed
    seated_bots = make_bots(seated.bots, bot_seed)
    cards = Cards(labels=rules.joker_labels, symbols=unicode_ok(console))
    labels = table_names(state.players, seated.humans, seated.bots, seated.names)
    saver = Saver(
        console,
        state,
        path,
        humans=seated.humans,
        bots=seated.bots,
        names=seated.names,
        record_names=labels,
        hints=hints,
    )
    table = Table(
        console,
        state,
        seated.humans,
        seated_bots,
        cards,
        names=seated.names,
        save=saver,
        levels=seated.bots,
        hints=saver.hints,
    )
    console.print(Text(intro(state, seated, table, resuming=resuming)))
    console.print(
        "Type ? for your legal choices, hint for the coach's values, scores for the scorecard,"
        " quit to stop."
    )
    interrupted = False
    try:
        table.run()
    except (GameAbandonedError, KeyboardInterrupt) as exc:
        interrupted = isinstance(exc, KeyboardInterrupt)
        console.print()
        console.print(Text(f"Game stopped after {plural(state.hands_played, 'complete hand')}."))
        if saver.ok:
            saved = f"Game saved to {path}; carry on with: {command('play', '--resume', path)}"
            console.print(Text(saved), soft_wrap=True)
    else:
        table.finish()
        if auto_save and saver.ok:
            path.unlink(missing_ok=True)
    if record is not None:
        file = record_path(record, f"{rules.id}-seed{state.seed}")
        save_record(GameRecord.of(state, names=labels, hints=table.hints), file)
        console.print(Text(f"Record saved: {file}"))
    if interrupted:
        raise typer.Exit(INTERRUPTED)
    if saver.broken:
        raise typer.Exit(FAILURE)


def intro(state: GameState, seated: Seating, table: Table, *, resuming: bool) -> str:
    """The first line: the game, the seed, who sits where."""
    count = state.players
    start = f"{state.rules.name}: {count} players"
    if resuming:
        start = (
            f"Carrying on {state.rules.name} from hand {state.hands_played + 1}: {count} players"
        )
    bots = ", ".join(f"{table.name(s)} ({kind})" for s, kind in sorted(seated.bots.items()))
    if len(seated.humans) == 1 and seated.names is None:
        people = f"You are seat {seated.humans[0] + 1}"
    elif seated.names is None:
        *first, last = (str(s + 1) for s in seated.humans)
        people = f"At this terminal: seats {', '.join(first)} and {last}"
    else:
        people = "At this terminal: " + ", ".join(
            f"{table.name(s)} (seat {s + 1})" for s in seated.humans
        )
    return f"{start}, seed {state.seed}. {people}" + (f"; bots: {bots}." if bots else ".")
