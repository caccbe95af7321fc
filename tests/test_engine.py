"""Engine contract tests (README.md, The library; the rules pages docs/games/<id>.md):
determinism, explicit chance steps, turn order, checked actions naming their rule, dealers,
winners and observations."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

import pytest

from tests.engine_cases import (
    expect_illegal,
    finish,
    first_deal,
    min_players,
    snapshot,
    to_first_bid,
)
from tests.helpers import act, at_hand, deal, game, make_bids, play_cards
from tricktaker import (
    ChanceOutcome,
    GameState,
    IllegalActionError,
    RulesetError,
    list_rulesets,
    load_ruleset,
    new_game,
)
from tricktaker.bots import make_bot, play_game
from tricktaker.cards import card_rank, card_set, card_suit, cards_of, parse_card
from tricktaker.engine.actions import Action, bid, play

# ------------------------------------------------------------------ determinism


@pytest.mark.parametrize("name", list_rulesets())
def test_same_seed_gives_the_same_deals(name: str) -> None:
    """README.md, The library: chance steps are "explicit and seeded", so a record "replays
    exactly"; docs/games/blackout.md, Hands and schedule: "The first dealer is chosen from
    the game's seed (so a game replays exactly)"."""
    players = min_players(name)
    one = new_game(load_ruleset(name), players=players, seed=42)
    two = new_game(load_ruleset(name), players=players, seed=42)
    assert one.first_dealer == two.first_dealer
    assert first_deal(one) == first_deal(two)
    assert one.hands == two.hands
    for state in (one, two):
        play_game(state, [make_bot("random", seed=s) for s in range(players)])
    assert one.history == two.history
    assert one.record().dumps() == two.record().dumps()


@pytest.mark.parametrize("name", list_rulesets())
def test_different_seeds_give_different_deals(name: str) -> None:
    players = min_players(name)
    deals = set()
    for seed in range(6):
        state = new_game(load_ruleset(name), players=players, seed=seed, first_dealer=0)
        deals.add(first_deal(state))
    assert len(deals) == 6


def test_the_seed_is_not_global_random_state() -> None:
    """README.md, The library: chance steps are "explicit and seeded" by the game's own
    seed, never by the module-level generator."""
    import random

    first = new_game(load_ruleset("bluke"), players=4, seed=9)
    random.seed(1)
    first.apply_chance()
    second = new_game(load_ruleset("bluke"), players=4, seed=9)
    random.seed(2)
    random.random()
    second.apply_chance()
    assert first.hands == second.hands


# ---------------------------------------------------------------- chance steps


def test_a_game_starts_with_an_explicit_chance_step() -> None:
    state = game("blackout", 4)
    assert state.is_chance()
    assert state.phase_name == "deal"
    assert state.to_act() == ()
    assert all(state.legal_actions(s) == [] for s in range(4))
    sampled = state.sample_chance()
    assert sampled.kind == "deal"
    assert sorted(sampled.cards) == list(range(52))
    assert state.sample_chance() == sampled  # sampling consumes nothing
    other = state.clone()
    state.apply_chance()
    other.apply_chance(sampled)
    assert state.record().dumps() == other.record().dumps()
    assert not state.is_chance()


def test_a_given_deal_is_dealt_exactly() -> None:
    state = game("blackout", 3)  # dealer 0, eldest 1; hand 1 has one card each
    order = state.deck_order_for([["AS"], ["2C"], ["10H"]], turn_up="KD")
    state.apply_chance(ChanceOutcome("deal", order))
    assert state.hands == [card_set(["AS"]), card_set(["2C"]), card_set(["10H"])]
    assert state.turn_up == parse_card("KD")
    assert state.observe(0).trump == card_suit(parse_card("KD"))
    assert state.rest[0] == parse_card("KD")
    assert sorted(state.rest + order[:3]) == list(range(52))


