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
    """docs/games/blackout.md, Players and deck: "In a trick the highest trump wins; if no trump was
    played, the highest card of the suit led wins" (the family's rule)."""
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
    """docs/games/buckup.md, Play: "A trick is won by the highest trump in it, or if it holds no
    trump by the highest card of the suit led" (ace high)."""
    assert plain(None).winner(trick(*plays)) == winner
    assert plain(CLUBS if plays[0][-1] != "C" else DIAMONDS).winner(trick(*plays)) == winner


@pytest.mark.parametrize("trump", [None, HEARTS])
def test_off_suit_discards_never_win(trump: int | None) -> None:
    """docs/games/blackout.md, Players and deck: "A card of another suit never wins" - a discard of
    another (non-trump) suit cannot win."""
    tables = plain(trump)
    assert tables.winner(trick("2D", "AC", "AS", "KC")) == 0
    assert tables.winner(trick("3C", "AD", "2C", "AS", "KD")) == 0


def test_blukes_beat_trumps_and_each_other() -> None:
    """docs/games/bluke.md, Players and deck: "Strength in a trick, from the top: the Hi Bluke; the
    Lo Bluke; the trumps"."""
    tables = plain(SPADES)
    assert tables.winner(trick("AS", "LB", "KS")) == 1
    assert tables.winner(trick("AS", "LB", "HB")) == 2
    assert tables.winner(trick("HB", "LB", "AS")) == 0
    assert tables.winner(trick("2C", "AC", "LB")) == 2
    no_trump = plain(None)
    assert no_trump.winner(trick("AD", "LB", "KD")) == 1


def test_led_bluke_sets_no_suit_and_wins() -> None:
    """docs/games/bluke.md, Play: "A Bluke led sets no suit … The led Bluke wins the trick unless
    the other Bluke is played to it"."""
    tables = plain(HEARTS)
    assert tables.suit_of[parse_card("LB")] == FREE
    assert tables.winner(trick("LB", "AH", "AS")) == 0
    assert tables.winner(trick("LB", "AH", "HB")) == 2


def test_jokers_as_trumps_are_the_two_highest_trumps() -> None:
    """docs/games/bluke.md, Options: "`new_jersey` … the Blukes become the two highest trumps: the
    Hi Bluke above the Lo Bluke above the ace of trumps"."""
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
    """docs/games/bluke.md, Options: "`new_jersey` … When a Bluke is the turn-up, the hand has no
    trump and both Blukes keep their standard powers for that hand"."""
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
    """docs/games/caller_clag.md, Special hands: "`precedence_ORDER` … the trick goes to the card of
    the highest suit in the order, and among cards of that suit to the highest rank, so a discard of
    a higher suit beats the suit led"."""
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
    """docs/games/caller_clag.md, Special hands: "`nuloss`: ranks are reversed in every suit, trumps
    included: 2 is highest … and the ace is lowest"."""
    tables = build_tables(trump=trump, jokers_as_trump=False, nuloss=True)
    assert tables.winner(trick(*plays)) == winner


def test_nuloss_with_suit_precedence() -> None:
    """docs/games/caller_clag.md, Special hands: suit precedence, "the card of the highest suit in
    the order, and among cards of that suit to the highest rank", with `nuloss`, "2 is highest … and
    the ace is lowest"."""
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
    """docs/games/blackout.md, Players and deck: "In a trick the highest trump wins" - a trump
    played to a trick wins it."""
    state = blackout_hand()
    assert state.trump == HEARTS
    play_cards(state, ["AS", "KS", "3H", "QS"])
    assert winners_so_far(state) == [3]
    assert state.to_act() == (3,)


def test_played_highest_of_led_suit_and_off_suit_discard() -> None:
    """docs/games/blackout.md, Play: "the winner of each trick leads the next"; Players and deck: "A
    card of another suit never wins"."""
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
    """docs/games/blackout.md, Play: "A player who holds a card of the suit led must play one"; a
    void player's off-suit ace does not win."""
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
    """docs/games/bluke.md, Play: "a Bluke may always be played instead, even by a player who could
    follow suit", and it beats the trumps."""
    state = bluke_hand()
    play_cards(state, ["AH"])
    legal = {str(a) for a in state.legal_actions(2)}
    assert legal == {"play KH", "play LB"}
    play_cards(state, ["LB", "QH"])
    assert winners_so_far(state) == [2]


def test_played_jokers_as_trumps_new_jersey() -> None:
    """docs/games/bluke.md, Options: "`new_jersey` … a player who must follow a trump lead and whose
    only trump is a Bluke must play it", and the Blukes are the highest trumps."""
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
    """docs/games/caller_clag.md, Special hands: suit precedence, "so a discard of a higher suit
    beats the suit led"."""
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
    """docs/games/caller_clag.md, Special hands: "`nuloss`: ranks are reversed in every suit … 2 is
    highest … and the ace is lowest"."""
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
    """docs/games/blackout.md, Play: "the winner of each trick leads the next"."""
    state = at_dealer_zero("blackout", 4, 2)
    deal(state, hands, turn_up="2H")
    make_bids(state, [0, 0, 0, 1])
    play_cards(state, cards)
    assert winners_so_far(state) == [winner]
    assert state.to_act() == (winner,)
