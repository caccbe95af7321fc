"""docs/coach.md in the terminal: ``hint`` at any prompt of ``tricktaker play`` shows every
legal choice with its value, the coach's choice marked and the model, then asks again;
the record notes the decision where a hint was asked (``hints``, which a replay
ignores); ``tricktaker review`` prints a record's review, from its cache the second
time, or as JSON.

The commands run through their real entry point (typer's runner) on real games: the
hints and reviews are the real coach's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.cli_command import Command
from tests.helpers import five_card_rules
from tricktaker.coach.review import cache_path
from tricktaker.engine import GameRecord, RecordError

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": None})
command = Command(runner)
run, ok = command.run, command.ok


@pytest.fixture
def five_cards(tmp_path: Path) -> Path:
    """House rules: Blackout with a single hand of five cards."""
    return five_card_rules(tmp_path)


def hint_tables(out: str) -> list[list[str]]:
    """The rows of every hint table printed, in order."""
    tables = []
    for part in out.split("Coach (")[1:]:
        lines = part.split("Assuming ")[0].splitlines()
        tables.append([line for line in lines[2:] if line.strip()])
    return tables


def before(record: GameRecord, events: int) -> GameRecord:
    """The record cut to its first ``events`` events (the game then unfinished), with the
    hints asked by then (a record refuses a hint past its events)."""
    hints = [hint for hint in record.hints if hint["at"] <= events]
    return GameRecord.from_json(
        {**record.to_json(), "events": record.events[:events], "finished": False}
        | {"final_scores": None, "hints": hints}
    )


def test_hint_at_a_bid_and_at_a_card_shows_every_choice_and_the_record_notes_it(
    five_cards: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "records"
    out = ok(
        "play",
        str(five_cards),
        "--seed",
        "4",
        "--record",
        str(folder),
        stdin="hint\n0\nhint\nquit\n",
    )
    record = GameRecord.load(next(folder.glob("*.json")))
    bid_at = next(i for i, (who, _) in enumerate(record.events) if who == 0)
    assert record.events[bid_at] == [0, "bid 0"]
    assert record.hints == [{"seat": 0, "at": bid_at}, {"seat": 0, "at": len(record.events)}]
    tables = hint_tables(out)
    assert len(tables) == 2
    for table, hint in zip(tables, record.hints, strict=True):
        obs = before(record, hint["at"]).replay().observe(0)
        assert len(table) == len(obs.legal_actions)
        assert "← coach" in table[0]
        assert sum("← coach" in row for row in table) == 1
        assert all("±" in row for row in table)
    bids = [row.split()[0] for row in tables[0]]
    assert sorted(bids) == sorted(
        str(a.value) for a in before(record, bid_at).replay().observe(0).legal_actions
    )
    assert "makes bid" in out  # the Oh Hell family's chance of making the bid
    assert "bots' quick policy does." in " ".join(out.split())  # the model, under each table
    after_first = out.split("Assuming ", 1)[1]
    assert "Your bid (" in after_first.split("\n", 2)[-1]  # asked again
    assert "hint for the coach's values" in out


def test_a_hint_asked_is_kept_by_the_save_and_the_game_carried_on(
    five_cards: Path, tmp_path: Path
) -> None:
    save = tmp_path / "game.save.json"
    ok("play", str(five_cards), "--seed", "4", "--save", str(save), stdin="hint\nquit\n")
    kept = json.loads(save.read_text(encoding="utf-8"))["record"]["hints"]
    assert kept == [{"seat": 0, "at": kept[0]["at"]}]
    folder = tmp_path / "records"
    ok("play", "--resume", str(save), "--record", str(folder), stdin="quit\n")
    assert GameRecord.load(next(folder.glob("*.json"))).hints == kept


def test_a_record_with_hints_replays_as_one_without() -> None:
    from tricktaker import load_ruleset, new_game
    from tricktaker.bots import make_bot, play_game

    state = new_game(load_ruleset("blackout"), players=3, seed=5)
    play_game(state, [make_bot("random", seed=s) for s in range(3)])
    hints = [{"seat": 1, "at": 2}]
    record = GameRecord.of(state, hints=hints)
    again = GameRecord.loads(record.dumps())
    assert again.hints == hints
    assert again.replay().scores == state.scores
    assert "hints" not in state.record().to_json()  # optional: absent when none was asked
    bad = {**record.to_json(), "hints": [{"seat": "one", "at": 2}]}
    with pytest.raises(RecordError, match="'hints'"):
        GameRecord.from_json(bad)


@pytest.fixture
def game_record(five_cards: Path, tmp_path: Path) -> Path:
    """The record of a one-hand game of heuristic bots, written by ``simulate``."""
    folder = tmp_path / "records"
    bots = "heuristic,heuristic,heuristic,heuristic"
    ok("simulate", str(five_cards), "--players", "4", "--games", "1", "--bots", bots,
       "--seed", "2", "--record", str(folder))  # fmt: skip
    return next(folder.glob("*.json"))


def test_review_prints_the_decisions_the_model_and_the_losses_then_uses_its_cache(
    game_record: Path,
) -> None:
    out = ok("review", str(game_record), "--deals", "6")
    assert "Review of" in out
    assert "seat 1" in out
    assert "They assume the unseen cards dealt at random" in " ".join(out.split())
    assert "Hand 1 · scored" in out
    assert "Largest losses" in out
    assert "6 deals a decision" in out
    assert "In all:" in out
    assert "from the cache" not in out
    assert cache_path(game_record).is_file()
    again = ok("review", str(game_record), "--deals", "6")
    assert "from the cache" in again
    assert again.replace(", from the cache", "") == out


def test_review_as_json(game_record: Path) -> None:
    data = json.loads(ok("review", str(game_record), "--seat", "2", "--deals", "6", "--json"))
    assert data["seat"] == 1
    assert data["cached"] is False
    assert data["decisions"]
    assert all(decision["cost"] >= 0 for decision in data["decisions"])
    costs = [loss["cost"] for loss in data["losses"]]
    assert costs == sorted(costs, reverse=True)
    again = json.loads(ok("review", str(game_record), "--seat", "2", "--deals", "6", "--json"))
    assert again["cached"] is True
    assert {**again, "cached": False} == data


def test_review_refuses_a_seat_the_game_lacks_and_a_file_that_is_no_record(
    game_record: Path, tmp_path: Path
) -> None:
    result = run("review", str(game_record), "--seat", "5")
    assert result.exit_code == 2
    assert "the game has 4 seats" in result.stderr
    other = tmp_path / "other.json"
    other.write_text("{}", encoding="utf-8")
    result = run("review", str(other))
    assert result.exit_code == 2
    assert "not a tricktaker record" in result.stderr
