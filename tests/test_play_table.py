"""The terminal table shows the facts the browser shows (issue 26, deliverable 4): the
hand as a player holds it, trumps first and marked with the bowers among them; the
running bids against the tricks; a hand result after each hand; names; the final
standings. Every fact comes from the presentation layer (tricktaker.present)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from tests.test_play_cli import (
    BOWER_HANDS,
    BOWER_KITTY,
    card_position,
    euchre_declared,
    script,
    typed,
)
from tricktaker import GameState, Observation, load_ruleset, new_game
from tricktaker.cards import parse_card, pretty_card
from tricktaker.cli import app
from tricktaker.cli.render import Cards, table_view
from tricktaker.cli.render_games import seat_grid
from tricktaker.present import panels, present_json
from tricktaker.present.text import SYMBOLS, display_order

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": None})


def shown_table(obs: Observation, *, numbered: bool) -> str:
    console = Console(file=io.StringIO(), width=120, color_system=None)
    legal = frozenset(int(a.value) for a in obs.legal_actions) if numbered else None
    names = ["Ann", "Bob", "Cy", "Di"]
    table_view(console, obs, names, Cards(), numbered=legal, turn="Ann's turn")
    output = console.file
    assert isinstance(output, io.StringIO)
    return output.getvalue()


def hand_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("Hand:"))


def test_the_left_bower_is_held_with_the_trumps_and_marked() -> None:
    """docs/games/euchre.md, Trumps and bowers: with hearts trump the jack of diamonds
    (the left bower) is a trump, second only to the jack of hearts."""
    state = euchre_declared(BOWER_HANDS, BOWER_KITTY, "9D 10C QC")
    obs = state.observe(0)  # JD AC AD AS JC, hearts trump
    assert obs.phase == "playing"
    line = hand_line(shown_table(obs, numbered=False))
    assert line.split()[1] == "J♦*"  # first, with the trumps (not with the diamonds), marked
    assert line.count("*") == 2  # J♦ and the legend; A♦ is no trump here
    assert "A♦*" not in line
    assert line.rstrip().endswith("* = trump")


def test_the_trumps_come_first_in_trump_order_and_the_numbers_follow_the_hand() -> None:
    """docs/games/euchre.md, Trumps and bowers (and Left bower highest): by default the
    left bower, then the right bower, then the trump suit from the ace down; the other
    suits follow, alternating colours."""
    hands = ["JD JH AD AS JC", "AH 9D 10C QC KC", "AC 9C 10D QD KD", "KH 10S JS QS KS"]
    state = euchre_declared(hands, BOWER_KITTY, "9D 10C QC")
    obs = state.observe(0)  # hearts trump
    line = hand_line(shown_table(obs, numbered=True))
    held = re.findall(r"\d+\)(\S+)", line)
    assert held == ["J♦*", "J♥*", "A♠", "A♦", "J♣"]  # left bower, right bower, then suits
    numbers = [int(n) for n in re.findall(r"(\d+)\)", line)]
    assert [card_position(obs, c) for c in display_order(obs)] == numbers == [1, 2, 3, 4, 5]


def first_bid_and_cards(state: GameState, obs: Observation) -> str | None:
    if obs.phase == "bidding":
        return "1"
    return str(card_position(obs, int(obs.legal_actions[0].value)))


def test_blackout_shows_bids_against_tricks_a_hand_result_and_the_standings(
    tmp_path: Path,
) -> None:
    """docs/games/blackout.md, Bidding and Scoring: the bids against the tricks of the
    hand while bidding and playing; after each hand, who made their bid; at the end,
    the ranking by total."""
    rules = tmp_path / "two.toml"
    rules.write_text('id = "two"\nextends = "blackout"\n[schedule]\nsizes = "3..4"\n')
    lines, state = script(rules, 5, first_bid_and_cards)
    assert state.is_terminal()
    result = runner.invoke(app, ["play", str(rules), "--seed", "5"], input=typed(lines))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert re.search(r"^(No bids yet: 3 tricks|Bids so far \d+ of 3, \d to bid)$", out, re.M)
    assert re.search(r"^Bids \d+ of 4: (\d+ (over|under)|even)$", out, re.M)
    assert "You are seat 1; bots: Ben (heuristic), Cleo (heuristic), Dot (heuristic)." in out
    assert out.count("Hand 1 is over.") == 1
    result_table = out.split("Hand 1 is over.")[1].split("Scorecard")[0]
    assert re.search(r"^Seat\s+Bid\s+Won\s+Hand\s+Total", result_table.lstrip(), re.M)
    for name in ("You", "Ben", "Cleo", "Dot"):  # each seat's bid, tricks, points and total
        assert re.search(
            rf"^{name}\s+\d+\s+\d+\s+\+\d+\s+\d+\s+(set|over|exact)\s*$", result_table, re.M
        )
    standings = out.split("Final standings")[1]
    assert re.search(r"^1st\s+(You|Ben|Cleo|Dot)\s+\d+$", standings, re.M)
    winner = state.winners()[0]
    name = ["You", "Ben", "Cleo", "Dot"][winner]
    assert re.search(rf"^1st\s+{name}\s+{state.scores[winner]}$", standings, re.M)


def buckup_after_a_discard() -> Observation:
    """Seat 0's view of a Buckup hand once it has paid its ante and discarded."""
    state = new_game(load_ruleset("buckup"), players=4, seed=5)
    while True:
        if state.is_chance():
            state.apply_chance()
            continue
        obs = state.observe(0)
        if obs.extra.get("discarded") and obs.extra.get("drew"):
            return obs
        seat = state.to_act()[0]
        legal = state.observe(seat).legal_actions
        discards = [a for a in legal if a.kind == "discard"]
        mine = len(obs.extra.get("discarded") or [])
        state.apply(seat, discards[0] if seat == 0 and discards and mine < 2 else legal[0])


def test_buckup_net_follows_the_stacks_during_a_hand() -> None:
    """docs/games/buckup.md, Chips, antes and the pot: a player's score is their stack
    minus the starting stack (500): the Net column shows it as the stacks fall, not only
    once the hand is settled."""
    obs = buckup_after_a_discard()
    stacks = obs.extra["stacks"]
    assert stacks[0] < 500
    assert obs.scores[0] == 0
    console = Console(file=io.StringIO(), width=120, color_system=None)
    console.print(seat_grid(obs, ["You", "Ben", "Cleo", "Dot"]))
    output = console.file
    assert isinstance(output, io.StringIO)
    rows = output.getvalue().splitlines()[1:]
    for seat, row in enumerate(rows):
        assert row.split()[-2:] == [str(stacks[seat]), f"{stacks[seat] - 500:+d}"], row


def test_buckup_draws_and_discards_are_written_as_cards() -> None:
    """The seat's own discards and draws are shown as the table shows cards (10♦, not
    10D), in the terminal and in the presentation's lines that the browser gets."""
    obs = buckup_after_a_discard()
    lines = {line.label: line for line in panels.game_lines(obs, ["You", "B", "C", "D"], SYMBOLS)}
    for label, key in (("Discarded", "discarded"), ("Drew", "drew")):
        line = lines[label]
        assert line.text == " ".join(pretty_card(parse_card(c)) for c in obs.extra[key])
        assert not re.search(r"\b(10|[2-9JQKA])[CDHS]\b", line.text)
        assert line.public is None  # the seat's own cards: never shown to the others
    block = present_json(obs, ["You", "B", "C", "D"])
    shown = json.dumps(block["panel"], ensure_ascii=False)
    assert "Discarded" in shown
