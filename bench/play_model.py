"""How much a searcher's card plays tell: a model of the hard bot's plays, fitted to its
self-play, against the rollout policy as a model (issue 30, inference from the plays).

The inference from the plays (``ismcts:infer=plays``) weighs each sampled deal by how
likely the other seats' plays were with its cards, under a model of a player. Today
that model is the rollout policy, softened by a chance of any legal card. This script
asks how much better a model can do. It plays self-play hands of OpenSpiel's
``oh_hell`` house rule (``bench/openspiel_oh_hell.toml``: four players, one hand of
12) between copies of ``--bot``, records every card play with a choice, and fits a
conditional logit over the classes of equivalent legal cards (cards of a suit with
nothing unplayed between them: the same play): features of the class (winning the
trick so far, the lowest or highest winner or loser, trumping in, last to play, a
master card, the rank; leading: the rank, a master, trumps, the suit's length,
singletons, the weakest or strongest lead), each apart for a seat short of its bid,
one that has made it and one over it. Newton's method on the first ``--hands``, scored
on ``--test-hands`` more: the mean negative log-likelihood of the class played (nats;
uniform over the classes for reference), the share where the model's likeliest class
is the one played, and the same for the rollout policy softened by the best chance of
any legal card (the inference's model today).

    .venv/bin/python bench/play_model.py --hands 1500 --test-hands 300 --workers 2

The measurements: bench/README.md, "A player over its bid, and what the plays tell
(issue 30)".
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from tricktaker.bots import make_bot
from tricktaker.bots.search_ohhell import rollout_action
from tricktaker.cards import cards_of
from tricktaker.engine import new_game
from tricktaker.engine.base import PLAYING
from tricktaker.rules.ruleset import load_ruleset

Array = npt.NDArray[np.float64]

RULES = Path(__file__).with_name("openspiel_oh_hell.toml")
PLAYERS = 4
BOT = "ismcts:iterations=6000:kernel_iterations=6000"
"""The players whose plays are modelled: the hard bot's search at a fixed budget."""
RANKS = 13
MOST_CLASSES = 13
FOLLOW = (
    "win",
    "lowest winner",
    "highest winner",
    "highest loser",
    "lowest loser",
    "trumps in",
    "wins last",
    "wins with a master",
    "rank",
)
LEAD = (
    "lead: rank",
    "lead: master",
    "lead: trump",
    "lead: suit length",
    "lead: singleton",
    "lead: weakest",
    "lead: strongest",
    "lead: trump rank",
)
SITUATIONS = ("short", "made", "over")
EACH = len(FOLLOW) + len(LEAD)
NAMES = tuple(f"{s}: {f}" for s in SITUATIONS for f in FOLLOW + LEAD)
NOISES = (0.5, 0.6, 0.7, 0.8, 0.9)
"""The chances of any legal card tried for the softened rollout policy."""


@dataclass(frozen=True, slots=True)
class Play:
    """One card play with a choice: the seat's cards and legal cards, the trick so far,
    the cards of the tricks done, the seat's bid and tricks, trumps, what it played and
    what the rollout policy would have played."""

    hand: int
    legal: int
    trick: tuple[tuple[int, int], ...]
    gone: int
    bid: int
    won: int
    trump: int
    card: int
    policy: int


def strength(card: int, led: int, trump: int) -> int:
    """A card's strength in a trick led in ``led`` (-1: it cannot win)."""
    suit, rank = divmod(card, RANKS)
    if suit == trump:
        return 100 + rank
    return rank if suit == led else -1


def classes(play: Play) -> list[list[int]]:
    """The legal cards in classes of equivalent cards (a suit's run with nothing
    unplayed between), each class lowest first."""
    known = play.hand | play.gone
    out: list[list[int]] = []
    for suit in range(4):
        run: list[int] = []
        for card in cards_of(play.legal & (((1 << RANKS) - 1) << (suit * RANKS))):
            between = range(run[-1] + 1, card) if run else range(0)
            if run and all((known >> c) & 1 for c in between):
                run.append(card)
            else:
                if run:
                    out.append(run)
                run = [card]
        if run:
            out.append(run)
    return out