def test_the_deal_goes_round_from_the_dealers_left() -> None:
    """docs/games/blackout.md, Deal and trump: one card at a time, "starting with the player
    on their left"; docs/games/la_podrida.md, Deal and trump: counter-clockwise, "starting
    with the player on their right"."""
    state = game("blackout", 4, first_dealer=2)
    state.apply_chance(ChanceOutcome("deal", tuple(range(52))))
    assert state.hands[3] == 1 << 0  # the first card goes to the dealer's left
    assert state.hands[0] == 1 << 1
    podrida = game("la_podrida", 4, first_dealer=2)
    podrida.apply_chance(ChanceOutcome("deal", tuple(range(52))))
    first = cards_of(podrida.hands[1])  # the dealer's right receives the first card
    assert first[0] == 0


BAD_DEALS: dict[str, Callable[[list[int]], ChanceOutcome]] = {
    "wrong kind": lambda deck: ChanceOutcome("second_deck", (deck[0],)),
    "unknown kind": lambda deck: ChanceOutcome("shuffle", tuple(deck)),
    "piles kind": lambda deck: ChanceOutcome("piles", tuple(deck)),
    "a card missing": lambda deck: ChanceOutcome("deal", tuple(deck[1:])),
    "a card twice": lambda deck: ChanceOutcome("deal", (deck[1], *deck[1:])),
    "an extra card": lambda deck: ChanceOutcome("deal", (*deck, 52)),
    "empty": lambda deck: ChanceOutcome("deal", ()),
    "a joker instead of a card": lambda deck: ChanceOutcome("deal", (52, *deck[1:])),
}


@pytest.mark.parametrize("why", sorted(BAD_DEALS))
@pytest.mark.parametrize("name", ["blackout", "seven_truf", "bluke", "romanian_whist"])
def test_bad_chance_outcomes_are_refused(name: str, why: str) -> None:
    players = 4
    state = game(name, players)
    deck = list(state.rules.deck(players))
    outcome = BAD_DEALS[why](deck)
    if name == "bluke" and why == "a joker instead of a card":
        outcome = ChanceOutcome("deal", (0, *deck[:-1]))  # jokers are in the Bluke deck
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply_chance(outcome)
    assert info.value.rule in ("deck", "turn order")
    assert snapshot(state) == before
    assert state.is_chance()
    state.apply_chance()  # the proper step still works


def test_a_deal_from_another_deck_is_refused() -> None:
    """docs/games/seven_truf.md, Players and deck: 32 cards, A K Q J 10 9 8 7 in each suit,
    so a full 52-card order is not a permutation of its deck."""
    state = game("seven_truf", 4)
    with pytest.raises(IllegalActionError, match="whole deck"):
        state.apply_chance(ChanceOutcome("deal", tuple(range(52))))


def test_second_deck_trump_draw_is_a_chance_step() -> None:
    """docs/games/coop_blackout.md, Deal and trump: "one card is drawn from the second,
    separately shuffled deck: its suit is trump"."""
    state = game("coop_blackout", 3)
    state.apply_chance()
    assert state.phase_name == "trump_draw"
    assert state.is_chance()
    assert state.to_act() == ()
    assert state.observe(0).trump is None
    for bad in (
        ChanceOutcome("second_deck", (52,)),
        ChanceOutcome("second_deck", (1, 2)),
        ChanceOutcome("second_deck", ()),
        ChanceOutcome("deal", tuple(range(52))),
    ):
        before = snapshot(state)
        with pytest.raises(IllegalActionError):
            state.apply_chance(bad)
        assert snapshot(state) == before
    card = parse_card("QH")
    state.apply_chance(ChanceOutcome("second_deck", (card,)))
    assert state.turn_up == card
    assert state.trump == card_suit(card)
    assert state.phase_name == "bidding"


