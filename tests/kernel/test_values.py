"""The kernel's values of every legal choice (tricktaker.kernel.values, the coach's model in
tricktaker.coach.model) against the same model computed in Python: deals drawn by the
game's determinizer with its weight, each choice applied to a copy, the hand played out
with the game's rollout policy without noise (tricktaker.bots.pimc.rollout_hand), the
seat's hand score read as the coach reads it (hand_points).

On the same deals the sums agree exactly (every ruleset the kernel plays whole, the hook
games' card play); on the kernel's own deals the weighted means agree within their
standard errors; where nothing is hidden every deal is the same."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

import pytest

from tests.kernel.play import HOOK_GAMES, KERNEL_GAMES
from tricktaker import GameState, load_ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.bots.base import bot_decisions
from tricktaker.bots.gamesearch import sample_weight, search_for
from tricktaker.bots.pimc import rollout_hand
from tricktaker.coach.contract import COACH_CAPABILITY, made_bid
from tricktaker.coach.model import hand_points
from tricktaker.engine.base import BIDDING, PLAYING
from tricktaker.engine.hooks import capability
from tricktaker.engine.observation import Observation
from tricktaker.kernel import (
    KernelUnsupportedError,
    config_of_state,
    kernel_state,
    kernel_world,
    native,
    plays_whole,
)
from tricktaker.kernel.search import move_code, world_inputs
from tricktaker.kernel.values import (
    LEAST_DEALS,
    MoveValues,
    append_flat_state,
    finish_played,
    flat_state,
    kernel_choice_values,
    made_worlds,
    play_out_hands,
)


@dataclass
class Sums:
    """One choice's weighted sums over the deals, as the kernel keeps them."""

    deals: int = 0
    weight: float = 0.0
    sum: float = 0.0
    sum_sq: float = 0.0
    made: float = 0.0
    weight_sq: float = 0.0

    def add(self, weight: float, state: GameState, seat: int) -> None:
        points = hand_points(state, seat)
        result = state.history[-1]
        self.deals += 1
        self.weight += weight
        self.sum += weight * points
        self.sum_sq += weight * points * points
        made = len(result.bids) > seat and result.bids[seat] == result.tricks[seat]
        self.made += weight if made else 0.0
        self.weight_sq += weight * weight

    def mean(self) -> float:
        return self.sum / self.weight

    def stderr(self) -> float:
        effective = self.weight**2 / self.weight_sq
        variance = max(0.0, self.sum_sq / self.weight - self.mean() ** 2)
        return math.sqrt(variance / max(1.0, effective - 1))


def python_deals(obs: Observation, seed: int, count: int) -> list[tuple[GameState, float]]:
    """``count`` deals drawn by the game's own determinizer of ``obs``, with its weights."""
    sampler = search_for(obs.rules.hooks).determinizer(obs)
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        state = sampler.sample(rng)
        out.append((state, sample_weight(sampler, state)))
    return out


def python_values(obs: Observation, deals: list[tuple[GameState, float]]) -> list[Sums]:
    """The coach's model in Python: each choice played out on each deal."""
    game = search_for(obs.rules.hooks)
    sums = [Sums() for _ in obs.legal_actions]
    for state, weight in deals:
        for action, into in zip(obs.legal_actions, sums, strict=True):
            trial = state.clone()
            trial.apply(obs.seat, action)
            if trial.hands_played == state.hands_played:  # not the hand's last card
                rollout_hand(trial, game, noise=0.0)
            into.add(weight, trial, obs.seat)
    return sums


def kernel_accepts(obs: Observation) -> bool:
    """Whether the kernel values this decision."""
    try:
        kernel_world(obs)
    except KernelUnsupportedError:
        return False
    return True


