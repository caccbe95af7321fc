"""Reading a person's decisions: bids, cards, the caller's calls, and table commands."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rich.columns import Columns
from rich.console import Console
from rich.text import Text

from tricktaker.cards import CardError, parse_card
from tricktaker.engine import Action, Observation
from tricktaker.engine.actions import (
    CALL_DONE,
    CALL_MODIFIER,
    CALL_SIZE,
    PLAY,
    PLAY_PILE,
    ActionParseError,
    action_kinds,
    bid,
    play,
)

from .render import Cards

HELP_WORDS = frozenset({"?", "help", "h"})
QUIT_WORDS = frozenset({"quit", "exit", "q"})
SCORE_WORDS = frozenset({"score", "scores", "scorecard"})
DONE_WORDS = frozenset({"done", "call_done", "finish", "end"})
NUMBER = re.compile(r"^[+-]?\d+$")


@dataclass(frozen=True, slots=True)
class Reply:
    """What a line of input means: an action, a table command, or an error to show."""

    action: Action | None = None
    command: str | None = None
    error: str | None = None


def action_label(action: Action, cards: Cards) -> str:
    """An action as shown in lists: ``A♠``, ``2``, ``no_trump``, ``done``."""
    if action.kind == PLAY and isinstance(action.value, int):
        return cards.card(action.value)
    if action.kind == PLAY_PILE:
        return "next card of your pile"
    if action.kind == CALL_DONE:
        return "done"
    return str(action.value)


def numbered_phase(obs: Observation) -> bool:
    """Whether a bare number picks from the list (it is the value when bidding or sizing)."""
    return obs.phase not in ("bidding", "call_size")


def show_choices(console: Console, obs: Observation, cards: Cards) -> None:
    """The legal actions, numbered where a number picks one."""
    legal = obs.legal_actions
    if not numbered_phase(obs):
        values = ", ".join(str(a.value) for a in legal)
        console.print(Text(f"Legal: {values}"))
        return
    items = [Text(f"{i}) {action_label(a, cards)}") for i, a in enumerate(legal, start=1)]
    console.print(Text("Legal:"), Columns(items, padding=(0, 3)))


def prompt_text(obs: Observation) -> str:
    legal = obs.legal_actions
    if obs.phase == "bidding":
        values = [int(a.value) for a in legal]
        if len(values) == 1:
            return f"Your bid (only {values[0]} is allowed; Enter takes it): "
        if values == list(range(values[0], values[-1] + 1)):
            return f"Your bid ({values[0]}-{values[-1]}): "
        return f"Your bid ({', '.join(map(str, values))}): "
    if obs.phase == "call_size":
        values = [int(a.value) for a in legal]
        return f"Call the hand size ({values[0]}-{values[-1]}): "
    if obs.phase == "call_kind":
        return "Call the kind of hand (number or name): "
    if obs.phase == "call_modifiers":
        return "Add a modifier (number or name), or 1 / done to finish the call: "
    if legal and legal[0].kind == PLAY_PILE:
        return "Play the next card of your pile (Enter): "
    return "Your card (e.g. AS, 10h; ? lists the legal ones): "


def _joker(word: str, cards: Cards) -> int | None:
    for card, label in zip((52, 53), cards.labels, strict=True):
        if word.upper() == label.upper():
            return card
    return None


def _from_text(raw: str, obs: Observation) -> Reply:
    """Exact action text such as ``play AS``, ``bid 2``, ``call_modifier nuloss``."""
    try:
        action = Action.parse(raw)
    except ActionParseError as exc:
        return Reply(error=str(exc))
    for legal in obs.legal_actions:
        if legal.text().lower() == action.text().lower():
            return Reply(action=legal)
    return Reply(action=action)


def _call_word(word: str, obs: Observation) -> Reply:
    key = word.replace(" ", "_").replace("-", "_")
    for legal in obs.legal_actions:
        if legal.kind == CALL_DONE and key in DONE_WORDS:
            return Reply(action=legal)
        if legal.kind != CALL_DONE and str(legal.value).lower() == key:
            return Reply(action=legal)
    if obs.phase == "call_kind":
        kinds = ", ".join(str(a.value) for a in obs.legal_actions)
        return Reply(error=f"{word!r} is not a kind of hand; the kinds are: {kinds}")
    if key in DONE_WORDS:
        return Reply(action=Action(CALL_DONE))
    if key.startswith("precedence_"):
        key = "precedence_" + key.removeprefix("precedence_").upper()
    return Reply(action=Action(CALL_MODIFIER, key))


def read_reply(text: str, obs: Observation, cards: Cards) -> Reply:
    """Understand one line typed by the seat in ``obs`` (legality is checked later)."""
    raw = text.strip()
    word = raw.lower()
    legal = obs.legal_actions
    if not word:
        if len(legal) == 1:
            return Reply(action=legal[0])
        return Reply(error="type your choice (? lists the legal ones)")
    if word in HELP_WORDS:
        return Reply(command="help")
    if word in QUIT_WORDS:
        return Reply(command="quit")
    if word in SCORE_WORDS:
        return Reply(command="scores")
    pile = bool(legal) and legal[0].kind == PLAY_PILE
    if pile and word in ("play", "pile", "p", "next"):
        return Reply(action=legal[0])
    if word.split()[0] in action_kinds():
        return _from_text(raw, obs)
    if NUMBER.match(word):
        number = int(word)
        if obs.phase == "bidding":
            return Reply(action=bid(number))
        if obs.phase == "call_size":
            return Reply(action=Action(CALL_SIZE, number))
        if 1 <= number <= len(legal):
            return Reply(action=legal[number - 1])
        return Reply(error=f"{number} is not in the list: pick 1 to {len(legal)} (? lists them)")
    phase = obs.phase
    if phase == "playing":
        joker = _joker(word, cards)
        if joker is not None:
            return Reply(action=play(joker))
        try:
            return Reply(action=play(parse_card(raw)))
        except CardError as exc:
            return Reply(error=str(exc))
    if phase in ("call_kind", "call_modifiers"):
        return _call_word(word, obs)
    if phase == "bidding":
        return Reply(error=f"{raw!r} is not a bid: type a number of tricks, like 2")
    return Reply(error=f"{raw!r} is not understood (? lists the legal choices)")
