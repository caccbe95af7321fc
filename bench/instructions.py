"""Instructions per hand, tricktaker vs OpenSpiel, counted by callgrind (repeatable).

Wall-clock timings on a shared machine vary by 20% between rounds; instruction
counts do not. This runs the same random-playout loops as ``throughput.py`` under
``valgrind --tool=callgrind`` twice per engine (0 and N hands, so that start-up and
imports cancel out) and prints the instructions per hand and their ratio.

    .venv/bin/python bench/instructions.py [--hands 300]

Needs ``valgrind`` (Debian package) and ``open-spiel`` (``make bench`` installs it).
Fewer instructions does not guarantee less time: compiled C++ runs more
instructions per cycle than the Python interpreter, so read this beside
``throughput.py``.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from throughput import (  # noqa: E402
    OPENSPIEL_GAME,
    OPENSPIEL_PARAMS,
    load_bench_rules,
    play_openspiel_hand,
    play_tricktaker_hand,
)


def run_loops(engine: str, hands: int) -> None:
    """Play one warm-up hand, then ``hands`` hands, with one engine."""
    rng = random.Random(1)
    if engine == "tricktaker":
        rules = load_bench_rules()
        for seed in range(hands + 1):
            play_tricktaker_hand(rules, seed, rng)
    else:
        import pyspiel

        game = pyspiel.load_game(OPENSPIEL_GAME, OPENSPIEL_PARAMS)
        for _ in range(hands + 1):
            play_openspiel_hand(game, rng)


def count(engine: str, hands: int) -> int:
    """Instructions callgrind collects for a run of ``hands`` hands."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        result = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                "--child",
                engine,
                str(hands),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
    found = re.search(r"Collected : (\d+)", result.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count from callgrind:\n{result.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="hands per engine (default 300)")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_loops(args.child[0], int(args.child[1]))
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        sys.exit("open-spiel is not installed (make bench installs it)")
    per_hand = {}
    for engine in ("tricktaker", "openspiel"):
        base, loaded = count(engine, 0), count(engine, args.hands)
        per_hand[engine] = (loaded - base) / args.hands
        print(f"{engine:12s} {per_hand[engine]:>14,.0f} instructions per hand")
    ratio = per_hand["openspiel"] / per_hand["tricktaker"]
    print(f"ratio (OpenSpiel instructions / tricktaker instructions): {ratio:.2f} x")


if __name__ == "__main__":
    main()
