"""bench/endgame_arena.py: the paired arena of two bots, with the game's options (Buckup
games of one hand each, as bench/README.md's "Buckup hand by hand" plays them)."""

from __future__ import annotations

import json

import pytest

from tests.helpers import load_bench

arena = load_bench("endgame_arena")


def test_buckup_games_of_one_hand(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        arena.main(
            [
                "buckup",
                "--players",
                "4",
                "--hands",
                "3",
                "--seed",
                "11",
                "--first",
                "easy",
                "--second",
                "random",
                "--option",
                "hands=1",
                "--option",
                "max_hands=1",
            ]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert report["options"] == {"hands": "1", "max_hands": "1"}
    # Every game is one hand: a deal set is one hand in each of the 4 rotations.
    assert report["deal_sets"] == 3
    assert report["per_deal_set"]
    assert all(hands == 4 for _, hands in report["per_deal_set"])
    assert report["hands"] == 12
    low, mean, high = report["difference"][1], report["difference"][0], report["difference"][2]
    assert low <= mean <= high


@pytest.mark.parametrize(
    ("option", "said"),
    [("=1", "--option expects NAME=VALUE"), ("nosuch=1", "unknown option 'nosuch'")],
)
def test_a_bad_option_is_refused(
    option: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["buckup", "--first", "easy", "--second", "random", "--option", option]
    assert arena.main(argv) == 2
    captured = capsys.readouterr()
    assert said in captured.err
    assert not captured.out
