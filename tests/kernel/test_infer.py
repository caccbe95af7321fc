"""The inference from the plays seen (``WorldFacts.plays``, ``infer_noise``; the ismcts
bot's ``infer=plays``): each sampled deal is weighed by how likely the other seats' card
plays were with its cards under the soft rollout policy, on hand-made positions where the
answer is known (bench/README.md, "Inference from the plays (issue 30)")."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tricktaker import GameState, load_ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.bots.ismcts import ISMCTSBot
from tricktaker.cards import ACE, TWO, make_card
from tricktaker.engine.observation import Observation
from tricktaker.kernel import (
    KernelState,
    PlayInference,
    WorldFacts,
    kernel_world,
    limits,
    native,
)
from tricktaker.kernel.convert import hand_plays
from tricktaker.kernel.search import world_inputs

SIZE = 5
"""The hand size of the hand-made positions."""
KING = ACE - 1


def first_play(size: int) -> tuple[GameState, Observation]:
    """A four-seat game at the first card of its hand of ``size`` cards, and the
    observation of the seat to lead."""
    state = new_game(load_ruleset("blackout"), players=4, seed=4)
    bots = [make_bot("heuristic", seed=seat) for seat in range(4)]
    while True:
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        obs = state.observe(seat)
        if obs.hand_size == size and obs.phase == "playing":
            return state, obs
        state.apply(seat, bots[seat].act(obs))


def ace_led_world(bid: int, *, noise: float = 0.5) -> tuple[Any, int, int, int]:
    """Seat 0 led the ace of a plain suit and seat 1, which bid ``bid``, followed with
    its two: the world of seat 0 (seat 2 to play), with the inference on (``noise``);
    and the ace, the king and the two."""
    _, obs = first_play(SIZE)
    config, _, _ = world_inputs(obs)
    assert obs.tables is not None
    assert obs.trump is not None
    suit = (obs.trump + 1) % 4
    ace, king, two = (make_card(suit, rank) for rank in (ACE, KING, TWO))
    seen = 1 << ace | 1 << two
    if obs.turn_up is not None:
        seen |= 1 << obs.turn_up
    deck = sum(1 << card for card in range(52))
    mine = 0
    for card in range(52):  # seat 0's cards left: four of the other plain suits
        plain = obs.tables.suit_of[card] not in (suit, obs.trump)
        if plain and mine.bit_count() < SIZE - 1 and not (seen >> card) & 1:
            mine |= 1 << card
    known = limits()
    bids = (1, bid, 1, 1)
    state = KernelState(
        hands=(mine, 0, 0, 0),
        bids=bids,
        tricks=(0,) * 4,
        points=(0,) * 4,
        trick=((0, ace), (1, two)),
        leader=0,
        to_play=2,
        tricks_done=0,
        bid_count=4,
        bid_sum=sum(bids),
        eldest=0,
        phase=known.phase_playing,
        broken=False,
        first_bidder=-1,
    )
    facts = WorldFacts(
        me=0,
        hidden=(1, 2, 3),
        counts=(SIZE - 1, SIZE - 1, SIZE, SIZE),
        voids=(0,) * 4,
        played=(1 << ace, 1 << two, 0, 0),
        unknown=deck & ~(seen | mine),
        fixed=(0,) * 4,
        plays=((0, ace), (1, two)),
        infer_noise=noise,
    )
    return native().make_world(config, state, facts), ace, king, two


def weights(world: Any, count: int = 3000) -> list[tuple[int, float]]:
    """Seat 1's cards at the start of the play and the weight of each sampled deal."""
    out = []
    for sample in native().samples(world, 11, count):
        out.append((sample[1], sample[-1]))
    return out


