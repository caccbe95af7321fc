"""Settings of OpenSpiel's ``pyspiel.ISMCTSBot``, the opponent of ``bench/vs_openspiel.py``.

A setting is the exploration constant ``uct_c`` and the final policy (how the move is
picked from the root's statistics once the simulations are done). Everything else is as
the benchmark always built it: ``RandomRolloutEvaluator(n_rollouts=1)``, unlimited world
samples, nodes keyed by the information state string, consistent action sets, and a
fixed number of simulations (``--sims``, 1,000 by default) rather than a wall-clock
limit, so that a run does not depend on the machine's load.

What ``ISMCTSBot`` offers (OpenSpiel 2.0, ``open_spiel/algorithms/is_mcts.cc``): the
final policies ``MAX_VISIT_COUNT``, ``NORMALIZED_VISIT_COUNT`` (the move sampled in
proportion to the root's visit counts) and ``MAX_VALUE``; its child selection is UCB1
only (``SelectActionUCB``; the ``ChildSelectionPolicy`` with PUCT belongs to
``MCTSBot``, and PUCT would need an evaluator with a prior, which the random-rollout
evaluator does not have). ``uct_c`` multiplies the exploration term against values in
the game's raw points (0 to 22 a hand here), which is why it wants larger values than
the 2 the benchmark used.

:data:`OLD` is the benchmark's setting before the sweep (``uct_c`` 2, max visit count),
kept by name; :data:`TUNED` is the sweep's winner (``bench/openspiel_sweep.py``,
``bench/README.md`` "Against OpenSpiel, tuned (issue 30)"), the default opponent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

FINAL_POLICIES: Final = ("max_visit_count", "normalized_visit_count", "max_value")
"""The final policies ``ISMCTSBot`` offers, by the names used on the command line."""


@dataclass(frozen=True, slots=True)
class IsmctsSetting:
    """One setting of OpenSpiel's ISMCTS: ``uct_c`` and the final policy."""

    uct_c: float
    final_policy: str = "max_visit_count"

    def __post_init__(self) -> None:
        if not self.uct_c > 0:
            raise ValueError(f"uct_c must be positive, not {self.uct_c}")
        if self.final_policy not in FINAL_POLICIES:
            raise ValueError(
                f"final policy {self.final_policy!r} is not one of {', '.join(FINAL_POLICIES)}"
            )

    @property
    def label(self) -> str:
        """The setting as ``--openspiel-setting`` reads it back."""
        return f"uct_c={self.uct_c:g}:final={self.final_policy}"

    def bot(self, seed: int, sims: int) -> Any:
        """A ``pyspiel.ISMCTSBot`` with this setting and ``sims`` simulations a move."""
        import pyspiel

        policy = getattr(pyspiel.ISMCTSFinalPolicyType, self.final_policy.upper())
        return pyspiel.ISMCTSBot(
            seed,
            pyspiel.RandomRolloutEvaluator(1, seed),
            self.uct_c,
            sims,
            -1,  # max_world_samples: unlimited
            policy,
            False,  # use_observation_string: key nodes by the information state string
            False,  # allow_inconsistent_action_sets
        )

    def describe(self, sims: int) -> dict[str, Any]:
        """The whole construction, for a run's JSON summary."""
        return {
            "setting": self.label,
            "uct_c": self.uct_c,
            "max_simulations": sims,
            "evaluator": "RandomRolloutEvaluator(n_rollouts=1)",
            "max_world_samples": -1,
            "final_policy_type": self.final_policy.upper(),
            "child_selection": "UCB1 (the only one ISMCTSBot has)",
            "use_observation_string": False,
            "allow_inconsistent_action_sets": False,
        }


OLD: Final = IsmctsSetting(2.0, "max_visit_count")
"""The benchmark's opponent before the sweep (issue 30): uct_c 2, max visit count."""

TUNED: Final = IsmctsSetting(10.0, "max_value")
"""The sweep's best setting, the default opponent: ``uct_c`` 10 with the max-value final
policy, +1.81 [+0.70, +2.92] points a hand against :data:`OLD` over 64 hands on the same
duplicate deals (``bench/README.md``, "Against OpenSpiel, tuned (issue 30)")."""

NAMED: Final[dict[str, IsmctsSetting]] = {"old": OLD, "tuned": TUNED}


def parse_setting(text: str) -> IsmctsSetting:
    """A setting by name (``old``, ``tuned``) or as ``uct_c=C[:final=POLICY]``.

    >>> parse_setting("uct_c=4:final=max_value").label
    'uct_c=4:final=max_value'
    >>> parse_setting("old") == OLD
    True
    """
    named = NAMED.get(text.strip().lower())
    if named is not None:
        return named
    values: dict[str, str] = {}
    for part in text.split(":"):
        key, sep, value = part.partition("=")
        if not sep or key.strip() not in ("uct_c", "final"):
            raise ValueError(
                f"{text!r}: expected old, tuned or uct_c=C[:final=POLICY] "
                f"(POLICY one of {', '.join(FINAL_POLICIES)})"
            )
        values[key.strip()] = value.strip()
    if "uct_c" not in values:
        raise ValueError(f"{text!r}: uct_c is missing")
    return IsmctsSetting(float(values["uct_c"]), values.get("final", "max_visit_count").lower())
