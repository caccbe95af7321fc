"""Cooperative Blackout (docs/games/coop_blackout.md)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tests.helpers import assert_illegal, deal, game, make_bids, play_cards
from tricktaker import ChanceOutcome, GameState, HandResult, IllegalActionError
from tricktaker.bots import make_bot, play_game
from tricktaker.cards import HEARTS, SPADES, parse_card
from tricktaker.engine.actions import bid

# ---------------------------------------------------------------------- helpers


def deal_from_eldest(state: GameState, hands: Sequence[str]) -> None:
    """Deal ``hands`` listed in playing order: the eldest's first, then clockwise."""
    n = state.players
    per_seat = [""] * n
    for i, cards in enumerate(hands):
        per_seat[(state.eldest + i) % n] = cards
    deal(state, per_seat)


def draw_trump(state: GameState, card: str) -> None:
    """Resolve the second-deck chance step with ``card``."""
    state.apply_chance(ChanceOutcome("second_deck", (parse_card(card),)))


def bids_from_eldest(state: GameState, values: Sequence[int]) -> None:
    for value in values:
        state.apply(state.to_act()[0], bid(value))


def play_hand(
    state: GameState, hands: Sequence[str], bids: Sequence[int], cards: Sequence[str]
) -> HandResult:
    """A whole hand with hearts trump (2H from the second deck): ``hands`` dealt and
    ``bids`` made from the eldest, then ``cards`` played; the hand's result."""
    deal_from_eldest(state, hands)
    draw_trump(state, "2H")
    bids_from_eldest(state, bids)
    play_cards(state, cards)
    return state.history[-1]


def legal_bids(state: GameState, seat: int) -> list[int]:
    return [int(a.value) for a in state.legal_actions(seat)]


def play_first_legal(state: GameState) -> None:
    """Play the rest of the hand, each seat playing its first legal card."""
    while state.phase_name == "playing":
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])


def play_hand_exactly(state: GameState) -> None:
    """From the bidding of a hand: bid what the cards will make, then play it out."""
    probe = state.clone()
    while probe.phase_name == "bidding":
        seat = probe.to_act()[0]
        probe.apply(seat, probe.legal_actions(seat)[0])
    play_first_legal(probe)
    make_bids(state, list(probe.history[-1].tricks))
    play_first_legal(state)
    assert state.history[-1].all_exact


def deal_seeded(state: GameState) -> None:
    """The seeded deal and the seeded second-deck trump."""
    state.apply_chance()
    assert state.phase_name == "trump_draw"
    state.apply_chance()


# ------------------------------------------------------------------------ trump


def test_trump_comes_from_a_second_deck() -> None:
    """docs/games/coop_blackout.md, Deal and trump: "Then one card is drawn from the second,
    separately shuffled deck: its suit is trump, and it is shown as the hand's turn-up"."""
    state = game("coop_blackout", 4)
    deal_from_eldest(state, ["AS", "KS", "QS", "JS"])
    assert state.is_chance()
    assert state.phase_name == "trump_draw"
    assert state.to_act() == ()
    assert state.sample_chance().kind == "second_deck"
    assert not state.observe(0).trump_known
    assert state.observe(0).trump is None
    assert_illegal(state, state.eldest, bid(0), "turn order")
    # a separate deck: the drawn card may be one that was dealt
    draw_trump(state, "AS")
    assert state.trump == SPADES
    assert state.turn_up == parse_card("AS")
    assert state.phase_name == "bidding"
    view = state.observe(2)
    assert view.trump == SPADES
    assert view.turn_up == parse_card("AS")


def test_second_deck_step_checks_its_outcome() -> None:
    """docs/games/coop_blackout.md, Deal and trump: "one card is drawn from the second, separately
    shuffled deck: its suit is trump" (one standard card: no joker, no other kind of step)."""
    state = game("coop_blackout", 4)
    deal_from_eldest(state, ["AS", "KS", "QS", "JS"])
    before = state.record().dumps()
    for outcome in (
        ChanceOutcome("second_deck", (52,)),
        ChanceOutcome("second_deck", (1, 2)),
        ChanceOutcome("deal", tuple(range(52))),
    ):
        with pytest.raises(IllegalActionError):
            state.apply_chance(outcome)
        assert state.record().dumps() == before


def test_seeded_second_deck_card_is_the_turn_up() -> None:
    """docs/games/coop_blackout.md, Deal and trump: "its suit is trump, and it is shown as the
    hand's turn-up" (drawn from the game's seed, so it replays exactly)."""
    for seed in range(10):
        state = game("coop_blackout", 4, seed=seed)
        state.apply_chance()
        outcome = state.sample_chance()
        assert outcome.kind == "second_deck"
        assert len(outcome.cards) == 1
        assert 0 <= outcome.cards[0] < 52
        state.apply_chance()
        assert state.turn_up == outcome.cards[0]
        assert state.trump == outcome.cards[0] // 13


