"""The arena: duplicate deals, reproducibility, statistics, ratings and the command."""

from __future__ import annotations

import json
import math
import signal
import statistics
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from tricktaker.arena import (
    ArenaConfig,
    ArenaError,
    DealSetResult,
    GameSummary,
    bot_seed,
    check_config,
    mean_interval,
    play_deal_set,
    play_rotation,
    run_arena,
    seating,
    t_quantile,
)
from tricktaker.arena.pool import CtrlC, ordered_results
from tricktaker.arena.stats import duplicated_share, rate
from tricktaker.cli import app
from tricktaker.rules import RulesetError

runner = CliRunner(env={"COLUMNS": "200"})

HEURISTIC_VS_RANDOM = ("heuristic", "random", "random", "random")


def run(*args: str) -> Result:
    result = runner.invoke(app, ["arena", *args])
    assert "Traceback" not in result.output
    return result


@pytest.fixture
def two_card_blackout(tmp_path: Path) -> Path:
    """House rules: Blackout with a single hand of two cards (one hand per game)."""
    path = tmp_path / "short.toml"
    path.write_text('extends = "blackout"\nid = "short"\n[schedule]\nsizes = "2"\n', "utf-8")
    return path


# ------------------------------------------------------------- seating and deals


def test_each_bot_plays_each_seat_once_per_deal_set() -> None:
    rotations = [seating(4, r) for r in range(4)]
    assert rotations[0] == (0, 1, 2, 3)
    assert rotations[1] == (3, 0, 1, 2)  # bot 0 moved to seat 1
    for bot in range(4):
        assert sorted(seats.index(bot) for seats in rotations) == [0, 1, 2, 3]


def test_blackout_rotations_are_dealt_the_same_hands() -> None:
    config = ArenaConfig("blackout", bots=HEURISTIC_VS_RANDOM, hands=1, seed=11)
    first, first_deals, _ = play_rotation(config, 2, 0)
    for rotation in range(1, 4):
        state, deals, _ = play_rotation(config, 2, rotation)
        assert [hand.deal for hand in state.history] == [hand.deal for hand in first.history]
        assert [hand.trump for hand in state.history] == [hand.trump for hand in first.history]
        assert deals == first_deals
        assert state.first_dealer == first.first_dealer
    assert run_arena(config).duplicated == 1.0
    other, _, _ = play_rotation(config, 3, 0)
    assert [h.deal for h in other.history] != [h.deal for h in first.history]


def test_bots_are_seeded_by_seed_deal_set_and_index() -> None:
    seeds = {bot_seed(s, d, i) for s in range(2) for d in range(3) for i in range(4)}
    assert len(seeds) == 24
    config = ArenaConfig("blackout", bots=("random",) * 4, hands=1, seed=5)
    assert play_deal_set(config, 1) == play_deal_set(config, 1)
    summary = play_deal_set(config, 1)
    assert [game.seating for game in summary.games] == [seating(4, r) for r in range(4)]
    assert summary.seed == 6


def test_deal_differences_are_counted() -> None:
    def game(deals: tuple[str, ...]) -> GameSummary:
        return GameSummary(
            0, (0,), len(deals), (0,), (0,), 0, (0,), (), ((0,),), (0,), False, deals
        )

    result = DealSetResult(0, 0, (game(("a", "b")), game(("a", "c", "d")), game(("a", "b", "d"))))
    # replayed hands: a, c (vs b), a, b, d (hand 3 first seen in the second game)
    assert duplicated_share([result]) == pytest.approx(4 / 5)


# ------------------------------------------------------------ reproducibility


def test_same_seed_same_results_and_workers_do_not_matter() -> None:
    config = ArenaConfig("blackout", bots=HEURISTIC_VS_RANDOM, hands=30, seed=3)
    one = run_arena(config)
    assert run_arena(config) == one
    assert run_arena(config, workers=2) == one
    assert one.deal_sets == 3  # 13 hands per game: 3 deal sets for 30 hands
    assert run_arena(ArenaConfig("blackout", bots=HEURISTIC_VS_RANDOM, hands=30, seed=4)) != one


def test_deal_sets_stop_once_every_rotation_has_the_hands() -> None:
    progress: list[int] = []
    config = ArenaConfig("euchre", bots=("heuristic", "random") * 2, hands=12, seed=2)
    result = run_arena(config, progress=progress.append)
    assert min(result.hands_per_rotation) >= 12
    assert progress == sorted(progress)
    assert progress[-1] == 12
    assert len(progress) == result.deal_sets
    shorter = run_arena(ArenaConfig("euchre", bots=config.bots, hands=1, seed=2))
    assert shorter.deal_sets == 1


# ------------------------------------------------------------------ statistics


def test_t_quantiles() -> None:
    assert t_quantile(1) == pytest.approx(12.706, abs=1e-3)
    assert t_quantile(30) == pytest.approx(2.0423, abs=1e-4)
    assert t_quantile(40) == pytest.approx(2.0211, abs=1e-4)
    assert t_quantile(120) == pytest.approx(1.9799, abs=1e-4)
    assert t_quantile(10**6) == pytest.approx(1.95996, abs=1e-4)
    with pytest.raises(ValueError, match="degrees of freedom"):
        t_quantile(0)


