"""``tricktaker score`` driven through its prompts with stdin."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner, Result

from tricktaker.cli import app
from tricktaker.scorekeeper import sheet_from_json

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": None})
BLUKE = ["bluke", "--players", "John,Margaret,Steve,Betsy"]
BUCKUP = ["buckup", "--players", "A,B,C,D", "--dealer", "D"]


def run(*args: str, stdin: str) -> Result:
    result = runner.invoke(app, list(args), input=stdin)
    assert "Traceback" not in result.output
    return result


def score(*args: str, save: Path, stdin: str) -> Result:
    """``tricktaker score ARGS --save SAVE`` with ``stdin``, checked to end with exit status 0."""
    result = run("score", *args, "--save", str(save), stdin=stdin)
    assert result.exit_code == 0, result.output
    return result


def lines(*values: object) -> str:
    return "".join(f"{v}\n" for v in values)


def test_sample_hands_with_a_refused_row_fix_and_quit(tmp_path: Path) -> None:
    """docs/games/bluke.md, Scoring: the sample's hands; the second as printed (tricks
    adding up to 11 of 12) is refused and entered again; fix 1 reports what changed."""
    save = tmp_path / "sheet.json"
    stdin = lines(
        "",  # trump not entered
        *(3, 3, 2, 5),  # bids, John first (Betsy deals)
        *(4, 0, 4, 5),  # tricks
        "spades",
        *(4, 5, 3, 2),  # Margaret first: Margaret 4, Steve 5, Betsy 3, John 2
        *(1, 2, 3, 5),  # as printed: refused
        *(1, 3, 3, 5),
        "fix 1",
        "",
        *(3, 3, 2, 5),
        *(3, 1, 4, 5),
        "quit",
    )
    result = score(*BLUKE, "--dealer", "Betsy", save=save, stdin=stdin)
    out = result.output
    assert "Hand 1: Betsy deals 13 cards; trump: the turned-up card; John bids first." in out
    assert "Not allowed: the tricks must add up to the hand size: 1 + 2 + 3 + 5 = 11, not 12" in out
    assert "Hand 1: John's score 31 -> 30" in out
    assert "Hand 2: John's total 11 -> 10" in out
    assert "Saved. Carry on with: tricktaker score --resume" in out
    sheet = sheet_from_json(json.loads(save.read_text()))
    assert sheet.totals == (10, -70, -28, 82)
    assert sheet.rows[1].trump == "spades"


def test_a_bid_breaking_the_hook_is_asked_again(tmp_path: Path) -> None:
    """docs/games/blackout.md, Options: with the hook the dealer (Ann, first hand of 1)
    may not bring the bids to 1; the bid is refused with the rule and asked again."""
    save = tmp_path / "s.json"
    stdin = lines("", 0, 0, 0, 1, 0, 0, 1, 0, 0, "undo", "quit")
    result = score(
        "blackout",
        "--players",
        "Ann,Bob,Cy,Di",
        "--option",
        "hook=true",
        save=save,
        stdin=stdin,
    )
    assert "Not allowed: Ann, the dealer, may not bid 1: the bids would total the 1 trick" in (
        result.output
    )
    assert "The last hand is taken back." in result.output
    assert json.loads(save.read_text())["hands"] == []


def test_resume_finishes_the_game_and_names_the_winner(tmp_path: Path) -> None:
    """docs/games/coop_blackout.md, End of the game: with max_hands 2, two missed hands
    of 1 lose the game for the team; the sheet says so (the second hand after --resume)."""
    save = tmp_path / "c.json"
    first = run(
        "score",
        "coop_blackout",
        "--players",
        "Ann,Bob",
        "--option",
        "max_hands=2",
        "--save",
        str(save),
        stdin=lines("", 0, 1, 0, 1, "quit"),
    )
    assert first.exit_code == 0, first.output
    second = run("score", "--resume", str(save), stdin=lines("", 1, 0, 1, 0))
    assert second.exit_code == 0, second.output
    assert "The team lost." in second.output
    assert "The game is over." in second.output


def test_bad_command_lines() -> None:
    """docs/games/bluke.md, Players and deck: Bluke needs 2 to 15 players."""
    result = run("score", "bluke", "--players", "Ann", stdin="")
    assert result.exit_code == 2
    assert "players" in result.output
    result = run("score", "bluke", stdin="")
    assert result.exit_code == 2
    assert "give the players in seating order" in result.output
    result = run("score", "bluke", "--players", "Ann,Bob", "--dealer", "Zed", stdin="")
    assert result.exit_code == 2
    assert "no player is called 'Zed'" in result.output


def test_pluck_asks_only_the_trump_and_the_tricks(tmp_path: Path) -> None:
    """docs/games/pluck.md, Bidding: no bids, quotas of 7, 6 and 4; Plucks: the tricks
    above quota are the plucks owed next hand."""
    save = tmp_path / "p.json"
    result = score(
        "pluck",
        "--players",
        "Ann,Bob,Cy",
        save=save,
        stdin=lines("h", 9, 5, 3, "quit"),
    )
    assert "quotas: Ann 7, Bob 6, Cy 4 tricks" in result.output
    assert "Ann plucks Bob once" in result.output
    assert sheet_from_json(json.loads(save.read_text())).totals == (2, -1, -1)


def test_euchre_asks_the_contract_and_the_declarers_tricks(tmp_path: Path) -> None:
    """docs/games/euchre.md, Scoring: Ann (with Cy) makes 4H with 5 tricks: 2 points
    each; a bid that is not in the auction's list is refused and asked again."""
    save = tmp_path / "e.json"
    result = score(
        "euchre",
        "--players",
        "Ann,Bob,Cy,Di",
        save=save,
        stdin=lines("6H", "Ann", "4h", "Ann", 5, "quit"),
    )
    assert "partnerships: Ann & Cy against Bob & Di; game to 10 points" in result.output
    assert "Not allowed: '6H' is not a bid" in result.output
    assert sheet_from_json(json.loads(save.read_text())).totals == (2, 0, 2, 0)


