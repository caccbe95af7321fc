"""Caller Clag (docs/games/caller_clag.md): the caller's size, kind and modifiers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from tests.helpers import act, assert_illegal, deal, finish_hand, game, legal, make_bids, play_cards
from tricktaker import ChanceOutcome, GameState, IllegalActionError
from tricktaker.cards import CLUBS, HEARTS, card_set, parse_card

# Seat 1 (eldest) wins tricks 1 and 2 with spades, seat 2 wins trick 3 with the ace of
# diamonds; clubs (the turn-up's suit) are never played.
HANDS = ["4S 5S 3D", "AS KS 2D", "2S 3S AD"]
PLAY = ["AS", "2S", "4S", "KS", "3S", "5S", "2D", "AD", "3D"]


def new_caller_clag(players: int = 3, options: Mapping[str, object] | None = None) -> GameState:
    """A new game whose first caller (dealer) is seat 0."""
    return game("caller_clag", players, options=options, first_dealer=0)


def called(
    kind: str,
    modifiers: Sequence[str] = (),
    hands: Sequence[str] = HANDS,
    turn_up: str = "2C",
) -> GameState:
    """Seat 0 calls a 3-card hand of ``kind`` with ``modifiers``; ``hands`` are dealt."""
    state = new_caller_clag()
    act(state, 0, "call_size 3")
    deal(state, hands, turn_up=turn_up)
    act(state, 0, f"call_kind {kind}")
    for modifier in modifiers:
        act(state, 0, f"call_modifier {modifier}")
    act(state, 0, "call_done")
    return state


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


# ------------------------------------------------------------------ the call


def test_caller_calls_size_three_to_seven_before_the_deal() -> None:
    """docs/games/caller_clag.md, Hands and schedule: "before each deal the caller chooses the hand
    size, 3 to 7 cards"; Deal and trump: "The caller calls the hand size (`call_size 3` … `call_size
    7`)"."""
    state = new_caller_clag()
    assert state.phase_name == "call_size"
    assert not state.is_chance()
    assert state.to_act() == (0,)
    assert legal(state, 0) == [f"call_size {n}" for n in range(3, 8)]
    assert legal(state, 1) == []
    assert_illegal(state, 1, "call_size 3", "turn order")
    assert_illegal(state, 0, "call_size 2", "Caller Clag calls")
    assert_illegal(state, 0, "call_size 8", "Caller Clag calls")
    assert_illegal(state, 0, "call_kind normal", "Caller Clag calls")
    assert_illegal(state, 0, "bid 1", "Caller Clag calls")
    act(state, 0, "call_size 5")
    assert state.hand_size == 5
    assert state.is_chance()
    assert state.phase_name == "deal"


def test_seven_players_may_call_seven_cards() -> None:
    """docs/games/caller_clag.md, Hands and schedule: "Every size from 3 to 7 is open at every table
    size from 3 to 7 players"."""
    state = new_caller_clag(players=7)
    assert legal(state, 0) == [f"call_size {n}" for n in range(3, 8)]
    act(state, 0, "call_size 7")
    state.apply_chance()
    assert all(bin(h).count("1") == 7 for h in state.hands)


def test_call_kind_after_seeing_own_cards_others_hidden_until_done() -> None:
    """docs/games/caller_clag.md, Deal and trump: "The caller looks at their own cards (nobody else
    sees theirs yet) and calls the kind of hand" and "adds any modifiers … and ends the call with
    `call_done`"."""
    state = new_caller_clag()
    act(state, 0, "call_size 3")
    deal(state, HANDS, turn_up="2C")
    assert state.phase_name == "call_kind"
    assert state.to_act() == (0,)
    assert state.observe(0).hand == card_set(HANDS[0].split())
    assert legal(state, 0) == [
        "call_kind normal",
        "call_kind no_trump",
        "call_kind bid_before_trump",
        "call_kind blind_bid",
        "call_kind blind_pile",
        "call_kind misere",
        "call_kind misere_no_trump",
    ]
    assert_illegal(state, 0, "call_done", "Caller Clag calls")
    assert_illegal(state, 0, "call_kind sideways", "Caller Clag calls")
    assert_illegal(state, 1, "call_kind normal", "turn order")
    for text in ("call_kind normal", "call_modifier nuloss"):
        for seat in (1, 2):
            assert state.observe(seat).hand is None
            assert not state.hand_visible(seat)
        act(state, 0, text)
    assert state.phase_name == "call_modifiers"
    assert "call_done" in legal(state, 0)
    for seat in (1, 2):
        assert state.observe(seat).hand is None
    act(state, 0, "call_done")
    assert state.phase_name == "bidding"
    for seat in range(3):
        assert state.observe(seat).hand == card_set(HANDS[seat].split())


