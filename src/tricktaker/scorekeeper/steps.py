"""What the score sheet asks of a game: the ``scorekeeper`` capability.

A score sheet kept for real cards runs the engine's own game under it (a hidden deal
stands in for the cards), takes the table's calls and bids as the engine's actions and
the tricks in place of the play (:mod:`tricktaker.scorekeeper.sheet`). The Oh Hell family
needs nothing more: :class:`SheetSteps` itself is its behaviour. A game with its own
phases (Euchre's auction, Buckup's antes and decisions, Pluck's quotas) declares a
subclass as its ``"scorekeeper"`` capability (:attr:`GameHooks.capabilities
<tricktaker.engine.hooks.GameHooks.capabilities>`), which says:

* the game's own **steps** of entering a hand (:class:`Step`: the questions, in order,
  with the choices the rules offer now), which ``tricktaker score`` and the browser walk
  without knowing the game;
* its **entry**: the typed part of a :class:`~tricktaker.scorekeeper.entries.HandEntry`
  that the table reports for the game's own steps (:class:`GameEntry`), read from the
  entry's JSON fields and written back to them;
* how an entry turns into the engine's **actions** (:meth:`SheetSteps.take_step`) and the
  words of the sheet (the trump rule, notes, the special hand of a row).

>>> from tricktaker.rules import load_ruleset
>>> steps = sheet_steps(load_ruleset("bluke"))
>>> steps.has_bids, steps.entry({}, ["Ann", "Bob"])
(True, None)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol

from tricktaker.cards import SUIT_LETTERS, SUIT_NAMES
from tricktaker.engine.actions import Action
from tricktaker.engine.hooks import capability, keeps_engine_bids
from tricktaker.scorekeeper.entries import NO_TRUMP, EntryError, SheetError

if TYPE_CHECKING:
    from tricktaker.engine import GameState, HandResult
    from tricktaker.engine.base import ChanceOutcome
    from tricktaker.rules import Ruleset
    from tricktaker.scorekeeper.entries import HandEntry

__all__ = [
    "CAPABILITY",
    "GameEntry",
    "HandTurn",
    "SheetSteps",
    "Step",
    "StepKind",
    "TricksAsked",
    "sheet_steps",
]

CAPABILITY = "scorekeeper"
"""The name a game declares its :class:`SheetSteps` under."""

StepKind = Literal["choice", "seat_text", "seat_words", "seat_number"]
"""What a step asks: ``choice``, one of ``choices`` (a dealer's ante); ``seat_text``, a
text and the seat that made it, or nothing at all (a contract and who won the auction,
or all passed); ``seat_words``, each seat's words among ``choices`` in the order said
(stay, fold), with a number of the seats whose words include one of ``counted_when``
(the cards drawn); ``seat_number``, each seat's number from ``low`` to ``high``."""


@dataclass(frozen=True, slots=True)
class Step:
    """One of a game's own questions when a hand is entered, asked after the call and the
    bids and before the trump and the tricks. ``name`` is the entry's JSON field that
    holds the answer (and the step's name in the clients)."""

    name: str
    kind: StepKind
    label: str
    """The short name a prompt gives the answer (``Ante``)."""
    question: str
    """The question as a heading asks it (``The dealer's ante``)."""
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = 0
    hint: str = ""
    """An example of the answer (``e.g. 4H or NT``)."""
    seat_field: str = ""
    """``seat_text``: the entry's field of the seat (``declarer``)."""
    seat_question: str = ""
    """``seat_text``: the question naming the seat (``Who won the auction``)."""
    skip: str = ""
    """``seat_text``: the words of answering nothing (``All passed``): no trick was
    played, the hand is over."""
    count: Step | None = None
    """``seat_words``: the number asked of a seat whose words include one of
    ``counted_when`` (a ``seat_number`` step)."""
    counted_when: tuple[str, ...] = ()
    checked: bool = False
    """Whether the step is checked by the rules as soon as it is answered (before the
    tricks), so a refused answer is asked again at once."""

    def fields(self) -> tuple[str, ...]:
        """The entry's JSON fields this step fills."""
        own = (self.name, self.seat_field) if self.seat_field else (self.name,)
        return own + (self.count.fields() if self.count is not None else ())

    def to_json(self) -> dict[str, Any]:
        """The step as the clients read it."""
        return {
            "name": self.name,
            "kind": self.kind,
            "label": self.label,
            "question": self.question,
            "choices": list(self.choices),
            "low": self.low,
            "high": self.high,
            "hint": self.hint,
            "seat_field": self.seat_field or None,
            "seat_question": self.seat_question,
            "skip": self.skip or None,
            "count": None if self.count is None else self.count.to_json(),
            "counted_when": list(self.counted_when),
            "checked": self.checked,
        }


class GameEntry(Protocol):
    """The game's own part of a hand as the table reports it (a frozen dataclass of the
    game's scorekeeper)."""

    def to_json(self, players: Sequence[str] | None = None) -> dict[str, Any]:
        """The entry's fields as JSON: seats as numbers, or with ``players`` (the sheet
        file) by name."""
        ...


@dataclass(frozen=True, slots=True)
class TricksAsked:
    """Whose tricks the table gives for a hand, in order, each with its prompt; the other
    seats took none, but ``rest`` (when given) took the tricks the others did not."""

    questions: tuple[tuple[int, str], ...]
    rest: int | None = None


@dataclass(slots=True)
class HandTurn:
    """One hand being entered into the game under the sheet: the entry, the trump given,
    the players' names, the sheet's checked way to take an action (it raises
    :class:`EntryError` in the players' words) and the game's own progress through the
    entry (how many of each seat's answers were used)."""

    entry: HandEntry
    trump: str | None
    players: tuple[str, ...]
    act: Callable[[GameState, int, Action], None]
    used: dict[int, int] = field(default_factory=dict)


class SheetSteps:
    """The ``scorekeeper`` capability: what a score sheet asks of a game. This class is
    the Oh Hell family's behaviour (bids, tricks, the trump entered when the rules do not
    fix it); a game overrides what it does otherwise (Caller Clag's steps add the
    dealer's calls)."""

    has_bids: ClassVar[bool] = True
    """Whether each player bids (the engine's ``bid`` actions)."""
    fills_last_tricks: ClassVar[bool] = True
    """Whether the last player's tricks may be filled in as the only count that adds up
    (not where a player out of the hand took none)."""
    no_play: ClassVar[str] = "the hand ended without play"
    """Why no tricks were played, when a hand ends before the play."""
    needs_trick_winners: ClassVar[bool] = False
    """Whether the game scores by who won which trick (the last trick's stakes), so the
    table gives the winner of each trick, as in a hand whose tricks score by number."""
    out_rule: ClassVar[str] = "out of the hand"
    """The rule a seat out of the hand breaks when tricks are entered for it."""
    call_kinds: ClassVar[tuple[str, ...]] = ()
    """The kinds of hand a dealer may call, in the game's order (where it :attr:`takes_call`)."""
    takes_call: ClassVar[bool] = False
    """Whether the dealer calls each hand before it is dealt (a hand entry's ``call``:
    its size, kind and modifiers, as in Caller Clag); the game's :meth:`take_step`
    then takes the call from the entry, its first step (the size) before anything else."""

    # ------------------------------------------------------------- the steps

    def game_steps(self, state: GameState) -> tuple[Step, ...]:
        """The game's own steps of entering a hand, with what the rules offer at
        ``state`` (the next hand, or the end of the game: then none is offered)."""
        return ()

    def entry(self, fields: Mapping[str, Any], players: Sequence[str]) -> GameEntry | None:
        """The game's part of an entry from its JSON ``fields`` (the keyword arguments
        of :meth:`ScoreSheet.add <tricktaker.scorekeeper.ScoreSheet.add>`; seats as
        numbers); :class:`EntryError` when a field is wrong. The Oh Hell family takes no
        field of its own: any given (not empty) is refused."""
        given = sorted(k for k, v in fields.items() if v not in (None, "", [], (), {}))
        if given:
            raise EntryError(
                f"this game takes no {', '.join(given)} (only bids, tricks, the trump,"
                " the call and who won each trick)",
                rule="entry",
            )
        return None

    def entry_from_file(self, hand: Mapping[str, Any], players: Sequence[str]) -> GameEntry | None:
        """The game's part of a hand of a sheet file (seats by name); :class:`SheetError`
        when it is malformed."""
        return None

    def trump_by_rule(self, state: GameState) -> bool:
        """Whether the rules fix the trump of the hand at ``state``, so the table enters
        none (rotation, no trump; a game whose own steps settle it)."""
        if not keeps_engine_bids(state.hooks):
            return True
        method = state.setup.trump_method
        return not state.setup.called and (method in ("rotate", "none") or state.spec.no_trump)

    def trump_rule(self, state: GameState, *, pending: bool) -> str:
        """How the hand at ``state`` gets its trump, in words (``pending``: a Caller
        Clag hand before its call)."""
        setup, spec = state.setup, state.spec
        if pending:
            return "the caller's call decides (else the turned-up card)"
        method = setup.trump_method
        after = ", after the bids" if spec.bid_before_trump else ""
        if spec.no_trump or method == "none":
            return NO_TRUMP
        if method == "rotate":
            rotation = setup.rotation
            return SUIT_NAMES[rotation[(state.hand_number - 1) % len(rotation)]]
        if method == "second_deck":
            return f"a card turned from a second deck{after}"
        return f"the turned-up card{after}"

    def opening(self, eldest: str, *, simultaneous: bool) -> str:
        """Who starts the hand, in words (``eldest``: the player left of the dealer)."""
        return "everyone bids at once" if simultaneous else f"{eldest} bids first"

    def notes(self, state: GameState, players: Sequence[str]) -> list[str]:
        """The game's own notes on the hand at ``state`` (quotas, the pot, partnerships)."""
        return []

    def facts(self, state: GameState) -> dict[str, Any]:
        """The game's own facts about the hand at ``state``, as JSON-able data for the
        clients (Pluck's quotas and plucks owed)."""
        return {}

    def chips(self, state: GameState) -> tuple[tuple[int, ...], int] | None:
        """Each player's chips and the pot, in a game played for chips; None otherwise."""
        return None

    def special(self, result: HandResult) -> str | None:
        """A scored hand's special hand (or the game's own outcome), in words."""
        if result.special is not None:
            return str(result.special.get("name"))
        return None

    def tricks_asked(
        self, entry: GameEntry | None, players: Sequence[str], state: GameState
    ) -> TricksAsked:
        """Whose tricks a prompt asks, in seating order, for a hand entered so far as
        ``entry`` (its game's part) at ``state``."""
        return TricksAsked(tuple((s, f"{name}'s tricks") for s, name in enumerate(players)))

    # --------------------------------------------------- the engine's actions

    def hidden_deal(self, state: GameState) -> ChanceOutcome | None:
        """The hidden deal under the sheet (None: any; a game may need one whose cards
        force no decision the real cards did not)."""
        return None

    def check_entry(self, entry: HandEntry, players: Sequence[str]) -> None:
        """Check the game's part of ``entry`` on its own, before any action is taken."""

    def take_step(self, state: GameState, turn: HandTurn) -> None:
        """Take one step of the game's own phase (the ``HOOK`` phase) from the entry. A
        step the sheet does not record (cards the sheet never sees: Pluck's plucks,
        Euchre's discards) is stood for by any legal action; a dealer naming the trump
        names the one entered, when it was."""
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        chosen = legal[0]
        trump = turn.trump
        if trump is not None and trump != NO_TRUMP:
            letter = SUIT_LETTERS[SUIT_NAMES.index(trump)]
            chosen = next((a for a in legal if a.value == letter), chosen)
        state.apply(seat, chosen)

    def call_pending(self, state: GameState) -> bool:
        """Whether the hand at ``state`` still waits for the dealer's call (only in a
        game that :attr:`takes_call`)."""
        return False

    def refusal(self, state: GameState, seat: int, action: Action, reason: str) -> str:
        """The engine's refusal (``reason``) of ``seat``'s action in the game's own
        steps, in the players' words (the bids have :meth:`ScoreSheet.bid_refusal
        <tricktaker.scorekeeper.sheet.ScoreSheet.bid_refusal>`)."""
        return reason

    def finish_bidding(self, state: GameState, turn: HandTurn, dealer: int) -> None:
        """Check, once the bidding is over, that the entry holds nothing the rules did
        not ask for."""


_DEFAULT = SheetSteps()


def sheet_steps(rules: Ruleset) -> SheetSteps:
    """The :class:`SheetSteps` of ``rules``' game: the Oh Hell family's for a ruleset
    without hooks, else the game's declared ``scorekeeper`` capability;
    :class:`SheetError` for a game that declares none."""
    if rules.hooks is None:
        return _DEFAULT
    declared = capability(rules.hooks, CAPABILITY)
    if declared is None:
        raise SheetError(
            f"the scorekeeper does not keep the sheet of {rules.name}: its game declares"
            " no scorekeeper steps"
        )
    if isinstance(declared, type) and issubclass(declared, SheetSteps):
        declared = declared()
    if not isinstance(declared, SheetSteps):
        raise SheetError(
            f"the {rules.name} game's scorekeeper capability is not a SheetSteps: {declared!r}"
        )
    return declared