def test_pile_shuffle_is_a_chance_step_with_checked_piles() -> None:
    """Caller Clag blind hand: after bidding each hand is shuffled into a pile."""
    state = game("caller_clag", 3)
    act(state, 0, "call_size 3")
    state.apply_chance()
    act(state, 0, "call_kind normal")
    act(state, 0, "call_modifier blind_hand")
    act(state, 0, "call_done")
    make_bids(state, [0, 1, 1])
    assert state.phase_name == "pile_shuffle"
    assert state.is_chance()
    hands = [cards_of(h) for h in state.hands]
    wrong = [hands[1], hands[0], hands[2]]
    for bad in (
        ChanceOutcome("piles", tuple(c for pile in wrong for c in pile)),
        ChanceOutcome("piles", tuple(c for pile in hands for c in pile)[:-1]),
        ChanceOutcome("deal", tuple(range(52))),
    ):
        before = snapshot(state)
        with pytest.raises(IllegalActionError):
            state.apply_chance(bad)
        assert snapshot(state) == before
    piles = [list(reversed(h)) for h in hands]
    state.apply_chance(ChanceOutcome("piles", tuple(c for pile in piles for c in pile)))
    assert state.legal_actions(1) == [Action("play_pile")]
    state.apply(1, Action("play_pile"))
    assert state.trick == [(1, piles[1][0])]


def test_no_chance_step_outside_chance_phases() -> None:
    state = game("blackout", 4)
    state.apply_chance()
    assert not state.is_chance()
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        state.sample_chance()
    assert info.value.rule == "turn order"
    with pytest.raises(IllegalActionError):
        state.apply_chance()
    with pytest.raises(IllegalActionError):
        state.apply_chance(ChanceOutcome("deal", tuple(range(52))))
    assert snapshot(state) == before


def test_actions_are_refused_while_a_chance_step_is_pending() -> None:
    state = game("blackout", 4)
    for seat in range(4):
        expect_illegal(state, seat, bid(0), "turn order")
        expect_illegal(state, seat, play(0), "turn order")


# ------------------------------------------------------------------ turn order


def test_only_the_seat_to_act_has_legal_actions() -> None:
    """docs/games/jabberwocky.md, Bidding: "The eldest bids first"; Play: "The eldest leads
    the first trick; the winner of each trick leads the next"."""
    state = game("jabberwocky", 4, first_dealer=1)
    deal(state, ["2C 3C 4C", "5D 6D 7D", "AH KH QH", "8S 9S 10S"], turn_up="JD")
    for expected in (2, 3, 0, 1):  # eldest first, dealer last
        assert state.to_act() == (expected,)
        for seat in range(4):
            assert bool(state.legal_actions(seat)) == (seat == expected)
            assert state.observe(seat).is_my_turn == (seat == expected)
        state.apply(expected, bid(0) if expected != 1 else bid(1))
    assert state.phase_name == "playing"
    assert state.to_act() == (2,)  # eldest leads
    play_cards(state, ["AH", "10S", "4C", "7D"])  # trumps are diamonds: 7D wins
    assert state.to_act() == (1,)
    for seat in (0, 2, 3):
        assert state.legal_actions(seat) == []
        expect_illegal(state, seat, play(cards_of(state.hands[seat])[0]), "turn order")


def test_simultaneous_bidding_lets_every_seat_bid_once() -> None:
    """docs/games/kachuful.md, Bidding: everyone bids at the same time; Choices we made:
    "everyone can see who has already bid, but not what, until all bids are in"."""
    state = game("kachuful", 4)
    state.apply_chance()
    assert state.to_act() == (0, 1, 2, 3)
    state.apply(2, bid(1))
    assert state.to_act() == (0, 1, 3)
    assert state.legal_actions(2) == []
    expect_illegal(state, 2, bid(0), "turn order")
    assert state.observe(0).bids == (None, None, None, None)
    assert state.observe(2).bids == (None, None, 1, None)
    assert state.observe(0).bid_made == (False, False, True, False)
    for seat in (3, 0, 1):
        state.apply(seat, bid(0))
    assert state.phase_name == "playing"
    assert state.observe(0).bids == (0, 0, 1, 0)


def test_seats_outside_the_table_are_refused() -> None:
    state = game("blackout", 4)
    state.apply_chance()
    expect_illegal(state, 4, bid(0), "seats")
    expect_illegal(state, -1, bid(0), "seats")
    with pytest.raises(ValueError, match="no seat"):
        state.observe(4)


