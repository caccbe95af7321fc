"""The easy (heuristic) bot beats random players at small and middling tables.

Each strength test plays a few of the arena's duplicate deal sets on a fixed seed (one
heuristic bot, random bots in the other seats, every bot in every seat in turn) and
asks that the heuristic's mean score per hand minus the random bots' mean have its
95% interval (the arena's, one sample per deal set) above zero. ``bench/heuristic_table.py``
runs the same comparison over every game and player count, with more hands.
"""

from __future__ import annotations

import pytest

from tricktaker.arena import ArenaConfig, mean_interval, play_deal_set, play_rotation
from tricktaker.arena.stats import Interval
from tricktaker.bots import make_bot
from tricktaker.bots.heuristic import estimate_tricks, trick_distribution, win_chances
from tricktaker.engine import new_game
from tricktaker.engine.actions import BID, Action
from tricktaker.rules import load_ruleset

from .helpers import at_hand, deal


def heuristic_margin(game: str, players: int, deal_sets: int, seed: int = 0) -> Interval:
    """Heuristic minus random, mean score per hand, with the arena's 95% interval."""
    bots = ("heuristic",) + ("random",) * (players - 1)
    config = ArenaConfig(game, bots=bots, seed=seed)
    totals: list[float] = []
    counts: list[float] = []
    for number in range(deal_sets):
        result = play_deal_set(config, number)
        total = 0.0
        for summary in result.games:
            others = summary.score_sums[1:]
            total += summary.score_sums[0] - sum(others) / len(others)
        totals.append(total)
        counts.append(sum(summary.hands for summary in result.games))
    return mean_interval(totals, counts)


@pytest.mark.parametrize(
    ("game", "players", "deal_sets"),
    [
        ("blackout", 2, 6),
        ("blackout", 3, 6),
        ("blackout", 4, 6),
        ("bluke", 2, 4),
        ("jabberwocky", 3, 6),
        ("kachuful", 3, 6),
        ("la_podrida", 3, 4),
    ],
)
def test_heuristic_beats_random_players(game: str, players: int, deal_sets: int) -> None:
    """docs/games/<game>.md, Scoring: a hand's score is the one the page gives; over the
    same deals the heuristic bot scores more per hand than random players, whatever the
    table size (2-player Blackout, Bluke's jokers and lowest bid of 1, Jabberwocky's hook
    and trump-leading rule, Kachuful's simultaneous bids, La Podrida's must-trump)."""
    margin = heuristic_margin(game, players, deal_sets)
    assert margin.low is not None
    assert margin.low > 0, (game, players, margin)


def all_exact_share(bot: str, players: int, games: int) -> float:
    """Cooperative Blackout with ``bot`` in every seat: the share of hands in which
    everyone was exact, over ``games`` games (the arena's first rotations)."""
    config = ArenaConfig("coop_blackout", bots=(bot,) * players)
    exact = hands = 0
    for number in range(games):
        state, _, _ = play_rotation(config, number, 0)
        exact += sum(result.all_exact for result in state.history)
        hands += len(state.history)
    return exact / hands


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_heuristic_table_moves_on_more_often_in_cooperative_blackout(players: int) -> None:
    """docs/games/coop_blackout.md, Hands and schedule: the table moves on to the next
    hand size only when everyone is exact, so a table of heuristic bots, making more hands
    all exact, finishes the schedule in fewer hands than a table of random bots."""
    heuristic = all_exact_share("heuristic", players, 4)
    random = all_exact_share("random", players, 4)
    assert heuristic > random + 0.05, (heuristic, random)


def test_trick_distribution_adds_up_to_one_and_keeps_the_mean() -> None:
    chances = [0.9, 0.5, 0.2, 0.05]
    dist = trick_distribution(chances)
    assert len(dist) == 5
    assert sum(dist) == pytest.approx(1.0)
    assert sum(t * p for t, p in enumerate(dist)) == pytest.approx(sum(chances))


def test_every_chance_is_a_probability() -> None:
    rules = load_ruleset("blackout")
    for players in (2, 3, 5, 7):
        state = new_game(rules, players=players, seed=players)
        while not state.is_terminal() and state.hands_played < 6:
            if state.is_chance():
                state.apply_chance()
                continue
            for seat in state.to_act():
                obs = state.observe(seat)
                if any(a.kind == BID for a in obs.legal_actions):
                    chances = win_chances(obs)
                    assert len(chances) == obs.hand_size
                    assert all(0.0 <= c <= 1.0 for c in chances)
                    assert estimate_tricks(obs) == pytest.approx(sum(chances))
                state.apply(seat, obs.legal_actions[0])


STRONG = "AS KS QS AH KH AD KD AC KC QC"
WEAK = "2S 3S 4S 2H 3H 2D 3D 4D 2C 3C"


@pytest.mark.parametrize(
    ("seat_hand", "other_hand", "lowest", "highest"),
    [(STRONG, WEAK, 7.0, 10.0), (WEAK, STRONG, 0.0, 3.0)],
)
def test_strong_and_weak_hands_at_two_players(
    seat_hand: str, other_hand: str, lowest: float, highest: float
) -> None:
    """docs/games/blackout.md, Hands and schedule: with two players hand 10 deals ten
    cards each (a turn-up for trump). A hand of top cards expects most of the tricks and
    a hand of the lowest cards almost none; the bot bids near its estimate (the old
    estimate counted only the cards no unseen card could beat, and at two players bid 0
    on nearly every hand)."""
    state = at_hand("blackout", 2, 10)
    seat = state.eldest
    hands = [other_hand, other_hand]
    hands[seat] = seat_hand
    hands[1 - seat] = other_hand
    deal(state, hands, turn_up="5H")
    obs = state.observe(seat)
    estimate = estimate_tricks(obs)
    assert lowest <= estimate <= highest, estimate
    action = make_bot("heuristic").act(obs)
    assert action.kind == BID
    assert abs(int(action.value) - estimate) <= 1.5, (action, estimate)


def test_a_hopeless_hand_passes_in_seven_truf() -> None:
    """docs/games/seven_truf.md, Scoring: a pass (bid 0) with no tricks scores 5 x hand
    size, 40 on an 8-card hand, so the bot passes with the eight lowest cards (the
    expected score of each bid, not the nearest bid to its estimate, decides)."""
    state = at_hand("seven_truf", 4, 8)
    seat = state.eldest
    hands = [
        "AC KC QC JC AD KD QD JD",
        "AH KH QH JH AS KS QS JS",
        "10C 9C 10D 9D 10H 9H 10S 9S",
    ]
    order = [(seat + 1 + i) % 4 for i in range(3)]
    per_seat = [""] * 4
    per_seat[seat] = "7C 8C 7D 8D 7H 8H 7S 8S"
    for other, cards in zip(order, hands, strict=True):
        per_seat[other] = cards
    deal(state, per_seat)
    obs = state.observe(seat)
    assert obs.hand_size == 8
    action = make_bot("heuristic").act(obs)
    assert action == Action(BID, 0)
    assert estimate_tricks(obs) < 1.5
