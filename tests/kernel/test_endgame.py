"""The kernel's exact endgame (kernel/endgame.cpp) against a brute-force max-n over the
Python engine.

On complete states (every hand known) of every ruleset the kernel plays whole (the Oh
Hell family) and of the hook games' card play, with one to four tricks left (at a
trick's start or inside one), the Python side plays every legal card of every seat
(``clone`` and ``apply``) to the hand's end, scores it with the game's own search
rewards and lets each seat pick the card best for its own reward, the lowest card id
among equals; the kernel's ``endgame`` must give the same reward to every seat, to the
last bit, and the same card. Then the ISMCTS option ``endgame_tricks`` and the refusals.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tests.kernel.play import HOOK_GAMES, KERNEL_GAMES, kernel_accepts, variant
from tricktaker import GameState, new_game
from tricktaker.bots import ISMCTSBot
from tricktaker.bots.gamesearch import search_for
from tricktaker.bots.ismcts import MOST_ENDGAME_TRICKS
from tricktaker.engine.base import PLAYING
from tricktaker.kernel import config_of_state, kernel_state, native

Rewards = tuple[float, ...]


def rival(rewards: list[float], rivalry: float, cooperative: bool) -> Rewards:
    """Each seat's reward less ``rivalry`` times the others' mean, in the kernel's float
    operations (endgame.cpp's rival_rewards), so that ties fall alike."""
    n = len(rewards)
    if rivalry == 0.0 or cooperative or n < 2:
        return tuple(rewards)
    total = 0.0
    for reward in rewards:
        total += reward
    return tuple((1.0 + rivalry / (n - 1)) * r - rivalry * total / (n - 1) for r in rewards)


def brute_force(
    state: GameState, reward_of: Callable[[GameState], list[float]], rivalry: float
) -> tuple[Rewards, int]:
    """Max-n over the engine: every legal card of every seat played to the hand's end;
    each seat takes the card best for its own reward, the lowest card id among equals.
    The rewards and the card of the seat to play."""
    start = state.hands_played
    cooperative = state.setup.cooperative

    def solve(position: GameState) -> tuple[Rewards, int]:
        if position.hands_played > start or position.is_terminal():
            return rival(reward_of(position), rivalry, cooperative), -1
        seat = position.to_act()[0]
        best: Rewards | None = None
        best_card = -1
        for action in sorted(position.legal_actions(seat), key=lambda a: int(a.value)):
            child = position.clone()
            child.apply(seat, action)
            value, _ = solve(child)
            if best is None or value[seat] > best[seat]:
                best, best_card = value, int(action.value)
        assert best is not None
        return best, best_card

    return solve(state)


def endgame_positions(name: str, players: int, seed: int, count: int) -> list[GameState]:
    """Up to ``count`` complete card play states of ``name`` (random moves) with one to
    four tricks left (mostly two or more; four only where few seats make the brute force
    quick), some inside a trick, from different hands."""
    rules = variant(name, players, [])
    if rules is None:
        return []
    rng = random.Random(seed)
    state = new_game(rules, players=players, seed=seed)
    found: list[GameState] = []
    most = 4 if players <= 3 else 3
    while not state.is_terminal() and len(found) < count:
        if state.is_chance():
            state.apply_chance()
            continue
        hand = state.hands_played
        left = rng.randint(2, most)
        cards_in = rng.randrange(players)
        taken = False
        while state.hands_played == hand and not state.is_terminal():
            if state.is_chance():
                state.apply_chance()
                continue
            seat = state.to_act()[0]
            if (
                not taken
                and state.phase == PLAYING
                and state.hand_size - len(state.trick_cards) <= left
                and len(state.trick) >= min(cards_in, players - 1)
                and kernel_accepts(state)
            ):
                found.append(state.clone())
                taken = True
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])
    return found


def check(state: GameState, rivalry: float = 0.0) -> None:
    """The kernel's endgame of ``state`` equals the brute force's."""
    reward_of = search_for(state.rules.hooks).rewards
    expected, card = brute_force(state, reward_of, rivalry)
    rewards, move, nodes = native().endgame(config_of_state(state), kernel_state(state), rivalry)
    assert rewards == expected
    assert move == card
    assert nodes >= 1