def test_acting_after_the_game_is_over_is_an_error() -> None:
    state = game("jabberwocky", 3)
    finish(state)
    assert state.is_terminal()
    assert state.phase_name == "game_over"
    assert state.to_act() == ()
    assert not state.is_chance()
    for seat in range(3):
        assert state.legal_actions(seat) == []
        expect_illegal(state, seat, bid(0), "end of game")
        expect_illegal(state, seat, play(0), "end of game")
    with pytest.raises(IllegalActionError):
        state.apply_chance()
    with pytest.raises(IllegalActionError):
        state.sample_chance()


# ------------------------------------------------------------------- dealers


def test_first_dealer_parameter() -> None:
    for first in range(5):
        state = game("blackout", 5, first_dealer=first)
        assert state.first_dealer == first
        assert state.dealer == first
        state.apply_chance()
        assert state.to_act() == ((first + 1) % 5,)
        assert state.observe(2).dealer == first
    with pytest.raises(ValueError, match="first_dealer"):
        new_game(load_ruleset("blackout"), players=4, first_dealer=4)
    with pytest.raises(ValueError, match="first_dealer"):
        new_game(load_ruleset("blackout"), players=4, first_dealer=-1)


def test_first_dealer_comes_from_the_seed() -> None:
    dealers = [new_game(load_ruleset("bluke"), players=4, seed=s).first_dealer for s in range(40)]
    assert set(dealers) == {0, 1, 2, 3}
    again = [new_game(load_ruleset("bluke"), players=4, seed=s).first_dealer for s in range(40)]
    assert dealers == again


@pytest.mark.parametrize(("name", "by_suit"), [("bluke", False), ("blackout", True)])
def test_draw_for_dealer_option_gives_the_highest_card_the_deal(name: str, by_suit: bool) -> None:
    """docs/games/bluke.md and blackout.md, Options: with `draw_for_dealer` the highest rank
    deals; Bluke: "players tied for highest draw again"; Blackout: "Ties are broken by
    suit"."""
    rules = load_ruleset(name, options={"draw_for_dealer": True})
    players = 5
    for seed in range(30):
        state = new_game(rules, players=players, seed=seed)
        draws = state.dealer_draw
        first_round = draws[:players]
        assert [s for s, _ in first_round] == list(range(players))
        assert len({c for _, c in draws}) == len(draws)  # drawn from one pack
        top = max(card_rank(c) for _, c in first_round)
        assert card_rank(dict(first_round)[state.first_dealer]) == top
        if by_suit:
            assert len(draws) == players
            best = max(first_round, key=lambda d: (card_rank(d[1]), card_suit(d[1])))
            assert state.first_dealer == best[0]
        else:
            # Tied players draw again, round after round, until one is highest.
            contenders, index = list(range(players)), 0
            while True:
                drawn = draws[index : index + len(contenders)]
                assert [s for s, _ in drawn] == contenders
                index += len(contenders)
                high = max(card_rank(c) for _, c in drawn)
                contenders = [s for s, c in drawn if card_rank(c) == high]
                if len(contenders) == 1:
                    break
            assert contenders == [state.first_dealer]
            assert index == len(draws)


@pytest.mark.parametrize(
    ("name", "players", "step"), [("blackout", 4, 1), ("la_podrida", 5, -1), ("clag", 3, 1)]
)
def test_dealer_rotation(name: str, players: int, step: int) -> None:
    """docs/games/blackout.md and clag.md, Hands and schedule: "After each hand the deal
    passes to the left" (docs/games/la_podrida.md, Hands and schedule: to the right);
    Bidding and Play: the eldest, on the dealer's left, bids first and leads the first
    trick."""
    state = game(name, players, first_dealer=1)
    bots = [make_bot("random", seed=s) for s in range(players)]
    expected_dealer = 1
    while not state.is_terminal():
        assert state.dealer == expected_dealer
        to_first_bid(state)
        assert state.to_act() == ((expected_dealer + 1) % players,)
        play_game(state, bots, until_hand_end=True)
        assert state.history[-1].dealer == expected_dealer
        assert state.history[-1].trick_cards[0][0][0] == (expected_dealer + 1) % players
        expected_dealer = (expected_dealer + step) % players


