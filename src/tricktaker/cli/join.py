"""``tricktaker join URL``: play a seat of a table on a server, in the terminal.

The screen and the input are those of ``tricktaker play``: the same table, narration,
numbered cards, bare ranks, Enter for a forced choice, ``?`` for the legal choices. The
server decides what is legal: a refused choice is shown with the server's reason (the
rule) and asked again. ``hint`` asks the server's coach (docs/protocol.md, Hints: the
server decides whether hints are on and records each one asked) and shows its values
as ``play`` shows its own. Joining keeps the seat token in the user's data folder, so the
same command run again takes the same seat back; ``--token`` comes back with a token.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sys
import threading
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .botcmd import InviteUrl, SeatOption, remote_link
from .common import FAILURE, INTERRUPTED, FourColourOption, fail, make_console

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.console import Console

    from tricktaker.client.links import KeptSeat, TableLink
    from tricktaker.client.session import SeatPlayer, SeatSession
    from tricktaker.engine import Observation

    from .render import Cards


def _table_class() -> type:
    """The remote table: :class:`~tricktaker.cli.play.Table`'s narration and screen, fed by
    the server's messages instead of a local game (made on first use: play imports rich
    and the engine)."""
    from rich.text import Text

    from tricktaker.engine import Action, IllegalActionError
    from tricktaker.engine.actions import BID, PLAY, ActionParseError
    from tricktaker.present.panels import panel_game

    from .play import Table, View
    from .render import cooperative_line, hand_heading, winners_line
    from .scorecards import result_line, score_unit

    class RemoteTable(Table):
        """One person's seat at a remote table."""

        def __init__(self, console: Console, cards: Cards) -> None:
            self.console = console
            self.cards = cards
            self.bots = {}
            self.hotseat = False
            self.save = lambda: None
            self.seat_names: list[str] = []
            self.levels: dict[int, str] = {}
            """The bots' levels by seat (as the table lists them), beside their names."""
            self.views = {}
            self.viewer = None
            self.asked: Observation | None = None
            self.pending: str | None = None
            self.pending_action: Action | None = None
            self.lock = threading.Lock()
            self.ask_hint: Callable[[], dict[str, Any]] | None = None
            """Asks the server for a hint through the live session (from the prompt's
            thread): its ``hint`` message or the ``error`` that refused it."""

        def rename(self, names: list[str]) -> None:
            """The seats' names changed (someone took or left a seat): use the new ones
            from now on."""
            with self.lock:
                self.seat_names[:] = names
                self.given_names = tuple(names)
                for view in self.views.values():
                    view.names[:] = names

        def start(self, obs: Observation, names: list[str]) -> None:
            """A (new) snapshot of the game from ``obs``'s seat."""
            rules = obs.rules
            self.seat_names = names
            self.humans = (obs.seat,)
            self.given_names = tuple(names)
            self.views = {obs.seat: View(obs.seat, list(names), obs)}
            self.viewer = obs.seat
            self.simultaneous = rules.spec.bidding.style == "simultaneous"
            self.game_panel = panel_game(obs) is not None
            self.partnerships = obs.partnerships
            self.cards = type(self.cards)(labels=rules.joker_labels, symbols=self.cards.symbols)
            view = self.views[obs.seat]
            view.add(Text(""))
            view.heading(hand_heading(obs, view.names))

        def names_for(self, seat: int) -> list[str]:
            return list(self.seat_names)

        def name(self, seat: int) -> str:
            return self.seat_names[seat]

        def flush_now(self) -> None:
            """Print the waiting narration, unless the person is being asked."""
            with self.lock:
                if self.asked is None and self.views:
                    self.flush(self.viewer if self.viewer is not None else self.humans[0])

        def event(
            self, actor: int | None, text: str | None, prev: Observation, new: Observation
        ) -> None:
            """Narrate one event of the game, as ``play`` does."""
            view = self.views.get(new.seat)
            if view is None:
                return
            action = None
            if actor is not None:
                action = self.guess(actor, text, prev, new)
            with self.lock:
                if action is not None and actor is not None:
                    self.narrate_action(view, actor, action, new)
                self.narrate_changes(view, new)
                view.prev = new

        @staticmethod
        def guess(
            actor: int, text: str | None, prev: Observation, new: Observation
        ) -> Action | None:
            """The action taken, as far as the seat may know it: its own action's text,
            else what its view shows (a card played, a bid once seen, a call)."""
            labels = new.rules.joker_labels
            if text is not None:
                try:
                    return Action.parse(text, labels=labels)
                except ActionParseError:
                    return None
            if prev.phase == "playing":
                return Action(PLAY, 0)  # the card is read from the view
            if prev.phase == "bidding":
                bids = new.bids if new.hands_played == prev.hands_played else ()
                value = bids[actor] if actor < len(bids) else None
                return Action(BID, value if value is not None else 0)
            hooks = new.rules.hooks
            if hooks is None:
                return None
            # the game's public actions (a caller's calls) the new view shows and the old did not
            after = hooks.public_actions(new)
            before = hooks.public_actions(prev) if prev.hands_played == new.hands_played else []
            same = 0
            while same < min(len(before), len(after)) and before[same] == after[same]:
                same += 1
            return next((action for seat, action in after[same:] if seat == actor), None)

        def ask_remote(self, obs: Observation, refusal: str | None) -> str | None:
            """Show the table to the seat (once per turn) and read a choice: the action's
            text, or None to leave the table. Runs in its own thread."""
            seat = obs.seat
            names = self.seat_names
            with self.lock:
                self.flush(seat)
                fresh = self.asked is not obs
                self.asked = obs
            if refusal is not None:
                self.say(refusal, "red")
            if fresh:
                self.console.print()
                self.show_turn(obs, names, "Your turn", self.legal_numbered(obs))
            read = self.read_choice(obs, names, painted=False)
            if read is None:
                return None
            self.pending, self.pending_action = read
            return self.pending_action.text(labels=obs.rules.joker_labels)

        def hint(self, obs: Observation) -> None:
            """Ask the server's coach for the values of ``obs``'s choices and show them as
            ``play`` shows its own (the server decides whether hints are on, and records
            the hint asked); a refusal or a lost connection is said in words. Runs in the
            prompt's thread, which asks again afterwards."""
            from tricktaker.client.decode import ViewError
            from tricktaker.client.hints import fits, hint_from_message, refusal_words
            from tricktaker.client.session import HintUnansweredError

            from .human import print_hint

            ask = self.ask_hint
            try:
                if ask is None:
                    raise HintUnansweredError("not connected to the server yet")
                if self.console.is_terminal:
                    with self.console.status("The coach is thinking…"):
                        answer = ask()
                else:
                    answer = ask()
            except HintUnansweredError as exc:
                self.say(f"No hint: {exc}. Type hint to ask again.", "red")
                return
            if answer.get("type") == "error":
                self.say(refusal_words(answer), "red")
                return
            try:
                hint = hint_from_message(answer, obs)
            except ViewError as exc:
                self.say(f"No hint: {exc}", "red")
                return
            if not fits(hint, obs):
                self.say("No hint: the game moved on while the coach was thinking.", "red")
                return
            print_hint(self.console, obs, hint, self.cards)

        def refused(self, message: str, rule: str | None, obs: Observation) -> str:
            """The server's refusal, worded as ``play`` words its own."""
            self.asked = obs
            if rule is None or self.pending is None or self.pending_action is None:
                return f"Not allowed: {message}"
            exc = IllegalActionError(message, rule=rule)
            return self.refusal(self.pending, self.pending_action, exc, obs)

        def answered(self) -> None:
            """The turn is over: narration may print again."""
            with self.lock:
                self.asked = None

        def legal_numbered(self, obs: Observation) -> frozenset[int] | None:
            from .human import legal_cards

            return legal_cards(obs)

        def finish_remote(self, obs: Observation) -> None:
            """The final scorecard and the result, as ``play`` ends a game."""
            self.flush_now()
            names = self.seat_names
            self.console.print()
            self.console.rule(Text("Final scorecard"))
            if obs.history:
                self.console.print(self.card_table(obs, names))
            scores = obs.scores
            best = max(scores)
            winners = [s for s, v in enumerate(scores) if v == best]
            if obs.cooperative:
                done = obs.hands_in_game is not None and obs.hands_played >= obs.hands_in_game
                self.say(cooperative_line(obs.hands_played, done), "bold")
            elif self.game_panel:
                unit = score_unit(obs.history, obs.rules.spec.hooks)
                line = result_line(winners, names, scores, self.partnerships, unit=unit)
                self.say(line, "bold")
            else:
                self.say(winners_line(winners, names, scores), "bold")

    return RemoteTable


