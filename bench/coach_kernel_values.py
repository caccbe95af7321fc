"""The coach's per-choice values in the compiled kernel against the same model in Python.

At two positions of a ruleset (the first bid of its first ``--bid-cards``-card hand, and
the first card with a choice of its first ``--play-cards``-card hand: the lead, where a
rule does not force it; 0 cards: none), both between heuristic players from
``--seed``, it times
``--deals`` deals times every legal choice:

* kernel: :func:`tricktaker.kernel.values.kernel_choice_values` (the kernel samples the
  deals, weighs them by the bid model and plays every choice out on each; in a hook game
  whose determinizer weighs soft evidence, that determinizer draws the deals in Python);
* Python: the same model as the coach states it (:mod:`tricktaker.coach.model`): the
  game's determinizer draws each deal (with its weight), each choice is applied to a
  copy, played out with :func:`tricktaker.bots.pimc.rollout_hand` without noise, and
  :func:`tricktaker.coach.model.hand_points` read.

The median of ``--repeat`` runs each (the Python side ``--python-repeat``), and the
largest gap between the two sides' means in their standard errors. See
``bench/README.md``, "Coach: kernel values". Run::

    .venv/bin/python bench/coach_kernel_values.py --rules blackout [--deals 200]
    .venv/bin/python bench/coach_kernel_values.py --rules euchre --bid-cards 0 --play-cards 5
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import TypeVar

from tricktaker import load_ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.bots.base import bot_decisions
from tricktaker.coach.values import choice_value, python_totals
from tricktaker.engine.observation import Observation
from tricktaker.kernel.values import kernel_choice_values

T = TypeVar("T")


def position(rules_id: str, players: int, phase: str, cards: int, seed: int) -> Observation:
    """The first decision in ``phase`` of the first ``cards``-card hand with a choice."""
    rules = load_ruleset(rules_id)
    state = new_game(rules, players=players, seed=seed)
    bots = [make_bot("heuristic", seed=seed + s) for s in range(players)]
    for _, obs in bot_decisions(state, bots):
        if obs.phase == phase and obs.hand_size == cards and len(obs.legal_actions) > 1:
            return obs
    raise SystemExit(f"no {phase} decision in a {cards}-card hand of {rules_id}")


def python_values(obs: Observation, deals: int, seed: int) -> list[tuple[float, float]]:
    """Each choice's weighted mean and standard error, by the coach's own Python path
    (:func:`tricktaker.coach.values.python_totals`)."""
    totals = python_totals(obs, obs.legal_actions, seed=seed, stop=lambda done: done >= deals)
    return [(value.mean, value.stderr) for value in map(choice_value, totals)]


def timed(run: Callable[[], T], repeat: int) -> tuple[float, T]:
    """The median seconds of ``repeat`` calls of ``run`` and its last result."""
    seconds = []
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        result = run()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rules", required=True, help="a ruleset id")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bid-cards", type=int, default=13)
    parser.add_argument("--play-cards", type=int, default=10)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--python-repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{args.rules}, {args.players} players, {args.deals} deals x every legal choice")
    print(
        f"{'decision':<22} {'choices':>7} {'kernel s':>9} {'Python s':>9} {'ratio':>7} {'max z':>6}"
    )
    for phase, cards in (("bidding", args.bid_cards), ("playing", args.play_cards)):
        if cards == 0:  # --bid-cards 0: a game without bids (a hook game's card play only)
            continue
        obs = position(args.rules, args.players, phase, cards, args.seed)
        kernel_s, kernel = timed(
            partial(kernel_choice_values, obs, seed=args.seed, deals=args.deals, seconds=None),
            args.repeat,
        )
        python_s, python = timed(
            partial(python_values, obs, args.deals, args.seed), args.python_repeat
        )
        gaps = [
            abs(k.mean - mean) / math.hypot(k.stderr, stderr)
            for k, (mean, stderr) in zip(kernel, python, strict=True)
            if k.stderr or stderr
        ]
        name = f"{'bid' if phase == 'bidding' else 'card'}, {cards}-card hand"
        print(
            f"{name:<22} {len(obs.legal_actions):>7} {kernel_s:>9.4f} {python_s:>9.2f}"
            f" {python_s / kernel_s:>6.0f}x {max(gaps, default=0.0):>6.2f}"
        )


if __name__ == "__main__":
    main()
