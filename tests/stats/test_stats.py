"""The player's statistics and ratings (tricktaker.stats): figures checked against the
scoring examples of the games' own pages, records replayed, and ratings that depend
only on the games in finish order."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from tricktaker.bots import RandomBot, play_game
from tricktaker.engine import GameRecord, new_game
from tricktaker.rules import list_rulesets, load_ruleset, ruleset_from_data
from tricktaker.scorekeeper.sheet import ScoreSheet
from tricktaker.stats import (
    RatedGame,
    fingerprint,
    game_line,
    rate_people,
    rated_game,
    record_line,
    rules_label,
    statistics,
)


def _blackout_example_1() -> ScoreSheet:
    """docs/games/blackout.md, Scoring, Example 1: four players, hand of 4, bids
    1, 0, 2, 0 and tricks 1, 1, 2, 0 score 11, 1, 12, 10 (the three hands before it
    are the schedule's 1, 2 and 3 cards, all bid 0 and made by the first seat)."""
    sheet = ScoreSheet("blackout", ["Ann", "Ben", "Cleo", "Dan"])
    for size in (1, 2, 3):
        bids = [0, 0, 0, 0]
        sheet.add(bids=bids, tricks=[size, 0, 0, 0])
    sheet.add(bids=[1, 0, 2, 0], tricks=[1, 1, 2, 0])
    return sheet


def test_blackout_example_1_counts_perfect_over_and_points() -> None:
    sheet = _blackout_example_1()
    assert sheet.rows[-1].scores == (11, 1, 12, 10)  # the page's figures
    ben = game_line(sheet.game_copy(), 1)
    last = ben.hands[-1]
    assert (last.hand_size, last.bid, last.tricks, last.score, last.outcome) == (4, 0, 1, 1, "O")
    # The dealer moves left each hand from seat 0: Ben sat 1, 0, 3, 2 seats from it.
    assert [hand.position for hand in ben.hands] == [1, 0, 3, 2]
    ann = game_line(sheet.game_copy(), 0)
    [entry] = statistics([], [ann])
    assert entry.sheets == 1
    assert entry.games == 1
    assert entry.finished == 0
    # Ann bid 0 and took every trick three times (Over), then made her 1 (Perfect).
    assert (entry.total.over, entry.total.perfect, entry.total.set) == (3, 1, 0)
    assert entry.total.accuracy == pytest.approx(0.25)
    assert entry.total.points == 1 + 2 + 3 + 11
    assert entry.by_hand_size[4].perfect == 1
    assert entry.by_hand_size[4].points == 11


def test_blackout_example_3_over_scores_no_bonus() -> None:
    """docs/games/blackout.md, Example 3: three players, hand of 7, bids 3, 2, 1 and
    tricks 4, 2, 1 score 4 (over by one: no bonus), 12 and 11."""
    sheet = ScoreSheet("blackout", ["Ann", "Ben", "Cleo"])
    for size in range(1, 7):
        sheet.add(bids=[0, 0, 0], tricks=[size, 0, 0])
    sheet.add(bids=[3, 2, 1], tricks=[4, 2, 1])
    assert sheet.rows[-1].scores == (4, 12, 11)
    lines = [game_line(sheet.game_copy(), seat) for seat in range(3)]
    assert [line.hands[-1].outcome for line in lines] == ["O", "P", "P"]
    [ben] = statistics([lines[1]])
    assert ben.total.perfect == 7
    assert ben.total.accuracy == 1.0
    assert ben.by_position[(1 - 6) % 3].hands >= 1  # the dealer of hand 7 is seat 0


def test_a_record_replayed_gives_the_seat_s_game_and_place() -> None:
    state = new_game(load_ruleset("blackout", options={"hook": True}), players=3, seed=11)
    play_game(state, [RandomBot(seed=s) for s in range(3)])
    data = GameRecord.of(state).to_json()
    for seat in range(3):
        line = record_line(data, seat)
        assert line == game_line(state, seat)
        assert line.total == state.scores[seat]
        assert line.place == 1 + sum(1 for s in state.scores if s > state.scores[seat])
        assert sum(h.score for h in line.hands) == line.total
        assert line.label.text == "Blackout, hook on"
        assert line.finished
    assert line.label.fingerprint != rules_label(load_ruleset("blackout")).fingerprint


def test_a_house_ruleset_is_labelled_and_kept_apart() -> None:
    preset = load_ruleset("blackout")
    data = {**preset.data, "scoring": {**preset.data["scoring"], "exact": "tricks + 5"}}
    house = rules_label(ruleset_from_data(data, source="house"))
    assert house.house
    assert house.text.startswith("Blackout (house rules)")
    assert house.fingerprint != rules_label(preset).fingerprint
    assert fingerprint(preset.data, preset.options) == rules_label(preset).fingerprint


def _game(key: str, minute: int, people: dict[int, str], totals: list[int]) -> RatedGame | None:
    return rated_game(
        fingerprint="f",
        finished_at=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=minute),
        key=key,
        teams=[(seat,) for seat in range(len(totals))],
        totals=totals,
        people=people,
        cooperative=False,
    )


