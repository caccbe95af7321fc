"""The kernel's search of the hook games' card play (Euchre): the deals it samples are
those the game's own determinizer allows, and the hard bot searches the cards in the
kernel and every other decision in Python."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.kernel.play import HOOK_GAMES, variant
from tests.kernel.test_determinize import position
from tricktaker import GameState, load_ruleset
from tricktaker.bots import ISMCTSBot, make_bot
from tricktaker.bots.determinize import known_voids
from tricktaker.cards import parse_card
from tricktaker.engine.base import PLAYING
from tricktaker.engine.observation import Observation
from tricktaker.games.buckup.sampler import BuckupDeterminizer
from tricktaker.games.euchre.search import EuchreDeterminizer
from tricktaker.games.pluck.search import PluckDeterminizer, pluck_voids
from tricktaker.kernel import KernelUnsupportedError, kernel_search, kernel_world, native
from tricktaker.kernel.results import result_table
from tricktaker.kernel.search import world_inputs


def check_samples(state: GameState, obs: Observation, count: int = 40) -> None:
    """Each sampled deal keeps the seat's own hand, gives every other seat as many cards
    as it holds, none the seat has seen (its own, played, its discards as declarer), none
    of an effective suit the other seat showed void in (docs/games/euchre.md, Play: the
    left bower belongs to the trump suit); in Pluck, one the game's determinizer allows
    (docs/games/pluck.md, Plucks: what the plucks showed; Play: the 2C opening lead)."""
    world = kernel_world(obs)
    public = world_inputs(obs)[1]
    assert public.hands[obs.seat] == obs.hand
    assert public.to_play == state.to_play
    assert public.tricks == tuple(state.tricks_won)
    voids = known_voids(obs)
    tables = obs.tables
    assert tables is not None
    assert obs.hand is not None
    seen = obs.hand | obs.played
    if obs.turn_up is not None:
        seen |= 1 << obs.turn_up
    for text in [*(obs.extra.get("discards") or []), *(obs.extra.get("discarded") or [])]:
        seen |= 1 << parse_card(str(text))
    pluck = PluckDeterminizer(obs) if obs.rules.spec.hooks == "pluck" else None
    for sample in native().samples(world, 11, count):
        hands = list(sample[:-1])
        assert hands[obs.seat] == obs.hand
        if pluck is not None:  # Pluck's own test of a position: voids, plucks, counts
            assert pluck.allows(hands)
        union = 0
        for seat, hand in enumerate(hands):
            assert hand.bit_count() == state.hands[seat].bit_count()
            assert not union & hand
            union |= hand
            if seat == obs.seat:
                continue
            assert not hand & seen
            for card in range(54):
                if (hand >> card) & 1 and pluck is None:
                    assert not (voids[seat] >> tables.suit_of[card]) & 1


def card_play(
    name: str, flags: list[bool], seed: int, moves: int, bots: bool, hand: int = 0
) -> GameState:
    """A position of the hook game ``name`` in its card play (or any, if the game ended):
    heuristic players to the start of hand ``hand`` (0: the first), then ``moves``
    random or heuristic decisions, then heuristic ones to the card play."""
    base = load_ruleset(name)
    players = base.spec.players.min
    rules = variant(name, players, flags) or base
    heuristic = [make_bot("heuristic", seed=seed + s) for s in range(players)]
    state = position(rules, players, seed, 0, bots=True)
    while not state.is_terminal() and state.hands_played < hand:
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        state.apply(seat, heuristic[seat].act(state.observe(seat)))
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        action = heuristic[seat].act(state.observe(seat)) if bots else rng.choice(legal)
        state.apply(seat, action)
    while not state.is_terminal() and (state.phase != PLAYING or state.is_chance()):
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        state.apply(seat, heuristic[seat].act(state.observe(seat)))
    return state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(HOOK_GAMES),
    flags=st.lists(st.booleans(), max_size=3),
    seed=st.integers(min_value=0, max_value=2**31),
    moves=st.integers(min_value=0, max_value=60),
    bots=st.booleans(),
    hand=st.integers(min_value=0, max_value=2),
)
def test_hook_game_samples_respect_what_each_seat_knows(
    name: str, flags: list[bool], seed: int, moves: int, bots: bool, hand: int
) -> None:
    """Every seat's samples at a card of the hand are deals it cannot rule out, and the
    kernel's search picks one of its legal cards, the same for the same seed (in the
    first hands of a game: Pluck's plucks come from the second on)."""
    state = card_play(name, flags, seed, moves, bots, hand)
    if state.is_terminal():
        return
    searched = []
    for seat in range(state.players):
        obs = state.observe(seat)
        if name == "buckup" and BuckupDeterminizer(obs).semi:
            # Cards it saw thrown may be in another hand now: searched in Python.
            with pytest.raises(KernelUnsupportedError, match="went into a new stock"):
                kernel_world(obs)
            continue
        check_samples(state, obs)
        searched.append(seat)
    if state.to_act()[0] not in searched:
        return
    obs = state.observe(state.to_act()[0])
    chosen = [
        kernel_search(
            obs,
            seed=seed,
            iterations=300,
            time_budget=None,
            exploration=0.7,
            noise=0.0,
            model_opponents=True,
            weighted=True,
        )
        for _ in range(2)
    ]
    assert chosen[0][0] in obs.legal_actions
    assert chosen[0][1] == 300
    assert chosen[1] == chosen[0]