def decision(
    name: str, players: int, phase: str, *, sizes: range, seed: int, tricks: int = 0
) -> Observation:
    """The first decision in ``phase`` of a game of ``name`` between heuristic players,
    in a hand whose size is in ``sizes``, after ``tricks`` tricks of it, with two legal
    choices or more, that the kernel plays."""
    state = new_game(load_ruleset(name), players=players, seed=seed)
    bots = [make_bot("heuristic", seed=seed + s) for s in range(players)]
    for _, obs in bot_decisions(state, bots):
        if (
            obs.phase == phase
            and obs.hand_size in sizes
            and sum(state.tricks_won) >= tricks
            and len(obs.legal_actions) > 1
            and kernel_accepts(obs)
        ):
            return obs
    raise AssertionError(f"no {phase} decision of {name} with {sizes} cards")


def check_exact(obs: Observation, values: list[MoveValues], sums: list[Sums]) -> None:
    """The kernel's sums are the Python ones (the same deals, the same sums in order)."""
    assert [v.action for v in values] == list(obs.legal_actions)
    for value, expected in zip(values, sums, strict=True):
        assert value.deals == expected.deals
        assert value.weight == pytest.approx(expected.weight, rel=1e-12)
        assert value.sum == pytest.approx(expected.sum, rel=1e-12, abs=1e-9)
        assert value.sum_sq == pytest.approx(expected.sum_sq, rel=1e-12, abs=1e-9)
        assert value.weight_sq == pytest.approx(expected.weight_sq, rel=1e-12)
        if value.made is not None:
            assert value.made == pytest.approx(expected.made, rel=1e-12, abs=1e-12)


def on_deals(obs: Observation, deals: list[tuple[GameState, float]]) -> list[MoveValues]:
    """The kernel's values of ``obs`` on the deals given (its ``values`` with ``given``)."""
    given = [(*state.hands, weight) for state, weight in deals]
    moves = [move_code(action) for action in obs.legal_actions]
    made_known, rows = native().values(kernel_world(obs), moves, len(given), 0, -1.0, 0, given)
    return [
        MoveValues(action, int(n), w, total, total_sq, made if made_known else None, w_sq)
        for action, (n, w, total, total_sq, made, w_sq) in zip(obs.legal_actions, rows, strict=True)
    ]


FAMILY = [
    (KERNEL_GAMES[0], 4, "bidding", range(3, 5), 1),
    (KERNEL_GAMES[0], 3, "playing", range(4, 6), 2),
    (KERNEL_GAMES[1], 3, "bidding", range(2, 5), 3),
    (KERNEL_GAMES[4], 3, "playing", range(3, 5), 4),
    (KERNEL_GAMES[5], 4, "bidding", range(2, 5), 5),
    (KERNEL_GAMES[6], 3, "playing", range(3, 6), 6),
]
"""Decisions of the Oh Hell family for the sampled comparison: bids and cards in a few
rulesets (a plain one, one with jokers, a cooperative one, ...), in hands of a few cards
(the Python side is slow)."""


@pytest.mark.parametrize("phase", ["bidding", "playing"])
@pytest.mark.parametrize("name", KERNEL_GAMES)
def test_on_the_same_deals_the_kernel_values_are_pythons(name: str, phase: str) -> None:
    """Every ruleset the kernel plays whole, a bid and a card: the kernel's score rule
    gives the engine's hand scores, its rollout the Python rollout's cards."""
    players = max(3, load_ruleset(name).spec.players.min)
    obs = decision(name, players, phase, sizes=range(2, 8), seed=8)
    deals = python_deals(obs, 8, 12)
    values = on_deals(obs, deals)
    check_exact(obs, values, python_values(obs, deals))
    assert all(v.made is not None for v in values)


