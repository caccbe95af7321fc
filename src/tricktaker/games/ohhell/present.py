"""How the tables show Caller Clag's calls (docs/games/caller_clag.md): the Oh Hell
family's panel and narration (:class:`~tricktaker.present.game.BasePresent`), with the
words for the caller's size, kind, modifiers and finished call."""

from __future__ import annotations

from tricktaker.games.ohhell.calls import CALL_DONE, CALL_KIND, CALL_MODIFIER, CALL_SIZE
from tricktaker.present.game import ActionSeen, BasePresent
from tricktaker.present.text import describe_call, verb


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
            return f"{verb(name, 'finish')} the call: {describe_call(call) if call else '?'}."
        return None


PRESENT = CallerClagPresent()
"""Caller Clag's ``present`` capability."""