def test_ducking_low_under_the_ace_makes_the_king_less_likely() -> None:
    """A seat that bid 0 and followed the ace with its two would have thrown its king
    (the policy's highest card that loses): a deal with the king in its hand weighs the
    noise, 0.5; a deal where the two was its only card of the suit weighs 1 (it had no
    choice), and the king's deals weigh less on average than the others."""
    world, _, king, two = ace_led_world(bid=0)
    suit_cards = [card for card in range(52) if card // 13 == king // 13]
    with_king, without = [], []
    for hand, weight in weights(world):
        if (hand >> king) & 1:
            assert weight == pytest.approx(0.5)
            with_king.append(weight)
        else:
            if not any((hand >> card) & 1 for card in suit_cards if card != two):
                assert weight == pytest.approx(1.0)
            without.append(weight)
    assert with_king
    assert without
    assert sum(with_king) / len(with_king) < sum(without) / len(without)


def test_a_seat_that_wants_the_trick_plays_low_without_telling() -> None:
    """Had the seat bid 1 (it wants a trick it cannot win), the policy's card is its
    lowest, the two: holding the king is then no less likely than not."""
    world, _, king, _ = ace_led_world(bid=1)
    with_king = [w for hand, w in weights(world) if (hand >> king) & 1]
    without = [w for hand, w in weights(world) if not (hand >> king) & 1]
    assert min(with_king) >= 1.0
    assert sum(with_king) / len(with_king) >= sum(without) / len(without)


def test_inference_off_weighs_nothing_and_equal_deals_the_same() -> None:
    """With ``infer_noise`` 1 every legal card is equally likely (every weight 1); a
    world without the plays has the same deals (the same seed) as one with them."""
    world, _, _, _ = ace_led_world(bid=0, noise=1.0)
    assert {w for _, w in weights(world, 500)} == {1.0}
    on = [hand for hand, _ in weights(ace_led_world(bid=0)[0], 500)]
    assert on == [hand for hand, _ in weights(world, 500)]


def test_a_seat_that_did_not_follow_is_void_in_every_deal() -> None:
    """A seat that showed out of the led suit never holds it (the hard facts: such a
    deal is not sampled, weight 0), and the plays' weights stay positive."""
    state, obs = first_play(SIZE)
    bots = [make_bot("heuristic", seed=seat) for seat in range(4)]
    for _ in range(4 * 3):  # three tricks
        seat = state.to_act()[0]
        state.apply(seat, bots[seat].act(state.observe(seat)))
    seat = state.to_act()[0]
    obs = state.observe(seat)
    world = kernel_world(obs, infer=PlayInference(0.5))
    _, _, facts = world_inputs(obs, infer=PlayInference(0.5))
    assert facts.plays == hand_plays(obs)
    assert len(facts.plays) == 12
    assert obs.tables is not None
    for sample in native().samples(world, 3, 300):
        assert sample[-1] > 0
        for other in range(4):
            for card in range(54):
                if (sample[other] >> card) & 1:
                    assert not (facts.voids[other] >> obs.tables.suit_of[card]) & 1


def test_plays_must_be_the_cards_played_in_order() -> None:
    """The facts' plays are checked: a card the seat did not play, or one missing."""
    _, obs = first_play(SIZE)
    config, state, facts = world_inputs(obs)
    world, ace, _, two = ace_led_world(bid=0)
    assert world is not None
    bad = replace(facts, plays=((0, ace),), infer_noise=0.5)
    with pytest.raises(ValueError, match="played"):
        native().make_world(config, state, bad)
    with pytest.raises(ValueError, match="infer_noise"):
        native().make_world(config, state, replace(facts, infer_noise=2.0))
    assert two != ace


def test_the_bot_setting() -> None:
    """``infer=plays`` is a setting of the ismcts bot (``none`` the default), and a game
    played with it runs; an unknown value is refused."""
    bot = make_bot("ismcts:infer=plays:iterations=50", seed=1)
    assert isinstance(bot, ISMCTSBot)
    assert bot.infer == "plays"
    with pytest.raises(ValueError, match="infer"):
        make_bot("ismcts:infer=bids", seed=1)
    state, _ = first_play(3)
    bots = [make_bot("ismcts:infer=plays:iterations=30", seed=seat) for seat in range(4)]
    start = state.hands_played
    while state.hands_played == start:
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        state.apply(seat, bots[seat].act(state.observe(seat)))


def test_plays_out_of_order_stop_the_replay() -> None:
    """Plays in an order the rules do not allow (a seat out of turn, a card it could not
    play there) stop the replay where they go wrong: every weight stays positive and
    finite (on the sanitizer build too, ``make kernel-asan``)."""
    state, _ = first_play(SIZE)
    bots = [make_bot("heuristic", seed=seat) for seat in range(4)]
    for _ in range(4 * 2 + 1):
        seat = state.to_act()[0]
        state.apply(seat, bots[seat].act(state.observe(seat)))
    obs = state.observe(state.to_act()[0])
    config, public, facts = world_inputs(obs, infer=PlayInference(0.3))
    orders = [facts.plays[::-1], facts.plays[1:] + facts.plays[:1]]
    orders.append(tuple(sorted(facts.plays)))
    for plays in orders:
        world = native().make_world(config, public, replace(facts, plays=plays))
        for sample in native().samples(world, 5, 200):
            assert 0.0 < sample[-1] < float("inf")


def test_a_search_draws_from_a_pool_of_weighed_deals() -> None:
    """With ``infer_pool`` the search draws its deals from a pool weighed once (smaller
    than its iterations, or larger: then as many as the iterations): it runs every
    iteration and picks a legal card, the same for the same seed."""
    state, _ = first_play(SIZE)
    bots = [make_bot("heuristic", seed=seat) for seat in range(4)]
    for _ in range(4 * 2 + 1):
        seat = state.to_act()[0]
        state.apply(seat, bots[seat].act(state.observe(seat)))
    obs = state.observe(state.to_act()[0])
    moves = [action.value for action in obs.legal_actions]
    for pool in (0, 16, 5000):
        world = kernel_world(obs, infer=PlayInference(0.5, pool))
        runs = [native().search(world, moves, 300, -1.0, 0.3, 0.5, 0, True, 9) for _ in "ab"]
        move, iterations, _ = runs[0]
        assert move in moves
        assert iterations == 300
        assert runs[0] == runs[1]
