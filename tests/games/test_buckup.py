"""Buckup (docs/games/buckup.md): antes, the 19 redeal, stay or fold with the draw, the
dealer's obligation and out for now, the rolling pot, burns and scare cards, on hand-built
deals.

Seats are numbered clockwise; with ``first_dealer=0`` the order of decisions is 1, 2, ...,
and the dealer (seat 0) decides last.
"""

from __future__ import annotations

import pytest

from tests.games.buckup_cases import (
    LOW,
    START,
    assert_illegal,
    conserved,
    data,
    draw,
    four_hands,
    new,
    payments,
    start,
    stay,
    view,
)
from tests.helpers import act, legal, play_cards
from tricktaker import (
    ChanceOutcome,
    GameState,
    IllegalActionError,
    RulesetError,
    load_ruleset,
    new_game,
)
from tricktaker.cards import card_set, cards_of, parse_card
from tricktaker.engine.actions import Action
from tricktaker.games.buckup.hooks import is_nineteen_hand
from tricktaker.rules.ruleset import ruleset_from_data

# ------------------------------------------------------------------ players, deal


@pytest.mark.parametrize("players", [4, 5, 6, 7])
def test_four_to_seven_players(players: int) -> None:
    """docs/games/buckup.md, Players and deck: 4 to 7 players (8 to 9 with `four_card_deal`), one
    standard deck."""
    state = new(players)
    assert state.setup.deck == tuple(range(52))
    assert data(state).stacks == [START] * players


@pytest.mark.parametrize("players", [8, 9])
def test_eight_or_nine_players_need_four_card_deals(players: int) -> None:
    """docs/games/buckup.md, Players and deck: 4 to 7 players, 8 to 9 with `four_card_deal`."""
    with pytest.raises(RulesetError, match="4 to 7 players"):
        new(players)
    state = new(players, options={"four_card_deal": True})
    assert state.hand_size == 4
    for players_bad in (3, 10):
        with pytest.raises(RulesetError):
            new(players_bad, options={"four_card_deal": True})


def test_a_house_file_with_nine_players_but_five_cards_is_refused() -> None:
    """docs/games/buckup.md, Players and deck: 8 or 9 players only with `four_card_deal`; one
    standard deck, no jokers: a ruleset that allows 9 players with 5-card deals is refused with a
    message naming the option."""
    rules = load_ruleset("buckup")
    data_ = dict(rules.data)
    data_["players"] = {"min": 4, "max": 9}
    house = ruleset_from_data(data_, source="house.toml")
    with pytest.raises(RulesetError, match="four_card_deal"):
        new_game(house, players=9)
    # A stripped deck without cards for every draw, or with jokers, is refused too.
    for deck in ({"ranks": "A-7"}, {"jokers": True}):
        stripped = ruleset_from_data({**rules.data, "deck": deck}, source="house.toml")
        with pytest.raises(RulesetError, match="deck"):
            new_game(stripped, players=6)


def test_the_dealer_sets_the_ante_then_everyone_antes() -> None:
    """docs/games/buckup.md, Ante: each hand the dealer sets the terms; by default 5/5/5: an ante
    of 5 each, 5 to fold, 5 per card kept when drawing."""
    state = new(4, dealer=2)
    assert state.phase_name == "ante"
    assert state.to_act() == (2,)
    assert legal(state, 2) == [
        "ante kept",
        "ante drawn",
        "ante kept_no_fold_fee",
        "ante drawn_no_fold_fee",
    ]
    assert view(state)["ante"] is None
    assert_illegal(state, 3, "ante kept", "turn order")
    assert_illegal(state, 2, "stay", "Buckup: ante")
    act(state, 2, "ante kept")
    assert view(state)["ante"] == {"ante": 5, "fold_fee": 5, "card_fee": 5, "fee_per": "kept"}
    assert data(state).stacks == [495] * 4
    assert data(state).pot == 20
    assert payments(state, "ante") == [(3, 5), (0, 5), (1, 5), (2, 5)]
    assert state.is_chance()
    assert state.phase_name == "deal"


