"""Euchre, the 23-card auction version (docs/games/euchre.md), on hand-built deals.

Every test starts with seat 0 dealing, so seat 1 (left of the dealer) bids first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from tests.games.euchre_play import call, deal, discard, new
from tests.helpers import play_cards
from tricktaker import ChanceOutcome, GameState, IllegalActionError, load_ruleset, new_game, replay
from tricktaker.bots import make_bot, play_game
from tricktaker.cards import DIAMONDS, HEARTS, SPADES, format_card, parse_card
from tricktaker.engine.actions import Action, bid, play
from tricktaker.games.euchre.hooks import BIDS, bid_rank, contract_of, contract_points

# A deal for scoring (hearts trump, seat 1 declares): the same cards make 3, 4 or 5
# tricks for seats 1 & 3 depending on how they are played.
SCORING_DEAL = [
    "AD KD KH QH 10H",  # seat 0 (dealer)
    "JD JH AH 9C 10S",  # seat 1
    "AC KC QC JC 10C",  # seat 2
    "AS KS QS 9H JS",  # seat 3
]
SCORING_KITTY = "9D 10D QD"
OPENING = ["JD", "10C", "9H", "10H", "JH", "JC", "JS", "QH"]  # seat 1 wins both
THREE_TRICKS = [*OPENING, "AH", "QC", "QS", "KH", "9C", "AC", "KS", "AD", "KC", "AS", "KD", "10S"]
FOUR_TRICKS = [*OPENING, "10S", "QC", "AS", "AD", "KS", "KH", "9C", "KC", "KD", "AH", "AC", "QS"]
FIVE_TRICKS = [*OPENING, "AH", "QC", "QS", "KH", "10S", "KC", "AS", "AD", "KS", "KD", "9C", "AC"]

# A deal where the seat 0's only "diamond" is the JD (the left bower with hearts trump).
VOID_DEAL = [
    "JD AC AS JC KS",  # seat 0
    "9D 10D AH KH QH",  # seat 1
    "QD KD AD 9C 10C",  # seat 2
    "9H 10H 10S JS QS",  # seat 3
]
VOID_KITTY = "JH QC KC"

# A deal for bower ranks: seat 1 leads AH, seat 2 must play JH, seat 0 the JD.
BOWER_DEAL = [
    "JD AC AD AS JC",  # seat 0
    "AH 9C 10C QC KC",  # seat 1
    "JH 9D 10D QD KD",  # seat 2
    "KH 10S JS QS KS",  # seat 3
]
BOWER_KITTY = "QH 10H 9H"


# ---------------------------------------------------------------------- helpers


def declared(
    hands: Sequence[str],
    kitty: str,
    calls: Sequence[str],
    discards: str,
    options: Mapping[str, object] | None = None,
) -> GameState:
    """A first hand dealt, bid and discarded: the declarer is about to lead."""
    state = new(options)
    deal(state, hands, kitty)
    call(state, *calls)
    discard(state, discards)
    assert state.phase_name == "playing"
    return state


def legal_cards(state: GameState, seat: int) -> set[str]:
    return {format_card(int(a.value)) for a in state.legal_actions(seat)}


def legal_calls(state: GameState, seat: int) -> list[str]:
    return [str(a.value) if a.kind == "auction" else a.kind for a in state.legal_actions(seat)]


def assert_illegal(state: GameState, seat: int, action: Action, rule: str) -> IllegalActionError:
    """The action raises IllegalActionError naming ``rule`` and changes nothing."""
    before = state.record().dumps()
    views = [state.observe(s) for s in range(4)]
    with pytest.raises(IllegalActionError) as info:
        state.apply(seat, action)
    assert info.value.rule == rule, info.value
    assert not state.is_legal(seat, action)
    assert state.record().dumps() == before
    assert [state.observe(s) for s in range(4)] == views
    return info.value


# ------------------------------------------------------------------ deck and deal


def test_the_deck_is_23_cards_without_the_nine_of_spades() -> None:
    """docs/games/euchre.md, Players and deck: 23 cards, 9 to ace in every suit except the 9 of
    spades."""
    deck = load_ruleset("euchre").deck(4)
    assert len(deck) == 23
    names = {format_card(c) for c in deck}
    assert "9S" not in names
    for suit in "CDHS":
        for rank in ("10", "J", "Q", "K", "A"):
            assert rank + suit in names
    assert {"9C", "9D", "9H"} <= names
    assert not any(name[0] in "2345678" for name in names)


def test_players_and_partnerships() -> None:
    """docs/games/euchre.md, Players and deck: 4 players in two partnerships, seats 0 and 2
    against seats 1 and 3."""
    rules = load_ruleset("euchre")
    assert list(rules.player_counts) == [4]
    state = new()
    assert state.observe(0).partnerships == ((0, 2), (1, 3))


def test_the_deal_goes_in_packets_with_three_cards_to_the_kitty() -> None:
    """docs/games/euchre.md, Deal and trump: one card to the kitty, then 3, 2, 3, 2 cards to the
    players from the dealer's left; one card to the kitty; 2, 3, 2, 3; the last card to the
    kitty. Everyone has 5 cards, the kitty 3."""
    state = new()
    order = state.setup.deck  # 9C 10C JC ... in id order
    state.apply_chance(ChanceOutcome("deal", order))
    assert state.kitty == [order[0], order[11], order[22]]
    assert state.dealt[1] == [*order[1:4], *order[12:14]]
    assert state.dealt[2] == [*order[4:6], *order[14:17]]
    assert state.dealt[3] == [*order[6:9], *order[17:19]]
    assert state.dealt[0] == [*order[9:11], *order[19:22]]
    assert all(len(cards) == 5 for cards in state.dealt)
    assert state.rest == ()


def test_deck_order_for_builds_a_deal_with_a_kitty() -> None:
    state = new()
    deal(state, SCORING_DEAL, SCORING_KITTY)
    for seat in range(4):
        assert {format_card(c) for c in state.dealt[seat]} == set(SCORING_DEAL[seat].split())
    assert [format_card(c) for c in state.kitty] == SCORING_KITTY.split()


# --------------------------------------------------------------------- auction


def test_bids_rank_by_number_then_suit_and_no_trump_is_highest() -> None:
    """docs/games/euchre.md, Auction: more tricks beat fewer; at the same number the higher suit
    wins, diamonds > hearts > clubs > spades; no trump above all."""
    assert BIDS[:4] == ("3S", "3C", "3H", "3D")
    assert bid_rank("3D") > bid_rank("3H") > bid_rank("3C") > bid_rank("3S")
    assert bid_rank("4S") > bid_rank("3D")
    assert bid_rank("NT") > bid_rank("5D") == max(bid_rank(b) for b in BIDS if b != "NT")
    assert contract_of("4C") == (4, 0)
    assert contract_of("NT") == (5, None)


def test_the_auction_starts_left_of_the_dealer_and_goes_round() -> None:
    """docs/games/euchre.md, Auction: the auction starts on the dealer's left and goes round."""
    state = new()
    deal(state, SCORING_DEAL, SCORING_KITTY)
    assert state.phase_name == "auction"
    seen = []
    for text in ("3S", "3C", "3H", "3D"):
        seen.append(state.to_act()[0])
        call(state, text)
    assert seen == [1, 2, 3, 0]
    assert state.to_act() == (1,)
    for seat in (0, 2, 3):
        assert state.legal_actions(seat) == []
    assert_illegal(state, 2, Action("auction", "4D"), "turn order")