def test_coop_dealer_passes_left_when_a_hand_is_replayed() -> None:
    """docs/games/coop_blackout.md, Hands and schedule: "After every hand the deal passes to
    the left, whether or not the table moves on"."""
    state = game("coop_blackout", 3, options={"max_hands": 6}, first_dealer=2)
    finish(state)
    assert [h.dealer for h in state.history] == [(2 + i) % 3 for i in range(6)]


# ------------------------------------------------------------------- winners


def test_winners_are_the_highest_totals() -> None:
    for seed in range(5):
        state = game("up_and_down_the_river", 4, seed=seed)
        finish(state, seed)
        best = max(state.scores)
        assert state.winners() == [s for s, v in enumerate(state.scores) if v == best]
        assert state.winners()


def test_winners_share_a_tie() -> None:
    state = game("jabberwocky", 3)
    finish(state)
    state.scores = [4, 6, 6]
    assert state.winners() == [1, 2]


def test_cooperative_winners_are_everyone_or_no_one() -> None:
    """docs/games/coop_blackout.md, Choices we made: "The whole table wins or loses
    together, so there are no per-player scores"."""
    lost = game("coop_blackout", 4, options={"max_hands": 1})
    finish(lost)
    if lost.history[-1].all_exact:  # pragma: no cover - depends on the random bids
        pytest.skip("the random table got the one-card hand exactly")
    assert not lost.completed
    assert lost.winners() == []
    won = game("coop_blackout", 2)
    bots = [make_bot("random", seed=s) for s in range(2)]
    while not won.is_terminal():
        to_first_bid(won)
        # Find how a random play of the hand splits the tricks, then bid exactly that
        # and play the same cards (bids do not change which cards are legal).
        trial = won.clone()
        first = trial.to_act()[0]
        trial.apply(first, bid(0))
        trial.apply(1 - first, bid(trial.hand_size))
        play_game(trial, bots, until_hand_end=True)
        result = trial.history[-1]
        won.apply(first, bid(result.tricks[first]))
        won.apply(1 - first, bid(result.tricks[1 - first]))
        for trick in result.trick_cards:
            for seat, card in trick:
                won.apply(seat, play(card))
        assert won.history[-1].all_exact
    assert won.completed
    assert len(won.history) == 26
    assert won.winners() == [0, 1]
    assert won.scores == [0, 0]


# -------------------------------------------------------------- observations


def test_observation_fields_are_sane() -> None:
    state = game("blackout", 4, first_dealer=3)
    state.apply_chance()  # hand 1: one card each
    obs = state.observe(1)
    assert obs.seat == 1
    assert obs.players == 4
    assert obs.phase == "bidding"
    assert obs.hand_number == 1
    assert obs.hands_played == 0
    assert obs.hands_in_game == 13
    assert obs.hand_size == 1
    assert obs.dealer == 3
    assert obs.hand == state.hands[1]
    assert obs.my_cards == cards_of(state.hands[1])
    assert obs.cards_in_hand == 1
    assert obs.trump_known
    assert obs.turn_up == state.rest[0]
    assert obs.trump == card_suit(state.rest[0])
    assert obs.bids == (None, None, None, None)
    assert obs.to_act == (0,)
    assert not obs.is_my_turn
    assert obs.legal_actions == ()
    assert state.observe(0).legal_actions == (bid(0), bid(1))
    assert obs.scores == (0, 0, 0, 0)
    assert obs.tricks_won == (0, 0, 0, 0)
    assert obs.current_trick == ()
    assert obs.tricks == ()
    assert obs.played == 0
    assert obs.history == ()
    assert obs.rules is state.rules
    assert not obs.cooperative
    make_bids(state, [1, 0, 0, 0])
    obs = state.observe(1)
    assert obs.phase == "playing"
    assert obs.bids == (1, 0, 0, 0)
    assert obs.leader == 0
    first = cards_of(state.hands[0])[0]
    state.apply(0, play(first))
    obs = state.observe(1)
    assert obs.current_trick == ((0, first),)
    assert obs.played == 1 << first
    assert obs.is_my_turn
    assert [a.kind for a in obs.legal_actions] == ["play"]
    finish_hand = [make_bot("random", seed=s) for s in range(4)]
    play_game(state, finish_hand, until_hand_end=True)
    obs = state.observe(1)
    assert obs.hands_played == 1
    assert obs.hand_number == 2
    assert len(obs.history) == 1
    assert sum(obs.history[0].tricks) == 1
    assert obs.scores == tuple(state.scores)
    assert obs.dealer == 0