def test_deal_five_each_and_the_turn_up_is_trump_not_drawn() -> None:
    """docs/games/buckup.md, Deal and trump: 5 cards each, clockwise from the dealer's left; the
    next card is turned up and its suit is trump for the hand; the turn-up is never drawn."""
    state = new(4)
    start(state, ["9C 9D 9H 9S 8C", "8D 8H 8S 7C 7D", "7H 7S 6C 6D 6H", "6S 5C 5D 5H 5S"], "QH")
    assert state.trump == 2
    assert state.turn_up == parse_card("QH")
    assert [len(cards_of(h)) for h in state.hands] == [5] * 4
    assert view(state)["stock"] == 52 - 20 - 1
    assert parse_card("QH") not in data(state).stock
    # Dealt one at a time from the dealer's left: seat 1 gets the first card.
    outcome = state.events[-1][1]
    assert isinstance(outcome, ChanceOutcome)
    order = outcome.cards
    assert order[0] == parse_card("8D")
    assert order[3] == parse_card("9C")


def test_action_texts_read_back() -> None:
    for text in ("ante drawn_no_fold_fee", "discard 10H", "out_for_now", "come_back", "draw"):
        assert str(Action.parse(text)) == text


# --------------------------------------------------------------------- 19 redeal


@pytest.mark.parametrize(
    ("cards", "qualifies"),
    [
        ("2C 3D 4H 5S 5C", True),  # 19
        ("2C 2D 2H 3S 3C", True),
        ("2C 3D 4H 5S 6C", False),  # 20
        ("9C 2D 2H 2S 3C", True),  # 18, a nine is allowed
        ("10C 2D 2H 2S 3C", False),  # a ten is above 9
        ("AC 2D 2H 3S 3C", False),  # aces are high
        ("JC 2D 2H 2S 3C", False),
    ],
)
def test_nineteen_redeal_condition(cards: str, qualifies: bool) -> None:
    """docs/games/buckup.md, 19 redeal: a player whose five cards are all 9 or lower and add up
    to 19 or less may demand a redeal."""
    assert is_nineteen_hand([parse_card(c) for c in cards.split()]) is qualifies


LOW2 = "2D 3H 4S 2H 3C"


def test_a_nineteen_hand_may_demand_a_redeal_same_pot_no_new_ante() -> None:
    """docs/games/buckup.md, 19 redeal: before anyone stays or folds, a player whose five cards
    are all 9 or lower and add up to 19 or less may demand a redeal: a new deal, the same pot, no
    new ante."""
    state = new(4)
    start(state, ["AS KS QS JS 10S", LOW, "AH KH QH JH 10H", "AC KC QC JC 10C"], "AD")
    assert state.phase_name == "redeal"
    assert state.to_act() == (1,)
    assert legal(state, 1) == ["redeal", "keep"]
    assert_illegal(state, 2, "redeal", "turn order")
    pot = data(state).pot
    act(state, 1, "redeal")
    assert state.is_chance()
    assert state.phase_name == "deal"
    assert state.redeals == 1
    state.apply_chance()  # a new shuffle
    assert data(state).pot == pot == 20
    assert payments(state, "ante") == [(1, 5), (2, 5), (3, 5), (0, 5)]
    assert state.hands_played == 0


def test_qualifying_players_are_asked_in_turn_from_the_dealers_left() -> None:
    """docs/games/buckup.md, 19 redeal: a qualifying player may demand a redeal, in turn from the
    dealer's left."""
    state = new(4, dealer=2)
    # Seats 3 and 1 qualify; seat 3 is left of the dealer.
    start(state, ["AS KS QS JS 10S", LOW, "AH KH QH JH 10H", LOW2], "AD")
    assert state.to_act() == (3,)
    act(state, 3, "keep")
    assert state.to_act() == (1,)
    act(state, 1, "keep")
    assert state.phase_name == "stay_or_fold"
    assert state.to_act() == (3,)
    assert_illegal(state, 3, "redeal", "Buckup: 19 redeal")


