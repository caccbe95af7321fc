"""The bidder model of ``ismcts:opponents=learned`` (``kind_carry=bidder``,
``tricktaker.bots.bidders``): each other seat's bids beside the tricks it took tell a
random player from one who bids by its cards, whatever that player's habit."""

from __future__ import annotations

import dataclasses
import random

import pytest

from tests.kernel.test_opponent_kinds import play_hands
from tricktaker import load_ruleset, new_game
from tricktaker.bots.bidders import MOST_BIAS, Bidders, BidRecord
from tricktaker.bots.gamesearch import search_for
from tricktaker.bots.ismcts import KIND_BOUNDS, ISMCTSBot


def bidders(errors: dict[int, list[float]], *, tricks: float = 3.0, legal: int = 13) -> Bidders:
    """A model that saw each seat bid ``tricks + error`` (rounded) and take ``tricks``."""
    model = Bidders()
    for seat, seen in errors.items():
        model.records[seat] = [BidRecord(round(tricks + e), tricks, legal, 0) for e in seen]
    return model


def test_no_hand_seen_keeps_the_prior() -> None:
    assert Bidders().random_chance(1, 0.25) == 0.25


def test_a_close_bidder_and_a_random_one_told_apart() -> None:
    """Bids within a trick of the tricks taken read as a bidder; bids spread over the
    whole range as a random player, within a few hands."""
    rng = random.Random(3)
    wild = [rng.randrange(13) - 3.0 for _ in range(6)]
    model = bidders({1: [0, 1, -1, 0, 0, 1], 2: wild})
    assert model.random_chance(1, 0.25) < 0.05
    assert model.random_chance(2, 0.25) > 0.95


def test_a_habit_of_bidding_high_is_still_a_bidder() -> None:
    """A seat that bids a trick over what it takes, hand after hand (a search whose
    rollouts flatter its hands), is a bidder with a habit, not a random player; one
    that bids five over is not a bidder of any habit allowed (:data:`MOST_BIAS`)."""
    model = bidders({1: [1, 1, 2, 1, 0, 1, 1, 2], 3: [5, 5, 6, 5, 4, 5, 5, 6]})
    assert MOST_BIAS >= 1.0
    assert model.random_chance(1, 0.25) < 0.1
    assert model.random_chance(3, 0.25) > 0.9


def test_records_come_from_what_the_seat_sees() -> None:
    """At a decision late in a hand the model holds, for each other seat that bid, its
    bid and the tricks it won so far plus an even share of those left; the hand's
    records are kept when the next hand starts."""
    state = new_game(load_ruleset("blackout"), players=4, seed=4)
    game = search_for(None)
    model = Bidders()
    last_obs = None
    while True:
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        obs = state.observe(seat)
        if state.hands_played > 0:
            break
        if seat == 0:
            model.see(obs)
            last_obs = obs
        state.apply(seat, game.rollout_action(state, seat, state.legal_actions(seat)))
    assert last_obs is not None
    assert model.records == {}
    model.close_hand()
    assert set(model.records) == {1, 2, 3}
    left = last_obs.hand_size - len(last_obs.tricks)
    for seat, records in model.records.items():
        (record,) = records
        assert record.bid == last_obs.bids[seat]
        assert record.taken == pytest.approx(last_obs.tricks_won[seat] + left / 4)
        assert record.legal == last_obs.hand_size + 1
    assert model.pending == {}


def test_the_hard_level_learns_the_kinds_in_the_oh_hell_family() -> None:
    """The Oh Hell family's search learns the other seats' kinds by default (the bot's
    ``opponents=game``): after hands against random players each seat's prior has
    moved from ``random_prior`` (in Blackout's first, small hands a random bid is
    seldom far from the tricks taken, so how far each moves is left to the records'
    tests above)."""
    bot = ISMCTSBot(seed=2, iterations=30)
    play_hands(bot, 11, seed=11)
    assert set(bot.kinds) == {1, 2, 3}
    assert all(chance != bot.random_prior for chance in bot.kinds.values()), bot.kinds
    assert set(bot._bidders.records) == {1, 2, 3}
    assert all(KIND_BOUNDS[0] <= p <= KIND_BOUNDS[1] for p in bot.kinds.values())


def test_opponents_search_learns_nothing() -> None:
    """``opponents=search`` turns the kinds off: no prior is ever set."""
    bot = ISMCTSBot(seed=2, iterations=40, opponents="search")
    play_hands(bot, 2, seed=11)
    assert bot.kinds == {}


def test_the_records_read_only_what_every_seat_sees() -> None:
    """What the model keeps of a decision is the same whatever cards the deciding seat
    holds: it reads the bids, the tricks won and the tricks played, all public (the same
    observation with the seat's own cards and choices taken away gives the same
    records)."""
    state = new_game(load_ruleset("blackout"), players=4, seed=6)
    game = search_for(None)
    while True:
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        obs = state.observe(seat)
        if seat == 0 and obs.tricks and obs.hand_size >= 1:
            break
        state.apply(seat, game.rollout_action(state, seat, state.legal_actions(seat)))
    seen, other = Bidders(), Bidders()
    seen.see(obs)
    other.see(dataclasses.replace(obs, hand=0, legal_actions=()))
    assert seen.pending == other.pending
    assert set(seen.pending) == {s for s in (1, 2, 3) if obs.bids[s] is not None}