def test_interval_of_known_data() -> None:
    data = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]
    interval = mean_interval(data, [1] * len(data))
    half = 2.3646 * statistics.stdev(data) / math.sqrt(8)
    assert interval.mean == 5.0
    assert interval.half_width == pytest.approx(half)
    assert (interval.low, interval.high) == pytest.approx((5.0 - half, 5.0 + half))
    # equal hands per deal set: the t interval of the per-deal-set means
    per_hand = mean_interval([10.0, 20.0, 30.0], [10, 10, 10])
    assert per_hand.mean == 2.0
    assert per_hand.half_width == pytest.approx(4.3027 * 1.0 / math.sqrt(3))
    # unequal hands: the mean is total over hands (a ratio), not the mean of means
    assert mean_interval([3.0, 1.0], [3, 1]).mean == 1.0
    assert mean_interval([3.0, 1.0], [3, 1]).half_width == 0.0
    single = mean_interval([6.0], [3])
    assert single.mean == 2.0
    assert single.half_width is None
    assert single.low is None


def test_interval_rejects_bad_data() -> None:
    with pytest.raises(ValueError, match="one count per total"):
        mean_interval([], [])
    with pytest.raises(ValueError, match="one count per total"):
        mean_interval([1.0], [1, 2])
    with pytest.raises(ValueError, match="more than 0"):
        mean_interval([1.0], [0])


def test_exact_rates_and_wins_on_a_one_hand_game(two_card_blackout: Path) -> None:
    config = ArenaConfig(str(two_card_blackout), bots=("heuristic", "random", "random"), hands=5)
    result = run_arena(config)
    assert result.deal_sets == 5
    assert result.games == 15
    exact, wins, points = [0] * 3, [0] * 3, [0] * 3
    for deal_set in range(5):
        for rotation in range(3):
            state, _, _ = play_rotation(config, deal_set, rotation)
            (hand,) = state.history
            bots = seating(3, rotation)
            for seat, index in enumerate(bots):
                exact[index] += hand.tricks[seat] == hand.bids[seat]
                points[index] += hand.hand_scores[seat]
            for seat in state.winners():
                wins[bots[seat]] += 1
    for bot in result.results:
        assert bot.hands == 15
        assert bot.games == 15
        assert bot.bid_hands == 15
        assert bot.exact == exact[bot.index]
        assert bot.exact_rate == exact[bot.index] / 15
        assert bot.wins == wins[bot.index]
        assert bot.score.mean == pytest.approx(points[bot.index] / 15)
    assert sum(wins) >= 15  # every game has a winner; ties count each


def test_ratings_follow_the_rankings() -> None:
    win = GameSummary(
        0, (0, 1), 1, (5, 0), (0, 0), 0, (5, 0), (0,), ((0,), (1,)), (5, 0), False, ()
    )
    ratings = rate(2, [win] * 5)
    assert ratings[0].mu > 25 > ratings[1].mu
    assert ratings[0].sigma < 25 / 3
    coop = GameSummary(0, (0, 1), 1, (0, 0), (0, 0), 0, (0, 0), (), ((0,), (1,)), (0, 0), True, ())
    assert [r.mu for r in rate(2, [coop])] == [25.0, 25.0]


def test_heuristic_beats_random_in_blackout() -> None:
    result = run_arena(ArenaConfig("blackout", bots=HEURISTIC_VS_RANDOM, hands=26, seed=1))
    best, *rest = result.results
    assert all(best.ordinal > other.ordinal for other in rest)
    assert all(best.score.mean > other.score.mean for other in rest)
    assert best.exact_rate is not None
    assert best.score.half_width is not None


# --------------------------------------------------------- partnerships, chips


def test_euchre_teams_share_points_and_wins() -> None:
    config = ArenaConfig("euchre", bots=("heuristic", "random", "random", "heuristic"), hands=10)
    result = run_arena(config)
    assert result.partnerships
    by_bot = result.results
    assert [bot.partners for bot in by_bot] == [(2,), (3,), (0,), (1,)]
    for a, b in ((0, 2), (1, 3)):
        assert by_bot[a].score == by_bot[b].score
        assert by_bot[a].wins == by_bot[b].wins
        assert by_bot[a].mu == by_bot[b].mu
    assert all(bot.exact_rate is None for bot in by_bot)
    assert by_bot[0].wins + by_bot[1].wins == result.games
    assert result.duplicated == 1.0


def test_buckup_uses_net_chips() -> None:
    config = ArenaConfig(
        "buckup", bots=("heuristic", "random", "random", "random"), hands=1, seed=4
    )
    result = run_arena(config)
    assert result.deal_sets == 1
    assert not result.partnerships
    chips, hands = [0] * 4, [0] * 4
    for rotation in range(4):
        state, _, _ = play_rotation(config, 0, rotation)
        for seat, index in enumerate(seating(4, rotation)):
            chips[index] += state.scores[seat]  # Buckup's scores: net chips
            hands[index] += len(state.history)
    for bot in result.results:
        assert bot.exact_rate is None
        assert bot.hands == hands[bot.index]
        assert bot.score.mean == pytest.approx(chips[bot.index] / hands[bot.index])
        assert bot.score.half_width is None  # one deal set


