"""Builds the compiled search kernel, ``tricktaker.kernel._core`` (C++17, plain CPython
API, no build dependency beyond setuptools and a C++ compiler). Everything else about the
package is in pyproject.toml.

``TRICKTAKER_KERNEL_SANITIZE=1`` builds it with AddressSanitizer and
UndefinedBehaviorSanitizer (``make kernel-asan``).
"""

import os

from setuptools import Extension, setup

SOURCES = ["core.cpp", "policy.cpp", "determinize.cpp", "search.cpp", "module.cpp"]
HEADERS = ["core.hpp", "policy.hpp", "determinize.hpp", "search.hpp"]
KERNEL = "src/tricktaker/kernel/"

compile_args = ["-std=c++17", "-O2", "-fvisibility=hidden"]
link_args: list[str] = []
if os.environ.get("TRICKTAKER_KERNEL_SANITIZE") == "1":
    flags = [
        "-fsanitize=address,undefined",
        "-fno-sanitize-recover=undefined",
        "-fno-omit-frame-pointer",
        "-g",
    ]
    compile_args = ["-std=c++17", "-O1", *flags]
    link_args = flags

setup(
    ext_modules=[
        Extension(
            "tricktaker.kernel._core",
            sources=[KERNEL + name for name in SOURCES],
            depends=[KERNEL + name for name in HEADERS],
            language="c++",
            extra_compile_args=compile_args,
            extra_link_args=link_args,
        )
    ]
)