def test_observation_hides_own_cards_in_blind_hands() -> None:
    """docs/games/clag.md, Special hands: in hand 10 "everyone bids before looking at their
    own cards"; in hand 11 "Each player's cards stay a face-down pile"."""
    state = at_hand("clag", 4, 10)
    state.apply_chance()
    assert all(state.observe(s).hand is None for s in range(4))
    make_bids(state, [1, 2, 1, 0])
    assert all(state.observe(s).hand == state.hands[s] for s in range(4))
    play_game(state, [make_bot("random", seed=s) for s in range(4)], until_hand_end=True)
    state.apply_chance()  # hand 11: the pile
    make_bids(state, [1, 2, 1, 0])
    assert state.phase_name == "playing"
    assert all(state.observe(s).hand is None for s in range(4))
    assert all(state.observe(s).pile for s in range(4))


def test_observation_hides_the_trump_in_a_bid_before_trump_hand() -> None:
    """docs/games/clag.md, Special hands: in hand 9 "the turn-up is exposed only once all
    bids are in"."""
    state = at_hand("clag", 3, 9)
    state.apply_chance()
    obs = state.observe(state.to_act()[0])
    assert obs.trump is None
    assert obs.turn_up is None
    assert not obs.trump_known
    assert obs.tables is None
    make_bids(state, [1, 1, 1])
    obs = state.observe(0)
    assert obs.trump_known
    assert obs.turn_up == state.rest[0]


def test_new_game_checks_the_player_count() -> None:
    with pytest.raises(RulesetError, match="players"):
        new_game(load_ruleset("seven_truf"), players=5)
    with pytest.raises(RulesetError, match="players"):
        new_game(load_ruleset("bluke"), players=16)
    with pytest.raises(RulesetError, match="extended"):
        new_game(load_ruleset("bluke", options={"extended": True}), players=4)


def test_clone_is_independent() -> None:
    state = game("bluke", 3)
    state.apply_chance()
    make_bids(state, [1, 1, 1])
    before = snapshot(state)
    other = state.clone()
    finish(other)
    assert other.is_terminal()
    assert snapshot(state) == before
    twin = state.clone()
    finish(state, seed=5)
    finish(twin, seed=5)
    assert twin.record().dumps() == state.record().dumps()


def test_is_legal_agrees_with_legal_actions() -> None:
    state = game("romanian_whist", 4, seed=3)
    bots = [make_bot("random", seed=s) for s in range(4)]
    candidates = [bid(b) for b in range(-1, 10)] + [play(c) for c in range(54)]
    steps = 0
    while not state.is_terminal() and steps < 150:
        steps += 1
        if state.is_chance():
            state.apply_chance()
            continue
        for seat in range(4):
            legal = state.legal_actions(seat)
            for action in candidates:
                assert state.is_legal(seat, action) == (action in legal)
        seat = state.to_act()[0]
        state.apply(seat, bots[seat].act(state.observe(seat)))


