"""``tricktaker score``: keep the score of a game played with real cards.

Hand by hand the command shows the dealer, the hand size, the trump rule and who bids
first, asks the bids in order (each checked as it is typed), then the tricks, and
shows the sheet. At any prompt: ``fix N`` corrects hand N, ``undo`` takes back the
last hand, ``sheet`` shows the sheet, ``export FILE`` writes it (.csv, .md or .json),
``quit`` saves and stops. The sheet is saved after every hand.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from tricktaker.cli.common import (
    FAILURE,
    GameOptions,
    ResumableGameArgument,
    fail,
    make_console,
    parse_options,
    unknown_game,
)

if TYPE_CHECKING:
    from rich.console import Console

    from tricktaker.scorekeeper import CallEntry, HandEntry, ScoreSheet
    from tricktaker.scorekeeper.steps import Step, TricksAsked

HELP = (
    "Type a number (or a name where asked). Commands at any prompt: fix N (correct hand N),"
    " undo (take back the last hand), sheet (show the sheet), export FILE (.csv, .md or"
    " .json), quit (save and stop)."
)


class _CommandError(Exception):
    """A command typed at a prompt that leaves the hand being entered."""

    def __init__(self, name: str, argument: str = "") -> None:
        super().__init__(name)
        self.name = name
        self.argument = argument


class Keeper:
    """The terminal session around one :class:`ScoreSheet`."""

    def __init__(self, sheet: ScoreSheet, console: Console, path: Path) -> None:
        self.sheet = sheet
        self.console = console
        self.path = path

    # ---------------------------------------------------------------- output

    def say(self, text: str, style: str = "") -> None:
        from rich.text import Text

        self.console.print(Text(text, style=style), soft_wrap=True)

    def show_sheet(self) -> None:
        from rich.table import Table

        from tricktaker.scorekeeper.export import result_line

        sheet = self.sheet
        card = sheet.scorecard()
        table = Table(title=f"{sheet.rules.name}: bid/tricks score = total", title_justify="left")
        for heading in ("Hand", "Dealer", "Cards", "Trump"):
            table.add_column(heading)
        for name in card.names:
            table.add_column(name, justify="right")
        for row in card.rows:
            trump = row.trump_text
            if row.special:
                trump = f"{trump} ({row.special})" if trump else row.special
            cells = [
                ("" if seat.bid is None else f"{seat.bid}/")
                + f"{seat.tricks} {seat.score:+d} = {seat.total}"
                for seat in row.seats
            ]
            table.add_row(str(row.hand), row.dealer_name, str(row.hand_size), trump, *cells)
        counts = card.counts or [{"S": 0, "O": 0, "P": 0} for _ in card.names]
        for outcome in "SOP":
            table.add_row(outcome, "", "", "", *(str(c[outcome]) for c in counts), style="dim")
        self.console.print(table)
        chips = sheet.chips()
        if chips is not None:
            stacks = ", ".join(f"{sheet.players[s]} {c}" for s, c in enumerate(chips[0]))
            self.say(f"Stacks: {stacks}; pot {chips[1]}.")
        self.say(result_line(sheet), "bold")

    def save(self) -> None:
        from tricktaker.scorekeeper import sheet_to_json

        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(sheet_to_json(self.sheet), indent=1) + "\n")
        except OSError as exc:
            fail(f"{self.path}: cannot save the sheet: {exc.strerror}", status=FAILURE)

    def export(self, target: str) -> None:
        from tricktaker.scorekeeper import sheet_to_csv, sheet_to_json, sheet_to_markdown

        path = Path(target.strip())
        if path.suffix == ".csv":
            text = sheet_to_csv(self.sheet)
        elif path.suffix == ".md":
            text = sheet_to_markdown(self.sheet)
        elif path.suffix == ".json":
            text = json.dumps(sheet_to_json(self.sheet), indent=1) + "\n"
        else:
            self.say("Not understood: export FILE needs a .csv, .md or .json file", "red")
            return
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            self.say(f"Cannot write {path}: {exc.strerror}", "red")
            return
        self.say(f"Sheet written to {path}.")

    # ---------------------------------------------------------------- input

    def ask(self, prompt: str) -> str:
        """A line typed at ``prompt``; commands are handled or raised as :class:`_CommandError`."""
        while True:
            try:
                line = self.console.input(f"{prompt}: ").strip()
            except EOFError:
                raise _CommandError("quit") from None
            word, _, rest = line.partition(" ")
            word = word.lower()
            if word in ("?", "help"):
                self.say(HELP)
            elif word == "sheet":
                self.show_sheet()
            elif word == "export" and rest:
                self.export(rest)
            elif word in ("quit", "undo", "fix"):
                raise _CommandError(word, rest.strip())
            else:
                return line

    def ask_number(self, prompt: str, *, default: int | None = None) -> int:
        """A number typed at ``prompt``; with a ``default``, Enter gives it (the prompt
        says so)."""
        if default is not None:
            prompt = (
                f"{prompt[:-1]}; Enter: {default})"
                if prompt.endswith(")")
                else f"{prompt} (Enter: {default})"
            )
        while True:
            text = self.ask(prompt)
            if not text and default is not None:
                return default
            if text.isdigit():
                return int(text)
            self.say(f"Not understood: {text!r} is not a number (type ? for help)", "red")

    def ask_call(self, sheet: ScoreSheet, old: CallEntry | None = None) -> CallEntry:
        """Caller Clag's call (in a correction, Enter keeps each part of ``old``)."""
        from tricktaker.scorekeeper import CallEntry

        nxt = sheet.next_hand()
        caller = sheet.players[nxt.dealer]
        sizes = nxt.call_sizes
        was = old or CallEntry(0)
        while True:
            size = self.ask_number(
                f"{caller} calls the hand size ({sizes[0]}-{sizes[-1]})",
                default=old.size if old else None,
            )
            if self.refused(sheet, CallEntry(size)):
                continue
            break
        while True:
            text = self.ask(f"Kind ({', '.join(nxt.call_kinds)}; Enter: {was.kind})")
            kind = (text or was.kind).strip()
            if self.refused(sheet, CallEntry(size, kind)):
                continue
            break
        while True:
            kept = ", ".join(was.modifiers) or "none"
            mods = self.ask(f"Modifiers, comma separated (Enter: {kept})")
            if not mods.strip():
                mods = ", ".join(was.modifiers)
            modifiers = tuple(m.strip() for m in mods.split(",") if m.strip())
            call = CallEntry(size, kind, modifiers)
            if self.refused(sheet, call):
                continue
            return call

    def refused(self, sheet: ScoreSheet, call: CallEntry) -> bool:
        """Whether the rules refuse ``call`` (said on the screen)."""
        from tricktaker.scorekeeper import EntryError

        try:
            sheet.check_call(call)
        except EntryError as exc:
            self.say(f"Not allowed: {exc}", "red")
            return True
        return False

    def ask_hand(self, sheet: ScoreSheet, old: HandEntry | None = None) -> HandEntry:
        """Ask the next hand of ``sheet`` (the whole sheet, or its start for a fix, where
        Enter keeps each value of the ``old`` entry): the call, the trump, the bids, the
        game's own steps as its scorekeeper gives them, then the tricks."""
        from tricktaker.scorekeeper import EntryError
        from tricktaker.scorekeeper.entries import trump_word
        from tricktaker.scorekeeper.offers import bid_offer

        names = sheet.players
        nxt = sheet.next_hand()
        size_text = f"{nxt.hand_size} cards" if nxt.hand_size is not None else "a called hand"
        self.console.print()
        self.say(
            f"Hand {nxt.number}: {names[nxt.dealer]} deals {size_text}; trump: {nxt.trump_rule};"
            f" {nxt.opening}.",
            "bold",
        )
        call = self.ask_call(sheet, old.call if old else None) if nxt.called else None
        if call is not None:
            nxt = sheet.next_hand(call)
            self.say(f"The call: {call.describe()}; trump: {nxt.trump_rule}.")
        for note in nxt.notes:
            self.say(f"  {note}")
        trump: str | None = None
        if not sheet.trump_known(call):
            kept = old.trump if old is not None else None
            while True:
                text = self.ask(
                    f"Trump (a suit, none, or Enter to keep {kept})"
                    if kept
                    else "Trump (a suit, none, or Enter to skip)"
                )
                try:
                    trump = trump_word(text) if text.strip() or not kept else kept
                except EntryError as exc:
                    self.say(f"Not allowed: {exc}", "red")
                    continue
                break
        bids: dict[int, int | None] = {}
        if not sheet.has_bids():
            pass
        elif nxt.misere:
            self.say("Misere: everyone bids 0.")
        else:
            for seat in nxt.bid_order:
                offer = bid_offer(sheet, bids, call=call, trump=trump)
                offered = f" ({offer.describe()})" if offer is not None else ""
                was = old.bids[seat] if old is not None and seat < len(old.bids) else None
                while True:
                    value = self.ask_number(f"{names[seat]}'s bid{offered}", default=was)
                    try:
                        sheet.check_bids({**bids, seat: value}, call=call, trump=trump)
                    except EntryError as exc:
                        self.say(f"Not allowed: {exc}", "red")
                        continue
                    bids[seat] = value
                    break
        before = old.game.to_json() if old is not None and old.game is not None else {}
        steps = sheet.game_steps()
        fields: dict[str, Any] = {}

        def entry_of(tricks: Sequence[int], winners: Sequence[int] = ()) -> HandEntry:
            return sheet.entry(
                bids=[bids.get(s) for s in range(len(names))],
                tricks=tricks,
                trick_winners=winners,
                trump=trump,
                call=call,
                **fields,
            )

        for step in (s for s in steps if s.checked):
            while True:
                fields.update(self.ask_step(sheet, step, before))
                try:
                    sheet.check_steps(entry_of([0] * len(names)))
                except EntryError as exc:
                    self.say(f"Not allowed: {exc}", "red")
                    continue
                break
        unchecked = [s for s in steps if not s.checked]
        size = nxt.hand_size or 0
        while True:
            for step in unchecked:
                fields.update(self.ask_step(sheet, step, before))
            winners: list[int] = []
            if nxt.trick_points:
                kept = ", ".join(names[w] for w in old.trick_winners) if old else ""
                text = self.ask(
                    f"Who won each of the {size} tricks, in order (names, commas"
                    + (f"; Enter: {kept})" if kept else ")")
                )
                if not text.strip() and kept:
                    text = kept
                try:
                    winners = [sheet.seat_of(w) for w in text.split(",") if w.strip()]
                except ValueError as exc:
                    self.say(f"Not understood: {exc}", "red")
                    continue
                tricks = [winners.count(s) for s in range(len(names))]
            else:
                try:
                    asked = sheet.tricks_asked(entry_of([0] * len(names)).game)
                except EntryError as exc:
                    self.say(f"Not allowed: {exc}; enter the hand again", "red")
                    continue
                tricks = self.ask_tricks(sheet, asked, size, old)
            try:
                entry = entry_of(tricks, winners)
                sheet.check(entry)
            except EntryError as exc:
                again = "; enter the hand again" if unchecked else ""
                self.say(f"Not allowed: {exc}{again}", "red")
                continue
            return entry

    def ask_step(self, sheet: ScoreSheet, step: Step, before: dict[str, Any]) -> dict[str, Any]:
        """The answer to one of the game's own steps, as the entry's fields (``before``:
        the fields of the hand being corrected, which Enter keeps)."""
        names = sheet.players
        order = sheet.next_hand().bid_order
        was = before.get(step.name)
        if step.kind == "choice":
            kept = was or (step.choices[0] if step.choices else "")
            offered = ", ".join(step.choices)
            text = self.ask(f"{step.label} ({offered}; Enter: {kept})" if offered else step.label)
            return {step.name: (text or kept) or None}
        if step.kind == "seat_text":
            return self.ask_seat_text(sheet, step, before)
        if step.kind == "seat_number":
            numbers = [0] * len(names)
            for seat in order:
                had = was[seat] if isinstance(was, list) and seat < len(was) else None
                numbers[seat] = self.ask_number(
                    f"{names[seat]}'s {step.label} ({step.low}-{step.high})", default=had
                )
            return {step.name: numbers}
        words: list[list[str]] = [[] for _ in names]
        count = step.count
        counted = [0] * len(names)
        for seat in order:
            mine = was[seat] if isinstance(was, list) and seat < len(was) else []
            hint = f"; Enter: {', '.join(mine)}" if mine else ""
            text = self.ask(f"{names[seat]}: {step.label} (several, with commas{hint})")
            if not text.strip() and mine:
                text = ", ".join(mine)
            words[seat] = [w.strip() for w in text.split(",") if w.strip()]
            if count is not None and any(w in step.counted_when for w in words[seat]):
                old_counts = before.get(count.name)
                had = (
                    old_counts[seat]
                    if isinstance(old_counts, list) and seat < len(old_counts)
                    else None
                )
                counted[seat] = self.ask_number(f"{names[seat]}'s {count.label}", default=had)
        return {step.name: words} | ({count.name: counted} if count is not None else {})

    def ask_seat_text(
        self, sheet: ScoreSheet, step: Step, before: dict[str, Any]
    ) -> dict[str, Any]:
        """A text and the seat that made it (a contract and who won the auction), or
        nothing (``-``, or Enter when nothing was entered before: all passed)."""
        was = before.get(step.name)
        skip = step.skip.lower()
        text = self.ask(
            f"{step.label} ({step.hint}; Enter: {was}; - if {skip})"
            if was
            else f"{step.label} ({step.hint}; Enter if {skip})"
        )
        if was and not text.strip():
            text = str(was)
        if not text.strip() or text.strip() == "-":
            return {step.name: None, step.seat_field: None}
        seat_was = before.get(step.seat_field)
        who = sheet.players[seat_was] if isinstance(seat_was, int) else ""
        while True:
            name = self.ask(f"{step.seat_question} (Enter: {who})" if who else step.seat_question)
            if not name.strip() and who:
                name = who
            try:
                seat = sheet.seat_of(name)
            except ValueError as exc:
                self.say(f"Not understood: {exc}", "red")
                continue
            return {step.name: text.strip(), step.seat_field: seat}

    def ask_tricks(
        self, sheet: ScoreSheet, asked: TricksAsked, size: int, old: HandEntry | None
    ) -> list[int]:
        """The tricks of the seats ``asked`` (0 for the others, or what is left to the
        ``rest`` seat): Enter keeps the old count in a correction, and the last seat is
        offered the only count that adds up."""
        from tricktaker.scorekeeper.offers import last_tricks

        tricks: list[int | None] = [0] * len(sheet.players)
        for seat, _ in asked.questions:
            tricks[seat] = None
        for index, (seat, prompt) in enumerate(asked.questions):
            last = index == len(asked.questions) - 1
            fits = last_tricks(size, tricks) if last and asked.rest is None else None
            was = old.tricks[seat] if old is not None and seat < len(old.tricks) else None
            default = fits if fits is not None else was
            tricks[seat] = self.ask_number(prompt, default=default)
        out = [t or 0 for t in tricks]
        if asked.rest is not None and asked.questions:
            out[asked.rest] = size - sum(out)
        return out

    # ----------------------------------------------------------------- loop

    def run(self) -> None:
        from tricktaker.scorekeeper import EntryError

        sheet = self.sheet
        self.say(
            f"Keeping score of {sheet.rules.name} for {', '.join(sheet.players)}"
            f" (saved in {self.path}). Type ? for help."
        )
        if sheet.rows:
            self.show_sheet()
        while not sheet.is_over():
            try:
                entry = self.ask_hand(sheet)
            except _CommandError as command:
                if command.name == "quit":
                    self.save()
                    self.say(f"Saved. Carry on with: tricktaker score --resume {self.path}")
                    return
                try:
                    self.obey(command)
                except EntryError as exc:
                    self.say(f"Not allowed: {exc}", "red")
                continue
            sheet.add_entry(entry)
            self.save()
            self.show_sheet()
        self.save()
        self.say(f"The game is over. The sheet is saved in {self.path}.")

    def obey(self, command: _CommandError) -> None:
        """``undo`` or ``fix N``."""
        sheet = self.sheet
        if command.name == "undo":
            sheet.undo()
            self.save()
            self.say("The last hand is taken back.")
            self.show_sheet()
            return
        if not command.argument.isdigit():
            self.say("Not understood: fix needs a hand number, e.g. fix 3", "red")
            return
        number = int(command.argument)
        if not 1 <= number <= len(sheet.rows):
            self.say(f"Not understood: there is no hand {number} to correct", "red")
            return
        self.say(f"Correcting hand {number}: Enter keeps each value as it was.")
        try:
            entry = self.ask_hand(sheet.upto(number - 1), sheet.entries[number - 1])
        except _CommandError:
            self.say("Correction abandoned.")
            return
        changes = sheet.fix(number, entry)
        self.save()
        if not changes:
            self.say("No score changed.")
        for change in changes:
            self.say(
                f"Hand {change.hand}: {sheet.players[change.seat]}'s {change.what}"
                f" {change.old} -> {change.new}"
            )
        self.show_sheet()


