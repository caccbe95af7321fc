"""The compiled kernel against the Python engine, position by position.

Hypothesis draws a shipped ruleset of the Oh Hell family, a table size, a set of its
options, a seed and whether random players or heuristic bots choose the moves. Each hand
is played through the engine; from a drawn point of the hand on (any position the kernel
accepts), the same moves are replayed in the kernel, which must give at every step the
same seat to act, the same legal moves (docs/games/<game>.md, Play and Bidding) and the
same choice of the search's rollout policy, and at the end the same trick winners and
hand scores (docs/games/<game>.md, Scoring) and search rewards.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.kernel.play import KERNEL_GAMES, Segment, play_segments, variant
from tricktaker.bots.search_ohhell import rewards
from tricktaker.kernel import (
    BID_BASE,
    KernelUnsupportedError,
    check_ruleset,
    config_of_state,
    native,
    state_dict,
)
from tricktaker.rules.ruleset import load_ruleset


def check_segment(segment: Segment) -> int:
    """Replays one segment in the kernel and compares; returns the positions checked."""
    start, end = segment.start, segment.end
    assert end is not None
    steps, winners, scores, kernel_rewards, phase = native().replay(
        config_of_state(start), state_dict(start), segment.moves
    )
    assert [tuple(step) for step in steps] == segment.steps
    result = end.history[-1]
    assert phase == 2  # the hand is over in the kernel too
    played_before = len(start.trick_cards)
    assert list(winners) == list(result.trick_winners[played_before:])
    assert scores == result.hand_scores
    assert list(kernel_rewards) == rewards(end)
    return len(steps)


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    name=st.sampled_from(KERNEL_GAMES),
    extra_players=st.integers(min_value=0, max_value=5),
    flags=st.lists(st.booleans(), min_size=0, max_size=6),
    seed=st.integers(min_value=0, max_value=2**31),
    bots=st.booleans(),
    skip=st.floats(min_value=0.0, max_value=0.99),
)
def test_kernel_plays_every_hand_as_the_engine(
    name: str, extra_players: int, flags: list[bool], seed: int, bots: bool, skip: float
) -> None:
    """docs/games/blackout.md, Play: legal cards, trick winners and scores, in every
    shipped Oh Hell family ruleset with drawn options (each game's page, Play and
    Scoring), match the engine's from bids or any trick on."""
    base = load_ruleset(name)
    players = min(base.spec.players.min + extra_players, base.spec.players.max, 7)
    rules = variant(name, players, flags)
    if rules is None:
        return
    checked = 0
    for segment in play_segments(rules, players, seed=seed, bots=bots, hands=3, skip=skip):
        checked += check_segment(segment)
    assert checked > 0 or rules.id == "caller_clag"


@pytest.mark.parametrize("name", KERNEL_GAMES)
def test_kernel_plays_whole_games_as_the_engine(name: str) -> None:
    """Every hand of a whole game (4 players, or the game's own count), each from its
    first accepted position: docs/games/<game>.md, Hands and schedule."""
    rules = load_ruleset(name)
    players = 4 if 4 in rules.player_counts else rules.spec.players.min
    segments = play_segments(rules, players, seed=11, bots=False, hands=100, skip=0.0)
    assert segments
    assert sum(check_segment(segment) for segment in segments) > 0


def test_kernel_refuses_the_games_with_their_own_hand_rules() -> None:
    """Pluck, Euchre and Buckup have hooks the kernel does not play: it says so."""
    for name in ("pluck", "euchre", "buckup"):
        rules = load_ruleset(name)
        with pytest.raises(KernelUnsupportedError, match=re.escape(rules.name)):
            check_ruleset(rules, rules.spec.players.min)


def test_kernel_rejects_an_illegal_move() -> None:
    """docs/games/blackout.md, Play: a card that does not follow suit is refused."""
    rules = load_ruleset("blackout")
    segment = play_segments(rules, 4, seed=5, bots=False, hands=8, skip=0.0)[-1]
    config, start = config_of_state(segment.start), state_dict(segment.start)
    hands = list(segment.start.hands)
    for i, ((seat, legal, _), move) in enumerate(zip(segment.steps, segment.moves, strict=True)):
        if move < BID_BASE and hands[seat] & ~legal:
            illegal = (hands[seat] & ~legal).bit_length() - 1
            with pytest.raises(ValueError, match="illegal move"):
                native().replay(config, start, [*segment.moves[:i], illegal])
            return
        if move < BID_BASE:
            hands[seat] &= ~(1 << move)
    raise AssertionError("no position with an illegal card")
