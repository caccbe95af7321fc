"""The server's answer to a ``hint`` (docs/protocol.md, Hints), read back into the coach's
:class:`~tricktaker.coach.model.Hint`, so that ``tricktaker join`` shows it with the
table ``tricktaker play`` shows its own hints in; and a refused hint in a person's words.
"""

from __future__ import annotations

import math
from typing import Any

from tricktaker.client.decode import ViewError
from tricktaker.coach.model import ChoiceValue, Hint
from tricktaker.engine import Action, Observation

REFUSALS = {
    "hints_off": "The host has not allowed hints at this table.",
    "not_your_turn": "A hint is for your own turn, and it is not your turn now.",
    "not_your_seat": "You hold no seat at this table, so the coach has nothing to value.",
    "not_playing": "No game is being played at this table now.",
    "rate_limited": (
        "The coach is still working on your last hint, or you asked for a dozen in the last"
        " minute: wait a little and ask again."
    ),
    "bad_message": "This server gives no hints (it is older than protocol 1.4).",
}
"""A refused hint's ``code`` in words; the server's own ``message`` for any other code
(``not_allowed``: why the coach cannot value the decision)."""


def refusal_words(error: dict[str, Any]) -> str:
    """Why the server refused a hint, in words a person understands."""
    code = str(error.get("code") or "")
    if code in REFUSALS:
        return REFUSALS[code]
    message = str(error.get("message") or "").strip()
    return message or f"The server refused the hint ({code or 'no reason given'})."


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ViewError(f"the server sent a hint this client cannot read: {name} {value!r}")
    return float(value)


def hint_from_message(message: dict[str, Any], obs: Observation) -> Hint:
    """The coach's :class:`Hint` in the server's ``hint`` message, for the seat whose
    view is ``obs`` (its rules read the choices' texts). Raises :class:`ViewError` for a
    message this client cannot read."""
    labels = obs.rules.joker_labels
    try:
        choices = tuple(
            ChoiceValue(
                action=Action.parse(str(choice["action"]), labels=labels),
                mean=_number(choice["mean"], "mean"),
                stderr=_number(choice["stderr"], "stderr"),
                make_chance=(
                    None
                    if choice.get("make_chance") is None
                    else _number(choice["make_chance"], "make_chance")
                ),
                samples=int(choice["deals"]),
            )
            for choice in message["choices"]
        )
        return Hint(
            seat=int(message["seat"]),
            choices=choices,
            best=Action.parse(str(message["best"]), labels=labels),
            exact=bool(message["exact"]),
            seconds=_number(message["seconds"], "seconds"),
            model=str(message["model"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, ViewError):
            raise
        raise ViewError(f"the server sent a hint this client cannot read: {exc!r}") from None


def fits(hint: Hint, obs: Observation) -> bool:
    """Whether ``hint`` is for the decision ``obs`` asks of its seat: the same seat, the
    same legal choices, and the coach's choice among them (else the game moved on while
    the coach was thinking)."""
    actions = {choice.action for choice in hint.choices}
    return (
        hint.seat == obs.seat
        and len(actions) == len(hint.choices)
        and actions == set(obs.legal_actions)
        and hint.best in actions
    )
