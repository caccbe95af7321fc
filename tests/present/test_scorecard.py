"""The score sheet from observations: one row per finished hand, totals equal to the
engine's scores, Set / Over / Perfect counts, team and chip columns, a chart series."""

from __future__ import annotations

import json

import pytest

from tests.present.helpers import NAMES, final_state, games
from tricktaker.present import SYMBOLS, present_json
from tricktaker.present.scorecard import scorecard

EXPECTED_LAYOUT = {"pluck": "quota", "euchre": "team", "buckup": "chips"}


@pytest.mark.parametrize("game", games())
def test_a_whole_game_scorecard_adds_up_to_the_engines_scores(game: str) -> None:
    """docs/games/README.md: every shipped game, played to the end by bots. The totals,
    the last point of the chart and every row's running total agree with the engine;
    Set / Over / Perfect counts are the hands under, over and exactly on the bid."""
    state = final_state(game)
    names = list(NAMES[: state.players])
    for seat in range(state.players):
        obs = state.observe(seat)
        sheet = present_json(obs, names)["scorecard"]
        json.dumps(sheet)
        assert sheet["layout"] == EXPECTED_LAYOUT.get(game, "bids")
        assert sheet["cooperative"] == (game == "coop_blackout")
        assert len(sheet["rows"]) == state.hands_played
        assert sheet["totals"] == list(state.scores)
        assert sheet["series"][-1] == list(state.scores)
        running = [0] * state.players
        for number, row in enumerate(sheet["rows"], 1):
            assert row["hand"] == number
            assert row["dealer_name"] == names[row["dealer"]]
            for s, cell in enumerate(row["seats"]):
                running[s] += cell["score"]
                assert cell["total"] == running[s], (number, s)
        if game in ("euchre", "buckup"):
            assert sheet["counts"] is None
            continue
        for s in range(state.players):
            cells = [row["seats"][s] for row in sheet["rows"]]
            assert sheet["counts"][s] == {
                "S": sum(c["tricks"] < c["bid"] for c in cells),
                "O": sum(c["tricks"] > c["bid"] for c in cells),
                "P": sum(c["tricks"] == c["bid"] for c in cells),
            }
            assert sum(sheet["counts"][s].values()) == state.hands_played


def test_euchre_scorecard_has_team_columns_and_contracts() -> None:
    """docs/games/euchre.md, Scoring: partners score together; each hand shows its
    contract and whether it was made, and the team totals reach the engine's."""
    obs = final_state("euchre", seed=7).observe(0)
    sheet = present_json(obs, NAMES[:4])["scorecard"]
    assert [t["seats"] for t in sheet["teams"]] == [list(t) for t in obs.partnerships]
    assert sheet["team_totals"] == list(obs.extra["team_scores"])
    assert sheet["team_series"][-1] == sheet["team_totals"]
    for row in sheet["rows"]:
        if row["thrown_in"]:
            assert row["contract"] is None
            continue
        contract = row["contract"]
        team = next(t for t in row["teams"] if contract["bidder"] in t["seats"])
        assert contract["made"] == (team["score"] > 0)
        assert contract["text"].startswith(NAMES[contract["bidder"]] + ": ")


def test_buckup_scorecard_shows_the_pot_and_the_stacks() -> None:
    """docs/games/buckup.md, Chips, antes and the pot: chips are neither made nor lost,
    so the stacks and the pot always add up to what was brought; each row shows the pot
    carried in and out."""
    state = final_state("buckup", seed=4)
    sheet = present_json(state.observe(1), NAMES[:4])["scorecard"]
    start = sum(sheet["stacks"]) - sum(sheet["totals"])
    for row in sheet["rows"]:
        pot = row["pot"]
        assert pot is not None
        stacks = [cell["stack"] for cell in row["seats"]]
        assert sum(stacks) + pot["after"] == start
        assert row["summary"][0]["text"].startswith(f"Pot: {pot['before']} carried in")


def test_pluck_scorecard_rows_carry_quotas_and_plucks_seen_by_the_seat() -> None:
    """docs/games/pluck.md, Plucks: only the two players of a pluck see the cards that
    change hands, so a third seat's row names the pluck without its cards."""
    state = final_state("pluck", seed=2)
    sheets = [present_json(state.observe(s), NAMES[:3])["scorecard"] for s in range(3)]
    plucks_seen = 0
    for number, row in enumerate(sheets[0]["rows"]):
        assert row["quotas"] == [cell["bid"] for cell in row["seats"]]
        for index, pluck in enumerate(row["plucks"]):
            for seat in range(3):
                theirs = sheets[seat]["rows"][number]["plucks"][index]
                involved = seat in (pluck["plucker"], pluck["pluckee"])
                assert (theirs["given"] is not None) == involved
                plucks_seen += 1
    assert plucks_seen


def test_an_empty_history_is_an_empty_sheet() -> None:
    """Before the first hand ends the sheet has no rows and zero totals."""
    sheet = scorecard((), NAMES[:3], SYMBOLS)
    assert sheet.rows == []
    assert sheet.totals == [0, 0, 0]
    assert sheet.series == []
    assert sheet.layout == "bids"
