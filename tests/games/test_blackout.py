"""Blackout, the parent game, and its options (docs/games/blackout.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from tests.helpers import (
    act,
    assert_illegal,
    at_hand,
    deal,
    deal_from_eldest,
    game,
    make_bids,
    play_cards,
    seat_at,
)
from tricktaker import GameState, load_ruleset, new_game
from tricktaker.bots import make_bot, play_game
from tricktaker.cards import HEARTS, format_card, parse_card
from tricktaker.engine.actions import bid, play

# ---------------------------------------------------------------------- helpers


def hand_of_size(
    size: int, *, options: Mapping[str, object] | None = None, players: int = 4
) -> GameState:
    """A game (first dealer 0) just before the deal of its hand of ``size`` cards (1..max)."""
    state = at_hand("blackout", players, size, options=options)
    assert state.hand_size == size
    return state


def bids_from_eldest(state: GameState, values: Sequence[int]) -> None:
    """Make the bids ``values`` listed from the eldest, in turn."""
    for value in values:
        state.apply(state.to_act()[0], bid(value))


def legal_cards(state: GameState, seat: int) -> set[str]:
    return {format_card(a.value) for a in state.legal_actions(seat) if isinstance(a.value, int)}


def legal_bids(state: GameState, seat: int) -> list[int]:
    return [int(a.value) for a in state.legal_actions(seat)]


def one_card_trick(cards: Sequence[str], turn_up: str) -> int:
    """Play a 4-player 1-card hand where the seats, from the eldest, hold ``cards``;
    return the position (from the eldest) of the trick's winner."""
    state = hand_of_size(1)
    deal_from_eldest(state, cards, turn_up)
    eldest = state.eldest
    make_bids(state, [0] * 4)
    play_cards(state, cards)
    return (state.history[-1].trick_winners[0] - eldest) % 4


# ------------------------------------------------------------------------ trump


def test_turn_up_fixes_trump() -> None:
    """docs/games/blackout.md, Deal and trump: "The next undealt card is turned face up and its suit
    is trump for the hand"."""
    state = hand_of_size(2)
    deal_from_eldest(state, ["AS 2C", "KS 3C", "QS 4C", "JS 5C"], "7H")
    assert state.turn_up == parse_card("7H")
    assert state.trump == HEARTS
    assert state.observe(3).trump == HEARTS


def test_seeded_turn_up_is_the_first_undealt_card() -> None:
    """docs/games/blackout.md, Deal and trump: "The next undealt card is turned face up and its suit
    is trump for the hand" (the seeded deal)."""
    for seed in range(10):
        state = game("blackout", 5, seed=seed)
        state.apply_chance()
        assert state.turn_up == state.rest[0]
        assert state.trump == state.rest[0] // 13


@pytest.mark.parametrize("players", [2, 4])
def test_all_cards_dealt_means_no_turn_up_and_no_trump(players: int) -> None:
    """docs/games/blackout.md, Deal and trump: "When every card has been dealt (2 players with 26
    cards, 4 players with 13) there is no turn-up and the hand is played without a trump"."""
    size = 52 // players
    state = hand_of_size(size, players=players)
    state.apply_chance()
    assert state.rest == ()
    assert state.turn_up is None
    assert state.trump is None
    assert state.observe(0).trump_known
    assert state.observe(0).trump is None
    play_game(state, [make_bot("random", seed=s) for s in range(players)])
    last = state.history[-1]
    assert last.hand_size == size
    assert last.trump is None
    assert last.turn_up is None


def test_max_hand_with_a_card_left_has_a_turn_up() -> None:
    """docs/games/blackout.md, Hands and schedule: "The hands run 1, 2, 3, … up to the largest hand,
    `52 // players` cards" (with 3 players 51 cards are dealt and the last one is turned up)."""
    state = hand_of_size(17, players=3)
    state.apply_chance()
    assert len(state.rest) == 1
    assert state.turn_up == state.rest[0]
    assert state.trump == state.rest[0] // 13


# ----------------------------------------------------------------------- play


