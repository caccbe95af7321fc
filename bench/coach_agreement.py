"""The coach's sampled values against exact ones, on small positions of every game.

For every shipped ruleset (or those named), seeded games are played by bots, and every
decision of a seat with at least two legal choices, late in a hand (``--cards`` cards
or fewer in the seat's hand: one- and two-card hands, the last tricks of larger ones)
and with at most ``--limit`` consistent deals (:func:`tricktaker.coach.exact.deal_count`),
is a position. On each, the sampled hint (:func:`tricktaker.coach.values.hint`,
``--deals`` deals, the compiled kernel where it plays the decision) is compared with the
exact one (:func:`tricktaker.coach.exact.exact_hint`, every consistent deal):

* per choice, whether the sampled mean lies within 2 and within 3 of its stated
  standard errors of the exact value (about 95% and 99.7% if the errors are honest and
  normal; a choice with a standard error of 0 counts only when it is exact);
* per position, whether the sampled best choice is a best choice of the exact values
  (``best``: within the exact values' ties; ``best~``: or within two standard errors of
  the sampled difference between it and the exact best, where sampling cannot tell
  them apart);
* the mean absolute error of the sampled means, in the game's points.

Positions whose determinizer samples by evidence it does not weigh (the exact values
cannot count it: :func:`tricktaker.coach.exact.unweighed_evidence`) are counted apart,
in the ``unweighed`` rows. Where that evidence is a weight the determinizer puts on
uniform samples (``weight``: Buckup's stay-or-fold and discard model, which the exact
values cannot sum over the folded hands they do not list), the same position is also
compared with a sampled hint that leaves the weight out (:func:`uniform_hint`: the
coach's deals and play-outs, each deal counting 1), in the ``uniform`` rows: the check
of the sampling and the play-out, the weight aside. See ``bench/README.md``, "Coach:
sampled against exact".
Run::

    .venv/bin/python bench/coach_agreement.py [--positions N] [--deals D] [--limit L]
        [--cards C] [--players P] [--bot NAME] [--rulesets ID ...] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from tricktaker import load_ruleset, new_game
from tricktaker.bots import make_bot
from tricktaker.bots.base import bot_decisions
from tricktaker.bots.gamesearch import search_for
from tricktaker.bots.pimc import rollout_hand
from tricktaker.coach.contract import made_bid
from tricktaker.coach.exact import (
    ExactUnsupportedError,
    deal_count,
    exact_hint,
    unweighed_evidence,
)
from tricktaker.coach.model import Hint, hand_points
from tricktaker.coach.values import ChoiceTotals, choice_value, hint
from tricktaker.engine.observation import Observation
from tricktaker.rules import Ruleset, list_rulesets

TIE = 1e-9
"""Exact values closer than this are a tie."""


def small_positions(
    rules: Ruleset,
    players: int,
    seed: int,
    *,
    limit: int,
    cards: int,
    bot: str = "heuristic",
    refused: Refusals | None = None,
) -> Iterator[Observation]:
    """The decisions of one seeded game played by ``bot`` (every seat) that have at
    least two legal choices, ``cards`` or fewer cards in the seat's hand and at most
    ``limit`` consistent deals (the others late in a hand are counted in ``refused``)."""
    state = new_game(rules, players=players, seed=seed)
    bots = [make_bot(bot, seed=seed * 17 + seat) for seat in range(players)]
    for _, observation in bot_decisions(state, bots):
        if (
            len(observation.legal_actions) > 1
            and observation.hand is not None
            and 0 < observation.cards_in_hand <= cards
        ):
            try:
                count = deal_count(observation)
            except ExactUnsupportedError as exc:
                if refused is not None:
                    refused.cannot[str(exc)] += 1
                count = limit + 1
            else:
                if count > limit and refused is not None:
                    refused.too_many.append(count)
            if count <= limit:
                yield observation


def weighs_uniform_samples(observation: Observation) -> bool:
    """Whether the determinizer of ``observation`` samples uniformly and weighs its soft
    evidence on top (a ``weight``), so that :func:`uniform_hint` leaves it out."""
    sampler = search_for(observation.rules.hooks).determinizer(observation)
    return getattr(sampler, "weight", None) is not None


def uniform_hint(observation: Observation, *, deals: int, seed: int) -> Hint:
    """The coach's sampled values with the determinizer's weight left out: ``deals``
    deals of the game's determinizer (``seed``), every legal choice played out on each
    by the rollout policy in Python, each deal counting 1 (the coach's own estimate,
    :func:`tricktaker.coach.values.choice_value`)."""
    started = time.perf_counter()
    game = search_for(observation.rules.hooks)
    sampler = game.determinizer(observation)
    rng = random.Random(seed)
    seat = observation.seat
    totals = [ChoiceTotals(action) for action in observation.legal_actions]
    for _ in range(deals):
        state = sampler.sample(rng)
        state.reseed(rng.getrandbits(62))
        for choice in totals:
            trial = state.clone()
            trial.apply(seat, choice.action)
            rollout_hand(trial, game)
            result = trial.history[-1]
            making = made_bid(trial.rules, result, seat, trial.setup.partnerships)
            choice.add(1.0, hand_points(trial, seat), making)
    values = sorted((choice_value(choice) for choice in totals), key=lambda v: -v.mean)
    return Hint(
        seat=seat,
        choices=tuple(values),
        best=values[0].action,
        exact=False,
        seconds=time.perf_counter() - started,
    )


@dataclass(slots=True)
class Refusals:
    """The decisions late in a hand that were not positions: those with more deals than
    the limit (their counts) and those whose deals cannot be enumerated (by reason)."""

    too_many: list[int] = field(default_factory=list)
    cannot: Counter[str] = field(default_factory=Counter)

    def summary(self) -> str:
        """One line: how many were refused, the counts' median and least, the reasons."""
        parts = []
        if self.too_many:
            counts = sorted(self.too_many)
            parts.append(
                f"{len(counts)} with too many deals (median {counts[len(counts) // 2]:,},"
                f" least {counts[0]:,})"
            )
        for reason, times in self.cannot.most_common(3):
            parts.append(f"{times} refused: {reason}")
        return "; ".join(parts) or "none refused"


