"""The coach's exact values (tricktaker.coach.exact): a one-card hand worked out on paper,
the enumeration counted against combinatorial counts, every enumerated deal giving the
seat's observation, refusals, and the sampled values agreeing with the exact ones on a
handful of small positions (bench/coach_agreement.py runs thousands)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import deal, game, load_bench
from tests.plugins.last_trick import LastTrickHooks
from tricktaker import GameState
from tricktaker.bots.gamesearch import search_for
from tricktaker.bots.pimc import rollout_hand
from tricktaker.cards import parse_card
from tricktaker.coach.exact import (
    ExactUnsupportedError,
    TooManyDealsError,
    consistent_deals,
    deal_count,
    exact_hint,
    placement_count,
    placements,
)
from tricktaker.coach.values import hint
from tricktaker.engine.actions import bid
from tricktaker.engine.resample import HiddenFacts
from tricktaker.games.euchre.search import EuchreDeterminizer
from tricktaker.rules import load_ruleset

agreement = load_bench("coach_agreement")


def _one_card_hand() -> tuple[GameState, int]:
    """Blackout, three players, the first hand (one card each): the eldest (seat 1)
    holds the 2 of clubs, hearts are trumps (the 5 of hearts turned up)."""
    state = game("blackout", 3, first_dealer=0)
    deal(state, ["KD", "2C", "QS"], turn_up="5H")
    return state, 1


def test_one_card_hand_worked_out_on_paper() -> None:
    """docs/games/blackout.md: "Deal and trump" (the turn-up names the trump), "Bidding"
    (the eldest bids first, so no bid weighs the deals), "Play" (follow suit if you can,
    else any card; the highest trump, else the highest card of the suit led, wins) and
    "Scoring" (1 point a trick, 10 more for exactly the bid).

    The eldest leads its 2 of clubs. Of the 50 cards it cannot see (the deck less its card
    and the turn-up), 12 clubs and 12 hearts beat it; it wins only if both others hold one
    of the other 26: 26/50 * 25/49 = 13/49. Bid 1: 11 points when it wins, 0 when not,
    11 * 13/49 = 143/49. Bid 0: 1 point when it wins, 10 when not, (13 + 360)/49 = 373/49.
    Every placement of the two others' cards is a deal: 50 * 49 = 2,450."""
    state, seat = _one_card_hand()
    observation = state.observe(seat)
    assert deal_count(observation) == 50 * 49
    exact = exact_hint(observation)
    assert exact.exact
    assert exact.best == bid(0)
    assert [choice.action for choice in exact.choices] == [bid(0), bid(1)]
    win = Fraction(13, 49)
    expected = {bid(1): 11 * win, bid(0): 1 * win + 10 * (1 - win)}
    for choice in exact.choices:
        assert choice.mean == pytest.approx(float(expected[choice.action]), abs=1e-12)
        assert choice.stderr == 0.0
        assert choice.samples == 2450
    assert exact.value_of(bid(1)).make_chance == pytest.approx(float(win))
    assert exact.value_of(bid(0)).make_chance == pytest.approx(float(1 - win))


def _brute_force(facts: HiddenFacts, suit_of: list[int]) -> set[tuple[int, ...]]:
    """Every placement of the facts by trying every assignment of the cards to a place."""
    cards = facts.unknown_cards()
    places = [*facts.hidden, -1]
    found = set()
    for assignment in itertools.product(places, repeat=len(cards)):
        hands = [0] * facts.players
        for card, place in zip(cards, assignment, strict=True):
            if place >= 0:
                if (facts.voids[place] >> suit_of[card]) & 1:
                    break
                hands[place] |= 1 << card
        else:
            if all(hands[s].bit_count() == facts.counts[s] for s in facts.hidden):
                found.add(tuple(hands))
    return found