def test_every_bid_is_open_at_first_and_pass_is_always_allowed() -> None:
    """docs/games/euchre.md, Auction: A bid is a number of tricks (3, 4 or 5) and a suit, or no
    trump."""
    state = new()
    deal(state, SCORING_DEAL, SCORING_KITTY)
    assert legal_calls(state, 1) == ["pass", *BIDS]


def test_the_same_number_needs_a_higher_suit() -> None:
    """docs/games/euchre.md, Auction: at the same number the higher suit wins (diamonds > hearts >
    clubs > spades)."""
    state = new()
    deal(state, SCORING_DEAL, SCORING_KITTY)
    call(state, "3H")
    assert legal_calls(state, 2)[:3] == ["pass", "3D", "4S"]
    for lower in ("3H", "3C", "3S"):
        error = assert_illegal(state, 2, Action("auction", lower), "Euchre: auction")
        assert "does not beat the high bid 3H" in error.reason
    call(state, "3D")
    assert_illegal(state, 3, Action("auction", "3D"), "Euchre: auction")
    call(state, "4S")  # a higher number beats a lower one, whatever the suit
    assert state.observe(0).extra["high_bid"] == {"seat": 3, "bid": "4S"}


def test_no_trump_is_for_five_and_tops_every_bid() -> None:
    """docs/games/euchre.md, Auction: a no-trump bid is always for five tricks and beats every
    other bid."""
    state = new()
    deal(state, SCORING_DEAL, SCORING_KITTY)
    call(state, "5D")
    assert legal_calls(state, 2) == ["pass", "NT"]
    error = assert_illegal(state, 2, Action("auction", "4NT"), "Euchre: auction")
    assert "always for five" in error.reason
    call(state, "NT")
    for seat in (3, 0, 1):  # nothing outbids no trump: everyone else passes
        assert legal_calls(state, seat) == ["pass"]
        assert_illegal(state, seat, Action("auction", "NT"), "Euchre: auction")
        call(state, "pass")
    assert state.phase_name == "discard"
    assert state.observe(1).extra["contract"] == {
        "declarer": 2,
        "tricks": 5,
        "trump": "no_trump",
    }
    assert state.trump is None
    assert state.trump_known


