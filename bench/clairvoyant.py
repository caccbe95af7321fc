"""The clairvoyant reference of ``bench/vs_openspiel.py``: a seat that sees every hand.

:class:`ClairvoyantReference` is a measuring stick, never a product bot: it reads every
seat's cards from OpenSpiel's full state and searches the one true deal, so its score
against given opponents on given deals is the ceiling of what knowing the cards is worth
there. ``vs_openspiel.py --bot clairvoyant`` seats it where our bot would sit, against
the same opponents on the same deals (the deals depend only on ``--seed``), so that each
bot's distance below it is a paired difference over the same deals.

How it plays: the compiled kernel's search (``tricktaker.kernel.search.kernel_search``,
the hard bot's ISMCTS) given a world with a single deal. The world is the one our own
seat's Observation gives (built by ``openspiel_adapter``), with every other seat's hand
fixed to the cards it holds (``WorldFacts.fixed``), none left to sample, and no bid
weighting; the tree and the rollouts therefore play out the true deal. What it assumes
of the other seats (the ``opponents`` argument):

* ``"random"`` (against random players, the true model of them): the other seats' moves
  in the tree and in the rollouts are uniformly random (``model_opponents=2`` with
  opponent noise 1): Monte Carlo over the random players' replies.
* ``"policy"`` (head to head, the default: OpenSpiel's ISMCTS's policy cannot be known):
  the other seats play our rollout policy with their cards, a move in two uniformly
  random, in the tree and in the rollouts (``model_opponents=2`` with opponent noise
  0.5, as our own bot models other seats in its rollouts).
* ``"search"`` (head to head, the other choice): the other seats are perfect-information
  searchers, each choosing by UCB in the tree for its own score (``model_opponents=0``)
  and by our rollout policy, without noise, beyond it. Against OpenSpiel's ISMCTS
  (``uct_c`` 6, 200 hands on the same deals) it scored 10.29 a hand, ``"policy"``
  11.07: the tighter ceiling is the default.

Its own moves below the tree follow the kernel's rollout policy. It plays for its own
score (no rivalry). Every seat's cards come from ``state.information_state_tensor(s)``
for each seat ``s`` (the cards a seat holds now); nothing else reads hidden cards.

The gap of each bot below it, paired over the deals both played::

    .venv/bin/python bench/clairvoyant.py CLAIRVOYANT.json BOT.json [BOT2.json ...]

(``vs_openspiel.py --json`` summaries of the same ``--seed`` and match).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Final

from openspiel_adapter import PLAYERS, OhHellAdapter, decode_tensor
from tricktaker.engine.observation import Observation
from tricktaker.kernel import available
from tricktaker.kernel.native import native
from tricktaker.kernel.search import kernel_search, world_inputs

Z95: Final = 1.959963984540054

OPPONENT_MODELS: Final = ("random", "search", "policy")
"""What the reference may assume of the other seats (see the module notes)."""

MODELS: Final[dict[str, tuple[float, int]]] = {
    "random": (1.0, 2),
    "search": (0.0, 0),
    "policy": (0.5, 2),
}
"""Per opponent model, the kernel search's opponent noise and ``model_opponents``."""

EXPLORATION: Final = 0.3
"""UCB1's constant on the kernel's scaled rewards (the Oh Hell family's default)."""


