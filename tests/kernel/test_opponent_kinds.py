"""Opponent kinds learned at the table (``WorldFacts.random_prior``; the ismcts bot's
``opponents=learned``): each other seat is weighed as a policy player or a random player
by the likelihood of its bids and plays (bench/README.md, "Opponent kinds learned at the
table (issue 30)")."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tricktaker import GameState, load_ruleset, new_game
from tricktaker.bots.gamesearch import search_for
from tricktaker.bots.ismcts import KIND_BOUNDS, ISMCTSBot
from tricktaker.engine.observation import Observation
from tricktaker.kernel import kernel_world, native
from tricktaker.kernel.search import kernel_kinds, kernel_search, world_inputs

POLICY_SEAT = 1
"""The seat that plays the search's rollout policy; seats 2 and 3 play at random."""


def late_decision(size: int, *, seed: int = 5) -> Observation:
    """Seat 0's observation at its last decision with a choice in the first hand of
    ``size`` cards of a four-seat game: seat 0 and :data:`POLICY_SEAT` bid and play by the
    search's rollout policy, the other two uniformly at random."""
    state = new_game(load_ruleset("blackout"), players=4, seed=seed)
    rng = random.Random(seed)
    last: Observation | None = None
    while True:
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        obs = state.observe(seat)
        if obs.hand_size == size and seat == 0 and len(obs.legal_actions) > 1:
            last = obs
        if last is not None and obs.hand_size != size:
            return last
        legal = state.legal_actions(seat)
        if seat in (0, POLICY_SEAT):
            game = search_for(obs.rules.hooks)  # the Oh Hell family's
            action = game.rollout_action(state, seat, legal)
        else:
            action = rng.choice(legal)
        state.apply(seat, action)


def play_hands(
    bot: ISMCTSBot, hands: int, *, seed: int, policy_seats: tuple[int, ...] = ()
) -> None:
    """A four-seat Blackout game of ``seed`` played until ``hands`` hands are over: seat 0
    ``bot``, ``policy_seats`` the search's rollout policy, the others uniformly at
    random."""
    state = new_game(load_ruleset("blackout"), players=4, seed=seed)
    rng = random.Random(seed)
    while state.hands_played < hands:
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        obs = state.observe(seat)
        if seat == 0:
            action = bot.act(obs)
        elif seat in policy_seats:
            game = search_for(obs.rules.hooks)
            action = game.rollout_action(state, seat, state.legal_actions(seat))
        else:
            action = rng.choice(obs.legal_actions)
        state.apply(seat, action)


def test_no_evidence_keeps_the_prior() -> None:
    """Before any bid or play of the hand, the posterior is the prior."""
    state: GameState = new_game(load_ruleset("blackout"), players=4, seed=2)
    while state.is_chance():
        state.apply_chance()
    seat = state.to_act()[0]
    obs = state.observe(seat)
    prior = [0.3, 0.2, 0.6, 0.9]
    prior[seat] = 0.0
    world = kernel_world(obs, random_prior=prior)
    learned = kernel_kinds(world, seed=1)
    assert learned == pytest.approx(prior)


def test_the_policy_player_and_the_random_players_told_apart() -> None:
    """After most of a hand of ten cards, the seat that played the policy is far less
    likely a random player than its prior, and the random players more likely on the
    whole (one hand's evidence of a random player may mislead: some read 0.2; the bot
    carries a running mean from hand to hand)."""
    policy, random_seats = [], []
    for seed in (1, 2, 3):
        obs = late_decision(10, seed=seed)
        world = kernel_world(obs, random_prior=[0.0, 0.5, 0.5, 0.5])
        learned = kernel_kinds(world, seed=3)
        assert learned[0] == 0.0
        policy.append(learned[POLICY_SEAT])
        random_seats += learned[2:]
    assert max(policy) < 0.2
    assert sum(random_seats) / len(random_seats) > 0.6