def test_follow_suit() -> None:
    """docs/games/blackout.md, Play: "A player who holds a card of the suit led must play one"."""
    state = hand_of_size(3)
    deal_from_eldest(state, ["AS 2C 2D", "KS 2H 3C", "4H 4C 4D", "JS 5C 5D"], "7H")
    make_bids(state, [0] * 4)
    play_cards(state, ["AS"])
    second = seat_at(state, 1)
    assert legal_cards(state, second) == {"KS"}
    message = str(assert_illegal(state, second, play(parse_card("2H")), "follow suit"))
    assert "spades" in message
    play_cards(state, ["KS"])
    # void in spades: any card, trump or not
    assert legal_cards(state, seat_at(state, 2)) == {"4H", "4C", "4D"}
    play_cards(state, ["4C", "JS"])
    assert state.trick_winners == [seat_at(state, 0)]


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        (["AS", "2H", "KS", "AD"], 1),
        (["AS", "2H", "3H", "AD"], 2),
        (["5S", "KS", "AD", "QS"], 1),
        (["2C", "AD", "AS", "3C"], 3),
        (["2H", "AS", "AD", "AC"], 0),
    ],
)
def test_trump_beats_led_suit(cards: list[str], winner: int) -> None:
    """docs/games/blackout.md, Players and deck: "In a trick the highest trump wins; if no trump was
    played, the highest card of the suit led wins"."""
    assert one_card_trick(cards, "7H") == winner


def test_trick_winner_leads_next() -> None:
    """docs/games/blackout.md, Play: "the winner of each trick leads the next"."""
    state = hand_of_size(2)
    deal_from_eldest(state, ["2S 3S", "AS 4S", "5S 6S", "7S 8S"], "9H")
    make_bids(state, [0] * 4)
    play_cards(state, ["2S", "AS", "5S", "7S"])
    winner = seat_at(state, 1)
    assert state.trick_winners == [winner]
    assert state.to_act() == (winner,)
    assert_illegal(state, seat_at(state, 0), play(parse_card("3S")), "turn order")


def test_cards_must_be_held() -> None:
    """docs/games/blackout.md, Play: "Each player in turn, clockwise, plays one card of their own
    hand to the trick"."""
    state = hand_of_size(2)
    deal_from_eldest(state, ["2S 3S", "AS 4S", "5S 6S", "7S 8S"], "9H")
    make_bids(state, [0] * 4)
    assert_illegal(state, state.eldest, play(parse_card("AS")), "play a card from your hand")


# ----------------------------------------------------------------------- bids


def test_bids_zero_to_hand_size() -> None:
    """docs/games/blackout.md, Bidding: "A bid is any number of tricks from 0 up to the hand
    size"."""
    state = hand_of_size(3)
    deal_from_eldest(state, ["AS 2C 2D", "KS 3C 3D", "QS 4C 4D", "JS 5C 5D"], "7H")
    for position in range(4):
        seat = state.to_act()[0]
        assert seat == seat_at(state, position)
        assert legal_bids(state, seat) == [0, 1, 2, 3]
        assert_illegal(state, seat, bid(4), "bid range")
        assert_illegal(state, seat, bid(-1), "bid range")
        state.apply(seat, bid(position % 4))
    assert state.phase_name == "playing"
    assert state.to_act() == (state.eldest,)


def test_no_bidding_before_the_deal_and_none_twice() -> None:
    """docs/games/blackout.md, Bidding: "The eldest bids first, then each player in turn clockwise,
    once each"."""
    state = hand_of_size(2)
    assert_illegal(state, state.eldest, bid(0), "turn order")
    deal_from_eldest(state, ["AS 2C", "KS 3C", "QS 4C", "JS 5C"], "7H")
    eldest = state.eldest
    state.apply(eldest, bid(1))
    assert_illegal(state, eldest, bid(1), "turn order")


