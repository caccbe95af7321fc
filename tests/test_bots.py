"""Bots (README.md, Command line: "Every bot sees only its own seat's observation"): they
see only an Observation, play only legal actions, are reproducible from their seed, and
the heuristic bot plays better than random."""

from __future__ import annotations

import re
import statistics

import pytest

from tests.helpers import at_hand, deal, make_bids
from tricktaker import GameState, Observation, list_rulesets, load_ruleset, new_game
from tricktaker.bots import (
    BOT_NAMES,
    LEVELS,
    Bot,
    HeuristicBot,
    ISMCTSBot,
    PIMCBot,
    RandomBot,
    make_bot,
    parse_bot_spec,
    play_game,
)
from tricktaker.bots.base import bot_decisions
from tricktaker.cards import parse_card
from tricktaker.engine.actions import Action, play


class CheckingBot:
    """Wraps a bot: checks that it is asked only on its turn and answers legally."""

    def __init__(self, inner: Bot, seat: int) -> None:
        self.inner = inner
        self.seat = seat
        self.name = inner.name
        self.actions = 0

    def act(self, observation: Observation) -> Action:
        assert isinstance(observation, Observation)
        assert observation.seat == self.seat
        assert observation.is_my_turn
        action = self.inner.act(observation)
        assert action in observation.legal_actions, f"{self.name} chose illegal {action}"
        self.actions += 1
        return action


def play_with(state: GameState, names: list[str], seed: int) -> list[CheckingBot]:
    bots = [CheckingBot(make_bot(names[s], seed=seed + s), s) for s in range(state.players)]
    play_game(state, bots)
    return bots


CASES = [
    (name, players) for name in list_rulesets() for players in load_ruleset(name).player_counts
]


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_bots_play_every_game_to_the_end_legally(name: str, players: int) -> None:
    rules = load_ruleset(name)
    for lineup in (["random"] * players, ["heuristic"] * players):
        state = new_game(rules, players=players, seed=players)
        bots = play_with(state, lineup, seed=7)
        assert state.is_terminal()
        assert all(bot.actions > 0 for bot in bots)
        assert state.history


def test_mixed_bots_play_option_variants() -> None:
    variants: list[tuple[str, int, dict[str, object]]] = [
        ("blackout", 4, {"simultaneous_bidding": True, "reverse_deals": True}),
        ("blackout", 3, {"hook": True, "full_rotation": True, "alternate_scoring": True}),
        ("bluke", 3, {"extended": True, "all_dealt_final": True, "min_bid": 0}),
        ("bluke", 6, {"new_jersey": True, "all_dealt_final": True}),
        ("caller_clag", 5, {"hands": 12}),
        ("coop_blackout", 4, {"max_hands": 20}),
        ("up_and_down_the_river", 5, {"hook": True}),
    ]
    for index, (name, players, options) in enumerate(variants):
        state = new_game(load_ruleset(name, options=options), players=players, seed=index)
        names = ["heuristic" if s % 2 else "random" for s in range(players)]
        play_with(state, names, seed=index)
        assert state.is_terminal()


@pytest.mark.parametrize("bot_name", ["random", "heuristic"])
def test_bots_are_deterministic_given_their_seed(bot_name: str) -> None:
    """(The search bots' determinism is tested with cheaper settings in their own files.)"""

    def record(bot_seed: int) -> str:
        state = new_game(load_ruleset("caller_clag"), players=4, seed=5)
        play_game(state, [make_bot(bot_name, seed=bot_seed + s) for s in range(4)])
        return state.record().dumps()

    assert record(1) == record(1)
    assert len({record(1), record(2), record(3)}) > 1


def test_make_bot_by_name() -> None:
    assert set(BOT_NAMES) == {"random", "heuristic", "pimc", "ismcts"}
    for name in BOT_NAMES:
        assert make_bot(name, seed=3).name == name
    assert isinstance(make_bot("random"), RandomBot)
    assert isinstance(make_bot("heuristic"), HeuristicBot)
    with pytest.raises(ValueError, match="unknown bot 'grandmaster'") as info:
        make_bot("grandmaster")
    assert "random" in str(info.value)
    assert "heuristic" in str(info.value)