def test_no_nineteen_redeal_with_four_card_deals() -> None:
    """docs/games/buckup.md, 19 redeal: there is no 19 redeal with four-card deals."""
    state = new(4, options={"four_card_deal": True})
    start(state, ["AS KS QS JS", "2C 3D 4H 2S", "AH KH QH JH", "AC KC QC JC"], "AD")
    assert state.phase_name == "stay_or_fold"
    assert_illegal(state, 1, "redeal", "Buckup: 19 redeal")


# -------------------------------------------------------------- fees and drawing


@pytest.mark.parametrize(
    ("ante", "discards", "fee"),
    [
        ("kept", "", 25),
        ("kept", "AH KH QH", 10),  # keeps 2
        ("kept", "AH KH QH JH 10H", 0),  # keeps none
        ("drawn", "", 0),
        ("drawn", "AH KH QH", 15),  # draws 3
        ("kept_no_fold_fee", "AH", 20),
        ("drawn_no_fold_fee", "AH KH", 10),
    ],
)
def test_draw_fee_per_card_kept_or_drawn(ante: str, discards: str, fee: int) -> None:
    """docs/games/buckup.md, Ante and Discard and draw: 5 per card kept when drawing, or per card
    drawn if the dealer chooses so."""
    state = new(4)
    start(state, four_hands(), "2S", ante=ante)
    stay(state, 1, discards)
    assert payments(state, "draw_fee") == ([(1, fee)] if fee else [])
    assert data(state).stacks[1] == 495 - fee
    assert len(cards_of(state.hands[1])) == 5
    assert conserved(state)


@pytest.mark.parametrize(("ante", "fee"), [("kept", 5), ("drawn", 5), ("kept_no_fold_fee", 0)])
def test_fold_fee_or_no_fold_fee(ante: str, fee: int) -> None:
    """docs/games/buckup.md, Ante: 5 to fold, or no fold fee if the dealer chooses so; every fee
    goes to the pot."""
    state = new(4)
    start(state, four_hands(), "2S", ante=ante)
    act(state, 1, "fold")
    assert payments(state, "fold_fee") == ([(1, fee)] if fee else [])
    assert data(state).pot == 20 + fee
    assert view(state)["status"] == ["undecided", "out", "undecided", "undecided"]


def test_four_card_deal_draws_to_five_and_pays_per_card() -> None:
    """docs/games/buckup.md, Players and deck: 8 or 9 players with `four_card_deal`; Discard and
    draw: with four-card deals the players who stay draw up to 5."""
    for ante, fee in (("kept", 15), ("drawn", 10)):
        state = new(4, options={"four_card_deal": True})
        start(state, ["AS KS QS JS", "AH KH QH JH", "AC KC QC JC", "AD KD QD JD"], "2S", ante)
        stay(state, 1, "JH", drawn="2H 3H")
        assert state.hands[1] == card_set(["AH", "KH", "QH", "2H", "3H"])
        assert payments(state, "draw_fee") == [(1, fee)]
        stay(state, 2, "")  # stands with 4, draws 1
        assert len(cards_of(state.hands[2])) == 5


def test_a_stayer_discards_one_card_at_a_time_then_draws() -> None:
    """docs/games/buckup.md, Discard and draw: a player who stays at once discards and draws 0 to
    5 cards, paying the draw fee."""
    state = new(4)
    start(state, four_hands(), "2S")
    act(state, 1, "stay")
    assert state.phase_name == "discard"
    assert legal(state, 1)[0] == "draw"
    assert set(legal(state, 1)[1:]) == {f"discard {c}" for c in ["AH", "KH", "QH", "JH", "10H"]}
    assert_illegal(state, 1, "discard AS", "Buckup: discard and draw")
    assert_illegal(state, 2, "stay", "turn order")
    act(state, 1, "discard 10H")
    act(state, 1, "discard JH")
    act(state, 1, "draw")
    assert state.is_chance()
    assert state.phase_name == "draw"
    assert state.sample_chance().cards == tuple(data(state).stock[:2])
    with pytest.raises(IllegalActionError):
        state.apply_chance(ChanceOutcome("draw", (parse_card("AS"), parse_card("2H"))))
    with pytest.raises(IllegalActionError):
        state.apply_chance(ChanceOutcome("draw", (parse_card("2H"),)))
    state.apply_chance(ChanceOutcome("draw", (parse_card("2H"), parse_card("3H"))))
    assert state.hands[1] == card_set(["AH", "KH", "QH", "2H", "3H"])
    assert view(state)["stock"] == 31 - 2
    assert state.to_act() == (2,)
    # Drawn cards and discards are private to the drawer.
    for seat in (0, 2, 3):
        assert "2H" not in repr(state.observe(seat))


