"""docs/coach.md, Cooperative Blackout: in a cooperative ruleset (no seat scores points;
the table succeeds when every seat takes exactly its bid) a choice's value is the chance
that the whole table is exact this hand, in the sampled values (the kernel's and
Python's), the exact ones, a review, the terminal's hint and the server's hint message;
the chance of making the bid stays the seat's own.

The ruleset is found by its ``cooperative`` flag, not by its name.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.cli_command import Command
from tests.helpers import deal, game
from tricktaker import GameState, Observation, list_rulesets, load_ruleset, new_game
from tricktaker.bots import make_bot, play_game
from tricktaker.bots.base import bot_decisions
from tricktaker.cards import parse_card
from tricktaker.coach.exact import exact_hint
from tricktaker.coach.model import CHANCE_UNIT, Hint, value_unit
from tricktaker.coach.review import Review, review_record
from tricktaker.coach.values import hint
from tricktaker.engine.actions import bid
from tricktaker.engine.state import ChanceOutcome
from tricktaker.kernel import LOAD_ERROR, available
from tricktaker.server.tables.hints import hint_message

COOPERATIVE = next(name for name in list_rulesets() if load_ruleset(name).cooperative)
"""The shipped cooperative ruleset."""


def require_kernel() -> None:
    """The kernel's path of the values needs the built kernel."""
    if not available():
        pytest.fail(f"the compiled kernel is not built: {LOAD_ERROR}")


def one_card_hand(hands: list[str], trump_card: str) -> GameState:
    """A three-player cooperative game at its first hand (one card each, seat 1 bids
    first), dealt ``hands``, its trump the suit of ``trump_card`` (the second deck's)."""
    state = game(COOPERATIVE, 3)
    deal(state, hands)
    state.apply_chance(ChanceOutcome("second_deck", (parse_card(trump_card),)))
    assert state.hand_size == 1
    assert state.to_act() == (1,)
    return state


def agree(sampled: Hint, exact: Hint) -> None:
    """Every sampled chance lies within four standard errors of the exact one (the
    error at least that of a chance of 1%, so that a sample that saw no success of a
    rare one is not held to 0)."""
    for choice in exact.choices:
        found = sampled.value_of(choice.action)
        floor = math.sqrt(0.01 * 0.99 / found.samples)
        assert abs(found.mean - choice.mean) <= 4 * max(found.stderr, floor), (found, choice)


@pytest.mark.parametrize("kernel", [False, True])
def test_a_bid_that_surely_breaks_the_table_is_worth_nothing(kernel: bool) -> None:
    """Holding the ace of trumps in a one-card hand: bidding 0 leaves a bid of 1 to a
    seat that cannot take the trick, so the table surely fails (0, no spread); bidding
    1 leaves the others 0 and every deal succeeds (1). The values are chances, not the
    hand score (0 for every choice)."""
    if kernel:
        require_kernel()
    state = one_card_hand(["2C", "AH", "3C"], trump_card="5H")
    found = hint(state.observe(1), deals=200, seed=3, kernel=kernel)
    assert found.best == bid(1)
    one, zero = found.value_of(bid(1)), found.value_of(bid(0))
    assert (zero.mean, zero.stderr) == (0.0, 0.0)
    assert (one.mean, one.stderr) == (1.0, 0.0)
    assert one.make_chance == 1.0
    assert value_unit(state.rules) == CHANCE_UNIT


def test_an_uncertain_bid_the_sampled_chances_agree_with_the_exact_ones() -> None:
    """A low card beside the trumps the others may hold: every consistent deal
    enumerated gives chances strictly between 0 and 1, never above the seat's own
    chance of making its bid; the kernel's and Python's sampled chances lie within
    their errors of them."""
    state = one_card_hand(["2C", "2D", "KH"], trump_card="AH")
    obs = state.observe(1)
    exact = exact_hint(obs)
    for choice in exact.choices:
        assert 0.0 < choice.mean < 1.0
        assert choice.make_chance is not None
        assert choice.make_chance >= choice.mean - 1e-12
    agree(hint(obs, deals=400, seed=2, kernel=False), exact)
    if available():
        agree(hint(obs, deals=2000, seed=2), exact)


