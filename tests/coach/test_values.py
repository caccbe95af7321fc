"""docs/coach.md, the coach's values (tricktaker.coach.values.hint): every legal choice of
every decision kind of every game valued in the game's points, within what the hand can
score, the best first, the same hint for the same seed, the obvious choice where one is
obvious, and the compiled kernel's values agreeing with Python's.

Decisions are reached by playing seeded games with the heuristic bot and keeping the
first position of each kind (the phase and the kind of its first legal action) where the
seat has more than one choice.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest

from tests.coach.positions import decisions
from tests.helpers import OH_HELL_GAMES, deal, game, load_bench
from tests.plugins.last_trick import LastTrickCoach
from tests.postgres import in_ci
from tricktaker import GameState, HandResult, Observation, load_ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.bots.base import bot_decisions
from tricktaker.bots.gamesearch import search_for
from tricktaker.coach import values
from tricktaker.coach.contract import made_bid
from tricktaker.coach.values import MIN_DEALS, UnreachableDecisionError, hint, weighted_mean
from tricktaker.engine.actions import Action, bid
from tricktaker.engine.hooks import capability
from tricktaker.kernel import LOAD_ERROR, available

DECISIONS = {
    **{name: {"bidding", "playing"} for name in OH_HELL_GAMES},
    "caller_clag": {"call_size", "call_kind", "call_modifiers", "bidding", "playing"},
    "pluck": {"pluck", "call_trump", "playing"},
    "euchre": {"auction", "discard", "playing"},
    "buckup": {"ante", "stay_or_fold", "discard", "playing"},
}
"""The decision kinds (phases) each game must reach: every one the issue names."""

DEALS = 6
"""Deals per hint in these tests (enough to have a spread, few enough to be quick)."""


def finished_scores(state: GameState, seat: int) -> set[int]:
    """Every score ``seat`` can get for the hand of ``state`` (in play, its bids made),
    whoever takes the tricks still to play."""
    left = state.hand_size - sum(state.tricks_won)
    scores = set()
    players = state.players
    for split in itertools.product(range(left + 1), repeat=players - 1):
        if sum(split) > left:
            continue
        extra = [*split, left - sum(split)]
        trial = state.clone()
        trial.finish_hand([t + e for t, e in zip(state.tricks_won, extra, strict=True)])
        scores.add(trial.history[-1].hand_scores[seat])
    return scores


def score_bounds(state: GameState, obs: Observation, action: Action) -> tuple[float, float]:
    """What the hand can score for the seat after ``action``: in the Oh Hell family,
    every split of the tricks left once the bids are in (the others bidding their first
    choice); Pluck, tricks minus quota; Euchre, 0 to 2 points; Buckup, no more chips
    than the table holds; in a cooperative ruleset (docs/games/coop_blackout.md,
    Scoring) a chance, 0 to 1."""
    if obs.rules.cooperative:
        return 0.0, 1.0
    if obs.rules.hooks is None or obs.rules.id == "caller_clag":
        trial = state.clone()
        trial.apply(obs.seat, action)
        while trial.phase_name != "playing" and trial.hands_played == state.hands_played:
            if trial.is_chance():
                trial.apply_chance()
            else:
                seat = trial.to_act()[0]
                trial.apply(seat, trial.legal_actions(seat)[0])
        if trial.hands_played != state.hands_played:
            score = trial.history[-1].hand_scores[obs.seat]
            return score, score
        scores = finished_scores(trial, obs.seat)
        return min(scores), max(scores)
    if obs.rules.id == "pluck":
        return -obs.hand_size, obs.hand_size
    if obs.rules.id == "euchre":
        return 0, 2
    view = obs.view
    chips = sum(view.stacks) + view.pot  # type: ignore[union-attr]
    return -chips, chips


@pytest.mark.parametrize("name", sorted(DECISIONS))
def test_every_decision_kind_gets_every_choice_valued(name: str) -> None:
    """Every legal choice is valued, within what the hand can score, the best first, the
    same hint again for the same seed and deals, a chance of making the bid between 0
    and 1 (always one in the Oh Hell family, where every seat bids)."""
    reached = set()
    for state, obs in decisions(name):
        reached.add(obs.phase)
        first = hint(obs, deals=DEALS, seed=5)
        again = hint(obs, deals=DEALS, seed=5)
        assert first.choices == again.choices
        assert first.seat == obs.seat
        assert not first.exact
        assert sorted(map(str, (c.action for c in first.choices))) == sorted(
            map(str, obs.legal_actions)
        )
        assert len(first.choices) == len(obs.legal_actions)
        assert first.best == first.choices[0].action
        assert first.choices[0].mean == max(c.mean for c in first.choices)
        means = [c.mean for c in first.choices]
        assert means == sorted(means, reverse=True)
        for choice in first.choices:
            assert choice.samples == DEALS
            assert math.isfinite(choice.mean)
            assert choice.stderr >= 0
            if choice.make_chance is not None:
                assert 0.0 <= choice.make_chance <= 1.0
            elif obs.rules.hooks is None:
                pytest.fail(f"{name}: no chance of making the bid for {choice.action}")
            if not obs.phase.startswith("call_"):
                low, high = score_bounds(state, obs, choice.action)
                assert low - 1e-9 <= choice.mean <= high + 1e-9, (obs.phase, choice)
    assert reached >= DECISIONS[name], f"{name} reached {reached}"


@pytest.mark.parametrize("name", ["blackout", "pluck", "euchre", "buckup"])
def test_a_different_seed_samples_other_deals(name: str) -> None:
    """The seed picks the deals: a hint is not the same whatever the seed."""
    found = [
        (hint(obs, deals=DEALS, seed=1).choices, hint(obs, deals=DEALS, seed=2).choices)
        for _, obs in decisions(name, seeds=1)
    ]
    assert any(one != two for one, two in found)


def one_card_hand(hands: list[str], turn_up: str) -> GameState:
    """A four-player Blackout game at its first hand (one card each, seat 1 bids
    first), dealt ``hands``."""
    state = game("blackout", 4)
    deal(state, hands, turn_up=turn_up)
    assert state.hand_size == 1
    assert state.to_act() == (1,)
    return state


@pytest.mark.parametrize("kernel", [False, True])
def test_the_top_trump_bids_one(kernel: bool) -> None:
    """A one-card hand holding the ace of trumps takes its trick whatever the others
    hold: bid 1, sure to be made (every deal scores the same, so no uncertainty)."""
    if kernel:
        require_kernel()
    state = one_card_hand(["2C", "AH", "3C", "4C"], turn_up="5H")
    obs = state.observe(1)
    found = hint(obs, deals=40, seed=3, kernel=kernel)
    assert found.best == bid(1)
    best = found.value_of(bid(1))
    assert best.make_chance == 1.0
    assert best.stderr == 0.0
    assert found.value_of(bid(0)).make_chance == 0.0
    assert best.mean > found.value_of(bid(0)).mean


def test_a_low_card_without_trumps_bids_nothing() -> None:
    """The lowest card of a side suit, the others holding the trumps it cannot beat (it
    does not know which): bid 0."""
    state = one_card_hand(["2C", "2D", "KH", "QH"], turn_up="AH")
    found = hint(state.observe(1), deals=40, seed=3)
    assert found.best == bid(0)
    assert found.value_of(bid(0)).mean > found.value_of(bid(1)).mean


def test_a_time_budget_samples_at_least_the_minimum() -> None:
    """``seconds`` bounds the sampling, never below :data:`MIN_DEALS` deals; the hint
    says how long it took."""
    state = one_card_hand(["2C", "AH", "3C", "4C"], turn_up="5H")
    found = hint(state.observe(1), seconds=0.0, kernel=False)
    assert all(choice.samples == MIN_DEALS for choice in found.choices)
    assert found.seconds > 0


def test_a_seat_without_a_decision_is_refused() -> None:
    """No hint for a seat whose turn it is not."""
    state = one_card_hand(["2C", "AH", "3C", "4C"], turn_up="5H")
    with pytest.raises(ValueError, match="no decision"):
        hint(state.observe(2), deals=2)
    with pytest.raises(ValueError, match="at least one deal"):
        hint(state.observe(1), deals=0)


def test_a_decision_between_hands_is_refused_clearly() -> None:
    """A choice whose playing out does not end its own hand has no hand score to value
    it by: the coach says so (no shipped game asks one; a hand already over is one)."""
    state = one_card_hand(["2C", "AH", "3C", "4C"], turn_up="5H")
    with pytest.raises(UnreachableDecisionError, match="does not end the hand"):
        values._score(state.clone(), 1, state.hands_played - 1, search_for(None))


def test_the_weighted_standard_error_uses_the_effective_sample_size() -> None:
    """Kish's effective sample size: two deals of weight 1 and 3 count as 1.6 deals."""
    points, weights = [0.0, 4.0], [1.0, 3.0]
    mean, stderr = weighted_mean(
        sum(weights),
        sum(w * w for w in weights),
        sum(w * x for w, x in zip(weights, points, strict=True)),
        sum(w * x * x for w, x in zip(weights, points, strict=True)),
    )
    assert mean == 3.0
    effective = 16 / 10
    spread = (1 * 9 + 3 * 1) / 4 * effective / (effective - 1)
    assert stderr == pytest.approx(math.sqrt(spread / effective))