def test_dealer_passes_left_and_new_caller_calls() -> None:
    """docs/games/caller_clag.md, Hands and schedule: "After each hand the deal passes to the left,
    and the new dealer is the new caller"."""
    state = new_caller_clag()
    act(state, 0, "call_size 3")
    state.apply_chance()
    act(state, 0, "call_kind normal")
    act(state, 0, "call_done")
    finish_hand(state)
    assert state.phase_name == "call_size"
    assert state.dealer == 1
    assert state.to_act() == (1,)
    assert_illegal(state, 0, "call_size 4", "turn order")
    act(state, 1, "call_size 4")
    assert state.hand_size == 4


@pytest.mark.parametrize("hands", [1, 2, 5])
def test_game_lasts_the_agreed_number_of_hands(hands: int) -> None:
    """docs/games/caller_clag.md, Options: "`hands` (int, 1 to 200, default `8`): the number of
    hands agreed in advance"."""
    state = new_caller_clag(options={"hands": hands})
    while not state.is_terminal():
        assert state.phase_name == "call_size"
        act(state, state.dealer, "call_size 3")
        state.apply_chance()
        act(state, state.dealer, "call_kind normal")
        act(state, state.dealer, "call_done")
        finish_hand(state)
    assert state.hands_played == hands
    assert [h.dealer for h in state.history] == [n % 3 for n in range(hands)]


# ------------------------------------------------------------------ kinds


def test_normal_call_scoring_and_description() -> None:
    """docs/games/caller_clag.md, Scoring: "Normal scoring (any kind but misère, without a madness):
    exactly the bid: 10 + 2 × tricks; anything else: 0"."""
    state = called("normal")
    assert state.trump == CLUBS
    assert state.turn_up == parse_card("2C")
    make_bids(state, [0, 2, 0])
    play_cards(state, PLAY)
    result = state.history[-1]
    assert result.tricks == (0, 2, 1)
    assert result.hand_scores == (10, 14, 0)
    assert result.special == {"caller_size": 3, "kind": "normal", "modifiers": []}


def test_call_no_trump() -> None:
    """docs/games/caller_clag.md, Special hands: "`no_trump`: no card is turned up; no trump"."""
    state = called("no_trump", hands=["4S 5S 3D", "AS KS 2D", "2H 3S AD"], turn_up="7H")
    assert state.trump is None
    assert state.observe(1).trump is None
    make_bids(state, [0, 1, 1])
    # Trick 1 is all spades. In trick 2 seat 2, now void in spades, discards 2H: it would win
    # at hearts trump, but there is no trump.
    play_cards(state, ["KS", "3S", "4S", "AS"])
    assert state.trick_winners == [1]
    assert state.trick == [(1, parse_card("AS"))]
    play_cards(state, ["2H", "5S"])
    assert state.trick_winners == [1, 1]


def test_call_bid_before_trump() -> None:
    """docs/games/caller_clag.md, Special hands: "`bid_before_trump`: the bids are made before the
    turn-up is exposed"."""
    state = called("bid_before_trump", turn_up="7H")
    assert state.phase_name == "bidding"
    for value in (0, 2):
        for seat in range(3):
            view = state.observe(seat)
            assert not view.trump_known
            assert view.turn_up is None
            assert view.trump is None
        act(state, state.to_act()[0], f"bid {value}")
    act(state, 0, "bid 0")
    view = state.observe(2)
    assert view.trump_known
    assert view.turn_up == parse_card("7H")
    assert view.trump == HEARTS


def test_call_blind_bid() -> None:
    """docs/games/caller_clag.md, Special hands: "`blind_bid`: the trump is turned up, but the other
    players bid before looking at their cards; they see them once all bids are in" (the caller has
    already seen theirs)."""
    state = called("blind_bid")
    assert state.phase_name == "bidding"
    for value in (1, 1):
        for seat in (1, 2):
            assert state.observe(seat).hand is None
        act(state, state.to_act()[0], f"bid {value}")
    act(state, 0, "bid 0")
    for seat in range(3):
        assert state.observe(seat).hand == card_set(HANDS[seat].split())


