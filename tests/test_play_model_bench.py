"""Smoke test for bench/play_model.py (the model of a searcher's card plays, issue 30):
its classes of equivalent cards, and a fit on a few self-play hands that reads the
plays better than chance."""

from __future__ import annotations

import numpy as np

from tests.helpers import load_bench

play_model = load_bench("play_model")


def test_equivalent_cards_are_one_class() -> None:
    """Spades (suit 0) 9 and 7 with the 8 played are one class; the 5 with the 6 still
    out is another; a heart is its own."""
    nine, eight, seven, five, heart = 7, 6, 5, 3, 13 + 4
    play = play_model.Play(
        hand=(1 << nine) | (1 << seven) | (1 << five) | (1 << heart),
        legal=(1 << nine) | (1 << seven) | (1 << five) | (1 << heart),
        trick=(),
        gone=1 << eight,
        bid=1,
        won=0,
        trump=2,
        card=nine,
        policy=five,
    )
    assert play_model.classes(play) == [[five], [seven, nine], [heart]]
    x = play_model.features(play, play_model.classes(play))
    assert x.shape == (3, len(play_model.NAMES))
    assert not x[:, play_model.EACH :].any()  # a seat short of its bid: the first block


def test_a_fit_on_self_play_reads_the_plays_better_than_chance() -> None:
    plays = [p for seed in (1, 2, 3) for p in play_model.self_play(seed)]
    data = play_model.arrays(plays)
    assert len(data.chosen) > 50
    w = play_model.fit(data)
    fitted = play_model.scores(play_model.chances(w, data), data)
    uniform = np.where(data.real, 1.0, 0.0) / data.real.sum(axis=1, keepdims=True)
    chance = play_model.scores(uniform, data)
    for kind in ("leads", "follows"):
        assert fitted[kind][1] < chance[kind][1]
    policy = play_model.scores(play_model.softened(data, 0.8), data)
    assert policy["follows"][1] < chance["follows"][1]