def test_without_hook_the_dealer_may_make_the_total() -> None:
    """docs/games/blackout.md, Bidding: "Without the `hook` option the bids may add up to the number
    of tricks in the hand"."""
    state = hand_of_size(3)
    deal_from_eldest(state, ["AS 2C 2D", "KS 3C 3D", "QS 4C 4D", "JS 5C 5D"], "7H")
    bids_from_eldest(state, [1, 1, 0])
    assert state.to_act() == (state.dealer,)
    assert legal_bids(state, state.dealer) == [0, 1, 2, 3]
    state.apply(state.dealer, bid(1))
    assert state.phase_name == "playing"


# ----------------------------------------------------------------------- hook


def test_hook_dealer_may_not_make_the_total() -> None:
    """docs/games/blackout.md, Options: "`hook` … The dealer, who bids last, may not make a bid that
    brings the total of all bids to the number of tricks in the hand"."""
    state = hand_of_size(3, options={"hook": True})
    deal_from_eldest(state, ["AS 2C 2D", "KS 3C 3D", "QS 4C 4D", "JS 5C 5D"], "7H")
    assert state.observe(0).hook
    bids_from_eldest(state, [1, 1, 0])
    dealer = state.dealer
    assert state.to_act() == (dealer,)
    assert legal_bids(state, dealer) == [0, 2, 3]
    message = str(assert_illegal(state, dealer, bid(1), "hook rule"))
    assert "3" in message
    state.apply(dealer, bid(2))
    assert state.phase_name == "playing"


def test_hook_does_not_bind_non_dealers() -> None:
    """docs/games/blackout.md, Options: "`hook` … The dealer, who bids last, may not make a bid that
    brings the total of all bids to the number of tricks" (only the dealer is restricted; earlier
    bids may bring the total to the hand size)."""
    state = hand_of_size(3, options={"hook": True})
    deal_from_eldest(state, ["AS 2C 2D", "KS 3C 3D", "QS 4C 4D", "JS 5C 5D"], "7H")
    assert legal_bids(state, state.eldest) == [0, 1, 2, 3]
    bids_from_eldest(state, [3])
    for _ in range(2):
        seat = state.to_act()[0]
        assert seat != state.dealer
        assert legal_bids(state, seat) == [0, 1, 2, 3]
        state.apply(seat, bid(0))
    dealer = state.dealer
    assert legal_bids(state, dealer) == [1, 2, 3]
    assert_illegal(state, dealer, bid(0), "hook rule")


def test_hook_in_a_one_card_hand() -> None:
    """docs/games/blackout.md, Options: "`hook` … The dealer, who bids last, may not make a bid that
    brings the total of all bids to the number of tricks in the hand"."""
    state = hand_of_size(1, options={"hook": True})
    deal_from_eldest(state, ["AS", "KS", "QS", "JS"], "7H")
    bids_from_eldest(state, [0, 0, 0])
    assert legal_bids(state, state.dealer) == [0]
    assert_illegal(state, state.dealer, bid(1), "hook rule")


# -------------------------------------------------------- simultaneous bidding


def test_simultaneous_bidding() -> None:
    """docs/games/blackout.md, Options: "`simultaneous_bidding` … everyone commits a bid at the same
    time and nobody sees another bid until all are in"."""
    state = hand_of_size(2, options={"simultaneous_bidding": True})
    deal_from_eldest(state, ["AS 2C", "KS 3C", "QS 4C", "JS 5C"], "7H")
    assert state.to_act() == (0, 1, 2, 3)
    for seat in range(4):
        assert legal_bids(state, seat) == [0, 1, 2]
        assert state.observe(seat).is_my_turn
    act(state, 2, "bid 1")
    assert state.to_act() == (0, 1, 3)
    assert state.observe(2).bids == (None, None, 1, None)
    for seat in (0, 1, 3):
        assert state.observe(seat).bids == (None, None, None, None)
    assert_illegal(state, 2, bid(2), "turn order")
    act(state, 0, "bid 2")
    act(state, 3, "bid 0")
    assert state.observe(1).bids == (None, None, None, None)
    assert state.observe(0).bids == (2, None, None, None)
    act(state, 1, "bid 2")
    assert state.phase_name == "playing"
    for seat in range(4):
        assert state.observe(seat).bids == (2, 2, 1, 0)
    assert state.to_act() == (state.eldest,)


