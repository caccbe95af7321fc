"""Start-up time of the command line, against a bare ``python -c pass``.

    python bench/startup.py [--runs N] [--json]

Each command is run N times (interleaved, so a passing load spike hits them all); the
table gives the median, the fastest run and the ratio of the median to that of
``python -c pass``. The target: ``tricktaker --help`` and ``--version`` in at most
150 ms (median).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

TARGET_MS = 150.0
"""The start-up budget of ``tricktaker --help`` and ``tricktaker --version``."""


def script() -> str:
    """The ``tricktaker`` script of this interpreter's environment (else the one on PATH)."""
    beside = Path(sys.executable).parent / "tricktaker"
    if beside.exists():
        return str(beside)
    found = shutil.which("tricktaker")
    if found is None:
        raise SystemExit("the tricktaker script is not installed (pip install -e .)")
    return found


def commands() -> dict[str, list[str]]:
    """What is timed, by label."""
    python, tool = sys.executable, script()
    return {
        "python -c pass": [python, "-c", "pass"],
        'python -c "import tricktaker"': [python, "-c", "import tricktaker"],
        "tricktaker --help": [tool, "--help"],
        "tricktaker --version": [tool, "--version"],
        "tricktaker rules": [tool, "rules"],
    }


def time_once(argv: list[str]) -> float:
    """Milliseconds from start to exit of one run (output discarded; it must succeed)."""
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return 1000 * (time.perf_counter() - start)


def measure(runs: int) -> dict[str, list[float]]:
    """Each command's times in milliseconds, ``runs`` of each, after one warm-up run."""
    todo = commands()
    times: dict[str, list[float]] = {label: [] for label in todo}
    for argv in todo.values():
        time_once(argv)
    for _ in range(runs):
        for label, argv in todo.items():
            times[label].append(time_once(argv))
    return times


def main(argv: list[str] | None = None) -> int:
    """Print the table (or JSON); the exit status is 1 when --help or --version is over
    the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="runs of each command")
    parser.add_argument("--json", action="store_true", help="print JSON instead")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    times = measure(args.runs)
    base = statistics.median(times["python -c pass"])
    rows = {
        label: {
            "median_ms": round(statistics.median(values), 1),
            "min_ms": round(min(values), 1),
            "ratio": round(statistics.median(values) / base, 2),
        }
        for label, values in times.items()
    }
    over = [
        label
        for label in ("tricktaker --help", "tricktaker --version")
        if rows[label]["median_ms"] > TARGET_MS
    ]
    if args.json:
        print(json.dumps({"runs": args.runs, "target_ms": TARGET_MS, "commands": rows}))
    else:
        width = max(map(len, rows))
        print(f"{'command':<{width}}  median ms  fastest ms  x python -c pass   ({args.runs} runs)")
        for label, row in rows.items():
            print(
                f"{label:<{width}}  {row['median_ms']:>9.1f}  {row['min_ms']:>10.1f}"
                f"  {row['ratio']:>16.2f}"
            )
        for label in over:
            print(f"{label}: median over the {TARGET_MS:.0f} ms target")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