def test_a_player_who_passes_is_out_for_the_hand() -> None:
    """docs/games/euchre.md, Auction: A player who passes is out of the auction for the hand."""
    state = new()
    deal(state, SCORING_DEAL, SCORING_KITTY)
    call(state, "pass", "3S", "3C", "pass")  # seats 1 and 0 pass
    assert state.to_act() == (2,)  # seat 1 is skipped from now on
    assert state.observe(3).extra["passed"] == [0, 1]
    call(state, "3H")
    assert state.to_act() == (3,)
    call(state, "pass")
    assert state.phase_name == "discard"  # seats 0 and 1 never speak again
    assert state.to_act() == (2,)
    auction = state.observe(1).extra["auction"]
    assert auction == [[1, "pass"], [2, "3S"], [3, "3C"], [0, "pass"], [2, "3H"], [3, "pass"]]


def test_a_player_who_has_bid_may_bid_again() -> None:
    """docs/games/euchre.md, Auction: a player who has bid may bid again when their turn comes
    round."""
    state = new()
    deal(state, SCORING_DEAL, SCORING_KITTY)
    call(state, "3H", "3D", "pass", "pass")
    assert state.to_act() == (1,)
    assert "4H" in legal_calls(state, 1)
    call(state, "4H", "pass")
    assert state.phase_name == "discard"
    assert state.observe(0).extra["contract"] == {"declarer": 1, "tricks": 4, "trump": "hearts"}
    assert state.trump == HEARTS


def test_the_auction_example_of_the_page() -> None:
    """docs/games/euchre.md, Auction: the example. Seat 1 bids 3H, seat 2 passes, seat 3
    bids 3D, seat 0 passes, seat 1 bids 4C, seat 3 passes: seat 1 declares four clubs."""
    state = new()
    deal(state, SCORING_DEAL, SCORING_KITTY)
    call(state, "3H", "pass", "3D", "pass")
    assert state.to_act() == (1,)
    call(state, "4C")
    assert state.to_act() == (3,)
    call(state, "pass")
    assert state.phase_name == "discard"
    assert state.observe(0).extra["contract"] == {"declarer": 1, "tricks": 4, "trump": "clubs"}


