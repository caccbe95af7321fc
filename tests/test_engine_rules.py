"""Engine contract tests (README.md, The library; the rules pages docs/games/<id>.md): an
illegal action is refused with an error that names the rule it breaks, and a malformed
one is refused, not a crash."""

from __future__ import annotations

import pytest

from tests.engine_cases import (
    expect_illegal,
    snapshot,
)
from tests.helpers import act, at_hand, deal, game, make_bids, play_cards
from tricktaker import (
    IllegalActionError,
)
from tricktaker.bots import make_bot, play_game
from tricktaker.cards import cards_of, parse_card
from tricktaker.engine.actions import Action, bid, play

# ---------------------------------------------------- errors name their rule


def test_playing_a_card_not_held_names_the_rule() -> None:
    state = game("jabberwocky", 3)  # dealer 0: seat 1 bids first and leads
    deal(state, ["AS KS QS", "2H 3H 4S", "5D 6D 7D"], turn_up="8C")
    make_bids(state, [0, 1, 1])
    expect_illegal(state, 1, play(parse_card("AS")), "play a card from your hand")


def test_follow_suit_names_the_rule() -> None:
    """docs/games/jabberwocky.md, Play: "A player who holds a card of the suit led must play
    one"."""
    state = game("jabberwocky", 3)
    deal(state, ["AS KS QD", "2H 3H 4S", "5S 6D 7D"], turn_up="8C")
    make_bids(state, [0, 1, 1])
    play_cards(state, ["4S"])
    error = expect_illegal(state, 2, play(parse_card("6D")), "follow suit")
    assert "spades" in error.reason
    play_cards(state, ["5S"])
    expect_illegal(state, 0, play(parse_card("QD")), "follow suit")


def test_trump_lead_names_the_rule() -> None:
    """docs/games/jabberwocky.md, Play: "a trump may not be led until a trump has been played
    to an earlier trick of the hand"."""
    state = game("jabberwocky", 3)
    deal(state, ["AS KS QD", "2C 3H 4S", "5S 6D 7D"], turn_up="8C")
    make_bids(state, [0, 1, 1])
    expect_illegal(state, 1, play(parse_card("2C")), "trump lead")


def test_must_trump_names_the_rule() -> None:
    """docs/games/romanian_whist.md, Play: a player who cannot follow suit must play a trump
    if they hold one."""
    state = at_hand("romanian_whist", 3, 4)  # two-card hands; the dealer is seat 0 again
    assert state.dealer == 0
    deal(state, ["AS KS", "AH 9S", "KH 10D"], turn_up="QD")
    make_bids(state, [0, 0, 1])
    play_cards(state, ["9S"])
    expect_illegal(state, 2, play(parse_card("KH")), "must trump")
    play_cards(state, ["10D"])


def test_hook_rule_names_the_rule() -> None:
    """docs/games/jabberwocky.md, Bidding: hook rule: "the dealer may not make a bid that
    brings the total of all bids to the number of tricks in the hand"."""
    state = game("jabberwocky", 3)
    deal(state, ["AS KS QS", "2H 3H 4S", "5D 6D 7D"], turn_up="8C")
    act(state, 1, "bid 1")
    act(state, 2, "bid 1")
    expect_illegal(state, 0, bid(1), "hook rule")
    assert bid(1) not in state.legal_actions(0)
    act(state, 0, "bid 2")


def test_bid_range_names_the_rule() -> None:
    state = game("jabberwocky", 3)
    deal(state, ["AS KS QS", "2H 3H 4S", "5D 6D 7D"], turn_up="8C")
    expect_illegal(state, 1, bid(4), "bid range")
    expect_illegal(state, 1, bid(-1), "bid range")
    expect_illegal(state, 1, play(parse_card("2H")), "turn order")


def test_minimum_bid_names_the_rule() -> None:
    """docs/games/bluke.md, Bidding: a bid is from 1 up to the hand size: "nobody may bid zero
    unless the option `min_bid` is set to 0"."""
    state = game("bluke", 4)
    state.apply_chance()
    seat = state.to_act()[0]
    expect_illegal(state, seat, bid(0), "minimum bid")
    zero = game("bluke", 4, options={"min_bid": 0})
    zero.apply_chance()
    assert bid(0) in zero.legal_actions(zero.to_act()[0])