def test_buckup_hand_with_ante_decisions_draws_and_tricks(tmp_path: Path) -> None:
    """docs/games/buckup.md, Scoring, worked example: D deals, ante kept; A folds, B
    draws 3, C draws 1, D draws 5; tricks 3, 2, 0 leave stacks 490, 513, 502, 440 and a
    pot of 55. A fold entered for D, whom the dealer's obligation keeps in, is refused
    the first time."""
    save = tmp_path / "b.json"
    stdin = lines(
        *("", "fold", "fold", "stay", 2, "fold"),  # D may not fold: asked again
        *("kept", "fold", "stay", 3, "stay", 1, "stay", 5, 3, 2, 0),
        "quit",
    )
    result = score(*BUCKUP, save=save, stdin=stdin)
    assert "Not allowed:" in result.output
    assert "dealer's obligation" in result.output
    assert "Stacks: A 490, B 513, C 502, D 440; pot 55." in result.output
    sheet = sheet_from_json(json.loads(save.read_text()))
    assert sheet.chips() == ((490, 513, 502, 440), 55)


def test_caller_clag_call_checked_step_by_step(tmp_path: Path) -> None:
    """docs/games/caller_clag.md, Scoring, example 2: ascending madness, hand of 4, bids
    2, 1, 0, tricks won by Ann, Bob, Ann, Cy: 18, 14, 8. A size out of range and an
    unknown kind are refused at once and asked again."""
    save = tmp_path / "c.json"
    stdin = lines(9, 4, "bogus", "normal", "ascending_madness", "", 2, 1, 0, "Ann,Bob,Ann,Cy")
    result = score(
        "caller_clag",
        "--players",
        "Ann,Bob,Cy",
        "--dealer",
        "Cy",
        save=save,
        stdin=stdin + "quit\n",
    )
    assert "the caller calls a hand of 3 to 7 cards, not 9" in result.output
    assert "'bogus' is not a kind of hand" in result.output
    assert sheet_from_json(json.loads(save.read_text())).totals == (18, 14, 8)
