"""bench/openspiel_adapter.py: OpenSpiel oh_hell states as one seat's tricktaker Observation.

Needs OpenSpiel (the ``bench`` extra); without it the module is skipped.

The reference is a tricktaker game built from the same deal (test-only: it reads the whole
OpenSpiel history): at every decision point, for every seat, the adapter's observation
must equal the one tricktaker's own engine gives. The adapter itself only ever sees the
seat's information state, which a guard object enforces.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any

import pytest

from tests.helpers import load_bench, require_module
from tricktaker import GameState, new_game
from tricktaker.bots import make_bot
from tricktaker.cards import card_set, cards_of, parse_card
from tricktaker.engine.actions import BID, PLAY, Action
from tricktaker.engine.base import ChanceOutcome
from tricktaker.engine.observation import Observation

pyspiel = require_module("pyspiel", "pip install -e '.[bench]'")


def _load(name: str) -> ModuleType:
    return load_bench(name, name)


adapter_mod = _load("openspiel_adapter")
GAME = pyspiel.load_game("oh_hell", adapter_mod.OPENSPIEL_PARAMS)
ADAPTER = adapter_mod.OhHellAdapter()
PLAYERS = 4
SIZE = 12


class Guard:
    """A state wrapper that lets through only what one seat may see."""

    def __init__(self, state: Any, seat: int) -> None:
        self._state = state
        self._seat = seat

    def information_state_tensor(self, player: int) -> Sequence[float]:
        assert player == self._seat, "the adapter asked for another seat's information"
        return list(self._state.information_state_tensor(player))

    def current_player(self) -> int:
        return int(self._state.current_player())

    def legal_actions(self, player: int) -> Sequence[int]:
        assert player == self._seat, "the adapter asked for another seat's legal actions"
        return list(self._state.legal_actions(player))


def _deal_from_history(state: Any) -> tuple[int, list[list[int]], int]:
    """Dealer, each seat's dealt OpenSpiel cards and the trump card (test-only: all seen)."""
    history = list(state.history())
    dealer = history[1]
    cards = history[2 : 2 + PLAYERS * SIZE]
    hands = [cards[seat::PLAYERS] for seat in range(PLAYERS)]
    return dealer, hands, history[2 + PLAYERS * SIZE]


def _mirror(state: Any) -> GameState:
    """The tricktaker game with the same deal, bids and plays as OpenSpiel ``state``."""
    dealer, hands, trump = _deal_from_history(state)
    mirror = new_game(ADAPTER.rules, players=PLAYERS, first_dealer=dealer)
    tt_hands = [[adapter_mod.card_from_openspiel(c) for c in hand] for hand in hands]
    order = mirror.deck_order_for(tt_hands, turn_up=adapter_mod.card_from_openspiel(trump))
    mirror.apply_chance(ChanceOutcome("deal", order))
    for action in list(state.history())[3 + PLAYERS * SIZE :]:
        seat = mirror.to_act()[0]
        mirror.apply(seat, adapter_mod.action_from_openspiel(action))
    return mirror


def _new_dealt_state(rng: random.Random) -> Any:
    state = GAME.new_initial_state()
    while state.is_chance_node():
        outcomes = [a for a, _ in state.chance_outcomes()]
        state.apply_action(rng.choice(outcomes))
    return state


def _random_games(games: int, seed: int) -> Iterator[Any]:
    """Every decision node of ``games`` random OpenSpiel games."""
    rng = random.Random(seed)
    for _ in range(games):
        state = _new_dealt_state(rng)
        while not state.is_terminal():
            yield state
            state.apply_action(rng.choice(state.legal_actions()))


def _observe(state: Any, seat: int) -> Observation:
    obs: Observation = ADAPTER.observe(Guard(state, seat), seat)
    return obs


def _cards_in(obs: Observation) -> set[int]:
    """Every card id any field of the observation mentions."""
    cards = set(cards_of(obs.hand)) if obs.hand is not None else set()
    if obs.turn_up is not None:
        cards.add(obs.turn_up)
    for trick in (*obs.tricks, obs.current_trick):
        cards.update(card for _, card in trick)
    cards.update(int(a.value) for a in obs.legal_actions if a.kind == PLAY)
    return cards


