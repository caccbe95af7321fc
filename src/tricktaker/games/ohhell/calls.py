"""Caller Clag: the dealer's calls of hand size, kind of hand and modifiers.

A call is made as a series of the dealer's actions: ``call_size N`` before the deal,
then after seeing their cards ``call_kind KIND``, any number of ``call_modifier MOD``
and ``call_done``. This module says which calls are legal and what hand they make;
the game's hooks (:mod:`tricktaker.games.ohhell.hooks`) take them.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tricktaker.cards import SUIT_LETTERS
from tricktaker.engine.actions import Action
from tricktaker.games.declared import register_action_kinds
from tricktaker.rules.ruleset import CompiledScoring, HandSpec
from tricktaker.rules.schema import Scoring

if TYPE_CHECKING:
    from tricktaker.engine.setup import Setup

CALL_SIZE = "call_size"
CALL_KIND = "call_kind"
CALL_MODIFIER = "call_modifier"
CALL_DONE = "call_done"
register_action_kinds({CALL_SIZE: "int", CALL_KIND: "str", CALL_MODIFIER: "str", CALL_DONE: "none"})
DONE_ACTION = Action(CALL_DONE)
"""The caller's last action of a call: no more modifiers."""

CALL_STAGES = ("call_size", "call_kind", "call_modifiers")
"""The phases of a call (the hooks' phase names): the size, the kind, the modifiers."""
KINDS = (
    "normal",
    "no_trump",
    "bid_before_trump",
    "blind_bid",
    "blind_pile",
    "misere",
    "misere_no_trump",
)
MISERE_KINDS = frozenset({"misere", "misere_no_trump"})
PRECEDENCE_ORDERS = tuple("".join(p) for p in itertools.permutations(SUIT_LETTERS[::-1]))
"""Every order of the four suits, highest first (``SHDC`` ... ); the usual one is ``HCDS``."""
MODIFIERS = (
    "nuloss",
    "blind_hand",
    "ascending_madness",
    "descending_madness",
    "non_exact",
    *(f"precedence_{order}" for order in PRECEDENCE_ORDERS),
)

_MISERE_SCORING = CompiledScoring.compile(Scoring(exact="10", otherwise="-2 * tricks"))
_ASCENDING = CompiledScoring.compile(Scoring(exact="10", otherwise="0", trick_points="2 * k"))
_DESCENDING = CompiledScoring.compile(
    Scoring(exact="10", otherwise="0", trick_points="2 * (hand_size - k + 1)")
)


@dataclass(slots=True)
class Call:
    """What the caller has called so far this hand."""

    size: int
    kind: str | None = None
    modifiers: list[str] = field(default_factory=list)
    done: bool = False

    def copy(self) -> Call:
        return Call(self.size, self.kind, list(self.modifiers), self.done)

    @property
    def precedence(self) -> tuple[int, ...] | None:
        for mod in self.modifiers:
            if mod.startswith("precedence_"):
                return tuple(SUIT_LETTERS.index(ch) for ch in mod.removeprefix("precedence_"))
        return None

    def describe(self) -> dict[str, object]:
        """The call as JSON data for records and simulation output."""
        data: dict[str, object] = {"caller_size": self.size, "kind": self.kind}
        data["modifiers"] = list(self.modifiers)
        return data

    @classmethod
    def read(cls, data: Mapping[str, object], *, done: bool = False) -> Call:
        """The call :meth:`describe` wrote as ``data`` (``done``: whether the caller has
        finished it, which the data does not say).

        >>> Call.read(Call(5, "misere", ["nuloss"]).describe())
        Call(size=5, kind='misere', modifiers=['nuloss'], done=False)
        """
        size, kind, modifiers = data.get("caller_size"), data.get("kind"), data.get("modifiers")
        if not isinstance(size, int):
            raise ValueError(f"a call's caller_size must be a whole number, not {size!r}")
        listed = modifiers if isinstance(modifiers, list | tuple) else ()
        return cls(size, None if kind is None else str(kind), [str(m) for m in listed], done)

    def actions(self) -> list[Action]:
        """The caller's actions that made the call, in order (``call_done`` last once the
        call is done).

        >>> [str(a) for a in Call(5, "no_trump", ["nuloss"], done=True).actions()]
        ['call_size 5', 'call_kind no_trump', 'call_modifier nuloss', 'call_done']
        """
        made = [Action(CALL_SIZE, self.size)]
        if self.kind is not None:
            made.append(Action(CALL_KIND, self.kind))
            made += [Action(CALL_MODIFIER, modifier) for modifier in self.modifiers]
            if self.done:
                made.append(DONE_ACTION)
        return made


_KIND_ACTIONS = tuple(Action(CALL_KIND, kind) for kind in KINDS)
_MODIFIER_ACTIONS = {modifier: Action(CALL_MODIFIER, modifier) for modifier in MODIFIERS}