def test_misere_bids_name_the_rule() -> None:
    """docs/games/clag.md, Special hands: hand 12 is misère; "every player bids 0 (no other
    bid is allowed)"."""
    state = at_hand("clag", 3, 12)
    state.apply_chance()
    seat = state.to_act()[0]
    assert state.legal_actions(seat) == [bid(0)]
    expect_illegal(state, seat, bid(1), "misere")


def test_cooperative_bid_totals_name_the_rule() -> None:
    """docs/games/coop_blackout.md, Bidding: "The bids must add up to exactly the number of
    tricks in the hand": no bid may be larger than the tricks still unclaimed, and the
    dealer's bid is forced."""
    state = game("coop_blackout", 2)
    state.apply_chance()
    state.apply_chance()
    first = state.to_act()[0]
    expect_illegal(state, first, bid(2), "bid range")
    state.apply(first, bid(1))
    second = state.to_act()[0]
    assert state.legal_actions(second) == [bid(0)]
    expect_illegal(state, second, bid(1), "bids total the hand size")


def test_zero_bid_limit_names_the_rule() -> None:
    """docs/games/kachuful.md, Bidding: zero-bid limit (6 or more players): "a player who has
    bid 0 in five hands in a row may not bid 0 in the next hand"."""
    state = game("kachuful", 6)
    bots = [make_bot("random", seed=s) for s in range(6)]
    for _ in range(5):
        state.apply_chance()
        state.apply(0, bid(0))
        for seat in range(1, 6):
            state.apply(seat, bots[seat].act(state.observe(seat)))
        play_game(state, bots, until_hand_end=True)
    state.apply_chance()
    assert bid(0) not in state.legal_actions(0)
    expect_illegal(state, 0, bid(0), "zero-bid limit")


def test_blind_pile_play_names_the_rule() -> None:
    """docs/games/clag.md, Special hands: in hand 11 "nobody ever chooses a card": a player
    plays the next card of their pile."""
    state = at_hand("clag", 3, 11)
    state.apply_chance()
    make_bids(state, [0, 0, 0])
    seat = state.to_act()[0]
    assert state.legal_actions(seat) == [Action("play_pile")]
    card = cards_of(state.hands[seat])[0]
    expect_illegal(state, seat, play(card), "blind pile")


def test_caller_calls_name_their_rules() -> None:
    """docs/games/caller_clag.md, Hands and schedule: the caller chooses 3 to 7 cards;
    Special hands: one kind, then modifiers, no `non_exact` on a misère hand, and "a
    modifier may be called only once"."""
    state = game("caller_clag", 4)
    dealer = state.dealer
    expect_illegal(state, dealer, Action("call_size", 8), "Caller Clag calls")
    expect_illegal(state, dealer, Action("call_size", 2), "Caller Clag calls")
    expect_illegal(state, (dealer + 1) % 4, Action("call_size", 5), "turn order")
    act(state, dealer, "call_size 5")
    state.apply_chance()
    expect_illegal(state, dealer, Action("call_kind", "bogus"), "Caller Clag calls")
    act(state, dealer, "call_kind misere")
    expect_illegal(state, dealer, Action("call_modifier", "bogus"), "Caller Clag modifiers")
    expect_illegal(state, dealer, Action("call_modifier", "non_exact"), "Caller Clag modifiers")
    act(state, dealer, "call_modifier nuloss")
    expect_illegal(state, dealer, Action("call_modifier", "nuloss"), "Caller Clag modifiers")


@pytest.mark.parametrize(
    "action",
    [
        Action("play", 54),
        Action("play", -1),
        Action("play", "AS"),
        Action("bid", "3"),
        Action("call_size", "x"),
        Action("nonsense", 1),
    ],
    ids=repr,
)
@pytest.mark.parametrize("phase", ["bidding", "playing"])
def test_malformed_actions_are_refused_not_crashes(action: Action, phase: str) -> None:
    """README.md, The library: "an illegal one raises `IllegalActionError` naming the rule,
    leaving the state unchanged"."""
    state = game("blackout", 4)
    state.apply_chance()
    if phase == "playing":
        make_bids(state, [0, 0, 0, 0])
    seat = state.to_act()[0]
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.apply(seat, action)
    assert snapshot(state) == before
