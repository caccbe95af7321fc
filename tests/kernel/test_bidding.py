"""Bidding from the trick distribution (tricktaker.kernel.bidding, ISMCTSBot's
``bid_distribution=1``)."""

from __future__ import annotations

import pytest

from tests.helpers import at_hand, deal
from tricktaker import GameState
from tricktaker.bots import ISMCTSBot, make_bot
from tricktaker.engine.actions import bid
from tricktaker.kernel import KernelUnsupportedError
from tricktaker.kernel.bidding import kernel_bid

SEATS = 4


def three_card_hand(hands: list[str], *, hook: bool = False) -> GameState:
    """Blackout's third hand (3 cards a seat) at 4 seats, dealt by seat 0 (seat 1 bids
    first), hearts trump, the given hands."""
    options = {"hook": True} if hook else None
    state = at_hand("blackout", SEATS, 3, options=options, first_dealer=(1 - 3) % SEATS)
    assert state.hand_size == 3
    deal(state, hands, turn_up="2H")
    return state


def test_sure_tricks_get_their_bid_and_no_tricks_bid_zero() -> None:
    """docs/games/blackout.md, Bidding: three top trumps take every trick whatever the
    others hold, so the first bidder bids 3 (each deal with bid 3 took all 3); three low
    cards of plain suits bid 0."""
    strong = three_card_hand(["4C 5C 6C", "AH KH QH", "7D 8D 9D", "10S JS QS"])
    obs = strong.observe(1)
    choice = kernel_bid(obs, seed=1, rollouts=800, noise=0.5, rivalry=1.0, time_budget=None)
    assert choice.action == bid(3)
    (three,) = [v for v in choice.values if v.bid == 3]
    assert three.tricks[3] == pytest.approx(1.0)
    assert choice.rollouts <= 800
    weak = three_card_hand(["AC KC QC", "2C 2D 3S", "AD KD QD", "AS KS QS"])
    choice = kernel_bid(
        weak.observe(1), seed=2, rollouts=800, noise=0.5, rivalry=1.0, time_budget=None
    )
    assert choice.action == bid(0)


def test_the_dealer_never_makes_the_forbidden_bid() -> None:
    """docs/games/blackout.md, the hook: the dealer may not make the bids total the
    tricks. Its hand takes all 3 for sure, the others bid 0, so 3 is forbidden: the
    trick distribution picks another bid, with every seed, and the bot too."""
    state = three_card_hand(["4C 5C 6C", "7D 8D 9D", "10S JS QS", "AH KH QH"], hook=True)
    for seat in (1, 2, 3):
        state.apply(seat, bid(0))
    assert state.to_act() == (0,)
    obs = state.observe(0)
    assert bid(3) not in obs.legal_actions
    for seed in range(5):
        choice = kernel_bid(obs, seed=seed, rollouts=400, noise=0.5, rivalry=1.0, time_budget=None)
        assert choice.action in obs.legal_actions
        assert choice.action != bid(3)
        assert {v.bid for v in choice.values} == {a.value for a in obs.legal_actions}
    bot = ISMCTSBot(seed=0, iterations=400, bid_distribution=1)
    assert bot.act(obs) in obs.legal_actions
    assert bot.last_iterations <= 400


def test_the_bot_setting_uses_it_for_bids_only() -> None:
    """``bid_distribution=1``: a bid spends the kernel's budget as rollouts over the bids
    (the same choice as kernel_bid's for the bot's seed), a card is searched as before;
    the setting is 0 or 1."""
    state = at_hand("blackout", SEATS, 6, first_dealer=0)
    state.apply_chance()
    seat = state.to_act()[0]
    bot = make_bot("ismcts:iterations=300:bid_distribution=1", seed=4)
    assert isinstance(bot, ISMCTSBot)
    action = bot.act(state.observe(seat))
    assert action.kind == "bid"
    assert 0 < bot.last_iterations <= 300
    state.apply(seat, action)
    while state.phase_name == "bidding":
        other = state.to_act()[0]
        state.apply(other, make_bot("heuristic", seed=other).act(state.observe(other)))
    seat = state.to_act()[0]
    assert bot.act(state.observe(seat)).kind == "play"
    assert bot.last_iterations == 300
    with pytest.raises(KernelUnsupportedError):
        kernel_bid(
            state.observe(seat), seed=0, rollouts=10, noise=0.5, rivalry=0.0, time_budget=None
        )
    with pytest.raises(ValueError, match="bid_distribution"):
        make_bot("ismcts:bid_distribution=2")


def test_it_keeps_to_its_time_budget() -> None:
    state = at_hand("blackout", SEATS, 13, first_dealer=0)
    state.apply_chance()
    obs = state.observe(state.to_act()[0])
    choice = kernel_bid(obs, seed=0, rollouts=10**8, noise=0.5, rivalry=1.0, time_budget=0.02)
    assert choice.action in obs.legal_actions
    assert 1 <= choice.rollouts < 10**8
