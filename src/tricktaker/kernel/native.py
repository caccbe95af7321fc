"""The compiled extension, ``tricktaker.kernel._core``, if it was built.

``pip install`` (and ``make setup``) builds it from the C++ sources beside this file
(``setup.py``). Where it is missing, :func:`native` raises :class:`KernelUnavailableError`
saying why, and the search bots use the Python search.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["LOAD_ERROR", "KernelUnavailableError", "available", "native"]

_module: ModuleType | None
LOAD_ERROR: str | None
try:
    _module = importlib.import_module("tricktaker.kernel._core")
    LOAD_ERROR = None
except ImportError as exc:  # not built (no compiler at install time) or a broken build
    _module = None
    LOAD_ERROR = str(exc)


class KernelUnavailableError(RuntimeError):
    """The compiled kernel is not built in this installation."""


def available() -> bool:
    """Whether the compiled kernel can be used."""
    return _module is not None


def native() -> ModuleType:
    """The compiled module, or :class:`KernelUnavailableError`."""
    if _module is None:
        raise KernelUnavailableError(
            "the compiled search kernel is not built (reinstall tricktaker with a C++"
            f" compiler: pip install -e .); import failed with: {LOAD_ERROR}"
        )
    return _module
