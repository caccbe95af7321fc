"""``tricktaker play``: one person against bots in the terminal.

The person's seat is shown only its own observation (``state.observe(seat)``); bots
act from theirs. Everything narrated is public: bids once revealed, calls, cards
played, trick winners and hand results. In the games with their own phases (plucks,
auctions, antes) a card passed or discarded by another seat is named only when the
person's observation shows it (see :mod:`tricktaker.cli.narrate_games`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from tricktaker.bots import Bot
from tricktaker.engine import Action, GameState, IllegalActionError, Observation
from tricktaker.engine.actions import (
    BID,
    CALL_DONE,
    CALL_KIND,
    CALL_MODIFIER,
    CALL_SIZE,
    PLAY,
    PLAY_PILE,
)

from .common import (
    BOTS_HELP,
    GameArgument,
    GameOptions,
    default_players,
    fail,
    load_rules,
    make_bots,
    make_console,
    random_seed,
    record_path,
    save_record,
    split_names,
    start_game,
    unicode_ok,
)
from .human import lists_choices, prompt_text, read_reply, show_choices
from .narrate_games import describe_game_action, game_changes, verb
from .render import (
    Cards,
    cooperative_line,
    describe_call,
    describe_special,
    hand_heading,
    hand_result_table,
    scorecard,
    seat_names,
    table_view,
    winners_line,
)
from .render_games import game_lines, seat_grid
from .scorecards import (
    game_hand_table,
    game_scorecard,
    hand_summary,
    has_bids,
    result_line,
    score_unit,
)


class GameAbandonedError(Exception):
    """The person quit (``quit``, end of input or Ctrl-C)."""


class Table:
    """A game in progress between one person and bots, narrated on a console."""

    def __init__(
        self,
        console: Console,
        state: GameState,
        human: int,
        bots: dict[int, Bot],
        cards: Cards,
    ) -> None:
        self.console = console
        self.state = state
        self.human = human
        self.bots = bots
        self.cards = cards
        self.names = seat_names(state.players, human)
        self.simultaneous = state.rules.spec.bidding.style == "simultaneous"
        self.hooks = state.rules.spec.hooks is not None
        self.partnerships = state.setup.partnerships
        self.quotas = state.rules.spec.hooks == "pluck"

    # ------------------------------------------------------------ the loop

    def run(self) -> None:
        """Play to the end; raises :class:`GameAbandonedError` if the person quits."""
        state = self.state
        prev = state.observe(self.human)
        self.say("")
        self.console.rule(Text(hand_heading(prev, self.names)))
        while not state.is_terminal():
            action: Action | None = None
            seat = -1
            if state.is_chance():
                state.apply_chance()
            else:
                waiting = state.to_act()
                seat = self.human if self.human in waiting else waiting[0]
                if seat == self.human:
                    action = self.ask()
                else:
                    action = self.bots[seat].act(state.observe(seat))
                state.apply(seat, action)
            new = state.observe(self.human)
            if action is not None:
                self.narrate_action(seat, action, prev, new)
            self.narrate_changes(prev, new)
            prev = new

    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(Text(text, style=style or ""), soft_wrap=True)

    # --------------------------------------------------------- the person

    def ask(self) -> Action:
        """Show the table and read the person's decision until it is legal."""
        obs = self.state.observe(self.human)
        self.console.print()
        if self.hooks:
            lines = game_lines(obs, self.names, self.cards)
            grid = seat_grid(obs, self.names)
            table_view(self.console, obs, self.names, self.cards, lines_after=lines, grid=grid)
        else:
            table_view(self.console, obs, self.names, self.cards)
        if lists_choices(obs):
            show_choices(self.console, obs, self.cards)
        while True:
            try:
                line = self.console.input(Text(prompt_text(obs, self.cards)))
            except (EOFError, KeyboardInterrupt):
                raise GameAbandonedError from None
            reply = read_reply(line, obs, self.cards)
            if reply.command == "quit":
                raise GameAbandonedError
            if reply.command == "help":
                show_choices(self.console, obs, self.cards)
                continue
            if reply.command == "scores":
                self.print_scorecard(obs)
                continue
            if reply.error is not None or reply.action is None:
                self.say(f"Not understood: {reply.error}", "red")
                continue
            try:
                self.state.check(self.human, reply.action)
            except IllegalActionError as exc:
                self.say(f"Not allowed: {exc}", "red")
                continue
            return reply.action

    def print_scorecard(self, obs: Observation) -> None:
        if not obs.history:
            self.say("No hand has been scored yet.")
            return
        self.console.print(self.card_table(obs))

    def card_table(
        self, obs: Observation, *, details: bool = True, title: str | None = None
    ) -> RichTable:
        """The scorecard: per-seat bids (or quotas) where the game has them, else the game's."""
        if has_bids(obs.history, obs.players):
            return scorecard(
                obs.history,
                self.names,
                self.cards,
                cooperative=obs.cooperative,
                details=details,
                title=title,
            )
        return game_scorecard(obs.history, self.names, self.cards, self.partnerships, title=title)

    # ----------------------------------------------------------- narration

    def narrate_action(
        self, seat: int, action: Action, prev: Observation, new: Observation
    ) -> None:
        name = self.names[seat]
        kind = action.kind
        if kind == BID:
            if self.simultaneous:
                if seat != self.human:
                    self.say(f"{name} has bid (hidden until every bid is in).")
                if all(new.bid_made) and not all(prev.bid_made):
                    bids = ",  ".join(
                        f"{self.names[s]} {b}" for s, b in enumerate(new.bids) if b is not None
                    )
                    self.say(f"Bids revealed: {bids}", "bold")
            elif seat != self.human:
                self.say(f"{verb(name, 'bid')} {action.value}.")
        elif kind == CALL_SIZE:
            self.say(f"{verb(name, 'call')} a hand of {action.value} cards.")
        elif kind == CALL_KIND:
            self.say(f"{verb(name, 'call')} {str(action.value).replace('_', ' ')}.")
        elif kind == CALL_MODIFIER:
            self.say(f"{verb(name, 'add')} the modifier {action.value}.")
        elif kind == CALL_DONE:
            call = describe_call(new.call) if new.call is not None else "?"
            self.say(f"{verb(name, 'finish')} the call: {call}.")
        elif kind in (PLAY, PLAY_PILE):
            self.narrate_card(seat, prev, new)
        else:
            self.say(describe_game_action(seat, action, prev, new, self.names, self.cards))

    def narrate_card(self, seat: int, prev: Observation, new: Observation) -> None:
        name = self.names[seat]
        trick: tuple[tuple[int, int], ...] | None = None
        winner = -1
        if new.hands_played > prev.hands_played:
            last = new.history[-1]
            trick, winner = last.trick_cards[-1], last.trick_winners[-1]
        elif len(new.tricks) > len(prev.tricks):
            trick, winner = new.tricks[-1], new.trick_winners[-1]
        card = trick[-1][1] if trick else new.current_trick[-1][1]
        source = " from the pile" if prev.pile else ""
        self.say(f"{verb(name, 'play')} {self.cards.card(card)}{source}.")
        if trick is not None:
            shown = ",  ".join(f"{self.names[s]} {self.cards.card(c)}" for s, c in trick)
            winner_name = self.names[winner]
            self.say(f"  -> {verb(winner_name, 'win')} the trick ({shown})", "bold")

    def narrate_changes(self, prev: Observation, new: Observation) -> None:
        if new.hands_played > prev.hands_played:
            hand = new.history[-1]
            self.console.print()
            self.say(f"Hand {hand.number} is over.", "bold")
            for line in hand_summary(hand, self.names, self.cards):
                self.say(line)
            if len(hand.bids) == new.players:
                header = "Quota" if self.quotas else "Bid"
                self.console.print(
                    hand_result_table(
                        hand, self.names, cooperative=new.cooperative, bid_header=header
                    )
                )
            else:
                self.console.print(game_hand_table(hand, self.names, self.partnerships))
            if not self.state.is_terminal():
                what = "quota/won over" if self.quotas else "bid/won score"
                title = f"Scorecard ({what})" if has_bids(new.history, new.players) else None
                self.console.print(self.card_table(new, details=False, title=title))
                self.console.print()
                self.console.rule(Text(hand_heading(new, self.names)))
            return
        if prev.phase == "deal" and new.phase != "deal":
            self.say(f"{new.hand_size} card{'s' if new.hand_size != 1 else ''} dealt to each.")
            if new.hand is None:
                self.say("Your cards stay face down for now.")
            if new.special:
                self.say(describe_special(new.special, None).capitalize() + ".")
        if new.trump_known and not prev.trump_known:
            self.say(f"Trump: {self.cards.trump(new.trump, new.turn_up)}")
        if prev.phase == "pile_shuffle" and new.phase == "playing":
            self.say("The hands are shuffled into face-down piles, played in pile order.")
        if self.hooks:
            for line in game_changes(prev, new, self.names, self.cards):
                self.say(line)

    # -------------------------------------------------------------- the end

    def finish(self) -> None:
        state = self.state
        obs = state.observe(self.human)
        self.console.print()
        self.console.rule(Text("Final scorecard"))
        self.console.print(self.card_table(obs))
        if obs.cooperative:
            self.say(cooperative_line(state.hands_played, state.completed), "bold")
        elif self.hooks:
            unit = score_unit(state.history)
            winners = state.winners()
            line = result_line(winners, self.names, state.scores, self.partnerships, unit=unit)
            self.say(line, "bold")
        else:
            self.say(winners_line(state.winners(), self.names, state.scores), "bold")