def test_simultaneous_bidding_has_no_hook() -> None:
    """docs/games/blackout.md, Options: "`simultaneous_bidding` … Cannot be combined with `hook`,
    which needs a last bidder" (so the last seat to commit may still make the total)."""
    state = hand_of_size(1, options={"simultaneous_bidding": True})
    deal_from_eldest(state, ["AS", "KS", "QS", "JS"], "7H")
    for seat in (0, 1, 2):
        state.apply(seat, bid(0))
    assert legal_bids(state, 3) == [0, 1]
    state.apply(3, bid(1))
    assert state.bids == [0, 0, 0, 1]


# --------------------------------------------------------------------- scoring


@pytest.mark.parametrize(
    ("bid_", "tricks", "score"),
    [(2, 2, 12), (0, 0, 10), (2, 3, 3), (3, 1, 1), (0, 2, 2), (5, 0, 0), (13, 13, 23)],
)
def test_standard_scoring(bid_: int, tricks: int, score: int) -> None:
    """docs/games/blackout.md, Scoring: "Each trick taken scores 1 point. A player who takes exactly
    the number of tricks bid scores 10 more"."""
    rules = load_ruleset("blackout")
    assert rules.scoring.score(bid=bid_, tricks=tricks, hand_size=13, players=4) == score


@pytest.mark.parametrize(
    ("bid_", "tricks", "score"),
    [(2, 2, 12), (0, 0, 10), (2, 3, 0), (3, 1, 0), (0, 2, 0), (7, 7, 17)],
)
def test_alternate_scoring(bid_: int, tricks: int, score: int) -> None:
    """docs/games/blackout.md, Scoring: "With the option `alternate_scoring`: exactly the bid scores
    10 + bid; anything else scores 0"."""
    rules = load_ruleset("blackout", options={"alternate_scoring": True})
    assert rules.scoring.score(bid=bid_, tricks=tricks, hand_size=13, players=4) == score


@pytest.mark.parametrize(
    ("options", "scores_from_eldest"),
    [({}, [2, 10, 0, 10]), ({"alternate_scoring": True}, [0, 10, 0, 10])],
)
def test_played_hand_scores(options: dict[str, object], scores_from_eldest: list[int]) -> None:
    """docs/games/blackout.md, Scoring: "Each trick taken scores 1 point. A player who takes exactly
    the number of tricks bid scores 10 more. With the option `alternate_scoring`: exactly the bid
    scores 10 + bid; anything else scores 0"."""
    state = hand_of_size(2, options=options)
    deal_from_eldest(state, ["AS KS", "2S 3S", "4S 5S", "6S 7S"], "8H")
    eldest = state.eldest
    bids_from_eldest(state, [1, 0, 1, 0])
    play_cards(state, ["AS", "2S", "4S", "6S", "KS", "3S", "5S", "7S"])
    result = state.history[-1]
    order = [(eldest + i) % 4 for i in range(4)]
    assert [result.tricks[s] for s in order] == [2, 0, 0, 0]
    assert [result.hand_scores[s] for s in order] == scores_from_eldest
    assert [result.outcome(s) for s in order] == ["O", "P", "S", "P"]
    assert result.trump == HEARTS
    assert result.turn_up == parse_card("8H")


# --------------------------------------------------------------- schedules


@pytest.mark.parametrize("players", [3, 4, 5])
def test_reverse_deals_first_hand_has_no_trump(players: int) -> None:
    """docs/games/blackout.md, Options: "`reverse_deals` … the hands run down from the largest to 1
    (for 4 players: 13, 12, …, 1). The first, largest hand is played at no trump, with no card
    turned up"."""
    top = 52 // players
    state = game("blackout", players, options={"reverse_deals": True}, seed=players)
    assert state.hand_size == top
    state.apply_chance()
    if players != 4:
        assert state.rest  # cards remain, yet nothing is turned up
    assert state.turn_up is None
    assert state.trump is None
    bots = [make_bot("random", seed=s) for s in range(players)]
    play_game(state, bots, until_hand_end=True)
    assert state.hand_size == top - 1
    state.apply_chance()
    assert state.turn_up == state.rest[0]
    assert state.trump == state.rest[0] // 13
    play_game(state, bots)
    sizes = [h.hand_size for h in state.history]
    assert sizes == list(range(top, 0, -1))
    assert state.history[0].trump is None
    assert state.history[0].turn_up is None
    assert all(h.turn_up is not None for h in state.history[1:])