def test_ratings_depend_only_on_the_games_in_finish_order() -> None:
    games = [
        _game("a:1", 1, {0: "ann", 1: "ben"}, [30, 20, 10]),
        _game("b:1", 2, {0: "ben", 2: "cleo"}, [25, 5, 40]),
        _game("a:2", 2, {0: "ann", 2: "cleo"}, [9, 50, 10]),
        _game("c:1", 3, {1: "ann", 2: "ben"}, [0, 12, 12]),
    ]
    rated = [g for g in games if g is not None]
    assert len(rated) == 4
    first = rate_people(rated)
    for seed in range(5):
        shuffled = list(rated)
        random.Random(seed).shuffle(shuffled)
        assert rate_people(shuffled) == first
    ann = first["f"]["ann"]
    assert ann.games == 3
    assert ann.ordinal == pytest.approx(ann.mu - 3 * ann.sigma)
    assert ann.sigma < 25 / 3


def test_which_games_are_rated() -> None:
    # One person against bots and guests: nobody to rank against.
    assert _game("x:1", 0, {0: "ann"}, [10, 20, 30]) is None
    # One user at two seats.
    assert _game("x:2", 0, {0: "ann", 1: "ann"}, [10, 20, 30]) is None
    common = {"fingerprint": "f", "finished_at": datetime(2026, 1, 1, tzinfo=UTC), "key": "k"}
    # Partners alone on one team: not rated; on both teams: one update, teams ranked.
    assert (
        rated_game(
            **common,  # type: ignore[arg-type]
            teams=[(0, 2), (1, 3)],
            totals=[10, 4],
            people={0: "ann", 2: "ben"},
            cooperative=False,
        )
        is None
    )
    game = rated_game(
        **common,  # type: ignore[arg-type]
        teams=[(0, 2), (1, 3)],
        totals=[10, 4],
        people={0: "ann", 3: "ben"},
        cooperative=False,
    )
    assert game is not None
    assert game.teams == (("ann",), ("ben",))
    ratings = rate_people([game])["f"]
    assert ratings["ann"].mu > 25 > ratings["ben"].mu
    assert (
        rated_game(
            **common,  # type: ignore[arg-type]
            teams=[(0,), (1,)],
            totals=[0, 0],
            people={0: "ann", 1: "ben"},
            cooperative=True,
        )
        is None
    )


@pytest.mark.parametrize("game", list_rulesets())
def test_every_shipped_game_gives_consistent_figures(game: str) -> None:
    """Every shipped game's record, played by random bots, gives each seat a line whose
    figures add up: the hands by size and by seat are all the hands, Set + Over +
    Perfect are the hands with a bid, a place for each seat unless the game is
    cooperative, and the same fingerprint for every seat."""
    rules = load_ruleset(game)
    players = 4 if 4 in rules.player_counts else rules.player_counts[0]
    state = new_game(rules, players=players, seed=5)
    play_game(state, [RandomBot(seed=s) for s in range(players)])
    data = GameRecord.of(state).to_json()
    lines = [record_line(data, seat) for seat in range(players)]
    assert len({line.label.fingerprint for line in lines}) == 1
    for line in lines:
        assert len(line.hands) == len(state.history)
        assert (line.place is None) == rules.cooperative
        [entry] = statistics([line])
        total = entry.total
        assert total.hands == len(state.history)
        assert total.set + total.over + total.perfect == total.bids
        assert sum(b.hands for b in entry.by_hand_size.values()) == total.hands
        assert sum(b.points for b in entry.by_position.values()) == total.points
        assert set(entry.by_position) <= set(range(players))