def two_card_play() -> Observation:
    """A card decision of a two-card hand (the first succeeded), the last to play to
    its first trick with two legal cards: two hidden cards, a few thousand deals."""
    state = new_game(load_ruleset(COOPERATIVE), players=3, seed=3)
    bots = [make_bot("heuristic", seed=3 + seat) for seat in range(3)]
    for _, obs in bot_decisions(state, bots):
        if obs.hand_size == 2 and len(state.trick) == 2 and len(obs.legal_actions) > 1:
            return obs
    raise AssertionError("no such decision")


def test_a_two_card_play_the_sampled_chances_agree_with_the_exact_ones() -> None:
    """The exact enumeration (coach/exact.py) and the sampled values of a card decision
    of a two-card hand agree, and the values are not all 0."""
    obs = two_card_play()
    exact = exact_hint(obs)
    assert any(choice.mean > 0 for choice in exact.choices)
    agree(hint(obs, deals=600, seed=2), exact)


def test_a_review_counts_chances_and_says_so() -> None:
    """A review of a short cooperative game: its unit is the chance that the table is
    exact (as JSON too), each finished hand's points 1 or 0 as the table was exact or
    not, its sentences in percentages."""
    state = new_game(load_ruleset(COOPERATIVE, options={"max_hands": 2}), players=3, seed=5)
    play_game(state, [make_bot("heuristic", seed=5 + seat) for seat in range(3)])
    review = review_record(state.record(), 0, deals=30)
    assert review.unit == CHANCE_UNIT.name
    assert review.chance
    assert [hand.points for hand in review.hands] == [
        1 if result.all_exact else 0 for result in state.history
    ]
    assert review.decisions
    assert all(0.0 <= c.mean <= 1.0 for d in review.decisions for c in d.choices)
    worded = [hand.summary for hand in review.hands if hand.decisions]
    assert worded
    assert all("%" in summary for summary in worded)
    again = Review.from_json(json.loads(json.dumps(review.to_json())))
    assert again == review


def test_the_terminals_review_shows_chances(tmp_path: Path) -> None:
    """``tricktaker review`` of a cooperative game: its values, costs and hands in
    percentages and in whether the table was exact, never in points."""
    state = new_game(load_ruleset(COOPERATIVE, options={"max_hands": 2}), players=3, seed=5)
    play_game(state, [make_bot("heuristic", seed=5 + seat) for seat in range(3)])
    path = tmp_path / "game.json"
    state.record().save(path)
    command = Command(CliRunner(env={"COLUMNS": "200", "NO_COLOR": None}))
    out = command.ok("review", str(path), "--deals", "20")
    assert "Values: the chance the table is exact in the hand after each choice" in out
    assert "the table was" in out
    assert "% ± " in out
    assert "points" not in out


def test_the_servers_hint_says_its_values_are_chances() -> None:
    """The ``hint`` message carries what its values count: the chance that the table is
    exact, as chances, here; points elsewhere."""
    state = one_card_hand(["2C", "AH", "3C"], trump_card="5H")
    obs = state.observe(1)
    message = hint_message("h1", 4, obs, hint(obs, deals=20, seed=1, kernel=False))
    assert (message["unit"], message["chance"]) == (CHANCE_UNIT.name, True)
    other = game(next(n for n in list_rulesets() if not load_ruleset(n).cooperative), 3)
    while other.is_chance():
        other.apply_chance()
    seen = other.observe(other.to_act()[0])
    answer = hint_message("h2", 1, seen, hint(seen, deals=5, seed=1, kernel=False))
    assert answer["chance"] is False
    assert answer["unit"] == value_unit(other.rules).name


def test_the_terminals_hint_shows_the_chance_the_table_is_exact(tmp_path: Path) -> None:
    """``hint`` at the first bid of a cooperative game: the heading names the chance that
    the table is exact, every value a percentage with its error."""
    command = Command(CliRunner(env={"COLUMNS": "200", "NO_COLOR": None}))
    out = command.ok(
        "play",
        COOPERATIVE,
        "--players",
        "3",
        "--seed",
        "4",
        "--seat",
        "2",
        "--save",
        str(tmp_path / "saved.json"),
        stdin="hint\nquit\n",
    )
    shown = out.split("Coach (", 1)[1].split("Assuming ", 1)[0].splitlines()
    assert "the chance the table is exact this hand" in shown[0]
    rows = [row for row in shown[2:] if row.strip()]
    assert len(rows) == 2  # bid 0 and bid 1: the first to bid in a one-card hand
    assert all("% ± " in row for row in rows)