def test_an_observation_cannot_change_the_game() -> None:
    """README.md, Command line: "Every bot sees only its own seat's observation", and that window
    is read-only: a bot that writes into what it was shown must not change the game (or
    any other game)."""
    state = game("caller_clag", 4, seed=2)
    play_game(state, [make_bot("random", seed=s) for s in range(4)], until_hand_end=True)
    to_first_bid(state)
    expected = state.clone()
    finish(expected, seed=3)
    obs = state.observe(state.to_act()[0])
    tables = obs.tables
    assert tables is not None
    special = obs.history[0].special
    assert special is not None
    saved_suits, saved_keys = list(tables.suit_of), list(tables.trump_key)
    saved_special = dict(special)
    try:
        with contextlib.suppress(TypeError, AttributeError):
            tables.suit_of[:] = [3] * len(tables.suit_of)  # type: ignore[index]
        with contextlib.suppress(TypeError, AttributeError):
            tables.trump_key[:] = [0] * len(tables.trump_key)  # type: ignore[index]
        with contextlib.suppress(TypeError, AttributeError):
            special["kind"] = "tampered"
        assert state.history[0].special == saved_special, "the history was changed"
        state_tables = state.tables
        assert state_tables is not None
        assert list(state_tables.suit_of) == saved_suits, "the card tables were changed"
        finish(state, seed=3)
        assert state.record().dumps() == expected.record().dumps()
    finally:  # undo, so that a shared table cannot spoil other tests
        with contextlib.suppress(TypeError, AttributeError):
            tables.suit_of[:] = saved_suits  # type: ignore[index]
            tables.trump_key[:] = saved_keys  # type: ignore[index]
        with contextlib.suppress(TypeError, AttributeError):
            special.clear()
            special.update(saved_special)


# ------------------------------------------------ the engine's own setters for search


def _playing(seed: int = 4) -> GameState:
    state = new_game(load_ruleset("blackout"), players=4, seed=seed)
    while not state.is_terminal() and state.phase_name != "playing":
        if state.is_chance():
            state.apply_chance()
        else:
            seat = state.to_act()[0]
            state.apply(seat, state.legal_actions(seat)[0])
    return state


def test_finish_hand_with_given_tricks_scores_them() -> None:
    state = _playing()
    size = state.hand_size
    tricks = [size, 0, 0, 0]
    bids = list(state.bids)
    before = list(state.scores)
    state.finish_hand(tricks, trick_winners=[0] * size)
    result = state.history[-1]
    assert result.tricks == tuple(tricks)
    assert result.trick_winners == (0,) * size
    score = state.rules.scoring.score_of
    expected = [score(bids[s] or 0, tricks[s], size, 4) for s in range(4)]
    assert [after - b for after, b in zip(state.scores, before, strict=True)] == expected
    with pytest.raises(ValueError, match="all 4 seats"):
        _playing().finish_hand([1, 2])


def test_replace_cards_changes_the_legal_cards() -> None:
    state = _playing()
    seat = state.to_act()[0]
    legal = state.legal_actions(seat)  # worked out, so cached
    held = state.hands[seat]
    other = (seat + 1) % 4
    swapped = {seat: state.hands[other], other: held}
    state.replace_cards(hands=swapped, dealt={seat: cards_of(swapped[seat])})
    assert state.hands[other] == held
    assert state.dealt[seat] == cards_of(swapped[seat])
    assert state.legal_actions(seat) != legal
    assert {a.value for a in state.legal_actions(seat)} <= set(cards_of(swapped[seat]))
    state.replace_cards(kitty=[1, 2])
    assert state.kitty == [1, 2]


def test_set_past_and_reseed() -> None:
    played = _playing()
    state = new_game(load_ruleset("blackout"), players=4, seed=0, first_dealer=2)
    state.set_past(hands_played=3, scores=[1, 2, 3, 4], history=played.history, dealer_draw=())
    assert (state.hands_played, state.scores, state.history) == (3, [1, 2, 3, 4], [])
    assert state.schedule_pos == 0  # only what is given changes
    state.reseed(99)
    assert state.seed == 99
    first = state.clone()
    first.apply_chance()
    again = new_game(load_ruleset("blackout"), players=4, seed=99, first_dealer=2)
    again.set_past(hands_played=3, scores=[1, 2, 3, 4])
    again.apply_chance()
    assert first.hands == again.hands