def test_the_stock_runs_out_and_the_discards_form_a_new_stock() -> None:
    """docs/games/buckup.md, Discard and draw: when the stock runs out the discards are shuffled
    into a new stock; the drawing player's own discards are set aside until they have drawn."""
    state = new(7)
    hands = [
        "2C 3C 4C 5C 6C",
        "7C 8C 9C 10C JC",
        "QC KC AC 2D 3D",
        "4D 5D 6D 7D 8D",
        "9D 10D JD QD KD",
        "AD 2H 3H 4H 5H",
        "6H 7H 8H 9H 10H",
    ]
    start(state, hands, "JH")
    assert view(state)["stock"] == 16
    for seat in (1, 2, 3):  # 15 cards drawn, one left
        stay(state, seat, hands[seat])
    assert view(state)["stock"] == 1
    act(state, 4, "stay")
    own = "9D 10D JD QD KD"
    for card in own.split():
        act(state, 4, f"discard {card}")
    act(state, 4, "draw")
    assert state.phase_name == "draw"
    state.apply_chance()  # the last card of the stock
    assert state.phase_name == "restock"
    assert state.is_chance()
    assert state.to_act() == ()
    pile = data(state).discards
    assert sorted(pile) == sorted(parse_card(c) for c in " ".join(hands[1:4]).split())
    with pytest.raises(IllegalActionError):  # not the discards
        state.apply_chance(ChanceOutcome("restock", tuple(parse_card(c) for c in own.split())))
    outcome = state.sample_chance()
    assert outcome.kind == "restock"
    assert not set(outcome.cards) & {parse_card(c) for c in own.split()}
    state.apply_chance(outcome)
    assert view(state)["stock"] == 15
    state.apply_chance()  # the other four cards, from the new stock
    assert len(cards_of(state.hands[4])) == 5
    assert not state.hands[4] & card_set(own.split())
    assert view(state)["stock"] == 11
    assert sorted(data(state).discards) == sorted(parse_card(c) for c in own.split())
    assert conserved(state)


# ------------------------------------------------------------ only one player in


def test_dealer_must_stay_when_exactly_one_other_is_in() -> None:
    """docs/games/buckup.md, Dealer's obligation: with exactly one other player in, the dealer
    must stay in to defend the pot."""
    state = new(4)
    start(state, four_hands(), "2S")
    stay(state, 1)
    act(state, 2, "fold")
    act(state, 3, "fold")
    assert state.to_act() == (0,)
    assert legal(state, 0) == ["stay"]
    assert_illegal(state, 0, "fold", "Buckup: dealer's obligation")
    assert_illegal(state, 0, "out_for_now", "Buckup: out for now")
    stay(state, 0)
    assert state.phase_name == "playing"
    assert state.active == [True, True, False, False]
    assert state.to_act() == (1,)


def test_dealer_may_fold_when_two_others_are_in() -> None:
    """docs/games/buckup.md, Stay or fold: in turn from the dealer's left each player stays or
    folds."""
    state = new(4)
    start(state, four_hands(), "2S")
    stay(state, 1)
    act(state, 2, "fold")
    stay(state, 3)
    assert legal(state, 0) == ["stay", "fold"]
    act(state, 0, "fold")
    assert state.phase_name == "playing"
    assert state.active == [False, True, False, True]


def test_nobody_stays_in_so_the_dealer_takes_the_pot() -> None:
    """docs/games/buckup.md, Dealer's obligation: if nobody else is in, the dealer takes the pot
    without play."""
    state = new(4, dealer=1)
    start(state, four_hands(), "2S")
    for seat in (2, 3, 0):
        act(state, seat, "fold")
    assert state.hands_played == 1
    hand = state.history[-1]
    assert hand.extra["winners"] == [1]
    assert hand.extra["pot_after"] == 0
    assert hand.extra["payments"][-1] == {"seat": 1, "amount": -35, "reason": "uncontested"}
    assert hand.hand_scores == (-10, 30, -10, -10)
    assert hand.trick_cards == ()
    assert state.scores == [s - START for s in data(state).stacks]
    assert data(state).pot == 0
    assert conserved(state)
    assert state.phase_name == "ante"
    assert state.dealer == 2