def test_the_auction_ends_when_every_other_player_has_passed_after_a_bid() -> None:
    """docs/games/euchre.md, Auction: The auction ends when every other player has passed after a
    bid."""
    state = new()
    deal(state, SCORING_DEAL, SCORING_KITTY)
    call(state, "3S", "pass", "pass")
    assert state.phase_name == "auction"  # the dealer has not spoken yet
    assert state.to_act() == (0,)
    call(state, "pass")
    assert state.phase_name == "discard"
    assert state.to_act() == (1,)
    assert state.trump == SPADES


def test_the_last_player_may_still_bid_after_three_passes() -> None:
    """docs/games/euchre.md, Bidding: If all four pass, the hand is thrown in (three are not
    enough)."""
    state = new()
    deal(state, SCORING_DEAL, SCORING_KITTY)
    call(state, "pass", "pass", "pass")
    assert state.to_act() == (0,)
    call(state, "3C")
    assert state.phase_name == "discard"
    assert state.to_act() == (0,)


def test_if_all_four_pass_the_hand_is_thrown_in_and_the_deal_passes_left() -> None:
    """docs/games/euchre.md, Bidding: if all four pass, the hand is thrown in and the deal passes
    to the left."""
    state = new()
    deal(state, SCORING_DEAL, SCORING_KITTY)
    call(state, "pass", "pass", "pass", "pass")
    assert state.hands_played == 1
    assert state.dealer == 1
    assert state.is_chance()
    assert state.phase_name == "deal"
    assert state.scores == [0, 0, 0, 0]
    hand = state.history[0]
    assert hand.tricks == (0, 0, 0, 0)
    assert hand.trick_cards == ()
    assert hand.hand_scores == (0, 0, 0, 0)
    assert hand.bids == ()
    assert hand.extra["thrown_in"] is True
    assert hand.extra["contract"] is None
    assert hand.extra["auction"] == [[1, "pass"], [2, "pass"], [3, "pass"], [0, "pass"]]
    assert hand.extra["kitty"] == SCORING_KITTY.split()
    assert hand.extra["discards"] == []
    # Nobody saw the kitty.
    for seat in range(4):
        seen = state.observe(seat).history[0]
        assert seen.extra["kitty"] is None
        assert seen.deal[seat] == state.history[0].deal[seat]
        assert all(cards == () for s, cards in enumerate(seen.deal) if s != seat)
    # The next hand: seat 2 (left of the new dealer) bids first.
    state.apply_chance()
    assert state.to_act() == (2,)
    assert state.observe(0).extra["auction"] == []


def test_the_auction_is_in_every_observation() -> None:
    """docs/games/euchre.md, Auction: the bids are public; Kitty and discard: only the declarer
    sees the kitty and the discards."""
    state = new()
    deal(state, SCORING_DEAL, SCORING_KITTY)
    call(state, "3C")
    extra = state.observe(3).extra
    assert extra == {
        "auction": [[1, "3C"]],
        "high_bid": {"seat": 1, "bid": "3C"},
        "passed": [],
        "contract": None,
        "kitty": None,
        "discards": None,
        "team_scores": [0, 0],
        "team_tricks": [0, 0],
        "target": 10,
    }
    assert state.observe(2).phase == "auction"


def test_illegal_calls_name_the_rule_and_change_nothing() -> None:
    """docs/games/euchre.md, Auction: A bid is a number of tricks (3, 4 or 5) and a suit, or no
    trump."""
    state = new()
    deal(state, SCORING_DEAL, SCORING_KITTY)
    for text in ("2H", "6D", "3X", "4", "nt"):
        error = assert_illegal(state, 1, Action("auction", text), "Euchre: auction")
        assert "not a bid" in error.reason or "five tricks" in error.reason
    assert_illegal(state, 1, bid(3), "Euchre: auction")
    assert_illegal(state, 1, Action("discard", parse_card("AH")), "Euchre: auction")
    assert_illegal(state, 1, play(parse_card("JD")), "Euchre: auction")
    assert_illegal(state, 0, Action("pass"), "turn order")


# ---------------------------------------------------------------- kitty, discard