def test_levels_name_bots_with_budgets() -> None:
    """Difficulty levels (issue 4): easy, medium and hard name bots of rising strength."""
    assert isinstance(make_bot("easy"), HeuristicBot)
    assert isinstance(make_bot("medium"), PIMCBot)
    hard = make_bot("hard", seed=2)
    assert isinstance(hard, ISMCTSBot)
    assert hard.time_budget is not None
    assert hard.time_budget <= 0.25  # issue 14: at most 250 ms a move on the largest hands
    assert set(LEVELS) == {"easy", "medium", "hard"}


def test_bot_settings_are_parsed_and_checked() -> None:
    bot = make_bot("ismcts:iterations=50:exploration=0.5", seed=1)
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.exploration, bot.time_budget) == (50, 0.5, None)
    assert parse_bot_spec("hard:iterations=20") == (
        "ismcts",
        {"iterations": 20, "kernel_iterations": 50000, "time_budget": 0.2},
    )
    pimc = make_bot("pimc:time_budget=0.25")
    assert isinstance(pimc, PIMCBot)
    assert pimc.time_budget == 0.25
    problems = {
        "ismcts:depth=3": "ismcts has no setting 'depth' (settings: iterations",
        "ismcts:iterations": "write each setting as :KEY=VALUE",
        "ismcts:iterations=many": "iterations must be a whole number, not 'many'",
        "pimc:time_budget=soon": "time_budget must be a number, not 'soon'",
        "ismcts:iterations=0": "iterations must be at least 1",
        "random:budget=1": "random has no setting 'budget' (settings: none)",
        "expert": "unknown bot 'expert'; the bots are: random, heuristic, pimc, ismcts, policy",
    }
    for spec, message in problems.items():
        with pytest.raises(ValueError, match=re.escape(message)):
            make_bot(spec)


def test_play_game_needs_one_bot_per_seat() -> None:
    state = new_game(load_ruleset("blackout"), players=4, seed=0)
    with pytest.raises(ValueError, match="one bot per seat"):
        play_game(state, [make_bot("random")] * 3)


def test_bots_refuse_to_act_without_legal_actions() -> None:
    state = new_game(load_ruleset("blackout"), players=4, seed=0, first_dealer=0)
    state.apply_chance()
    waiting = state.observe(2)  # seat 1 bids first
    assert waiting.legal_actions == ()
    for name in BOT_NAMES:
        with pytest.raises(ValueError, match="no legal action"):
            make_bot(name).act(waiting)


# -------------------------------------------------------------------- strength


def test_heuristic_beats_random_bots_in_blackout() -> None:
    """Over 40 games of Blackout with 4 players, one heuristic bot (seat rotating) against
    three random bots scores more on average and makes more exact bids."""
    rules = load_ruleset("blackout")
    margins: list[float] = []
    exact = {"heuristic": 0, "random": 0}
    bids = {"heuristic": 0, "random": 0}
    for number in range(40):
        seat = number % 4
        names = ["heuristic" if s == seat else "random" for s in range(4)]
        state = new_game(rules, players=4, seed=100 + number)
        play_game(state, [make_bot(names[s], seed=1000 * number + s) for s in range(4)])
        others = [state.scores[s] for s in range(4) if s != seat]
        margins.append(state.scores[seat] - statistics.mean(others))
        for hand in state.history:
            for s in range(4):
                bids[names[s]] += 1
                exact[names[s]] += hand.bids[s] == hand.tricks[s]
    assert statistics.mean(margins) > 10, margins
    heuristic_rate = exact["heuristic"] / bids["heuristic"]
    random_rate = exact["random"] / bids["random"]
    assert heuristic_rate > random_rate + 0.1, (heuristic_rate, random_rate)


