"""The score sheet of a game played with real cards: checked entry, scores, corrections.

The sheet keeps no deck. Under it runs the engine's own :class:`GameState`, dealt
from a fixed seed that nobody sees: the table's calls and bids are taken as the
engine's actions (so the engine's rules check them), the tricks the table reports
are put in place of the play, and the engine scores the hand, moves the dealer on,
picks the next hand of the schedule and ends the game. No rule is written twice.

>>> sheet = ScoreSheet("bluke", ["John", "Margaret", "Steve", "Betsy"])
>>> sheet.next_hand().hand_size
13
>>> row = sheet.add(bids=[3, 3, 2, 5], tricks=[4, 0, 4, 5])
>>> row.scores
(31, -30, 22, 50)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from tricktaker.cards import SUIT_NAMES
from tricktaker.engine import Action, GameState, new_game
from tricktaker.engine.actions import BID
from tricktaker.engine.base import BIDDING, DEAL, HOOK, PLAYING, TRUMP_DRAW, ChanceOutcome
from tricktaker.engine.hooks import keeps_engine_bids
from tricktaker.present import SYMBOLS
from tricktaker.present.scorecard import Scorecard, scorecard
from tricktaker.present.text import default_seat_name
from tricktaker.rules import Ruleset, load_ruleset
from tricktaker.scorekeeper.entries import (
    GENERIC_FIELDS,
    NO_TRUMP,
    CallEntry,
    Change,
    EntryError,
    HandEntry,
    NextHand,
    Row,
    SheetError,
    call_from_json,
    trump_word,
)
from tricktaker.scorekeeper.steps import (
    GameEntry,
    HandTurn,
    SheetSteps,
    Step,
    TricksAsked,
    sheet_steps,
)

__all__ = [
    "CallEntry",
    "Change",
    "EntryError",
    "HandEntry",
    "NextHand",
    "Row",
    "ScoreSheet",
    "SheetError",
]

_SEED = 0
"""The seed of the hidden deal under the sheet (cards never reach the sheet)."""


class ScoreSheet:
    """The score sheet of one game: players in seating order, then hand by hand.

    ``game`` is a shipped game id or a ruleset file; ``options`` its options. A player
    left unnamed is called as the table calls an empty seat (``Seat 2``). The first
    dealer is ``first_dealer`` (a player's name), else the first player named.
    ``rules``, when given, is the ruleset already loaded (house rules kept as data, as
    the server keeps them): ``game`` then only names it. What the game asks beyond bids
    and tricks is its ``scorekeeper`` capability (:attr:`steps`).
    """

    def __init__(
        self,
        game: str,
        players: Sequence[str],
        *,
        first_dealer: str | None = None,
        options: Mapping[str, object] | None = None,
        rules: Ruleset | None = None,
    ) -> None:
        self.game = game
        self.options: dict[str, object] = dict(options or {})
        self.rules: Ruleset = rules or load_ruleset(game, options=self.options)
        names = [str(p).strip() or default_seat_name(s) for s, p in enumerate(players)]
        folded = [name.casefold() for name in names]
        if len(set(folded)) != len(folded):
            raise SheetError("two players have the same name; give each a different one")
        self.rules.check_players(len(names))
        self.steps: SheetSteps = sheet_steps(self.rules)
        """The game's steps of entering a hand (:mod:`tricktaker.scorekeeper.steps`)."""
        self.players: tuple[str, ...] = tuple(names)
        dealer = self.players[0] if first_dealer is None else first_dealer
        self.first_dealer = self.seat_of(dealer)
        self._entries: list[HandEntry] = []
        self._rows: list[Row] = []
        self._state = self._fresh()

    # ------------------------------------------------------------------ basics

    def seat_of(self, name: str) -> int:
        """The seat of the player called ``name`` (case does not matter; a unique
        start of a name is enough)."""
        wanted = name.strip().casefold()
        for seat, player in enumerate(self.players):
            if player.casefold() == wanted:
                return seat
        starts = [
            s for s, p in enumerate(self.players) if wanted and p.casefold().startswith(wanted)
        ]
        if len(starts) == 1:
            return starts[0]
        known = ", ".join(self.players)
        raise SheetError(f"no player is called {name!r} (the players: {known})")

    @property
    def rows(self) -> tuple[Row, ...]:
        """The hands entered so far, scored."""
        return tuple(self._rows)

    @property
    def entries(self) -> tuple[HandEntry, ...]:
        """The hands as entered."""
        return tuple(self._entries)

    @property
    def totals(self) -> tuple[int, ...]:
        """Each player's running total."""
        return tuple(self._state.scores)

    @property
    def cooperative(self) -> bool:
        """Whether the table plays as one team (cooperative Blackout)."""
        return self.rules.cooperative

    def is_over(self) -> bool:
        """Whether the rules say the game has ended."""
        return self._state.is_terminal()

    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over (empty before; for a cooperative
        game, everyone when the team completed the schedule, no one when it failed)."""
        if not self.is_over():
            return ()
        return tuple(self._state.winners())

    def chips(self) -> tuple[tuple[int, ...], int] | None:
        """In a game played for chips (Buckup), each player's stack and the pot, as the
        game's ledger holds them; None in other games."""
        return self.steps.chips(self._state)

    def tricks_asked(self, game: GameEntry | None) -> TricksAsked:
        """Whose tricks the next hand's prompts ask, for a hand whose game's own part
        was entered as ``game`` (Euchre: the declarer's side; Buckup: who stayed in)."""
        return self.steps.tricks_asked(game, self.players, self._state)

    def game_steps(self) -> tuple[Step, ...]:
        """The game's own steps of entering the next hand, with the choices the rules
        offer now (none in the Oh Hell family; once the game is over, the steps of its
        hands without the choices that only a next hand has)."""
        return self.steps.game_steps(self._state)

    def game_copy(self) -> GameState:
        """A copy of the game under the sheet, at the next hand (its deal is a hidden
        stand-in: only what the rules allow is read from it)."""
        return self._state.clone()

    def counts(self, seat: int) -> dict[str, int]:
        """How often ``seat`` went Set, Over and Perfect."""
        out = {"S": 0, "O": 0, "P": 0}
        for row in self._rows:
            if row.bids:
                out[row.outcome(seat)] += 1
        return out

    def scorecard(self) -> Scorecard:
        """The sheet as the clients show a score sheet (:mod:`tricktaker.present`):
        each row's trump and special hand as the table gave them (the engine's deal
        under the sheet is a hidden stand-in)."""
        state = self._state
        sheet = scorecard(
            state.history,
            self.players,
            SYMBOLS,
            state.setup.partnerships,
            cooperative=self.cooperative,
            hooks=self.rules.spec.hooks,
        )
        for shown, row in zip(sheet.rows, self._rows, strict=True):
            shown.trump = row.trump if row.trump in SUIT_NAMES else None
            shown.turn_up = None
            shown.trump_text = row.trump or ""
            shown.special = row.special or ""
        return sheet

    # ------------------------------------------------------------ the next hand

    def next_hand(self, call: CallEntry | None = None) -> NextHand:
        """The dealer, hand size, trump rule and bidding order of the next hand (in
        Caller Clag, of the hand ``call`` makes, once the caller has called)."""
        state = self._state
        if state.is_terminal():
            raise EntryError(self._over_text(), rule="end of game")
        if call is not None:
            state = state.clone()
            entry = HandEntry(bids=(), tricks=(), call=call)
            self._bid_stage(state, entry, None, partial=set())
        setup, spec, n = state.setup, state.spec, state.players
        pending = self.steps.takes_call and self.steps.call_pending(state)
        order = tuple((state.dealer + 1 + i) % n for i in range(n))
        notes: list[str] = []
        if spec.blind_bid:
            notes.append("bids are made blind, before anyone looks at their cards")
        if spec.pile:
            notes.append("the cards are played face down from a pile, in the order dealt")
        if spec.blind_hand:
            notes.append("after the bids the hands are shuffled into piles, played in order")
        if spec.misere:
            notes.append("misere: everyone bids 0")
        if setup.sum_equals_hand:
            notes.append(f"the bids must total exactly {state.hand_size}")
        if state.hook and not pending:
            notes.append("hook: the dealer may not bring the bids to the number of tricks")
        if setup.cooperative and setup.advance_when_all_exact:
            notes.append("unless every bid is made exactly, this hand size is played again")
        notes += self.steps.notes(state, self.players)
        sizes: tuple[int, ...] = ()
        if setup.called:
            sizes = tuple(s for s in range(setup.called_min, setup.called_max + 1) if s * n < 52)
        return NextHand(
            number=state.hand_number,
            dealer=state.dealer,
            hand_size=None if pending else state.hand_size,
            special=spec.name,
            trump_rule=self.steps.trump_rule(state, pending=pending),
            bid_order=order,
            simultaneous=setup.simultaneous,
            blind=spec.blind_bid,
            misere=spec.misere,
            hook=state.hook,
            called=setup.called,
            call_sizes=sizes,
            call_kinds=self.steps.call_kinds,
            trick_points=not pending
            and (state.scoring.trick_points is not None or self.steps.needs_trick_winners),
            notes=tuple(notes),
            opening=self.steps.opening(self.players[order[0]], simultaneous=setup.simultaneous),
            facts=self.steps.facts(state),
        )

    def upto(self, hands: int) -> ScoreSheet:
        """A copy of the sheet with only its first ``hands`` hands (to correct the next)."""
        other = ScoreSheet(
            self.game,
            self.players,
            first_dealer=self.players[self.first_dealer],
            options=self.options,
            rules=self.rules,
        )
        other._replace_all(self._entries[:hands])
        return other

    def check(self, entry: HandEntry) -> Row:
        """The row ``entry`` would make as the next hand; raises :class:`EntryError`
        like :meth:`add`, and changes nothing."""
        return self._apply(self._state.clone(), entry)

    def trump_by_rule(self) -> bool:
        """Whether the rules fix the next hand's trump (rotation, no trump, a game whose
        own steps settle it): nothing to enter."""
        return self.steps.trump_by_rule(self._state)

    def trump_known(self, call: CallEntry | None = None) -> bool:
        """Whether the rules fix the next hand's trump (rotation, no trump), so the table
        has none to enter; in Caller Clag, once ``call`` is known."""
        if call is None:
            return self.trump_by_rule()
        return self.next_hand(call).trump_rule == NO_TRUMP

    # ------------------------------------------------------------------ entry

    def check_bids(
        self,
        bids: Mapping[int, int | None],
        *,
        call: CallEntry | None = None,
        trump: str | None = None,
    ) -> None:
        """Check the bids made so far this hand (by seat), in bidding order; raise
        :class:`EntryError` at the first one the rules refuse."""
        self.bidding_at(bids, call=call, trump=trump)

    def bidding_at(
        self,
        bids: Mapping[int, int | None],
        *,
        call: CallEntry | None = None,
        trump: str | None = None,
    ) -> GameState:
        """A copy of the game under the sheet with the bids made so far taken (checked as
        :meth:`check_bids` checks them), at the first bidder whose bid is not given."""
        state = self._state.clone()
        self._require_open(state)
        entry = HandEntry(
            bids=tuple(bids.get(s) for s in range(len(self.players))), tricks=(), call=call
        )
        self._bid_stage(state, entry, trump_word(trump), partial=set(bids))
        return state

    def check_call(self, call: CallEntry) -> None:
        """Check a Caller Clag call; raise :class:`EntryError` when the rules refuse it."""
        self.check_bids({}, call=call)

    def add(
        self,
        *,
        bids: Sequence[int | None] = (),
        tricks: Sequence[int],
        trick_winners: Sequence[int] = (),
        trump: str | None = None,
        call: CallEntry | None = None,
        **game_fields: Any,
    ) -> Row:
        """Enter the next hand (by seat) and return its scored row; a hand the rules
        refuse raises :class:`EntryError` and changes nothing. ``game_fields`` are the
        game's own (a Euchre ``contract`` and ``declarer``; Buckup's ``ante``,
        ``decisions`` and ``drawn``), as its steps name them."""
        entry = self.entry(
            bids=bids,
            tricks=tricks,
            trick_winners=trick_winners,
            trump=trump,
            call=call,
            **game_fields,
        )
        return self.add_entry(entry)

    def add_entry(self, entry: HandEntry) -> Row:
        """Enter the next hand as ``entry`` (made by :meth:`entry` or
        :meth:`entry_from_json`) and return its scored row; a hand the rules refuse
        raises :class:`EntryError` and changes nothing."""
        state = self._state.clone()
        row = self._apply(state, entry)
        self._entries.append(entry)
        self._rows.append(row)
        self._state = state
        return row

    def entry(
        self,
        *,
        bids: Sequence[int | None] = (),
        tricks: Sequence[int],
        trick_winners: Sequence[int] = (),
        trump: str | None = None,
        call: CallEntry | None = None,
        **game_fields: Any,
    ) -> HandEntry:
        """A :class:`HandEntry`, its sizes checked (one bid and one trick count a player)
        and its game's own ``game_fields`` read by the game's steps."""
        n = len(self.players)
        if not bids and not self.has_bids():
            bids = (None,) * n
        if len(bids) != n or len(tricks) != n:
            raise EntryError(
                f"give a bid and a trick count for each of the {n} players", rule="entry"
            )
        return HandEntry(
            bids=tuple(bids),
            tricks=tuple(tricks),
            trick_winners=tuple(trick_winners),
            trump=trump_word(trump),
            call=call,
            game=self.steps.entry(game_fields, self.players),
        )

    def entry_from_json(self, data: Mapping[str, Any]) -> HandEntry:
        """The :class:`HandEntry` of its JSON (:meth:`HandEntry.to_json`, as the server
        stores it and the browser sends it), checked as :meth:`entry` checks it."""
        call = data.get("call")
        try:
            parsed = None if call is None else call_from_json(call)
        except SheetError as exc:
            raise EntryError(str(exc), rule="entry") from None
        fields = {k: v for k, v in data.items() if k not in GENERIC_FIELDS}
        return self.entry(
            bids=data.get("bids") or (),
            tricks=data.get("tricks") or (),
            trick_winners=data.get("trick_winners") or (),
            trump=data.get("trump"),
            call=parsed,
            **fields,
        )

    def undo(self) -> HandEntry:
        """Take back the last hand entered, and return it."""
        if not self._entries:
            raise EntryError("no hand has been entered yet", rule="undo")
        entries = self._entries[:-1]
        last = self._entries[-1]
        self._replace_all(entries)
        return last

    def fix(self, number: int, entry: HandEntry) -> list[Change]:
        """Correct hand ``number`` (1-based): every later hand is scored again. Returns
        what changed; a correction that makes any hand break a rule changes nothing."""
        if not 1 <= number <= len(self._entries):
            raise EntryError(
                f"there is no hand {number} to correct (hands 1 to {len(self._entries)})",
                rule="correction",
            )
        old = self._rows
        entries = self._entries[:]
        entries[number - 1] = entry
        self._replace_all(entries)
        changes: list[Change] = []
        for before, after in zip(old, self._rows, strict=True):
            for seat in range(len(self.players)):
                if before.scores[seat] != after.scores[seat]:
                    changes.append(
                        Change(
                            before.number, seat, "score", before.scores[seat], after.scores[seat]
                        )
                    )
                if before.totals[seat] != after.totals[seat]:
                    changes.append(
                        Change(
                            before.number, seat, "total", before.totals[seat], after.totals[seat]
                        )
                    )
        return changes

    # -------------------------------------------------------------- internals

    def _fresh(self) -> GameState:
        return new_game(
            self.rules, players=len(self.players), seed=_SEED, first_dealer=self.first_dealer
        )

    def _replace_all(self, entries: list[HandEntry]) -> None:
        state = self._fresh()
        rows: list[Row] = []
        for entry in entries:
            try:
                rows.append(self._apply(state, entry))
            except EntryError as exc:
                raise EntryError(f"hand {len(rows) + 1}: {exc.reason}", rule=exc.rule) from None
        self._entries, self._rows, self._state = entries, rows, state

    def _over_text(self) -> str:
        won = self.winners()
        if self.cooperative:
            return "the game is over: " + ("the team won" if won else "the team lost")
        return "the game is over: " + " and ".join(self.players[s] for s in won) + " won"

    def _require_open(self, state: GameState) -> None:
        if state.is_terminal():
            raise EntryError(self._over_text(), rule="end of game")

    def _act(self, state: GameState, seat: int, action: Action) -> None:
        problem = state.why_illegal(seat, action)
        if problem is None:
            state.apply(seat, action)
            return
        reason, rule = problem
        if action.kind == BID:
            reason = self.bid_refusal(state, seat, int(action.value), reason, rule)
        else:
            reason = self.steps.refusal(state, seat, action, reason)
        raise EntryError(reason, rule=rule)

    def bid_refusal(self, state: GameState, seat: int, value: int, reason: str, rule: str) -> str:
        """The engine's refusal of ``seat``'s bid of ``value`` in the players' words."""
        name = self.players[seat]
        if rule == "hook rule":
            role = "the dealer" if seat == state.dealer else "bidding last"
            size = state.hand_size
            tricks = "the 1 trick" if size == 1 else f"the {size} tricks"
            return f"{name}, {role}, may not bid {value}: the bids would total {tricks}"
        if rule == "zero-bid limit":
            return f"{name} may not bid 0 after {state.zero_streak[seat]} zero bids in a row"
        return f"{name} may not bid {value}: {reason}"

    def check_steps(self, entry: HandEntry) -> None:
        """Check ``entry`` up to the play (the call, the bids, the game's own steps such
        as a Euchre contract; not its tricks); raise :class:`EntryError` when the rules
        refuse it."""
        state = self._state.clone()
        self._require_open(state)
        self._bid_stage(state, entry, None, partial=None)

    def has_bids(self) -> bool:
        """Whether each player bids (not in Pluck, with its quotas, nor in Euchre, whose
        auction is entered as its contract)."""
        return self.steps.has_bids

    def _bid_stage(
        self, state: GameState, entry: HandEntry, trump: str | None, *, partial: set[int] | None
    ) -> HandTurn:
        """Take the call, the bids and the game's own steps; stop at play (or, with
        ``partial``, at the first bidder whose bid is not given). Returns the hand's
        turn (what the game used of the entry)."""
        turn = HandTurn(entry, trump, self.players, self._act)
        call = entry.call
        if self.steps.takes_call and self.steps.call_pending(state) and state.called() is None:
            if call is None:
                if partial is not None and not partial:
                    return turn
                name = self.players[state.dealer]
                raise EntryError(
                    f"{name} deals and calls the hand first: its size, kind and modifiers",
                    rule="calls",
                )
            self.steps.take_step(state, turn)  # the call's first step: the hand's size
        elif call is not None:
            raise EntryError(
                f"the dealer calls no hand: {self.rules.name} has no calls",
                rule="calls",
            )
        start = state.hands_played
        self.steps.check_entry(entry, self.players)
        while state.phase != PLAYING:
            if state.is_chance():
                if state.phase == TRUMP_DRAW and trump is not None and trump != NO_TRUMP:
                    card = SUIT_NAMES.index(trump) * 13
                    state.apply_chance(ChanceOutcome("second_deck", (card,)))
                elif state.phase == DEAL and (hidden := self.steps.hidden_deal(state)) is not None:
                    state.apply_chance(hidden)
                else:
                    state.apply_chance()
            elif state.phase == BIDDING:
                waiting = sorted(
                    state.to_act(), key=lambda s: (s - state.dealer - 1) % state.players
                )
                if state.setup.simultaneous and partial is not None:
                    waiting = [s for s in waiting if s in partial]
                    if not waiting:
                        return turn
                seat = waiting[0]
                value = entry.bids[seat] if seat < len(entry.bids) else None
                if partial is not None and seat not in partial:
                    return turn
                if value is None:
                    if not state.spec.misere:
                        raise EntryError(f"{self.players[seat]}'s bid is missing", rule="entry")
                    value = 0
                self._act(state, seat, Action(BID, value))
            elif state.phase == HOOK:
                self.steps.take_step(state, turn)
                if state.hands_played != start:
                    return turn  # thrown in: the hand is over
            else:  # pragma: no cover - the engine has no other phase before the play
                raise EntryError(f"the sheet cannot take {state.phase_name} here", rule="entry")
        return turn

    def _apply(self, state: GameState, entry: HandEntry) -> Row:
        """Enter one hand into ``state`` (raising :class:`EntryError`) and score it."""
        self._require_open(state)
        number, dealer = state.hand_number, state.dealer
        start = state.hands_played
        turn = self._bid_stage(state, entry, entry.trump, partial=None)
        size, n = state.hand_size, state.players
        tricks = list(entry.tricks)
        self.steps.finish_bidding(state, turn, dealer)
        if state.hands_played != start:
            if any(tricks):
                reason = self.steps.no_play
                raise EntryError(f"{reason}: no tricks were played", rule="tricks")
            return self._row(state, entry, number, dealer, None)
        if state.active is not None:
            for seat, playing in enumerate(state.active):
                if not playing and tricks[seat]:
                    raise EntryError(
                        f"{self.players[seat]} is out of this hand and took no tricks",
                        rule=self.steps.out_rule,
                    )
        if len(tricks) != n:
            raise EntryError(f"give the tricks of each of the {n} players", rule="entry")
        for seat, count in enumerate(tricks):
            if not 0 <= count <= size:
                name = self.players[seat]
                raise EntryError(
                    f"{name} cannot take {count} tricks in a hand of {size}", rule="tricks"
                )
        if sum(tricks) != size:
            added = " + ".join(str(t) for t in tricks)
            raise EntryError(
                f"the tricks must add up to the hand size: {added} = {sum(tricks)}, not {size}",
                rule="tricks total the hand size",
            )
        winners = list(entry.trick_winners)
        if state.scoring.trick_points is not None and not winners:
            raise EntryError(
                "this hand scores each trick by its number: give who won each trick, in order",
                rule="trick points",
            )
        if self.steps.needs_trick_winners and not winners:
            raise EntryError(
                f"{self.rules.name} scores who won which trick: give who won each, in order",
                rule="trick winners",
            )
        if winners:
            if len(winners) != size or any(not 0 <= w < n for w in winners):
                raise EntryError(
                    f"give the winner of each of the {size} tricks, in order", rule="trick points"
                )
            counted = [winners.count(s) for s in range(n)]
            if counted != tricks:
                raise EntryError(
                    "the winners of the tricks do not match the tricks entered", rule="trick points"
                )
        spec = state.spec
        engine_trump = state.trump if state.setup.trump_method == "rotate" else None
        trump = entry.trump
        if trump is None:
            if keeps_engine_bids(state.hooks) and (
                spec.no_trump or state.setup.trump_method == "none"
            ):
                trump = NO_TRUMP
            elif engine_trump is not None:
                trump = SUIT_NAMES[engine_trump]
        state.finish_hand(tricks, trick_winners=winners)
        return self._row(state, entry, number, dealer, trump)

    def _row(
        self, state: GameState, entry: HandEntry, number: int, dealer: int, trump: str | None
    ) -> Row:
        """The row of the hand just scored."""
        result = state.history[-1]
        special = entry.call.describe() if entry.call is not None else self.steps.special(result)
        setup = state.setup
        if setup.cooperative and setup.advance_when_all_exact:
            special = "all exact" if result.all_exact else "missed: this size again"
        return Row(
            number=number,
            dealer=dealer,
            hand_size=result.hand_size,
            trump=trump,
            special=special,
            bids=tuple(result.bids),
            tricks=tuple(result.tricks),
            scores=tuple(result.hand_scores),
            totals=tuple(result.total_scores),
            all_exact=result.all_exact,
            entry=replace(entry, bids=tuple(result.bids)),
        )
