"""The search bot's time spread over a hand: ``ismcts:time_shape=A``
(bench/README.md, "Time spread over the hand, the exploration constant and a faster kernel
(issue 30)").

With a ``time_budget`` of T seconds a decision, the bid and the cards of a hand share
the hand's time unevenly: each decision weighs ``k ** A`` (``k`` the cards held, one more
for the bid), over the mean weight of the hand's decisions with a choice, so that the
hand as a whole still has T a decision."""

from __future__ import annotations

import pytest

from tests.coach.positions import decisions
from tricktaker.bots import make_bot
from tricktaker.bots.ismcts import MOST_TIME_SHAPE, ISMCTSBot, shaped_time
from tricktaker.engine.actions import BID, PLAY


@pytest.mark.parametrize("hand_size", [1, 2, 5, 8, 12, 13])
@pytest.mark.parametrize(
    "shape", [0.0, 0.5, 1.0, 1.5, 2.0, MOST_TIME_SHAPE, -0.5, -1.0, -MOST_TIME_SHAPE]
)
def test_a_hands_shares_average_one(hand_size: int, shape: float) -> None:
    """Over the bid and every card but the forced last one, the shares' mean is 1: the
    hand's time is the budget times its decisions, whatever the shape."""
    shares = [shaped_time(hand_size, hand_size, bid=True, shape=shape)]
    shares += [shaped_time(hand_size, k, bid=False, shape=shape) for k in range(2, hand_size + 1)]
    assert sum(shares) / len(shares) == pytest.approx(1.0)


@pytest.mark.parametrize("shape", [0.5, 1.0, 2.0, -0.5, -1.0, -2.0])
def test_the_shape_orders_the_decisions(shape: float) -> None:
    """Above 0 the bid gets the most, then each card more than the next one; below 0
    the other way round."""
    shares = [shaped_time(12, 12, bid=True, shape=shape)]
    shares += [shaped_time(12, k, bid=False, shape=shape) for k in range(12, 1, -1)]
    assert shares == sorted(shares, reverse=shape > 0)
    assert len(set(shares)) == len(shares)
    first, last = (shares[0], shares[-1]) if shape > 0 else (shares[-1], shares[0])
    assert first > 1.0 > last


def test_shape_zero_is_every_decision_alike() -> None:
    for k in range(2, 11):
        assert shaped_time(10, k, bid=False, shape=0.0) == 1.0
    assert shaped_time(10, 10, bid=True, shape=0.0) == 1.0


def test_the_bots_decision_time() -> None:
    """A bid and a card of Blackout get their shares of the budget; a hook game's own
    decision (Euchre's auction) and a bot without a budget are unchanged."""
    bot = ISMCTSBot(seed=0, iterations=50, time_budget=0.04, time_shape=1.5)
    plain = ISMCTSBot(seed=0, iterations=50, time_budget=0.04)
    seen = set()
    for _, obs in decisions("blackout", seeds=2, per_kind=2):
        kind = obs.legal_actions[0].kind
        if kind not in (BID, PLAY):
            continue
        seen.add(kind)
        share = shaped_time(obs.hand_size, obs.cards_in_hand, bid=kind == BID, shape=1.5)
        assert bot.decision_time(obs) == pytest.approx(0.04 * share)
        assert plain.decision_time(obs) == 0.04
        assert bot.act(obs) in obs.legal_actions
    assert seen == {BID, PLAY}
    untimed = ISMCTSBot(seed=0, iterations=50, time_shape=1.5)
    euchre = [obs for _, obs in decisions("euchre", seeds=1) if obs.legal_actions[0].kind != PLAY]
    assert euchre
    for obs in euchre:
        assert bot.decision_time(obs) == 0.04
        assert untimed.decision_time(obs) is None


@pytest.mark.parametrize("value", ["-4.5", "4.5", "nan", "inf"])
def test_a_bad_shape_is_refused(value: str) -> None:
    with pytest.raises(ValueError, match="time_shape"):
        make_bot(f"ismcts:time_shape={value}")