def test_card_and_action_mapping() -> None:
    state = GAME.new_initial_state()
    state.apply_action(SIZE)  # the number of tricks
    state.apply_action(0)  # the dealer; now the deal, whose actions are cards
    names = [state.action_to_string(-1, c) for c in range(52)]
    assert names[:4] == ["C2", "D2", "S2", "H2"]
    for card, name in enumerate(names):
        suit, rank = name[0], name[1]
        tt = adapter_mod.card_from_openspiel(card)
        assert tt == parse_card(("10" if rank == "T" else rank) + suit)
        assert adapter_mod.card_to_openspiel(tt) == card
        assert adapter_mod.action_to_openspiel(Action(PLAY, tt)) == card
    for bid in range(SIZE + 1):
        assert adapter_mod.action_from_openspiel(52 + bid) == Action(BID, bid)
        assert adapter_mod.action_to_openspiel(Action(BID, bid)) == 52 + bid
    with pytest.raises(ValueError, match="no bid"):
        adapter_mod.action_to_openspiel(Action(BID, 13))
    with pytest.raises(ValueError, match="standard card"):
        adapter_mod.action_to_openspiel(Action(PLAY, 52))


def test_game_and_rules_match() -> None:
    adapter_mod.check_game(GAME)
    with pytest.raises(ValueError, match="needs oh_hell"):
        adapter_mod.check_game(pyspiel.load_game("oh_hell", {"players": 4}))
    rules = ADAPTER.rules
    assert [h.hand_size for h in rules.hands_for(PLAYERS)] == [SIZE]
    assert rules.spec.bidding.hook
    assert rules.spec.trump.method == "turn_up"
    assert rules.spec.play.follow_suit
    assert not rules.spec.play.must_trump
    assert rules.spec.play.trump_lead == "any"


def test_observation_equals_tricktaker_own_at_every_node() -> None:
    """For every seat at every decision node: the same Observation the engine gives."""
    nodes = 0
    for state in _random_games(12, seed=1):
        mirror = _mirror(state)
        assert mirror.to_act() == (state.current_player(),)
        for seat in range(PLAYERS):
            assert _observe(state, seat) == mirror.observe(seat)
        nodes += 1
    assert nodes == 12 * 52


def test_no_hidden_card_leaks() -> None:
    for state in _random_games(10, seed=2):
        dealer, hands, trump = _deal_from_history(state)
        played = {a for a in list(state.history())[3 + PLAYERS * SIZE :] if a < 52}
        for seat in range(PLAYERS):
            obs = _observe(state, seat)
            held = card_set(adapter_mod.card_from_openspiel(c) for c in hands[seat])
            held &= ~card_set(adapter_mod.card_from_openspiel(c) for c in played)
            assert obs.hand == held
            allowed = {adapter_mod.card_from_openspiel(c) for c in (*hands[seat], *played, trump)}
            assert _cards_in(obs) <= allowed
            hidden = {
                adapter_mod.card_from_openspiel(c)
                for other in range(PLAYERS)
                if other != seat
                for c in hands[other]
                if c not in played
            }
            assert not _cards_in(obs) & hidden
            assert obs.dealer == dealer


def test_observation_is_the_same_in_every_world_the_seat_cannot_tell_apart() -> None:
    """Resampling the other seats' hidden cards changes nothing the seat is shown."""
    rng = random.Random(3)
    sampler = random.Random(7).random
    checked = 0
    for state in _random_games(6, seed=3):
        if rng.random() > 0.3:
            continue
        seat = rng.randrange(PLAYERS)
        world = state.resample_from_infostate(seat, sampler)
        original = _observe(state, seat)
        assert _observe(world, seat) == original
        checked += 1
    assert checked > 20


