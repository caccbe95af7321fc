"""``tricktaker score``: what the prompts offer (the engine's bids, the one trick count
that adds up, the old values of a corrected hand), driven through stdin."""

from __future__ import annotations

import json
from pathlib import Path

from tests.scorekeeper.test_score_cli import BUCKUP, lines, run, score
from tricktaker.games.buckup.scorekeeper import ante_choices
from tricktaker.scorekeeper import ScoreSheet, sheet_from_json
from tricktaker.scorekeeper.offers import bid_offer, last_tricks

BLUKE = ["bluke", "--players", "John,Margaret,Steve,Betsy", "--dealer", "Betsy"]


def test_bluke_bids_offered_from_one_and_a_zero_refused(tmp_path: Path) -> None:
    """docs/games/bluke.md, Bidding: a bid is from 1 up to the hand size, nobody may bid
    zero: the prompt offers 1-13, and a 0 typed is refused with the rule and asked again."""
    save = tmp_path / "b.json"
    result = score(*BLUKE, save=save, stdin=lines("", 0, 3, "quit"))
    assert "John's bid (1-13):" in result.output
    assert "(0-" not in result.output
    assert "Not allowed: John may not bid 0: the lowest bid is 1 (rule: minimum bid)" in (
        result.output
    )
    assert "Margaret's bid (1-13):" in result.output


def test_the_hooks_forbidden_bid_is_named_in_the_prompt(tmp_path: Path) -> None:
    """docs/games/blackout.md, Options: with the hook the dealer may not bring the bids to
    the hand size: Ann, dealing a hand of 1 after bids 1, 0, 0, is offered only 1."""
    stdin = lines("", 1, 0, 0, "quit")
    result = run(
        "score", "blackout", "--players", "Ann,Bob,Cy,Di", "--option", "hook=true", stdin=stdin
    )
    assert result.exit_code == 0, result.output
    assert "Bob's bid (0-1):" in result.output
    assert "Ann's bid (1; not 0):" in result.output


def test_the_last_players_tricks_are_offered_and_enter_accepts_them(tmp_path: Path) -> None:
    """docs/scorekeeper.md, In the terminal: the tricks add up to the hand size, so once
    all but one player's are typed the last is offered; Enter takes it (docs/games/
    bluke.md, Scoring: the sample's first hand, 4 + 0 + 4 + 5 = 13)."""
    save = tmp_path / "b.json"
    stdin = lines("", *(3, 3, 2, 5), *(4, 0, 4), "", "quit")
    result = score(*BLUKE, save=save, stdin=stdin)
    assert "Betsy's tricks (Enter: 5):" in result.output
    sheet = sheet_from_json(json.loads(save.read_text()))
    assert sheet.rows[0].tricks == (4, 0, 4, 5)
    assert sheet.totals == (31, -30, 22, 50)


def test_fix_keeps_every_value_entered_unless_retyped(tmp_path: Path) -> None:
    """docs/scorekeeper.md, In the terminal: `fix N` asks hand N again, each prompt
    offering the old value; Enter keeps it. Only John's bid and the tricks of John and
    Margaret change here (docs/games/bluke.md, Scoring)."""
    save = tmp_path / "b.json"
    stdin = lines(
        "spades",
        *(3, 3, 2, 5),
        *(4, 0, 4, 5),
        "fix 1",
        "",  # trump: kept
        4,  # John's bid: 3 -> 4
        *("", "", ""),  # the other bids kept
        *(3, 1, "", ""),  # John 3, Margaret 1, Steve kept (4), Betsy: the count that adds up
        "quit",
    )
    result = score(*BLUKE, save=save, stdin=stdin)
    out = result.output
    assert "Correcting hand 1: Enter keeps each value as it was." in out
    assert "Trump (a suit, none, or Enter to keep spades):" in out
    assert "John's bid (1-13; Enter: 3):" in out
    assert "Steve's tricks (Enter: 4):" in out
    sheet = sheet_from_json(json.loads(save.read_text()))
    assert sheet.rows[0].bids == (4, 3, 2, 5)
    assert sheet.rows[0].tricks == (3, 1, 4, 5)
    assert sheet.rows[0].trump == "spades"
    reference = ScoreSheet("bluke", ["John", "Margaret", "Steve", "Betsy"], first_dealer="Betsy")
    reference.add(bids=[4, 3, 2, 5], tricks=[3, 1, 4, 5], trump="spades")
    assert sheet.totals == reference.totals


def test_buckup_fix_keeps_ante_decisions_and_draws(tmp_path: Path) -> None:
    """docs/games/buckup.md, Scoring, worked example: corrected with Enter at every prompt,
    the hand stays as it was (stacks 490, 513, 502, 440, pot 55); the antes offered are
    the engine's."""
    save = tmp_path / "k.json"
    hand = ("kept", "fold", "stay", 3, "stay", 1, "stay", 5, 3, 2, "")
    stdin = lines(*hand, "fix 1", *([""] * 11), "quit")
    result = score(*BUCKUP, save=save, stdin=stdin)
    antes = ", ".join(ante_choices(ScoreSheet("buckup", ["A", "B", "C", "D"]).game_copy()))
    assert f"Ante ({antes}; Enter: kept):" in result.output
    assert "D's tricks (Enter: 0):" in result.output
    assert "No score changed." in result.output
    sheet = sheet_from_json(json.loads(save.read_text()))
    assert sheet.chips() == ((490, 513, 502, 440), 55)


def test_offers_follow_the_engine() -> None:
    """docs/games/bluke.md, Bidding and Options (min_bid 0); docs/games/blackout.md,
    Bidding (0 to the hand size): the offered bids are the engine's legal bids."""
    players = ["A", "B", "C", "D"]
    offer = bid_offer(ScoreSheet("bluke", players))
    assert offer is not None
    assert offer.legal == tuple(range(1, 14))
    offer = bid_offer(ScoreSheet("bluke", players, options={"min_bid": 0}))
    assert offer is not None
    assert offer.legal[0] == 0
    offer = bid_offer(ScoreSheet("blackout", players))
    assert offer is not None
    assert offer.legal == (0, 1)
    assert bid_offer(ScoreSheet("pluck", ["A", "B", "C"])) is None
    assert last_tricks(5, [1, None, 2]) == 2
    assert last_tricks(5, [4, None, 2]) is None
    assert last_tricks(5, [None, None, 2]) is None


def test_an_unnamed_player_is_called_as_the_table_calls_a_seat(tmp_path: Path) -> None:
    """docs/scorekeeper.md, In the terminal: a player left unnamed is "Seat N", counted
    from 1, as the table names an empty seat."""
    save = tmp_path / "u.json"
    result = score("bluke", "--players", "Ann,,Cy", save=save, stdin=lines("quit"))
    assert "Keeping score of Bluke for Ann, Seat 2, Cy" in result.output
    assert ScoreSheet("bluke", ["", "Bob"]).players == ("Seat 1", "Bob")