# -------------------------------------------------------------------- errors


def test_bad_settings_raise() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        check_config(ArenaConfig("blackout", bots=("random", "nobody")))
    with pytest.raises(RulesetError, match="is for 3 players, not 4"):
        check_config(ArenaConfig("pluck", bots=("random",) * 4))
    with pytest.raises(ArenaError, match="hands"):
        check_config(ArenaConfig("blackout", bots=("random",) * 3, hands=0))
    with pytest.raises(ArenaError, match="workers"):
        run_arena(ArenaConfig("blackout", bots=("random",) * 3), workers=0)


# ----------------------------------------------------------------- the command


def test_command_prints_a_table() -> None:
    result = run("blackout", "--bots", ",".join(HEURISTIC_VS_RANDOM), "--hands", "13")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Blackout arena: 1 deal set x 4 rotations = 4 games" in out
    for title in ("Mean/hand ± 95%", "Exact", "Wins", "Rating", "ms/move", "Ordinal", "heuristic"):
        assert title in out
    assert "Duplicate deals: 100.0%" in out


def test_command_json_and_workers() -> None:
    args = ["euchre", "-b", "heuristic,random,heuristic,random", "-k", "8", "-s", "9", "--json"]
    one = run(*args)
    two = run(*args, "--workers", "2")
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    data = json.loads(one.stdout)
    other = json.loads(two.stdout)
    assert data["settings"].pop("workers") == 1
    assert other["settings"].pop("workers") == 2
    for result in (data, other):  # thinking time is the machine's, not the seed's
        for entry in result["bots"]:
            assert entry.pop("ms_per_move") >= 0
    assert data == other
    assert data["settings"]["game"] == "euchre"
    assert data["settings"]["seed"] == 9
    assert data["settings"]["hands"] == 8
    assert data["settings"]["players"] == 4
    assert data["partnerships"] is True
    bot = data["bots"][0]
    assert set(bot) >= {"name", "mean_score", "ci95", "exact_rate", "wins", "rating"}
    assert set(bot["rating"]) == {"mu", "sigma", "ordinal"}
    assert bot["exact_rate"] is None
    assert bot["partners"] == [2]


def test_command_options_apply() -> None:
    data = json.loads(
        run("blackout", "-b", "random,random,random", "-o", "hook=true", "--json").stdout
    )
    assert data["settings"]["options"]["hook"] is True


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nogame", "--bots", "random"], "unknown game"),
        (["blackout", "--bots", "random,robot,random"], "unknown bot 'robot'"),
        (["blackout", "--bots", "random,random", "--players", "3"], "give one per seat"),
        (["blackout", "--bots", "random,random,random", "-o", "nope=1"], "unknown option"),
        (["pluck", "--bots", "random,random"], "players"),
        (["blackout", "--bots", " , "], "at least one bot"),
        (["blackout", "--bots", "random,random,random", "--hands", "0"], "--hands"),
        (["blackout", "--bots", "random,random,random", "--workers", "0"], "--workers"),
        (["blackout"], "--bots"),
    ],
)
def test_command_errors(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert message in result.output


# ----------------------------------------------------------------- Ctrl-C


def test_an_interrupt_keeps_the_finished_deal_sets() -> None:
    config = ArenaConfig("blackout", bots=("heuristic", "random", "random"), hands=10_000)
    calls: list[int] = []

    def stop_after_two(done: int) -> None:
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt

    result = run_arena(config, progress=stop_after_two, stop_on_interrupt=True)
    assert result.interrupted
    assert result.deal_sets == 2
    assert result.games == 6
    assert min(result.hands_per_rotation) == calls[-1]
    assert result.to_json()["interrupted"] is True
    calls.clear()
    with pytest.raises(KeyboardInterrupt):
        run_arena(config, progress=stop_after_two)


def count_with_ctrl_c(counted: list[int]) -> None:
    """Count to 5, pressing Ctrl-C while each number is being counted."""
    with CtrlC() as ctrl_c:
        for number in range(5):
            with ctrl_c.held():
                signal.raise_signal(signal.SIGINT)
                counted.append(number)


def test_ctrl_c_waits_for_the_result_in_hand() -> None:
    # Ctrl-C as a terminal sends it, even where the test runner ignores SIGINT (a
    # background job inherits SIG_IGN, which CtrlC rightly leaves alone).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        counted: list[int] = []
        with pytest.raises(KeyboardInterrupt):
            count_with_ctrl_c(counted)
        assert counted == [0]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("workers", [1, 3])
def test_ordered_results_keep_the_order(workers: int) -> None:
    with ordered_results(abs, range(0, -20, -1), workers=workers) as results:
        assert list(results) == list(range(20))