def test_the_partners_share_the_teams_points_and_contract() -> None:
    """Euchre: both partners score the team's points (what the coach values), and a
    contract is made or not for the declaring team only."""
    state = new_game(load_ruleset("euchre"), players=4, seed=4)
    bots = [make_bot("heuristic", seed=s) for s in range(4)]
    for _ in bot_decisions(state, bots):
        if state.history:
            break
    result = state.history[-1]
    teams = state.setup.partnerships
    for team in teams:
        assert len({result.hand_scores[s] for s in team}) == 1
    made = [made_bid(state.rules, result, s, teams) for s in range(4)]
    assert {made[s] for s in teams[0]} != {made[s] for s in teams[1]} or made == [None] * 4
    assert len({made[s] for s in teams[0]}) == 1


def require_kernel() -> None:
    """Fail (CI) or skip (elsewhere) when the compiled kernel is not built."""
    if available():
        return
    message = f"the compiled kernel is not built (pip install -e .): {LOAD_ERROR}"
    if in_ci():
        pytest.fail(message)
    pytest.skip(message)


@pytest.mark.parametrize("name", ["blackout", "caller_clag", "pluck", "euchre", "buckup"])
def test_the_kernel_and_python_agree_within_their_errors(name: str) -> None:
    """Where the kernel plays the decision (bids and cards of the Oh Hell family, the hook
    games' cards), its values and Python's, on other deals, differ by no more than their
    standard errors allow (4 of the difference's standard error), both know the chance of
    making the bid where the seat has one (a hook game's card play included: the kernel
    counts it with a made-bid table) and the chances agree."""
    require_kernel()
    compared = 0
    for _, obs in decisions(name, seeds=1):
        if obs.phase not in ("bidding", "playing"):
            continue
        fast = hint(obs, deals=300, seed=11)
        slow = hint(obs, deals=150, seed=12, kernel=False)
        for choice in fast.choices:
            other = slow.value_of(choice.action)
            spread = math.hypot(choice.stderr, other.stderr)
            assert abs(choice.mean - other.mean) <= 4 * spread + 1e-9, (choice, other)
            assert (choice.make_chance is None) == (other.make_chance is None), (choice, other)
            if choice.make_chance is not None and other.make_chance is not None:
                assert abs(choice.make_chance - other.make_chance) <= 0.25
        compared += 1
    assert compared >= 1