def test_bids_plays_and_trump_translate() -> None:
    rng = random.Random(4)
    state = _new_dealt_state(rng)
    dealer, hands, trump = _deal_from_history(state)
    first = (dealer + 1) % PLAYERS
    obs = _observe(state, first)
    assert obs.phase == "bidding"
    assert obs.to_act == (first,)
    assert obs.turn_up == adapter_mod.card_from_openspiel(trump)
    assert obs.turn_up is not None
    assert obs.trump == obs.turn_up // 13
    assert obs.leader == first
    assert [a.value for a in obs.legal_actions] == list(range(SIZE + 1))
    bids = [3, 0, 5]
    for bid in bids:
        state.apply_action(52 + bid)
    last = _observe(state, dealer)
    assert last.bids == tuple(
        bids[(seat - first) % PLAYERS] if seat != dealer else None for seat in range(PLAYERS)
    )
    # The hook: the dealer may not make the total 12.
    assert [a.value for a in last.legal_actions] == [b for b in range(SIZE + 1) if b != 4]
    state.apply_action(52 + 2)
    lead = _observe(state, first)
    assert lead.phase == "playing"
    assert lead.leader == first
    assert {a.value for a in lead.legal_actions} == {
        adapter_mod.card_from_openspiel(c) for c in hands[first]
    }
    card = int(lead.legal_actions[0].value)
    state.apply_action(adapter_mod.action_to_openspiel(lead.legal_actions[0]))
    after = _observe(state, (first + 1) % PLAYERS)
    assert after.current_trick == ((first, card),)
    assert after.cards_in_hand == SIZE


def test_legal_actions_map_both_ways() -> None:
    for state in _random_games(5, seed=5):
        seat = state.current_player()
        obs = _observe(state, seat)
        openspiel = sorted(state.legal_actions(seat))
        assert sorted(adapter_mod.action_to_openspiel(a) for a in obs.legal_actions) == openspiel
        for other in range(PLAYERS):
            if other != seat:
                assert _observe(state, other).legal_actions == ()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_heuristic_bot_plays_whole_games_through_the_adapter(seed: int) -> None:
    rng = random.Random(seed)
    bots = [make_bot("heuristic", seed=seed * 10 + seat) for seat in range(PLAYERS)]
    state = _new_dealt_state(rng)
    moves = 0
    while not state.is_terminal():
        seat = state.current_player()
        action = bots[seat].act(_observe(state, seat))
        state.apply_action(adapter_mod.action_to_openspiel(action))
        moves += 1
    assert moves == PLAYERS + PLAYERS * SIZE
    mirror = _mirror(state)
    assert mirror.is_terminal()
    assert list(state.returns()) == [float(s) for s in mirror.scores]


_load("openspiel_settings")  # vs_openspiel imports it by name
vs_openspiel = _load("vs_openspiel")


def test_head_to_head_harness_runs() -> None:
    # OpenSpiel's ISMCTS is seeded, but its choices are not bit-reproducible across
    # runs (its tree iterates hash maps), so only the shape of the result is checked.
    summary = vs_openspiel.run(bot="heuristic", hands=2, sims=20, seed=5, vs_random=False)
    assert summary["deals"] == 1
    assert summary["hands"] == 2
    assert summary["ours"]["seat_hands"] == summary["theirs"]["seat_hands"] == 4
    assert summary["ours"]["moves"] == summary["theirs"]["moves"] == 2 * 2 * (1 + SIZE)
    assert 0.0 <= summary["ours"]["exact_rate"] <= 1.0
    assert summary["config"]["ismcts"]["max_simulations"] == 20
    assert "difference" in vs_openspiel.format_report(summary)


def test_head_to_head_against_random_seats_ours_at_each_seat_reproducibly() -> None:
    summary = vs_openspiel.run(bot="heuristic", hands=4, sims=1, seed=0, vs_random=True)
    again = vs_openspiel.run(bot="heuristic", hands=4, sims=1, seed=0, vs_random=True)
    for side in ("ours", "theirs"):
        for key in ("mean_points", "exact_rate"):
            assert summary[side][key] == again[side][key]
    assert summary["hands"] == 4
    assert summary["seatings"] == [[0], [1], [2], [3]]
    assert summary["ours"]["seat_hands"] == 4
    assert summary["theirs"]["seat_hands"] == 12
    assert summary["config"]["opponent"] == "random"
    for side in ("ours", "theirs"):  # every seat-hand is exact, over or under its bid
        counts = summary[side]
        exact = round(counts["exact_rate"] * counts["seat_hands"])
        assert exact + counts["over"] + counts["under"] == counts["seat_hands"]