@pytest.mark.parametrize("name", HOOK_GAMES)
def test_hook_game_card_values_are_pythons_on_its_determinizers_deals(name: str) -> None:
    """A hook game's card play: the wrapper draws the deals with the game's determinizer
    where it weighs evidence the kernel's sampler does not, so the values are the Python
    model's exactly for the same seed; on deals given, always; made is not known."""
    players = load_ruleset(name).spec.players.min
    obs = decision(name, players, "playing", sizes=range(1, 64), seed=7, tricks=1)
    deals = python_deals(obs, 5, 10)
    sums = python_values(obs, deals)
    check_exact(obs, on_deals(obs, deals), sums)
    values = kernel_choice_values(obs, seed=5, deals=10, seconds=None)
    assert all(v.made is None for v in values)
    describe = getattr(search_for(obs.rules.hooks).determinizer(obs), "hidden_facts", None)
    assert describe is not None
    if describe().soft_evidence:
        check_exact(obs, values, sums)
    else:  # the kernel's own deals: the same model within sampling noise
        agree(values, python_values(obs, python_deals(obs, 5, 60)))


COOPERATIVE = next(name for name in KERNEL_GAMES if load_ruleset(name).cooperative)
"""A cooperative ruleset the kernel plays whole (no seat scores points)."""


@pytest.mark.parametrize("phase", ["bidding", "playing"])
def test_a_cooperative_rulesets_values_are_whether_the_table_was_exact(phase: str) -> None:
    """In a cooperative ruleset a deal's value is 1 where every seat took exactly its
    bid, else 0 (the kernel's coach_points, the coach's hand_points): the same sums as
    Python's on the same deals, not all 0 (the hand score is 0 there), each deal 0 or 1
    (the weighted squares sum as the values do), and never above the seat's own made bid."""
    obs = decision(COOPERATIVE, 3, phase, sizes=range(2, 6), seed=8)
    deals = python_deals(obs, 8, 40)
    values = on_deals(obs, deals)
    check_exact(obs, values, python_values(obs, deals))
    assert any(value.sum > 0 for value in values)
    for value in values:
        assert value.sum_sq == pytest.approx(value.sum, abs=1e-12)
        assert value.made is not None
        assert value.made >= value.sum - 1e-12


def agree(values: list[MoveValues], sums: list[Sums]) -> None:
    """Each choice's kernel mean lies within four standard errors of the Python one."""
    for value, expected in zip(values, sums, strict=True):
        spread = math.hypot(value.stderr, expected.stderr())
        assert abs(value.mean - expected.mean()) <= 4 * spread + 1e-9, (value, expected)
        if value.made is not None:
            chance = expected.made / expected.weight
            made = value.made / value.weight
            slack = 4 * math.sqrt(max(chance * (1 - chance), 0.01) / expected.deals)
            assert abs(made - chance) <= slack, (value, expected)


@pytest.mark.parametrize(("name", "players", "phase", "sizes", "seed"), FAMILY)
def test_the_kernels_deals_give_the_pythons_values_within_their_errors(
    name: str, players: int, phase: str, sizes: range, seed: int
) -> None:
    """The kernel's own deals (its determinizer, weighted by its bid model) and the
    game's Python determinizer's give the same values within sampling noise."""
    obs = decision(name, players, phase, sizes=sizes, seed=seed)
    values = kernel_choice_values(obs, seed=seed, deals=4000, seconds=None)
    assert all(v.deals == 4000 for v in values)
    agree(values, python_values(obs, python_deals(obs, seed + 1, 150)))


def test_nothing_hidden_gives_every_deal_the_same_value() -> None:
    """At a decision whose every hidden card is known (the last card of the hand, each
    other seat's shown in the trick) each deal is the hand as it is: no spread, and
    the value is the hand's score once played."""
    state = new_game(load_ruleset(KERNEL_GAMES[0]), players=3, seed=11)
    bots = [make_bot("heuristic", seed=11 + s) for s in range(3)]
    seat, obs = next(
        (seat, obs)
        for seat, obs in bot_decisions(state, bots)
        if state.phase == PLAYING
        and len(state.trick) == state.players - 1
        and sum(state.tricks_won) == state.hand_size - 1
        and state.hand_size > 1
    )
    values = kernel_choice_values(obs, seed=3, deals=30, seconds=None)
    (value,) = values
    played = state.clone()
    played.apply(seat, value.action)
    assert value.deals == 30
    assert value.stderr == pytest.approx(0.0, abs=1e-6)
    assert value.mean == pytest.approx(hand_points(played, seat), rel=1e-12)
    check_exact(obs, values, python_values(obs, python_deals(obs, 0, 30)))


