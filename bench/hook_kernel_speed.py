"""The hard bot's card search in the hook games, compiled kernel against Python.

For each game, positions at mid hand (heuristic players, about half of the hand's cards
played, several cards legal): ISMCTS iterations per second of ``ISMCTSBot`` searching in
the kernel and with ``kernel=0`` (the Python search), the decision's set-up in Python
included, medians over the positions::

    cd bench && ../.venv/bin/python hook_kernel_speed.py --positions 5
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time

from tricktaker import GameState, load_ruleset, new_game
from tricktaker.bots import ISMCTSBot, make_bot
from tricktaker.engine.base import PLAYING
from tricktaker.engine.observation import Observation


def mid_hand(name: str, seed: int) -> Observation | None:
    """A card decision at mid hand of the first hand that reaches its card play."""
    rules = load_ruleset(name)
    players = rules.spec.players.min
    state: GameState = new_game(rules, players=players, seed=seed)
    bots = [make_bot("heuristic", seed=seed + s) for s in range(players)]
    while not state.is_terminal():
        if state.is_chance():
            state.apply_chance()
            continue
        seat = state.to_act()[0]
        if state.phase == PLAYING:
            cards = sum(len(t) for t in state.trick_cards) + len(state.trick)
            total = state.hand_size * (sum(state.active) if state.active else players)
            legal = state.legal_actions(seat)
            if cards >= total // 2 and len(legal) > 1:
                return state.observe(seat)
        state.apply(seat, bots[seat].act(state.observe(seat)))
    return None


def rate(obs: Observation, seed: int, iterations: int, kernel: int) -> tuple[float, float]:
    """Iterations per second and milliseconds of one decision."""
    bot = ISMCTSBot(seed=seed, iterations=iterations, kernel=kernel)
    gc.collect()
    start = time.perf_counter()
    bot.act(obs)
    spent = time.perf_counter() - start
    return bot.last_iterations / spent, spent * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="euchre,pluck,buckup")
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--kernel-iterations", type=int, default=10000)
    parser.add_argument("--python-iterations", type=int, default=300)
    args = parser.parse_args()
    print("| game | positions | kernel it/s | ms | Python it/s (kernel=0) | ms | ratio |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for name in args.games.split(","):
        found = [mid_hand(name, seed) for seed in range(100, 100 + 4 * args.positions)]
        positions = [obs for obs in found if obs is not None][: args.positions]
        fast = [rate(obs, i, args.kernel_iterations, 1) for i, obs in enumerate(positions)]
        slow = [rate(obs, i, args.python_iterations, 0) for i, obs in enumerate(positions)]
        k_rate = statistics.median(r for r, _ in fast)
        p_rate = statistics.median(r for r, _ in slow)
        print(
            f"| {name} | {len(positions)} | {k_rate:,.0f} | "
            f"{statistics.median(ms for _, ms in fast):.1f} | {p_rate:,.0f} | "
            f"{statistics.median(ms for _, ms in slow):.1f} | {k_rate / p_rate:.0f}× |"
        )


if __name__ == "__main__":
    main()
