"""``tricktaker join URL``: play a seat of a table on a server, in the terminal.

The screen and the input are those of ``tricktaker play``: the same table, narration,
numbered cards, bare ranks, Enter for a forced choice, ``?`` for the legal choices. The
server decides what is legal: a refused choice is shown with the server's reason (the
rule) and asked again. Joining keeps the seat token in the user's data folder, so the
same command run again takes the same seat back; ``--token`` comes back with a token.
"""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .botcmd import InviteUrl, SeatOption, remote_link
from .common import FAILURE, INTERRUPTED, FourColourOption, fail

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.console import Console

    from tricktaker.client.links import TableLink
    from tricktaker.client.session import SeatPlayer
    from tricktaker.engine import Observation

    from .render import Cards


def _table_class() -> type:
    """The remote table: :class:`~tricktaker.cli.play.Table`'s narration and screen, fed by
    the server's messages instead of a local game (made on first use: play imports rich
    and the engine)."""
    from rich.text import Text

    from tricktaker.engine import Action, IllegalActionError
    from tricktaker.engine.actions import (
        BID,
        CALL_DONE,
        CALL_KIND,
        CALL_MODIFIER,
        CALL_SIZE,
        PLAY,
        ActionParseError,
    )
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
            self.views = {}
            self.viewer = None
            self.asked: Observation | None = None
            self.pending: str | None = None
            self.pending_action: Action | None = None
            self.lock = threading.Lock()

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
            call: dict[str, Any] = dict(new.call or {})
            if prev.phase == "call_size" and "caller_size" in call:
                return Action(CALL_SIZE, call["caller_size"])
            if prev.phase == "call_kind" and call.get("kind") is not None:
                return Action(CALL_KIND, call["kind"])
            if prev.phase == "call_modifiers":
                earlier: dict[str, Any] = dict(prev.call or {})
                before = len(earlier.get("modifiers") or ())
                after = list(call.get("modifiers") or ())
                if len(after) > before:
                    return Action(CALL_MODIFIER, after[-1])
                return Action(CALL_DONE)
            return None

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
                unit = score_unit(obs.history)
                line = result_line(winners, names, scores, self.partnerships, unit=unit)
                self.say(line, "bold")
            else:
                self.say(winners_line(winners, names, scores), "bold")

    return RemoteTable


def seat_names(table: dict[str, Any], seat: int | None) -> list[str]:
    """The seats' names as the person is told them: ``You``, the names people gave, else
    ``Seat K`` (as ``play`` names its bots)."""
    names = []
    for info in table["seats"]:
        if info["seat"] == seat:
            names.append("You")
        elif info.get("name"):
            names.append(str(info["name"]))
        else:
            names.append(f"Seat {info['seat']}")
    return names


def terminal_player(
    console: Console, come_back: str
) -> tuple[SeatPlayer, Callable[[Observation], None]]:
    """The person at this terminal as a :class:`~tricktaker.client.session.SeatPlayer`,
    and what shows the end of the game (the final scorecard and the result)."""
    from rich.text import Text

    from tricktaker.client.session import SeatPlayer

    from .common import unicode_ok
    from .render import Cards

    table = _table_class()(console, Cards(symbols=unicode_ok(console)))

    def say(text: str, style: str = "") -> None:
        table.flush_now()
        console.print(Text(text, style=style), soft_wrap=True)

    class TerminalPlayer(SeatPlayer):
        def __init__(self) -> None:
            self.refusal: str | None = None
            self.started = False

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

            # a daemon thread, not the loop's pool: Ctrl-C must not wait for input()
            threading.Thread(target=ask, daemon=True).start()
            choice = await answer
            if choice is not None:
                table.answered()
            return choice

        def welcome(self, message: dict[str, Any], obs: Observation | None) -> None:
            info = message["table"]
            names = seat_names(info, message["seat"])
            if obs is None:
                people = ", ".join(
                    f"{n} ({s['bot']} bot)" if s.get("bot") else f"{n} (seat {s['seat']})"
                    for n, s in zip(names, info["seats"], strict=True)
                )
                say(f"Table {info['id']}: {info['game']}, {info['players']} players: {people}.")
                say("Waiting for the host to start the game...")
                return
            if not self.started:
                say(f"{obs.rules.name}: {obs.players} players. You are seat {obs.seat}.")
                say("Type ? for your legal choices, scores for the scorecard, quit to leave.")
                say(f"Come back to this seat with: {come_back}")
            self.started = True
            table.start(obs, names)
            table.flush_now()

        def event(
            self, message: dict[str, Any], prev: Observation | None, obs: Observation
        ) -> None:
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
            if kind == "chat":
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
            say(f"Connection lost ({reason}); reconnecting (try {attempt})...", "red")

    return TerminalPlayer(), table.finish_remote


def join(
    url: InviteUrl,
    name: Annotated[
        str | None,
        typer.Option("--name", metavar="NAME", help="Your name at the table (default: Player)."),
    ] = None,
    seat: SeatOption = None,
    token: Annotated[
        str | None,
        typer.Option("--token", metavar="TOKEN", help="Come back to your seat with its token."),
    ] = None,
    four_colour: FourColourOption = False,
) -> None:
    """Play a seat of a table on a server, in the terminal (type ? at a prompt for help).
    Run the same command again to come back to your seat."""
    link = remote_link(url)
    from tricktaker.client.links import save_seat, saved_seat
    from tricktaker.client.session import (
        ClientError,
        LeaveTableError,
        SeatLostError,
        SeatSession,
        join_table,
    )

    from .play import play_console

    console = play_console(four_colour=four_colour)
    kept = saved_seat(link) if token is None else None
    try:
        if token is None and kept is not None and (seat is None or seat == kept[0]):
            token = kept[1]
            console.print(f"Coming back to seat {kept[0]}.")
        elif token is None:
            taken, token = join_table(link, name or "Player", seat)
            save_seat(link, taken, token)
            console.print(f"You took seat {taken}.")
    except ClientError as exc:
        fail(str(exc), status=FAILURE)
    come_back = f"tricktaker join {_shown(link)} --token {token}"
    player, finish = terminal_player(console, come_back)
    session = SeatSession(link, token, player)
    try:
        final = asyncio.run(session.run())
    except (KeyboardInterrupt, LeaveTableError):
        console.print()
        console.print("You left the table; your seat stays yours (a bot plays it while away).")
        console.print(f"Come back with: {come_back}", soft_wrap=True)
        raise typer.Exit(INTERRUPTED) from None
    except SeatLostError as exc:
        fail(f"the server refused your seat: {exc}", status=FAILURE)
    except ClientError as exc:
        fail(str(exc), status=FAILURE)
    if final is not None:
        finish(final)


def _shown(link: TableLink) -> str:
    return f"{link.base}/tables/{link.table}"