def seat_names(table: dict[str, Any], seat: int | None) -> list[str]:
    """The seats' names as the person is told them: ``You``, the names people gave, else
    ``Seat K`` numbered from 1 (as ``play`` names seats)."""
    names = []
    for info in table["seats"]:
        if info["seat"] == seat:
            names.append("You")
        elif info.get("name"):
            names.append(str(info["name"]))
        else:
            names.append(seat_label(info["seat"]))
    return names


def seat_label(seat: int) -> str:
    """``Seat 1`` for the first seat: people count seats from 1 (the protocol from 0)."""
    return f"Seat {seat + 1}"


class Keyboard:
    """The person's typing, read by one thread for the whole session, so that ``quit`` or
    the end of input (Ctrl-D) is heard while the seat waits, not only at its prompt.

    A line typed at a prompt answers it. A line typed while the seat waits: ``quit`` (or
    the end of input) leaves at once; on a terminal anything else is answered by ``idle``
    (it is not the person's turn); off a terminal it waits for the next prompt (answers
    typed ahead, as a script gives them)."""

    def __init__(self, console: Console, *, terminal: bool) -> None:
        self.console = console
        self.terminal = terminal
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.lock = threading.Lock()
        self.asking = False
        self.prompt: Any = ""
        self.started = False
        self.leave: Callable[[], None] = lambda: None
        self.idle: Callable[[str], None] = lambda line: None

    def start(self, leave: Callable[[], None], idle: Callable[[str], None]) -> None:
        """Read the input from now on; ``leave`` is called (from the reading thread) when
        the person leaves while waiting, ``idle`` with a line typed out of turn."""
        self.leave, self.idle = leave, idle
        if not self.started:
            self.started = True
            threading.Thread(target=self._read, name="tricktaker-keyboard", daemon=True).start()

    def input(self, prompt: Any = "", **_: Any) -> str:
        """``Console.input``'s stand-in: print the prompt, then the next line typed (raises
        EOFError at the end of input)."""
        self.console.print(prompt, end="")
        with self.lock:
            self.asking = True
            self.prompt = prompt
        try:
            line = self.lines.get()
        finally:
            with self.lock:
                self.asking = False
        if line is None:
            self.lines.put(None)  # the end of input stays the end
            raise EOFError
        return line

    def open_prompt(self) -> Any | None:
        """The prompt waiting for an answer on a terminal, if any."""
        with self.lock:
            return self.prompt if self.asking and self.terminal else None

    def _read(self) -> None:
        while True:
            try:
                text = sys.stdin.readline()
            except (OSError, ValueError):
                text = ""
            line = text.rstrip("\r\n") if text else None
            self._take(line)
            if line is None:
                return

    def _take(self, line: str | None) -> None:
        from .human import QUIT_WORDS

        with self.lock:
            if self.asking or not self.lines.empty():
                self.lines.put(line)
                return
        if line is None or line.strip().lower() in QUIT_WORDS:
            self.lines.put(None)
            self.leave()
        elif self.terminal:
            self.idle(line)
        else:
            self.lines.put(line)