def play(
    game: GameArgument,
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
    seat: Annotated[int, typer.Option("--seat", metavar="K", help="Your seat, 0-based.")] = 0,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help=f"Bot for the other seats, or a comma list with one per other seat ({BOTS_HELP}).",
        ),
    ] = "heuristic",
    record: Annotated[
        Path | None,
        typer.Option(
            "--record", metavar="DIR", help="Save the game record into DIR.", file_okay=False
        ),
    ] = None,
) -> None:
    """Play a game in the terminal against bots (type ? at a prompt for help)."""
    console = make_console()
    rules = load_rules(game, option)
    count = players if players is not None else default_players(rules)
    game_seed = seed if seed is not None else random_seed()
    state = start_game(rules, count, game_seed)
    if not 0 <= seat < count:
        fail(f"--seat must be 0 to {count - 1} for {count} players, not {seat}")
    names = split_names(bots)
    if len(names) == 1:
        names = names * (count - 1)
    if len(names) != count - 1:
        fail(f"--bots needs one bot name, or {count - 1} (one per other seat), not {len(names)}")
    others = [s for s in range(count) if s != seat]
    seated = make_bots(dict(zip(others, names, strict=True)), game_seed)
    cards = Cards(labels=rules.joker_labels, symbols=unicode_ok(console))
    table = Table(console, state, seat, seated, cards)
    console.print(
        Text(
            f"{rules.name}: {count} players, seed {game_seed}. You are seat {seat};"
            f" bots: {', '.join(names)}."
        )
    )
    console.print("Type ? for your legal choices, scores for the scorecard, quit to stop.")
    try:
        table.run()
    except (GameAbandonedError, KeyboardInterrupt):
        console.print()
        console.print(Text(f"Game abandoned after {state.hands_played} complete hand(s)."))
    else:
        table.finish()
    if record is not None:
        path = record_path(record, f"{rules.id}-seed{game_seed}")
        save_record(state, path)
        console.print(Text(f"Record saved: {path}"))
