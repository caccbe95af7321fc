"""Train a small agent for one tricktaker game on a CPU in a few minutes, then measure it.

A linear softmax policy over the fixed encoding (docs/envs.md), trained with REINFORCE
and a linear value baseline, in a short self-contained numpy loop (no deep-learning
library). The learner plays a random seat of the Gymnasium environment against bots;
each decision is credited with the points of the hand it belongs to. The policy is
saved as a ``.npz`` file that any bot option reads as ``policy:path=FILE``, so the
arena measures it:

    .venv/bin/pip install -e '.[envs]'
    .venv/bin/python examples/train_agent.py --game blackout --players 4 --seconds 180 \\
        --out blackout_policy.npz
    .venv/bin/tricktaker arena blackout \\
        --bots policy:path=blackout_policy.npz,random,random,random --hands 300
    .venv/bin/tricktaker arena blackout \\
        --bots policy:path=blackout_policy.npz,easy,easy,easy --hands 300

``--evaluate N`` runs both arenas at the end (N hands per rotation).
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from tricktaker.arena import ArenaConfig, run_arena
from tricktaker.envs import gym_env
from tricktaker.envs.gym_env import TricktakerGym
from tricktaker.envs.policy import LinearPolicy, feature_scale
from tricktaker.rules import load_ruleset

Array = npt.NDArray[np.float64]


@dataclass
class Adam:
    """The Adam optimizer for one array (gradient ascent)."""

    shape: tuple[int, ...]
    rate: float
    m: Array = field(init=False)
    v: Array = field(init=False)
    t: int = 0

    def __post_init__(self) -> None:
        self.m = np.zeros(self.shape)
        self.v = np.zeros(self.shape)

    def step(self, grad: Array) -> Array:
        """The change to add to the parameters for ``grad``."""
        self.t += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad * grad
        m_hat = self.m / (1 - 0.9**self.t)
        v_hat = self.v / (1 - 0.999**self.t)
        change: Array = self.rate * m_hat / (np.sqrt(v_hat) + 1e-8)
        return change


def episode(
    env: TricktakerGym, policy: LinearPolicy, scale: Array, rng: np.random.Generator, seed: int
) -> tuple[list[Array], list[Array], list[int], list[float], float]:
    """One game sampled from the policy: features, legal masks, actions, the return
    credited to each decision (its hand's points) and the game's total."""
    vector, info = env.reset(seed=seed)
    xs: list[Array] = []
    masks: list[Array] = []
    actions: list[int] = []
    hands: list[int] = []
    hand_points: dict[int, float] = {}
    done = False
    total = 0.0
    while not done:
        x = vector.astype(np.float64) / scale
        mask = info["action_mask"]
        p = policy.probabilities(x, mask)
        action = int(rng.choice(len(p), p=p))
        hand = env.game.hands_played
        xs.append(x)
        masks.append(mask.astype(np.float64))
        actions.append(action)
        hands.append(hand)
        vector, reward, done, _, info = env.step(action)
        hand_points[hand] = hand_points.get(hand, 0.0) + reward
        total += reward
    returns = [hand_points[h] for h in hands]
    return xs, masks, actions, returns, total


def train(args: argparse.Namespace) -> LinearPolicy:
    """REINFORCE with a value baseline until the time budget is spent."""
    rules = load_ruleset(args.game)
    players = args.players
    policy = LinearPolicy.zeros(rules, players)
    envs = [
        gym_env(rules, players=players, seat=seat, opponents=args.opponents)
        for seat in range(players)
    ]
    scale = feature_scale(envs[0].encoding)
    value_w = np.zeros(envs[0].encoding.observation_size)
    value_b = 0.0
    opt_w = Adam(policy.weights.shape, args.rate)
    opt_b = Adam(policy.bias.shape, args.rate)
    rng = np.random.default_rng(args.seed)
    chooser = random.Random(args.seed)
    start = time.monotonic()
    games = 0
    recent: list[float] = []
    while time.monotonic() - start < args.seconds:
        grad_w = np.zeros_like(policy.weights)
        grad_b = np.zeros_like(policy.bias)
        steps = 0
        for _ in range(args.batch):
            env = envs[chooser.randrange(players)]
            xs, masks, actions, returns, total = episode(
                env, policy, scale, rng, seed=args.seed * 1_000_003 + games
            )
            games += 1
            recent.append(total)
            for x, mask, action, g in zip(xs, masks, actions, returns, strict=True):
                baseline = float(value_w @ x) + value_b
                advantage = (g - baseline) / args.reward_scale
                error = g - baseline
                value_w += args.value_rate * error * x / args.reward_scale
                value_b += args.value_rate * error / args.reward_scale
                p = policy.probabilities(x, mask.astype(np.int8))
                d_logits = -p
                d_logits[action] += 1.0
                grad_w += advantage * np.outer(d_logits, x)
                grad_b += advantage * d_logits
                steps += 1
        policy.weights += opt_w.step(grad_w / max(steps, 1))
        policy.bias += opt_b.step(grad_b / max(steps, 1))
        if games % (args.batch * 10) == 0:
            mean = sum(recent) / len(recent)
            print(
                f"{time.monotonic() - start:6.0f}s  {games:6d} games"
                f"  mean score per game (last {len(recent)}): {mean:8.1f}",
                flush=True,
            )
            recent = []
    print(f"trained on {games} games in {time.monotonic() - start:.0f}s")
    return policy


def evaluate(game: str, players: int, path: str, hands: int) -> None:
    """Arena of the policy against three of ``random``, then of ``easy``."""
    for opponent in ("random", "easy"):
        bots = (f"policy:path={path}", *[opponent] * (players - 1))
        result = run_arena(ArenaConfig(game, bots=bots, hands=hands, seed=1))
        print(f"arena vs {opponent}: {result.games} games, {min(result.hands_per_rotation)}+ hands")
        for bot in result.results:
            score = bot.score
            half = f" ± {score.half_width:.2f}" if score.half_width is not None else ""
            wins = f"{bot.wins}/{bot.games} games won"
            print(f"  {bot.name:40s} {score.mean:7.2f}{half} points per hand, {wins}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="blackout")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opponents", default="random", help="bot name or level")
    parser.add_argument("--seconds", type=float, default=180.0, help="training time")
    parser.add_argument("--batch", type=int, default=8, help="games per update")
    parser.add_argument("--rate", type=float, default=0.01, help="Adam step size")
    parser.add_argument("--value-rate", type=float, default=0.01)
    parser.add_argument("--reward-scale", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="policy.npz")
    parser.add_argument("--evaluate", type=int, default=0, metavar="HANDS")
    args = parser.parse_args()
    policy = train(args)
    policy.save(args.out)
    print(f"saved {args.out}: use it as the bot policy:path={args.out}")
    if args.evaluate:
        evaluate(args.game, args.players, args.out, args.evaluate)


if __name__ == "__main__":
    main()