def test_match_time_gives_our_bot_openspiels_median_time_less_our_overhead() -> None:
    match = vs_openspiel.TimeMatch(keep=4, start=0.02)
    assert match.budget() == 0.02  # nothing measured yet
    match.theirs.extend([0.010, 0.030, 0.050, 0.070, 0.090])  # the last 4 are kept
    match.overhead.extend([0.002, 0.004, 0.006])
    assert abs(match.budget() - (0.060 - 0.004)) < 1e-12
    match.overhead.extend([1.0, 1.0, 1.0])
    assert match.budget() == 0.001  # never below a millisecond


def test_match_time_sets_the_search_bots_budget_in_a_head_to_head() -> None:
    summary = vs_openspiel.run(
        bot="ismcts:iterations=1000000000",
        hands=2,
        sims=20,
        seed=5,
        vs_random=False,
        match_time=True,
    )
    assert summary["config"]["match_time"] is True
    # 20 simulations take OpenSpiel well under a second, and so, matched, does our search
    # (which, uncapped at 10⁹ iterations, would take many minutes a move).
    assert summary["ours"]["ms_per_move_max"] < 1000
    with pytest.raises(ValueError, match="time budget"):
        vs_openspiel.run(
            bot="heuristic", hands=2, sims=20, seed=5, vs_random=False, match_time=True
        )


def test_openspiels_ismcts_can_take_our_seat_against_random_players() -> None:
    summary = vs_openspiel.run(bot="openspiel_ismcts", hands=4, sims=20, seed=0, vs_random=True)
    assert summary["ours"]["seat_hands"] == 4
    assert summary["ours"]["adapter_ms_per_move_mean"] is None  # no Observation built
    # Head to head it plays the mirror match (its level against itself on those deals),
    # but it has no time budget to match.
    mirror = vs_openspiel.run(bot="openspiel_ismcts", hands=2, sims=20, seed=0, vs_random=False)
    assert mirror["ours"]["seat_hands"] == mirror["theirs"]["seat_hands"] == 4
    with pytest.raises(ValueError, match="time budget"):
        vs_openspiel.run(
            bot="openspiel_ismcts", hands=2, sims=20, seed=0, vs_random=False, match_time=True
        )


def test_duplicate_deal_is_the_same_for_both_seatings() -> None:
    chance = vs_openspiel.deal_actions(random.Random(0))
    one = vs_openspiel.dealt_state(GAME, chance)
    two = vs_openspiel.dealt_state(GAME, chance)
    assert one.history() == two.history()
    assert one.current_player() == (chance[1] + 1) % PLAYERS


def test_the_bid_bot_makes_the_bids_and_the_bot_plays_the_cards() -> None:
    """``--bid-bot``: a seat asks its bidder at the bids and its player at the cards."""
    game, _ = vs_openspiel._game()
    calls = {"bid": 0, "play": 0}

    def bidder(state: Any) -> int:
        calls["bid"] += 1
        assert min(state.legal_actions()) >= vs_openspiel.BID_OFFSET
        return int(state.legal_actions()[0])

    def player(state: Any) -> int:
        calls["play"] += 1
        assert max(state.legal_actions()) < vs_openspiel.BID_OFFSET
        return int(state.legal_actions()[0])

    seat = vs_openspiel._bids_apart(bidder, player)
    state = vs_openspiel.dealt_state(game, vs_openspiel.deal_actions(random.Random(1)))
    while not state.is_terminal():
        state.apply_action(seat(state))
    assert calls == {"bid": PLAYERS, "play": PLAYERS * SIZE}
    summary = vs_openspiel.run(
        bot="heuristic", bid_bot="openspiel_ismcts", hands=2, sims=20, seed=5, vs_random=False
    )
    assert summary["config"]["bid_bot"] == "openspiel_ismcts"
    assert summary["ours"]["name"] == "openspiel_ismcts bids, heuristic plays"
    assert summary["ours"]["seat_hands"] == 4
