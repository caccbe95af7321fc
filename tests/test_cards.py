"""Cards: names, ids, rank spans and bitsets (docs/games/blackout.md, Players and deck)."""

from __future__ import annotations

import random

import pytest

from tricktaker.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    HEARTS,
    HIGH_JOKER,
    LOW_JOKER,
    NUM_CARD_IDS,
    RANK_LABELS,
    SPADES,
    STANDARD_DECK,
    CardError,
    card_rank,
    card_set,
    card_suit,
    cards_of,
    format_card,
    format_cards,
    is_joker,
    make_card,
    parse_card,
    parse_suit,
    rank_range,
)

ALL_IDS = list(range(NUM_CARD_IDS))


def test_there_are_54_card_ids() -> None:
    """docs/games/bluke.md, Players and deck: "54 cards: the standard 52 … and the two Blukes,
    written `HB` (Hi Bluke) and `LB` (Lo Bluke)"."""
    assert NUM_CARD_IDS == 54
    assert len({format_card(c) for c in ALL_IDS}) == 54
    assert STANDARD_DECK == (1 << 52) - 1


@pytest.mark.parametrize("card", ALL_IDS)
def test_format_parse_round_trip(card: int) -> None:
    """docs/games/blackout.md, Players and deck: "The standard 52-card deck, ace high: A K Q J 10 9
    8 7 6 5 4 3 2 in clubs, diamonds, hearts and spades" (every id is written and read back
    unchanged, lower case too)."""
    text = format_card(card)
    assert parse_card(text) == card
    assert parse_card(text.lower()) == card
    assert parse_card(f"  {text} ") == card


@pytest.mark.parametrize(
    ("text", "suit", "rank"),
    [
        ("AS", SPADES, ACE),
        ("10H", HEARTS, 8),
        ("TH", HEARTS, 8),
        ("th", HEARTS, 8),
        ("2C", CLUBS, 0),
        ("JD", DIAMONDS, 9),
        ("QC", CLUBS, 10),
        ("KH", HEARTS, 11),
        ("9S", SPADES, 7),
    ],
)
def test_parse_standard_cards(text: str, suit: int, rank: int) -> None:
    """docs/games/blackout.md, Players and deck: "The standard 52-card deck, ace high: A K Q J 10 9
    8 7 6 5 4 3 2 in clubs, diamonds, hearts and spades"."""
    card = parse_card(text)
    assert card == make_card(suit, rank)
    assert card_suit(card) == suit
    assert card_rank(card) == rank
    assert not is_joker(card)


def test_format_examples() -> None:
    """docs/games/blackout.md, Players and deck: "The standard 52-card deck, ace high: A K Q J 10 9
    8 7 6 5 4 3 2 in clubs, diamonds, hearts and spades"."""
    assert format_card(make_card(SPADES, ACE)) == "AS"
    assert format_card(make_card(HEARTS, 8)) == "10H"
    assert format_card(make_card(CLUBS, 0)) == "2C"
    assert [format_card(make_card(DIAMONDS, r)) for r in range(13)] == [
        f"{label}D" for label in RANK_LABELS
    ]


@pytest.mark.parametrize(
    ("text", "card"),
    [("HB", HIGH_JOKER), ("LB", LOW_JOKER), ("BJ", HIGH_JOKER), ("LJ", LOW_JOKER)],
)
def test_joker_names_and_aliases(text: str, card: int) -> None:
    """docs/games/bluke.md, Players and deck: "the two Blukes, written `HB` (Hi Bluke) and `LB` (Lo
    Bluke)" (aliases BJ / LJ)."""
    assert parse_card(text) == card
    assert parse_card(text.lower()) == card
    assert is_joker(card)
    assert card_suit(card) == -1
    assert card_rank(card) == -1


def test_joker_labels() -> None:
    """docs/games/bluke.md, Players and deck: "the two Blukes, written `HB` (Hi Bluke) and `LB` (Lo
    Bluke)" (the default labels)."""
    assert format_card(HIGH_JOKER) == "HB"
    assert format_card(LOW_JOKER) == "LB"
    assert format_card(HIGH_JOKER, labels=("BJ", "LJ")) == "BJ"
    assert format_card(LOW_JOKER, labels=("BJ", "LJ")) == "LJ"