# ---------------------------------------------------------------------- misere

# docs/games/clag.md, Special hands: hand 12 is misère; everyone bids 0 and tries to take no tricks.
# Dealer of hand 12 with 3 players is seat 2, so seat 0 leads; trumps are spades.
MISERE_HANDS = [
    "2C 9C KC 3D 8D 4H 5S",
    "5C 8C QC 2D 9H 10H 6S",
    "JC AC 4D 5D 6D 7H 8H",
]


def misere_position() -> GameState:
    state = at_hand("clag", 3, 12)
    assert state.dealer == 2
    deal(state, MISERE_HANDS, turn_up="AS")
    make_bids(state, [0, 0, 0])
    assert state.observe(0).misere
    assert state.to_act() == (0,)
    return state


def heuristic_choice(state: GameState) -> int:
    seat = state.to_act()[0]
    action = make_bot("heuristic", seed=0).act(state.observe(seat))
    assert action.kind == "play"
    assert isinstance(action.value, int)
    return action.value


def test_heuristic_leads_its_lowest_card_in_a_misere_hand() -> None:
    assert heuristic_choice(misere_position()) == parse_card("2C")


def test_heuristic_ducks_under_the_winning_card_in_a_misere_hand() -> None:
    state = misere_position()
    state.apply(0, play(parse_card("9C")))
    # 5C and 8C both lose to 9C; QC would take the trick.
    assert heuristic_choice(state) in (parse_card("5C"), parse_card("8C"))


def test_heuristic_that_cannot_lose_the_trick_plays_to_let_others_take_it() -> None:
    state = misere_position()
    state.apply(0, play(parse_card("2C")))
    # Every club of seat 1 beats 2C: it plays the lowest, so seat 2 may still overtake.
    assert heuristic_choice(state) == parse_card("5C")
    state.apply(1, play(parse_card("5C")))
    # Seat 2 plays last and must win with a club: it throws its highest, the ace.
    assert heuristic_choice(state) == parse_card("AC")


def test_heuristic_never_wins_a_misere_trick_it_could_lose() -> None:
    rules = load_ruleset("clag")
    checked = 0
    for number in range(8):
        state = new_game(rules, players=4, seed=number)
        bots = [make_bot("heuristic", seed=number * 10 + s) for s in range(4)]
        while not state.is_terminal():
            if state.is_chance():
                state.apply_chance()
                continue
            seat = state.to_act()[0]
            obs = state.observe(seat)
            action = bots[seat].act(obs)
            if obs.misere and obs.phase == "playing" and obs.current_trick:
                tables = obs.tables
                assert tables is not None
                led = tables.suit_of[obs.current_trick[0][1]]
                best = max(tables.key(c, led) for _, c in obs.current_trick)
                cards = [a.value for a in obs.legal_actions if isinstance(a.value, int)]
                if any(tables.key(c, led) <= best for c in cards):
                    assert isinstance(action.value, int)
                    assert tables.key(action.value, led) <= best
                    checked += 1
            state.apply(seat, action)
    assert checked > 20


def test_bot_decisions_stop_at_each_decision_before_its_bot_acts() -> None:
    """``bot_decisions`` yields every decision of a bot-played game with the state left
    at it (the seat to act, its observation as the state gives it), and plays the game
    to its end when iterated to the end, as ``play_game`` does with the same bots."""
    rules = load_ruleset("blackout")
    state = new_game(rules, players=3, seed=4)
    bots = [make_bot("heuristic", seed=s) for s in range(3)]
    decisions = 0
    for seat, observation in bot_decisions(state, bots):
        assert seat in state.to_act()
        assert observation == state.observe(seat)
        decisions += 1
    assert state.is_terminal()
    played = new_game(rules, players=3, seed=4)
    play_game(played, [make_bot("heuristic", seed=s) for s in range(3)])
    assert played.events == state.events
    assert decisions == sum(1 for _, what in played.events if isinstance(what, Action))