def test_placements_match_a_brute_force_count() -> None:
    """Two clubs, two diamonds, two hearts and a spade to place: seat 1 holds two and has
    shown no clubs, seat 2 holds two and no diamonds or hearts, seat 3 holds one; the
    other two cards are out of play."""
    suit_of = [card // 13 for card in range(52)]
    unknown = [parse_card(c) for c in ("2C", "3C", "2D", "3D", "2H", "3H", "2S")]
    facts = HiddenFacts(
        seat=0,
        hidden=(1, 2, 3),
        counts=(0, 2, 2, 1),
        voids=(0, 0b0001, 0b0110, 0),
        unknown=sum(1 << card for card in unknown),
        fixed=(0, 0, 0, 0),
    )
    listed = list(placements(facts, tuple(suit_of)))
    truth = _brute_force(facts, suit_of)
    assert len(listed) == len(truth) == placement_count(facts, tuple(suit_of))
    assert {p.hands for p in listed} == truth
    assert sum(p.probability for p in listed) == pytest.approx(1.0)
    # Without voids the count is the multinomial 7! / (2! 2! 1! 2!).
    free = HiddenFacts(
        seat=0,
        hidden=(1, 2, 3),
        counts=(0, 2, 2, 1),
        voids=(0, 0, 0, 0),
        unknown=facts.unknown,
        fixed=(0, 0, 0, 0),
    )
    assert placement_count(free) == math.factorial(7) // (2 * 2 * 1 * 2)


def test_every_enumerated_deal_is_distinct_and_gives_the_observation() -> None:
    """Two-player Blackout's third hand (three cards each) after its first trick: the
    deals enumerated are as many as counted (the other seat's two cards of the 47 unseen,
    less the suit it showed void in if it did), all different in the hidden hands, the
    real one among them, and each gives the seat's observation (checked inside, and again
    here)."""
    state = game("blackout", 2, first_dealer=0)
    while state.hands_played < 2 or len(state.trick_winners) < 1:
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    seat = state.to_act()[0]
    observation = state.observe(seat)
    (trick,) = observation.tricks
    (_, led), (_, followed) = trick
    assert observation.tables is not None
    suit_of = observation.tables.suit_of
    unseen = [
        card
        for card in range(52)
        if not ((observation.hand or 0) | observation.played) >> card & 1
        and card != observation.turn_up
    ]
    assert len(unseen) == 47  # 52 less its two cards, the two played and the turn-up
    if suit_of[followed] != suit_of[led]:  # the other seat showed a void in the suit led
        unseen = [card for card in unseen if suit_of[card] != suit_of[led]]
    deals = consistent_deals(observation)
    assert len(deals.states) == deal_count(observation) == math.comb(len(unseen), 2)
    hidden = {tuple(s.hands) for s in deals.states}
    assert len(hidden) == len(deals.states)
    assert tuple(state.hands) in hidden  # the real deal is one of them
    for sampled in deals.states[:50]:
        assert sampled.observe(seat).hand == observation.hand
        assert sampled.observe(seat).legal_actions == observation.legal_actions
    assert deals.unweighed == ()


def test_too_many_deals_are_refused_naming_the_count() -> None:
    state = game("blackout", 3, first_dealer=0)
    deal(state, ["KD", "2C", "QS"], turn_up="5H")
    with pytest.raises(TooManyDealsError, match="2,450 deals") as refused:
        exact_hint(state.observe(1), limit=1000)
    assert refused.value.count == 2450


def test_a_seat_without_a_decision_is_refused() -> None:
    state, _ = _one_card_hand()
    with pytest.raises(ValueError, match="no decision"):
        exact_hint(state.observe(0))


def test_a_hidden_bid_is_refused() -> None:
    """Kachuful's bids are simultaneous: a bid made but not yet shown depends on the
    hidden cards, which relabelling cannot follow."""
    state = game("kachuful", 3, first_dealer=0)
    state.apply_chance()
    first = state.to_act()[0]
    state.apply(first, state.legal_actions(first)[0])
    other = next(s for s in state.to_act() if s != first)
    with pytest.raises(ExactUnsupportedError, match="bid"):
        deal_count(state.observe(other))


@pytest.mark.parametrize(("name", "players"), [("blackout", 3), ("pluck", 3), ("euchre", 4)])
def test_sampled_values_agree_with_exact_ones(name: str, players: int) -> None:
    """On a handful of small positions the sampled means lie within four of their stated
    standard errors of the exact values (a looser bound than the bench's 3, for a test
    that must not flake), and the sampled best choice is a best exact choice within two
    standard errors. Euchre's sampler infers from the calls by how it samples; the exact
    values weigh each deal by how much likelier it draws it (its ``deal_weight``)."""
    rules = load_ruleset(name)
    checked = 0
    for seed in range(6):
        for observation in agreement.small_positions(rules, players, seed, limit=800, cards=2):
            exact = exact_hint(observation, limit=800)
            sampled = hint(observation, deals=300, seed=seed)
            tally = agreement.Tally()
            tally.add(sampled, exact)
            assert tally.best_tolerant == 1, (observation, exact, sampled)
            for value in exact.choices:
                guess = sampled.value_of(value.action)
                assert abs(guess.mean - value.mean) <= 4 * guess.stderr + 1e-9
            checked += 1
            if checked == 4:
                return
    assert checked > 0


def test_pluck_hidden_plucks_split_the_cards_by_weighted_choices() -> None:
    """After plucks the seat did not see, Pluck's facts couple the suits
    (:class:`~tricktaker.engine.resample.SplitChoices`): every path of the choice graph
    is listed once, the probabilities add up to 1, and the sampled values agree."""
    rules = load_ruleset("pluck")
    for seed in range(20):
        for observation in agreement.small_positions(rules, 3, seed, limit=800, cards=3):
            sampler: Any = search_for(rules.hooks).determinizer(observation)
            facts = sampler.hidden_facts()
            if facts.split is None:
                continue
            listed = list(placements(facts))
            assert len({p.hands for p in listed}) == len(listed) == deal_count(observation)
            assert sum(p.probability for p in listed) == pytest.approx(1.0)
            exact = exact_hint(observation)
            sampled = hint(observation, deals=300, seed=seed)
            for value in exact.choices:
                guess = sampled.value_of(value.action)
                assert abs(guess.mean - value.mean) <= 4 * guess.stderr + 1e-9
            return
    pytest.fail("no Pluck position after hidden plucks in 20 games")


def test_the_play_out_does_not_depend_on_the_seed() -> None:
    """The rollout policy reads no random numbers and the play-outs meet no chance step,
    so one play-out per deal and choice is its exact result: the same with any seed."""
    rules = load_ruleset("euchre")
    observation = next(agreement.small_positions(rules, 4, 0, limit=800, cards=2))
    game_search = search_for(rules.hooks)
    deals = consistent_deals(observation, limit=800)
    for state in deals.states[:40]:
        results = set()
        for seed in (1, 2):
            trial = state.clone()
            trial.reseed(seed)
            trial.apply(observation.seat, observation.legal_actions[0])
            rollout_hand(trial, game_search)
            results.add(trial.history[-1])
        assert len(results) == 1


def test_a_game_written_outside_the_package_gets_exact_values() -> None:
    """tests/plugins/last_trick.py declares only its search support (sampled by the
    generic replay determinizer): its small positions get exact values too, and the
    sampled ones agree with them."""
    rules = load_ruleset(Path(__file__).parents[1] / "plugins" / "last_trick.toml")
    assert isinstance(rules.hooks, LastTrickHooks)
    checked = 0
    for seed in range(6):
        for observation in agreement.small_positions(rules, 3, seed, limit=800, cards=2):
            exact = exact_hint(observation, limit=800)
            sampled = hint(observation, deals=200, seed=seed)
            for value in exact.choices:
                guess = sampled.value_of(value.action)
                assert abs(guess.mean - value.mean) <= 4 * guess.stderr + 1e-9
            checked += 1
            if checked == 2:
                return
    assert checked > 0


def test_the_agreement_bench_runs_and_reports() -> None:
    """bench/coach_agreement.py (its figures are in bench/README.md) still runs: a row
    per ruleset, its family and all, with the refusals counted."""
    refusals: dict[str, Any] = {}
    rows = agreement.run(
        ["blackout"],
        positions=2,
        deals=40,
        limit=500,
        cards=2,
        max_games=3,
        seed=0,
        kernel=False,
        progress=False,
        refusals=refusals,
    )
    assert [row["group"] for row in rows] == ["blackout", "no hooks", "all"]
    assert rows[0]["positions"] == 2
    assert "blackout" in agreement.render(rows)
    assert refusals["blackout"].too_many  # larger positions were passed over


def test_euchre_deal_weight_is_the_inference_the_sampler_draws_by() -> None:
    """Euchre's determinizer samples by its inference from the calls (rejection, no
    ``weight``): its ``deal_weight`` tells the exact values how much likelier each
    placement is drawn; 1 everywhere without the inference, varying with it."""
    rules = load_ruleset("euchre")
    observation = next(agreement.small_positions(rules, 4, 0, limit=800, cards=2))
    deals = consistent_deals(observation, limit=800)
    assert deals.unweighed == ()
    inferred = EuchreDeterminizer(observation)
    uniform = EuchreDeterminizer(observation, infer_calls=False)
    assert inferred.infer
    weights = [inferred.deal_weight(state) for state in deals.states]
    assert {uniform.deal_weight(state) for state in deals.states} == {1.0}
    assert min(weights) > 0
    assert max(weights) > min(weights)
    total = sum(deals.weights)
    assert [w / total for w in deals.weights] == pytest.approx([w / sum(weights) for w in weights])