def test_call_blind_pile() -> None:
    """docs/games/caller_clag.md, Special hands: "`blind_pile`: the other players' cards stay
    face-down piles, bid blind and played in the order dealt, one card per turn"."""
    state = called("blind_pile")
    for seat in (1, 2):
        assert state.observe(seat).hand is None
    make_bids(state, [1, 1, 1])
    if state.is_chance():
        state.apply_chance()
    assert state.phase_name == "playing"
    assert legal(state, 1) == ["play_pile"]
    assert_illegal(state, 1, "play AS", "blind pile")
    for seat in (1, 2):
        assert state.observe(seat).hand is None
    finish_hand(state)
    result = state.history[-1]
    for seat in range(3):
        played = tuple(card for trick in result.trick_cards for s, card in trick if s == seat)
        assert played == result.deal[seat]
        assert set(played) == set(cards(HANDS[seat]))


def test_call_blind_pile_non_callers_play_in_deal_order() -> None:
    """docs/games/caller_clag.md, Choices we made: "in a blind pile their cards are shuffled back
    into a pile (the other piles are played in the order dealt, first card dealt first, as in
    Clag)"."""
    state = new_caller_clag()
    act(state, 0, "call_size 7")
    piles = [
        "2C 3C 4C 5C 6C 7C 8C",
        "AS 2H KS 3H QS 4H JS",
        "AD 2S KD 3S QD 4S JD",
    ]
    deal(state, piles, turn_up="9H")
    act(state, 0, "call_kind blind_pile")
    act(state, 0, "call_done")
    make_bids(state, [1, 1, 1])
    if state.is_chance():
        state.apply_chance()  # the seeded shuffle, as a real game would do
    finish_hand(state)
    result = state.history[-1]
    for seat in (1, 2):
        played = tuple(card for trick in result.trick_cards for s, card in trick if s == seat)
        assert played == cards(piles[seat])


@pytest.mark.parametrize(("kind", "trump"), [("misere", CLUBS), ("misere_no_trump", None)])
def test_call_misere(kind: str, trump: int | None) -> None:
    """docs/games/caller_clag.md, Special hands: "`misere`: the trump is turned up; everyone bids 0
    and tries to take no tricks; misère scoring. `misere_no_trump`: as `misere`, without a trump";
    Scoring: "Misère kinds: no tricks at all: 10; otherwise −2 for each trick taken"."""
    state = called(kind)
    assert state.trump == trump
    for seat in (1, 2, 0):
        assert legal(state, seat) == ["bid 0"]
        assert_illegal(state, seat, "bid 1", "misere")
        act(state, seat, "bid 0")
    play_cards(state, PLAY)
    result = state.history[-1]
    assert result.tricks == (0, 2, 1)
    assert result.hand_scores == (10, -4, -2)
    assert result.special == {"caller_size": 3, "kind": kind, "modifiers": []}


# ------------------------------------------------------------------ modifiers


def test_suit_precedence_no_trump_follow_suit_higher_suit_wins() -> None:
    """docs/games/caller_clag.md, Special hands: "`precedence_ORDER` … There is no trump. Players
    must still follow suit, but the trick goes to the card of the highest suit in the order, and
    among cards of that suit to the highest rank, so a discard of a higher suit beats the suit
    led"."""
    hands = ["2H 5D 6D", "AS 2D 3D", "KS 3H 4D"]
    state = called("normal", ["precedence_HCDS"], hands=hands, turn_up="9C")
    assert state.trump is None
    assert state.turn_up is None
    make_bids(state, [1, 1, 1])
    play_cards(state, ["AS"])
    assert legal(state, 2) == ["play KS"]
    assert_illegal(state, 2, "play 3H", "follow suit")
    play_cards(state, ["KS", "2H"])
    assert state.trick_winners == [0]
    # Diamonds led by seat 0: all follow, the highest diamond wins (same suit, by rank).
    play_cards(state, ["5D", "2D", "4D"])
    assert state.trick_winners == [0, 0]
    # Seat 0 leads 6D; seat 1 follows 3D; seat 2 discards 3H (hearts outrank diamonds).
    play_cards(state, ["6D", "3D", "3H"])
    result = state.history[-1]
    assert result.trick_winners == (0, 0, 2)
    assert result.special == {
        "caller_size": 3,
        "kind": "normal",
        "modifiers": ["precedence_HCDS"],
    }