def terminal_player(
    console: Console,
    keyboard: Keyboard,
    seated: Callable[[int], None],
    ask_hint: Callable[[], dict[str, Any]] | None = None,
) -> tuple[SeatPlayer, Callable[[Observation], None], Callable[[str], None]]:
    """The person at this terminal as a :class:`~tricktaker.client.session.SeatPlayer`,
    what shows the end of the game (the final scorecard and the result), and what answers
    a line typed out of turn. ``seated`` is told the seat once the server welcomes it;
    ``ask_hint`` asks the server for a hint when ``hint`` is typed at the prompt."""
    from rich.text import Text

    from tricktaker.client.session import SeatPlayer

    from .common import unicode_ok
    from .human import HINT_WORDS
    from .render import Cards

    table = _table_class()(console, Cards(symbols=unicode_ok(console)))
    table.ask_hint = ask_hint
    setattr(console, "input", keyboard.input)  # noqa: B010  (read_choice reads through it)

    def say(text: str, style: str = "") -> None:
        """A line for the person; one that comes while a prompt is open goes under it,
        and the prompt is shown again."""
        table.flush_now()
        prompt = keyboard.open_prompt()
        if prompt is not None:
            console.print()
        console.print(Text(text, style=style))  # wrapped between words
        if prompt is not None:
            console.print(prompt, end="")

    class TerminalPlayer(SeatPlayer):
        def __init__(self) -> None:
            self.refusal: str | None = None
            self.started = False
            self.lost = False
            self.obs: Observation | None = None

        async def decide(self, obs: Observation) -> str | None:
            loop = asyncio.get_running_loop()
            answer: asyncio.Future[str | None] = loop.create_future()
            refusal, self.refusal = self.refusal, None

            def ask() -> None:
                try:
                    result = table.ask_remote(obs, refusal)
                except BaseException as exc:
                    loop.call_soon_threadsafe(answer.set_exception, exc)
                else:
                    loop.call_soon_threadsafe(answer.set_result, result)

            # a daemon thread, not the loop's pool: Ctrl-C must not wait for the input
            threading.Thread(target=ask, daemon=True).start()
            choice = await answer
            if choice is not None:
                table.answered()
            return choice

        def welcome(self, message: dict[str, Any], obs: Observation | None) -> None:
            info = message["table"]
            names = seat_names(info, message["seat"])
            table.levels = {s["seat"]: str(s["bot"]) for s in info["seats"] if s.get("bot")}
            if message["seat"] is not None:
                seated(message["seat"])
            if self.lost:
                self.lost = False
                say("Back at the table.")
            self.obs = obs
            if obs is None:
                people = ", ".join(
                    f"{n} ({s['bot']} bot)"
                    if s.get("bot")
                    else f"{n} (free)"
                    if s.get("state") == "free"
                    else f"{n} (seat {s['seat'] + 1})"
                    for n, s in zip(names, info["seats"], strict=True)
                )
                say(f"Table {info['id']}: {info['game']}, {info['players']} players: {people}.")
                say("Waiting for the host to start the game (type quit to leave)...")
                return
            if not self.started:
                say(f"{obs.rules.name}: {obs.players} players. You are seat {obs.seat + 1}.")
                coach = ", hint for the coach's values" if info.get("hints") else ""
                say(
                    f"Type ? for your legal choices{coach}, scores for the scorecard,"
                    " quit to leave."
                )
            self.started = True
            table.start(obs, names)
            table.flush_now()

        def event(
            self, message: dict[str, Any], prev: Observation | None, obs: Observation
        ) -> None:
            self.obs = obs
            if prev is not None:
                table.event(message.get("actor"), message.get("action"), prev, obs)
            table.flush_now()

        def refused(self, error: dict[str, Any], obs: Observation | None) -> None:
            message = str(error.get("message") or "refused")
            if obs is None:
                say(f"Not allowed: {message}", "red")
                return
            self.refusal = table.refused(message, error.get("rule"), obs)

        def notice(self, message: dict[str, Any]) -> None:
            kind = message.get("type")
            if kind == "table" and table.seat_names:
                info = message["table"]
                table.levels = {s["seat"]: str(s["bot"]) for s in info["seats"] if s.get("bot")}
                table.rename(seat_names(info, table.viewer))
            elif kind == "chat":
                line = message["line"]
                say(f"[chat] {line['name']}: {line['text']}")
            elif kind == "presence" and table.seat_names:
                who = table.seat_names[message["seat"]]
                words = {
                    "away": "has lost the connection",
                    "replaced": "is away: a bot plays for them",
                    "connected": "is at the table",
                    "free": "left the seat",
                    "bot": "is played by a bot",
                }
                if who != "You":
                    say(f"{who} {words.get(message['state'], message['state'])}.")
            elif kind == "error":
                say(f"Server: {message.get('message')}", "red")

        def dropped(self, attempt: int, reason: str) -> None:
            if not self.lost:
                self.lost = True
                say(f"Connection lost ({reason}); reconnecting (Ctrl-C to leave)...", "red")

    player = TerminalPlayer()

    def idle(line: str) -> None:
        """A line typed while it is not the person's turn."""
        text = line.strip().lower()
        if not text:
            return
        obs = player.obs
        if text == "scores" and obs is not None:
            table.flush_now()
            table.print_scorecard(obs, table.seat_names)
            return
        if obs is None:
            say("The game has not started yet. Type quit to leave.")
            return
        if obs.seat in obs.to_act and obs.legal_actions:  # the coach is thinking, say
            say("Your prompt comes back in a moment: type your choice there.")
            return
        if text in HINT_WORDS:
            say("A hint is for your own turn: type hint at your prompt.")
            return
        waiting = [table.seat_names[s] for s in obs.to_act if s != obs.seat]
        who = f": waiting for {', '.join(waiting)}" if waiting else ""
        say(f"Not your turn{who}. Type scores for the scorecard, quit to leave.")

    return player, table.finish_remote, idle