def test_search_with_learned_kinds_is_legal_and_deterministic() -> None:
    """The search with learned kinds returns a legal move, the same for the same seed."""
    obs = late_decision(8)
    chosen = []
    for _ in range(2):
        world = kernel_world(obs, random_prior=[0.0, 0.5, 0.5, 0.5])
        action, done = kernel_search(
            obs,
            seed=7,
            iterations=300,
            time_budget=None,
            exploration=0.3,
            noise=0.5,
            model_opponents=0,
            weighted=True,
            rivalry=1.0,
            world=world,
        )
        assert action in obs.legal_actions
        assert done == 300
        chosen.append(action)
    assert chosen[0] == chosen[1]


def test_malformed_priors_refused() -> None:
    """A prior a seat, each a chance, and 0 for the searching seat."""
    obs = late_decision(6)
    config, state, facts = world_inputs(obs, random_prior=[0.0, 0.5, 0.5, 0.5])
    core = native()
    for bad in ((0.5, 0.5), (0.0, 0.5, 1.5, 0.5), (0.4, 0.5, 0.5, 0.5), (0.0, float("nan"), 0, 0)):
        with pytest.raises(ValueError, match="random_prior"):
            core.make_world(config, state, replace(facts, random_prior=bad))
    with pytest.raises(ValueError, match="kind_noise"):
        core.make_world(config, state, replace(facts, kind_noise=0.0))
    for plays in (-0.1, 1.5, float("nan")):
        with pytest.raises(ValueError, match="kind_plays"):
            core.make_world(config, state, replace(facts, kind_plays=plays))
    with pytest.raises(ValueError, match="random_prior"):
        core.kinds(core.make_world(config, state, replace(facts, random_prior=())), 1, 10)


def test_the_bot_carries_the_kinds_from_hand_to_hand() -> None:
    """A bot with ``opponents=learned`` starts every seat at ``random_prior`` and carries
    what it learned in a hand into the next one, within the bounds."""
    bot = ISMCTSBot(seed=1, iterations=50, opponents="learned", random_prior=0.4)
    play_hands(bot, 3, seed=8)
    assert set(bot.kinds) == {1, 2, 3}
    assert all(KIND_BOUNDS[0] <= p <= KIND_BOUNDS[1] for p in bot.kinds.values())
    assert any(p != 0.4 for p in bot.kinds.values())


@pytest.mark.parametrize(
    "setting",
    [
        {"opponents": "clever"},
        {"random_prior": 0.0},
        {"random_prior": 1.0},
        {"kind_noise": 0.0},
        {"kind_plays": 1.5},
        {"kind_carry": "median"},
    ],
)
def test_bad_settings_refused(setting: dict[str, object]) -> None:
    """Unknown models and priors or noise out of range are refused."""
    with pytest.raises(
        ValueError, match=r"opponents|random_prior|kind_noise|kind_plays|kind_carry"
    ):
        ISMCTSBot(**setting)  # type: ignore[arg-type]


def test_the_plays_weigh_the_kind_as_kind_plays_says() -> None:
    """``kind_plays`` 0: a seat's kind is learned from its bid alone, so the policy
    player (whose plays say most of it) stays nearer its prior than with the plays
    (1); in between, in between."""
    obs = late_decision(10, seed=2)
    prior = [0.0, 0.5, 0.5, 0.5]
    learned = {
        power: kernel_kinds(kernel_world(obs, random_prior=prior, kind_plays=power), seed=3)
        for power in (0.0, 0.5, 1.0)
    }
    policy = [learned[power][POLICY_SEAT] for power in (0.0, 0.5, 1.0)]
    assert policy[0] > policy[1] > policy[2]
    assert all(0.0 < p < 1.0 for p in policy)


def test_bayes_carries_the_bids_posterior() -> None:
    """``kind_carry=bayes``: the next hand's prior of a seat is the posterior its bids
    alone gave (within the bounds), not a running mean; after hands of random bids,
    the random seats' priors are above the policy seat's."""
    bot = ISMCTSBot(seed=1, iterations=50, opponents="learned", kind_carry="bayes", kind_plays=0.5)
    play_hands(bot, 6, seed=8, policy_seats=(POLICY_SEAT,))
    assert set(bot.kinds) == {1, 2, 3}
    assert all(KIND_BOUNDS[0] <= p <= KIND_BOUNDS[1] for p in bot.kinds.values())
    assert min(bot.kinds[2], bot.kinds[3]) > bot.kinds[POLICY_SEAT]
