"""Fit the heuristic bot's card model: the weights of ``SIDE_WEIGHTS`` and
``TRUMP_WEIGHTS`` in ``src/tricktaker/bots/heuristic.py``.

The data: games of every shipped game with bids, at every player count, in which EVERY
seat is a heuristic bot that tries to win every trick it can (so that a card's result
says what the card can do against players who also try, not what its bid asked of it,
and the chances of all the cards of a hand add up to the tricks in it). For each hand of
each seat, each card's features when it bid (:func:`card_features`) and whether the card
won the trick it was played to. Every hand kind where a seat bids on cards it sees is
included: trump and no trump (every card dealt, a Bluke turned up, Clag's and 7 Truf's
no-trump hands), every size; hands without a normal bid are left out (blind, misere,
pile, trump unknown when bidding). Two logistic regressions (trumps and side cards) are
fitted by Newton's method with a small ridge penalty. The data does not depend on the
weights (the bids of a seat that plays for every trick change nothing), so one round
of play is enough.

An earlier fit played one greedy seat against random bots half the time: random bots
give tricks away, so every card's chance came out too high, worst in long no-trump
hands, where the bids of a table added up to twice the tricks (``bench/easy_bids.py``).

    .venv/bin/python bench/fit_heuristic.py [--games 16] [--seed 0]

It prints the weights to paste into the bot, and each model's log loss and calibration
(mean chance against the share of cards that won, by tenths of the chance; and the
predicted against the actual tricks of the no-trump cards).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence

from tricktaker.bots import heuristic
from tricktaker.cards import cards_of
from tricktaker.engine import new_game
from tricktaker.engine.actions import BID, Action
from tricktaker.engine.observation import Observation
from tricktaker.rules import list_rulesets, load_ruleset

Sample = tuple[tuple[float, ...], int]


class GreedyRecorder(heuristic.HeuristicBot):
    """A heuristic bot that wants every trick and notes its cards' features when it bids."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.noted: dict[int, list[tuple[int, bool, tuple[float, ...]]]] = {}

    def tricks_wanted(self, obs: Observation) -> int:
        return obs.hand_size

    def act(self, observation: Observation) -> Action:
        obs = observation
        if (
            any(a.kind == BID for a in obs.legal_actions)
            and obs.hand is not None
            and obs.trump_known
            and not obs.misere
            and not obs.pile
        ):
            unseen = heuristic._unseen(obs, obs.hand)
            tables = heuristic._tables(obs)
            rows = heuristic.card_features(obs.hand, tables, unseen, obs.players, obs.hand_size)
            cards = cards_of(obs.hand)
            self.noted[obs.hand_number] = [
                (card, trump, row) for card, (trump, row) in zip(cards, rows, strict=True)
            ]
        if any(a.kind == BID for a in obs.legal_actions):
            # Its bid does not matter (it plays for every trick): the lowest, quickly.
            return min((a for a in obs.legal_actions if a.kind == BID), key=lambda a: a.value)
        return super().act(observation)


