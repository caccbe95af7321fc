"""Loading a ruleset leaves no cyclic garbage.

The server turns Python's automatic cyclic collector off and runs it rarely
(``tricktaker.server.collector``), so whatever a table's house rules leave in
reference cycles stays in memory until then: ``bench/soak.py`` saw the server's
memory climb by the size of those cycles with every table created.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from tricktaker.rules import load_ruleset

HOUSE_RULES = 'extends = "{game}"\nid = "house_{game}"\nname = "House"\n'


@pytest.fixture
def no_automatic_collector() -> Iterator[None]:
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()


@pytest.mark.parametrize("game", ["blackout", "pluck", "euchre", "buckup"])
def test_loading_house_rules_leaves_no_reference_cycles(
    game: str, tmp_path: Path, no_automatic_collector: None
) -> None:
    path = tmp_path / "house.toml"
    path.write_text(HOUSE_RULES.format(game=game))
    load_ruleset(path)  # classes and caches made once are not garbage of a load
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    load_ruleset(path)
    found = gc.collect()
    kinds = sorted({type(thing).__name__ for thing in gc.garbage})
    assert found == 0, f"a load left {found} objects in cycles: {kinds}"
