"""Fit the heuristic bot's card model: the weights of ``SIDE_WEIGHTS`` and
``TRUMP_WEIGHTS`` in ``src/tricktaker/bots/heuristic.py``.

The data: games of every shipped game with bids, at every player count, in which one
seat (in turn) is a heuristic bot that tries to win every trick it can (so that a
card's result says what the card can do, not what its bid asked of it) and the other
seats are heuristic bots (half the games) or random bots (the other half). For each hand
of that seat, each card's features when it bid (:func:`card_features`) and whether the
card won the trick it was played to. Hands without a normal bid are left out (blind,
misere, pile, trump unknown when bidding). Two logistic regressions (trumps and side
cards) are fitted by Newton's method with a small ridge penalty; with ``--rounds 2``
the fitted weights are put into the bot and the data is played again with them.

    .venv/bin/python bench/fit_heuristic.py [--games 4] [--rounds 2] [--seed 0]

It prints the weights to paste into the bot, and each model's log loss and calibration
(mean chance against the share of cards that won, by tenths of the chance).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence

from tricktaker.bots import heuristic
from tricktaker.bots.base import Bot, make_bot
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
        return super().act(observation)


def collect(games: int, seed: int) -> tuple[list[Sample], list[Sample]]:
    """Samples (features, won) for trumps and for side cards."""
    trumps: list[Sample] = []
    sides: list[Sample] = []
    for game in list_rulesets():
        rules = load_ruleset(game)
        if rules.spec.hooks is not None:
            continue
        for players in rules.player_counts:
            for number in range(games):
                recorder = GreedyRecorder(seed=number)
                seat = number % players
                others = "heuristic" if number % 2 else "random"
                bots: list[Bot] = [
                    recorder if s == seat else make_bot(others, seed=seed + 97 * number + s)
                    for s in range(players)
                ]
                state = new_game(rules, players=players, seed=seed + 1000 * players + number)
                while not state.is_terminal():
                    if state.is_chance():
                        state.apply_chance()
                        continue
                    for actor in state.to_act():
                        state.apply(actor, bots[actor].act(state.observe(actor)))
                for hand in state.history:
                    noted = recorder.noted.get(hand.number)
                    if noted is None:
                        continue
                    won = {
                        card
                        for trick, winner in zip(hand.trick_cards, hand.trick_winners, strict=True)
                        for s, card in trick
                        if s == seat and winner == seat
                    }
                    for card, trump, row in noted:
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


def fit(samples: Sequence[Sample], ridge: float = 1.0, steps: int = 12) -> list[float]:
    """Logistic regression weights by Newton's method (ridge on all but the bias)."""
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per game and player count")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for _ in range(args.rounds):
        trumps, sides = collect(args.games, args.seed)
        trump_weights = fit(trumps)
        side_weights = fit(sides)
        report("trumps", trumps, trump_weights)
        report("side cards", sides, side_weights)
        heuristic.TRUMP_WEIGHTS = tuple(round(w, 3) for w in trump_weights)
        heuristic.SIDE_WEIGHTS = tuple(round(w, 3) for w in side_weights)
        print(f"SIDE_WEIGHTS = {heuristic.SIDE_WEIGHTS}")
        print(f"TRUMP_WEIGHTS = {heuristic.TRUMP_WEIGHTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
