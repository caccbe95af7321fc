"""tricktaker.envs.openspiel_game: every ruleset as an OpenSpiel Python game.

Checked through OpenSpiel's own API: its random-simulation test (clones, serialization,
legal-action masks, chance outcomes, returns within the utility bounds) on every shipped
ruleset and a house-rules file, its ISMCTS bot on Bluke, Pluck and Buckup, and OpenSpiel's
own ``oh_hell`` on the same deals (legal moves at every decision, and returns).
Needs the ``openspiel`` extra (OpenSpiel and numpy); under ``CI=true`` a missing one fails.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import pytest

from tests.envs.helpers import GAMES, require_envs, table_size
from tests.helpers import BENCH, load_bench, require_module

require_envs()
pyspiel = require_module("pyspiel", "pip install -e '.[openspiel]'")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import (  # noqa: E402
    evaluate_bots,
    ismcts,
    mcts,
    outcome_sampling_mccfr,
)
from open_spiel.python.bots import uniform_random  # noqa: E402

from tricktaker import load_ruleset  # noqa: E402
from tricktaker.envs.openspiel_game import (  # noqa: E402
    SHORT_NAME,
    TricktakerGame,
    TricktakerState,
    load_game,
)


def _bench_module(name: str) -> ModuleType:
    """A module of bench/ (the oh_hell adapter lives there, beside its benchmark)."""
    return load_bench(name, name)


@pytest.mark.parametrize("game", GAMES)
def test_random_simulations_of_every_shipped_ruleset(game: str) -> None:
    """OpenSpiel's conformance test: random play, clones, serialization, masks, bounds."""
    loaded = load_game(game, players=table_size(load_ruleset(game)), hands=2)
    pyspiel.random_sim_test(loaded, num_sims=2, serialize=True, verbose=False)
    scored = load_game(game, players=table_size(load_ruleset(game)), hands=1, utility="score")
    pyspiel.random_sim_test(scored, num_sims=1, serialize=False, verbose=False)


def test_a_house_rules_file_and_options_load_through_openspiel() -> None:
    path = BENCH / "openspiel_oh_hell.toml"
    game = pyspiel.load_game(SHORT_NAME, {"game": str(path), "players": 4})
    assert isinstance(game, TricktakerGame)
    assert game.settings.rules.id == "openspiel_oh_hell"
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    two = load_game("bluke", players=5, options={"new_jersey": True}, hands=3)
    assert two.settings.rules.options["new_jersey"] is True
    pyspiel.random_sim_test(two, num_sims=1, serialize=False, verbose=False)
    with pytest.raises(ValueError, match="unknown parameter"):
        TricktakerGame({"game": "bluke", "seats": 4})
    with pytest.raises(ValueError, match="utility must be"):
        load_game("bluke", utility="points")