def test_the_declarer_takes_the_kitty_and_discards_three_seen_by_no_one_else() -> None:
    """docs/games/euchre.md, Kitty and discard: The winning bidder takes the kitty, discards any
    three cards face down, and leads the first trick."""
    state = new()
    deal(state, SCORING_DEAL, SCORING_KITTY)
    call(state, "3H", "pass", "pass", "pass")
    assert state.phase_name == "discard"
    assert state.to_act() == (1,)
    hand = state.observe(1).my_cards
    assert {format_card(c) for c in hand} == set(f"{SCORING_DEAL[1]} {SCORING_KITTY}".split())
    assert legal_cards(state, 1) == {format_card(c) for c in hand}
    assert state.observe(1).extra["kitty"] == SCORING_KITTY.split()
    assert state.observe(1).extra["discards"] == []
    for seat in (0, 2, 3):
        assert state.observe(seat).extra["kitty"] is None
        assert state.observe(seat).extra["discards"] is None
        assert state.legal_actions(seat) == []
    # Any three cards, one at a time: here two of the hand and one of the kitty.
    assert_illegal(state, 1, Action("discard", parse_card("AC")), "Euchre: kitty and discard")
    assert_illegal(state, 1, play(parse_card("JD")), "Euchre: kitty and discard")
    assert_illegal(state, 1, Action("pass"), "Euchre: kitty and discard")
    assert_illegal(state, 2, Action("discard", parse_card("AC")), "turn order")
    discard(state, "9C 10S")
    assert state.phase_name == "discard"
    assert state.observe(1).extra["discards"] == ["9C", "10S"]
    assert state.observe(3).extra["discards"] is None
    discard(state, "9D")
    assert state.phase_name == "playing"
    assert state.to_act() == (1,)  # the declarer leads
    kept = {"JD", "JH", "AH", "10D", "QD"}
    assert {format_card(c) for c in state.observe(1).my_cards} == kept
    assert {format_card(c) for c in state.dealt[1]} == kept
    assert state.observe(1).extra["discards"] == ["9C", "10S", "9D"]
    assert state.observe(0).extra["discards"] is None
    play_cards(state, ["JD", "10C", "9H", "10H"])
    assert state.trick_winners == [1]
    play_game(state, [make_bot("random", seed=s) for s in range(4)], until_hand_end=True)
    result = state.history[0]
    assert {format_card(c) for c in result.deal[1]} == kept  # the cards it played with
    assert result.extra["kitty"] == SCORING_KITTY.split()
    assert result.extra["discards"] == ["9C", "10S", "9D"]
    assert result.extra["contract"] == {"bidder": 1, "tricks": 3, "trump": "hearts"}
    assert state.observe(1).history[0].extra["discards"] == ["9C", "10S", "9D"]
    for seat in (0, 2, 3):
        seen = state.observe(seat).history[0]
        assert seen.extra["kitty"] is None
        assert seen.extra["discards"] is None
        assert seen.deal[seat] == result.deal[seat]
        assert all(cards == () for s, cards in enumerate(seen.deal) if s != seat)
        assert seen.extra["auction"] == result.extra["auction"]


# ------------------------------------------------------------------------ trumps


def test_the_left_bower_is_the_highest_trump_by_default() -> None:
    """docs/games/euchre.md, Players and deck: the jack of the other suit of the same colour (the
    left bower) is highest, then the jack of trumps (the right bower), then A K Q 10 9 of trumps."""
    state = declared(BOWER_DEAL, BOWER_KITTY, ["3H", "pass", "pass", "pass"], BOWER_KITTY)
    tables = state.tables
    assert tables is not None
    order = ["JD", "JH", "AH", "KH", "QH", "10H", "9H"]
    keys = [tables.trump_key[parse_card(c)] for c in order]
    assert keys == sorted(keys, reverse=True)
    assert min(keys) > max(tables.trump_key[parse_card(c)] for c in ("AD", "AC", "AS", "JC"))
    play_cards(state, ["AH", "JH", "KH", "JD"])
    assert state.trick_winners == [0]


