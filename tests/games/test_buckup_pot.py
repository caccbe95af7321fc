"""Buckup (docs/games/buckup.md), the pot: settlement (winners, the odd chip, burns), the
rolling pot and the game's end, scare cards, hidden information, and random games that
conserve the chips and replay; the hand-built cases of tests/games/buckup_cases.py."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from tests.games.buckup_cases import (
    FILLER,
    LOW,
    START,
    TOP_TRUMPS,
    assert_illegal,
    conserved,
    data,
    four_hands,
    new,
    start,
    stay,
    view,
)
from tests.helpers import act, deal, legal, play_cards
from tricktaker import (
    GameRecord,
    GameState,
    RulesetError,
    load_ruleset,
    new_game,
)
from tricktaker.bots import make_bot
from tricktaker.cards import format_card, parse_card

# ------------------------------------------------------------------- settlement


def case_one_winner(state: GameState) -> None:
    """Seat d+1 holds the top five hearts (trump); d+2 and d+3 stay and are burned; the
    dealer folds. Ante 'drawn', nobody draws: pot 20 + 5."""
    d = state.dealer
    hands = [""] * 4
    hands[(d + 1) % 4] = TOP_TRUMPS
    for i, seat in enumerate(((d + 2) % 4, (d + 3) % 4, d)):
        hands[seat] = FILLER[i]
    start(state, hands, "2H", ante="drawn")
    stay(state, (d + 1) % 4)
    stay(state, (d + 2) % 4)
    stay(state, (d + 3) % 4)
    act(state, d, "fold")
    leader = (d + 1) % 4
    for card in TOP_TRUMPS.split():
        act(state, leader, f"play {card}")
        for seat in ((d + 2) % 4, (d + 3) % 4):
            act(state, seat, str(state.legal_actions(seat)[0]))


def test_one_winner_takes_the_pot_and_the_burned_match_it() -> None:
    """docs/games/buckup.md, Scoring: players who took 2 or more tricks win the pot, a single
    winner takes it all; every player in with fewer than 2 tricks is burned and pays what the pot
    held at settlement; those payments make the next pot."""
    state = new(4)
    case_one_winner(state)
    hand = state.history[-1]
    assert hand.tricks == (0, 5, 0, 0)
    extra = hand.extra
    assert extra["pot_before"] == 0
    assert extra["pot_settled"] == 25
    assert extra["winners"] == [1]
    assert extra["burned"] == [2, 3]
    assert extra["payments"][-3:] == [
        {"seat": 1, "amount": -25, "reason": "win"},
        {"seat": 2, "amount": 25, "reason": "burn"},
        {"seat": 3, "amount": 25, "reason": "burn"},
    ]
    assert extra["pot_after"] == 50
    assert extra["stacks"] == [490, 520, 470, 470]
    assert hand.hand_scores == (-10, 20, -30, -30)
    assert hand.bids == ()
    assert extra["ante"] == {"ante": 5, "fold_fee": 5, "card_fee": 5, "fee_per": "drawn"}
    assert conserved(state)
    # The pot rolls over into the next hand.
    assert view(state)["pot"] == 50
    act(state, 1, "ante kept")
    assert data(state).pot == 70


def test_two_winners_split_and_a_three_trick_winner_takes_the_odd_chip() -> None:
    """docs/games/buckup.md, Scoring: two winners split the pot evenly; the odd chip goes to the
    one who took 3 tricks."""
    state = new(4)
    start(
        state,
        ["7C 8C 9C 10C JC", "AS KS QS 3C 2D", "AC KC 5D 6D 7D", "2H 3H 4H 5H 6H"],
        "2S",
        "drawn",
    )
    stay(state, 1, "2D", drawn="4C")  # pays 5: the pot is odd
    stay(state, 2)
    act(state, 3, "fold")
    act(state, 0, "fold")
    assert data(state).pot == 35
    play_cards(state, ["AS", "5D", "KS", "6D", "QS", "7D", "3C", "AC", "KC", "4C"])
    hand = state.history[-1]
    assert hand.tricks == (0, 3, 2, 0)
    assert hand.extra["winners"] == [1, 2]
    assert hand.extra["burned"] == []
    assert hand.extra["payments"][-2:] == [
        {"seat": 1, "amount": -18, "reason": "win"},
        {"seat": 2, "amount": -17, "reason": "win"},
    ]
    assert hand.extra["pot_after"] == 0
    assert conserved(state)


def test_the_worked_example_of_the_page() -> None:
    """docs/games/buckup.md, Scoring: the worked example, step by step. Seat 3 deals and
    sets 5/5/5; seat 0 folds, seats 1 and 2 keep 2 and 4 cards, the dealer throws all
    five away; 3, 2 and 0 tricks split the 55 chips 28/27 and burn the dealer for 55."""
    state = new(4, dealer=3)
    start(
        state,
        ["7C 8C 9C 10C JC", "AS KS 8D 9D 10D", "AC KC 5D 6D JD", "7H 8H 9H 10H JH"],
        "2S",
    )
    assert data(state).pot == 20
    act(state, 0, "fold")
    assert (data(state).stacks[0], data(state).pot) == (490, 25)
    stay(state, 1, "8D 9D 10D", drawn="QS 3C 4C")
    assert (data(state).stacks[1], data(state).pot) == (485, 35)
    stay(state, 2, "JD", drawn="7D")
    assert (data(state).stacks[2], data(state).pot) == (475, 55)
    stay(state, 3, "7H 8H 9H 10H JH", drawn="2H 3H 4H 5H 6H")
    assert (data(state).stacks[3], data(state).pot) == (495, 55)
    play_cards(
        state,
        ["AS", "5D", "2H", "KS", "6D", "3H", "QS", "7D", "4H", "3C", "AC", "5H", "KC", "6H", "4C"],
    )
    hand = state.history[-1]
    assert hand.tricks == (0, 3, 2, 0)
    assert hand.extra["winners"] == [1, 2]
    assert hand.extra["burned"] == [3]
    assert data(state).stacks == [490, 513, 502, 440]
    assert data(state).pot == 55
    assert hand.hand_scores == (-10, 13, 2, -60)
    assert conserved(state)


def test_two_winners_with_two_tricks_each_leave_the_odd_chip_in_the_pot() -> None:
    """docs/games/buckup.md, Scoring: if both winners took 2 tricks the odd chip stays in the pot
    for the next hand."""
    state = new(4)
    hands = ["7C 8C 9C 10C JC", "AS KS 2C 3C 4C", "AH KH 2D 3D 4D", "AC 5H 6H 5D 6D"]
    start(state, hands, "2S", "drawn")
    stay(state, 1)
    stay(state, 2)
    stay(state, 3)
    act(state, 0, "fold")
    assert data(state).pot == 25
    play_cards(
        state,
        ["AS", "2D", "5D", "KS", "3D", "6D", "2C", "4D", "AC", "5H", "3C", "AH", "KH", "6H", "4C"],
    )
    hand = state.history[-1]
    assert hand.tricks == (0, 2, 2, 1)
    assert hand.extra["winners"] == [1, 2]
    assert hand.extra["burned"] == [3]
    assert hand.extra["payments"][-3:] == [
        {"seat": 1, "amount": -12, "reason": "win"},
        {"seat": 2, "amount": -12, "reason": "win"},
        {"seat": 3, "amount": 25, "reason": "burn"},
    ]
    assert hand.extra["pot_after"] == 1 + 25
    assert conserved(state)


def test_nobody_takes_two_tricks_the_pot_stays_and_everyone_in_is_burned() -> None:
    """docs/games/buckup.md, Scoring: if nobody took 2 tricks the pot stays and every burned
    player still matches it."""
    state = new(5)
    hands = [
        "KC 2C 9D 8H 10D",
        "AC 2D 3H 4H 5H",
        "AD 2H 3D 4D 5D",
        "AH 3S 6D 7D 8D",
        "AS 3C 4C 6H 7H",
    ]
    start(state, hands, "2S", "drawn")
    for seat in (1, 2, 3, 4, 0):
        stay(state, seat)
    assert data(state).pot == 25
    play_cards(
        state,
        [
            *["AC", "3D", "6D", "4C", "2C"],
            *["2D", "AD", "7D", "6H", "9D"],
            *["2H", "AH", "7H", "8H", "3H"],
            *["3S", "AS", "10D", "4H", "4D"],
            *["3C", "KC", "5H", "5D", "8D"],
        ],
    )
    hand = state.history[-1]
    assert hand.tricks == (1, 1, 1, 1, 1)
    assert hand.extra["winners"] == []
    assert hand.extra["burned"] == [0, 1, 2, 3, 4]
    assert hand.extra["pot_after"] == 25 + 5 * 25
    assert hand.hand_scores == (-30,) * 5
    assert conserved(state)


# ------------------------------------------------------------ rolling pot, game end


def test_the_game_is_extended_until_the_pot_is_empty() -> None:
    """docs/games/buckup.md, End of the game: the pot rolls over until won; the game lasts
    `hands` hands, extended until the pot is empty, never past `max_hands`."""
    state = new(4, options={"hands": 1, "max_hands": 5})
    case_one_winner(state)  # burns: the pot holds 50
    assert not state.is_terminal()
    assert state.hands_played == 1
    act(state, 1, "ante kept")
    deal(state, four_hands(), turn_up="2S")
    for seat in (2, 3, 0):
        act(state, seat, "fold")  # the dealer (1) takes the pot
    assert state.history[-1].extra["pot_before"] == 50
    assert state.history[-1].extra["payments"][-1]["amount"] == -(50 + 20 + 15)
    assert state.is_terminal()
    assert state.completed
    assert state.scores == [s - START for s in data(state).stacks]
    assert sum(state.scores) == 0


def test_the_game_stops_at_max_hands_with_the_pot_unwon() -> None:
    """docs/games/buckup.md, End of the game: extended until the pot is empty, never past
    `max_hands`."""
    state = new(4, options={"hands": 1, "max_hands": 2})
    case_one_winner(state)
    case_one_winner(state)
    assert state.is_terminal()
    assert not state.completed
    assert data(state).pot > 0
    assert state.hands_played == 2
    assert conserved(state)
    with pytest.raises(RulesetError, match="max_hands"):
        load_ruleset("buckup", options={"hands": 30, "max_hands": 10})


def test_the_default_game_is_twenty_hands_capped_at_two_hundred() -> None:
    rules = load_ruleset("buckup")
    assert rules.hook_settings.hands == 20
    assert rules.hook_settings.max_hands == 200
    assert rules.options["hands"] == 20


# -------------------------------------------------------------------- scare cards


def test_scare_cards_are_public_and_a_trump_scare_card_must_stay() -> None:
    """docs/games/buckup.md, Scare cards: with `scare_cards` each player's first card is dealt
    face up; a player whose face-up card is a trump must stay in."""
    state = new(4, options={"scare_cards": True})
    hands = ["KS 2C 3C 4C 5C", "2S AH KH QH JH", "AC KC QC JC 10C", "AD KD QD JD 10D"]
    start(state, hands, "3S")
    for seat in range(4):
        assert view(state, seat)["scare_cards"] == ["KS", "2S", "AC", "AD"]
    assert legal(state, 1) == ["stay"]
    assert_illegal(state, 1, "fold", "Buckup: scare cards")
    stay(state, 1, "2S")
    assert legal(state, 2) == ["stay", "fold"]
    act(state, 2, "fold")
    act(state, 3, "fold")
    assert legal(state, 0) == ["stay"]  # both forced and obliged
    assert "scare_cards" not in view(new(4))


# ---------------------------------------------------------------- hidden information


def test_hidden_cards_stay_private() -> None:
    """README.md, The library: a seat's observation never holds another seat's hidden cards;
    docs/games/buckup.md, Discard and draw: drawn cards and folded hands are never shown to the
    other players."""
    state = new(4)
    case_one_winner(state)
    full = state.history[-1]
    assert full.deal[0] == tuple(parse_card(c) for c in FILLER[2].split())  # the folder's
    for seat in range(4):
        seen = state.observe(seat).history[-1]
        assert seen.deal[seat] == full.deal[seat]
        assert all(cards == () for s, cards in enumerate(seen.deal) if s != seat)
    state = new(4)
    start(state, four_hands(), "2S")
    stay(state, 1, "AH", drawn="3H")
    for seat in (0, 2, 3):
        obs = state.observe(seat)
        assert set(obs.extra) == {"stacks", "pot", "ante", "status", "stock", "payments"}
        assert obs.hand == state.hands[seat]
        assert format_card(parse_card("3H")) not in repr(obs.extra)


# ------------------------------------------------------------ random games, replays


def checked_game(players: int, options: Mapping[str, object], names: list[str], seed: int) -> int:
    """Play a whole game checking the chips after every step; returns the steps taken."""
    rules = load_ruleset("buckup", options=options)
    stack = rules.hook_settings.starting_stack
    state = new_game(rules, players=players, seed=seed)
    total = stack * players
    bots = [make_bot(names[s % len(names)], seed=seed * 10 + s) for s in range(players)]
    chooser = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        d = data(state)
        assert sum(d.stacks) + d.pot == total, f"step {steps}"
        assert d.pot >= 0
        if state.is_chance():
            state.apply_chance()
        else:
            seat = chooser.choice(state.to_act())
            obs = state.observe(seat)
            assert obs.extra["payments"] == [p.to_json() for p in d.ledger.payments]
            state.apply(seat, bots[seat].act(obs))
        steps += 1
    d = data(state)
    assert sum(d.stacks) + d.pot == total
    assert state.scores == [s - stack for s in d.stacks]
    for hand in state.history:
        assert sum(hand.hand_scores) == hand.extra["pot_before"] - hand.extra["pot_after"]
        paid = sum(p["amount"] for p in hand.extra["payments"])
        assert hand.extra["pot_after"] - hand.extra["pot_before"] == paid
        assert {p["reason"] for p in hand.extra["payments"]} <= {
            "ante",
            "fold_fee",
            "draw_fee",
            "burn",
            "win",
            "uncontested",
        }
    settings = rules.hook_settings
    assert state.hands_played <= settings.max_hands
    assert state.hands_played >= settings.hands
    assert d.pot == 0 or state.hands_played == settings.max_hands
    text = state.record().dumps()
    again = GameRecord.loads(text).replay()
    assert again.history == state.history
    assert again.scores == state.scores
    assert again.record().dumps() == text
    return steps


GAMES = [
    (4, {}, ["random"]),
    (5, {}, ["heuristic"]),
    (6, {"out_for_now": True}, ["random", "heuristic"]),
    (7, {"scare_cards": True}, ["heuristic", "random"]),
    (4, {"four_card_deal": True, "out_for_now": True}, ["random"]),
    (8, {"four_card_deal": True}, ["heuristic", "random"]),
    (9, {"four_card_deal": True, "scare_cards": True, "out_for_now": True}, ["random"]),
    (7, {"out_for_now": True, "scare_cards": True}, ["heuristic"]),
    (5, {"hands": 3, "max_hands": 6, "starting_stack": 40}, ["random"]),
    (6, {"fold_fee": 0, "card_fee": 1, "ante": 3}, ["heuristic", "random"]),
]


@pytest.mark.parametrize(("players", "options", "names"), GAMES)
def test_chips_are_conserved_at_every_step_and_records_replay(
    players: int, options: Mapping[str, object], names: list[str]
) -> None:
    """docs/games/buckup.md, Chips, antes and the pot: every chip is accounted for, the stacks
    and the pot always add up to what the players started with; README.md, The library: a game
    replays exactly from its record."""
    for seed in range(3):
        assert checked_game(players, options, names, seed=seed + players) > 0


def test_every_branch_is_reached_by_random_games() -> None:
    """The random games above reach the redeal, the restock, OFN and the uncontested pot."""
    seen: set[str] = set()
    for seed in range(40):
        rules = load_ruleset("buckup", options={"out_for_now": True, "hands": 3})
        state = new_game(rules, players=7, seed=seed)
        bots = [make_bot("random", seed=seed + s) for s in range(7)]
        while not state.is_terminal():
            seen.add(state.phase_name)
            if state.is_chance():
                state.apply_chance()
                continue
            seat = state.to_act()[0]
            action = bots[seat].act(state.observe(seat))
            seen.add(action.kind)
            state.apply(seat, action)
        for hand in state.history:
            seen.update(p["reason"] for p in hand.extra["payments"])
    assert {"redeal", "restock", "come_back", "concede", "out_for_now", "uncontested"} <= seen


def test_the_heuristic_policy_follows_its_rules_of_thumb() -> None:
    """bots/buckup_policy.py: default ante, always redeal, discard non-trumps below a king."""
    bot = make_bot("heuristic", seed=0)
    state = new(4)
    assert str(bot.act(state.observe(0))) == "ante kept"
    act(state, 0, "ante kept")
    deal(state, ["AS KS QS JS 10S", LOW, "AH KH QH JH 10H", "AC KC QC JC 10C"], turn_up="2H")
    assert str(bot.act(state.observe(1))) == "redeal"
    state = new(4)
    start(state, ["AS KS QS JS 10S", "AH KH 3C QD 2S", "9C KC QC JC 10C", "AD KD 9D JD 10D"], "2H")
    assert str(bot.act(state.observe(1))) == "stay"
    act(state, 1, "stay")
    assert str(bot.act(state.observe(1))) == "discard 2S"
    act(state, 1, "discard 2S")
    assert str(bot.act(state.observe(1))) == "discard 3C"
    act(state, 1, "discard 3C")
    assert str(bot.act(state.observe(1))) == "discard QD"
    act(state, 1, "discard QD")
    assert str(bot.act(state.observe(1))) == "draw"