def test_whole_games_end_with_the_engine_and_rank_utilities() -> None:
    """Without ``hands`` a game runs to its natural end; rank utilities are in [-1, 1]."""
    game = load_game("romanian_whist", players=3)
    rng = random.Random(0)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            state.apply_action(rng.choice(outcomes)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert isinstance(state, TricktakerState)
    engine = state.engine
    assert engine is not None
    assert engine.is_terminal()
    scores = engine.scores
    for seat, value in enumerate(state.returns()):
        beaten = sum(s < scores[seat] for s in scores) - sum(s > scores[seat] for s in scores)
        assert value == pytest.approx(beaten / 2)


def test_the_deal_is_card_by_card_from_the_cards_not_yet_placed() -> None:
    game = load_game("blackout", players=4, first_dealer=2)
    state = game.new_initial_state()
    assert state.is_chance_node()
    first = state.chance_outcomes()
    assert [a for a, _ in first] == list(range(52))
    assert all(p == pytest.approx(1 / 52) for _, p in first)
    state.apply_action(17)
    assert 17 not in [a for a, _ in state.chance_outcomes()]
    assert len(state.chance_outcomes()) == 51
    # The first hand has one card each: the 4 cards dealt and the turn-up are drawn, the
    # order of the others is never looked at (docs/games/blackout.md, Deal and trump).
    for card in (3, 30, 44, 51):
        assert state.is_chance_node()
        state.apply_action(card)
    assert not state.is_chance_node()
    assert isinstance(state, TricktakerState)
    assert state.engine is not None
    assert state.engine.turn_up == 51
    assert [h.bit_count() for h in state.engine.hands] == [1, 1, 1, 1]
    assert state.engine.hands[3] == 1 << 17  # the dealer's left (seat 3) gets the first card


def _play_until(state: Any, rng: random.Random, decisions: int) -> Any:
    made = 0
    while not state.is_terminal() and made < decisions:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            made += 1
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    return state


@pytest.mark.parametrize("game", ["bluke", "kachuful", "pluck", "euchre", "buckup"])
def test_a_seat_cannot_tell_resampled_worlds_apart(game: str) -> None:
    """Leak check: a state whose hidden cards are resampled gives the seat the same
    information state and observation (strings and tensors) as the real one, while the
    seat's own cards differ between two deals that differ for it."""
    loaded = load_game(game, players=table_size(load_ruleset(game)), hands=2)
    rng = random.Random(5)
    checked = 0
    for depth in (0, 3, 9, 14):
        state = _play_until(loaded.new_initial_state(), rng, depth)
        if state.is_terminal():
            continue
        seat = state.current_player()
        for turn in range(3):
            world = state.resample_from_infostate(seat, lambda: rng.random())
            assert world.information_state_string(seat) == state.information_state_string(seat)
            assert world.observation_string(seat) == state.observation_string(seat)
            assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
            assert world.observation_tensor(seat) == state.observation_tensor(seat)
            assert world.legal_actions(seat) == state.legal_actions(seat)
            checked += turn == 0
    assert checked >= 3


def test_hidden_cards_of_others_never_reach_a_seat() -> None:
    """Two deals that give seat 0 the same cards but the other seats' cards swapped:
    seat 0's views are identical, seat 1's are not."""
    game = load_game("blackout", players=4, first_dealer=3, hands=1)
    deck = list(range(52))
    random.Random(1).shuffle(deck)
    # Seat 0 receives first (the dealer is seat 3): deck positions 0, 4, 8, ...
    other = deck[:]
    for k in range(1, 13 * 4, 4):
        other[k], other[k + 1] = other[k + 1], other[k]
    views = []
    for order in (deck, other):
        state = game.new_initial_state()
        cards = iter(order)
        while state.is_chance_node():
            state.apply_action(next(cards))
        views.append(state)
    one, two = views
    for seat_view in ("information_state_string", "observation_string", "observation_tensor"):
        assert getattr(one, seat_view)(0) == getattr(two, seat_view)(0)
        assert getattr(one, seat_view)(1) != getattr(two, seat_view)(1)


@pytest.mark.parametrize("game", ["bluke", "pluck", "buckup"])
def test_openspiel_ismcts_plays(game: str) -> None:
    loaded = load_game(game, players=table_size(load_ruleset(game)), hands=1)
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(
        game=loaded, evaluator=evaluator, uct_c=2.0, max_simulations=15, random_state=rng
    )
    state = loaded.new_initial_state()
    moves = 0
    while not state.is_terminal() and moves < 5:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves == 5


def test_openspiel_cfr_family_and_evaluation_run() -> None:
    """Outcome-sampling MCCFR learns an average policy over the information states of
    Romanian Whist's first hand (one card each, docs/games/romanian_whist.md, Hands and
    schedule); OpenSpiel's evaluation plays uniform random bots."""
    game = load_game("romanian_whist", players=3, hands=1)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(150):
        solver.iteration()
    policy = solver.average_policy()
    rng = random.Random(2)
    state = _play_until(game.new_initial_state(), rng, 0)
    probabilities = policy.action_probabilities(state)
    assert sorted(probabilities) == state.legal_actions()
    assert sum(probabilities.values()) == pytest.approx(1.0)
    numpy_rng = np.random.RandomState(0)
    bots = [uniform_random.UniformRandomBot(p, numpy_rng) for p in range(3)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, numpy_rng)
    assert len(returns) == 3
    assert all(-1.0 <= value <= 1.0 for value in returns)


def test_same_legal_moves_and_returns_as_openspiel_oh_hell() -> None:
    """bench/openspiel_oh_hell.toml (Blackout cut to one hand of 12 with the hook) against
    OpenSpiel's ``oh_hell(players=4, num_tricks_fixed=12)`` on the same deals, with the
    card and action mapping of bench/openspiel_adapter.py."""
    adapter = _bench_module("openspiel_adapter")
    theirs_game = pyspiel.load_game("oh_hell", adapter.OPENSPIEL_PARAMS)
    ours_game = load_game(str(adapter.RULESET_PATH), players=4, utility="score")
    encoding = ours_game.settings.encoding
    rng = random.Random(11)
    decisions = 0
    for _ in range(25):
        theirs = theirs_game.new_initial_state()
        theirs.apply_action(adapter.HAND_SIZE)  # the number of tricks
        dealer = rng.randrange(4)
        theirs.apply_action(dealer)
        while theirs.is_chance_node():
            theirs.apply_action(rng.choice([a for a, _ in theirs.chance_outcomes()]))
        history = list(theirs.history())
        cards = history[2 : 2 + 48]
        hands = [[adapter.card_from_openspiel(c) for c in cards[seat::4]] for seat in range(4)]
        turn_up = adapter.card_from_openspiel(history[2 + 48])
        ours = ours_game.new_initial_state()
        ours.apply_action(dealer)
        assert isinstance(ours, TricktakerState)
        assert ours.engine is not None
        for card in ours.engine.deck_order_for(hands, turn_up=turn_up):
            if not ours.is_chance_node():
                break
            ours.apply_action(card)
        assert not ours.is_chance_node()
        while not theirs.is_terminal():
            assert ours.current_player() == theirs.current_player()
            legal = theirs.legal_actions()
            mapped = sorted(encoding.action_index(adapter.action_from_openspiel(a)) for a in legal)
            assert ours.legal_actions() == mapped
            action = rng.choice(legal)
            theirs.apply_action(action)
            ours.apply_action(encoding.action_index(adapter.action_from_openspiel(action)))
            decisions += 1
        assert ours.is_terminal()
        assert ours.returns() == list(theirs.returns())
    assert decisions == 25 * (4 + 48)