def features(play: Play, runs: Sequence[Sequence[int]]) -> Array:
    """Each class's features (one row a class), in the block of the seat's situation."""
    x = np.zeros((len(runs), len(NAMES)))
    block = (0 if play.bid > play.won else 1 if play.bid == play.won else 2) * EACH
    out = ((1 << 52) - 1) & ~play.hand & ~play.gone
    for _, card in play.trick:
        out &= ~(1 << card)

    def master(card: int) -> bool:
        top = (card // RANKS + 1) * RANKS
        return not any((out >> c) & 1 for c in range(card + 1, top))

    if play.trick:
        led = play.trick[0][1] // RANKS
        best = max(strength(c, led, play.trump) for _, c in play.trick)
        last = len(play.trick) == PLAYERS - 1
        keys = [strength(run[-1], led, play.trump) for run in runs]
        winners = [k for k in keys if k > best] or [0]
        losers = [k for k in keys if k <= best] or [0]
        for i, (run, k) in enumerate(zip(runs, keys, strict=True)):
            wins = k > best
            follow: tuple[float, ...] = (
                wins,
                wins and k == min(winners),
                wins and k == max(winners),
                not wins and k == max(losers),
                not wins and k == min(losers),
                run[-1] // RANKS == play.trump and led != play.trump,
                wins and last,
                wins and master(run[-1]),
                (run[0] % RANKS) / 12.0,
            )
            x[i, block : block + len(FOLLOW)] = follow
        return x
    leads = [(100 if run[0] // RANKS == play.trump else 0) + run[0] % RANKS for run in runs]
    for i, (run, lead) in enumerate(zip(runs, leads, strict=True)):
        top, suit = run[-1], run[-1] // RANKS
        length = sum(1 for c in cards_of(play.hand) if c // RANKS == suit)
        trump = suit == play.trump
        lead_row: tuple[float, ...] = (
            (top % RANKS) / 12.0,
            master(top),
            trump,
            length / 13.0,
            length == 1,
            lead == min(leads),
            lead == max(leads),
            trump * (top % RANKS) / 12.0,
        )
        x[i, block + len(FOLLOW) : block + EACH] = lead_row
    return x


def self_play(seed: int) -> list[Play]:
    """One hand of self-play: every card play with a choice."""
    bots = [make_bot(BOT, seed=seed * PLAYERS + s) for s in range(PLAYERS)]
    state = new_game(load_ruleset(RULES), players=PLAYERS, seed=seed)
    plays: list[Play] = []
    while not state.is_terminal():
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        obs = state.observe(seat)
        action = bots[seat].act(obs)
        if state.phase == PLAYING and len(obs.legal_actions) > 1:
            assert obs.hand is not None
            assert obs.trump is not None
            policy = rollout_action(state, seat, list(obs.legal_actions))
            plays.append(
                Play(
                    hand=obs.hand,
                    legal=sum(1 << int(a.value) for a in obs.legal_actions),
                    trick=obs.current_trick,
                    gone=sum(1 << c for trick in obs.tricks for _, c in trick),
                    bid=obs.bids[seat] or 0,
                    won=obs.tricks_won[seat],
                    trump=obs.trump,
                    card=int(action.value),
                    policy=int(policy.value),
                )
            )
        state.apply(seat, action)
    return plays


@dataclass(slots=True)
class Data:
    """Plays as padded arrays: features [play, class, feature], the class played, which
    classes are real, each class's size, the policy's class, whether a lead."""

    x: Array
    chosen: npt.NDArray[np.int64]
    real: npt.NDArray[np.bool_]
    sizes: Array
    policy: npt.NDArray[np.int64]
    lead: npt.NDArray[np.bool_]


def arrays(plays: Sequence[Play]) -> Data:
    """The plays with two classes or more, as arrays."""
    rows = []
    for play in plays:
        runs = classes(play)
        if len(runs) > 1:
            rows.append((play, runs, features(play, runs)))
    n = len(rows)
    data = Data(
        x=np.zeros((n, MOST_CLASSES, len(NAMES))),
        chosen=np.zeros(n, dtype=np.int64),
        real=np.zeros((n, MOST_CLASSES), dtype=bool),
        sizes=np.ones((n, MOST_CLASSES)),
        policy=np.zeros(n, dtype=np.int64),
        lead=np.zeros(n, dtype=bool),
    )
    for i, (play, runs, x) in enumerate(rows):
        data.x[i, : len(runs)] = x
        data.real[i, : len(runs)] = True
        data.sizes[i, : len(runs)] = [len(run) for run in runs]
        data.chosen[i] = next(j for j, run in enumerate(runs) if play.card in run)
        data.policy[i] = next(j for j, run in enumerate(runs) if play.policy in run)
        data.lead[i] = not play.trick
    return data


def chances(w: Array, data: Data) -> Array:
    """The model's chance of each class (0 where there is none)."""
    u = np.where(data.real, data.x @ w, -np.inf)
    e = np.exp(u - u.max(axis=1, keepdims=True))
    p: Array = e / e.sum(axis=1, keepdims=True)
    return p


def fit(data: Data, ridge: float = 1e-3, steps: int = 30) -> Array:
    """The conditional logit's weights by Newton's method (a small ridge)."""
    w = np.zeros(len(NAMES))
    rows = np.arange(len(data.chosen))
    for _ in range(steps):
        p = chances(w, data)
        mean = np.einsum("gk,gkf->gf", p, data.x)
        grad = data.x[rows, data.chosen].sum(axis=0) - mean.sum(axis=0) - ridge * w
        hess = np.einsum("gk,gkf,gkh->fh", p, data.x, data.x) - mean.T @ mean
        step = np.linalg.solve(hess + ridge * np.eye(len(w)), grad)
        w += step
        if float(np.abs(step).max()) < 1e-6:
            break
    return w


def scores(p: Array, data: Data) -> dict[str, tuple[int, float, float]]:
    """Per kind of play: count, mean negative log-likelihood of the class played, share
    where the likeliest class was played."""
    rows = np.arange(len(data.chosen))
    out = {}
    for name, which in (("leads", data.lead), ("follows", ~data.lead)):
        nll = -np.log(p[rows, data.chosen])[which].mean()
        top = (p.argmax(axis=1) == data.chosen)[which].mean()
        out[name] = (int(which.sum()), float(nll), float(top))
    return out


def softened(data: Data, noise: float) -> Array:
    """The rollout policy's class with the chance ``1 - noise``, any legal card with
    ``noise`` (a class by its size)."""
    legal = (data.sizes * data.real).sum(axis=1, keepdims=True)
    p = noise * data.sizes * data.real / legal
    p[np.arange(len(data.policy)), data.policy] += 1.0 - noise
    out: Array = p
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1500, help="self-play hands fitted")
    parser.add_argument("--test-hands", type=int, default=300, help="held-out hands scored")
    parser.add_argument("--seed", type=int, default=1000, help="the first hand's seed")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    started = time.time()
    seeds = range(args.seed, args.seed + args.hands + args.test_hands)
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        hands = pool.map(self_play, seeds, chunksize=4)
    train = arrays([p for hand in hands[: args.hands] for p in hand])
    test = arrays([p for hand in hands[args.hands :] for p in hand])
    print(f"{len(train.chosen)} plays fitted, {len(test.chosen)} held out", file=sys.stderr)
    w = fit(train)
    uniform = np.where(test.real, 1.0, 0.0) / test.real.sum(axis=1, keepdims=True)
    rows = [("uniform over the classes", scores(uniform, test))]
    best = min(NOISES, key=lambda n: sum(s[1] for s in scores(softened(train, n), train).values()))
    rows.append((f"rollout policy, noise {best}", scores(softened(test, best), test)))
    rows.append(("fitted model", scores(chances(w, test), test)))
    print(
        "| model (held out) | leads | nats a lead | likeliest played | follows | nats a follow "
        "| likeliest played |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name, s in rows:
        (nl, ll, tl), (nf, lf, tf) = s["leads"], s["follows"]
        print(f"| {name} | {nl} | {ll:.3f} | {tl:.1%} | {nf} | {lf:.3f} | {tf:.1%} |")
    print("\nweights (each situation's block):")
    for name, value in zip(NAMES, w, strict=True):
        if not math.isclose(value, 0.0, abs_tol=1e-9):
            print(f"  {name:32s} {value:+.2f}")
    print(f"\n{time.time() - started:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