def test_the_usual_bower_order_is_an_option() -> None:
    """docs/games/euchre.md, Options: `usual_bower_order`, the usual order with the right bower
    highest (Choices we made: the left bower is highest by default)."""
    options = {"usual_bower_order": True}
    state = declared(BOWER_DEAL, BOWER_KITTY, ["3H", "pass", "pass", "pass"], BOWER_KITTY, options)
    tables = state.tables
    assert tables is not None
    order = ["JH", "JD", "AH", "KH", "QH", "10H", "9H"]
    keys = [tables.trump_key[parse_card(c)] for c in order]
    assert keys == sorted(keys, reverse=True)
    play_cards(state, ["AH", "JH", "KH", "JD"])
    assert state.trick_winners == [2]


def test_the_left_bower_follows_trumps_not_its_printed_suit() -> None:
    """docs/games/euchre.md, Players and deck: the left bower is a trump in every respect and not
    a card of its printed suit; Play: follow suit if you can (the left bower counts as a trump)."""
    # A heart led: the JD is seat 0's only heart, so it must be played.
    state = declared(VOID_DEAL, VOID_KITTY, ["3H", "pass", "pass", "pass"], "QC KC QH")
    assert state.tables is not None
    assert state.tables.suit_of[parse_card("JD")] == HEARTS
    play_cards(state, ["AH", "9C", "9H"])
    assert legal_cards(state, 0) == {"JD"}
    assert_illegal(state, 0, play(parse_card("AC")), "follow suit")
    play_cards(state, ["JD"])
    assert state.trick_winners == [0]  # and it wins as the highest trump


def test_the_left_bower_may_not_follow_its_printed_suit() -> None:
    """docs/games/euchre.md, Players and deck: the left bower is not a card of its printed suit:
    with hearts trump it cannot be played to a diamond lead."""
    hands = ["JD AC AD AS JC", "AH 9D 10C QC KC", "JH 9C 10D QD KD", "KH 10S JS QS KS"]
    state = declared(hands, BOWER_KITTY, ["3H", "pass", "pass", "pass"], BOWER_KITTY)
    play_cards(state, ["9D", "10D", "10S"])
    assert legal_cards(state, 0) == {"AD"}  # seat 0 holds JD and AD: only the AD follows
    assert_illegal(state, 0, play(parse_card("JD")), "follow suit")


def test_a_player_whose_only_diamond_is_the_left_bower_is_void_in_diamonds() -> None:
    """docs/games/euchre.md, Players and deck: with hearts trump the jack of diamonds is a heart
    in every respect; Play: a player who cannot follow may play any card."""
    state = declared(VOID_DEAL, VOID_KITTY, ["3H", "pass", "pass", "pass"], "QC KC QH")
    play_cards(state, ["9D", "AD", "10S"])
    assert legal_cards(state, 0) == {"JD", "AC", "AS", "JC", "KS"}
    play_cards(state, ["JD"])  # a trump on a diamond lead
    assert state.trick_winners == [0]


def test_no_trump_has_no_bowers_and_jacks_rank_between_queen_and_ten() -> None:
    """docs/games/euchre.md, Players and deck: at no trump there are no bowers; every suit ranks
    A K Q J 10 9."""
    state = declared(VOID_DEAL, VOID_KITTY, ["NT", "pass", "pass", "pass"], "QC KC JH")
    assert state.trump is None
    tables = state.tables
    assert tables is not None
    assert tables.suit_of[parse_card("JD")] == DIAMONDS
    assert tables.trump_mask == 0
    ranks = [tables.rank_of[parse_card(c)] for c in ("AD", "KD", "QD", "JD", "10D", "9D")]
    assert ranks == sorted(ranks, reverse=True)
    play_cards(state, ["9D", "QD", "9H"])
    assert legal_cards(state, 0) == {"JD"}  # at no trump the JD is a diamond
    play_cards(state, ["JD"])
    assert state.trick_winners == [2]  # QD beats JD; the off-suit 9H never wins
    play_cards(state, ["AD", "10S", "AS", "10D"])
    assert state.trick_winners == [2, 2]


