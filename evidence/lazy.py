"""One lazy-export mechanism for the packages' `__init__` (PEP 562): a public name loads its module on first use."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any


def exporter(package: str, exports: dict[str, str]) -> Callable[[str], Any]:
    """The module `__getattr__` of `package`, resolving each name of `exports` (name → module) when first asked."""

    def __getattr__(name: str) -> Any:
        if name in exports:
            return getattr(import_module(exports[name]), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
