"""The coach's exact values where seats hold unseen cards but play no tricks
(tricktaker.coach.exact, "Seats out of the tricks"): Buckup's folded hands.

docs/games/buckup.md, "Stay or fold": "A folded player keeps their cards face down and
takes no further part in the hand"; "Play": "Only the players who stayed in play";
"Discard and draw": the discards go face down and "Folded hands never go back into the
stock". So late in a hand the seat cannot see the folded hands, the stock or the other
players' discards, and no play-out reads them: the exact values list only the hands of
the players still in, each placement of them equally likely (a count of completions
that is the same for all, checked here by brute force and by counting), and the
sampled values agree with them.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections import Counter
from typing import Any

import pytest

from tests.helpers import load_bench
from tricktaker import new_game
from tricktaker.bots import make_bot
from tricktaker.bots.base import bot_decisions
from tricktaker.bots.gamesearch import search_for
from tricktaker.bots.pimc import rollout_hand
from tricktaker.cards import parse_card
from tricktaker.coach.exact import (
    consistent_deals,
    deal_count,
    exact_hint,
    out_of_tricks,
    placement_count,
    placements,
    unweighed_evidence,
)
from tricktaker.engine.observation import Observation
from tricktaker.engine.resample import HiddenFacts, with_hidden
from tricktaker.rules import load_ruleset

agreement = load_bench("coach_agreement")


def _positions(count: int, cards: int = 2) -> list[Observation]:
    """The first ``count`` small positions of four-player Buckup games played by bots."""
    rules = load_ruleset("buckup")
    found: list[Observation] = []
    for seed in range(20):
        for observation in agreement.small_positions(rules, 4, seed, limit=3000, cards=cards):
            found.append(observation)
            if len(found) == count:
                return found
    return found


def _facts(observation: Observation) -> HiddenFacts:
    sampler: Any = search_for(observation.rules.hooks).determinizer(observation)
    facts = sampler.hidden_facts()
    assert isinstance(facts, HiddenFacts)
    return facts


def test_active_placements_are_equally_likely_by_brute_force() -> None:
    """Seven cards: seat 1 plays (two cards, no clubs), seat 2 is out of the tricks (two
    cards), the other three are out of play. Every full placement tried card by card:
    each placement of seat 1's cards is completed by the same number of them, C(5, 2) =
    10, and those placements are the ones listed without seat 2."""
    suit_of = tuple(card // 13 for card in range(52))
    cards = [parse_card(c) for c in ("2C", "3C", "2D", "3D", "2H", "3H", "2S")]
    facts = HiddenFacts(
        seat=0,
        hidden=(1, 2),
        counts=(0, 2, 2),
        voids=(0, 0b0001, 0),
        unknown=sum(1 << card for card in cards),
        fixed=(0, 0, 0),
    )
    completions: Counter[int] = Counter()
    for places in itertools.product((1, 2, -1), repeat=len(cards)):
        hands = [0, 0, 0]
        for card, place in zip(cards, places, strict=True):
            if place >= 0:
                hands[place] |= 1 << card
        sizes = hands[1].bit_count() == 2 and hands[2].bit_count() == 2
        if sizes and not any(suit_of[card] == 0 for card in cards if hands[1] >> card & 1):
            completions[hands[1]] += 1
    assert set(completions.values()) == {math.comb(5, 2)}
    active = dataclasses.replace(facts, hidden=(1,), counts=(0, 2, 0))
    listed = list(placements(active, suit_of))
    assert {p.hands[1] for p in listed} == set(completions)
    assert {p.probability for p in listed} == {1 / len(completions)}
    assert placement_count(facts, suit_of) == sum(completions.values())


def test_buckup_lists_only_the_players_still_in() -> None:
    """Late in four-player hands: the folded seats are out of the tricks, the deals are
    the placements of the players still in, and each is completed by as many full
    placements as every other (counted with that placement's cards fixed in place), so
    that they add up to the full count (hundreds of millions)."""
    for observation in _positions(3):
        facts = _facts(observation)
        inactive = out_of_tricks(observation, facts)
        assert observation.active is not None
        assert set(inactive) == {s for s in facts.hidden if not observation.active[s]}
        assert inactive  # two players folded in each of these hands
        active_seats = [s for s in facts.hidden if s not in inactive]
        reduced = dataclasses.replace(
            facts,
            hidden=tuple(active_seats),
            counts=tuple(0 if s in inactive else c for s, c in enumerate(facts.counts)),
        )
        assert observation.tables is not None
        suit_of = observation.tables.suit_of
        listed = list(placements(reduced, suit_of))
        assert len(listed) == deal_count(observation)
        full = placement_count(facts, suit_of)
        assert full > 10**6
        completions = set()
        for placement in listed[:: max(1, len(listed) // 15)]:
            held = 0
            for seat in active_seats:
                held |= placement.hands[seat]
            rest = dataclasses.replace(
                facts,
                hidden=inactive,
                counts=tuple(c if s in inactive else 0 for s, c in enumerate(facts.counts)),
                unknown=facts.unknown & ~held,
            )
            completions.add(placement_count(rest, suit_of))
        assert len(completions) == 1
        assert completions.pop() * len(listed) == full


def test_buckup_play_outs_do_not_read_the_folded_hands() -> None:
    """From each listed deal, a folded hand's cards swapped with cards out of play (the
    stock, the discards) leave every choice's play-out, and so its score, the same."""
    rng = random.Random(5)
    checked = 0
    for observation in _positions(3):
        deals = consistent_deals(observation)
        facts = _facts(observation)
        inactive = out_of_tricks(observation, facts)
        game = search_for(observation.rules.hooks)
        for state in deals.states[:: max(1, len(deals.states) // 10)]:
            held = 0
            for cards in state.hands:
                held |= cards
            out = [c for c in range(52) if facts.unknown >> c & 1 and not held >> c & 1]
            hands = list(state.hands)
            for seat in inactive:
                mine = [c for c in range(52) if hands[seat] >> c & 1]
                rng.shuffle(out)
                for old, new in zip(mine, out[:2], strict=False):
                    hands[seat] = hands[seat] & ~(1 << old) | (1 << new)
                    out.remove(new)
                    out.append(old)
            other = with_hidden(state, hands=hands)
            for action in observation.legal_actions:
                results = []
                for start in (state, other):
                    trial = start.clone()
                    trial.apply(observation.seat, action)
                    rollout_hand(trial, game)
                    results.append(trial.history[-1].hand_scores)
                assert results[0] == results[1]
                checked += 1
    assert checked > 20


@pytest.mark.slow  # about 2 s of CPU, 5 s or more on a loaded machine
def test_buckup_sampled_values_agree_with_exact_ones() -> None:
    """The exact values count every deal of the players still in alike (they cannot sum
    the stay-or-fold model over the folded hands, and say so); the coach's deals with
    that weight left out agree with them within four stated standard errors, and the
    sampled best choice is a best exact choice within two."""
    for seed, observation in enumerate(_positions(2)):
        exact = exact_hint(observation)
        assert consistent_deals(observation).unweighed == ("stay or fold", "discards")
        sampled = agreement.uniform_hint(observation, deals=200, seed=seed)
        tally = agreement.Tally()
        tally.add(sampled, exact)
        assert tally.best_tolerant == 1, (observation, exact, sampled)
        for value in exact.choices:
            guess = sampled.value_of(value.action)
            assert abs(guess.mean - value.mean) <= 4 * guess.stderr + 1e-9


@pytest.mark.parametrize("name", ["blackout", "euchre"])
def test_games_where_every_seat_plays_are_listed_whole(name: str) -> None:
    """Where every seat takes part in the tricks, no hand is left unlisted."""
    rules = load_ruleset(name)
    observation = next(agreement.small_positions(rules, 4, 0, limit=800, cards=2))
    assert out_of_tricks(observation, _facts(observation)) == ()


def test_the_agreement_bench_reports_buckup_with_and_without_the_weight() -> None:
    """bench/coach_agreement.py (figures in bench/README.md): a Buckup position counts
    in the ``unweighed`` rows (the coach's weighted hint against the exact values) and
    in the ``uniform`` rows (the hint with the weight left out), by how many others
    play on."""
    rows = agreement.run(
        ["buckup"],
        positions=1,
        deals=30,
        limit=3000,
        cards=2,
        max_games=3,
        seed=0,
        kernel=False,
        progress=False,
    )
    groups = {str(row["group"]): row for row in rows}
    assert groups["buckup unweighed"]["positions"] == 1
    assert groups["buckup uniform"]["positions"] == 1
    assert sum(row["positions"] for name, row in groups.items() if "others in" in name) == 1


def test_a_buckup_hand_nobody_folded_leaves_the_weight_out() -> None:
    """With every player in, no hand is left unlisted, but the stay-or-fold and discard
    model reads the cards each player threw, which the placement does not fix: two
    templates of the same placement weigh differently, so the exact values leave the
    weight out and say so (where every seat plays, in Blackout and Euchre above, they
    weigh as before)."""
    rules = load_ruleset("buckup")
    for seed in range(1, 40):
        state = new_game(rules, players=4, seed=seed)
        bots = [make_bot("random", seed=seed * 17 + s) for s in range(4)]
        for _, observation in bot_decisions(state, bots):
            everyone = observation.active is not None and all(observation.active)
            if observation.phase == "playing" and everyone:
                assert out_of_tricks(observation, _facts(observation)) == ()
                assert unweighed_evidence(observation) == ("stay or fold", "discards")
                return
    pytest.fail("no Buckup hand where every player stayed in, in 39 games")
