"""Duplicate sets (docs/duplicate.md, The same deals; Which games): seat k holds the
same cards at every table, hand after hand, whatever is bid and played; the engine deals
from the set's deck orders by the ruleset's own dealing rules."""

from __future__ import annotations

import pytest

from tricktaker import load_ruleset
from tricktaker.bots import make_bot, play_game
from tricktaker.duplicate import (
    DuplicateError,
    DuplicateSet,
    duplicate_refusal,
    make_set,
    standings,
    table_results,
)
from tricktaker.duplicate.sets import default_players
from tricktaker.engine import ChanceOutcome, GameRecord, new_game
from tricktaker.rules import list_rulesets

PRESETS = sorted(list_rulesets())
PLAYABLE = [
    name
    for name in PRESETS
    if duplicate_refusal(load_ruleset(name), default_players(load_ruleset(name))) is None
]


def dealt(event: tuple[object, ...]) -> tuple[int, ...]:
    """The deck order a record's chance event dealt."""
    outcome = event[1]
    assert isinstance(outcome, ChanceOutcome), event
    return outcome.cards


def test_which_games_are_dealt_duplicate() -> None:
    """docs/duplicate.md, Which games: every exact-bidding game whose hands are fixed in
    advance; not a game whose dealer calls the hand, nor a cooperative one, nor a game
    with rules of its own beyond the family's."""
    assert set(PLAYABLE) == set(PRESETS) - {
        "caller_clag",
        "coop_blackout",
        "pluck",
        "euchre",
        "buckup",
    }
    refusal = duplicate_refusal(load_ruleset("caller_clag"), 4)
    assert refusal is not None
    assert "calls each hand" in refusal
    with pytest.raises(DuplicateError, match="played again until everyone is exact"):
        make_set(load_ruleset("coop_blackout"), players=4, seed=1)


@pytest.mark.parametrize("name", PLAYABLE)
def test_every_seat_holds_the_same_cards_at_every_table(name: str) -> None:
    """docs/duplicate.md, The same deals: two tables, different bots, same cards."""
    rules = load_ruleset(name)
    players = default_players(rules)
    duplicate = make_set(rules, players=players, seed=11)
    tables = []
    for table in range(2):
        state = duplicate.new_game(rules)
        play_game(state, [make_bot("random", seed=100 * table + s) for s in range(players)])
        tables.append(state)
    first, second = tables
    assert len(first.history) == len(second.history) == duplicate.hands
    assert [h.deal for h in first.history] == [h.deal for h in second.history]
    assert [h.dealer for h in first.history] == [h.dealer for h in second.history]
    assert [h.turn_up for h in first.history] == [h.turn_up for h in second.history]
    assert [h.bids for h in first.history] != [h.bids for h in second.history]
    # The deals are the set's, not the seed's own shuffle.
    plain = new_game(rules, players=players, seed=duplicate.seed)
    plain.apply_chance()
    assert dealt(first.events[0]) == duplicate.deals[0] != dealt(plain.events[0])
    # Each table's record replays as any record does.
    assert GameRecord.loads(first.record().dumps()).replay().scores == first.scores
    rows = standings(
        table_results(first, [f"a{s}" for s in range(players)])
        + table_results(second, [f"b{s}" for s in range(players)])
    )
    assert all(row.top == 2 * duplicate.hands for row in rows)


def test_the_set_reads_back_and_refuses_a_wrong_deal() -> None:
    """docs/duplicate.md, The same deals: a set keeps its deals as card names."""
    rules = load_ruleset("bluke")  # jokers in the deck
    duplicate = make_set(rules, players=5, seed=3)
    data = duplicate.to_json()
    assert DuplicateSet.from_json(data) == duplicate
    assert len(data["deals"][0].split()) == len(rules.deck(5))
    broken = dict(data, deals=[data["deals"][0].replace("AS", ""), *data["deals"][1:]])
    with pytest.raises(DuplicateError, match="whole deck"):
        DuplicateSet.from_json(broken)
    with pytest.raises(ValueError, match="whole deck"):
        new_game(rules, players=5, seed=1, deals=[duplicate.deals[0][1:]])


def test_a_clone_keeps_the_given_deals_and_later_hands_use_the_seed() -> None:
    """docs/duplicate.md, The same deals: a search's clone deals the same; a hand past
    the given deals is shuffled from the seed."""
    rules = load_ruleset("blackout")
    duplicate = make_set(rules, players=4, seed=5)
    state = new_game(rules, players=4, seed=5, deals=duplicate.deals[:1])
    clone = state.clone()
    clone.apply_chance()
    assert dealt(clone.events[0]) == duplicate.deals[0]
    play_game(state, [make_bot("random", seed=s) for s in range(4)], until_hand_end=True)
    state.apply_chance()
    assert dealt(state.events[-1]) != duplicate.deals[1]


def test_seeded_bots_play_the_same() -> None:
    """docs/duplicate.md, Bots in a set: a bot seeded the same gives the same answers to
    the same actions, so two tables of bots alone play the same game."""
    rules = load_ruleset("jabberwocky")
    duplicate = make_set(rules, players=3, seed=21)
    records = []
    for _ in range(2):
        state = duplicate.new_game(rules)
        play_game(state, [make_bot("easy", seed=s) for s in range(3)])
        records.append(state.record().events)
    assert records[0] == records[1]
