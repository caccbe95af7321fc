"""The compiled kernel's ISMCTS against a baseline build of it, side by side: instructions
an iteration counted by callgrind (exact, repeatable) and iterations a second (wall clock,
alternating rounds), at a bid, an early card and a mid-hand card of OpenSpiel's
``oh_hell`` (4 players, 12 tricks; the positions of ``search_speed.py``).

Both kernels are built here the same way, from ``setup.py``'s sources and compile flags:
the baseline from the git revision ``--baseline`` (default ``HEAD``), the other from the
working tree. Each is loaded through ``TRICKTAKER_KERNEL_LIBRARY`` in a child process.

    .venv/bin/python bench/kernel_instructions.py --baseline 2947c2c [--rounds 7]

Needs ``valgrind`` (Debian package) for the instruction counts (``--rounds`` alone runs
without it) and g++ with Python's headers. Fewer instructions need not mean less time;
read the two columns together.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
PHASES = ("bid", "early", "mid")


def setup_values(setup_py: str) -> tuple[list[str], list[str], str]:
    """``SOURCES``, ``COMPILE_ARGS`` and ``KERNEL`` as ``setup.py`` sets them."""
    found: dict[str, object] = {}
    for node in ast.parse(setup_py).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name in ("SOURCES", "COMPILE_ARGS", "KERNEL"):
                found[name] = ast.literal_eval(node.value)
    sources, flags, kernel = found["SOURCES"], found["COMPILE_ARGS"], found["KERNEL"]
    assert isinstance(sources, list)
    assert isinstance(flags, list)
    assert isinstance(kernel, str)
    return sources, flags, kernel


def build(tree: Path, out: Path) -> Path:
    """The kernel of the source tree at ``tree`` built into ``out``/_core.so."""
    sources, flags, kernel = setup_values((tree / "setup.py").read_text())
    include = sysconfig.get_paths()["include"]
    library = out / "_core.so"
    out.mkdir(parents=True, exist_ok=True)
    command = ["g++", *flags, "-shared", "-fPIC", f"-I{include}"]
    command += [str(tree / kernel / name) for name in sources] + ["-o", str(library)]
    subprocess.run(command, check=True)
    return library


def baseline_tree(revision: str, into: Path) -> Path:
    """``setup.py`` and the kernel's sources at ``revision``, exported into ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision, "setup.py", "src/tricktaker/kernel"],
        check=True,
        capture_output=True,
    ).stdout
    into.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def child(phase: str, iterations: int, positions: int) -> None:
    """In the child: search each position of ``phase`` (``kernel_speed``'s timing of the
    hard bot, which runs exactly ``iterations`` without a time budget); print the
    iterations and their rate a second."""
    sys.path.insert(0, str(BENCH))
    from kernel_speed import kernel_ismcts_rate
    from search_speed import make_positions
    from tricktaker.rules.ruleset import load_ruleset

    rules = load_ruleset(BENCH / "openspiel_oh_hell.toml")
    chosen = make_positions(rules, positions, seed=0)[phase]
    rate = kernel_ismcts_rate([p.observation for p in chosen], iterations, seed=0)
    print(json.dumps({"iterations": iterations * len(chosen), "rate": rate}))


def run_child(
    library: Path, phase: str, args: argparse.Namespace, callgrind: bool
) -> dict[str, float]:
    """The child's figures with ``library``; with ``callgrind``, the instructions of the
    kernel's ISMCTS calls too (``--toggle-collect``: only inside them)."""
    command = [sys.executable, __file__, "--child", phase]
    command += ["--iterations", str(args.iterations), "--positions", str(args.positions)]
    env = {**os.environ, "TRICKTAKER_KERNEL_LIBRARY": str(library)}
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "callgrind.out"
        if callgrind:
            command = [
                "valgrind",
                "--tool=callgrind",
                "--toggle-collect=tk::ismcts*",
                f"--callgrind-out-file={out}",
                *command,
            ]
        done = subprocess.run(command, check=True, capture_output=True, text=True, env=env)
        figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
        if callgrind:
            totals = re.search(r"^summary:\s+(\d+)", out.read_text(), re.MULTILINE)
            assert totals is not None, "callgrind wrote no summary"
            figures["instructions"] = int(totals.group(1))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default="HEAD", help="git revision of the baseline")
    parser.add_argument("--iterations", type=int, default=3000, help="a search's iterations")
    parser.add_argument("--positions", type=int, default=3, help="positions a phase")
    parser.add_argument("--rounds", type=int, default=0, help="wall-clock rounds (0: none)")
    parser.add_argument("--no-callgrind", action="store_true", help="skip the counts")
    parser.add_argument("--child", choices=PHASES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.iterations, args.positions)
        return
    if not args.no_callgrind and shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind), or give --no-callgrind")
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        libraries = {
            "baseline": build(baseline_tree(args.baseline, work / "src"), work / "baseline"),
            "working tree": build(ROOT, work / "new"),
        }
        print(
            f"kernel ISMCTS, {args.iterations} iterations a search, {args.positions} "
            f"positions a phase; baseline {args.baseline}, against the working tree"
        )
        if not args.no_callgrind:
            print(f"{'instructions an iteration':28}" + "".join(f"{p:>12}" for p in PHASES))
            counts = {
                name: [run_child(lib, p, args, True) for p in PHASES]
                for name, lib in libraries.items()
            }
            per = {
                name: [f["instructions"] / f["iterations"] for f in figures]
                for name, figures in counts.items()
            }
            for name, row in per.items():
                print(f"{name:28}" + "".join(f"{x:12.0f}" for x in row))
            ratio = [b / n for b, n in zip(per["baseline"], per["working tree"], strict=True)]
            print(f"{'baseline / working tree':28}" + "".join(f"{x:12.3f}" for x in ratio))
        if args.rounds:
            rates: dict[str, list[list[float]]] = {name: [] for name in libraries}
            for _ in range(args.rounds):  # alternating, so that the load falls on both
                for name, lib in libraries.items():
                    figures = [run_child(lib, p, args, False) for p in PHASES]
                    rates[name].append([f["rate"] for f in figures])
            print(f"{'iterations a second, median':28}" + "".join(f"{p:>12}" for p in PHASES))
            for name, rows in rates.items():
                medians = [statistics.median(column) for column in zip(*rows, strict=True)]
                print(f"{name:28}" + "".join(f"{x:12.0f}" for x in medians))
            paired = [
                statistics.median(
                    n[i] / b[i]
                    for n, b in zip(rates["working tree"], rates["baseline"], strict=True)
                )
                for i in range(len(PHASES))
            ]
            print(
                f"{'working tree / baseline':28}"
                + "".join(f"{x:12.3f}" for x in paired)
                + f"   (median of {args.rounds} paired rounds)"
            )


if __name__ == "__main__":
    main()