def test_the_first_player_in_left_of_the_dealer_leads() -> None:
    """docs/games/buckup.md, Play: the first player in, left of the dealer, leads."""
    state = new(5, dealer=3)
    hands = [*four_hands(), "2C 3C 4C 5C 6C"]
    start(state, hands, "2S")
    act(state, 4, "fold")
    act(state, 0, "fold")
    stay(state, 1)
    stay(state, 2)
    act(state, 3, "fold")
    assert state.phase_name == "playing"
    assert state.to_act() == (1,)
    play_cards(state, ["AH", "AC"])  # two players in: the trick is over
    assert state.trick_cards[-1] == ((1, parse_card("AH")), (2, parse_card("AC")))


def test_follow_suit_else_any_card_no_obligation_to_trump() -> None:
    """docs/games/buckup.md, Play: follow suit if you can, else any card (no obligation to
    trump); the highest trump wins, else the highest card of the led suit."""
    state = new(4)
    start(state, ["9C 9D 9H 9S 8C", "AH 2C KH QH JH", "AC KC 2S 3D 4D", "AD KD QD JD 10D"], "2H")
    stay(state, 1)
    stay(state, 2)
    act(state, 3, "fold")
    act(state, 0, "fold")
    act(state, 1, "play 2C")
    assert {str(a) for a in state.legal_actions(2)} == {"play AC", "play KC"}
    play_cards(state, ["KC"])
    assert state.trick_winners == [2]
    act(state, 2, "play 3D")  # seat 1 has no diamonds: any card, trump or not
    assert len(state.legal_actions(1)) == 4
    play_cards(state, ["AH"])
    assert state.trick_winners == [2, 1]


# ------------------------------------------------------------------------- OFN

OFN = {"out_for_now": True}


def test_out_for_now_is_an_option() -> None:
    """docs/games/buckup.md, Out for now: with the option `out_for_now` a player may go out for
    now instead of folding."""
    state = new(4)
    start(state, four_hands(), "2S")
    assert legal(state, 1) == ["stay", "fold"]
    assert_illegal(state, 1, "out_for_now", "Buckup: out for now")
    state = new(4, options=OFN)
    start(state, four_hands(), "2S")
    assert legal(state, 1) == ["stay", "fold", "out_for_now"]
    act(state, 1, "out_for_now")
    assert view(state)["status"][1] == "out_for_now"
    assert payments(state, "fold_fee") == []  # paid only if they stay out


def ofn_to_dealer() -> GameState:
    """Four players with out for now: seat 1 out for now, seat 2 in, seat 3 out for now;
    the dealer (0) to decide."""
    state = new(4, options=OFN)
    start(state, four_hands(), "2S", ante="drawn")
    act(state, 1, "out_for_now")
    stay(state, 2)
    act(state, 3, "out_for_now")
    assert state.to_act() == (0,)
    return state


def nobody_comes_back() -> GameState:
    """As ``ofn_to_dealer``, then the dealer goes out for now and seats 1 and 3 fold."""
    state = ofn_to_dealer()
    act(state, 0, "out_for_now")
    act(state, 1, "fold")
    act(state, 3, "fold")
    return state


def test_ofn_dealer_with_one_in_stays_or_goes_out_for_now() -> None:
    """docs/games/buckup.md, Out for now: when exactly one player is in at the dealer's turn and
    the dealer goes out for now, the players out for now get one more turn."""
    state = ofn_to_dealer()
    assert legal(state, 0) == ["stay", "out_for_now"]
    assert_illegal(state, 0, "fold", "Buckup: out for now")
    stay(state, 0)
    assert state.phase_name == "playing"
    assert state.active == [True, False, True, False]
    # The players still out for now are out, and pay the fold fee.
    assert payments(state, "fold_fee") == [(1, 5), (3, 5)]
    assert view(state)["status"] == ["in", "out", "in", "out"]


