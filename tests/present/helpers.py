"""Whole games played by bots, step by step, with every seat's observation before and
after each step (what the presentation layer narrates)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from tricktaker import GameState, load_ruleset, new_game
from tricktaker.bots import Bot, make_bot
from tricktaker.bots.base import decide
from tricktaker.cards import parse_card
from tricktaker.engine import Action, Observation
from tricktaker.rules import list_rulesets

NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus")

CODE = re.compile(r"(?<![\w♠♥♦♣])((?:10|[2-9JQKA])[SHDC]|HB|LB)(?!\w)")
PRETTY = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])")
SYMBOL_LETTER = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


def cards_named(text: str) -> set[str]:
    """Every card named in ``text``, as codes: ``AS`` and ``A♠`` are both ``AS``."""
    found = set(CODE.findall(text))
    found |= {rank + SYMBOL_LETTER[suit] for rank, suit in PRETTY.findall(text)}
    return found


@cache
def games() -> tuple[str, ...]:
    """Every shipped game."""
    return tuple(list_rulesets())


def players_for(game: str) -> int:
    rules = load_ruleset(game)
    return 4 if 4 in rules.player_counts else rules.player_counts[0]


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a game: who acted (None: chance) and every seat's observation
    before and after."""

    state: GameState
    actor: int | None
    action: Action | None
    before: tuple[Observation, ...]
    after: tuple[Observation, ...]


def step_with_bots(state: GameState, bots: Sequence[Bot]) -> tuple[int | None, Action | None]:
    """One step of ``state``: its chance event, or the decision of the bot of the seat to
    act. Returns the seat that acted and its action (both None for a chance event)."""
    if state.is_chance():
        state.apply_chance()
        return None, None
    actor = state.to_act()[0]
    action = decide(bots[actor], state, actor)
    state.apply(actor, action)
    return actor, action


def steps(
    game: str,
    *,
    players: int | None = None,
    seed: int = 3,
    options: dict[str, object] | None = None,
    bot: str = "random",
    limit: int = 5000,
) -> Iterator[Step]:
    """Play a whole game with bots, yielding each step."""
    rules = load_ruleset(game, options=options)
    count = players if players is not None else players_for(game)
    state = new_game(rules, players=count, seed=seed)
    bots = [make_bot(bot, seed=seed + s) for s in range(count)]
    before = tuple(state.observe(s) for s in range(count))
    for _ in range(limit):
        if state.is_terminal():
            return
        actor, action = step_with_bots(state, bots)
        after = tuple(state.observe(s) for s in range(count))
        yield Step(state, actor, action, before, after)
        before = after
    raise AssertionError(f"{game} did not end in {limit} steps")


def card(text: str) -> int:
    return parse_card(text)


def final_state(game: str, **kwargs: object) -> GameState:
    """The state at the end of a whole game played by bots (see :func:`steps`)."""
    state: GameState | None = None
    for step in steps(game, **kwargs):  # type: ignore[arg-type]
        state = step.state
    assert state is not None
    return state
