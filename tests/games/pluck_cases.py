"""The hand-built Pluck cases of tests/games/test_pluck.py and test_pluck_play.py: the
second-hand deals, and helpers that deal, pluck and play hands triple by triple."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from tests.games.pluck_triples import TRIPLES, triple_hands
from tests.helpers import act, deal, game, play_cards
from tricktaker import GameState, IllegalActionError
from tricktaker.cards import (
    CLUBS,
    cards_of,
    format_card,
    parse_card,
)

LABELS = ("BJ", "LJ")

# A second-hand deal for the pluck mechanics (seat 1 holds BJ, seat 2 holds LJ).
PLUCK_DEAL = [
    "2C 3C 4C 5C 6C 3D 4D 5D 6D 7D 3H 4H 5H 6H 3S 4S 5S",
    "7C 8C 9C 10C 8D 9D 10D JD 7H 8H 9H 10H 6S 7S 8S 9S BJ",
    "JC QC KC AC QD KD AD JH QH KH AH 10S JS QS KS AS LJ",
]

# Seat 1 holds both jokers and only the 3S and 4S in spades.
JOKER_PLUCKEE_DEAL = [
    "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 4D 5D 6D 7D",
    "BJ LJ 3S 4S 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 3D",
    "8D 9D 10D JD QD KD AD 5S 6S 7S 8S 9S 10S JS QS KS AS",
]

# Seat 1 is void in clubs and holds the BJ; seat 2 holds the LJ, the KC and hearts.
JOKER_PLAY_DEAL = [
    "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC AC 3D 4D 5D 6D 7D",
    "BJ 8D 9D 10D JD QD KD AD 3H 4H 5H 6H 7H 8H 9H 10H JH",
    "KC LJ 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS QH KH AH",
]

# For spades as trump: seat 1 holds the LJ and two small spades, seat 2 no clubs.
TRUMP_LEAD_DEAL = [
    "2C 3C 4C 5C 6C 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
    "7C 8C 9C 10C JC QC KC AC LJ 3H 4H 5H 6H 7H 8H 3S 4S",
    "BJ 9H 10H JH QH KH AH 5S 6S 7S 8S 9S 10S JS QS KS AS",
]

# For spades as trump: seat 2 holds three hearts and otherwise only trumps.
ONLY_TRUMPS_DEAL = [
    "2C 3C 4C 5C 6C 7C 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD",
    "8C 9C 10C JC QC KC AC AD 3H 4H 5H 6H 7H 8H 9H 10H JH",
    "QH KH AH 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS BJ LJ",
]


# ---------------------------------------------------------------------- helpers


def new_pluck(options: Mapping[str, object] | None = None) -> GameState:
    """A game of Pluck with seat 0 as the first dealer, before the first deal."""
    return game("pluck", 3, options=options, first_dealer=0)


def name(card: int) -> str:
    return format_card(card, labels=LABELS)


def names(mask: int) -> set[str]:
    return {name(c) for c in cards_of(mask)}


def legal(state: GameState, seat: int) -> list[str]:
    return [a.text(labels=LABELS) for a in state.legal_actions(seat)]


def legal_cards(state: GameState, seat: int) -> set[str]:
    return {name(a.value) for a in state.legal_actions(seat) if isinstance(a.value, int)}


def holds(state: GameState, seat: int, card: str) -> bool:
    return bool((state.hands[seat] >> parse_card(card)) & 1)


def holder(state: GameState, card: str) -> int:
    return next(s for s in range(3) if holds(state, s, card))


def assert_illegal(state: GameState, seat: int, text: str, rule: str) -> IllegalActionError:
    """The action raises IllegalActionError naming ``rule`` and changes nothing."""
    before = state.record().dumps()
    hands = list(state.hands)
    with pytest.raises(IllegalActionError) as info:
        act(state, seat, text)
    assert info.value.rule == rule
    assert rule in str(info.value)
    assert state.record().dumps() == before
    assert state.hands == hands
    return info.value


def winners_for(tricks: Sequence[int]) -> list[int]:
    """Seventeen trick winners, one per triple, giving each seat ``tricks[seat]``."""
    out = [seat for seat in range(3) for _ in range(tricks[seat])]
    assert len(out) == 17
    return out


def play_triples(state: GameState) -> list[int]:
    """Play all 17 tricks triple by triple (clubs must be trump); return the tricks
    each seat was expected to take (the holder of each triple's top card)."""
    assert state.trump == CLUBS
    expected = [0, 0, 0]
    for triple in TRIPLES:
        expected[holder(state, triple[2])] += 1
    for triple in TRIPLES:
        leader = state.to_act()[0]
        by_seat = {holder(state, card): card for card in triple}
        assert len(by_seat) == 3
        play_cards(state, [by_seat[(leader + i) % 3] for i in range(3)])
    return expected


def play_scripted_hand(state: GameState, tricks: Sequence[int]) -> None:
    """Deal and play a whole hand without plucks in which the seats take ``tricks``."""
    deal(state, triple_hands(winners_for(tricks)))
    assert state.phase_name == "call_trump"
    act(state, state.dealer, "call_trump C")
    play_triples(state)
    assert state.history[-1].tricks == tuple(tricks)


def second_hand(
    first_tricks: Sequence[int],
    hands: Sequence[str],
    options: Mapping[str, object] | None = None,
) -> GameState:
    """A game (first dealer seat 0) whose first hand gave ``first_tricks``, with the
    second hand (dealer seat 1) dealt as ``hands``."""
    state = new_pluck(options)
    play_scripted_hand(state, first_tricks)
    assert state.dealer == 1
    deal(state, hands)
    return state


def pluck_pair(state: GameState, plucker: int, given: str, pluckee: int, returned: str) -> None:
    """One pluck: the plucker gives ``given``; the pluckee's forced return is ``returned``."""
    assert state.phase_name == "pluck"
    assert state.to_act() == (plucker,)
    act(state, plucker, f"pluck {given}")
    assert state.phase_name == "give_back"
    assert state.to_act() == (pluckee,)
    assert legal(state, pluckee) == [f"give_back {returned}"]
    assert state.observe(pluckee).legal_actions == tuple(state.legal_actions(pluckee))
    act(state, pluckee, f"give_back {returned}")