def score(
    game: ResumableGameArgument = None,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-p",
            metavar="A,B,...",
            help="The players' names in seating order (clockwise), e.g. Ann,Bob,Cy,Di.",
        ),
    ] = None,
    dealer: Annotated[
        str | None,
        typer.Option(
            "--dealer", metavar="NAME", help="The first dealer (default: the first player)."
        ),
    ] = None,
    option: GameOptions = None,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save",
            metavar="FILE",
            help="Save the sheet (JSON) to FILE after every hand"
            " (default: a file in your data folder).",
            dir_okay=False,
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option("--resume", metavar="FILE", help="Carry on a saved sheet.", dir_okay=False),
    ] = None,
) -> None:
    """Keep the score of a game played with real cards: every entry checked by the rules
    (type ? at a prompt for help)."""
    from tricktaker.rules import RulesetError
    from tricktaker.scorekeeper import ScoreSheet, SheetError, sheet_from_json

    console = make_console()
    if resume is not None:
        clashing = [
            key
            for key, value in {
                "GAME": game,
                "--players": players,
                "--dealer": dealer,
                "--option": option,
            }.items()
            if value
        ]
        if clashing:
            fail(f"--resume carries on a saved sheet as it was: leave out {', '.join(clashing)}")
        try:
            data = json.loads(resume.read_text(encoding="utf-8"))
        except OSError as exc:
            fail(f"{resume}: cannot read the sheet: {exc.strerror}")
        except ValueError:
            fail(f"{resume}: not a JSON file")
        try:
            sheet = sheet_from_json(data)
        except SheetError as exc:
            fail(f"{resume}: {exc}")
        path = save if save is not None else resume
    else:
        if game is None:
            fail("give a GAME to keep score of (tricktaker rules lists them), or --resume FILE")
        unknown = unknown_game(game)
        if unknown is not None:
            fail(unknown)
        if not players:
            fail('give the players in seating order: --players "Ann,Bob,Cy,Di"')
        names = [name.strip() for name in players.split(",")]
        try:
            sheet = ScoreSheet(game, names, first_dealer=dealer, options=parse_options(option))
        except (SheetError, RulesetError) as exc:
            fail(str(exc))
        if save is not None:
            path = save
        else:
            from tricktaker.cli.saves import new_save_path

            path = new_save_path(f"score-{sheet.rules.id}")
    Keeper(sheet, console, path).run()