def test_trump_even_when_every_card_is_dealt() -> None:
    """docs/games/coop_blackout.md, Deal and trump: "Because that deck is always full, every hand
    has a trump, even when the whole first deck is dealt" (the 13-card hand of four players)."""
    state = game("coop_blackout", 4, seed=2)
    for _ in range(12):
        deal_seeded(state)
        play_hand_exactly(state)
    assert state.hand_size == 13
    state.apply_chance()
    assert state.rest == ()
    assert state.phase_name == "trump_draw"
    draw_trump(state, "7H")
    assert state.trump == HEARTS
    assert state.turn_up == parse_card("7H")


def test_every_played_hand_has_a_trump() -> None:
    """docs/games/coop_blackout.md, Deal and trump: "every hand has a trump"."""
    state = game("coop_blackout", 2, options={"max_hands": 30}, seed=4)
    play_game(state, [make_bot("random", seed=s) for s in range(2)])
    assert state.history
    for hand in state.history:
        assert hand.trump is not None
        assert hand.turn_up is not None
        assert hand.trump == hand.turn_up // 13


# ----------------------------------------------------------------------- bids


def test_bids_total_the_hand_size() -> None:
    """docs/games/coop_blackout.md, Bidding: "The bids must add up to exactly the number of tricks
    in the hand: no bid may be larger than the tricks still unclaimed (the hand size minus the bids
    already made) … the dealer, bidding last, has no choice"."""
    state = game("coop_blackout", 4, seed=1, first_dealer=0)
    deal_seeded(state)
    play_hand_exactly(state)
    assert state.hand_size == 2
    deal_seeded(state)
    first = state.to_act()[0]
    assert first == state.eldest
    assert legal_bids(state, first) == [0, 1, 2]
    assert_illegal(state, first, bid(3), "bid range")
    state.apply(first, bid(1))
    second = state.to_act()[0]
    assert legal_bids(state, second) == [0, 1]
    message = str(assert_illegal(state, second, bid(2), "bids total the hand size"))
    assert "at most 1" in message
    state.apply(second, bid(1))
    third = state.to_act()[0]
    assert legal_bids(state, third) == [0]
    assert_illegal(state, third, bid(1), "bids total the hand size")
    state.apply(third, bid(0))
    last = state.to_act()[0]
    assert last == state.dealer
    assert legal_bids(state, last) == [0]
    assert_illegal(state, last, bid(1), "bids total the hand size")
    state.apply(last, bid(0))
    assert state.phase_name == "playing"
    assert sum(b for b in state.bids if b is not None) == 2


def test_last_bid_is_forced_up() -> None:
    """docs/games/coop_blackout.md, Bidding: "once each; nobody may pass. A bid may be 0. … the
    dealer, bidding last, has no choice: their bid is whatever makes the total right"."""
    state = game("coop_blackout", 4, seed=1, first_dealer=0)
    deal_seeded(state)
    play_hand_exactly(state)
    deal_seeded(state)
    bids_from_eldest(state, [0, 0, 0])
    last = state.to_act()[0]
    assert legal_bids(state, last) == [2]
    message = str(assert_illegal(state, last, bid(0), "bids total the hand size"))
    assert "must be 2" in message
    assert_illegal(state, last, bid(1), "bids total the hand size")
    state.apply(last, bid(2))
    assert state.bids[last] == 2
    assert sorted(b for b in state.bids if b is not None) == [0, 0, 0, 2]


# -------------------------------------------------------- advancing the schedule

# Hands of one and of two cards (in order from the eldest), all spades: the eldest takes
# every trick; the cards of the two-card hands played trick by trick.
ONE_CARD = ["AS", "2S", "3S", "4S"]
TWO_CARDS = ["AS KS", "2S 3S", "4S 5S", "6S 7S"]
TWO_CARDS_PLAYED = ["AS", "2S", "4S", "6S", "KS", "3S", "5S", "7S"]