@dataclass(slots=True)
class Tally:
    """The agreement figures of one group of positions."""

    positions: int = 0
    choices: int = 0
    within2: int = 0
    within3: int = 0
    best: int = 0
    best_tolerant: int = 0
    abs_error: float = 0.0
    deals: int = 0
    seconds_exact: float = 0.0
    seconds_sampled: float = 0.0

    def add(self, sampled: Hint, exact: Hint) -> None:
        """Count one position."""
        self.positions += 1
        self.deals += exact.choices[0].samples
        self.seconds_exact += exact.seconds
        self.seconds_sampled += sampled.seconds
        for value in exact.choices:
            guess = sampled.value_of(value.action)
            error = abs(guess.mean - value.mean)
            self.choices += 1
            self.abs_error += error
            self.within2 += error <= 2 * guess.stderr + TIE
            self.within3 += error <= 3 * guess.stderr + TIE
        top = exact.choices[0]
        chosen = exact.value_of(sampled.best).mean
        self.best += chosen >= top.mean - TIE
        spread = math.hypot(
            sampled.value_of(sampled.best).stderr, sampled.value_of(top.action).stderr
        )
        self.best_tolerant += chosen >= top.mean - max(TIE, 2 * spread)

    def row(self, name: str) -> dict[str, object]:
        """The figures as one row of the report."""
        choices = max(1, self.choices)
        positions = max(1, self.positions)
        return {
            "group": name,
            "positions": self.positions,
            "choices": self.choices,
            "within_2se": self.within2 / choices,
            "within_3se": self.within3 / choices,
            "best": self.best / positions,
            "best_tolerant": self.best_tolerant / positions,
            "mean_abs_error": self.abs_error / choices,
            "mean_deals": self.deals / positions,
            "exact_s": self.seconds_exact / positions,
            "sampled_s": self.seconds_sampled / positions,
        }


