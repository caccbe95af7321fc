"""Shared test set-up: saved games go to a temporary data folder, never the user's."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def private_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``tricktaker play`` saves into the user's data folder: a temporary one in tests."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