@pytest.mark.parametrize(
    "text",
    ["", " ", "A", "S", "ZS", "11H", "AX", "10", "KK", "0S", "JOKER", "A S", "10HH", "HBX", "2♣"],
)
def test_bad_card_text_is_an_error(text: str) -> None:
    """docs/games/blackout.md, Players and deck: "The standard 52-card deck" (anything else is not a
    card)."""
    with pytest.raises(CardError, match="is not a card"):
        parse_card(text)


@pytest.mark.parametrize("card", [-1, 54, 100])
def test_bad_card_id_is_an_error(card: int) -> None:
    """docs/games/bluke.md, Players and deck: "54 cards: the standard 52 … and the two Blukes" (ids
    beyond the 54 cards are errors)."""
    with pytest.raises(CardError):
        format_card(card)


@pytest.mark.parametrize(
    ("text", "suit"),
    [("S", SPADES), ("spades", SPADES), ("Spade", SPADES), ("♥", HEARTS), ("c", CLUBS)],
)
def test_parse_suit(text: str, suit: int) -> None:
    """docs/games/blackout.md, Players and deck: "in clubs, diamonds, hearts and spades"."""
    assert parse_suit(text) == suit


def test_bad_suit_is_an_error() -> None:
    """docs/games/blackout.md, Players and deck: "in clubs, diamonds, hearts and spades"."""
    with pytest.raises(CardError, match="is not a suit"):
        parse_suit("X")


@pytest.mark.parametrize(
    ("span", "labels"),
    [
        ("A-2", list(RANK_LABELS)),
        ("A-9", ["9", "10", "J", "Q", "K", "A"]),
        ("A-7", ["7", "8", "9", "10", "J", "Q", "K", "A"]),
        ("A-5", ["5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]),
        ("A-3", list(RANK_LABELS[1:])),
        ("a-t", ["10", "J", "Q", "K", "A"]),
        ("K-10", ["10", "J", "Q", "K"]),
        ("A-A", ["A"]),
    ],
)
def test_rank_range(span: str, labels: list[str]) -> None:
    """docs/games/romanian_whist.md, Players and deck: "The deck has 8 cards per player: the highest
    ranks of every suit" (3 players A-9, 24 cards; 4 players A-7, 32; 5 players A-5, 40; 6 players
    A-3, 48)."""
    assert [RANK_LABELS[r] for r in rank_range(span)] == labels


@pytest.mark.parametrize("span", ["2-A", "A", "A-X", "A-7-2", "", "Z-2"])
def test_bad_rank_range_is_an_error(span: str) -> None:
    """docs/games/seven_truf.md, Players and deck: "32 cards: A K Q J 10 9 8 7 in clubs, diamonds,
    hearts and spades" (a span is highest-lowest)."""
    with pytest.raises(CardError, match="rank span"):
        rank_range(span)


def test_card_set_and_cards_of() -> None:
    """docs/games/blackout.md, Players and deck: "The standard 52-card deck" (sets of cards as
    bitsets)."""
    mask = card_set(["AS", "2C", "HB"])
    assert mask == (1 << 51) | 1 | (1 << 52)
    assert cards_of(mask) == [0, 51, 52]
    assert format_cards(mask) == "2C AS HB"
    assert card_set([51, "2C"]) == (1 << 51) | 1
    assert card_set(["AS", "as", 51]) == 1 << 51
    assert card_set([]) == 0
    assert cards_of(0) == []
    assert cards_of(card_set(ALL_IDS)) == ALL_IDS
    assert card_set(range(52)) == STANDARD_DECK


def test_card_set_round_trip_random_subsets() -> None:
    """docs/games/blackout.md, Players and deck: "The standard 52-card deck, ace high: A K Q J 10 9
    8 7 6 5 4 3 2 in clubs, diamonds, hearts and spades"."""
    rng = random.Random(5)
    for _ in range(200):
        subset = sorted(rng.sample(ALL_IDS, rng.randrange(55)))
        mask = card_set(subset)
        assert cards_of(mask) == subset
        assert card_set(format_cards(mask).split()) == mask
        assert mask.bit_count() == len(subset)


def test_card_set_rejects_bad_names() -> None:
    """docs/games/blackout.md, Players and deck: "The standard 52-card deck" (unknown names are
    errors)."""
    with pytest.raises(CardError):
        card_set(["AS", "XX"])