def ask_name(console: Console) -> str | None:
    """The person's name, asked on a terminal (None off a terminal, or for no answer:
    the server names the seat)."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return None
    try:
        answer = console.input("Your name at the table: ").strip()
    except EOFError:
        console.print()
        return None
    except KeyboardInterrupt:
        console.print()
        raise typer.Exit(INTERRUPTED) from None
    return answer or None


def kept_seat(link: TableLink, seat: int | None, name: str | None) -> KeptSeat | None:
    """The seat this computer kept for the table to come back to: seat ``seat`` if asked
    for (0-based); else the last one kept (under ``name`` when it is given) that no
    terminal is playing now: two people at one computer each keep their own seat."""
    from tricktaker.client.links import saved_seats
    from tricktaker.client.session import ClientError, table_info

    kept = saved_seats(link)
    if seat is not None:
        return next((k for k in kept if k.seat == seat), None)
    if name is not None:
        kept = [k for k in kept if k.name in (name, None)]
    if kept:
        try:
            states = {s["seat"]: s["state"] for s in table_info(link)["seats"]}
        except (ClientError, KeyError, TypeError):
            states = {}
        kept = [k for k in kept if states.get(k.seat) != "connected"]
    return kept[-1] if kept else None


def take_seat(
    link: TableLink, name: str | None, seat: int | None, console: Console
) -> tuple[int, str]:
    """A new seat with the link's invite: its index and token, kept on this computer.
    Without a name the server names the seat; an older server that wants one gets
    ``Seat K``."""
    from tricktaker.client.links import save_seat
    from tricktaker.client.session import ClientError, join_table, table_info

    try:
        taken, token = join_table(link, name, seat)
    except ClientError as exc:
        if name is not None or exc.status != 422:
            raise
        for _ in range(5):  # another person may take the free seat first
            chosen = seat
            if chosen is None:
                free = [s["seat"] for s in table_info(link)["seats"] if s["state"] == "free"]
                chosen = free[0] if free else None
            label = seat_label(chosen) if chosen is not None else "Player"
            try:
                taken, token = join_table(link, label, chosen)
                break
            except ClientError as again:
                if seat is not None or chosen is None or again.status != 409:
                    raise
        else:
            raise ClientError("others took the free seats as you joined: try again") from exc
    save_seat(link, taken, token, name=name)
    console.print(f"You took seat {taken + 1}.")
    return taken, token


JOIN_HELP = """Play a seat of a table on a server, in the terminal (type ? at a prompt for help).

