"""docs/envs.md, The encoding: a game written outside the package is encoded by declaring
its ``"encoding"`` capability (:mod:`tricktaker.envs.fields`); a game with hooks that
declares none is refused with a clear error.

The game is ``tests/plugins/last_trick.py``: each seat stakes 0 to ``max_stake`` points
on the last trick, from the dealer's left.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import pytest

from tests.envs.helpers import require_envs

require_envs()

from tests.plugins.last_trick import LastTrickHooks  # noqa: E402
from tricktaker import Action, load_ruleset, new_game  # noqa: E402
from tricktaker.engine.hooks import register_hooks  # noqa: E402
from tricktaker.envs.encoding import Encoding, EncodingError  # noqa: E402

LAST_TRICK = Path(__file__).resolve().parents[1] / "plugins" / "last_trick.toml"


def test_a_plugin_game_declares_its_fields_actions_and_phases() -> None:
    """The stakes are written by relative seat once made; the action space has one
    ``stake N`` per stake a ruleset may allow; the mask marks the stakes allowed."""
    rules = load_ruleset(LAST_TRICK)
    encoding = Encoding.of(rules, 3)
    assert encoding.phases[-1] == "stake"
    assert [f.name for f in encoding.fields][-2:] == ["stakes", "staked"]
    assert "bids" not in [f.name for f in encoding.fields]
    state = new_game(rules, players=3, seed=4)
    state.apply_chance()
    first = state.to_act()[0]
    assert first == (state.dealer + 1) % 3
    state.apply(first, Action("stake", 2))
    second = state.to_act()[0]

    for seat in range(3):
        observation = state.observe(seat)
        vector = encoding.encode(observation)
        stakes = vector[encoding.field("stakes").slice].tolist()
        staked = vector[encoding.field("staked").slice].tolist()
        mine = (first - seat) % 3  # the staking seat, seen from ``seat``
        assert stakes == [2.0 if k == mine else 0.0 for k in range(3)]
        assert staked == [1.0 if k == mine else 0.0 for k in range(3)]
        phase = vector[encoding.field("phase").slice]
        assert encoding.phases[int(phase.argmax())] == "stake"
        mask = encoding.action_mask(observation)
        chosen = [encoding.action_at(int(i)) for i in mask.nonzero()[0]]
        expected = [Action("stake", n) for n in range(3)] if seat == second else []
        assert chosen == expected


def test_a_game_with_hooks_and_no_encoding_is_refused(tmp_path: Path) -> None:
    """A game that declares no encoding cannot be encoded: the error names the game and
    the capability it lacks."""

    @register_hooks
    class Unencoded(LastTrickHooks):
        name = "last_trick_unencoded"
        capabilities: ClassVar[dict[str, object]] = {}

    house = tmp_path / "house.toml"
    house.write_text(
        f'extends = "{LAST_TRICK.as_posix()}"\nid = "house"\nhooks = "last_trick_unencoded"\n',
        encoding="utf-8",
    )
    with pytest.raises(EncodingError, match='last_trick_unencoded game declares no "encoding"'):
        Encoding.of(load_ruleset(house), 3)