def accepted(obs: Observation) -> bool:
    """Whether the kernel searches this decision (it refuses some, with a reason)."""
    try:
        kernel_world(obs)
    except KernelUnsupportedError:
        return False
    return True


def voided_position(name: str) -> Observation:
    """A card decision of ``name`` a few tricks in, with a void shown."""
    for seed in range(200):
        state = card_play(name, [], seed, 0, True)
        for _ in range(9):  # a few tricks in, for voids
            if state.phase != PLAYING:
                break
            seat = state.to_act()[0]
            state.apply(seat, state.legal_actions(seat)[-1])
        if state.phase != PLAYING:
            continue
        obs = state.observe(state.to_act()[0])
        voids = pluck_voids(obs) if name == "pluck" else known_voids(obs)
        if any(voids) and accepted(obs):
            return obs
    raise AssertionError(f"no {name} position with a void")


def hidden_plucks_position() -> Observation:
    """A Pluck card decision after plucks between the two other seats."""
    for seed in range(40):
        state = card_play("pluck", [], seed, 0, True)
        heuristic = [make_bot("heuristic", seed=seed + s) for s in range(3)]
        while not state.is_terminal() and state.hands_played < 3:
            if state.is_chance():
                state.apply_chance()
                continue
            seat = state.to_act()[0]
            obs = state.observe(seat)
            ready = state.phase == PLAYING and len(state.trick_cards) >= 4
            if ready and PluckDeterminizer(obs).conditional:
                return obs
            state.apply(seat, heuristic[seat].act(obs))
    raise AssertionError("no Pluck position after hidden plucks")


@pytest.mark.parametrize("name", [*HOOK_GAMES, "pluck after hidden plucks"])
def test_hook_game_samples_are_drawn_as_the_games_determinizer_draws_them(name: str) -> None:
    """The kernel's deals and the game's determinizer's (Euchre's without its inference
    from the calls, so both uniform over the same deals) put each card with each seat
    equally often, within sampling noise, in a position with voids shown (in Pluck also
    after plucks between the two other seats, which couple the cards of each suit:
    docs/games/pluck.md, Plucks)."""
    if name == "pluck after hidden plucks":
        obs, name = hidden_plucks_position(), "pluck"
    else:
        obs = voided_position(name)
    count = 4000
    kernel: Counter[tuple[int, int]] = Counter()
    for sample in native().samples(kernel_world(obs), 3, count):
        for seat, hand in enumerate(sample[:-1]):
            kernel.update((seat, c) for c in range(54) if (hand >> c) & 1)
    python: Counter[tuple[int, int]] = Counter()
    rng = random.Random(3)
    pluck = PluckDeterminizer(obs) if name == "pluck" else None
    other: EuchreDeterminizer | BuckupDeterminizer | None = None
    if name == "euchre":
        other = EuchreDeterminizer(obs, infer_calls=False)
    elif name == "buckup":
        other = BuckupDeterminizer(obs)
    for _ in range(count):
        if pluck is not None:
            hands = [h & ~p for h, p in zip(pluck.position(rng), pluck.played, strict=True)]
        else:
            assert other is not None
            hands = other.sample(rng).hands
        for seat, hand in enumerate(hands):
            python.update((seat, c) for c in range(54) if (hand >> c) & 1)
    for key in set(kernel) | set(python):
        assert abs(kernel[key] - python[key]) / count < 0.05, key


