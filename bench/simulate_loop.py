"""The loop of ``tricktaker simulate`` with random bots, against the same games in OpenSpiel.

    python bench/simulate_loop.py [--games 1000] [--repeats 3]

tricktaker: whole 4-player Blackout games (13 hands of 1 to 13 cards) played by
:func:`tricktaker.bots.play_game` with one :class:`~tricktaker.bots.RandomBot` per seat,
as ``tricktaker simulate blackout --players 4 --bots random,random,random,random`` plays
them (without the start-up and the printing). OpenSpiel: for each game, 13 hands of
``oh_hell(players=4, num_tricks_fixed=k)``, played by a plain random loop (as in
``bench/throughput.py``), with k = 1, ..., 12 and 12 again in place of 13 (OpenSpiel's
``oh_hell`` cannot deal 13 cards each to four players: no card is left to turn up for
trump). The best of ``--repeats`` runs is reported for each side.

Then the cost of one observation, in whole random games of several games (10 games each,
``state.observe(seat)`` at every decision, as a bot that reads observations needs).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from tricktaker import load_ruleset, new_game
from tricktaker.bots import RandomBot, play_game

PLAYERS = 4
OPENSPIEL_HAND_SIZES = (*range(1, 13), 12)
"""Blackout's schedule for four players (one hand of each size from 1 to 13), with 12 for
13 in OpenSpiel."""


def tricktaker_games(games: int) -> None:
    """``games`` Blackout games between random bots, as ``simulate`` plays them."""
    rules = load_ruleset("blackout")
    for seed in range(games):
        state = new_game(rules, players=PLAYERS, seed=seed)
        play_game(state, [RandomBot(seed * PLAYERS + seat) for seat in range(PLAYERS)])


def openspiel_games(pyspiel: Any, games: int) -> None:
    """``games`` times the 13 hands of a Blackout game in OpenSpiel's ``oh_hell``."""
    hands = [
        pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": size})
        for size in OPENSPIEL_HAND_SIZES
    ]
    rng = random.Random(0)
    for _ in range(games):
        for game in hands:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(rng.choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))


OBSERVED_GAMES = (("blackout", 4), ("bluke", 4), ("pluck", 3), ("euchre", 4), ("buckup", 4))


def observation_cost(game: str, players: int, games: int = 10) -> tuple[int, float]:
    """``(observations, microseconds each)`` over ``games`` random games, observing the
    seat to act at every decision."""
    rules = load_ruleset(game)
    spent, count = 0.0, 0
    timer = time.perf_counter
    for seed in range(games):
        state = new_game(rules, players=players, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance():
                state.apply_chance()
                continue
            seat = state.to_act()[0]
            start = timer()
            state.observe(seat)
            spent += timer() - start
            count += 1
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return count, 1e6 * spent / count


def best_seconds(run: Callable[[], None], repeats: int) -> float:
    """The fastest of ``repeats`` runs, in seconds."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: Sequence[str] | None = None) -> int:
    """Print both times and their ratio (tricktaker's only, without OpenSpiel)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="Blackout games per run")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each side")
    args = parser.parse_args(argv)
    if args.games < 1 or args.repeats < 1:
        parser.error("--games and --repeats must be at least 1")
    ours = best_seconds(lambda: tricktaker_games(args.games), args.repeats)
    print(f"tricktaker  {args.games} games  {ours:7.2f} s  ({1e3 * ours / args.games:.2f} ms/game)")
    try:
        import pyspiel
    except ImportError:
        print("OpenSpiel is not installed (pip install -e '.[bench]'): no baseline")
    else:
        theirs = best_seconds(lambda: openspiel_games(pyspiel, args.games), args.repeats)
        per_game = 1e3 * theirs / args.games
        print(f"OpenSpiel   {args.games} games  {theirs:7.2f} s  ({per_game:.2f} ms/game)")
        print(f"tricktaker / OpenSpiel: {ours / theirs:.2f}")
    print("\nstate.observe(seat) at every decision of 10 random games:")
    for game, players in OBSERVED_GAMES:
        count, each = observation_cost(game, players)
        print(f"  {game:<10} {count:6d} observations  {each:7.1f} µs each")
    return 0


if __name__ == "__main__":
    sys.exit(main())
