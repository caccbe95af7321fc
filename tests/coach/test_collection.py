"""The coach's hint raises the garbage collector's young threshold only while it samples
(tricktaker.coach.collection), and restores the process's own setting afterwards, with
hints nested or in several threads."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from tricktaker import load_ruleset, new_game
from tricktaker.coach.collection import YOUNG_THRESHOLD, fewer_collections
from tricktaker.coach.values import hint, python_totals, staged_totals


@pytest.fixture
def threshold() -> Iterator[tuple[int, int, int]]:
    """The process's threshold, restored after the test whatever it did."""
    saved = gc.get_threshold()
    yield saved
    gc.set_threshold(*saved)


def test_the_sampling_runs_raised_and_restores(threshold: tuple[int, int, int]) -> None:
    gc.set_threshold(700, 10, 10)
    state = new_game(load_ruleset("euchre"), players=4, seed=2)
    while not state.to_act():
        state.apply_chance()
    obs = state.observe(state.to_act()[0])
    seen: list[tuple[int, int, int]] = []

    def stop(done: int) -> bool:
        seen.append(gc.get_threshold())
        return done >= 5

    for totals in (staged_totals, python_totals):
        assert totals(obs, obs.legal_actions, seed=1, stop=stop)
        assert gc.get_threshold() == (700, 10, 10)
    assert seen
    assert set(seen) == {(YOUNG_THRESHOLD, 10, 10)}
    assert hint(obs, deals=5, seed=1).choices
    assert gc.get_threshold() == (700, 10, 10)


def test_nested_and_threaded_users_restore_on_the_last_exit(
    threshold: tuple[int, int, int],
) -> None:
    gc.set_threshold(500, 7, 9)
    inside, leave = threading.Event(), threading.Event()

    def other() -> None:
        with fewer_collections():
            inside.set()
            leave.wait(10)

    thread = threading.Thread(target=other)
    with fewer_collections():
        assert gc.get_threshold() == (YOUNG_THRESHOLD, 7, 9)
        thread.start()
        assert inside.wait(10)
        with fewer_collections():
            assert gc.get_threshold() == (YOUNG_THRESHOLD, 7, 9)
    assert gc.get_threshold() == (YOUNG_THRESHOLD, 7, 9)  # the thread is still inside
    leave.set()
    thread.join(10)
    assert gc.get_threshold() == (500, 7, 9)


def test_a_setting_of_the_process_is_kept(threshold: tuple[int, int, int]) -> None:
    gc.set_threshold(0, 10, 10)  # collection off: left off
    with fewer_collections():
        assert gc.get_threshold() == (0, 10, 10)
    gc.set_threshold(700, 10, 10)
    with fewer_collections():
        gc.set_threshold(900, 10, 10)  # changed by the process meanwhile: kept
    assert gc.get_threshold() == (900, 10, 10)
