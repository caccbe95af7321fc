"""Malformed inputs never crash the compiled kernel: every entry point raises a Python
exception for them, checked by hypothesis (``tests/kernel/malformed.py``) in a
subprocess on a build with AddressSanitizer and UndefinedBehaviorSanitizer, so that an
out-of-range read or undefined behaviour fails the test instead of passing unseen.

The sanitizer build is made in a temporary folder with g++ (the flags of ``make
kernel-asan``); under ``make kernel-asan``, which already runs these tests on its build,
that build is used. Without g++ or its sanitizer runtimes the test is skipped, and fails
under ``CI=true``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import tricktaker.kernel
from tests.postgres import in_ci

ROOT = Path(__file__).resolve().parents[2]
KERNEL = Path(tricktaker.kernel.__file__).resolve().parent
SOURCES = (
    "core.cpp",
    "policy.cpp",
    "determinize.cpp",
    "search.cpp",
    "endgame.cpp",
    "bidding.cpp",
    "module.cpp",
)
EXAMPLES = 60
"""Malformed calls per entry point (about 20 seconds in all on the sanitizer build)."""

SANITIZE = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"]


def unavailable(reason: str) -> None:
    """Fail under CI (the sanitizer build must run there), skip elsewhere."""
    if in_ci():
        pytest.fail(reason)
    pytest.skip(reason)


def runtimes(compiler: str) -> str | None:
    """The sanitizer runtimes to preload (a Python extension needs them loaded first)."""
    paths = []
    for name in ("libasan.so", "libubsan.so"):
        found = subprocess.run(
            [compiler, f"-print-file-name={name}"], capture_output=True, text=True, check=False
        ).stdout.strip()
        if not os.path.isabs(found) or not Path(found).exists():
            return None
        paths.append(found)
    return " ".join(paths)


def build(compiler: str, folder: Path) -> Path:
    """The kernel built with the sanitizers in ``folder`` (the sources compiled side by
    side, then linked)."""
    include = sysconfig.get_paths()["include"]
    flags = ["-std=c++17", "-O1", "-g1", "-fno-omit-frame-pointer", *SANITIZE, "-fPIC"]
    jobs = [
        (
            subprocess.Popen(
                [compiler, *flags, f"-I{include}", "-c", str(KERNEL / name), "-o", str(obj)],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            ),
            name,
        )
        for name, obj in ((name, folder / f"{name}.o") for name in SOURCES)
    ]
    for job, name in jobs:
        output, _ = job.communicate()
        assert job.returncode == 0, f"g++ {name} failed:\n{output}"
    library = folder / "_core.so"
    objects = [str(folder / f"{name}.o") for name in SOURCES]
    linked = subprocess.run(
        [compiler, *SANITIZE, "-shared", *objects, "-o", str(library)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert linked.returncode == 0, f"linking the sanitizer build failed:\n{linked.stderr}"
    return library


@pytest.fixture(scope="module")
def sanitized(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    """The sanitizer build of the kernel and the runtimes to preload with it."""
    preload = os.environ.get("LD_PRELOAD", "")
    library = os.environ.get("TRICKTAKER_KERNEL_LIBRARY")
    if library and "libasan" in preload:  # make kernel-asan: its build is loaded already
        return library, preload
    compiler = shutil.which("g++")
    if compiler is None:
        unavailable("the sanitizer build of the kernel needs g++")
    assert compiler is not None
    preloaded = runtimes(compiler)
    if preloaded is None:
        unavailable("g++ has no AddressSanitizer/UndefinedBehaviorSanitizer runtimes")
    assert preloaded is not None
    return str(build(compiler, tmp_path_factory.mktemp("kernel-asan"))), preloaded


def test_malformed_inputs_raise_and_never_crash_the_sanitized_kernel(
    sanitized: tuple[str, str],
) -> None:
    library, preload = sanitized
    env = {
        **os.environ,
        "LD_PRELOAD": preload,
        "ASAN_OPTIONS": "detect_leaks=0",
        "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
        "TRICKTAKER_KERNEL_LIBRARY": library,
    }
    run = subprocess.run(
        [sys.executable, "-m", "tests.kernel.malformed", str(EXAMPLES)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    report = f"exit {run.returncode}\n{run.stdout[-3000:]}\n{run.stderr[-6000:]}"
    assert run.returncode == 0, report
    assert "AddressSanitizer" not in run.stderr, report
    assert "runtime error" not in run.stderr, report
    loaded = run.stdout.split("loaded ", 1)[-1].split("\n", 1)[0]
    assert Path(ROOT, loaded).resolve() == Path(ROOT, library).resolve(), report
    checked = int(run.stdout.split("checked ")[-1].split()[0])
    assert checked >= EXAMPLES * 9, report