def test_suit_precedence_other_order() -> None:
    """docs/games/caller_clag.md, Special hands: "The caller names an order of the four suits,
    highest first" - any order, e.g. spades over diamonds over clubs over hearts."""
    hands = ["2S 5D 6D", "AH 2D 3D", "KH 3S 4D"]
    state = called("normal", ["precedence_SDCH"], hands=hands, turn_up="9C")
    make_bids(state, [1, 1, 1])
    play_cards(state, ["AH", "KH", "2S"])
    assert state.trick_winners == [0]


def test_nuloss_with_trump() -> None:
    """docs/games/caller_clag.md, Special hands: "`nuloss`: ranks are reversed in every suit, trumps
    included: 2 is highest, then 3, …, king, and the ace is lowest"."""
    hands = ["KH 6D 7D", "AH 2D 3D", "2H 4D 5D"]
    state = called("normal", ["nuloss"], hands=hands, turn_up="9H")
    assert state.trump == HEARTS
    make_bids(state, [1, 1, 1])
    play_cards(state, ["AH", "2H", "KH"])
    assert state.trick_winners == [2]
    play_cards(state, ["5D", "7D", "2D"])
    assert state.trick_winners == [2, 1]
    play_cards(state, ["3D", "4D", "6D"])
    assert state.history[-1].trick_winners == (2, 1, 1)


def test_nuloss_no_trump_ace_is_lowest() -> None:
    """docs/games/caller_clag.md, Special hands: "`nuloss`: ranks are reversed in every suit … 2 is
    highest … and the ace is lowest"."""
    hands = ["KS 6D 7D", "AS 2D 3D", "QS 4D 5D"]
    state = called("no_trump", ["nuloss"], hands=hands, turn_up="9H")
    assert state.trump is None
    make_bids(state, [1, 1, 1])
    play_cards(state, ["AS", "QS", "KS"])
    assert state.trick_winners == [2]


def test_blind_hand_piles_after_bidding() -> None:
    """docs/games/caller_clag.md, Special hands: "`blind_hand`: after looking at their cards and
    bidding, each player's hand is shuffled into a face-down pile and played from the top, one card
    per turn, with no choice"."""
    state = called("normal", ["blind_hand"])
    for seat in range(3):
        assert state.observe(seat).hand == card_set(HANDS[seat].split())
    make_bids(state, [0, 2, 0])
    assert state.phase_name == "pile_shuffle"
    assert state.is_chance()
    piles = ["3D 4S 5S", "KS 2D AS", "2S AD 3S"]
    bad = cards("4S 5S 3D KS 2D AS 2S 3S AC")
    before = state.record().dumps()
    with pytest.raises(IllegalActionError) as info:
        state.apply_chance(ChanceOutcome("piles", bad))
    assert info.value.rule == "blind hand"
    assert state.record().dumps() == before
    state.apply_chance(ChanceOutcome("piles", tuple(c for p in piles for c in cards(p))))
    assert state.phase_name == "playing"
    assert legal(state, 1) == ["play_pile"]
    assert_illegal(state, 1, "play KS", "blind pile")
    finish_hand(state)
    result = state.history[-1]
    assert result.deal == tuple(cards(p) for p in piles)
    for seat in range(3):
        played = tuple(card for trick in result.trick_cards for s, card in trick if s == seat)
        assert played == cards(piles[seat])
    # Seat 1 leads KS, seat 2 plays 2S, seat 0 plays 3D: no follow-suit choice, KS wins.
    assert result.trick_cards[0] == (
        (1, parse_card("KS")),
        (2, parse_card("2S")),
        (0, parse_card("3D")),
    )
    assert result.trick_winners[0] == 1


def test_blind_hand_seeded_piles_hold_each_hand() -> None:
    """docs/games/caller_clag.md, Special hands: "`blind_hand`: … each player's hand is shuffled
    into a face-down pile" (a chance step, reproducible from the seed)."""
    state = called("normal", ["blind_hand"])
    make_bids(state, [0, 2, 0])
    state.apply_chance()
    finish_hand(state)
    result = state.history[-1]
    for seat in range(3):
        assert sorted(result.deal[seat]) == sorted(cards(HANDS[seat]))