def run(
    rulesets: Sequence[str],
    *,
    positions: int,
    deals: int,
    limit: int,
    cards: int,
    max_games: int,
    seed: int,
    kernel: bool,
    players: int | None = None,
    progress: bool = True,
    refusals: dict[str, Refusals] | None = None,
    bot: str = "heuristic",
) -> list[dict[str, object]]:
    """Compare the sampled and the exact values on up to ``positions`` positions of each
    ruleset (``players`` at the table, within the ruleset's range; its fewest by
    default; the games played by ``bot`` at every seat); the rows of the report (one
    per ruleset, then per family of rulesets by their hooks, then all)."""
    groups: dict[str, Tally] = {}
    order: list[str] = []

    def tally(name: str) -> Tally:
        if name not in groups:
            groups[name] = Tally()
            order.append(name)
        return groups[name]

    for ruleset_id in rulesets:
        refused = Refusals()
        if refusals is not None:
            refusals[ruleset_id] = refused
        rules = load_ruleset(ruleset_id)
        counts = rules.player_counts
        table = min(counts) if players is None else min(max(players, min(counts)), max(counts))
        family = f"hooks {rules.hooks.name}" if rules.hooks is not None else "no hooks"
        done = 0
        started = time.perf_counter()
        for game in range(max_games):
            if done >= positions:
                break
            for observation in small_positions(
                rules, table, seed + game, limit=limit, cards=cards, bot=bot, refused=refused
            ):
                if done >= positions:
                    break
                try:
                    exact = exact_hint(observation, limit=limit)
                except ExactUnsupportedError as exc:  # e.g. a play-out that meets a draw
                    refused.cannot[str(exc)] += 1
                    continue
                sampled = hint(observation, deals=deals, seed=seed + done, kernel=kernel)
                weighed = "" if not unweighed_evidence(observation) else " unweighed"
                for name in (ruleset_id, family, "all"):
                    tally(name + weighed).add(sampled, exact)
                if weighed and weighs_uniform_samples(observation):
                    uniform = uniform_hint(observation, deals=deals, seed=seed + done)
                    for name in (ruleset_id, family, "all"):
                        tally(name + " uniform").add(uniform, exact)
                    if observation.active is not None:  # by how many others play on
                        others = sum(observation.active) - 1
                        tally(f"{ruleset_id} uniform, {others} others in").add(uniform, exact)
                done += 1
        if progress:
            print(
                f"{ruleset_id}: {done} positions, {time.perf_counter() - started:.0f} s;"
                f" {refused.summary()}",
                file=sys.stderr,
                flush=True,
            )
    rows = [
        groups[name].row(name) for name in order if not name.startswith(("hooks", "no ", "all"))
    ]
    rows += [groups[name].row(name) for name in order if name.startswith(("hooks", "no "))]
    rows += [groups[name].row(name) for name in order if name.startswith("all")]
    return rows


def render(rows: list[dict[str, object]]) -> str:
    """The report as a plain-text table."""
    head = (
        f"{'group':34} {'pos':>5} {'choices':>7} {'<=2se':>6} {'<=3se':>6}"
        f" {'best':>6} {'best~':>6} {'|err|':>7} {'deals':>6} {'exact s':>7}"
    )
    lines = [head, "-" * len(head)]
    for row in rows:
        lines.append(
            f"{row['group']!s:34} {row['positions']:>5} {row['choices']:>7}"
            f" {row['within_2se']:>6.1%} {row['within_3se']:>6.1%} {row['best']:>6.1%}"
            f" {row['best_tolerant']:>6.1%} {row['mean_abs_error']:>7.3f}"
            f" {row['mean_deals']:>6.0f} {row['exact_s']:>7.2f}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=100, help="positions per ruleset")
    parser.add_argument("--deals", type=int, default=200, help="deals of each sampled hint")
    parser.add_argument("--limit", type=int, default=3000, help="most deals of a position")
    parser.add_argument("--cards", type=int, default=3, help="most cards in the seat's hand")
    parser.add_argument("--games", type=int, default=200, help="most games per ruleset")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--players", type=int, default=None, help="players at each table (the ruleset's fewest)"
    )
    parser.add_argument("--python", action="store_true", help="sample in Python only")
    parser.add_argument("--bot", default="heuristic", help="the bot that plays the games")
    parser.add_argument("--rulesets", nargs="*", default=None, help="ruleset ids (all)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args(argv)
    refusals: dict[str, Refusals] = {}
    rows = run(
        args.rulesets or list_rulesets(),
        refusals=refusals,
        positions=args.positions,
        deals=args.deals,
        limit=args.limit,
        cards=args.cards,
        max_games=args.games,
        seed=args.seed,
        kernel=not args.python,
        players=args.players,
        bot=args.bot,
    )
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(render(rows))
    print("\nNot positions (late in a hand, two choices or more):")
    for name, refused in refusals.items():
        print(f"  {name}: {refused.summary()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