def test_ofn_someone_comes_back_and_the_dealer_stays_out() -> None:
    """docs/games/buckup.md, Out for now: the players out for now get one more turn to come back
    in (and draw); if anyone does, the dealer is out."""
    state = ofn_to_dealer()
    act(state, 0, "out_for_now")
    assert state.phase_name == "come_back"
    assert state.to_act() == (1,)
    assert legal(state, 1) == ["come_back", "fold"]
    act(state, 1, "come_back")
    draw(state, 1, "10H", drawn="2H")
    assert state.to_act() == (3,)  # the others still get their turn
    act(state, 3, "fold")
    assert state.phase_name == "playing"
    assert state.active == [False, True, True, False]
    assert view(state)["status"] == ["out", "in", "in", "out"]
    assert payments(state, "fold_fee") == [(3, 5), (0, 5)]
    assert payments(state, "draw_fee") == [(1, 5)]


def test_ofn_nobody_comes_back_and_the_dealer_comes_back_in() -> None:
    """docs/games/buckup.md, Out for now: if nobody comes back, the dealer chooses to come back
    in or to concede the pot to the single player."""
    state = nobody_comes_back()
    assert state.phase_name == "dealer_choice"
    assert state.to_act() == (0,)
    assert legal(state, 0) == ["come_back", "concede"]
    assert_illegal(state, 0, "fold", "Buckup: out for now")
    act(state, 0, "come_back")
    draw(state, 0)
    assert state.phase_name == "playing"
    assert state.active == [True, False, True, False]
    assert payments(state, "fold_fee") == [(1, 5), (3, 5)]


def test_ofn_nobody_comes_back_and_the_dealer_concedes_the_pot() -> None:
    """docs/games/buckup.md, Out for now: if nobody comes back, the dealer chooses to come back
    in or to concede the pot to the single player."""
    state = nobody_comes_back()
    act(state, 0, "concede")
    hand = state.history[-1]
    assert hand.extra["winners"] == [2]
    assert hand.extra["status"] == ["out", "out", "in", "out"]
    # 20 antes + three fold fees, taken by seat 2 without play.
    assert hand.extra["payments"][-1] == {"seat": 2, "amount": -35, "reason": "uncontested"}
    assert hand.hand_scores == (-10, -10, 30, -10)
    assert data(state).pot == 0
    assert conserved(state)


def test_ofn_dealer_with_no_one_out_for_now_chooses_at_once() -> None:
    """docs/games/buckup.md, Out for now: if nobody comes back, the dealer chooses to come back
    in or to concede the pot to the single player."""
    state = new(4, options=OFN)
    start(state, four_hands(), "2S")
    act(state, 1, "fold")
    stay(state, 2)
    act(state, 3, "fold")
    act(state, 0, "out_for_now")
    assert state.phase_name == "dealer_choice"


def test_ofn_with_two_in_the_dealer_stays_or_folds() -> None:
    """docs/games/buckup.md, Out for now: the come-back round happens only when exactly one
    player is in at the dealer's turn; otherwise the dealer stays or folds, and players out for
    now are out."""
    state = new(4, options=OFN)
    start(state, four_hands(), "2S")
    act(state, 1, "out_for_now")
    stay(state, 2)
    stay(state, 3)
    assert legal(state, 0) == ["stay", "fold"]
    assert_illegal(state, 0, "out_for_now", "Buckup: out for now")
    act(state, 0, "fold")
    assert state.phase_name == "playing"
    assert payments(state, "fold_fee") == [(0, 5), (1, 5)]


def test_ofn_nobody_in_the_dealer_takes_the_pot() -> None:
    """docs/games/buckup.md, Dealer's obligation: if nobody else is in, the dealer takes the pot
    without play."""
    state = new(4, options=OFN)
    start(state, four_hands(), "2S")
    for seat in (1, 2, 3):
        act(state, seat, "out_for_now")
    hand = state.history[-1]
    assert hand.extra["winners"] == [0]
    assert hand.hand_scores == (30, -10, -10, -10)