def test_a_time_budget_still_plays_the_least_deals_and_the_same_seed_the_same_deals() -> None:
    obs = decision(KERNEL_GAMES[0], 4, "bidding", sizes=range(3, 5), seed=1)
    rushed = kernel_choice_values(obs, seed=2, deals=10**7, seconds=0.0)
    assert {v.deals for v in rushed} == {LEAST_DEALS}
    assert kernel_choice_values(obs, seed=2, deals=50, seconds=None) == kernel_choice_values(
        obs, seed=2, deals=50, seconds=None
    )
    assert {v.deals for v in kernel_choice_values(obs, seed=2, deals=0, seconds=None)} == {0}
    assert kernel_choice_values(obs, seed=2, deals=0, seconds=None)[0].mean == 0.0


def test_the_kernel_refuses_decisions_it_does_not_play() -> None:
    """A hook game's decisions before its card play are not the kernel's."""
    refused = 0
    for name in HOOK_GAMES:
        state = new_game(load_ruleset(name), players=load_ruleset(name).spec.players.min, seed=1)
        while state.is_chance():
            state.apply_chance()
        obs = state.observe(state.to_act()[0])
        if obs.phase != "playing":
            with pytest.raises(KernelUnsupportedError):
                kernel_choice_values(obs, seed=1, deals=5, seconds=None)
            refused += 1
    assert refused


def off_range(deal: tuple[Any, ...], me: int) -> tuple[Any, ...]:
    return (*deal[:me], deal[me] | 1 << 60, *deal[me + 1 :])


def negative_weight(deal: tuple[Any, ...], me: int) -> tuple[Any, ...]:
    return (*deal[:-1], -1.0)


def no_weight(deal: tuple[Any, ...], me: int) -> tuple[Any, ...]:
    return deal[:-1]


def card_twice(deal: tuple[Any, ...], me: int) -> tuple[Any, ...]:
    other = (me + 1) % (len(deal) - 1)
    mine, theirs = deal[me], deal[other]
    moved = (theirs & (theirs - 1)) | (mine & -mine)  # one of its cards is one of mine
    return (*deal[:other], moved, *deal[other + 1 :])


def own_hand_changed(deal: tuple[Any, ...], me: int) -> tuple[Any, ...]:
    other = (me + 1) % (len(deal) - 1)
    mine, theirs = deal[me], deal[other]
    low_mine, low_theirs = mine & -mine, theirs & -theirs
    hands = list(deal)
    hands[me], hands[other] = mine ^ low_mine ^ low_theirs, theirs ^ low_theirs ^ low_mine
    return tuple(hands)


def short_hand(deal: tuple[Any, ...], me: int) -> tuple[Any, ...]:
    other = (me + 1) % (len(deal) - 1)
    return (*deal[:other], deal[other] & (deal[other] - 1), *deal[other + 1 :])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (off_range, "outside its range"),
        (negative_weight, "weight is 0 or more"),
        (no_weight, "entries"),
        (card_twice, "two hands"),
        (own_hand_changed, "own hand"),
        (short_hand, "cards, not"),
    ],
)
def test_deals_given_are_checked(change: Any, message: str) -> None:
    obs = decision(KERNEL_GAMES[0], 4, "playing", sizes=range(3, 5), seed=1)
    world = kernel_world(obs)
    moves = [move_code(action) for action in obs.legal_actions]
    deals = [tuple(deal) for deal in native().samples(world, 1, 3)]
    deals[1] = change(deals[1], obs.seat)
    with pytest.raises(ValueError, match=message):
        native().values(world, moves, 3, 0, -1.0, 1, deals)