def kind_actions() -> list[Action]:
    """The caller's choice of kind, after seeing their cards."""
    return list(_KIND_ACTIONS)


def modifier_problem(call: Call, modifier: str) -> str | None:
    """Why ``modifier`` cannot be added to ``call``; None when it can."""
    if modifier not in MODIFIERS:
        return f"{modifier!r} is not a modifier"
    if modifier in call.modifiers:
        return f"{modifier} is already called"
    if modifier.startswith("precedence_") and call.precedence is not None:
        return "a suit precedence is already called"
    if modifier == "blind_hand" and call.kind == "blind_pile":
        return "a blind pile is already played blind"
    if modifier.endswith("_madness"):
        if call.kind in MISERE_KINDS:
            return "madness scoring cannot be added to a misere hand"
        if any(m.endswith("_madness") for m in call.modifiers):
            return "only one madness can be called"
    if modifier == "non_exact" and call.kind in MISERE_KINDS:
        return "in a misere hand every bid is 0, so non-exact has no meaning"
    return None


_OPEN_MODIFIERS: dict[tuple[str | None, frozenset[str]], tuple[Action, ...]] = {}
"""The modifiers open after a call's kind and modifiers, worked out once for each (what
:func:`modifier_problem` says depends on the kind and on which modifiers are called)."""
_OPEN_MODIFIERS_KEPT = 8192
"""The most entries :data:`_OPEN_MODIFIERS` keeps (a legal call reaches a few thousand)."""


def modifier_actions(call: Call) -> list[Action]:
    """The modifiers still open to the caller."""
    key = (call.kind, frozenset(call.modifiers))
    found = _OPEN_MODIFIERS.get(key)
    if found is None:
        found = tuple(_MODIFIER_ACTIONS[m] for m in MODIFIERS if modifier_problem(call, m) is None)
        if len(_OPEN_MODIFIERS) < _OPEN_MODIFIERS_KEPT:
            _OPEN_MODIFIERS[key] = found
    return list(found)


def called_hand(call: Call, *, number: int, base: CompiledScoring) -> tuple[HandSpec, bool]:
    """The hand the call makes, and whether the hook applies to it."""
    kind = call.kind or "normal"
    scoring: CompiledScoring | None = None
    if kind in MISERE_KINDS:
        scoring = _MISERE_SCORING
    elif "ascending_madness" in call.modifiers:
        scoring = _ASCENDING
    elif "descending_madness" in call.modifiers:
        scoring = _DESCENDING
    spec = HandSpec(
        number=number,
        hand_size=call.size,
        name=kind,
        no_trump=kind in ("no_trump", "misere_no_trump") or call.precedence is not None,
        bid_before_trump=kind == "bid_before_trump",
        blind_bid=kind in ("blind_bid", "blind_pile"),
        pile=kind == "blind_pile",
        blind_hand="blind_hand" in call.modifiers,
        misere=kind in MISERE_KINDS,
        scoring=scoring or base,
        nuloss="nuloss" in call.modifiers,
        precedence=call.precedence,
    )
    return spec, "non_exact" in call.modifiers


def call_actions(stage: str, call: Call | None, setup: Setup) -> list[Action]:
    """The caller's possible actions at ``stage`` (``call_size``, ``call_kind`` or
    ``call_modifiers``) of the call ``call`` (None before the size is called)."""
    if stage == "call_size":
        sizes = range(setup.called_min, setup.called_max + 1)
        # A card must remain for the turn-up.
        return [Action(CALL_SIZE, s) for s in sizes if s * setup.players < 52]
    if stage == "call_kind":
        return kind_actions()
    assert call is not None
    return [DONE_ACTION, *modifier_actions(call)]


def call_problem(stage: str, call: Call | None, action: Action) -> tuple[str, str]:
    """Reason and rule for an ``action`` the caller may not take at ``stage``."""
    if stage == "call_modifiers" and action.kind == CALL_MODIFIER and call is not None:
        problem = modifier_problem(call, str(action.value))
        if problem:
            return problem, "Caller Clag modifiers"
    expected = {
        "call_size": "call_size 3..7",
        "call_kind": "call_kind KIND",
        "call_modifiers": "call_modifier MOD or call_done",
    }.get(stage, "another action")
    return f"{action} is not possible now; expected {expected}", "Caller Clag calls"


def shuffled_seats(spec: HandSpec, caller: int, players: int) -> tuple[int, ...]:
    """The seats whose cards are shuffled into a pile after the bids in a called hand."""
    if spec.blind_hand:
        return tuple(range(players))
    if spec.pile:
        # The caller has seen their cards: theirs go back into a shuffled pile;
        # the others' face-down piles are played in the order dealt.
        return (caller,)
    return ()