def collect(games: int, seed: int) -> tuple[list[Sample], list[Sample]]:
    """Samples (features, won) for trumps and for side cards."""
    trumps: list[Sample] = []
    sides: list[Sample] = []
    for game in list_rulesets():
        rules = load_ruleset(game)
        if rules.spec.hooks is not None or rules.cooperative:
            # No bids (Pluck, Euchre, Buckup); Cooperative Blackout deals Blackout's
            # hands, but greedy tables are never all exact, so it would replay its
            # first sizes up to its max_hands and swamp the rest.
            continue
        for players in rules.player_counts:
            for number in range(games):
                recorders = [GreedyRecorder(seed=seed + 97 * number + s) for s in range(players)]
                state = new_game(rules, players=players, seed=seed + 1000 * players + number)
                while not state.is_terminal():
                    if state.is_chance():
                        state.apply_chance()
                        continue
                    for actor in state.to_act():
                        state.apply(actor, recorders[actor].act(state.observe(actor)))
                for hand in state.history:
                    won = {
                        card
                        for trick, winner in zip(hand.trick_cards, hand.trick_winners, strict=True)
                        for s, card in trick
                        if s == winner
                    }
                    for recorder in recorders:
                        for card, trump, row in recorder.noted.get(hand.number, ()):
                            (trumps if trump else sides).append((row, int(card in won)))
            print(f"{game} {players}: {len(trumps)} trumps, {len(sides)} side", file=sys.stderr)
    return trumps, sides


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting."""
    size = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, size):
            factor = a[r][col] / a[col][col]
            for c in range(col, size + 1):
                a[r][c] -= factor * a[col][c]
    x = [0.0] * size
    for r in reversed(range(size)):
        x[r] = (a[r][size] - sum(a[r][c] * x[c] for c in range(r + 1, size))) / a[r][r]
    return x


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def fit(samples: Sequence[Sample], ridge: float = 0.01, steps: int = 40) -> list[float]:
    """Logistic regression weights by Newton's method (ridge on all but the bias), with
    numpy when it is installed (the bench extra has it), else in plain Python. The
    ridge is small, so that the fitted chances of the cards of each kind of hand that
    an indicator feature marks (no trump, all dealt, both) add up to the tricks they
    won."""
    try:
        import numpy as np
    except ImportError:
        return _fit_plain(samples, ridge, steps)
    x = np.array([row for row, _ in samples], dtype=float)
    y = np.array([won for _, won in samples], dtype=float)
    size = x.shape[1]
    penalty = np.eye(size) * ridge
    penalty[0, 0] = 0.0
    w = np.zeros(size)
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -30.0, 30.0)))
        grad = x.T @ (y - p) - penalty @ w
        hess = (x * (p * (1.0 - p))[:, None]).T @ x + penalty
        step = np.linalg.solve(hess, grad)
        w = w + step
        if float(np.max(np.abs(step))) < 1e-6:
            break
    return [float(v) for v in w]


def _fit_plain(samples: Sequence[Sample], ridge: float, steps: int) -> list[float]:
    size = len(samples[0][0])
    weights = [0.0] * size
    for _ in range(steps):
        grad = [-ridge * w if i else 0.0 for i, w in enumerate(weights)]
        hess = [[ridge if i == j and i else 0.0 for j in range(size)] for i in range(size)]
        for row, won in samples:
            p = _sigmoid(sum(w * x for w, x in zip(weights, row, strict=True)))
            err = won - p
            s = p * (1.0 - p)
            for i in range(size):
                grad[i] += err * row[i]
                si = s * row[i]
                hrow = hess[i]
                for j in range(i + 1):
                    hrow[j] += si * row[j]
        for i in range(size):
            for j in range(i):
                hess[j][i] = hess[i][j]
        step = _solve(hess, grad)
        weights = [w + d for w, d in zip(weights, step, strict=True)]
        if max(abs(d) for d in step) < 1e-6:
            break
    return weights


def report(name: str, samples: Sequence[Sample], weights: Sequence[float]) -> None:
    """Log loss and calibration by tenths of the predicted chance."""
    loss = 0.0
    bins = [[0.0, 0.0, 0] for _ in range(10)]
    for row, won in samples:
        p = _sigmoid(sum(w * x for w, x in zip(weights, row, strict=True)))
        p = min(max(p, 1e-9), 1 - 1e-9)
        loss -= math.log(p) if won else math.log(1 - p)
        cell = bins[min(9, int(p * 10))]
        cell[0] += p
        cell[1] += won
        cell[2] += 1
    print(f"{name}: {len(samples)} cards, log loss {loss / len(samples):.4f}", file=sys.stderr)
    for low, (chance, wins, count) in enumerate(bins):
        if count:
            print(
                f"  {low / 10:.1f}-{(low + 1) / 10:.1f}: predicted {chance / count:.3f}"
                f" won {wins / count:.3f} ({count})",
                file=sys.stderr,
            )


def no_trump_check(name: str, samples: Sequence[Sample], weights: Sequence[float]) -> None:
    """Predicted against actual wins of the cards of no-trump hands (feature
    ``no_trump``), by hand kind: the sum of chances should be the tricks won."""
    features = heuristic.SIDE_FEATURES if "side" in name else heuristic.TRUMP_FEATURES
    at, dealt = features.index("no_trump"), features.index("all_dealt")
    for label, no_trump, all_dealt in (
        ("no trump, all dealt", 1.0, 1.0),
        ("no trump, some undealt", 1.0, 0.0),
        ("trump, all dealt", 0.0, 1.0),
    ):
        chosen = [
            (row, won) for row, won in samples if row[at] == no_trump and row[dealt] == all_dealt
        ]
        if not chosen:
            continue
        predicted = sum(
            _sigmoid(sum(w * x for w, x in zip(weights, row, strict=True))) for row, _ in chosen
        )
        actual = sum(won for _, won in chosen)
        print(
            f"  {name}, {label}: {len(chosen)} cards, predicted {predicted:.0f} tricks,"
            f" won {actual}",
            file=sys.stderr,
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=16, help="games per game and player count")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    trumps, sides = collect(args.games, args.seed)
    trump_weights = fit(trumps)
    side_weights = fit(sides)
    report("trumps", trumps, trump_weights)
    report("side cards", sides, side_weights)
    no_trump_check("trumps", trumps, trump_weights)
    no_trump_check("side cards", sides, side_weights)
    print(f"SIDE_WEIGHTS = {tuple(round(w, 3) for w in side_weights)}")
    print(f"TRUMP_WEIGHTS = {tuple(round(w, 3) for w in trump_weights)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
