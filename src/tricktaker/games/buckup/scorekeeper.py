"""Buckup on a score sheet (docs/games/buckup.md, docs/scorekeeper.md): the table enters
the dealer's ante, each player's decisions in the order made (stay, fold, and with the
out-for-now rule going out for now, coming back, conceding) and the cards each drew,
then the tricks of the players who stayed in; the sheet keeps the stacks and the pot.

>>> from tricktaker.scorekeeper import ScoreSheet
>>> sheet = ScoreSheet("buckup", ["A", "B", "C", "D"], first_dealer="D")
>>> row = sheet.add(
...     tricks=[0, 3, 2, 0],
...     ante="kept",
...     decisions=[("fold",), ("stay",), ("stay",), ("stay",)],
...     drawn=[0, 3, 1, 5],
... )
>>> sheet.chips()
((490, 513, 502, 440), 55)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from tricktaker.cards import SUIT_LETTERS
from tricktaker.engine.actions import Action
from tricktaker.engine.base import ChanceOutcome
from tricktaker.games.buckup.hooks import (
    ANTE_ACTION,
    COME_BACK,
    CONCEDE,
    DISCARD,
    DRAW,
    FOLD,
    FULL_HAND,
    KEEP,
    OUT_FOR_NOW,
    RULE_DRAW,
    RULE_STAY,
    STAY,
    BuckupData,
    BuckupSettings,
)
from tricktaker.scorekeeper.entries import EntryError, SheetError
from tricktaker.scorekeeper.steps import HandTurn, SheetSteps, Step, TricksAsked

if TYPE_CHECKING:
    from tricktaker.engine import GameState, HandResult
    from tricktaker.scorekeeper.steps import GameEntry

__all__ = ["SCOREKEEPER", "BuckupEntry", "BuckupSheetSteps", "ante_choices", "decision_words"]

PLAYING = (STAY, COME_BACK)
"""The decisions that take a player into the hand (they draw, and take tricks)."""


@dataclass(frozen=True, slots=True)
class BuckupEntry:
    """A hand's antes and decisions as the table reports them: the dealer's ante
    structure (``kept``, ``drawn``, ``kept_no_fold_fee``, ``drawn_no_fold_fee``; None:
    ``kept``), each seat's decisions in the order made, and the cards each seat drew."""

    ante: str | None = None
    decisions: tuple[tuple[str, ...], ...] = ()
    drawn: tuple[int, ...] = ()

    def to_json(self, players: Sequence[str] | None = None) -> dict[str, Any]:
        """``ante``, ``decisions`` and ``drawn``; in a sheet file the decisions and the
        cards drawn by name."""
        if players is None:
            return {
                "ante": self.ante,
                "decisions": [list(d) for d in self.decisions],
                "drawn": list(self.drawn),
            }
        return {
            "ante": self.ante,
            "decisions": {
                name: list(self.decisions[s]) if s < len(self.decisions) else []
                for s, name in enumerate(players)
            },
            "drawn": {
                name: self.drawn[s] if s < len(self.drawn) else 0 for s, name in enumerate(players)
            },
        }


def ante_choices(state: GameState) -> tuple[str, ...]:
    """The antes the dealer may choose from at ``state`` (the next hand), as the engine
    offers them (empty once the game is over)."""
    if state.is_terminal():
        return ()
    state = state.clone()
    while state.is_chance():
        state.apply_chance()
    waiting = state.to_act()
    if not waiting:
        return ()
    return tuple(str(a.value) for a in state.legal_actions(waiting[0]) if a.kind == ANTE_ACTION)


def decision_words(settings: object) -> tuple[str, ...]:
    """The decisions a player may announce under the ruleset's ``settings``: stay and
    fold, and with the out-for-now rule going out for now, coming back and conceding."""
    assert isinstance(settings, BuckupSettings)
    if settings.out_for_now:
        return (STAY, FOLD, OUT_FOR_NOW, COME_BACK, CONCEDE)
    return (STAY, FOLD)


