"""``tricktaker duplicate`` (docs/duplicate.md, From the command line): a set played at
tables of bots on this machine, its standings the scoring module's."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from tests.cli_command import Command
from tricktaker import load_ruleset
from tricktaker.bots import play_game
from tricktaker.cli.common import bot_seed
from tricktaker.duplicate import make_set, standings, table_results
from tricktaker.duplicate.bots import PositionSeededBot

tricktaker = Command(CliRunner(env={"COLUMNS": "200"}))

TABLES = ("easy,random,random", "random,easy,random")


def test_the_standings_are_the_sets() -> None:
    """docs/duplicate.md, From the command line and Bots in a set: the tables' bots are
    seeded by the set's seed and the seat (each choice by the position too), and the
    standings are the scoring module's."""
    out = tricktaker.ok("duplicate", "jabberwocky", "--seed", "4", "-t", TABLES[0], "-t", TABLES[1])
    assert "Jabberwocky, 3 players, 13 hands at 2 tables (seed 4)" in out
    rules = load_ruleset("jabberwocky")
    the_set = make_set(rules, players=3, seed=4)
    results = []
    for number, text in enumerate(TABLES, start=1):
        bots = text.split(",")
        state = the_set.new_game(rules)
        play_game(state, [PositionSeededBot(b, bot_seed(4, s)) for s, b in enumerate(bots)])
        results += table_results(state, [f"{number}:{s}" for s in range(3)])
    expected = standings(results)
    printed = re.findall(r"│ +(\d+) │ Table (\d), seat (\d) \((\w+)\) +│ +(\d+)/(\d+) │", out)
    assert [(int(t), int(s) - 1, int(mp)) for _, t, s, _, mp, _ in printed] == [
        (*map(int, row.entrant.split(":")), row.matchpoints) for row in expected
    ]
    hands = tricktaker.ok(
        "duplicate", "jabberwocky", "-s", "4", "-t", TABLES[0], "-t", TABLES[1], "--hands"
    )
    assert "Each hand's score" in hands


def test_refusals() -> None:
    """docs/duplicate.md, Which games: a game that cannot be dealt duplicate is refused
    with the reason; so are tables of different sizes and an unknown order."""
    called = tricktaker.run("duplicate", "caller_clag", "-t", "random,random,random,random")
    assert called.exit_code == 2
    assert "calls each hand" in called.output
    uneven = tricktaker.run("duplicate", "blackout", "-t", "random,random,random", "-t", "random")
    assert uneven.exit_code == 2
    assert "table 2 names 1 bots" in uneven.output
    order = tricktaker.run("duplicate", "blackout", "-t", "random,random,random", "--order", "x")
    assert order.exit_code == 2
