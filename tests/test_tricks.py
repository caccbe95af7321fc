"""Who wins a trick: hand-built tricks on the card tables, and the same rules in played hands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from tests.helpers import act, at_hand, deal, game, make_bids, play_cards
from tricktaker import GameState, IllegalActionError
from tricktaker.cards import CLUBS, DIAMONDS, HEARTS, SPADES, parse_card
from tricktaker.engine.tables import FREE, CardTables, build_tables


def trick(*plays: str) -> list[tuple[int, int]]:
    """A trick written as cards in play order; the seats are 0, 1, 2, ... in that order."""
    return [(seat, parse_card(card)) for seat, card in enumerate(plays)]


def plain(trump: int | None) -> CardTables:
    return build_tables(trump=trump, jokers_as_trump=False)


def at_dealer_zero(
    name: str, players: int, number: int, options: Mapping[str, object] | None = None
) -> GameState:
    """Scheduled hand ``number`` of a left-passing game, dealt by seat 0 (seat 1 is eldest)."""
    return at_hand(name, players, number, options=options, first_dealer=(1 - number) % players)


def assert_illegal(state: GameState, seat: int, text: str, rule: str) -> None:
    before = state.record().dumps()
    with pytest.raises(IllegalActionError) as info:
        act(state, seat, text)
    assert info.value.rule == rule
    assert state.record().dumps() == before


def winners_so_far(state: GameState) -> list[int]:
    return list(state.trick_winners)


# ------------------------------------------------------------------ card tables


@pytest.mark.parametrize(
    ("plays", "trump", "winner"),
    [
        (("10S", "2H", "AS", "KS"), HEARTS, 1),
        (("10S", "2H", "AS", "3H"), HEARTS, 3),
        (("2H", "AS", "AC", "AD"), HEARTS, 0),
        (("KC", "2C", "AC", "QD"), SPADES, 2),
    ],
)
def test_trump_beats_led_suit(plays: tuple[str, ...], trump: int, winner: int) -> None:
    """RULES.md, Bluke: "Ranking: ... then trumps A..2, then the led suit" (the family's rule)."""
    assert plain(trump).winner(trick(*plays)) == winner


@pytest.mark.parametrize(
    ("plays", "winner"),
    [
        (("5D", "KD", "AS", "9D"), 1),
        (("2D", "3D", "4D", "5D"), 3),
        (("AC", "KC", "QC", "JC"), 0),
        (("10H", "JH", "9H", "2H"), 1),
    ],
)
def test_highest_card_of_led_suit_wins(plays: tuple[str, ...], winner: int) -> None:
    """RULES.md, Buckup: "Highest trump wins, else highest of the led suit" (ace high)."""
    assert plain(None).winner(trick(*plays)) == winner
    assert plain(CLUBS if plays[0][-1] != "C" else DIAMONDS).winner(trick(*plays)) == winner


@pytest.mark.parametrize("trump", [None, HEARTS])
def test_off_suit_discards_never_win(trump: int | None) -> None:
    """RULES.md, Common terms: "Follow suit" - a discard of another (non-trump) suit cannot win."""
    tables = plain(trump)
    assert tables.winner(trick("2D", "AC", "AS", "KC")) == 0
    assert tables.winner(trick("3C", "AD", "2C", "AS", "KD")) == 0


def test_blukes_beat_trumps_and_each_other() -> None:
    """RULES.md, Bluke: "Hi Bluke beats everything, Lo Bluke beats everything but Hi Bluke"."""
    tables = plain(SPADES)
    assert tables.winner(trick("AS", "LB", "KS")) == 1
    assert tables.winner(trick("AS", "LB", "HB")) == 2
    assert tables.winner(trick("HB", "LB", "AS")) == 0
    assert tables.winner(trick("2C", "AC", "LB")) == 2
    no_trump = plain(None)
    assert no_trump.winner(trick("AD", "LB", "KD")) == 1


def test_led_bluke_sets_no_suit_and_wins() -> None:
    """RULES.md, Bluke: "A Bluke led sets no suit ... The Bluke wins the trick unless the other
    Bluke is played"."""
    tables = plain(HEARTS)
    assert tables.suit_of[parse_card("LB")] == FREE
    assert tables.winner(trick("LB", "AH", "AS")) == 0
    assert tables.winner(trick("LB", "AH", "HB")) == 2


def test_jokers_as_trumps_are_the_two_highest_trumps() -> None:
    """RULES.md, Bluke: New Jersey: "the Blukes belong to the trump suit (highest two trumps)"."""
    tables = build_tables(trump=SPADES, jokers_as_trump=True)
    assert tables.suit_of[parse_card("HB")] == SPADES
    assert tables.suit_of[parse_card("LB")] == SPADES
    assert tables.winner(trick("AS", "LB", "KS")) == 1
    assert tables.winner(trick("LB", "AS", "HB")) == 2
    # A joker led is a trump lead: it is beaten only by the other joker.
    assert tables.winner(trick("LB", "AS", "2C")) == 0
    # A trump (the joker) beats the led suit.
    assert tables.winner(trick("AD", "KD", "LB")) == 2


def test_jokers_as_trumps_without_trump_stay_free() -> None:
    """RULES.md, Bluke: "When a Bluke is turned up (no trump) in the New Jersey variant, the
    Blukes keep their standard behaviour for that hand"."""
    tables = build_tables(trump=None, jokers_as_trump=True)
    assert tables.suit_of[parse_card("HB")] == FREE
    assert tables.winner(trick("AD", "LB", "KD")) == 1
    assert tables.winner(trick("AD", "LB", "HB")) == 2


@pytest.mark.parametrize(
    ("order", "plays", "winner"),
    [
        ("HCDS", ("AS", "2H", "KS"), 1),
        ("HCDS", ("2D", "AD", "KC"), 2),
        ("HCDS", ("2H", "AC", "AD", "AS"), 0),
        ("HCDS", ("3S", "4S", "2S"), 1),
        ("SDHC", ("AH", "2S", "KD"), 1),
        ("SDHC", ("AC", "2H", "KC"), 1),
        ("CDHS", ("AS", "2C", "AD"), 1),
    ],
)
def test_suit_precedence_highest_suit_then_rank(
    order: str, plays: tuple[str, ...], winner: int
) -> None:
    """RULES.md, Clag: "the trick goes to the highest card by suit order, then rank (so a
    higher-suit discard beats the led suit)"."""
    precedence = tuple("CDHS".index(ch) for ch in order)
    tables = build_tables(trump=None, jokers_as_trump=False, precedence=precedence)
    assert tables.winner(trick(*plays)) == winner


@pytest.mark.parametrize(
    ("plays", "trump", "winner"),
    [
        (("AC", "2C", "KC"), None, 1),
        (("5D", "3D", "4D"), None, 1),
        (("KS", "AS", "QS"), None, 2),
        (("AH", "2H", "3D"), DIAMONDS, 2),
        (("5C", "AD", "2D"), DIAMONDS, 2),
        (("AD", "KD", "3C"), HEARTS, 1),
    ],
)
def test_nuloss_reverses_ranks(plays: tuple[str, ...], trump: int | None, winner: int) -> None:
    """RULES.md, Clag: "Nuloss: ranks reversed, 2 high ... ace low" (trumps too)."""
    tables = build_tables(trump=trump, jokers_as_trump=False, nuloss=True)
    assert tables.winner(trick(*plays)) == winner


def test_nuloss_with_suit_precedence() -> None:
    """RULES.md, Clag: suit precedence "highest card by suit order, then rank" with Nuloss
    "2 high ... ace low"."""
    precedence = tuple("CDHS".index(ch) for ch in "HCDS")
    tables = build_tables(trump=None, jokers_as_trump=False, nuloss=True, precedence=precedence)
    assert tables.winner(trick("AH", "2H", "KS")) == 1
    assert tables.winner(trick("2S", "AC", "3S")) == 1


# ------------------------------------------------------------------ played hands


def blackout_hand() -> GameState:
    """Blackout, 4 players, hand 3 (3 cards), dealer 0, hearts trump."""
    state = at_dealer_zero("blackout", 4, 3)
    deal(
        state,
        ["QS 4C 5D", "AS 9D 9C", "KS 3D 10C", "3H AC 6D"],
        turn_up="2H",
    )
    make_bids(state, [0, 1, 1, 1])
    return state


def test_played_trump_beats_led_suit() -> None:
    """RULES.md, Blackout: "Trump by turn-up" - a trump played to a trick wins it."""
    state = blackout_hand()
    assert state.trump == HEARTS
    play_cards(state, ["AS", "KS", "3H", "QS"])
    assert winners_so_far(state) == [3]
    assert state.to_act() == (3,)


def test_played_highest_of_led_suit_and_off_suit_discard() -> None:
    """RULES.md, Common terms: "the winner of a trick leads the next" and off-suit cards lose."""
    state = blackout_hand()
    play_cards(state, ["AS", "KS", "3H", "QS"])
    # Seat 3 leads the ace of clubs; seats 0, 1, 2 follow with clubs (4C, 9C, 10C).
    play_cards(state, ["AC", "4C", "9C", "10C"])
    assert winners_so_far(state) == [3, 3]
    # Seat 3 leads 6D: 5D, 9D and 3D follow; the nine is the highest diamond.
    play_cards(state, ["6D", "5D", "9D", "3D"])
    result = state.history[-1]
    assert result.trick_winners == (3, 3, 1)
    assert result.tricks == (0, 1, 0, 2)


def test_played_off_suit_ace_does_not_win() -> None:
    """RULES.md, Common terms: "a player holding a card of the led suit must play one"; a void
    player's off-suit ace does not win."""
    state = at_dealer_zero("blackout", 4, 2)
    deal(state, ["KC 3S", "2D 4S", "AC 5S", "AS 6S"], turn_up="2H")
    make_bids(state, [0, 1, 0, 0])
    play_cards(state, ["2D", "AC", "AS", "KC"])
    assert winners_so_far(state) == [1]


def bluke_hand() -> GameState:
    """Bluke, 3 players, hand 11 (3 cards), dealer 0, hearts trump."""
    state = at_dealer_zero("bluke", 3, 11)
    assert state.hand_size == 3
    deal(state, ["QH 2C 3C", "AH 5D 6D", "KH LB 7D"], turn_up="2H")
    make_bids(state, [1, 1, 1])
    return state


def test_played_bluke_beats_trump_even_when_holding_led_suit() -> None:
    """RULES.md, Bluke: "a Bluke may be played at any time, even by a player who could follow
    suit" and it beats the trumps."""
    state = bluke_hand()
    play_cards(state, ["AH"])
    legal = {str(a) for a in state.legal_actions(2)}
    assert legal == {"play KH", "play LB"}
    play_cards(state, ["LB", "QH"])
    assert winners_so_far(state) == [2]


def test_played_jokers_as_trumps_new_jersey() -> None:
    """RULES.md, Bluke: New Jersey: "a player must follow a trump lead with a Bluke if it is
    their only trump" and the Blukes are the highest trumps."""
    state = at_dealer_zero("bluke", 3, 3, options={"new_jersey": True})
    assert state.hand_size == 3
    deal(state, ["QS 2C 3C", "AS 5D 6D", "HB 7D 8D"], turn_up="2S")
    make_bids(state, [1, 1, 1])
    play_cards(state, ["AS"])
    assert [str(a) for a in state.legal_actions(2)] == ["play HB"]
    assert_illegal(state, 2, "play 7D", "follow suit")
    play_cards(state, ["HB", "QS"])
    assert winners_so_far(state) == [2]


def test_played_suit_precedence_discard_wins() -> None:
    """RULES.md, Clag: suit precedence "(so a higher-suit discard beats the led suit)"."""
    state = game("caller_clag", 3, first_dealer=0)
    act(state, 0, "call_size 3")
    deal(state, ["KS 2C 3C", "AS 5D 6D", "2H 7D 8D"], turn_up="9C")
    act(state, 0, "call_kind normal")
    act(state, 0, "call_modifier precedence_HCDS")
    act(state, 0, "call_done")
    assert state.trump is None
    make_bids(state, [0, 1, 1])
    play_cards(state, ["AS", "2H", "KS"])
    assert winners_so_far(state) == [2]


def test_played_nuloss_two_beats_ace() -> None:
    """RULES.md, Clag: "Nuloss: ranks reversed, 2 high ... ace low"."""
    state = game("caller_clag", 3, first_dealer=0)
    act(state, 0, "call_size 3")
    deal(state, ["KS 2C 3C", "AS 5D 6D", "2S 7D 8D"], turn_up="9H")
    act(state, 0, "call_kind normal")
    act(state, 0, "call_modifier nuloss")
    act(state, 0, "call_done")
    make_bids(state, [0, 1, 1])
    play_cards(state, ["AS", "2S", "KS"])
    assert winners_so_far(state) == [2]


@pytest.mark.parametrize(
    ("hands", "cards", "winner"),
    [
        (["QS 2C", "AS 3C", "KS 4C", "3H 5C"], ["AS", "KS", "3H", "QS"], 3),
        (["JS 2C", "AS 3C", "KS 4C", "QS 5C"], ["AS", "KS", "QS", "JS"], 1),
    ],
)
def test_trick_winner_leads_next(hands: list[str], cards: Sequence[str], winner: int) -> None:
    """RULES.md, Common terms: "the winner of a trick leads the next"."""
    state = at_dealer_zero("blackout", 4, 2)
    deal(state, hands, turn_up="2H")
    make_bids(state, [0, 0, 0, 1])
    play_cards(state, cards)
    assert winners_so_far(state) == [winner]
    assert state.to_act() == (winner,)
