"""The scorekeeper's sheet shown through the same score sheet as the table's.

docs/scorekeeper.md, How the sheet is kept: the engine's own rules and scoring keep the
sheet, so its scorecard (trump and special hands as the table gave them) has the same
cells, totals and Set / Over / Perfect counts as the sheet itself.
"""

from __future__ import annotations

import pytest

from tests.scorekeeper.test_engine_equivalence import GAMES, enter_game, play_hands
from tricktaker import load_ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.scorekeeper.export import cell


@pytest.mark.parametrize("game", GAMES)
def test_the_sheets_scorecard_matches_its_rows(game: str) -> None:
    """Every cell, trump, total and S/O/P count of the sheet is in its scorecard."""
    options: dict[str, object] = {"hands": 3} if game == "buckup" else {}
    rules = load_ruleset(game, options=options)
    players = 4 if 4 in rules.player_counts else rules.player_counts[0]
    state = new_game(rules, players=players, seed=12)
    events = play_hands(state, [make_bot("random", seed=s) for s in range(players)])
    sheet = enter_game(state, game, options, events)
    card = sheet.scorecard()
    assert len(card.rows) == len(sheet.rows) == state.hands_played
    assert card.totals == list(sheet.totals) == list(state.scores)
    for shown, row in zip(card.rows, sheet.rows, strict=True):
        assert shown.hand == row.number
        assert shown.dealer_name == sheet.players[row.dealer]
        assert shown.trump_text == (row.trump or "")
        assert shown.special == (row.special or "")
        for seat, score in enumerate(shown.seats):
            text = ("" if score.bid is None else f"{score.bid}/") + (
                f"{score.tricks} {score.score:+d} = {score.total}"
            )
            assert text == cell(row, seat)
    counts = card.counts or [{"S": 0, "O": 0, "P": 0}] * players
    assert counts == [sheet.counts(seat) for seat in range(players)]