def test_an_illegal_move_is_refused() -> None:
    obs = decision(KERNEL_GAMES[0], 4, "playing", sizes=range(3, 5), seed=1)
    assert obs.hand is not None
    foreign = next(c for c in range(52) if not (obs.hand >> c) & 1)
    with pytest.raises(ValueError, match="not legal"):
        native().values(kernel_world(obs), [foreign], 3, 0, -1.0, 1)


def decision_states(name: str, seed: int, count: int) -> list[GameState]:
    """``count`` complete states of a game of ``name`` between heuristic players in their
    card play (the first card of a hand and cards later in it, alternately), then the
    first with a bid to make and the first with another decision, where there are."""
    players = max(3, load_ruleset(name).spec.players.min)
    state = new_game(load_ruleset(name), players=players, seed=seed)
    bots = [make_bot("heuristic", seed=seed + s) for s in range(players)]
    found: list[GameState] = []
    other: dict[int, GameState] = {}
    while not state.is_terminal() and len(found) < count:
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        if state.phase == PLAYING and sum(state.tricks_won) == (len(found) % 2) * (
            state.hand_size // 2
        ):
            found.append(state.clone())
        elif state.phase != PLAYING:
            other.setdefault(state.phase, state.clone())
        state.apply(seat, bots[seat].act(state.observe(seat)))
    assert len(found) == count
    return found + list(other.values())


@pytest.mark.parametrize("name", [*KERNEL_GAMES, *HOOK_GAMES])
def test_the_kernels_play_out_of_complete_states_is_pythons(name: str) -> None:
    """play_out_hands plays complete states out (one kernel call) as rollout_hand plays
    them in Python, their card play and, in a ruleset the kernel plays whole, their bids;
    finish_played makes the bids through the engine and scores each hand from the
    tricks' winners as the engine scores the hand played out: the same bids, tricks,
    winners and scores; any other decision is left to Python (None)."""
    rules = load_ruleset(name)
    states = decision_states(name, seed=3, count=4)
    played = play_out_hands(states)
    game = search_for(rules.hooks)
    compared = set()
    for state, how in zip(states, played, strict=True):
        if not (state.phase == PLAYING or (state.phase == BIDDING and plays_whole(rules))):
            assert how is None
            continue
        assert how is not None
        compared.add(state.phase)
        expected = state.clone()
        rollout_hand(expected, game)
        finish_played(state, how)
        want, got = expected.history[-1], state.history[-1]
        assert got.trick_winners == want.trick_winners
        assert (got.tricks, got.bids, got.hand_scores) == (want.tricks, want.bids, want.hand_scores)
        assert state.hands_played == expected.hands_played
    assert compared == ({PLAYING, BIDDING} if plays_whole(rules) else {PLAYING})


@pytest.mark.parametrize("name", [*KERNEL_GAMES, *HOOK_GAMES])
def test_a_state_written_flat_is_its_kernel_state(name: str) -> None:
    """append_flat_state writes an engine state's hand straight into the kernel's flat
    list exactly as flat_state writes its kernel_state (bids, tricks, trick points, the
    trick in progress); the kernel reads it back, and refuses a list cut short."""
    states = [*decision_states(name, seed=3, count=4), *decision_states(name, seed=5, count=4)]
    compared = 0
    for state in states:
        try:
            expected = flat_state(2, kernel_state(state))
        except KernelUnsupportedError:
            continue
        written: list[int] = [7]
        append_flat_state(written, 2, state)
        assert written == [7, *expected]
        compared += 1
    assert compared
    played = [s for s in states if s.phase == PLAYING]
    core = native()
    if played:
        state = played[0]
        config = config_of_state(state) if plays_whole(state.rules) else None
        if config is not None:
            flat = flat_state(0, kernel_state(state))
            assert len(core.play_out([config], flat + flat)) == 2
            with pytest.raises(ValueError, match="ends early"):
                core.play_out([config], flat[:-1])


