"""Builds the compiled search kernel, ``tricktaker.kernel._core`` (C++17, plain CPython
API, no build dependency beyond setuptools and a C++ compiler). Everything else about the
package is in pyproject.toml.
"""

from setuptools import Extension, setup

SOURCES = [
    "core.cpp",
    "policy.cpp",
    "determinize.cpp",
    "search.cpp",
    "endgame.cpp",
    "bidding.cpp",
    "module.cpp",
]
HEADERS = [
    "core.hpp",
    "policy.hpp",
    "determinize.hpp",
    "search.hpp",
    "endgame.hpp",
    "bidding.hpp",
    "pyread.hpp",
]
KERNEL = "src/tricktaker/kernel/"

# The sanitizer build of the same sources is made by `make kernel-asan`, with g++ directly.
COMPILE_ARGS = ["-std=c++17", "-O2", "-g0", "-fvisibility=hidden"]

setup(
    ext_modules=[
        Extension(
            "tricktaker.kernel._core",
            sources=[KERNEL + name for name in SOURCES],
            depends=[KERNEL + name for name in HEADERS],
            language="c++",
            extra_compile_args=COMPILE_ARGS,
        )
    ]
)