def _whole_numbers(value: object, what: str) -> tuple[int, ...]:
    if not isinstance(value, list | tuple) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise EntryError(f"{what} is a whole number for each player", rule="entry")
    return tuple(value)


class BuckupSheetSteps(SheetSteps):
    """Buckup's sheet: the ante, the decisions and the draws, the tricks; chips."""

    has_bids: ClassVar[bool] = False
    fills_last_tricks: ClassVar[bool] = False
    no_play: ClassVar[str] = "fewer than two players stayed in, so the pot went without play"
    out_rule: ClassVar[str] = RULE_STAY

    def game_steps(self, state: GameState) -> tuple[Step, ...]:
        words = decision_words(state.rules.hook_settings)
        drawn = Step(
            name="drawn",
            kind="seat_number",
            label="cards drawn",
            question="How many cards each drew",
            low=0,
            high=FULL_HAND,
        )
        return (
            Step(
                name="ante",
                kind="choice",
                label="Ante",
                question="The dealer's ante",
                choices=ante_choices(state),
            ),
            Step(
                name="decisions",
                kind="seat_words",
                label=" or ".join(words),
                question="Who stayed in, who folded (in order), and how many cards each drew",
                choices=words,
                count=drawn,
                counted_when=PLAYING,
            ),
        )

    def entry(self, fields: Mapping[str, Any], players: Sequence[str]) -> BuckupEntry:
        others = sorted(
            k for k, v in fields.items() if k not in ("ante", "decisions", "drawn") and v
        )
        if others:
            raise EntryError(f"Buckup takes no {', '.join(others)}", rule="entry")
        ante = fields.get("ante")
        if ante is not None and not isinstance(ante, str):
            raise EntryError("the ante is one of the dealer's ante structures", rule="entry")
        decisions = fields.get("decisions") or ()
        if not isinstance(decisions, list | tuple) or not all(
            isinstance(seat, list | tuple) and all(isinstance(d, str) for d in seat)
            for seat in decisions
        ):
            raise EntryError("the decisions are each player's words, in order", rule="entry")
        return BuckupEntry(
            ante=ante or None,
            decisions=tuple(tuple(d.strip().lower() for d in seat) for seat in decisions),
            drawn=_whole_numbers(fields.get("drawn") or (), "the cards drawn"),
        )

    def entry_from_file(self, hand: Mapping[str, Any], players: Sequence[str]) -> BuckupEntry:
        if "decisions" not in hand:
            return BuckupEntry()
        ante = hand.get("ante")
        if ante is not None and not isinstance(ante, str):
            raise SheetError("'ante' has the wrong type")
        chosen = hand.get("decisions")
        if (
            not isinstance(chosen, dict)
            or set(chosen) != set(players)
            or not all(
                isinstance(v, list) and all(isinstance(d, str) for d in v) for v in chosen.values()
            )
        ):
            raise SheetError("'decisions' must list each player's decisions")
        drawn = hand.get("drawn")
        if not isinstance(drawn, dict) or set(drawn) != set(players):
            raise SheetError("'drawn' must give a value for each player, by name")
        counts = [drawn[name] for name in players]
        if not all(isinstance(c, int) and not isinstance(c, bool) for c in counts):
            raise SheetError("'drawn' holds a value that is not a whole number")
        return BuckupEntry(
            ante=ante,
            decisions=tuple(tuple(chosen[name]) for name in players),
            drawn=tuple(counts),
        )

    def trump_rule(self, state: GameState, *, pending: bool) -> str:
        return "the turned-up card"

    def opening(self, eldest: str, *, simultaneous: bool) -> str:
        return f"{eldest} decides first"

    def chips(self, state: GameState) -> tuple[tuple[int, ...], int] | None:
        data = state.ext
        assert isinstance(data, BuckupData)
        return tuple(data.stacks), int(data.pot)

    def notes(self, state: GameState, players: Sequence[str]) -> list[str]:
        stacks, pot = self.chips(state) or ((), 0)
        said = ", ".join(f"{players[s]} {c}" for s, c in enumerate(stacks))
        return [
            f"pot {pot}; stacks: {said}",
            "enter the ante, who stayed or folded, the cards drawn and the tricks",
        ]

    def special(self, result: HandResult) -> str | None:
        return f"pot {result.extra['pot_before']} -> {result.extra['pot_after']}"

    def tricks_asked(
        self, entry: GameEntry | None, players: Sequence[str], state: GameState
    ) -> TricksAsked:
        decisions = entry.decisions if isinstance(entry, BuckupEntry) else ()
        playing = [s for s, mine in enumerate(decisions) if any(d in PLAYING for d in mine)]
        if len(playing) < 2:
            return TricksAsked(())
        return TricksAsked(tuple((s, f"{players[s]}'s tricks") for s in playing))

    def hidden_deal(self, state: GameState) -> ChanceOutcome:
        """Spades turned up and no spade in any hand, so that no hidden card forces a
        decision (a trump scare card must stay in) that the real cards did not; the
        table's own announcements decide everything."""
        spades = SUIT_LETTERS.index("S")
        others = [c for c in state.setup.deck if c < 52 and c // 13 != spades]
        size = state.hand_size
        hands = [others[seat * size : (seat + 1) * size] for seat in range(state.players)]
        order = state.deck_order_for(hands, turn_up=spades * 13)
        return ChanceOutcome("deal", order)

    def take_step(self, state: GameState, turn: HandTurn) -> None:
        """The ante named, the 19 redeal declined (it changes no chips), each seat's
        decisions as entered, and for a seat that draws, any cards discarded."""
        seat = state.to_act()[0]
        name, stage = turn.players[seat], state.phase_name
        entry = turn.entry.game
        assert entry is None or isinstance(entry, BuckupEntry)
        entry = entry or BuckupEntry()
        legal = state.legal_actions(seat)
        kinds = [a.kind for a in legal]
        if ANTE_ACTION in kinds:
            turn.act(state, seat, Action(ANTE_ACTION, entry.ante or "kept"))
        elif KEEP in kinds:
            state.apply(seat, Action(KEEP))
        elif DRAW in kinds:
            want = entry.drawn[seat] if seat < len(entry.drawn) else 0
            drawn_so_far = FULL_HAND - state.hands[seat].bit_count()
            if not drawn_so_far <= want <= FULL_HAND:
                raise EntryError(
                    f"{name} cannot draw {want} cards: a player draws {drawn_so_far} to 5",
                    rule=RULE_DRAW,
                )
            if drawn_so_far < want:
                state.apply(seat, next(a for a in legal if a.kind == DISCARD))
            else:
                state.apply(seat, Action(DRAW))
        else:
            done = turn.used.setdefault(seat, 0)
            mine = entry.decisions[seat] if seat < len(entry.decisions) else ()
            if done >= len(mine):
                options = ", ".join(kinds)
                raise EntryError(
                    f"{name}'s decision is missing ({stage}: {options})", rule=RULE_STAY
                )
            turn.used[seat] = done + 1
            turn.act(state, seat, Action(mine[done]))

    def finish_bidding(self, state: GameState, turn: HandTurn, dealer: int) -> None:
        """Every decision entered was one the rules asked for (the dealer who takes the
        pot when nobody stayed is not asked)."""
        entry = turn.entry.game
        assert entry is None or isinstance(entry, BuckupEntry)
        for seat, mine in enumerate(entry.decisions if entry is not None else ()):
            left = mine[turn.used.get(seat, 0) :]
            if seat == dealer and left == (STAY,):
                continue
            if left:
                raise EntryError(
                    f"{turn.players[seat]} was not asked to {', '.join(left)} in this hand",
                    rule=RULE_STAY,
                )


SCOREKEEPER = BuckupSheetSteps()
"""Buckup's ``scorekeeper`` capability."""