def test_reverse_deals_first_hand_hand_built() -> None:
    """docs/games/blackout.md, Options: "`reverse_deals` … The first, largest hand is played at no
    trump, with no card turned up"."""
    state = game("blackout", 5, options={"reverse_deals": True}, first_dealer=4)
    assert state.eldest == 0
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    deck = [f"{rank}{suit}" for suit in "SHDC" for rank in ranks]
    per_seat = [" ".join(deck[10 * seat : 10 * seat + 10]) for seat in range(5)]
    deal(state, per_seat)
    assert state.turn_up is None
    assert state.trump is None
    assert len(state.rest) == 2


@pytest.mark.parametrize("players", [2, 5, 7])
def test_full_rotation_played(players: int) -> None:
    """docs/games/blackout.md, Options: "`full_rotation` … the hands run 1 up to the largest and
    back down to 1"."""
    top = 52 // players
    state = game("blackout", players, options={"full_rotation": True}, seed=3)
    play_game(state, [make_bot("random", seed=s) for s in range(players)])
    sizes = [h.hand_size for h in state.history]
    assert sizes == [*range(1, top + 1), *range(top - 1, 0, -1)]


def test_standard_schedule_played() -> None:
    """docs/games/blackout.md, Hands and schedule: "The hands run 1, 2, 3, … up to the largest hand,
    `52 // players` cards"."""
    state = game("blackout", 4, seed=5)
    play_game(state, [make_bot("random", seed=s) for s in range(4)])
    assert [h.hand_size for h in state.history] == list(range(1, 14))
    assert state.winners() == [s for s in range(4) if state.scores[s] == max(state.scores)]


# ------------------------------------------------------------------ dealers


def test_dealer_passes_left() -> None:
    """docs/games/blackout.md, Bidding: "The eldest bids first"; Play: "The eldest leads the first
    trick; the winner of each trick leads the next"; Hands and schedule: "After each hand the deal
    passes to the left"."""
    state = game("blackout", 4, seed=8, first_dealer=1)
    bots = [make_bot("random", seed=s) for s in range(4)]
    for number in range(1, 9):
        dealer = (1 + number - 1) % 4
        assert state.dealer == dealer
        assert state.eldest == (dealer + 1) % 4
        state.apply_chance()
        assert state.to_act() == ((dealer + 1) % 4,)
        play_game(state, bots, until_hand_end=True)
        result = state.history[-1]
        assert result.dealer == dealer
        assert result.trick_cards[0][0][0] == (dealer + 1) % 4


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_first_dealer_parameter(first: int) -> None:
    """docs/games/blackout.md, Hands and schedule: "The first dealer is chosen from the game's seed
    …; a program using the tricktaker library may also name the first dealer itself"."""
    state = game("blackout", 4, first_dealer=first)
    assert state.dealer == first
    assert state.first_dealer == first
    state.apply_chance()
    assert state.to_act() == ((first + 1) % 4,)


def test_first_dealer_must_be_a_seat() -> None:
    """docs/games/blackout.md, Hands and schedule: "Seats are numbered 0 to n−1 clockwise"."""
    with pytest.raises(ValueError, match="first_dealer"):
        game("blackout", 4, first_dealer=4)


def test_first_dealer_from_the_seed() -> None:
    """docs/games/blackout.md, Hands and schedule: "The first dealer is chosen from the game's seed
    (so a game replays exactly)"."""
    rules = load_ruleset("blackout")
    dealers = {new_game(rules, players=4, seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    for seed in range(10):
        a, b = new_game(rules, players=4, seed=seed), new_game(rules, players=4, seed=seed)
        assert a.dealer == b.dealer
        a.apply_chance()
        b.apply_chance()
        assert a.hands == b.hands
        assert a.turn_up == b.turn_up
