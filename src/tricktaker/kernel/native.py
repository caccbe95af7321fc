"""The compiled extension, ``tricktaker.kernel._core``, if it was built.

``pip install`` (and ``make setup``) builds it from the C++ sources beside this file
(``setup.py``). Where it is missing, :func:`native` raises :class:`KernelUnavailableError`
saying why, and the search bots use the Python search.

``TRICKTAKER_KERNEL_LIBRARY=/path/to/_core.so`` loads another build of the same sources
instead (``make kernel-asan`` runs the kernel's tests on one built with AddressSanitizer
and UndefinedBehaviorSanitizer).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from types import ModuleType

__all__ = ["LOAD_ERROR", "KernelUnavailableError", "available", "native"]

_module: ModuleType | None
LOAD_ERROR: str | None


def _load() -> ModuleType:
    path = os.environ.get("TRICKTAKER_KERNEL_LIBRARY")
    if not path:
        return importlib.import_module("tricktaker.kernel._core")
    spec = importlib.util.spec_from_file_location("tricktaker.kernel._core", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"TRICKTAKER_KERNEL_LIBRARY={path}: not a loadable extension")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


try:
    _module = _load()
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