def test_exact_advances_inexact_replays_and_the_deal_passes_left() -> None:
    """docs/games/coop_blackout.md, Scoring: "yes: the table moves on to the next hand size … no:
    the same hand size is dealt again (by the next dealer)"; Hands and schedule: "After every hand
    the deal passes to the left, whether or not the table moves on"."""
    state = game("coop_blackout", 4, first_dealer=0)
    # hand 1 (1 card): all exact
    assert play_hand(state, ONE_CARD, [1, 0, 0, 0], ONE_CARD).all_exact
    assert state.hand_size == 2
    assert state.dealer == 1
    # hand 2 (2 cards): the eldest takes both tricks but bid 1: not exact
    assert not play_hand(state, TWO_CARDS, [1, 1, 0, 0], TWO_CARDS_PLAYED).all_exact
    assert state.hand_size == 2
    assert state.dealer == 2
    # hand 3 (2 cards again): all exact
    assert play_hand(state, TWO_CARDS, [2, 0, 0, 0], TWO_CARDS_PLAYED).all_exact
    assert state.hand_size == 3
    assert state.dealer == 3
    assert [h.hand_size for h in state.history] == [1, 2, 2]
    assert [h.dealer for h in state.history] == [0, 1, 2]
    assert state.hands_played == 3
    assert not state.is_terminal()


def test_no_per_player_scores() -> None:
    """docs/games/coop_blackout.md, Scoring: "There are no individual points. … The result of the
    game is the number of hands played and whether the schedule was completed"."""
    state = game("coop_blackout", 3, options={"max_hands": 6}, seed=7)
    play_game(state, [make_bot("random", seed=s) for s in range(3)])
    assert state.scores == [0, 0, 0]
    for hand in state.history:
        assert hand.hand_scores == (0, 0, 0)
        assert hand.total_scores == (0, 0, 0)
    view = state.observe(0)
    assert view.cooperative
    assert view.scores == (0, 0, 0)


@pytest.mark.parametrize("cap", [1, 3, 5])
def test_max_hands_cap_is_a_loss(cap: int) -> None:
    """docs/games/coop_blackout.md, Options: "`max_hands` (int, 1 to 10000, default `100`): the
    number of hands allowed. A game that has not completed the schedule when this many hands have
    been played ends and is lost"."""
    state = game("coop_blackout", 4, options={"max_hands": cap}, seed=cap)
    play_game(state, [make_bot("random", seed=s) for s in range(4)])
    assert state.is_terminal()
    assert state.hands_played == cap
    assert not state.completed
    assert state.winners() == []


def test_default_cap_is_100() -> None:
    """docs/games/coop_blackout.md, Options: "`max_hands` (int, 1 to 10000, default `100`)"."""
    state = game("coop_blackout", 7, seed=1)
    assert state.rules.options["max_hands"] == 100
    assert state.rules.spec.schedule.max_hands == 100


def test_inexact_hand_at_the_cap_ends_the_game() -> None:
    """docs/games/coop_blackout.md, Options: "`max_hands` (int, 1 to 10000, default `100`): the
    number of hands allowed. A game that has not completed the schedule when this many hands have
    been played ends and is lost"."""
    state = game("coop_blackout", 4, options={"max_hands": 2}, first_dealer=0)
    play_hand(state, ONE_CARD, [0, 1, 0, 0], ONE_CARD)
    assert not state.is_terminal()
    play_hand(state, ONE_CARD, [0, 1, 0, 0], ONE_CARD)
    assert state.is_terminal()
    assert not state.completed
    assert state.winners() == []
    assert state.hands_played == 2
    assert_illegal(state, 0, bid(0), "end of game")


@pytest.mark.parametrize(("players", "sizes"), [(4, 13), (7, 7), (5, 10)])
def test_completing_the_schedule_wins(players: int, sizes: int) -> None:
    """docs/games/coop_blackout.md, End of the game: "The game ends when every hand size has been
    completed (the team wins; its result is the number of hands it took)"."""
    state = game("coop_blackout", players, seed=players)
    for number in range(1, sizes + 1):
        assert state.hand_size == number
        deal_seeded(state)
        play_hand_exactly(state)
    assert state.is_terminal()
    assert state.completed
    assert state.hands_played == sizes
    assert state.winners() == list(range(players))
    assert state.scores == [0] * players


def test_completing_the_schedule_with_replays() -> None:
    """docs/games/coop_blackout.md, Hands and schedule: "A size is dealt again and again until every
    player is exact in the same hand; then the table moves to the next size" (hands played counts
    the replays)."""
    state = game("coop_blackout", 7, seed=11, first_dealer=0)
    # hand 1 fails: the eldest takes the only trick but bid 0
    one_card = ["AS", "2S", "3S", "4S", "5S", "6S", "7S"]
    assert not play_hand(state, one_card, [0, 0, 0, 0, 0, 0, 1], one_card).all_exact
    assert state.hand_size == 1
    for _ in range(7):
        deal_seeded(state)
        play_hand_exactly(state)
    assert state.completed
    assert state.winners() == list(range(7))
    assert state.hands_played == 8
    assert [h.hand_size for h in state.history] == [1, 1, 2, 3, 4, 5, 6, 7]
    assert [h.dealer for h in state.history] == [0, 1, 2, 3, 4, 5, 6, 0]