# ---------------------------------------------------------------------- scoring


@pytest.mark.parametrize(
    ("contract", "cards", "scores", "team_tricks"),
    [
        ("3H", THREE_TRICKS, [0, 1, 0, 1], [2, 3]),
        ("4H", FOUR_TRICKS, [0, 1, 0, 1], [1, 4]),
        ("3H", FIVE_TRICKS, [0, 2, 0, 2], [0, 5]),
        ("4H", FIVE_TRICKS, [0, 2, 0, 2], [0, 5]),
        ("5H", FIVE_TRICKS, [0, 2, 0, 2], [0, 5]),
        ("4H", THREE_TRICKS, [2, 0, 2, 0], [2, 3]),
        ("5H", FOUR_TRICKS, [2, 0, 2, 0], [1, 4]),
    ],
    ids=["3-made-3", "4-made-4", "3-took-5", "4-took-5", "5-made-5", "4-set", "5-set"],
)
def test_scoring(
    contract: str, cards: list[str], scores: list[int], team_tricks: list[int]
) -> None:
    """docs/games/euchre.md, Scoring: the declarers who take at least the number bid score 1
    point for 3 or 4 tricks and 2 points for all five; if they fall short the defenders score 2
    (counted on the tricks taken: a bid of 3 or 4 that takes all five scores 2)."""
    state = declared(SCORING_DEAL, SCORING_KITTY, [contract, "pass", "pass", "pass"], "9D 10D QD")
    play_cards(state, cards)
    assert state.hands_played == 1
    hand = state.history[0]
    assert hand.extra["partnership_tricks"] == team_tricks
    assert list(hand.hand_scores) == scores
    assert state.scores == scores
    assert state.observe(0).extra["team_scores"] == [scores[0], scores[1]]
    assert hand.extra["thrown_in"] is False
    assert hand.to_json()["contract"] == {
        "bidder": 1,
        "tricks": int(contract[0]),
        "trump": "hearts",
    }


def test_contract_points() -> None:
    """docs/games/euchre.md, Scoring: 1 point for 3 or 4 tricks and 2 points for 5 tricks; if the
    declarers fall short the defenders score 2."""
    assert contract_points(bid_tricks=3, tricks=3) == 1
    assert contract_points(bid_tricks=3, tricks=4) == 1
    assert contract_points(bid_tricks=4, tricks=5) == 2
    assert contract_points(bid_tricks=5, tricks=5) == 2
    assert contract_points(bid_tricks=5, tricks=4) == -2
    assert contract_points(bid_tricks=3, tricks=0) == -2


def test_team_tricks_are_shown_during_play() -> None:
    state = declared(SCORING_DEAL, SCORING_KITTY, ["3H", "pass", "pass", "pass"], "9D 10D QD")
    play_cards(state, OPENING)
    assert state.observe(2).extra["team_tricks"] == [0, 2]


# ------------------------------------------------------------------------- game


def test_the_game_ends_when_a_team_reaches_the_target() -> None:
    """docs/games/euchre.md, End of the game: the game is to 10 points by default (option
    `target`)."""
    state = declared(
        SCORING_DEAL, SCORING_KITTY, ["3H", "pass", "pass", "pass"], "9D 10D QD", {"target": 2}
    )
    assert state.observe(0).extra["target"] == 2
    play_cards(state, THREE_TRICKS)
    assert not state.is_terminal()  # 1 point: not yet
    assert state.dealer == 1
    play_game(state, [make_bot("heuristic", seed=s) for s in range(4)])
    assert state.is_terminal()
    teams = state.observe(0).extra["team_scores"]
    assert max(teams) >= 2
    last = state.history[-1]
    before = [t - h for t, h in zip(last.total_scores, last.hand_scores, strict=True)]
    assert max(before) < 2
    best = 0 if teams[0] > teams[1] else 1
    assert state.winners() == [best, best + 2]
    assert state.scores[0] == state.scores[2]
    assert state.scores[1] == state.scores[3]