Your seat's token is kept in {file}: run the same command again to come back to your
seat (after quit, Ctrl-C or a lost connection); from another computer, come back with
--token."""


def join(
    url: InviteUrl,
    name: Annotated[
        str | None,
        typer.Option(
            "--name",
            metavar="NAME",
            help="Your name at the table (default: asked on a terminal, else Seat K).",
        ),
    ] = None,
    seat: SeatOption = None,
    token: Annotated[
        str | None,
        typer.Option("--token", metavar="TOKEN", help="Come back to your seat with its token."),
    ] = None,
    four_colour: FourColourOption = False,
) -> None:
    link = remote_link(url)
    index = asked = seat_index(seat)
    from tricktaker.client.links import forget_seat, save_seat
    from tricktaker.client.session import (
        ClientError,
        LeaveTableError,
        SeatLostError,
        SeatSession,
        ServerGoneError,
    )

    from .play import play_console

    console = play_console(four_colour=four_colour)
    if name is not None and not name.strip():
        fail("--name must not be empty")
    name = name.strip() if name is not None else None
    kept = None
    try:
        if token is None:
            kept = kept_seat(link, index, name)
            if kept is not None:
                token, index = kept.token, kept.seat
                console.print(f"Coming back to seat {kept.seat + 1}.")
            else:
                name = name if name is not None else ask_name(console)
                index, token = take_seat(link, name, index, console)
    except ClientError as exc:
        fail(str(exc), status=FAILURE)

    def seated(taken: int) -> None:
        nonlocal index
        if index != taken and token is not None:
            save_seat(link, taken, token, name=name)
        index = taken

    keyboard = Keyboard(console, terminal=sys.stdin.isatty())
    while True:
        assert token is not None
        hints = HintLine()
        player, finish, idle = terminal_player(console, keyboard, seated, hints.ask)
        session = hints.session = SeatSession(link, token, player)
        try:
            final = asyncio.run(_play(session, keyboard, idle))
        except (KeyboardInterrupt, LeaveTableError):
            console.print()
            console.print("You left the table; your seat stays yours (a bot plays it while away).")
            _come_back(console, url, link, index, token, "come back with")
            raise typer.Exit(INTERRUPTED) from None
        except SeatLostError as exc:
            if kept is None or session.welcomed or link.invite is None:
                forget_seat(link, token=token)
                fail(f"the server refused your seat: {exc}", status=FAILURE)
            forget_seat(link, token=kept.token)  # given up or given away since: a new seat
            console.print(f"Seat {kept.seat + 1} is no longer yours ({exc}); taking a free seat.")
            kept = None
            name = name if name is not None else ask_name(console)
            try:
                index, token = take_seat(link, name, asked, console)
            except ClientError as error:
                fail(str(error), status=FAILURE)
            continue
        except ServerGoneError as exc:
            if keyboard.open_prompt() is not None:
                console.print()  # under the prompt left open
            err = make_console(stderr=True)
            err.print(f"Error: {exc}.", soft_wrap=True)
            _come_back(err, url, link, index, token, "once the server is back, come back with")
            raise typer.Exit(FAILURE) from None
        except ClientError as exc:
            fail(str(exc), status=FAILURE)
        if final is not None:
            finish(final)
        return


class HintLine:
    """The prompt's way to the server's coach: the live session's
    :meth:`~tricktaker.client.session.SeatSession.hint_from_thread` (the session is made
    after the player it plays through)."""

    def __init__(self) -> None:
        self.session: SeatSession | None = None

    def ask(self) -> dict[str, Any]:
        """The server's answer to a hint asked now (``hint`` or ``error``)."""
        from tricktaker.client.session import HintUnansweredError

        if self.session is None:
            raise HintUnansweredError("not connected to the server yet")
        return self.session.hint_from_thread()


