"""The compiled kernel's tests need it built: under ``CI=true`` a missing kernel fails
them (CI must build it: ``pip install -e .`` with a C++ compiler); elsewhere they are
skipped with the reason."""

from __future__ import annotations

import pytest

from tests.postgres import in_ci
from tricktaker.kernel import LOAD_ERROR, available


@pytest.fixture(autouse=True)
def compiled_kernel() -> None:
    """Fail (CI) or skip (elsewhere) when the compiled kernel is not built."""
    if available():
        return
    message = f"the compiled kernel is not built (pip install -e .): {LOAD_ERROR}"
    if in_ci():
        pytest.fail(message)
    pytest.skip(message)