class ClairvoyantReference:
    """A seat of OpenSpiel ``oh_hell`` played by a search that sees every hand.

    ``iterations``: the kernel's search iterations a move; ``opponents``: ``"random"``,
    ``"search"`` or ``"policy"`` (the module notes say what each assumes).
    """

    def __init__(
        self,
        seat: int,
        seed: int,
        *,
        opponents: str,
        iterations: int,
        adapter: OhHellAdapter | None = None,
    ) -> None:
        if opponents not in OPPONENT_MODELS:
            raise ValueError(f"opponents must be one of {OPPONENT_MODELS}, not {opponents!r}")
        if not available():
            raise RuntimeError("the clairvoyant reference needs the compiled kernel")
        if iterations < 1:
            raise ValueError("iterations must be positive")
        self.seat = seat
        self.seed = seed
        self.opponents = opponents
        self.iterations = iterations
        self.adapter = adapter if adapter is not None else OhHellAdapter()
        self.moves = 0

    def hands(self, state: Any) -> list[int]:
        """Every seat's cards now (tricktaker bitsets), from OpenSpiel's full state."""
        return [decode_tensor(state.information_state_tensor(s)).hand for s in range(PLAYERS)]

    def world(self, state: Any) -> tuple[Observation, Any]:
        """This seat's Observation and the kernel's world of the true deal (every other
        seat's cards fixed), from this seat's side."""
        observation = self.adapter.observe(state, self.seat)
        config, public, facts = world_inputs(observation, weighted=False)
        hands = self.hands(state)
        fixed = tuple(0 if s == self.seat else hands[s] for s in range(PLAYERS))
        facts = replace(
            facts,
            counts=(0,) * PLAYERS,
            unknown=0,
            fixed=fixed,
            guess_bids=(),
            value=None,
            weight_seats=(),
        )
        return observation, native().make_world(config, public, facts)

    def choose(self, state: Any) -> int:
        """The OpenSpiel action this seat plays in ``state`` (its turn)."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        observation, world = self.world(state)
        self.moves += 1
        noise, model = MODELS[self.opponents]
        action, _ = kernel_search(
            observation,
            seed=(self.seed + 7919 * self.moves) % (1 << 31),
            iterations=self.iterations,
            time_budget=None,
            exploration=EXPLORATION,
            noise=noise,
            model_opponents=model,
            weighted=False,
            rivalry=0.0,
            world=world,
        )
        chosen = self.adapter.to_openspiel(action)
        if chosen not in legal:
            raise RuntimeError(f"the clairvoyant search chose the illegal action {chosen}")
        return chosen


def gap(ceiling: dict[str, Any], run: dict[str, Any]) -> dict[str, Any]:
    """How far ``run``'s bot stands below the clairvoyant reference (``ceiling``), paired
    over the deals both played: the two ``vs_openspiel.py --json`` summaries must share the
    seed, the match (head to head or against random players) and the opponent; the
    shorter run's deals are the first of the longer's."""
    first, second = ceiling["config"], run["config"]
    keys = ("seed", "vs_random", "opponent") + (() if first.get("vs_random") else ("ismcts",))
    for key in keys:  # head to head, "ismcts" is the opponent's setting
        if first.get(key) != second.get(key):
            raise ValueError(f"the runs differ in {key}: {first.get(key)} and {second.get(key)}")
    if "per_deal_ours" not in ceiling or "per_deal_ours" not in run:
        raise ValueError("a summary has no per-deal points (made before vs_openspiel kept them)")
    deals = min(len(ceiling["per_deal_ours"]), len(run["per_deal_ours"]))
    if deals < 2:
        raise ValueError("the runs share fewer than two deals")
    differences = [
        c - b for c, b in zip(ceiling["per_deal_ours"], run["per_deal_ours"], strict=False)
    ]
    mean = statistics.fmean(differences)
    half = Z95 * statistics.stdev(differences) / math.sqrt(deals)
    from vs_openspiel import OPENSPIEL_BOT

    name = second["bot"]
    if name == OPENSPIEL_BOT and second.get("ismcts"):
        name = f"{name} {second['ismcts']['setting']}"
    return {
        "bot": name,
        "deals": deals,
        "clairvoyant_points": statistics.fmean(ceiling["per_deal_ours"][:deals]),
        "bot_points": statistics.fmean(run["per_deal_ours"][:deals]),
        "gap_per_hand": mean,
        "gap_95": [mean - half, mean + half],
    }


def main(argv: Sequence[str] | None = None) -> int:
    """``clairvoyant.py CEILING.json RUN.json...``: each run's gap below the clairvoyant."""
    parser = argparse.ArgumentParser(
        description="How far each bot stands below the clairvoyant reference, paired over "
        "the same deals (vs_openspiel.py --json summaries of the same seed and match)."
    )
    parser.add_argument("ceiling", help="the summary of vs_openspiel.py --bot clairvoyant")
    parser.add_argument("runs", nargs="+", help="summaries of other bots on the same deals")
    args = parser.parse_args(argv)
    with open(args.ceiling) as handle:
        ceiling = json.load(handle)
    print(
        f"{'bot':<48} {'deals':>5} {'clairvoyant':>11} {'bot':>6} {'gap':>6} {'95% interval':>16}"
    )
    for path in args.runs:
        with open(path) as handle:
            row = gap(ceiling, json.load(handle))
        low, high = row["gap_95"]
        print(
            f"{row['bot']:<48} {row['deals']:>5} {row['clairvoyant_points']:>11.2f} "
            f"{row['bot_points']:>6.2f} {row['gap_per_hand']:>6.2f} "
            f"{f'[{low:.2f}, {high:.2f}]':>16}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
