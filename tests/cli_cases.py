"""What the command-line tests share (tests/test_cli.py, test_cli_hook_games.py): the
fields of ``simulate --json``, card numbers to type, and a game scripted as ``tricktaker
play`` plays it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tricktaker import GameState, Observation, Ruleset, load_ruleset
from tricktaker.cli.common import default_players, make_bots, start_game
from tricktaker.engine import Action

REQUIRED = {
    "game",
    "options",
    "players",
    "seed",
    "bots",
    "final_scores",
    "hands",
    "winners",
}
"""The fields of every game of ``simulate --json``."""

HAND_FIELDS = {
    "hand_size",
    "dealer",
    "trump",
    "turn_up",
    "deal",
    "bids",
    "trick_cards",
    "tricks",
    "trick_winners",
    "hand_scores",
    "total_scores",
}
"""The fields of every hand of ``simulate --json``."""

CARD_NUMBERS = "".join(f"{number}\n" for number in range(1, 19)) * 20
"""Card numbers in turn: every prompt meets a legal card within one round of numbers."""

Chooser = Callable[[Observation, Ruleset], tuple[str, Action]]
"""How the person's seat decides in :func:`scripted`: the line typed and the action."""


def scripted(
    game: str, seed: int, choose: Chooser, *, seat: int = 0, options: Sequence[str] = ()
) -> tuple[list[str], GameState, list[tuple[int, Action]]]:
    """Play the game as ``tricktaker play`` would (same seeds, heuristic bots), the person's
    seat deciding with ``choose``: the lines to type, the final state and every action."""
    rules = load_ruleset(game, options=dict(o.split("=", 1) for o in options))
    players = default_players(rules)
    state = start_game(rules, players, seed)
    bots = make_bots({s: "heuristic" for s in range(players) if s != seat}, seed)
    lines: list[str] = []
    events: list[tuple[int, Action]] = []
    while not state.is_terminal():
        if state.is_chance():
            state.apply_chance()
            continue
        waiting = state.to_act()
        who = seat if seat in waiting else waiting[0]
        obs = state.observe(who)
        if who == seat:
            text, action = choose(obs, rules)
            lines.append(text)
        else:
            action = bots[who].act(obs)
        events.append((who, action))
        state.apply(who, action)
    return lines, state, events
