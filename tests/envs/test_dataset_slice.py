"""The dataset writer's cut of a game's decisions (``datasets.writer._slice``, used where
a file or row group ends inside a game) cuts every per-decision column of
:class:`~tricktaker.datasets.record.GameRows` and keeps the game's own facts: a column
added to ``GameRows`` and not to the cut fails here. Needs the ``datasets`` and ``envs``
extras; under ``CI=true`` a missing one fails."""

from __future__ import annotations

import dataclasses

from tests.envs.helpers import require_envs
from tests.helpers import require_module

require_envs()
require_module("pyarrow.parquet", "pip install -e '.[datasets]'")

import numpy as np  # noqa: E402

from tricktaker import load_ruleset, new_game  # noqa: E402
from tricktaker.bots import make_bot  # noqa: E402
from tricktaker.datasets.record import play_recorded  # noqa: E402
from tricktaker.datasets.writer import _slice  # noqa: E402


def test_a_cut_cuts_every_column_and_keeps_the_game() -> None:
    rules = load_ruleset("blackout")
    bots = [make_bot("random", seed=seat) for seat in range(3)]
    rows = play_recorded(new_game(rules, players=3, seed=5), bots)
    count = len(rows)
    assert count > 4
    cut = _slice(rows, 2, count - 1)
    assert len(cut) == count - 3
    for field in dataclasses.fields(rows):
        whole, part = getattr(rows, field.name), getattr(cut, field.name)
        if isinstance(whole, int) or len(whole) != count:  # the game's own facts
            assert part is whole, field.name
        else:
            assert len(part) == count - 3, field.name
            assert np.array_equal(np.asarray(part), np.asarray(whole[2 : count - 1])), field.name
