"""The measurement against OpenSpiel (issue 30): the ISMCTS settings and their sweep,
seeds drawn by the run, and the clairvoyant reference (bench/openspiel_settings.py,
bench/openspiel_sweep.py, bench/clairvoyant.py, bench/vs_openspiel.py).

Needs OpenSpiel (the ``bench`` extra) and the compiled kernel: under ``CI=true`` a missing
one fails these tests, elsewhere they are skipped."""

from __future__ import annotations

import json
import random
import statistics
from typing import Any

import pytest

from tests.helpers import load_bench, require_module
from tests.postgres import in_ci
from tricktaker.kernel import LOAD_ERROR, available
from tricktaker.kernel.native import native

pyspiel = require_module("pyspiel", "pip install -e '.[bench]'")

adapter_mod = load_bench("openspiel_adapter", "openspiel_adapter")
settings = load_bench("openspiel_settings", "openspiel_settings")
vs_openspiel = load_bench("vs_openspiel", "vs_openspiel")
clairvoyant = load_bench("clairvoyant", "clairvoyant")
sweep = load_bench("openspiel_sweep", "openspiel_sweep")  # vs_openspiel --sweep imports it
GAME = pyspiel.load_game("oh_hell", adapter_mod.OPENSPIEL_PARAMS)


@pytest.fixture
def kernel() -> None:
    """Fail (CI) or skip (elsewhere) when the compiled kernel is not built."""
    if available():
        return
    message = f"the compiled kernel is not built (pip install -e .): {LOAD_ERROR}"
    if in_ci():
        pytest.fail(message)
    pytest.skip(message)


def _dealt(seed: int) -> Any:
    return vs_openspiel.dealt_state(GAME, vs_openspiel.deal_actions(random.Random(seed)))


def test_settings_by_name_and_by_value() -> None:
    assert settings.parse_setting("old") == settings.OLD
    assert settings.parse_setting("TUNED") == settings.TUNED
    assert settings.IsmctsSetting(2.0, "max_visit_count") == settings.OLD
    for policy in settings.FINAL_POLICIES:
        setting = settings.IsmctsSetting(6.5, policy)
        assert settings.parse_setting(setting.label) == setting
        assert setting.describe(300)["final_policy_type"] == policy.upper()
    assert settings.parse_setting("uct_c=4") == settings.IsmctsSetting(4.0)
    for wrong, why in (
        ("uct_c=0", "positive"),
        ("uct_c=2:final=puct", "not one of"),
        ("final=max_value", "missing"),
        ("c=2", "expected"),
        ("newest", "expected"),
    ):
        with pytest.raises(ValueError, match=why):
            settings.parse_setting(wrong)


def test_every_final_policy_builds_a_bot_that_plays_legally() -> None:
    state = _dealt(4)
    for policy in settings.FINAL_POLICIES:
        bot = settings.IsmctsSetting(6.0, policy).bot(seed=1, sims=30)
        assert bot.step(state) in state.legal_actions()


def test_the_tuned_setting_is_the_default_opponent_and_the_old_one_stays_reachable(
    capsys: pytest.CaptureFixture[str],
) -> None:
    summary = vs_openspiel.run(bot="heuristic", hands=2, sims=20, seed=5, vs_random=False)
    assert summary["config"]["ismcts"]["setting"] == settings.TUNED.label
    argv = ["--hands", "2", "--sims", "20", "--seed", "5", "--json", "--openspiel-setting", "old"]
    assert vs_openspiel.main(argv) == 0
    old = json.loads(capsys.readouterr().out)
    assert old["config"]["ismcts"]["setting"] == settings.OLD.label
    assert old["config"]["ismcts"]["uct_c"] == 2.0
    assert old["config"]["seed"] == 5


def test_a_run_without_seed_draws_one_and_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert vs_openspiel.main(["--quick", "--vs-random", "--hands", "4", "--json"]) == 0
    captured = capsys.readouterr()
    seed = json.loads(captured.out)["config"]["seed"]
    assert f"seed {seed} (drawn for this run; --seed {seed} replays it)" in captured.err
    assert len({vs_openspiel.fresh_seed() for _ in range(4)}) > 1


