"""The learned bid model (tricktaker.bots.bid_model) and its training script."""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from tricktaker import new_game
from tricktaker.bots.bid_model import (
    MODEL_PATH,
    hand_features,
    learned_values,
    table_values,
    tables,
)
from tricktaker.bots.search_ohhell import BID_SPREAD, _formula_values, _Sampler, card_values
from tricktaker.engine.observation import Observation
from tricktaker.engine.state import GameState
from tricktaker.rules.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parents[1]
TWELVE = ROOT / "bench" / "openspiel_oh_hell.toml"
"""Blackout cut to one hand of 12 among four: the hands the formula fails."""


def bidding(rules_path: Path | str, seed: int, players: int = 4) -> tuple[GameState, Observation]:
    state = new_game(load_ruleset(rules_path), players=players, seed=seed)
    state.apply_chance()
    return state, state.observe(state.to_act()[0])


def estimate(values: Sequence[float], hand: int) -> float:
    return sum(values[card] for card in range(54) if (hand >> card) & 1)


def test_hand_features_count_trumps_and_side_cards_by_rank() -> None:
    hand = (1 << (3 * 13 + 12)) | (1 << 0) | (1 << 13)  # ace of suit 3, two of 0 and of 1
    counts = hand_features(hand, trump=3)
    assert counts[12] == 1.0  # the ace of trumps
    assert counts[13 + 0] == 2.0  # two side twos
    assert sum(counts) == 3.0


def test_the_shipped_model_beats_the_formula_in_hands_of_twelve() -> None:
    table = tables()[(4, 12)]
    assert table.error_sd < 1.0 < table.formula_error_sd
    data = json.loads(MODEL_PATH.read_text())
    assert data["family"] == "oh_hell"
    assert data["version"] == 1


def test_the_learned_values_make_a_bid_tell_the_cards() -> None:
    """Hands of 12 among four: by the formula the ace of trumps is worth about 12 tricks
    and a side ace none; by the learned table a strong hand is worth more than a weak
    one, and a seat that bid high weighs a deal giving it the top trumps above one
    giving it low side cards."""
    _state, obs = bidding(TWELVE, seed=3)
    assert obs.trump is not None
    learned = learned_values(obs)
    assert learned is not None
    assert card_values(obs) == learned
    formula = _formula_values(obs)
    assert formula is not None
    trump = obs.trump
    ace_of_trumps, side_ace = trump * 13 + 12, ((trump + 1) % 4) * 13 + 12
    assert formula[ace_of_trumps] > 10
    assert formula[side_ace] < 0.01
    assert 0.5 < learned[ace_of_trumps] - learned[side_ace] < 2.0
    strong = sum(1 << (trump * 13 + rank) for rank in range(6, 13)) | sum(
        1 << (((trump + 1) % 4) * 13 + rank) for rank in range(8, 13)
    )
    weak = sum(1 << (suit * 13 + rank) for suit in range(4) if suit != trump for rank in range(4))
    assert estimate(learned, strong) > 6
    assert estimate(learned, weak) < 1.5


def test_a_high_bid_weighs_the_deals_that_give_its_seat_the_strong_cards() -> None:
    state, obs = bidding(TWELVE, seed=5)
    seat = obs.seat
    state.apply(seat, next(a for a in obs.legal_actions if a.value == 6))  # twice the mean
    other = state.to_act()[0]
    sampler = _Sampler(state.observe(other), spread=BID_SPREAD)
    assert sampler.seats == [seat]
    rng = random.Random(0)
    deals = [sampler.sample(rng) for _ in range(300)]
    assert sampler.value is not None
    value = sampler.value
    worth = [sum(value[card] for card in deal.dealt[seat]) for deal in deals]
    weights = [sampler.weight(deal) for deal in deals]
    ranked = sorted(zip(worth, weights, strict=True))
    low, high = ranked[: len(ranked) // 4], ranked[-len(ranked) // 4 :]
    assert sum(w for _, w in high) > 2 * sum(w for _, w in low)


@pytest.mark.parametrize(("game", "players"), [("bluke", 4), ("blackout", 2)])
def test_hands_without_a_table_keep_the_formula(game: str, players: int) -> None:
    """Bluke's deck has jokers; the model has no table for two players."""
    _, obs = bidding(game, seed=2, players=players)
    assert learned_values(obs) is None
    formula = _formula_values(obs)
    assert formula is not None
    assert card_values(obs) == tuple(formula)


def test_the_tables_rise_with_the_rank() -> None:
    for table in tables().values():
        for values in (table.trump, table.side):
            assert list(values) == sorted(values)


def test_table_values_share_the_intercept_over_the_hand() -> None:
    table = tables()[(4, 12)]
    values = table_values(table, trump=0, hand_size=12)
    hand = sum(1 << card for card in range(12))  # the two to the king of trumps
    assert estimate(values, hand) == pytest.approx(table.intercept + sum(table.trump[:12]))


def test_a_model_file_of_another_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "model.json"
    path.write_text(json.dumps({"version": 99, "tables": {}}))
    with pytest.raises(ValueError, match="version 99"):
        tables(path)


def test_a_table_worse_than_the_formula_is_left_out(tmp_path: Path) -> None:
    entry = {"trump": [0.5] * 13, "side": [0.0] * 13, "intercept": 0.0}
    path = tmp_path / "model.json"
    path.write_text(
        json.dumps(
            {
                "version": 1,
                "tables": {
                    "4x5": entry | {"error_sd": 0.9, "formula_error_sd": 0.5},
                    "4x9": entry | {"error_sd": 0.5, "formula_error_sd": 2.0},
                },
            }
        )
    )
    assert set(tables(path)) == {(4, 9)}


def test_the_training_script_fits_and_writes_a_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two rounds of a small training (the second bidder reads the first round's
    tables), in worker processes, written as a model file the bots can read."""
    monkeypatch.syspath_prepend(str(ROOT / "examples"))  # the workers import it by name
    module = importlib.import_module("train_bid_model")
    out = tmp_path / "model.json"
    argv = ["--players", "4", "--sizes", "10", "--deals", "12", "--out", str(out)]
    argv += ["--bot", "ismcts:iterations=50:kernel_iterations=50"]
    assert module.main(argv) == 0
    data = json.loads(out.read_text())
    assert data["rounds"] == 2
    entry = data["tables"]["4x10"]
    assert entry["bids"] == 48
    assert entry["held_out"] == 10
    assert len(entry["trump"]) == len(entry["side"]) == 13
    # The formula is far off in hands of 10 among four; the fit is not.
    assert entry["error_sd"] < entry["formula_error_sd"]
    assert (4, 10) in tables(out)
