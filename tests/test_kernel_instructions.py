"""bench/kernel_instructions.py (the kernel's ISMCTS against a baseline build of it): it
reads how setup.py builds the kernel, and its child searches the positions it times (no
timing asserted; the builds and callgrind are left to the benchmark's own runs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import load_bench

bench = load_bench("kernel_instructions")
ROOT = Path(__file__).resolve().parent.parent


def test_it_builds_as_setup_py_does() -> None:
    sources, flags, kernel = bench.setup_values((ROOT / "setup.py").read_text())
    assert "search.cpp" in sources
    assert all((ROOT / kernel / name).is_file() for name in sources)
    assert "-std=c++17" in flags


@pytest.mark.parametrize("phase", ["bid", "mid"])
def test_the_child_searches_and_reports(phase: str, capsys: pytest.CaptureFixture[str]) -> None:
    bench.child(phase, 200, 1)
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert figures["iterations"] == 200
    assert figures["rate"] > 0
