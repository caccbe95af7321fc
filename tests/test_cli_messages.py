"""What the command line says to a person who mistypes: a game's name (did you mean),
a player count (in the user's terms, never a place in a file they did not write), and
counts written as words are (1 deal set, 2 deal sets)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tricktaker.cli import app

runner = CliRunner(env={"COLUMNS": "200"})


def error_of(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output
    assert result.exit_code == 2, result.output
    return result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["play", "blakout"],
        ["rules", "blakout"],
        ["simulate", "blakout"],
        ["arena", "blakout", "--bots", "random,random"],
        ["score", "blakout", "--players", "Ann,Bob,Cy"],
        ["score", "blakout"],
    ],
)
def test_an_unknown_game_gets_the_nearest_name(args: list[str]) -> None:
    message = error_of(*args)
    assert "unknown game 'blakout': did you mean blackout?" in message
    assert "rules lists them" in message


def test_a_name_like_no_game_lists_the_games() -> None:
    message = error_of("play", "zzzz")
    assert "unknown game 'zzzz'; the games are: blackout, bluke," in message


def test_a_player_count_is_refused_in_the_users_terms() -> None:
    message = error_of("play", "bluke", "--players", "16")
    assert message.strip() == "Error: Bluke is for 2 to 15 players, not 16"
    assert "bluke.toml" not in error_of("simulate", "bluke", "--players", "16")


def test_an_option_for_other_player_counts_is_refused_in_the_users_terms() -> None:
    message = error_of("play", "bluke", "-n", "4", "-o", "extended=true")
    assert ".toml" not in message
    assert "only for 3 players, not 4" in message


def test_the_users_own_file_is_named_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('id = "mine"\nextends = "blackout"\n[players]\nmin = 3\nmax = 4\n')
    message = error_of("play", str(path), "--players", "6")
    assert f"{path}:" in message
    assert "is for 3 to 4 players, not 6" in message


def test_counts_are_singular_or_plural_as_words_are() -> None:
    out = runner.invoke(app, ["arena", "blackout", "-b", "random,random,random", "-k", "1"])
    assert out.exit_code == 0, out.output
    assert "Blackout arena: 1 deal set x 3 rotations = 3 games" in out.stdout
    assert "(s)" not in out.stdout