async def _play(
    session: SeatSession, keyboard: Keyboard, idle: Callable[[str], None]
) -> Observation | None:
    """Run the session until the game ends, or until the person leaves while waiting
    (:class:`~tricktaker.client.session.LeaveTableError`)."""
    from tricktaker.client.session import LeaveTableError

    loop = asyncio.get_running_loop()
    left: asyncio.Future[None] = loop.create_future()

    def done() -> None:
        if not left.done():
            left.set_result(None)

    def leave() -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: the game is over
            loop.call_soon_threadsafe(done)

    keyboard.start(leave, idle)
    game = asyncio.ensure_future(session.run())
    waits: set[asyncio.Future[Any]] = {game, left}
    await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    if game.done():
        return game.result()
    game.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await game
    raise LeaveTableError


def seat_index(seat: int | None) -> int | None:
    """The protocol's seat (0-based) for ``--seat K`` (1-based); a clear error for 0."""
    if seat is None:
        return None
    if seat < 1:
        fail(f"--seat {seat}: seats are numbered from 1 (--seat 1 is the first seat)")
    return seat - 1


def _come_back(
    console: Console,
    url: str,
    link: TableLink,
    seat: int | None,
    token: str | None,
    words: str,
) -> None:
    """How to come back to the seat: the command to run again here (the token is kept),
    and the one with the token from another computer."""
    from .common import command

    here = _rerun(url, link, seat, token)
    console.print(f"{words[0].upper()}{words[1:]}: {here}", soft_wrap=True, markup=False)
    if token is not None and "--token" not in here:
        anywhere = command("join", _shown(link), "--token", token)
        console.print(f"(from another computer: {anywhere})", soft_wrap=True, markup=False)


def _rerun(url: str, link: TableLink, seat: int | None, token: str | None) -> str:
    """The command that comes back to the seat on this computer."""
    from .common import command

    if link.invite is None and token is not None:
        return command("join", url.strip(), "--token", token)
    words = ["join", url.strip()]
    if seat is not None:
        words += ["--seat", str(seat + 1)]
    return command(*words)


def _tokens_shown() -> str:
    """Where seat tokens are kept, for the help."""
    from tricktaker.client.links import tokens_file

    return str(tokens_file())


def _shown(link: TableLink) -> str:
    return f"{link.base}/tables/{link.table}"


join.__doc__ = JOIN_HELP.format(file=_tokens_shown())