@pytest.mark.parametrize(
    ("modifier", "hand_scores"),
    [
        # Trick winners: seat 1 (trick 1), seat 1 (trick 2), seat 2 (trick 3).
        # Ascending: 2k for trick k. Seat 1 exact 2: 10 + 2 + 4; seat 2 (bid 0, took 1): 6.
        ("ascending_madness", (10, 16, 6)),
        # Descending: 2 x 3, 4, 2. Seat 1 exact: 10 + 6 + 4; seat 2: 2.
        ("descending_madness", (10, 20, 2)),
    ],
)
def test_madness_scoring(modifier: str, hand_scores: tuple[int, ...]) -> None:
    """docs/games/caller_clag.md, Scoring: "ascending madness: exactly the bid: 10, anything else 0"
    and "the winner of trick k (counting from 1) scores 2 × k, exact or not"; "descending madness:
    exactly the bid: 10, anything else 0; in addition the winner of the first trick scores 2 × hand
    size, of the second 2 less, and so on down to 2 for the last trick"."""
    state = called("normal", [modifier])
    make_bids(state, [0, 2, 0])
    play_cards(state, PLAY)
    result = state.history[-1]
    assert result.trick_winners == (1, 1, 2)
    assert result.hand_scores == hand_scores


def test_descending_madness_seven_cards() -> None:
    """docs/games/caller_clag.md, Scoring: "descending madness: … the winner of the first trick
    scores 2 × hand size, of the second 2 less, and so on down to 2 for the last trick"."""
    state = new_caller_clag()
    act(state, 0, "call_size 7")
    hands = [
        "2D 3D 4D 5D 6D 7D 8D",
        "AS KS QS JS 10S 9S 8S",
        "2H 3H 4H 5H 6H 7H 8H",
    ]
    deal(state, hands, turn_up="2C")
    act(state, 0, "call_kind normal")
    act(state, 0, "call_modifier descending_madness")
    act(state, 0, "call_done")
    make_bids(state, [0, 6, 0])
    finish_hand(state)
    result = state.history[-1]
    assert result.tricks == (0, 7, 0)
    # Seat 1 (bid 6, took 7) is not exact: 14 + 12 + 10 + 8 + 6 + 4 + 2 = 56.
    assert result.hand_scores == (10, 56, 10)


def test_non_exact_is_the_hook_for_that_hand() -> None:
    """docs/games/caller_clag.md, Special hands: "`non_exact`: the hook rule for this hand: the
    caller, bidding last, may not bring the total of the bids to the number of tricks"."""
    state = called("normal", ["non_exact"])
    assert state.hook
    act(state, 1, "bid 2")
    act(state, 2, "bid 0")
    assert legal(state, 0) == ["bid 0", "bid 2", "bid 3"]
    assert_illegal(state, 0, "bid 1", "hook rule")
    act(state, 0, "bid 0")
    assert state.phase_name == "playing"


def test_without_non_exact_no_hook() -> None:
    """docs/games/caller_clag.md, Bidding: "The bids may add up to the number of tricks, unless the
    caller called `non_exact`"."""
    state = called("normal")
    assert not state.hook
    act(state, 1, "bid 2")
    act(state, 2, "bid 0")
    assert legal(state, 0) == ["bid 0", "bid 1", "bid 2", "bid 3"]
    act(state, 0, "bid 1")
    assert state.phase_name == "playing"