@pytest.mark.parametrize("name", ["caller_clag", "pluck", "euchre", "buckup"])
def test_decisions_before_the_card_play_get_pythons_sums_from_the_kernels_card_play(
    name: str,
) -> None:
    """Every decision kind before a hook game's card play (Caller Clag's calls, Pluck's
    plucks and trump call, Euchre's auction and discard, Buckup's ante, stay or fold and
    draws): the staged values (the decisions up to the card play in Python, the card
    plays in the kernel, the hands scored by the engine) are the Python model's sums on
    the same deals, the chance of making the bid included, and the hint is the same
    with the kernel as without."""
    require_kernel()
    before = DECISIONS[name] - {"bidding", "playing"}
    compared = set()
    for _, obs in decisions(name):
        if obs.phase not in before or obs.phase in compared:
            continue
        staged = values.staged_totals(obs, obs.legal_actions, seed=4, stop=lambda done: done >= 6)
        python = values.python_totals(obs, obs.legal_actions, seed=4, stop=lambda done: done >= 6)
        assert staged is not None
        assert staged == python
        if name != "buckup":  # a bid, a contract or a quota to make
            assert any(choice.made_weight > 0 for choice in staged)
        fast, slow = hint(obs, deals=6, seed=4), hint(obs, deals=6, seed=4, kernel=False)
        assert fast.choices == slow.choices
        compared.add(obs.phase)
    assert compared == before