def test_sweep_quick_ranks_every_setting_on_the_same_deals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert vs_openspiel.main(["--sweep", "--quick", "--seed", "9", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    rows = summary["rows"]
    # Stage one: uct_c 6 (max visit count); stage two: the two other final policies at
    # the better of uct_c 6 and the reference's 2 (its row, 0, is not played).
    assert sorted(row["stage"] for row in rows) == [1, 2, 2]
    best = summary["best_uct_c_stage_one"]
    assert best in (2.0, 6.0)
    assert {row["final_policy"] for row in rows if row["stage"] == 2} == {
        "normalized_visit_count",
        "max_value",
    }
    assert all(row["uct_c"] == best for row in rows if row["stage"] == 2)
    diffs = [row["diff_per_hand"] for row in rows]
    assert diffs == sorted(diffs, reverse=True)
    for row in rows:
        assert row["hands"] == summary["hands_per_setting"] == 2
        assert row["per_deal_diff"] == [row["diff_per_hand"]]
        assert row["candidate_ms_per_move_mean"] > 0
    table = sweep.format_sweep(summary)
    assert "0 by construction" in table


@pytest.mark.usefixtures("kernel")
def test_clairvoyant_world_holds_the_true_deal_only() -> None:
    state = _dealt(2)
    for _ in range(9):  # the four bids and five cards
        state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    reference = clairvoyant.ClairvoyantReference(seat, 1, opponents="random", iterations=50)
    hands = reference.hands(state)
    assert sorted(h.bit_count() for h in hands) == [10, 11, 11, 11]  # a trick and a card
    union = 0
    for hand in hands:
        assert not union & hand  # the hands are disjoint
        union |= hand
    observation, world = reference.world(state)
    assert observation.hand == hands[seat]
    for deal in native().samples(world, 3, 20):
        assert list(deal[:4]) == hands  # every sample is the true deal
    assert reference.choose(state) in state.legal_actions()


@pytest.mark.usefixtures("kernel")
@pytest.mark.parametrize("vs_random", [True, False])
def test_clairvoyant_quick_runs_on_the_same_deals_as_our_bot(
    vs_random: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--bot", "clairvoyant", "--seed", "11", "--json"]
    if vs_random:  # --quick: 8 hands (two deals), 200 clairvoyant iterations
        hands, sims, iterations = 8, 100, 200
        argv += ["--vs-random", "--quick"]
    else:  # four deals, kept short (OpenSpiel's ISMCTS plays half the seats)
        hands, sims, iterations = 8, 20, 100
        argv += ["--hands", "8", "--sims", "20", "--clairvoyant-iterations", "100"]
    assert vs_openspiel.main(argv) == 0
    ceiling = json.loads(capsys.readouterr().out)
    assert ceiling["config"]["clairvoyant_iterations"] == iterations
    common: dict[str, Any] = {"hands": hands, "sims": sims, "seed": 11, "vs_random": vs_random}
    ours = vs_openspiel.run(bot="heuristic", **common)
    assert ceiling["hands"] == ours["hands"] == hands
    assert ceiling["ours"]["name"] == "clairvoyant"
    row = clairvoyant.gap(ceiling, ours)
    assert row["deals"] == (2 if vs_random else 4)
    assert row["bot"] == "heuristic"
    expected = statistics.fmean(ceiling["per_deal_ours"]) - statistics.fmean(ours["per_deal_ours"])
    assert row["gap_per_hand"] == pytest.approx(expected)
    assert row["gap_95"][0] <= row["gap_per_hand"] <= row["gap_95"][1]
    other_seed = vs_openspiel.run(bot="heuristic", **(common | {"seed": 12}))
    with pytest.raises(ValueError, match="seed"):
        clairvoyant.gap(ceiling, other_seed)
    with pytest.raises(ValueError, match="time budget"):
        vs_openspiel.run(bot="clairvoyant", match_time=True, **common)
    other = vs_openspiel.run(
        bot="clairvoyant", clairvoyant_iterations=100, clairvoyant_opponents="search", **common
    )
    assert other["config"]["clairvoyant_opponents"] == "search"
    assert ceiling["config"]["clairvoyant_opponents"] == ("random" if vs_random else "policy")
    with pytest.raises(ValueError, match="opponents"):
        clairvoyant.ClairvoyantReference(0, 1, opponents="perfect", iterations=10)


def test_keep_bots_keeps_our_bot_at_each_seat_from_deal_to_deal() -> None:
    """With ``keep_bots`` our bot at a seat is made once a process and plays every deal
    there: a bot that learns its opponents' kinds carries them into the next deal."""
    vs_openspiel._KEPT.clear()
    summary = vs_openspiel.run(
        bot="ismcts:iterations=50:opponents=learned",
        hands=8,
        sims=20,
        seed=3,
        vs_random=True,
        keep_bots=True,
    )
    assert summary["config"]["keep_bots"] is True
    assert summary["hands"] == 8
    kept = dict(vs_openspiel._KEPT)
    vs_openspiel._KEPT.clear()
    assert sorted(seat for _, seat in kept) == [0, 1, 2, 3]
    for (_, seat), bot in kept.items():
        assert set(bot.kinds) == {0, 1, 2, 3} - {seat}