@pytest.mark.parametrize(
    ("kind", "first", "refused", "word"),
    [
        ("misere", None, "ascending_madness", "misere"),
        ("misere_no_trump", None, "descending_madness", "misere"),
        ("normal", "ascending_madness", "descending_madness", "madness"),
        ("blind_pile", None, "blind_hand", "pile"),
        ("normal", "precedence_HCDS", "precedence_SHDC", "precedence"),
        ("normal", "nuloss", "nuloss", "nuloss"),
        ("normal", None, "precedence_HHCD", "modifier"),
        ("normal", None, "sideways", "modifier"),
    ],
)
def test_illegal_combinations_refused(
    kind: str, first: str | None, refused: str, word: str
) -> None:
    """docs/games/caller_clag.md, Choices we made: "Combinations that make no sense are refused,
    with a message saying why"; Special hands: "Limits: …"."""
    state = new_caller_clag()
    act(state, 0, "call_size 3")
    deal(state, HANDS, turn_up="2C")
    act(state, 0, f"call_kind {kind}")
    if first is not None:
        act(state, 0, f"call_modifier {first}")
    assert f"call_modifier {refused}" not in legal(state, 0)
    error = assert_illegal(state, 0, f"call_modifier {refused}", "Caller Clag modifiers")
    assert word in error.reason
    act(state, 0, "call_done")
    assert state.phase_name == "bidding"


def test_modifier_after_call_done_refused() -> None:
    """docs/games/caller_clag.md, Deal and trump: "The caller adds any modifiers, one at a time
    (`call_modifier NAME`), and ends the call with `call_done`"; no modifier can be added after
    that."""
    state = called("normal")
    assert_illegal(state, 0, "call_modifier nuloss", "turn order")


# ------------------------------------------------------- the calls, as the layers see them


def test_the_calls_are_the_hands_public_actions_read_back_from_the_view() -> None:
    """docs/games/caller_clag.md, Deal and trump: the call is public; every seat's
    observation gives back the caller's actions so far (what a sampler replays and a
    remote seat narrates), ``call_done`` once the hand has left the call."""
    state = new_caller_clag()
    hooks = state.rules.hooks
    assert hooks is not None
    assert hooks.public_actions(state.observe(1)) == []
    act(state, 0, "call_size 3")
    assert [str(a) for _, a in hooks.public_actions(state.observe(2))] == ["call_size 3"]
    deal(state, HANDS, turn_up="2C")
    act(state, 0, "call_kind no_trump")
    act(state, 0, "call_modifier nuloss")
    during = hooks.public_actions(state.observe(1))
    assert [str(a) for _, a in during] == [
        "call_size 3",
        "call_kind no_trump",
        "call_modifier nuloss",
    ]
    act(state, 0, "call_done")
    after = hooks.public_actions(state.observe(2))
    assert {seat for seat, _ in after} == {0}  # the caller's
    assert [str(a) for _, a in after] == [*(str(a) for _, a in during), "call_done"]


def test_the_terminal_reads_the_callers_words_through_the_present_capability() -> None:
    """docs/games/caller_clag.md, Choices we made: the call is taken step by step, "size
    before the deal; kind, modifiers and "done" after". At the terminal a hand size is a
    number, a kind or modifier a name or a number from the list, ``done`` finishes; a
    word that is no kind is refused with the kinds. The words are the game's own (its
    ``present`` capability), not the terminal's."""
    from tricktaker.cli.human import action_label, lists_choices, prompt_text, read_reply
    from tricktaker.cli.render import Cards
    from tricktaker.present.game import game_present

    state, plain = new_caller_clag(), Cards(symbols=False)
    game = game_present(state.rules)

    def reply(text: str) -> str:
        answer = read_reply(text, state.observe(0), plain)
        return str(answer.action) if answer.action is not None else f"error: {answer.error}"

    assert prompt_text(state.observe(0), plain) == "Call the hand size (3-7): "
    assert not lists_choices(state.observe(0))
    assert reply("5") == "call_size 5"
    act(state, 0, "call_size 3")
    deal(state, HANDS, turn_up="2C")
    assert lists_choices(state.observe(0))
    assert prompt_text(state.observe(0), plain).startswith("Call the kind of hand")
    assert reply("no trump") == "call_kind no_trump"
    assert reply("2") == "call_kind no_trump"
    assert reply("bogus").startswith("error: 'bogus' is not a kind of hand; the kinds are: normal")
    act(state, 0, "call_kind normal")
    assert prompt_text(state.observe(0), plain).startswith("Add a modifier")
    assert [action_label(a, plain, game) for a in state.legal_actions(0)[:2]] == ["done", "nuloss"]
    assert reply("done") == reply("1") == reply("finish") == "call_done"
    assert reply("precedence_hcds") == "call_modifier precedence_HCDS"
    assert reply("blind-hand") == "call_modifier blind_hand"
    assert reply("nonsense") == "call_modifier nonsense"  # refused later, with the reason