@pytest.mark.parametrize("name", ["blackout", "pluck", "euchre", "buckup"])
def test_a_card_decision_staged_gets_pythons_sums(name: str) -> None:
    """A card decision valued the staged way (as where the kernel cannot sample its
    deals: the game's determinizer samples them, the kernel plays each card's hand out)
    gets the Python model's sums on the same deals."""
    require_kernel()
    for _, obs in decisions(name, seeds=1):
        if obs.phase != "playing":
            continue
        staged = values.staged_totals(obs, obs.legal_actions, seed=4, stop=lambda done: done >= 6)
        python = values.python_totals(obs, obs.legal_actions, seed=4, stop=lambda done: done >= 6)
        assert staged is not None
        assert staged == python
        return
    pytest.fail(f"no card decision of {name}")


def test_the_speed_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """bench/coach_speed.py still runs (no timing asserts): a row per decision kind."""
    bench = load_bench("coach_speed")
    assert bench.main(["--games", "blackout", "--positions", "1", "--seconds", "0.01"]) == 0
    out = capsys.readouterr().out
    assert "bidding" in out
    assert "playing" in out


def test_a_plugin_game_says_what_making_it_means() -> None:
    """A game written outside tricktaker declares the coach's notion of making it (the
    Last Trick plugin: a stake is made by winning the last trick): every stake is
    valued, and a stake of 0 has nothing to make."""
    rules = load_ruleset(Path(__file__).parents[1] / "plugins" / "last_trick.toml")
    assert isinstance(capability(rules.hooks, "coach"), LastTrickCoach)
    state = new_game(rules, players=3, seed=2)
    while state.is_chance():
        state.apply_chance()
    obs = state.observe(state.to_act()[0])
    found = hint(obs, deals=12, seed=1)
    assert {c.action for c in found.choices} == set(obs.legal_actions)
    for choice in found.choices:
        assert (choice.make_chance is None) == (choice.action.value == 0)
    result = HandResult(
        1,
        5,
        0,
        None,
        None,
        ((),) * 3,
        (2, 0, 1),
        (),
        (1, 3, 1),
        (),
        (0,) * 3,
        (0,) * 3,
        extra={"last_trick": 0},
    )
    assert [made_bid(rules, result, seat) for seat in range(3)] == [True, None, False]
