"""Shared test set-up: saved games go to a temporary data folder, never the user's;
``frozen_heap`` for tests of the benchmarks, which collect garbage before each timing."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def private_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``tricktaker play`` saves into the user's data folder: a temporary one in tests."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.fixture
def frozen_heap() -> Iterator[None]:
    """The objects alive before the test set aside from garbage collection while it runs
    (``gc.freeze``). The benchmarks call ``gc.collect()`` before each timing loop, and in a
    test worker that has run a few thousand tests first each full collection walks all
    their objects: the smoke runs of bench/search_speed.py took 41 s in CI against 5 s
    alone. Frozen, a collection walks only what the test made."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
