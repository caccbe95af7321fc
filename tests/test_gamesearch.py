"""The search bots' per-game support (issue 4: search bots for every game on the engine)."""

from __future__ import annotations

import random

import pytest

from tests.helpers import at_hand, deal, make_bids
from tricktaker import load_ruleset
from tricktaker.bots import make_bot
from tricktaker.bots.gamesearch import sample_weight, search_for
from tricktaker.bots.search_ohhell import OH_HELL
from tricktaker.engine.actions import bid
from tricktaker.rules.ruleset import list_rulesets


def test_every_shipped_game_has_search_support() -> None:
    assert search_for(None) is OH_HELL
    for name in list_rulesets():
        game = search_for(load_ruleset(name).spec.hooks)
        assert callable(game.determinizer)
        assert callable(game.rollout_action)


def test_games_without_search_support_get_a_clear_error() -> None:
    with pytest.raises(NotImplementedError, match="do not play games with crokinole hooks"):
        search_for("crokinole")


def test_the_bid_model_weighs_deals_that_fit_the_bids_higher() -> None:
    """Seat 1 bid all five tricks and seat 3 none: a deal giving seat 1 the aces and high
    trumps outweighs the same deal with seats 1 and 3 swapping hands."""
    state = at_hand("blackout", 4, 5, first_dealer=0)  # 5 cards; seat 1 bids first
    deal(
        state,
        ["2H 3H 4H 5H 6H", "AS KS AH AD AC", "2C 3C 4C 5C 6C", "2D 3D 4D 5D 6D"],
        turn_up="2S",
    )
    state.apply(1, bid(5))
    state.apply(2, bid(0))
    state.apply(3, bid(0))
    sampler = OH_HELL.determinizer(state.observe(0))
    weigh = sampler.weight  # type: ignore[attr-defined]
    swapped = state.clone()
    swapped.hands[1], swapped.hands[3] = state.hands[3], state.hands[1]
    swapped.dealt[1], swapped.dealt[3] = state.dealt[3], state.dealt[1]
    assert weigh(state) > 2 * weigh(swapped)
    assert sample_weight(sampler, swapped) > 0  # never ruled out: the model has a floor
    sample = sampler.sample(random.Random(0))
    assert sample.bids == state.bids


def test_search_bots_use_the_weights_and_can_turn_them_off() -> None:
    state = at_hand("blackout", 4, 5, first_dealer=0)
    state.apply_chance()
    make_bids(state, [1, 2, 1, 1])
    seat = state.to_act()[0]
    for spec in ("ismcts:iterations=30", "ismcts:iterations=30:weighted=0", "pimc"):
        action = make_bot(spec, seed=4).act(state.observe(seat))
        assert action in state.legal_actions(seat)