def test_a_whole_game_to_ten_with_the_deal_passing_left() -> None:
    """docs/games/euchre.md, End of the game: the game is to 10 points by default; Deal and
    trump: the deal passes to the left after every hand."""
    state = new(seed=3)
    play_game(state, [make_bot("heuristic", seed=s) for s in range(4)])
    assert state.is_terminal()
    assert max(state.scores) >= 10
    for number, hand in enumerate(state.history):
        assert hand.dealer == number % 4
        before = [t - h for t, h in zip(hand.total_scores, hand.hand_scores, strict=True)]
        assert max(before) < 10


@pytest.mark.parametrize("lineup", ["random", "heuristic", "mixed"])
def test_a_whole_game_by_bots_replays_from_its_record(lineup: str) -> None:
    """README.md, The library: every game must be replayable from its record of actions."""
    for seed in range(4):
        names = ["heuristic" if lineup == "heuristic" or s % 2 else "random" for s in range(4)]
        if lineup == "random":
            names = ["random"] * 4
        state = new_game(load_ruleset("euchre"), players=4, seed=seed)
        play_game(state, [make_bot(names[s], seed=seed * 4 + s) for s in range(4)])
        assert state.is_terminal()
        text = state.record().dumps()
        again = replay(type(state.record()).loads(text))
        assert again.history == state.history
        assert again.scores == state.scores
        assert again.record().dumps() == text
        check_hands(state)


def check_hands(state: GameState) -> None:
    """Every recorded hand obeys the Euchre rules for tricks, cards and scores."""
    for hand in state.history:
        extra = hand.extra
        if extra["thrown_in"]:
            assert hand.trick_cards == ()
            assert hand.hand_scores == (0, 0, 0, 0)
            continue
        contract = extra["contract"]
        bidder = contract["bidder"]
        team = bidder % 2
        made = extra["partnership_tricks"][team] >= contract["tricks"]
        points = (2 if extra["partnership_tricks"][team] == 5 else 1) if made else 2
        winners = team if made else 1 - team
        assert hand.hand_scores == tuple(points if s % 2 == winners else 0 for s in range(4))
        assert sum(hand.tricks) == 5
        assert hand.trick_cards[0][0][0] == bidder
        assert len(extra["discards"]) == 3
        assert len(extra["kitty"]) == 3
        assert all(len(cards) == 5 for cards in hand.deal)
        played = sorted(c for trick in hand.trick_cards for _, c in trick)
        assert played == sorted(c for cards in hand.deal for c in cards)
        discards = {parse_card(c) for c in extra["discards"]}
        assert not discards & set(played)
        auction = extra["auction"]
        high = [call for call in auction if call[1] != "pass"][-1]
        assert high[0] == bidder
        assert contract_of(high[1])[0] == contract["tricks"]
        passed = {seat for seat, text in auction if text == "pass"}
        assert passed == {0, 1, 2, 3} - {bidder}


# ------------------------------------------------------------------- heuristic


def test_heuristic_bids_a_strong_hand_and_discards_its_weakest_side_cards() -> None:
    """The heuristic bids from its trump estimate, passes a weak hand or when its partner
    holds the high bid, and discards side cards before trumps."""
    state = new()
    hands = ["AD AC AS JC 9D", "JD JH AH KH 9C", "QD KD 10D 10C QC", "KS QS JS 10S 9H"]
    deal(state, hands, "QH 10H KC")
    bot = make_bot("heuristic")
    action = bot.act(state.observe(1))
    assert action == Action("auction", "3H")  # the cheapest bid in its best trump
    state.apply(1, action)
    assert bot.act(state.observe(2)) == Action("pass")  # a weak hand
    call(state, "pass")
    assert bot.act(state.observe(3)) == Action("pass")  # the partner holds the high bid
    call(state, "pass", "pass")
    for _ in range(3):
        state.apply(1, bot.act(state.observe(1)))
    assert state.observe(1).extra["discards"] == ["9C", "KC", "10H"]
    assert {format_card(c) for c in state.observe(1).my_cards} == {"JD", "JH", "AH", "KH", "QH"}
