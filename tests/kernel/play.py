"""Games of the rulesets the compiled kernel plays, through the Python engine, for the
differential tests: each hand's steps as the engine sees them."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from tricktaker import GameState, Ruleset, load_ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.bots.gamesearch import search_for
from tricktaker.engine.actions import BID, Action
from tricktaker.engine.base import BIDDING, PLAYING
from tricktaker.kernel import (
    KernelUnsupportedError,
    config_of_state,
    kernel_plays,
    kernel_state,
    limits,
    plays_whole,
)
from tricktaker.rules.ruleset import RulesetError, list_rulesets

KERNEL_GAMES = tuple(name for name in list_rulesets() if plays_whole(load_ruleset(name)))
"""The shipped rulesets the kernel plays whole: the Oh Hell family (no hooks, and the
hook games that declare it, as Caller Clag)."""

HOOK_GAMES = tuple(
    name
    for name in list_rulesets()
    if not plays_whole(load_ruleset(name)) and kernel_plays(load_ruleset(name))
)
"""The shipped hook games whose card play the kernel plays."""


def code(action: Action) -> int:
    """The kernel's move code of an engine action."""
    assert isinstance(action.value, int)
    return limits().bid_base + action.value if action.kind == BID else action.value


def variant(name: str, players: int, flags: list[bool]) -> Ruleset | None:
    """The ruleset with its bool options switched on by ``flags`` (in option order), or
    None when that combination cannot be played by ``players``."""
    base = load_ruleset(name)
    bools = [n for n, option in base.spec.options.items() if option.type == "bool"]
    chosen = {n: True for n, on in zip(bools, flags, strict=False) if on}
    try:
        rules = load_ruleset(name, options=chosen)
        rules.check_players(players)
        rules.hands_for(players)
    except RulesetError:
        return None
    return rules


@dataclass
class Segment:
    """A stretch of one hand from a position the kernel accepts to the hand's end."""

    start: GameState
    steps: list[tuple[int, int, int]] = field(default_factory=list)
    """Per move: the seat, its legal moves as a mask, and the move of the game's own
    rollout policy (its search support's ``rollout_action``: in a hook game the shared
    card policy, :func:`tricktaker.bots.rollout.rollout_card`)."""
    moves: list[int] = field(default_factory=list)
    end: GameState | None = None


def kernel_accepts(state: GameState) -> bool:
    """Whether the kernel takes this engine position (it refuses with a reason)."""
    if state.phase not in (BIDDING, PLAYING):
        return False
    try:
        config_of_state(state)
        kernel_state(state)
    except KernelUnsupportedError:
        return False
    return True


def play_segments(
    rules: Ruleset, players: int, *, seed: int, bots: bool, hands: int, skip: float
) -> list[Segment]:
    """Up to ``hands`` hands of a game (random moves, or heuristic bots' when ``bots``),
    each recorded from an accepted position about ``skip`` (0 to 1) of the way in."""
    rng = random.Random(seed)
    players_bots = [make_bot("heuristic", seed=seed + s) for s in range(players)]
    state = new_game(rules, players=players, seed=seed)
    rollout_action = search_for(rules.hooks).rollout_action
    segments: list[Segment] = []
    while not state.is_terminal() and len(segments) < hands:
        if state.is_chance():
            state.apply_chance()
            continue
        start_hand = state.hands_played
        segment: Segment | None = None
        offset = int(skip * players * state.hand_size)
        while state.hands_played == start_hand and not state.is_terminal():
            if state.is_chance():
                state.apply_chance()
                continue
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            if segment is None and kernel_accepts(state):
                if offset <= 0:
                    segment = Segment(start=state.clone())
                offset -= 1
            if segment is not None:
                mask = 0
                for action in legal:
                    mask |= 1 << int(action.value)
                policy = code(rollout_action(state, seat, list(legal)))
                segment.steps.append((seat, mask, policy))
            if bots:
                action = players_bots[seat].act(state.observe(seat))
            else:
                action = legal[rng.randrange(len(legal))]
            if segment is not None:
                segment.moves.append(code(action))
            state.apply(seat, action)
        if segment is not None:
            segment.end = state.clone()
            segments.append(segment)
    return segments