def test_the_hard_bot_searches_euchre_cards_in_the_kernel() -> None:
    """docs/games/euchre.md, Play: the hard bot's card decisions are searched in the
    kernel (its own budget), the auction and the discards in Python; ``kernel=0``
    searches the cards in Python too."""
    state = card_play("euchre", [], 5, 0, True)
    obs = state.observe(state.to_act()[0])
    bot = ISMCTSBot(seed=1, iterations=5, kernel_iterations=777)
    assert bot.act(obs) in obs.legal_actions
    assert bot.last_iterations == 777
    python = ISMCTSBot(seed=1, iterations=5, kernel_iterations=777, kernel=0)
    assert python.act(obs) in obs.legal_actions
    assert python.last_iterations == 5
    auction = card_play("euchre", [], 5, 0, True)
    while auction.phase == PLAYING or auction.is_chance():  # on to the next hand's auction
        if auction.is_chance():
            auction.apply_chance()
            continue
        seat = auction.to_act()[0]
        auction.apply(seat, auction.legal_actions(seat)[0])
    assert auction.phase_name == "auction"
    obs = auction.observe(auction.to_act()[0])
    bot.act(obs)
    assert bot.last_iterations == 5


def test_result_tables_by_team_tricks_or_by_every_outcome() -> None:
    """docs/games/euchre.md, Scoring: a side's points depend on its tricks only, so
    Euchre's results are tabled by team tricks (partners share a table); in Buckup the
    pot goes to the players with two tricks or more (docs/games/buckup.md, Settlement),
    so every way the five tricks can fall among the players in is scored."""
    euchre = card_play("euchre", [], 3, 0, True)
    table = result_table(euchre)
    assert table.outcomes == ()
    assert table.teams == (0b0101, 0b1010, 0b0101, 0b1010)
    assert table.score[:6] == table.score[12:18]  # partners
    buckup = card_play("buckup", [], 1, 0, True)
    assert buckup.phase == PLAYING
    table = result_table(buckup)
    playing = sum(buckup.active) if buckup.active is not None else buckup.players
    assert len(table.outcomes) == math.comb(5 + playing - 1, playing - 1)
    assert len(table.outcome_score) == len(table.outcomes) * buckup.players


@pytest.mark.parametrize("name", [*HOOK_GAMES, "pluck after hidden plucks"])
def test_the_kernel_reads_the_determinizers_hidden_facts(name: str) -> None:
    """The kernel places the hidden cards by the game's own description of them
    (``hidden_facts()``, a :class:`HiddenFacts`), never by the determinizer's internals;
    a determinizer that describes none is searched in Python."""
    from tricktaker.bots.gamesearch import search_for
    from tricktaker.engine.resample import HiddenFacts
    from tricktaker.kernel.hookgames import hook_world_inputs

    if name == "pluck after hidden plucks":
        obs = hidden_plucks_position()
    else:
        obs = voided_position(name)
    sampler = search_for(obs.rules.hooks).determinizer(obs)
    facts = sampler.hidden_facts()  # type: ignore[attr-defined]
    assert isinstance(facts, HiddenFacts)
    assert facts.seat == obs.seat
    assert obs.hand is not None
    assert not facts.unknown & (obs.hand | obs.played)
    assert (facts.split is not None) == (name == "pluck after hidden plucks")
    det = hook_world_inputs(obs, sampler=sampler)[2]
    assert det.unknown == facts.unknown
    assert det.counts == tuple(facts.counts)
    assert det.fixed == tuple(facts.fixed)
    assert det.voids == tuple(facts.voids)

    class Undescribed:
        def sample(self, rng: random.Random) -> GameState:
            return sampler.sample(rng)

    with pytest.raises(KernelUnsupportedError, match="does not describe its hidden facts"):
        hook_world_inputs(obs, sampler=Undescribed())
