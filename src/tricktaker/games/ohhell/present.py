"""How the tables show Caller Clag's calls (docs/games/caller_clag.md): the Oh Hell
family's panel and narration (:class:`~tricktaker.present.game.BasePresent`), with the
words for the caller's size, kind, modifiers and finished call, and the words a person
types for them at the terminal (``5``, ``no trump``, ``nuloss``, ``done``)."""

from __future__ import annotations

from collections.abc import Mapping

from tricktaker.engine import Action, Observation
from tricktaker.games.ohhell.calls import (
    CALL_DONE,
    CALL_KIND,
    CALL_MODIFIER,
    CALL_SIZE,
    DONE_ACTION,
)
from tricktaker.present.game import ActionSeen, BasePresent
from tricktaker.present.text import CardText, verb

DONE_WORDS = frozenset({"done", "call_done", "finish", "end"})
"""The words that finish a call."""
PRECEDENCE = "precedence_"


def call_words(call: Mapping[str, object]) -> str:
    """A call in words: ``5 cards, no_trump + nuloss``.

    >>> call_words({"caller_size": 5, "kind": None, "modifiers": []})
    '5 cards, kind not yet called'
    """
    kind = call.get("kind") or "kind not yet called"
    text = f"{call.get('caller_size')} cards, {kind}"
    modifiers = call.get("modifiers")
    if isinstance(modifiers, list | tuple) and modifiers:
        text += " + " + ", ".join(str(m) for m in modifiers)
    return text


class CallerClagPresent(BasePresent):
    """The family's presentation; the caller's calls in words (a call is public)."""

    def action_text(self, seen: ActionSeen) -> str | None:
        """``Ann calls a hand of 5 cards.``, ``... calls blind bid.``, ``... adds the
        modifier nuloss.``, ``... finishes the call: 5 cards, blind bid + nuloss.``"""
        name, action, kind = seen.names[seen.seat], seen.action, seen.action.kind
        if kind == CALL_SIZE:
            return f"{verb(name, 'call')} a hand of {action.value} cards."
        if kind == CALL_KIND:
            return f"{verb(name, 'call')} {str(action.value).replace('_', ' ')}."
        if kind == CALL_MODIFIER:
            return f"{verb(name, 'add')} the modifier {action.value}."
        if kind == CALL_DONE:
            call = seen.new.call
            return f"{verb(name, 'finish')} the call: {call_words(call) if call else '?'}."
        return None

    def call_text(self, call: Mapping[str, object]) -> str:
        """``5 cards, no_trump + nuloss`` (:func:`call_words`)."""
        return call_words(call)

    def undealt_note(self, obs: Observation) -> str | None:
        """The caller calls the hand size before the deal."""
        if obs.phase == "call_size":
            return "(not dealt yet: the caller first calls the hand size)"
        return None

    def choice_label(self, action: Action, cards: CardText) -> str | None:
        """A size, kind or modifier as itself (``5``, ``no_trump``), the end as ``done``."""
        if action.kind == CALL_DONE:
            return "done"
        if action.kind in (CALL_SIZE, CALL_KIND, CALL_MODIFIER):
            return str(action.value)
        return None

    def read_word(self, word: str, obs: Observation) -> Action | str | None:
        """While the kind is called, a word that names none is refused with the kinds;
        while modifiers are added, a word that finishes the call (``done``) finishes it,
        and any other word is the modifier of that name (refused with the reason when
        it cannot be added)."""
        if obs.phase == "call_kind":
            kinds = ", ".join(str(a.value) for a in obs.legal_actions)
            return f"{word.lower()!r} is not a kind of hand; the kinds are: {kinds}"
        if obs.phase != "call_modifiers":
            return None
        key = word.lower().replace(" ", "_").replace("-", "_")
        if key in DONE_WORDS:
            return next((a for a in obs.legal_actions if a.kind == CALL_DONE), DONE_ACTION)
        if key.startswith(PRECEDENCE):
            key = PRECEDENCE + key.removeprefix(PRECEDENCE).upper()
        return Action(CALL_MODIFIER, key)

    def prompt(self, obs: Observation, cards: CardText) -> str | None:
        """The size (with the sizes the caller may call), the kind, the modifiers."""
        if obs.phase == "call_size":
            values = [int(a.value) for a in obs.legal_actions]
            return f"Call the hand size ({values[0]}-{values[-1]}): "
        if obs.phase == "call_kind":
            return "Call the kind of hand (number or name): "
        if obs.phase == "call_modifiers":
            return "Add a modifier (number or name), or 1 / done to finish the call: "
        return None


PRESENT = CallerClagPresent()
"""Caller Clag's ``present`` capability."""