@pytest.mark.parametrize("name", KERNEL_GAMES + HOOK_GAMES)
def test_the_exact_endgame_is_a_brute_force_max_n_over_the_engine(name: str) -> None:
    positions = 0
    for players, seed in ((3, 1), (4, 2)):
        for state in endgame_positions(name, players, seed, 4):
            check(state)
            positions += 1
    assert positions >= 2, name


@pytest.mark.parametrize("name", KERNEL_GAMES[:1] + HOOK_GAMES)
def test_with_rivalry_each_seat_maximizes_its_margin(name: str) -> None:
    for state in endgame_positions(name, 4, 5, 2):
        check(state, rivalry=1.0)


def test_the_memo_solves_a_position_reached_twice_once() -> None:
    states = [
        state
        for state in endgame_positions(KERNEL_GAMES[0], 3, 7, 12)
        if state.hand_size - len(state.trick_cards) >= 3 and not state.trick
    ]
    assert states
    core = native()
    for state in states:
        _, _, nodes = core.endgame(config_of_state(state), kernel_state(state))
        leaves = 0

        def count(position: GameState, start: int = state.hands_played) -> int:
            if position.hands_played > start or position.is_terminal():
                return 0
            seat = position.to_act()[0]
            total = 1
            for action in position.legal_actions(seat):
                child = position.clone()
                child.apply(seat, action)
                total += count(child)
            return total

        leaves = count(state)
        assert nodes <= leaves


def test_the_endgame_refuses_what_it_does_not_solve() -> None:
    core = native()
    state = new_game(variant(KERNEL_GAMES[0], 4, []), players=4, seed=3)  # type: ignore[arg-type]
    while state.is_chance():
        state.apply_chance()
    with pytest.raises(ValueError, match="tricks left"):  # the bidding
        core.endgame(config_of_state(state), kernel_state(state))
    late = endgame_positions(KERNEL_GAMES[0], 4, 4, 1)[0]
    truth = kernel_state(late)
    short = list(truth.hands)
    short[truth.to_play] &= short[truth.to_play] - 1  # a card fewer than it must play
    from dataclasses import replace

    with pytest.raises(ValueError, match="holding the cards"):
        core.endgame(config_of_state(late), replace(truth, hands=tuple(short)))
    with pytest.raises(ValueError, match="finite"):
        core.endgame(config_of_state(late), truth, float("nan"))


def test_ismcts_with_the_endgame_plays_hands_the_same_for_a_seed() -> None:
    def play(name: str, players: int, tricks: int, rollouts: int) -> list[int]:
        """The cards the bots play up to the end of the game's first hand of five cards
        or more."""
        rules = variant(name, players, [])
        assert rules is not None
        state = new_game(rules, players=players, seed=9)
        bots = [
            ISMCTSBot(
                seed=s,
                iterations=10,
                kernel_iterations=50,
                endgame_tricks=tricks,
                endgame_rollouts=rollouts,
            )
            for s in range(players)
        ]
        moves: list[int] = []
        sizes: list[int] = []
        while not state.is_terminal() and max(sizes[: state.hands_played], default=0) < 5:
            if state.is_chance():
                state.apply_chance()
                continue
            if len(sizes) <= state.hands_played:
                sizes.append(state.hand_size)
            seat = state.to_act()[0]
            action = bots[seat].act(state.observe(seat))
            assert action in state.legal_actions(seat)
            if state.phase == PLAYING:
                moves.append(int(action.value))
            state.apply(seat, action)
        return moves

    # Four tricks left of four hands of five: some solves run out of nodes, and the
    # rollout plays those on; the rollouts stopped for the endgame in one of the games.
    for name, players, tricks, rollouts in ((KERNEL_GAMES[0], 4, 3, 1), (HOOK_GAMES[1], 4, 4, 0)):
        first = play(name, players, tricks, rollouts)
        assert len(first) >= 5 * players
        assert play(name, players, tricks, rollouts) == first


@pytest.mark.parametrize("tricks", [-1, MOST_ENDGAME_TRICKS + 1])
def test_endgame_tricks_out_of_range_is_refused(tricks: int) -> None:
    with pytest.raises(ValueError, match="endgame_tricks"):
        ISMCTSBot(endgame_tricks=tricks)
    assert native().MAX_ENDGAME_TRICKS == MOST_ENDGAME_TRICKS
