"""The Buckup determinizer explains every observation reachable in play: whole hands at 4
to 7 players (and 8 to 9 with four-card deals) with random and heuristic moves and the
house-rule options, sampled at every decision from every seat's view, the seat to act
or not, and each sample checked against what the seat knows (docs/games/buckup.md).

Two moments are easy to miss because only another seat acts: another player part way
through its discards (nobody sees how many it has thrown), and another player answering
the 19 redeal (its hand must qualify).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import act, deal, game
from tricktaker import GameState
from tricktaker.bots import make_bot
from tricktaker.bots.determinize import known_voids
from tricktaker.cards import cards_of, parse_card
from tricktaker.games.buckup.hooks import BuckupData, is_nineteen_hand
from tricktaker.games.buckup.search import BuckupDeterminizer


def data(state: GameState) -> BuckupData:
    assert isinstance(state.ext, BuckupData)
    return state.ext


def places(state: GameState) -> list[int]:
    """Every card somewhere: the hands, the stock, the discards, set aside, played, the
    turn-up (sorted)."""
    d = data(state)
    out = [c for hand in state.hands for c in cards_of(hand)]
    out += d.stock + d.discards + d.setting_aside
    out += [c for trick in state.trick_cards for _, c in trick] + [c for _, c in state.trick]
    if state.turn_up is not None:
        out.append(state.turn_up)
    return sorted(out)


def check_sample(true: GameState, sampled: GameState, seat: int) -> None:
    """docs/games/buckup.md: the sample shows ``seat`` exactly what the real game does (its
    own cards, discards and draws; the chips, statuses and payments, which give every
    player's number of cards drawn (Discard and draw); the stock's size; the scare cards
    (Scare cards); the tricks), every card lies in one place, every other hand and pile
    has its real size, and no seat holds a card of a suit it showed it lacks (Play: follow
    suit if you can). Another player discarding now may have thrown a different number
    of cards so far (face down: Discard and draw), and another player answering the 19
    redeal holds a qualifying hand (19 redeal)."""
    obs = true.observe(seat)
    assert sampled.observe(seat) == obs
    assert sampled.hands[seat] == true.hands[seat]
    if true.phase_name == "ante":
        return
    assert places(sampled) == list(range(52))
    real, got = data(true), data(sampled)
    pending = real.drawer if true.phase_name == "discard" and real.drawer != seat else None
    for s in range(true.players):
        if s == pending:
            held = sampled.hands[s].bit_count() + len(got.setting_aside)
            assert held == true.hands[s].bit_count() + len(real.setting_aside)
            if real.scare[s] in real.setting_aside:  # seen thrown
                assert real.scare[s] in got.setting_aside
        else:
            assert sampled.hands[s].bit_count() == true.hands[s].bit_count()
    if pending is None:
        assert got.setting_aside == real.setting_aside
    assert len(got.stock) == len(real.stock)
    assert len(got.discards) == len(real.discards)
    assert got.drawn == real.drawn
    assert got.scare == real.scare
    assert (got.status, got.ledger.payments) == (real.status, real.ledger.payments)
    assert (got.ledger.stacks, got.ledger.pot) == (real.ledger.stacks, real.ledger.pot)
    for other, void in enumerate(known_voids(obs)):
        suits = {c // 13 for c in cards_of(sampled.hands[other])}
        assert not any((void >> suit) & 1 for suit in suits), f"seat {other} breaks a void"
    if true.phase_name == "redeal":
        asked = true.to_act()[0]
        assert is_nineteen_hand(sampled.dealt[asked])


def play_and_sample(
    players: int, options: Mapping[str, object], seed: int, bots: list[str], skip: int
) -> Counter[str]:
    """Play ``skip`` hands, then one more sampling every seat's view before every
    decision (and, for the last, after it); the phases seen, by whose view."""
    state = game("buckup", players, options=options, seed=seed, first_dealer=seed % players)
    movers = [make_bot(bots[s % len(bots)], seed=seed + s) for s in range(players)]
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    while not state.is_terminal() and state.hands_played <= skip:
        if state.is_chance():
            state.apply_chance()
            continue
        actor = state.to_act()[0]
        if state.hands_played == skip:
            for seat in range(players):
                obs = state.observe(seat)
                seen[f"{obs.phase} {'actor' if seat == actor else 'other'}"] += 1
                check_sample(state, BuckupDeterminizer(obs).sample(rng), seat)
        state.apply(actor, movers[actor].act(state.observe(actor)))
    return seen


OPTIONS = st.fixed_dictionaries(
    {
        "out_for_now": st.booleans(),
        "scare_cards": st.booleans(),
        "four_card_deal": st.booleans(),
        "card_fee": st.sampled_from([0, 5, 3]),
        "fold_fee": st.sampled_from([0, 5]),
    }
)


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(
    players=st.integers(4, 7),
    options=OPTIONS,
    seed=st.integers(0, 10_000),
    bots=st.lists(st.sampled_from(["random", "heuristic"]), min_size=1, max_size=3),
    skip=st.integers(0, 2),
)
def test_every_reachable_observation_is_sampled(
    players: int, options: dict[str, object], seed: int, bots: list[str], skip: int
) -> None:
    """docs/games/buckup.md, Stay or fold, Discard and draw, Dealer's obligation, Out for
    now, Scare cards, Options: a hand after some others (a pot carried over, burned
    players' payments), every seat's view sampled at every decision."""
    if options["four_card_deal"]:
        players += 2  # 6 to 9 players
    seen = play_and_sample(players, options, seed, bots, skip)
    assert seen["discard other"] or not seen["discard actor"]


def test_fixed_seeds_cover_every_kind_of_decision() -> None:
    """docs/games/buckup.md, Ante, Stay or fold, Out for now (come back, the dealer's
    choice), Discard and draw, Play: games on fixed seeds reach every phase from the
    actor's and the others' views, and each sample is consistent."""
    seen: Counter[str] = Counter()
    configs: list[tuple[int, dict[str, object], int]] = [
        (4, {"out_for_now": True}, 11),
        (5, {"out_for_now": True, "scare_cards": True}, 4),
        (7, {"scare_cards": True, "card_fee": 0}, 2),
        (9, {"four_card_deal": True, "out_for_now": True}, 5),
    ]
    for players, options, seed in configs:
        for skip in range(3):
            seen += play_and_sample(players, options, seed, ["random", "heuristic"], skip)
    phases = {key.split()[0] for key in seen}
    assert {"ante", "stay_or_fold", "come_back", "dealer_choice", "discard", "playing"} <= phases
    assert seen["discard other"]
    assert seen["playing other"]


def test_another_seat_answering_the_nineteen_redeal() -> None:
    """docs/games/buckup.md, 19 redeal: while seat 2 decides, every other seat's samples
    give it a hand of cards 9 or lower adding up to 19 or less (with its scare card,
    Scare cards), and differ from one sample to the next."""
    for options in ({}, {"scare_cards": True}):
        state = game("buckup", 5, options=options, first_dealer=0)
        act(state, 0, "ante kept")
        hands = ["AD KD QD JD 10D", "AH KH 3C 4D 5D", "2C 3D 4H 5S 5C", "JH 10H 9H 8H 6C"]
        deal(state, [*hands, "AC KC QC JC 10C"], turn_up="2S")
        assert state.phase_name == "redeal"
        assert state.to_act() == (2,)
        for seat in (0, 1, 3, 4):
            sampler = BuckupDeterminizer(state.observe(seat))
            rng = random.Random(seat)
            held = set()
            for _ in range(20):
                sampled = sampler.sample(rng)
                check_sample(state, sampled, seat)
                held.add(sampled.hands[2])
                if options:
                    assert sampled.dealt[2][0] == parse_card("2C")
            assert len(held) > 10
        act(state, 2, "keep")
        for seat in range(5):
            check_sample(state, BuckupDeterminizer(state.observe(seat)).sample(rng), seat)


def test_another_seat_part_way_through_its_discards() -> None:
    """docs/games/buckup.md, Discard and draw (discards face down, one at a time) and Scare
    cards (a thrown scare card is seen leaving): while seat 2 discards, the others'
    samples have it throw its scare card and any number of others."""
    state = game("buckup", 5, options={"scare_cards": True}, first_dealer=0)
    act(state, 0, "ante kept")
    hands = ["AD KD QD JD 10D", "AH KH 3C 4D 5D", "2C 3D 4H 5S 5C", "JH 10H 9H 8H 6C"]
    deal(state, [*hands, "AC KC QC JC 10C"], turn_up="2S")
    act(state, 2, "keep")
    act(state, 1, "fold")
    act(state, 2, "stay")
    act(state, 2, "discard 2C")
    act(state, 2, "discard 3D")
    assert state.phase_name == "discard"
    for seat in (0, 1, 3, 4):
        sampler = BuckupDeterminizer(state.observe(seat))
        rng = random.Random(seat)
        thrown: Counter[int] = Counter()
        for _ in range(60):
            sampled = sampler.sample(rng)
            check_sample(state, sampled, seat)
            aside = data(sampled).setting_aside
            assert parse_card("2C") in aside
            thrown[len(aside)] += 1
        assert set(thrown) == {1, 2, 3, 4, 5}
