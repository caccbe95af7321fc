"""The README's examples and the docstring examples of every module run as tests."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import tricktaker

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(tricktaker.__path__, prefix="tricktaker.")
    # The command line is tested by its own tests; migration scripts run only inside Alembic.
    if ".cli" not in info.name and ".migrations" not in info.name
)


@pytest.mark.parametrize("name", MODULES)
def test_module_examples(name: str) -> None:
    if name.startswith("tricktaker.envs"):
        from tests.envs.helpers import require_envs  # the envs extra: numpy, PettingZoo...

        require_envs()
    if name == "tricktaker.envs.openspiel_game":  # the openspiel extra
        from tests.helpers import require_module

        require_module("pyspiel", "pip install -e '.[openspiel]'")
    if name.startswith("tricktaker.datasets"):  # the datasets extra
        from tests.helpers import require_module

        require_module("pyarrow", "pip install -e '.[datasets]'")
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_readme_examples() -> None:
    result = doctest.testfile(
        str(ROOT / "README.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert result.attempted > 0
    assert result.failed == 0
