"""Determinization: sampled states are consistent with what the seat knows."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from tests.helpers import at_hand, deal, make_bids, play_cards
from tricktaker import GameState, load_ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.bots.determinize import (
    CardPlacement,
    Determinizer,
    _replay,
    _start,
    known_voids,
    sample_state,
)
from tricktaker.cards import card_set, cards_of, parse_card
from tricktaker.engine.observation import Observation
from tricktaker.engine.setup import Setup
from tricktaker.rules.ruleset import list_rulesets

OH_HELL = [name for name in list_rulesets() if load_ruleset(name).hooks is None]
MATCHED = (
    "hand",
    "tricks",
    "current_trick",
    "bids",
    "trump",
    "turn_up",
    "to_act",
    "legal_actions",
    "phase",
    "scores",
    "dealer",
    "hand_size",
)


def suit_cards(text: str) -> int:
    """All cards of the given suit letters, e.g. ``"HC"``."""
    return sum(((1 << 13) - 1) << (13 * "CDHS".index(letter)) for letter in text)


def check_sample(obs: Observation, sampled: GameState) -> None:
    """The sampled state looks the same to the seat, and deals no seen card elsewhere."""
    again = sampled.observe(obs.seat)
    for name in MATCHED:
        assert getattr(again, name) == getattr(obs, name), name
    seen = obs.played | (obs.hand or 0)
    if obs.turn_up is not None and sampled.rest and sampled.rest[0] == obs.turn_up:
        seen |= 1 << obs.turn_up
    for seat in range(obs.players):
        played = sum(1 for t in (*obs.tricks, obs.current_trick) for s, _ in t if s == seat)
        holding = sampled.hands[seat]
        if obs.phase not in ("call_size", "deal"):
            assert holding.bit_count() == obs.hand_size - played
        if seat != obs.seat:
            assert not holding & seen


def samples(obs: Observation, count: int, seed: int = 0) -> list[GameState]:
    rng = random.Random(seed)
    sampler = Determinizer(obs)
    out = [sampler.sample(rng) for _ in range(count)]
    for state in out:
        check_sample(obs, state)
    return out


# ------------------------------------------------------------ hand-built positions


def voids_shown() -> Observation:
    """Seat 0's view of a Blackout hand (dealer 0, seat 1 leads) in which seat 2 has shown
    clubs and hearts void and seat 3 spades void, seat 0 to play."""
    state = at_hand("blackout", 4, 5, first_dealer=0)
    deal(
        state,
        ["QH 2S 9C 10D 7S", "AH AS 4C 5H 6H", "2C KS 4S 8S 9S", "KH 3C 5C JD 8D"],
        turn_up="2D",
    )
    make_bids(state, [1, 2, 1, 1])
    play_cards(state, ["AH", "2C", "KH", "QH", "AS", "KS", "3C", "2S", "4C", "4S", "5C"])
    return state.observe(0)


def test_voids_shown_by_failing_to_follow_are_respected() -> None:
    obs = voids_shown()
    assert obs.to_act == (0,)
    voids = known_voids(obs)
    assert voids[2] == 0b0101  # clubs and hearts
    assert voids[3] == 0b1000  # spades
    assert voids[1] == voids[0] == 0
    held_by_one = 0
    for sampled in samples(obs, 300):
        assert not sampled.hands[2] & suit_cards("CH")
        assert not sampled.hands[3] & suit_cards("S")
        held_by_one |= sampled.hands[1]
    # seat 1 showed nothing: it is dealt every suit somewhere among the samples
    assert all(held_by_one & suit_cards(s) for s in "CDHS")


def test_must_trump_games_show_a_trump_void() -> None:
    state = at_hand("romanian_whist", 4, 6, first_dealer=0)  # 3 cards; dealer 1
    deal(state, ["KS JD 7C", "QS 10S 9C", "AS AD KC", "8C 9D 10C"], turn_up="7H")
    make_bids(state, [0, 1, 2, 1])
    play_cards(state, ["AS", "8C", "KS", "QS", "AD", "9D"])
    obs = state.observe(0)
    assert known_voids(obs)[3] == 0b1100  # spades led, and no heart (trump) played
    for sampled in samples(obs, 200):
        assert not sampled.hands[3] & suit_cards("SH")


def test_a_standard_bluke_shows_nothing_but_a_discard_does() -> None:
    state = at_hand("bluke", 4, 12, first_dealer=0)  # 2 cards, seat 0 leads
    deal(state, ["AH 3D", "HB 5H", "2C 7C", "KH 9S"], turn_up="2S")
    make_bids(state, [1, 1, 1, 1])
    play_cards(state, ["AH", "HB", "2C"])
    obs = state.observe(3)
    voids = known_voids(obs)
    assert voids[1] == 0
    assert voids[2] == 0b0100
    one_had_a_heart = False
    for sampled in samples(obs, 300):
        assert not sampled.hands[2] & suit_cards("H")
        one_had_a_heart |= bool(sampled.hands[1] & suit_cards("H"))
    assert one_had_a_heart


def test_new_jersey_blukes_are_trumps() -> None:
    options = {"new_jersey": True}
    state = at_hand("bluke", 4, 2, options=options, first_dealer=0)  # 2 cards, seat 2 leads
    deal(state, ["QD 4C", "KH 3H", "AH 8H", "HB 6C"], turn_up="2S")
    make_bids(state, [1, 1, 1, 1])
    play_cards(state, ["AH", "HB", "4C"])
    obs = state.observe(1)
    assert known_voids(obs)[3] == known_voids(obs)[0] == 0b0100
    for sampled in samples(obs, 200):
        assert not (sampled.hands[3] | sampled.hands[0]) & suit_cards("H")


def test_leading_an_unbroken_trump_shows_a_hand_of_trumps() -> None:
    state = at_hand("jabberwocky", 4, 1, first_dealer=3)  # 3 cards, seat 0 leads
    deal(state, ["AH KH QH", "2C 3C 4C", "5C 6C 7C", "8C 9C 10C"], turn_up="2H")
    make_bids(state, [1, 1, 0, 0])
    play_cards(state, ["AH"])
    obs = state.observe(1)
    for sampled in samples(obs, 100):
        assert sampled.hands[0] & ~suit_cards("H") == 0


def test_hidden_own_hand_and_piles_are_sampled() -> None:
    state = at_hand("clag", 4, 11, seed=3)  # the blind pile hand
    state.apply_chance()
    bots = [make_bot("random", seed=s) for s in range(4)]
    for _ in range(7):
        seat = state.to_act()[0]
        state.apply(seat, bots[seat].act(state.observe(seat)))
    seat = state.to_act()[0]
    obs = state.observe(seat)
    assert obs.hand is None
    assert obs.pile
    mine = [sampled.hands[seat] for sampled in samples(obs, 50)]
    assert len(set(mine)) > 1


def test_hidden_simultaneous_bids_are_sampled() -> None:
    state = new_game(load_ruleset("kachuful"), players=4, seed=2)
    state.apply_chance()
    assert state.phase_name == "bidding"
    state.apply(1, state.legal_actions(1)[-1])
    state.apply(2, state.legal_actions(2)[0])
    obs = state.observe(0)
    assert obs.bids == (None, None, None, None)
    assert obs.bid_made == (False, True, True, False)
    for sampled in samples(obs, 20):
        assert sampled.bids[1] is not None
        assert sampled.bids[2] is not None
        assert sampled.bids[0] is None
        assert sampled.bids[3] is None


def test_games_with_hooks_are_refused() -> None:
    for name in ("pluck", "euchre", "buckup"):
        rules = load_ruleset(name)
        state = new_game(rules, players=min(rules.player_counts[-1], 4), seed=0)
        while state.is_chance():
            state.apply_chance()
        with pytest.raises(NotImplementedError, match="Oh Hell family"):
            sample_state(state.observe(0), random.Random(0))


# ------------------------------------------------------------ random games


@pytest.mark.parametrize("name", OH_HELL)
def test_random_games_sample_consistent_states(name: str) -> None:
    rules = load_ruleset(name)
    counts = sorted({rules.player_counts[0], min(4, rules.player_counts[-1]), 6})
    rng = random.Random(name)
    for players in (p for p in counts if p in rules.player_counts):
        state = new_game(rules, players=players, seed=players)
        bots = [make_bot("heuristic", seed=s) for s in range(players)]
        step = 0
        while not state.is_terminal() and step < 120:
            if state.is_chance():
                state.apply_chance()
                continue
            for seat in state.to_act():
                obs = state.observe(seat)
                if step % 5 == 0:
                    check_sample(obs, sample_state(obs, rng))
                state.apply(seat, bots[seat].act(obs))
                step += 1


@pytest.mark.parametrize("name", OH_HELL)
def test_reused_replays_equal_full_replays(name: str) -> None:
    """Later samples copy the first replayed state and swap the hidden cards: each must
    be the state a full replay of the hand with the same cards gives."""
    rules = load_ruleset(name)
    players = min(4, rules.player_counts[-1])
    state = new_game(rules, players=players, seed=11)
    bots = [make_bot("heuristic", seed=s) for s in range(players)]
    rng = random.Random(name)
    reused = 0
    for step in range(90):
        if state.is_terminal():
            break
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        obs = state.observe(seat)
        if step % 3 == 0:
            sampler = Determinizer(obs)
            sampler.sample(rng)
            for _ in range(2):
                fast = sampler.sample(rng)
                check_sample(obs, fast)
                if sampler.template is None:
                    continue
                reused += 1
                full = _start(obs, sampler.setup)
                turn_up = obs.turn_up if sampler.main_turn_up else None
                _replay(full, obs, [d[:] for d in fast.dealt], turn_up, rng, None)
                for field in ("hands", "bids", "trick", "tricks_won", "leader", "phase", "trump"):
                    assert getattr(fast, field) == getattr(full, field), field
                for s in range(players):
                    assert fast.legal_actions(s) == full.legal_actions(s)
        state.apply(seat, bots[seat].act(obs))
    assert reused or Setup.of(rules, players).simultaneous or name == "caller_clag"


# ------------------------------------------------------------ uniformity


def test_samples_are_uniform_over_the_consistent_deals() -> None:
    """Romanian Whist, 3 players, 24 cards: after two tricks seat 1 showed no hearts or
    spades and seat 2 no clubs or spades. Enumerate every consistent deal of the 12
    unknown cards and compare each card's chance to be in each seat's hand."""
    state = at_hand("romanian_whist", 3, 9, first_dealer=0)  # 7 cards, seat 0 leads
    deal(
        state,
        ["AC AH KS QS JS 10S AD", "JC 10C 9C QC KD QD JD", "KH QH JH 10H 9H 10D 9D"],
        turn_up="9S",
    )
    make_bids(state, [2, 1, 1])
    play_cards(state, ["AC", "JC", "9H", "AH", "KD", "KH"])
    obs = state.observe(0)
    unknown = [c for c in cards_of(card_set(state.setup.deck)) if not (obs.played >> c) & 1]
    unknown = [c for c in unknown if not (obs.hand or 0) >> c & 1 and c != parse_card("9S")]
    assert len(unknown) == 12
    banned = {1: suit_cards("HS"), 2: suit_cards("CS")}
    exact: Counter[tuple[int, int]] = Counter()
    deals = 0
    for one in itertools.combinations(unknown, 5):
        if card_set(one) & banned[1]:
            continue
        left = [c for c in unknown if c not in one]
        for two in itertools.combinations(left, 5):
            if card_set(two) & banned[2]:
                continue
            deals += 1
            exact.update((1, c) for c in one)
            exact.update((2, c) for c in two)
    rounds = 3000
    seen: Counter[tuple[int, int]] = Counter()
    for sampled in samples(obs, rounds, seed=11):
        for seat in (1, 2):
            seen.update((seat, c) for c in cards_of(sampled.hands[seat]))
    for key in set(exact) | set(seen):
        assert abs(seen[key] / rounds - exact[key] / deals) < 0.04, key
    assert not any(seen[(1, c)] for c in cards_of(banned[1]))


def test_the_fallback_sampler_is_consistent_too(monkeypatch: pytest.MonkeyPatch) -> None:
    import tricktaker.bots.determinize as determinize

    monkeypatch.setattr(determinize, "_MEMO_LIMIT", -1)
    obs = voids_shown()
    assert not Determinizer(obs).exact
    for sampled in samples(obs, 100):
        assert not sampled.hands[2] & suit_cards("CH")
        assert not sampled.hands[3] & suit_cards("S")


def test_card_placement_is_uniform_over_the_placements_that_respect_the_voids() -> None:
    """The counting sampler on its own (as the Euchre and Buckup determinizers use it):
    seven cards of three classes, seat 1 void in class 1, seat 2 void in classes 0 and
    2, seat 3 unconstrained; every consistent placement is equally likely."""
    unknown = [0, 1, 2, 13, 14, 26, 27]
    classes = [0, 0, 0, 1, 1, 2, 2]
    counts = [0, 2, 2, 2]
    voids = [0, 1 << 1, (1 << 0) | (1 << 2), 0]
    placement = CardPlacement(4, [1, 2, 3], unknown, classes, counts, voids)
    allowed = {1: {0, 1, 2, 26, 27}, 2: {13, 14}, 3: set(unknown)}
    consistent = []
    for one in itertools.combinations(unknown, 2):
        for two in itertools.combinations([c for c in unknown if c not in one], 2):
            left = [c for c in unknown if c not in one and c not in two]
            for three in itertools.combinations(left, 2):
                hands = {1: set(one), 2: set(two), 3: set(three)}
                if all(hands[s] <= allowed[s] for s in hands):
                    consistent.append(tuple(frozenset(hands[s]) for s in (1, 2, 3)))
    rng = random.Random(5)
    rounds = 4000
    seen: Counter[tuple[frozenset[int], ...]] = Counter()
    for _ in range(rounds):
        held, free = placement.sample_cards(rng)
        assert len(free) == 1
        assert sorted([c for hand in held for c in hand] + free) == unknown
        seen[tuple(frozenset(held[s]) for s in (1, 2, 3))] += 1
    assert set(seen) == set(consistent)
    expected = rounds / len(consistent)
    assert all(abs(n - expected) < 0.35 * expected for n in seen.values())


def test_card_placement_refuses_impossible_placements() -> None:
    with pytest.raises(ValueError, match="more cards than the deck"):
        CardPlacement(3, [1, 2], [0, 1], [0, 0], [0, 2, 1], [0, 0, 0])
    with pytest.raises(ValueError, match="no deal is consistent"):
        CardPlacement(3, [1, 2], [0, 1, 13], [0, 0, 1], [0, 2, 1], [0, 1, 1])
    # Counts checked later (count=False): no error now.
    CardPlacement(3, [1, 2], [0, 1, 13], [0, 0, 1], [0, 2, 1], [0, 1, 1], count=False)