def made_of(seat: int) -> Any:
    """The coach's notion of the seat making its bid, of a state that finished a hand."""
    return lambda state: made_bid(state.rules, state.history[-1], seat, state.setup.partnerships)


@pytest.mark.parametrize("name", HOOK_GAMES)
def test_hook_game_made_bids_are_pythons_on_the_same_deals(name: str) -> None:
    """A hook game's card play: the worlds of made_worlds, played on the deals given,
    count the weight of the made bids (and of the deals with a bid to make) that the
    coach's made_bid counts of the hands played out in Python; kernel_choice_values
    given ``made`` says so (None where the seat has nothing to make), and the points
    stay the same."""
    players = load_ruleset(name).spec.players.min
    found = 0
    for seed in (7, 8, 9, 10):
        obs = decision(name, players, "playing", sizes=range(1, 64), seed=seed, tricks=1)
        deals = python_deals(obs, 5, 10)
        sampler = search_for(obs.rules.hooks).determinizer(obs)
        _, public, facts = world_inputs(obs, sampler=sampler)
        worlds = made_worlds(obs, sampler, made_of(obs.seat), public, facts)
        game = search_for(obs.rules.hooks)
        expected = []
        for action in obs.legal_actions:
            made = known = 0.0
            for state, weight in deals:
                trial = state.clone()
                trial.apply(obs.seat, action)
                if trial.hands_played == state.hands_played:
                    rollout_hand(trial, game)
                outcome = made_of(obs.seat)(trial)
                known += weight if outcome is not None else 0.0
                made += weight if outcome else 0.0
            expected.append((made, known))
        values = kernel_choice_values(obs, seed=5, deals=10, seconds=None, made=made_of(obs.seat))
        plain = kernel_choice_values(obs, seed=5, deals=10, seconds=None)
        assert [(v.sum, v.sum_sq) for v in values] == [(v.sum, v.sum_sq) for v in plain]
        if worlds is None:
            assert all(known == 0.0 for _, known in expected)
            assert all(v.made is None for v in values)
            continue
        found += 1
        given = [(*state.hands, weight) for state, weight in deals]
        moves = [move_code(action) for action in obs.legal_actions]
        made_world, known_world = worlds
        _, made_rows = native().values(made_world, moves, len(given), 0, -1.0, 0, given)
        assert [row[2] for row in made_rows] == pytest.approx([m for m, _ in expected])
        if known_world is None:
            weights = sum(weight for _, weight in deals)
            assert all(known == pytest.approx(weights) for _, known in expected)
        else:
            _, known_rows = native().values(known_world, moves, len(given), 0, -1.0, 0, given)
            assert [row[2] for row in known_rows] == pytest.approx([k for _, k in expected])
        for value in values:
            assert value.made is not None
            assert 0.0 <= value.made <= (value.made_weight or value.weight) + 1e-9
    if capability(load_ruleset(name).hooks, COACH_CAPABILITY) is not None:
        assert found >= 1  # a game that says what making it means: some seat has a bid


@pytest.mark.parametrize("name", HOOK_GAMES)
def test_a_hook_games_budget_plays_every_move_on_the_same_deals(name: str) -> None:
    """A hook game's card play under a time budget (its determinizer sampling in rounds
    until the budget is spent): every move on the same deals, at least LEAST_DEALS of
    them, the least when no time is left; the made bids within their weight."""
    players = load_ruleset(name).spec.players.min
    obs = decision(name, players, "playing", sizes=range(1, 64), seed=7, tricks=1)
    made = made_of(obs.seat)
    rushed = kernel_choice_values(obs, seed=2, deals=10**6, seconds=0.0, made=made)
    assert {v.deals for v in rushed} == {LEAST_DEALS}
    timed = kernel_choice_values(obs, seed=2, deals=10**6, seconds=0.2, made=made)
    assert len({v.deals for v in timed}) == 1
    assert timed[0].deals >= LEAST_DEALS
    for value in timed:
        assert value.made is None or 0.0 <= value.made <= (value.made_weight or value.weight)
